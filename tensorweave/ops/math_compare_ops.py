"""Comparisons and logic, casts, clipping, and n-ary sums (add_n): the elementwise ops beyond
arithmetic.
"""

import builtins

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, shape_str, unchanged_shape
from ..framework.tensor_shape import as_shape, unknown_shape
from .math_ops import (
    _a, _binary, _bool_binary, _check_allowed, _check_bool, _COMPARE, _dense, _reduce_to, _SUM, _use_name,
)


# -- comparisons and logic -----------------------------------------------------------------------

def equal(x, y, name=None):
    """x == y elementwise (bool), with broadcasting."""
    return _binary("Equal", x, y, name or "Equal", allowed=None, out_dtype=_dtypes.bool,
                   attrs={"incompatible_shape_error": True})


def not_equal(x, y, name=None):
    """x != y elementwise (bool), with broadcasting."""
    return _binary("NotEqual", x, y, name or "NotEqual", allowed=None, out_dtype=_dtypes.bool,
                   attrs={"incompatible_shape_error": True})


def less(x, y, name=None):
    """x < y elementwise (bool)."""
    return _binary("Less", x, y, name or "Less", allowed=_COMPARE, out_dtype=_dtypes.bool)


def less_equal(x, y, name=None):
    """x <= y elementwise (bool)."""
    return _binary("LessEqual", x, y, name or "LessEqual", allowed=_COMPARE, out_dtype=_dtypes.bool)


def greater(x, y, name=None):
    """x > y elementwise (bool)."""
    return _binary("Greater", x, y, name or "Greater", allowed=_COMPARE, out_dtype=_dtypes.bool)


def greater_equal(x, y, name=None):
    """x >= y elementwise (bool)."""
    return _binary("GreaterEqual", x, y, name or "GreaterEqual", allowed=_COMPARE, out_dtype=_dtypes.bool)


def logical_and(x, y, name=None):
    """x AND y elementwise (bool tensors)."""
    return _bool_binary("LogicalAnd", x, y, name or "LogicalAnd")


def logical_or(x, y, name=None):
    """x OR y elementwise (bool tensors)."""
    return _bool_binary("LogicalOr", x, y, name or "LogicalOr")


def logical_not(x, name=None):
    """NOT x elementwise (bool tensor)."""
    if not isinstance(x, Tensor):
        with _name_scope(name, "LogicalNot", [x]) as scope:
            return logical_not(convert_to_tensor(x, name="x", preferred_dtype=_dtypes.bool), name=scope)
    _check_bool("LogicalNot", "x", x)
    return apply_op("LogicalNot", [x], [_dtypes.bool], name or "LogicalNot")


def logical_xor(x, y, name="LogicalXor"):
    """x XOR y = (x OR y) AND NOT (x AND y)."""
    with _name_scope(name, "LogicalXor", [x, y]) as scope:
        return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=scope)


# -- casts ---------------------------------------------------------------------------------------

registry.register_op("Cast", shape_fn=unchanged_shape)


@registry.register_gradient("Cast")
def _cast_grad(op, grad):
    src = op._attrs["SrcT"]
    dst = op._attrs["DstT"]
    ok = (src.is_floating or src.is_complex) and (dst.is_floating or dst.is_complex)
    return [cast(grad, src) if ok else None]


def cast(x, dtype, name=None):
    """Casts x to `dtype` (a no-op when x already has it). Floats to ints truncate toward zero."""
    base = _dtypes.as_dtype(dtype).base_dtype
    if isinstance(x, IndexedSlices):
        return IndexedSlices(cast(x.values, base, name=name), x.indices, x.dense_shape)
    if isinstance(x, Tensor) and x._dtype.base_dtype is base:
        return x
    if getattr(x, "_is_resource_variable", False) and x.dtype.base_dtype is base:
        return x  # as TF: a resource variable of the target dtype is returned as is (no read)
    if not isinstance(x, Tensor):
        with _name_scope(name, "Cast", [x]) as scope:
            x = convert_to_tensor(x, name="x")
            if x.dtype.base_dtype is base:
                return x
            return apply_op("Cast", [x], [base], scope,
                            attrs={"SrcT": x.dtype.base_dtype, "DstT": base, "Truncate": False})
    return apply_op("Cast", [x], [base], name or "Cast",
                    attrs={"SrcT": x._dtype.base_dtype, "DstT": base, "Truncate": False})


def to_float(x, name="ToFloat"):
    """Casts to float32 (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.float32, name=name)


def to_double(x, name="ToDouble"):
    """Casts to float64 (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.float64, name=name)


def to_int32(x, name="ToInt32"):
    """Casts to int32 (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.int32, name=name)


def to_int64(x, name="ToInt64"):
    """Casts to int64 (deprecated in TF: use tf.cast)."""
    return cast(x, _dtypes.int64, name=name)


def saturate_cast(value, dtype, name=None):
    """Casts to `dtype`, clamping values to its range first (no wrap-around).

    TF's algorithm step by step, its quirks included: the limits are NumPy values of the input
    dtype (float(int64.max) wraps to int64.min, so int64 -> int64/uint64 clamps everything to
    one value), nudged toward 0 where they round past the output's range."""
    with _name_scope(name, "saturate_cast", [value]) as scope:
        value = convert_to_tensor(value, name="value")
        dtype = _dtypes.as_dtype(dtype).base_dtype
        in_dtype = value.dtype
        if in_dtype.is_complex:
            if dtype.is_complex:
                real_in, real_out = in_dtype.real_dtype, dtype.real_dtype
                if real_in.min < real_out.min or real_in.max > real_out.max:
                    value = _clip("ClipByValue", value,
                                  convert_to_tensor(builtins.complex(real_out.min, real_out.min), dtype=in_dtype),
                                  convert_to_tensor(builtins.complex(real_out.max, real_out.max), dtype=in_dtype),
                                  "clamp")
                return cast(value, dtype, name=scope)
            from .math_elementwise_ops import real
            value = real(value)
            in_dtype = in_dtype.real_dtype
        out_real = dtype.real_dtype
        np_dtype = in_dtype.as_numpy_dtype
        try:
            promoted = np.promote_types(np_dtype, out_real.as_numpy_dtype)
        except TypeError:   # bfloat16
            promoted = float
        with np.errstate(over="ignore", invalid="ignore"):
            min_limit = np_dtype(np.maximum(in_dtype.min, out_real.min))
            pair = np.array([min_limit, out_real.min], dtype=promoted)
            if pair[0] < pair[1]:
                min_limit = np.nextafter(min_limit, np_dtype(0), dtype=np_dtype)
            max_limit = np_dtype(np.minimum(float(in_dtype.max), float(out_real.max)))
            pair = np.array([max_limit, out_real.max], dtype=promoted)
            if pair[0] > pair[1]:
                max_limit = np.nextafter(max_limit, np_dtype(0), dtype=np_dtype)
        value = _clip("ClipByValue", value, convert_to_tensor(min_limit, dtype=in_dtype),
                      convert_to_tensor(max_limit, dtype=in_dtype), "clamp")
        return cast(value, dtype, name=scope)


# -- clipping ------------------------------------------------------------------------------------

registry.register_op("ClipByValue", shape_fn=unchanged_shape)


def _clip(op_type, t, lo, hi, name):
    return apply_op(op_type, [t, lo, hi], [t.dtype.base_dtype], name, attrs={"T": t.dtype.base_dtype})


@registry.register_gradient("ClipByValue")
def _clip_by_value_grad(op, grad):
    x, lo, hi = op._inputs
    dt = grad.dtype.base_dtype
    below = cast(less(x, lo), dt)
    above = cast(greater(x, hi), dt)
    inside = _one(grad) - below - above
    return [_reduce_to(grad * inside, x, lo), _reduce_to(grad * below, lo, x), _reduce_to(grad * above, hi, x)]


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """Clips t elementwise to [clip_value_min, clip_value_max] (Minimum then Maximum, like TF)."""
    with _name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as scope:
        if isinstance(t, IndexedSlices):
            return IndexedSlices(clip_by_value(t.values, clip_value_min, clip_value_max, name=scope),
                                 t.indices, t.dense_shape)
        values = convert_to_tensor(t, name="t")
        t_min = minimum(values, clip_value_max)
        t_max = maximum(t_min, clip_value_min, name=scope)
        values.shape.merge_with(t_max.shape)
        return t_max


# -- n-ary sums ----------------------------------------------------------------------------------

def _add_n_shape(op):
    shape = unknown_shape()
    for i, t in enumerate(op._inputs):
        s = t._shape
        if shape.ndims is not None and s.ndims is not None and shape.ndims != s.ndims:
            raise ValueError(f"Shapes must be equal rank, but are {shape.ndims} and {s.ndims}\n\t"
                             "From merging shape 0 with other shapes.")
        if shape.ndims is not None and s.ndims is not None:
            for d, (a, b) in enumerate(zip(shape.as_list(), s.as_list())):
                if a is not None and b is not None and a != b:
                    raise ValueError(f"Dimension {d} in both shapes must be equal, but are {a} and {b}. Shapes "
                                     f"are {shape_str(shape)} and {shape_str(s)}.\n\t"
                                     "From merging shape 0 with other shapes.")
        shape = shape.merge_with(s)
    return [shape]


registry.register_op("AddN", shape_fn=_add_n_shape)


@registry.register_gradient("AddN")
def _add_n_grad(op, grad):
    return [grad] * len(op._inputs)


_ADD_N_MSG = "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype and shape."


def add_n(inputs, name=None):
    """Sums a list of tensors of the same dtype and shape elementwise."""
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError(_ADD_N_MSG)
    if len(inputs) == 1:
        v = inputs[0]
        v = convert_to_tensor(v) if isinstance(v, IndexedSlices) else convert_to_tensor(v)
        if name:
            return _a(v).identity(v, name=name)
        return v
    ts = [_dense(v) for v in inputs]
    types = [t.dtype.base_dtype for t in ts]
    if any(d is not types[0] for d in types):
        _use_name(ts[0], name or "AddN")
        raise TypeError(f"Tensors in list passed to 'inputs' of 'AddN' Op have types "
                        f"[{', '.join(d.name for d in types)}] that don't all match.")
    if types[0].name not in _SUM:
        _use_name(ts[0], name or "AddN")
        _check_allowed("inputs", types[0], _SUM + ("variant",))
    return apply_op("AddN", ts, [types[0]], name or "AddN", attrs={"N": len(ts), "T": types[0]})


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """Sums a list of tensors (TF2 implements it as add_n), with TF's checks of their dtypes
    and shapes (and of `shape` and `tensor_dtype`, when given)."""
    def _input_error():
        return ValueError("inputs must be a list of at least one Tensor with the same dtype and shape")
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise _input_error()
    ts = [v if isinstance(v, (Tensor, IndexedSlices)) else convert_to_tensor(v) for v in inputs]
    if not all(isinstance(t, Tensor) for t in ts):
        raise _input_error()
    if not all(t.dtype == ts[0].dtype for t in ts):
        raise _input_error()
    merged = as_shape(shape) if shape is not None else unknown_shape()
    for t in ts:
        merged = merged.merge_with(t.shape)
    if tensor_dtype is not None and tensor_dtype != ts[0].dtype:
        raise TypeError(f"The `tensor_dtype` argument is {tensor_dtype}, but `input` is of type {ts[0].dtype}. "
                        "These must be equal. Try casting the input to the desired type.")
    if len(ts) == 1:
        return ts[0] if name is None else _a(ts[0]).identity(ts[0], name=name)
    return add_n(ts, name=name)


def scalar_mul(scalar, x, name=None):
    """scalar * x for a 0-D scalar (IndexedSlices stay sparse)."""
    base = x.dtype.base_dtype
    scalar = convert_to_tensor(scalar, dtype=base, name="scalar")
    if scalar.shape.ndims is not None and scalar.shape.ndims != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape {tuple(scalar.shape.as_list())}.")
    if isinstance(x, IndexedSlices):
        return IndexedSlices(multiply(scalar, x.values, name=name), x.indices, x.dense_shape)
    return multiply(scalar, x, name=name)


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and math_ops.py imports them all once its helpers exist.
from .math_elementwise_ops import maximum, minimum, multiply, _one  # noqa: E402
