"""Parameter-server training with real processes on 127.0.0.1: examples/distributed_mnist.py as
1 ps + 2 workers (between-graph replication), synchronous with a backup worker, asynchronous,
and a worker killed mid-training while the chief goes on with the backup. Every process is
started here and stopped by PID (the `procs` fixture); every wait is bounded."""

import os
import re
import subprocess
import sys
import time

import pytest

from conftest import ROOT, make_cluster, task_env

pytestmark = pytest.mark.distributed

EXAMPLE = os.path.join(ROOT, "examples", "distributed_mnist.py")
RUN_TIMEOUT_S = 90


def _start(procs, cluster, job, index, *flags):
    p = subprocess.Popen([sys.executable, EXAMPLE, "--job_name", job, "--task_index", str(index),
                          "--ps_hosts", ",".join(cluster["ps"]), "--worker_hosts", ",".join(cluster["worker"]),
                          *flags], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         env=task_env())
    procs.procs.append(p)
    return p


def _start_cluster(procs, *flags):
    cluster = make_cluster(n_ps=1, n_workers=2)
    ps = _start(procs, cluster, "ps", 0)
    chief = _start(procs, cluster, "worker", 0, *flags)
    worker1 = _start(procs, cluster, "worker", 1, *flags)
    return ps, chief, worker1


def _finish(p, timeout=RUN_TIMEOUT_S):
    """The process's whole output once it exits (bounded); fails on a timeout."""
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate(timeout=10)
        raise AssertionError(f"pid {p.pid} did not finish in {timeout} s:\n{out.decode(errors='replace')}")
    return p.returncode, out.decode(errors="replace")


def _accuracy(out):
    m = re.search(r"test accuracy: ([0-9.]+)", out)
    assert m, out
    return float(m.group(1))


def _stale(out):
    m = re.search(r"stale gradients dropped \(all workers\): (\d+)", out)
    return int(m.group(1)) if m else None


@pytest.mark.parametrize("to_aggregate", [1, 2], ids=["one_backup_worker", "no_backup"])
def test_sync_training_reaches_single_process_accuracy(procs, to_aggregate):
    # With 1 gradient aggregated per step, the other worker is a backup whose late gradient for
    # the step is dropped. Single-process training of this model for the same number of steps
    # gives about 0.95 held-out accuracy.
    start = time.monotonic()
    _, chief, worker1 = _start_cluster(procs, "--sync_replicas", "--replicas_to_aggregate", str(to_aggregate),
                                       "--train_steps", "250" if to_aggregate == 2 else "300")
    rc, out = _finish(chief)
    assert rc == 0, out
    assert f"sync, {to_aggregate} of 2 workers aggregated" in out
    assert _accuracy(out) >= 0.9, out
    stale = _stale(out)
    assert stale is not None, out
    if to_aggregate == 1:
        # Both workers pushed gradients; one per step was used, so the others were dropped.
        assert stale > 0, out
    assert time.monotonic() - start < RUN_TIMEOUT_S


def test_async_training_converges(procs):
    _, chief, worker1 = _start_cluster(procs, "--train_steps", "300", "--use_locking")
    rc, out = _finish(chief)
    assert rc == 0, out
    assert "async" in out
    assert _accuracy(out) >= 0.9, out
    # Each worker applied its own updates: together they made the 300 global steps.
    m = re.search(r"worker 0: done, (\d+) local steps", out)
    assert m and int(m.group(1)) < 300, out
    rc1, out1 = _finish(worker1, timeout=30)
    m1 = re.search(r"worker 1: done, (\d+) local steps", out1)
    assert m1 and int(m.group(1)) + int(m1.group(1)) >= 300, out1


def test_killed_worker_chief_goes_on_with_the_backup(procs):
    _, chief, worker1 = _start_cluster(procs, "--sync_replicas", "--replicas_to_aggregate", "1",
                                       "--train_steps", "300")
    # Kill worker 1 once it has trained a while (its first progress line), by PID.
    procs.wait_line(worker1, "local step 100", timeout=RUN_TIMEOUT_S)
    worker1.kill()
    worker1.wait(timeout=10)
    rc, out = _finish(chief)
    assert rc == 0, out
    assert _accuracy(out) >= 0.9, out


def test_partitioned_embedding_on_two_ps_tasks_updates_rows_in_place(procs):
    # 2 ps processes hold the shards; this process is the worker. Gathers and the sparse
    # updates run on the shards' tasks (placement checked against TF in
    # tests/train/test_partitioned_variables.py); here: the values over real gRPC.
    import numpy as np

    import tensorweave as tf
    cluster = make_cluster(n_ps=2, n_workers=1)
    for i in range(2):
        procs.wait_line(procs.serve(cluster, "ps", i), "READY")
    server = tf.train.Server(cluster, job_name="worker", task_index=0)
    try:
        table = np.random.RandomState(0).rand(1001, 16).astype(np.float32)
        with tf.Graph().as_default():
            with tf.device(tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:0")):
                emb = tf.get_variable("emb", initializer=tf.constant(table),
                                      partitioner=tf.fixed_size_partitioner(2))
                ids = tf.placeholder(tf.int64, [None])
                looked = tf.nn.embedding_lookup(emb, ids)          # "mod"
                train = tf.train.GradientDescentOptimizer(0.5).minimize(tf.reduce_sum(looked))
            assert [v.device for v in emb] == ["/job:ps/task:0", "/job:ps/task:1"]
            with tf.Session(server.target, config=tf.ConfigProto(operation_timeout_in_ms=30000)) as sess:
                sess.run(tf.global_variables_initializer())
                before = np.concatenate(sess.run(list(emb)))
                got = sess.run(looked, {ids: [3, 1000, 4]})
                sess.run(train, {ids: [3, 1000, 4]})
                after = np.concatenate(sess.run(list(emb)))
        # mod over 2 shards of 501 and 500 rows: id i is row i // 2 of shard i % 2.
        pos = {i: (i % 2) * 501 + i // 2 for i in (3, 1000, 4)}
        np.testing.assert_array_equal(before, table)
        np.testing.assert_array_equal(got, table[[pos[3], pos[1000], pos[4]]])
        touched = sorted(pos.values())
        np.testing.assert_allclose(after[touched], table[touched] - 0.5, rtol=1e-6)
        rest = np.setdiff1d(np.arange(1001), touched)
        assert after[rest].tobytes() == table[rest].tobytes()
    finally:
        server.stop()


_ASYNC_WORKER = r"""
import json, sys
import tensorweave as tf
cluster, steps = json.loads(sys.argv[1]), int(sys.argv[2])
server = tf.train.Server(cluster, job_name="worker", task_index=1)
with tf.device(tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:1")):
    gs = tf.train.get_or_create_global_step()
    w = tf.get_variable("w", [64], initializer=tf.zeros_initializer())
    train = tf.train.GradientDescentOptimizer(1.0, use_locking=True).minimize(-tf.reduce_sum(w), global_step=gs)
with tf.Session(server.target) as sess:
    print("READY", flush=True)
    sys.stdin.readline()
    for _ in range(steps):
        sess.run(train)
print("DONE", flush=True)
"""


def test_async_updates_from_two_worker_processes_are_all_applied(procs):
    # Between-graph replication: worker 0 (this process) and worker 1 (a subprocess) each apply
    # their own updates to the ps variable; with use_locking no update is lost.
    import json

    import numpy as np

    import tensorweave as tf
    steps = 150
    cluster = make_cluster(n_ps=1, n_workers=2)
    procs.wait_line(procs.serve(cluster, "ps", 0), "READY")
    server = tf.train.Server(cluster, job_name="worker", task_index=0)
    try:
        with tf.Graph().as_default():
            with tf.device(tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:0")):
                gs = tf.train.get_or_create_global_step()
                w = tf.get_variable("w", [64], initializer=tf.zeros_initializer())
                train = tf.train.GradientDescentOptimizer(1.0, use_locking=True).minimize(-tf.reduce_sum(w),
                                                                                          global_step=gs)
            with tf.Session(server.target, config=tf.ConfigProto(operation_timeout_in_ms=30000)) as sess:
                sess.run(tf.global_variables_initializer())
                other = subprocess.Popen([sys.executable, "-c", _ASYNC_WORKER, json.dumps(cluster), str(steps)],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         env=task_env())
                procs.procs.append(other)
                procs.wait_line(other, "READY")
                other.stdin.write(b"go\n")
                other.stdin.flush()
                for _ in range(steps):       # at the same time as worker 1
                    sess.run(train)
                procs.wait_line(other, "DONE", timeout=RUN_TIMEOUT_S)
                final_w, final_step = sess.run([w, gs])
        np.testing.assert_array_equal(final_w, np.full(64, 2.0 * steps, np.float32))
        assert final_step == 2 * steps
    finally:
        server.stop()
