"""Whole TF1 programs (round 2) and the fixes they found; expected values recorded from TF 2.21
(tensorflow.compat.v1 with v2 behaviour disabled) unless computed from NumPy in the test."""


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


def _ta_error(sess, fetch):
    with pytest.raises(tf.errors.OpError) as info:
        sess.run(fetch)
    return type(info.value).__name__, [ln for ln in info.value.message.split("\n")
                                       if ln.startswith("TensorArray")][0]


def test_tensor_array_read_once_write_once_and_element_shapes():
    # Messages recorded from TF 2.21; the name is "<name>_<arrays created so far in the process>".
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=3, name="arr").unstack([1.0, 2.0, 3.0])
        twice = ta.read(0) + ta.read(0)
        kept = tf.TensorArray(tf.float32, size=3, clear_after_read=False).unstack([1.0, 2.0, 3.0])
        twice_kept = kept.read(0) + kept.read(0)
        again = tf.TensorArray(tf.float32, size=2, name="w").write(0, 1.0).write(0, 2.0).read(0)
        split = tf.TensorArray(tf.float32, size=3, name="sp").split(tf.range(6.0), [1, 2, 3]).read(0)
        loose = tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, [1.0]).write(1, [2.0, 3.0])
        zero_filled = tf.TensorArray(tf.float32, size=2).write(0, [1.0]).stack()
        empty = tf.TensorArray(tf.float32, size=0).stack()
        with tf.Session() as sess:
            kind, msg = _ta_error(sess, twice)
            assert kind == "InvalidArgumentError" and msg.endswith(
                ": Could not read index 0 twice because it was cleared after a previous read (perhaps try "
                "setting clear_after_read = false?).") and msg.startswith("TensorArray arr_")
            assert sess.run(twice_kept) == 2.0
            assert _ta_error(sess, again)[1].endswith(
                ": Could not write to TensorArray index 0 because it has already been written to.")
            assert _ta_error(sess, split)[1].endswith(
                ": Could not write to TensorArray index 1 because the value shape is [2] which is incompatible "
                "with the TensorArray's inferred element shape: [1] (consider setting infer_shape=False).")
            assert _ta_error(sess, loose.stack())[1] == \
                "TensorArray has inconsistent shapes.  Index 0 has shape: [1] but index 1 has shape: [2]"
            np.testing.assert_array_equal(sess.run(zero_filled), [[1.0], [0.0]])
            assert _ta_error(sess, empty) == (
                "UnimplementedError", "TensorArray has size zero, but element shape <unknown> is not fully "
                "defined. Currently only static shapes are supported when packing zero-size TensorArrays.")


def test_tensor_array_read_in_a_loop_has_a_gradient():
    # A gradient recomputes the loop body: its reads may read the cleared elements again.
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0, 3.0])
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)

        def body(i, acc):
            v = ta.read(i)
            return i + 1, acc + v * v
        _, total = tf.while_loop(lambda i, a: i < 3, body, [0, 0.0])
        g = tf.gradients(total, x)[0]
        with tf.Session() as sess:
            got_g, got_total = sess.run([g, total])
        np.testing.assert_array_equal(got_g, [2.0, 4.0, 6.0])   # as TF
        assert got_total == 14.0
