"""CPU kernels for nn ops: activations and their gradients, softmax, bias_add, l2_loss and the
fused softmax cross-entropies.

Kernels keep the input dtype (float32 stays float32: Python float scalars do not promote under
NumPy's NEP 50 rules) and reuse their own temporaries with `out=` where it saves a pass.
"""

import math

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from . import eigen_math, parallel, softmax_order, tf_order
from .math import _TF_ROUNDED_MAX

_SELU_SCALE = 1.0507009873554804934193349852946
# TF's literal for scale * alpha (the product of the two doubles is one ulp off)
_SELU_SCALE_ALPHA = 1.7580993408473768599402175208123


# -- activations -------------------------------------------------------------------------------

@register_kernel("Relu")
def _relu(op, ctx):
    xp = ctx.xp

    def relu(x):
        return xp.maximum(x.dtype.type(0), x)  # (0, x): -0.0 stays -0.0, as in TF
    return relu


@register_kernel("Relu6")
def _relu6(op, ctx):
    xp = ctx.xp

    def relu6(x):
        out = xp.maximum(x, 0, dtype=x.dtype)
        return xp.minimum(out, 6, out=out if isinstance(out, xp.ndarray) else None)  # (or a scalar)
    return relu6


def _exp_minus_one(x, xp):
    """exp(x) - 1 as TF's Elu/Selu compute it (Eigen's `features.exp() - 1`, not expm1, so a tiny
    negative x gives 0 as in TF); float32 exps of up to 2^14 values round as Eigen's packet/glibc
    exp does (eigen_math.exp over the whole flat tensor, as the select evaluates both branches)."""
    if xp is np and x.dtype == np.float32 and 0 < x.size <= _TF_ROUNDED_MAX:
        e = eigen_math.exp(x)
    else:
        with np.errstate(over="ignore"):
            e = xp.exp(x)
    e -= x.dtype.type(1)
    return e


@register_kernel("Elu")
def _elu(op, ctx):
    xp = ctx.xp

    def elu(x):
        return xp.where(x < 0, _exp_minus_one(x, xp), x)
    return elu


@register_kernel("Selu")
def _selu(op, ctx):
    xp = ctx.xp

    def selu(x):
        t = x.dtype.type
        neg = _exp_minus_one(x, xp)
        neg *= t(_SELU_SCALE_ALPHA)
        return xp.where(x < 0, neg, x * t(_SELU_SCALE))
    return selu


@register_kernel("Softplus")
def _softplus(op, ctx):
    # TF's kernel: x above -threshold, exp(x) below threshold, else log1p(exp(x)), with
    # threshold = log(epsilon) + 2 (float32: -13.94); float32 and float64 (up to the TF-rounded
    # size) through Eigen's packet exp and log1p with glibc for the tail; half types via float32.
    xp = ctx.xp
    dt = np.dtype(op._inputs[0]._dtype.base_dtype.as_numpy_dtype or np.object_)
    if dt.kind != "f":
        return lambda x: xp.logaddexp(x, x.dtype.type(0))
    if xp is np and dt.itemsize == 2:
        f32 = _softplus_exact(np.dtype(np.float32))
        return lambda x: f32(x.astype(np.float32)).astype(x.dtype)
    if xp is np:
        return _softplus_exact(dt)
    threshold = dt.type(math.log(float(np.finfo(dt).eps))) + dt.type(2)
    return lambda x: _softplus_select(xp, x, threshold, xp.exp, xp.log1p)


def _softplus_exact(dt):
    threshold = dt.type(math.log(float(np.finfo(dt).eps))) + dt.type(2)
    if dt == np.float32:
        packets, tail, split = eigen_math.pexp, eigen_math.plog1p, eigen_math.packet_then_scalar
        scalar = (eigen_math.glibc_expf, eigen_math.glibc_log1pf)
    else:
        packets, tail = eigen_math.pexp_double, eigen_math.plog1p_double
        split = eigen_math.packet_then_scalar64
        scalar = (eigen_math.glibc_exp, eigen_math.glibc_log1p)

    def softplus(x):
        if not 0 < x.size <= _TF_ROUNDED_MAX:          # (big tensors keep NumPy's speed)
            return _softplus_select(np, x, threshold, np.exp, np.log1p)
        return split(lambda v: _softplus_select(np, v, threshold, packets, tail),
                     lambda v: _softplus_select(np, v, threshold, *scalar), x)
    return softplus


def _softplus_select(xp, x, threshold, exp, log1p):
    with np.errstate(over="ignore"):
        e = exp(x)
        return xp.where(x > -threshold, x, xp.where(x < threshold, e, log1p(e))).astype(x.dtype, copy=False)


@register_kernel("Softsign")
def _softsign(op, ctx):
    xp = ctx.xp

    def softsign(x):
        d = xp.abs(x)
        if not isinstance(d, xp.ndarray):       # a NumPy scalar (no out=)
            return x / (d + 1)
        d += 1
        return xp.divide(x, d, out=d)
    return softsign


@register_kernel("LeakyRelu")
def _leaky_relu(op, ctx):
    xp = ctx.xp
    # TF's "alpha" attr is a 32-bit float: float64 inputs see float32(alpha).
    alpha = float(np.float32(op._get_attr("alpha")))

    def leaky_relu(x):
        a = x.dtype.type(alpha)
        if alpha <= 1:
            return xp.maximum(x, x * a)
        return xp.where(x > 0, x, x * a)
    return leaky_relu


@register_kernel("ReluGrad")
def _relu_grad(op, ctx):
    xp = ctx.xp

    def relu_grad(g, y):
        # g * (y > 0), with the comparison written straight into the result as 0/1 in g's dtype
        # (a same-dtype multiply after; a bool operand would make the multiply cast per element).
        if g.shape != y.shape:
            return g * (y > 0)
        out = xp.empty(g.shape, g.dtype)
        xp.greater(y, 0, out=out)
        out *= g
        return out
    return relu_grad


@register_kernel("Relu6Grad")
def _relu6_grad(op, ctx):
    def relu6_grad(g, y):
        m = y > 0
        m &= y < 6
        return g * m
    return relu6_grad


@register_kernel("EluGrad")
def _elu_grad(op, ctx):
    xp = ctx.xp

    def elu_grad(g, y):
        # slope 1 where y > 0, y + 1 (= exp(x)) elsewhere; y + 1 > 1 exactly when y > 0.
        s = y + 1
        s = xp.minimum(s, 1, out=s if isinstance(s, xp.ndarray) else None)  # (or a scalar)
        s *= g
        return s
    return elu_grad


@register_kernel("SeluGrad")
def _selu_grad(op, ctx):
    xp = ctx.xp

    def selu_grad(g, y):
        t = y.dtype.type
        # (TF's kernel: outputs < 0 ? outputs + scale * alpha : scale, so slope scale at 0)
        s = xp.where(y < 0, y + t(_SELU_SCALE_ALPHA), t(_SELU_SCALE))
        s *= g
        return s.astype(g.dtype, copy=False)
    return selu_grad


def _sigmoid(xp, x):
    e = xp.exp(-xp.abs(x))
    d = e + 1
    return xp.where(x >= 0, 1 / d, e / d).astype(x.dtype, copy=False)


@register_kernel("SoftplusGrad")
def _softplus_grad(op, ctx):
    xp = ctx.xp

    def softplus_grad(g, x):
        # TF's kernel: g / (exp(-x) + 1)
        if xp is np and x.dtype == np.float32:
            e = eigen_math.exp(-x)
        else:
            with np.errstate(over="ignore"):
                e = xp.exp(-x)
        e += x.dtype.type(1)
        return xp.divide(g, e).astype(x.dtype, copy=False)
    return softplus_grad


@register_kernel("SoftsignGrad")
def _softsign_grad(op, ctx):
    xp = ctx.xp

    def softsign_grad(g, x):
        d = xp.abs(x)
        if not isinstance(d, xp.ndarray):
            return g / ((d + 1) * (d + 1))
        d += 1
        d *= d
        return xp.divide(g, d, out=d)
    return softsign_grad


@register_kernel("LeakyReluGrad")
def _leaky_relu_grad(op, ctx):
    xp = ctx.xp
    alpha = float(np.float32(op._get_attr("alpha")))

    def leaky_relu_grad(g, x):
        return xp.where(x > 0, g, g * g.dtype.type(alpha))
    return leaky_relu_grad


# -- softmax -----------------------------------------------------------------------------------

def _softmax_exact(xp, x):
    """Whether x (float32, NumPy, modest size) goes through softmax_order, which rounds as TF's
    kernels do so printed probabilities and losses match TF's digits."""
    return (xp is np and x.dtype == np.float32 and x.ndim >= 1 and x.shape[-1]
            and x.size <= softmax_order.MAX_ELEMENTS)


@register_kernel("Softmax")
def _softmax(op, ctx):
    xp = ctx.xp

    def softmax(x):
        if x.size == 0:
            return x.copy()
        if _softmax_exact(xp, x):                 # TF's rounding (softmax_order)
            return softmax_order.softmax(x.reshape(-1, x.shape[-1])).reshape(x.shape)
        out = xp.subtract(x, x.max(axis=-1, keepdims=True))
        xp.exp(out, out=out)
        out /= out.sum(axis=-1, keepdims=True)
        return out

    def folded_softmax(x):
        # Grappler folds a constant Softmax with Eigen's kernel, before oneDNN's rewrite.
        if x.size and _softmax_exact(xp, x):
            return softmax_order.eigen_softmax(x.reshape(-1, x.shape[-1])).reshape(x.shape)
        return softmax(x)
    softmax.when_folded = folded_softmax
    return softmax


@register_kernel("LogSoftmax")
def _log_softmax(op, ctx):
    xp = ctx.xp

    def log_softmax(x):
        if x.size == 0:
            return x.copy()
        if _softmax_exact(xp, x):                 # TF's rounding (softmax_order)
            return softmax_order.log_softmax(x.reshape(-1, x.shape[-1])).reshape(x.shape)
        out = xp.subtract(x, x.max(axis=-1, keepdims=True))
        lse = xp.log(xp.exp(out).sum(axis=-1, keepdims=True))
        out -= lse
        return out
    return log_softmax


# -- bias_add ----------------------------------------------------------------------------------

def _bias_axis(fmt, ndim):
    return ndim - 1 if fmt == "NHWC" or ndim <= 2 else 1


# NumPy's inner loop runs along the last axis: adding a (C,) bias to (..., C) with a small C
# makes one short inner loop per pixel. The bias repeated over the trailing dimensions of x (up
# to about this many elements) gives the same sums in long inner loops.
_TILE_ELEMENTS = 1 << 15


@register_kernel("BiasAdd")
def _bias_add(op, ctx):
    xp = ctx.xp
    fmt = op._get_attr("data_format")

    def bias_add(x, b):
        if x.ndim < 2 or b.ndim != 1:
            raise errors.InvalidArgumentError(
                None, None, f"Input tensor must be at least 2D: [{','.join(map(str, x.shape))}]"
                if x.ndim < 2 else f"Biases must be 1D: [{','.join(map(str, b.shape))}]")
        c = _bias_axis(fmt, x.ndim)
        if x.shape[c] != b.shape[0]:
            raise errors.InvalidArgumentError(
                None, None, f"Must provide as many biases as the channel dimension of the input "
                            f"tensor: [{b.shape[0]}] vs. [{','.join(map(str, x.shape))}]")
        if c != x.ndim - 1:
            return xp.add(x, b.reshape((b.shape[0],) + (1,) * (x.ndim - 2)))
        reps, d = 1, x.ndim - 2
        while d >= 1 and reps * x.shape[d] * b.shape[0] <= _TILE_ELEMENTS:
            reps *= x.shape[d]
            d -= 1
        if reps == 1 or x.size == 0 or not x.flags.c_contiguous:
            return xp.add(x, b)
        out = xp.add(x.reshape(-1, reps * b.shape[0]), xp.tile(b, reps))
        return out.reshape(x.shape)
    return bias_add


@register_kernel("BiasAddGrad")
def _bias_add_grad(op, ctx):
    xp = ctx.xp
    fmt = op._get_attr("data_format")

    def bias_add_grad(g):
        c = _bias_axis(fmt, g.ndim)
        if (xp is np and g.dtype == np.float32 and c == g.ndim - 1 and g.size
                and (g.shape[-1] > 1 or g.size <= tf_order.EXACT_MAX_ELEMENTS)):  # (empty: NumPy)
            # rows added one after another, as TF adds them (printed values match its digits);
            # as fast as any sum for two or more channels, so at every size
            return tf_order.bias_add_grad(g.reshape(-1, g.shape[-1]), parallel.get_intra_op_threads() or 1)
        if g.dtype.kind == "f" and g.dtype.itemsize >= 4 and g.flags.c_contiguous:
            # einsum's sum over the rows of a (rows, C) view adds whole rows with vectorized
            # loops, 2-3x faster than g.sum over the leading axes and as accurate. (A
            # ones-vector BLAS matvec is faster still when idle, but its threads thrash on a
            # busy machine.)
            if c == g.ndim - 1:
                return xp.einsum("ij->j", g.reshape(math.prod(g.shape[:-1]), g.shape[-1]))
            return xp.einsum("ncx->c", g.reshape(g.shape[0], g.shape[1], math.prod(g.shape[2:])))
        axes = tuple(i for i in range(g.ndim) if i != c)
        return g.sum(axis=axes)
    return bias_add_grad


# -- l2_loss -----------------------------------------------------------------------------------

@register_kernel("L2Loss")
def _l2_loss(op, ctx):
    xp = ctx.xp

    def l2_loss(x):
        flat = x.reshape(-1)
        if xp is np and x.dtype == np.float32 and 1 < flat.size <= tf_order.EXACT_MAX_ELEMENTS:
            # TF's kernel: sum(square(x) * 0.5), a full reduction in Eigen's order
            return np.float32(tf_order.inner_sum((flat * flat * np.float32(0.5)).reshape(1, -1))[0])
        return xp.asarray(xp.dot(flat, flat) * x.dtype.type(0.5), dtype=x.dtype)
    return l2_loss


# -- fused softmax cross-entropies -------------------------------------------------------------

@register_kernel("SoftmaxCrossEntropyWithLogits")
def _xent(op, ctx):
    xp = ctx.xp

    def xent(logits, labels):
        if labels.shape != logits.shape:
            if logits.ndim != 2 or labels.ndim != 2:
                raise errors.InvalidArgumentError(None, None, "logits and labels must be 2-D")
            labels = xp.broadcast_to(labels, xp.broadcast_shapes(logits.shape, labels.shape))
            if labels.shape != logits.shape:
                raise errors.InvalidArgumentError(
                    None, None, "logits and labels must be broadcastable: logits_size="
                                f"[{','.join(map(str, logits.shape))}] labels_size="
                                f"[{','.join(map(str, labels.shape))}]")
        if logits.shape[1] == 0:
            return xp.zeros(logits.shape[:1], logits.dtype), xp.zeros(logits.shape, logits.dtype)
        if _softmax_exact(xp, logits) and labels.dtype == np.float32:
            return softmax_order.softmax_xent(logits, labels)
        shifted = xp.subtract(logits, logits.max(axis=1, keepdims=True))
        e = xp.exp(shifted)
        s = e.sum(axis=1, keepdims=True)
        # loss = sum(labels * (log(s) - shifted)) = log(s) * sum(labels) - sum(labels * shifted)
        loss = xp.log(s[:, 0]) * labels.sum(axis=1)
        shifted *= labels
        loss -= shifted.sum(axis=1)
        e /= s
        e -= labels
        return loss, e
    return xent


@register_kernel("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(op, ctx):
    xp = ctx.xp

    def sparse_xent(logits, labels):
        n, c = logits.shape
        if labels.shape != (n,):
            raise errors.InvalidArgumentError(
                None, None, f"logits and labels must have the same first dimension, got logits shape "
                            f"[{n},{c}] and labels shape [{','.join(map(str, labels.shape))}]")
        if n and (labels.min() < 0 or labels.max() >= c):
            bad = labels[(labels < 0) | (labels >= c)][0]
            raise errors.InvalidArgumentError(
                None, None, f"Received a label value of {bad} which is outside the valid range of "
                            f"[0, {c}).  Label values: {' '.join(str(v) for v in labels.tolist())}")
        if n == 0:
            return xp.zeros((0,), logits.dtype), xp.zeros(logits.shape, logits.dtype)
        if _softmax_exact(xp, logits):
            return softmax_order.sparse_softmax_xent(logits, labels)
        rows = xp.arange(n)
        shifted = xp.subtract(logits, logits.max(axis=1, keepdims=True))
        picked = shifted[rows, labels]
        xp.exp(shifted, out=shifted)
        s = shifted.sum(axis=1, keepdims=True)
        loss = xp.log(s[:, 0])
        loss -= picked
        shifted /= s
        shifted[rows, labels] -= 1
        return loss, shifted
    return sparse_xent
