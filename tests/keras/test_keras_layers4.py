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
