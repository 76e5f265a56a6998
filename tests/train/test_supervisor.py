"""tf.train.Supervisor: defaults, restore-or-init round trips through logdir, the background
services (checkpoints, summaries, steps/sec) and how they stop, managed_session's error handling,
a non-chief waiting for the chief. Expected names and events were checked against real TensorFlow
(tensorflow.compat.v1, Supervisor in tensorflow/python/training/supervisor.py). Every wait is
bounded."""

import glob
import os
import threading
import time

import numpy as np
import pytest

import tensorweave as tf


def _model():
    gs = tf.train.get_or_create_global_step()
    v = tf.Variable(1.0, name="v")
    train = tf.group(tf.assign_add(v, 1.0), tf.assign_add(gs, 1))
    return gs, v, train


def _events(logdir):
    out = []
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        out.extend(tf.train.summary_iterator(path))
    return out


def _service_threads():
    return [t for t in threading.enumerate() if t.name.startswith("Supervisor") and t.is_alive()]


def test_defaults_from_collections_and_graph_finalized():
    gs, v, _ = _model()
    tf.summary.scalar("v", v)
    sv = tf.train.Supervisor()
    g = tf.get_default_graph()
    assert tf.train.Supervisor.USE_DEFAULT == 0  # TF's marker (None means "none")
    assert g.finalized
    assert sv.init_op is g.get_collection(tf.GraphKeys.INIT_OP)[0] and sv.init_op.name == "init"
    assert sv.ready_op is g.get_collection(tf.GraphKeys.READY_OP)[0]
    assert sv.ready_for_local_init_op is None  # TF keeps None as this default
    assert isinstance(sv.saver, tf.train.Saver) and g.get_collection(tf.GraphKeys.SAVERS) == [sv.saver]
    assert sv.global_step is gs
    assert sv.summary_op.name == "Merge/MergeSummary:0"  # TF's name for merge_all's op
    assert sv.is_chief and sv.summary_writer is None and sv.save_path is None  # no logdir
    with pytest.raises(RuntimeError, match="finalized"):
        tf.constant(1.0)


def test_none_disables_pieces_and_non_chief_needs_placed_variables():
    _model()
    sv = tf.train.Supervisor(ready_op=None, saver=None, summary_op=None, global_step=None)
    assert sv.ready_op is None and sv.saver is None and sv.summary_op is None and sv.global_step is None
    tf.reset_default_graph()
    _model()
    with pytest.raises(ValueError, match="all Variables must have their device set"):
        tf.train.Supervisor(is_chief=False)


def test_chief_initializes_saves_and_second_supervisor_restores(tmp_path):
    logdir = str(tmp_path)
    gs, v, train = _model()
    sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
    with sv.managed_session() as sess:
        assert sess.run([gs, v]) == [0, 1.0]  # initialized by init_op
        for _ in range(7):
            sess.run(train)
        # TF's Supervisor writes no checkpoint when it stops: programs save explicitly.
        sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
    assert tf.train.latest_checkpoint(logdir) == os.path.join(logdir, "model.ckpt-7")
    assert os.path.exists(os.path.join(logdir, "graph.pbtxt"))

    tf.reset_default_graph()
    gs, v, train = _model()
    sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
    with sv.managed_session() as sess:
        assert sess.run([gs, v]) == [7, 8.0]  # restored, not re-initialized
    kinds = [e.WhichOneof("what") for e in _events(logdir)]
    assert "graph_def" in kinds and "meta_graph_def" in kinds


def test_background_services_checkpoint_summaries_and_stop_promptly(tmp_path):
    logdir = str(tmp_path)
    gs, v, train = _model()
    tf.summary.scalar("v_summary", v)
    sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0.1, save_summaries_secs=0.1, stop_grace_secs=5)
    deadline = time.monotonic() + 15
    with sv.managed_session() as sess:
        assert {t.name for t in _service_threads()} >= {"SupervisorCheckpoint", "SupervisorSummaries",
                                                       "SupervisorStepCounter"}
        while time.monotonic() < deadline:
            sess.run(train)
            ckpt = tf.train.latest_checkpoint(logdir)
            if ckpt and int(ckpt.rsplit("-", 1)[1]) >= 3:
                break
            time.sleep(0.02)
        t0 = time.monotonic()
    assert time.monotonic() - t0 < 2.0  # the looper threads wait on the stop event, not a sleep
    assert not _service_threads()
    assert int(tf.train.latest_checkpoint(logdir).rsplit("-", 1)[1]) >= 3
    events = _events(logdir)
    tags = {val.tag for e in events if e.HasField("summary") for val in e.summary.value}
    assert {"v_summary", "global_step/sec"} <= tags
    logs = [e.session_log.status for e in events if e.HasField("session_log")]
    SL = tf.summary.SessionLog
    assert logs[0] == SL.START and SL.CHECKPOINT in logs and logs[-1] == SL.STOP


def test_summary_computed_writes_event_at_global_step(tmp_path):
    logdir = str(tmp_path)
    gs, v, train = _model()
    s = tf.summary.scalar("loss", v * 2.0)
    sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0, save_summaries_secs=0)
    with sv.managed_session() as sess:
        sess.run(train)
        sess.run(train)
        sv.summary_computed(sess, sess.run(s))
        sv.summary_computed(sess, sess.run(s), global_step=42)
    got = [(e.step, val.simple_value) for e in _events(logdir) if e.HasField("summary")
           for val in e.summary.value if val.tag == "loss"]
    assert got == [(2, 6.0), (42, 6.0)]
    tf.reset_default_graph()
    _model()
    sv = tf.train.Supervisor(logdir=None)
    with sv.managed_session() as sess:
        with pytest.raises(RuntimeError, match="requires a summary writer"):
            sv.summary_computed(sess, b"")


def test_managed_session_out_of_range_ends_cleanly_other_errors_raise():
    gs, v, train = _model()
    sv = tf.train.Supervisor()
    with sv.managed_session() as sess:
        sess.run(train)
        raise tf.errors.OutOfRangeError(None, None, "input exhausted")
    assert sv.should_stop()
    with pytest.raises(ValueError, match="boom"):
        with sv.managed_session() as sess:  # clear_stop(): the supervisor can be used again
            assert not sv.should_stop()
            raise ValueError("boom")


def test_queue_runners_local_init_and_epoch_end(tmp_path):
    data = np.arange(10, dtype=np.float32)
    x = tf.train.slice_input_producer([tf.constant(data)], num_epochs=2, shuffle=False)
    batch = tf.train.batch(x, batch_size=5)
    total = 0.0
    sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0, stop_grace_secs=5)
    t0 = time.monotonic()
    with sv.managed_session() as sess:  # local_init_op initializes the epoch counter
        for _ in range(10):
            if sv.should_stop():
                break
            total += float(np.sum(sess.run(batch)))
    assert total == 2 * data.sum()
    assert time.monotonic() - t0 < 10


def test_loop_runs_target_until_stop():
    _model()
    sv = tf.train.Supervisor()
    calls = []
    looper = sv.loop(0.01, calls.append, args=(1,))
    deadline = time.monotonic() + 5
    while len(calls) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    sv.request_stop()
    sv.stop(threads=[looper])
    assert len(calls) >= 3 and not looper.is_alive()


def test_non_chief_times_out_when_chief_never_initializes():
    with tf.device("/job:localhost/replica:0/task:0/cpu:0"):
        _model()
    sv = tf.train.Supervisor(is_chief=False, recovery_wait_secs=0.05)
    t0 = time.monotonic()
    with pytest.raises(tf.errors.DeadlineExceededError):
        sv.prepare_or_wait_for_session("", max_wait_secs=0.3)
    assert time.monotonic() - t0 < 5


def test_non_chief_waits_for_chief_over_grpc(tmp_path):
    server = tf.train.Server.create_local_server()
    try:
        def build():
            g = tf.Graph()
            with g.as_default(), tf.device("/job:localhost/replica:0/task:0/cpu:0"):
                gs, v, train = _model()
            return g, gs, v, train

        wg, wgs, wv, _ = build()
        worker = tf.train.Supervisor(graph=wg, is_chief=False, recovery_wait_secs=0.1)
        result = {}

        def run_worker():
            sess = worker.prepare_or_wait_for_session(server.target, max_wait_secs=20)
            result["v"] = sess.run(wv)
            sess.close()

        th = threading.Thread(target=run_worker, daemon=True)
        th.start()
        time.sleep(0.3)
        assert "v" not in result  # still waiting: nothing initialized yet
        cg, cgs, cv, ctrain = build()
        chief = tf.train.Supervisor(graph=cg, logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0)
        with chief.managed_session(server.target) as sess:
            sess.run(ctrain)
            th.join(20)
        assert not th.is_alive() and result["v"] in (1.0, 2.0)
    finally:
        server.stop()
