"""The machine-code convolution kernels (kernels/cpu/direct_conv.py): values against loop
references, TF's bits, and the NumPy paths that stand in for them elsewhere."""

import hashlib

import numpy as np
import pytest

from tensorweave.kernels.cpu import conv, direct_conv

native = pytest.mark.skipif(not direct_conv.available(),
                            reason="the direct kernels need x86-64 Linux with AVX-512F")


def _taps(x, kh, kw, strides, dilations, padding):
    """(a, b, the float64 input slab filter tap (a, b) sees) for each tap: the definition of the
    convolution, for float64 loop references."""
    oh, ow, ph, pw = conv.conv_geometry(x.shape[1], x.shape[2], kh, kw, strides, dilations, padding)
    xp = np.pad(x.astype(np.float64), ((0, 0), ph, pw, (0, 0)))
    for a in range(kh):
        for b in range(kw):
            r0, c0 = a * dilations[0], b * dilations[1]
            yield a, b, xp[:, r0:r0 + (oh - 1) * strides[0] + 1:strides[0],
                           c0:c0 + (ow - 1) * strides[1] + 1:strides[1]]


def _reference(x, w, strides, dilations, padding):
    return sum(tap @ w[a, b].astype(np.float64)
               for a, b, tap in _taps(x, w.shape[0], w.shape[1], strides, dilations, padding))


CASES = [  # (n, h, w, c, kh, kw, co, strides, dilations, padding)
    (2, 9, 11, 3, 3, 3, 5, (1, 1), (1, 1), "SAME"),        # one masked vector
    (3, 8, 8, 1, 5, 5, 32, (1, 1), (1, 1), "SAME"),        # one channel, columns outermost
    (2, 13, 10, 16, 3, 2, 70, (2, 3), (1, 1), "VALID"),    # strides; 64 + a masked block
    (1, 12, 12, 7, 3, 3, 130, (1, 1), (2, 3), "SAME"),     # dilations; three blocks
    (4, 6, 6, 40, 1, 1, 48, (1, 1), (1, 1), "VALID"),      # 1x1: three full vectors
    (2, 5, 29, 4, 2, 3, 17, (1, 2), (1, 1), "SAME"),       # width not a multiple of a block
]


@native
@pytest.mark.parametrize("n,h,w,c,kh,kw,co,strides,dilations,padding", CASES)
def test_forward_and_filter_gradient_match_loop_references(n, h, w, c, kh, kw, co, strides,
                                                            dilations, padding):
    rng = np.random.RandomState(0)
    x = rng.randn(n, h, w, c).astype(np.float32)
    f = rng.randn(kh, kw, c, co).astype(np.float32)
    want = _reference(x, f, strides, dilations, padding)
    got = conv.conv2d_nhwc(x, f, strides, dilations, padding, None)
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.abs(want).max())

    dy = rng.randn(*want.shape).astype(np.float32)
    ref = np.zeros((kh, kw, c, co))
    for a, b, tap in _taps(x, kh, kw, strides, dilations, padding):
        ref[a, b] = tap.reshape(-1, c).T @ dy.reshape(-1, co).astype(np.float64)
    _, _, ph, pw = conv.conv_geometry(h, w, kh, kw, strides, dilations, padding)
    xp = np.pad(x, ((0, 0), ph, pw, (0, 0)))
    for slices in ([(0, n)], direct_conv.balance211(n, 2)):
        g = direct_conv.filter_grad(xp, dy, kh, kw, strides, dilations, slices)
        np.testing.assert_allclose(g, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())
    g = conv.conv2d_backprop_filter_nhwc(x, f.shape, dy, strides, dilations, padding, None)
    np.testing.assert_allclose(g, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())


@native
def test_fused_bias_relu_post_sees_every_row_once():
    rng = np.random.RandomState(1)
    x = rng.randn(5, 7, 7, 6).astype(np.float32)
    f = rng.randn(3, 3, 6, 20).astype(np.float32)
    seen = []

    def post(rows):
        seen.append(rows.shape[0])
        np.maximum(rows, 0, out=rows)
    got = conv.conv2d_nhwc(x, f, (1, 1), (1, 1), "SAME", None, post=post)
    assert sum(seen) == 5 * 7 * 7
    np.testing.assert_array_equal(got, np.maximum(conv.conv2d_nhwc(x, f, (1, 1), (1, 1), "SAME", None), 0))


def test_balance211_gives_the_first_threads_the_extra_items():
    assert direct_conv.balance211(5, 2) == [(0, 3), (3, 5)]
    assert direct_conv.balance211(7, 3) == [(0, 3), (3, 5), (5, 7)]
    assert direct_conv.balance211(1, 4) == [(0, 1)]


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, np.float32).tobytes()).hexdigest()[:16]


# Recorded from TensorFlow 2.21 (oneDNN, 2 intra-op threads, this AVX-512 machine):
# sha256[:16] of tf.nn.conv2d(x, w), Conv2DBackpropInput (stride 1 only) and
# Conv2DBackpropFilter, inputs drawn in this order from np.random.RandomState(seed): x, w, then
# dy of the output's shape.
TF_DIGESTS = {  # seed: [((n, hw, c, k, co, stride, padding), conv2d, backprop input, filter)]
    7: [((64, 14, 32, 5, 64, 1, "SAME"), "660c22d9b3f17244", "b71101c62c00573e", "aac7d373564d8149"),
        ((16, 13, 96, 3, 70, 1, "SAME"), "8cb911f5db638d5e", "0c3774810b6f64b9", "b43f7e41eae30343"),
        ((4, 15, 3, 5, 24, 2, "SAME"), "e307ab954de4e6d3", None, "bb0707287d2161ec"),
        ((2, 20, 1, 3, 20, 1, "SAME"), "8c17baa29b98f802", "af6eebaa4949e763", "fb6cb19e9e5aad8a"),
        ((8, 9, 40, 1, 33, 1, "VALID"), "a07912da0dac99dd", "0e124396507418c0", "1bbbb24e78b52ce0"),
        ((3, 17, 8, 3, 130, 3, "VALID"), "d9ee71a9a13e2258", None, "05807558185f65f5")],
    # rows wider than 28 columns (the filter gradient's chunks), 1x1 over 3136 positions, an
    # even filter
    8: [((2, 40, 16, 3, 16, 1, "SAME"), "b01db9dd390cc5b6", "592cf8da761b03d6", "b2c26947d24344fb"),
        ((2, 56, 16, 1, 32, 1, "VALID"), "50b78b67bbd8926e", "638ca9a404790830", "e5ea99c722ca0d4f"),
        ((2, 29, 16, 3, 16, 1, "SAME"), "0f149cbb7287d2fd", "c72290454b3db515", "fbd66ae16421a4f2"),
        ((1, 30, 17, 2, 20, 1, "SAME"), "626cb93586e0b567", "f54bc3d2ef43dadd", "f13a506cd7ad632e")],
}


@native
@pytest.mark.parametrize("seed", sorted(TF_DIGESTS))
def test_convolution_and_its_gradients_bits_equal_tensorflow(seed, monkeypatch):
    from tensorweave.kernels.cpu import parallel
    monkeypatch.setattr(parallel, "get_intra_op_threads", lambda: 2)    # (TF's, when recorded)
    rng = np.random.RandomState(seed)
    for (n, hw, c, k, co, s, padding), want_y, want_dx, want_dw in TF_DIGESTS[seed]:
        x = rng.randn(n, hw, hw, c).astype(np.float32)
        w = rng.randn(k, k, c, co).astype(np.float32)
        y = conv.conv2d_nhwc(x, w, (s, s), (1, 1), padding, None)
        dy = rng.randn(*y.shape).astype(np.float32)
        assert _digest(y) == want_y, (n, hw, c, k, co)
        if want_dx is not None:
            dx = conv.conv2d_backprop_input_nhwc(x.shape, w, dy, (s, s), (1, 1), padding, None)
            assert _digest(dx) == want_dx, (n, hw, c, k, co)
        dw = conv.conv2d_backprop_filter_nhwc(x, w.shape, dy, (s, s), (1, 1), padding, None)
        assert _digest(dw) == want_dw, (n, hw, c, k, co)


def test_numpy_paths_without_the_machine_code(monkeypatch):
    """Where the kernels cannot run (another CPU, TENSORWEAVE_DIRECT_CONV=0) conv.py's NumPy
    paths give the same values to float32 rounding."""
    rng = np.random.RandomState(2)
    x = rng.randn(3, 10, 10, 8).astype(np.float32)
    w = rng.randn(3, 3, 8, 20).astype(np.float32)
    dy = rng.randn(3, 10, 10, 20).astype(np.float32)
    args = ((1, 1), (1, 1), "SAME", None)
    fast = (conv.conv2d_nhwc(x, w, *args), conv.conv2d_backprop_input_nhwc(x.shape, w, dy, *args),
            conv.conv2d_backprop_filter_nhwc(x, w.shape, dy, *args))
    monkeypatch.setattr(direct_conv, "_load", dict)
    assert not direct_conv.available()
    slow = (conv.conv2d_nhwc(x, w, *args), conv.conv2d_backprop_input_nhwc(x.shape, w, dy, *args),
            conv.conv2d_backprop_filter_nhwc(x, w.shape, dy, *args))
    for a, b in zip(fast, slow):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5 * np.abs(b).max())


@native
def test_bias_and_relu_in_registers_equal_the_bias_add_and_relu_kernels():
    rng = np.random.RandomState(3)
    x = rng.randn(3, 6, 6, 5).astype(np.float32)
    x[0, 2, 2, 1], x[1, 3, 3, 0], x[2, 0, 0, 4] = np.nan, np.inf, -np.inf
    w = rng.randn(3, 3, 5, 40).astype(np.float32)
    b = rng.randn(40).astype(np.float32)
    b[:3] = (-0.0, np.inf, -np.inf)
    plain = conv.conv2d_nhwc(x, w, (1, 1), (1, 1), "SAME", None)
    with np.errstate(invalid="ignore"):
        biased = plain + b
        want = np.maximum(np.float32(0), biased)       # the Relu kernel's (0, x)
        for relu, expect in ((False, biased), (True, want)):
            got = conv.conv2d_nhwc(x, w, (1, 1), (1, 1), "SAME", None, post=conv._BiasRelu(b, relu))
            np.testing.assert_array_equal(got.view(np.uint32), expect.view(np.uint32))
    assert np.isnan(want).any() and np.isinf(want).any()


@native
def test_matmul_is_the_running_fma_that_tf_orders_emulation_computes(monkeypatch):
    """tf_order.matmul (TF's order for small float32 MatMuls) runs on the kernels; its float64
    emulation, kept for other CPUs, gives the same bits."""
    from tensorweave.kernels.cpu import tf_order
    rng = np.random.RandomState(4)
    for m, k, n, block in ((64, 10, 256, 512), (7, 33, 5, 512), (3, 1100, 2, 512), (30, 64, 17, None)):
        a = rng.randn(m, k).astype(np.float32)
        b = rng.randn(k, n).astype(np.float32)
        fast = tf_order.matmul(a, b, block)
        with monkeypatch.context() as mp:
            mp.setattr(direct_conv, "_load", dict)
            slow = tf_order.matmul(a, b, block)
        np.testing.assert_array_equal(fast, slow)
        np.testing.assert_allclose(fast, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4 * np.sqrt(k))


@native
def test_empty_dimensions():
    x = np.ones((2, 5, 5, 3), np.float32)
    for co in (0, 4):
        w = np.ones((3, 3, 3, co), np.float32)
        assert conv.conv2d_nhwc(x, w, (1, 1), (1, 1), "SAME", None).shape == (2, 5, 5, co)
        dy = np.ones((2, 5, 5, co), np.float32)
        assert conv.conv2d_backprop_filter_nhwc(x, w.shape, dy, (1, 1), (1, 1), "SAME", None).shape == w.shape
    assert direct_conv.matmul(np.ones((3, 4), np.float32), np.ones((4, 0), np.float32)).shape == (3, 0)
    assert direct_conv.matmul(np.ones((0, 4), np.float32), np.ones((4, 2), np.float32)).shape == (0, 2)


@native
def test_random_geometries_agree_with_the_numpy_paths(monkeypatch):
    """Many strides, dilations, paddings and channel counts: the kernels read only inside their
    buffers (a wrong offset would crash or differ) and agree with the NumPy paths."""
    rng = np.random.RandomState(5)
    ran = 0
    for _ in range(40):
        n, h, w = rng.randint(1, 4), rng.randint(1, 12), rng.randint(1, 31)
        c, co = rng.choice([1, 2, 5, 16, 17, 33]), rng.choice([1, 7, 16, 31, 64, 65])
        kh, kw = rng.randint(1, min(h, 4) + 1), rng.randint(1, min(w, 5) + 1)
        strides = (rng.randint(1, 4), rng.randint(1, 4))
        dilations = (1, 1) if rng.rand() < 0.5 else (rng.randint(1, 3), rng.randint(1, 3))
        padding = rng.choice(["SAME", "VALID", "EXPLICIT"])
        explicit = ((rng.randint(0, 3), rng.randint(0, 3)), (rng.randint(0, 3), rng.randint(0, 3))) \
            if padding == "EXPLICIT" else None
        if (kh - 1) * dilations[0] + 1 > h + (sum(explicit[0]) if explicit else 0) and padding != "SAME":
            continue
        if (kw - 1) * dilations[1] + 1 > w + (sum(explicit[1]) if explicit else 0) and padding != "SAME":
            continue
        x = rng.randn(n, h, w, c).astype(np.float32)
        f = rng.randn(kh, kw, c, co).astype(np.float32)
        args = (strides, dilations, padding, explicit)
        y = conv.conv2d_nhwc(x, f, *args)
        dy = rng.randn(*y.shape).astype(np.float32)
        fast = [y, conv.conv2d_backprop_filter_nhwc(x, f.shape, dy, *args)]
        if strides == (1, 1):
            fast.append(conv.conv2d_backprop_input_nhwc(x.shape, f, dy, *args))
        with monkeypatch.context() as mp:
            mp.setattr(direct_conv, "_load", dict)
            slow = [conv.conv2d_nhwc(x, f, *args), conv.conv2d_backprop_filter_nhwc(x, f.shape, dy, *args)]
            if strides == (1, 1):
                slow.append(conv.conv2d_backprop_input_nhwc(x.shape, f, dy, *args))
        for a, b in zip(fast, slow):
            assert a.shape == b.shape
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4 * (np.abs(b).max() + 1))
        ran += 1
    assert ran >= 25


# Conv2DBackpropInput with strides or without padding (conv2d_transpose's kernel), recorded from
# TF 2.21 (oneDNN's brgconv_strided / brg_conv_bwd): sha256[:16] of the result, filter and dy
# drawn in order from np.random.RandomState(9) for each case.
TF_BACKPROP_INPUT = [  # (n, hw, c, k, co, stride, padding), digest
    ((4, 14, 16, 3, 32, 2, "SAME"), "b0352c6133d420f9"),    # width a multiple of the stride
    ((4, 15, 16, 3, 32, 2, "VALID"), "74c7cf8388aefc9b"),   # width not a multiple
    ((2, 16, 32, 5, 64, 2, "SAME"), "ea28f788634b6eec"),
    ((2, 13, 8, 4, 16, 3, "SAME"), "9bc6fc7e8e47f824"),
    ((3, 11, 1, 3, 8, 2, "SAME"), "65105c9eb0e973ee"),
    ((8, 8, 64, 4, 32, 2, "SAME"), "547483ff8da8a94f"),      # a DCGAN generator's layer
    ((8, 12, 16, 3, 48, 1, "VALID"), "4ce8ddc78a57a108"),    # stride 1, no padding
    ((2, 28, 128, 3, 256, 2, "SAME"), "9a78e737d291c0da"),   # ResNet-like
    ((2, 21, 8, 3, 16, 3, "VALID"), "24a8dc4f6ad5d1e5"),
    ((2, 10, 8, 2, 8, 2, "VALID"), "036af4064b0247f9"),
]


@native
def test_strided_and_valid_input_gradients_bits_equal_tensorflow():
    rng = np.random.RandomState(9)
    for (n, hw, c, k, co, s, padding), want in TF_BACKPROP_INPUT:
        w = rng.randn(k, k, c, co).astype(np.float32)
        oh = -(-hw // s) if padding == "SAME" else (hw - k) // s + 1
        dy = rng.randn(n, oh, oh, co).astype(np.float32)
        dx = conv.conv2d_backprop_input_nhwc((n, hw, hw, c), w, dy, (s, s), (1, 1), padding, None)
        assert _digest(dx) == want, (n, hw, c, k, co, s, padding)
