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
