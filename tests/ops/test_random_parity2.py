"""Seeded random ops against values recorded from TF 2.21 (tf.compat.v1, graph mode)."""

import numpy as np

import tensorweave as tf


def _run(fetches, feed=None):
    with tf.Session() as s:
        return s.run(fetches, feed)


def test_float16_uniform_uses_tf_uint16_to_half():
    # Recorded from TF 2.21: half uniforms take 10 mantissa bits of each 32-bit sample.
    with tf.Graph().as_default():
        d = tf.random_uniform([7], 1., 3., dtype=tf.float16, seed=4)
        a = tf.random.stateless_uniform([5], seed=[1, 2], dtype=tf.float16)
        dv, av = _run([d, a])
    assert dv.dtype == np.float16
    np.testing.assert_array_equal(dv, np.array(
        [1.634765625, 2.427734375, 2.91796875, 2.111328125, 1.529296875, 1.658203125,
         1.162109375], np.float16))
    np.testing.assert_array_equal(av, np.array(
        [0.54296875, 0.2353515625, 0.060546875, 0.8935546875, 0.1435546875], np.float16))
