"""Crash safety: a process killed (SIGKILL, by PID) at a random moment while it writes
checkpoints leaves the last recorded checkpoint loadable; a training run under
MonitoredTrainingSession killed mid-way resumes at its last saved step."""

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import tensorweave as tf

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_SAVER_LOOP = textwrap.dedent("""
    import sys, numpy as np
    import tensorweave as tf
    d = sys.argv[1]
    big = tf.Variable(tf.zeros([1024, 1024]), name="big")        # 4 MiB
    step = tf.Variable(0, dtype=tf.int64, name="step")
    bump = tf.group(tf.assign_add(big, tf.ones([1024, 1024])), tf.assign_add(step, 1))
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(1, 400):
            sess.run(bump)
            saver.save(sess, d + "/model.ckpt", global_step=i, write_meta_graph=False)
            if i == 2:
                print("saving", flush=True)
""")


def _spawn(code, *args):
    env = dict(os.environ, PYTHONPATH=_REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, env=env)


def _wait_for_line(proc, text, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if text in line.decode():
            return
    proc.kill()
    proc.wait()
    raise AssertionError(f"subprocess never printed {text!r}")


def _kill(proc):
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()


def test_kill_during_saves_leaves_last_checkpoint_loadable(tmp_path):
    rng = random.Random(1234)
    for trial in range(3):
        d = tmp_path / f"t{trial}"
        d.mkdir()
        proc = _spawn(_SAVER_LOOP, str(d))
        try:
            _wait_for_line(proc, "saving")
            time.sleep(rng.uniform(0.0, 0.3))   # a random moment among the saves
        finally:
            _kill(proc)
        latest = tf.train.latest_checkpoint(str(d))
        assert latest is not None
        with tf.Graph().as_default():
            big = tf.Variable(tf.zeros([1024, 1024]), name="big")
            step = tf.Variable(0, dtype=tf.int64, name="step")
            saver = tf.train.Saver()
            with tf.Session() as sess:
                saver.restore(sess, latest)
                b, s = sess.run([big, step])
        assert s >= 2 and latest.endswith(f"-{s}")
        assert b.min() == b.max() == float(s)      # the data is the step's, all of it
        # Every checkpoint the state file still lists is complete too.
        for p in tf.train.get_checkpoint_state(str(d)).all_model_checkpoint_paths:
            if tf.train.checkpoint_exists(p):
                tf.train.NewCheckpointReader(p).get_tensor("big")


_TRAIN = textwrap.dedent("""
    import sys, time, numpy as np
    import tensorweave as tf
    d, last = sys.argv[1], int(sys.argv[2])
    rng = np.random.RandomState(0)
    x = tf.constant(rng.rand(64, 4).astype(np.float32))
    y = tf.constant((rng.rand(64, 4) @ np.ones((4, 1))).astype(np.float32))
    w = tf.Variable(tf.zeros([4, 1]), name="w")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    gs = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=gs)
    hooks = [tf.train.StopAtStepHook(last_step=last)]
    with tf.train.MonitoredTrainingSession(checkpoint_dir=d, hooks=hooks, save_checkpoint_steps=10,
                                           save_summaries_steps=None, log_step_count_steps=None) as sess:
        first = None
        while not sess.should_stop():
            _, step = sess.run([train, gs])
            if first is None:
                first = step
                print("first", first, flush=True)
            if step == 25:
                print("at25", flush=True)
            time.sleep(0.002)
    print("done", first, flush=True)
""")


def test_monitored_training_resumes_after_kill(tmp_path):
    d = str(tmp_path)
    proc = _spawn(_TRAIN, d, "100000")
    try:
        _wait_for_line(proc, "at25")
        time.sleep(random.Random(7).uniform(0.0, 0.1))
    finally:
        _kill(proc)
    latest = tf.train.latest_checkpoint(d)
    saved = int(tf.train.load_variable(d, "global_step"))
    assert latest.endswith(f"-{saved}") and saved >= 20 and saved % 10 == 0
    w_saved = tf.train.load_variable(d, "w")
    # Resume: the new run starts at the saved step, with the saved weights, and stops at 60.
    proc = _spawn(_TRAIN, d, str(saved + 10))
    out, _ = proc.communicate(timeout=120)
    lines = out.decode().split()
    assert proc.returncode == 0
    assert lines[lines.index("first") + 1] == str(saved + 1)
    assert tf.train.latest_checkpoint(d).endswith(f"-{saved + 10}")
    assert int(tf.train.load_variable(d, "global_step")) == saved + 10
    assert not np.array_equal(tf.train.load_variable(d, "w"), w_saved)
