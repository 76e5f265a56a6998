"""CPU kernels for ops/math_special_ops.py: CumulativeLogsumexp, NextAfter and the modified Bessel
functions (SciPy's i0/i0e/i1/i1e); Reciprocal and Rsqrt (complex division as TF's)."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

from .math import _is_int, no_kernel, scipy_special, via_float32
from . import eigen_math, x86_approx


# complex values per AVX packet in Eigen (Packet4cf, Packet2cd): the last n % P take the scalar path
_CPACKET = {np.dtype(np.complex64): 4, np.dtype(np.complex128): 2}


def _complex(re, im, dtype):
    out = np.empty(np.shape(re), dtype)
    out.real, out.imag = re, im
    return out


def _complex_inverse(y):
    """1 / y as TF's Reciprocal computes it (measured on TF 2.21), so signed zeros match
    (1 / (3+0j) is 0.333+0j, NumPy's is 0.333-0j): Eigen's packet pdiv_complex (scaled by
    max(|re|, |im|), in y's precision) on whole packets, libgcc's complex division on the tail
    (complex64 in double precision, complex128 by Smith's method)."""
    y = np.asarray(y)
    c, d = y.real, y.imag
    one, zero = c.dtype.type(1), c.dtype.type(0)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        m = np.maximum(np.abs(c), np.abs(d))
        cs, ds = c / m, d / m
        denom = cs * cs + ds * ds
        out = _complex((one * cs - zero * -ds) / denom / m, (one * -ds + zero * cs) / denom / m, y.dtype)
        tail = y.size % _CPACKET[y.dtype]
        if tail:
            ct, dt = c.reshape(-1)[-tail:], d.reshape(-1)[-tail:]
            if y.dtype == np.complex64:
                c2, d2 = ct.astype(np.float64), dt.astype(np.float64)
                den = c2 * c2 + d2 * d2
                t = _complex(c2 / den, (0.0 * c2 - d2) / den, y.dtype)
            else:
                small = np.abs(ct) < np.abs(dt)
                r = np.where(small, ct / dt, dt / ct)
                den = np.where(small, ct * r + dt, dt * r + ct)
                t = _complex(np.where(small, r + 0.0, 1.0 + 0.0 * r) / den,
                             np.where(small, 0.0 * r - 1.0, 0.0 - r) / den, y.dtype)
            out.reshape(-1)[-tail:] = t
    return out


def _complex_rsqrt(z):
    """1 / sqrt(z) by Eigen's complex_rsqrt (TF's Rsqrt of complex, in z's precision)."""
    z = np.asarray(z)
    x, y = z.real, z.imag
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        abs_z = np.hypot(x, y)
        w = np.sqrt(x.dtype.type(0.5) * (np.abs(x) + abs_z))
        woz = w / abs_z
        two = x.dtype.type(2)
        re = np.where(x >= 0, woz, np.abs(y) / (two * w * abs_z))
        im = np.where(x >= 0, -y / (two * w * abs_z), np.where(y < 0, woz, -woz))
        inf = np.isinf(x) | np.isinf(y)
        re = np.where(abs_z == 0, np.inf, np.where(inf, 0, re))
        im = np.where(abs_z == 0, np.nan, np.where(inf, 0, im))
    return _complex(re, im, z.dtype)


@register_kernel("Reciprocal")
def _reciprocal(op, ctx):
    if _is_int(op):
        return no_kernel(op)
    if op._inputs[0]._dtype.base_dtype.is_complex and ctx.xp is np:
        return _complex_inverse
    if _tf_approx(op, ctx):
        return x86_approx.reciprocal
    return ctx.xp.reciprocal


def _tf_approx(op, ctx):
    """Whether TF's float32 kernel is the CPU's approximation plus a Newton step (x86_approx)."""
    return ctx.xp is np and op._inputs[0]._dtype.base_dtype.name == "float32" and x86_approx.available()


@register_kernel("Rsqrt")
def _rsqrt(op, ctx):
    if op._inputs[0]._dtype.base_dtype.is_complex and ctx.xp is np:
        return _complex_rsqrt
    if _tf_approx(op, ctx):
        return x86_approx.rsqrt

    def rsqrt(x):
        r = ctx.xp.sqrt(x)
        return ctx.xp.reciprocal(r, out=r) if isinstance(r, ctx.xp.ndarray) else ctx.xp.reciprocal(r)
    if ctx.xp is np and op._inputs[0]._dtype.base_dtype.name in ("float16", "bfloat16"):
        return via_float32(rsqrt, op._inputs[0]._dtype.base_dtype.as_numpy_dtype)
    return rsqrt


def _bad(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _logsumexp_step(a, b, exp=np.exp, log1p=np.log1p):
    """TF's LogSumExp functor (scan_ops.h): log1p(exp(min - max)) + max with std::min/max, so a
    NaN b leaves the sum as it was (-inf + NaN is -inf), and max below lowest gives max."""
    if a.size == 0:
        return a.copy()
    lo = np.where(b < a, b, a)
    hi = np.where(a < b, b, a)
    d = lo - hi
    r = np.asarray(log1p(exp(d)), a.dtype) + hi
    r = np.where(np.isnan(d), d, r)       # (inf - inf: that NaN, as glibc passes it on)
    return np.where(hi < np.finfo(a.dtype).min, hi, r).astype(a.dtype)


# TF's scan runs the functor on scalars (no packets, whatever the axis): glibc's exp and log1p in
# the dtype. Other dtypes, and inputs too big for glibc's float functions called element by
# element here, go through float64 NumPy.
_LSE_FNS = {"float32": (eigen_math.glibc_expf, eigen_math.glibc_log1pf),
            "float64": (eigen_math.glibc_exp, eigen_math.glibc_log1p)}
_LSE_EXACT_MAX = 1 << 16


@register_kernel("CumulativeLogsumexp")
def _cumulative_logsumexp(op, ctx):
    exclusive, reverse = op._get_attr("exclusive"), op._get_attr("reverse")
    dt = op.outputs[0].dtype.as_numpy_dtype

    def cumulative_logsumexp(x, axis):
        x = np.asarray(x)
        n = x.ndim
        if np.ndim(axis) != 0:
            raise _bad(f"ScanOp: axis must be a scalar, not [{','.join(map(str, np.shape(axis)))}]")
        a = int(axis)
        a += n if a < 0 else 0   # TF reports the axis after adding the rank to a negative one
        if not 0 <= a < n:
            raise _bad(f"ScanOp: Expected scan axis in the range [{-n}, {n}), but got {a}")
        fns = _LSE_FNS.get(np.dtype(dt).name, ()) if 0 < x.size <= _LSE_EXACT_MAX else ()
        moved = np.moveaxis(x.astype(dt if fns else np.float64), a, 0)
        w = moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:], dtype=np.int64)))
        if reverse:
            w = w[::-1]
        out = np.empty_like(w)
        acc = np.full(w.shape[1:], -np.inf, w.dtype)
        with np.errstate(all="ignore"):
            for i in range(w.shape[0]):
                if exclusive:
                    out[i] = acc
                acc = _logsumexp_step(acc, w[i], *fns)
                if not exclusive:
                    out[i] = acc
        if reverse:
            out = out[::-1]
        out = np.moveaxis(out.reshape(moved.shape), 0, a)
        return np.ascontiguousarray(out).astype(dt)
    return cumulative_logsumexp


@register_kernel("NextAfter")
def _next_after(op, ctx):
    return np.nextafter


def _bessel(name, fallback=None, bfloat16=True):
    fn = scipy_special(name, fallback)

    def factory(op, ctx):
        dt = op.outputs[0].dtype.as_numpy_dtype
        if not bfloat16 and np.dtype(dt).name == "bfloat16":
            return no_kernel(op)

        def bessel(x):
            return np.asarray(fn(np.asarray(x, dtype=np.float64)), dtype=dt)
        return bessel
    return factory


# (TF registers no bfloat16 kernels for these four)
register_kernel("BesselI0")(_bessel("i0", np.i0, bfloat16=False))
register_kernel("BesselI0e")(_bessel("i0e", bfloat16=False))
register_kernel("BesselI1")(_bessel("i1", bfloat16=False))
register_kernel("BesselI1e")(_bessel("i1e", bfloat16=False))


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
