"""tf.keras layers in graph mode: names, shapes and weights as TF 2.21's legacy keras
(tf_keras under tf.compat.v1 with v2 behaviour disabled) gives them; the recorded values below
come from running the same programs under TF."""

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.keras.backend.clear_session()
    yield
    tf.keras.backend.clear_session()


def test_dense_names_uniquified_and_scoped():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    d = tf.keras.layers.Dense(3, activation="relu")
    y = d(x)
    assert (y.name, str(y.shape)) == ("dense/Relu:0", "(?, 3)")
    assert [v.name for v in d.weights] == ["dense/kernel:0", "dense/bias:0"]
    assert d(x).name == "dense_1/Relu:0"          # a second call: a fresh name scope
    with tf.name_scope("outer"):
        e = tf.keras.layers.Dense(2, name="fc")
        assert e(x).name == "outer/fc/BiasAdd:0"
        assert [v.name for v in e.weights] == ["outer/fc/kernel:0", "outer/fc/bias:0"]
    # keras and tf.layers share the layer-name counter; variables follow the call's name scope
    tf.layers.dense(x, 3)
    d2 = tf.keras.layers.Dense(3)
    tf.add(x, 1, name="dense_3")
    d3 = tf.keras.layers.Dense(3)
    d3(x)
    assert (d2.name, d3.name) == ("dense_2", "dense_3")
    assert [v.name for v in d3.weights] == ["dense_3_1/kernel:0", "dense_3_1/bias:0"]


def test_seeded_glorot_kernel_matches_tf():
    tf.set_random_seed(1)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    d = tf.keras.layers.Dense(3, activation="relu")
    d(x)
    w = d.get_weights()
    assert [a.shape for a in w] == [(4, 3), (3,)]
    expected = [[0.579, -0.7803, 0.7253], [-0.6124, -0.809, 0.0839],   # recorded from TF 2.21
                [0.0069, 0.7866, 0.314], [0.7927, -0.6992, 0.654]]
    np.testing.assert_allclose(w[0], expected, atol=1e-4)


def test_functional_and_sequential_naming():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    d = tf.keras.layers.Dense(3)
    d(x), d(x)
    with tf.name_scope("outer"):
        tf.keras.layers.Dense(2, name="fc")(x)
    inp = tf.keras.Input(shape=(4,))
    assert (inp.name, str(inp.shape), inp.op.type) == ("input_1:0", "(?, 4)", "Placeholder")
    h = tf.keras.layers.Dense(5, activation="relu")(inp)
    o = tf.keras.layers.Dense(2, activation="softmax", name="out")(h)
    m = tf.keras.Model(inp, o)
    assert m.name == "model" and [l.name for l in m.layers] == ["input_1", "dense_1", "out"]
    assert (h.name, o.name) == ("dense_1_1/Relu:0", "out/Softmax:0")
    assert m(x).name == "model/out/Softmax:0"
    s = tf.keras.Sequential()
    s.add(tf.keras.layers.Dense(3, input_dim=4))
    s.add(tf.keras.layers.Activation("tanh"))
    assert (s.name, s.output.name, s.input.name) == ("sequential", "activation/Tanh:0",
                                                    "dense_2_input:0")
    assert s(x).name == "sequential/activation/Tanh:0"
    s2 = tf.keras.Sequential([tf.keras.layers.Dense(3)])       # built by its first call
    assert s2(x).name == "sequential_1/dense_3/BiasAdd:0"
    assert [v.name for v in s2.weights] == ["sequential_1/dense_3/kernel:0",
                                            "sequential_1/dense_3/bias:0"]
    c = tf.keras.layers.concatenate([h, h])
    assert (c.name, str(c.shape)) == ("concatenate/concat:0", "(?, 10)")
    assert tf.keras.layers.add([h, h]).name == "add/add:0"
    f = tf.keras.layers.Flatten()(tf.keras.Input((2, 3)))
    assert (f.name, str(f.shape)) == ("flatten/Reshape:0", "(?, 6)")
    r = tf.keras.layers.Reshape((3, 2))(tf.keras.Input((6,)))
    assert (r.name, str(r.shape)) == ("reshape/Reshape:0", "(?, 3, 2)")
    assert tf.keras.layers.Lambda(lambda t: t * 2)(h).name == "lambda/mul:0"
    assert tf.keras.layers.Dropout(0.5)(h).name == "dropout/cond/Merge:0"
    ii = tf.keras.layers.Input(shape=(3,), name="myin", dtype="int32")
    assert (ii.name, ii.dtype) == ("myin:0", tf.int32)


def test_conv_pool_embedding_shapes():
    c1 = tf.keras.layers.Conv1D(2, 2)(tf.keras.Input((5, 3)))
    assert str(c1.shape) == "(?, 4, 2)"
    p1 = tf.keras.layers.MaxPooling1D()(c1)
    assert str(p1.shape) == "(?, 2, 2)"
    g = tf.keras.layers.GlobalMaxPooling2D()(tf.keras.Input((4, 4, 3)))
    assert str(g.shape) == "(?, 3)"
    e = tf.keras.layers.Embedding(10, 3, input_length=4)
    o = e(tf.keras.Input((4,), dtype="int32"))
    assert str(o.shape) == "(?, 4, 3)" and [v.name for v in e.weights] == ["embedding/embeddings:0"]
    vals = e.get_weights()[0]
    assert vals.shape == (10, 3) and np.abs(vals).max() <= 0.05      # keras 'uniform' initializer
    ids = np.array([[1, 2, 3, 9]], np.int32)
    got = tf.keras.backend.get_session().run(o, {e.input: ids})
    np.testing.assert_allclose(got[0], vals[[1, 2, 3, 9]])


def test_get_set_weights_and_regularizer_losses():
    inp = tf.keras.Input((3,))
    d = tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.l2(0.5),
                              bias_regularizer=tf.keras.regularizers.l1(0.25))
    out = d(inp)
    k = np.arange(6, dtype=np.float32).reshape(3, 2)
    b = np.array([1.0, -2.0], np.float32)
    d.set_weights([k, b])
    sess = tf.keras.backend.get_session()
    np.testing.assert_allclose(sess.run(d.losses), [0.5 * (k ** 2).sum(), 0.25 * 3.0])
    np.testing.assert_allclose(sess.run(out, {inp: np.ones((1, 3))}), [k.sum(0) + b])
    with pytest.raises(ValueError, match="expecting 2 weights"):
        d.set_weights([k])


def test_batchnorm_and_dropout_follow_learning_phase():
    inp = tf.keras.Input((2,))
    bn = tf.keras.layers.BatchNormalization(epsilon=0.0)
    out = tf.keras.layers.Dropout(0.5)(bn(inp))
    assert [v.name for v in bn.weights] == ["batch_normalization/gamma:0",
                                            "batch_normalization/beta:0",
                                            "batch_normalization/moving_mean:0",
                                            "batch_normalization/moving_variance:0"]
    assert [v.name for v in bn.trainable_weights] == ["batch_normalization/gamma:0",
                                                      "batch_normalization/beta:0"]
    sess = tf.keras.backend.get_session()
    x = np.array([[1.0, 2.0], [3.0, 6.0]], np.float32)
    np.testing.assert_allclose(sess.run(out, {inp: x}), x, rtol=1e-6)    # inference: identity
    lp = tf.keras.backend.learning_phase()
    got = sess.run(out, {inp: x, lp: True})
    assert set(np.round(np.abs(got).ravel(), 4)) <= {0.0, 2.0}            # normalized, then dropped


def test_errors():
    with pytest.raises(ValueError, match="Unknown activation function"):
        tf.keras.layers.Dense(2, activation="nope")
    with pytest.raises(ValueError, match="expected min_ndim=2"):
        tf.keras.layers.Dense(2)(tf.placeholder(tf.float32, [3]))
    with pytest.raises(ValueError, match="Graph disconnected"):
        a, b = tf.keras.Input((2,)), tf.keras.Input((2,))
        tf.keras.Model(a, tf.keras.layers.add([a, b]))
    with pytest.raises(NotImplementedError):
        tf.keras.callbacks.TensorBoard("x")  # ModelCheckpoint is supported now


@pytest.mark.parametrize("cls, last, states", [
    ("SimpleRNN", [-0.4562, -0.4069, -0.4198, -0.3624],
     [[[-0.1441, -0.0845, -0.3411, 0.7441], [-0.4562, -0.4069, -0.4198, -0.3624]]]),
    ("LSTM", [0.2289, -0.0227, 0.1781, -0.0068],
     [[[0.1282, -0.0461, 0.1762, -0.0108], [0.2289, -0.0227, 0.1781, -0.0068]],
      [[0.2667, -0.0904, 0.569, -0.0248], [0.5205, -0.0385, 0.5205, -0.0202]]]),
    ("GRU", [0.2397, 0.0957, 0.2167, -0.4125],
     [[[-0.1051, 0.325, -0.4007, -0.0464], [0.2397, 0.0957, 0.2167, -0.4125]]]),
])
def test_recurrent_layers_match_tf(cls, last, states):
    x = tf.keras.Input((5, 3))
    layer = getattr(tf.keras.layers, cls)(4, return_sequences=True, return_state=True)
    outs = layer(x)
    prefix = {"SimpleRNN": "simple_rnn/simple_rnn_cell", "LSTM": "lstm/lstm_cell",
              "GRU": "gru/gru_cell"}[cls]
    assert [v.name for v in layer.weights] == [f"{prefix}/kernel:0", f"{prefix}/recurrent_kernel:0",
                                               f"{prefix}/bias:0"]
    assert str(outs[0].shape) == "(?, 5, 4)" and all(str(o.shape) == "(?, 4)" for o in outs[1:])
    rs = np.random.RandomState(0)
    layer.set_weights([rs.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in layer.get_weights()])
    X = rs.randn(2, 5, 3).astype(np.float32)
    r = tf.keras.backend.get_session().run(outs, {x: X})
    np.testing.assert_allclose(r[0][1][-1], last, atol=1e-4)      # recorded from TF 2.21
    np.testing.assert_allclose(r[1:], states, atol=1e-4)


def test_lstm_forget_bias_and_training():
    m = tf.keras.Sequential([tf.keras.layers.LSTM(3, input_shape=(4, 2)),
                             tf.keras.layers.Dense(1)])
    b = m.layers[0].get_weights()[2]
    np.testing.assert_array_equal(b, [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0])
    rs = np.random.RandomState(0)
    X = rs.randn(32, 4, 2).astype(np.float32)
    y = X.sum(axis=(1, 2))[:, None]
    m.compile(tf.keras.optimizers.Adam(0.05), "mse")
    h = m.fit(X, y, batch_size=16, epochs=15, verbose=0, shuffle=False)
    assert h.history["loss"][-1] < 0.5 * h.history["loss"][0]
