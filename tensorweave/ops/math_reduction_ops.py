"""Reductions (reduce_sum, reduce_mean, ...), argmax / argmin, cumulative scans and segment
sums.
"""

import builtins

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, unchanged_shape
from ..framework.tensor_shape import TensorShape, note_input_value, unknown_shape
from .math_ops import (
    _a, _broadcast_like, _check_allowed, _check_bool, _COMPARE, _dense, _dims, _FLOAT, _INDEX,
    _kept_grad, _MAX, _norm_axes, _SUM, _tf_sum_grad,
)


# -- reductions ----------------------------------------------------------------------------------

def _reduction_shape(op):
    x = op._inputs[0]._shape
    keep = op._attrs["keep_dims"]
    axes = constant_value(op._inputs[1])
    idx_rank = op._inputs[1]._shape.ndims
    if idx_rank is not None and idx_rank > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {idx_rank}")
    note_input_value(1, axes)  # TF's error context names the reduction indices it read
    if x.ndims is None:
        return [unknown_shape()]
    if axes is None:
        return [unknown_shape(x.ndims) if keep else unknown_shape()]
    n = x.ndims
    red = set()
    for ax in np.asarray(axes).reshape(-1).tolist():
        if not -n <= ax < n:
            raise ValueError(f"Invalid reduction dimension {ax} for input with {n} dimensions.")
        red.add(ax % n)
    dims = x.as_list()
    if keep:
        return [TensorShape([1 if i in red else d for i, d in enumerate(dims)])]
    return [TensorShape([d for i, d in enumerate(dims) if i not in red])]


for _t in ["Sum", "Mean", "Max", "Min", "Prod", "Any", "All", "EuclideanNorm"]:
    registry.register_op(_t, shape_fn=_reduction_shape)
registry.no_gradient("Any")
registry.no_gradient("All")


def _deprecated(new_name, new, old_name, old):
    if old is not None:
        if new is not None:
            raise ValueError(f"Cannot specify both '{old_name}' and '{new_name}'.")
        return old
    return new


def _reduce(op_type, input_tensor, axis, keepdims, name, allowed, reduction_indices=None,
            keep_dims=None, out_dtype=None):
    axis = _deprecated("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    # TF's _may_reduce_to_scalar: a full reduction without keepdims is a scalar even when the
    # input's rank is unknown.
    to_scalar = axis is None and not keepdims
    x = input_tensor
    if isinstance(x, IndexedSlices):
        x = convert_to_tensor(x)
    if axis is None:
        # All dimensions: a constant list when the rank is known and non-zero (named "Const",
        # outside the op's scope, as in TF), else range(0, rank(x)) (TF's _ReductionDims tests
        # `if x_rank:`, so a scalar gets ops "Rank", "range/start", "range/delta", "range").
        shape = getattr(x, "shape", None)
        rank = shape.ndims if isinstance(shape, TensorShape) else None
        if rank:
            axis = constant(np.arange(rank, dtype=np.int32))
        else:
            # A Python/NumPy input is converted twice, as in TF: "Rank/Const", then "Sum/input".
            axis = _range_of_rank(x)
    with _name_scope(name, op_type, [x, axis]) as scope:
        if not isinstance(x, Tensor) and op_type in ("Any", "All"):
            # TF's op builder converts a Python value to the input's fixed dtype, bool
            try:
                x = convert_to_tensor(x, name="input", dtype=_dtypes.bool)
            except (TypeError, ValueError) as e:
                raise TypeError(f"Expected bool passed to parameter 'input' of op '{op_type}', got {x!r} of "
                                f"type '{type(x).__name__}' instead. Error: {e}") from None
        elif not isinstance(x, Tensor):
            x = convert_to_tensor(x, name="input")
        _check_allowed("input", x.dtype, allowed)
        if op_type in ("Any", "All"):
            _check_bool(op_type, "input", x)
        if isinstance(axis, Tensor):
            idx = axis
        else:
            if isinstance(axis, (list, tuple)) and not axis:
                # TF's op builder leaves a dead float32 Const "Sum/reduction_indices" for [].
                convert_to_tensor(axis, name="reduction_indices")
            idx = convert_to_tensor(axis, name="reduction_indices", preferred_dtype=_dtypes.int32)
        _check_allowed("reduction_indices", idx.dtype, _INDEX)
        dt = x.dtype.base_dtype
        attrs = {"T": dt, "Tidx": idx.dtype.base_dtype, "keep_dims": keepdims}
        if op_type in ("Any", "All"):
            del attrs["T"]  # TF's Any/All have no type attr (the input is always bool)
        out = apply_op(op_type, [x, idx], [out_dtype or dt], scope, attrs=attrs)
        if to_scalar:
            out.set_shape(())
        return out


def _range_of_rank(x):
    """range(0, rank(x)) (TF's _ReductionDims for scalars and inputs of unknown rank)."""
    from .array_range_ops import range as _range
    return _range(0, _a(x).rank(x))


def reduce_sum(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Sum over `axis` (all axes when None); keepdims keeps reduced axes with size 1."""
    return _reduce("Sum", input_tensor, axis, keepdims, name, _SUM, reduction_indices, keep_dims)


def reduce_mean(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Mean over `axis`; an integer mean stays integer (truncated toward zero), as in TF."""
    return _reduce("Mean", input_tensor, axis, keepdims, name, _SUM, reduction_indices, keep_dims)


def reduce_prod(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Product over `axis`."""
    return _reduce("Prod", input_tensor, axis, keepdims, name, _SUM, reduction_indices, keep_dims)


def reduce_max(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Maximum over `axis` (the lowest value of the dtype for an empty reduction)."""
    return _reduce("Max", input_tensor, axis, keepdims, name, _MAX, reduction_indices, keep_dims)


def reduce_min(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Minimum over `axis` (the highest value of the dtype for an empty reduction)."""
    return _reduce("Min", input_tensor, axis, keepdims, name, _MAX, reduction_indices, keep_dims)


def reduce_any(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Logical OR over `axis` (bool input)."""
    return _reduce("Any", input_tensor, axis, keepdims, name, None, reduction_indices, keep_dims)


def reduce_all(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None, keep_dims=None):
    """Logical AND over `axis` (bool input)."""
    return _reduce("All", input_tensor, axis, keepdims, name, None, reduction_indices, keep_dims)


def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum(x ** 2)) over `axis`."""
    return _reduce("EuclideanNorm", input_tensor, axis, keepdims, name, _SUM)


def reduce_logsumexp(input_tensor, axis=None, keepdims=None, name=None, reduction_indices=None,
                     keep_dims=None):
    """log(sum(exp(x))) over `axis`, computed stably (max subtracted first)."""
    axis = _deprecated("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    with _name_scope(name, "ReduceLogSumExp", [input_tensor]) as scope:
        # TF 2.21's ops, in its order: the input is converted by each op that uses it ("Max/input",
        # "Sub/x" for a Python list) and the zero for a non-finite max is "SelectV2/e".
        raw_max = reduce_max(input_tensor, axis=axis, keepdims=True)
        a = _a(raw_max)
        my_max = a.stop_gradient(a.where_v2(is_finite(raw_max), raw_max, 0))
        result = log(reduce_sum(exp(subtract(input_tensor, my_max)), axis=axis, keepdims=keepdims))
        if not keepdims:
            my_max = a.reshape(my_max, a.shape(result))
        result = add(result, my_max, name=scope)
        if axis is None and not keepdims:
            result.set_shape(())   # TF's _may_reduce_to_scalar
        return result


def _sum_grad_common(op, grad):
    x = op._inputs[0]
    g = _kept_grad(grad, x, op._inputs[1], op._attrs["keep_dims"])
    return _broadcast_like(g, x)


@registry.register_gradient("Sum")
def _sum_grad(op, grad):
    return [_tf_sum_grad(op, grad), None]


def _count(op):
    """Number of input elements per output element (static when possible)."""
    x, y = op._inputs[0], op.outputs[0]
    xs, ys = x.shape, y.shape
    m = int(np.prod(ys.as_list())) if ys.is_fully_defined() else None
    if xs.is_fully_defined() and m is not None:
        n = int(np.prod(xs.as_list()))
        return builtins.max(n // builtins.max(m, 1), 1) if n else 1
    a = _a(x)
    n = reduce_prod(a.shape(x))
    if m is not None:
        return n if m <= 1 else floordiv(n, m)
    return floordiv(n, maximum(reduce_prod(a.shape(y)), 1))


@registry.register_gradient("Mean")
def _mean_grad(op, grad):
    """TF's _MeanGrad: the Sum gradient divided by the number of elements reduced."""
    a = _a(grad)
    sum_grad = _tf_sum_grad(op, grad)
    xs, ys = _dims(op._inputs[0].shape), _dims(op.outputs[0].shape)
    if xs is not None and ys is not None and None not in xs and None not in ys:
        factor = int(np.prod(xs, dtype=np.int64)) // builtins.max(int(np.prod(ys, dtype=np.int64)), 1)
        factor = constant(factor, dtype=sum_grad.dtype.base_dtype)
    else:
        input_shape = a.shape(op._inputs[0])
        input_rank = a.size(input_shape)
        axes = cast(op._inputs[1], input_rank.dtype)
        axes = (axes + input_rank) % input_rank
        factor = reduce_prod(a.gather(input_shape, axes))
    return [truediv(sum_grad, cast(factor, sum_grad.dtype.base_dtype)), None]


def _min_or_max_grad(op, grad):
    """TF's _MinOrMaxGrad: ties share the gradient equally."""
    x = op._inputs[0]
    keep = op._attrs["keep_dims"]
    if x.shape.is_fully_defined():
        _a(x).shape(x)  # TF's `input_shape` ("<Op>_grad/Shape", a constant here)
    y = _kept_grad(op.outputs[0], x, op._inputs[1], keep)
    g = _kept_grad(grad, x, op._inputs[1], keep)
    indicators = cast(equal(y, x), grad.dtype.base_dtype)
    if keep:
        num_selected = reduce_sum(indicators, op._inputs[1], keepdims=True)
    else:  # TF reshapes the plain sum to the kept-dims shape ("Reshape_2")
        num_selected = _kept_grad(reduce_sum(indicators, op._inputs[1]), x, op._inputs[1], False)
    return [(indicators / num_selected) * g, None]


registry.register_gradient("Max")(_min_or_max_grad)
registry.register_gradient("Min")(_min_or_max_grad)


@registry.register_gradient("EuclideanNorm")
def _euclidean_norm_grad(op, grad):
    x = op._inputs[0]
    keep = op._attrs["keep_dims"]
    if not keep and x.shape.is_fully_defined():
        _a(x).shape(x)  # TF's reduced_shape(shape(x), ...) ("EuclideanNorm_grad/Shape", a constant)
    y = _kept_grad(op.outputs[0], x, op._inputs[1], keep)
    g = _kept_grad(grad, x, op._inputs[1], keep)
    # TF: truediv(x, output / grad) -- "truediv", "truediv_1"; NaN where the norm is 0, like TF.
    return [x / (y / g), None]


@registry.register_gradient("Prod")
def _prod_grad(op, grad):
    """TF's _ProdGrad, op for op: the product of all other elements, as exclusive cumprods from
    both ends (so zeros are handled), over the reduced axes gathered into one leading axis
    (any rank, axes known only at run time too)."""
    from .array_misc_ops import invert_permutation, setdiff1d
    from .array_range_ops import range as _range
    from .math_elementwise_ops import conj
    from .math_ops import _tf_reduced_shape
    a = _a(grad)
    x = op._inputs[0]
    input_shape = a.shape(x)
    reduction_indices = a.reshape(op._inputs[1], [-1])
    if not op._attrs["keep_dims"]:
        grad = a.reshape(grad, _tf_reduced_shape(input_shape, op._inputs[1]))
    grad = a.broadcast_to(grad, input_shape)
    rank = a.rank(x)
    reduction_indices = cast(reduction_indices, rank.dtype)
    reduced = (reduction_indices + rank) % rank
    idx = _range(0, rank)
    other, _ = setdiff1d(idx, reduced, index_dtype=reduced.dtype)
    perm = a.concat([reduced, other], 0)
    reduced_num = reduce_prod(a.gather(input_shape, reduced))
    other_num = reduce_prod(a.gather(input_shape, other))
    permuted = a.transpose(x, perm)
    permuted_shape = a.shape(permuted)
    reshaped = a.reshape(permuted, (reduced_num, other_num))
    left = cumprod(reshaped, axis=0, exclusive=True)
    right = cumprod(reshaped, axis=0, exclusive=True, reverse=True)
    y = a.reshape(conj(left) * conj(right), permuted_shape)
    out = grad * a.transpose(y, invert_permutation(perm))
    return [a.reshape(out, input_shape), None]


@registry.register_static_value("Sum")
def _sum_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None:
        return None
    x = np.asarray(x)
    if x.dtype.kind not in "iub":
        return None     # float results depend on the order: the kernel computes them, as TF's
    if _has_duplicates(axes, x.ndim):
        return None
    ax = tuple(_norm_axes(axes, x.ndim))
    with np.errstate(invalid="ignore", over="ignore"):   # inf - inf is NaN, silently, as in TF
        return np.sum(x, axis=ax, keepdims=op._attrs["keep_dims"], dtype=x.dtype)


def _has_duplicates(axes, ndims):
    """Duplicate reduction axes are a run-time error in TF, so they are not folded while building."""
    flat = [int(a) % ndims if ndims else int(a) for a in np.asarray(axes).reshape(-1)]
    return len(set(flat)) != len(flat)


@registry.register_static_value("Prod")
def _prod_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None:
        return None
    x = np.asarray(x)
    if x.dtype.kind not in "iub":
        return None     # float results depend on the order: the kernel computes them, as TF's
    if _has_duplicates(axes, x.ndim):
        return None
    ax = tuple(_norm_axes(axes, x.ndim))
    with np.errstate(invalid="ignore", over="ignore"):   # inf - inf is NaN, silently, as in TF
        return np.prod(x, axis=ax, keepdims=op._attrs["keep_dims"], dtype=x.dtype)


@registry.register_static_value("Max")
def _max_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None:
        return None
    x = np.asarray(x)
    if _has_duplicates(axes, x.ndim):
        return None
    # an empty reduction gives the reducer's identity, as TF's kernel (and its constant folding)
    init = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min if x.dtype.kind in "iu" else None
    if init is None and x.size == 0:
        return None
    return np.max(x, axis=tuple(_norm_axes(axes, x.ndim)), keepdims=op._attrs["keep_dims"],
                  **({} if init is None else {"initial": x.dtype.type(init)}))


@registry.register_static_value("Min")
def _min_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None:
        return None
    x = np.asarray(x)
    if _has_duplicates(axes, x.ndim):
        return None
    # an empty reduction gives the reducer's identity, as TF's kernel (and its constant folding)
    init = np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).max if x.dtype.kind in "iu" else None
    if init is None and x.size == 0:
        return None
    return np.min(x, axis=tuple(_norm_axes(axes, x.ndim)), keepdims=op._attrs["keep_dims"],
                  **({} if init is None else {"initial": x.dtype.type(init)}))


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=_dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002
    """Number of nonzero elements over `axis` (int64 by default)."""
    input_tensor = _deprecated("input_tensor", input_tensor, "input", input)
    axis = _deprecated("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    dtype = _dtypes.as_dtype(dtype)
    with _name_scope(name, "count_nonzero", [input_tensor]):
        x = convert_to_tensor(input_tensor, name="input")
        if x.dtype.base_dtype is _dtypes.bool:
            nz = cast(x, _dtypes.int64)
        else:
            # TF's zeros([], dtype): "" for strings, so strings count when non-empty
            zero = constant("" if x.dtype.base_dtype is _dtypes.string else 0, dtype=x.dtype.base_dtype,
                            name="zeros")
            nz = cast(not_equal(x, zero), _dtypes.int64)
        return cast(reduce_sum(nz, axis=axis, keepdims=keepdims), dtype)


# -- arg max / min -------------------------------------------------------------------------------

def _arg_shape(op):
    x = op._inputs[0]._shape
    op._inputs[1]._shape.require_rank(0)
    if x.ndims is not None and x.ndims <= 1:
        return [TensorShape([])]        # (TF: a scalar for a vector, whatever the axis)
    axis = constant_value(op._inputs[1])
    note_input_value(1, axis)
    if x.ndims is None:
        return [unknown_shape()]
    if axis is None:
        return [unknown_shape(builtins.max(x.ndims - 1, 0))]
    n = x.ndims
    ax = int(np.asarray(axis).reshape(-1)[0])
    if not -builtins.max(n, 1) <= ax < builtins.max(n, 1):
        raise ValueError(f"Dimension ({ax}) must be in the range [{-n}, {n}), where {n} is the number of "
                         "dimensions in the input.")
    if n == 0:
        return [TensorShape([])]
    dims = x.as_list()
    del dims[ax % n]
    return [TensorShape(dims)]


registry.register_op("ArgMax", shape_fn=_arg_shape)
registry.register_op("ArgMin", shape_fn=_arg_shape)
registry.no_gradient("ArgMax")
registry.no_gradient("ArgMin")


def _arg(op_type, input, axis, name, dimension, output_type, check_axis=False):  # noqa: A002
    axis = _deprecated("axis", axis, "dimension", dimension)
    if axis is None:
        axis = 0
    if check_axis:                      # (TF's argmax_v2 checks; argmin_v2 and arg_max do not)
        if isinstance(axis, Tensor):
            dt = axis.dtype.base_dtype
            if dt not in (_dtypes.int8, _dtypes.uint8, _dtypes.int16, _dtypes.uint16, _dtypes.int32,
                          _dtypes.int64):
                raise TypeError(f"axis tensor dtypes <dtype: '{dt.name}'> is not supported")
            if dt in (_dtypes.int8, _dtypes.uint8, _dtypes.int16, _dtypes.uint16):
                from .math_ops import cast
                axis = cast(axis, _dtypes.int32)
        elif hasattr(axis, "dtype"):    # a NumPy value: never in TF's set of tf.DTypes
            raise TypeError(f"axis tensor dtypes {axis.dtype} is not supported")
        elif not isinstance(axis, int):
            raise TypeError("axis must be int or Tensor with integer datatype")
    output_type = _dtypes.as_dtype(output_type).base_dtype
    # ArgMin's output_type is int32/int64 only (ArgMax also takes int16/uint16)
    allowed = ("int16", "uint16", "int32", "int64") if op_type == "ArgMax" else ("int32", "int64")
    if output_type.name not in allowed:
        raise TypeError(f"Value passed to parameter 'output_type' has DataType {output_type.name} not in "
                        f"list of allowed values: {', '.join(allowed)}")
    with _name_scope(name, op_type, [input, axis]) as scope:
        x = _dense(input, name="input")
        _check_allowed("input", x.dtype, _COMPARE + ("qint8", "quint8", "qint32", "qint16", "quint16", "bool"))
        dim = axis if isinstance(axis, Tensor) else convert_to_tensor(axis, name="dimension",
                                                                     preferred_dtype=_dtypes.int32)
        _check_allowed("dimension", dim.dtype, _INDEX + ("int16",))
        return apply_op(op_type, [x, dim], [output_type], scope,
                        attrs={"T": x.dtype.base_dtype, "Tidx": dim.dtype.base_dtype,
                               "output_type": output_type})


def argmax(input, axis=None, name=None, dimension=None, output_type=_dtypes.int64):  # noqa: A002
    """Index of the largest value along `axis` (default 0); ties give the first index."""
    return _arg("ArgMax", input, axis, name, dimension, output_type, check_axis=True)


def arg_max(input, dimension, output_type=_dtypes.int64, name=None):  # noqa: A002
    """TF1's generated ArgMax (dimension is required)."""
    return _arg("ArgMax", input, dimension, name, None, output_type)


def argmin(input, axis=None, name=None, dimension=None, output_type=_dtypes.int64):  # noqa: A002
    """Index of the smallest value along `axis` (default 0); ties give the first index."""
    return _arg("ArgMin", input, axis, name, dimension, output_type)


# -- scans ---------------------------------------------------------------------------------------

registry.register_op("Cumsum", shape_fn=unchanged_shape)
registry.register_op("Cumprod", shape_fn=unchanged_shape)


def _scan(op_type, x, axis, exclusive, reverse, name):
    with _name_scope(name, op_type, [x]) as scope:
        x = _dense(x, name="x")
        _check_allowed("x", x.dtype, _SUM)
        ax = axis if isinstance(axis, Tensor) else convert_to_tensor(axis, name="axis",
                                                                    preferred_dtype=_dtypes.int32)
        _check_allowed("axis", ax.dtype, _INDEX)
        return apply_op(op_type, [x, ax], [x.dtype.base_dtype], scope,
                        attrs={"T": x.dtype.base_dtype, "Tidx": ax.dtype.base_dtype,
                               "exclusive": bool(exclusive), "reverse": bool(reverse)})


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative sum along `axis`; exclusive leaves out the element itself, reverse runs from
    the end."""
    return _scan("Cumsum", x, axis, exclusive, reverse, name)


def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Cumulative product along `axis` (see cumsum)."""
    return _scan("Cumprod", x, axis, exclusive, reverse, name)


@registry.register_gradient("Cumsum")
def _cumsum_grad(op, grad):
    return [cumsum(grad, op._inputs[1], exclusive=op._attrs["exclusive"], reverse=not op._attrs["reverse"]),
            None]


@registry.register_gradient("Cumprod")
def _cumprod_grad(op, grad):
    x = op._inputs[0]
    # TF's _CumprodGrad: recomputes the cumprod, div_no_nan (0 where x is 0)
    axis, exclusive, reverse = op._inputs[1], op._attrs["exclusive"], op._attrs["reverse"]
    prod = cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    out = cumsum(prod * grad, axis, exclusive=exclusive, reverse=not reverse)
    return [div_no_nan(out, x), None]


# -- segments ------------------------------------------------------------------------------------

def _unsorted_segment_shape(op):
    # TF's UnsortedSegmentReductionShapeFn: num_segments is a scalar; data's leading dims merge
    # with segment_ids' shape; num_segments, when constant, must be non-negative
    data, ids, ns = op._inputs[0]._shape, op._inputs[1]._shape, op._inputs[2]._shape
    if ns.ndims is not None and ns.ndims != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {ns.ndims}")
    if ids.ndims is None:
        return [unknown_shape()]
    k = ids.ndims
    if data.ndims is not None:
        if k > data.ndims:
            raise ValueError(f"Shape must be at least rank {k} but is rank {data.ndims}")
        for a, b in zip(data.as_list()[:k], ids.as_list()):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    n = constant_value(op._inputs[2])
    if n is not None:
        n = int(n)
        note_input_value(2, n)
        if n < 0:
            raise ValueError(f"Dimension size, given by scalar input 2, must be non-negative but is {n}")
    if data.ndims is None:
        return [unknown_shape()]
    return [TensorShape([n] + data.as_list()[k:])]


def _segment_shape(op):
    # TF's SegmentReductionShapeFn: data of rank >= 1, segment_ids a vector; the number of ids is
    # checked against data's first dimension only by the kernel
    data, ids = op._inputs[0]._shape, op._inputs[1]._shape
    if data.ndims is not None and data.ndims < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {data.ndims}")
    if ids.ndims is not None and ids.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {ids.ndims}")
    if data.ndims is None:
        return [unknown_shape()]
    return [TensorShape([None] + data.as_list()[1:])]


registry.register_op("UnsortedSegmentSum", shape_fn=_unsorted_segment_shape)
registry.register_op("SegmentSum", shape_fn=_segment_shape)
registry.register_op("SegmentMean", shape_fn=_segment_shape)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """output[i] = sum of data[j...] over j with segment_ids[j...] == i (negative ids dropped)."""
    with _name_scope(name, "UnsortedSegmentSum", [data, segment_ids, num_segments]) as scope:
        data = _dense(data, name="data")
        _check_allowed("data", data.dtype, _SUM)   # (TF's number types, in its order)
        ids = segment_ids if isinstance(segment_ids, Tensor) else convert_to_tensor(
            segment_ids, name="segment_ids", preferred_dtype=_dtypes.int32)
        _check_allowed("segment_ids", ids.dtype, ("int16",) + _INDEX)  # TF 2.21 admits int16 here
        n = num_segments if isinstance(num_segments, Tensor) else convert_to_tensor(
            num_segments, name="num_segments", preferred_dtype=_dtypes.int32)
        _check_allowed("num_segments", n.dtype, _INDEX)
        return apply_op("UnsortedSegmentSum", [data, ids, n], [data.dtype.base_dtype], scope,
                        attrs={"T": data.dtype.base_dtype, "Tindices": ids.dtype.base_dtype,
                               "Tnumsegments": n.dtype.base_dtype})


def _segment(op_type, data, segment_ids, name):
    with _name_scope(name, op_type, [data, segment_ids]) as scope:
        data = _dense(data, name="data")
        _check_allowed("data", data.dtype, _SUM)   # (TF's number types, in its order)
        ids = segment_ids if isinstance(segment_ids, Tensor) else convert_to_tensor(
            segment_ids, name="segment_ids", preferred_dtype=_dtypes.int32)
        _check_allowed("segment_ids", ids.dtype, _INDEX)
        return apply_op(op_type, [data, ids], [data.dtype.base_dtype], scope,
                        attrs={"T": data.dtype.base_dtype, "Tindices": ids.dtype.base_dtype})


def segment_sum(data, segment_ids, name=None):
    """Sums rows of data with equal (sorted) segment ids; output has max(id) + 1 rows."""
    return _segment("SegmentSum", data, segment_ids, name)


def segment_mean(data, segment_ids, name=None):
    """Means of rows of data with equal (sorted) segment ids (empty segments give 0)."""
    return _segment("SegmentMean", data, segment_ids, name)


def _gather_drop_negatives(params, ids):
    """gather(params, ids) with rows for negative ids zeroed."""
    a = _a(params)
    clipped = maximum(ids, constant(0, dtype=ids.dtype.base_dtype))
    gathered = a.gather(params, clipped)
    mask = cast(greater_equal(ids, constant(0, dtype=ids.dtype.base_dtype)), params.dtype.base_dtype)
    extra = (gathered.shape.ndims - ids.shape.ndims) if (gathered.shape.ndims is not None
                                                         and ids.shape.ndims is not None) else None
    if extra is None:
        return gathered
    if extra:
        mask = a.reshape(mask, a.concat([a.shape(mask), a.ones([extra], _dtypes.int32)], 0))
    return gathered * mask


@registry.register_gradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, grad):
    return [_gather_drop_negatives(grad, op._inputs[1]), None, None]


@registry.register_gradient("SegmentSum")
def _segment_sum_grad(op, grad):
    return [_a(grad).gather(grad, op._inputs[1]), None]


@registry.register_gradient("SegmentMean")
def _segment_mean_grad(op, grad):
    a = _a(grad)
    data, ids = op._inputs
    ones = a.ones_like(ids)
    counts = segment_sum(cast(ones, grad.dtype.base_dtype), ids)
    extra = grad.shape.ndims - 1 if grad.shape.ndims is not None else None
    if extra:
        counts = a.reshape(counts, a.concat([a.shape(counts), a.ones([extra], _dtypes.int32)], 0))
    return [a.gather(grad / maximum(counts, _one(counts)), ids), None]


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and math_ops.py imports them all once its helpers exist.
from .math_elementwise_ops import (  # noqa: E402
    add, div_no_nan, exp, floordiv, is_finite, log, maximum, _one, subtract, truediv,
)
from .math_compare_ops import cast, equal, greater_equal, not_equal  # noqa: E402
