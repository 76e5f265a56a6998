"""Lgamma and Digamma as TF's CPU kernels compute them, so distribution log-probs and entropies
print TF's digits.

Eigen's lgamma is the C library's lgammaf / lgamma (half through float), called here element by
element through ctypes: glibc's results are not correctly rounded, so no NumPy or SciPy formula
gives the same float32 values. Eigen's digamma is its own Cephes-style algorithm (reflection below
zero, the recurrence psi(x+1) = psi(x) + 1/x up to 10, an asymptotic polynomial), evaluated here
in the same precision and order, with glibc's logf.
"""

import ctypes
import math

import numpy as np

from ..registry import register_kernel
from . import eigen_math, eigen_pow, libm

_lib = None
# Past this many distinct values the C library is not called element by element (about 0.1 s).
EXACT_MAX_VALUES = 1 << 16


def _libm():
    global _lib
    if _lib is None:
        lib = libm.c_library()
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
        if op._outputs[0]._dtype.name == "bfloat16":
            from .math import no_kernel
            return no_kernel(op)   # TF has no bfloat16 Lgamma or Digamma kernel

        def kernel(x):
            x = np.asarray(x)
            return fn(x).reshape(x.shape)
        return kernel
    return factory


register_kernel("Lgamma")(_unary(lgamma))
register_kernel("Digamma")(_unary(digamma))


# -- ndtri: Eigen's generic_ndtri in float32 -----------------------------------------------------
# Cephes' coefficients, Horner without FMA (eigen_math._polevl); the packets take Eigen's plog,
# the scalar tail glibc's logf (numext::log); preciprocal is x86_approx's in the packets.
_NDTRI_P0 = (-5.99633501014107895267e1, 9.80010754185999661536e1, -5.66762857469070293439e1,
             1.39312609387279679503e1, -1.23916583867381258016e0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834e0, 4.67627912898881538453e0, 8.63602421390890590575e1,
             -2.25462687854119370527e2, 2.00260212380060660359e2, -8.20372256168333339912e1,
             1.59056225126211695515e1, -1.18331621121330003142e0)
_NDTRI_P1 = (4.05544892305962419923e0, 3.15251094599893866154e1, 5.71628192246421288162e1,
             4.40805073893200834700e1, 1.46849561928858024014e1, 2.18663306850790267539e0,
             -1.40256079171354495875e-1, -3.50424626827848203418e-2, -8.57456785154685413611e-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731e1, 4.53907635128879210584e1, 4.13172038254672030440e1,
             1.50425385692907503408e1, 2.50464946208309415979e0, -1.42182922854787788574e-1,
             -3.80806407691578277194e-2, -9.33259480895457427372e-4)
_NDTRI_P2 = (3.23774891776946035970e0, 6.91522889068984211695e0, 3.93881025292474443415e0,
             1.33303460815807542389e0, 2.01485389549179081538e-1, 1.23716634817820021358e-2,
             3.01581553508235416007e-4, 2.65806974686737550832e-6, 6.23974539184983293730e-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255e0, 3.67983563856160859403e0, 1.37702099489081330271e0,
             2.16236993594496635890e-1, 1.34204006088543189037e-2, 3.28014464682127739104e-4,
             2.89247864745380683936e-6, 6.79019408009981274425e-9)


def _horner(x, coeffs):
    """ppolevl without FMA in x's precision: c0*x + c1, then times x plus each next one."""
    t = x.dtype.type
    p = x * t(coeffs[0]) + t(coeffs[1])
    for c in coeffs[2:]:
        p = p * x + t(c)
    return p


def _ndtri(a, log, recip=None):
    """generic_ndtri on a float32 or float64 array."""
    f = a.dtype.type
    poly = _horner
    with np.errstate(all="ignore"):
        exp_neg_two = f(0.13533528323661269189)
        flip = a <= f(1) - exp_neg_two
        b = np.where(flip, a, f(1) - a)
        c = b - f(0.5)
        c2 = c * c
        gt = (c + c * (c2 * (poly(c2, _NDTRI_P0) / poly(c2, _NDTRI_Q0)))) * f(2.50662827463100050242e0)
        x = np.sqrt(f(-2) * log(b))
        x0 = x - log(x) / x
        z = recip(x) if recip is not None else f(1) / x     # preciprocal: rcpps + Newton in packets
        x1 = z * np.where(x < f(8), poly(z, _NDTRI_P1) / poly(z, _NDTRI_Q1),
                          poly(z, _NDTRI_P2) / poly(z, _NDTRI_Q2))
        lt = np.where(flip, -(x0 - x1), x0 - x1)
        out = np.where(exp_neg_two < b, gt, lt)
        return np.where(a == 0, f(-np.inf), np.where(a == 1, f(np.inf), out)).astype(f)


def _ndtri32(a, log, recip=None):
    return _ndtri(np.asarray(a, np.float32), log, recip)


def ndtri64(x):
    """TF's float64 Ndtri kernel: the scalar generic_ndtri with glibc's log on every element
    (no double packets; measured on TF 2.21)."""
    return _ndtri(np.asarray(x, np.float64), eigen_math.glibc_log)


def erfinv64(x):
    """TF's float64 Erfinv kernel."""
    half, sqrt_half = np.float64(0.5), np.float64(np.sqrt(0.5))
    with np.errstate(all="ignore"):
        return ndtri64(np.asarray(x, np.float64) * half + half) * sqrt_half


def _packet_recip():
    from . import x86_approx
    return x86_approx.reciprocal_packets if x86_approx.available() else None


def ndtri32(x):
    """TF's float32 Ndtri kernel."""
    recip = _packet_recip()
    return eigen_math.packet_then_scalar(lambda v: _ndtri32(v, eigen_math.plog, recip),
                                         lambda v: _ndtri32(v, eigen_math.glibc_logf), x)


def erfinv32(x):
    """TF's float32 Erfinv kernel: ndtri(0.5 * x + 0.5) * M_SQRT1_2 (scalar_erfinv_op)."""
    half, sqrt_half = np.float32(0.5), np.float32(np.sqrt(0.5))

    def run(log, recip=None):
        return lambda v: _ndtri32(v * half + half, log, recip) * sqrt_half
    return eigen_math.packet_then_scalar(run(eigen_math.plog, _packet_recip()), run(eigen_math.glibc_logf), x)


# -- zeta: Eigen's zeta_impl (Cephes' Euler-Maclaurin sum) in float32, glibc's powf ---------------
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)


_powf = eigen_pow.powf_pairs


def _flat_pair(a, b, dtype):
    """(the broadcast shape, a and b broadcast to it and flattened, in `dtype`)."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b))
    return (shape, np.broadcast_to(np.asarray(a, dtype), shape).reshape(-1),
            np.broadcast_to(np.asarray(b, dtype), shape).reshape(-1))


def zeta32(x, q):
    """TF's float32 Zeta kernel (same-shape arrays), or None past EXACT_MAX_VALUES elements."""
    f = np.float32
    shape, x, q = _flat_pair(x, q, f)
    if x.size > EXACT_MAX_VALUES:
        return None
    one, machep = f(1), f(np.finfo(f).eps / 2)
    out = np.full(x.size, np.nan, f)
    with np.errstate(all="ignore"):
        qint = q == np.floor(q)
        xint = x == np.floor(x)
        even = xint & (np.fmod(np.where(xint, x, 0), 2) == 0)
        out = np.where((q <= 0) & qint & even, f(np.inf), out)
        out = np.where(x == one, f(np.inf), out)
        todo = (x > one) & ~((q <= 0) & (qint | ~xint))
        big = todo & (q > f(1e8))       # the asymptotic expansion (DLMF 25.11.43)
        if big.any():
            xb, qb = x[big], q[big]
            out[big] = (one / (xb - one) + one / (f(2) * qb)) * _powf(qb, one - xb)
        todo &= ~big
        idx = np.nonzero(todo)[0]
        xs, a = x[idx], q[idx].copy()
        s = _powf(a, -xs)
        b = np.zeros_like(s)
        live = np.ones(idx.size, bool)
        i = 0
        while True:
            step = live & ((i < 9) | (a <= f(9)))
            if not step.any():
                break
            i += 1
            a = np.where(step, a + one, a)
            b = np.where(step, _powf(a, -xs), b)
            s = np.where(step, s + b, s)
            live &= ~(step & (np.abs(b / s) < machep))
        w = a
        s = np.where(live, s + (b * w) / (xs - one), s)
        s = np.where(live, s - f(0.5) * b, s)
        a = np.ones_like(s)
        k = np.zeros_like(s)
        for c in _ZETA_A:
            a = a * (xs + k)
            b = b / w
            t = (a * b) / f(c)
            s = np.where(live, s + t, s)
            live &= ~(np.abs(t / s) < machep)
            k = k + one
            a = a * (xs + k)
            b = b / w
            k = k + one
        out[idx] = s
    return out.reshape(shape)


def polygamma32(n, x):
    """TF's float32 Polygamma (same-shape arrays): digamma for n = 0, else
    (powf(-1, n + 1) * expf(lgammaf(n + 1))) * zeta(n + 1, x); NaN unless n is a whole number >= 0."""
    f = np.float32
    shape, n, x = _flat_pair(n, x, f)
    if n.size > EXACT_MAX_VALUES:
        return None
    with np.errstate(all="ignore"):
        bad = (np.floor(n) != n) | (n < 0)
        out = np.full(n.size, np.nan, f)
        zero = ~bad & (n == 0)
        if zero.any():
            out[zero] = digamma(x[zero])
        rest = ~bad & (n > 0)
        if rest.any():
            nplus = n[rest] + f(1)
            fact = eigen_math.glibc_expf(lgamma(nplus))
            z = zeta32(nplus, x[rest])
            out[rest] = (_powf(np.full(nplus.size, -1, f), nplus) * fact) * z
    return out.reshape(shape)


# -- igamma / igammac: Eigen's Cephes-based float32 code (glibc logf, expf, lgammaf) -------------

def _log_exp(f):
    return (eigen_math.glibc_logf, eigen_math.glibc_expf) if f is np.float32 else \
        (eigen_math.glibc_log, eigen_math.glibc_exp)


def _igamma_term(a, x):
    """x**a * exp(-x) / gamma(a) as main_igamma_term: 0 where its log is below -log(max)."""
    f = a.dtype.type
    log, exp = _log_exp(f)
    logax = a * log(x) - x - lgamma(a)
    small = (logax < -log(np.array([np.finfo(f).max], f))[0]) | np.isnan(logax)
    return np.where(small, f(0), exp(np.where(small, f(0), logax)).astype(f))


def _igamma_series(a, x):
    f = a.dtype.type
    machep = f(np.finfo(f).eps / 2)
    ax = _igamma_term(a, x)
    zero = ax == 0
    ax = ax / a
    r, c, ans = a.copy(), np.ones_like(a), np.ones_like(a)
    live = ~zero
    for _ in range(2000):
        if not live.any():
            break
        r = np.where(live, r + f(1), r)
        term = x / r
        c = np.where(live, c * term, c)
        ans = np.where(live, ans + c, ans)
        live &= ~(c <= machep * ans)
    return np.where(zero, f(0), ans * ax)


def _igammac_cf(a, x):
    f = a.dtype.type
    machep = f(np.finfo(f).eps / 2)
    # cephes_helper: float's big is 1 / machep, double's 1 / epsilon
    big, biginv = (f(1) / machep, machep) if f is np.float32 else (f(1) / f(np.finfo(f).eps), f(np.finfo(f).eps))
    ax = _igamma_term(a, x)
    done0 = np.isinf(x) | (ax == 0)
    y = f(1) - a
    z = x + y + f(1)
    c = np.zeros_like(a)
    pkm2, qkm2 = np.ones_like(a), x.copy()
    pkm1, qkm1 = x + f(1), z * x
    ans = pkm1 / qkm1
    live = ~done0
    for _ in range(2000):
        if not live.any():
            break
        c = c + f(1)
        y = y + f(1)
        z = z + f(2)
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        upd = live & (qk != 0)
        prev = ans
        ans = np.where(upd, pk / np.where(qk != 0, qk, f(1)), ans)
        live &= ~(upd & (np.abs(prev - ans) <= machep * np.abs(ans)))
        pkm2, pkm1 = np.where(live, pkm1, pkm2), np.where(live, pk, pkm1)
        qkm2, qkm1 = np.where(live, qkm1, qkm2), np.where(live, qk, qkm1)
        scale = live & (np.abs(pk) > big)
        pkm2, pkm1 = np.where(scale, pkm2 * biginv, pkm2), np.where(scale, pkm1 * biginv, pkm1)
        qkm2, qkm1 = np.where(scale, qkm2 * biginv, qkm2), np.where(scale, qkm1 * biginv, qkm1)
    return np.where(done0, f(0), ans * ax)


def igamma(a, x, upper=False):
    """TF's float32/float64 Igamma (upper: Igammac) on broadcast arrays, or None when too big."""
    f = np.result_type(a, x).type
    shape, a, x = _flat_pair(a, x, f)
    a, x = a.copy(), x.copy()
    if a.size > EXACT_MAX_VALUES:
        return None
    with np.errstate(all="ignore"):
        bad = (x < 0) | (a <= 0) | np.isnan(a) | np.isnan(x)
        out = np.full(a.size, np.nan, f)
        if upper:
            series = ~bad & ((x < 1) | (x < a))
        else:
            series = ~bad & ~((x > 1) & (x > a))
        cf = ~bad & ~series
        if series.any():
            s = _igamma_series(a[series], x[series])
            out[series] = f(1) - s if upper else s
        if cf.any():
            r = _igammac_cf(a[cf], x[cf])
            out[cf] = r if upper else f(1) - r
        if not upper:
            out[x == 0] = 0
    return out.reshape(shape)


# -- betainc: Eigen's betainc_impl (Cephes incbet), element by element in the dtype --------------
BETAINC_EXACT_MAX = 1 << 12


def _cfns(t):
    lib = _libm()
    names = ("logf", "log1pf", "expf", "lgammaf") if t is np.float32 else ("log", "log1p", "exp", "lgamma")
    ct = ctypes.c_float if t is np.float32 else ctypes.c_double
    fns = []
    for n in names:
        fn = getattr(lib, n)
        fn.restype, fn.argtypes = ct, [ct]
        fns.append(lambda v, fn=fn: t(fn(float(v))))
    return fns


def _incbeta_cfe(t, a, b, x, small):
    machep = t(np.finfo(t).eps / 2)
    big, biginv = (t(1) / machep, machep) if t is np.float32 else (t(1) / t(np.finfo(t).eps), t(np.finfo(t).eps))
    one, two = t(1), t(2)
    num_iters, thresh = (100, machep) if t is np.float32 else (300, t(3) * machep)
    if small:
        k1, k2, k3, k4, k5, k6, k7, k8, upd = a, a + b, a, a + one, one, b - one, a + one, a + two, one
    else:
        k1, k2, k3, k4, k5, k6, k7, k8, upd = a, b - one, a, a + one, one, a + b, a + one, a + two, -one
        x = x / (one - x)
    pkm2, qkm2, pkm1, qkm1, ans = t(0), one, one, one, one
    for _ in range(num_iters):
        xk = -(x * k1 * k2) / (k3 * k4)
        pk = pkm1 + pkm2 * xk
        qk = qkm1 + qkm2 * xk
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        xk = (x * k5 * k6) / (k7 * k8)
        pk = pkm1 + pkm2 * xk
        qk = qkm1 + qkm2 * xk
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        if qk != 0:
            r = pk / qk
            if abs(ans - r) < abs(r) * thresh:
                return r
            ans = r
        k1 += one
        k2 += upd
        k3 += two
        k4 += two
        k5 += one
        k6 -= upd
        k7 += two
        k8 += two
        if abs(qk) + abs(pk) > big:
            pkm2, pkm1, qkm2, qkm1 = pkm2 * biginv, pkm1 * biginv, qkm2 * biginv, qkm1 * biginv
        if abs(qk) < biginv or abs(pk) < biginv:
            pkm2, pkm1, qkm2, qkm1 = pkm2 * big, pkm1 * big, qkm2 * big, qkm1 * big
    return ans


def _betainc32(a, b, x, fns):
    f = np.float32
    log, log1p, exp, lgam = fns
    machep = f(np.finfo(f).eps / 2)

    def incbps(a, b, x):
        y = a * log(x) + (b - f(1)) * log1p(-x) - log(a)
        y -= lgam(a) + lgam(b)
        y += lgam(a + b)
        t, s, u = x / (f(1) - x), f(0), f(1)
        while True:
            b -= f(1)
            if b == 0:
                break
            a += f(1)
            u *= t * b / a
            s += u
            if not abs(u) > machep:
                break
        return exp(y) * (f(1) + s)

    def incbsa(aa, bb, xx):
        onemx = f(1) - xx
        rev = xx > aa / (aa + bb)
        a, b, t, x = (bb, aa, xx, onemx) if rev else (aa, bb, onemx, xx)
        if b > f(10) and abs(b * x / a) < f(0.3):
            t = incbps(a, b, x)
            return f(1) - t if rev else t
        ans = x * (a + b - f(2)) / (a - f(1))
        if ans < f(1):
            ans = _incbeta_cfe(f, a, b, x, True)
            t = b * log(t)
        else:
            ans = _incbeta_cfe(f, a, b, x, False)
            t = (b - f(1)) * log(t)
        t += a * log(x) + lgam(a + b) - lgam(a) - lgam(b)
        t += log(ans / a)
        t = exp(t)
        return f(1) - t if rev else t

    if a <= 0 or b <= 0:
        return f(np.nan)
    if x <= 0 or x >= 1:
        return f(0) if x == 0 else f(1) if x == 1 else f(np.nan)
    if a <= f(1):
        ans = incbsa(a + f(1), b, x)
        t = a * log(x) + b * log1p(-x) + lgam(a + b) - lgam(a + f(1)) - lgam(b)
        return ans + exp(t)
    return incbsa(a, b, x)


def _betainc64(aa, bb, xx, fns):
    d = np.float64
    log, _, exp, lgam = fns
    machep = d(np.finfo(d).eps / 2)

    def incbps(a, b, x):
        ai = d(1) / a
        u = (d(1) - b) * x
        v = u / (a + d(1))
        t1, t, n, s, z = v, u, d(2), d(0), machep * ai
        while abs(v) > z:
            u = (n - b) * x / n
            t *= u
            v = t / (a + n)
            s += v
            n += d(1)
        s += t1
        s += ai
        u = a * log(x)
        t = lgam(a + b) - lgam(a) - lgam(b) + u + log(s)
        return exp(t)

    if aa <= 0 or bb <= 0:
        return d(np.nan)
    if xx <= 0 or xx >= 1:
        return d(0) if xx == 0 else d(1) if xx == 1 else d(np.nan)
    if bb * xx <= 1 and xx <= 0.95:
        return incbps(aa, bb, xx)
    w = d(1) - xx
    rev = xx > aa / (aa + bb)
    a, b, xc, x = (bb, aa, xx, w) if rev else (aa, bb, w, xx)
    if rev and b * x <= 1 and x <= 0.95:
        t = incbps(a, b, x)
        return d(1) - machep if t <= machep else d(1) - t
    y = x * (a + b - d(2)) - (a - d(1))
    if y < 0:
        w = _incbeta_cfe(d, a, b, x, True)
    else:
        w = _incbeta_cfe(d, a, b, x, False) / xc
    y = a * log(x)
    t = b * log(xc)
    y += t + lgam(a + b) - lgam(a) - lgam(b)
    y += log(w / a)
    t = exp(y)
    if rev:
        t = d(1) - machep if t <= machep else d(1) - t
    return t


def betainc(a, b, x):
    """TF's float32/float64 Betainc on broadcast arrays, or None past BETAINC_EXACT_MAX elements."""
    t = np.result_type(a, b, x).type
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(x))
    if int(np.prod(shape)) > BETAINC_EXACT_MAX:
        return None
    fns = _cfns(t)
    run = _betainc32 if t is np.float32 else _betainc64
    flat = [np.broadcast_to(np.asarray(v, t), shape).reshape(-1) for v in (a, b, x)]
    with np.errstate(all="ignore"):
        out = np.array([run(t(u), t(v), t(w), fns) for u, v, w in zip(*flat)], t)
    # TF's threads flush subnormal results to zero
    return eigen_math.flush_denormals(out, t).reshape(shape)
