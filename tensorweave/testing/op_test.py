"""The op-test helper: forward value against a NumPy reference, static vs. real shape and dtype,
and gradients against central finite differences in float64.

    def test_tanh():
        check_op(tf.tanh, [x], np.tanh)                # forward, shape, dtype
        check_gradients(tf.tanh, [x.astype(np.float64)])  # d/dx by finite differences

Finite differences: for the scalar L(x) = sum(u * f(x)) with a fixed random u, the analytic
gradient g = dL/dx (tf.gradients with grad_ys=u) must match (L(x + h e_i) - L(x - h e_i)) / 2h for
every element i of small inputs, and along random directions d for large ones
(<g, d> against (L(x + h d) - L(x - h d)) / 2h). The error of central differences is O(h^2),
so h = 1e-5 in float64 leaves ~1e-10 truncation error and ~1e-11 rounding error.
"""

import numpy as np

__all__ = ["check_op", "check_gradients", "gradient_error", "run_op"]

_ELEMENTWISE_LIMIT = 200


def _tf():
    import tensorweave as tf
    return tf


def run_op(build, inputs, feed=True):
    """Builds `build(*tensors)` in a fresh graph over `inputs` and returns (output tensor(s), values)."""
    tf = _tf()
    g = tf.Graph()
    with g.as_default():
        if feed:
            phs = [tf.placeholder(tf.as_dtype(np.asarray(a).dtype), np.shape(a)) for a in inputs]
            fd = dict(zip(phs, inputs))
        else:
            phs = [tf.constant(a) for a in inputs]
            fd = None
        out = build(*phs)
        with tf.Session(graph=g) as sess:
            return out, sess.run(out, fd)


def check_op(build, inputs, expected, rtol=1e-6, atol=1e-6, dtype=None):
    """Asserts `build(*placeholders)` computes `expected(*inputs)` (or the given array), that the
    static shape is compatible with the real one, and that the dtype matches."""
    tf = _tf()
    inputs = [np.asarray(a) for a in inputs]
    out, got = run_op(build, inputs)
    want = expected(*inputs) if callable(expected) else expected
    outs = out if isinstance(out, (list, tuple)) else [out]
    gots = got if isinstance(out, (list, tuple)) else [got]
    wants = want if isinstance(out, (list, tuple)) else [want]
    for t, gv, wv in zip(outs, gots, wants):
        wv = np.asarray(wv)
        gv = np.asarray(gv)
        assert t.shape.is_compatible_with(gv.shape), f"static shape {t.shape} vs. real shape {gv.shape}"
        want_dtype = tf.as_dtype(dtype) if dtype is not None else tf.as_dtype(wv.dtype)
        assert t.dtype.base_dtype == want_dtype or dtype is None and t.dtype.base_dtype.is_compatible_with(
            tf.as_dtype(gv.dtype)), f"dtype {t.dtype} vs. expected {want_dtype}"
        assert gv.dtype == t.dtype.base_dtype.as_numpy_dtype, f"runtime dtype {gv.dtype} vs. {t.dtype}"
        assert gv.shape == wv.shape, f"shape {gv.shape} vs. expected {wv.shape}"
        if gv.dtype.kind in "fc":
            np.testing.assert_allclose(gv, wv, rtol=rtol, atol=atol)
        else:
            np.testing.assert_array_equal(gv, wv)
    return got


def gradient_error(build, inputs, wrt=None, delta=1e-5, seed=0, output_index=None):
    """Max abs difference between analytic and finite-difference gradients of build(*inputs).

    `inputs` are float64 arrays; `wrt` lists the indices of inputs to differentiate (all floats
    by default)."""
    tf = _tf()
    rng = np.random.RandomState(seed)
    inputs = [np.asarray(a) for a in inputs]
    if wrt is None:
        wrt = [i for i, a in enumerate(inputs) if a.dtype.kind == "f"]
    g = tf.Graph()
    with g.as_default():
        phs = [tf.placeholder(tf.as_dtype(a.dtype), a.shape) for a in inputs]
        y = build(*phs)
        if isinstance(y, (list, tuple)):
            y = y[output_index or 0]
        sess = tf.Session(graph=g)
        base = sess.run(y, dict(zip(phs, inputs)))
        u = rng.standard_normal(np.shape(base)).astype(base.dtype)
        u_t = tf.constant(u)
        grads = tf.gradients(y, [phs[i] for i in wrt], grad_ys=u_t)
        for i, gr in zip(wrt, grads):
            if gr is None:
                raise AssertionError(f"gradient with respect to input {i} is None")
        grads = [tf.convert_to_tensor(gr) for gr in grads]
        analytic = sess.run(grads, dict(zip(phs, inputs)))

        def L(vals):
            return float(np.sum(sess.run(y, dict(zip(phs, vals))) * u))

        err = 0.0
        for i, ga in zip(wrt, analytic):
            x = inputs[i]
            if x.size <= _ELEMENTWISE_LIMIT:
                num = np.zeros(x.shape, dtype=np.float64)
                for j in range(x.size):
                    xp, xm = x.copy(), x.copy()
                    xp.flat[j] += delta
                    xm.flat[j] -= delta
                    vp, vm = list(inputs), list(inputs)
                    vp[i], vm[i] = xp, xm
                    num.flat[j] = (L(vp) - L(vm)) / (2 * delta)
                err = max(err, float(np.max(np.abs(num - ga))) if x.size else 0.0)
            else:
                for _ in range(3):
                    d = rng.standard_normal(x.shape)
                    vp, vm = list(inputs), list(inputs)
                    vp[i], vm[i] = x + delta * d, x - delta * d
                    num = (L(vp) - L(vm)) / (2 * delta)
                    err = max(err, abs(num - float(np.sum(ga * d))))
        sess.close()
    return err


def check_gradients(build, inputs, wrt=None, tol=1e-6, delta=1e-5, seed=0):
    """Asserts build's gradients match central finite differences (float64 inputs)."""
    for a in inputs:
        a = np.asarray(a)
        if a.dtype.kind == "f" and a.dtype != np.float64:
            raise ValueError("check_gradients needs float64 inputs")
    err = gradient_error(build, inputs, wrt=wrt, delta=delta, seed=seed)
    assert err < tol, f"gradient error {err} exceeds {tol}"
    return err
