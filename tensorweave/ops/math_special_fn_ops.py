"""tf.math.special: Bessel functions of the first and second kind (j0, j1, y0, y1), modified
Bessel functions (i0/i0e/i1/i1e, shared with tf.math, and k0/k0e/k1/k1e), Dawson's integral,
the exponential integral Ei, the Fresnel integrals and Spence's function.

Each is one op (BesselJ0, Dawsn, Expint, ...) inside a name scope named after the function
("bessel_j0/BesselJ0", as TF 2.21 builds them); float16/32/64 inputs. Gradients are TF's
(special_math_grad.py), built under control_dependencies([grad]).
"""

from ..framework import registry
from ..framework.constant_op import constant
from ..framework.op_util import unchanged_shape
from ..framework.graph import control_dependencies as _control_dependencies
from . import math_ops as _mo
from .math_special_ops import _bessel, bessel_i0, bessel_i0e, bessel_i1, bessel_i1e

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0",
           "bessel_k0e", "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint", "fresnel_cos",
           "fresnel_sin", "spence"]

_OPS = {"bessel_j0": "BesselJ0", "bessel_j1": "BesselJ1", "bessel_y0": "BesselY0", "bessel_y1": "BesselY1",
        "bessel_k0": "BesselK0", "bessel_k0e": "BesselK0e", "bessel_k1": "BesselK1", "bessel_k1e": "BesselK1e",
        "dawsn": "Dawsn", "expint": "Expint", "fresnel_cos": "FresnelCos", "fresnel_sin": "FresnelSin",
        "spence": "Spence"}
for _t in _OPS.values():
    registry.register_op(_t, shape_fn=unchanged_shape)


def bessel_j0(x, name=None):
    """The Bessel function of the first kind of order 0."""
    return _bessel("BesselJ0", "bessel_j0", x, name)


def bessel_j1(x, name=None):
    """The Bessel function of the first kind of order 1."""
    return _bessel("BesselJ1", "bessel_j1", x, name)


def bessel_y0(x, name=None):
    """The Bessel function of the second kind of order 0 (NaN for x < 0, -inf at 0)."""
    return _bessel("BesselY0", "bessel_y0", x, name)


def bessel_y1(x, name=None):
    """The Bessel function of the second kind of order 1."""
    return _bessel("BesselY1", "bessel_y1", x, name)


def bessel_k0(x, name=None):
    """The modified Bessel function of the second kind of order 0."""
    return _bessel("BesselK0", "bessel_k0", x, name)


def bessel_k0e(x, name=None):
    """exp(x) * bessel_k0(x)."""
    return _bessel("BesselK0e", "bessel_k0e", x, name)


def bessel_k1(x, name=None):
    """The modified Bessel function of the second kind of order 1."""
    return _bessel("BesselK1", "bessel_k1", x, name)


def bessel_k1e(x, name=None):
    """exp(x) * bessel_k1(x)."""
    return _bessel("BesselK1e", "bessel_k1e", x, name)


def dawsn(x, name=None):
    """Dawson's integral exp(-x**2) * integral_0^x exp(t**2) dt."""
    return _bessel("Dawsn", "dawsn", x, name)


def expint(x, name=None):
    """The exponential integral Ei(x) = integral_-inf^x exp(t) / t dt."""
    return _bessel("Expint", "expint", x, name)


def fresnel_cos(x, name=None):
    """The Fresnel cosine integral integral_0^x cos(pi/2 t**2) dt."""
    return _bessel("FresnelCos", "fresnel_cos", x, name)


def fresnel_sin(x, name=None):
    """The Fresnel sine integral integral_0^x sin(pi/2 t**2) dt."""
    return _bessel("FresnelSin", "fresnel_sin", x, name)


def spence(x, name=None):
    """Spence's function (dilogarithm) integral_1^x log(t) / (1 - t) dt, for x >= 0."""
    return _bessel("Spence", "spence", x, name)


# -- gradients ------------------------------------------------------------------------------------

def _grad(op_type):
    def deco(partial):
        @registry.register_gradient(op_type)
        def grad_fn(op, grad):
            x, y = op.inputs[0], op.outputs[0]
            with _control_dependencies([grad]):
                return [grad * partial(x, y)]
        return grad_fn
    return deco


def _where(c, a, b):
    from .array_ops import where_v2
    return where_v2(c, a, b)


def _y_over_x(x, y):
    """y / x, 0.5 where x == 0 (the order-1 functions' limit)."""
    from .array_ops import ones_like
    zero = _mo.equal(x, 0.0)
    safe_x = _where(zero, ones_like(x), x)
    return _where(zero, constant(0.5, dtype=x.dtype.base_dtype), y / safe_x)


_grad("BesselJ0")(lambda x, y: -bessel_j1(x))
_grad("BesselJ1")(lambda x, y: bessel_j0(x) - _y_over_x(x, y))
_grad("BesselY0")(lambda x, y: -bessel_y1(x))
_grad("BesselY1")(lambda x, y: bessel_y0(x) - y / x)
_grad("BesselK0")(lambda x, y: -bessel_k1(x))
_grad("BesselK0e")(lambda x, y: y - bessel_k1e(x))
_grad("BesselK1")(lambda x, y: -bessel_k0(x) - y / x)
_grad("BesselK1e")(lambda x, y: y * (1.0 - 1.0 / x) - bessel_k0e(x))
_grad("Dawsn")(lambda x, y: 1.0 - 2.0 * x * y)
_grad("Expint")(lambda x, y: _mo.exp(x) / x)
_grad("FresnelCos")(lambda x, y: _mo.cos((_PI / 2.0) * _mo.square(x)))
_grad("FresnelSin")(lambda x, y: _mo.sin((_PI / 2.0) * _mo.square(x)))


@registry.register_gradient("Spence")
def _spence_grad(op, grad):
    from .array_ops import ones_like
    x = op.inputs[0]
    with _control_dependencies([grad]):
        partial_x = _mo.log(x) / (1.0 - x)
        partial_x = _where(_mo.equal(x, 1.0), -ones_like(x), partial_x)
        return [grad * partial_x]


_PI = 3.141592653589793
