"""Math ops: elementwise arithmetic, matmul, reductions, comparisons, casts, and Tensor operators.

Every constructor follows TF's naming: a generated-op function (`tf.add`, `tf.maximum`) names its op
after the op type ("Add", "Maximum") and converts Python arguments to constants named
"<op>/<argument>" ("Maximum/y"); a Tensor operator uses the Python operator's name ("add", "mul").
Dtypes are never promoted: a Python scalar takes the tensor's dtype, two tensors of different
dtypes raise TypeError with TF's message. Gradients are registered next to each op and build
ordinary ops, so gradients of gradients work.
"""

import builtins

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, broadcast_shape_fn, broadcast_shapes, unchanged_shape
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
_ANY = None


def _check_allowed(param, dtype, allowed):
    if allowed is not None and dtype.base_dtype.name not in allowed:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dtype.base_dtype.name} not in "
                        f"list of allowed values: {', '.join(allowed)}")


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
        t = convert_to_tensor(value, preferred_dtype=dtype, name=param)
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

def _binary(op_type, x, y, name, allowed=_NUMBER, hint=False, out_dtype=None, params=("x", "y"),
            attrs=None):
    """Builds a two-input op whose inputs share one type T (TF's generated-op semantics)."""
    if isinstance(x, Tensor) and isinstance(y, Tensor):
        dt = x._dtype.base_dtype
        _check_allowed(params[0], dt, allowed)
        if y._dtype.base_dtype is not dt:
            raise _mismatch(op_type, params[1], y._dtype, dt, params[0])
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
    _check_allowed("x", dt, allowed)
    return apply_op(op_type, [x], [out_dtype or dt], name, attrs={"T": dt})


def _bool_binary(op_type, x, y, name):
    if not (isinstance(x, Tensor) and isinstance(y, Tensor)):
        with _name_scope(name, None, [x, y]) as scope:
            x = convert_to_tensor(x, name="x", preferred_dtype=_dtypes.bool)
            y = convert_to_tensor(y, name="y", preferred_dtype=_dtypes.bool)
            return _bool_binary(op_type, x, y, scope)
    _check_bool(op_type, "x", x)
    _check_bool(op_type, "y", y)
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
           "LogicalNot", "IsNan", "IsInf", "IsFinite", "FloorDiv", "TruncateDiv", "TruncateMod", "Floor",
           "Ceil", "Round", "Rint"]:
    registry.no_gradient(_t)


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
        return np.asarray(out, dtype=op._outputs[0]._dtype.as_numpy_dtype)
    return static


for _t, _f in [("Add", np.add), ("AddV2", np.add), ("Sub", np.subtract), ("Mul", np.multiply),
               ("FloorDiv", np.floor_divide), ("FloorMod", np.mod), ("Maximum", np.maximum),
               ("Minimum", np.minimum), ("RealDiv", np.true_divide), ("Equal", np.equal),
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
    return None if v is None else np.asarray(v).astype(op._attrs["DstT"].as_numpy_dtype)


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


# -- arithmetic ----------------------------------------------------------------------------------

def add(x, y, name=None):
    """x + y elementwise, with broadcasting (op type AddV2; Add for strings)."""
    if isinstance(x, Tensor) and x._dtype.base_dtype is _dtypes.string:
        return _binary("Add", x, y, name or "Add", allowed=None)
    return _binary("AddV2", x, y, name or "Add", hint=True)


def subtract(x, y, name=None):
    """x - y elementwise, with broadcasting."""
    return _binary("Sub", x, y, name or "Sub", allowed=_SIGNED + ("uint8", "uint16", "uint32", "uint64"))


def multiply(x, y, name=None):
    """x * y elementwise, with broadcasting."""
    return _binary("Mul", x, y, name or "Mul")


def realdiv(x, y, name=None):
    """x / y for real types (no integer casting)."""
    return _binary("RealDiv", x, y, name or "RealDiv")


def floor_div(x, y, name=None):
    """floor(x / y) elementwise; integer division by zero is an InvalidArgumentError."""
    return _binary("FloorDiv", x, y, name or "FloorDiv")


def floordiv(x, y, name=None):
    """floor(x / y) elementwise (op named "floordiv" by default)."""
    return _binary("FloorDiv", x, y, name or "floordiv")


def floormod(x, y, name=None):
    """x - floor(x / y) * y: the result has the sign of y."""
    return _binary("FloorMod", x, y, name or "FloorMod", allowed=_REAL)


mod = floormod


def truncatediv(x, y, name=None):
    """x / y rounded toward zero (C semantics)."""
    return _binary("TruncateDiv", x, y, name or "TruncateDiv")


def truncatemod(x, y, name=None):
    """The remainder of truncated division: the result has the sign of x."""
    return _binary("TruncateMod", x, y, name or "TruncateMod", allowed=_REAL)


_TRUEDIV_CAST = {"int8": _dtypes.float32, "uint8": _dtypes.float32, "int16": _dtypes.float32,
                 "uint16": _dtypes.float32, "int32": _dtypes.float64, "uint32": _dtypes.float64,
                 "int64": _dtypes.float64, "uint64": _dtypes.float64}


def _truediv(x, y, name, op_type="RealDiv", default="truediv", x_dtype=None):
    with _name_scope(name, default, [x, y]) as scope:
        x = _dense(x, name="x") if x_dtype is None else convert_to_tensor(x, dtype=x_dtype, name="x")
        dt = x.dtype.base_dtype
        y = y if isinstance(y, Tensor) else convert_to_tensor(y, preferred_dtype=dt, name="y")
        if y.dtype.base_dtype is not dt:
            raise TypeError(f"`x` and `y` must have the same dtype, got {dt!r} != {y.dtype.base_dtype!r}.")
        to = _TRUEDIV_CAST.get(dt.name)
        if to is not None:
            x = cast(x, to)
            y = cast(y, to)
        return _binary(op_type, x, y, scope)


def truediv(x, y, name=None):
    """x / y with Python 3 semantics: integers are cast to floating point first (int8/int16 to
    float32, int32/int64 to float64)."""
    return _truediv(x, y, name)


def divide(x, y, name=None):
    """x / y (Python 3 division); same as truediv."""
    if name is not None:
        return _truediv(x, y, name)
    if not isinstance(x, Tensor) and isinstance(y, Tensor):
        x = convert_to_tensor(x, dtype=y.dtype.base_dtype)
    return _truediv(x, y, None)


def div(x, y, name=None):
    """Legacy TF1 division: floor division for integers, real division for floats."""
    with _name_scope(name, "div", [x, y]) as scope:
        x = _dense(x, name="x")
        y = _convert_like("RealDiv", y, "y", x.dtype.base_dtype, "x", hint=True)
        if x.dtype.base_dtype.is_floating or x.dtype.base_dtype.is_complex:
            return _binary("RealDiv", x, y, scope)
        return _binary("FloorDiv", x, y, scope)


def div_no_nan(x, y, name=None):
    """x / y, but 0 wherever y is 0 (integers are cast like truediv)."""
    return _truediv(x, y, name, op_type="DivNoNan", default="div_no_nan")


def pow(x, y, name=None):  # noqa: A001
    """x ** y elementwise; integers to negative integer powers are an error at run time."""
    return _binary("Pow", x, y, name or "Pow", allowed=_SIGNED)


def atan2(y, x, name=None):
    """Elementwise arctangent of y / x, using the signs of both to pick the quadrant."""
    return _binary("Atan2", y, x, name or "Atan2", allowed=_FLOAT, params=("y", "x"))


def maximum(x, y, name=None):
    """max(x, y) elementwise, with broadcasting."""
    return _binary("Maximum", x, y, name or "Maximum", allowed=_REAL)


def minimum(x, y, name=None):
    """min(x, y) elementwise, with broadcasting."""
    return _binary("Minimum", x, y, name or "Minimum", allowed=_REAL)


def squared_difference(x, y, name=None):
    """(x - y) ** 2 elementwise."""
    return _binary("SquaredDifference", x, y, name or "SquaredDifference", allowed=_SIGNED)


def negative(x, name=None):
    """-x elementwise."""
    if isinstance(x, IndexedSlices):
        return IndexedSlices(negative(x.values, name=name), x.indices, x.dense_shape)
    return _unary("Neg", x, name or "Neg", allowed=_SIGNED)


def abs(x, name=None):  # noqa: A001
    """|x| elementwise (for complex x: the magnitude, of the real dtype)."""
    if not isinstance(x, Tensor):
        with _name_scope(name, "Abs", [x]) as scope:
            return abs(convert_to_tensor(x, name="x"), name=scope)
    if x.dtype.is_complex:
        real = _dtypes.float32 if x.dtype.base_dtype is _dtypes.complex64 else _dtypes.float64
        return apply_op("ComplexAbs", [x], [real], name or "Abs", attrs={"T": x.dtype.base_dtype,
                                                                          "Tout": real})
    return _unary("Abs", x, name or "Abs", allowed=_SIGNED)


def sign(x, name=None):
    """-1, 0 or 1 by the sign of x (NaN stays NaN)."""
    return _unary("Sign", x, name or "Sign", allowed=_SIGNED)


def square(x, name=None):
    """x * x elementwise."""
    return _unary("Square", x, name or "Square", allowed=_SIGNED)


def _float_unary(op_type, allowed=_FLOAT_CPLX, doc=""):
    def fn(x, name=None):
        return _unary(op_type, x, name or op_type, allowed=allowed)
    fn.__doc__ = doc
    return fn


sqrt = _float_unary("Sqrt", doc="Square root elementwise.")
rsqrt = _float_unary("Rsqrt", doc="1 / sqrt(x) elementwise.")
exp = _float_unary("Exp", doc="e ** x elementwise.")
log = _float_unary("Log", doc="Natural logarithm elementwise.")
log1p = _float_unary("Log1p", doc="log(1 + x), accurate for small x.")
expm1 = _float_unary("Expm1", doc="exp(x) - 1, accurate for small x.")
sin = _float_unary("Sin", doc="Sine elementwise.")
cos = _float_unary("Cos", doc="Cosine elementwise.")
tan = _float_unary("Tan", doc="Tangent elementwise.")
asin = _float_unary("Asin", doc="Arcsine elementwise.")
acos = _float_unary("Acos", doc="Arccosine elementwise.")
atan = _float_unary("Atan", doc="Arctangent elementwise.")
sinh = _float_unary("Sinh", doc="Hyperbolic sine elementwise.")
cosh = _float_unary("Cosh", doc="Hyperbolic cosine elementwise.")
tanh = _float_unary("Tanh", doc="Hyperbolic tangent elementwise.")
sigmoid = _float_unary("Sigmoid", doc="1 / (1 + exp(-x)) elementwise.")
erf = _float_unary("Erf", allowed=_FLOAT, doc="The Gauss error function elementwise.")
floor = _float_unary("Floor", allowed=_FLOAT, doc="Largest integer not greater than x.")
ceil = _float_unary("Ceil", allowed=_FLOAT, doc="Smallest integer not less than x.")
rint = _float_unary("Rint", allowed=_FLOAT, doc="Nearest integer, halves to even.")


def reciprocal(x, name=None):
    """1 / x elementwise."""
    return _unary("Reciprocal", x, name or "Reciprocal", allowed=_SIGNED)


def round(x, name=None):  # noqa: A001
    """Rounds half to even (banker's rounding), like TF; integers are returned unchanged."""
    x = convert_to_tensor(x, name="x") if not isinstance(x, Tensor) else x
    if x.dtype.is_integer:
        return x
    return _unary("Round", x, name or "Round", allowed=_SIGNED)


def is_nan(x, name=None):
    """True where x is NaN."""
    return _unary("IsNan", x, name or "IsNan", allowed=_FLOAT, out_dtype=_dtypes.bool)


def is_inf(x, name=None):
    """True where x is +inf or -inf."""
    return _unary("IsInf", x, name or "IsInf", allowed=_FLOAT, out_dtype=_dtypes.bool)


def is_finite(x, name=None):
    """True where x is neither infinite nor NaN."""
    return _unary("IsFinite", x, name or "IsFinite", allowed=_FLOAT, out_dtype=_dtypes.bool)


def conj(x, name=None):
    """Complex conjugate; real tensors are returned unchanged."""
    x = convert_to_tensor(x)
    if not x.dtype.is_complex:
        return x
    return _unary("Conj", x, name or "Conj", allowed=None)


def real(input, name=None):  # noqa: A002
    """The real part of a complex tensor; real tensors are returned unchanged."""
    input = convert_to_tensor(input)
    if not input.dtype.is_complex:
        return input
    out = _dtypes.float32 if input.dtype.base_dtype is _dtypes.complex64 else _dtypes.float64
    return _unary("Real", input, name or "Real", allowed=None, out_dtype=out)


def imag(input, name=None):  # noqa: A002
    """The imaginary part of a complex tensor (zeros for a real one)."""
    input = convert_to_tensor(input)
    if not input.dtype.is_complex:
        return _a(input).zeros_like(input)
    out = _dtypes.float32 if input.dtype.base_dtype is _dtypes.complex64 else _dtypes.float64
    return _unary("Imag", input, name or "Imag", allowed=None, out_dtype=out)


def log_sigmoid(x, name=None):
    """log(1 / (1 + exp(-x))) = -softplus(-x), computed stably."""
    with _name_scope(name, "LogSigmoid", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        try:
            registry.get_op_def("Softplus")
            from . import nn_ops
            sp = nn_ops.softplus(negative(x))
        except (KeyError, ImportError, AttributeError):
            nx = negative(x)
            sp = add(maximum(nx, 0.0), log1p(exp(negative(abs(x)))), name="Softplus")
        return _unary("Neg", sp, scope)


# -- gradients of elementwise ops ----------------------------------------------------------------

def _binary_grads(op, gx, gy):
    x, y = op._inputs
    return [_reduce_to(gx, x, y), _reduce_to(gy, y, x)]


@registry.register_gradient("AddV2")
def _add_grad(op, grad):
    return _binary_grads(op, grad, grad)


registry.register_gradient("Add")(_add_grad)


@registry.register_gradient("Sub")
def _sub_grad(op, grad):
    return _binary_grads(op, grad, negative(grad))


@registry.register_gradient("Mul")
def _mul_grad(op, grad):
    x, y = op._inputs
    return _binary_grads(op, multiply(grad, y), multiply(x, grad))


@registry.register_gradient("RealDiv")
def _realdiv_grad(op, grad):
    x, y = op._inputs
    return _binary_grads(op, realdiv(grad, y), grad * realdiv(realdiv(negative(x), y), y))


@registry.register_gradient("DivNoNan")
def _div_no_nan_grad(op, grad):
    x, y = op._inputs
    return _binary_grads(op, div_no_nan(grad, y), grad * div_no_nan(div_no_nan(negative(x), y), y))


@registry.register_gradient("FloorMod")
def _floormod_grad(op, grad):
    x, y = op._inputs
    return _binary_grads(op, grad, grad * negative(floor_div(x, y)))


@registry.register_gradient("Pow")
def _pow_grad(op, grad):
    x, y = op._inputs
    z = op.outputs[0]
    gx = grad * y * pow(x, y - _one(y))
    if x.dtype.is_complex:
        log_x = log(x)
    else:
        pos = cast(greater(x, _zero(x)), x.dtype.base_dtype)
        log_x = log(x * pos + (_one(x) - pos)) * pos   # log(x) where x > 0, else 0 (TF's rule)
    gy = grad * z * log_x
    return _binary_grads(op, gx, gy)


def _one(t):
    return constant(1, dtype=t.dtype.base_dtype)


def _zero(t):
    return constant(0, dtype=t.dtype.base_dtype)


@registry.register_gradient("Atan2")
def _atan2_grad(op, grad):
    y, x = op._inputs
    inv = reciprocal(square(x) + square(y))
    return [_reduce_to(grad * (x * inv), y, x), _reduce_to(grad * (negative(y) * inv), x, y)]


def _select_grads(op, grad, xmask):
    x, y = op._inputs
    m = cast(xmask, grad.dtype.base_dtype)
    gx = grad * m
    return _binary_grads(op, gx, grad - gx)


@registry.register_gradient("Maximum")
def _maximum_grad(op, grad):
    x, y = op._inputs
    return _select_grads(op, grad, greater_equal(x, y))


@registry.register_gradient("Minimum")
def _minimum_grad(op, grad):
    x, y = op._inputs
    return _select_grads(op, grad, less_equal(x, y))


@registry.register_gradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op._inputs
    g = grad * (constant(2, dtype=grad.dtype.base_dtype) * (x - y))
    return _binary_grads(op, g, negative(g))


@registry.register_gradient("Neg")
def _neg_grad(op, grad):
    return [negative(grad)]


@registry.register_gradient("Abs")
def _abs_grad(op, grad):
    return [grad * sign(op._inputs[0])]


@registry.register_gradient("Sign")
def _sign_grad(op, grad):
    return [_a(grad).zeros_like(op._inputs[0])]


@registry.register_gradient("Square")
def _square_grad(op, grad):
    x = op._inputs[0]
    return [grad * (x * constant(2, dtype=x.dtype.base_dtype))]


@registry.register_gradient("Sqrt")
def _sqrt_grad(op, grad):
    return [_grad_op("SqrtGrad", op.outputs[0], grad)]


@registry.register_gradient("Rsqrt")
def _rsqrt_grad(op, grad):
    return [_grad_op("RsqrtGrad", op.outputs[0], grad)]


@registry.register_gradient("Reciprocal")
def _reciprocal_grad(op, grad):
    return [_grad_op("ReciprocalGrad", op.outputs[0], grad)]


@registry.register_gradient("Tanh")
def _tanh_grad(op, grad):
    return [_grad_op("TanhGrad", op.outputs[0], grad)]


@registry.register_gradient("Sigmoid")
def _sigmoid_grad(op, grad):
    return [_grad_op("SigmoidGrad", op.outputs[0], grad)]


def _grad_op(op_type, y, dy, name=None):
    return _binary(op_type, y, dy, name or op_type, allowed=None, params=("y", "dy"))


def tanh_grad(y, dy, name=None):
    return _grad_op("TanhGrad", y, dy, name)


def sigmoid_grad(y, dy, name=None):
    return _grad_op("SigmoidGrad", y, dy, name)


@registry.register_gradient("TanhGrad")
def _tanh_grad_grad(op, grad):
    y, dy = op._inputs
    return [grad * dy * constant(-2.0, dtype=y.dtype.base_dtype) * y, tanh_grad(y, grad)]


@registry.register_gradient("SigmoidGrad")
def _sigmoid_grad_grad(op, grad):
    y, dy = op._inputs
    return [grad * dy * (_one(y) - constant(2.0, dtype=y.dtype.base_dtype) * y), sigmoid_grad(y, grad)]


@registry.register_gradient("SqrtGrad")
def _sqrt_grad_grad(op, grad):
    y, dy = op._inputs
    ga = grad / y
    return [negative(ga) * op.outputs[0], constant(0.5, dtype=y.dtype.base_dtype) * ga]


@registry.register_gradient("RsqrtGrad")
def _rsqrt_grad_grad(op, grad):
    y, dy = op._inputs
    return [constant(-1.5, dtype=y.dtype.base_dtype) * grad * dy * square(y), _grad_op("RsqrtGrad", y, grad)]


@registry.register_gradient("ReciprocalGrad")
def _reciprocal_grad_grad(op, grad):
    y, dy = op._inputs
    return [constant(-2.0, dtype=y.dtype.base_dtype) * grad * dy * y, _grad_op("ReciprocalGrad", y, grad)]


@registry.register_gradient("Exp")
def _exp_grad(op, grad):
    return [grad * op.outputs[0]]


@registry.register_gradient("Expm1")
def _expm1_grad(op, grad):
    return [grad * exp(op._inputs[0])]


@registry.register_gradient("Log")
def _log_grad(op, grad):
    return [grad * reciprocal(op._inputs[0])]


@registry.register_gradient("Log1p")
def _log1p_grad(op, grad):
    x = op._inputs[0]
    return [grad * reciprocal(_one(x) + x)]


@registry.register_gradient("Sin")
def _sin_grad(op, grad):
    return [grad * cos(op._inputs[0])]


@registry.register_gradient("Cos")
def _cos_grad(op, grad):
    return [negative(grad) * sin(op._inputs[0])]


@registry.register_gradient("Tan")
def _tan_grad(op, grad):
    return [grad * square(reciprocal(cos(op._inputs[0])))]


@registry.register_gradient("Asin")
def _asin_grad(op, grad):
    x = op._inputs[0]
    return [grad * rsqrt(_one(x) - square(x))]


@registry.register_gradient("Acos")
def _acos_grad(op, grad):
    x = op._inputs[0]
    return [negative(grad) * rsqrt(_one(x) - square(x))]


@registry.register_gradient("Atan")
def _atan_grad(op, grad):
    x = op._inputs[0]
    return [grad * reciprocal(_one(x) + square(x))]


@registry.register_gradient("Sinh")
def _sinh_grad(op, grad):
    return [grad * cosh(op._inputs[0])]


@registry.register_gradient("Cosh")
def _cosh_grad(op, grad):
    return [grad * sinh(op._inputs[0])]


@registry.register_gradient("Erf")
def _erf_grad(op, grad):
    x = op._inputs[0]
    two_over_root_pi = constant(2.0 / np.sqrt(np.pi), dtype=x.dtype.base_dtype)
    return [grad * two_over_root_pi * exp(negative(square(x)))]


@registry.register_gradient("Conj")
def _conj_grad(op, grad):
    return [conj(grad)]


registry.no_gradient("Real")
registry.no_gradient("Imag")
registry.no_gradient("ComplexAbs")


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
    """Casts to `dtype`, clamping values to its range first (no wrap-around)."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    with _name_scope(name, "saturate_cast", [value]) as scope:
        value = convert_to_tensor(value, name="value")
        src = value.dtype.base_dtype
        if src.is_integer or src.is_floating:
            lo = builtins.max(src.min, dtype.min) if not dtype.is_bool else 0
            hi = builtins.min(src.max, dtype.max) if not dtype.is_bool else 1
            if src.is_floating and dtype.is_integer:
                info = np.finfo(src.as_numpy_dtype)
                hi = float(np.nextafter(np.asarray(hi, dtype=src.as_numpy_dtype), -info.max)) \
                    if float(np.asarray(hi, dtype=src.as_numpy_dtype)) > dtype.max else hi
            lo_t = constant(lo, dtype=src)
            hi_t = constant(hi, dtype=src)
            value = _clip("ClipByValue", value, lo_t, hi_t, "clamp")
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
        try:
            shape = shape.merge_with(s)
        except ValueError:
            raise ValueError(f"Dimensions must be equal, but are {shape} and {s}\n\t"
                             "From merging shape 0 with other shapes.") from None
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
        raise TypeError(f"Tensors in list passed to 'inputs' of 'AddN' Op have types "
                        f"[{', '.join(d.name for d in types)}] that don't all match.")
    return apply_op("AddN", ts, [types[0]], name or "AddN", attrs={"N": len(ts), "T": types[0]})


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """Sums a list of tensors (TF2 implements it as add_n)."""
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("inputs must be a list of at least one Tensor/IndexedSlices with the same dtype "
                         "and shape")
    ts = [_dense(v) for v in inputs]
    if tensor_dtype is not None and any(t.dtype.base_dtype != _dtypes.as_dtype(tensor_dtype) for t in ts):
        raise TypeError(f"tensor_dtype is {tensor_dtype}, but input is of type {ts[0].dtype}")
    if shape is not None:
        for t in ts:
            t.shape.merge_with(shape)
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


# -- matrix multiplication -----------------------------------------------------------------------

def _matmul_shape(op):
    a, b = op._inputs[0]._shape, op._inputs[1]._shape
    for s in (a, b):
        if s.ndims is not None and s.ndims != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {s.ndims}")
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    if a.ndims is None and b.ndims is None:
        return [TensorShape([None, None])]
    ad = a.as_list() if a.ndims is not None else [None, None]
    bd = b.as_list() if b.ndims is not None else [None, None]
    m, ka = (ad[1], ad[0]) if ta else (ad[0], ad[1])
    kb, n = (bd[1], bd[0]) if tb else (bd[0], bd[1])
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f"Dimensions must be equal, but are {ka} and {kb}")
    return [TensorShape([m, n])]


def _batch_matmul_shape(op):
    a, b = op._inputs[0]._shape, op._inputs[1]._shape
    for s in (a, b):
        if s.ndims is not None and s.ndims < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.ndims}")
    if a.ndims is None or b.ndims is None:
        return [unknown_shape()]
    ad, bd = a.as_list(), b.as_list()
    adj_x, adj_y = op._attrs["adj_x"], op._attrs["adj_y"]
    m, ka = (ad[-1], ad[-2]) if adj_x else (ad[-2], ad[-1])
    kb, n = (bd[-1], bd[-2]) if adj_y else (bd[-2], bd[-1])
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f"Dimensions must be equal, but are {ka} and {kb}")
    batch = broadcast_shapes(TensorShape(ad[:-2]), TensorShape(bd[:-2]))
    return [batch.concatenate([m, n])]


registry.register_op("MatMul", shape_fn=_matmul_shape)
registry.register_op("BatchMatMulV2", shape_fn=_batch_matmul_shape)


def _mat_mul(a, b, transpose_a=False, transpose_b=False, name="MatMul"):
    dt = a.dtype.base_dtype
    if b.dtype.base_dtype is not dt:
        raise _mismatch("MatMul", "b", b.dtype, dt, "a")
    return apply_op("MatMul", [a, b], [dt], name, attrs={"T": dt, "transpose_a": bool(transpose_a),
                                                         "transpose_b": bool(transpose_b)})


def _batch_mat_mul(x, y, adj_x=False, adj_y=False, name="MatMul"):
    dt = x.dtype.base_dtype
    if y.dtype.base_dtype is not dt:
        raise _mismatch("BatchMatMulV2", "y", y.dtype, dt, "x")
    return apply_op("BatchMatMulV2", [x, y], [dt], name, attrs={"T": dt, "adj_x": bool(adj_x),
                                                                "adj_y": bool(adj_y)})


_MATMUL_TYPES = ("bfloat16", "float16", "float32", "float64", "int32", "int64", "complex64", "complex128")


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product a @ b; inputs of rank > 2 (or unknown rank) are batches of matrices whose
    batch dimensions broadcast (op type BatchMatMulV2)."""
    with _name_scope(name, "MatMul", [a, b]) as scope:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of transpose_a and adjoint_a can be True.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of transpose_b and adjoint_b can be True.")
        a = _dense(a, name="a")
        _check_allowed("a", a.dtype, _MATMUL_TYPES)
        b = _convert_like("MatMul", b, "b", a.dtype.base_dtype, "a")
        ra, rb = a.shape.ndims, b.shape.ndims
        if ra is None or rb is None or ra > 2 or rb > 2:
            if transpose_a:
                a, adjoint_a = conj(a), True
            if transpose_b:
                b, adjoint_b = conj(b), True
            return _batch_mat_mul(a, b, adjoint_a, adjoint_b, name=scope)
        if adjoint_a:
            a, transpose_a = conj(a), True
        if adjoint_b:
            b, transpose_b = conj(b), True
        return _mat_mul(a, b, transpose_a, transpose_b, name=scope)


@registry.register_gradient("MatMul")
def _matmul_grad(op, grad):
    a, b = op._inputs
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    if not ta and not tb:
        return [_mat_mul(grad, b, transpose_b=True), _mat_mul(a, grad, transpose_a=True)]
    if not ta and tb:
        return [_mat_mul(grad, b), _mat_mul(grad, a, transpose_a=True)]
    if ta and not tb:
        return [_mat_mul(b, grad, transpose_b=True), _mat_mul(a, grad)]
    return [_mat_mul(b, grad, transpose_a=True, transpose_b=True),
            _mat_mul(grad, a, transpose_a=True, transpose_b=True)]


@registry.register_gradient("BatchMatMulV2")
def _batch_matmul_grad(op, grad):
    x, y = op._inputs
    ax, ay = op._attrs["adj_x"], op._attrs["adj_y"]
    if not ax:
        if not ay:
            gx, gy = _batch_mat_mul(grad, y, False, True), _batch_mat_mul(x, grad, True, False)
        else:
            gx, gy = _batch_mat_mul(grad, y, False, False), _batch_mat_mul(grad, x, True, False)
    else:
        if not ay:
            gx, gy = _batch_mat_mul(y, grad, False, True), _batch_mat_mul(x, grad, False, False)
        else:
            gx, gy = _batch_mat_mul(y, grad, True, True), _batch_mat_mul(grad, x, True, True)
    return [_reduce_to(gx, x, y, batch_only=True), _reduce_to(gy, y, x, batch_only=True)]


# -- reductions ----------------------------------------------------------------------------------

def _reduction_shape(op):
    x = op._inputs[0]._shape
    keep = op._attrs["keep_dims"]
    axes = constant_value(op._inputs[1])
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
    x = input_tensor
    if isinstance(x, IndexedSlices):
        x = convert_to_tensor(x)
    if axis is None:
        # All dimensions: a constant list when the rank is known (named "Const", outside the op's
        # scope, as in TF), else range(rank(x)).
        shape = getattr(x, "shape", None)
        rank = shape.ndims if isinstance(shape, TensorShape) else np.ndim(x)
        if rank is not None:
            axis = constant(np.arange(rank, dtype=np.int32))
        else:
            x = convert_to_tensor(x)
            axis = _range_of_rank(x)
    with _name_scope(name, op_type, [x, axis]) as scope:
        if not isinstance(x, Tensor):
            x = convert_to_tensor(x, name="input")
        _check_allowed("input", x.dtype, allowed)
        if op_type in ("Any", "All"):
            _check_bool(op_type, "input", x)
        if isinstance(axis, Tensor):
            idx = axis
        else:
            idx = convert_to_tensor(axis, name="reduction_indices", preferred_dtype=_dtypes.int32)
        _check_allowed("reduction_indices", idx.dtype, _INDEX)
        dt = x.dtype.base_dtype
        return apply_op(op_type, [x, idx], [out_dtype or dt], scope,
                        attrs={"T": dt, "Tidx": idx.dtype.base_dtype, "keep_dims": keepdims})


def _range_of_rank(x):
    """range(rank(x)) computed at run time (for inputs of unknown rank)."""
    a = _a(x)
    s = a.shape(x)
    ones = a.ones_like(s)
    return cumsum(ones, exclusive=True)


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
        x = convert_to_tensor(input_tensor)
        _check_allowed("x", x.dtype, _FLOAT)
        raw_max = reduce_max(x, axis=axis, keepdims=True)
        a = _a(x)
        finite = is_finite(raw_max)
        zero = _a(x).zeros_like(raw_max)
        if hasattr(a, "where_v2"):
            my_max = a.where_v2(finite, raw_max, zero)
        elif hasattr(a, "where"):
            my_max = a.where(finite, raw_max, zero)
        else:  # no select op: finite maxima only (an all -inf row gives NaN)
            my_max = raw_max
        my_max = a.stop_gradient(my_max)
        result = log(reduce_sum(exp(subtract(x, my_max)), axis=axis, keepdims=keepdims))
        if not keepdims:
            my_max = a.reshape(my_max, a.shape(result))
        return add(result, my_max, name=scope)


def _sum_grad_common(op, grad):
    x = op._inputs[0]
    g = _kept_grad(grad, x, op._inputs[1], op._attrs["keep_dims"])
    return _broadcast_like(g, x)


@registry.register_gradient("Sum")
def _sum_grad(op, grad):
    return [_sum_grad_common(op, grad), None]


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
    g = _sum_grad_common(op, grad)
    c = _count(op)
    if isinstance(c, int):
        return [g / constant(c, dtype=g.dtype.base_dtype) if c != 1 else g, None]
    return [g / cast(c, g.dtype.base_dtype), None]


def _min_or_max_grad(op, grad):
    x = op._inputs[0]
    keep = op._attrs["keep_dims"]
    y = _kept_grad(op.outputs[0], x, op._inputs[1], keep)
    g = _kept_grad(grad, x, op._inputs[1], keep)
    indicators = cast(equal(y, x), grad.dtype.base_dtype)
    num_selected = reduce_sum(indicators, op._inputs[1], keepdims=True)
    return [(indicators / num_selected) * g, None]


registry.register_gradient("Max")(_min_or_max_grad)
registry.register_gradient("Min")(_min_or_max_grad)


@registry.register_gradient("EuclideanNorm")
def _euclidean_norm_grad(op, grad):
    x = op._inputs[0]
    keep = op._attrs["keep_dims"]
    y = _kept_grad(op.outputs[0], x, op._inputs[1], keep)
    g = _kept_grad(grad, x, op._inputs[1], keep)
    return [div_no_nan(x, y) * g, None]


@registry.register_gradient("Prod")
def _prod_grad(op, grad):
    """TF's rule: the product of all other elements, as exclusive cumprods from both ends (so
    zeros are handled), computed over the reduced axes gathered into one leading axis."""
    a = _a(grad)
    x = op._inputs[0]
    xs = _dims(x.shape)
    axes = constant_value(op._inputs[1])
    if xs is None or axes is None:
        raise NotImplementedError("The gradient of reduce_prod needs a known rank and constant axes.")
    n = len(xs)
    red = _norm_axes(axes, n)
    other = [i for i in range(n) if i not in red]
    perm = red + other
    g = _broadcast_like(_kept_grad(grad, x, op._inputs[1], op._attrs["keep_dims"]), x)
    permuted = a.transpose(x, perm) if perm != list(range(n)) else x
    red_dims = [xs[i] for i in red]
    if None not in red_dims:
        lead = int(np.prod(red_dims))
    else:
        lead = reduce_prod(a.gather(a.shape(x), red))
    shape2 = _ints([lead, -1]) if isinstance(lead, int) else a.stack([lead, -1])
    reshaped = a.reshape(permuted, shape2)
    left = cumprod(reshaped, axis=0, exclusive=True)
    right = cumprod(reshaped, axis=0, exclusive=True, reverse=True)
    y = a.reshape(left * right, a.shape(permuted) if None in xs else _ints([xs[i] for i in perm]))
    inv = [perm.index(i) for i in range(n)]
    if perm != list(range(n)):
        y = a.transpose(y, inv)
    return [g * y, None]


@registry.register_static_value("Sum")
def _sum_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None:
        return None
    x = np.asarray(x)
    ax = tuple(_norm_axes(axes, x.ndim))
    return np.sum(x, axis=ax, keepdims=op._attrs["keep_dims"], dtype=x.dtype)


@registry.register_static_value("Prod")
def _prod_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None:
        return None
    x = np.asarray(x)
    ax = tuple(_norm_axes(axes, x.ndim))
    return np.prod(x, axis=ax, keepdims=op._attrs["keep_dims"], dtype=x.dtype)


@registry.register_static_value("Max")
def _max_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None or np.size(x) == 0:
        return None
    x = np.asarray(x)
    return np.max(x, axis=tuple(_norm_axes(axes, x.ndim)), keepdims=op._attrs["keep_dims"])


@registry.register_static_value("Min")
def _min_value(op, value_of):
    x, axes = value_of(op._inputs[0]), value_of(op._inputs[1])
    if x is None or axes is None or np.size(x) == 0:
        return None
    x = np.asarray(x)
    return np.min(x, axis=tuple(_norm_axes(axes, x.ndim)), keepdims=op._attrs["keep_dims"])


def count_nonzero(input_tensor=None, axis=None, keepdims=None, dtype=_dtypes.int64, name=None,
                  reduction_indices=None, keep_dims=None, input=None):  # noqa: A002
    """Number of nonzero elements over `axis` (int64 by default)."""
    input_tensor = _deprecated("input_tensor", input_tensor, "input", input)
    axis = _deprecated("axis", axis, "reduction_indices", reduction_indices)
    keepdims = _deprecated("keepdims", keepdims, "keep_dims", keep_dims)
    keepdims = bool(keepdims) if keepdims is not None else False
    dtype = _dtypes.as_dtype(dtype)
    with _name_scope(name, "count_nonzero", [input_tensor]):
        x = convert_to_tensor(input_tensor, name="input_tensor")
        if x.dtype.base_dtype is _dtypes.bool:
            nz = cast(x, _dtypes.int64)
        else:
            zero = constant(0, dtype=x.dtype.base_dtype, name="zeros")
            nz = cast(not_equal(x, zero), _dtypes.int64)
        return cast(reduce_sum(nz, axis=axis, keepdims=keepdims), dtype)


# -- arg max / min -------------------------------------------------------------------------------

def _arg_shape(op):
    x = op._inputs[0]._shape
    axis = constant_value(op._inputs[1])
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


def _arg(op_type, input, axis, name, dimension, output_type):  # noqa: A002
    axis = _deprecated("axis", axis, "dimension", dimension)
    if axis is None:
        axis = 0
    output_type = _dtypes.as_dtype(output_type).base_dtype
    if output_type not in (_dtypes.int32, _dtypes.int64, _dtypes.int16, _dtypes.uint16):
        raise TypeError(f"Value passed to parameter 'output_type' has DataType {output_type.name} not in "
                        "list of allowed values: int16, uint16, int32, int64")
    with _name_scope(name, op_type, [input, axis]) as scope:
        x = _dense(input, name="input")
        _check_allowed("input", x.dtype, _COMPARE + ("bool",))
        dim = axis if isinstance(axis, Tensor) else convert_to_tensor(axis, name="dimension",
                                                                     preferred_dtype=_dtypes.int32)
        _check_allowed("dimension", dim.dtype, _INDEX + ("int16",))
        return apply_op(op_type, [x, dim], [output_type], scope,
                        attrs={"T": x.dtype.base_dtype, "Tidx": dim.dtype.base_dtype,
                               "output_type": output_type})


def argmax(input, axis=None, name=None, dimension=None, output_type=_dtypes.int64):  # noqa: A002
    """Index of the largest value along `axis` (default 0); ties give the first index."""
    return _arg("ArgMax", input, axis, name, dimension, output_type)


def argmin(input, axis=None, name=None, dimension=None, output_type=_dtypes.int64):  # noqa: A002
    """Index of the smallest value along `axis` (default 0); ties give the first index."""
    return _arg("ArgMin", input, axis, name, dimension, output_type)


# -- scans ---------------------------------------------------------------------------------------

registry.register_op("Cumsum", shape_fn=unchanged_shape)
registry.register_op("Cumprod", shape_fn=unchanged_shape)


def _scan(op_type, x, axis, exclusive, reverse, name):
    with _name_scope(name, op_type, [x]) as scope:
        x = _dense(x, name="x")
        _check_allowed("x", x.dtype, _NUMBER)
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
    out = cumsum(op.outputs[0] * grad, op._inputs[1], exclusive=op._attrs["exclusive"],
                 reverse=not op._attrs["reverse"])
    return [out / x, None]


# -- segments ------------------------------------------------------------------------------------

def _unsorted_segment_shape(op):
    data, ids = op._inputs[0]._shape, op._inputs[1]._shape
    n = constant_value(op._inputs[2])
    n = None if n is None else int(n)
    if data.ndims is None or ids.ndims is None:
        return [unknown_shape()]
    k = ids.ndims
    if k > data.ndims:
        raise ValueError(f"Shape must be at least rank {k} but is rank {data.ndims}")
    for a, b in zip(data.as_list()[:k], ids.as_list()):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return [TensorShape([n] + data.as_list()[k:])]


def _segment_shape(op):
    data, ids = op._inputs[0]._shape, op._inputs[1]._shape
    if ids.ndims is not None and ids.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {ids.ndims}")
    if data.ndims is None:
        return [unknown_shape()]
    if data.ndims < 1:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    a, b = data.as_list()[0], ids.as_list()[0] if ids.ndims else None
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return [TensorShape([None] + data.as_list()[1:])]


registry.register_op("UnsortedSegmentSum", shape_fn=_unsorted_segment_shape)
registry.register_op("SegmentSum", shape_fn=_segment_shape)
registry.register_op("SegmentMean", shape_fn=_segment_shape)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """output[i] = sum of data[j...] over j with segment_ids[j...] == i (negative ids dropped)."""
    with _name_scope(name, "UnsortedSegmentSum", [data, segment_ids, num_segments]) as scope:
        data = _dense(data, name="data")
        _check_allowed("data", data.dtype, _NUMBER)
        ids = segment_ids if isinstance(segment_ids, Tensor) else convert_to_tensor(
            segment_ids, name="segment_ids", preferred_dtype=_dtypes.int32)
        _check_allowed("segment_ids", ids.dtype, _INDEX)
        n = num_segments if isinstance(num_segments, Tensor) else convert_to_tensor(
            num_segments, name="num_segments", preferred_dtype=_dtypes.int32)
        _check_allowed("num_segments", n.dtype, _INDEX)
        return apply_op("UnsortedSegmentSum", [data, ids, n], [data.dtype.base_dtype], scope,
                        attrs={"T": data.dtype.base_dtype, "Tindices": ids.dtype.base_dtype,
                               "Tnumsegments": n.dtype.base_dtype})


def _segment(op_type, data, segment_ids, name):
    with _name_scope(name, op_type, [data, segment_ids]) as scope:
        data = _dense(data, name="data")
        _check_allowed("data", data.dtype, _NUMBER)
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


# -- trace, tensordot, einsum --------------------------------------------------------------------

def trace(x, name=None):
    """Sum of the main diagonal of each innermost matrix."""
    with _name_scope(name, "Trace", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        n = x.shape.ndims
        if n is None or n < 2:
            raise ValueError("trace needs an input of known rank >= 2")
        letters = "abcdefghijklmnopqrstuvwxy"[:n - 2]
        return einsum(f"{letters}zz->{letters}", x, name=scope)


def _tensordot_axes(axes, ra, rb):
    if isinstance(axes, Tensor):
        v = constant_value(axes)
        if v is None:
            raise ValueError("tensordot needs constant axes")
        axes = v.tolist()
    if isinstance(axes, (int, np.integer)):
        if axes < 0:
            raise ValueError(f"'axes' must be at least 0, got {axes}.")
        if ra is not None and axes > ra:
            raise ValueError(f"'axes' must not be larger than the number of dimensions of tensor a. "
                             f"Got {axes} > {ra}.")
        return list(range(ra - axes, ra)), list(range(axes))
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError(f"'axes' must be an integer or have length 2, got {axes}.")
    a_axes, b_axes = axes
    a_axes = [a_axes] if isinstance(a_axes, (int, np.integer)) else list(a_axes)
    b_axes = [b_axes] if isinstance(b_axes, (int, np.integer)) else list(b_axes)
    if len(a_axes) != len(b_axes):
        raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(a_axes)} != {len(b_axes)}.")
    return [x % ra for x in a_axes], [x % rb for x in b_axes]


def tensordot(a, b, axes, name=None):
    """Sums the product of a and b over the given axes (an int N: last N of a with first N of b;
    or a pair of axis lists)."""
    with _name_scope(name, "Tensordot", [a, b, axes]) as scope:
        a = convert_to_tensor(a, name="a")
        b = _convert_like("MatMul", b, "b", a.dtype.base_dtype, "a")
        ra, rb = a.shape.ndims, b.shape.ndims
        if ra is None or rb is None:
            raise ValueError("tensordot needs inputs of known rank")
        a_axes, b_axes = _tensordot_axes(axes, ra, rb)
        arr = _a(a)
        a_free = [i for i in range(ra) if i not in a_axes]
        b_free = [i for i in range(rb) if i not in b_axes]
        ad, bd = a.shape.as_list(), b.shape.as_list()
        for i, j in zip(a_axes, b_axes):
            if ad[i] is not None and bd[j] is not None and ad[i] != bd[j]:
                raise ValueError(f"Dimensions must be equal, but are {ad[i]} and {bd[j]}")
        if not (a.shape.is_fully_defined() and b.shape.is_fully_defined()):
            letters = "abcdefghijklmnopqrstuvwxyz"
            sa = [letters[i] for i in range(ra)]
            sb = [letters[ra + i] for i in range(rb)]
            for i, j in zip(a_axes, b_axes):
                sb[j] = sa[i]
            out = [sa[i] for i in a_free] + [sb[j] for j in b_free]
            return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b, name=scope)

        def prep(t, free, axes_, dims, flipped):
            perm = (axes_ + free) if flipped else (free + axes_)
            free_n = int(np.prod([dims[i] for i in free])) if free else 1
            axes_n = int(np.prod([dims[i] for i in axes_])) if axes_ else 1
            if perm != list(range(len(dims))):
                t = arr.transpose(t, perm)
            new = [axes_n, free_n] if flipped else [free_n, axes_n]
            if t.shape.as_list() != new:
                t = arr.reshape(t, new)
            return t, [dims[i] for i in free]

        ra_, free_a = prep(a, a_free, a_axes, ad, False)
        rb_, free_b = prep(b, b_free, b_axes, bd, True)
        ab = _mat_mul(ra_, rb_)
        out_shape = free_a + free_b
        if ab.shape.as_list() == out_shape:
            return ab
        return arr.reshape(ab, out_shape, name=scope)


def _parse_einsum(equation, n_inputs):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs = eq
        counts = {}
        for c in lhs.replace(",", "").replace(".", ""):
            counts[c] = counts.get(c, 0) + 1
        out = ("..." if "..." in lhs else "") + "".join(sorted(c for c, k in counts.items() if k == 1))
    ins = lhs.split(",")
    if len(ins) != n_inputs:
        raise ValueError(f"Expected {len(ins)} inputs for equation {equation!r}, got {n_inputs}")
    return ins, out


def _expand_ellipsis(ins, out, ranks):
    """Replaces '...' by explicit (upper-case) labels, right-aligned like broadcasting."""
    if not any("..." in s for s in ins + [out]):
        return ins, out
    if any(r is None for r in ranks):
        return None
    n_ell = 0
    for s, r in zip(ins, ranks):
        if "..." in s:
            n_ell = builtins.max(n_ell, r - (len(s) - 3))
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n_ell]
    new_ins = []
    for s, r in zip(ins, ranks):
        if "..." in s:
            k = r - (len(s) - 3)
            s = s.replace("...", labels[n_ell - k:])
        new_ins.append(s)
    return new_ins, out.replace("...", labels)


def _einsum_shape(op):
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    shapes = [t._shape for t in op._inputs]
    exp = _expand_ellipsis(ins, out, [s.ndims for s in shapes])
    if exp is None or any(s.ndims is None for s in shapes):
        return [unknown_shape()]
    ins, out = exp
    dims = {}
    for s, shp in zip(ins, shapes):
        if len(s) != shp.ndims:
            raise ValueError(f"Expected input of rank {len(s)} for subscripts {s!r}, got rank {shp.ndims}")
        for c, d in zip(s, shp.as_list()):
            old = dims.get(c)
            if old is None or old == 1:
                dims[c] = d if old is None or d != 1 else old
            elif d is not None and d != 1 and d != old:
                raise ValueError(f"Dimensions must be equal, but are {old} and {d}")
    return [TensorShape([dims.get(c) for c in out])]


registry.register_op("Einsum", shape_fn=_einsum_shape)


def einsum(equation, *inputs, **kwargs):
    """Einstein summation, e.g. einsum('ij,jk->ik', a, b) is a matrix product."""
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {', '.join(sorted(kwargs))}")
    with _name_scope(name, "einsum", list(inputs)):
        ts = [convert_to_tensor(t, name="inputs") for t in inputs]
        dt = ts[0].dtype.base_dtype
        for t in ts[1:]:
            if t.dtype.base_dtype is not dt:
                raise TypeError(f"Tensors in list passed to 'inputs' of 'Einsum' Op have types "
                                f"[{', '.join(x.dtype.base_dtype.name for x in ts)}] that don't all match.")
        _parse_einsum(equation, len(ts))
        return apply_op("Einsum", ts, [dt], "Einsum", attrs={"equation": equation, "N": len(ts), "T": dt})


@registry.register_gradient("Einsum")
def _einsum_grad(op, grad):
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    exp = _expand_ellipsis(ins, out, [t.shape.ndims for t in op._inputs])
    if exp is None:
        raise NotImplementedError("einsum gradient with '...' needs inputs of known rank")
    ins, out = exp
    grads = []
    for i, x in enumerate(op._inputs):
        sub = ins[i]
        if len(set(sub)) != len(sub):
            raise NotImplementedError(f"einsum gradient for repeated subscripts {sub!r} is not supported")
        others = [(s, t) for j, (s, t) in enumerate(zip(ins, op._inputs)) if j != i]
        avail = set(out).union(*[set(s) for s, _ in others]) if others else set(out)
        target = "".join(c for c in sub if c in avail)
        eq = ",".join([out] + [s for s, _ in others]) + "->" + target
        g = einsum(eq, grad, *[t for _, t in others])
        missing = [k for k, c in enumerate(sub) if c not in avail]
        if missing:
            axes = constant(np.asarray(missing, dtype=np.int32))
            g = _broadcast_like(_kept_grad(g, x, axes, False), x)
        grads.append(g)
    return grads


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


def _logical(fn):
    def op(x, y, name):
        return fn(x, y, name=name)
    return op


def _xor(x, y, name):
    return logical_xor(x, y, name=name)


def _truediv_op(x, y, name):
    return _truediv(x, y, name)


for _name, _fn, _opn in [("add", _add_op, "add"), ("sub", subtract, "sub"), ("mul", multiply, "mul"),
                         ("truediv", _truediv_op, "truediv"), ("floordiv", floordiv, "floordiv"),
                         ("mod", floormod, "mod"), ("pow", pow, "pow"), ("matmul", matmul, "matmul"),
                         ("and", _logical(logical_and), "and"), ("or", _logical(logical_or), "or"),
                         ("xor", _xor, "xor")]:
    _f, _rf = _binop(_fn, _opn)
    Tensor._override_operator(f"__{_name}__", _f)
    Tensor._override_operator(f"__r{_name}__", _rf)

Tensor._override_operator("__neg__", lambda x: negative(x))
Tensor._override_operator("__abs__", lambda x: abs(x))
Tensor._override_operator("__invert__", lambda x: logical_not(x))
Tensor._override_operator("__lt__", lambda x, y: less(x, y))
Tensor._override_operator("__le__", lambda x, y: less_equal(x, y))
Tensor._override_operator("__gt__", lambda x, y: greater(x, y))
Tensor._override_operator("__ge__", lambda x, y: greater_equal(x, y))
