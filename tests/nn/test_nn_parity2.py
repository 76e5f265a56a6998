"""tf.nn / tf.layers parity, round 2: graphs built as TF 2.21 builds them (names recorded from
TF 2.21 where a test says so) and values against NumPy references."""

import numpy as np
import pytest

import tensorweave as tf


def _run(t, feed=None):
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        return s.run(t, feed)


def _np_conv2d(x, w, rate=(1, 1), padding="VALID"):
    """Dilated NHWC cross-correlation (stride 1) in float64."""
    kh, kw = (w.shape[0] - 1) * rate[0] + 1, (w.shape[1] - 1) * rate[1] + 1
    if padding == "SAME":
        ph, pw = kh - 1, kw - 1
        x = np.pad(x, [(0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)])
    n, h, wd, _ = x.shape
    out = np.zeros((n, h - kh + 1, wd - kw + 1, w.shape[3]))
    for a in range(w.shape[0]):
        for b in range(w.shape[1]):
            patch = x[:, a * rate[0]:a * rate[0] + out.shape[1], b * rate[1]:b * rate[1] + out.shape[2], :]
            out += patch.astype(np.float64) @ w[a, b].astype(np.float64)
    return out


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


# ---- dilated convolutions go through SpaceToBatchND / BatchToSpaceND, as TF builds them ----

def test_dilated_convolution_is_space_to_batch_as_tf():
    rs = np.random.RandomState(0)
    xv, wv = rs.randn(2, 9, 8, 3).astype(np.float32), rs.randn(3, 3, 3, 2).astype(np.float32)
    y = tf.nn.convolution(tf.constant(xv), tf.constant(wv), "SAME", dilation_rate=[2, 3])
    # recorded from TF 2.21
    assert y.name == "convolution/BatchToSpaceND:0"
    assert [op.name for op in tf.get_default_graph().get_operations()[2:]] == [
        "convolution/dilation_rate", "convolution/filter_shape", "convolution/stack",
        "convolution/required_space_to_batch_paddings/input_shape",
        "convolution/required_space_to_batch_paddings/paddings",
        "convolution/required_space_to_batch_paddings/crops", "convolution/SpaceToBatchND/block_shape",
        "convolution/SpaceToBatchND/paddings", "convolution/SpaceToBatchND", "convolution",
        "convolution/BatchToSpaceND/block_shape", "convolution/BatchToSpaceND/crops",
        "convolution/BatchToSpaceND"]
    np.testing.assert_allclose(_run(y), _np_conv2d(xv, wv, (2, 3), "SAME"), rtol=1e-5, atol=1e-5)
    v = tf.nn.atrous_conv2d(tf.constant(xv), tf.constant(wv), 2, "VALID")
    assert v.name == "convolution_1/BatchToSpaceND:0" and v.shape.as_list() == [2, 5, 4, 2]
    np.testing.assert_allclose(_run(v), _np_conv2d(xv, wv, (2, 2)), rtol=1e-5, atol=1e-5)
    # a plain convolution stays one op; tf.nn.convolution of rank 3 is conv1d named "convolution"
    assert tf.nn.convolution(tf.constant(xv), tf.constant(wv), "SAME").name == "convolution_2:0"
    c1 = tf.nn.convolution(tf.ones([1, 5, 2]), tf.ones([2, 2, 1]), "VALID")
    assert c1.name == "convolution_3/Squeeze:0"


def test_dilated_convolution_unknown_shape_and_nchw():
    rs = np.random.RandomState(1)
    xv, wv = rs.randn(2, 9, 7, 3).astype(np.float32), rs.randn(3, 2, 3, 4).astype(np.float32)
    p = tf.placeholder(tf.float32, [None, None, None, 3])
    y = tf.nn.convolution(p, tf.constant(wv), "SAME", dilation_rate=[2, 2])
    assert y.shape.as_list() == [None, None, None, 4]   # TF 2.21's static shape
    np.testing.assert_allclose(_run(y, {p: xv}), _np_conv2d(xv, wv, (2, 2), "SAME"), rtol=1e-5, atol=1e-5)
    yc = tf.nn.convolution(tf.constant(xv.transpose(0, 3, 1, 2)), tf.constant(wv), "VALID", dilation_rate=[2, 1],
                           data_format="NCHW")
    assert yc.shape.as_list() == [2, 4, 5, 6]
    ops = {op.name: op for op in tf.get_default_graph().get_operations()}
    assert ops["convolution_1/SpaceToBatchND/block_shape"].outputs[0].shape.as_list() == [3]
    try:
        got = _run(yc)
    except tf.errors.InvalidArgumentError:    # NCHW Conv2D needs a GPU in TF, may here too
        return
    np.testing.assert_allclose(got, _np_conv2d(xv, wv, (2, 1)).transpose(0, 3, 1, 2), rtol=1e-5, atol=1e-5)


def test_dilated_depthwise_and_separable_as_tf():
    rs = np.random.RandomState(3)
    xv = rs.randn(2, 7, 7, 3).astype(np.float32)
    dw = rs.randn(3, 3, 3, 2).astype(np.float32)
    pw = rs.randn(1, 1, 6, 4).astype(np.float32)
    d = tf.nn.depthwise_conv2d(tf.constant(xv), tf.constant(dw), [1, 1, 1, 1], "SAME", rate=[2, 2])
    s = tf.nn.separable_conv2d(tf.constant(xv), tf.constant(dw), tf.constant(pw), [1, 1, 1, 1], "VALID",
                               rate=[2, 2])
    plain = tf.nn.depthwise_conv2d(tf.constant(xv), tf.constant(dw), [1, 1, 1, 1], "SAME")
    # recorded from TF 2.21
    assert d.name == "depthwise/BatchToSpaceND:0" and d.shape.as_list() == [2, 7, 7, 6]
    assert s.name == "separable_conv2d:0" and s.shape.as_list() == [2, 3, 3, 4]
    assert plain.name == "depthwise_1:0"
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "depthwise_1/Shape" in names and "depthwise_1/dilation_rate" in names
    assert "separable_conv2d/depthwise" in names and "separable_conv2d/SpaceToBatchND" in names
    # reference: depthwise = per-channel dilated correlation
    ref = np.concatenate([_np_conv2d(xv[..., c:c + 1], dw[:, :, c:c + 1, :], (2, 2), "SAME")
                          for c in range(3)], axis=-1)
    dv, sv = _run([d, s])
    np.testing.assert_allclose(dv, ref, rtol=1e-5, atol=1e-5)
    ref_v = np.concatenate([_np_conv2d(xv[..., c:c + 1], dw[:, :, c:c + 1, :], (2, 2)) for c in range(3)], -1)
    np.testing.assert_allclose(sv, ref_v @ pw[0, 0], rtol=1e-4, atol=1e-4)


def test_dilated_layers_conv_names_as_tf():
    x = tf.placeholder(tf.float32, [None, 12, 12, 3])
    with tf.variable_scope("net"):
        h = tf.layers.conv2d(x, 4, 3, dilation_rate=2, padding="same", name="dil")
        h3 = tf.layers.conv3d(tf.ones([1, 6, 6, 6, 2]), 2, 2, dilation_rate=2, padding="same")
    # recorded from TF 2.21
    assert h.name == "net/dil/BiasAdd:0" and h.shape.as_list() == [None, 12, 12, 4]
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "net/dil/Conv2D/BatchToSpaceND" in names and "net/dil/Conv2D" in names
    assert "net/conv3d/Conv3D/SpaceToBatchND" in names and h3.shape.as_list() == [1, 6, 6, 6, 2]


def test_convolution_padding_list_errors_as_tf():
    x, w = tf.ones([1, 5, 5, 1]), tf.ones([2, 2, 1, 1])
    with pytest.raises(ValueError, match=r"When padding is a list, it must be of size 4\. Received: "):
        tf.nn.conv2d(x, w, [1, 1, 1, 1], [[0, 0], [1, 1], [1, 1]])
    with pytest.raises(ValueError, match="must be a list/tuple of size 2"):
        tf.nn.conv2d(x, w, [1, 1, 1, 1], [[0, 0], [1, 1, 1], [1, 1], [0, 0]])
    with pytest.raises(ValueError, match="not supported in conjunction with"):
        tf.nn.convolution(x, w, "SAME", strides=[2, 2], dilation_rate=[2, 2])


# ---- conv2d_transpose: TF 2.21 leaves every check to Conv2DBackpropInput's shape function ----

def test_conv2d_transpose_shape_function_as_tf():
    x, w = tf.ones([2, 5, 5, 2]), tf.ones([3, 3, 3, 2])
    # recorded from TF 2.21: output_shape's depth is not checked against the filter
    assert tf.nn.conv2d_transpose(x, w, [2, 10, 10, 4], [1, 2, 2, 1], "SAME").shape.as_list() == [2, 10, 10, 4]
    p = tf.placeholder(tf.float32, [None, 5, 5, 2])
    # the batch is out_backprop's, even when output_shape names one
    assert tf.nn.conv2d_transpose(p, w, [4, 10, 10, 3], [1, 2, 2, 1], "SAME").shape.as_list() == [None, 10, 10, 3]
    assert tf.nn.conv2d_transpose(p, w, [10, 10], [1, 2, 2, 1], "SAME").shape.as_list() == [None, 10, 10, 3]
    nchw = tf.nn.conv2d_transpose(tf.placeholder(tf.float32, [None, 2, 5, 5]), w, [10, 10], [1, 1, 2, 2], "SAME",
                                  data_format="NCHW")
    assert nchw.shape.as_list() == [None, 3, 10, 10]
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 2 for .*partial shapes: "
                                         r"input\[0\] = \[3,10,10,3\]"):
        tf.nn.conv2d_transpose(x, w, [3, 10, 10, 3], [1, 2, 2, 1], "SAME")
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 5"):
        tf.nn.conv2d_transpose(x, tf.ones([3, 3, 3, 5]), [2, 10, 10, 3], [1, 2, 2, 1], "SAME")
    with pytest.raises(ValueError, match=r"requires input_sizes to contain 4 values or 2 values, but got: 3 .*"
                                         r"\[1,5,5,2\]\.$"):
        tf.nn.conv2d_transpose(tf.ones([1, 5, 5, 2]), w, [1, 10, 10], [1, 2, 2, 1], "SAME")
    with pytest.raises(TypeError, match="has type int64 that does not match expected type of int32"):
        tf.nn.conv2d_transpose(x, w, tf.constant([2, 10, 10, 3], tf.int64), [1, 2, 2, 1], "SAME")
    np_t = tf.nn.conv2d_transpose(np.ones([1, 5, 5, 2], np.float32), np.ones([3, 3, 3, 2], np.float32),
                                  [1, 10, 10, 3], [1, 2, 2, 1], "SAME")
    ops = [op.name for op in tf.get_default_graph().get_operations() if op.name.startswith(np_t.op.name)]
    assert ops[-4:] == [np_t.op.name + "/input_sizes", np_t.op.name + "/filter", np_t.op.name + "/out_backprop",
                        np_t.op.name]
    v = _run(np_t)
    # reference: scatter each input pixel's filter taps (stride 2; SAME pads 0 before, 1 after)
    ref = np.zeros((11, 11))
    for i in range(5):
        for j in range(5):
            ref[2 * i:2 * i + 3, 2 * j:2 * j + 3] += 2.0
    np.testing.assert_array_equal(v[0, :, :, 1], ref[:10, :10])


# ---- tf.nn.pool: dilated windows through with_space_to_batch, TF's argument checks ----

def test_dilated_pool_unknown_dims_and_errors_as_tf():
    rs = np.random.RandomState(0)
    xv = rs.randn(2, 9, 8, 3).astype(np.float32)
    p = tf.placeholder(tf.float32, [None, None, 8, 3])
    y = tf.nn.pool(p, [2, 2], "MAX", "VALID", dilation_rate=[2, 2])
    # recorded from TF 2.21 (the dynamic-shape path was NotImplementedError here before)
    assert y.name == "max_pool/BatchToSpaceND:0" and y.shape.as_list() == [None, None, None, 3]
    ref = np.maximum(np.maximum(xv[:, :-2, :-2], xv[:, 2:, :-2]), np.maximum(xv[:, :-2, 2:], xv[:, 2:, 2:]))
    np.testing.assert_array_equal(_run(y, {p: xv}), ref)
    a = tf.nn.pool(tf.constant(xv[:, :, 0, :]), [2], "AVG", "VALID", dilation_rate=[3])
    np.testing.assert_allclose(_run(a), (xv[:, :-3, 0] + xv[:, 3:, 0]) / 2, rtol=1e-6)
    with pytest.raises(ValueError, match="^2-D MIN pooling is not supported.$"):
        tf.nn.pool(tf.constant(xv), [3, 3], "MIN", "SAME")
    with pytest.raises(ValueError, match=r"`len\(dilation_rate\)` should be 2"):
        tf.nn.pool(tf.constant(xv), [3, 3], "MAX", "SAME", dilation_rate=[2])
    with pytest.raises(ValueError, match="not implemented for `dilation_rate` > 1"):
        tf.nn.pool(tf.constant(xv), [3, 3], "MAX", "SAME", dilation_rate=[2, 2])


# ---- softmax / log_softmax over a non-last axis: TF's _wrap_2d_function, op for op ----

def test_softmax_axis_graph_and_values_as_tf():
    xv = np.random.RandomState(4).randn(2, 3, 4).astype(np.float32)
    x = tf.constant(xv)
    y = tf.nn.softmax(x, axis=-2)
    z = tf.nn.log_softmax(x, 0, name="ls")
    # recorded from TF 2.21: the swap-back transpose takes `name`, the kernel op keeps its type name
    assert (y.name, z.name) == ("transpose_1:0", "ls:0")
    types = [(op.name, op.type) for op in tf.get_default_graph().get_operations()]
    assert types[1:8] == [("Rank", "Const"), ("add/x", "Const"), ("add", "AddV2"), ("Rank_1", "Const"),
                          ("mod/y", "Const"), ("mod", "FloorMod"), ("Sub/y", "Const")]
    assert ("LogSoftmax", "LogSoftmax") in types and ("ls", "Transpose") in types
    e = np.exp(xv - xv.max(1, keepdims=True))
    yv, zv = _run([y, z])
    np.testing.assert_allclose(yv, e / e.sum(1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(zv, xv - np.log(np.exp(xv).sum(0, keepdims=True)), rtol=1e-5, atol=1e-6)
    p = tf.placeholder(tf.float32, [None, 3, None])
    assert tf.nn.softmax(p, 1).shape.as_list() == [None, 3, None]
    g = tf.gradients(tf.reduce_sum(y * tf.constant(xv)), x)[0]
    gv = _run(g)
    ref = yv * (xv - (yv * xv).sum(1, keepdims=True))
    np.testing.assert_allclose(gv, ref, rtol=1e-5, atol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`dim` must be in the range \[-3, 3\)"):
        tf.nn.softmax(x, axis=3)


# ---- in_top_k / top_k ----

def test_in_top_k_non_finite_rows_and_names_as_tf():
    pred = tf.constant([[0.1, 0.3, 0.3, 0.2], [0.5, 0.5, 0.5, 0.5], [0.9, np.nan, 0.1, 0.2], [1., 2., 3., np.inf]])
    t = tf.constant([1, 3, 0, 3])
    k1, k2 = tf.nn.in_top_k(pred, t, 1), tf.nn.in_top_k(pred, tf.constant([1, 5, 0, 3]), 1)
    # recorded from TF 2.21: ties count as in the top k; a non-finite value anywhere in the row, or
    # an out-of-range target, gives False
    np.testing.assert_array_equal(_run(k1), [True, True, False, False])
    np.testing.assert_array_equal(_run(k2), [True, False, False, False])
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert "in_top_k/InTopKV2/k" in names and k1.name == "in_top_k/InTopKV2:0"
    with pytest.raises(ValueError, match=r"input must have last dimension >= k = 5 but is 4 .*"
                                         r"and with computed input tensors: input\[1\] = <5>\.$"):
        tf.nn.top_k(pred, 5)
    with pytest.raises(ValueError, match=r"^Dimension size, given by scalar input 1, must be non-negative but is -1 "
                                         r".*input\[1\] = <-1>\.$"):
        tf.nn.top_k(pred, -1)


# ---- embedding_lookup max_norm over partitioned params ----

def test_partitioned_embedding_lookup_clips_the_stitched_result_as_tf():
    vals = [np.arange(12, dtype=np.float32).reshape(3, 4) / 5. + i for i in range(3)]
    ps = [tf.constant(v) for v in vals]
    e = tf.nn.embedding_lookup(ps, tf.constant([[0, 8], [4, 4]]), max_norm=3.0, partition_strategy="div")
    # recorded from TF 2.21: one clip_by_norm after the stitch and reshape
    assert e.name == "embedding_lookup/clip_by_norm:0" and e.shape.as_list() == [2, 2, 4]
    table = np.concatenate(vals)
    rows = table[[[0, 8], [4, 4]]]
    norm = np.sqrt((rows.astype(np.float64) ** 2).sum(-1, keepdims=True))
    np.testing.assert_allclose(_run(e), rows * np.minimum(1.0, 3.0 / norm), rtol=1e-6)


# ---- where(vector cond, x, y) keeps the data's batch, so dynamic_rnn outputs stay (?, T, n) ----

def test_select_with_vector_cond_and_dynamic_rnn_shapes_as_tf():
    c = tf.placeholder(tf.bool, [3])
    x = tf.placeholder(tf.float32, [None, 3])
    assert tf.where(c, x, x).shape.as_list() == [None, 3]     # recorded from TF 2.21
    inp = tf.placeholder(tf.float32, [None, 4, 2])
    o, s = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(3), inp, dtype=tf.float32, sequence_length=[4, 2, 3])
    assert o.shape.as_list() == [None, 4, 3] and s.shape.as_list() == [None, 3]
    xv = np.random.RandomState(0).randn(3, 4, 2).astype(np.float32)
    ov, sv = _run([o, s], {inp: xv})
    assert np.all(ov[1, 2:] == 0) and np.all(ov[2, 3:] == 0)
    np.testing.assert_array_equal(sv[1], ov[1, 1])
