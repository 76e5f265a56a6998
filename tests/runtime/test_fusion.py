"""Plan-level fusions (runtime/fusion.py) must give bit-identical values to the unfused ops.

Fetching an intermediate keeps it from being fused, so each test compares a plan that fuses with
one that cannot, on the same graph and inputs."""

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tensorweave as tf


def _bits(a):
    a = np.asarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("padding,strides,k", [("SAME", 1, 5), ("VALID", 2, 3), ("SAME", 1, 1)])
def test_conv_bias_relu_fused_equals_unfused(dtype, padding, strides, k):
    rng = np.random.RandomState(0)
    xv = rng.randn(3, 9, 9, 4).astype(dtype)
    xv[0, 0, 0, 0] = np.nan
    xv[1, 2, 3, 1] = -0.0
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(dtype, [None, 9, 9, 4])
        sess_consts = rng.randn(k, k, 4, 6).astype(dtype), rng.randn(6).astype(dtype)
        w = tf.constant(sess_consts[0])
        b = tf.constant(sess_consts[1])
        conv = tf.nn.conv2d(x, w, [1, strides, strides, 1], padding)
        pre = tf.nn.bias_add(conv, b)
        y = tf.nn.relu(pre)
        conv2 = tf.nn.conv2d(x, w, [1, strides, strides, 1], padding)
        z2 = tf.nn.bias_add(conv2, b) * 1.0
    with tf.Session(graph=g) as sess:
        fused = sess.run(y, {x: xv})
        fused_z2 = sess.run(z2, {x: xv})
        unfused, _ = sess.run([y, pre], {x: xv})      # pre fetched: nothing fused
        unfused_z2, _ = sess.run([z2, conv2], {x: xv})
    assert fused.dtype == dtype
    np.testing.assert_array_equal(_bits(fused), _bits(unfused))
    np.testing.assert_array_equal(_bits(fused_z2), _bits(unfused_z2))
    # against NumPy: conv by a direct loop, then bias and ReLU
    pad = (k - 1) // 2 if padding == "SAME" else 0
    xp = np.pad(xv, ((0, 0), (pad, k - 1 - pad), (pad, k - 1 - pad), (0, 0))) if padding == "SAME" else xv
    wv, bv = sess_consts
    oh = unfused.shape[1]
    direct = np.zeros(unfused.shape, np.float64)
    for i in range(oh):
        for j in range(oh):
            patch = xp[:, i * strides:i * strides + k, j * strides:j * strides + k, :]
            direct[:, i, j, :] = np.tensordot(patch.astype(np.float64), wv, axes=3)
    direct = np.maximum(direct + bv, 0)
    np.testing.assert_allclose(fused, direct, rtol=1e-4, atol=1e-4)


def test_relu_maxpool_grad_rewrite_bitwise_with_ties_nan_inf():
    rng = np.random.RandomState(1)
    xv = rng.randn(2, 8, 8, 3).astype(np.float32)
    xv[0, :2, :2, 0] = -1.0          # a window that is all zero after the ReLU (tie at 0)
    xv[0, 2, 2, 1] = np.nan
    xv[1, 4:6, 4:6, 2] = 0.5         # a tie above zero
    gv = rng.randn(2, 4, 4, 3).astype(np.float32)
    gv[0, 0, 0, 0] = np.inf          # inf * 0 -> NaN on either side
    gv[1, 1, 1, 1] = -np.inf
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 8, 8, 3])
        up = tf.placeholder(tf.float32, [2, 4, 4, 3])
        r = tf.nn.relu(x)
        p = tf.nn.max_pool(r, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        dx = tf.gradients(p, x, grad_ys=up)[0]
        mpg = dx.op.inputs[0]
        assert mpg.op.type == "MaxPoolGrad"
    with tf.Session(graph=g) as sess:
        fused = sess.run(dx, {x: xv, up: gv})
        unfused, mv = sess.run([dx, mpg], {x: xv, up: gv})
    np.testing.assert_array_equal(_bits(fused), _bits(unfused))
    # NumPy reference: the first maximum of each window takes the gradient, masked by x > 0
    ref = np.zeros_like(xv)
    rv = np.maximum(xv, 0)
    for n in range(2):
        for i in range(4):
            for j in range(4):
                for c in range(3):
                    win = rv[n, 2 * i:2 * i + 2, 2 * j:2 * j + 2, c].reshape(-1)
                    pmax = np.max(win)
                    hits = np.flatnonzero(win == pmax)
                    if hits.size:   # (windows do not overlap: one store per window)
                        a, b = divmod(hits[0], 2)
                        ref[n, 2 * i + a, 2 * j + b, c] = gv[n, i, j, c] * np.float32(rv[n, 2 * i + a, 2 * j + b, c] > 0)
    np.testing.assert_array_equal(_bits(fused), _bits(ref))


def test_lenet_step_same_with_fusion():
    """A whole training step: the trained weights are bit-identical whether the conv chains are
    fused or not (fetching the intermediates turns the fusions off)."""
    from tensorweave.models import convnets
    rng = np.random.RandomState(0)
    xv = rng.rand(4, 12, 12, 1).astype(np.float32)
    yv = rng.randint(0, 10, size=4).astype(np.int64)
    results = []
    for fetch_intermediates in (False, True):
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(0)
            x = tf.placeholder(tf.float32, [4, 12, 12, 1])
            y = tf.placeholder(tf.int64, [4])
            loss, train_op = convnets.train_op(tf, convnets.lenet(tf, x), y, learning_rate=0.1)
            extra = [op.outputs[0] for op in g.get_operations()
                     if op.type in ("BiasAdd", "MaxPoolGrad")] if fetch_intermediates else []
            init = tf.global_variables_initializer()
        with tf.Session(graph=g) as sess:
            sess.run(init)
            for _ in range(3):
                sess.run([train_op] + extra, {x: xv, y: yv})
            results.append(sess.run(g.get_collection("trainable_variables")))
    for a, b in zip(*results):
        np.testing.assert_array_equal(_bits(a), _bits(b))


def _gate_graph(rows, units):
    """An LSTM cell's gate non-linearities: split, sigmoid(i), tanh(j), sigmoid(f + 1), sigmoid(o),
    then new_c and new_h as BasicLSTMCell makes them."""
    z = tf.placeholder(tf.float32, [rows, 4 * units])
    c = tf.placeholder(tf.float32, [rows, units])
    i, j, f, o = tf.split(z, 4, axis=1)
    gates = [tf.sigmoid(f + 1.0), tf.sigmoid(i), tf.tanh(j)]
    new_c = c * gates[0] + gates[1] * gates[2]
    gates += [tf.tanh(new_c), tf.sigmoid(o)]
    return z, c, gates, new_c * 0 + tf.tanh(new_c) * gates[4]


@pytest.mark.parametrize("rows,units", [(20, 200), (3, 5), (1, 8)])
def test_sibling_sigmoids_run_as_one_call_bit_for_bit(rows, units):
    """Sibling Sigmoids (and Tanhs) whose inputs are ready together run as one grouped call
    (plan._group_siblings); every value is bit-equal to the op run alone: the traced plan, which
    does not group, and eigen_math on each slice. Special values cover the exact kernels' fixups;
    (3, 5) gives gates of 15 values, not whole packets, which must run one by one."""
    from tensorweave.kernels.cpu import eigen_math
    rng = np.random.RandomState(1)
    zv = (rng.randn(rows, 4 * units) * 6).astype(np.float32)
    zv.flat[:6] = [np.nan, np.inf, -np.inf, -120.0, 1e-40, -0.0]
    cv = rng.randn(rows, units).astype(np.float32)
    with tf.Graph().as_default():
        z, c, gates, h = _gate_graph(rows, units)
        with tf.Session() as sess:
            grouped = sess.run(gates + [h], {z: zv, c: cv})
            source = next(iter(sess._cache.values())).plan.source
            traced = sess.run(gates + [h], {z: zv, c: cv}, options=tf.RunOptions(
                trace_level=tf.RunOptions.FULL_TRACE), run_metadata=tf.RunMetadata())
    if units * rows % 8 == 0:
        assert re.search(r"v\d+_0, v\d+_0, v\d+_0, = k\d+\(", source)    # the three sigmoids
    for a, b in zip(grouped, traced):
        np.testing.assert_array_equal(_bits(a), _bits(b))
    i, j, f, o = np.split(zv, 4, axis=1)
    np.testing.assert_array_equal(_bits(grouped[0]), _bits(eigen_math.sigmoid(f + np.float32(1))))
    np.testing.assert_array_equal(_bits(grouped[1]), _bits(eigen_math.sigmoid(i)))
    np.testing.assert_array_equal(_bits(grouped[4]), _bits(eigen_math.sigmoid(o)))
    np.testing.assert_array_equal(_bits(grouped[2]), _bits(eigen_math.tanh(j)))


def test_sibling_group_takes_only_calls_whose_intervals_meet():
    """A call may move between the line making its input and the first line reading its output:
    sigmoid(s0) and sigmoid(s2) group, sigmoid(s1 * a) cannot join them (its input needs a)."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 24])
        s0, s1, s2 = tf.split(x, 3, axis=1)
        a = tf.sigmoid(s0)
        b = tf.sigmoid(s1 * a)
        c = tf.sigmoid(s2)
        with tf.Session() as sess:
            xv = np.linspace(-3, 3, 96, dtype=np.float32).reshape(4, 24)
            got = sess.run([a, b, c], {x: xv})
            source = next(iter(sess._cache.values())).plan.source
    assert len(re.findall(r"= k\d+\(", source)) == 4       # split, {a, c}, the Mul, b
    assert re.search(r"v\d+_0, v\d+_0, = k\d+\(v\d+_0, v\d+_2\)", source)
    sig = lambda t: 1 / (1 + np.exp(-t.astype(np.float64)))
    np.testing.assert_allclose(got[0], sig(xv[:, :8]), rtol=1e-6)
    np.testing.assert_allclose(got[1], sig(xv[:, 8:16] * got[0]), rtol=1e-6)
    np.testing.assert_allclose(got[2], sig(xv[:, 16:]), rtol=1e-6)


def test_sibling_calls_do_not_cross_a_stateful_op():
    """Two sigmoids of one value, with an assign_add between them in the plan (it reads the
    first), stay apart: the second sees the variable after the update, as it would alone."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 8])
        v = tf.Variable(tf.zeros([2, 8]))
        a = tf.sigmoid(x)
        up = tf.assign_add(v, a)
        with tf.control_dependencies([up]):
            r = tf.identity(v.read_value())
        b = tf.sigmoid(r)
        c = tf.sigmoid(x + 1.0)
        with tf.Session() as sess:
            sess.run(v.initializer)
            xv = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
            got = sess.run([a, b, c], {x: xv})
    sig = lambda t: 1 / (1 + np.exp(-t.astype(np.float64)))
    np.testing.assert_allclose(got[0], sig(xv), rtol=1e-6)
    np.testing.assert_allclose(got[1], sig(sig(xv)), rtol=1e-6)
    np.testing.assert_allclose(got[2], sig(xv + 1), rtol=1e-6)


def test_sibling_chain_is_not_grouped_with_itself():
    """tanh(tanh(x)) beside tanh(x + 1): the inner tanh and tanh(x + 1) may group, the outer one
    reads the inner one's output, so it runs after (found by test_partition's random graphs)."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3, 3])
        a = tf.tanh(x)
        b = tf.tanh(a)
        c = tf.tanh(x + 1.0)
        d = tf.tanh(b)
        with tf.Session() as sess:
            xv = np.linspace(-2, 2, 9, dtype=np.float32).reshape(3, 3)
            got = sess.run([a, b, c, d], {x: xv})
    want = [np.tanh(xv), np.tanh(np.tanh(xv)), np.tanh(xv + 1), np.tanh(np.tanh(np.tanh(xv)))]
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6)


@st.composite
def _elementwise_graphs(draw):
    """Random DAGs of sigmoid / tanh / add / mul / split over [4, 8] values."""
    n = draw(st.integers(2, 14))
    return [(draw(st.sampled_from("sstam/")), draw(st.integers(-1, i - 1)), draw(st.integers(-1, i - 1)))
            for i in range(n)], draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4, unique=True))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_elementwise_graphs())
def test_sibling_grouping_on_random_graphs_matches_ungrouped_plan(spec):
    ops, fetch = spec
    xv = np.linspace(-3, 3, 32, dtype=np.float32).reshape(4, 8)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 8])
        vals = []
        for kind, a, b in ops:
            pa, pb = (vals[a] if a >= 0 else x), (vals[b] if b >= 0 else x)
            if kind == "s":
                vals.append(tf.sigmoid(pa))
            elif kind == "t":
                vals.append(tf.tanh(pa))
            elif kind == "a":
                vals.append(pa + pb)
            elif kind == "m":
                vals.append(pa * pb * 0.5)
            else:
                vals.append(tf.concat(tf.split(pa, 2, axis=1)[::-1], axis=1))
        fetches = [vals[i] for i in fetch]
        with tf.Session() as sess:
            grouped = sess.run(fetches, {x: xv})
            plain = sess.run(fetches, {x: xv}, options=tf.RunOptions(
                trace_level=tf.RunOptions.FULL_TRACE), run_metadata=tf.RunMetadata())
    for g, p in zip(grouped, plain):
        np.testing.assert_array_equal(_bits(g), _bits(p))


def test_sigmoid_group_waits_for_a_tanh_group_it_reads():
    """tanh(x) joins a tanh group placed later than tanh(x) stood (beside tanh(y), y made later);
    sigmoid(tanh(x)) must then group after that, not where tanh(x) used to be."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 8])
        t1 = tf.tanh(x)
        s1 = tf.sigmoid(x * 3.0)
        y = x * 2.0
        t2 = tf.tanh(y)
        s2 = tf.sigmoid(t1)
        with tf.Session() as sess:
            xv = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
            got = sess.run([t1, s1, t2, s2], {x: xv})
    sig = lambda t: 1 / (1 + np.exp(-t.astype(np.float64)))
    for g, w in zip(got, [np.tanh(xv), sig(3 * xv), np.tanh(2 * xv), sig(np.tanh(xv))]):
        np.testing.assert_allclose(g, w, rtol=1e-6)
