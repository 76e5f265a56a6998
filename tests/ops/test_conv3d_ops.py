"""3-D convolution and pooling ops against direct loop references, gradients by finite
differences, names / shapes / error classes as TensorFlow."""

import itertools

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

RNG = np.random.RandomState(0)


def _pads(size, k, s, d, padding):
    eff = (k - 1) * d + 1
    if padding == "VALID":
        return 0, 0
    out = -(-size // s)
    total = max((out - 1) * s + eff - size, 0)
    return total // 2, total - total // 2


def _geometry(spatial, ks, strides, dilations, padding):
    pads = [_pads(n, k, s, d, padding) for n, k, s, d in zip(spatial, ks, strides, dilations)]
    outs = [(n + lo + hi - (k - 1) * d - 1) // s + 1
            for n, (lo, hi), k, s, d in zip(spatial, pads, ks, strides, dilations)]
    return pads, outs


def ref_conv3d(x, w, strides, padding, dilations=(1, 1, 1)):
    """Direct loop over output positions and kernel taps (NDHWC), float64."""
    pads, outs = _geometry(x.shape[1:4], w.shape[:3], strides, dilations, padding)
    xp = np.pad(x.astype(np.float64), [(0, 0)] + pads + [(0, 0)])
    out = np.zeros((x.shape[0],) + tuple(outs) + (w.shape[4],))
    for i, j, k in itertools.product(*map(range, outs)):
        for a, b, c in itertools.product(*map(range, w.shape[:3])):
            out[:, i, j, k] += xp[:, i * strides[0] + a * dilations[0], j * strides[1] + b * dilations[1],
                                  k * strides[2] + c * dilations[2]] @ w[a, b, c]
    return out


def ref_conv3d_backprops(x, w, dy, strides, padding, dilations=(1, 1, 1)):
    pads, outs = _geometry(x.shape[1:4], w.shape[:3], strides, dilations, padding)
    xp = np.pad(x.astype(np.float64), [(0, 0)] + pads + [(0, 0)])
    dxp, dw = np.zeros_like(xp), np.zeros(w.shape)
    for i, j, k in itertools.product(*map(range, outs)):
        for a, b, c in itertools.product(*map(range, w.shape[:3])):
            p = (slice(None), i * strides[0] + a * dilations[0], j * strides[1] + b * dilations[1],
                 k * strides[2] + c * dilations[2])
            dxp[p] += dy[:, i, j, k] @ w[a, b, c].T
            dw[a, b, c] += xp[p].T @ dy[:, i, j, k]
    d, h, wd = x.shape[1:4]
    return dxp[:, pads[0][0]:pads[0][0] + d, pads[1][0]:pads[1][0] + h, pads[2][0]:pads[2][0] + wd], dw


def ref_pool3d(x, ks, strides, padding, kind):
    pads, outs = _geometry(x.shape[1:4], ks, strides, (1, 1, 1), padding)
    out = np.zeros((x.shape[0],) + tuple(outs) + (x.shape[4],))
    for i, j, k in itertools.product(*map(range, outs)):
        lo = [o * s - p[0] for o, s, p in zip((i, j, k), strides, pads)]
        win = x[:, max(lo[0], 0):lo[0] + ks[0], max(lo[1], 0):lo[1] + ks[1],
                max(lo[2], 0):lo[2] + ks[2]].astype(np.float64)
        out[:, i, j, k] = win.max(axis=(1, 2, 3)) if kind == "max" else win.mean(axis=(1, 2, 3))
    return out


def _ncdhw(a):
    return np.ascontiguousarray(np.transpose(a, (0, 4, 1, 2, 3)))


CONV_CASES = [((1, 1, 1), "VALID", (1, 1, 1)), ((1, 1, 1), "SAME", (1, 1, 1)),
              ((2, 2, 2), "SAME", (1, 1, 1)), ((2, 1, 3), "VALID", (1, 1, 1)),
              ((1, 1, 1), "SAME", (2, 1, 2)), ((1, 1, 1), "VALID", (2, 1, 2)),
              ((2, 3, 1), "SAME", (1, 1, 2))]


@pytest.mark.parametrize("fmt", ["NDHWC", "NCDHW"])
@pytest.mark.parametrize("strides,padding,dilations", CONV_CASES)
def test_conv3d_and_backprops_match_loop_reference(strides, padding, dilations, fmt):
    x = RNG.randn(2, 5, 4, 6, 3).astype(np.float32)
    w = RNG.randn(2, 3, 2, 3, 4).astype(np.float32)
    y = ref_conv3d(x, w, strides, padding, dilations)
    dy = RNG.randn(*y.shape).astype(np.float32)
    dx, dw = ref_conv3d_backprops(x, w, dy, strides, padding, dilations)
    conv = (lambda a: a) if fmt == "NDHWC" else _ncdhw
    perm = (lambda s: s) if fmt == "NDHWC" else (lambda s: [s[0], s[4], s[1], s[2], s[3]])
    st, dil = perm([1, *strides, 1]), perm([1, *dilations, 1])
    check_op(lambda a, b: tf.nn.conv3d(a, b, st, padding, data_format=fmt, dilations=dil),
             [conv(x), w], conv(y).astype(np.float32), rtol=1e-4, atol=1e-4)
    check_op(lambda b, g: tf.nn.conv3d_transpose(g, b, perm(list(x.shape)), st, padding,
                                                 data_format=fmt, dilations=dil),
             [w, conv(dy)], conv(dx).astype(np.float32), rtol=1e-4, atol=1e-4)
    check_op(lambda a, g: tf.nn.conv3d_backprop_filter_v2(a, list(w.shape), g, st, padding,
                                                          data_format=fmt, dilations=dil),
             [conv(x), conv(dy)], dw.astype(np.float32), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("strides,padding,dilations", [((1, 1, 1), "SAME", (1, 1, 1)),
                                                       ((1, 1, 1), "VALID", (2, 1, 1)),
                                                       ((2, 1, 2), "SAME", (1, 1, 1))])
def test_conv3d_chunked_many_channels_and_1x1x1(strides, padding, dilations, monkeypatch):
    # One volume per patch-matrix chunk; >= 16 input channels takes the stride-1 input gradient
    # as a flipped convolution.
    from tensorweave.kernels.cpu import conv as conv_kernels
    monkeypatch.setattr(conv_kernels, "_CHUNK_BYTES", 1)
    x = RNG.randn(3, 4, 5, 3, 16).astype(np.float32)
    for w in (RNG.randn(2, 2, 3, 16, 5).astype(np.float32), RNG.randn(1, 1, 1, 16, 5).astype(np.float32)):
        y = ref_conv3d(x, w, strides, padding, dilations)
        dy = RNG.randn(*y.shape).astype(np.float32)
        dx, dw = ref_conv3d_backprops(x, w, dy, strides, padding, dilations)
        st, dil = [1, *strides, 1], [1, *dilations, 1]
        check_op(lambda a, b: tf.nn.conv3d(a, b, st, padding, dilations=dil), [x, w],
                 y.astype(np.float32), rtol=1e-4, atol=1e-4)
        check_op(lambda b, g: tf.nn.conv3d_transpose(g, b, list(x.shape), st, padding, dilations=dil),
                 [w, dy], dx.astype(np.float32), rtol=1e-4, atol=1e-4)
        check_op(lambda a, g: tf.nn.conv3d_backprop_filter(a, list(w.shape), g, st, padding,
                                                           dilations=dil),
                 [x, dy], dw.astype(np.float32), rtol=1e-4, atol=1e-3)


POOL_CASES = [((2, 2, 2), (2, 2, 2), "VALID"), ((2, 2, 2), (2, 2, 2), "SAME"),
              ((3, 2, 2), (1, 1, 1), "SAME"), ((3, 1, 2), (2, 1, 3), "VALID"),
              ((1, 3, 2), (2, 2, 1), "SAME"), ((1, 1, 1), (1, 1, 1), "VALID")]


@pytest.mark.parametrize("fmt", ["NDHWC", "NCDHW"])
@pytest.mark.parametrize("ksize,strides,padding", POOL_CASES)
def test_pool3d_matches_loop_reference(ksize, strides, padding, fmt):
    x = RNG.randn(2, 5, 4, 6, 3).astype(np.float32)
    conv = (lambda a: a) if fmt == "NDHWC" else _ncdhw
    for kind, fn in (("max", tf.nn.max_pool3d), ("avg", tf.nn.avg_pool3d)):
        want = conv(ref_pool3d(x, ksize, strides, padding, kind)).astype(np.float32)
        check_op(lambda a: fn(a, list(ksize), list(strides), padding, data_format=fmt), [conv(x)],
                 want, rtol=1e-5, atol=1e-5)


def test_max_pool3d_grad_gives_ties_within_1e5_the_gradient_as_tensorflow():
    # Recorded from TensorFlow 2.21 (tf.compat.v1, CPU): MaxPool3DGrad routes a window's gradient
    # to every element within 1e-5 of its maximum; MaxPool3DGradGrad reads the first maximum.
    x = np.zeros((1, 2, 2, 2, 1), np.float32)
    x[0, 0, 0, 1, 0] = 1
    x[0, 1, 1, 0, 0] = 1
    x[0, 1, 1, 1, 0] = 1 - 1e-6
    g = tf.Graph()
    with g.as_default():
        xt = tf.constant(x)
        y = tf.nn.max_pool3d(xt, 2, 2, "VALID")
        gx = tf.gradients(y, xt)[0]
        gg = tf.gradients(gx, xt, grad_ys=tf.constant(np.arange(1, 9, dtype=np.float32).reshape(x.shape)))
        assert gx.op.type == "MaxPool3DGrad" and gx.op.get_attr("TInput") == tf.float32
        with tf.Session() as sess:
            gxv = sess.run(gx)
            ggop = [op for op in g.get_operations() if op.type == "MaxPool3DGradGrad"][0]
            ggv = sess.run(ggop.outputs[0])
    np.testing.assert_array_equal(gxv.ravel(), [0, 1, 0, 0, 0, 0, 1, 1])
    np.testing.assert_array_equal(ggv.ravel(), [2.0])
    assert gg[0] is not None


@pytest.mark.parametrize("strides,padding,dilations", [((2, 2, 1), "SAME", (1, 1, 1)),
                                                       ((1, 1, 1), "VALID", (1, 1, 1)),
                                                       ((1, 1, 1), "SAME", (2, 1, 1))])
def test_conv3d_gradients(strides, padding, dilations):
    x = RNG.randn(2, 4, 3, 4, 2)
    w = RNG.randn(2, 2, 3, 2, 2)
    check_gradients(lambda a, b: tf.nn.conv3d(a, b, [1, *strides, 1], padding,
                                              dilations=[1, *dilations, 1]), [x, w])


def test_conv3d_ncdhw_gradients_transpose_and_second_order():
    x = RNG.randn(1, 2, 3, 4, 3)
    w = RNG.randn(2, 2, 2, 2, 2)
    check_gradients(lambda a, b: tf.nn.conv3d(a, b, [1, 1, 2, 1, 2], "SAME", data_format="NCDHW"), [x, w])
    # Gradients of the backprop ops: conv3d_transpose's gradients, and second derivatives.
    y = RNG.randn(1, 2, 2, 2, 2)
    w2 = RNG.randn(2, 3, 2, 3, 2)
    check_gradients(lambda a, b: tf.nn.conv3d_transpose(a, b, [1, 3, 4, 3, 3], [1, 2, 2, 2, 1], "SAME"),
                    [y, w2])
    x3 = RNG.randn(1, 3, 3, 3, 2)
    check_gradients(lambda a, b: tf.gradients(tf.reduce_sum(tf.square(tf.nn.conv3d(
        a, b, [1, 1, 1, 1, 1], "SAME"))), b)[0], [x3, RNG.randn(2, 2, 2, 2, 2)])
    check_gradients(lambda a, b: tf.nn.conv3d_backprop_filter_v2(a, [2, 2, 2, 2, 3], b, [1, 1, 1, 1, 1],
                                                                 "VALID"),
                    [RNG.randn(1, 3, 3, 3, 2), RNG.randn(1, 2, 2, 2, 3)])


@pytest.mark.parametrize("fmt", ["NDHWC", "NCDHW"])
@pytest.mark.parametrize("ksize,strides,padding", [((2, 2, 2), (2, 2, 2), "SAME"),
                                                   ((3, 2, 1), (1, 2, 1), "VALID"),
                                                   ((2, 3, 2), (1, 1, 2), "SAME")])
def test_pool3d_gradients(ksize, strides, padding, fmt):
    # Distinct values a few 1e-3 apart: no two elements of a window within 1e-5 (TF's tie rule).
    x = (RNG.permutation(2 * 4 * 3 * 5 * 2) * 1e-2).reshape(2, 4, 3, 5, 2)
    if fmt == "NCDHW":
        x = _ncdhw(x)
    for fn in (tf.nn.max_pool3d, tf.nn.avg_pool3d):
        check_gradients(lambda a: fn(a, list(ksize), list(strides), padding, data_format=fmt), [x],
                        delta=1e-6)
    # Second order: the gradients of MaxPool3DGrad and AvgPool3DGrad with respect to dy.
    for fn in (tf.nn.max_pool3d, tf.nn.avg_pool3d):
        def build(dy, fn=fn):
            xt = tf.constant(x)
            y = fn(xt, list(ksize), list(strides), padding, data_format=fmt)
            return tf.gradients(y, xt, grad_ys=dy)[0]
        y_shape = ref_pool3d(x if fmt == "NDHWC" else x.transpose(0, 2, 3, 4, 1), ksize, strides,
                             padding, "max").shape
        dy = RNG.randn(*y_shape)
        check_gradients(build, [dy if fmt == "NDHWC" else _ncdhw(dy)])


def test_names_shapes_and_errors_as_tensorflow():
    # Recorded from TensorFlow 2.21's tf.compat.v1 graph mode.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 5, 6, 7, 3])
        w = tf.placeholder(tf.float32, [2, 3, 2, 3, 4])
        y = tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "SAME")
        assert (y.name, y.shape.as_list(), y.op.type) == ("Conv3D:0", [2, 5, 6, 7, 4], "Conv3D")
        assert y.op.get_attr("dilations") == [1, 1, 1, 1, 1]
        assert y.op.get_attr("data_format") == b"NDHWC"   # bytes, as TF returns
        y3 = tf.nn.conv3d(x, w, [1, 2, 2, 2, 1], "VALID")
        assert (y3.name, y3.shape.as_list()) == ("Conv3D_1:0", [2, 2, 2, 3, 4])
        gx, gw = tf.gradients(y, [x, w])
        assert (gx.name, gx.shape.as_list()) == ("gradients/Conv3D_grad/Conv3DBackpropInputV2:0",
                                                 [2, 5, 6, 7, 3])
        assert (gw.name, gw.shape.as_list()) == ("gradients/Conv3D_grad/Conv3DBackpropFilterV2:0",
                                                 [2, 3, 2, 3, 4])
        assert [t.name for t in gx.op.inputs] == ["gradients/Conv3D_grad/ShapeN:0", w.name,
                                                  "gradients/grad_ys_0:0"]
        assert gx.op.get_attr("Tshape") == tf.int32
        t = tf.nn.conv3d_transpose(y, tf.placeholder(tf.float32, [2, 3, 2, 5, 4]), [2, 5, 6, 7, 5],
                                   [1, 1, 1, 1, 1], "SAME")
        assert (t.name, t.shape.as_list(), t.op.type) == ("conv3d_transpose:0", [2, 5, 6, 7, 5],
                                                          "Conv3DBackpropInputV2")
        assert t.op.inputs[0].name == "conv3d_transpose/input_sizes:0"
        bf = tf.nn.conv3d_backprop_filter_v2(x, [2, 3, 2, 3, 4], y, [1, 1, 1, 1, 1], "SAME")
        assert (bf.name, bf.shape.as_list()) == ("Conv3DBackpropFilterV2:0", [2, 3, 2, 3, 4])
        bf1 = tf.nn.conv3d_backprop_filter(x, [2, 3, 2, 3, 4], y, [1, 1, 1, 1, 1], "SAME")
        assert (bf1.name, bf1.op.type) == ("Conv3DBackpropFilterV2_1:0", "Conv3DBackpropFilterV2")
        mp = tf.nn.max_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "SAME")
        assert (mp.name, mp.shape.as_list()) == ("MaxPool3D:0", [2, 3, 3, 4, 3])
        ap = tf.nn.avg_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")
        assert (ap.name, ap.shape.as_list()) == ("AvgPool3D:0", [2, 2, 3, 3, 3])
        for k in (2, [2], [2, 2, 2]):
            assert tf.nn.max_pool3d(x, k, k, "SAME").shape.as_list() == [2, 3, 3, 4, 3]
        g1 = tf.gradients(mp, x)[0]
        assert g1.name == "gradients_1/MaxPool3D_grad/MaxPool3DGrad:0"
        assert [i.name for i in g1.op.inputs] == [x.name, "MaxPool3D:0", "gradients_1/grad_ys_0:0"]
        g2 = tf.gradients(ap, x)[0]
        assert g2.name == "gradients_2/AvgPool3D_grad/AvgPool3DGrad:0"
        assert g2.op.inputs[0].name == "gradients_2/AvgPool3D_grad/Shape:0"
        xc = tf.placeholder(tf.float32, [2, 3, 5, 6, 7])
        assert tf.nn.conv3d(xc, w, [1, 1, 1, 1, 1], "SAME", data_format="NCDHW").shape.as_list() == \
            [2, 4, 5, 6, 7]
        assert tf.nn.max_pool3d(xc, 2, 2, "SAME", data_format="NCDHW").shape.as_list() == [2, 3, 3, 3, 4]
        # Build-time errors, TF's classes and messages.
        with pytest.raises(TypeError, match="Expected list for 'strides' argument to 'conv3d' Op"):
            tf.nn.conv3d(x, w, 1, "SAME")
        with pytest.raises(ValueError, match="passed list of length 3 less than minimum 5"):
            tf.nn.conv3d(x, w, [1, 2, 1], "SAME")
        with pytest.raises(ValueError, match=r"Depth of input \(3\) is not a multiple of input depth "
                                             r"of filter \(2\)"):
            tf.nn.conv3d(x, tf.placeholder(tf.float32, [2, 3, 2, 2, 4]), [1, 1, 1, 1, 1], "SAME")
        with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 9 from 5"):
            tf.nn.conv3d(x, tf.placeholder(tf.float32, [9, 3, 2, 3, 4]), [1, 1, 1, 1, 1], "VALID")
        with pytest.raises(ValueError, match="not in: \"SAME\", \"VALID\""):
            tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "EXPLICIT")
        with pytest.raises(ValueError, match="Shape must be rank 5 but is rank 4"):
            tf.nn.conv3d(tf.placeholder(tf.float32, [2, 5, 6, 3]), w, [1, 1, 1, 1, 1], "SAME")
        # Runtime: strides in the batch dimension are TF 2.21's InvalidArgumentError.
        bad = tf.nn.conv3d(x, w, [2, 1, 1, 1, 1], "SAME")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="strides in the batch and depth"):
                sess.run(bad, {x: np.zeros((2, 5, 6, 7, 3), np.float32),
                               w: np.zeros((2, 3, 2, 3, 4), np.float32)})


def test_values_as_tensorflow():
    # Recorded from TensorFlow 2.21 (tf.compat.v1, CPU) on these seeded inputs.
    rng = np.random.RandomState(3)
    x = rng.randn(1, 3, 4, 3, 2).astype(np.float32)
    w = rng.randn(2, 2, 2, 2, 2).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        y = tf.nn.conv3d(x, w, [1, 2, 1, 2, 1], "SAME", dilations=[1, 1, 1, 1, 1])
        yd = tf.nn.conv3d(x, w, [1, 1, 1, 1, 1], "SAME", dilations=[1, 1, 2, 1, 1])
        mp = tf.nn.max_pool3d(x, [1, 2, 3, 2, 1], [1, 1, 2, 2, 1], "SAME")
        ap = tf.nn.avg_pool3d(x, [1, 2, 3, 2, 1], [1, 1, 2, 2, 1], "SAME")
        with tf.Session() as sess:
            got = sess.run([tf.reduce_sum(y * y), tf.reduce_sum(yd * yd), tf.reduce_sum(mp),
                            tf.reduce_sum(ap)])
    np.testing.assert_allclose(got, TF_VALUES, rtol=1e-5)


TF_VALUES = [349.5145263671875, 795.732421875, 27.01865005493164, -2.5318002700805664]


def test_convolution_and_pool_take_3d_inputs_like_tf():
    # Names, op types, shapes and sums recorded from TF 2.21 compat.v1 on the same program.
    with tf.Graph().as_default():
        x = tf.constant(np.arange(2 * 4 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 4, 3) / 100)
        w = tf.constant(np.ones((2, 2, 2, 3, 2), np.float32) / 10)
        y = tf.nn.convolution(x, w, "SAME")
        y2 = tf.nn.convolution(x, w, "VALID", strides=[2, 2, 2])
        p = tf.nn.pool(x, [2, 2, 2], "MAX", "VALID", strides=[2, 2, 2])
        p2 = tf.nn.pool(x, [2, 2, 2], "AVG", "SAME")
        assert (y.name, y.op.type, y2.name, p.name, p.op.type, p2.name) == (
            "convolution:0", "Conv3D", "convolution_1:0", "max_pool:0", "MaxPool3D", "avg_pool:0")
        assert y2.shape.as_list() == [2, 2, 2, 2, 2] and p.shape.as_list() == [2, 2, 2, 2, 3]
        with tf.Session() as s:
            sums = [float(v.sum()) for v in s.run([y, y2, p, p2])]
        np.testing.assert_allclose(sums, [843.78003, 147.07202, 107.04, 826.07996], rtol=1e-6)


def test_max_pool3d_grad_inf_gradient_stays_at_the_maximum():
    """An inf gradient reaches only the window's maximum (g * mask put NaN beside it); recorded
    from TF 2.21."""
    import tensorweave as tf
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4, 1))
        p = tf.nn.max_pool3d(x, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")
        dx = tf.gradients(p, x, grad_ys=tf.constant(np.array([-1., np.inf], np.float32).reshape(1, 1, 1, 2, 1)))[0]
    with tf.Session(graph=g) as sess:
        v = sess.run(dx).reshape(-1)
    expected = np.zeros(16, np.float32)
    expected[13], expected[15] = -1, np.inf
    np.testing.assert_array_equal(v, expected)
