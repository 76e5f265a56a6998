"""`tf.test.compute_gradient` / `compute_gradient_error` (TF1's graph gradient checker).

Both Jacobians are laid out as TF lays them out: one row per element of x (flattened), one column
per element of y. The theoretical one backpropagates a one-hot dy per column through the graph's
gradient ops; the numerical one perturbs each x element by +-delta (central differences). Complex
tensors count as twice as many reals. Everything runs in the default session, as in TF.
"""

import numpy as np

from ..framework import dtypes
from ..framework.indexed_slices import IndexedSlices

__all__ = ["compute_gradient", "compute_gradient_error"]

_ALLOWED = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.complex64,
            dtypes.complex128)


def _size(shape):
    return int(np.prod([int(d) for d in shape], dtype=np.int64)) if not isinstance(shape, int) else shape


def _feeds(extra, new):
    out = dict(extra or {})
    out.update(new)
    return out


def _session():
    from ..framework.graph import get_default_session
    sess = get_default_session()
    if sess is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                         "`with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    return sess


def _theoretical(x, x_shape, x_data, dy, dy_shape, dx, extra):
    if x.dtype.is_complex:
        x_shape = tuple(x_shape) + (2,)
    x_size = _size(x_shape)
    row_size = _size(tuple(x_shape)[1:])  # one gathered row, for IndexedSlices gradients
    dy_size = _size(dy_shape) * (2 if dy.dtype.is_complex else 1)
    jac = np.zeros((x_size, dy_size), dtype=x.dtype.real_dtype.as_numpy_dtype)
    dy_data = np.zeros(dy_shape, dtype=dy.dtype.as_numpy_dtype)
    dy_flat = dy_data.ravel().view(dy.dtype.real_dtype.as_numpy_dtype)
    sess = _session()
    for col in range(dy_size):
        dy_flat[col] = 1
        feed = _feeds(extra, {x: x_data, dy: dy_data})
        if isinstance(dx, IndexedSlices):
            idx, vals = sess.run([dx.indices, dx.values], feed_dict=feed)
            for i, v in zip(idx, vals):
                jac[i * row_size:(i + 1) * row_size, col] += np.ravel(v)
        else:
            jac[:, col] = np.asarray(sess.run(dx, feed_dict=feed)).ravel().view(jac.dtype)
        dy_flat[col] = 0
    if not dy_size:  # an empty y: the gradient must still be all zeros of x's shape
        back = np.asarray(sess.run(dx, feed_dict=_feeds(extra, {x: x_data, dy: dy_data})))
        if back.shape != x_data.shape:
            raise ValueError(f"Empty gradient has wrong shape: expected {x_data.shape}, got {back.shape}")
        if np.any(back):
            raise ValueError("Empty tensor with nonzero gradients")
    return jac


def _numerical(x, x_shape, x_data, y, y_shape, delta, extra):
    if x.dtype == dtypes.bfloat16 or y.dtype == dtypes.bfloat16:
        raise NotImplementedError("compute_gradient of bfloat16 tensors is not supported by tensorweave yet")
    x_size = _size(x_shape) * (2 if x.dtype.is_complex else 1)
    y_size = _size(y_shape) * (2 if y.dtype.is_complex else 1)
    x_real = x.dtype.real_dtype.as_numpy_dtype
    y_real = y.dtype.real_dtype.as_numpy_dtype
    x_data = np.asarray(x_data, dtype=x.dtype.as_numpy_dtype)
    scale = np.asarray(2 * delta, dtype=y_real)[()]
    jac = np.zeros((x_size, y_size), dtype=x_real)
    sess = _session()
    for row in range(x_size):
        x_pos, x_neg = x_data.copy(), x_data.copy()
        x_pos.ravel().view(x_real)[row] += delta
        x_neg.ravel().view(x_real)[row] -= delta
        y_pos = sess.run(y, feed_dict=_feeds(extra, {x: x_pos}))
        y_neg = sess.run(y, feed_dict=_feeds(extra, {x: x_neg}))
        jac[row, :] = np.asarray((y_pos - y_neg) / scale).ravel().view(y_real)
    return jac


def _dx_and_dy(x, y, y_shape):
    # dy is a Const we feed; the Identity after it keeps dx from being the fed tensor itself.
    from ..autodiff.gradients import gradients
    from ..framework.constant_op import constant
    from ..ops.array_ops import identity
    with x.graph.as_default():
        dy_orig = constant(1.0, shape=y_shape, dtype=y.dtype)
        dy = identity(dy_orig)
    grads = gradients(y, x, dy)
    assert len(grads) == 1
    return grads[0], dy_orig


def _one(x, x_shape, dx, y, y_shape, dy, x_init_value, delta, extra):
    t, t2 = dtypes.as_dtype(x.dtype), dtypes.as_dtype(y.dtype)
    assert t.base_dtype in _ALLOWED, f"Don't support type {t.name} for x"
    assert t2.base_dtype in _ALLOWED, f"Don't support type {t2.name} for y"
    if x_init_value is not None:
        assert list(x_shape) == list(x_init_value.shape), \
            f"x_shape = {x_shape}, init_data shape = {list(x_init_value.shape)}"
        x_data = x_init_value
    else:
        x_data = np.random.random_sample(x_shape).astype(t.as_numpy_dtype)
        if t.is_complex:
            x_data.imag = np.random.random_sample(x_shape)
    jac_t = _theoretical(x, x_shape, x_data, dy, y_shape, dx, extra)
    jac_n = _numerical(x, x_shape, x_data, y, y_shape, delta, extra)
    return jac_t, jac_n


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """Theoretical and numerical Jacobians of `y` with respect to `x`, as two numpy arrays of shape
    [x_size, y_size] (a list of such pairs when `x` is a list). Runs in the default session.

    `x_init_value` is the point of evaluation (random in [0, 1) when None); `delta` the central
    difference step; `init_targets` are run first; `extra_feed_dict` fixes other placeholders.
    """
    extra = extra_feed_dict or {}
    if isinstance(x, list):
        pairs = [_dx_and_dy(xi, y, y_shape) for xi in x]
        _run_init(init_targets)
        inits = x_init_value if x_init_value is not None else [None] * len(x)
        return [_one(xi, si, dxi, y, y_shape, dyi, vi, delta, extra)
                for xi, si, (dxi, dyi), vi in zip(x, x_shape, pairs, inits)]
    _run_init(init_targets)
    dx, dy = _dx_and_dy(x, y, y_shape)
    return _one(x, x_shape, dx, y, y_shape, dy, x_init_value, delta, extra)


def _run_init(init_targets):
    if init_targets is not None:
        assert isinstance(init_targets, (list, tuple))
        sess = _session()
        for init in init_targets:
            sess.run(init)


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                           extra_feed_dict=None):
    """The largest absolute difference between the theoretical and numerical Jacobians."""
    grad = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                            extra_feed_dict=extra_feed_dict)
    if isinstance(grad, tuple):
        grad = [grad]
    error = 0
    for jt, jn in grad:
        if jt.size or jn.size:
            error = np.maximum(error, np.fabs(jt - jn).max())
    return error
