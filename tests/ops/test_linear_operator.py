"""tf.linalg.LinearOperator and its subclasses: values against NumPy, TF's names and hint errors
(recorded under TensorFlow 2.21), gradients through the structured math by finite differences."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing.op_test import check_gradients

A = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]])
D = np.array([1., 2., 3.])
X = np.arange(6.).reshape(3, 2) + 1


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


def _operators():
    return {
        "full": (tf.linalg.LinearOperatorFullMatrix(A), A),
        "diag": (tf.linalg.LinearOperatorDiag(D), np.diag([1., 2., 3.])),
        "tril": (tf.linalg.LinearOperatorLowerTriangular(A), np.tril(A)),
        "eye": (tf.linalg.LinearOperatorIdentity(3, dtype=tf.float64), np.eye(3)),
        "scaled": (tf.linalg.LinearOperatorScaledIdentity(3, np.float64(2.5)), 2.5 * np.eye(3)),
        "adjoint": (tf.linalg.LinearOperatorFullMatrix(A + np.triu(A)).adjoint(), (A + np.triu(A)).T),
        "inverse": (tf.linalg.LinearOperatorFullMatrix(A).inverse(), np.linalg.inv(A)),
        "composition": (tf.linalg.LinearOperatorComposition(
            [tf.linalg.LinearOperatorDiag(D), tf.linalg.LinearOperatorFullMatrix(A)]),
            np.diag([1., 2., 3.]) @ A),
    }


@pytest.mark.parametrize("key", ["full", "diag", "tril", "eye", "scaled", "adjoint", "inverse", "composition"])
def test_methods_against_dense(key):
    with tf.Graph().as_default():
        op, dense = _operators()[key]
        got = _run([op.to_dense(), op.matmul(X), op.matmul(X, adjoint=True), op.solve(X),
                    op.solve(X, adjoint=True), op.determinant(), op.log_abs_determinant(), op.diag_part(),
                    op.trace(), op.matvec(np.ones(3)), op.solvevec(np.ones(3)), op.add_to_tensor(A)])
        want = [dense, dense @ X, dense.T @ X, np.linalg.solve(dense, X), np.linalg.solve(dense.T, X),
                np.linalg.det(dense), np.log(abs(np.linalg.det(dense))), np.diag(dense), np.trace(dense),
                dense @ np.ones(3), np.linalg.solve(dense, np.ones(3)), dense + A]
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)


def test_zeros_operator():
    with tf.Graph().as_default():
        z = tf.linalg.LinearOperatorZeros(2, 3, batch_shape=[4], is_square=False, is_self_adjoint=False)
        assert z.shape.as_list() == [4, 2, 3]
        assert _run(z.matmul(tf.ones([3, 5]))).shape == (4, 2, 5)
        with pytest.raises(NotImplementedError):
            z.determinant()


def test_names_as_tf():
    # recorded from TF 2.21
    with tf.Graph().as_default():
        m = tf.constant([[4., 1.], [2., 3.]])
        op = tf.linalg.LinearOperatorFullMatrix(m)
        x = tf.ones([2, 3])
        assert op.matmul(x).name == "LinearOperatorFullMatrix/matmul/MatMul:0"
        assert op.solve(x).name == "LinearOperatorFullMatrix/solve/MatrixSolveWithBroadcast/MatrixSolve:0"
        assert op.log_abs_determinant().name == "LinearOperatorFullMatrix/log_abs_det/LogMatrixDeterminant:1"
        assert op.batch_shape_tensor().name == "LinearOperatorFullMatrix/batch_shape_tensor/batch_shape:0"
        assert (op @ x).name == "LinearOperatorFullMatrix/matmul_1/MatMul:0"
        assert op.solvevec(tf.ones([2])).name == "LinearOperatorFullMatrix/solve_1/Squeeze:0"
        assert op.adjoint().name == "LinearOperatorFullMatrix_adjoint"
        assert op.inverse().name == "LinearOperatorFullMatrix_inv"
        d = tf.linalg.LinearOperatorDiag([1., 2., 3.])
        assert d.to_dense().name == "LinearOperatorDiag/to_dense/diag:0"
        assert d.determinant().name == "LinearOperatorDiag/det/Prod:0"


def test_hint_errors():
    with tf.Graph().as_default():
        m = tf.constant([[1., 0.], [0., 1.]])
        with pytest.raises(ValueError, match="positive definite matrix is always non-singular"):
            tf.linalg.LinearOperatorFullMatrix(m, is_non_singular=False, is_positive_definite=True)
        with pytest.raises(ValueError, match="self-adjoint matrix is always square"):
            tf.linalg.LinearOperatorFullMatrix(m, is_self_adjoint=True, is_square=False)
        with pytest.raises(ValueError, match="always self adjoint"):
            tf.linalg.LinearOperatorIdentity(2, is_self_adjoint=False)
        with pytest.raises(ValueError, match="non-negative"):
            tf.linalg.LinearOperatorIdentity(-1)
        with pytest.raises(TypeError):
            tf.linalg.LinearOperatorFullMatrix(m).matmul(tf.ones([2, 2], tf.float64))
        with pytest.raises(ValueError):
            tf.linalg.LinearOperatorFullMatrix(m).matmul(tf.ones([3, 2]))
        with pytest.raises(ValueError, match="Cholesky"):
            tf.linalg.LinearOperatorFullMatrix(m).cholesky()
        with pytest.raises(NotImplementedError):
            tf.linalg.LinearOperatorZeros(2).solve(m)


def test_operator_algebra():
    with tf.Graph().as_default():
        d = tf.linalg.LinearOperatorDiag([1., 2., 4.], is_positive_definite=True)
        s = tf.linalg.LinearOperatorScaledIdentity(3, 2.)
        assert isinstance(d @ d, tf.linalg.LinearOperatorDiag)
        assert isinstance(s @ s, tf.linalg.LinearOperatorScaledIdentity)
        assert isinstance(d.inverse(), tf.linalg.LinearOperatorDiag)
        assert tf.linalg.LinearOperatorIdentity(3) @ d is d
        c = d.cholesky()
        np.testing.assert_allclose(_run(c.to_dense()), np.diag(np.sqrt([1., 2., 4.])), rtol=1e-6)
        np.testing.assert_allclose(_run((d @ s).to_dense()), np.diag([2., 4., 8.]))


def test_dynamic_batch_shape():
    with tf.Graph().as_default():
        ph = tf.placeholder(tf.float32, [None, 3])
        op = tf.linalg.LinearOperatorDiag(ph)
        assert op.shape.as_list() == [None, 3, 3]
        shape, det = _run([op.shape_tensor(), op.determinant()], {ph: [[1, 2, 3], [4, 5, 6]]})
        assert shape.tolist() == [2, 3, 3]
        np.testing.assert_allclose(det, [6., 120.])


@pytest.mark.parametrize("make", [
    lambda m, x: tf.linalg.LinearOperatorFullMatrix(m).solve(x),
    lambda m, x: tf.linalg.LinearOperatorLowerTriangular(m).solve(x, adjoint=True),
    lambda m, x: tf.linalg.LinearOperatorDiag(tf.linalg.diag_part(m)).solve(x),
    lambda m, x: tf.linalg.LinearOperatorComposition([tf.linalg.LinearOperatorFullMatrix(m),
                                                      tf.linalg.LinearOperatorFullMatrix(m)]).matmul(x),
    lambda m, x: tf.linalg.LinearOperatorFullMatrix(m).inverse().matmul(x, adjoint_arg=True),
])
def test_gradients(make):
    rng = np.random.RandomState(0)
    m = np.eye(3) * 3 + rng.standard_normal((3, 3)) * 0.3
    x = rng.standard_normal((3, 3))
    check_gradients(make, [m, x])
