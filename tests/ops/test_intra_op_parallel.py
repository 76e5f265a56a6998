"""Kernels that split their work across the intra-op workers give the results they give unsplit.

The splits are forced here (threshold 0, three workers, whatever the machine has), so every
split path runs on tiny shapes against NumPy references.
"""

import threading

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import conv, parallel

from test_conv_ops import ref_conv2d  # (tests/ops is on sys.path under pytest)

RNG = np.random.RandomState(7)


@pytest.fixture
def forced_split(monkeypatch):
    three = lambda: 1 if getattr(parallel._local, "inside", False) else 3  # noqa: E731
    monkeypatch.setattr(parallel, "intra_op_workers", three)
    monkeypatch.setattr(parallel, "SPLIT_MACS", 0)
    # Tiny chunks, so each worker's slice is itself several chunks.
    monkeypatch.setattr(conv, "_SPLIT_CHUNK_BYTES", 1)
    monkeypatch.setattr(conv, "_CHUNK_BYTES", 1)


@pytest.mark.parametrize("channels,strides,padding", [
    (3, (1, 1), "SAME"), (1, (1, 1), "SAME"), (5, (2, 2), "VALID"), (4, (2, 1), "SAME")])
def test_split_convolution_and_its_gradients(forced_split, channels, strides, padding):
    x = RNG.randn(7, 9, 8, channels).astype(np.float32)
    w = RNG.randn(3, 3, channels, 6).astype(np.float32)
    y = conv.conv2d_nhwc(x, w, strides, (1, 1), padding, None)
    np.testing.assert_allclose(y, ref_conv2d(x, w, strides, padding), rtol=1e-5, atol=1e-5)
    dy = RNG.randn(*y.shape).astype(np.float32)
    # Gradients as the adjoint of the forward map: <dy, conv(x, w)> is linear in x and in w.
    dw = conv.conv2d_backprop_filter_nhwc(x, w.shape, dy, strides, (1, 1), padding, None)
    dx = conv.conv2d_backprop_input_nhwc(x.shape, w, dy, strides, (1, 1), padding, None)
    x64, w64, dy64 = x.astype(np.float64), w.astype(np.float64), dy.astype(np.float64)
    ref_dw = np.zeros_like(w64)
    for idx in np.ndindex(w.shape):
        e = np.zeros_like(w64)
        e[idx] = 1
        ref_dw[idx] = np.sum(dy64 * ref_conv2d(x64, e, strides, padding))
    np.testing.assert_allclose(dw, ref_dw, rtol=1e-4, atol=1e-4)
    assert np.isclose(np.sum(dx * x64), np.sum(dy64 * ref_conv2d(x64, w64, strides, padding)),
                      rtol=1e-4)


def test_split_1x1_convolution(forced_split):
    x = RNG.randn(4, 5, 5, 8).astype(np.float32)
    w = RNG.randn(1, 1, 8, 16).astype(np.float32)
    np.testing.assert_allclose(conv.conv2d_nhwc(x, w, (1, 1), (1, 1), "VALID", None),
                               np.einsum("nhwc,co->nhwo", x, w[0, 0]), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m,k,n", [(37, 5, 4), (3, 6, 41), (1, 4, 2)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_split_matmul_by_rows_and_by_columns(forced_split, m, k, n, dtype):
    a = (RNG.randn(m, k) + (1j * RNG.randn(m, k) if dtype == np.complex64 else 0)).astype(dtype)
    b = RNG.randn(k, n).astype(dtype)
    np.testing.assert_allclose(parallel.matmul(a, b), a @ b, rtol=1e-5, atol=1e-5)
    # Transposed views (what MatMul's transpose_a / transpose_b pass) split too.
    np.testing.assert_allclose(parallel.matmul(np.ascontiguousarray(a.T).T, b), a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m, k, n", [(20, 400, 800), (1, 2000, 600), (32, 200, 256), (33, 200, 256)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_few_rows_times_wide_matrix(m, k, n, dtype):
    # With threaded BLAS, a few rows times a wide matrix runs as (b^T a^T)^T: the same product,
    # C-ordered.
    before = parallel.get_intra_op_threads()
    parallel.set_intra_op_threads(2)
    try:
        rng = np.random.RandomState(m + n)
        a, b = rng.randn(m, k).astype(dtype), rng.randn(k, n).astype(dtype)
        got = parallel.matmul(a, b)
        tol = 1e-4 if dtype == np.float32 else 1e-12
        assert got.dtype == dtype and got.shape == (m, n) and got.flags.c_contiguous
        np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=tol, atol=tol)
        bt = np.ascontiguousarray(b.T)
        np.testing.assert_allclose(parallel.matmul(a, bt.T), got, rtol=tol, atol=tol)
    finally:
        if before is not None:
            parallel.set_intra_op_threads(before)


def test_split_batch_matmul(forced_split):
    x = RNG.randn(2, 5, 3, 4).astype(np.float32)
    y = RNG.randn(2, 5, 4, 6).astype(np.float32)
    np.testing.assert_allclose(parallel.batch_matmul(x, y), np.matmul(x, y), rtol=1e-5, atol=1e-5)
    # Broadcast batches are not split, and still right.
    np.testing.assert_allclose(parallel.batch_matmul(x, y[:1]), np.matmul(x, y[:1]), rtol=1e-5, atol=1e-5)


def test_graph_results_split_and_unsplit_agree(monkeypatch):
    images = RNG.randn(6, 10, 10, 2).astype(np.float32)

    def run():
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(3)
            x = tf.constant(images)
            h = tf.layers.conv2d(x, 8, 3, activation=tf.nn.relu)
            logits = tf.layers.dense(tf.layers.flatten(h), 5)
            loss = tf.reduce_mean(tf.square(logits))
            grads = tf.gradients(loss, tf.trainable_variables())
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                return sess.run([loss] + grads)
    unsplit = run()
    with monkeypatch.context() as mp:
        mp.setattr(parallel, "SPLIT_MACS", 0)
        three = lambda: 1 if getattr(parallel._local, "inside", False) else 3  # noqa: E731
        mp.setattr(parallel, "intra_op_workers", three)
        split = run()
    for a, b in zip(unsplit, split):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_parallel_map_order_errors_and_nesting(forced_split):
    seen = []

    def work(i):
        seen.append(threading.current_thread().name)
        # A nested split runs inline on the same thread.
        inner = parallel.parallel_map(lambda j: (j, threading.current_thread().name), [0, 1])
        assert {name for _, name in inner} == {threading.current_thread().name}
        return i * i
    assert parallel.parallel_map(work, range(4)) == [0, 1, 4, 9]

    def boom(i):
        if i == 2:
            raise ValueError("slice 2 failed")
        return i
    with pytest.raises(ValueError, match="slice 2 failed"):
        parallel.parallel_map(boom, range(3))


def test_blas_threads_restored_after_steps_and_splits():
    before = parallel.get_intra_op_threads()
    if before is None:
        pytest.skip("this NumPy's BLAS has no thread control (not OpenBLAS)")
    getter = parallel._blas_functions()[0][1]
    with parallel.kernel_threads():
        with parallel.kernel_threads():
            pass
        if parallel.intra_op_workers() > 1:
            assert getter() == 1      # single-threaded BLAS inside a step
    assert getter() == before


@pytest.mark.parametrize("strides", [(1, 1, 1), (2, 1, 2)])
def test_split_3d_convolution_matches_unsplit(monkeypatch, strides):
    from tensorweave.kernels.cpu import conv3d
    x = RNG.randn(5, 4, 5, 6, 3).astype(np.float32)
    w = RNG.randn(2, 3, 2, 3, 4).astype(np.float32)

    def run():
        y = conv3d.conv3d_ndhwc(x, w, strides, (1, 1, 1), "SAME")
        dy = np.cos(np.arange(y.size, dtype=np.float32)).reshape(y.shape)
        return (y, conv3d.conv3d_backprop_filter_ndhwc(x, w.shape, dy, strides, (1, 1, 1), "SAME"),
                conv3d.conv3d_backprop_input_ndhwc(x.shape, w, dy, strides, (1, 1, 1), "SAME"))
    unsplit = run()
    three = lambda: 1 if getattr(parallel._local, "inside", False) else 3  # noqa: E731
    monkeypatch.setattr(parallel, "intra_op_workers", three)
    monkeypatch.setattr(conv, "_SPLIT_CHUNK_BYTES", 1)
    for a, b in zip(unsplit, run()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_only_convolution_steps_split():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 6, 6, 1])
        y = tf.layers.conv2d(x, 2, 3)
        z = tf.matmul(tf.ones([3, 3]), tf.ones([3, 3]))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(y, {x: np.ones([2, 6, 6, 1], np.float32)})
            sess.run(z)
            plans = {tuple(k[0]) if isinstance(k[0], list) else k[0]: e.plan
                     for k, e in sess._cache.items() if k is not None}
    assert plans[y].splits and not plans[z].splits


@pytest.mark.parametrize("ksize,strides,padding", [(2, 2, "VALID"), (3, 2, "SAME"), (3, 1, "SAME")])
def test_split_max_pool_gradient(forced_split, ksize, strides, padding):
    x = np.maximum(RNG.randn(5, 7, 6, 3), 0).astype(np.float32)   # ties at 0: first max wins
    g = tf.Graph()
    with g.as_default():
        xt = tf.constant(x)
        y = tf.nn.max_pool(xt, ksize, strides, padding)
        dy = tf.constant(RNG.randn(*y.shape.as_list()).astype(np.float32))
        dx = tf.gradients(y, xt, dy)[0]
        with tf.Session() as sess:
            yv, dyv, dxv = sess.run([y, dy, dx])
    ref = np.zeros_like(x)
    oh, ow = yv.shape[1:3]
    pad_h = max((oh - 1) * strides + ksize - x.shape[1], 0) // 2 if padding == "SAME" else 0
    pad_w = max((ow - 1) * strides + ksize - x.shape[2], 0) // 2 if padding == "SAME" else 0
    for n, i, j, c in np.ndindex(yv.shape):
        best = None
        for a in range(ksize):
            for b in range(ksize):
                r, q = i * strides + a - pad_h, j * strides + b - pad_w
                if 0 <= r < x.shape[1] and 0 <= q < x.shape[2] and (best is None or x[n, r, q, c] > x[best]):
                    best = (n, r, q, c)
        ref[best] += dyv[n, i, j, c]
    np.testing.assert_allclose(dxv, ref, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("ksize,strides,padding", [(2, 2, "VALID"), (3, 2, "SAME"), (3, 1, "SAME"), (1, 1, "VALID")])
def test_split_max_pool(forced_split, ksize, strides, padding):
    x = RNG.randn(5, 7, 6, 3).astype(np.float32)
    with tf.Graph().as_default():
        y = tf.nn.max_pool(tf.constant(x), ksize, strides, padding)
        with tf.Session() as sess:
            yv = sess.run(y)
    oh, ow = yv.shape[1:3]
    ph = max((oh - 1) * strides + ksize - 7, 0) if padding == "SAME" else 0
    pw = max((ow - 1) * strides + ksize - 6, 0) if padding == "SAME" else 0
    xp = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)),
                constant_values=-np.inf)
    ref = np.array([[[[xp[n, i * strides:i * strides + ksize, j * strides:j * strides + ksize, c].max()
                       for c in range(3)] for j in range(ow)] for i in range(oh)] for n in range(5)])
    np.testing.assert_array_equal(yv, ref)
