"""TF1 programs using tf.layers / tf.keras that differed from TensorFlow (sweep 7).

Expected values, names and messages were recorded by running the same programs under
TensorFlow 2.21 (`tensorflow.compat.v1` with v2 behaviour disabled, TF_USE_LEGACY_KERAS=1).
"""

import numpy as np
import pytest

import tensorweave as tf


def test_dilated_conv1d_keeps_static_batch_dim():
    # Keras' Conv.call sets the static output shape (the dilated SpaceToBatchND path loses it).
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, None, 3])
        c1 = tf.layers.conv1d(x, 2, 3, dilation_rate=2, kernel_initializer=tf.ones_initializer())
        assert c1.name == "conv1d/BiasAdd:0"
        assert c1.shape.as_list() == [2, None, 2]
        mp = tf.layers.max_pooling1d(c1, 2, 2)
        assert mp.name == "max_pooling1d/Squeeze:0"
        assert mp.shape.as_list() == [2, None, 2]
        c2 = tf.layers.conv2d(tf.placeholder(tf.float32, [3, None, None, 2]), 4, 3,
                              dilation_rate=2, padding="same")
        assert c2.shape.as_list() == [3, None, None, 4]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run(c1, {x: np.ones((2, 8, 3), np.float32)})
        np.testing.assert_allclose(out, np.full((2, 4, 2), 9.0))


def test_legacy_layer_takes_integer_input_dtype():
    with tf.Graph().as_default():
        xi = tf.placeholder(tf.int32, [None, 4, 4, 3])
        y = tf.layers.conv2d(xi, 2, 3)
        assert y.name == "conv2d/BiasAdd:0" and y.dtype == tf.int32
        assert y.shape.as_list() == [None, 2, 2, 2]
        assert [v.dtype for v in tf.global_variables()] == [tf.int32._as_ref] * 2
        with pytest.raises(TypeError) as e:
            tf.layers.batch_normalization(tf.placeholder(tf.int32, [None, 3]))
        assert str(e.value).startswith("Input 'y' of 'AddV2' Op has type float32 that does not "
                                       "match type int32 of argument 'x'.")
        with pytest.raises(TypeError) as e:
            tf.layers.dense(tf.placeholder(tf.int32, [2, 3]), 2)
        assert str(e.value) == ("A Dense layer can only be built with a floating-point dtype. "
                                "Received: dtype=<dtype: 'int32'>")
        # an explicit float dtype still casts integer inputs
        d = tf.layers.Dense(2, dtype=tf.float32)(tf.placeholder(tf.int32, [None, 3]))
        assert d.dtype == tf.float32


def test_half_precision_batch_norm_float32_params_and_names():
    with tf.Graph().as_default():
        tr = tf.placeholder(tf.bool, [])
        x = tf.placeholder(tf.float16, [None, 2, 2, 3])
        y1 = tf.layers.batch_normalization(x, fused=True, training=tr)
        y2 = tf.layers.batch_normalization(x, axis=2, training=tr)
        y3 = tf.layers.batch_normalization(tf.placeholder(tf.float16, [None, 3]), training=True)
        assert (y1.name, y2.name, y3.name) == ("batch_normalization/cond/Merge:0",
                                               "batch_normalization_1/Cast_1:0",
                                               "batch_normalization_2/Cast_3:0")
        assert y1.dtype == y2.dtype == y3.dtype == tf.float16
        assert all(v.dtype == tf.float32._as_ref for v in tf.global_variables())
        assert len(tf.global_variables()) == 12
        assert [u.name for u in tf.get_collection(tf.GraphKeys.UPDATE_OPS)] == [
            "batch_normalization/AssignMovingAvg", "batch_normalization/AssignMovingAvg_1",
            "batch_normalization_1/cond_2/Merge", "batch_normalization_1/cond_3/Merge",
            "batch_normalization_2/AssignMovingAvg", "batch_normalization_2/AssignMovingAvg_1"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            xv = (np.arange(24).reshape(2, 2, 2, 3) / 10).astype(np.float16)
            a, b = sess.run([y1, y2], {x: xv, tr: True})
        assert a.dtype == np.float16 and b.dtype == np.float16
        np.testing.assert_allclose(a[0, 0, 0], [-1.53] * 3, atol=0.01)
        np.testing.assert_allclose(a[1, 1, 1], [1.53] * 3, atol=0.01)
        np.testing.assert_allclose(b[0, 0, 0], [-1.48, -1.33, -1.18], atol=0.01)
        np.testing.assert_allclose(b[1, 1, 1], [1.18, 1.33, 1.48], atol=0.01)


def test_half_precision_batch_norm_output_names_by_training_mode():
    with tf.Graph().as_default():
        tr = tf.placeholder(tf.bool, [])
        names, outs = [], []
        xv = np.arange(6).reshape(2, 3).astype(np.float16)
        for t in (True, False, tr):
            x = tf.placeholder(tf.float16, [None, 3])
            y = tf.layers.batch_normalization(x, training=t)
            names.append(y.name)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                outs.append(sess.run(y, {x: xv, tr: True}))
        assert names == ["batch_normalization/Cast_3:0", "batch_normalization_1/Cast_5:0",
                         "batch_normalization_2/Cast_3:0"]
        np.testing.assert_allclose(outs[0], [[-1, -1, -1], [1, 1, 1]], atol=1e-2)
        np.testing.assert_allclose(outs[1], [[0.0, 1.0, 1.999], [2.998, 3.998, 4.996]], atol=2e-3)
        np.testing.assert_allclose(outs[2], [[-1, -1, -1], [1, 1, 1]], atol=1e-2)


def test_keras_batch_norm_updates_are_assign_ops():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 5])
        tf.keras.layers.Dense(3, name="kd")(x)
        bn = tf.keras.layers.BatchNormalization()
        z = bn(x, training=True)
        assert z.name == "batch_normalization/batchnorm/add_1:0"
        assert [u.name for u in bn.updates] == [
            "batch_normalization/AssignMovingAvg/AssignSubVariableOp",
            "batch_normalization/AssignMovingAvg_1/AssignSubVariableOp"]
        assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(bn.updates, {x: np.arange(10, dtype=np.float32).reshape(2, 5)})
            np.testing.assert_allclose(sess.run(bn.moving_mean),
                                       [0.025, 0.035, 0.045, 0.055, 0.065], rtol=1e-5)


@pytest.mark.parametrize("make, message", [
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32, [None, 3, None]),
                                           axis=[1, -1]),
     "(Dimension(None), Dimension(3), Dimension(None)) and axis=(1, 2)"),
    (lambda: tf.keras.layers.BatchNormalization()(tf.placeholder(tf.float32, [None, None])),
     "(Dimension(None), Dimension(None)) and axis=(1,)"),
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32, [None])),
     "(Dimension(None),) and axis=(0,)"),
    (lambda: tf.layers.batch_normalization(tf.placeholder(tf.float32, [2, None, 4]), axis=1),
     "(Dimension(2), Dimension(None), Dimension(4)) and axis=(1,)"),
])
def test_batch_norm_undefined_axis_dimension_message(make, message):
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            make()
        assert str(e.value) == "Input has undefined `axis` dimension. Received input with shape " \
            + message


def test_layer_input_spec_repr_and_incompatible_axis_message():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 6, 6, 2])
        conv = tf.layers.Conv2D(3, 2, name="cc", kernel_initializer=tf.ones_initializer())
        a, b = conv(x), conv(x)
        assert (a.name, b.name) == ("cc/BiasAdd:0", "cc/BiasAdd_1:0")
        assert repr(conv.input_spec) == "InputSpec(min_ndim=4, axes={-1: 2})"
        with pytest.raises(ValueError) as e:
            conv(tf.placeholder(tf.float32, [None, 6, 6, 3]))
        assert str(e.value) == ('Input 0 of layer "cc" is incompatible with the layer: expected '
                                "axis -1 of input shape to have value 2, but received input with "
                                "shape (None, 6, 6, 3)")


@pytest.mark.parametrize("make", [lambda: tf.layers.Dropout(-0.1),
                                  lambda: tf.keras.layers.Dropout(1.5),
                                  lambda: tf.keras.layers.SpatialDropout2D(2.0)])
def test_dropout_rate_checked_at_construction(make):
    with pytest.raises(ValueError) as e:
        make()
    assert str(e.value).startswith("Invalid value ") and str(e.value).endswith(
        " received for `rate`, expected a value between 0 and 1.")


def test_dropout_rate_one_refused_when_applied():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        with pytest.raises(ValueError) as e:
            tf.layers.dropout(x, 1.0, training=True)
        assert str(e.value) == ("`rate` must be a scalar tensor or a float in the range [0, 1). "
                                "Received: rate=1.0")


@pytest.mark.parametrize("padding, output_padding, shape", [
    ("valid", None, [None, 13, 13, 2]), ("valid", 1, [None, 14, 14, 2]),
    ("valid", (0, 1), [None, 13, 14, 2]), ("same", None, [None, 12, 12, 2]),
    ("same", 1, [None, 12, 12, 2]), ("same", (0, 1), [None, 11, 12, 2])])
def test_conv2d_transpose_output_padding(padding, output_padding, shape):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 6, 6, 2])
        layer = tf.layers.Conv2DTranspose(2, 3, strides=2, padding=padding,
                                          output_padding=output_padding,
                                          kernel_initializer=tf.ones_initializer())
        y = layer(x)
        assert y.name == "conv2d_transpose/BiasAdd:0"
        assert y.shape.as_list() == shape
        k = tf.keras.layers.Conv2DTranspose(2, 3, strides=2, padding=padding,
                                            output_padding=output_padding)
        assert k(x).shape.as_list() == shape
        xd = tf.placeholder(tf.float32, [None, None, 6, 2])
        yd = layer(xd)
        assert yd.shape.as_list() == [None, None] + shape[2:]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert sess.run(tf.shape(yd), {xd: np.ones((1, 6, 6, 2))}).tolist() == [1] + shape[1:]


def test_conv2d_transpose_same_output_padding_values():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 6, 6, 2])
        sums = []
        for padding, output_padding in (("valid", 1), ("same", None), ("same", (0, 1))):
            y = tf.layers.Conv2DTranspose(2, 3, strides=2, padding=padding,
                                          output_padding=output_padding,
                                          kernel_initializer=tf.ones_initializer())(x)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sums.append(float(sess.run(y, {x: np.ones((1, 6, 6, 2))}).sum()))
        assert sums == [1296.0, 1156.0, 1088.0]


@pytest.mark.parametrize("make", [
    lambda: tf.layers.Conv2DTranspose(2, 3, strides=2, output_padding=2),
    lambda: tf.keras.layers.Conv2DTranspose(2, 3, strides=1, output_padding=1)])
def test_conv2d_transpose_output_padding_must_be_below_stride(make):
    with pytest.raises(ValueError) as e:
        make()
    assert str(e.value).startswith("Strides must be greater than output padding. Received strides=")


def test_custom_legacy_layer_updates_are_ops():
    class Counter(tf.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight("w", [int(shape[-1]), 2], initializer=tf.ones_initializer(),
                                     regularizer=lambda w: tf.reduce_sum(w))
            self.c = self.add_weight("c", [], initializer=tf.zeros_initializer(), trainable=False)
            super().build(shape)

        def call(self, x):
            self.add_update(tf.assign_add(self.c, 1.0))
            self.add_loss(tf.reduce_mean(x))
            return tf.matmul(x, self.w)

    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        layer = Counter(name="my")
        y = layer(x)
        assert y.name == "my/MatMul:0"
        assert [v.name for v in layer.weights] == ["my/w:0", "my/c:0"]
        assert [t.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)] == [
            "my/w/Regularizer/Sum:0", "my/Mean:0"]
        assert [u.name for u in tf.get_collection(tf.GraphKeys.UPDATE_OPS)] == ["my/AssignAdd"]
        assert isinstance(layer.updates[0], tf.Operation)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out, upd = sess.run([y, layer.updates[0]], {x: np.ones((2, 3))})
            assert upd is None
            np.testing.assert_allclose(out, np.full((2, 2), 3.0))
            assert sess.run(layer.c) == 1.0


def test_sequential_build_without_input_in_graph_mode():
    K = tf.keras
    with tf.Graph().as_default():
        s = K.Sequential([K.layers.Dense(2, kernel_initializer="ones"),
                          K.layers.Dense(1, kernel_initializer="ones")])
        for attr in ("weights", "trainable_weights", "variables"):
            with pytest.raises(ValueError) as e:
                getattr(s, attr)
            assert str(e.value) == (
                "Weights for model 'sequential' have not yet been created. Weights are created "
                "when the model is first called on inputs or `build()` is called with an "
                "`input_shape`.")
        s.build((None, 4))
        # TF1: build runs `call` on a "Placeholder" (no model scope, no inputs/outputs)
        assert [w.name for w in s.weights] == ["dense/kernel:0", "dense/bias:0",
                                               "dense_1/kernel:0", "dense_1/bias:0"]
        assert s.inputs is None and s.outputs is None
        with pytest.raises(AttributeError) as e:
            s.output_shape
        assert str(e.value) == "'Sequential' object has no attribute '_nested_outputs'"
        lines = []
        s.summary(print_fn=lines.append)
        assert any(l.startswith(" dense (Dense)") and "multiple" in l and l.rstrip().endswith("10")
                   for l in lines)
        assert [op.name for op in tf.get_default_graph().get_operations()
                if op.type == "Placeholder"] == ["Placeholder"]
        y = s(tf.placeholder(tf.float32, [None, 4]))
        assert y.name == "sequential/dense_1/BiasAdd:0"
        s.compile("sgd", "mse")
        np.testing.assert_allclose(s.predict(np.ones((2, 4))), [[8.0], [8.0]])
        h = s.fit(np.ones((2, 4)), np.ones((2, 1)), verbose=0)
        np.testing.assert_allclose(h.history["loss"], [49.0])


def test_subclassed_model_build_names_and_output_shape_message():
    K = tf.keras

    class Sub(K.Model):
        def __init__(self):
            super().__init__()
            self.d = K.layers.Dense(2, kernel_initializer="ones")

        def call(self, x):
            return self.d(x)

    with tf.Graph().as_default():
        m = Sub()
        assert m.weights == []
        m.build((None, 3))
        assert [w.name for w in m.weights] == ["dense/kernel:0", "dense/bias:0"]
        with pytest.raises(AttributeError) as e:
            m.output_shape
        assert str(e.value) == ("The layer has never been called and thus has no defined output "
                                "shape.")
