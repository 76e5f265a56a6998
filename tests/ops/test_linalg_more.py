"""tf.linalg.sqrtm / tf.matrix_square_root (and the other ops of ops/linalg_more_ops.py): values
against SciPy, gradients by finite differences in float64, names, shapes, NaN cases and errors
recorded from TensorFlow 2.21 (tf.compat.v1 graph mode, /tmp/pp_math/s1.py)."""

import numpy as np
import pytest
import scipy.linalg

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

rng = np.random.RandomState(0)


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default():
        yield


def test_sqrtm_values_batches_and_dtypes():
    m = rng.standard_normal((3, 4, 4))
    spd = m @ np.swapaxes(m, -1, -2) + 4 * np.eye(4)
    check_op(tf.linalg.sqrtm, [spd], lambda a: np.stack([scipy.linalg.sqrtm(x) for x in a]), rtol=1e-9, atol=1e-10)
    # eigenvalues in complex pairs: the real Schur form has 2x2 blocks
    rot = m + 3 * np.eye(4)
    check_op(tf.matrix_square_root, [rot], lambda a: np.stack([scipy.linalg.sqrtm(x).real for x in a]),
             rtol=1e-8, atol=1e-9)
    check_op(tf.linalg.sqrtm, [spd.astype(np.float32)],
             lambda a: np.stack([scipy.linalg.sqrtm(x.astype(np.float64)) for x in a]).astype(np.float32),
             rtol=1e-4, atol=1e-5)
    c = (m + 1j * rng.standard_normal((3, 4, 4)) + 3 * np.eye(4)).astype(np.complex128)
    check_op(tf.linalg.sqrtm, [c], lambda a: np.stack([scipy.linalg.sqrtm(x) for x in a]), rtol=1e-8, atol=1e-9)
    empty = tf.linalg.sqrtm(tf.zeros([0, 0]))
    with tf.Session() as s:
        assert s.run(empty).shape == (0, 0)


def test_sqrtm_recorded_from_tf():
    a = tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.float64)
    r = tf.linalg.sqrtm(a)
    r2 = tf.matrix_square_root(tf.constant([[[2.0, 0.5], [0.1, 1.0]], [[-1.0, 0.0], [0.0, 4.0]]]), name="msr")
    assert (r.name, r.op.type, r.shape.as_list(), r2.name) == ("MatrixSquareRoot:0", "MatrixSquareRoot", [2, 2],
                                                                "msr:0")
    (g,) = tf.gradients(tf.reduce_sum(r * tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)), a)
    assert g.name == "gradients/MatrixSquareRoot_grad/matrix_transpose_2/transpose:0"
    assert tf.linalg.sqrtm(tf.placeholder(tf.float32, [None, 3, 3])).shape.as_list() == [None, 3, 3]
    with tf.Session() as s:
        np.testing.assert_allclose(s.run(r), [[1.98158, 0.27083], [0.27083, 1.71075]], atol=1e-5)
        v = s.run(r2)
        np.testing.assert_allclose(v[0], [[1.41116, 0.20774], [0.04155, 0.99568]], atol=1e-5)
        assert np.isnan(v[1]).all()      # a negative eigenvalue: no real square root
        np.testing.assert_allclose(s.run(g), [[0.1723, 0.45007], [0.7209, 1.07639]], atol=1e-5)
        nil = s.run(tf.linalg.sqrtm(tf.constant([[0.0, 1.0], [0.0, 0.0]])))
        assert np.isnan(nil[0, 0]) and np.isinf(nil[0, 1]) and np.isnan(nil[1]).all()


def test_sqrtm_errors():
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.linalg.sqrtm(tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="DataType int32 not in list of allowed values"):
        tf.linalg.sqrtm(tf.constant([[1, 2], [3, 4]]))
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.linalg.sqrtm(tf.constant([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]]))


def test_sqrtm_gradient():
    m = rng.standard_normal((2, 3, 3))
    check_gradients(tf.linalg.sqrtm, [m @ np.swapaxes(m, -1, -2) + 3 * np.eye(3)])
    check_gradients(tf.linalg.sqrtm, [m + 4 * np.eye(3)])


def test_logm_matrix_rank_normalize_recorded_from_tf():
    a = tf.constant([[1.0, 2.0], [2.0, 4.0]])
    r = tf.linalg.matrix_rank(a)
    n, nn = tf.linalg.normalize(tf.constant([[3.0, 4.0], [1.0, 0.0]]), ord=1, axis=0)
    lg = tf.linalg.logm(tf.constant([[1.0 + 0j, 0.0], [0.0, 2.0]], tf.complex64))
    assert (r.name, n.name, lg.name, lg.op.type) == ("matrix_rank/Sum:0", "normalize/truediv:0", "MatrixLogarithm:0",
                                                     "MatrixLogarithm")
    assert tf.linalg.normalize(tf.constant([3.0, 4.0]))[1].name == "normalize_1/norm/Sqrt:0"
    with tf.Session() as s:
        assert s.run(r) == 1
        assert s.run(tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.01]]), tol=0.1)) == 1
        assert s.run(tf.linalg.matrix_rank(tf.eye(3, batch_shape=[2]))).tolist() == [3, 3]
        got_n, got_nn = s.run([n, nn])
        np.testing.assert_allclose(got_n, [[0.75, 1.0], [0.25, 0.0]])
        np.testing.assert_allclose(got_nn, [[4.0, 4.0]])
        np.testing.assert_allclose(s.run(lg), [[0, 0], [0, np.log(2.0)]], atol=1e-6)
    with pytest.raises(TypeError, match="DataType float32 not in list of allowed values: complex64, complex128"):
        tf.linalg.logm(tf.constant([[1.0, 0.0], [0.0, 2.0]]))
    with pytest.raises(LookupError):
        tf.gradients(tf.abs(lg), lg.op.inputs[0])


def test_singular_determinant_has_tfs_signed_zero():
    # TF 2.21: det and slogdet's sign of [[1, 2], [2, 4]] are -0.0 (one row swap, a zero pivot)
    sing = tf.constant([[1.0, 2.0], [2.0, 4.0]])
    with tf.Session() as s:
        d, (sign, logdet) = s.run([tf.linalg.det(sing), list(tf.linalg.slogdet(sing))])
        assert d == 0 and np.signbit(d) and sign == 0 and np.signbit(sign) and logdet == -np.inf
        assert s.run(tf.linalg.det(tf.constant([[4.0, 2.0], [1.0, 3.0]]))) == 10.0
