"""The second round of tf.linalg LinearOperators (Kronecker, BlockDiag, LowRankUpdate, Tridiag,
Toeplitz, Circulant, Permutation, Householder) and tridiagonal_matmul / tridiagonal_solve /
eigh_tridiagonal: values against NumPy, names and errors as recorded under TensorFlow 2.21,
gradients by finite differences."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing.op_test import check_gradients

A = np.array([[2., 1.], [0.5, 3.]])
B = np.array([[1., 0., 1.], [2., 4., 0.], [0., 1., 5.]])
SUP = np.array([1., 2., 3., 0.])
DIA = np.array([4., 5., 6., 7.])
SUB = np.array([0., 1.5, 2.5, 3.5])
TRI = np.diag(DIA) + np.diag(SUP[:-1], 1) + np.diag(SUB[1:], -1)
U = np.array([[1., 0.], [0.5, 1.], [0., 2.]])
KERNEL = np.array([1., 2., 0.5, 0.25])


def _run(t):
    with tf.Session() as s:
        return s.run(t)


def _circulant_dense(kernel):
    n = len(kernel)
    return np.array([[kernel[(i - j) % n] for j in range(n)] for i in range(n)])


def _operators():
    fa, fb = tf.linalg.LinearOperatorFullMatrix(A), tf.linalg.LinearOperatorFullMatrix(B)
    base = tf.linalg.LinearOperatorDiag(np.array([1., 2., 3.]), is_positive_definite=True)
    perm = np.eye(3)[[2, 0, 1]]
    v = np.array([1., 1., 0.]) / np.sqrt(2.)
    return {
        "kronecker": (tf.linalg.LinearOperatorKronecker([fa, fb]), np.kron(A, B)),
        "block_diag": (tf.linalg.LinearOperatorBlockDiag([fa, fb]),
                       np.block([[A, np.zeros((2, 3))], [np.zeros((3, 2)), B]])),
        "low_rank": (tf.linalg.LinearOperatorLowRankUpdate(base, U, diag_update=np.array([2., 0.5]),
                                                           is_diag_update_positive=True),
                     np.diag([1., 2., 3.]) + U @ np.diag([2., 0.5]) @ U.T),
        "low_rank_uv": (tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorFullMatrix(B + 2 * np.eye(3)),
                                                              U[:, :1], v=np.array([[1.], [2.], [0.]])),
                        B + 2 * np.eye(3) + U[:, :1] @ np.array([[1., 2., 0.]])),
        "tridiag_compact": (tf.linalg.LinearOperatorTridiag(np.array([SUP, DIA, SUB])), TRI),
        "tridiag_sequence": (tf.linalg.LinearOperatorTridiag([SUP, DIA, SUB], diagonals_format="sequence"), TRI),
        "tridiag_matrix": (tf.linalg.LinearOperatorTridiag(TRI, diagonals_format="matrix"), TRI),
        "toeplitz": (tf.linalg.LinearOperatorToeplitz(col=np.array([3., 2., 1.]), row=np.array([3., 4., .5])),
                     np.array([[3., 4., .5], [2., 3., 4.], [1., 2., 3.]])),
        "circulant": (tf.linalg.LinearOperatorCirculant(np.fft.fft(KERNEL), input_output_dtype=tf.float64),
                      _circulant_dense(KERNEL)),
        "permutation": (tf.linalg.LinearOperatorPermutation([2, 0, 1], dtype=tf.float64), perm),
        "householder": (tf.linalg.LinearOperatorHouseholder(v * np.sqrt(2.)), np.eye(3) - 2 * np.outer(v, v)),
    }


@pytest.mark.parametrize("key", sorted(_operators()))
def test_methods_against_dense(key):
    with tf.Graph().as_default():
        op, dense = _operators()[key]
        n = dense.shape[0]
        x = np.arange(2. * n).reshape(n, 2) + 1
        got = _run([op.to_dense(), op.matmul(x), op.matmul(x, adjoint=True), op.matmul(x.T, adjoint_arg=True),
                    op.solve(x), op.solve(x, adjoint=True), op.determinant(), op.log_abs_determinant(),
                    op.diag_part(), op.trace(), op.matvec(np.ones(n)), op.solvevec(np.ones(n))])
        want = [dense, dense @ x, dense.T @ x, dense @ x, np.linalg.solve(dense, x), np.linalg.solve(dense.T, x),
                np.linalg.det(dense), np.log(abs(np.linalg.det(dense))), np.diag(dense), np.trace(dense),
                dense @ np.ones(n), np.linalg.solve(dense, np.ones(n))]
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.real(g), w, rtol=1e-9, atol=1e-9)


def test_names_shapes_and_hints_as_tf():
    # recorded from TF 2.21
    with tf.Graph().as_default():
        fa, fb = tf.linalg.LinearOperatorFullMatrix(A), tf.linalg.LinearOperatorFullMatrix(B)
        k = tf.linalg.LinearOperatorKronecker([fa, fb])
        assert k.name == "LinearOperatorFullMatrix_x_LinearOperatorFullMatrix"
        assert k.shape.as_list() == [6, 6] and k.is_square and k.is_non_singular is None
        bd = tf.linalg.LinearOperatorBlockDiag([fa, fb])
        assert bd.name == "LinearOperatorFullMatrix_ds_LinearOperatorFullMatrix" and bd.shape.as_list() == [5, 5]
        d1, d2 = tf.linalg.LinearOperatorDiag([1., 2.]), tf.linalg.LinearOperatorDiag([3., 4., 5.])
        k2 = tf.linalg.LinearOperatorKronecker([d1, d2])
        assert (k2.is_self_adjoint, k2.is_non_singular, k2.is_positive_definite) == (True, None, None)
        np.testing.assert_allclose(_run(k2.eigvals()), [3., 4., 5., 6., 8., 10.])
        base = tf.linalg.LinearOperatorDiag([1., 2., 3.], is_positive_definite=True)
        lr = tf.linalg.LinearOperatorLowRankUpdate(base, U.astype(np.float32))
        assert (lr.is_self_adjoint, lr.is_positive_definite, lr.is_non_singular) == (True, True, True)
        assert lr.u.name == "LinearOperatorLowRankUpdate/u:0"
        assert type(lr.diag_operator).__name__ == "LinearOperatorIdentity"
        tp = tf.linalg.LinearOperatorToeplitz(col=[1., 2., 3.], row=[1., 4., 5.])
        assert tp.col.name == "LinearOperatorToeplitz/col:0" and tp.row.name == "LinearOperatorToeplitz/row:0"
        c = tf.linalg.LinearOperatorCirculant([4., 1., 1., 1.])
        assert c.dtype == tf.complex64 and c.is_self_adjoint and c.block_shape.as_list() == [4]
        h = tf.linalg.LinearOperatorHouseholder([1., 1., 0.])
        assert h.inverse() is h and h.adjoint() is h and h.is_positive_definite is False


def test_errors_as_tf():
    # classes and messages recorded from TF 2.21
    with tf.Graph().as_default():
        d = tf.linalg.LinearOperatorDiag([1., 2.])
        with pytest.raises(TypeError, match="same dtype"):
            tf.linalg.LinearOperatorKronecker([d, tf.linalg.LinearOperatorFullMatrix(np.eye(2))])
        with pytest.raises(ValueError, match="Default diagonal is the identity"):
            tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorDiag([1., 2., 3.]), U.astype(np.float32),
                                                  is_diag_update_positive=False)
        with pytest.raises(ValueError, match="must be one of compact, matrix, or sequence"):
            tf.linalg.LinearOperatorTridiag(np.zeros((3, 4)), diagonals_format="banded")
        with pytest.raises(ValueError, match="mismatched"):
            tf.linalg.LinearOperatorToeplitz(col=[1., 2.], row=[1., 2., 3.])
        with pytest.raises(ValueError, match="unique integers from 0 to 2"):
            tf.linalg.LinearOperatorPermutation([0, 0, 1])
        with pytest.raises(ValueError, match="always self adjoint"):
            tf.linalg.LinearOperatorHouseholder([1., 0.], is_self_adjoint=False)


def test_block_diag_blockwise_arguments():
    with tf.Graph().as_default():
        bd = tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix(A),
                                                tf.linalg.LinearOperatorFullMatrix(B)])
        y = _run(bd.matmul([np.ones((2, 1)), np.ones((3, 1))]))
        np.testing.assert_allclose(y[0], A @ np.ones((2, 1)))
        np.testing.assert_allclose(y[1], B @ np.ones((3, 1)))
        x = _run(bd.solve([np.ones((2, 1)), np.ones((3, 1))]))
        np.testing.assert_allclose(x[1], np.linalg.solve(B, np.ones((3, 1))))


def test_batched_kronecker_and_block_diag():
    rng = np.random.RandomState(0)
    a = rng.standard_normal((4, 2, 2)) + 3 * np.eye(2)
    b = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    x = rng.standard_normal((4, 6, 2))
    with tf.Graph().as_default():
        k = tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix(a),
                                               tf.linalg.LinearOperatorFullMatrix(b)])
        assert k.shape.as_list() == [4, 6, 6]
        dense = np.stack([np.kron(ai, b) for ai in a])
        got = _run([k.matmul(x), k.solve(x), k.to_dense()])
        np.testing.assert_allclose(got[0], dense @ x, rtol=1e-9)
        np.testing.assert_allclose(got[1], np.linalg.solve(dense, x), rtol=1e-9)
        np.testing.assert_allclose(got[2], dense, rtol=1e-12)
        bd = tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix(a),
                                                tf.linalg.LinearOperatorFullMatrix(b)])
        y = _run(bd.matmul(x[:, :5]))
        np.testing.assert_allclose(y[:, :2], a @ x[:, :2], rtol=1e-9)
        np.testing.assert_allclose(y[:, 2:], np.broadcast_to(b, (4, 3, 3)) @ x[:, 2:5], rtol=1e-9)


@pytest.mark.parametrize("fmt", ["compact", "sequence", "matrix"])
def test_tridiagonal_matmul_and_solve_formats(fmt):
    diags = {"compact": np.array([SUP, DIA, SUB]), "matrix": TRI}.get(fmt)
    rhs = np.arange(8.).reshape(4, 2) + 1
    with tf.Graph().as_default():
        if fmt == "sequence":
            diags = [tf.constant(SUP), tf.constant(DIA), tf.constant(SUB)]
        y = tf.linalg.tridiagonal_matmul(diags, rhs, diagonals_format=fmt)
        x = tf.linalg.tridiagonal_solve(diags, tf.constant(rhs), diagonals_format=fmt)
        xt = tf.linalg.tridiagonal_solve(diags, tf.constant(rhs.T), diagonals_format=fmt, transpose_rhs=True)
        xv = tf.linalg.tridiagonal_solve(diags, tf.constant(rhs[:, 0]), diagonals_format=fmt)
        got = _run([y, x, xt, xv])
    np.testing.assert_allclose(got[0], TRI @ rhs, rtol=1e-12)
    np.testing.assert_allclose(got[1], np.linalg.solve(TRI, rhs), rtol=1e-12)
    np.testing.assert_allclose(got[2], np.linalg.solve(TRI, rhs), rtol=1e-12)
    np.testing.assert_allclose(got[3], np.linalg.solve(TRI, rhs[:, 0]), rtol=1e-12)


def test_tridiagonal_solve_errors_and_short_sequence():
    with tf.Graph().as_default():
        rhs = tf.constant(np.ones((4, 2)))
        x = tf.linalg.tridiagonal_solve([tf.constant(SUP[:-1]), tf.constant(DIA), tf.constant(SUB[1:])], rhs,
                                        diagonals_format="sequence")
        np.testing.assert_allclose(_run(x), np.linalg.solve(TRI, np.ones((4, 2))), rtol=1e-12)
        assert x.op.type == "TridiagonalSolve"
        with pytest.raises(ValueError, match="Unrecognized diagonals_format: x"):
            tf.linalg.tridiagonal_solve(tf.constant(np.array([SUP, DIA, SUB])), rhs, diagonals_format="x")
        with pytest.raises(ValueError, match="sequence of length 3"):
            tf.linalg.tridiagonal_solve([tf.constant(SUP)], rhs, diagonals_format="sequence")
        with pytest.raises(ValueError, match="got 4 and 3"):
            tf.linalg.tridiagonal_solve(tf.constant(np.array([SUP, DIA, SUB])), tf.ones((3, 2), tf.float64))


def test_eigh_tridiagonal():
    with tf.Graph().as_default():
        e = tf.linalg.eigh_tridiagonal([0.0, 0.0, 0.0], [1.0, 1.0])
        e_i = tf.linalg.eigh_tridiagonal(DIA, SUB[1:], select="i", select_range=[1, 2])
        e_v = tf.linalg.eigh_tridiagonal(DIA, SUB[1:], select="v", select_range=[3., 7.])
        vals, vecs = tf.linalg.eigh_tridiagonal(DIA, SUB[1:], eigvals_only=False)
        got = _run([e, e_i, e_v, vals, vecs])
    sym = np.diag(DIA) + np.diag(SUB[1:], 1) + np.diag(SUB[1:], -1)
    want = np.linalg.eigvalsh(sym)
    np.testing.assert_allclose(got[0], [-np.sqrt(2.), 0., np.sqrt(2.)], atol=1e-6)
    np.testing.assert_allclose(got[1], want[1:3], rtol=1e-12)
    np.testing.assert_allclose(got[2], want[(want > 3.) & (want <= 7.)], rtol=1e-12)
    np.testing.assert_allclose(sym @ got[4], got[4] * got[3], atol=1e-10)


@pytest.mark.parametrize("make", [
    lambda m, x: tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix(m[:2, :2]),
                                                    tf.linalg.LinearOperatorFullMatrix(m)]).solve(
        tf.concat([x, x], axis=0)),
    lambda m, x: tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix(m[:1, :1]),
                                                    tf.linalg.LinearOperatorFullMatrix(m[1:, 1:])]).matmul(x),
    lambda m, x: tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorFullMatrix(m), x[:, :1]).solve(x),
    lambda m, x: tf.linalg.LinearOperatorTridiag(m, diagonals_format="matrix").solve(x, adjoint=True),
    lambda m, x: tf.linalg.LinearOperatorToeplitz(col=m[:, 0], row=m[0]).matmul(x),
    lambda m, x: tf.linalg.tridiagonal_matmul(m, x, diagonals_format="matrix"),
])
def test_gradients(make):
    rng = np.random.RandomState(0)
    m = np.eye(3) * 3 + rng.standard_normal((3, 3)) * 0.3
    x = rng.standard_normal((3, 3))
    check_gradients(make, [m, x])
