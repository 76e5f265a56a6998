"""tf.linalg: batched inverse, det, slogdet, Cholesky, solves, QR, SVD, matrix diagonals, eye,
norm. Values against NumPy, gradients by central finite differences (float64), names, shapes
and errors recorded from TensorFlow 2.21 (tf.compat.v1 graph mode, /tmp/hema/linalg_probe*.py)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

rng = np.random.RandomState(0)
A = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)  # well-conditioned batch
B = rng.standard_normal((2, 3, 2))
SPD = A @ np.swapaxes(A, -1, -2) + np.eye(3)


def f32(x):
    return np.asarray(x, np.float32)


# -- forward values ------------------------------------------------------------------------------

def test_inverse_det_slogdet_values():
    check_op(tf.matrix_inverse, [f32(A)], np.linalg.inv, rtol=1e-4, atol=1e-5)
    check_op(lambda a: tf.linalg.inv(a, adjoint=True), [A], lambda a: np.linalg.inv(np.swapaxes(a, -1, -2)))
    check_op(tf.matrix_determinant, [f32(A)], np.linalg.det, rtol=1e-4)
    check_op(tf.linalg.det, [A], np.linalg.det)
    check_op(lambda a: list(tf.linalg.slogdet(a)), [A], lambda a: list(np.linalg.slogdet(a)))
    neg = np.array([[-2., 0], [0, 3.]])
    check_op(lambda a: list(tf.linalg.slogdet(a)), [neg], [np.float64(-1.0), np.log(6.0)])


def test_cholesky_solve_triangular_values():
    check_op(tf.cholesky, [SPD], np.linalg.cholesky)
    check_op(tf.linalg.cholesky, [f32(SPD)], np.linalg.cholesky, rtol=1e-4, atol=1e-5)
    check_op(tf.matrix_solve, [A, B], np.linalg.solve)
    check_op(lambda a, b: tf.linalg.solve(a, b, adjoint=True), [A, B],
             lambda a, b: np.linalg.solve(np.swapaxes(a, -1, -2), b))
    for lower in (True, False):
        for adj in (False, True):
            def ref(a, b, lower=lower, adj=adj):
                t = np.tril(a) if lower else np.triu(a)
                return np.linalg.solve(np.swapaxes(t, -1, -2) if adj else t, b)
            check_op(lambda a, b, lower=lower, adj=adj: tf.linalg.triangular_solve(a, b, lower=lower, adjoint=adj),
                     [A, B], ref)
    check_op(tf.matrix_triangular_solve, [f32(A), f32(B)],
             lambda a, b: np.linalg.solve(np.tril(a), b).astype(np.float32), rtol=1e-4, atol=1e-5)


def test_float16_computed_in_float32():
    out = check_op(tf.matrix_inverse, [np.eye(2, dtype=np.float16) * 2], np.eye(2, dtype=np.float16) / 2)
    assert out.dtype == np.float16


def test_transpose_adjoint():
    x = rng.standard_normal((2, 3, 4))
    check_op(tf.matrix_transpose, [x], lambda a: np.swapaxes(a, -1, -2))
    check_op(tf.linalg.matrix_transpose, [x[0]], lambda a: a.T)
    c = (x + 1j * x[::-1]).astype(np.complex128)
    check_op(tf.linalg.adjoint, [c], lambda a: np.conj(np.swapaxes(a, -1, -2)))
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"should be a \(batch\) matrix with rank >= 2"):
            tf.matrix_transpose(tf.zeros([2]))


def test_qr_svd_values():
    x = rng.standard_normal((2, 4, 3))
    q, r = check_op(lambda a: list(tf.qr(a)), [x], lambda a: list(np.linalg.qr(a)))
    np.testing.assert_allclose(q @ r, x, atol=1e-12)
    with tf.Graph().as_default():
        qf, rf = tf.linalg.qr(tf.constant(x), full_matrices=True)
        assert qf.shape.as_list() == [2, 4, 4] and rf.shape.as_list() == [2, 4, 3]
        s, u, v = tf.svd(tf.constant(x))
        assert (s.shape.as_list(), u.shape.as_list(), v.shape.as_list()) == ([2, 3], [2, 4, 3], [2, 3, 3])
        s_only = tf.linalg.svd(tf.constant(x), compute_uv=False)
        with tf.Session() as sess:
            sv, uv, vv, so = sess.run([s, u, v, s_only])
    np.testing.assert_allclose(sv, np.linalg.svd(x, compute_uv=False), atol=1e-12)
    np.testing.assert_allclose(so, sv, atol=1e-12)
    np.testing.assert_allclose(uv @ (sv[..., None] * np.swapaxes(vv, -1, -2)), x, atol=1e-12)


def test_matrix_diag_ops_values():
    d = rng.standard_normal((4, 3))
    check_op(tf.matrix_diag, [d], lambda v: v[..., None] * np.eye(3))
    check_op(tf.linalg.diag_part, [A], lambda a: np.diagonal(a, axis1=-2, axis2=-1))
    check_op(lambda a: tf.matrix_set_diag(a, tf.ones([2, 3], tf.float64)), [A],
             lambda a: np.where(np.eye(3, dtype=bool), 1.0, a))
    # Offsets, recorded from TensorFlow.
    check_op(lambda v: tf.matrix_diag(v, k=1), [np.array([1., 2.])], np.array([[0, 1, 0], [0, 0, 2], [0, 0, 0.]]))
    check_op(lambda x: tf.matrix_diag_part(x, k=1), [np.arange(6.).reshape(2, 3)], np.array([1., 5.]))
    check_op(lambda x: tf.linalg.set_diag(x, tf.constant([1., 2.], tf.float64), k=1), [np.zeros((2, 3))],
             np.array([[0, 1, 0], [0, 0, 2.]]))
    check_op(lambda v: tf.linalg.diag(v, num_rows=2, num_cols=4), [np.array([[1., 2.]])],
             np.array([[[1, 0, 0, 0], [0, 2, 0, 0.]]]))


def test_eye():
    check_op(lambda: tf.eye(3), [], np.eye(3, dtype=np.float32))
    check_op(lambda: tf.eye(2, 3, dtype=tf.int32), [], np.eye(2, 3, dtype=np.int32))
    check_op(lambda: tf.linalg.eye(2, batch_shape=[4]), [], np.broadcast_to(np.eye(2, dtype=np.float32), (4, 2, 2)))
    check_op(lambda: tf.eye(2, num_columns=2, batch_shape=[2, 3], dtype=tf.float64), [],
             np.broadcast_to(np.eye(2), (2, 3, 2, 2)))
    check_op(lambda: tf.eye(tf.constant(2), 3), [], np.eye(2, 3, dtype=np.float32))
    with pytest.raises(TypeError):
        tf.eye(2.5)


def test_norm_values():
    x = rng.standard_normal((4, 3))
    check_op(tf.norm, [x], lambda a: np.linalg.norm(a))
    check_op(lambda a: tf.norm(a, ord=1, axis=1), [x], lambda a: np.abs(a).sum(1))
    check_op(lambda a: tf.linalg.norm(a, ord=2, axis=0, keepdims=True), [x],
             lambda a: np.sqrt((a * a).sum(0, keepdims=True)))
    check_op(lambda a: tf.norm(a, ord="fro", axis=[0, 1]), [x], lambda a: np.linalg.norm(a, "fro"))
    check_op(lambda a: tf.norm(a, axis=[-2, -1], keepdims=True), [x], lambda a: np.linalg.norm(a, keepdims=True))
    check_op(lambda a: tf.norm(a, ord=np.inf, axis=-1), [x], lambda a: np.abs(a).max(-1))
    check_op(lambda a: tf.norm(a, ord=3, axis=0), [x], lambda a: (np.abs(a) ** 3).sum(0) ** (1 / 3.))
    y = rng.standard_normal((2, 4, 3))
    for o in (1, np.inf, 2):
        check_op(lambda a, o=o: tf.norm(a, ord=o, axis=[1, 2]), [y],
                 lambda a, o=o: np.linalg.norm(a, o, axis=(1, 2)))
    check_op(lambda a: tf.norm(a, ord=2, axis=[2, 1], keepdims=True), [y],
             lambda a: np.linalg.norm(a, 2, axis=(1, 2))[:, None, None])


def test_reexports():
    assert tf.linalg.trace is tf.trace and tf.linalg.matmul is tf.matmul
    assert tf.linalg.einsum is tf.einsum and tf.linalg.tensordot is tf.tensordot
    assert tf.linalg.band_part is tf.matrix_band_part
    check_op(tf.linalg.trace, [A], lambda a: np.trace(a, axis1=-2, axis2=-1))


# -- names, static shapes, build-time errors (recorded from TensorFlow) --------------------------

def _desc(t):
    ts = t if isinstance(t, (list, tuple)) else [t]
    return [(x.name, x.op.type, x.dtype.name, str(x.shape)) for x in ts]


def test_names_and_shapes_like_tf():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [None, 3, 3], name="a")
        b = tf.placeholder(tf.float32, [2, 3, 2], name="b")
        v = tf.placeholder(tf.float32, [4, 3], name="v")
        assert _desc(tf.matrix_inverse(a)) == [("MatrixInverse:0", "MatrixInverse", "float32", "(?, 3, 3)")]
        assert _desc(tf.linalg.det(a)) == [("MatrixDeterminant:0", "MatrixDeterminant", "float32", "(?,)")]
        assert _desc(tf.linalg.slogdet(a)) == [
            ("LogMatrixDeterminant:0", "LogMatrixDeterminant", "float32", "(?,)"),
            ("LogMatrixDeterminant:1", "LogMatrixDeterminant", "float32", "(?,)")]
        assert tf.linalg.slogdet(a)._fields == ("sign", "log_abs_determinant")
        assert _desc(tf.cholesky(a)) == [("Cholesky:0", "Cholesky", "float32", "(?, 3, 3)")]
        assert _desc(tf.matrix_solve(a, b)) == [("MatrixSolve:0", "MatrixSolve", "float32", "(2, 3, 2)")]
        assert _desc(tf.matrix_triangular_solve(a, b)) == [
            ("triangular_solve/MatrixTriangularSolve:0", "MatrixTriangularSolve", "float32", "(2, 3, 2)")]
        assert _desc(tf.matrix_transpose(a)) == [("matrix_transpose/transpose:0", "Transpose", "float32", "(?, 3, 3)")]
        assert _desc(tf.linalg.adjoint(a)) == [
            ("adjoint/matrix_transpose/transpose:0", "Transpose", "float32", "(?, 3, 3)")]
        assert _desc(tf.eye(3)) == [("eye/diag:0", "MatrixDiagV3", "float32", "(3, 3)")]
        assert _desc(tf.eye(2, 3, dtype=tf.int32)) == [("eye_1/set_diag:0", "MatrixSetDiagV3", "int32", "(2, 3)")]
        assert _desc(tf.linalg.eye(2, batch_shape=[4])) == [("eye_2/diag:0", "MatrixDiagV3", "float32", "(4, 2, 2)")]
        assert _desc(tf.matrix_diag(v)) == [("diag:0", "MatrixDiagV3", "float32", "(4, 3, 3)")]
        assert _desc(tf.matrix_diag_part(a)) == [("diag_part:0", "MatrixDiagPartV3", "float32", "(?, 3)")]
        assert _desc(tf.matrix_set_diag(a, tf.ones([5, 3]))) == [
            ("set_diag:0", "MatrixSetDiagV3", "float32", "(5, 3, 3)")]
        assert _desc(tf.matrix_diag(tf.placeholder(tf.float32, [None, 2]), k=1))[0][3] == "(?, 3, 3)"
        assert _desc(tf.matrix_diag_part(tf.placeholder(tf.float32, [5, 2, 3]), k=-1))[0][3] == "(5, 1)"
        assert _desc(tf.norm(v)) == [("norm/Squeeze:0", "Squeeze", "float32", "()")]
        assert _desc(tf.norm(v, ord=1, axis=1)) == [("norm_1/Squeeze:0", "Squeeze", "float32", "(4,)")]
        assert _desc(tf.linalg.norm(v, ord=2, axis=0, keepdims=True)) == [
            ("norm_2/Sqrt:0", "Sqrt", "float32", "(1, 3)")]
        assert _desc(tf.norm(v, axis=[-2, -1], keepdims=True)) == [("norm_3/Sqrt:0", "Sqrt", "float32", "(1, 1)")]
        assert _desc(tf.qr(a)) == [("Qr:0", "Qr", "float32", "(?, 3, 3)"), ("Qr:1", "Qr", "float32", "(?, 3, 3)")]
        assert tf.qr(a)._fields == ("q", "r")
        assert _desc(tf.svd(b)) == [("Svd:0", "Svd", "float32", "(2, 2)"), ("Svd:1", "Svd", "float32", "(2, 3, 2)"),
                                    ("Svd:2", "Svd", "float32", "(2, 2, 2)")]
        assert _desc(tf.linalg.svd(b, full_matrices=True))[1:] == [
            ("Svd_1:1", "Svd", "float32", "(2, 3, 3)"), ("Svd_1:2", "Svd", "float32", "(2, 2, 2)")]
        assert _desc(tf.svd(a, compute_uv=False)) == [("Svd_2:0", "Svd", "float32", "(?, 3)")]


@pytest.mark.parametrize("build, msg", [
    (lambda: tf.matrix_inverse(tf.zeros([3])), "Shape must be at least rank 2 but is rank 1"),
    (lambda: tf.matrix_inverse(tf.zeros([2, 3])), "Dimensions must be equal, but are 2 and 3"),
    (lambda: tf.matrix_solve(tf.zeros([3, 3]), tf.zeros([2, 1])), "Dimensions must be equal, but are 3 and 2"),
    (lambda: tf.cholesky(tf.zeros([2, 3])), "Dimensions must be equal, but are 2 and 3"),
    (lambda: tf.matrix_determinant(tf.zeros([2, 3])), "Dimensions must be equal, but are 2 and 3"),
    (lambda: tf.matrix_triangular_solve(tf.zeros([3, 3]), tf.zeros([2, 1])), "Dimensions must be equal"),
    (lambda: tf.norm(tf.zeros([4, 3]), ord=3, axis=[0, 1]),
     r"'ord' must be a supported matrix norm in \['euclidean', 'fro', 1, 2, inf\], got 3"),
    (lambda: tf.norm(tf.zeros([4, 3]), ord=-1), "'ord' must be a supported vector norm, got -1"),
    (lambda: tf.norm(tf.zeros([2, 2]), ord="fro"), "'ord' must be a supported vector norm, got fro"),
    (lambda: tf.norm(tf.zeros([2, 2]), axis=[0, 0]),
     r"'axis' must be None, an integer, or a tuple of 2 unique integers, got \(0, 0\)"),
])
def test_build_errors_like_tf(build, msg):
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=msg):
            build()


def test_type_errors_like_tf():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="Value passed to parameter 'input' has DataType int32 not in list of "
                                            "allowed values: float64, float32, float16, complex64, complex128"):
            tf.matrix_inverse(tf.zeros([2, 2], tf.int32))


def test_runtime_singular_like_tf():
    sing = f32([[1., 2.], [2., 4.]])
    with tf.Graph().as_default():
        m = tf.constant(sing)
        inv, solve = tf.matrix_inverse(m), tf.matrix_solve(m, tf.ones([2, 1]))
        chol, sl = tf.cholesky(m), tf.linalg.slogdet(m)
        tri = tf.matrix_triangular_solve(m * 0, tf.ones([2, 1]))
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input is not invertible\."):
                sess.run(inv)
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input matrix is not invertible\."):
                sess.run(solve)
            # TF: a matrix that is not positive definite gives NaN (lower triangle), no error.
            c = sess.run(chol)
            assert np.isnan(c[0, 0]) and np.isnan(c[1, 0]) and np.isnan(c[1, 1])
            s, l = sess.run(list(sl))
            assert s == 0 and l == -np.inf
            t = sess.run(tri)
            assert not np.isfinite(t).any()
            # One bad matrix in a batch leaves the others intact.
            both = sess.run(tf.cholesky(tf.constant(f32([[[4, 0], [0, 9]], [[-1, 0], [0, 1]]]))))
            np.testing.assert_allclose(both[0], [[2, 0], [0, 3]])
            assert np.isnan(both[1][np.tril_indices(2)]).all()


def test_runtime_set_diag_error_like_tf():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [2, 3])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Expected diagonal shape: \\[1\\]"):
                sess.run(tf.matrix_set_diag(x, tf.constant([1., 2.], tf.float64), k=-1), {x: np.zeros((2, 3))})


# -- gradients by finite differences (float64) ---------------------------------------------------

def test_inverse_and_determinant_gradients():
    check_gradients(tf.matrix_inverse, [A])
    check_gradients(lambda a: tf.matrix_inverse(a, adjoint=True), [A])
    check_gradients(tf.matrix_determinant, [A])
    check_gradients(lambda a: tf.linalg.slogdet(a)[1], [A])


def test_solve_gradients():
    check_gradients(tf.matrix_solve, [A, B])
    check_gradients(lambda a, b: tf.matrix_solve(a, b, adjoint=True), [A, B])
    for lower in (True, False):
        for adj in (False, True):
            check_gradients(lambda a, b, lower=lower, adj=adj: tf.matrix_triangular_solve(a, b, lower=lower,
                                                                                          adjoint=adj), [A, B])


def test_cholesky_gradient():
    # Cholesky reads one triangle; differentiate through a symmetric input built from X.
    x = rng.standard_normal((2, 3, 3))
    check_gradients(lambda m: tf.cholesky(tf.matmul(m, m, transpose_b=True) + 3 * tf.eye(3, dtype=tf.float64)),
                    [x], tol=1e-5)


def test_diag_and_transpose_and_norm_gradients():
    check_gradients(tf.matrix_diag, [rng.standard_normal((2, 3))])
    check_gradients(lambda v: tf.matrix_diag(v, k=-1), [rng.standard_normal((2, 3))])
    check_gradients(tf.matrix_diag_part, [rng.standard_normal((2, 3, 4))])
    check_gradients(tf.matrix_set_diag, [rng.standard_normal((2, 3, 3)), rng.standard_normal((2, 3))])
    check_gradients(tf.matrix_transpose, [rng.standard_normal((2, 3, 4))])
    x = rng.standard_normal((4, 3))
    check_gradients(tf.norm, [x])
    check_gradients(lambda a: tf.norm(a, ord=1, axis=0), [x])
    check_gradients(lambda a: tf.norm(a, ord="fro", axis=[0, 1]), [x])
