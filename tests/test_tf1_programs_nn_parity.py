"""The neural-network library (tf.nn, tf.nn.rnn_cell, tf.layers) against TF, and the fixes the
comparison found; expected values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour
disabled) unless computed from NumPy in the test."""

import numpy as np
import pytest

import tensorweave as tf


def _ops(g):
    return [(o.name, o.type) for o in g.get_operations()]


def test_python_inputs_of_nn_ops_are_named_as_tf_names_them():
    # A generated op (Relu, Elu, LRN, L2Loss) converts a Python input inside its own name scope;
    # softmax converts it first, outside any scope ("Const").
    x = np.array([[1., -2.], [3., -4.]], np.float32)
    with tf.Graph().as_default() as g:
        tf.nn.relu(x)
        tf.nn.elu(x, name="e")
        leaky = tf.nn.leaky_relu(np.array([1, -2], np.int32))
        tf.nn.softmax(x)
        tf.nn.log_softmax(x, name="ls")
        tf.nn.lrn(np.ones((1, 1, 1, 3), np.float32))
        tf.nn.l2_loss(x)
        # Recorded from TF 2.21.
        assert _ops(g) == [
            ("Relu/features", "Const"), ("Relu", "Relu"), ("e/features", "Const"), ("e", "Elu"),
            ("LeakyRelu/features", "Const"), ("LeakyRelu/Cast", "Cast"), ("LeakyRelu", "LeakyRelu"),
            ("Const", "Const"), ("Softmax", "Softmax"), ("Const_1", "Const"), ("ls", "LogSoftmax"),
            ("LRN/input", "Const"), ("LRN", "LRN"), ("L2Loss/t", "Const"), ("L2Loss", "L2Loss")]
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(leaky), [1., -0.4])


def test_relu_of_a_string_names_tfs_allowed_types():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.nn.relu(tf.constant(["a"]))
        # Recorded from TF 2.21 ("float16", not "half").
        assert str(e.value) == (
            "Value passed to parameter 'features' has DataType string not in list of allowed values: "
            "float32, float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, "
            "uint64, qint8")


def _transpose_error(x_shape, w_shape, out_shape, strides=(1, 1, 1, 1), padding="SAME"):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32)
        shape = tf.placeholder(tf.int32, [4])
        y = tf.nn.conv2d_transpose(x, tf.ones(w_shape), output_shape=shape, strides=list(strides),
                                   padding=padding)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(y, {x: np.ones(x_shape, np.float32), shape: out_shape})
    return e.value.message


@pytest.mark.parametrize("x_shape,out_shape,strides,padding,expected", [
    ([2, 7, 7, 3], [2, 9, 9, 2], (1, 1, 1, 1), "SAME",
     "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 7, "
     "computed = 9 spatial_dim: 1 input: 9 filter: 3 output: 7 stride: 1 dilation: 1"),
    ([2, 7, 7, 3], [2, 7, 9, 2], (1, 1, 1, 1), "SAME",
     "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 7, "
     "computed = 9 spatial_dim: 2 input: 9 filter: 3 output: 7 stride: 1 dilation: 1"),
    ([2, 7, 7, 3], [2, 4, 4, 2], (1, 2, 2, 1), "VALID",
     "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 7, "
     "computed = 1 spatial_dim: 1 input: 4 filter: 3 output: 7 stride: 2 dilation: 1"),
    ([2, 7, 7, 3], [2, 7, 7, 3], (1, 1, 1, 1), "SAME",
     "Conv2DCustomBackpropInput: input depth must be evenly divisible by filter depth"),
    ([2, 7, 7, 3], [2, 7, 7, 4], (1, 1, 1, 1), "SAME",
     "Gradients for grouped convolutions are not supported on CPU. Please file a feature request "
     "if you run into this issue. Computed input depth 4 doesn't match filter input depth 2"),
    ([2, 7, 7, 4], [2, 7, 7, 2], (1, 1, 1, 1), "SAME",
     "Conv2DCustomBackpropInput: filter and out_backprop must have the same out_depth"),
    ([2, 7, 7, 3], [3, 7, 7, 2], (1, 1, 1, 1), "SAME",
     "Conv2DCustomBackpropInput: input and out_backprop must have the same batch size. "
     "Input batch: 3, outbackprop batch: 2, batch_dim: 0"),
    ([2, 7, 7, 3], [2, 1, 1, 2], (1, 1, 1, 1), "VALID",
     "Computed output size would be negative: -1 [input_size: 1, effective_filter_size: 3, "
     "stride: 1]"),
])
def test_conv2d_transpose_with_a_wrong_output_shape_fails_with_tfs_message(
        x_shape, out_shape, strides, padding, expected):
    # Recorded from TF 2.21 (its CPU kernel's checks, in their order).
    assert expected in _transpose_error(x_shape, [3, 3, 2, 3], out_shape, strides, padding)


@pytest.mark.parametrize("x_shape,dy_shape,expected", [
    ((2, 5, 5, 3), (2, 5, 4, 4),
     "Conv2DCustomBackpropFilter: Size of out_backprop doesn't match computed: actual = 4, "
     "computed = 5 spatial_dim: 2 input: 5 filter: 3 output: 4 stride: 1 dilation: 1"),
    ((2, 5, 5, 3), (1, 5, 5, 4),
     "Conv2DCustomBackpropFilter: input and out_backprop must have the same batch size. "
     "Input batch: 2, outbackprop batch: 1, batch_dim: 0"),
    ((2, 5, 5, 3), (2, 5, 5, 3),
     "Conv2DCustomBackpropFilter: filter and out_backprop must have the same out_depth"),
    ((2, 5, 5, 4), (2, 5, 5, 4),
     "Conv2DCustomBackpropFilter: input depth must be evenly divisible by filter depth"),
])
def test_conv2d_backprop_filter_shape_errors_are_tfs(x_shape, dy_shape, expected):
    with tf.Graph().as_default():
        x, dy = tf.placeholder(tf.float32), tf.placeholder(tf.float32)
        g = tf.nn.conv2d_backprop_filter(x, [3, 3, 3, 4], dy, [1, 1, 1, 1], "SAME")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(g, {x: np.ones(x_shape), dy: np.ones(dy_shape)})
    assert expected in e.value.message   # recorded from TF 2.21


def test_rnn_cells_refuse_integer_inputs():
    xs = np.ones((2, 4, 3), np.int32)
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), tf.constant(xs), dtype=tf.float32)
        # Recorded from TF 2.21.
        assert str(e.value) == ("RNN cell only supports floating point inputs, but received dtype: "
                                "<dtype: 'int32'>")
        cell = tf.nn.rnn_cell.BasicLSTMCell(3)
        with pytest.raises(ValueError, match="RNN cell only supports floating point inputs"):
            cell(tf.constant(xs[:, 0]), cell.zero_state(2, tf.float32))


def test_layers_take_an_activation_by_name():
    x = np.linspace(-1, 1, 8).reshape(2, 4).astype(np.float32)
    with tf.Graph().as_default():
        init = tf.constant_initializer(0.3)
        ys = [tf.layers.dense(x, 3, activation=a, kernel_initializer=init)
              for a in ("relu", "softmax", "tanh", "linear")]
        c = tf.layers.conv2d(tf.ones([1, 4, 4, 1]), 2, 2, activation="relu")
        # Recorded from TF 2.21.
        assert [y.name for y in ys] == ["dense/Relu:0", "dense_1/Softmax:0", "dense_2/Tanh:0",
                                        "dense_3/BiasAdd:0"]
        assert c.name == "conv2d/Relu:0"
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            r = sess.run(ys)
        z = x.sum(1, keepdims=True) * 0.3 * np.ones((1, 3), np.float32)
        np.testing.assert_allclose(r[0], np.maximum(z, 0), rtol=1e-6)
        np.testing.assert_allclose(r[1], np.full((2, 3), 1 / 3), rtol=1e-6)
        np.testing.assert_allclose(r[2], np.tanh(z), rtol=1e-6)
        np.testing.assert_allclose(r[3], z, rtol=1e-6)


@pytest.mark.parametrize("make", [
    lambda: tf.layers.dense(tf.ones([2, 3], tf.int32), 2),
    lambda: tf.layers.dense(np.ones((2, 3), np.int32), 2),
    lambda: tf.layers.Dense(2, dtype=tf.int32)(tf.ones([2, 3])),
])
def test_dense_refuses_a_non_floating_dtype(make):
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            make()
        # Recorded from TF 2.21.
        assert str(e.value) == ("A Dense layer can only be built with a floating-point dtype. "
                                "Received: dtype=<dtype: 'int32'>")
        assert tf.global_variables() == []


_LAB = np.array([0, 1, 1, 0, 1, 1, 0, 0], np.int64)
_PRED = np.array([0, 1, 0, 0, 1, 0, 1, 0], np.int64)
_SCORES = np.array([0.1, 0.9, 0.4, 0.3, 0.8, 0.45, 0.6, 0.2], np.float32)


def test_metrics_convert_and_squeeze_in_tfs_scopes():
    with tf.Graph().as_default() as g:
        tf.metrics.accuracy(_LAB, _PRED)
        tf.metrics.mean_squared_error(_SCORES.reshape(8, 1), _SCORES)
        # Recorded from TF 2.21.
        assert [(o.name, o.type) for o in g.get_operations()
                if "accuracy/" not in o.name and "mean_squared_error/" not in o.name] == [
            ("Const", "Const"), ("remove_squeezable_dimensions/Const", "Const"), ("Equal", "Equal"),
            ("Cast", "Cast"), ("Const_1", "Const"), ("remove_squeezable_dimensions_1/Const", "Const"),
            ("remove_squeezable_dimensions_1/Squeeze", "Squeeze"),
            ("SquaredDifference", "SquaredDifference")]
    with tf.Graph().as_default() as g:
        tf.metrics.auc(_LAB, _SCORES)   # NumPy predictions: converted by each op that takes them
        assert [o.name for o in g.get_operations() if o.name.endswith("/x")] == [
            "auc/Cast/x", "auc/assert_greater_equal/x", "auc/Cast_1/x", "auc/assert_less_equal/x",
            "auc/Cast_2/x", "auc/Cast_3/x"]
    with tf.Graph().as_default() as g:
        tf.metrics.true_positives(_LAB, _PRED)
        assert [o.name for o in g.get_operations() if o.type == "NoOp"] == [
            "true_positives/assert_type/statically_determined_correct_type"]


def test_metrics_squeeze_labels_of_rank_known_only_at_run_time():
    # Labels fed as [N, 1] to a shapeless placeholder: TF squeezes them (a cond on the rank
    # difference) instead of broadcasting [N, 1] against [N].
    with tf.Graph().as_default():
        labels = tf.placeholder(tf.int64)
        preds = tf.placeholder(tf.int64, [None])
        acc, acc_update = tf.metrics.accuracy(labels, preds)
        mae, mae_update = tf.metrics.mean_absolute_error(
            tf.placeholder_with_default(_SCORES.reshape(8, 1), None), _SCORES * 2)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run([acc_update, mae_update], {labels: _LAB.reshape(8, 1), preds: _PRED})
            got_acc, got_mae = sess.run([acc, mae])
    assert got_acc == np.float32(0.625)                  # recorded from TF 2.21
    np.testing.assert_allclose(got_mae, np.mean(_SCORES), rtol=1e-6)


def test_numpy_inputs_of_nn_composites_are_converted_where_tf_converts_them():
    # batch_normalization and moments leave a NumPy x to the ops that take it; embedding_lookup
    # names its shards "params_<i>".
    x = np.array([[1., 2., 3.], [3., 6., 5.]], np.float32)
    with tf.Graph().as_default() as g:
        y = tf.nn.batch_normalization(x, np.zeros(3, np.float32), np.ones(3, np.float32),
                                      np.zeros(3, np.float32), np.full(3, 2., np.float32), 1e-3)
        mean, var = tf.nn.moments(x, [0])
        e = tf.nn.embedding_lookup([x[:1], x[1:]], np.array([1, 0]))
        names = [o.name for o in g.get_operations()]
        # Recorded from TF 2.21.
        assert names[:21] == [
            "batchnorm/Rsqrt/x", "batchnorm/Rsqrt", "batchnorm/mul/y", "batchnorm/mul",
            "batchnorm/mul_1/x", "batchnorm/mul_1", "batchnorm/mul_2/x", "batchnorm/mul_2",
            "batchnorm/sub/x", "batchnorm/sub", "batchnorm/add", "moments/mean/input",
            "moments/mean/reduction_indices", "moments/mean", "moments/StopGradient",
            "moments/SquaredDifference/x", "moments/SquaredDifference",
            "moments/variance/reduction_indices", "moments/variance", "moments/Squeeze",
            "moments/Squeeze_1"]
        assert names[21:24] == ["embedding_lookup/params_0", "embedding_lookup/params_1",
                                "embedding_lookup/ids"]
        with tf.Session() as sess:
            got_y, got_m, got_v, got_e = sess.run([y, mean, var, e])
    np.testing.assert_allclose(got_y, x * 2 / np.sqrt(1 + 1e-3), rtol=1e-6)
    np.testing.assert_array_equal(got_m, [2., 4., 4.])
    np.testing.assert_array_equal(got_v, [1., 4., 1.])
    np.testing.assert_array_equal(got_e, x[::-1])


def test_dense_with_zero_units_gives_an_empty_output():
    # Recorded from TF 2.21: units=0 is accepted (an empty [2, 0] output), units=-1 refused.
    with tf.Graph().as_default():
        y = tf.layers.dense(tf.ones([2, 3]), 0)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(y).shape == (2, 0)
        with pytest.raises(ValueError, match="^Received an invalid value for `units`, expected a positive "
                                             "integer. Received: units=-1$"):
            tf.layers.dense(tf.ones([2, 3]), -1)
