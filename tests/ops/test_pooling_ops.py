"""Pooling ops against loop references; gradients (and max pooling's second order) by finite
differences; argmax indices; TF names."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

RNG = np.random.RandomState(1)


def _pads(size, k, s, padding):
    if padding == "VALID":
        return 0, 0, (size - k) // s + 1
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2, out


def ref_pool(x, k, s, padding, kind):
    n, h, w, c = x.shape
    t, _, oh = _pads(h, k[0], s[0], padding)
    l, _, ow = _pads(w, k[1], s[1], padding)
    out = np.zeros((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s[0] - t, j * s[1] - l
            win = x[:, max(r0, 0):r0 + k[0], max(c0, 0):c0 + k[1], :]
            out[:, i, j] = win.max(axis=(1, 2)) if kind == "max" else win.mean(axis=(1, 2))
    return out


CASES = [((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"), ((3, 2), (1, 2), "SAME"),
         ((3, 3), (2, 1), "VALID")]


@pytest.mark.parametrize("k,s,padding", CASES)
def test_pooling_matches_loop_reference(k, s, padding):
    x = RNG.randn(2, 7, 6, 3).astype(np.float32)
    check_op(lambda a: tf.nn.max_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x],
             ref_pool(x, k, s, padding, "max"))
    check_op(lambda a: tf.nn.avg_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x],
             ref_pool(x, k, s, padding, "avg"), rtol=1e-5)


def test_nchw():
    x = RNG.randn(2, 6, 6, 3).astype(np.float32)
    xt = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    check_op(lambda a: tf.nn.max_pool(a, 3, 2, "SAME", data_format="NCHW"), [xt],
             ref_pool(x, (3, 3), (2, 2), "SAME", "max").transpose(0, 3, 1, 2))


@pytest.mark.parametrize("k,s,padding", CASES[:3])
def test_pooling_gradients(k, s, padding):
    x = RNG.randn(2, 5, 5, 2)
    check_gradients(lambda a: tf.nn.max_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x])
    check_gradients(lambda a: tf.nn.avg_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x])


def test_second_order():
    x = RNG.randn(1, 4, 4, 2)
    check_gradients(lambda a: tf.gradients(tf.square(tf.nn.max_pool(a, 2, 1, "VALID")), a)[0], [x])
    check_gradients(lambda a: tf.gradients(tf.square(tf.nn.avg_pool(a, 2, 1, "SAME")), a)[0], [x])


def test_max_pool_gradient_goes_to_first_maximum():
    x = np.ones((1, 2, 2, 1), np.float32)
    g = tf.Graph()
    with g.as_default():
        xt = tf.constant(x)
        grad, = tf.gradients(tf.nn.max_pool(xt, 2, 2, "VALID"), xt)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(grad).ravel(), [1, 0, 0, 0])


def test_max_pool_with_argmax():
    x = RNG.rand(2, 7, 7, 3).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        out, am = tf.nn.max_pool_with_argmax(tf.constant(x), [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        assert (out.name, am.name, am.dtype) == ("MaxPoolWithArgmax:0", "MaxPoolWithArgmax:1", tf.int64)
        out2, am2 = tf.nn.max_pool_with_argmax(tf.constant(x), [1, 2, 2, 1], [1, 2, 2, 1], "SAME",
                                               include_batch_in_index=True)
        with tf.Session() as sess:
            o, a, a2 = sess.run([out, am, am2])
    np.testing.assert_array_equal(o, ref_pool(x, (2, 2), (2, 2), "SAME", "max"))
    for b in range(2):
        np.testing.assert_array_equal(x[b].ravel()[a[b]], o[b])
    np.testing.assert_array_equal(x.ravel()[a2], o)
    check_gradients(lambda t: tf.nn.max_pool_with_argmax(t, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")[0], [RNG.randn(2, 4, 4, 2)])


def test_names_as_tensorflow():
    # Recorded from TensorFlow's tf.compat.v1 graph mode.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 7, 7, 3])
        mp = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        ap = tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        assert (mp.name, mp.shape.as_list()) == ("MaxPool:0", [2, 3, 3, 3])
        assert (ap.name, ap.shape.as_list()) == ("AvgPool:0", [2, 4, 4, 3])
        gm, = tf.gradients(mp, x)
        ga, = tf.gradients(ap, x)
        assert gm.name == "gradients/MaxPool_grad/MaxPoolGrad:0"
        assert ga.name == "gradients_1/AvgPool_grad/AvgPoolGrad:0"
        ggm, = tf.gradients(tf.reduce_sum(gm), gm.op.inputs[2])
        assert ggm.op.type == "MaxPoolGradGrad"
        with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 9 from 7"):
            tf.nn.max_pool(x, [1, 9, 9, 1], [1, 1, 1, 1], "VALID")


def ref_max_pool_grad(x, k, s, padding, g):
    """Loop reference: each window's gradient goes to its first maximum in row-major order
    (TF's CPU rule); padding never wins."""
    n, h, w, c = x.shape
    t, _, oh = _pads(h, k[0], s[0], padding)
    l, _, ow = _pads(w, k[1], s[1], padding)
    dx = np.zeros(x.shape, g.dtype)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    best = None
                    for a in range(k[0]):
                        for bb in range(k[1]):
                            r, q = i * s[0] - t + a, j * s[1] - l + bb
                            if 0 <= r < h and 0 <= q < w and (best is None or x[b, r, q, ch] > x[b][best][ch]):
                                best = (r, q)
                    dx[b, best[0], best[1], ch] += g[b, i, j, ch]
    return dx


def _max_pool_and_grad(x, k, s, padding, g, data_format="NHWC"):
    gr = tf.Graph()
    with gr.as_default():
        xt = tf.constant(x)
        y = tf.nn.max_pool(xt, [1, k[0], k[1], 1] if data_format == "NHWC" else [1, 1, k[0], k[1]],
                           [1, s[0], s[1], 1] if data_format == "NHWC" else [1, 1, s[0], s[1]],
                           padding, data_format=data_format)
        dx, = tf.gradients(y, xt, grad_ys=tf.constant(g))
        with tf.Session() as sess:
            return sess.run([y, dx])


# Non-overlapping windows (ksize == strides) with and without a remainder, overlapping ones,
# windows that skip input (ksize < strides), SAME padding on odd sizes.
GRAD_CASES = [((2, 2), (2, 2), "VALID", (2, 6, 8, 3)), ((2, 2), (2, 2), "VALID", (2, 7, 5, 3)),
              ((2, 2), (2, 2), "SAME", (1, 7, 5, 2)), ((3, 3), (3, 3), "SAME", (1, 8, 7, 2)),
              ((3, 2), (3, 2), "VALID", (2, 7, 7, 2)), ((3, 3), (2, 2), "VALID", (2, 9, 8, 3)),
              ((3, 3), (2, 2), "SAME", (2, 8, 8, 3)), ((3, 3), (1, 1), "SAME", (1, 5, 6, 2)),
              ((1, 2), (2, 3), "VALID", (2, 7, 8, 2)), ((2, 3), (3, 1), "SAME", (1, 7, 6, 2))]


@pytest.mark.parametrize("k,s,padding,shape", GRAD_CASES)
@pytest.mark.parametrize("ties", [False, True])
def test_max_pool_grad_matches_loop_reference(k, s, padding, shape, ties):
    rng = np.random.RandomState(3)
    # With ties: a few distinct values (and ReLU-like zeros), so most windows hold several maxima.
    x = (rng.randint(0, 3, shape) if ties else rng.randn(*shape)).astype(np.float32)
    if ties:
        x = np.maximum(x - 1, 0)
    y_ref = ref_pool(x, k, s, padding, "max")
    g = rng.randn(*y_ref.shape).astype(np.float32)
    y, dx = _max_pool_and_grad(x, k, s, padding, g)
    np.testing.assert_array_equal(y, y_ref)
    np.testing.assert_allclose(dx, ref_max_pool_grad(x, k, s, padding, g), rtol=1e-6, atol=1e-6)


def test_max_pool_grad_all_equal_windows_go_to_the_first_element():
    x = np.zeros((1, 4, 6, 2), np.float32)
    g = np.arange(1, 13, dtype=np.float32).reshape(1, 2, 3, 2)
    _, dx = _max_pool_and_grad(x, (2, 2), (2, 2), "VALID", g)
    want = np.zeros_like(x)
    want[:, ::2, ::2] = g
    np.testing.assert_array_equal(dx, want)


@pytest.mark.parametrize("dtype", [np.float64, np.float16])
def test_max_pool_grad_dtypes_and_nchw(dtype):
    rng = np.random.RandomState(4)
    x = np.maximum(rng.randint(-2, 3, (2, 6, 7, 3)), 0).astype(dtype)
    for k, s, padding in [((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME")]:
        y_ref = ref_pool(x, k, s, padding, "max")
        g = rng.randn(*y_ref.shape).astype(dtype)
        want = ref_max_pool_grad(x, k, s, padding, g)
        y, dx = _max_pool_and_grad(x, k, s, padding, g)
        assert y.dtype == dx.dtype == dtype
        np.testing.assert_array_equal(y, y_ref)
        tol = 2e-3 if dtype == np.float16 else 1e-12   # overlapping windows sum in another order
        np.testing.assert_allclose(dx, want, rtol=tol, atol=tol)
        y, dx = _max_pool_and_grad(np.ascontiguousarray(x.transpose(0, 3, 1, 2)), k, s, padding,
                                   np.ascontiguousarray(g.transpose(0, 3, 1, 2)), "NCHW")
        np.testing.assert_array_equal(y, y_ref.transpose(0, 3, 1, 2))
        np.testing.assert_allclose(dx, want.transpose(0, 3, 1, 2), rtol=tol, atol=tol)


def test_max_pool_integers_and_empty_batch():
    x = RNG.randint(-100, 100, (2, 7, 5, 3)).astype(np.int32)
    for k, s, padding in CASES:
        check_op(lambda a: tf.nn.max_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x],
                 ref_pool(x, k, s, padding, "max"))
    e = np.zeros((0, 6, 6, 2), np.float32)
    y, dx = _max_pool_and_grad(e, (2, 2), (2, 2), "VALID", np.zeros((0, 3, 3, 2), np.float32))
    assert y.shape == (0, 3, 3, 2) and dx.shape == (0, 6, 6, 2)
    y, dx = _max_pool_and_grad(e, (3, 3), (2, 2), "SAME", np.zeros((0, 3, 3, 2), np.float32))
    assert y.shape == (0, 3, 3, 2) and dx.shape == (0, 6, 6, 2)


@pytest.mark.parametrize("k,s,padding,shape", [c for c in GRAD_CASES if c[3][1] * c[3][2] <= 56])
def test_avg_pool_odd_geometries(k, s, padding, shape):
    x = RNG.randn(*shape)
    check_op(lambda a: tf.nn.avg_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x],
             ref_pool(x, k, s, padding, "avg"), rtol=1e-10)
    check_gradients(lambda a: tf.nn.avg_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x])


def _dilated_pool_reference(x, window, rate, reduce):
    oh = x.shape[1] - (window[0] - 1) * rate[0]
    ow = x.shape[2] - (window[1] - 1) * rate[1]
    out = np.empty((x.shape[0], oh, ow, x.shape[3]), x.dtype)
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i:i + (window[0] - 1) * rate[0] + 1:rate[0], j:j + (window[1] - 1) * rate[1] + 1:rate[1]]
            out[:, i, j] = reduce(patch, axis=(1, 2))
    return out


@pytest.mark.parametrize("kind,reduce", [("MAX", np.max), ("AVG", np.mean)])
def test_pool_with_dilation_rate(kind, reduce):
    x = np.random.RandomState(3).randn(2, 9, 8, 3).astype(np.float32)
    p = tf.nn.pool(tf.constant(x), [2, 3], kind, "VALID", dilation_rate=[2, 3])
    # name and static shape as recorded from real TF 2.21
    assert p.name == ("max_pool" if kind == "MAX" else "avg_pool") + "/BatchToSpaceND:0"
    assert p.shape.as_list() == [2, 7, 2, 3]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(p), _dilated_pool_reference(x, [2, 3], [2, 3], reduce), rtol=1e-5,
                                   atol=1e-7)
    with pytest.raises(ValueError, match="SAME"):
        tf.nn.pool(tf.constant(x), [2, 2], kind, "SAME", dilation_rate=[2, 2])
    with pytest.raises(ValueError, match="strides > 1"):
        tf.nn.pool(tf.constant(x), [2, 2], kind, "VALID", dilation_rate=[2, 2], strides=[2, 2])
    check_gradients(lambda t: tf.nn.pool(t, [2, 2], kind, "VALID", dilation_rate=[2, 2]),
                    [np.random.RandomState(4).permutation(2 * 7 * 6).reshape(1, 7, 6, 2).astype(np.float64)])


def test_max_pool_grad_zero_elsewhere_with_inf_nan_and_negative_gradients():
    """Only each window's first maximum receives g; the others are +0.0 even for g = inf, NaN or
    a negative value (TF adds into a zeroed output). Expected values recorded from TF 2.21."""
    import tensorweave as tf
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.array([1., 2., 3., 4.], np.float32).reshape(1, 2, 2, 1))
        p = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        up = tf.placeholder(tf.float32, [1, 1, 1, 1])
        dx = tf.gradients(p, x, grad_ys=up)[0]
        x3 = tf.constant(np.array([1., 5., 2., 3., 4., 0., 1., 1., 1.], np.float32).reshape(1, 3, 3, 1))
        p3 = tf.nn.max_pool(x3, [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
        dx3 = tf.gradients(p3, x3, grad_ys=tf.constant(
            np.array([-1., np.inf, -2., -3.], np.float32).reshape(1, 2, 2, 1)))[0]
    with tf.Session(graph=g) as sess:
        for gv, last in ((np.inf, np.inf), (-1.0, -1.0), (np.nan, np.nan)):
            v = sess.run(dx, {up: np.full((1, 1, 1, 1), gv, np.float32)}).reshape(-1)
            np.testing.assert_array_equal(v[:3].view(np.uint32), np.zeros(3, np.uint32))
            np.testing.assert_array_equal(v[3], last)
        v3 = sess.run(dx3).reshape(-1)
    np.testing.assert_array_equal(v3, [0., np.inf, 0., 0., -5., 0., 0., 0., 0.])
    assert not np.signbit(v3[[0, 2, 3, 5, 6, 7, 8]]).any()


def test_avg_pool_grad_negative_zero_gradient_gives_positive_zero():
    """TF's AvgPoolGrad adds into a zeroed output, so -0.0 gradients leave +0.0 (recorded from
    TF 2.21: printed as 0., not -0.)."""
    import tensorweave as tf
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
        p = tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        dx = tf.gradients(p, x, grad_ys=tf.constant(np.array([-0., 1., -2., -0.], np.float32).reshape(1, 2, 2, 1)))[0]
        p2 = tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        dx2 = tf.gradients(p2, x, grad_ys=-tf.zeros_like(p2))[0]
    with tf.Session(graph=g) as sess:
        v, v2 = sess.run([dx, dx2])
    v = v.reshape(-1)
    np.testing.assert_array_equal(v, [0, 0, .25, .25, 0, 0, .25, .25, -.5, -.5, 0, 0, -.5, -.5, 0, 0])
    np.testing.assert_array_equal(np.signbit(v), v < 0)
    assert not np.signbit(v2).any()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("store", [False, True])
def test_tiled_max_pool_grad_is_bit_equal_to_the_per_tap_kernel(dtype, store):
    """Windows that tile the input (ksize == strides, no padding) take a path that handles all
    taps in one NumPy call per pass; it must give the per-tap path's bits: first maxima, ties of
    zeros and signed zeros, NaN/inf inputs and gradients, rows and columns past the last window."""
    from tensorweave.kernels.cpu import pooling
    rng = np.random.RandomState(7)
    it = pooling._INT_OF[np.dtype(dtype).itemsize]
    for ks in [(2, 2), (3, 3), (1, 1), (2, 3), (1, 4)]:
        for hw in [(4, 6), (7, 9), (6, 6), (5, 12)]:
            for kind in ("relu", "ties", "nan"):
                x = rng.randn(2, hw[0], hw[1], 3).astype(dtype)
                if kind == "relu":
                    x = np.maximum(x, 0)
                elif kind == "ties":
                    x = np.round(x).astype(dtype)
                    x[0, :2, :3] = -0.0
                else:
                    x[0, 0, 0, 0], x[1, 1, 1, 1] = np.nan, np.inf
                y = pooling.max_pool_nhwc(x, ks, ks, "VALID")
                g = rng.randn(*y.shape).astype(dtype)
                g.flat[::5], g.flat[1] = -0.0, np.nan
                tiled = np.empty(x.shape, dtype)
                pooling._max_pool_grad_into(tiled, x, y, g, ks, ks, "VALID", None, store)
                # The per-tap path, by hand (what _max_pool_grad_into does for other windows).
                per_tap = np.zeros(x.shape, dtype)
                first = g if store else g + dtype(0)
                oh, ow = y.shape[1:3]
                for a, b, sl, m in pooling._first_max_masks(x, y, ks, ks, oh, ow):
                    pooling._select_into(per_tap[sl], first, m)
                np.testing.assert_array_equal(tiled.view(it), per_tap.view(it))
