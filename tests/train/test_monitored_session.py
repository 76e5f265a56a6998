"""MonitoredTrainingSession / MonitoredSession / Scaffold / SessionManager."""

import os

import numpy as np
import pytest

import tensorweave as tf


def _model():
    rng = np.random.RandomState(0)
    x = tf.constant(rng.rand(16, 3).astype(np.float32))
    y = tf.constant(rng.rand(16, 1).astype(np.float32))
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    gs = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    return w, loss, gs, train


def _train(d, last_step, **kw):
    with tf.Graph().as_default():
        w, loss, gs, train = _model()
        steps = []
        with tf.train.MonitoredTrainingSession(checkpoint_dir=d, hooks=[tf.train.StopAtStepHook(last_step=last_step)],
                                               **kw) as sess:
            while not sess.should_stop():
                _, s = sess.run([train, gs])
                steps.append(s)
        return steps


def test_resumes_from_checkpoint_dir(tmp_path):
    d = str(tmp_path)
    first = _train(d, 5, save_checkpoint_steps=100)
    assert first == [1, 2, 3, 4, 5]
    # Saved at creation (step 0) and at the end (step 5).
    assert tf.train.latest_checkpoint(d) == os.path.join(d, "model.ckpt-5")
    w5 = tf.train.load_variable(d, "w")
    second = _train(d, 8, save_checkpoint_steps=100)
    assert second == [6, 7, 8]
    assert tf.train.latest_checkpoint(d) == os.path.join(d, "model.ckpt-8")
    with tf.Graph().as_default():
        w, loss, gs, train = _model()
        with tf.train.SingularMonitoredSession(checkpoint_dir=d) as sess:
            assert sess.run(gs) == 8
            assert not np.array_equal(sess.run(w), w5)


def test_default_checkpoint_and_summary_settings(tmp_path):
    d = str(tmp_path)
    with tf.Graph().as_default():
        _model()
        sess = tf.train.MonitoredTrainingSession(checkpoint_dir=d)
        kinds = [type(h).__name__ for h in sess._hooks]
        ckpt_hook = [h for h in sess._hooks if isinstance(h, tf.train.CheckpointSaverHook)][0]
        sess.close()
    assert kinds == ["StepCounterHook", "SummarySaverHook", "CheckpointSaverHook"]
    assert ckpt_hook._timer._every_secs == 600 and ckpt_hook._timer._every_steps is None
    with tf.Graph().as_default():
        _model()
        extra = tf.train.StopAtStepHook(num_steps=1)
        chief = tf.train.FinalOpsHook(None)
        sess = tf.train.MonitoredTrainingSession(hooks=[extra], chief_only_hooks=[chief])
        assert sess._hooks == [chief, extra]     # no checkpoint_dir: no saver/summary hooks
        sess.close()


def test_no_checkpoint_dir_initializes_and_finalizes():
    with tf.Graph().as_default() as g:
        w, loss, gs, train = _model()
        with tf.train.MonitoredTrainingSession() as sess:
            assert g.finalized
            with pytest.raises(RuntimeError, match="Graph is finalized"):
                tf.constant(1.0)
            assert sess.run(gs) == 0
            sess.run(train)
            assert sess.run(gs) == 1
        assert not g.finalized
        # The scaffold put its ops in the collections.
        assert len(g.get_collection(tf.GraphKeys.INIT_OP)) == 1
        assert len(g.get_collection(tf.GraphKeys.SAVERS)) == 1


def test_scaffold_init_fn_and_custom_ops():
    with tf.Graph().as_default():
        w, loss, gs, train = _model()
        calls = []
        set_w = w.assign([[1.0], [2.0], [3.0]])   # built before the scaffold finalizes the graph

        def init_fn(scaffold, sess):
            calls.append(scaffold)
            sess.run(set_w)
        scaffold = tf.train.Scaffold(init_fn=init_fn)
        with tf.train.SingularMonitoredSession(scaffold=scaffold) as sess:
            np.testing.assert_array_equal(sess.run(w), [[1.0], [2.0], [3.0]])
        assert calls == [scaffold]
        copy = tf.train.Scaffold(copy_from_scaffold=scaffold)
        assert copy.init_op is scaffold.init_op and copy.saver is scaffold.saver
        with pytest.raises(TypeError, match="copy_from_scaffold is not a Scaffold instance."):
            tf.train.Scaffold(copy_from_scaffold=1)


def test_model_not_ready_raises():
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        tf.train.get_or_create_global_step()
        scaffold = tf.train.Scaffold(init_op=tf.no_op())
        with pytest.raises(RuntimeError, match="Init operations did not make model ready"):
            tf.train.SingularMonitoredSession(scaffold=scaffold)


def test_monitored_session_recovers_from_aborted(tmp_path):
    d = str(tmp_path)
    _train(d, 3, save_checkpoint_steps=1)

    class AbortOnce(tf.train.SessionRunHook):
        aborted = False

        def before_run(self, run_context):
            if not AbortOnce.aborted:
                AbortOnce.aborted = True
                raise tf.errors.AbortedError(None, None, "parameter server restarted")

    with tf.Graph().as_default():
        w, loss, gs, train = _model()
        creator = tf.train.ChiefSessionCreator(checkpoint_dir=d)
        with tf.train.MonitoredSession(session_creator=creator, hooks=[AbortOnce()]) as sess:
            assert sess.run(gs) == 3          # a new session, restored from the checkpoint
        assert AbortOnce.aborted


def test_summaries_are_written_when_available(tmp_path):
    pytest.importorskip("google.protobuf")
    d = str(tmp_path)
    with tf.Graph().as_default():
        w, loss, gs, train = _model()
        if not hasattr(tf, "summary") or not hasattr(tf.summary, "scalar"):
            pytest.skip("tf.summary not available")
        tf.summary.scalar("loss", loss)
        with tf.train.MonitoredTrainingSession(checkpoint_dir=d, save_summaries_steps=2,
                                               hooks=[tf.train.StopAtStepHook(last_step=4)]) as sess:
            while not sess.should_stop():
                sess.run(train)
    events = [f for f in os.listdir(d) if f.startswith("events.out.tfevents")]
    assert events
    assert os.path.exists(os.path.join(d, "model.ckpt-4.meta"))
