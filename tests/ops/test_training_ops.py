"""The optimizer update ops (tensorweave.ops.training_ops): kernels against NumPy references, in-place
updates, sparse rows, shape/dtype checks and TF's messages.

Expected messages and names were recorded from real TensorFlow (tf.compat.v1, gen_training_ops)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import errors
from tensorweave.ops import training_ops as to

RNG = np.random.RandomState(0)


def _var(value, name):
    return tf.Variable(np.asarray(value), name=name)


def _cell(sess, var):
    return sess._resources.lookup("variable", var.op.name)


def _rand(shape, dtype, positive=False):
    x = RNG.randn(*shape).astype(dtype)
    return np.abs(x) + 0.5 if positive else x


# -- NumPy references (TF's formulas) ----------------------------------------------------------

def ref_momentum(var, accum, lr, g, mom, nesterov):
    accum = accum * mom + g
    var = var - (g * lr + accum * mom * lr if nesterov else accum * lr)
    return var, accum


def ref_adagrad(var, accum, lr, g):
    accum = accum + g * g
    return var - lr * g / np.sqrt(accum), accum


def ref_rmsprop(var, ms, mom, lr, rho, momentum, eps, g):
    ms = ms + (g * g - ms) * (1 - rho)
    mom = mom * momentum + lr * g / np.sqrt(ms + eps)
    return var - mom, ms, mom


def ref_centered(var, mg, ms, mom, lr, rho, momentum, eps, g):
    ms = ms + (g * g - ms) * (1 - rho)
    mg = mg + (g - mg) * (1 - rho)
    mom = mom * momentum + lr * g / np.sqrt(ms - mg * mg + eps)
    return var - mom, mg, ms, mom


def ref_adam(var, m, v, b1p, b2p, lr, b1, b2, eps, g, nesterov=False):
    alpha = lr * np.sqrt(1 - b2p) / (1 - b1p)
    m = m + (g - m) * (1 - b1)
    v = v + (g * g - v) * (1 - b2)
    if nesterov:
        var = var - (g * (1 - b1) + b1 * m) * alpha / (np.sqrt(v) + eps)
    else:
        var = var - m * alpha / (np.sqrt(v) + eps)
    return var, m, v


def ref_adadelta(var, accum, accum_update, lr, rho, eps, g):
    accum = accum * rho + g * g * (1 - rho)
    update = np.sqrt(accum_update + eps) / np.sqrt(accum + eps) * g
    var = var - update * lr
    accum_update = accum_update * rho + update * update * (1 - rho)
    return var, accum, accum_update


def _tol(dtype):
    return dict(rtol=2e-6, atol=2e-7) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-14)


# -- dense ops ---------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_apply_gradient_descent_in_place(dtype):
    w0 = _rand((3, 4), dtype)
    g = _rand((3, 4), dtype)
    w = _var(w0, "w")
    up = to.apply_gradient_descent(w, dtype(0.1), g)
    assert up.name == "ApplyGradientDescent:0"
    assert up.dtype == tf.as_dtype(dtype)._as_ref
    assert up.shape.as_list() == [3, 4]
    assert up.op.get_attr("use_locking") is False
    with tf.Session() as sess:
        sess.run(w.initializer)
        cell = _cell(sess, w)
        arr, ptr = cell.value, cell.value.__array_interface__["data"][0]
        expected = w0.copy()
        for _ in range(3):
            out = sess.run(up)
            expected = expected - dtype(0.1) * g
            np.testing.assert_allclose(out, expected, **_tol(dtype))
            assert out.dtype == dtype
        assert cell.value is arr and cell.value.__array_interface__["data"][0] == ptr
        # The fetched value is a copy the user owns.
        out[...] = 0
        assert np.all(sess.run(w) != 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("nesterov", [False, True])
def test_apply_momentum(dtype, nesterov):
    w0, g = _rand((5,), dtype), _rand((5,), dtype)
    w, a = _var(w0, "w"), _var(np.zeros(5, dtype), "a")
    up = to.apply_momentum(w, a, 0.05, g, 0.9, use_nesterov=nesterov)
    assert up.op.get_attr("use_nesterov") is nesterov
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ev, ea = w0, np.zeros(5, dtype)
        for _ in range(4):
            sess.run(up)
            ev, ea = ref_momentum(ev, ea, dtype(0.05), g, dtype(0.9), nesterov)
        np.testing.assert_allclose(sess.run(w), ev, **_tol(dtype))
        np.testing.assert_allclose(sess.run(a), ea, **_tol(dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_apply_adagrad_rmsprop_centered_adam_adadelta(dtype):
    shape = (2, 3)
    w0, g = _rand(shape, dtype), _rand(shape, dtype)
    one = np.ones(shape, dtype)
    zero = np.zeros(shape, dtype)
    vs = {n: _var(v, n) for n, v in [("w1", w0), ("acc", one * 0.1), ("w2", w0), ("ms", one), ("mom", zero),
                                       ("w3", w0), ("mg", zero), ("ms3", one), ("mom3", zero),
                                       ("w4", w0), ("m", zero), ("v", zero), ("w5", w0), ("ad_a", zero),
                                       ("ad_u", zero)]}
    ups = [to.apply_adagrad(vs["w1"], vs["acc"], 0.1, g),
           to.apply_rms_prop(vs["w2"], vs["ms"], vs["mom"], 0.01, 0.9, 0.5, 1e-10, g),
           to.apply_centered_rms_prop(vs["w3"], vs["mg"], vs["ms3"], vs["mom3"], 0.01, 0.9, 0.5, 1e-10, g),
           to.apply_adam(vs["w4"], vs["m"], vs["v"], 0.9 ** 2, 0.999 ** 2, 0.1, 0.9, 0.999, 1e-8, g),
           to.apply_adadelta(vs["w5"], vs["ad_a"], vs["ad_u"], 1.0, 0.95, 1e-6, g)]
    assert [u.op.name for u in ups] == ["ApplyAdagrad", "ApplyRMSProp", "ApplyCenteredRMSProp", "ApplyAdam",
                                        "ApplyAdadelta"]
    assert ups[0].op.get_attr("update_slots") is True
    d = dtype
    exp = {"ada": (w0, one * d(0.1)), "rms": (w0, one, zero), "cen": (w0, zero, one, zero),
           "adam": (w0, zero, zero), "delta": (w0, zero, zero)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(ups)
            exp["ada"] = ref_adagrad(*exp["ada"], d(0.1), g)
            exp["rms"] = ref_rmsprop(*exp["rms"], d(0.01), d(0.9), d(0.5), d(1e-10), g)
            exp["cen"] = ref_centered(*exp["cen"], d(0.01), d(0.9), d(0.5), d(1e-10), g)
            exp["adam"] = ref_adam(*exp["adam"], d(0.81), d(0.999 ** 2), d(0.1), d(0.9), d(0.999), d(1e-8), g)
            exp["delta"] = ref_adadelta(*exp["delta"], d(1.0), d(0.95), d(1e-6), g)
        tol = dict(rtol=1e-5, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-11, atol=1e-13)
        got = sess.run([vs[n] for n in ("w1", "acc", "w2", "ms", "mom", "w3", "mg", "ms3", "mom3", "w4", "m",
                                         "v", "w5", "ad_a", "ad_u")])
        want = list(exp["ada"]) + list(exp["rms"]) + list(exp["cen"]) + list(exp["adam"]) + list(exp["delta"])
        for a, b in zip(got, want):
            assert a.dtype == dtype
            np.testing.assert_allclose(a, b, **tol)


def test_apply_adam_nesterov():
    g = np.array([0.5, -1.0, 2.0], np.float32)
    w, m, v = _var(np.ones(3, np.float32), "w"), _var(np.zeros(3, np.float32), "m"), _var(np.zeros(3, np.float32), "v")
    up = to.apply_adam(w, m, v, 0.9, 0.999, 0.1, 0.9, 0.999, 1e-8, g, use_nesterov=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(up)
        want = ref_adam(np.ones(3, np.float32), 0, 0, 0.9, 0.999, 0.1, 0.9, 0.999, 1e-8, g, nesterov=True)[0]
        np.testing.assert_allclose(sess.run(w), want, rtol=1e-6)


def test_use_locking_and_chained_ref_output():
    w = _var(np.array([1.0, 2.0], np.float32), "w")
    up = to.apply_gradient_descent(w, 0.5, [1.0, 1.0], use_locking=True)
    assert up.op.get_attr("use_locking") is True
    # The op's output is the variable's reference: a second update can take it as its var.
    up2 = to.apply_gradient_descent(up, 0.5, [1.0, 1.0])
    total = up2 + 0.0
    with tf.Session() as sess:
        sess.run(w.initializer)
        np.testing.assert_allclose(sess.run(total), [0.0, 1.0])
        np.testing.assert_allclose(sess.run(w), [0.0, 1.0])


# -- sparse ops --------------------------------------------------------------------------------

def test_sparse_apply_momentum_touches_only_rows():
    w0 = np.arange(12, dtype=np.float32).reshape(4, 3)
    w, a = _var(w0, "w"), _var(np.zeros((4, 3), np.float32), "a")
    gp = tf.placeholder(tf.float32, [None, 3])
    ip = tf.placeholder(tf.int32, [None])
    up = to.sparse_apply_momentum(w, a, 0.1, gp, ip, 0.9)
    assert up.name == "SparseApplyMomentum:0" and up.shape.as_list() == [4, 3]
    assert up.op.get_attr("Tindices") == tf.int32
    g = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        cell = _cell(sess, w)
        arr = cell.value
        for _ in range(2):
            sess.run(up, {gp: g, ip: [2, 0]})
        ev, ea = w0.copy(), np.zeros((4, 3), np.float32)
        for _ in range(2):
            ev[[2, 0]], ea[[2, 0]] = ref_momentum(ev[[2, 0]], ea[[2, 0]], np.float32(0.1), g, np.float32(0.9), False)
        np.testing.assert_allclose(sess.run(w), ev, rtol=1e-6)
        np.testing.assert_allclose(sess.run(a), ea, rtol=1e-6)
        assert np.array_equal(sess.run(w)[[1, 3]], w0[[1, 3]])  # bit-identical
        assert np.all(sess.run(a)[[1, 3]] == 0)
        assert cell.value is arr


def test_sparse_duplicate_indices_apply_sequentially_like_tf():
    # TF's sparse kernels apply rows in order: a repeated index sees the first row's update.
    w0 = np.ones((3, 2), np.float64)
    w, acc = _var(w0, "w"), _var(np.full((3, 2), 0.1), "acc")
    g = np.array([[1.0, 2.0], [3.0, -1.0]])
    up = to.sparse_apply_adagrad(w, acc, 0.5, g, [1, 1])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(up)
        ev, ea = w0.copy(), np.full((3, 2), 0.1)
        for row in g:
            ev[1], ea[1] = ref_adagrad(ev[1], ea[1], 0.5, row)
        np.testing.assert_allclose(sess.run(w), ev, rtol=1e-12)
        np.testing.assert_allclose(sess.run(acc), ea, rtol=1e-12)


def test_sparse_rmsprop_variants_and_adadelta_rows():
    w0 = _rand((5, 2), np.float64)
    g = _rand((2, 2), np.float64)
    idx = np.array([4, 1], np.int64)
    names = ["w", "ms", "mom", "w2", "mg", "ms2", "mom2", "w3", "acc", "upd"]
    init = [w0, np.ones((5, 2)), np.zeros((5, 2)), w0, np.zeros((5, 2)), np.ones((5, 2)), np.zeros((5, 2)),
            w0, np.zeros((5, 2)), np.zeros((5, 2))]
    v = {n: _var(x, n) for n, x in zip(names, init)}
    ups = [to.sparse_apply_rms_prop(v["w"], v["ms"], v["mom"], 0.01, 0.9, 0.5, 1e-10, g, idx),
           to.sparse_apply_centered_rms_prop(v["w2"], v["mg"], v["ms2"], v["mom2"], 0.01, 0.9, 0.5, 1e-10, g, idx),
           to.sparse_apply_adadelta(v["w3"], v["acc"], v["upd"], 1.0, 0.95, 1e-6, g, idx)]
    assert ups[0].op.get_attr("Tindices") == tf.int64
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(ups)
        got = dict(zip(names, sess.run([v[n] for n in names])))
    exp = {n: x.copy() for n, x in zip(names, init)}
    r = ref_rmsprop(w0[idx], np.ones((2, 2)), np.zeros((2, 2)), 0.01, 0.9, 0.5, 1e-10, g)
    exp["w"][idx], exp["ms"][idx], exp["mom"][idx] = r
    r = ref_centered(w0[idx], np.zeros((2, 2)), np.ones((2, 2)), np.zeros((2, 2)), 0.01, 0.9, 0.5, 1e-10, g)
    exp["w2"][idx], exp["mg"][idx], exp["ms2"][idx], exp["mom2"][idx] = r
    r = ref_adadelta(w0[idx], np.zeros((2, 2)), np.zeros((2, 2)), 1.0, 0.95, 1e-6, g)
    exp["w3"][idx], exp["acc"][idx], exp["upd"][idx] = r
    for n in names:
        np.testing.assert_allclose(got[n], exp[n], rtol=1e-10, atol=1e-14, err_msg=n)
    for n in ("w", "w2", "w3"):
        assert np.array_equal(got[n][[0, 2, 3]], w0[[0, 2, 3]])


# -- errors (messages recorded from TensorFlow) ------------------------------------------------

def test_uninitialized_variable_is_failed_precondition():
    w = _var(np.array([1.0, 2.0], np.float32), "w")
    up = to.apply_gradient_descent(w, 0.1, [1.0, 2.0])
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError, match="Attempting to use uninitialized value w"):
            sess.run(up)


def test_runtime_errors_leave_state_untouched():
    w = _var(np.array([1.0, 2.0], np.float32), "w")
    m = _var(np.array([0.5, 0.5], np.float32), "m")
    gp = tf.placeholder(tf.float32)
    lp = tf.placeholder(tf.float32)
    ip = tf.placeholder(tf.int32)
    mp = tf.placeholder(tf.float32)
    up = to.apply_gradient_descent(w, 0.1, gp)
    upm = to.apply_momentum(w, m, 0.1, gp, 0.9)
    upa = to.apply_adam(w, m, m, 0.9, 0.9, 0.1, 0.9, 0.999, 1e-8, gp)
    up2 = to.apply_gradient_descent(w, lp, [1.0, 1.0])
    sp = to.sparse_apply_momentum(w, m, 0.1, gp, ip, mp)
    cases = [
        (up, {gp: [1.0, 2.0, 3.0]}, "var and delta do not have the same shape[2] [3]"),
        (upm, {gp: [1.0, 2.0, 3.0]}, "var and grad do not have the same shape[2] [3]"),
        (upa, {gp: [1.0, 2.0, 3.0]}, "var and grad do not have the same shape[2] [3]"),
        (up2, {lp: [0.1, 0.2]}, "alpha is not a scalar: [2]"),
        (sp, {gp: [1.0], ip: [5], mp: 0.9}, "Index 5 at offset 0 in indices is out of range"),
        (sp, {gp: [1.0, 1.0], ip: [0, -1], mp: 0.9}, "Index -1 at offset 1 in indices is out of range"),
        (sp, {gp: [1.0, 2.0], ip: [0], mp: 0.9}, "grad must be the same size as indices in the first dimension."),
        (sp, {gp: [1.0], ip: [[0]], mp: 0.9}, "indices must be one-dimensional"),
        (sp, {gp: [1.0], ip: [0], mp: [1.0, 2.0]}, "momentum is not a scalar: [2]"),
    ]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for fetch, feed, msg in cases:
            with pytest.raises(errors.InvalidArgumentError) as info:
                sess.run(fetch, feed)
            assert msg in str(info.value)
            np.testing.assert_array_equal(sess.run(w), [1.0, 2.0])
            np.testing.assert_array_equal(sess.run(m), [0.5, 0.5])


def test_build_time_shape_and_type_errors():
    w = _var(np.array([1.0, 2.0], np.float32), "w")
    m = _var(np.array([0.0, 0.0], np.float32), "m")
    w3 = _var(np.zeros((3, 2), np.float32), "w3")
    m3 = _var(np.zeros((3, 2), np.float32), "m3")
    with pytest.raises(ValueError, match=r"Dimension 0 in both shapes must be equal, but are 2 and 3\. "
                                         r"Shapes are \[2\] and \[3\]\."):
        to.apply_gradient_descent(w, 0.1, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        to.apply_gradient_descent(w, [0.1, 0.2], [1.0, 2.0])
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 2 and 1"):
        to.apply_adagrad(w3, m, 0.1, tf.zeros([3, 2]))
    with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but are 2 and 3\. "
                                         r"Shapes are \[3,2\] and \[\?,3\]\."):
        to.sparse_apply_momentum(w3, m3, 0.1, tf.zeros([2, 3]), [0, 1], 0.9)
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        to.sparse_apply_momentum(w3, m3, 0.1, tf.zeros([2, 2]), [[0, 1]], 0.9)
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
        to.sparse_apply_momentum(w3, m3, 0.1, tf.zeros([2, 2]), [0, 1, 2], 0.9)
    with pytest.raises(TypeError, match="Value passed to parameter 'indices' has DataType float32 not in list "
                                        "of allowed values: int32, int64"):
        to.sparse_apply_momentum(w3, m3, 0.1, tf.zeros([2, 2]), [0.0, 1.0], 0.9)
    with pytest.raises(TypeError, match="Input 'alpha' of 'ApplyGradientDescent' Op has type float64 that does "
                                        "not match type float32 of argument 'var'."):
        to.apply_gradient_descent(w, tf.constant(0.1, tf.float64), [1.0, 2.0])
    with pytest.raises(TypeError, match="requires that input 'var' be a mutable tensor"):
        to.apply_gradient_descent(tf.constant([1.0, 2.0]), 0.1, [1.0, 2.0])
    # Unknown shapes are accepted; the output keeps the variable's shape.
    out = to.sparse_apply_momentum(w3, m3, 0.1, tf.placeholder(tf.float32), tf.placeholder(tf.int32), 0.9)
    assert out.shape.as_list() == [3, 2]
    # Python values become constants named after the argument, inside the op's scope.
    up = to.apply_gradient_descent(w, 0.1, [1.0, 2.0])
    assert up.op.name == "ApplyGradientDescent_3"  # failed builds used up names, as in TF
    assert [t.name for t in up.op.inputs] == ["w:0", "ApplyGradientDescent_3/alpha:0",
                                             "ApplyGradientDescent_3/delta:0"]


def test_training_ops_are_not_differentiable():
    w = _var(np.array([1.0, 2.0], np.float32), "w")
    up = to.apply_gradient_descent(w, 0.1, [1.0, 2.0])
    assert tf.gradients(up, [w]) == [None]


def test_apply_adam_rounds_as_tf():
    # TF's CPU kernel computes var -= (m * alpha) / (sqrt(v) + eps); dividing first rounds
    # differently in ~2% of float32 entries (checked against TF 2.21's ResourceApplyAdam).
    rng = np.random.RandomState(0)
    var0 = rng.randn(2000).astype(np.float32)
    m0 = (rng.randn(2000) * 0.1).astype(np.float32)
    v0 = (rng.rand(2000) * 0.1).astype(np.float32)
    g = rng.randn(2000).astype(np.float32)
    f = np.float32
    b1p, b2p, lr, b1, b2, eps = f(0.729), f(0.997), f(0.1), f(0.9), f(0.999), f(1e-8)
    var, m, v = tf.Variable(var0), tf.Variable(m0), tf.Variable(v0)
    upd = to.apply_adam(var, m, v, b1p, b2p, lr, b1, b2, eps, g)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(upd)
    one = f(1)
    alpha = lr * np.sqrt(one - b2p) / (one - b1p)
    m1 = m0 + (g - m0) * (one - b1)
    v1 = v0 + (g * g - v0) * (one - b2)
    np.testing.assert_array_equal(got, var0 - (m1 * alpha) / (np.sqrt(v1) + eps))


def test_apply_adagrad_da_zero_accumulator_gives_negative_zero():
    # TF: var = (-lr * sign(g_acc)) * max(|g_acc| - step*l1, 0) / denom, so g_acc == 0 -> -0.0
    # (AdagradDAOptimizer runs recorded from TF 2.21 print -0. for such entries).
    var = tf.Variable([1.0, 2.0, 3.0])
    ga = tf.Variable([0.5, 0.0, -0.5])
    gsa = tf.Variable([1.0, 1.0, 1.0])
    upd = to.apply_adagrad_da(var, ga, gsa, np.float32([0.0, 0.0, 0.0]), np.float32(0.1), np.float32(0.01),
                              np.float32(0.0), np.int64(1))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(upd)
    assert np.signbit(got[1]) and got[1] == 0.0
    np.testing.assert_allclose(got[[0, 2]], [-0.049, 0.049], rtol=1e-6)
