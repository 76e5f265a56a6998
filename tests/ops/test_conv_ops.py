"""Convolution ops against direct loop references, gradients by finite differences, TF names."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import direct_conv
from tensorweave.testing import check_gradients, check_op

RNG = np.random.RandomState(0)


@pytest.fixture(autouse=True, params=["direct", "numpy"])
def conv_kernels(request, monkeypatch):
    """Every test here runs on the machine-code kernels (where this CPU has them) and on the
    NumPy paths that replace them elsewhere."""
    if request.param == "numpy":
        monkeypatch.setattr(direct_conv, "_load", dict)
    elif not direct_conv.available():
        pytest.skip("the direct kernels need x86-64 Linux with AVX-512F")


def _pads(size, k, s, d, padding):
    eff = (k - 1) * d + 1
    if padding == "VALID":
        return 0, 0
    out = -(-size // s)
    total = max((out - 1) * s + eff - size, 0)
    return total // 2, total - total // 2


def ref_conv2d(x, w, strides, padding, dilations=(1, 1)):
    """Direct loop over output pixels and kernel taps (NHWC)."""
    n, h, wd, c = x.shape
    kh, kw, _, o = w.shape
    if isinstance(padding, str):
        ph = _pads(h, kh, strides[0], dilations[0], padding)
        pw = _pads(wd, kw, strides[1], dilations[1], padding)
    else:
        ph, pw = padding
    xp = np.pad(x, [(0, 0), ph, pw, (0, 0)])
    oh = (xp.shape[1] - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (xp.shape[2] - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    out = np.zeros((n, oh, ow, o), np.float64)
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for b in range(kw):
                    out[:, i, j, :] += xp[:, i * strides[0] + a * dilations[0],
                                          j * strides[1] + b * dilations[1], :] @ w[a, b]
    return out.astype(x.dtype)


def ref_depthwise(x, w, strides, padding):
    n, h, wd, c = x.shape
    kh, kw, _, m = w.shape
    ph, pw = _pads(h, kh, strides[0], 1, padding), _pads(wd, kw, strides[1], 1, padding)
    xp = np.pad(x, [(0, 0), ph, pw, (0, 0)])
    oh = (xp.shape[1] - kh) // strides[0] + 1
    ow = (xp.shape[2] - kw) // strides[1] + 1
    out = np.zeros((n, oh, ow, c, m))
    for i in range(oh):
        for j in range(ow):
            for a in range(kh):
                for b in range(kw):
                    out[:, i, j] += xp[:, i * strides[0] + a, j * strides[1] + b, :, None] * w[a, b]
    return out.reshape(n, oh, ow, c * m).astype(x.dtype)


CASES = [((1, 1), "VALID", (1, 1)), ((1, 1), "SAME", (1, 1)), ((2, 2), "SAME", (1, 1)),
         ((2, 1), "VALID", (1, 1)), ((1, 1), "SAME", (2, 2)), ((3, 2), "SAME", (1, 2))]


@pytest.mark.parametrize("strides,padding,dilations", CASES)
def test_conv2d_matches_loop_reference(strides, padding, dilations):
    x = RNG.randn(2, 7, 6, 3).astype(np.float32)
    w = RNG.randn(3, 2, 3, 4).astype(np.float32)
    check_op(lambda a, b: tf.nn.conv2d(a, b, [1, strides[0], strides[1], 1], padding,
                                       dilations=[1, dilations[0], dilations[1], 1]),
             [x, w], ref_conv2d(x, w, strides, padding, dilations), rtol=1e-4, atol=1e-4)


def test_conv2d_explicit_padding_nchw_and_1x1():
    x = RNG.randn(2, 5, 6, 3).astype(np.float32)
    w = RNG.randn(3, 3, 3, 2).astype(np.float32)
    want = ref_conv2d(x, w, (2, 1), ((1, 2), (0, 1)))
    check_op(lambda a, b: tf.nn.conv2d(a, b, [1, 2, 1, 1], [[0, 0], [1, 2], [0, 1], [0, 0]]), [x, w],
             want, rtol=1e-4, atol=1e-4)
    xt = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    check_op(lambda a, b: tf.nn.conv2d(a, b, [1, 1, 1, 1], "SAME", data_format="NCHW"), [xt, w],
             ref_conv2d(x, w, (1, 1), "SAME").transpose(0, 3, 1, 2), rtol=1e-4, atol=1e-4)
    w1 = RNG.randn(1, 1, 3, 5).astype(np.float32)
    check_op(lambda a, b: tf.nn.conv2d(a, b, 1, "VALID"), [x, w1], ref_conv2d(x, w1, (1, 1), "VALID"),
             rtol=1e-4, atol=1e-4)


def test_conv2d_transpose_is_the_adjoint():
    # <conv2d(x, w), y> == <x, conv2d_transpose(y, w)> for every x, y.
    x = RNG.randn(2, 7, 7, 3)
    w = RNG.randn(3, 3, 3, 4)
    for strides, padding in [((2, 2), "SAME"), ((2, 2), "VALID"), ((1, 1), "SAME")]:
        y_shape = ref_conv2d(x, w, strides, padding).shape
        y = RNG.randn(*y_shape)
        g = tf.Graph()
        with g.as_default():
            t = tf.nn.conv2d_transpose(tf.constant(y), tf.constant(w), [2, 7, 7, 3],
                                       [1, strides[0], strides[1], 1], padding)
            assert t.shape.as_list() == [2, 7, 7, 3]
            with tf.Session() as sess:
                xt = sess.run(t)
        np.testing.assert_allclose(np.sum(ref_conv2d(x, w, strides, padding) * y), np.sum(x * xt),
                                   rtol=1e-9)


@pytest.mark.parametrize("strides,padding", [((1, 1), "SAME"), ((2, 2), "VALID")])
def test_depthwise_and_separable(strides, padding):
    x = RNG.randn(2, 6, 5, 3).astype(np.float32)
    w = RNG.randn(3, 3, 3, 2).astype(np.float32)
    check_op(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, strides[0], strides[1], 1], padding),
             [x, w], ref_depthwise(x, w, strides, padding), rtol=1e-4, atol=1e-4)
    pw = RNG.randn(1, 1, 6, 4).astype(np.float32)
    want = ref_conv2d(ref_depthwise(x, w, strides, padding), pw, (1, 1), "VALID")
    check_op(lambda a, b, c: tf.nn.separable_conv2d(a, b, c, [1, strides[0], strides[1], 1], padding),
             [x, w, pw], want, rtol=1e-4, atol=1e-4)


def test_conv1d():
    x = RNG.randn(2, 10, 3).astype(np.float32)
    w = RNG.randn(3, 3, 4).astype(np.float32)
    want = ref_conv2d(x[:, None], w[None], (1, 2), "SAME")[:, 0]
    check_op(lambda a, b: tf.nn.conv1d(a, b, 2, "SAME"), [x, w], want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("strides,padding,dilations", [((2, 2), "SAME", (1, 1)), ((1, 1), "VALID", (1, 1)),
                                                       ((1, 1), "SAME", (2, 1))])
def test_conv2d_gradients(strides, padding, dilations):
    x = RNG.randn(2, 5, 5, 2)
    w = RNG.randn(3, 3, 2, 3)
    check_gradients(lambda a, b: tf.nn.conv2d(a, b, [1, strides[0], strides[1], 1], padding,
                                              dilations=[1, dilations[0], dilations[1], 1]), [x, w])


def test_conv2d_nchw_gradients_and_second_order():
    x = RNG.randn(1, 2, 4, 4)
    w = RNG.randn(2, 2, 2, 2)
    check_gradients(lambda a, b: tf.nn.conv2d(a, b, [1, 1, 2, 2], "SAME", data_format="NCHW"), [x, w])
    # Gradients of the backprop ops (conv2d_transpose's gradients, second derivatives).
    y = RNG.randn(2, 3, 3, 2)
    w2 = RNG.randn(3, 3, 3, 2)
    check_gradients(lambda a, b: tf.nn.conv2d_transpose(a, b, [2, 5, 5, 3], [1, 2, 2, 1], "SAME"), [y, w2])
    x3 = RNG.randn(1, 4, 4, 2)
    check_gradients(lambda a, b: tf.gradients(tf.reduce_sum(tf.square(tf.nn.conv2d(a, b, 1, "SAME"))),
                                              b)[0], [x3, RNG.randn(2, 2, 2, 2)])


def test_depthwise_gradients():
    x = RNG.randn(1, 5, 4, 2)
    w = RNG.randn(3, 2, 2, 2)
    check_gradients(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, 2, 2, 1], "SAME"), [x, w])


def test_names_and_shapes_as_tensorflow():
    # Recorded from TensorFlow 2.x's tf.compat.v1 graph mode.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 7, 7, 3])
        w = tf.placeholder(tf.float32, [3, 3, 3, 4])
        y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
        assert (y.name, y.shape.as_list()) == ("Conv2D:0", [2, 7, 7, 4])
        y2 = tf.nn.conv2d(x, w, [1, 2, 2, 1], [[0, 0], [1, 2], [0, 1], [0, 0]])
        assert y2.shape.as_list() == [2, 4, 3, 4]
        assert y2.op.get_attr("explicit_paddings") == [0, 0, 1, 2, 0, 1, 0, 0]
        assert tf.nn.conv2d(x, w, 1, "VALID", dilations=2).shape.as_list() == [2, 3, 3, 4]
        gx, gw = tf.gradients(y, [x, w])
        assert gx.name == "gradients/Conv2D_grad/Conv2DBackpropInput:0"
        assert gw.name == "gradients/Conv2D_grad/Conv2DBackpropFilter:0"
        t = tf.nn.conv2d_transpose(y, tf.placeholder(tf.float32, [3, 3, 5, 4]), [2, 7, 7, 5],
                                   [1, 1, 1, 1], "SAME")
        assert (t.name, t.shape.as_list()) == ("conv2d_transpose:0", [2, 7, 7, 5])
        assert t.op.inputs[0].name == "conv2d_transpose/input_sizes:0"
        dw = tf.placeholder(tf.float32, [3, 3, 3, 2])
        d = tf.nn.depthwise_conv2d(x, dw, [1, 1, 1, 1], "SAME")
        assert (d.name, d.shape.as_list()) == ("depthwise:0", [2, 7, 7, 6])
        dn = tf.nn.depthwise_conv2d_native(x, dw, [1, 1, 1, 1], "VALID")
        assert (dn.name, dn.shape.as_list()) == ("DepthwiseConv2dNative:0", [2, 5, 5, 6])
        s = tf.nn.separable_conv2d(x, dw, tf.placeholder(tf.float32, [1, 1, 6, 8]), [1, 1, 1, 1], "SAME")
        assert (s.name, s.shape.as_list()) == ("separable_conv2d:0", [2, 7, 7, 8])
        assert s.op.inputs[0].name == "separable_conv2d/depthwise:0"
        c1 = tf.nn.conv1d(tf.placeholder(tf.float32, [2, 10, 3]), tf.placeholder(tf.float32, [3, 3, 4]),
                          2, "SAME")
        assert (c1.name, c1.shape.as_list()) == ("conv1d/Squeeze:0", [2, 5, 4])
        assert c1.op.inputs[0].name == "conv1d:0"
        # TF: ValueError "Depth of input (3) is not a multiple of input depth of filter (2) ..."
        with pytest.raises(ValueError, match="Depth of input"):
            tf.nn.conv2d(x, tf.placeholder(tf.float32, [3, 3, 2, 4]), [1, 1, 1, 1], "SAME")
        with pytest.raises(ValueError, match="Negative dimension"):
            tf.nn.conv2d(x, tf.placeholder(tf.float32, [9, 9, 3, 4]), [1, 1, 1, 1], "VALID")


def test_top_k_is_a_namedtuple_like_tf():
    t = tf.nn.top_k([1, 5, 3], k=2)
    assert type(t).__name__ == "TopKV2" and t.values is t[0] and t.indices is t[1]
    with tf.Session() as sess:
        r = sess.run(t)
    assert type(r).__name__ == "TopKV2"
    np.testing.assert_array_equal(r.values, [5, 3])
    np.testing.assert_array_equal(r.indices, [1, 2])


# -- the fast paths: batch-chunked patch matrices, the stride-1 input gradient as a convolution --

def ref_conv2d_backprops(x, w, dy, strides, padding, dilations=(1, 1)):
    """Input and filter gradients of ref_conv2d by direct loops (padding: a TF string or pairs)."""
    n, h, wd, c = x.shape
    kh, kw = w.shape[:2]
    if isinstance(padding, str):
        ph = _pads(h, kh, strides[0], dilations[0], padding)
        pw = _pads(wd, kw, strides[1], dilations[1], padding)
    else:
        ph, pw = padding
    xp = np.pad(x.astype(np.float64), [(0, 0), ph, pw, (0, 0)])
    dxp = np.zeros_like(xp)
    dw = np.zeros(w.shape)
    for i in range(dy.shape[1]):
        for j in range(dy.shape[2]):
            for a in range(kh):
                for b in range(kw):
                    r, q = i * strides[0] + a * dilations[0], j * strides[1] + b * dilations[1]
                    dxp[:, r, q, :] += dy[:, i, j, :] @ w[a, b].T
                    dw[a, b] += xp[:, r, q, :].T @ dy[:, i, j, :]
    return dxp[:, ph[0]:ph[0] + h, pw[0]:pw[0] + wd], dw


FAST_CASES = [((1, 1), "SAME", (1, 1)), ((1, 1), "VALID", (1, 1)), ((1, 1), "SAME", (2, 1)),
              ((1, 1), ((3, 0), (1, 4)), (1, 1)), ((2, 2), "SAME", (1, 1))]


@pytest.mark.parametrize("channels", [16, 3])  # patch-major and tap-major patch matrices
@pytest.mark.parametrize("strides,padding,dilations", FAST_CASES)
def test_conv2d_and_backprops_in_chunks(strides, padding, dilations, channels, monkeypatch):
    from tensorweave.kernels.cpu import conv as conv_kernels
    monkeypatch.setattr(conv_kernels, "_CHUNK_BYTES", 1)  # one image per patch-matrix chunk
    x = RNG.randn(3, 6, 5, channels).astype(np.float32)
    w = RNG.randn(2, 3, channels, 5).astype(np.float32)
    tf_pad = padding if isinstance(padding, str) else [[0, 0], list(padding[0]), list(padding[1]), [0, 0]]
    y = ref_conv2d(x, w, strides, padding, dilations)
    dy = RNG.randn(*y.shape).astype(np.float32)
    dx_want, dw_want = ref_conv2d_backprops(x, w, dy, strides, padding, dilations)
    st, dil = [1, strides[0], strides[1], 1], [1, dilations[0], dilations[1], 1]
    check_op(lambda a, b: tf.nn.conv2d(a, b, st, tf_pad, dilations=dil), [x, w], y, rtol=1e-4, atol=1e-4)
    check_op(lambda b, g: tf.nn.conv2d_backprop_input(list(x.shape), b, g, st, tf_pad, dilations=dil),
             [w, dy], dx_want.astype(np.float32), rtol=1e-4, atol=1e-4)
    check_op(lambda a, g: tf.nn.conv2d_backprop_filter(a, list(w.shape), g, st, tf_pad, dilations=dil),
             [x, dy], dw_want.astype(np.float32), rtol=1e-4, atol=1e-4)


def test_conv2d_gradients_with_many_input_channels():
    x = RNG.randn(1, 4, 3, 16)
    w = RNG.randn(3, 2, 16, 2)
    check_gradients(lambda a, b: tf.nn.conv2d(a, b, 1, "SAME"), [x, w])


def test_depthwise_unequal_strides_and_top_k_vector_k_as_tensorflow():
    # Recorded from TF 2.21: the depthwise CPU kernel rejects unequal row/column strides
    # at run time; a known non-scalar k fails top_k's shape function.
    x = tf.constant(np.ones((1, 5, 4, 2), np.float32))
    w = tf.constant(np.ones((3, 2, 2, 2), np.float32))
    y = tf.nn.depthwise_conv2d_native(x, w, [1, 2, 1, 1], "SAME")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(y)
    with pytest.raises(ValueError, match="Input must be scalar but has rank 1"):
        tf.nn.top_k(tf.constant([1.0, 2.0]), tf.constant([1]))
