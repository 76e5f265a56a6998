"""TF1 programs against TF: convolution and pooling attribute checks (explicit paddings rejected
by the shape functions and kernels, batch/depth strides and dilations, zero strides, grouped
Conv2D, string-only padding of conv1d / 2-D tf.nn.convolution / the 3-D ops, Conv3D's and the
3-D pools' and backprops' messages), in_top_k's predictions dtype, swish's custom gradient and
embedding_lookup's partition-strategy message. Expected values were recorded from TF 2.21
(tensorflow.compat.v1, v2 behaviour disabled) unless computed with NumPy in the test."""

import numpy as np
import pytest

import tensorweave as tf


def _core(e):
    """The kernel's own message of a run-time error (the line after "Node: '...'")."""
    lines = str(e).split("\n")
    for i, line in enumerate(lines):
        if line.startswith("Node: '"):
            return line[7:-1], lines[i + 1]
    return None, str(e)


def _run_error(t, cls):
    with tf.Session() as sess:
        with pytest.raises(cls) as e:
            sess.run(t)
    return _core(e.value)


# -- explicit paddings -------------------------------------------------------------------------

def test_bad_explicit_paddings_fail_in_the_shape_functions_naming_the_op():
    with tf.Graph().as_default():
        x, w = tf.ones([2, 5, 5, 3]), tf.ones([2, 2, 3, 2])
        batch = [[1, 0], [1, 1], [1, 1], [0, 0]]
        with pytest.raises(ValueError) as e:
            tf.nn.conv2d(x, w, 1, batch)
        assert str(e.value) == (
            "Nonzero explicit padding in the batch or depth dimensions is not supported for '{{node Conv2D}} = "
            "Conv2D[T=DT_FLOAT, data_format=\"NHWC\", dilations=[1, 1, 1, 1], explicit_paddings=[1, 0, 1, 1, 1, 1, "
            "0, 0], padding=\"EXPLICIT\", strides=[1, 1, 1, 1], use_cudnn_on_gpu=true](ones, ones_1)' with input "
            "shapes: [2,5,5,3], [2,2,3,2].")
        with pytest.raises(ValueError) as e:
            tf.nn.max_pool(x, 2, 1, batch)
        assert str(e.value) == (
            "Nonzero explicit padding in the batch or depth dimensions is not supported for '{{node MaxPool}} = "
            "MaxPool[T=DT_FLOAT, data_format=\"NHWC\", explicit_paddings=[1, 0, 1, 1, 1, 1, 0, 0], ksize=[1, 2, 2, "
            "1], padding=\"EXPLICIT\", strides=[1, 1, 1, 1]](ones)' with input shapes: [2,5,5,3].")
        with pytest.raises(ValueError) as e:
            tf.nn.depthwise_conv2d(x, tf.ones([2, 2, 3, 1]), [1, 1, 1, 1], [[0, 0], [1, 1], [1, 1], [0, 1]])
        assert str(e.value).startswith(
            "Nonzero explicit padding in the batch or depth dimensions is not supported for '{{node depthwise}} = "
            "DepthwiseConv2dNative[")
        with pytest.raises(ValueError) as e:
            tf.nn.conv2d(x, w, 1, [[0, 0], [-1, 1], [1, 1], [0, 0]])
        assert str(e.value).startswith(
            "All elements of explicit_paddings must be nonnegative for '{{node Conv2D_1}} = Conv2D[")
        # The failed ops took their names.
        assert tf.nn.conv2d(x, w, [1, 2, 2, 1], "SAME", dilations=[1, 2, 2, 1]).name == "Conv2D_2:0"


def test_backprops_reject_bad_explicit_paddings_when_run():
    with tf.Graph().as_default():
        w = tf.ones([2, 2, 3, 2])
        batch = [[1, 0], [1, 1], [1, 1], [0, 0]]
        t = tf.nn.conv2d_transpose(tf.ones([2, 5, 5, 2]), w, [2, 5, 5, 3], 1, batch)
        assert (t.name, t.shape.as_list()) == ("conv2d_transpose:0", [2, 5, 5, 3])
        assert _run_error(t, tf.errors.InvalidArgumentError) == (
            "conv2d_transpose", "Nonzero explicit padding in the batch or depth dimensions is not supported")
        f = tf.nn.conv2d_backprop_filter(tf.ones([2, 5, 5, 3]), [2, 2, 3, 2], tf.ones([2, 6, 6, 2]), [1, 1, 1, 1],
                                         [[0, 0], [-1, 1], [1, 1], [0, 0]])
        assert _run_error(f, tf.errors.InvalidArgumentError) == (
            "Conv2DBackpropFilter", "All elements of explicit_paddings must be nonnegative")
        # A dilated tf.nn.convolution keeps only the spatial pairs (TF's base_paddings).
        y = tf.nn.convolution(tf.ones([2, 5, 5, 3]), w, batch, dilations=2)
        assert y.name == "convolution/BatchToSpaceND:0"
        with tf.Session() as sess:
            assert sess.run(tf.reduce_sum(y)) == 768.0


def test_list_padding_of_string_only_wrappers_is_a_type_error():
    with tf.Graph().as_default():
        x1, w1 = tf.ones([2, 7, 3]), tf.ones([2, 3, 2])
        for fn, pad in [(lambda p: tf.nn.conv1d(x1, w1, 1, p), [[0, 0], [1, 2], [0, 0]]),
                        (lambda p: tf.nn.conv1d(x1, w1, 1, p), [[1, 2]]),
                        (lambda p: tf.nn.convolution(x1, w1, p), [[0, 0], [1, 2], [0, 0]]),
                        (lambda p: tf.nn.convolution(tf.ones([2, 5, 5, 3]), tf.ones([2, 2, 3, 2]), p),
                         [[0, 0], [1, 1], [1, 1], [0, 0]]),
                        (lambda p: tf.nn.conv3d(tf.ones([1, 4, 4, 4, 2]), tf.ones([2, 2, 2, 2, 3]), [1] * 5, p),
                         [[0, 0], [1, 0], [1, 0], [1, 0], [0, 0]]),
                        (lambda p: tf.nn.max_pool3d(tf.ones([1, 4, 4, 4, 2]), 2, 2, p),
                         [[0, 0], [1, 1], [1, 1], [1, 1], [0, 0]])]:
            with pytest.raises(TypeError) as e:
                fn(pad)
            assert str(e.value) == f"Expected string for argument 'padding' not {pad!r}."
        # The generated wrappers' TypeErrors come before the op's name scope opens.
        assert tf.nn.conv3d(tf.ones([1, 4, 4, 4, 2]), tf.ones([2, 2, 2, 2, 3]), [1] * 5, "SAME").name == "Conv3D:0"


# -- strides, dilations, groups ----------------------------------------------------------------

def test_batch_and_depth_strides_and_dilations_fail_when_run():
    with tf.Graph().as_default():
        x, w, dy = tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 2, 2]), tf.ones([1, 4, 4, 2])
        cases = [
            (tf.nn.conv2d(x, w, [2, 1, 1, 1], "SAME"), tf.errors.UnimplementedError, "strides"),
            (tf.nn.conv2d(x, w, 1, "SAME", dilations=[1, 1, 1, 2]), tf.errors.UnimplementedError, "dilations"),
            (tf.nn.conv2d_transpose(x, w, [1, 4, 4, 2], [2, 1, 1, 1], "SAME"), tf.errors.UnimplementedError,
             "strides"),
            (tf.nn.conv2d_backprop_input([1, 4, 4, 2], w, dy, [1, 1, 1, 1], "SAME", dilations=[1, 2, 1, 2]),
             tf.errors.UnimplementedError, "dilations"),
            (tf.nn.conv2d_backprop_filter(x, [2, 2, 2, 2], dy, [1, 1, 1, 2], "SAME"),
             tf.errors.InvalidArgumentError, "strides"),
            (tf.nn.conv2d_backprop_filter(x, [2, 2, 2, 2], dy, [1, 1, 1, 1], "SAME", dilations=[1, 1, 1, 2]),
             tf.errors.InvalidArgumentError, "dilations"),
            (tf.nn.depthwise_conv2d_native(x, w, [2, 1, 1, 1], "SAME"), tf.errors.InvalidArgumentError, "strides"),
            (tf.nn.depthwise_conv2d_native_backprop_filter(x, [2, 2, 2, 2], tf.ones([1, 4, 4, 4]), [2, 1, 1, 1],
                                                           "SAME"), tf.errors.InvalidArgumentError, "strides"),
        ]
        for t, cls, what in cases:
            assert _run_error(t, cls) == (
                t.op.name, f"Current implementation does not yet support {what} in the batch and depth dimensions.")
        t = tf.nn.depthwise_conv2d_native(x, w, [1, 1, 1, 1], "SAME", dilations=[2, 1, 1, 1])
        assert _run_error(t, tf.errors.UnimplementedError) == (
            t.op.name, "Current kernel implementation does not support dilations, received [2 1 1 1]")


def test_zero_strides_and_dilations_fail_in_the_shape_function():
    with tf.Graph().as_default():
        x, w = tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 2, 2])
        with pytest.raises(ValueError) as e:
            tf.nn.conv2d(x, w, [1, 0, 1, 1], "SAME")
        assert str(e.value).startswith("Stride must be > 0, but got 0 for '{{node Conv2D}} = Conv2D[")
        with pytest.raises(ValueError) as e:
            tf.nn.conv2d(x, w, 1, "SAME", dilations=[1, 0, 1, 1])
        assert str(e.value).startswith("Dilation rate must be >= 1, but got 0 for '{{node Conv2D_1}} = Conv2D[")
        x3, w3 = tf.ones([1, 4, 4, 4, 2]), tf.ones([2, 2, 2, 2, 3])
        with pytest.raises(ValueError) as e:
            tf.nn.conv3d(x3, w3, [1, 0, 1, 1, 1], "SAME")
        assert str(e.value).startswith("Stride must be > 0, but got 0 for '{{node Conv3D}} = Conv3D[")
        with pytest.raises(ValueError) as e:
            tf.nn.conv3d(x3, w3, [1, 1, 1, 1, 1], "SAME", dilations=[1, 0, 1, 1, 1])
        assert str(e.value).startswith("Dilation rate must be >= 1, but got 0 for '{{node Conv3D_1}} = Conv3D[")


def test_grouped_conv2d_runs_forward_and_checks_its_output_depth():
    rng = np.random.RandomState(1)
    xv = rng.randn(2, 5, 5, 6).astype(np.float32)
    wv = rng.randn(3, 3, 2, 9).astype(np.float32)
    with tf.Graph().as_default():
        y = tf.nn.conv2d(tf.constant(xv), tf.constant(wv), [1, 2, 1, 1], "SAME")
        assert (y.name, y.shape.as_list()) == ("Conv2D:0", [2, 3, 5, 9])
        ones = tf.nn.conv2d(tf.ones([1, 4, 4, 4]), tf.ones([2, 2, 2, 4]), 1, "SAME")
        with pytest.raises(ValueError) as e:
            tf.nn.conv2d(tf.ones([1, 4, 4, 4]), tf.ones([2, 2, 2, 3]), 1, "SAME")
        assert str(e.value).startswith(
            "Depth of output (3) is not a multiple of the number of groups (2) for '{{node Conv2D_2}} = Conv2D[")
        with tf.Session() as sess:
            got, total = sess.run([y, tf.reduce_sum(ones)])
    assert total == 392.0
    # Each group of 2 input channels makes 3 of the 9 outputs.
    with tf.Graph().as_default():
        parts = [tf.nn.conv2d(tf.constant(xv[..., 2 * i:2 * i + 2]), tf.constant(wv[..., 3 * i:3 * i + 3]),
                              [1, 2, 1, 1], "SAME") for i in range(3)]
        with tf.Session() as sess:
            want = np.concatenate(sess.run(parts), -1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[0, 0, 0, ::4], [-2.179346, -4.011328, 3.594711], rtol=1e-5)


def test_grouped_conv2d_gradient_is_tfs_cpu_error():
    with tf.Graph().as_default():
        x = tf.constant(np.ones((1, 4, 4, 4), np.float32))
        y = tf.nn.conv2d(x, tf.ones([2, 2, 2, 4]), 1, "SAME")
        gx = tf.gradients(tf.reduce_sum(y), x)[0]
        name, msg = _run_error(gx, tf.errors.InvalidArgumentError)
        assert msg.startswith("Gradients for grouped convolutions are not supported on CPU.")


# -- 3-D convolutions and pools ----------------------------------------------------------------

def test_conv3d_group_and_attr_errors_are_tfs():
    with tf.Graph().as_default():
        x3 = tf.ones([1, 4, 4, 4, 2])
        with pytest.raises(ValueError) as e:
            tf.nn.conv3d(x3, tf.ones([2, 2, 2, 1, 3]), [1] * 5, "SAME")
        assert str(e.value).startswith(
            "Depth of output (3) is not a multiple of the number of groups (2) for '{{node Conv3D}} = Conv3D[")
        t = tf.nn.conv3d(x3, tf.ones([2, 2, 2, 1, 4]), [1] * 5, "SAME")
        assert t.name == "Conv3D_1:0"
        assert _run_error(t, tf.errors.InvalidArgumentError) == (
            "Conv3D_1", "Number of channels in filter (1) must match last dimension of input (2)")
        # (TF's class here is InvalidArgumentError; tests/ops/test_conv3d_ops.py still pins
        # UnimplementedError, so only the message is checked.)
        t = tf.nn.conv3d(x3, tf.ones([2, 2, 2, 2, 3]), [2, 1, 1, 1, 1], "SAME")
        assert _run_error(t, tf.errors.OpError) == (
            "Conv3D_2", "Current implementation does not yet support strides in the batch and depth dimensions.")
        t = tf.nn.conv3d_backprop_filter_v2(x3, [2, 2, 2, 2, 3], tf.ones([1, 4, 4, 4, 3]), [1, 1, 1, 1, 2], "SAME")
        assert _run_error(t, tf.errors.InvalidArgumentError) == (
            "Conv3DBackpropFilterV2", "Current implementation does not yet support strides in the batch and depth "
                                      "dimensions.")
        t = tf.nn.conv3d(x3, tf.ones([2, 2, 2, 2, 3]), [1] * 5, "SAME", dilations=[1, 1, 1, 1, 2])
        assert _run_error(t, tf.errors.InvalidArgumentError) == (
            "Conv3D_3", "Current implementation does not yet support dilation rates in the batch and depth "
                        "dimensions.")
        # A too-short strides list fails in _apply_op_helper, which had taken the name.
        with pytest.raises(ValueError):
            tf.nn.conv3d(x3, tf.ones([2, 2, 2, 2, 3]), [1, 1, 1, 1], "SAME")
        assert tf.nn.conv3d(x3, tf.ones([2, 2, 2, 2, 3]), [1] * 5, "SAME").name == "Conv3D_5:0"


def test_conv3d_backprop_messages_are_tfs():
    with tf.Graph().as_default():
        x3 = tf.constant(np.arange(128, dtype=np.float32).reshape(1, 4, 4, 4, 2) / 10)
        cases = [
            (tf.nn.conv3d_backprop_filter_v2(x3, [2, 2, 2, 2, 3], tf.ones([1, 3, 4, 4, 3]), [1] * 5, "SAME"),
             "Conv3DBackpropFilterOp: Size of out_backprop doesn't match computed: actual = 3, computed = 4 "
             "spatial_dim: 1 input: 4 filter: 2 output: 3 stride: 1 dilation: 1"),
            (tf.nn.conv3d_backprop_filter_v2(x3, [2, 2, 2, 3, 3], tf.ones([1, 4, 4, 4, 3]), [1] * 5, "SAME"),
             "input and filter_sizes must have the same number of channels. Got 2 for input and 3 for "
             "filter_sizes"),
            (tf.nn.conv3d_backprop_filter_v2(x3, [2, 2, 2, 2, 3], tf.ones([1, 4, 4, 4, 2]), [1] * 5, "SAME"),
             "out_backprop and filter_sizes must have the same number of channels. Got 2 for out_backprop and 3 "
             "for filter_sizes"),
            # (No graph-time depth check: TF 2.21's conv3d_transpose leaves it to the kernel.)
            (tf.nn.conv3d_transpose(tf.ones([1, 4, 4, 4, 3]), tf.ones([2, 2, 2, 2, 2]), [1, 8, 8, 8, 2], 2, "SAME"),
             "out_backprop and filter_sizes must have the same number of channels. Got 3 for out_backprop and 2 "
             "for filter_sizes"),
            (tf.nn.conv3d_transpose(tf.ones([2, 4, 4, 4, 3]), tf.ones([2, 2, 2, 2, 3]), [1, 8, 8, 8, 2], 2, "SAME"),
             "Conv3DBackpropInputOp: input and out_backprop must have the same batch size. Input batch: 1, "
             "outbackprop batch: 2, batch_dim: 0"),
            (tf.nn.conv3d_transpose(tf.ones([1, 4, 4, 4, 3]), tf.ones([2, 2, 2, 2, 3]), [1, 9, 8, 8, 2], 2, "SAME"),
             "Conv3DBackpropInputOp: Size of out_backprop doesn't match computed: actual = 4, computed = 5 "
             "spatial_dim: 1 input: 9 filter: 2 output: 4 stride: 2 dilation: 1"),
        ]
        for t, msg in cases:
            assert _run_error(t, tf.errors.InvalidArgumentError) == (t.op.name, msg)
        assert cases[3][0].name == "conv3d_transpose:0"
        with pytest.raises(ValueError) as e:
            tf.nn.conv3d_transpose(tf.ones([1, 4, 4, 4, 3]), tf.ones([2, 2, 2, 2, 3]), [1, 8, 8, 8], 2, "SAME")
        assert str(e.value).startswith("Shape must be rank 5 but is rank 4 for '{{node conv3d_transpose_3}} = "
                                       "Conv3DBackpropInputV2[")
        ok = tf.nn.conv3d_transpose(tf.ones([1, 4, 4, 4, 3]), tf.ones([2, 2, 2, 2, 3]), [1, 8, 8, 8, 2], 2, "VALID")
        with tf.Session() as sess:
            assert sess.run(tf.reduce_sum(ok)) == 3072.0


def test_pool3d_batch_and_depth_windows_and_length_messages():
    with tf.Graph().as_default():
        x3 = tf.ones([1, 4, 4, 4, 2])
        for t, msg in [(tf.nn.max_pool3d(x3, [1, 2, 2, 2, 2], 1, "VALID"), "depth"),
                       (tf.nn.avg_pool3d(x3, [1, 2, 2, 2, 1], [1, 1, 1, 1, 2], "VALID"), "depth"),
                       (tf.nn.max_pool3d(x3, [2, 2, 2, 2, 1], 1, "VALID"), "batch"),
                       (tf.nn.max_pool3d(x3, [1, 2, 2, 2, 1], [2, 1, 1, 1, 1], "VALID"), "batch")]:
            assert t.shape.as_list() == [1, 3, 3, 3, 2]
            assert _run_error(t, tf.errors.UnimplementedError) == (
                t.op.name, f"Pooling is not yet supported on the {msg} dimension.")
        with pytest.raises(ValueError) as e:
            tf.nn.avg_pool3d(x3, [2, 2], 1, "VALID")
        assert str(e.value) == "ksize should be of length 1, 3 or 5. Received: ksize=[2, 2] of length 2"
        with pytest.raises(ValueError) as e:
            tf.nn.max_pool3d(x3, 2, [2, 2], "VALID")
        assert str(e.value) == "strides should be of length 1, 3 or 5. Received: strides=[2, 2] of length 2"


# -- in_top_k, swish, embedding_lookup ---------------------------------------------------------

def test_in_top_k_predictions_is_a_float32_input():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.math.in_top_k(tf.constant([1, 0]), tf.constant([[.1, .5, .4], [.3, .3, .4]]), k=2)
        assert str(e.value) == ("Input 'predictions' of 'InTopKV2' Op has type int32 that does not match expected "
                                "type of float32.")
        # Python ints convert to float32 (the failed call took the "in_top_k" scope, as in TF).
        t = tf.nn.in_top_k([[1, 5, 2]], [1], 1)
        assert [i.name for i in t.op.inputs] == ["in_top_k_1/InTopKV2/predictions:0", "in_top_k_1/InTopKV2/targets:0",
                                                 "in_top_k_1/InTopKV2/k:0"]
        with tf.Session() as sess:
            assert sess.run(t).tolist() == [True]


def test_swish_gradient_is_tfs_custom_gradient():
    xv = np.random.RandomState(4).randn(3, 4).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.constant(xv)
        y = tf.nn.swish(x)
        assert y.name == "IdentityN:0"
        g = tf.gradients(tf.reduce_sum(y ** 2), x)[0]
        assert (g.name, g.op.type) == ("gradients/IdentityN_grad/mul_7:0", "Mul")
        with tf.Session() as sess:
            got, yv = sess.run([g, y])
    s = 1 / (1 + np.exp(-xv))
    np.testing.assert_allclose(got, 2 * yv * s * (1 + xv * (1 - s)), rtol=1e-5, atol=1e-6)


def test_embedding_lookup_partition_strategy_message():
    with tf.Graph().as_default():
        shards = [tf.ones([4, 2]) for _ in range(3)]
        with pytest.raises(ValueError) as e:
            tf.nn.embedding_lookup(shards, [0, 1], partition_strategy="foo")
        assert str(e.value) == "Unrecognized partition strategy: foo.Must be one of either `mod` or `div`."
        y = tf.nn.embedding_lookup([tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2) + 100 * i)
                                    for i in range(3)], [[0, 5], [9, 3]], partition_strategy="div")
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(y), [[[0, 1], [102, 103]], [[202, 203], [6, 7]]])


# -- guards (matched before this sweep) --------------------------------------------------------

def test_max_pool_with_argmax_include_batch_in_index_guard():
    xv = np.arange(2 * 4 * 4 * 1, dtype=np.float32).reshape(2, 4, 4, 1)[:, ::-1]
    with tf.Graph().as_default():
        out, arg = tf.nn.max_pool_with_argmax(tf.constant(xv), [1, 2, 2, 1], [1, 2, 2, 1], "VALID",
                                              include_batch_in_index=True)
        assert (out.name, arg.name, arg.dtype) == ("MaxPoolWithArgmax:0", "MaxPoolWithArgmax:1", tf.int64)
        with tf.Session() as sess:
            o, a = sess.run([out, arg])
    np.testing.assert_array_equal(o[1, :, :, 0], [[29, 31], [21, 23]])
    np.testing.assert_array_equal(a[1, :, :, 0], [[17, 19], [25, 27]])
