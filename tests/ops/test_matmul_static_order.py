"""float32 MatMul of a few rows times a transposed matrix (the input gradient of a dense layer
with a small batch): TF's kernel is a 16-lane dot product
per output (tf_order.matmul_dot16). Digests of TF 2.21's outputs (tensorflow.compat.v1, x86-64
CPU wheel) for the same seeded inputs fed through placeholders (fully shaped, or [None, k]); the 16-row case is
TF's running FMA (tf_order.matmul).
"""

import hashlib

import numpy as np
import pytest

import tensorweave as tf

CASES = [((2, 50, 16), "27ebf1692849b1f4"), ((8, 10, 16), "5b0b22bef955fd2a"),
         ((8, 50, 1), "ff50aa6e87953133"), ((12, 200, 16), "81d91a066a0d38dd"),
         ((8, 600, 3), "3e2e414b1cc1a0a1"), ((16, 50, 16), "48ab479f373e3d21")]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_static_transpose_b_matmul_bits(i):
    (m, k, n), want = CASES[i]
    rng = np.random.RandomState(i)
    a = rng.randn(m, k).astype(np.float32)
    b = rng.randn(n, k).astype(np.float32)
    with tf.Graph().as_default():
        pa, pb = tf.placeholder(tf.float32, [m, k]), tf.placeholder(tf.float32, [n, k])
        with tf.Session() as sess:
            got = sess.run(tf.matmul(pa, pb, transpose_b=True), {pa: a, pb: b})
    assert hashlib.sha256(got.tobytes()).hexdigest()[:16] == want
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.T.astype(np.float64), rtol=1e-4, atol=1e-4)


def test_unknown_dims_take_the_same_kernel():
    # (TF 2.21 printed the same digest with [None, k] placeholders)
    rng = np.random.RandomState(0)
    a, b = rng.randn(2, 50).astype(np.float32), rng.randn(16, 50).astype(np.float32)
    with tf.Graph().as_default():
        pa, pb = tf.placeholder(tf.float32, [None, 50]), tf.placeholder(tf.float32, [None, 50])
        with tf.Session() as sess:
            got = sess.run(tf.matmul(pa, pb, transpose_b=True), {pa: a, pb: b})
    assert hashlib.sha256(got.tobytes()).hexdigest()[:16] == CASES[0][1]


@pytest.mark.parametrize("shapes", [((3, 8, 50), (3, 50, 16), False), ((3, 8, 50), (3, 16, 50), True),
                                    ((2, 20, 40), (2, 40, 30), False), ((4, 2, 30), (1, 30, 5), False)])
@pytest.mark.parametrize("static", [True, False])
def test_batch_matmul_is_a_running_fma(shapes, static):
    # (measured on TF 2.21: BatchMatMulV2's float32 outputs were the running FMA in every case)
    sa, sb, tb = shapes
    rng = np.random.RandomState(1)
    a, b = rng.randn(*sa).astype(np.float32), rng.randn(*sb).astype(np.float32)
    with tf.Graph().as_default():
        pa = tf.placeholder(tf.float32, sa if static else None)
        pb = tf.placeholder(tf.float32, sb if static else None)
        y = tf.matmul(pa, pb, transpose_b=tb)
        assert y.op.type == "BatchMatMulV2"
        with tf.Session() as sess:
            got = sess.run(y, {pa: a, pb: b})
    bb = np.swapaxes(b, -1, -2) if tb else b
    acc = np.zeros(got.shape, np.float32)
    for j in range(a.shape[-1]):
        acc = (acc.astype(np.float64) + a[..., j, None].astype(np.float64) * bb[..., j, None, :]).astype(np.float32)
    assert got.tobytes() == acc.tobytes()
