"""Math ops: elementwise arithmetic, matmul, reductions, comparisons, casts, and Tensor operators.

Every constructor follows TF's naming: a generated-op function (`tf.add`, `tf.maximum`) names its op
after the op type ("Add", "Maximum") and converts Python arguments to constants named
"<op>/<argument>" ("Maximum/y"); a Tensor operator uses the Python operator's name ("add", "mul").
Dtypes are never promoted: a Python scalar takes the tensor's dtype, two tensors of different
dtypes raise TypeError with TF's message. Gradients are registered next to each op and build
ordinary ops, so gradients of gradients work.

This module holds the family's dtype lists, op builders, static values and gradient helpers, and
installs the Tensor operators; the ops live beside it, each with its shape and gradient functions:
math_elementwise_ops (arithmetic and its gradients), math_compare_ops (comparisons, logic, casts,
clipping, add_n), math_matmul_ops (matmul, tensordot, einsum, trace) and math_reduction_ops
(reductions, argmax/argmin, cumsum/cumprod, segment sums). All their names are re-exported here.
"""

import builtins

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, broadcast_shape_fn, broadcast_shapes, check_allowed, unchanged_shape
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = [
    "add", "subtract", "multiply", "divide", "truediv", "floordiv", "floor_div", "div", "div_no_nan",
    "realdiv", "mod", "floormod", "truncatediv", "truncatemod", "pow", "negative", "abs", "sign",
    "square", "sqrt", "rsqrt", "exp", "log", "log1p", "expm1", "sin", "cos", "tan", "asin", "acos",
    "atan", "atan2", "sinh", "cosh", "tanh", "sigmoid", "log_sigmoid", "erf", "maximum", "minimum",
    "squared_difference", "reciprocal", "floor", "ceil", "round", "rint", "is_nan", "is_inf",
    "is_finite", "add_n", "accumulate_n", "scalar_mul", "matmul", "tensordot", "einsum",
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
    "reduce_all", "reduce_logsumexp", "count_nonzero", "argmax", "argmin", "cumsum", "cumprod",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
    "logical_or", "logical_not", "logical_xor", "cast", "to_float", "to_double", "to_int32",
    "to_int64", "saturate_cast", "clip_by_value", "unsorted_segment_sum", "segment_sum",
    "segment_mean", "trace", "conj", "real", "imag",
]


# -- dtype lists, in the order TF prints them (recorded from TF 2.x error messages) -----------------
_NUMBER = ("bfloat16", "float16", "float32", "float64", "uint8", "uint16", "uint32", "uint64",
           "int8", "int16", "int32", "int64", "complex64", "complex128")
_FLOAT_CPLX = ("bfloat16", "float16", "float32", "float64", "complex64", "complex128")
_FLOAT = ("bfloat16", "float16", "float32", "float64")
_SIGNED = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
           "complex64", "complex128")
_REAL = ("bfloat16", "float16", "float32", "float64", "int8", "uint8", "int16", "uint16", "int32",
         "uint32", "int64", "uint64")
_COMPARE = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16", "uint16",
            "float16", "uint32", "uint64")
_SUM = ("float32", "float64", "int32", "uint8", "int16", "int8", "complex64", "int64", "qint8",
        "quint8", "qint32", "bfloat16", "qint16", "quint16", "uint16", "complex128", "float16",
        "uint32", "uint64")
_MAX = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16", "uint16",
        "float16", "uint32", "uint64", "qint8", "quint8", "qint32", "qint16", "quint16")
_INDEX = ("int32", "int64")
# The type lists of TF's binary op defs, in their order (the TypeError lists them so).
_OP_T = {
    "Sub": "bfloat16 float16 float32 float64 uint8 int8 uint16 int16 int32 int64 complex64 complex128 "
           "uint32 uint64",
    "Mul": "bfloat16 float16 float32 float64 uint8 int8 uint16 int16 int32 uint32 uint64 int64 complex64 "
           "complex128",
    "FloorMod": "int8 int16 int32 int64 uint8 uint16 uint32 uint64 bfloat16 float16 float32 float64",
    "TruncateMod": "int32 int64 bfloat16 float16 float32 float64",
    "Pow": "bfloat16 float32 float16 float64 int8 int16 int32 int64 complex64 complex128",
    "Maximum": "bfloat16 float16 float32 float64 int8 uint8 int16 uint16 int32 uint32 int64 uint64",
    "SquaredDifference": "bfloat16 float16 float32 float64 int32 int64 complex64 complex128",
    "DivNoNan": "float16 float32 bfloat16 float64 complex64 complex128",
    "Xdivy": "float16 bfloat16 float32 float64 complex64 complex128",
}
_OP_T.update({k: _OP_T["Mul"] for k in ("RealDiv", "Div", "FloorDiv", "TruncateDiv")})
_OP_T["Minimum"] = _OP_T["Maximum"]
_OP_T["Xlogy"] = _OP_T["Xdivy"]
_OP_T = {k: tuple(v.split()) for k, v in _OP_T.items()}
_ANY = None


_check_allowed = check_allowed


def _check_bool(op_type, param, t):
    if t.dtype.base_dtype is not _dtypes.bool:
        raise TypeError(f"Input '{param}' of '{op_type}' Op has type {t.dtype.base_dtype.name} that does not "
                        f"match expected type of bool.")


def _mismatch(op_type, param, got, want, first):
    return TypeError(f"Input '{param}' of '{op_type}' Op has type {got.base_dtype.name} that does not match "
                     f"type {want.name} of argument '{first}'.")


def _convert_like(op_type, value, param, dtype, first, hint=False):
    """Converts input `param` to `dtype` (the type of argument `first`) as TF's op builder does."""
    if isinstance(value, Tensor):
        if value._dtype.base_dtype is not dtype:
            raise _mismatch(op_type, param, value._dtype, dtype, first)
        return value
    if hint:
        try:
            t = convert_to_tensor(value, preferred_dtype=dtype, name=param)
        except TypeError:
            t = None    # (not convertible at all: TF's wrapped message below)
        if t is not None:
            if t.dtype.base_dtype is not dtype:
                raise _mismatch(op_type, param, t.dtype, dtype, first)
            return t
    try:
        return convert_to_tensor(value, dtype=dtype, name=param)
    except TypeError as e:
        raise TypeError(f"Expected {dtype.name} passed to parameter '{param}' of op '{op_type}', got "
                        f"{value!r} of type '{type(value).__name__}' instead. Error: {e}") from None
    except ValueError:
        observed = convert_to_tensor(value).dtype
        raise _mismatch(op_type, param, observed, dtype, first) from None


def _dense(x, name=None):
    if isinstance(x, IndexedSlices):
        return convert_to_tensor(x)
    return convert_to_tensor(x, name=name)


# -- op builders ---------------------------------------------------------------------------------

def _use_name(t, name):
    """TF's op builder enters the op's name scope before it checks input types, so a call that
    fails with a TypeError still uses up its name (the next op gets "Add_1")."""
    if name and not name.endswith("/"):
        t.graph.unique_name(name)


def _binary(op_type, x, y, name, allowed=_NUMBER, hint=False, out_dtype=None, params=("x", "y"),
            attrs=None):
    """Builds a two-input op whose inputs share one type T (TF's generated-op semantics)."""
    if allowed is not None:
        allowed = _OP_T.get(op_type, allowed)
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        dt = x._dtype.base_dtype
        try:
            _check_allowed(params[0], dt, allowed)
            if y._dtype.base_dtype is not dt:
                raise _mismatch(op_type, params[1], y._dtype, dt, params[0])
        except TypeError:
            _use_name(x, name)
            raise
        a = {"T": dt}
        if attrs:
            a.update(attrs)
        return apply_op(op_type, [x, y], [out_dtype or dt], name, attrs=a)
    with _name_scope(name, None, [x, y]) as scope:
        x = _dense(x, name=params[0])
        dt = x.dtype.base_dtype
        _check_allowed(params[0], dt, allowed)
        y = _convert_like(op_type, y, params[1], dt, params[0], hint)
        a = {"T": dt}
        if attrs:
            a.update(attrs)
        return apply_op(op_type, [x, y], [out_dtype or dt], scope, attrs=a)


def _unary(op_type, x, name, allowed=_NUMBER, out_dtype=None):
    if not isinstance(x, Tensor):
        if isinstance(x, IndexedSlices):
            x = convert_to_tensor(x)
        else:
            with _name_scope(name, None, [x]) as scope:
                x = convert_to_tensor(x, name="x")
                return _unary(op_type, x, scope, allowed, out_dtype)
    dt = x._dtype.base_dtype
    try:
        _check_allowed("x", dt, allowed)
    except TypeError:
        _use_name(x, name)
        raise
    return apply_op(op_type, [x], [out_dtype or dt], name, attrs={"T": dt})


def _bool_binary(op_type, x, y, name):
    if not (isinstance(x, Tensor) and isinstance(y, Tensor)):
        with _name_scope(name, None, [x, y]) as scope:
            x = convert_to_tensor(x, name="x", preferred_dtype=_dtypes.bool)
            y = convert_to_tensor(y, name="y", preferred_dtype=_dtypes.bool)
            return _bool_binary(op_type, x, y, scope)
    try:
        _check_bool(op_type, "x", x)
        _check_bool(op_type, "y", y)
    except TypeError:
        _use_name(x, name)
        raise
    return apply_op(op_type, [x, y], [_dtypes.bool], name)


# -- elementwise op declarations -----------------------------------------------------------------

_UNARY_TYPES = ["Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Expm1",
                "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Tanh", "Sigmoid", "Erf",
                "Reciprocal", "Floor", "Ceil", "Round", "Rint", "IsNan", "IsInf", "IsFinite",
                "LogicalNot", "Conj", "Real", "Imag", "ComplexAbs"]
_BINARY_TYPES = ["Add", "AddV2", "Sub", "Mul", "RealDiv", "DivNoNan", "FloorDiv", "FloorMod",
                 "TruncateDiv", "TruncateMod", "Pow", "Atan2", "Maximum", "Minimum",
                 "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
                 "GreaterEqual", "LogicalAnd", "LogicalOr", "TanhGrad", "SigmoidGrad", "SqrtGrad",
                 "RsqrtGrad", "ReciprocalGrad"]
for _t in _UNARY_TYPES:
    registry.register_op(_t, shape_fn=unchanged_shape)
for _t in _BINARY_TYPES:
    registry.register_op(_t, shape_fn=broadcast_shape_fn)

for _t in ["Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr",
           "LogicalNot", "IsNan", "IsInf", "IsFinite", "FloorDiv", "TruncateDiv", "Floor",
           "Ceil", "Round", "Rint"]:
    registry.no_gradient(_t)
# (TruncateMod has no gradient in TF either: tf.gradients through it raises LookupError.)


def _a(x):
    """Shorthand for gradient code: the array_ops module (imported lazily: it imports us)."""
    from . import array_ops
    return array_ops


# -- static values (shape computations see through cheap integer arithmetic) --------------------

def _static_binary(fn):
    def static(op, value_of):
        a, b = value_of(op._inputs[0]), value_of(op._inputs[1])
        if a is None or b is None:
            return None
        with np.errstate(all="raise"):
            out = fn(np.asarray(a), np.asarray(b))
        if out is None:
            return None
        return np.asarray(out, dtype=op._outputs[0]._dtype.as_numpy_dtype)
    return static


def _floormod_value(x, y):
    if x.dtype.kind != "f":
        return np.mod(x, y)
    r = np.fmod(x, y)   # TF's float floormod keeps fmod's signed zero (np.mod gives +0.0)
    return np.where((r != 0) & (np.less(y, 0) != np.less(r, 0)), r + y, r)


def _int_only(fn):
    # float Maximum/Minimum are left to the kernel: which of -0.0 and 0.0 survives a tie depends
    # on Eigen's packets there
    return lambda x, y: fn(x, y) if x.dtype.kind in "iub" else None


def _float_only(fn):
    # integer RealDiv has no CPU kernel in TF: the kernel's run-time error stands
    return lambda x, y: fn(x, y) if x.dtype.kind in "fc" else None


for _t, _f in [("Add", np.add), ("AddV2", np.add), ("Sub", np.subtract), ("Mul", np.multiply),
               ("FloorDiv", np.floor_divide), ("FloorMod", _floormod_value),
               ("Maximum", _int_only(np.maximum)), ("Minimum", _int_only(np.minimum)), ("RealDiv", _float_only(np.true_divide)), ("Equal", np.equal),
               ("NotEqual", np.not_equal), ("Less", np.less), ("Greater", np.greater),
               ("LessEqual", np.less_equal), ("GreaterEqual", np.greater_equal)]:
    registry.register_static_value(_t)(_static_binary(_f))


@registry.register_static_value("Neg")
def _neg_value(op, value_of):
    v = value_of(op._inputs[0])
    return None if v is None else np.negative(v)


@registry.register_static_value("Cast")
def _cast_value(op, value_of):
    v = value_of(op._inputs[0])
    if v is None or op._attrs["SrcT"].base_dtype is _dtypes.string:
        return None  # string casts fail at run time (UnimplementedError), like TF
    dst = op._attrs["DstT"].as_numpy_dtype
    src = op._attrs["SrcT"].base_dtype
    if src.is_floating and np.issubdtype(dst, np.integer) and (
            dst in (np.uint32, np.uint64) or src.name in ("float64", "float16", "bfloat16")):
        return None  # out-of-range values follow x86's conversions there: the kernel's business
    with np.errstate(invalid="ignore", over="ignore"):
        if np.iscomplexobj(v) and not np.issubdtype(dst, np.complexfloating):
            v = np.real(v)   # TF keeps the real part
        return np.asarray(v).astype(dst)


# -- gradient helpers ----------------------------------------------------------------------------

def _dims(shape):
    return None if shape.ndims is None else shape.as_list()


def _reduce_to(grad, x, other, batch_only=False):
    """Sums `grad` (shaped like broadcast(x, other)) down to x's shape.

    The axes to sum are decided while building whenever the static shapes allow it (the common
    case: a bias of shape [n] added to a [None, n] batch), else at run time with
    BroadcastGradientArgs."""
    xs, os_ = _dims(x.shape), _dims(other.shape)
    if grad is None:
        return None
    if xs is not None and os_ is not None:
        skip = 2 if batch_only else 0
        n = builtins.max(len(xs), len(os_))
        lead = n - len(xs)
        keep = []
        ok = True
        for i, d in enumerate(xs[:len(xs) - skip] if skip else xs):
            j = i - (len(xs) - len(os_))
            od = os_[j] if j >= 0 else 1
            if d == 1:
                if od != 1:
                    keep.append(lead + i)
            elif d is None and od != 1:
                ok = False
                break
        if ok:
            g = grad
            if keep:
                g = reduce_sum(g, keep, keepdims=True)
            if lead:
                g = reduce_sum(g, list(range(lead)))
            return g
    a = _a(x)
    sx, so = a.shape(x), a.shape(other)
    if batch_only:
        rx, _ = broadcast_gradient_args(sx[:-2], so[:-2])
    else:
        rx, _ = broadcast_gradient_args(sx, so)
    return a.reshape(reduce_sum(grad, rx), sx)


def _norm_axes(axes, ndims):
    out = []
    for ax in np.asarray(axes).reshape(-1).tolist():
        ax = int(ax)
        out.append(ax + ndims if ax < 0 else ax)
    return sorted(set(out))


def _kept_grad(grad, x, axes_t, keep_dims):
    """Reshapes a reduction's output gradient to the input's rank (size 1 on reduced axes)."""
    if keep_dims:
        return grad
    a = _a(x)
    xs = _dims(x.shape)
    axes = constant_value(axes_t)
    if xs is not None and axes is not None:
        red = _norm_axes(axes, len(xs))
        kept = [1 if i in red else d for i, d in enumerate(xs)]
        unknown = [i for i, d in enumerate(kept) if d is None]
        if len(unknown) <= 1:
            return a.reshape(grad, _ints([-1 if d is None else d for d in kept]))
    return a.reshape(grad, _reduced_shape(a.shape(x), axes_t))


def _ints(values):
    """A Python int list as an int32 array (so an empty list is not taken for float32)."""
    return np.asarray(values, dtype=np.int32)


def _reduced_shape(input_shape, axes):
    """input_shape with 1 at the reduced axes, computed at run time."""
    a = _a(input_shape)
    axes = a.reshape(cast(axes, _dtypes.int32), [-1])
    r = a.size(input_shape)
    axes = floormod(axes + r, r)
    hit = minimum(unsorted_segment_sum(a.ones_like(axes), axes, r), 1)
    return input_shape - (input_shape - 1) * hit


def _broadcast_like(g, x):
    """Broadcasts `g` (x's rank, size 1 on reduced axes) up to x's shape (TF2's BroadcastTo)."""
    a = _a(x)
    xs, gs = _dims(x.shape), _dims(g.shape)
    if xs is not None and None not in xs:
        if gs == xs:
            return g
        out = a.broadcast_to(g, _ints(xs))
    else:
        out = a.broadcast_to(g, a.shape(x))
    if x.shape.ndims is not None:
        out.set_shape(x.shape)
    return out


# -- TF's gradient helpers (math_grad.py), op for op, so gradient graphs carry TF's op names ---------

def _shapes_fully_specified_and_equal(x, y, grad):
    xs, ys, gs = _dims(x.shape), _dims(y.shape), _dims(grad.shape)
    return xs == ys == gs and xs is not None and None not in xs


def _infer_gradient_reduction_axes(x_shape, y_shape):
    """TF's _InferGradientReductionAxes: the broadcast axes of x and y if static, else None."""
    xs, ys = _dims(x_shape), _dims(y_shape)
    if xs is None or ys is None:
        return None, None
    b_rank = builtins.max(len(xs), len(ys))
    x_axes, y_axes = [], []
    for axis in builtins.range(b_rank):
        x_dim = 1 if axis < b_rank - len(xs) else xs[axis - (b_rank - len(xs))]
        y_dim = 1 if axis < b_rank - len(ys) else ys[axis - (b_rank - len(ys))]
        if x_dim == 1 and y_dim != 1:
            x_axes.append(axis)
        elif y_dim == 1 and x_dim != 1:
            y_axes.append(axis)
        elif x_dim is None or y_dim is None:
            return None, None
    return x_axes, y_axes


def _smart_broadcast_gradient_args(x, y):
    """TF's SmartBroadcastGradientArgs: ((x_shape, x_axes, x_must_reduce), (same for y))."""
    a = _a(x)
    x_shape, y_shape = a.shape(x), a.shape(y)
    x_axes, y_axes = _infer_gradient_reduction_axes(x.shape, y.shape)
    if x_axes is None or y_axes is None:
        x_axes, y_axes = broadcast_gradient_args(x_shape, y_shape)
        x_must, y_must = True, True
    else:
        x_must = bool(x_axes) or x.shape.ndims < y.shape.ndims
        y_must = bool(y_axes) or y.shape.ndims < x.shape.ndims
    return (x_shape, x_axes, x_must), (y_shape, y_axes, y_must)


def _reduce_gradient_arg(grad, shape_axes_must):
    shape, axes, must = shape_axes_must
    if grad is not None and must:
        grad = reduce_sum(grad, axes, keepdims=True)
        grad = _a(grad).reshape(grad, shape)
    return grad


def _reduce_gradient_args(x, y, gx, gy):
    """TF's _ReduceGradientArgs: sums each gradient over the axes its input was broadcast along."""
    if gx is not None or gy is not None:
        bx, by = _smart_broadcast_gradient_args(x, y)
        gx = _reduce_gradient_arg(gx, bx)
        gy = _reduce_gradient_arg(gy, by)
    return gx, gy


def _tf_reduced_shape(input_shape, axes):
    """TF's math_ops.reduced_shape: input_shape with 1 at the reduced axes (a constant when both
    are known, else Size/add/mod/Shape/range/DynamicStitch ops)."""
    cis = constant_value(input_shape)
    if cis is not None:
        ca = constant_value(axes)
        if ca is not None:
            out = np.array(cis, dtype=np.int32)
            out[np.array(ca, dtype=np.int32)] = 1
            return out
    a = _a(input_shape)
    from .array_range_ops import range as _range
    from .embedding_ops import dynamic_stitch
    axes = convert_to_tensor(axes)
    input_rank = a.size(input_shape, out_type=axes.dtype)
    axes = (axes + input_rank) % input_rank
    axes_shape = a.shape(axes)
    return dynamic_stitch([_range(input_rank), axes],
                          [input_shape, a.ones(axes_shape, dtype=input_shape.dtype)])


def _tf_sum_grad(op, grad):
    """TF's _SumGrad (graph mode), the input gradient only."""
    a = _a(grad)
    x = op._inputs[0]
    xs = _dims(x.shape)
    if xs is not None:
        axes = constant_value(op._inputs[1])
        if axes is not None:
            rank = len(xs)
            if np.array_equal(axes, np.arange(rank)):  # all dims reduced
                grad = a.reshape(grad, [1] * rank)
                if None not in xs:
                    input_shape = constant(_ints(xs), dtype=_dtypes.int32)
                else:
                    input_shape = a.shape(x)
                return a.tile(grad, input_shape)
            elif None not in xs:
                kept = _tf_reduced_shape(_ints(xs), np.asarray(axes).reshape(-1))
                scaling = np.asarray(xs, dtype=np.int32) // np.maximum(kept, 1)
                grad = a.reshape(grad, _ints(kept))
                return a.tile(grad, _ints(scaling))
    input_shape = a.shape(x)
    if not op._attrs["keep_dims"]:
        with input_shape.graph.colocate_with(input_shape):
            kept = _tf_reduced_shape(input_shape, op._inputs[1])
        grad = a.reshape(grad, kept)
    return a.broadcast_to(grad, input_shape)


# -- BroadcastGradientArgs -----------------------------------------------------------------------

def _bga_shape(op):
    return [TensorShape([None]), TensorShape([None])]


registry.register_op("BroadcastGradientArgs", shape_fn=_bga_shape)
registry.no_gradient("BroadcastGradientArgs")


def broadcast_gradient_args(s0, s1, name=None):
    """The axes to sum a broadcast result's gradient over, for each of the two input shapes."""
    s0 = convert_to_tensor(s0, name="s0")
    s1 = convert_to_tensor(s1, name="s1", dtype=s0.dtype)
    return apply_op("BroadcastGradientArgs", [s0, s1], [s0.dtype, s0.dtype], name or "BroadcastGradientArgs",
                    attrs={"T": s0.dtype})


# -- the family's other modules, imported last (they build on the helpers above) -----------------

# Every name they define stays reachable from here: callers write `math_ops.reduce_sum` and
# `from .math_ops import _reduce_to`.
from .math_elementwise_ops import (  # noqa: E402,F401
    abs, _abs_grad, acos, _acos_grad, add, _add_grad, asin, _asin_grad, atan, atan2, _atan2_grad,
    _atan_grad, _binary_grads, ceil, conj, _conj_grad, cos, _cos_grad, cosh, _cosh_grad, div,
    div_no_nan, _div_no_nan_grad, divide, erf, _erf_grad, exp, _exp_grad, expm1, _expm1_grad,
    _float_unary, floor, floor_div, floordiv, floormod, _floormod_grad, _grad_op, imag, is_finite,
    is_inf, is_nan, log, log1p, _log1p_grad, _log_grad, log_sigmoid, maximum, _maximum_grad, minimum,
    _minimum_grad, mod, _mul_grad, multiply, _neg_grad, negative, _one, pow, _pow_grad, real, realdiv,
    _realdiv_grad, reciprocal, _reciprocal_grad, _reciprocal_grad_grad, rint, round, rsqrt, _rsqrt_grad,
    _rsqrt_grad_grad, _select_grads, sigmoid, _sigmoid_grad, sigmoid_grad, _sigmoid_grad_grad, sign,
    _sign_grad, sin, _sin_grad, sinh, _sinh_grad, sqrt, _sqrt_grad, _sqrt_grad_grad, square,
    _square_grad, squared_difference, _squared_difference_grad, _sub_grad, subtract, tan, _tan_grad,
    tanh, _tanh_grad, tanh_grad, _tanh_grad_grad, _truediv, truediv, _TRUEDIV_CAST, truncatediv,
    truncatemod, _zero,
)
from .math_compare_ops import (  # noqa: E402,F401
    accumulate_n, add_n, _add_n_grad, _ADD_N_MSG, _add_n_shape, cast, _cast_grad, _clip, clip_by_value,
    _clip_by_value_grad, equal, greater, greater_equal, less, less_equal, logical_and, logical_not,
    logical_or, logical_xor, not_equal, saturate_cast, scalar_mul, to_double, to_float, to_int32,
    to_int64,
)
from .math_matmul_ops import (  # noqa: E402,F401
    _batch_mat_mul, _batch_matmul_grad, _batch_matmul_shape, einsum, _einsum_grad, _einsum_shape,
    _expand_ellipsis, _mat_mul, matmul, _matmul_grad, _matmul_shape, _MATMUL_TYPES, _parse_einsum,
    tensordot, _tensordot_axes, trace,
)
from .math_reduction_ops import (  # noqa: E402,F401
    _arg, _arg_shape, argmax, argmin, _count, count_nonzero, cumprod, _cumprod_grad, cumsum,
    _cumsum_grad, _deprecated, _euclidean_norm_grad, _gather_drop_negatives, _max_value, _mean_grad,
    _min_or_max_grad, _min_value, _prod_grad, _prod_value, _range_of_rank, _reduce, reduce_all,
    reduce_any, reduce_euclidean_norm, reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
    reduce_prod, reduce_sum, _reduction_shape, _scan, _segment, segment_mean, _segment_mean_grad,
    _segment_shape, segment_sum, _segment_sum_grad, _sum_grad, _sum_grad_common, _sum_value,
    _unsorted_segment_shape, unsorted_segment_sum, _unsorted_segment_sum_grad,
)
from .math_extra_ops import *  # noqa: E402,F401,F403
from .math_extra_ops import __all__ as _extra_all  # noqa: E402

__all__ = __all__ + _extra_all


# -- Tensor operators ----------------------------------------------------------------------------

def _binop(fn, op_name):
    def binary_op_wrapper(x, y):
        return fn(x, y, name=op_name)

    def r_binary_op_wrapper(y, x):
        with _name_scope(None, op_name, [x, y]) as name:
            x = convert_to_tensor(x, dtype=y.dtype.base_dtype, name="x")
            return fn(x, y, name=name)
    return binary_op_wrapper, r_binary_op_wrapper


def _add_op(x, y, name):
    return add(x, y, name=name)


def _gen_cast(x, dtype):
    """TF's gen_math_ops.cast: always a Cast op (a Python value becomes its "x" Const)."""
    with _name_scope(None, "Cast", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return apply_op("Cast", [x], [dtype], scope,
                        attrs={"SrcT": x.dtype.base_dtype, "DstT": dtype, "Truncate": False})


def _mul_op(x, y, name):
    # TF's operator `*` on a bool tensor multiplies in int32 and casts back (no Mul for bool).
    if any(isinstance(t, Tensor) and t.dtype.base_dtype == _dtypes.bool for t in (x, y)):
        with _name_scope(None, name, [x, y]) as scope:
            prod = multiply(_gen_cast(x, _dtypes.int32), _gen_cast(y, _dtypes.int32), name=scope)
            return _gen_cast(prod, _dtypes.bool)
    return multiply(x, y, name=name)


def _logical(fn, bitwise_name):
    """TF's operator &, |, ^: the logical op on bools, else the bitwise op inside the operator's
    name scope ("and/BitwiseAnd")."""
    def op(x, y, name):
        if not isinstance(x, Tensor) or x.dtype.base_dtype == _dtypes.bool:
            return fn(x, y, name=name)
        from . import bitwise_ops
        with _name_scope(None, name, [x, y]):
            return getattr(bitwise_ops, bitwise_name)(x, y)
    return op


def _invert(x):
    if x.dtype.base_dtype == _dtypes.bool:
        return logical_not(x)
    from .bitwise_ops import invert
    return invert(x)


def _truediv_op(x, y, name):
    return _truediv(x, y, name)


for _name, _fn, _opn in [("add", _add_op, "add"), ("sub", subtract, "sub"), ("mul", _mul_op, "mul"),
                         ("truediv", _truediv_op, "truediv"), ("floordiv", floordiv, "floordiv"),
                         ("mod", floormod, "mod"), ("pow", pow, "pow"), ("matmul", matmul, "matmul"),
                         ("and", _logical(logical_and, "bitwise_and"), "and"),
                         ("or", _logical(logical_or, "bitwise_or"), "or"),
                         ("xor", _logical(logical_xor, "bitwise_xor"), "xor")]:
    _f, _rf = _binop(_fn, _opn)
    Tensor._override_operator(f"__{_name}__", _f)
    Tensor._override_operator(f"__r{_name}__", _rf)

Tensor._override_operator("__neg__", lambda x: negative(x))
Tensor._override_operator("__abs__", lambda x: abs(x))
Tensor._override_operator("__invert__", _invert)
Tensor._override_operator("__lt__", lambda x, y: less(x, y))
Tensor._override_operator("__le__", lambda x, y: less_equal(x, y))
Tensor._override_operator("__gt__", lambda x, y: greater(x, y))
Tensor._override_operator("__ge__", lambda x, y: greater_equal(x, y))

from .math_special_ops import *  # noqa: E402,F401,F403
from .math_special_ops import __all__ as _special_all  # noqa: E402

__all__ = __all__ + _special_all
