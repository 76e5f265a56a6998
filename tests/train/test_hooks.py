"""Session-run hooks: call order, StopAtStepHook, NanTensorHook, LoggingTensorHook, FinalOpsHook,
FeedFnHook, CheckpointSaverHook, ProgressBarHook and their argument checks."""

import io

import numpy as np
import pytest

import tensorweave as tf


class _Recorder(tf.train.SessionRunHook):
    def __init__(self, log, name, fetch=None, stop_at=None):
        self.log, self.name, self.fetch, self.stop_at, self.runs = log, name, fetch, stop_at, 0

    def begin(self):
        self.log.append((self.name, "begin", tf.get_default_graph().finalized))

    def after_create_session(self, session, coord):
        self.log.append((self.name, "after_create_session", session.graph.finalized))

    def before_run(self, run_context):
        self.log.append((self.name, "before_run"))
        return tf.train.SessionRunArgs(self.fetch) if self.fetch is not None else None

    def after_run(self, run_context, run_values):
        self.runs += 1
        self.log.append((self.name, "after_run", None if run_values.results is None else int(run_values.results)))
        if self.stop_at is not None and self.runs >= self.stop_at:
            run_context.request_stop()

    def end(self, session):
        self.log.append((self.name, "end"))


def _counter():
    gs = tf.train.get_or_create_global_step()
    return gs, tf.assign_add(gs, 1)


def test_hook_call_order_and_results():
    log = []
    with tf.Graph().as_default():
        gs, inc = _counter()
        hooks = [_Recorder(log, "a", fetch=gs), _Recorder(log, "b", stop_at=2)]
        with tf.train.MonitoredSession(hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run(inc)
        assert not tf.get_default_graph().finalized    # unfinalized again after close
    assert log == [("a", "begin", False), ("b", "begin", False),
                   ("a", "after_create_session", True), ("b", "after_create_session", True),
                   ("a", "before_run"), ("b", "before_run"), ("a", "after_run", 1), ("b", "after_run", None),
                   ("a", "before_run"), ("b", "before_run"), ("a", "after_run", 2), ("b", "after_run", None),
                   ("a", "end"), ("b", "end")]


def test_exception_skips_end_and_out_of_range_ends_cleanly():
    log = []
    with tf.Graph().as_default():
        _, inc = _counter()
        with pytest.raises(ZeroDivisionError):
            with tf.train.MonitoredSession(hooks=[_Recorder(log, "h")]) as sess:
                sess.run(inc)
                1 / 0
        assert ("h", "end") not in log
        log.clear()
        with tf.train.MonitoredSession(hooks=[_Recorder(log, "h")]) as sess:
            sess.run(inc)
            raise tf.errors.OutOfRangeError(None, None, "End of sequence")
        assert log[-1] == ("h", "end")
        assert sess.should_stop()
        with pytest.raises(RuntimeError, match="Run called even after should_stop requested."):
            with tf.train.MonitoredSession(hooks=[_Recorder(log, "h", stop_at=1)]) as sess:
                sess.run(inc)
                sess.run(inc)


def test_stop_at_step_hook_num_steps_and_last_step():
    with tf.Graph().as_default():
        gs, inc = _counter()
        with tf.train.SingularMonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=5)]) as sess:
            n = 0
            while not sess.should_stop():
                sess.run(inc)
                n += 1
            assert n == 5 and sess.raw_session().run(gs) == 5
        with tf.train.SingularMonitoredSession(hooks=[tf.train.StopAtStepHook(last_step=3)]) as sess:
            while not sess.should_stop():
                sess.run(inc)
            assert sess.raw_session().run(gs) == 3
    with pytest.raises(ValueError, match="One of num_steps or last_step must be specified."):
        tf.train.StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of num_steps or last_step can be specified."):
        tf.train.StopAtStepHook(num_steps=1, last_step=2)
    with tf.Graph().as_default():
        tf.Variable(1.0)
        with pytest.raises(RuntimeError, match="Global step should be created to use StopAtStepHook."):
            tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=1)])


def test_nan_tensor_hook():
    with tf.Graph().as_default():
        _counter()
        x = tf.placeholder(tf.float32, [])
        loss = tf.identity(x)
        with pytest.raises(tf.train.NanLossDuringTrainingError, match="NaN loss during training."):
            with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss)]) as sess:
                sess.run(loss, {x: 1.0})
                sess.run(loss, {x: np.nan})
        with tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss, fail_on_nan_loss=False)]) as sess:
            sess.run(loss, {x: np.nan})
            assert sess.should_stop()


def test_logging_tensor_hook_final_ops_and_feed_fn(caplog):
    import logging
    with tf.Graph().as_default():
        gs, inc = _counter()
        x = tf.placeholder(tf.float32, [], name="x")
        doubled = tf.multiply(x, 2.0, name="doubled")
        final = tf.train.FinalOpsHook(gs)
        feeds = iter([1.0, 2.0, 3.0])
        hooks = [tf.train.LoggingTensorHook({"d": doubled, "step": gs}, every_n_iter=2),
                 tf.train.FeedFnHook(lambda: {x: next(feeds)}), final]
        tf.logging.set_verbosity(tf.logging.INFO)
        logger = logging.getLogger("tensorflow")
        records = []
        handler = logging.Handler()
        handler.emit = lambda r: records.append(r.getMessage())
        logger.addHandler(handler)
        try:
            with tf.train.MonitoredSession(hooks=hooks) as sess:
                got = [sess.run([doubled, inc]) for _ in range(3)]
        finally:
            logger.removeHandler(handler)
            tf.logging.set_verbosity(tf.logging.WARN)
        assert [g[0] for g in got] == [2.0, 4.0, 6.0]
        assert final.final_ops_values == 3
        logged = [m for m in records if m.startswith("d = ")]
        assert len(logged) == 2 and logged[0].startswith("d = 2.0, step = ")
    with pytest.raises(ValueError, match="exactly one of every_n_iter and every_n_secs"):
        tf.train.LoggingTensorHook(["x"])


def test_feed_conflicts_raise():
    with tf.Graph().as_default():
        _counter()
        x = tf.placeholder(tf.float32, [])
        hooks = [tf.train.FeedFnHook(lambda: {x: 1.0})]
        with pytest.raises(RuntimeError, match="Same tensor is fed by a SessionRunHook and user."):
            with tf.train.MonitoredSession(hooks=hooks) as sess:
                sess.run(x, {x: 2.0})


def test_checkpoint_saver_hook_steps(tmp_path):
    with tf.Graph().as_default():
        gs, inc = _counter()
        hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=3, save_graph_def=False)
        with tf.train.SingularMonitoredSession(hooks=[hook, tf.train.StopAtStepHook(last_step=7)]) as sess:
            while not sess.should_stop():
                sess.run(inc)
    steps = sorted(int(p.rsplit("-", 1)[1]) for p in
                   tf.train.get_checkpoint_state(str(tmp_path)).all_model_checkpoint_paths)
    assert steps[-1] == 7 and 0 in steps and 3 in steps and 6 in steps


def test_progress_bar_hook_counts_global_steps():
    out = io.StringIO()
    with tf.Graph().as_default():
        gs, inc = _counter()
        loss = tf.cast(gs, tf.float32) * 0.5
        hooks = [tf.train.StopAtStepHook(last_step=20),
                 tf.train.ProgressBarHook(total=20, tensors={"loss": loss}, file=out, mininterval=0)]
        with tf.train.MonitoredSession(hooks=hooks) as sess:
            while not sess.should_stop():
                sess.run(inc)
    text = out.getvalue()
    assert "20/20" in text and "loss=" in text
