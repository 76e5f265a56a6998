"""Whole TF1 programs (round 2) and the fixes they found; expected values recorded from TF 2.21
(tensorflow.compat.v1 with v2 behaviour disabled) unless computed from NumPy in the test."""

import os

import numpy as np
import pytest

import tensorweave as tf


def test_division_by_a_constant_is_multiplication_by_its_reciprocal():
    # TF's grappler rewrites x / const as x * (1 / const): 9 / 20 is 0.45000002 there, not 0.45.
    with tf.Graph().as_default():
        gs = tf.Variable(9)
        lr = tf.train.polynomial_decay(0.1, gs, 20, 0.01, power=2.0)
        x = tf.placeholder(tf.float32)
        q = x / 7.0
        xd = tf.math.xdivy(x, tf.constant(7.0))
        v = tf.Variable(7.0)
        exact = x / v                      # a variable divisor is divided as it is
        both = tf.constant(9.0) / tf.constant(20.0)   # folded: a true division
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            # Recorded from TF 2.21: 0.037224997 (a true division gives 0.037225).
            assert sess.run(lr) == np.float32(0.037224997)
            a = np.random.RandomState(0).rand(500).astype(np.float32) * 10
            r = np.float32(1) / np.float32(7)
            got_q, got_xd, got_exact = sess.run([q, xd, exact], {x: a})
            np.testing.assert_array_equal(got_q, a * r)
            np.testing.assert_array_equal(got_xd, a * r)
            np.testing.assert_array_equal(got_exact, a / np.float32(7))
            assert sess.run(both) == np.float32(9) / np.float32(20)


def test_orthogonal_and_identity_initializers_build_tfs_graph():
    with tf.Graph().as_default() as g:
        v = tf.get_variable("v4", [2, 3], initializer=tf.orthogonal_initializer(seed=1))
        e = tf.get_variable("v10", [3, 3], initializer=tf.initializers.identity(gain=0.5))
        types = [(o.name, o.type) for o in g.get_operations() if "/Initializer/" in o.name]
        # Recorded from TF 2.21.
        assert types == [
            ("v4/Initializer/random_normal/shape", "Const"), ("v4/Initializer/random_normal/mean", "Const"),
            ("v4/Initializer/random_normal/stddev", "Const"),
            ("v4/Initializer/random_normal/RandomStandardNormal", "RandomStandardNormal"),
            ("v4/Initializer/random_normal/mul", "Mul"), ("v4/Initializer/random_normal", "AddV2"),
            ("v4/Initializer/Qr", "Qr"), ("v4/Initializer/DiagPart", "DiagPart"),
            ("v4/Initializer/Sign", "Sign"), ("v4/Initializer/mul", "Mul"),
            ("v4/Initializer/matrix_transpose/transpose/perm", "Const"),
            ("v4/Initializer/matrix_transpose/transpose", "Transpose"),
            ("v4/Initializer/Reshape/shape", "Const"), ("v4/Initializer/Reshape", "Reshape"),
            ("v4/Initializer/mul_1/x", "Const"), ("v4/Initializer/mul_1", "Mul"),
            ("v10/Initializer/eye/ones", "Const"), ("v10/Initializer/eye/diag/k", "Const"),
            ("v10/Initializer/eye/diag/num_rows", "Const"), ("v10/Initializer/eye/diag/num_cols", "Const"),
            ("v10/Initializer/eye/diag/padding_value", "Const"), ("v10/Initializer/eye/diag", "MatrixDiagV3"),
            ("v10/Initializer/mul/x", "Const"), ("v10/Initializer/mul", "Mul")]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            w = sess.run(v)
            np.testing.assert_allclose(w @ w.T, np.eye(2), atol=1e-5)   # orthonormal rows
            np.testing.assert_array_equal(sess.run(e), 0.5 * np.eye(3, dtype=np.float32))
