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
            out = np.ascontiguousarray(out)         # (the flat write below must be a view)
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
            # libgcc's recovery when both parts come out NaN: a zero divisor gives copysign(inf, c)
            # times (1, 0); an infinite one gives zeros signed as c' and -d' (1 / (inf+1j) is 0+0j)
            both = np.isnan(t.real) & np.isnan(t.imag)
            if both.any():
                zero_div = (ct == 0) & (dt == 0)
                inf_div = np.isinf(ct) | np.isinf(dt)
                cc = np.copysign(np.where(np.isinf(ct), one, zero), ct)
                dd = np.copysign(np.where(np.isinf(dt), one, zero), dt)
                big = np.copysign(c.dtype.type(np.inf), ct)
                re = np.where(zero_div, big * one, np.where(inf_div, zero * cc, t.real))
                im = np.where(zero_div, big * zero, np.where(inf_div, zero * (zero * cc - one * dd), t.imag))
                t = np.where(both, _complex(re, im, y.dtype), t)
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


# Eigen's generic_i0e / generic_i1e (Cephes' Chebyshev series; float keeps the last 18/7 and 17/7
# terms of double's), i0 = exp(|x|) * i0e(x). float32 packets take Eigen's prsqrt and pexp, the
# scalar tail 1 / sqrt and glibc's expf; float64 is exact 1 / sqrt and glibc's exp throughout
# (measured on TF 2.21).
_I0E_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
          1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
          -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
          9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
          -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
          1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
          -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
          1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
          -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
          1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0E_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
          3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
          1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
          -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
          7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
          -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
          3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
          2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
          8.04490411014108831608E-1)
_I1E_A = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
          -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
          3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
          -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
          9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
          -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
          4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
          -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
          2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
          -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1E_B = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
          -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
          -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
          4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
          -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
          3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
          -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
          -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
          7.78576235018280120474E-1)


def _chbevl(x, coef):
    t = x.dtype.type
    b0, b1, b2 = np.full_like(x, t(coef[0])), np.zeros_like(x), np.zeros_like(x)
    for c in coef[1:]:
        b2, b1 = b1, b0
        b0 = (x * b1 + t(c)) - b2
    return t(0.5) * (b0 - b2)


def _bessel_ie(x, order, rsqrt):
    t = x.dtype.type
    double = t is np.float64
    a, b = (_I0E_A, _I0E_B) if order == 0 else (_I1E_A, _I1E_B)
    if not double:
        a, b = a[-18:] if order == 0 else a[-17:], b[-7:]
    y = np.abs(x)
    with np.errstate(all="ignore"):
        le = _chbevl(t(0.5) * y + t(-2.0), a)
        if order == 1:
            le = y * le
        gt = _chbevl(t(32.0) / y - t(2.0), b) * rsqrt(y)
        r = np.where(y <= t(8.0), le, gt)
    return np.where(x < 0, -r, r) if order == 1 else r


def _bessel_eigen(order, scaled):
    def run(x):
        x = np.asarray(x)
        double = x.dtype == np.float64
        exact_rsqrt = (lambda v: np.float64(1) / np.sqrt(v)) if double else (lambda v: np.float32(1) / np.sqrt(v))
        packet_rsqrt = exact_rsqrt if double or not x86_approx.available() else x86_approx.rsqrt

        def packet(v):
            r = _bessel_ie(v, order, packet_rsqrt)
            return r if scaled else (eigen_math.glibc_exp if double else eigen_math.pexp)(np.abs(v)) * r

        def scalar(v):
            r = _bessel_ie(v, order, exact_rsqrt)
            return r if scaled else (eigen_math.glibc_exp if double else eigen_math.glibc_expf)(np.abs(v)) * r
        if double:
            return eigen_math.packet_then_scalar64(packet, scalar, x)
        return eigen_math.packet_then_scalar(packet, scalar, x)
    return run


def _bessel_i(name, order, scaled):
    wide = _bessel(name, np.i0 if name == "i0" else None, bfloat16=False)
    exact = _bessel_eigen(order, scaled)

    def factory(op, ctx):
        dt = op.outputs[0].dtype.as_numpy_dtype
        if ctx.xp is not np or dt not in (np.float32, np.float64):
            return wide(op, ctx)   # (no bfloat16 kernel; float16 through SciPy's double)
        return exact
    return factory


register_kernel("BesselI0")(_bessel_i("i0", 0, False))
register_kernel("BesselI0e")(_bessel_i("i0e", 0, True))
register_kernel("BesselI1")(_bessel_i("i1", 1, False))
register_kernel("BesselI1e")(_bessel_i("i1e", 1, True))


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
