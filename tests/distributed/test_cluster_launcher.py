"""`tensorweave cluster --ps 1 --workers 2 -- python script.py` end to end: TF_CONFIG per task,
task-prefixed logs, between-graph replication through the ps, the chief's exit status, and every
process stopped when the chief exits."""

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, task_env

pytestmark = pytest.mark.distributed

SCRIPT = textwrap.dedent("""
    import os, sys, time
    import tensorweave as tf
    from tensorweave.distributed import cluster_from_env
    cluster, job, task = cluster_from_env()
    server = tf.train.Server(cluster, job_name=job, task_index=task)
    print("pid", os.getpid(), flush=True)
    if job == "ps":
        server.join()
    with tf.device("/job:ps/task:0"):
        total = tf.get_variable("total", [], initializer=tf.zeros_initializer())
    inc = tf.assign_add(total, 1.0, use_locking=True)
    with tf.Session(server.target) as sess:
        if task == 0:
            sess.run(total.initializer)
            open(os.environ["READY_FILE"], "w").close()
        else:
            deadline = time.time() + 60
            while not os.path.exists(os.environ["READY_FILE"]) and time.time() < deadline:
                time.sleep(0.05)
        for _ in range(10):
            sess.run(inc.op)
        if task == 0:
            deadline = time.time() + 60
            while sess.run(total) < 20 and time.time() < deadline:
                time.sleep(0.05)
            print("final", sess.run(total), flush=True)
            sys.exit(7)
        time.sleep(60)   # a non-chief still running when the chief exits is stopped by the launcher
""")


def test_cluster_launcher_end_to_end(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    env = task_env(READY_FILE=str(tmp_path / "ready"))
    p = subprocess.Popen([sys.executable, "-m", "tensorweave", "cluster", "--ps", "1", "--workers", "2", "--",
                          sys.executable, str(script)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=90)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, 9)
            p.wait(timeout=10)
    text = out.decode()
    assert p.returncode == 7, text                      # the chief's status
    assert "[worker:0] final 20.0" in text, text
    pids = [int(line.split()[-1]) for line in text.splitlines() if " pid " in line]
    assert len(pids) == 3 and any(line.startswith("[ps:0] pid") for line in text.splitlines()), text
    assert "[worker:1] pid" in text
    for pid in pids:                                     # every task process is gone
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
