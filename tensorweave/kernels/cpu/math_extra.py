"""CPU kernels for ops/math_special_ops.py: CumulativeLogsumexp, NextAfter and the modified Bessel
functions (SciPy's i0/i0e/i1/i1e)."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

from .math import scipy_special


def _bad(msg):
    return errors.InvalidArgumentError(None, None, msg)


@register_kernel("CumulativeLogsumexp")
def _cumulative_logsumexp(op, ctx):
    exclusive, reverse = op._get_attr("exclusive"), op._get_attr("reverse")
    dt = op.outputs[0].dtype.as_numpy_dtype

    def cumulative_logsumexp(x, axis):
        x = np.asarray(x)
        n = x.ndim
        a = int(axis)
        if not -n <= a < n:
            raise _bad(f"ScanOp: Expected scan axis in the range [{-n}, {n}), but got {a}")
        a %= n
        w = x.astype(np.float64)
        if reverse:
            w = np.flip(w, a)
        with np.errstate(all="ignore"):
            out = np.logaddexp.accumulate(w, axis=a) if w.shape[a] else w.copy()
        if exclusive:
            out = np.roll(out, 1, axis=a)
            sl = [slice(None)] * n
            sl[a] = slice(0, 1)
            out[tuple(sl)] = -np.inf
        if reverse:
            out = np.flip(out, a)
        return np.ascontiguousarray(out).astype(dt)
    return cumulative_logsumexp


@register_kernel("NextAfter")
def _next_after(op, ctx):
    return np.nextafter


def _bessel(name, fallback=None):
    fn = scipy_special(name, fallback)

    def factory(op, ctx):
        dt = op.outputs[0].dtype.as_numpy_dtype

        def bessel(x):
            return np.asarray(fn(np.asarray(x, dtype=np.float64)), dtype=dt)
        return bessel
    return factory


register_kernel("BesselI0")(_bessel("i0", np.i0))
register_kernel("BesselI0e")(_bessel("i0e"))
register_kernel("BesselI1")(_bessel("i1"))
register_kernel("BesselI1e")(_bessel("i1e"))


# tf.math.special (ops/math_special_fn_ops.py)
register_kernel("BesselJ0")(_bessel("j0"))
register_kernel("BesselJ1")(_bessel("j1"))
register_kernel("BesselY0")(_bessel("y0"))
register_kernel("BesselY1")(_bessel("y1"))
register_kernel("BesselK0")(_bessel("k0"))
register_kernel("BesselK0e")(_bessel("k0e"))
register_kernel("BesselK1")(_bessel("k1"))
register_kernel("BesselK1e")(_bessel("k1e"))
register_kernel("Dawsn")(_bessel("dawsn"))
_expi = scipy_special("expi")


@register_kernel("Expint")
def _expint(op, ctx):
    dt = op.outputs[0].dtype.as_numpy_dtype

    def expint(x):   # TF's Ei is defined for x >= 0 only: NaN below (SciPy continues it)
        x = np.asarray(x, dtype=np.float64)
        with np.errstate(all="ignore"):
            return np.asarray(np.where(x < 0, np.nan, _expi(x)), dtype=dt)
    return expint
register_kernel("Spence")(_bessel("spence"))


def _fresnel(i):
    fn = scipy_special("fresnel")

    def factory(op, ctx):
        dt = op.outputs[0].dtype.as_numpy_dtype

        def fresnel(x):   # scipy's fresnel returns (S, C)
            return np.asarray(fn(np.asarray(x, dtype=np.float64))[i], dtype=dt)
        return fresnel
    return factory


register_kernel("FresnelSin")(_fresnel(0))
register_kernel("FresnelCos")(_fresnel(1))
