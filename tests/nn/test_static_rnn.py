"""tf.nn.static_rnn and static_bidirectional_rnn: unrolled values against NumPy, sequence_length,
gradients by finite differences (through the shared-weight gradient that fuses the per-step
kernel products), TF's errors and names (recorded from real TensorFlow 2.21 compat.v1)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients

R = tf.nn.rnn_cell
rng = np.random.RandomState(1)


def sig(x):
    return 1 / (1 + np.exp(-x))


def _fixed(weights):
    def getter(getter, name, *args, **kwargs):
        for suffix, value in weights.items():
            if name.endswith(suffix):
                return value if isinstance(value, tf.Tensor) else tf.constant(value)
        raise KeyError(name)
    return getter


def _lstm_numpy(xs, k, b, c, h, seq_len=None):
    outs = []
    for t, x in enumerate(xs):
        z = np.concatenate([x, h], 1) @ k + b
        i, j, f, o = np.split(z, 4, axis=1)
        c2 = c * sig(f + 1.0) + sig(i) * np.tanh(j)
        h2 = np.tanh(c2) * sig(o)
        if seq_len is not None:
            done = (t >= seq_len)[:, None]
            c2, h2, out = np.where(done, c, c2), np.where(done, h, h2), np.where(done, 0, h2)
        else:
            out = h2
        c, h = c2, h2
        outs.append(out)
    return outs, c, h


@pytest.mark.parametrize("with_lengths", [False, True])
def test_lstm_unroll_vs_numpy(with_lengths):
    B, N, H, T = 3, 2, 4, 5
    xs = [rng.standard_normal((B, N)) for _ in range(T)]
    k, b = rng.standard_normal((N + H, 4 * H)) * 0.5, rng.standard_normal(4 * H) * 0.1
    c0, h0 = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    lengths = np.array([5, 2, 0]) if with_lengths else None
    with tf.variable_scope("v", custom_getter=_fixed({"kernel": k, "bias": b})):
        outs, st = tf.nn.static_rnn(R.BasicLSTMCell(H), [tf.constant(x) for x in xs],
                                    initial_state=R.LSTMStateTuple(tf.constant(c0), tf.constant(h0)),
                                    sequence_length=None if lengths is None else tf.constant(lengths))
    with tf.Session() as sess:
        got, got_st = sess.run([outs, st])
    want, c, h = _lstm_numpy(xs, k, b, c0, h0, lengths)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(got_st.c, c, rtol=1e-10)
    np.testing.assert_allclose(got_st.h, h, rtol=1e-10)


def _unroll_builder(make_cell, suffixes, T, with_state=False):
    def build(x, *ws):
        weights = dict(zip(suffixes, ws))
        with tf.variable_scope("v", custom_getter=_fixed(weights)):
            cell = make_cell()
            outs, st = tf.nn.static_rnn(cell, tf.unstack(x, num=T, axis=1), dtype=tf.float64)
        flat = outs + (list(st) if with_state and isinstance(st, tuple) else [])
        return tf.concat([tf.reshape(o, [-1]) for o in flat], 0)
    return build


@pytest.mark.parametrize("kind", ["basic_lstm", "gru", "basic_rnn", "lstm_peephole_proj", "multi"])
def test_gradients_finite_differences(kind):
    B, N, H, T = 2, 3, 3, 4
    makers = {
        "basic_lstm": (lambda: R.BasicLSTMCell(H), {"kernel": (N + H, 4 * H), "bias": (4 * H,)}),
        "gru": (lambda: R.GRUCell(H), {"gates/kernel": (N + H, 2 * H), "gates/bias": (2 * H,),
                                       "candidate/kernel": (N + H, H), "candidate/bias": (H,)}),
        "basic_rnn": (lambda: R.BasicRNNCell(H), {"kernel": (N + H, H), "bias": (H,)}),
        "lstm_peephole_proj": (lambda: R.LSTMCell(H, use_peepholes=True, num_proj=2),
                               {"lstm_cell/kernel": (N + 2, 4 * H), "lstm_cell/bias": (4 * H,),
                                "w_f_diag": (H,), "w_i_diag": (H,), "w_o_diag": (H,),
                                "projection/kernel": (H, 2)}),
        "multi": (lambda: R.MultiRNNCell([R.BasicLSTMCell(H), R.BasicLSTMCell(H)]),
                  {"cell_0/basic_lstm_cell/kernel": (N + H, 4 * H), "cell_0/basic_lstm_cell/bias": (4 * H,),
                   "cell_1/basic_lstm_cell/kernel": (2 * H, 4 * H), "cell_1/basic_lstm_cell/bias": (4 * H,)}),
    }
    make, shapes = makers[kind]
    inputs = [rng.standard_normal((B, T, N))] + [rng.standard_normal(s) * 0.5 for s in shapes.values()]
    check_gradients(_unroll_builder(make, list(shapes), T, with_state=True), inputs, tol=1e-6)


def test_kernel_gradient_is_one_fused_matmul():
    # (per-step products past the exact path's size: 64 x 96 by 64 x 256 multiply-adds each)
    T, B, D, H = 6, 64, 32, 64
    xs = [tf.placeholder(tf.float32, [B, D]) for _ in range(T)]
    outs, _ = tf.nn.static_rnn(R.BasicLSTMCell(H), xs, dtype=tf.float32)
    kernel = [v for v in tf.trainable_variables() if v.name.endswith("kernel:0")][0]
    g = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), kernel)[0]
    assert g.op.type == "MatMul" and g.op.get_attr("transpose_a")
    assert [i.op.type for i in g.op.inputs] == ["ConcatV2", "ConcatV2"]
    assert g.op.inputs[0].shape.as_list() == [B * T, D + H]
    # the value equals the sum of the per-step products (compare with unfused autodiff of a copy)
    feed = {x: np.random.RandomState(i).standard_normal((B, D)).astype(np.float32) for i, x in enumerate(xs)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        fused = sess.run(g, feed)
        kv, bv = sess.run(tf.trainable_variables())
    tf.reset_default_graph()
    xs2 = [tf.placeholder(tf.float32, [B, D]) for _ in range(T)]
    kc, bc = tf.constant(kv), tf.constant(bv)
    h = c = tf.zeros([B, H])
    total = 0
    for x in xs2:
        z = tf.matmul(tf.concat([x, h], 1), kc) + bc
        i, j, f, o = tf.split(z, 4, axis=1)
        c = c * tf.sigmoid(f + 1.0) + tf.sigmoid(i) * tf.tanh(j)
        h = tf.tanh(c) * tf.sigmoid(o)
        total += tf.reduce_sum(h)
    with tf.Session() as sess:
        plain = sess.run(tf.gradients(total, kc)[0], {a: feed[b] for a, b in zip(xs2, xs)})
    np.testing.assert_allclose(fused, plain, rtol=1e-4, atol=1e-4)


def test_small_kernel_gradient_is_tfs_addn_of_step_products():
    # small products keep TF's graph, an AddN of one MatMul per step (so TF's float32 bits)
    T = 6
    xs = [tf.placeholder(tf.float32, [4, 3]) for _ in range(T)]
    outs, _ = tf.nn.static_rnn(R.BasicLSTMCell(5), xs, dtype=tf.float32)
    kernel = [v for v in tf.trainable_variables() if v.name.endswith("kernel:0")][0]
    g = tf.gradients(tf.add_n([tf.reduce_sum(o) for o in outs]), kernel)[0]
    assert g.op.type == "AddN" and len(g.op.inputs) == T
    assert {i.op.type for i in g.op.inputs} == {"MatMul"}


def test_unknown_batch_size_and_scope():
    xs = [tf.placeholder(tf.float32, [None, 3]) for _ in range(3)]
    outs, st = tf.nn.static_rnn(R.GRUCell(2), xs, dtype=tf.float32, scope="enc")
    assert outs[0].shape.as_list() == [None, 2]
    assert [v.name for v in tf.global_variables()][0] == "enc/gru_cell/gates/kernel:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(outs, {x: np.ones((7, 3), np.float32) for x in xs})
    assert got[2].shape == (7, 2)


def test_errors_match_tf():
    x = tf.placeholder(tf.float32, [2, 3])
    cell = R.BasicRNNCell(3)
    with pytest.raises(TypeError, match="must be a sequence"):
        tf.nn.static_rnn(cell, x, dtype=tf.float32)
    with pytest.raises(ValueError, match="must not be empty"):
        tf.nn.static_rnn(cell, [], dtype=tf.float32)
    with pytest.raises(ValueError, match="dtype` must be specified"):
        tf.nn.static_rnn(cell, [x])
    with pytest.raises(ValueError, match="Input size"):
        tf.nn.static_rnn(cell, [tf.placeholder(tf.float32, [2, None])], dtype=tf.float32)
    with pytest.raises(TypeError, match="not an RNNCell"):
        tf.nn.static_rnn(object(), [x], dtype=tf.float32)


def test_static_bidirectional_rnn():
    x = tf.placeholder(tf.float32, [2, 3])
    y = tf.placeholder(tf.float32, [2, 3])
    outs, fw, bw = tf.nn.static_bidirectional_rnn(R.BasicRNNCell(2), R.BasicRNNCell(2), [x, y], dtype=tf.float32)
    # Recorded from TF
    assert [t.name for t in outs] == ["concat:0", "concat_1:0"]
    assert bw.name == "bidirectional_rnn/bw/bw/basic_rnn_cell/Tanh_1:0"
    assert [v.name for v in tf.global_variables()] == [
        "bidirectional_rnn/fw/basic_rnn_cell/kernel:0", "bidirectional_rnn/fw/basic_rnn_cell/bias:0",
        "bidirectional_rnn/bw/basic_rnn_cell/kernel:0", "bidirectional_rnn/bw/basic_rnn_cell/bias:0"]
    assert outs[0].shape.as_list() == [2, 4]
    feed = {x: np.ones((2, 3), np.float32), y: -np.ones((2, 3), np.float32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        o, f, b = sess.run([outs, fw, bw], feed)
    np.testing.assert_allclose(o[1][:, :2], f)           # forward half of the last step = fw state
    np.testing.assert_allclose(o[0][:, 2:], b)           # backward half of the first step = bw state


def test_static_bidirectional_rnn_sequence_length_matches_truncated_runs():
    """Each example's outputs equal a run over only its first lengths[b] steps; later steps give
    zeros (values checked against real TF 2.21 to 1e-7 in the diff harness)."""
    import numpy as np
    rng = np.random.RandomState(0)
    xs_np = [rng.randn(3, 2).astype(np.float32) for _ in range(4)]
    lengths = [4, 2, 1]
    with tf.Graph().as_default():
        init = tf.random_uniform_initializer(-0.5, 0.5, seed=1)
        xs = [tf.constant(x) for x in xs_np]
        with tf.variable_scope("m", initializer=init):
            fw, bw = tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.BasicRNNCell(2)
            outs, sf, sb = tf.nn.static_bidirectional_rnn(fw, bw, xs, dtype=tf.float32, sequence_length=lengths)
        assert [o.shape.as_list() for o in outs] == [[3, 5]] * 4
        singles = []
        for b, n in enumerate(lengths):
            with tf.variable_scope("m", reuse=True):
                singles.append(tf.nn.static_bidirectional_rnn(fw, bw, [x[b:b + 1] for x in xs[:n]],
                                                              dtype=tf.float32))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            full, single = sess.run([(outs, sf, sb), singles])
        for b, n in enumerate(lengths):
            s_outs, s_fw, s_bw = single[b]
            for t in range(4):
                want = s_outs[t][0] if t < n else np.zeros(5, np.float32)
                np.testing.assert_allclose(full[0][t][b], want, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(full[1][b], s_fw[0], rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(full[2][b], s_bw[0], rtol=1e-5, atol=1e-6)
