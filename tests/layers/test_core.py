"""tf.layers.dense / Dense and the Layer base: variable and op names, reuse, regularizers,
rank > 2 inputs, values and training. Expected names and messages marked "TF" were recorded from
real TensorFlow 2.21 compat.v1 (tf.layers through tf_keras)."""

import numpy as np
import pytest

import tensorweave as tf

def names(vs):
    return [v.name for v in vs]


def test_dense_names_and_variables():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.layers.dense(x, 4)
    # TF
    assert y.name == "dense/BiasAdd:0" and y.shape.as_list() == [None, 4]
    g = tf.get_default_graph()
    assert g.get_operation_by_name("dense/MatMul").type == "MatMul"
    assert g.get_operation_by_name("dense/kernel/Initializer/random_uniform").type == "AddV2"  # glorot uniform
    assert g.get_operation_by_name("dense/bias/Initializer/zeros").type == "Const"
    y1 = tf.layers.dense(x, 4, activation=tf.nn.relu)
    assert y1.name == "dense_1/Relu:0"  # TF
    y2 = tf.layers.dense(x, 4, name="fc1", activation=tf.nn.relu, use_bias=False)
    assert y2.name == "fc1/Relu:0"  # TF
    y3 = tf.layers.dense(x, 4, name="fc1", reuse=True, use_bias=False)
    assert y3.name == "fc1_1/MatMul:0"  # TF
    with tf.variable_scope("outer"):
        assert tf.layers.dense(x, 2).name == "outer/dense/BiasAdd:0"  # TF
        assert tf.layers.dense(x, 2).name == "outer/dense_1/BiasAdd:0"  # TF
    # TF
    assert names(tf.global_variables()) == [
        "dense/kernel:0", "dense/bias:0", "dense_1/kernel:0", "dense_1/bias:0", "fc1/kernel:0",
        "outer/dense/kernel:0", "outer/dense/bias:0", "outer/dense_1/kernel:0", "outer/dense_1/bias:0"]
    assert names(tf.trainable_variables()) == names(tf.global_variables())


def test_dense_reuse_errors():
    x = tf.placeholder(tf.float32, [None, 3])
    tf.layers.dense(x, 4, name="fc1", use_bias=False)
    # TF's messages
    with pytest.raises(ValueError, match="Variable fc1/kernel already exists, disallowed"):
        tf.layers.dense(x, 4, name="fc1")
    with pytest.raises(ValueError, match=r"Trying to share variable fc1/kernel, but specified shape \(3, 5\) "
                                         r"and found shape \(3, 4\)"):
        tf.layers.dense(x, 5, name="fc1", reuse=True)
    with pytest.raises(ValueError, match="Variable fc2/kernel does not exist"):
        tf.layers.dense(x, 5, name="fc2", reuse=True)
    with tf.variable_scope("s", reuse=tf.AUTO_REUSE):
        a = tf.layers.dense(x, 2, name="d")
        b = tf.layers.dense(x, 2, name="d")
    assert names(tf.global_variables())[-2:] == ["s/d/kernel:0", "s/d/bias:0"]
    assert a.op.inputs[1] is not None and b.name != a.name


def test_dense_input_errors():
    # TF's messages
    with pytest.raises(ValueError, match=r"The last dimension of the inputs to a Dense layer should be defined. "
                                         r"Found None. Full input shape received: \(\?, \?\)"):
        tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 3)
    with pytest.raises(ValueError, match=r"is incompatible with the layer: expected min_ndim=2, found ndim=1. "
                                         r"Full shape received: \(Dimension\(3\),\)"):  # TF
        tf.layers.dense(tf.placeholder(tf.float32, [3]), 3)
    with pytest.raises(ValueError, match="Full input shape received: <unknown>"):
        tf.layers.dense(tf.placeholder(tf.float32), 3)


def test_dense_values_and_rank3():
    rng = np.random.RandomState(0)
    xv = rng.standard_normal((5, 3)).astype(np.float32)
    x3v = rng.standard_normal((2, 5, 3)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3])
    x3 = tf.placeholder(tf.float32, [None, 5, 3])
    layer = tf.layers.Dense(4, activation=tf.nn.tanh, bias_initializer=tf.constant_initializer(0.5))
    y = layer(x)
    y3 = layer(x3)
    assert y3.name == "dense/Tanh_1:0" and y3.shape.as_list() == [None, 5, 4]  # same layer, scope re-entered
    assert names(layer.variables) == ["dense/kernel:0", "dense/bias:0"]
    assert len(tf.global_variables()) == 2
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        k, b = s.run([layer.kernel, layer.bias])
        out, out3 = s.run([y, y3], {x: xv, x3: x3v})
    np.testing.assert_allclose(b, 0.5)
    limit = np.sqrt(6.0 / (3 + 4))
    assert np.all(np.abs(k) <= limit)  # glorot uniform
    np.testing.assert_allclose(out, np.tanh(xv @ k + b), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out3, np.tanh(x3v @ k + b), rtol=1e-5, atol=1e-6)
    assert out.dtype == np.float32


def test_dense_class_and_layer_properties():
    x = tf.placeholder(tf.float32, [None, 3])
    d = tf.layers.Dense(3, name="myd")
    assert d.name == "myd" and not d.built  # TF
    y = d(x)
    assert y.name == "myd/BiasAdd:0"  # TF
    assert names(d.variables) == ["myd/kernel:0", "myd/bias:0"]  # TF
    assert names(d.trainable_weights) == ["myd/kernel:0", "myd/bias:0"]
    assert d.kernel.name == "myd/kernel:0" and d.bias.name == "myd/bias:0"
    assert d(x).name == "myd/BiasAdd_1:0"  # TF
    assert d.built and d.count_params() == 12 and d.scope_name == "myd"
    assert tf.layers.Dense(2).name == "dense_1"  # TF: tf.layers names count from 1
    assert tf.layers.Dense(2).name == "dense_2"
    frozen = tf.layers.dense(x, 4, trainable=False)
    assert names(tf.trainable_variables()) == ["myd/kernel:0", "myd/bias:0"]  # TF
    assert names(tf.global_variables())[-2:] == ["dense/kernel:0", "dense/bias:0"]
    assert frozen.name == "dense/BiasAdd:0"


def test_regularizers():
    x = tf.placeholder(tf.float32, [None, 3])
    tf.layers.dense(x, 4, kernel_regularizer=lambda w: tf.reduce_sum(w),
                    bias_regularizer=lambda b: 2 * tf.reduce_sum(b),
                    activity_regularizer=lambda a: tf.reduce_mean(a))
    regs = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    # TF
    assert names(regs) == ["dense/kernel/Regularizer/Sum:0", "dense/bias/Regularizer/mul:0",
                           "dense/ActivityRegularizer/truediv:0"]
    assert tf.losses.get_regularization_loss().name == "total_regularization_loss:0"  # TF
    layer = tf.layers.Dense(2, kernel_regularizer=lambda w: tf.reduce_sum(w * w))
    layer(x)
    layer(x)  # a second call reuses the kernel and adds no second loss
    assert len(layer.losses) == 1
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 4
    xv = np.ones((2, 3), np.float32)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        k = s.run(layer.kernel)
        np.testing.assert_allclose(s.run(layer.losses[0]), (k * k).sum(), rtol=1e-6)
        s.run(tf.losses.get_regularization_loss(), {x: xv})


def test_float64_inputs_make_float64_variables():
    x = tf.placeholder(tf.float64, [None, 3])
    y = tf.layers.dense(x, 2)
    assert y.dtype == tf.float64
    assert tf.global_variables()[0].dtype.base_dtype == tf.float64


def test_dense_gradients():
    rng = np.random.RandomState(1)
    xv = rng.standard_normal((4, 3))

    def build(x):
        return tf.layers.dense(x, 2, activation=tf.nn.softplus,
                               kernel_initializer=tf.constant_initializer(rng.standard_normal((3, 2))),
                               bias_initializer=tf.constant_initializer([0.1, -0.2]))

    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float64, [4, 3])
        y = build(x)
        gx, gk, gb = tf.gradients(tf.reduce_sum(y), [x] + tf.trainable_variables())
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            k, b = s.run(tf.trainable_variables())
            gxv, gkv, gbv = s.run([gx, gk, gb], {x: xv})
    sig = 1 / (1 + np.exp(-(xv @ k + b)))
    np.testing.assert_allclose(gxv, sig @ k.T, rtol=1e-10)
    np.testing.assert_allclose(gkv, xv.T @ sig, rtol=1e-10)
    np.testing.assert_allclose(gbv, sig.sum(0), rtol=1e-10)


def test_dense_trains_xor_like_problem():
    rng = np.random.RandomState(0)
    xv = rng.standard_normal((64, 2)).astype(np.float32)
    yv = (xv[:, 0] * xv[:, 1] > 0).astype(np.int32)
    tf.set_random_seed(0)
    x = tf.placeholder(tf.float32, [None, 2])
    labels = tf.placeholder(tf.int32, [None])
    h = tf.layers.dense(x, 16, activation=tf.nn.relu)
    logits = tf.layers.dense(h, 2)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        first = s.run(loss, {x: xv, labels: yv})
        for _ in range(150):
            s.run(train, {x: xv, labels: yv})
        last = s.run(loss, {x: xv, labels: yv})
    assert last < 0.3 * first


def test_layer_base_subclass():
    class Scale(tf.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight("w", shape=[], initializer=tf.ones_initializer())
            self.built = True

        def call(self, inputs):
            return inputs * self.w

    x = tf.placeholder(tf.float32, [None, 2])
    s1 = Scale()
    y = s1(x)
    assert s1.name == "scale_1" and names(s1.weights) == ["scale/w:0"]  # TF
    assert y.name.startswith("scale/")
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        np.testing.assert_allclose(s.run(y, {x: [[1., 2.]]}), [[1., 2.]])


def test_flatten_and_dropout_layers():
    x = tf.placeholder(tf.float32, [None, 2, 3])
    f = tf.layers.flatten(x)
    assert f.shape.as_list() == [None, 6]
    d = tf.layers.dropout(f, rate=0.5, training=False)
    xv = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(d, {x: xv}), xv.reshape(2, 6))
        out = s.run(tf.layers.dropout(f, rate=0.5, training=True), {x: xv + 1})
    assert set(np.unique(out)) <= set(np.unique((xv + 1) * 2)) | {0.0}
