"""tf.math's remaining functions: polyval, cumulative_logsumexp, zero_fraction, nextafter, lbeta,
the modified Bessel functions bessel_i0/i0e/i1/i1e, is_non_decreasing, is_strictly_increasing,
confusion_matrix.

Op types, default names and dtypes follow TensorFlow 2.x's compat.v1 (recorded by running the same
calls under TensorFlow 2.21); composites build TF's ops so results carry TF's names
("polyval/add_1", "lbeta/sub", "zero_fraction/fraction", "confusion_matrix/ScatterNd").
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op, broadcast_shape_fn, unchanged_shape
from .math_ops import _binary, _check_allowed, _reduce_to, _unary, count_nonzero, reduce_all, \
    reduce_max, reduce_sum
from . import math_ops as _mo

__all__ = [
    "polyval", "cumulative_logsumexp", "zero_fraction", "nextafter", "lbeta", "bessel_i0", "bessel_i0e",
    "bessel_i1", "bessel_i1e", "is_non_decreasing", "is_strictly_increasing", "confusion_matrix",
]



def _arr():
    from . import array_ops
    return array_ops


_F = ("bfloat16", "float16", "float32", "float64")


# -- polyval ---------------------------------------------------------------------------------

def polyval(coeffs, x, name=None):
    """coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's method."""
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"Argument coeffs must be list type. Received type: {type(coeffs)}.")
    with _name_scope(name, "polyval", list(coeffs) + [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if len(coeffs) < 1:
            return _arr().zeros_like(x, name=scope)
        coeffs = [convert_to_tensor(c, name=f"coeff_{i}") for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


# -- cumulative_logsumexp ----------------------------------------------------------------------

registry.register_op("CumulativeLogsumexp", shape_fn=unchanged_shape)


@registry.register_gradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, grad):
    x, axis = op.inputs
    out = op.outputs[0]
    exclusive, reverse = op._get_attr("exclusive"), op._get_attr("reverse")
    lowest = constant(grad.dtype.base_dtype.min, dtype=grad.dtype.base_dtype)
    a = _arr()
    log_pos = a.where_v2(_mo.greater(grad, 0), _mo.log(a.where_v2(_mo.greater(grad, 0), grad, 1)), lowest)
    log_neg = a.where_v2(_mo.less(grad, 0), _mo.log(a.where_v2(_mo.less(grad, 0), -grad, 1)), lowest)
    out_pos = _mo.exp(cumulative_logsumexp(log_pos - out, axis, exclusive=exclusive, reverse=not reverse) + x)
    out_neg = _mo.exp(cumulative_logsumexp(log_neg - out, axis, exclusive=exclusive, reverse=not reverse) + x)
    return [out_pos - out_neg, None]


def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """log(cumsum(exp(x))) along `axis`, computed stably."""
    with _name_scope(name, "CumulativeLogsumexp", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        _check_allowed("x", x.dtype, ("bfloat16", "float16", "float32", "float64"))
        ax = convert_to_tensor(axis, name="axis", preferred_dtype=_dtypes.int32)
        _check_allowed("axis", ax.dtype, ("int32", "int64"))
        return apply_op("CumulativeLogsumexp", [x, ax], [x.dtype.base_dtype], scope,
                        attrs={"T": x.dtype.base_dtype, "Tidx": ax.dtype.base_dtype,
                               "exclusive": bool(exclusive), "reverse": bool(reverse)})


# -- zero_fraction -----------------------------------------------------------------------------

def zero_fraction(value, name=None):
    """The fraction of zeros in `value` (a float32 scalar)."""
    with _name_scope(name, "zero_fraction", [value]):
        value = convert_to_tensor(value, name="value")
        size = _arr().size(value, out_type=_dtypes.int64)
        num_nonzero = count_nonzero(value, dtype=_dtypes.int64)
        with _name_scope(None, "counts_to_fraction", [num_nonzero, size]):
            num_zero = size - num_nonzero
            fraction = _mo.truediv(_mo.cast(num_zero, _dtypes.float32), _mo.cast(size, _dtypes.float32))
        return _arr().identity(fraction, name="fraction")


# -- nextafter, lbeta ----------------------------------------------------------------------------

registry.register_op("NextAfter", shape_fn=broadcast_shape_fn)


@registry.register_gradient("NextAfter")
def _next_after_grad(op, grad):
    x1, x2 = op.inputs
    return [_reduce_to(grad, x1, x2), _reduce_to(_arr().zeros_like(grad), x2, x1)]


def nextafter(x1, x2, name=None):
    """The next representable value after x1 in the direction of x2."""
    return _binary("NextAfter", x1, x2, name or "NextAfter", allowed=("float64", "float32"),
                   params=("x1", "x2"))


def lbeta(x, name=None):
    """log(|Beta(x)|) over the last dimension: sum(lgamma(x), -1) - lgamma(sum(x, -1))."""
    with _name_scope(name, "lbeta", [x]):
        x = convert_to_tensor(x, name="x")
        log_prod_gamma_x = reduce_sum(_mo.lgamma(x), axis=[-1])
        sum_x = reduce_sum(x, axis=[-1])
        log_gamma_sum_x = _mo.lgamma(sum_x)
        return log_prod_gamma_x - log_gamma_sum_x


# -- modified Bessel functions -------------------------------------------------------------------

for _t in ("BesselI0", "BesselI0e", "BesselI1", "BesselI1e"):
    registry.register_op(_t, shape_fn=unchanged_shape)


def _bessel(op_type, scope_name, x, name):
    with _name_scope(name, scope_name, [x]):
        x = convert_to_tensor(x, name="x")
        return _unary(op_type, x, op_type, allowed=_F)


def bessel_i0(x, name=None):
    """The modified Bessel function of the first kind of order 0."""
    return _bessel("BesselI0", "bessel_i0", x, name)


def bessel_i0e(x, name=None):
    """exp(-|x|) * bessel_i0(x)."""
    return _bessel("BesselI0e", "bessel_i0e", x, name)


def bessel_i1(x, name=None):
    """The modified Bessel function of the first kind of order 1."""
    return _bessel("BesselI1", "bessel_i1", x, name)


def bessel_i1e(x, name=None):
    """exp(-|x|) * bessel_i1(x)."""
    return _bessel("BesselI1e", "bessel_i1e", x, name)


@registry.register_gradient("BesselI0")
def _bessel_i0_grad(op, grad):
    return [grad * bessel_i1(op.inputs[0])]


@registry.register_gradient("BesselI0e")
def _bessel_i0e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (bessel_i1e(x) - _mo.sign(x) * y)]


def _safe_y_over_x(x, y):
    a = _arr()
    zero = a.zeros_like(x)
    x_is_zero = _mo.equal(x, zero)
    safe_x = a.where_v2(x_is_zero, a.ones_like(x), x)
    return x_is_zero, y / safe_x


@registry.register_gradient("BesselI1")
def _bessel_i1_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    x_is_zero, dy = _safe_y_over_x(x, y)
    d = _arr().where_v2(x_is_zero, constant(0.5, dtype=x.dtype.base_dtype), bessel_i0(x) - dy)
    return [grad * d]


@registry.register_gradient("BesselI1e")
def _bessel_i1e_grad(op, grad):
    x, y = op.inputs[0], op.outputs[0]
    x_is_zero, dy = _safe_y_over_x(x, y)
    d = _arr().where_v2(x_is_zero, constant(0.5, dtype=x.dtype.base_dtype),
                      bessel_i0e(x) - y * _mo.sign(x) - dy)
    return [grad * d]


# -- monotonicity checks -----------------------------------------------------------------------

def _monotonic(x, name, default_name, strict):
    with _name_scope(name, default_name, [x]):
        x = convert_to_tensor(x, name="x")
        if not (x.dtype.base_dtype.is_floating or x.dtype.base_dtype.is_integer):
            raise TypeError(f"Expected x to be numeric, got dtype {x.dtype.base_dtype.name}")
        a = _arr()
        flat = a.reshape(x, [-1])
        nxt, prev = flat[1:], flat[:-1]
        diff = _mo.greater(nxt, prev) if strict else _mo.greater_equal(nxt, prev)
        return reduce_all(diff)


def is_non_decreasing(x, name=None):
    """True when x[i] <= x[i + 1] for all i (x flattened); True for fewer than 2 elements."""
    return _monotonic(x, name, "is_non_decreasing", False)


def is_strictly_increasing(x, name=None):
    """True when x[i] < x[i + 1] for all i (x flattened); True for fewer than 2 elements."""
    return _monotonic(x, name, "is_strictly_increasing", True)


# -- confusion_matrix (TF1's argument order) -------------------------------------------------------

def remove_squeezable_dimensions(labels, predictions, expected_rank_diff=0, name=None):
    """TF's confusion_matrix.remove_squeezable_dimensions: squeezes the trailing size-1 dimension
    of the one of `labels`/`predictions` whose rank is one more than expected (by a cond on the
    ranks when they are known only at run time)."""
    from .control_flow_ops import cond
    a = _arr()
    with _name_scope(name, "remove_squeezable_dimensions", [labels, predictions]):
        predictions = convert_to_tensor(predictions)
        labels = convert_to_tensor(labels)
        ps, ls = predictions.shape, labels.shape
        if ls.ndims is not None and ps.ndims is not None:
            rank_diff = ps.ndims - ls.ndims
            if rank_diff == expected_rank_diff + 1 and ps.dims[-1].is_compatible_with(1):
                predictions = a.squeeze(predictions, [-1])
            elif rank_diff == expected_rank_diff - 1 and ls.dims[-1].is_compatible_with(1):
                labels = a.squeeze(labels, [-1])
            return labels, predictions
        rank_diff = a.rank(predictions) - a.rank(labels)
        if ps.ndims is None or ps.dims[-1].is_compatible_with(1):
            p = predictions
            predictions = cond(_mo.equal(expected_rank_diff + 1, rank_diff), lambda: a.squeeze(p, [-1]), lambda: p)
        if ls.ndims is None or ls.dims[-1].is_compatible_with(1):
            lab = labels
            labels = cond(_mo.equal(expected_rank_diff - 1, rank_diff), lambda: a.squeeze(lab, [-1]), lambda: lab)
        return labels, predictions


def confusion_matrix(labels, predictions, num_classes=None, dtype=_dtypes.int32, name=None, weights=None):
    """cm[i, j] = number (or total weight) of examples with label i predicted as j; a trailing
    size-1 dimension of labels or predictions is squeezed (remove_squeezable_dimensions)."""
    from .check_ops import assert_less, assert_non_negative
    from .control_flow_ops import with_dependencies
    a = _arr()
    with _name_scope(name, "confusion_matrix", (predictions, labels, num_classes, weights)):
        labels, predictions = remove_squeezable_dimensions(convert_to_tensor(labels, name="labels"),
                                                           convert_to_tensor(predictions, name="predictions"))
        predictions = _mo.cast(predictions, _dtypes.int64)
        labels = _mo.cast(labels, _dtypes.int64)
        # TF's graph: the sign checks always, the bound checks when num_classes is given
        labels = with_dependencies([assert_non_negative(labels, message="`labels` contains negative values")],
                                   labels)
        predictions = with_dependencies(
            [assert_non_negative(predictions, message="`predictions` contains negative values")], predictions)
        if num_classes is None:
            num_classes = _mo.maximum(reduce_max(predictions), reduce_max(labels)) + 1
        else:
            num_classes_int64 = _mo.cast(num_classes, _dtypes.int64)
            labels = with_dependencies([assert_less(labels, num_classes_int64, message="`labels` out of bound")],
                                       labels)
            predictions = with_dependencies(
                [assert_less(predictions, num_classes_int64, message="`predictions` out of bound")], predictions)
        dtype = _dtypes.as_dtype(dtype).base_dtype
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
            predictions.shape.assert_is_compatible_with(weights.shape)
            weights = _mo.cast(weights, dtype)
        shape = a.stack([num_classes, num_classes])
        indices = a.stack([labels, predictions], axis=1)
        values = a.ones_like(predictions, dtype=dtype) if weights is None else weights
        return a.scatter_nd(indices=indices, updates=values, shape=_mo.cast(shape, _dtypes.int64))
