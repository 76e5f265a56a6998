"""A gather's gradient (IndexedSlices) reaching an ordinary op's gradient function is densified
there, as TF's op wrappers convert every input (expected values recorded from TF 2.21)."""

import numpy as np

import tensorweave as tf


def test_gather_gradient_through_matmul_and_tanh():
    with tf.Graph().as_default():
        a = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
        b = tf.constant(np.ones((2, 4), np.float32))
        y = tf.gather(tf.matmul(a, b), [0, 2])
        ga, gb = tf.gradients(tf.reduce_sum(y), [a, b])
        assert ga.name == "gradients/MatMul_grad/MatMul:0"
        e = tf.constant(np.full((5, 3), 0.5, np.float32))
        (ge,) = tf.gradients(tf.gather(tf.tanh(e), [0, 0, 4]), e)
        assert ge.op.type == "TanhGrad"
        with tf.Session() as s:
            va, vb, ve = s.run([ga, gb, ge])
    np.testing.assert_array_equal(va, [[4, 4], [0, 0], [4, 4]])
    np.testing.assert_array_equal(vb, [[4, 4, 4, 4], [6, 6, 6, 6]])
    d = np.float32(1) - np.tanh(np.float32(0.5)) ** 2
    np.testing.assert_allclose(ve, [[2 * d] * 3, [0] * 3, [0] * 3, [0] * 3, [d] * 3], rtol=1e-6)
