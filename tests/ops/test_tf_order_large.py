"""Large float32 MatMuls, BiasAddGrads and outer-axis sums in TF's order.

Expected digests recorded from TF 2.21 (oneDNN 3.7, this 2-core AVX-512 machine, sessions with
2 intra-op threads): sha256[:16] of each result, inputs drawn in order from
np.random.RandomState(21). The MatMul orders (kernels/cpu/onednn_gemm.py) run on the AVX-512
machine-code kernels: products of more than 2^22 multiply-adds only in steps that run a
convolution (where the intra-op workers own the cores), so the big ones here are fetched beside
one. Where the machine code cannot run, MatMul keeps BLAS and only its values are checked.
"""

import hashlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import direct_conv, onednn_gemm


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, np.float32).tobytes()).hexdigest()[:16]


MATMULS = [  # ((m, k, n), transpose_a, transpose_b, digest): oneDNN's k-blocks, nocopy and copy
    ((64, 3136, 256), False, False, "fe0b6ef1489d5506"),    # LeNet's fc1: 7 x 384 + 224 + 224
    ((100, 784, 10), False, False, "2838b4ba8189115d"),     # mnist_softmax: 384 + 200 + 200
    ((50, 1024, 10), False, False, "9480a5f0cedce3be"),
    ((64, 513, 16), False, False, "88f66c93c681c098"),      # halves: 257 + 256
    ((1100, 1100, 1030), False, False, "57f1873ff3a9b5e9"),  # the copy driver: 384 + 384 + 332
    ((64, 256, 3136), False, True, "4e8c5e11326dcf41"),
    ((784, 100, 10), True, False, "1597b5ecc3be1e2b"),
    ((40, 900, 30), True, True, "82598b3b3ae1eddb"),
    ((20, 1600, 10), False, False, "94cfab3291a43139"),
    ((32, 400, 24), False, True, "7b4e07db59ececee"),
]
BIAS_GRADS = [((50176, 32), "d31177aa58897c41"), ((1944, 64), "738b9de8ac3af10f"),  # rows halved; one run
              ((1945, 64), "19064d7649e6934a"), ((16385, 128), "fb3070b8cb87be1d"),  # halved; one run
              ((4097, 3), "7dfe782567a8a670")]
SUMS = [((64, 28, 28, 32), (0, 1, 2), "7c2e5d5960484799", "9818b4fa0d37312d"),
        ((20000, 256), (0,), "c9904f7457403f2b", "c6bf8ce0ed0d0f15"),
        ((3, 5000, 64), (1,), "c88bee04e70fae92", "48a51198cc30ff66")]


def test_matmul_bias_add_grad_and_outer_sums_bits_equal_tensorflow():
    native = direct_conv.available()
    rng = np.random.RandomState(21)
    config = tf.ConfigProto(intra_op_parallelism_threads=2, inter_op_parallelism_threads=2)
    with tf.Session(config=config) as s:
        conv = tf.nn.conv2d(tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), [1, 1, 1, 1], "SAME")
        for (m, k, n), ta, tb, want in MATMULS:
            a = rng.randn(*((k, m) if ta else (m, k))).astype(np.float32)
            b = rng.randn(*((n, k) if tb else (k, n))).astype(np.float32)
            pa, pb = tf.placeholder(tf.float32, a.shape), tf.placeholder(tf.float32, b.shape)
            got, _ = s.run([tf.matmul(pa, pb, transpose_a=ta, transpose_b=tb), conv], {pa: a, pb: b})
            np.testing.assert_allclose(got, (a.T if ta else a) @ (b.T if tb else b), rtol=1e-3, atol=1e-3)
            if native:
                assert _digest(got) == want, ((m, k, n), ta, tb)
        for shape, want in BIAS_GRADS:
            g = rng.randn(*shape).astype(np.float32)
            p = tf.placeholder(tf.float32, shape)
            bias = tf.zeros([shape[1]])
            grad = tf.gradients(tf.nn.bias_add(tf.zeros(shape), bias), bias, grad_ys=p)[0]
            assert _digest(s.run(grad, {p: g})) == want, shape
        for shape, axes, want_sum, want_mean in SUMS:
            x = rng.randn(*shape).astype(np.float32)
            p = tf.placeholder(tf.float32, shape)
            got_sum, got_mean = s.run([tf.reduce_sum(p, axis=list(axes)), tf.reduce_mean(p, axis=list(axes))], {p: x})
            assert (_digest(got_sum), _digest(got_mean)) == (want_sum, want_mean), shape


def test_k_blocks():
    assert onednn_gemm.k_blocks(64, 3136, 256, False, False, 2) == [0] + [384 * i for i in range(1, 8)] + [2912, 3136]
    assert onednn_gemm.k_blocks(100, 784, 10, False, False, 2) == [0, 384, 584, 784]
    assert onednn_gemm.k_blocks(64, 300, 64, False, False, 2) == [0, 300]
    assert onednn_gemm.k_blocks(1100, 1100, 1030, False, False, 2) == [0, 384, 768, 1100]
    # oneDNN's special small kernels (tf_order.py) are not its GEMM's
    assert onednn_gemm.k_blocks(5, 100, 30, False, True, 2) is None
    assert onednn_gemm.k_blocks(1, 100, 30, False, False, 2) is None
    assert onednn_gemm.k_blocks(30, 100, 1, False, False, 2) is None


def test_row_sums_in_machine_code_equal_numpys_sequential_sums(monkeypatch):
    from tensorweave.kernels.cpu import tf_order
    rng = np.random.RandomState(3)
    for shape in ((64, 3), (100, 16), (1000, 37), (300, 64), (70, 130), (65, 2, 40)):
        x = rng.randn(*shape).astype(np.float32)
        x.reshape(-1)[rng.choice(x.size, 5, replace=False)] = (-0.0, np.inf, -np.inf, np.nan, 1e30)
        x[0].reshape(-1)[0] = -0.0
        fast = tf_order._seq_rows(x)
        monkeypatch.setattr(tf_order, "_rows", dict)
        slow = tf_order._seq_rows(x)
        monkeypatch.undo()
        np.testing.assert_array_equal(fast.view(np.uint32), slow.view(np.uint32))


@pytest.mark.skipif(not direct_conv.available(), reason="the GEMM order runs on the AVX-512 kernels")
def test_dense_layer_products_outside_conv_steps_bits_equal_tensorflow():
    """A plain MLP step (no convolution): products with K > 384 of at least 64 rows or up to
    2^22 multiply-adds take oneDNN's order too (digests recorded from TF 2.21,
    RandomState(22))."""
    rng = np.random.RandomState(22)
    config = tf.ConfigProto(intra_op_parallelism_threads=2, inter_op_parallelism_threads=2)
    with tf.Session(config=config) as s:
        for (m, k, n), tb, want in (((128, 784, 512), False, "5f9bb7091bffe0b8"),
                                    ((128, 512, 512), True, "24748330117778fc"),
                                    ((100, 784, 10), False, "6e5845271a9d3ca7")):
            a = rng.randn(m, k).astype(np.float32)
            b = rng.randn(*((n, k) if tb else (k, n))).astype(np.float32)
            pa, pb = tf.placeholder(tf.float32, a.shape), tf.placeholder(tf.float32, b.shape)
            assert _digest(s.run(tf.matmul(pa, pb, transpose_b=tb), {pa: a, pb: b})) == want, (m, k, n)
