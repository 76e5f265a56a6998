"""tf.nn.dynamic_rnn: equal to static_rnn with shared weights, sequence_length masking, TF variable
names, time_major, gradients."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients


class _TinyCell:
    """A minimal cell on the standard interface: h' = tanh(x W + h U)."""

    def __init__(self, n):
        self._n = n

    state_size = property(lambda self: self._n)
    output_size = property(lambda self: self._n)

    def zero_state(self, batch_size, dtype):
        return tf.zeros(tf.stack([batch_size, self._n]) if isinstance(batch_size, tf.Tensor)
                        else [batch_size, self._n], dtype)

    def __call__(self, inputs, state):
        with tf.variable_scope("tiny_cell", reuse=tf.AUTO_REUSE):
            w = tf.get_variable("w", [inputs.shape[-1].value + self._n, self._n], dtype=inputs.dtype)
        h = tf.tanh(tf.matmul(tf.concat([inputs, state], 1), w))
        return h, h


def test_minimal_cell_and_masking():
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((3, 4, 2)).astype(np.float32)
    with tf.Graph().as_default():
        out, st = tf.nn.dynamic_rnn(_TinyCell(5), tf.constant(x_np), sequence_length=[4, 2, 0], dtype=tf.float32)
        assert [v.name for v in tf.global_variables()] == ["rnn/tiny_cell/w:0"]
        assert out.shape.as_list() == [3, 4, 5]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            o, s = sess.run([out, st])
        assert np.all(o[1, 2:] == 0) and np.all(o[2] == 0) and np.all(s[2] == 0)
        np.testing.assert_allclose(s[1], o[1, 1])
        np.testing.assert_allclose(s[0], o[0, 3])


def test_lstm_matches_static_rnn():
    if not hasattr(tf.nn, "rnn_cell") or getattr(tf.nn, "static_rnn", None) is None:
        pytest.skip("rnn cells / static_rnn not available")
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((3, 5, 4)).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.constant(x_np)
        cell = tf.nn.rnn_cell.BasicLSTMCell(6)
        out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        assert sorted(v.name for v in tf.global_variables()) == ["rnn/basic_lstm_cell/bias:0",
                                                                 "rnn/basic_lstm_cell/kernel:0"]
        so, ss = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32, scope="rnn")
        xt = tf.transpose(x, [1, 0, 2])
        out_tm, _ = tf.nn.dynamic_rnn(cell, xt, dtype=tf.float32, time_major=True, scope="rnn")
        g = tf.gradients(tf.reduce_sum(out), tf.trainable_variables())
        gs = tf.gradients(tf.reduce_sum(tf.stack(so, 1)), tf.trainable_variables())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            o, s, so_, ss_, otm, g1, g2 = sess.run([out, st, so, ss, out_tm, g, gs])
        np.testing.assert_allclose(o, np.stack(so_, 1), atol=1e-5)
        np.testing.assert_allclose(s.h, ss_.h, atol=1e-5)
        np.testing.assert_allclose(otm, o.transpose(1, 0, 2), atol=1e-5)
        for a, b in zip(g1, g2):
            np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


class _ConstCell(_TinyCell):
    def __init__(self, w):
        super().__init__(int(w.shape[1]))
        self._w = w

    def __call__(self, inputs, state):
        h = tf.tanh(tf.matmul(tf.concat([inputs, state], 1), self._w))
        return h, h


def test_gradient_wrt_inputs_fd():
    w = np.linspace(-0.5, 0.5, 8).reshape(4, 2)

    def f(x, h0):
        out, st = tf.nn.dynamic_rnn(_ConstCell(tf.constant(w)), x, initial_state=h0, sequence_length=[3, 1])
        return out
    x = np.random.default_rng(2).standard_normal((2, 3, 2))
    check_gradients(f, [x, np.array([[0.1, -0.2], [0.3, 0.4]])])


def test_bidirectional():
    with tf.Graph().as_default():
        x = tf.constant(np.ones((2, 3, 2), np.float32))
        (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(_TinyCell(2), _TinyCell(2), x, dtype=tf.float32)
        assert fw.shape.as_list() == [2, 3, 2] and bw.shape.as_list() == [2, 3, 2]
        assert {v.name for v in tf.global_variables()} == {"bidirectional_rnn/fw/tiny_cell/w:0",
                                                           "bidirectional_rnn/bw/tiny_cell/w:0"}


def test_raw_rnn_matches_dynamic_rnn_with_sequence_length():
    # raw_rnn driven by a loop_fn that reads a TensorArray and finishes at each entry's length
    # gives dynamic_rnn's outputs (zeros past the end, time-major) and final state.
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((5, 3, 2)).astype(np.float32)  # [time, batch, depth]
    lengths = np.array([5, 2, 3], np.int32)
    with tf.Graph().as_default():
        x = tf.constant(x_np)
        cell = tf.nn.rnn_cell.BasicLSTMCell(4)
        ref_out, ref_state = tf.nn.dynamic_rnn(cell, x, sequence_length=lengths, time_major=True,
                                               dtype=tf.float32)
        inputs_ta = tf.TensorArray(tf.float32, size=5).unstack(x)

        def loop_fn(time, cell_output, cell_state, loop_state):
            state = cell.zero_state(3, tf.float32) if cell_output is None else cell_state
            finished = time >= lengths
            nxt = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([3, 2]), lambda: inputs_ta.read(time))
            return finished, nxt, state, cell_output, None
        emit_ta, state, loop_state = tf.nn.raw_rnn(cell, loop_fn)
        assert loop_state is None
        assert [v.name for v in tf.trainable_variables()] == ["rnn/basic_lstm_cell/kernel:0",
                                                              "rnn/basic_lstm_cell/bias:0"]
        out = emit_ta.stack()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            o, s, ro, rs = sess.run([out, state, ref_out, ref_state])
    np.testing.assert_allclose(o, ro, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s.c, rs.c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s.h, rs.h, rtol=1e-5, atol=1e-6)
