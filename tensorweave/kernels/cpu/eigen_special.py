"""Lgamma and Digamma as TF's CPU kernels compute them, so distribution log-probs and entropies
print TF's digits.

Eigen's lgamma is the C library's lgammaf / lgamma (half through float), called here element by
element through ctypes: glibc's results are not correctly rounded, so no NumPy or SciPy formula
gives the same float32 values. Eigen's digamma is its own Cephes-style algorithm (reflection below
zero, the recurrence psi(x+1) = psi(x) + 1/x up to 10, an asymptotic polynomial), evaluated here
in the same precision and order, with glibc's logf.
"""

import ctypes
import ctypes.util
import math

import numpy as np

from ..registry import register_kernel
from . import eigen_math

_lib = None
# Past this many distinct values the C library is not called element by element (about 0.1 s).
EXACT_MAX_VALUES = 1 << 16


def _libm():
    global _lib
    if _lib is None:
        lib = ctypes.CDLL(ctypes.util.find_library("m"))
        for name, t in (("lgammaf", ctypes.c_float), ("lgamma", ctypes.c_double),
                        ("tanf", ctypes.c_float)):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = t, [t]
        _lib = lib
    return _lib


def lgamma(x):
    """Eigen's numext::lgamma: the C library's lgammaf (float32, float16 via float32) or lgamma."""
    x = np.asarray(x)
    double = x.dtype == np.float64
    fn = _libm().lgamma if double else _libm().lgammaf
    t = np.float64 if double else np.float32
    flat = x.astype(t).reshape(-1)
    if flat.size <= 4 * EXACT_MAX_VALUES:
        # About 1.5 us a call: distinct values only (parameters repeat; NaNs come back as NaN).
        vals, inverse = np.unique(flat, return_inverse=True)
        if vals.size <= EXACT_MAX_VALUES:
            out = np.fromiter(map(fn, vals.tolist()), t, count=vals.size)[inverse]
            return out.reshape(x.shape).astype(x.dtype)
    # Big tensors keep a vectorized path (correctly rounded, so a last digit may differ).
    from scipy.special import gammaln
    return gammaln(flat.astype(np.float64)).astype(t).reshape(x.shape).astype(x.dtype)


# Eigen's digamma_impl_maybe_poly coefficients (Cephes psi), highest power first.
_A32 = [-4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
        8.33333333333333333333E-2]
_A64 = [8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
        -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
        8.33333333333333333333E-2]


def _tan(x, double):
    if double or x.size > EXACT_MAX_VALUES:
        return np.tan(x)
    fn = _libm().tanf
    return np.array([fn(v) for v in x.tolist()], np.float32)


def digamma(x):
    """Eigen's digamma_impl in the input's precision (float16 through float32)."""
    x = np.asarray(x)
    orig, shape = x.dtype, x.shape
    double = orig == np.float64
    t = np.float64 if double else np.float32
    x = x.astype(t).reshape(-1)
    one, half, zero = t(1), t(0.5), t(0)
    with np.errstate(all="ignore"):
        neg = x <= zero
        nan = neg & (np.floor(x) == x)
        nz = np.zeros_like(x)
        if neg.any():
            q = x[neg]
            p = np.floor(q)
            r = q - p
            up = r > half
            p = np.where(up, p + one, p)
            r = np.where(up, q - p, r)
            pi = t(math.pi)
            nz_neg = np.where(r != half, pi / _tan(pi * r, double), zero).astype(t)
            nz[neg] = nz_neg
            x = np.where(neg, one - x, x)
        s = x.copy()
        w = np.zeros_like(x)
        todo = s < t(10)
        while todo.any():
            w = np.where(todo, w + one / s, w)
            s = np.where(todo, s + one, s)
            todo = s < t(10)
        z = one / (s * s)
        poly = np.full_like(z, t(_A64[0] if double else _A32[0]))
        for c in (_A64 if double else _A32)[1:]:
            poly = poly * z + t(c)
        y = np.where(s < t(1.0e17 if double else 1.0e8), z * poly, zero)
        logs = np.log(s) if double else eigen_math.glibc_logf(s)
        y = logs - (half / s) - y - w
        y = np.where(neg, y - nz, y)
        y = np.where(nan, t(np.nan), y)
    return y.reshape(shape).astype(orig)


def _unary(fn):
    def factory(op, ctx):
        def kernel(x):
            x = np.asarray(x)
            return fn(x).reshape(x.shape)
        return kernel
    return factory


register_kernel("Lgamma")(_unary(lgamma))
register_kernel("Digamma")(_unary(digamma))
