"""tf.train.ExponentialMovingAverage and assign_moving_average: names, collections and values
recorded from TensorFlow 2.21 (tf.compat.v1, graph mode) by /tmp/hema/ema_probe.py."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.train.moving_averages import assign_moving_average


def test_exported():
    assert tf.train.ExponentialMovingAverage is not None
    assert tf.train.assign_moving_average is assign_moving_average


def _model():
    w = tf.Variable([1.0, 2.0], name="w")
    b = tf.Variable(3.0, name="b")
    step = tf.Variable(0, name="step", trainable=False)
    ema = tf.train.ExponentialMovingAverage(0.9, num_updates=step)
    op = ema.apply([w, b])
    return w, b, step, ema, op


def test_names_and_collections_like_tf():
    with tf.Graph().as_default() as g:
        w, b, step, ema, op = _model()
        assert op.name == "ExponentialMovingAverage" and op.type == "NoOp"
        assert [i.name for i in op.control_inputs] == ["ExponentialMovingAverage/AssignMovingAvg",
                                                       "ExponentialMovingAverage/AssignMovingAvg_1"]
        aw = ema.average(w)
        assert aw.name == "w/ExponentialMovingAverage:0"
        assert not aw.trainable and aw.dtype == tf.float32_ref
        assert ema.average_name(w) == "w/ExponentialMovingAverage"
        assert ema.average_name(b) == "b/ExponentialMovingAverage"
        assert ema.average(step) is None
        # TF puts the averaged variables (not the shadows) in MOVING_AVERAGE_VARIABLES.
        assert [v.name for v in tf.get_collection(tf.GraphKeys.MOVING_AVERAGE_VARIABLES)] == ["w:0", "b:0"]
        assert [v.name for v in tf.global_variables()] == [
            "w:0", "b:0", "step:0", "w/ExponentialMovingAverage:0", "b/ExponentialMovingAverage:0"]
        assert [v.name for v in tf.trainable_variables()] == ["w:0", "b:0"]
        assert sorted((k, v.name) for k, v in ema.variables_to_restore().items()) == [
            ("b/ExponentialMovingAverage", "b:0"), ("step", "step:0"), ("w/ExponentialMovingAverage", "w:0")]
        ops = [(o.name, o.type) for o in g.get_operations() if o.name.startswith("ExponentialMovingAverage")]
        assert ops[:8] == [
            ("ExponentialMovingAverage/decay", "Const"), ("ExponentialMovingAverage/num_updates", "Cast"),
            ("ExponentialMovingAverage/add/x", "Const"), ("ExponentialMovingAverage/add", "AddV2"),
            ("ExponentialMovingAverage/add_1/x", "Const"), ("ExponentialMovingAverage/add_1", "AddV2"),
            ("ExponentialMovingAverage/truediv", "RealDiv"), ("ExponentialMovingAverage/Minimum", "Minimum")]
        assert ("ExponentialMovingAverage/AssignMovingAvg/mul", "Mul") in ops
        assert ("ExponentialMovingAverage/AssignMovingAvg", "AssignSub") in ops


def test_values_with_num_updates_match_tf():
    with tf.Graph().as_default():
        w, b, step, ema, op = _model()
        upd = [tf.assign_add(w, [1.0, -1.0]), tf.assign_add(b, 0.5), tf.assign_add(step, 1)]
        # Recorded from TensorFlow: the averages after each (apply, then move the variables) step.
        want = [([1.0, 2.0], 3.0), ([1.8181818, 1.1818182], 3.409091),
                ([2.7045455, 0.29545456], 3.8522727), ([3.6013987, -0.6013986], 4.300699)]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            np.testing.assert_allclose(s.run(ema.average(w)), [1.0, 2.0])  # starts at the initial value
            for ww, bw in want:
                s.run(op)
                s.run(upd)
                aw, ab = s.run([ema.average(w), ema.average(b)])
                np.testing.assert_allclose(aw, ww, rtol=1e-6)
                np.testing.assert_allclose(ab, bw, rtol=1e-6)
                assert aw.dtype == np.float32


def test_plain_decay_formula():
    with tf.Graph().as_default():
        v = tf.Variable([0.0, 10.0], name="v")
        ema = tf.train.ExponentialMovingAverage(0.75)
        op = ema.apply([v])
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(tf.assign(v, [4.0, 2.0]))
            shadow = np.array([0.0, 10.0])
            for _ in range(3):
                s.run(op)
                shadow = shadow - (shadow - np.array([4.0, 2.0])) * 0.25
                np.testing.assert_allclose(s.run(ema.average(v)), shadow, rtol=1e-6)


def test_zero_debias_for_tensors_matches_tf():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        x = tf.placeholder(tf.float32, [2], name="x")
        ema = tf.train.ExponentialMovingAverage(0.5, zero_debias=True)
        op = ema.apply([v, x])
        assert [t.name for t in tf.global_variables()] == [
            "v:0", "v/ExponentialMovingAverage:0", "x/ExponentialMovingAverage:0",
            "x/ExponentialMovingAverage/biased:0", "x/ExponentialMovingAverage/local_step:0"]
        assert ema.average(x).name == "x/ExponentialMovingAverage:0"
        want = [[1.0, 2.0], [2.3333333, 4.0], [0.42857143, 2.0]]  # recorded from TensorFlow
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for xv, wx in zip([[1., 2.], [3., 5.], [-1., 0.5]], want):
                s.run(op, {x: xv})
                av, ax = s.run([ema.average(v), ema.average(x)])
                np.testing.assert_allclose(av, [1.0, 2.0])  # variables are not debiased
                np.testing.assert_allclose(ax, wx, rtol=1e-6)


def test_assign_moving_average_like_tf():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        val = tf.constant([5., 6.])
        a = assign_moving_average(v, val, 0.8, zero_debias=False)
        assert (a.name, a.op.type) == ("AssignMovingAvg:0", "AssignSub")
        a2 = assign_moving_average(v, val, 0.8)
        assert (a2.name, a2.op.type) == ("AssignMovingAvg_1:0", "Assign")
        assert [t.name for t in tf.global_variables()] == ["v:0", "v/biased:0", "v/local_step:0"]
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            np.testing.assert_allclose(s.run(a), [1.8, 2.8], rtol=1e-6)
            np.testing.assert_allclose(s.run(a), [2.44, 3.44], rtol=1e-6)
            np.testing.assert_allclose(s.run(a2), [5.0, 6.0], rtol=1e-6)  # debiased: the value itself
            np.testing.assert_allclose(s.run(a2), [5.0, 6.0], rtol=1e-6)


def test_rejects_integer_variables():
    with tf.Graph().as_default():
        n = tf.Variable(1, name="n")
        with pytest.raises(TypeError, match="half, float, or double"):
            tf.train.ExponentialMovingAverage(0.9).apply([n])


def test_default_var_list_and_restore_with_saver(tmp_path):
    with tf.Graph().as_default():
        w = tf.Variable([1.0, 2.0], name="w")
        ema = tf.train.ExponentialMovingAverage(0.5)
        op = ema.apply()  # trainable variables
        saver = tf.train.Saver()
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(tf.assign(w, [3.0, 6.0]))
            s.run(op)  # shadow = [2, 4]
            path = saver.save(s, str(tmp_path / "m"))
    with tf.Graph().as_default():
        w = tf.Variable([0.0, 0.0], name="w")
        ema = tf.train.ExponentialMovingAverage(0.5)
        saver = tf.train.Saver(ema.variables_to_restore())
        with tf.Session() as s:
            saver.restore(s, path)
            np.testing.assert_allclose(s.run(w), [2.0, 4.0])
