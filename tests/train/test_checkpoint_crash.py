"""Crash safety: a process killed (SIGKILL, by PID) at a random moment while it writes
checkpoints leaves the last recorded checkpoint loadable; a training run under
MonitoredTrainingSession killed mid-way resumes at its last saved step.

The kill moments are chosen by what the child reports (its n-th save), not by timers, and every
wait on the child is bounded: a reader thread hands its lines over a queue read with a timeout,
so a loaded machine makes the test slower, never wrong or hung."""

import os
import queue
import random
import signal
import subprocess
import sys
import textwrap
import threading
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
            print("saved", i, flush=True)
""")


_TIMEOUT = 300   # seconds; generous, since 2 shared cores can make a child's import slow


def _spawn(code, *args):
    """Starts `code` in a child Python; its stdout lines arrive on `proc.lines` (a queue that a
    daemon reader thread fills, with None at end of output)."""
    env = dict(os.environ, PYTHONPATH=_REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, env=env)
    proc.lines = queue.Queue()

    def read():
        for line in proc.stdout:
            proc.lines.put(line.decode().strip())
        proc.lines.put(None)
    threading.Thread(target=read, daemon=True).start()
    return proc


def _wait_for_line(proc, text, timeout=_TIMEOUT):
    """Blocks until the child prints a line equal to `text` (bounded by `timeout` in all)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = proc.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            line = None
        if line == text:
            return
        if line is None:
            _kill(proc)
            raise AssertionError(f"subprocess never printed {text!r}")


def _read_to_end(proc, timeout=_TIMEOUT):
    """All the child's remaining lines, up to the end of its output (bounded by `timeout`)."""
    deadline, lines = time.monotonic() + timeout, []
    while True:
        try:
            line = proc.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            _kill(proc)
            raise AssertionError(f"subprocess did not finish in {timeout} s; printed {lines}") from None
        if line is None:
            return lines
        lines.append(line)


def _kill(proc):
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=_TIMEOUT)


def test_kill_during_saves_leaves_last_checkpoint_loadable(tmp_path):
    rng = random.Random(1234)
    for trial in range(3):
        d = tmp_path / f"t{trial}"
        d.mkdir()
        proc = _spawn(_SAVER_LOOP, str(d))
        try:
            # Kill right after a seeded n-th save: the child is then inside its next save
            # (update, data files, index, state file, deletion of the oldest) at whatever point
            # the kill reaches it, which is the moment under test.
            _wait_for_line(proc, f"saved {rng.randint(2, 12)}")
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
        _wait_for_line(proc, "at25")    # steps 10 and 20 were saved before step 25 returned
    finally:
        _kill(proc)
    latest = tf.train.latest_checkpoint(d)
    saved = int(tf.train.load_variable(d, "global_step"))
    assert latest.endswith(f"-{saved}") and saved >= 20 and saved % 10 == 0
    w_saved = tf.train.load_variable(d, "w")
    # Resume: the new run starts at the saved step, with the saved weights, and stops at 60.
    proc = _spawn(_TRAIN, d, str(saved + 10))
    lines = _read_to_end(proc)
    assert proc.wait(timeout=_TIMEOUT) == 0
    assert f"first {saved + 1}" in lines and f"done {saved + 1}" in lines, lines
    assert tf.train.latest_checkpoint(d).endswith(f"-{saved + 10}")
    assert int(tf.train.load_variable(d, "global_step")) == saved + 10
    assert not np.array_equal(tf.train.load_variable(d, "w"), w_saved)
