"""Elementwise arithmetic (add, multiply, truediv, sqrt, exp, ...) and the gradients of the
elementwise ops.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op
from .math_ops import (
    _reduce_gradient_args, _shapes_fully_specified_and_equal,
    _a, _binary, _convert_like, _dense, _FLOAT, _FLOAT_CPLX, _REAL, _reduce_to, _SIGNED, _unary,
)


# -- arithmetic ----------------------------------------------------------------------------------

def add(x, y, name=None):
    """x + y elementwise, with broadcasting (op type AddV2; Add for strings)."""
    if isinstance(x, Tensor) and x._dtype.base_dtype is _dtypes.string:
        return _binary("Add", x, y, name or "Add", allowed=None, hint=True)
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


floormod.__name__ = floormod.__qualname__ = "floor_mod"   # TF's generated name
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
# TF's _TRUEDIV_TABLE keys, in its order (its error message lists them).
_TRUEDIV_KEYS = ("uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "bfloat16",
                 "float16", "float32", "float64", "complex64", "complex128")


def _truediv(x, y, name, op_type="RealDiv", default="truediv", x_dtype=None):
    with _name_scope(name, default, [x, y]) as scope:
        x = _dense(x, name="x") if x_dtype is None else convert_to_tensor(x, dtype=x_dtype, name="x")
        dt = x.dtype.base_dtype
        y = y if isinstance(y, Tensor) else convert_to_tensor(y, preferred_dtype=dt, name="y")
        if y.dtype.base_dtype is not dt:
            raise TypeError(f"`x` and `y` must have the same dtype, got {dt!r} != {y.dtype.base_dtype!r}.")
        if dt.name not in _TRUEDIV_KEYS:
            where = "__truediv__" if op_type == "RealDiv" else "tf.math.divide_no_nan"
            raise TypeError(f"Invalid dtype {dt!r} in {where}. Expected one of "
                            f"{{{', '.join('tf.' + k for k in _TRUEDIV_KEYS)}}}.")
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


# Abs's and Square's T lists, in the order TF's TypeError prints them
_ABS = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64")
_SQUARE = _ABS + ("uint8", "uint16", "uint32", "uint64", "complex64", "complex128")


def abs(x, name=None):  # noqa: A001
    """|x| elementwise (for complex x: the magnitude, of the real dtype)."""
    if not isinstance(x, Tensor):
        with _name_scope(name, "Abs", [x]) as scope:
            return abs(convert_to_tensor(x, name="x"), name=scope)
    if x.dtype.is_complex:
        real = _dtypes.float32 if x.dtype.base_dtype is _dtypes.complex64 else _dtypes.float64
        return apply_op("ComplexAbs", [x], [real], name or "Abs", attrs={"T": x.dtype.base_dtype,
                                                                          "Tout": real})
    return _unary("Abs", x, name or "Abs", allowed=_ABS)


def sign(x, name=None):
    """-1, 0 or 1 by the sign of x (NaN stays NaN); x / |x| for complex x (0 at 0), built as TF
    builds it: DivNoNan(x, Cast(ComplexAbs(x)))."""
    x = convert_to_tensor(x, name="x") if not isinstance(x, Tensor) else x
    if x.dtype.is_complex:
        dt = x.dtype.base_dtype
        real = _dtypes.float32 if dt is _dtypes.complex64 else _dtypes.float64
        mag = apply_op("ComplexAbs", [x], [real], "ComplexAbs", attrs={"T": dt, "Tout": real})
        return _binary("DivNoNan", x, cast(mag, dt), name or "DivNoNan")
    return _unary("Sign", x, name or "Sign", allowed=_SIGNED)


def square(x, name=None):
    """x * x elementwise."""
    return _unary("Square", x, name or "Square", allowed=_SQUARE)


def _float_unary(op_type, allowed=_FLOAT_CPLX, doc=""):
    def fn(x, name=None):
        return _unary(op_type, x, name or op_type, allowed=allowed)
    fn.__doc__ = doc
    fn.__name__ = fn.__qualname__ = op_type.lower()  # TF's function names: tf.exp.__name__ == "exp"
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
    if x.dtype.is_complex or x.dtype.base_dtype is _dtypes.variant:
        return _unary("Conj", x, name or "Conj", allowed=None)
    if x.dtype.is_floating or x.dtype.is_integer or x.dtype.base_dtype is _dtypes.bfloat16:
        return x
    raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype.base_dtype!r}.")


def real(input, name=None):  # noqa: A002
    """The real part of a complex tensor; real tensors are returned unchanged."""
    input = convert_to_tensor(input)
    if input.dtype.base_dtype in (_dtypes.bool, _dtypes.string, _dtypes.resource, _dtypes.variant):
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype <dtype: '{input.dtype.base_dtype.name}'>")
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


# The binary gradients are TF's (math_grad.py) op for op: a static-shape shortcut when x, y and
# grad have one fully known shape, else each partial summed over its broadcast axes (Shape,
# Sum(keepdims), Reshape; BroadcastGradientArgs only when the axes are not static).

@registry.register_gradient("AddV2")
def _add_grad(op, grad):
    x, y = op._inputs
    if isinstance(grad, Tensor) and _shapes_fully_specified_and_equal(x, y, grad):
        return [grad, grad]
    return list(_reduce_gradient_args(x, y, grad, grad))


registry.register_gradient("Add")(_add_grad)


@registry.register_gradient("Sub")
def _sub_grad(op, grad):
    x, y = op._inputs
    if isinstance(grad, Tensor) and _shapes_fully_specified_and_equal(x, y, grad):
        return [grad, negative(grad)]
    return list(_reduce_gradient_args(x, y, grad, negative(grad)))


@registry.register_gradient("Mul")
def _mul_grad(op, grad):
    x, y = op._inputs
    if isinstance(grad, Tensor) and _shapes_fully_specified_and_equal(x, y, grad) \
            and grad.dtype.base_dtype in (_dtypes.int32, _dtypes.float32):
        return [multiply(grad, y), multiply(grad, x)]
    gx = multiply(grad, conj(y))
    gy = multiply(conj(x), grad)
    return list(_reduce_gradient_args(x, y, gx, gy))


@registry.register_gradient("RealDiv")
def _realdiv_grad(op, grad):
    x, y = op._inputs
    cx, cy = conj(x), conj(y)
    gx = realdiv(grad, cy)
    gy = grad * realdiv(realdiv(negative(cx), cy), cy)
    return list(_reduce_gradient_args(x, y, gx, gy))


@registry.register_gradient("DivNoNan")
def _div_no_nan_grad(op, grad):
    x, y = conj(op._inputs[0]), conj(op._inputs[1])
    gx = div_no_nan(grad, y)
    gy = grad * div_no_nan(div_no_nan(negative(x), y), y)
    return list(_reduce_gradient_args(x, y, gx, gy))


@registry.register_gradient("FloorMod")
def _floormod_grad(op, grad):
    x, y = conj(op._inputs[0]), conj(op._inputs[1])
    gy = grad * negative(floor_div(x, y))
    return list(_reduce_gradient_args(x, y, grad, gy))


@registry.register_gradient("Pow")
def _pow_grad(op, grad):
    """TF's _PowGrad op for op: grad * (y * x^(y-1), z * log(x)), log taken as 0 where x <= 0
    (complex: where x == 0) through a Select on a safe x, then _ReduceGradientArgs."""
    x, y = op._inputs
    cx, cy = conj(x), conj(y)
    gx = grad * cy * pow(cx, cy - 1)
    a = _a(x)
    mask = not_equal(cx, 0) if x.dtype.is_complex else cx > 0
    safe_x = a.where(mask, cx, a.ones_like(x))
    log_x = a.where(mask, log(safe_x), a.zeros_like(x))
    gy = grad * conj(op.outputs[0]) * log_x
    return list(_reduce_gradient_args(x, y, gx, gy))


def _one(t):
    return constant(1, dtype=t.dtype.base_dtype)


def _zero(t):
    return constant(0, dtype=t.dtype.base_dtype)


@registry.register_gradient("Atan2")
def _atan2_grad(op, grad):
    """TF's _Atan2Grad: grad * x / (y^2 + x^2), grad * -y / (y^2 + x^2), after grad."""
    from ..framework.graph import control_dependencies
    y, x = op._inputs
    with control_dependencies([grad]):
        grad_inv = grad / (square(y) + square(x))
        gy = x * grad_inv
        gx = -y * grad_inv
        return list(_reduce_gradient_args(y, x, gy, gx))


def _select_grads(op, grad, xmask):
    x, y = op._inputs
    m = cast(xmask, grad.dtype.base_dtype)
    gx = grad * m
    return _binary_grads(op, gx, grad - gx)


def _maximum_minimum_grad(op, grad, selector):
    x, y = op._inputs
    a = _a(grad)
    zeros = a.zeros_like(grad)
    xmask = selector(x, y)
    gx = a.where_v2(xmask, grad, zeros)
    gy = a.where_v2(xmask, zeros, grad)
    return list(_reduce_gradient_args(x, y, gx, gy))


@registry.register_gradient("Maximum")
def _maximum_grad(op, grad):
    return _maximum_minimum_grad(op, grad, greater_equal)


@registry.register_gradient("Minimum")
def _minimum_grad(op, grad):
    return _maximum_minimum_grad(op, grad, less_equal)


@registry.register_gradient("SquaredDifference")
def _squared_difference_grad(op, grad):
    x, y = op._inputs
    with op.graph.control_dependencies([grad]):
        x_grad = scalar_mul(2.0, grad) * (x - y)
    if isinstance(grad, Tensor) and _shapes_fully_specified_and_equal(x, y, grad):
        return [x_grad, negative(x_grad)]
    return list(_reduce_gradient_args(x, y, x_grad, negative(x_grad)))


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
    with op.graph.control_dependencies([grad]):
        x = conj(op._inputs[0])
        y = constant(2.0, dtype=x.dtype.base_dtype)
        return [multiply(grad, multiply(x, y))]


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
    with op.graph.control_dependencies([grad]):
        return [_grad_op("TanhGrad", conj(op.outputs[0]), grad)]


@registry.register_gradient("Sigmoid")
def _sigmoid_grad(op, grad):
    with op.graph.control_dependencies([grad]):
        return [_grad_op("SigmoidGrad", conj(op.outputs[0]), grad)]


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


# (TF builds these under control_dependencies([grad]), which also marks grad's op with the
# NodeDef attr `_has_manual_control_dependencies`.)

@registry.register_gradient("Exp")
def _exp_grad(op, grad):
    with op.graph.control_dependencies([grad]):
        return [grad * conj(op.outputs[0])]


@registry.register_gradient("Expm1")
def _expm1_grad(op, grad):
    with op.graph.control_dependencies([grad]):
        return [grad * exp(conj(op._inputs[0]))]


@registry.register_gradient("Log")
def _log_grad(op, grad):
    with op.graph.control_dependencies([grad]):
        return [grad * reciprocal(conj(op._inputs[0]))]


@registry.register_gradient("Log1p")
def _log1p_grad(op, grad):
    with op.graph.control_dependencies([grad]):
        return [grad * reciprocal(1 + conj(op._inputs[0]))]


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


@registry.register_gradient("Real")
def _real_grad(op, grad):  # TF: complex(grad, 0)
    from .array_extra_ops import complex as _complex
    zero = _zero(grad)
    return [_complex(grad, zero) if op.inputs[0].dtype.is_complex else grad]


@registry.register_gradient("Imag")
def _imag_grad(op, grad):  # TF: complex(0, grad)
    from .array_extra_ops import complex as _complex
    if not op.inputs[0].dtype.is_complex:
        return [None]
    return [_complex(_zero(grad), grad)]


@registry.register_gradient("ComplexAbs")
def _complex_abs_grad(op, grad):  # TF: complex(grad, 0) * sign(x)
    from .array_extra_ops import complex as _complex
    return [_complex(grad, _zero(grad)) * sign(op.inputs[0])]


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and math_ops.py imports them all once its helpers exist.
from .math_compare_ops import cast, greater_equal, less_equal, not_equal, scalar_mul  # noqa: E402
