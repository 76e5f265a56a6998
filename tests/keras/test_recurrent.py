"""keras RNN layers and cells (GRU reset_after, masks from Embedding(mask_zero) / Masking,
dropout, return_state, go_backwards, stacked cells). Expected values were recorded from TF 2.21's
legacy keras under tf.compat.v1 with v2 behaviour disabled running the same programs; the GRU
cell is also checked against a NumPy reference."""

import numpy as np
import pytest

import tensorweave as tf

@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.keras.backend.clear_session()
    yield
    tf.keras.backend.clear_session()


def _hard_sigmoid(x):
    return np.clip(0.2 * x + 0.5, 0.0, 1.0)


def test_rnn_weight_names_and_shapes_match_tf():
    x = tf.keras.Input((5, 2))
    cell = tf.keras.layers.GRUCell(3, reset_after=True)
    r = tf.keras.layers.RNN(cell, return_sequences=True)
    y = r(x)
    assert (cell.name, r.name) == ("gru_cell", "rnn")
    assert [w.name for w in r.weights] == ["rnn/gru_cell/kernel:0", "rnn/gru_cell/recurrent_kernel:0",
                                           "rnn/gru_cell/bias:0"]
    assert [w.shape.as_list() for w in r.weights] == [[2, 9], [3, 9], [2, 9]]
    assert y.shape.as_list() == [None, 5, 3]
    g = tf.keras.layers.GRU(4, reset_after=True, return_state=True)
    out = g(x)
    assert [t.shape.as_list() for t in out] == [[None, 4], [None, 4]]
    assert [w.name for w in g.weights][0] == "gru/gru_cell/kernel:0"
    stacked = tf.keras.layers.RNN([tf.keras.layers.LSTMCell(2), tf.keras.layers.LSTMCell(3)])
    y2 = stacked(x)
    assert [w.name for w in stacked.weights] == [
        "rnn_1/stacked_rnn_cells/lstm_cell/kernel:0",
        "rnn_1/stacked_rnn_cells/lstm_cell/recurrent_kernel:0",
        "rnn_1/stacked_rnn_cells/lstm_cell/bias:0",
        "rnn_1/stacked_rnn_cells/lstm_cell_1/kernel:0",
        "rnn_1/stacked_rnn_cells/lstm_cell_1/recurrent_kernel:0",
        "rnn_1/stacked_rnn_cells/lstm_cell_1/bias:0"]
    assert y2.shape.as_list() == [None, 3]
    assert tf.keras.Model(x, y2).count_params() == 112


def test_gru_reset_after_cell_matches_numpy():
    rs = np.random.RandomState(0)
    xs = rs.randn(4, 3).astype(np.float32)
    h0 = rs.randn(4, 2).astype(np.float32)
    cell = tf.keras.layers.GRUCell(2, reset_after=True, bias_initializer="glorot_uniform")
    h, states = cell(tf.constant(xs), [tf.constant(h0)])
    sess = tf.keras.backend.get_session()
    k, rk, b = sess.run([cell.kernel, cell.recurrent_kernel, cell.bias])
    got = sess.run(h)
    u = 2
    xz = xs @ k + b[0]
    rec = h0 @ rk + b[1]
    z = _hard_sigmoid(xz[:, :u] + rec[:, :u])
    r = _hard_sigmoid(xz[:, u:2 * u] + rec[:, u:2 * u])
    hh = np.tanh(xz[:, 2 * u:] + r * rec[:, 2 * u:])
    np.testing.assert_allclose(got, z * h0 + (1 - z) * hh, rtol=1e-5, atol=1e-6)
    assert isinstance(states, list) and len(states) == 1


def test_masked_rnns_match_tf():
    K = tf.keras.initializers.Constant
    x = tf.keras.Input((5,), dtype="int32")
    table = np.arange(30).reshape(10, 3) / 30.
    h = tf.keras.layers.Embedding(10, 3, mask_zero=True, embeddings_initializer=K(table))(x)
    outs = []
    for cls, kw in [(tf.keras.layers.SimpleRNN, {}), (tf.keras.layers.LSTM, {}),
                    (tf.keras.layers.GRU, {}),
                    (tf.keras.layers.GRU, {"reset_after": True, "bias_initializer": "ones"}),
                    (tf.keras.layers.LSTM, {"return_sequences": True})]:
        layer = cls(2, kernel_initializer=K(0.1), recurrent_initializer=K(0.2), **kw)
        outs.append(layer(h))
    ids = np.array([[1, 2, 3, 0, 0], [4, 0, 5, 6, 0], [0, 0, 0, 0, 7]])
    got = tf.keras.backend.get_session().run(outs, {x: ids})
    tf_values = [[0.13351, 0.26682, 0.21652], [0.04978, 0.11974, 0.06378],
                 [0.07607, 0.15716, 0.09873], [0.21233, 0.17156, 0.05454]]
    for g, want in zip(got[:4], tf_values):
        np.testing.assert_allclose(g[:, 0], want, atol=2e-5)
    # masked steps repeat the previous output (TF's K.rnn)
    np.testing.assert_allclose(got[4][0, :, 0], [0.01032, 0.02706, 0.04978, 0.04978, 0.04978],
                               atol=2e-5)
    np.testing.assert_allclose(got[4][1, :, 0], [0.03571, 0.03571, 0.07558, 0.11974, 0.11974],
                               atol=2e-5)


def test_masking_layer_zeroes_steps_and_masks_rnn():
    K = tf.keras.initializers.Constant
    m = tf.keras.Sequential([tf.keras.layers.Masking(mask_value=-1., input_shape=(4, 2)),
                             tf.keras.layers.SimpleRNN(1, kernel_initializer=K(1.0),
                                                       recurrent_initializer=K(1.0),
                                                       activation=None, return_sequences=True)])
    xs = np.ones((1, 4, 2), np.float32)
    xs[0, 1] = -1
    out = m.predict(xs)
    # linear RNN with unit weights: h = 2 + h'; the masked step 1 keeps h
    np.testing.assert_allclose(out[0, :, 0], [2, 2, 4, 6])
    mask = tf.keras.backend.get_session().run(m.layers[0].compute_mask(tf.constant(xs)))
    np.testing.assert_array_equal(mask, [[True, False, True, True]])


def test_rnn_dropout_only_in_training():
    x = tf.keras.Input((4, 3))
    layer = tf.keras.layers.LSTM(2, dropout=0.5, recurrent_dropout=0.3, return_sequences=True)
    y = layer(x)
    assert (layer.dropout, layer.recurrent_dropout, layer.units) == (0.5, 0.3, 2)
    sess = tf.keras.backend.get_session()
    xs = np.random.RandomState(0).rand(2, 4, 3).astype(np.float32)
    a = sess.run(y, {x: xs})
    b = sess.run(y, {x: xs, tf.keras.backend.learning_phase(): True})
    np.testing.assert_array_equal(a, sess.run(y, {x: xs}))
    assert np.abs(a - b).max() > 0
    plain = tf.keras.layers.LSTM(2, return_sequences=True)
    p = plain(x)
    sess.run(tf.variables_initializer(plain.weights))
    plain.set_weights(layer.get_weights())
    np.testing.assert_allclose(sess.run(p, {x: xs}), a, rtol=1e-6)


def test_go_backwards_and_return_state():
    K = tf.keras.initializers.Constant
    x = tf.keras.Input((3, 1))
    layer = tf.keras.layers.SimpleRNN(1, kernel_initializer=K(1.0), recurrent_initializer=K(0.5),
                                      activation=None, go_backwards=True, return_sequences=True,
                                      return_state=True)
    seq, state = layer(x)
    got_seq, got_state = tf.keras.backend.get_session().run(
        [seq, state], {x: np.array([[[1.], [2.], [4.]]], np.float32)})
    # steps in reverse: 4, 2 + 2, 1 + 2
    np.testing.assert_allclose(got_seq[0, :, 0], [4., 4., 3.])
    np.testing.assert_allclose(got_state, [[3.]])
