"""A dense layer with tf.layers.batch_normalization(training=True) trains with TF's float32 bits.

The losses were recorded from TF 2.21 (tensorflow.compat.v1, x86-64 CPU wheel) running this very
program: 15 steps of each optimizer, printed with float.hex(). They depend on Rsqrt (the CPU's
rsqrtps plus Eigen's Newton step, kernels/cpu/x86_approx.py) and on RsqrtGrad's order,
-0.5 * ((dy * y) * (y * y)).
"""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import x86_approx

LOSSES = {
    "gd": [
        '0x1.ec57cc0000000p+0', '0x1.d6859c0000000p+0', '0x1.c4af800000000p+0',
        '0x1.b5be0c0000000p+0', '0x1.a8fdd40000000p+0', '0x1.9de0240000000p+0',
        '0x1.9401c00000000p+0', '0x1.8b0e460000000p+0', '0x1.82e9fe0000000p+0',
        '0x1.7b53500000000p+0', '0x1.7431720000000p+0', '0x1.6d68ee0000000p+0',
        '0x1.66f4ca0000000p+0', '0x1.60b4280000000p+0', '0x1.5aa9500000000p+0'],
    "adam": [
        '0x1.ec57cc0000000p+0', '0x1.bfdfdc0000000p+0', '0x1.9ada380000000p+0',
        '0x1.7b8a600000000p+0', '0x1.61167c0000000p+0', '0x1.4b1d580000000p+0',
        '0x1.385f4e0000000p+0', '0x1.281cd00000000p+0', '0x1.198bd40000000p+0',
        '0x1.0c21d80000000p+0', '0x1.ff16320000000p-1', '0x1.e7025a0000000p-1',
        '0x1.cfe04e0000000p-1', '0x1.b97a6c0000000p-1', '0x1.a3f29e0000000p-1'],
    "adagrad": [
        '0x1.ec57cc0000000p+0', '0x1.b112840000000p+0', '0x1.8fe60a0000000p+0',
        '0x1.77de1c0000000p+0', '0x1.63f7980000000p+0', '0x1.522df60000000p+0',
        '0x1.4278380000000p+0', '0x1.34398a0000000p+0', '0x1.2721a40000000p+0',
        '0x1.1b22320000000p+0', '0x1.1036320000000p+0', '0x1.05eae60000000p+0',
        '0x1.f88f740000000p-1', '0x1.e66c180000000p-1', '0x1.d500d00000000p-1']
}

OPTIMIZERS = {"gd": lambda: tf.train.GradientDescentOptimizer(0.1),
              "adam": lambda: tf.train.AdamOptimizer(0.01),
              "adagrad": lambda: tf.train.AdagradOptimizer(0.1)}


@pytest.mark.skipif(not x86_approx.available(), reason="TF's Rsqrt bits need rsqrtps")
@pytest.mark.parametrize("name", sorted(LOSSES))
def test_batch_norm_training_losses_are_tfs_bits(name):
    rng = np.random.RandomState(0)
    X = rng.randn(64, 20).astype(np.float32)
    Y = rng.randint(0, 5, 64)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 20])
        y = tf.placeholder(tf.int64, [None])
        h = tf.layers.dense(x, 32)
        h = tf.layers.batch_normalization(h, training=True)
        logits = tf.layers.dense(tf.nn.relu(h), 5)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
            train = OPTIMIZERS[name]().minimize(loss)
        got = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(15):
                v, _ = sess.run([loss, train], {x: X, y: Y})
                got.append(float(v).hex())
    assert got == LOSSES[name]


def test_rsqrt_grad_order():
    x = np.array([0.3, 1.7, 2.9, 0.05, 7.0, 11.0, 0.8, 4.4, 2.2], np.float32)
    dy = np.array([1.1, -0.4, 0.9, 3.3, -2.2, 0.7, 0.1, -1.9, 5.0], np.float32)
    with tf.Graph().as_default():
        px, pdy = tf.placeholder(tf.float32, [9]), tf.placeholder(tf.float32, [9])
        r = tf.math.rsqrt(px)
        g = tf.gradients(r, px, grad_ys=pdy)[0]
        with tf.Session() as sess:
            y, got = sess.run([r, g], {px: x, pdy: dy})
    assert got.tolist() == (np.float32(-0.5) * ((dy * y) * (y * y))).tolist()
