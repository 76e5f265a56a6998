"""tf.linalg.lu and the lu_* composites: the Lu kernel against a NumPy check (input[p] = L U,
pivots as LAPACK's partial pivoting; the values below were recorded from TF 2.21), solves and
inverses against np.linalg, gradients of the composites by finite differences."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing.op_test import check_gradients

A = np.array([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.]])


def _run(t):
    with tf.Session() as s:
        return s.run(t)


def test_lu_matches_tf():
    with tf.Graph().as_default():
        lu, p = tf.linalg.lu(tf.constant(A, tf.float32))
        assert (lu.name, p.name, p.dtype) == ("Lu:0", "Lu:1", tf.int32)
        lu_v, p_v = _run([lu, p])
    # recorded from TF 2.21
    np.testing.assert_allclose(lu_v, [[7., 8., 10.], [1 / 7, 6 / 7, 11 / 7], [4 / 7, 0.5, -0.5]], rtol=1e-5)
    assert p_v.tolist() == [2, 0, 1]


@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 5, 5), (1, 1)])
def test_lu_factors_reconstruct(shape):
    a = np.random.RandomState(1).standard_normal(shape)
    with tf.Graph().as_default():
        lu, p = tf.linalg.lu(a, output_idx_type=tf.int64)
        lu_v, p_v, rec = _run([lu, p, tf.linalg.lu_reconstruct(lu, tf.cast(p, tf.int32))])
    assert p_v.dtype == np.int64
    n = shape[-1]
    lower = np.tril(lu_v, -1) + np.eye(n)
    upper = np.triu(lu_v)
    np.testing.assert_allclose(np.take_along_axis(a, p_v[..., None], axis=-2), lower @ upper, atol=1e-12)
    assert np.all(np.abs(np.tril(lu_v, -1)) <= 1 + 1e-12)   # partial pivoting bounds L
    np.testing.assert_allclose(rec, a, atol=1e-12)


def test_lu_solve_and_inverse():
    b = np.arange(6.).reshape(3, 2)
    with tf.Graph().as_default():
        lu, p = tf.linalg.lu(A)
        x, inv = _run([tf.linalg.lu_solve(lu, p, b), tf.linalg.lu_matrix_inverse(lu, p)])
    np.testing.assert_allclose(x, np.linalg.solve(A, b), atol=1e-12)
    np.testing.assert_allclose(inv, np.linalg.inv(A), atol=1e-12)


def test_lu_errors():
    with tf.Graph().as_default():
        with pytest.raises(ValueError):
            tf.linalg.lu(tf.ones([2, 3]))
        with pytest.raises(tf.errors.InvalidArgumentError):
            _run(tf.linalg.lu(tf.zeros([2, 2])))
        ph = tf.placeholder(tf.float32, [None, 3, 3])
        lu, p = tf.linalg.lu(ph)
        assert lu.shape.as_list() == [None, 3, 3] and p.shape.as_list() == [None, 3]


def test_lu_solve_gradients():
    rng = np.random.RandomState(0)
    lu = np.triu(rng.standard_normal((3, 3))) + 3 * np.eye(3) + np.tril(rng.standard_normal((3, 3)), -1) * 0.3
    rhs = rng.standard_normal((3, 2))
    check_gradients(lambda f, r: tf.linalg.lu_solve(f, tf.constant([2, 0, 1]), r), [lu, rhs])
