"""The keras layers added for TF1-era programs: activation, noise, cropping/padding/upsampling,
3-D and transposed/depthwise convolutions, LayerNormalization and the TimeDistributed /
Bidirectional wrappers. Names and output shapes were recorded from TF 2.21 (tf_keras under
tf.compat.v1, v2 behaviour disabled); values are checked against NumPy references."""

import numpy as np
import pytest

import tensorweave as tf

L = tf.keras.layers


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.keras.backend.clear_session()
    yield
    tf.keras.backend.clear_session()


def _run(layer, shape, feed, assign=None):
    x = tf.placeholder(tf.float32, shape)
    y = layer(x)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        for w, v in (assign or {}).items():
            s.run(getattr(layer, w).assign(v))
        return y, s.run(y, {x: feed})


A = np.array([[-2.0, -0.5, 0.5, 7.0]], np.float32)


@pytest.mark.parametrize("layer,name,ref", [
    (lambda: L.LeakyReLU(), "leaky_re_lu/LeakyRelu:0", lambda a: np.where(a > 0, a, 0.3 * a)),
    (lambda: L.ReLU(6.0), "re_lu/Relu6:0", lambda a: np.clip(a, 0, 6)),
    (lambda: L.ReLU(max_value=3.0, negative_slope=0.1), "re_lu/sub:0",
     lambda a: np.where(a > 0, np.minimum(a, 3), 0.1 * a)),
    (lambda: L.ELU(), "elu/Elu:0", lambda a: np.where(a > 0, a, np.expm1(a))),
    (lambda: L.ELU(0.5), "elu/SelectV2:0", lambda a: np.where(a > 0, a, 0.5 * np.expm1(a))),
    (lambda: L.ThresholdedReLU(0.5), "thresholded_re_lu/mul:0", lambda a: np.where(a > 0.5, a, 0)),
    (lambda: L.Softmax(), "softmax/Softmax:0",
     lambda a: np.exp(a) / np.exp(a).sum(-1, keepdims=True)),
])
def test_activation_layers(layer, name, ref):
    y, out = _run(layer(), [None, 4], A)
    assert (y.name, str(y.shape)) == (name, "(?, 4)")
    np.testing.assert_allclose(out, ref(A), rtol=1e-5, atol=1e-6)


def test_prelu_weight_and_value():
    p = L.PReLU(shared_axes=[1])
    y, out = _run(p, [None, 3, 2], np.array([[[-1, 2], [3, -4], [-5, 6]]], np.float32),
                  assign={"alpha": np.array([[0.5, 0.25]], np.float32)})
    assert [w.name for w in p.weights] == ["p_re_lu/alpha:0"]
    assert p.alpha.shape.as_list() == [1, 2]
    np.testing.assert_allclose(out, [[[-0.5, 2], [3, -1], [-2.5, 6]]])


def test_activation_layer_errors_and_config():
    with pytest.raises(ValueError):
        L.LeakyReLU(None)
    with pytest.raises(ValueError):
        L.ReLU(-1.0)
    cfg = L.ReLU(6.0).get_config()
    assert float(cfg["max_value"]) == 6.0 and cfg["name"] == "re_lu_1"


def test_noise_layers_are_identity_outside_training():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    for layer in [L.GaussianNoise(0.5), L.GaussianDropout(0.3), L.AlphaDropout(0.3),
                  L.SpatialDropout1D(0.5), L.ActivityRegularization(0.1)]:
        _, out = _run(layer, [None, 3, 4], a)
        np.testing.assert_array_equal(out, a)


def test_noise_layers_in_training():
    x = tf.placeholder(tf.float32, [None, 3, 4])
    a = np.ones((64, 3, 4), np.float32)
    y = L.SpatialDropout1D(0.5)(x, training=True)
    g = L.GaussianNoise(1.0)(x, training=True)
    with tf.Session() as s:
        out, noisy = s.run([y, g], {x: a})
    # whole channels dropped: constant along the time axis, kept values scaled by 2
    assert set(np.unique(out)) <= {0.0, 2.0}
    assert (out.min(axis=1) == out.max(axis=1)).all()
    assert abs(noisy.mean() - 1) < 0.2 and noisy.std() > 0.5


def test_activity_regularization_adds_loss():
    layer = L.ActivityRegularization(l1=0.5)
    y, _ = _run(layer, [None, 2], np.ones((1, 2), np.float32))
    assert len(layer.losses) == 1


def test_cropping_padding_upsampling():
    a3 = np.arange(36, dtype=np.float32).reshape(2, 6, 3)
    y, out = _run(L.Cropping1D((2, 1)), [None, 6, 3], a3)
    assert str(y.shape) == "(?, 3, 3)"
    np.testing.assert_array_equal(out, a3[:, 2:5])
    a4 = np.arange(64, dtype=np.float32).reshape(2, 4, 4, 2)
    y, out = _run(L.Cropping2D(((1, 0), (1, 2))), [None, 4, 4, 2], a4)
    np.testing.assert_array_equal(out, a4[:, 1:, 1:2])
    y, out = _run(L.ZeroPadding1D((1, 2)), [None, 6, 3], a3)
    np.testing.assert_array_equal(out, np.pad(a3, [(0, 0), (1, 2), (0, 0)]))
    y, out = _run(L.UpSampling1D(3), [None, 6, 3], a3)
    assert y.name == "up_sampling1d/concat:0"       # TF: split + concat (static length)
    np.testing.assert_array_equal(out, np.repeat(a3, 3, axis=1))
    a5 = np.arange(32, dtype=np.float32).reshape(1, 2, 2, 4, 2)
    y, out = _run(L.UpSampling3D((1, 2, 3)), [None, 2, 2, 4, 2], a5)
    assert (y.name, str(y.shape)) == ("up_sampling3d/concat_2:0", "(?, 2, 4, 12, 2)")
    np.testing.assert_array_equal(out, np.repeat(np.repeat(a5, 2, 2), 3, 3))
    y, out = _run(L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), [None, 2, 2, 4, 2], a5)
    assert str(y.shape) == "(?, 3, 4, 6, 2)"
    np.testing.assert_array_equal(out, np.pad(a5, [(0, 0), (1, 0), (0, 2), (1, 1), (0, 0)]))
    y, out = _run(L.Cropping3D(), [None, 2, 2, 4, 2], a5)
    assert str(y.shape) == "(?, 0, 0, 2, 2)"


def test_conv3d_and_pool3d_shapes_names():
    x = tf.placeholder(tf.float32, [None, 8, 8, 8, 1])
    c = L.Conv3D(4, 3)
    y = c(x)
    assert (y.name, str(y.shape)) == ("conv3d/BiasAdd:0", "(?, 6, 6, 6, 4)")
    assert [w.name for w in c.weights] == ["conv3d/kernel:0", "conv3d/bias:0"]
    p = L.MaxPooling3D()(y)
    assert (p.name, str(p.shape)) == ("max_pooling3d/MaxPool3D:0", "(?, 3, 3, 3, 4)")
    g = L.GlobalAveragePooling3D()(p)
    assert (g.name, str(g.shape)) == ("global_average_pooling3d/Mean:0", "(?, 4)")
    t = L.Conv3DTranspose(2, 2, strides=2)(p)
    assert (t.name, str(t.shape)) == ("conv3d_transpose/BiasAdd:0", "(?, 6, 6, 6, 2)")


def _np_conv1d_transpose(x, k, stride):
    # x [b, w, c_in], k [kw, c_out, c_in]; "valid" full-length output
    b, w, _ = x.shape
    kw, c_out, _ = k.shape
    out = np.zeros((b, (w - 1) * stride + kw, c_out))
    for i in range(w):
        out[:, i * stride:i * stride + kw] += np.einsum("bc,koc->bko", x[:, i], k)
    return out


def test_conv1d_transpose_values():
    layer = L.Conv1DTranspose(3, 3, strides=2, use_bias=False)
    x = np.sin(np.arange(20.0)).reshape(2, 5, 2).astype(np.float32)
    k = np.linspace(-1, 1, 18).reshape(3, 3, 2).astype(np.float32)
    y, out = _run(layer, [None, 5, 2], x, assign={"kernel": k})
    assert (y.name, str(y.shape)) == ("conv1d_transpose/conv1d_transpose/Squeeze:0", "(?, 11, 3)")
    np.testing.assert_allclose(out, _np_conv1d_transpose(x, k, 2), rtol=1e-5, atol=1e-5)


def test_depthwise_conv_values():
    layer = L.DepthwiseConv2D(2, depth_multiplier=2, use_bias=False)
    x = np.arange(2 * 3 * 3 * 2, dtype=np.float32).reshape(2, 3, 3, 2)
    k = np.linspace(-1, 1, 16).reshape(2, 2, 2, 2).astype(np.float32)
    y, out = _run(layer, [None, 3, 3, 2], x, assign={"depthwise_kernel": k})
    assert str(y.shape) == "(?, 2, 2, 4)"
    ref = np.zeros((2, 2, 2, 4))
    for i in range(2):
        for j in range(2):
            patch = x[:, i:i + 2, j:j + 2]                       # [b, 2, 2, c]
            ref[:, i, j] = np.einsum("bhwc,hwcm->bcm", patch, k).reshape(2, 4)
    # (atol: an output that cancels to 0 keeps float32 rounding, ~2e-6 at these magnitudes)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)
    d1 = L.DepthwiseConv1D(3)
    y = d1(tf.placeholder(tf.float32, [None, 6, 2]))
    assert (y.name, str(y.shape)) == ("depthwise_conv1d/Squeeze:0", "(?, 4, 2)")


def test_separable_conv1d_weights():
    s = L.SeparableConv1D(4, 3)
    y = s(tf.placeholder(tf.float32, [None, 6, 2]))
    assert (y.name, str(y.shape)) == ("separable_conv1d/Squeeze:0", "(?, 4, 4)")
    assert [w.shape.as_list() for w in s.weights] == [[3, 2, 1], [1, 2, 4], [4]]


def test_layer_normalization():
    ln = L.LayerNormalization()
    a = np.sin(np.arange(10.0)).reshape(2, 5).astype(np.float32)
    y, out = _run(ln, [None, 5], a)
    assert y.name == "layer_normalization/add:0"
    assert [w.name for w in ln.weights] == ["layer_normalization/gamma:0",
                                            "layer_normalization/beta:0"]
    ref = (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + 1e-3)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    ln2 = L.LayerNormalization(axis=1)
    b = np.sin(np.arange(24.0)).reshape(2, 3, 4).astype(np.float32)
    y, out = _run(ln2, [None, 3, 4], b)
    assert y.name == "layer_normalization_1/batchnorm/add_1:0"
    ref = (b - b.mean(1, keepdims=True)) / np.sqrt(b.var(1, keepdims=True) + 1e-3)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-5)
    assert not hasattr(L, "UnitNormalization")   # not in tf.compat.v1.keras.layers


def test_time_distributed_names_and_values():
    x = tf.placeholder(tf.float32, [None, 5, 3])
    td = L.TimeDistributed(L.Dense(2))
    y = td(x)
    assert (y.name, str(y.shape)) == ("time_distributed/Reshape_1:0", "(?, 5, 2)")
    assert [w.name for w in td.weights] == ["time_distributed/kernel:0", "time_distributed/bias:0"]
    ops = [op.name for op in tf.get_default_graph().get_operations()
           if op.name.startswith("time_distributed/") and "kernel" not in op.name
           and "bias/" not in op.name and op.name != "time_distributed/bias"]
    assert ops == ["time_distributed/Reshape/shape", "time_distributed/Reshape",
                   "time_distributed/dense/MatMul/ReadVariableOp", "time_distributed/dense/MatMul",
                   "time_distributed/dense/BiasAdd/ReadVariableOp",
                   "time_distributed/dense/BiasAdd", "time_distributed/Reshape_1/shape",
                   "time_distributed/Reshape_1", "time_distributed/Reshape_2/shape",
                   "time_distributed/Reshape_2"]
    a = np.sin(np.arange(30.0)).reshape(2, 5, 3).astype(np.float32)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        k, b = s.run(td.weights)
        np.testing.assert_allclose(s.run(y, {x: a}), a @ k + b, rtol=1e-5)


def test_bidirectional_lstm():
    x = tf.placeholder(tf.float32, [None, 5, 3])
    b = L.Bidirectional(L.LSTM(4))
    z = b(x)
    assert (z.name, str(z.shape)) == ("bidirectional/concat:0", "(?, 8)")
    assert [w.name for w in b.weights] == [
        "bidirectional/forward_lstm/lstm_cell/kernel:0",
        "bidirectional/forward_lstm/lstm_cell/recurrent_kernel:0",
        "bidirectional/forward_lstm/lstm_cell/bias:0",
        "bidirectional/backward_lstm/lstm_cell/kernel:0",
        "bidirectional/backward_lstm/lstm_cell/recurrent_kernel:0",
        "bidirectional/backward_lstm/lstm_cell/bias:0"]
    assert b.backward_layer.go_backwards and not b.forward_layer.go_backwards
    s2 = L.Bidirectional(L.GRU(3, return_sequences=True), merge_mode="sum")(x)
    assert (s2.name, str(s2.shape)) == ("bidirectional_1/add:0", "(?, 5, 3)")
    outs = L.Bidirectional(L.SimpleRNN(3, return_state=True), merge_mode=None)(x)
    assert len(outs) == 4
    a = np.sin(np.arange(30.0)).reshape(2, 5, 3).astype(np.float32)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        fw = b.forward_layer(x)
        bw = b.backward_layer(x)
        zv, fv, bv = s.run([z, fw, bw], {x: a})
    np.testing.assert_allclose(zv, np.concatenate([fv, bv], -1), rtol=1e-6)


def test_sequential_summary_params():
    m = tf.keras.Sequential([L.Embedding(10, 4, input_length=5),
                             L.Bidirectional(L.LSTM(3, return_sequences=True)),
                             L.TimeDistributed(L.Dense(2)), L.Flatten()])
    assert m.output_shape == (None, 10)
    assert m.count_params() == 246    # TF's summary: 40 + 192 + 14
