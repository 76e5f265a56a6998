"""TF1 programs with tf.layers / tf.nn.rnn_cell compared with real TensorFlow.

Expected names, messages and values were recorded from tensorflow 2.21
(`tensorflow.compat.v1`, TF_USE_LEGACY_KERAS=1)."""

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def test_tf_layers_names_count_from_one_and_share_keras_counter():
    # TF: tf.layers (and rnn_cell) layers are named "dense_1", "dense_2", ...; Keras layers
    # "dense", "dense_1", ...; one counter per graph and base name serves both.
    assert tf.nn.rnn_cell.GRUCell(3).name == "gru_cell_1"
    assert tf.nn.rnn_cell.BasicLSTMCell(3).name == "basic_lstm_cell_1"
    assert tf.keras.layers.Dense(3).name == "dense"
    assert tf.layers.Dense(3).name == "dense_2"
    assert tf.keras.layers.Dense(3).name == "dense_2"
    assert [tf.layers.BatchNormalization().name, tf.layers.Conv2D(2, 2).name,
            tf.layers.Flatten().name, tf.layers.Dropout().name] == [
        "batch_normalization_1", "conv2d_1", "flatten_1", "dropout_1"]

    class My(tf.layers.Layer):
        pass
    assert (My().name, My().name) == ("my_1", "my_2")
    assert tf.nn.rnn_cell.GRUCell(3, name="gg").name == "gg"
    # The variable scope still counts from zero: the first functional layer is "dense".
    y = tf.layers.dense(tf.ones([2, 3]), 4)
    assert y.name == "dense/BiasAdd:0"
    l = tf.layers.Dense(5)
    assert l.name == "dense_5"
    with pytest.raises(ValueError, match='Input 0 of layer "dense_5" is incompatible'):
        l(tf.ones([2, 3]))
        l(tf.ones([2, 4]))


def test_layer_losses_reevaluate_weight_regularizers():
    x = tf.constant(np.ones((2, 3, 4), np.float32))
    l = tf.layers.Dense(5, kernel_regularizer=tf.nn.l2_loss,
                        bias_regularizer=lambda b: tf.reduce_sum(b) * 0.1,
                        activity_regularizer=lambda t: tf.reduce_sum(t), name="dd",
                        kernel_initializer=tf.ones_initializer())
    l(x)
    with tf.name_scope("outer"):
        ls2 = l.losses
    ls = l.losses
    c = tf.layers.Conv2D(2, 1, kernel_regularizer=tf.nn.l2_loss,
                         kernel_initializer=tf.ones_initializer())
    c(tf.ones([1, 2, 2, 1]))
    c(tf.ones([1, 2, 2, 1]))
    assert [t.name for t in ls] == ["dd/ActivityRegularizer/truediv:0", "kernel/Regularizer/L2Loss:0",
                                    "bias/Regularizer/mul:0"]
    assert [t.name for t in ls2] == ["dd/ActivityRegularizer/truediv:0",
                                     "outer/kernel/Regularizer/L2Loss:0", "outer/bias/Regularizer/mul:0"]
    assert [t.name for t in c.losses] == ["kernel/Regularizer_1/L2Loss:0"]
    assert [t.name for t in tf.losses.get_regularization_losses()] == [
        "dd/kernel/Regularizer/L2Loss:0", "dd/bias/Regularizer/mul:0",
        "dd/ActivityRegularizer/truediv:0", "conv2d/kernel/Regularizer/L2Loss:0"]
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        assert s.run(ls) == [60.0, 10.0, 0.0]
        assert s.run(c.losses) == [1.0]


@pytest.mark.parametrize("build, message", [
    (lambda: tf.layers.dense(tf.ones([3]), 2),
     'Input 0 of layer "dense_1" is incompatible with the layer: expected min_ndim=2, found ndim=1. '
     "Full shape received: (Dimension(3),)"),
    (lambda: tf.layers.conv2d(tf.ones([2, 3, 3]), 5, 3),
     'Input 0 of layer "conv2d_1" is incompatible with the layer: expected min_ndim=4, found ndim=3. '
     "Full shape received: (Dimension(2), Dimension(3), Dimension(3))"),
    (lambda: tf.layers.max_pooling2d(tf.ones([2, 3, 3]), 2, 2),
     'Input 0 of layer "max_pooling2d_1" is incompatible with the layer: expected ndim=4, found '
     "ndim=3. Full shape received: (Dimension(2), Dimension(3), Dimension(3))"),
    (lambda: tf.layers.conv1d(tf.ones([2, 3]), 5, 3),
     'Input 0 of layer "conv1d_1" is incompatible with the layer: expected min_ndim=3, found ndim=2. '
     "Full shape received: (Dimension(2), Dimension(3))"),
    (lambda: tf.layers.conv2d_transpose(tf.ones([2, 3, 3]), 5, 3),
     'Input 0 of layer "conv2d_transpose_1" is incompatible with the layer: expected min_ndim=4, '
     "found ndim=3. Full shape received: (Dimension(2), Dimension(3), Dimension(3))"),
    (lambda: tf.layers.separable_conv2d(tf.ones([2, 3, 3]), 5, 3),
     'Input 0 of layer "separable_conv2d_1" is incompatible with the layer: expected min_ndim=4, '
     "found ndim=3. Full shape received: (Dimension(2), Dimension(3), Dimension(3))"),
    (lambda: tf.layers.conv3d(tf.ones([2, 3, 3, 3]), 5, 3),
     'Input 0 of layer "conv3d_1" is incompatible with the layer: expected min_ndim=5, found ndim=4. '
     "Full shape received: (Dimension(2), Dimension(3), Dimension(3), Dimension(3))"),
    (lambda: tf.layers.conv2d(tf.placeholder(tf.float32, [None, 3, None]), 5, 3),
     'Input 0 of layer "conv2d_1" is incompatible with the layer: expected min_ndim=4, found ndim=3. '
     "Full shape received: (Dimension(None), Dimension(3), Dimension(None))"),
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32, [None, 3]), axis=2),
     "Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with inputs.rank=2). "
     "Received: axis=(2,)"),
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32, [None, 3, 4]), axis=[-1, 5]),
     "Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with inputs.rank=3). "
     "Received: axis=(2, 5)"),
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32, [None, 3, 4]), axis=-4),
     "Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with inputs.rank=3). "
     "Received: axis=(-1,)"),
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32), axis=1),
     "Input has undefined rank. Received: input_shape=<unknown>"),
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32, [None, 3, 4]), axis=[1, -2]),
     "Duplicate axis: (1, 1)"),
])
def test_layer_input_errors(build, message):
    with pytest.raises(ValueError) as e:
        build()
    assert str(e.value) == message


def test_built_transposed_conv_wants_exact_rank():
    l = tf.layers.Conv2DTranspose(2, 1)
    l(tf.ones([1, 2, 2, 1]))
    with pytest.raises(ValueError, match="expected ndim=4, found ndim=5"):
        l(tf.ones([1, 1, 2, 2, 1]))


def test_rnn_cell_wrapper_errors():
    with pytest.raises(ValueError) as e:
        tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(3), input_keep_prob=1.7)
    assert str(e.value) == ("Parameter input_keep_prob must be between 0 and 1. "
                            "Received 1.7000000476837158")
    with pytest.raises(TypeError) as e:
        tf.nn.rnn_cell.BasicRNNCell(2, kernel_initializer=tf.constant_initializer(0.3))
    assert str(e.value) == "('Keyword argument not understood:', 'kernel_initializer')"
    xs = tf.constant(np.ones((3, 4, 2), np.float32))
    cell = tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.BasicRNNCell(3))
    with pytest.raises(ValueError) as e:
        tf.nn.dynamic_rnn(cell, xs, dtype=tf.float32)
    assert str(e.value) == "Shapes (3, 2) and (3, 3) are incompatible"


def test_residual_wrapper_values():
    xs = np.random.RandomState(0).randn(3, 4, 2).astype(np.float32)
    cell = tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.BasicRNNCell(2))
    out, st = tf.nn.dynamic_rnn(cell, tf.constant(xs), dtype=tf.float32)
    k, b = tf.global_variables()
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        o, kv, bv = s.run([out, k, b])
    h = np.zeros((3, 2), np.float32)
    for t in range(4):
        h = np.tanh(np.concatenate([xs[:, t], h], 1) @ kv + bv)
        np.testing.assert_allclose(o[:, t], xs[:, t] + h, rtol=1e-5, atol=1e-6)
