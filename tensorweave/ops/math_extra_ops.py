"""More of TF's math ops: special functions (lgamma, digamma, erfc, ...), inverse hyperbolic
functions, xlogy and the *_no_nan ops, segment max/min/prod and the unsorted segment family,
bincount, reduce_variance/std, sort/argsort, and TF1's arg_max/arg_min aliases.

Op names, default names and output dtypes follow TensorFlow 2.x's compat.v1 (recorded by running the
same calls under TensorFlow). Composite functions build the same ops TF's Python builds, so their
results carry TF's names ("sort/Neg_1", "UnsortedSegmentMean/truediv").
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op, broadcast_shape_fn, unchanged_shape
from ..framework.tensor_shape import TensorShape, unknown_shape
from .math_reduction_ops import arg_max  # noqa: F401  (re-exported)
from .math_ops import (
    _a, _binary, _check_allowed, _COMPARE, _dense, _FLOAT, _INDEX, _reduce_to, _SUM, _unary,
    _unsorted_segment_shape, _segment_shape, argmin, cast, equal, exp, maximum, minimum,
    reduce_mean, reduce_sum, segment_sum, sqrt, square, unsorted_segment_sum,
)

__all__ = [
    "lgamma", "digamma", "erfc", "erfinv", "ndtri", "acosh", "asinh", "atanh", "xlogy", "xdivy",
    "xlog1py", "multiply_no_nan", "reciprocal_no_nan", "igamma", "igammac", "zeta", "polygamma",
    "betainc", "segment_max", "segment_min", "segment_prod", "unsorted_segment_max",
    "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_mean", "unsorted_segment_sqrt_n",
    "bincount", "reduce_variance", "reduce_std", "sort", "argsort", "arg_max", "arg_min",
]

_F = ("bfloat16", "float16", "float32", "float64")

# -- elementwise ---------------------------------------------------------------------------------

for _t in ["Lgamma", "Digamma", "Erfc", "Erfinv", "Ndtri", "Acosh", "Asinh", "Atanh"]:
    registry.register_op(_t, shape_fn=unchanged_shape)
for _t in ["Xlogy", "Xdivy", "Xlog1py", "MulNoNan", "Igamma", "Igammac", "Zeta", "Polygamma"]:
    registry.register_op(_t, shape_fn=broadcast_shape_fn)


def lgamma(x, name=None):
    """log|Gamma(x)|."""
    return _unary("Lgamma", x, name or "Lgamma", allowed=_F)


def digamma(x, name=None):
    """d/dx lgamma(x)."""
    return _unary("Digamma", x, name or "Digamma", allowed=_F)


def erfc(x, name=None):
    """1 - erf(x)."""
    return _unary("Erfc", x, name or "Erfc", allowed=_F)


def erfinv(x, name=None):
    """The inverse of erf."""
    with _name_scope(name, "erfinv", [x]) as scope:
        return _unary("Erfinv", convert_to_tensor(x, name="x"), "Erfinv", allowed=_F)


def ndtri(x, name=None):
    """The inverse of the standard normal CDF."""
    with _name_scope(name, "ndtri", [x]) as scope:
        return _unary("Ndtri", convert_to_tensor(x, name="x"), "Ndtri", allowed=_F)


def acosh(x, name=None):
    return _unary("Acosh", x, name or "Acosh", allowed=_F + ("complex64", "complex128"))


def asinh(x, name=None):
    return _unary("Asinh", x, name or "Asinh", allowed=_F + ("complex64", "complex128"))


def atanh(x, name=None):
    return _unary("Atanh", x, name or "Atanh", allowed=_F + ("complex64", "complex128"))


def xlogy(x, y, name=None):
    """x * log(y), 0 where x == 0."""
    return _binary("Xlogy", x, y, name or "Xlogy", allowed=_F + ("complex64", "complex128"))


def xdivy(x, y, name=None):
    """x / y, 0 where x == 0."""
    with _name_scope(name, "xdivy", [x, y]):
        return _binary("Xdivy", x, y, "Xdivy", allowed=_F + ("complex64", "complex128"))


def xlog1py(x, y, name=None):
    """x * log1p(y), 0 where x == 0."""
    with _name_scope(name, "xlog1py", [x, y]):
        return _binary("Xlog1py", x, y, "Xlog1py", allowed=_F + ("complex64", "complex128"))


def multiply_no_nan(x, y, name=None):
    """x * y, 0 where y == 0 (even when x is inf or NaN)."""
    with _name_scope(name, "multiply_no_nan", [x, y]) as scope:
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        return _binary("MulNoNan", x, y, scope, allowed=_F + ("complex64", "complex128"))


def reciprocal_no_nan(x, name=None):
    """1 / x, 0 where x == 0."""
    from .math_elementwise_ops import div_no_nan
    with _name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        one = constant(1, dtype=x.dtype.base_dtype, name="one")
        return div_no_nan(one, x, name=scope)


def igamma(a, x, name=None):
    """The regularized lower incomplete gamma function P(a, x)."""
    return _binary("Igamma", a, x, name or "Igamma", allowed=_F, params=("a", "x"))  # (half: no kernel)


def igammac(a, x, name=None):
    """The regularized upper incomplete gamma function Q(a, x)."""
    return _binary("Igammac", a, x, name or "Igammac", allowed=_F, params=("a", "x"))


def zeta(x, q, name=None):
    """The Hurwitz zeta function."""
    return _binary("Zeta", x, q, name or "Zeta", allowed=("float32", "float64"), params=("x", "q"))


def polygamma(a, x, name=None):
    """The a-th derivative of digamma."""
    return _binary("Polygamma", a, x, name or "Polygamma", allowed=("float32", "float64"), params=("a", "x"))


def _betainc_shape(op):
    from ..framework.op_util import broadcast_shapes
    s = op.inputs[0].shape
    for t in op.inputs[1:]:
        s = broadcast_shapes(s, t.shape)
    return [s]


registry.register_op("Betainc", shape_fn=_betainc_shape)


def betainc(a, b, x, name=None):
    """The regularized incomplete beta function I_x(a, b)."""
    with _name_scope(name, "Betainc", [a, b, x]) as scope:
        a = convert_to_tensor(a, name="a")
        _check_allowed("a", a.dtype, ("float32", "float64"))
        b = convert_to_tensor(b, name="b", dtype=a.dtype.base_dtype)
        x = convert_to_tensor(x, name="x", dtype=a.dtype.base_dtype)
        return apply_op("Betainc", [a, b, x], [a.dtype.base_dtype], scope, attrs={"T": a.dtype.base_dtype})


@registry.register_gradient("Lgamma")
def _lgamma_grad(op, grad):
    return [grad * digamma(op.inputs[0])]


@registry.register_gradient("Erfc")
def _erfc_grad(op, grad):
    x = op.inputs[0]
    c = constant(-2.0 / np.sqrt(np.pi), dtype=x.dtype.base_dtype)
    return [grad * c * exp(-square(x))]


@registry.register_gradient("Digamma")
def _digamma_grad(op, grad):
    x = op.inputs[0]
    return [grad * polygamma(constant(1.0, dtype=x.dtype.base_dtype), x)]


@registry.register_gradient("Erfinv")
def _erfinv_grad(op, grad):
    y = op.outputs[0]
    c = constant(np.sqrt(np.pi) / 2, dtype=y.dtype.base_dtype)
    return [grad * c * exp(square(y))]


@registry.register_gradient("Ndtri")
def _ndtri_grad(op, grad):
    y = op.outputs[0]
    c = constant(np.sqrt(2 * np.pi), dtype=y.dtype.base_dtype)
    return [grad * c * exp(square(y) / constant(2.0, dtype=y.dtype.base_dtype))]


@registry.register_gradient("Acosh")
def _acosh_grad(op, grad):
    return [grad / _a(grad).identity(sqrt(square(op.inputs[0]) - constant(1, dtype=grad.dtype.base_dtype)))]


@registry.register_gradient("Asinh")
def _asinh_grad(op, grad):
    return [grad / sqrt(square(op.inputs[0]) + constant(1, dtype=grad.dtype.base_dtype))]


@registry.register_gradient("Atanh")
def _atanh_grad(op, grad):
    return [grad / (constant(1, dtype=grad.dtype.base_dtype) - square(op.inputs[0]))]


def _broadcast_partials(x, y, partials, grad):
    """TF's pattern for these gradients: Shape, Shape_1, BroadcastGradientArgs first, then (with
    a control dependency on grad) `partials()` and each one summed and reshaped to its input."""
    from ..framework.graph import control_dependencies
    from .math_ops import broadcast_gradient_args
    a = _a(x)
    sx, sy = a.shape(x), a.shape(y)
    rx, ry = broadcast_gradient_args(sx, sy)
    with control_dependencies([grad]):
        px, py = partials()
        return [None if px is None else a.reshape(reduce_sum(px * grad, rx), sx),
                None if py is None else a.reshape(reduce_sum(py * grad, ry), sy)]


def _not_zero(x):
    from .math_compare_ops import not_equal
    return cast(not_equal(x, cast(0., dtype=x.dtype)), dtype=x.dtype)


@registry.register_gradient("Xlogy")
def _xlogy_grad(op, grad):
    """TF's _XLogyGrad: (xlogy(x != 0, y), xdivy(x, y))."""
    x, y = op.inputs
    return _broadcast_partials(x, y, lambda: (
        _binary("Xlogy", _not_zero(x), y, "Xlogy", allowed=None),
        _binary("Xdivy", x, y, "Xdivy", allowed=None)), grad)


@registry.register_gradient("Xdivy")
def _xdivy_grad(op, grad):
    """TF's _XDivyGrad: (xdivy(x != 0, y), xdivy(-x, y**2))."""
    from .math_elementwise_ops import negative
    x, y = op.inputs
    return _broadcast_partials(x, y, lambda: (
        _binary("Xdivy", _not_zero(x), y, "Xdivy", allowed=None),
        _binary("Xdivy", negative(x), y ** 2, "Xdivy", allowed=None)), grad)


@registry.register_gradient("Xlog1py")
def _xlog1py_grad(op, grad):
    """TF's _XLog1pyGrad: (xlog1py(x != 0, y), xdivy(x, y + 1))."""
    x, y = op.inputs
    return _broadcast_partials(x, y, lambda: (
        _binary("Xlog1py", _not_zero(x), y, "Xlog1py", allowed=None),
        _binary("Xdivy", x, y + 1., "Xdivy", allowed=None)), grad)


@registry.register_gradient("Zeta")
def _zeta_grad(op, grad):
    """TF's _ZetaGrad: d/dq zeta(x, q) = -x * zeta(x + 1, q); none for x (as TF)."""
    x, q = op.inputs
    return _broadcast_partials(x, q, lambda: (None, -x * zeta(x + 1, q)), grad)


@registry.register_gradient("Polygamma")
def _polygamma_grad(op, grad):
    """TF's _PolygammaGrad: d/dx polygamma(n, x) = polygamma(n + 1, x); none for n (as TF)."""
    n, x = op.inputs
    return _broadcast_partials(n, x, lambda: (None, polygamma(n + 1, x)), grad)


@registry.register_gradient("Betainc")
def _betainc_grad(op, grad):
    """TF's _BetaincGrad: only d/dx, x^(a-1) (1-x)^(b-1) / B(a, b), in log space."""
    from .math_ops import broadcast_gradient_args
    a_, b, x = op.inputs
    arr = _a(x)
    sa, sx = arr.shape(a_), arr.shape(x)
    _, rx = broadcast_gradient_args(sa, sx)
    log_beta = lgamma(a_) + lgamma(b) - lgamma(a_ + b)
    partial_x = exp(xlog1py(b - 1, -x) + xlogy(a_ - 1, x) - log_beta)
    return [None, None, arr.reshape(reduce_sum(partial_x * grad, rx), sx)]


@registry.register_gradient("MulNoNan")
def _mul_no_nan_grad(op, grad):
    x, y = op.inputs
    gx = multiply_no_nan(grad, y)
    gy = multiply_no_nan(x, grad)
    return [_reduce_to(gx, x, y), _reduce_to(gy, y, x)]


# -- segments ------------------------------------------------------------------------------------

for _t in ["SegmentMax", "SegmentMin", "SegmentProd"]:
    registry.register_op(_t, shape_fn=_segment_shape)
for _t in ["UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd"]:
    registry.register_op(_t, shape_fn=_unsorted_segment_shape)


def _ids(segment_ids):
    ids = segment_ids if isinstance(segment_ids, Tensor) else convert_to_tensor(
        segment_ids, name="segment_ids", preferred_dtype=_dtypes.int32)
    _check_allowed("segment_ids", ids.dtype, _INDEX)
    return ids


def _sorted_segment(op_type, data, segment_ids, name, allowed=_COMPARE):  # (TF's orders in errors)
    with _name_scope(name, op_type, [data, segment_ids]) as scope:
        data = _dense(data, name="data")
        _check_allowed("data", data.dtype, allowed)
        ids = _ids(segment_ids)
        return apply_op(op_type, [data, ids], [data.dtype.base_dtype], scope,
                        attrs={"T": data.dtype.base_dtype, "Tindices": ids.dtype.base_dtype})


def _unsorted_segment(op_type, data, segment_ids, num_segments, name, allowed=_COMPARE):
    with _name_scope(name, op_type, [data, segment_ids, num_segments]) as scope:
        data = _dense(data, name="data")
        _check_allowed("data", data.dtype, allowed)
        ids = _ids(segment_ids)
        n = num_segments if isinstance(num_segments, Tensor) else convert_to_tensor(
            num_segments, name="num_segments", preferred_dtype=_dtypes.int32)
        _check_allowed("num_segments", n.dtype, _INDEX)
        return apply_op(op_type, [data, ids, n], [data.dtype.base_dtype], scope,
                        attrs={"T": data.dtype.base_dtype, "Tindices": ids.dtype.base_dtype,
                               "Tnumsegments": n.dtype.base_dtype})


def segment_max(data, segment_ids, name=None):
    """Maxima of rows with equal (sorted) segment ids; empty segments give the dtype's lowest value."""
    return _sorted_segment("SegmentMax", data, segment_ids, name)


def segment_min(data, segment_ids, name=None):
    """Minima of rows with equal (sorted) segment ids; empty segments give the dtype's highest value."""
    return _sorted_segment("SegmentMin", data, segment_ids, name)


def segment_prod(data, segment_ids, name=None):
    """Products of rows with equal (sorted) segment ids; empty segments give 1."""
    return _sorted_segment("SegmentProd", data, segment_ids, name, allowed=_SUM)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    return _unsorted_segment("UnsortedSegmentMax", data, segment_ids, num_segments, name)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    return _unsorted_segment("UnsortedSegmentMin", data, segment_ids, num_segments, name)


def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    return _unsorted_segment("UnsortedSegmentProd", data, segment_ids, num_segments, name, allowed=_SUM)


def _unsorted_segment_n(data, segment_ids, num_segments):
    """max(1, the number of entries of each segment), shaped to broadcast against the sums."""
    a = _a(data)
    num_segments = convert_to_tensor(num_segments)
    ones = a.ones(a.shape(segment_ids), dtype=data.dtype.base_dtype)
    n = unsorted_segment_sum(ones, segment_ids, num_segments)
    extra = data.shape.ndims - segment_ids.shape.ndims
    bshape = a.concat([a.reshape(num_segments, [1]), a.ones([extra], dtype=num_segments.dtype.base_dtype)], 0)
    n = a.reshape(n, bshape)
    return maximum(n, constant(1, dtype=n.dtype.base_dtype))


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """Means of the entries of each segment (0 for empty segments)."""
    with _name_scope(name, "UnsortedSegmentMean"):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        summed = unsorted_segment_sum(data, segment_ids, num_segments)
        return summed / n


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """Sums of each segment divided by sqrt(its number of entries)."""
    with _name_scope(name, "UnsortedSegmentSqrtN"):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        summed = unsorted_segment_sum(data, segment_ids, num_segments)
        return summed / sqrt(n)


def _gather_drop_negatives(params, ids, zero_clipped_indices=None, is_positive=None):
    """TF's _GatherDropNegatives: params gathered at max(ids, 0), zeros where an id is negative;
    also the clipped ids and the mask, for reuse."""
    a = _a(params)
    from .math_compare_ops import greater_equal, logical_and
    if zero_clipped_indices is None:
        zero_clipped_indices = maximum(ids, a.zeros_like(ids))
    gathered = a.gather(params, zero_clipped_indices)
    if is_positive is None:
        is_positive = greater_equal(ids, 0)
        is_positive_shape = a.shape(is_positive)
        broadcastable_shape = a.concat(
            [is_positive_shape, a.ones([a.rank(gathered) - a.rank(is_positive)],
                                       dtype=is_positive_shape.dtype)], axis=0)
        is_positive = a.reshape(is_positive, broadcastable_shape)
        is_positive = logical_and(is_positive, a.ones_like(gathered, dtype=_dtypes.bool), name="and")  # TF: "and"
    zero_slice = a.zeros_like(gathered)
    from .array_misc_ops import where_v2
    return where_v2(is_positive, gathered, zero_slice), zero_clipped_indices, is_positive


def _segment_min_or_max_grad(op, grad, unsorted):
    """TF's _SegmentMinOrMaxGrad / _UnsortedSegmentMinOrMaxGrad, op for op: the gradient is
    split evenly among a segment's tied extremes."""
    a = _a(grad)
    from .array_misc_ops import where_v2
    data, ids = op.inputs[0], op.inputs[1]
    if not unsorted:
        zeros = a.zeros_like(data, dtype=data.dtype)
        gathered_outputs = a.gather(op.outputs[0], ids)
        is_selected = equal(data, gathered_outputs)
        num_selected = segment_sum(cast(is_selected, grad.dtype), ids)
        weighted_grads = grad / num_selected
        gathered_grads = a.gather(weighted_grads, ids)
        return [where_v2(is_selected, gathered_grads, zeros), None]
    from .math_compare_ops import logical_and
    gathered_outputs, zero_clipped_indices, is_positive = _gather_drop_negatives(op.outputs[0], ids)
    is_selected = logical_and(equal(data, gathered_outputs), is_positive)
    num_selected = unsorted_segment_sum(cast(is_selected, grad.dtype), ids, op.inputs[2])
    weighted_grads = grad / num_selected
    gathered_grads, _, _ = _gather_drop_negatives(weighted_grads, None, zero_clipped_indices, is_positive)
    zeros = a.zeros_like(gathered_grads)
    return [where_v2(is_selected, gathered_grads, zeros), None, None]


def _valid_ids(ids):
    from .math_compare_ops import greater_equal
    return greater_equal(ids, constant(0, dtype=ids.dtype.base_dtype))


registry.register_gradient("SegmentMax")(lambda op, g: _segment_min_or_max_grad(op, g, False))
registry.register_gradient("SegmentMin")(lambda op, g: _segment_min_or_max_grad(op, g, False))
registry.register_gradient("UnsortedSegmentMax")(lambda op, g: _segment_min_or_max_grad(op, g, True))
registry.register_gradient("UnsortedSegmentMin")(lambda op, g: _segment_min_or_max_grad(op, g, True))


# -- bincount ------------------------------------------------------------------------------------

def _dense_bincount_shape(op):
    size = constant_value(op.inputs[1])
    return [TensorShape([None if size is None else int(size)])]


registry.register_op("DenseBincount", shape_fn=_dense_bincount_shape)
registry.no_gradient("DenseBincount")


def bincount_v1(arr, weights=None, minlength=None, maxlength=None, dtype=_dtypes.int32):
    """Counts of each value in the integer array `arr` (summed weights when given): output length
    max(max(arr) + 1, minlength), capped at maxlength (values >= maxlength are dropped). TF1's
    bincount_v1, which takes no name."""
    return _bincount(arr, weights, minlength, maxlength, dtype)


bincount = bincount_v1  # (tf.bincount and tf.math.bincount in compat.v1; TF's messages name bincount_v1)


def _bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_dtypes.int32, name=None, axis=None,
              binary_output=False):
    """TF 2.21's bincount_ops.bincount for dense inputs, op for op: the output size is
    cast(size(arr) > 0) * (max(arr) + 1), then Maximum(minlength, .) and Minimum(maxlength, .);
    axis 0 flattens weights and arr (Reshape, Reshape_1)."""
    from .array_ops import reshape, size
    from .math_reduction_ops import reduce_max
    with _name_scope(name or "bincount"):
        arr = convert_to_tensor(arr, name="arr")
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
            _check_allowed("weights", weights.dtype, ("int32", "int64", "float32", "float64"))
        if weights is not None and binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. Please specify "
                             "only one.")
        if not arr.dtype.is_integer:
            arr = cast(arr, _dtypes.int32)
        axis = 0 if axis is None else axis
        if axis not in [0, -1]:
            raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are currently supported.")
        it = arr.dtype.base_dtype
        output_size = cast(size(arr) > 0, it) * (reduce_max(arr) + 1)
        if minlength is not None:
            minlength = convert_to_tensor(minlength, name="minlength", dtype=it)
            output_size = maximum(minlength, output_size)
        if maxlength is not None:
            maxlength = convert_to_tensor(maxlength, name="maxlength", dtype=it)
            output_size = minimum(maxlength, output_size)
        if axis == 0:
            if weights is not None:
                weights = reshape(weights, [-1])
            arr = reshape(arr, [-1])
        if weights is None:
            weights = constant([], dtype=_dtypes.as_dtype(dtype or it).base_dtype)
        if it not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'input' has DataType {it.name} not in list of allowed "
                            "values: int32, int64")
        out_dt = weights.dtype.base_dtype
        return apply_op("DenseBincount", [arr, output_size, weights], [out_dt], "DenseBincount",
                        attrs={"Tidx": it, "T": out_dt, "binary_output": bool(binary_output)})


# -- variance, std ------------------------------------------------------------------------------

def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """The variance of the entries along `axis` (mean of squared deviations)."""
    with _name_scope(name, "reduce_variance"):
        x = convert_to_tensor(input_tensor)   # (TF names it "Const")
        means = reduce_mean(x, axis=axis, keepdims=True)
        if means.dtype.base_dtype.is_integer:
            raise TypeError(f"Input must be either real or complex. Received integer type {means.dtype}.")
        diff = x - means
        if diff.dtype.is_complex:   # as TF: |diff|^2 as Real(Conj(diff) * diff), a real result
            from .math_elementwise_ops import conj, multiply, real
            sq = real(multiply(conj(diff), diff))
        else:
            sq = square(diff)
        return reduce_mean(sq, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """The standard deviation of the entries along `axis`."""
    with _name_scope(name, "reduce_std"):
        x = convert_to_tensor(input_tensor)   # (TF names it "Const")
        return sqrt(reduce_variance(x, axis=axis, keepdims=keepdims))


# -- sort, argsort (TF's top_k construction) -----------------------------------------------------

def _descending_sort(values, axis, return_argsort=False):
    from .nn_ops_extra import top_k
    a = _a(values)
    k = a.shape(values)[axis]
    a.rank(values)  # TF builds a "Rank" op here (used only for an unknown rank; kept for the names)
    static_rank = values.shape.ndims
    if axis == -1 or (static_rank is not None and axis + 1 == static_rank):
        top_k_input, transposition = values, None
    else:
        if static_rank is None:
            raise NotImplementedError("tf.sort along a non-last axis needs a known rank in tensorweave")
        if axis < 0:
            axis += static_rank
        transposition = constant(np.r_[np.arange(axis), [static_rank - 1],
                                       np.arange(axis + 1, static_rank - 1), [axis]].astype(np.int32),
                                 name="transposition")
        top_k_input = a.transpose(values, transposition)
    vals, idx = top_k(top_k_input, k)
    out = idx if return_argsort else vals
    if transposition is not None:
        out = a.transpose(out, transposition)
    return out


def _sort_or_argsort(values, axis, direction, return_argsort):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    # As TF: the axis becomes a Const "axis" and must be a constant scalar.
    axis_t = convert_to_tensor(axis, name="axis")
    axis_static = constant_value(axis_t)
    if axis_t.shape.ndims not in (None, 0) or axis_static is None:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis_t}.")
    axis = int(axis_static)
    values = convert_to_tensor(values, name="values")
    if direction == "DESCENDING":
        return _descending_sort(values, axis, return_argsort)
    dt = values.dtype.base_dtype
    if dt.is_unsigned:
        offset = dt.max
        r = _descending_sort(offset - values, axis, return_argsort)
        return r if return_argsort else offset - r
    if dt.is_integer:
        r = _descending_sort(-values - 1, axis, return_argsort)
        return r if return_argsort else -r - 1
    r = _descending_sort(-values, axis, return_argsort)
    return r if return_argsort else -r


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`values` sorted along `axis` (ties keep their order)."""
    with _name_scope(name, "sort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """The indices that sort `values` along `axis` (int32; ties in index order)."""
    del stable  # the sort is always stable
    with _name_scope(name, "argsort"):
        return _sort_or_argsort(values, axis, direction, return_argsort=True)


# -- TF1 aliases ---------------------------------------------------------------------------------

def arg_min(input, dimension, output_type=_dtypes.int64, name=None):  # noqa: A002
    return argmin(input, axis=dimension, output_type=output_type, name=name)


# Gradients of Igamma / Igammac and the segment products (with the IgammaGradA op).
from . import special_grad_ops  # noqa: E402
_GRADIENT_MODULES = (special_grad_ops,)
