"""CPU kernels for the optimizer update ops (ApplyGradientDescent, ApplyAdam, Sparse*, ...).

Each kernel receives its variable and slot variables as `VariableCell`s (the op's `ref_inputs`),
checks every input first (so a failing step leaves all state untouched), then updates the cells'
arrays in place: no parameter-sized state array is ever reallocated. Temporaries are grad-sized and
kept to one (two for Nesterov/Adadelta). The formulas follow TensorFlow's CPU functors
(training_ops.cc) term by term, so float32 results agree with TF's to rounding.
With `use_locking=True` the update holds the locks of all its cells (taken in a fixed order).
The kernel's output is the variable's cell (the op outputs the variable reference).
"""

import contextlib

import numpy as np

from ...framework import errors
from ...ops import training_ops as _training_ops
from ..registry import register_kernel
from . import x86_approx
from .eigen_pow import eigen_pow as _eigen_pow, scalar_pow as _scalar_pow


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _tmp(like):
    """A scratch array shaped like `like` (0-d included: NumPy returns scalars otherwise)."""
    return np.empty(like.shape, like.dtype)


def _uninitialized(cell):
    return errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {cell.name}")


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


@contextlib.contextmanager
def _locked(cells):
    locks = []
    seen = set()
    for c in sorted(cells, key=id):
        if id(c) not in seen:
            seen.add(id(c))
            locks.append(c.lock)
    for lk in locks:
        lk.acquire()
    try:
        yield
    finally:
        for lk in reversed(locks):
            lk.release()


def _build(op, dense_fn=None, rows_fn=None):
    """The kernel for a training op: validation from its signature, then `dense_fn(values, scalars,
    grad)` (dense ops) or `rows_fn(rows, scalars, grad_rows)` (sparse ops) updating in place."""
    sig = _training_ops.signature(op.type)
    names = [n for n, _ in sig]
    n_refs = sum(1 for _, k in sig if k == "ref")
    scalar_pos = [(i, n) for i, (n, k) in enumerate(sig) if k in ("scalar", "step")]
    grad_pos = next(i for i, (_, k) in enumerate(sig) if k == "grad")
    idx_pos = next((i for i, (_, k) in enumerate(sig) if k == "indices"), None)
    grad_name = names[grad_pos]
    ref_names = names[:n_refs]
    dtype = op._get_attr("T").as_numpy_dtype
    use_locking = op._get_attr("use_locking")

    def check(args):
        cells = args[:n_refs]
        values = []
        for c in cells:
            v = c.value
            if v is None:
                raise _uninitialized(c)
            values.append(v)
        var = values[0]
        for name, v in zip(ref_names[1:], values[1:]):
            if v.shape != var.shape:
                raise _invalid(f"var and {name} do not have the same shape{_dims(var.shape)} {_dims(v.shape)}")
        scalars = []
        for i, name in scalar_pos:
            s = args[i]
            if np.ndim(s) != 0:
                raise _invalid(f"{name} is not a scalar: {_dims(np.shape(s))}")
            scalars.append(dtype(s))
        grad = np.asarray(args[grad_pos])
        return values, scalars, grad

    if idx_pos is None:
        def update(*args):
            values, scalars, grad = check(args)
            if grad.shape != values[0].shape:
                raise _invalid(f"var and {grad_name} do not have the same shape"
                               f"{_dims(values[0].shape)} {_dims(grad.shape)}")
            dense_fn(values, scalars, grad)
            return args[0]
    else:
        def update(*args):
            values, scalars, grad = check(args)
            var = values[0]
            indices = np.asarray(args[idx_pos])
            if var.ndim < 1:
                raise _invalid("var must be at least 1 dimensional")
            if indices.ndim != 1:
                raise _invalid("indices must be one-dimensional")
            for d in range(1, var.ndim):
                if grad.ndim <= d or grad.shape[d] != var.shape[d]:
                    raise _invalid(f"var and grad must match in dimension {d}")
            n = indices.shape[0]
            if grad.ndim < 1 or grad.shape[0] != n:
                raise _invalid("grad must be the same size as indices in the first dimension.")
            row_shape = (n,) + var.shape[1:]
            if grad.shape != row_shape:
                if grad.size != int(np.prod(row_shape)):
                    raise _invalid("var and grad must match in dimension 1")
                grad = grad.reshape(row_shape)
            if n == 0:
                return args[0]
            bad = (indices < 0) | (indices >= var.shape[0])
            if bad.any():
                i = int(np.argmax(bad))
                raise _invalid(f"Index {indices[i]} at offset {i} in indices is out of range")
            if n == 1 or not _has_duplicates(indices):
                rows = [v[indices] for v in values]
                rows_fn(rows, scalars, grad)
                for v, r in zip(values, rows):
                    v[indices] = r
            else:
                # TF's kernels apply the rows one after another: a repeated index compounds.
                for i in range(n):
                    j = int(indices[i])
                    rows_fn([v[j:j + 1] for v in values], scalars, grad[i:i + 1])
            return args[0]

    if not use_locking:
        return update

    def locked_update(*args):
        with _locked(args[:n_refs]):
            return update(*args)
    return locked_update


def _has_duplicates(indices):
    s = np.sort(indices)
    return bool((s[1:] == s[:-1]).any())


def _rsqrt(x, row=None):
    """TF's `x.rsqrt()` inside an Eigen expression: for float32 (and float16) the CPU's
    approximation plus a Newton step on the 8-lane packets (x86_approx), the exact 1 / sqrt(x) on
    the tail. The packets run along the flat tensor, or along each `row` elements (the sparse
    kernels evaluate one expression per row)."""
    x = np.asarray(x)
    if x.dtype not in (np.float32, np.float16) or not x.size or not x86_approx.available():
        return np.divide(x.dtype.type(1), np.sqrt(x))
    rows = x.reshape(-1, row or x.size)
    cut = rows.shape[1] // x86_approx.LANES * x86_approx.LANES
    out = np.empty(rows.shape, x.dtype)
    if cut:
        # (float16 packets are float32 packets, rounded back: Eigen's F16_PACKET_FUNCTION)
        out[:, :cut] = x86_approx.rsqrt(rows[:, :cut].astype(np.float32))
    if cut < rows.shape[1]:
        out[:, cut:] = x.dtype.type(1) / np.sqrt(rows[:, cut:])
    return out.reshape(x.shape)


def _register(op_type, dense_fn=None, rows_fn=None, attr_fn=None):
    @register_kernel(op_type)
    def factory(op, ctx):
        d, r = (attr_fn(op) if attr_fn is not None else (dense_fn, rows_fn))
        return _build(op, d, r)
    return factory


# -- gradient descent ---------------------------------------------------------------------------

# Large dense updates run a block at a time, so the scaled gradient stays in cache and no
# parameter-sized temporary is allocated (fc6 of AlexNet is 151 MB).
_BLOCK = 1 << 16


def _gd(values, scalars, grad):
    var, = values
    alpha, = scalars
    if var.size <= _BLOCK or not var.flags.c_contiguous or grad.shape != var.shape:
        t = np.multiply(grad, alpha, out=_tmp(var))
        np.subtract(var, t, out=var)
        return
    v, g = var.reshape(-1), grad.reshape(-1)
    t = np.empty(_BLOCK, var.dtype)
    for i in range(0, v.size, _BLOCK):
        j = min(v.size, i + _BLOCK)
        np.multiply(g[i:j], alpha, out=t[:j - i])
        np.subtract(v[i:j], t[:j - i], out=v[i:j])


_register("ApplyGradientDescent", _gd)


# -- momentum -----------------------------------------------------------------------------------

def _momentum_fns(op):
    nesterov = op._get_attr("use_nesterov")

    def dense(values, scalars, grad):
        var, accum = values
        lr, momentum = scalars
        np.multiply(accum, momentum, out=accum)
        np.add(accum, grad, out=accum)
        if nesterov:
            # var -= grad * lr + accum * momentum * lr
            t = np.multiply(accum, momentum, out=_tmp(accum))
            np.multiply(t, lr, out=t)
            t2 = np.multiply(grad, lr, out=_tmp(accum))
            np.add(t2, t, out=t)
        else:
            t = np.multiply(accum, lr, out=_tmp(accum))
        np.subtract(var, t, out=var)

    def rows(values, scalars, grad):
        if not nesterov:
            return dense(values, scalars, grad)
        # TF's sparse kernel: var -= lr * grad + (lr * momentum) * accum
        var, accum = values
        lr, momentum = scalars
        np.multiply(accum, momentum, out=accum)
        np.add(accum, grad, out=accum)
        t = np.multiply(accum, lr * momentum)
        t += np.multiply(grad, lr)
        np.subtract(var, t, out=var)
    return dense, rows


_register("ApplyMomentum", attr_fn=_momentum_fns)
_register("SparseApplyMomentum", attr_fn=_momentum_fns)


# -- adagrad ------------------------------------------------------------------------------------

def _adagrad_fns(op):
    update_slots = op._get_attr("update_slots")

    def update(values, scalars, grad, rsqrt=True, row=None):
        var, accum = values
        lr, = scalars
        t = np.multiply(grad, grad, out=_tmp(accum))
        if update_slots:
            np.add(accum, t, out=accum)
        # TF's order: (grad * lr) * rsqrt(accum) (dense, and sparse rows wider than one element);
        # (lr * grad) / sqrt(accum) (sparse, one element a row)
        if rsqrt:
            t = np.multiply(_rsqrt(accum, row), np.multiply(grad, lr), out=t)
        else:
            np.sqrt(accum, out=t)
            np.divide(np.multiply(grad, lr), t, out=t)
        np.subtract(var, t, out=var)

    def rows(values, scalars, grad):
        row = values[0][0].size
        update(values, scalars, grad, rsqrt=row > 1, row=row)
    return update, rows


_register("ApplyAdagrad", attr_fn=_adagrad_fns)
_register("SparseApplyAdagrad", attr_fn=_adagrad_fns)


def _adagrad_v2_fns(op):
    update_slots = op._get_attr("update_slots")

    def dense(values, scalars, grad):
        var, accum = values
        lr, epsilon = scalars
        t = np.multiply(grad, grad, out=_tmp(accum))
        if update_slots:
            np.add(accum, t, out=accum)
        # var -= (grad * lr) / (sqrt(accum) + epsilon)
        np.sqrt(accum, out=t)
        np.add(t, epsilon, out=t)
        np.divide(np.multiply(grad, lr), t, out=t)
        np.subtract(var, t, out=var)
    return dense, dense


_register("ApplyAdagradV2", attr_fn=_adagrad_v2_fns)
_register("SparseApplyAdagradV2", attr_fn=_adagrad_v2_fns)


def _keras_momentum_fns(op):
    nesterov = op._get_attr("use_nesterov")

    def dense(values, scalars, grad):
        var, accum = values
        lr, momentum = scalars
        t = np.multiply(grad, lr, out=_tmp(accum))
        np.multiply(accum, momentum, out=accum)
        np.subtract(accum, t, out=accum)        # accum = accum * momentum - lr * grad
        if nesterov:
            # var += accum * momentum - lr * grad
            t2 = np.multiply(accum, momentum, out=_tmp(accum))
            np.subtract(t2, t, out=t)
            np.add(var, t, out=var)
        else:
            np.add(var, accum, out=var)
    return dense, dense


_register("ApplyKerasMomentum", attr_fn=_keras_momentum_fns)
_register("SparseApplyKerasMomentum", attr_fn=_keras_momentum_fns)


# -- RMSProp ------------------------------------------------------------------------------------

def _rmsprop(values, scalars, grad):
    var, ms, mom = values
    lr, rho, momentum, epsilon = scalars
    one = lr.dtype.type(1)
    # ms += (grad^2 - ms) * (1 - rho)
    t = np.multiply(grad, grad, out=_tmp(values[0]))
    np.subtract(t, ms, out=t)
    np.multiply(t, one - rho, out=t)
    np.add(ms, t, out=ms)
    # mom = mom * momentum + (grad * lr) / sqrt(ms + epsilon); var -= mom
    np.add(ms, epsilon, out=t)
    np.sqrt(t, out=t)
    np.divide(np.multiply(grad, lr), t, out=t)
    np.multiply(mom, momentum, out=mom)
    np.add(mom, t, out=mom)
    np.subtract(var, mom, out=var)


def _rmsprop_rows(rows, scalars, grad):
    var, ms, mom = rows
    lr, rho, momentum, epsilon = scalars
    one = lr.dtype.type(1)
    # TF's sparse kernel: ms = ms * rho + grad^2 * (1 - rho);
    # mom = mom * momentum + rsqrt(ms + epsilon) * lr * grad; var -= mom
    np.multiply(ms, rho, out=ms)
    ms += np.square(grad) * (one - rho)
    t = _rsqrt(np.add(ms, epsilon), var[0].size)     # (rsqrt * lr) * grad
    np.multiply(t, lr, out=t)
    np.multiply(t, grad, out=t)
    np.multiply(mom, momentum, out=mom)
    np.add(mom, t, out=mom)
    np.subtract(var, mom, out=var)


_register("ApplyRMSProp", _rmsprop)
_register("SparseApplyRMSProp", rows_fn=_rmsprop_rows)


def _centered_rmsprop(values, scalars, grad):
    var, mg, ms, mom = values
    lr, rho, momentum, epsilon = scalars
    one_minus_rho = lr.dtype.type(1) - rho
    t = np.multiply(grad, grad, out=_tmp(values[0]))
    np.subtract(t, ms, out=t)
    np.multiply(t, one_minus_rho, out=t)
    np.add(ms, t, out=ms)                 # ms += (grad^2 - ms) * (1 - rho)
    np.subtract(grad, mg, out=t)
    np.multiply(t, one_minus_rho, out=t)
    np.add(mg, t, out=mg)                 # mg += (grad - mg) * (1 - rho)
    np.multiply(mg, mg, out=t)
    np.subtract(ms, t, out=t)
    np.add(t, epsilon, out=t)             # denom = (ms - mg^2) + epsilon
    np.sqrt(t, out=t)
    np.divide(np.multiply(grad, lr), t, out=t)
    np.multiply(mom, momentum, out=mom)
    np.add(mom, t, out=mom)               # mom = mom * momentum + (grad * lr) / sqrt(denom)
    np.subtract(var, mom, out=var)


def _centered_rmsprop_rows(rows, scalars, grad):
    var, mg, ms, mom = rows
    lr, rho, momentum, epsilon = scalars
    one_minus_rho = lr.dtype.type(1) - rho
    # TF's sparse kernel: ms = ms * rho + grad^2 * (1 - rho); mg = mg * rho + grad * (1 - rho);
    # denom = ms + epsilon - mg^2; mom = mom * momentum + rsqrt(denom) * lr * grad; var -= mom
    np.multiply(ms, rho, out=ms)
    ms += np.square(grad) * one_minus_rho
    np.multiply(mg, rho, out=mg)
    mg += grad * one_minus_rho
    t = np.add(ms, epsilon)
    t -= np.square(mg)
    t = _rsqrt(t, var[0].size)                # (rsqrt * lr) * grad
    np.multiply(t, lr, out=t)
    np.multiply(t, grad, out=t)
    np.multiply(mom, momentum, out=mom)
    np.add(mom, t, out=mom)
    np.subtract(var, mom, out=var)


_register("ApplyCenteredRMSProp", _centered_rmsprop)
_register("SparseApplyCenteredRMSProp", rows_fn=_centered_rmsprop_rows)


# -- Adam ---------------------------------------------------------------------------------------

def _adam_fns(op):
    nesterov = op._get_attr("use_nesterov")

    def dense(values, scalars, grad):
        var, m, v = values
        beta1_power, beta2_power, lr, beta1, beta2, epsilon = scalars
        one = lr.dtype.type(1)
        alpha = lr * np.sqrt(one - beta2_power) / (one - beta1_power)
        t = np.subtract(grad, m, out=_tmp(m))
        np.multiply(t, one - beta1, out=t)
        np.add(m, t, out=m)                   # m += (grad - m) * (1 - beta1)
        np.multiply(grad, grad, out=t)
        np.subtract(t, v, out=t)
        np.multiply(t, one - beta2, out=t)
        np.add(v, t, out=v)                   # v += (grad^2 - v) * (1 - beta2)
        if nesterov:
            # var -= ((grad * (1 - beta1) + beta1 * m) * alpha) / (sqrt(v) + epsilon)
            t2 = np.multiply(m, beta1, out=_tmp(m))
            np.multiply(grad, one - beta1, out=t)
            np.add(t, t2, out=t2)
            np.multiply(t2, alpha, out=t2)
            np.sqrt(v, out=t)
            np.add(t, epsilon, out=t)
            np.divide(t2, t, out=t)
        else:
            # var -= (m * alpha) / (sqrt(v) + epsilon), in that order (TF's rounding)
            t2 = np.multiply(m, alpha, out=_tmp(m))
            np.sqrt(v, out=t)
            np.add(t, epsilon, out=t)
            np.divide(t2, t, out=t)
        np.subtract(var, t, out=var)
    return dense, None


_register("ApplyAdam", attr_fn=_adam_fns)


# -- Adadelta -----------------------------------------------------------------------------------

def _adadelta(values, scalars, grad, row=None):
    var, accum, accum_update = values
    lr, rho, epsilon = scalars
    one_minus_rho = lr.dtype.type(1) - rho
    t = np.multiply(grad, grad, out=_tmp(values[0]))
    np.multiply(t, one_minus_rho, out=t)
    np.multiply(accum, rho, out=accum)
    np.add(accum, t, out=accum)               # accum = accum * rho + grad^2 * (1 - rho)
    u = np.add(accum_update, epsilon, out=_tmp(accum_update))
    np.sqrt(u, out=u)
    np.add(accum, epsilon, out=t)
    np.multiply(u, _rsqrt(t, row), out=u)
    np.multiply(u, grad, out=u)               # update = sqrt(accum_update + eps) * rsqrt(accum + eps) * grad
    np.multiply(u, lr, out=t)
    np.subtract(var, t, out=var)              # var -= update * lr
    np.multiply(u, u, out=t)
    np.multiply(t, one_minus_rho, out=t)
    np.multiply(accum_update, rho, out=accum_update)
    np.add(accum_update, t, out=accum_update)  # accum_update = accum_update * rho + update^2 * (1 - rho)


_register("ApplyAdadelta", _adadelta)
_register("SparseApplyAdadelta", rows_fn=lambda rows, scalars, grad: _adadelta(rows, scalars, grad, rows[0][0].size))



# -- proximal gradient descent / proximal Adagrad (FOBOS) ----------------------------------------

def _shrink(var, prox, lr_l1, denom, l1_positive):
    """var = sign(prox) * max(|prox| - lr_l1, 0) / denom (without l1: prox / denom); in place."""
    if l1_positive:
        t = np.abs(prox, out=_tmp(prox))
        np.subtract(t, lr_l1, out=t)
        np.maximum(t, 0, out=t)
        np.multiply(np.sign(prox), t, out=t)
        np.divide(t, denom, out=var)
    else:
        np.divide(prox, denom, out=var)


def _proximal_gd(values, scalars, grad):
    var, = values
    alpha, l1, l2 = scalars
    one = alpha.dtype.type(1)
    prox = np.subtract(var, np.multiply(grad, alpha), out=_tmp(var))
    _shrink(var, prox, alpha * l1, one + l2 * alpha, l1 > 0)


def _scalar_row_shrink(var, prox, lr_l1, l2_lr, l1_positive):
    """TF's sparse FOBOS path for one-element rows: `... / (1.0 + l2 * lr)` with a C++ double
    literal, so the division is done in double and rounded once to the variable's dtype."""
    if l1_positive:
        num = np.sign(prox) * np.maximum(np.abs(prox) - lr_l1, 0)
    else:
        num = prox
    denom = np.add(1.0, l2_lr, dtype=np.float64)
    var[...] = (num.astype(np.float64) / denom).astype(var.dtype)


def _proximal_gd_rows(rows, scalars, grad):
    var, = rows
    if var[0].size > 1:
        return _proximal_gd(rows, scalars, grad)
    alpha, l1, l2 = scalars
    prox = np.subtract(var, np.multiply(alpha, grad))
    _scalar_row_shrink(var, prox, alpha * l1, l2 * alpha, l1 > 0)


_register("ApplyProximalGradientDescent", _proximal_gd)
_register("SparseApplyProximalGradientDescent", rows_fn=_proximal_gd_rows)


def _proximal_adagrad(values, scalars, grad, row=None):
    var, accum = values
    lr, l1, l2 = scalars
    one = lr.dtype.type(1)
    accum += np.square(grad)
    # Every temporary has an `out` (a 0-d variable would otherwise make NumPy scalars).
    rate = np.multiply(_rsqrt(accum, row), lr, out=_tmp(accum))   # learning_rate = lr * rsqrt(accum)
    prox = np.multiply(grad, rate, out=_tmp(accum))
    np.subtract(var, prox, out=prox)           # prox = var - grad * learning_rate
    denom = np.multiply(rate, l2, out=_tmp(accum))
    np.add(denom, one, out=denom)              # 1 + l2 * learning_rate
    if l1 > 0:
        np.multiply(rate, l1, out=rate)
    _shrink(var, prox, rate, denom, l1 > 0)


def _proximal_adagrad_rows(rows, scalars, grad):
    var, accum = rows
    if var[0].size > 1:
        return _proximal_adagrad(rows, scalars, grad, var[0].size)
    lr, l1, l2 = scalars
    accum += np.multiply(grad, grad)
    rate = np.divide(lr, np.sqrt(accum))        # learning_rate = lr / sqrt(a)
    prox = np.subtract(var, np.multiply(rate, grad))
    _scalar_row_shrink(var, prox, rate * l1, l2 * rate, l1 > 0)


_register("ApplyProximalAdagrad", _proximal_adagrad)
_register("SparseApplyProximalAdagrad", rows_fn=_proximal_adagrad_rows)


# -- FTRL-proximal --------------------------------------------------------------------------------

def _ftrl_fns(op):
    v2 = op.type.endswith("V2")
    by_lr = op._get_attr("multiply_linear_by_lr")

    def common(values, scalars, grad, square, power):
        """var, accum, linear, lr, l1, l2, 2, the shrunk gradient, the new accumulator and the
        new and old accumulator powers (`square`, `power`: how TF's kernel squares the gradient
        and raises the accumulators to -lr_power)."""
        var, accum, linear = values
        if v2:
            lr, l1, l2, l2_shrinkage, lr_power = scalars
        else:
            lr, l1, l2, lr_power = scalars
        two = lr.dtype.type(2)
        g = grad + two * l2_shrinkage * var if v2 else grad
        new_accum = np.add(accum, square(grad))
        if lr_power == lr.dtype.type(-0.5):
            new_pow, old_pow = np.sqrt(new_accum), np.sqrt(accum)
        else:
            new_pow, old_pow = power(new_accum, -lr_power), power(accum, -lr_power)
        return var, accum, linear, lr, l1, l2, two, g, new_accum, new_pow, old_pow

    def update(values, scalars, grad, power=_eigen_pow):
        var, accum, linear, lr, l1, l2, two, g, new_accum, new_pow, old_pow = common(
            values, scalars, grad, np.square, power)
        if by_lr:
            linear += g * lr - (new_pow - old_pow) * var
            x = l1 * lr * np.sign(linear) - linear
            y = new_pow + two * l2 * lr
            keep = np.abs(linear) > l1 * lr
        else:
            linear += g - (new_pow - old_pow) / lr * var
            x = l1 * np.sign(linear) - linear
            y = new_pow / lr + two * l2
            keep = np.abs(linear) > l1
        var[...] = np.where(keep, x / y, var.dtype.type(0))
        np.copyto(accum, new_accum)

    def rows(values, scalars, grad):
        row = values[0][0].size
        if row > 1:
            # each row is an Eigen expression of its own, raised by tensor.pow(scalar)
            return update(values, scalars, grad, lambda a, y: _eigen_pow(a, y, row))
        # TF's sparse kernel for one-element rows works a scalar at a time:
        # linear = (linear + g) - sigma * var, var = (clip(linear, +-l1) - linear) / quadratic
        var, accum, linear, lr, l1, l2, two, g, new_accum, new_pow, old_pow = common(
            values, scalars, grad, lambda x: np.multiply(x, x),
            lambda a, y: _scalar_pow(a, y) if a.dtype in (np.float32, np.float64) else np.power(a, y))
        sigma = new_pow - old_pow
        if by_lr:
            new_linear = (linear + g * lr) - sigma * var
            quadratic = new_pow + two * l2 * lr
            bound = l1 * lr
        else:
            sigma = sigma / lr
            new_linear = (linear + g) - sigma * var
            quadratic = new_pow / lr + two * l2
            bound = l1
        var[...] = (np.maximum(np.minimum(new_linear, bound), -bound) - new_linear) / quadratic
        np.copyto(accum, new_accum)
        np.copyto(linear, new_linear)
    return update, rows


for _t in ("ApplyFtrl", "SparseApplyFtrl", "ApplyFtrlV2", "SparseApplyFtrlV2"):
    _register(_t, attr_fn=_ftrl_fns)


# -- Adagrad dual averaging ----------------------------------------------------------------------

def _adagrad_da(values, scalars, grad):
    var, g_acc, gg_acc = values
    lr, l1, l2, step = scalars
    g_acc += grad
    gg_acc += np.square(grad)
    # Every temporary has an `out` (a 0-d variable would otherwise make NumPy scalars).
    denom = np.sqrt(gg_acc, out=_tmp(gg_acc))
    np.add(denom, step * l2 * lr, out=denom)
    if l1 > 0:
        t = np.abs(g_acc, out=_tmp(g_acc))
        np.subtract(t, step * l1, out=t)
        np.maximum(t, 0, out=t)
        # TF's order, (-lr * sign(g_acc)) * t: an entry with g_acc == 0 becomes -0.0, as in TF
        sgn = np.sign(g_acc, out=_tmp(g_acc))
        np.multiply(sgn, -lr, out=sgn)
        np.multiply(sgn, t, out=t)
    else:
        t = np.multiply(g_acc, lr, out=_tmp(g_acc))
        np.negative(t, out=t)
    np.divide(t, denom, out=var)


def _adagrad_da_rows(rows, scalars, grad):
    var, g_acc, gg_acc = rows
    lr, l1, l2, step = scalars
    dt = var.dtype.type
    if var[0].size > 1:
        # TF's sparse kernel for wider rows: -sign(ga) * max(|ga| / step - l1, 0) / (l2 + sqrt(gg) / (step * lr))
        g_acc += grad
        gg_acc += np.square(grad)
        step_t = dt(step)
        gs_lr = step_t * lr
        denom = np.sqrt(gg_acc) / gs_lr
        denom += l2
        if l1 > 0:
            t = np.maximum(np.abs(g_acc) / step_t - l1, dt(0))
            num = (dt(-1) * np.sign(g_acc)) * t
        else:
            num = dt(-1) * (g_acc / step_t)
        np.divide(num, denom, out=var)
        return
    # one element a row: TF computes in double (the accumulators are rounded back to var's dtype)
    step_i = int(step)
    lr_d, l1_d, l2_d = float(lr), float(l1), float(l2)
    g = grad.astype(np.float64)
    g_acc[...] = (g_acc.astype(np.float64) + g).astype(dt)
    gg_acc[...] = (gg_acc.astype(np.float64) + g * g).astype(dt)
    gs_l1 = step_i * l1_d
    gs_l2_lr = step_i * l2_d * lr_d
    denom = gs_l2_lr + np.sqrt(gg_acc).astype(np.float64)
    if l1_d > 0:
        num = np.sign(-g_acc).astype(np.float64) * lr_d * np.maximum(np.abs(g_acc).astype(np.float64) - gs_l1, 0.0)
    else:
        num = (-g_acc).astype(np.float64) * lr_d
    var[...] = (num / denom).astype(dt)


_register("ApplyAdagradDA", _adagrad_da)
_register("SparseApplyAdagradDA", rows_fn=_adagrad_da_rows)
