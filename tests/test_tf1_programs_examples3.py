"""Whole programs in the style of the popular GitHub TF1 example collections (aymericdamien's
basic models, GANs, RNNs, text CNNs, DQN, multi-tower training...), small and seeded. Expected
values were recorded by running the same code under TensorFlow 2.21
(`import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`) unless a comment says otherwise."""

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default():
        yield


def test_integer_mod_by_zero_with_an_empty_output_is_no_error():
    """TF's BinaryOp returns before computing an empty output, so a zero divisor there is fine:
    the Sum gradient of an unknown-rank placeholder fed a scalar takes mod(range(0), 0)."""
    with tf.Session() as sess:
        assert sess.run(tf.floormod(tf.zeros([0], tf.int32), 0)).shape == (0,)
        assert sess.run(tf.floordiv(tf.zeros([0, 3], tf.int32), tf.zeros([3], tf.int32))).shape == (0, 3)
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(tf.floordiv(tf.zeros([2, 3], tf.int32), tf.zeros([3], tf.int32)))


def test_linear_regression_fed_one_sample_at_a_time():
    """aymericdamien's linear_regression.py: shapeless float placeholders fed Python scalars
    (one sample per step), then the whole array for the cost."""
    rng = np.random
    rng.seed(1)
    train_X = np.asarray([3.3, 4.4, 5.5, 6.71, 6.93, 4.168, 9.779, 6.182, 7.59, 2.167, 7.042,
                          10.791, 5.313, 7.997, 5.654, 9.27, 3.1])
    train_Y = np.asarray([1.7, 2.76, 2.09, 3.19, 1.694, 1.573, 3.366, 2.596, 2.53, 1.221, 2.827,
                          3.465, 1.65, 2.904, 2.42, 2.94, 1.3])
    X = tf.placeholder("float")
    Y = tf.placeholder("float")
    W = tf.Variable(rng.randn(), name="weight")
    b = tf.Variable(rng.randn(), name="bias")
    pred = tf.add(tf.multiply(X, W), b)
    cost = tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * train_X.shape[0])
    optimizer = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
    assert (pred.name, cost.name, optimizer.name) == ("Add:0", "truediv:0", "GradientDescent")
    costs = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(50):
            for (x, y) in zip(train_X, train_Y):
                sess.run(optimizer, feed_dict={X: x, Y: y})
            if (epoch + 1) % 10 == 0:
                costs.append("%.9f" % sess.run(cost, feed_dict={X: train_X, Y: train_Y}))
        w_final, b_final = sess.run([W, b])
    assert costs == ["0.227719635", "0.223520085", "0.219990000", "0.216521829", "0.213137463"]
    assert (repr(w_final), repr(b_final)) == ("np.float32(0.4558863)", "np.float32(-0.6825888)")


def test_fused_batch_norm_reserve_spaces_and_inference_as_tf():
    """FusedBatchNormV3's reserve_space_2 is the biased batch variance when training (TF 2.21
    fetches it; it was 1/sqrt(var + eps)) and the given variance otherwise; inference is
    (x - mean) * (rsqrt(var + eps) * scale) + offset, whose float32 digits TF printed."""
    rs = np.random.RandomState(0)
    xd = rs.randn(8, 2, 2, 3).astype(np.float32) * 3 + 1
    x = tf.placeholder(tf.float32, [None, 2, 2, 3])
    sc = tf.Variable(rs.rand(3).astype(np.float32) + 0.5)
    of = tf.Variable(rs.rand(3).astype(np.float32))
    y, m, v = tf.nn.fused_batch_norm(x, sc, of, is_training=True)
    yi = tf.nn.fused_batch_norm(x, sc, of, mean=tf.Variable([0.5, 1.0, 2.0]),
                                variance=tf.Variable([1.0, 4.0, 0.25]), is_training=False)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        r1, r2, bv = sess.run([y.op.outputs[3], y.op.outputs[4], v], {x: xd})
        flat = xd.reshape(-1, 3)
        np.testing.assert_allclose(r1, flat.mean(0), rtol=1e-6)
        np.testing.assert_allclose(r2, flat.var(0), rtol=1e-5)
        np.testing.assert_allclose(bv, flat.var(0, ddof=1), rtol=1e-5)
        ri, ri2 = sess.run([yi, yi.op.outputs[4]], {x: xd})
        assert ri2.tolist() == [1.0, 4.0, 0.25]
        assert [repr(a) for a in ri.ravel()[:3]] == [  # TF 2.21 printed these float32s
            "np.float32(7.73731)", "np.float32(1.0248108)", "np.float32(6.2337294)"]
        ri_ref = (flat - [0.5, 1.0, 2.0]) / np.sqrt(np.array([1.0, 4.0, 0.25]) + 1e-3) \
            * sess.run(sc) + sess.run(of)
        np.testing.assert_allclose(ri.reshape(-1, 3), ri_ref, rtol=1e-5)


@pytest.mark.parametrize("training", [True, False])
def test_fused_batch_norm_gradients_from_the_saved_variance(training):
    """The gradient kernel rebuilds rsqrt(var + eps) from reserve_space_2 (TF's CPU functors);
    checked against the unfused formula's gradients."""
    rs = np.random.RandomState(1)
    xd = rs.randn(6, 3, 2, 4).astype(np.float32)
    wd = rs.randn(6, 3, 2, 4).astype(np.float32)
    x = tf.constant(xd)
    sc = tf.constant(rs.rand(4).astype(np.float32) + 0.5)
    of = tf.constant(rs.rand(4).astype(np.float32))
    if training:
        mean, var = tf.nn.moments(x, [0, 1, 2])
        fused = tf.nn.fused_batch_norm(x, sc, of, epsilon=0.01)[0]
    else:
        mean, var = tf.constant(rs.rand(4).astype(np.float32)), tf.constant(rs.rand(4).astype(np.float32) + 0.5)
        fused = tf.nn.fused_batch_norm(x, sc, of, mean=mean, variance=var, epsilon=0.01, is_training=False)[0]
    plain = tf.nn.batch_normalization(x, mean, var, of, sc, 0.01)
    g1 = tf.gradients(tf.reduce_sum(fused * wd), [x, sc, of])
    g2 = tf.gradients(tf.reduce_sum(plain * wd), [x, sc, of])
    with tf.Session() as sess:
        for a, b in zip(sess.run(g1), sess.run(g2)):
            np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-4)


def test_reshape_to_a_partially_known_shape_is_tfs_value_error():
    """char-RNN tutorials reshape labels to logits.get_shape(): with an unknown batch TF's op
    builder fails to convert the TensorShape and names the input (message from TF 2.21)."""
    logits = tf.placeholder(tf.float32, [None, 13])
    labels = tf.one_hot(tf.placeholder(tf.int32, [None, None]), 13)
    with pytest.raises(ValueError) as info:
        tf.reshape(labels, logits.get_shape())
    assert str(info.value) == ("Tried to convert 'shape' to a tensor and failed. Error: Cannot "
                               "convert a partially known TensorShape (?, 13) to a Tensor.")
    assert tf.reshape(labels, [-1, 13]).shape.as_list() == [None, 13]
