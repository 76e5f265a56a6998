"""RNN cells: one step against hand-written NumPy for given weights, variable and op names
(recorded from real TensorFlow 2.21 compat.v1 with tf-keras), state/output sizes, zero_state,
MultiRNNCell, DropoutWrapper, ResidualWrapper, errors."""

import numpy as np
import pytest

import tensorweave as tf

R = tf.nn.rnn_cell
rng = np.random.RandomState(0)


def sig(x):
    return 1 / (1 + np.exp(-x))


def _fixed(weights):
    """A custom getter returning the given arrays (by variable name suffix) as constants."""
    def getter(getter, name, *args, **kwargs):
        for suffix, value in weights.items():
            if name.endswith(suffix):
                return tf.constant(value)
        raise KeyError(name)
    return getter


def _step(cell, weights, x, state):
    with tf.variable_scope("s", custom_getter=_fixed(weights)):
        out, new_state = cell(tf.constant(x), _const(state))
    with tf.Session() as sess:
        return sess.run([out, new_state])


def _const(s):
    if isinstance(s, tuple):
        return type(s)(*[_const(x) for x in s]) if hasattr(s, "_fields") else tuple(_const(x) for x in s)
    return tf.constant(s)


B, N, H = 3, 4, 5


def test_basic_rnn_cell_vs_numpy():
    x, h = rng.standard_normal((B, N)), rng.standard_normal((B, H))
    k, b = rng.standard_normal((N + H, H)) * 0.5, rng.standard_normal(H)
    out, st = _step(R.BasicRNNCell(H), {"kernel": k, "bias": b}, x, h)
    want = np.tanh(np.concatenate([x, h], 1) @ k + b)
    np.testing.assert_allclose(out, want, rtol=1e-10)
    np.testing.assert_allclose(st, want, rtol=1e-10)


def _lstm_ref(x, c, h, k, b, forget_bias):
    z = np.concatenate([x, h], 1) @ k + b
    i, j, f, o = np.split(z, 4, axis=1)
    c2 = c * sig(f + forget_bias) + sig(i) * np.tanh(j)
    return np.tanh(c2) * sig(o), c2


@pytest.mark.parametrize("forget_bias", [1.0, 0.0])
def test_basic_lstm_cell_vs_numpy(forget_bias):
    x, c, h = rng.standard_normal((B, N)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    k, b = rng.standard_normal((N + H, 4 * H)) * 0.5, rng.standard_normal(4 * H)
    out, st = _step(R.BasicLSTMCell(H, forget_bias=forget_bias), {"kernel": k, "bias": b}, x,
                    R.LSTMStateTuple(c, h))
    h2, c2 = _lstm_ref(x, c, h, k, b, forget_bias)
    assert type(st).__name__ == "LSTMStateTuple"
    np.testing.assert_allclose(out, h2, rtol=1e-10)
    np.testing.assert_allclose(st.c, c2, rtol=1e-10)
    np.testing.assert_allclose(st.h, h2, rtol=1e-10)
    # state_is_tuple=False: the state is [c, h] concatenated
    tf.reset_default_graph()
    out, st = _step(R.BasicLSTMCell(H, forget_bias=forget_bias, state_is_tuple=False),
                    {"kernel": k, "bias": b}, x, np.concatenate([c, h], 1))
    np.testing.assert_allclose(st, np.concatenate([c2, h2], 1), rtol=1e-10)


def test_lstm_cell_peepholes_clip_projection_vs_numpy():
    P = 3
    x, c, m = rng.standard_normal((B, N)), rng.standard_normal((B, H)) * 3, rng.standard_normal((B, P))
    w = {"lstm_cell/kernel": rng.standard_normal((N + P, 4 * H)), "lstm_cell/bias": rng.standard_normal(4 * H),
         "w_f_diag": rng.standard_normal(H), "w_i_diag": rng.standard_normal(H), "w_o_diag": rng.standard_normal(H),
         "projection/kernel": rng.standard_normal((H, P))}
    cell = R.LSTMCell(H, use_peepholes=True, cell_clip=0.7, num_proj=P, proj_clip=0.4, forget_bias=0.5)
    assert cell.state_size == (H, P) and cell.output_size == P
    out, st = _step(cell, w, x, R.LSTMStateTuple(c, m))
    z = np.concatenate([x, m], 1) @ w["lstm_cell/kernel"] + w["lstm_cell/bias"]
    i, j, f, o = np.split(z, 4, axis=1)
    c2 = sig(f + 0.5 + w["w_f_diag"] * c) * c + sig(i + w["w_i_diag"] * c) * np.tanh(j)
    c2 = np.clip(c2, -0.7, 0.7)
    m2 = np.clip((sig(o + w["w_o_diag"] * c2) * np.tanh(c2)) @ w["projection/kernel"], -0.4, 0.4)
    np.testing.assert_allclose(st.c, c2, rtol=1e-10)
    np.testing.assert_allclose(out, m2, rtol=1e-10)


def test_gru_cell_vs_numpy():
    x, h = rng.standard_normal((B, N)), rng.standard_normal((B, H))
    w = {"gates/kernel": rng.standard_normal((N + H, 2 * H)), "gates/bias": rng.standard_normal(2 * H),
         "candidate/kernel": rng.standard_normal((N + H, H)), "candidate/bias": rng.standard_normal(H)}
    out, _ = _step(R.GRUCell(H), w, x, h)
    r, u = np.split(sig(np.concatenate([x, h], 1) @ w["gates/kernel"] + w["gates/bias"]), 2, axis=1)
    cand = np.tanh(np.concatenate([x, r * h], 1) @ w["candidate/kernel"] + w["candidate/bias"])
    np.testing.assert_allclose(out, u * h + (1 - u) * cand, rtol=1e-10)


def test_float32_cells_stay_float32():
    x = tf.placeholder(tf.float32, [2, 3])
    for cell in (R.BasicLSTMCell(4), R.GRUCell(4), R.BasicRNNCell(4), R.LSTMCell(4, num_proj=2)):
        out, st = cell(x, cell.zero_state(2, tf.float32))
        assert out.dtype == tf.float32
        assert all(v.dtype.base_dtype == tf.float32 for v in cell.variables)


# Recorded from TF: tf.nn.static_rnn over 2 steps of [2, 3] inputs
TF_VARIABLES = {
    "basic_lstm": [("rnn/basic_lstm_cell/kernel:0", [7, 16]), ("rnn/basic_lstm_cell/bias:0", [16])],
    "basic_rnn": [("rnn/basic_rnn_cell/kernel:0", [7, 4]), ("rnn/basic_rnn_cell/bias:0", [4])],
    "gru": [("rnn/gru_cell/gates/kernel:0", [7, 8]), ("rnn/gru_cell/gates/bias:0", [8]),
            ("rnn/gru_cell/candidate/kernel:0", [7, 4]), ("rnn/gru_cell/candidate/bias:0", [4])],
    "lstm_proj": [("rnn/lstm_cell/kernel:0", [5, 16]), ("rnn/lstm_cell/bias:0", [16]),
                  ("rnn/lstm_cell/w_f_diag:0", [4]), ("rnn/lstm_cell/w_i_diag:0", [4]),
                  ("rnn/lstm_cell/w_o_diag:0", [4]), ("rnn/lstm_cell/projection/kernel:0", [4, 2])],
    "multi": [("rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel:0", [7, 16]),
              ("rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias:0", [16]),
              ("rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel:0", [8, 16]),
              ("rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias:0", [16])],
}
MAKERS = {
    "basic_lstm": lambda: R.BasicLSTMCell(4),
    "basic_rnn": lambda: R.BasicRNNCell(4),
    "gru": lambda: R.GRUCell(4),
    "lstm_proj": lambda: R.LSTMCell(4, use_peepholes=True, num_proj=2, cell_clip=1.0, proj_clip=0.5),
    "multi": lambda: R.MultiRNNCell([R.BasicLSTMCell(4) for _ in range(2)]),
    "multi_dropout": lambda: R.MultiRNNCell([R.DropoutWrapper(R.BasicLSTMCell(4), output_keep_prob=0.5)
                                             for _ in range(2)]),
}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_variable_names_match_tf(kind):
    cell = MAKERS[kind]()
    xs = [tf.placeholder(tf.float32, [2, 3]) for _ in range(2)]
    tf.nn.static_rnn(cell, xs, dtype=tf.float32)
    got = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
    assert got == TF_VARIABLES["multi" if kind == "multi_dropout" else kind]
    assert sorted(v.name for v in cell.trainable_variables) == sorted(n for n, _ in got)


def test_op_names_match_tf():
    xs = [tf.placeholder(tf.float32, [2, 3]) for _ in range(2)]
    outs, st = tf.nn.static_rnn(R.BasicLSTMCell(4), xs, dtype=tf.float32)
    # Recorded from TF
    assert [o.name for o in outs] == ["rnn/basic_lstm_cell/Mul_2:0", "rnn/basic_lstm_cell/Mul_5:0"]
    assert (st.c.name, st.h.name) == ("rnn/basic_lstm_cell/Add_3:0", "rnn/basic_lstm_cell/Mul_5:0")
    tf.reset_default_graph()
    xs = [tf.placeholder(tf.float32, [2, 3]) for _ in range(2)]
    outs, st = tf.nn.static_rnn(R.GRUCell(4), xs, dtype=tf.float32)
    assert [o.name for o in outs] == ["rnn/gru_cell/add:0", "rnn/gru_cell/add_1:0"]
    tf.reset_default_graph()
    xs = [tf.placeholder(tf.float32, [2, 3]) for _ in range(2)]
    outs, st = tf.nn.static_rnn(MAKERS["multi"](), xs, dtype=tf.float32)
    assert st[1].c.name.endswith("multi_rnn_cell/cell_1/basic_lstm_cell/Add_3:0")
    tf.reset_default_graph()
    xs = [tf.placeholder(tf.float32, [2, 3]) for _ in range(2)]
    outs, st = tf.nn.static_rnn(MAKERS["multi_dropout"](), xs, dtype=tf.float32)
    assert outs[1].name == "rnn/multi_rnn_cell/cell_1_1/dropout/SelectV2:0"


def test_sizes_and_zero_state():
    assert R.BasicLSTMCell(4).state_size == R.LSTMStateTuple(4, 4)
    assert R.BasicLSTMCell(4, state_is_tuple=False).state_size == 8
    assert R.LSTMCell(4, num_proj=2, state_is_tuple=False).state_size == 6
    multi = R.MultiRNNCell([R.BasicLSTMCell(4), R.GRUCell(3)])
    assert multi.state_size == (R.LSTMStateTuple(4, 4), 3) and multi.output_size == 3
    z = R.BasicLSTMCell(4).zero_state(3, tf.float32)
    assert (z.c.name, z.h.name) == ("BasicLSTMCellZeroState/zeros:0", "BasicLSTMCellZeroState/zeros_1:0")
    assert z.c.shape.as_list() == [3, 4]
    z = multi.zero_state(3, tf.float32)
    assert z[0].c.name == "MultiRNNCellZeroState/BasicLSTMCellZeroState/zeros:0"
    assert z[1].name == "MultiRNNCellZeroState/GRUCellZeroState/zeros:0" and z[1].shape.as_list() == [3, 3]
    batch = tf.placeholder(tf.int32, [])
    zs = R.GRUCell(2).zero_state(batch, tf.float64)
    assert zs.dtype == tf.float64 and zs.shape.as_list() == [None, 2]
    with tf.Session() as sess:
        assert sess.run(zs, {batch: 5}).shape == (5, 2)


def test_direct_calls_share_variables():
    x = tf.placeholder(tf.float32, [2, 3])
    cell = R.BasicLSTMCell(4)
    o1, s = cell(x, cell.zero_state(2, tf.float32))
    o2, _ = cell(x, s)
    assert (o1.name, o2.name) == ("basic_lstm_cell/Mul_2:0", "basic_lstm_cell/Mul_5:0")   # recorded from TF
    assert [v.name for v in cell.variables] == ["basic_lstm_cell/kernel:0", "basic_lstm_cell/bias:0"]
    assert len(tf.global_variables()) == 2


def test_dropout_wrapper():
    x = np.ones((200, 50), np.float32)
    inner = R.BasicRNNCell(50)
    cell = R.DropoutWrapper(inner, input_keep_prob=0.5, seed=3)
    out, _ = cell(tf.constant(x), inner.zero_state(200, tf.float32))
    lstm = R.DropoutWrapper(R.BasicLSTMCell(5), state_keep_prob=0.5, seed=1)
    _, st = lstm(tf.constant(x[:, :3]), lstm.zero_state(200, tf.float32))
    # Recorded from TF: only h goes through dropout by default (c is the cell's own Add)
    assert "dropout" in st.h.name and "dropout" not in st.c.name
    same = R.DropoutWrapper(R.BasicRNNCell(3), input_keep_prob=1.0, output_keep_prob=1.0)
    y, _ = same(tf.constant(x[:2, :3]), same.zero_state(2, tf.float32))
    assert "dropout" not in y.name
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        a, b = sess.run(out), sess.run(out)
        assert a.shape == (200, 50) and not np.allclose(a, b)     # a fresh mask each run
    with pytest.raises(ValueError, match="must be between 0 and 1"):
        R.DropoutWrapper(R.BasicRNNCell(3), output_keep_prob=1.5)
    assert R.DropoutWrapper(R.BasicRNNCell(3))._gen_seed("input", 0) is None
    assert R.DropoutWrapper(R.BasicRNNCell(3), seed=5)._gen_seed("input", 0) == \
        int(__import__("hashlib").md5(b"5input_0").hexdigest()[:8], 16) & 0x7FFFFFFF


def test_residual_wrapper_and_errors():
    x = tf.constant(np.ones((2, 3), np.float32))
    cell = R.ResidualWrapper(R.BasicRNNCell(3))
    out, st = cell(x, cell.zero_state(2, tf.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        o, s = sess.run([out, st])
    np.testing.assert_allclose(o, s + 1, rtol=1e-6)
    with pytest.raises(ValueError, match="at least one cell"):
        R.MultiRNNCell([])
    with pytest.raises(TypeError, match="cells must be a list or tuple"):
        R.MultiRNNCell(R.BasicRNNCell(3))
    with pytest.raises(ValueError, match="inputs.shape\\[-1\\] to be known"):
        R.BasicLSTMCell(3)(tf.placeholder(tf.float32, [2, None]), R.BasicLSTMCell(3).zero_state(2, tf.float32))


def test_dropout_wrapper_variational_mask_is_shared_by_steps_and_batch():
    # variational_recurrent=True draws one [1, units] mask at construction: every step and every
    # batch entry drops the same output units, and kept units are scaled by 1 / keep_prob.
    with tf.Graph().as_default():
        x = tf.constant(np.ones((3, 6, 2), np.float32))
        base = tf.nn.rnn_cell.BasicRNNCell(8, activation=tf.identity)
        cell = tf.nn.rnn_cell.DropoutWrapper(base, output_keep_prob=0.5, variational_recurrent=True,
                                             dtype=tf.float32, seed=4)
        ref, _ = tf.nn.dynamic_rnn(base, x, dtype=tf.float32, scope="ref")
        out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope="drop")  # same (built) weights
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            o, r = sess.run([out, ref])
    kept = o[0, 0] != 0
    assert 0 < kept.sum() < 8
    for b in range(3):
        for t in range(6):
            np.testing.assert_array_equal(o[b, t] != 0, kept)
    np.testing.assert_allclose(o[..., kept], r[..., kept] / 0.5, rtol=1e-6)


def test_dropout_wrapper_variational_needs_dtype_and_input_size():
    cell = tf.nn.rnn_cell.BasicRNNCell(3)
    with pytest.raises(ValueError, match="dtype must be provided"):
        tf.nn.rnn_cell.DropoutWrapper(cell, variational_recurrent=True)
    with pytest.raises(ValueError, match="input_size must be provided"):
        tf.nn.rnn_cell.DropoutWrapper(cell, input_keep_prob=0.5, variational_recurrent=True, dtype=tf.float32)



def test_lstm_cell_sharded_weights_equal_unsharded():
    # num_unit_shards / num_proj_shards split kernel and projection/kernel along rows into
    # kernel/part_i (TF's names); loaded with the same values the cell computes the same outputs.
    x_np = np.linspace(-1, 1, 2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    k = np.linspace(-0.3, 0.3, 9 * 20).reshape(9, 20).astype(np.float32)
    p = np.linspace(-0.5, 0.5, 15).reshape(5, 3).astype(np.float32)
    results = []
    for shards in (None, 3):
        with tf.Graph().as_default():
            cell = tf.nn.rnn_cell.LSTMCell(5, num_proj=3, num_unit_shards=shards, num_proj_shards=shards)
            out, _ = tf.nn.dynamic_rnn(cell, tf.constant(x_np), dtype=tf.float32)
            names = [v.name for v in tf.global_variables()]
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for var, full in ((cell._kernel, k), (cell._proj_kernel, p)):
                    start = 0
                    for part in (var if shards else [var]):
                        n = part.shape[0].value
                        part.load(full[start:start + n], sess)
                        start += n
                results.append((names, sess.run(out)))
    assert results[1][0] == ["rnn/lstm_cell/kernel/part_0:0", "rnn/lstm_cell/kernel/part_1:0",
                             "rnn/lstm_cell/kernel/part_2:0", "rnn/lstm_cell/bias:0",
                             "rnn/lstm_cell/projection/kernel/part_0:0", "rnn/lstm_cell/projection/kernel/part_1:0",
                             "rnn/lstm_cell/projection/kernel/part_2:0"]
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6)
