"""keras layers of round 4: Hashing, Identity, AbstractRNNCell, the v2 dtype switch,
LocallyConnected1D/2D, ConvLSTM1D/2D/3D, multi-axis BatchNormalization, RandomFourierFeatures.

Expected values marked "TF 2.21" were recorded by running the same program under TensorFlow 2.21
(tf.compat.v1, TF_USE_LEGACY_KERAS=1); the others are NumPy references."""

import numpy as np
import pytest

import tensorweave as tf

K = tf.keras
L = tf.keras.layers


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default():
        yield


def _run(t, feed=None):
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        return s.run(t, feed)


# -- Hashing -------------------------------------------------------------------------------------

def test_hashing_farmhash_bins_and_names():
    out = L.Hashing(num_bins=3)(tf.constant([["A"], ["B"], ["C"], ["D"], ["E"]]))
    assert out.name == "hashing/Identity:0" and out.dtype == tf.int64 and out.shape == (5, 1)
    np.testing.assert_array_equal(_run(out).ravel(), [1, 0, 1, 1, 2])   # TF 2.21


def test_hashing_salt_mask_and_integers():
    x = tf.constant([["A"], ["B"], ["C"], ["D"], ["E"]])
    salted = L.Hashing(num_bins=3, salt=[133, 137])(x)
    masked = L.Hashing(num_bins=3, mask_value="")(tf.constant([["A"], [""], ["C"]]))
    ints = L.Hashing(num_bins=4)(tf.constant([[1, 2], [3, 4]], tf.int64))
    np.testing.assert_array_equal(_run(salted).ravel(), [1, 2, 1, 0, 2])   # TF 2.21
    np.testing.assert_array_equal(_run(masked).ravel(), [1, 0, 2])   # TF 2.21
    np.testing.assert_array_equal(_run(ints), [[1, 3], [1, 3]])   # TF 2.21
    op_types = [op.type for op in tf.get_default_graph().get_operations()]
    assert "StringToHashBucketStrong" in op_types and "AsString" in op_types


def test_hashing_encoded_modes_and_config():
    one_hot = L.Hashing(num_bins=4, output_mode="one_hot")(tf.constant(["a", "b", "c"]))
    count = L.Hashing(num_bins=4, output_mode="count")(tf.constant([["a", "b"], ["c", "c"]]))
    assert one_hot.shape == (3, 4) and one_hot.dtype == tf.float32
    np.testing.assert_array_equal(_run(one_hot), [[0, 0, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0]])
    np.testing.assert_array_equal(_run(count), [[0, 0, 1, 1], [2, 0, 0, 0]])   # TF 2.21
    layer = L.Hashing(num_bins=3, salt=7)
    cfg = layer.get_config()
    assert cfg["salt"] == [7, 7] and cfg["dtype"] == "int64" and cfg["output_mode"] == "int"
    assert L.Hashing.from_config(cfg).strong_hash
    for kwargs in (dict(num_bins=0), dict(num_bins=3, salt="x"),
                   dict(num_bins=3, output_mode="bad"), dict(num_bins=3, sparse=True)):
        with pytest.raises(ValueError):
            L.Hashing(**kwargs)


# -- small additions -----------------------------------------------------------------------------

class MinimalRNNCell(L.AbstractRNNCell):
    def __init__(self, units, **kwargs):
        self.units = units
        super().__init__(**kwargs)

    @property
    def state_size(self):
        return self.units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones",
                                      name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                initializer="identity", name="recurrent_kernel")
        self.built = True

    def call(self, inputs, states):
        out = K.backend.dot(inputs, self.kernel) + \
            K.backend.dot(states[0], self.recurrent_kernel) * 0.5
        return out, out


def test_abstract_rnn_cell_in_rnn():
    cell = MinimalRNNCell(3)
    with pytest.raises(NotImplementedError):
        cell.output_size
    x = K.Input((4, 2))
    layer = L.RNN(cell, return_sequences=True)
    y = layer(x)
    assert y.shape.as_list() == [None, 4, 3]
    assert [w.name for w in layer.weights] == ["rnn/minimal_rnn_cell/kernel:0",
                                               "rnn/minimal_rnn_cell/recurrent_kernel:0"]
    got = K.Model(x, y).predict(np.arange(16, dtype=np.float32).reshape(2, 4, 2))
    np.testing.assert_allclose(got[:, :, 0], [[1, 5.5, 11.75, 18.875],
                                              [17, 29.5, 39.75, 48.875]])   # TF 2.21
    assert cell.get_initial_state(batch_size=2, dtype=tf.float32).shape == (2, 3)


def test_identity_aliases_and_v2_dtype_switch():
    ident = L.Identity(name="ident")
    assert ident(K.Input((4, 2))).name == "ident/Identity:0"
    assert ident.get_config() == {"name": "ident", "trainable": True, "dtype": "float32"}
    assert L.Convolution2DTranspose is L.Conv2DTranspose
    assert L.SeparableConvolution2D is L.SeparableConv2D
    x64 = tf.constant(np.ones((2, 3)), tf.float64)
    assert L.Dense(2)(x64).dtype == tf.float64
    L.enable_v2_dtype_behavior()
    try:
        y = L.Dense(2)(x64)
        assert y.dtype == tf.float32
    finally:
        L.disable_v2_dtype_behavior()
    assert L.Dense(2)(x64).dtype == tf.float64


# -- LocallyConnected1D / 2D ---------------------------------------------------------------------

def _local1d_reference(x, w1, b, k, stride):
    """NumPy: output step o = flatten(x[o*stride : o*stride+k]) @ w1[o] + b[o]."""
    out = np.stack([x[:, o * stride:o * stride + k].reshape(len(x), -1) @ w1[o]
                    for o in range(len(w1))], 1)
    return out + b


def _impl2_kernel(w1, steps, channels, k, stride):
    """The implementation-2 kernel (steps, channels, out steps, filters) holding w1's values."""
    n_out, _, filters = w1.shape
    dense = np.zeros((steps, channels, n_out, filters), np.float32)
    for o in range(n_out):
        dense[o * stride:o * stride + k, :, o, :] = w1[o].reshape(k, channels, filters)
    return dense


@pytest.mark.parametrize("stride", [1, 2])
def test_locally_connected1d_implementations_agree_with_numpy(stride):
    rng = np.random.RandomState(0)
    x = rng.randn(3, 7, 2).astype(np.float32)
    k, filters = 3, 4
    n_out = (7 - k) // stride + 1
    w1 = rng.randn(n_out, k * 2, filters).astype(np.float32)
    b = rng.randn(n_out, filters).astype(np.float32)
    expected = _local1d_reference(x, w1, b, k, stride)
    dense = _impl2_kernel(w1, 7, 2, k, stride)
    for impl in (1, 2, 3):
        inp = K.Input((7, 2))
        layer = L.LocallyConnected1D(filters, k, strides=stride, implementation=impl)
        model = K.Model(inp, layer(inp))
        if impl == 1:
            kernel = w1
        elif impl == 2:
            kernel = dense
        else:   # TF's sorted (output flat index, input flat index) order
            flat = dense.reshape(7 * 2, n_out * filters)
            kernel = np.array([flat[i, o] for o, i in layer.kernel_idxs], np.float32)
            assert layer.kernel_shape == (n_out * filters, 14)
        assert layer.kernel.shape.as_list() == list(kernel.shape)
        layer.set_weights([kernel, b])
        np.testing.assert_allclose(model.predict(x), expected, rtol=1e-5, atol=1e-5)


def test_locally_connected_weights_names_and_errors():
    inp = K.Input((4, 4, 2))
    layer = L.LocallyConnected2D(3, 2, strides=2, activation="relu")
    out = layer(inp)
    assert out.name == "locally_connected2d/Relu:0" and out.shape.as_list() == [None, 2, 2, 3]
    assert [(w.name, w.shape.as_list()) for w in layer.weights] == [   # TF 2.21
        ("locally_connected2d/kernel:0", [4, 8, 3]), ("locally_connected2d/bias:0", [2, 2, 3])]
    first = L.LocallyConnected2D(5, 2, data_format="channels_first", implementation=2)
    y = first(K.Input((2, 3, 4)))
    assert y.shape.as_list() == [None, 5, 2, 3]   # TF 2.21
    assert first.kernel.shape.as_list() == [2, 3, 4, 5, 2, 3]
    assert first.bias.shape.as_list() == [2, 3, 5]
    cfg = layer.get_config()
    assert cfg["kernel_size"] == (2, 2) and cfg["implementation"] == 1
    assert type(L.LocallyConnected2D.from_config(cfg)) is L.LocallyConnected2D
    with pytest.raises(ValueError, match="only \"valid\" is supported"):
        L.LocallyConnected1D(2, 2, padding="same")
    with pytest.raises(ValueError, match="Unrecognized implementation mode: 4"):
        L.LocallyConnected1D(2, 2, implementation=4)(K.Input((5, 2)))
    with pytest.raises(ValueError, match="<= 0 due to downsampling"):
        L.LocallyConnected1D(2, 7)(K.Input((5, 2)))


def test_locally_connected_fit_as_tf():
    tf.set_random_seed(1)
    model = K.Sequential([
        L.LocallyConnected2D(4, 3, input_shape=(6, 6, 1), activation="relu",
                             kernel_initializer=K.initializers.glorot_uniform(seed=3)),
        L.LocallyConnected2D(2, 2, implementation=2,
                             kernel_initializer=K.initializers.RandomNormal(seed=4)),
        L.Flatten(),
        L.Dense(1, kernel_initializer=K.initializers.glorot_uniform(seed=5))])
    model.compile(optimizer=K.optimizers.SGD(0.01), loss="mse")
    rng = np.random.RandomState(0)
    x = rng.rand(16, 6, 6, 1).astype(np.float32)
    y = rng.rand(16, 1).astype(np.float32)
    hist = model.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
    np.testing.assert_allclose(hist.history["loss"], [0.34303616, 0.29399502, 0.25552991],
                               rtol=1e-5)   # TF 2.21
    np.testing.assert_allclose(model.predict(x[:3]).ravel(), [0.1294311, 0.108621, 0.1279123],
                               rtol=1e-5)   # TF 2.21


# -- ConvLSTM1D / 2D / 3D ------------------------------------------------------------------------

def _np_conv1d(x, w, padding):
    """x (batch, steps, ch), w (k, ch, out): stride-1 correlation, 'valid' or 'same'."""
    k = w.shape[0]
    if padding == "same":
        x = np.pad(x, ((0, 0), ((k - 1) // 2, k // 2), (0, 0)))
    n = x.shape[1] - k + 1
    return np.stack([np.tensordot(x[:, i:i + k], w, axes=([1, 2], [0, 1])) for i in range(n)], 1)


def _np_conv_lstm1d(x, kernel, rkernel, bias):
    hs = lambda v: np.clip(0.2 * v + 0.5, 0, 1)   # noqa: E731  hard_sigmoid
    f = rkernel.shape[-1] // 4
    steps = x.shape[2] - kernel.shape[0] + 1
    h = np.zeros((x.shape[0], steps, f), np.float32)
    c = np.zeros_like(h)
    for t in range(x.shape[1]):
        z = _np_conv1d(x[:, t], kernel, "valid") + bias + _np_conv1d(h, rkernel, "same")
        i, fg, g, o = (z[..., q * f:(q + 1) * f] for q in range(4))
        c = hs(fg) * c + hs(i) * np.tanh(g)
        h = hs(o) * np.tanh(c)
    return h, c


def test_conv_lstm1d_matches_numpy_and_tf_names():
    layer = L.ConvLSTM1D(2, 2, return_state=True)
    inp = K.Input((4, 6, 3))
    outs = layer(inp)
    assert [w.name for w in layer.weights] == ["conv_lstm1d/kernel:0",   # TF 2.21
                                               "conv_lstm1d/recurrent_kernel:0",
                                               "conv_lstm1d/bias:0"]
    assert [o.shape.as_list() for o in outs] == [[None, 5, 2]] * 3
    rng = np.random.RandomState(1)
    kernel = rng.randn(2, 3, 8).astype(np.float32) * 0.5
    rkernel = rng.randn(2, 2, 8).astype(np.float32) * 0.5
    bias = rng.randn(8).astype(np.float32)
    layer.set_weights([kernel, rkernel, bias])
    x = rng.randn(2, 4, 6, 3).astype(np.float32)
    out, h, c = K.Model(inp, outs).predict(x)
    ref_h, ref_c = _np_conv_lstm1d(x, kernel, rkernel, bias)
    np.testing.assert_allclose(out, ref_h, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(h, ref_h, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(c, ref_c, rtol=1e-5, atol=1e-5)


def test_conv_lstm_shapes_bias_and_config():
    layer = L.ConvLSTM2D(4, 3, padding="same", return_sequences=True)
    y = layer(K.Input((3, 5, 5, 2)))
    assert y.shape.as_list() == [None, 3, 5, 5, 4]
    assert [w.shape.as_list() for w in layer.weights] == [[3, 3, 2, 16], [3, 3, 4, 16], [16]]
    np.testing.assert_array_equal(_run(layer.bias), [0] * 4 + [1] * 4 + [0] * 8)
    first = L.ConvLSTM3D(2, 2, data_format="channels_first")
    assert first(K.Input((4, 3, 5, 5, 5))).shape.as_list() == [None, 2, 4, 4, 4]   # TF 2.21
    cfg = layer.get_config()
    assert "cell" not in cfg and cfg["filters"] == 4 and cfg["kernel_size"] == (3, 3)
    assert cfg["recurrent_activation"] == "hard_sigmoid" and cfg["unit_forget_bias"]
    clone = L.ConvLSTM2D.from_config(cfg)
    assert clone.filters == 4 and clone.cell.name == "conv_lstm_cell"
    unknown = L.ConvLSTM2D(4, 3)(K.Input((None, 5, 5, 2)))
    assert unknown.shape.as_list() == [None, 3, 3, 4]


def test_conv_lstm_fit_as_tf():
    tf.set_random_seed(2)
    G, O = K.initializers.glorot_uniform, K.initializers.Orthogonal
    model = K.Sequential([
        L.ConvLSTM2D(3, 3, padding="same", return_sequences=True, input_shape=(None, 5, 5, 1),
                     kernel_initializer=G(seed=1), recurrent_initializer=O(seed=2)),
        L.BatchNormalization(),
        L.ConvLSTM2D(2, 2, kernel_initializer=G(seed=3), recurrent_initializer=O(seed=4)),
        L.Flatten(),
        L.Dense(1, kernel_initializer=G(seed=5))])
    model.compile(optimizer=K.optimizers.Adam(0.01), loss="mse")
    rng = np.random.RandomState(0)
    x = rng.rand(8, 4, 5, 5, 1).astype(np.float32)
    y = rng.rand(8, 1).astype(np.float32)
    hist = model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False)
    np.testing.assert_allclose(hist.history["loss"], [0.10469196, 0.01437801, 0.06178366],
                               rtol=1e-4)   # TF 2.21


# -- BatchNormalization over several axes --------------------------------------------------------

def test_batch_normalization_several_axes():
    rng = np.random.RandomState(0)
    x = rng.randn(4, 3, 5, 2).astype(np.float32)
    inp = K.Input((3, 5, 2))
    bn = L.BatchNormalization(axis=[1, 2])
    out = bn(inp)
    assert out.name == "batch_normalization/batchnorm/add_1:0"   # TF 2.21
    assert [w.shape.as_list() for w in bn.weights] == [[1, 3, 5, 1]] * 4
    assert bn.get_config()["axis"] == [1, 2]
    gamma = np.linspace(0.5, 1.5, 15, dtype=np.float32).reshape(1, 3, 5, 1)
    bn.set_weights([gamma, gamma, gamma, gamma])
    got = K.Model(inp, out).predict(x)
    np.testing.assert_allclose(got.ravel()[::9][:4], [1.39293, 0.45342, 0.25616, -0.50195],
                               rtol=1e-4)   # TF 2.21
    ref = (x - gamma) / np.sqrt(gamma + 1e-3) * gamma + gamma
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    xc = tf.constant(x)
    trained = bn(xc, training=True)
    mean, var = x.mean((0, 3), keepdims=True), x.var((0, 3), keepdims=True)
    ref = (x - mean) / np.sqrt(var + 1e-3) * gamma + gamma
    sess = K.backend.get_session()
    np.testing.assert_allclose(sess.run(trained), ref, rtol=1e-4, atol=1e-5)
    sess.run(bn.get_updates_for(xc))
    np.testing.assert_allclose(sess.run(bn.moving_mean), gamma * 0.99 + mean * 0.01, rtol=1e-5)
    neg = L.BatchNormalization(axis=(-1, -2), center=False)
    neg(K.Input((3, 5, 2)))
    assert list(neg.axis) == [3, 2] and [w.name for w in neg.weights][0].endswith("gamma:0")
    with pytest.raises(ValueError, match="Expected 0 <= axis < inputs.rank"):
        L.BatchNormalization(axis=4)(K.Input((3, 5, 2)))
    with pytest.raises(ValueError, match="Duplicate axis"):
        L.BatchNormalization(axis=[1, 1])(K.Input((3, 5, 2)))


# -- Dot over any axes -----------------------------------------------------------------------------

def test_dot_axes_and_normalize():
    rng = np.random.RandomState(0)
    a, b = K.Input((3, 4)), K.Input((3, 4))
    cos = L.Dot(axes=2, normalize=True)([a, b])
    inner = L.Dot(axes=(1, 1))([a, b])
    assert cos.name == "dot/MatMul:0" and cos.shape.as_list() == [None, 3, 3]   # TF 2.21
    assert inner.shape.as_list() == [None, 4, 4]
    xa, xb = rng.randn(2, 3, 4).astype(np.float32), rng.randn(2, 3, 4).astype(np.float32)
    got_cos, got_inner = K.Model([a, b], [cos, inner]).predict([xa, xb])
    na = xa / np.linalg.norm(xa, axis=2, keepdims=True)
    nb = xb / np.linalg.norm(xb, axis=2, keepdims=True)
    np.testing.assert_allclose(got_cos, np.einsum("bik,bjk->bij", na, nb), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_inner, np.einsum("bki,bkj->bij", xa, xb), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(got_cos.ravel()[:3], [0.3707, 0.65243, -0.3504],
                               rtol=1e-4)   # TF 2.21
    flat = L.Dot(axes=-1)([K.Input((4,)), K.Input((4,))])
    assert flat.shape.as_list() == [None, 1]
