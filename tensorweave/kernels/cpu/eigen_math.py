"""float32 exp, log, tanh and sigmoid rounded as TF 2.21's Eigen CPU kernels round them.

NumPy's float32 `exp`/`log` (its own SIMD code) differ from TF's in the last bit for a third or
more of all inputs, so printed losses drift. TF's x86-64 wheel is built for AVX without FMA: its
element-wise kernels run Eigen's packet math on 8 lanes (every multiply and add rounded to float32;
`pmadd` is a multiply then an add) over the flat tensor and the last n % 8 elements through the
scalar functor, which calls glibc's `expf`/`logf` (tanh's scalar path is Eigen's own rational
function, the same as its packet path). The functions here reproduce both, vectorized:

* `pexp`, `plog`, `ptanh`, `plogistic`: Eigen's `pexp_float`, `plog_impl_float`, `ptanh_float` and
  `scalar_logistic_op<float>::packetOp` (GenericPacketMathFunctions.h, UnaryFunctors.h, as shipped
  in TF 2.21's headers), one float32 NumPy operation per packet instruction.
* `glibc_expf`, `glibc_logf`: glibc's table-driven `expf`/`logf`, evaluated in float64 as glibc does.
* `exp`, `log`, `tanh`, `sigmoid`: TF's Exp/Log/Tanh/Sigmoid kernels (packets, then a scalar
  tail); `exp_rows` is an exp evaluated inside an inner-axis reduction (a scalar tail per row).
* `sin`, `cos` (Eigen's psincos_float, Payne-Hanek for large arguments), `expm1`
  (generic_expm1), `erf` (generic_fast_erf), `asin`, `acos`, `atanh`: the same scheme, glibc's
  functions for the tail.

Measured against TF 2.21 on this VM's CPU (tests/ops/test_tf_order_transcendental.py records bit
patterns): every element of random inputs of sizes 1 to 10^6 matched.
"""

import ctypes
import functools
from decimal import Decimal, localcontext

import numpy as np

from . import libm

__all__ = ["pexp", "plog", "ptanh", "plogistic", "glibc_expf", "glibc_logf", "glibc_log1pf", "exp",
           "log", "tanh", "sigmoid", "log1p", "exp_rows", "expf", "packet_then_scalar",
           "flush_denormals", "PACKET", "psin", "pcos", "sin", "cos", "pexpm1", "expm1", "perf",
           "erf", "pasin", "pacos", "patanh", "asin", "acos", "atanh", "PACKET64",
           "flush_denormals64", "packet_then_scalar64", "pexp_double", "plog_double",
           "ptanh_double", "plogistic_double", "patanh_double", "atanh64", "erf64", "erfc64",
           "plog1p_double", "pexpm1_double", "exp64", "log64", "tanh64", "sigmoid64", "log1p64",
           "expm1_64"]

try:                                        # the clip ufunc itself: np.clip's wrapper costs
    from numpy._core.umath import clip as _uclip    # 3x as much on small arrays
except ImportError:                         # NumPy 1.x
    from numpy.core.umath import clip as _uclip

_f = np.float32
_d = np.float64
_P = PACKET = 8                             # AVX float packet


def _quiet(fn):
    """fn with NumPy's float warnings off: inf - inf and overflow inside the polynomials are
    expected (the special values are set afterwards). A fresh errstate per call, as kernels run
    on several threads."""
    @functools.wraps(fn)
    def quiet(x):
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            return fn(x)
    return quiet


def _hex(s):
    return float.fromhex(s)


# -- Eigen packet functions (AVX, no FMA) ---------------------------------------------------------
def _ldexp(y, m):
    """y * 2^m rounded once to float32, as Eigen's pldexp: two exact float32 scalings by normal
    powers of two (m in [-252, 254]), only the last of which can round (to a subnormal)."""
    # (Clipped as floats: a NaN lane casts to some int, and its caller sets it to NaN anyway.)
    with np.errstate(invalid="ignore"):
        h = np.clip(m, -252, 254).astype(np.int32)
    h2 = h >> 1
    h -= h2
    h += 127
    h <<= 23
    h2 += 127
    h2 <<= 23
    with np.errstate(over="ignore"):
        y = y * h.view(_f)
        y *= h2.view(_f)
    return y


@_quiet
def pexp(x):
    """Eigen's pexp_float: Cephes range reduction, degree-6 polynomial, float32 steps."""
    x0 = np.asarray(x, _f)
    x = np.minimum(x0, _f(88.723))
    m = x * _f(1.44269504088896341)
    m += _f(0.5)
    np.floor(m, out=m)
    r = m * _f(-0.693359375)
    r += x
    t = m * _f(2.12194440e-4)
    r += t
    r2 = r * r
    p_even = r2 * _f(1.37449637986719608306884765625e-3)
    p_even += _f(4.166965186595916748046875e-2)
    p_odd = r2 * _f(8.36894474923610687255859375e-3)
    p_odd += _f(0.16666518151760101318359375)
    p_even *= r2
    p_even += _f(0.49999988079071044921875)
    y = r * p_odd
    y += p_even
    y *= r2
    r += _f(1)
    y += r
    out = np.maximum(_ldexp(y, m), x0)
    lo = x0.min(initial=np.inf)
    if not lo >= _f(-104):        # (one reduction finds both an underflow and a NaN)
        out[x0 < _f(-104)] = 0
        out[np.isnan(x0)] = np.nan
    return out


def _polevl(x, coeffs):
    """Horner's rule in float32, c0*x + c1 first (the same roundings as starting from c0)."""
    p = x * _f(coeffs[0])
    p += _f(coeffs[1])
    for c in coeffs[2:]:
        p *= x
        p += _f(c)
    return p


_LOG_ALPHA = (0.18256296349849254, 1.0000000190281063, 1.0000000190281136)
_LOG_BETA = (0.049616247954120038, 0.59923249590823520, 1.4999999999999927, 1.0)


@_quiet
def plog(x):
    """Eigen's plog_float: frexp, shift to [sqrt(1/2), sqrt(2)), rational [2/3] approximation."""
    x0 = np.asarray(x, _f)
    m, e = np.frexp(x0)
    m = m.astype(_f)
    e = e.astype(_f)
    small = m < _f(0.707106781186547524)
    t = m - _f(1)
    t += np.where(small, m, _f(0))
    e -= small.astype(_f)
    p = _polevl(t, _LOG_ALPHA)
    p *= t
    q = _polevl(t, _LOG_BETA)
    p /= q
    e *= _f(0.693147180559945309417)
    p += e
    with np.errstate(invalid="ignore"):
        p[x0 == np.inf] = np.inf
        p[~(x0 >= 0)] = np.nan
    p[x0 == 0] = -np.inf
    return p


@_quiet
def ptanh(x):
    """Eigen's ptanh_float (also its scalar tanh): a [9/8] rational function, clamped."""
    x0 = np.asarray(x, _f)
    c = _f(7.90738964080810547)          # the clamp for builds without FMA
    x = _uclip(x0, -c, c)
    x2 = x * x
    q = _polevl(x2, (8.015776984e-7, 3.326951409e-4, 2.597254514e-2, 4.673548340e-1, 1.0))
    p = _polevl(x2, (1.394553628e-8, 2.102733560e-5, 3.520756727e-3, 1.340216100e-1))
    x2 *= x                              # x^3
    p *= x2
    p += x
    p /= q
    lo = x0.min(initial=0)
    if lo != lo:                         # NaN inputs give the canonical NaN
        p[np.isnan(x0)] = np.nan
    return p


@_quiet
def plogistic(x):
    """Eigen's packet logistic: exp(x/2) by a degree-5 polynomial, squared, then e / (1 + e)."""
    x0 = np.asarray(x, _f)
    return _plogistic(x0, x0.min(initial=np.inf))


def _plogistic(x0, lo):
    """plogistic of float32 x0 whose minimum is lo (NaN if x0 holds a NaN)."""
    t = np.minimum(x0, _f(16.6355324))
    t *= _f(0.5)
    m = t * _f(1.44269504088896341)
    m += _f(0.5)
    np.floor(m, out=m)
    r = m * _f(-0.693359375)
    r += t
    np.multiply(m, _f(2.12194440e-4), out=t)
    r += t
    r2 = r * r
    p_even = r2 * _f(4.1898667812347412109375e-2)
    p_even += _f(0.49999141693115234375)
    np.multiply(r2, _f(8.33471305668354034423828125e-3), out=t)    # p_odd
    t += _f(0.16666877269744873046875)
    p = np.multiply(r, t, out=t)
    p += p_even
    p *= r2
    r += _f(1)
    p += r
    # pldexp_fast: m + 127 clamped to [0, 255] as the exponent field. For x >= -104, m + 127 is
    # in [52, 139] already; a lane below (or NaN) gets a garbage field, and is set below.
    m += _f(127)
    special = not lo >= _f(-104)            # (NaN fails the test too)
    if special:
        _uclip(m, _f(0), _f(255), out=m)
    scale = m.astype(np.int32)
    scale <<= 23
    p *= scale.view(_f)
    p *= p
    np.add(p, _f(1), out=r)
    np.divide(p, r, out=p)
    if special:
        p[x0 < _f(-104)] = 0
        p[np.isnan(x0)] = np.nan
    return p


# -- glibc's scalar expf / logf (x86-64 libm), as the scalar tails call them ------------------------
_N = 32
with localcontext() as _ctx:
    _ctx.prec = 40
    # 2^(i/32) as doubles with i/32 subtracted from the exponent field (glibc's __exp2f_data.tab)
    _EXP2_TAB = np.array([np.array([float(Decimal(2) ** (Decimal(i) / _N))]).view(np.uint64)[0]
                          - (i << 47) for i in range(_N)], np.uint64)
_EXP_C = (_hex("0x1.c6af84b912394p-5") / _N ** 3, _hex("0x1.ebfce50fac4f3p-3") / _N ** 2,
          _hex("0x1.62e42ff0c52d6p-1") / _N)
_INVLN2N = _hex("0x1.71547652b82fep+0") * _N
_SHIFT = _hex("0x1.8p+52")


@_quiet
def glibc_expf(x):
    """glibc's expf (2^(k/32) table, cubic polynomial in double), bit for bit."""
    x0 = np.asarray(x, _f)
    z = x0.astype(_d) * _INVLN2N
    with np.errstate(invalid="ignore", over="ignore"):
        kd = z + _SHIFT
        ki = kd.view(np.uint64)
        kd = kd - _SHIFT                    # a new array: ki views the old one
        r = z - kd
        s = (_EXP2_TAB[ki % np.uint64(_N)] + (ki << np.uint64(47))).view(_d)
        y = _EXP_C[2] * r + 1
        y += (_EXP_C[0] * r + _EXP_C[1]) * (r * r)
        y *= s
        out = y.astype(_f)
    if not (x0.min(initial=0) >= _f(-_hex("0x1.9fe368p6")) and x0.max(initial=0) <= _f(_hex("0x1.62e42ep6"))):
        out[x0 > _f(_hex("0x1.62e42ep6"))] = np.inf
        out[x0 < _f(-_hex("0x1.9fe368p6"))] = 0
        out[np.isnan(x0)] = np.nan
    return out


# log(x) = log1p(z/c - 1) + log(c) + k ln2 with z/c - 1 small (glibc's __logf_data)
_LOGF_TAB = np.array([
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"), ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"), ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"), ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"), ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"), ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"), ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"), ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"), ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"),
])
_LOGF_INVC = np.array([_hex(a) for a in _LOGF_TAB[:, 0]])
_LOGF_LOGC = np.array([_hex(b) for b in _LOGF_TAB[:, 1]])
_LOGF_A = (_hex("-0x1.00ea348b88334p-2"), _hex("0x1.5575b0be00b6ap-2"), _hex("-0x1.ffffef20a4123p-2"))
_LN2 = _hex("0x1.62e42fefa39efp-1")


@_quiet
def glibc_logf(x):
    """glibc's logf (16-entry table, cubic polynomial in double), bit for bit."""
    x0 = np.asarray(x, _f)
    normal = x0.min(initial=np.inf) >= _f(1.1754944e-38) and x0.max(initial=0) < np.inf
    if normal:      # (the common case: no subnormal, zero, negative, inf or NaN to correct)
        ix = x0.view(np.uint32).astype(np.int64)
    else:
        sub = (x0 > 0) & (x0 < _f(1.1754944e-38))
        xs = np.where(sub, x0 * _f(2.0 ** 23), x0)          # subnormals: scaled up, k corrected
        ix = xs.view(np.uint32).astype(np.int64) - np.where(sub, 23 << 23, 0)
    tmp = ix - 0x3f330000
    i = (tmp >> 19) % 16
    k = tmp >> 23
    z = (ix - (tmp & 0xff800000)).astype(np.uint32).view(_f).astype(_d)
    r = z * _LOGF_INVC[i] - 1
    y0 = _LOGF_LOGC[i] + k * _LN2
    r2 = r * r
    y = _LOGF_A[1] * r + _LOGF_A[2]
    y = _LOGF_A[0] * r2 + y
    y = y * r2 + (y0 + r)
    out = y.astype(_f)
    if not normal:
        with np.errstate(invalid="ignore"):
            out[x0 == np.inf] = np.inf
            out[~(x0 >= 0)] = np.nan
        out[x0 == 0] = -np.inf
    return out


# glibc's sincosf (__sincosf_table): quadrant signs, 2/pi * 2^24, pi/2, cos and sin polynomials;
# the second row serves quadrants 2 and 3 (its cos coefficients negated).
_SC_HPI_INV = _hex("0x1.45F306DC9C883p+23")
_SC_HPI = _hex("0x1.921FB54442D18p0")
_SC_SIGN = np.array([1.0, -1.0, -1.0, 1.0])
_SC_C = np.array([[_hex(h) for h in ("0x1p0", "-0x1.ffffffd0c621cp-2", "0x1.55553e1068f19p-5",
                                      "-0x1.6c087e89a359dp-10", "0x1.99343027bf8c3p-16")]])
_SC_C = np.concatenate([_SC_C, -_SC_C])
_SC_S = np.array([_hex(h) for h in ("-0x1.555545995a603p-3", "0x1.1107605230bc4p-7",
                                    "-0x1.994eb3774cf24p-13")])


@_quiet
def glibc_sincosf(x):
    """glibc's sincosf (double polynomials after a pi/2 reduction), bit for bit for |x| < 120;
    larger, infinite or NaN arguments go to the C library one by one."""
    x0 = np.asarray(x, _f)
    xd = x0.astype(_d)
    ax = np.abs(x0)
    n = np.zeros(x0.shape, np.int64)
    mid = ax >= _f(np.pi / 4)
    r = xd * _SC_HPI_INV
    n[mid] = (r[mid].astype(np.int32).astype(np.int64) + 0x800000) >> 24
    xr = np.where(mid, xd - n * _SC_HPI, xd)
    row = (n & 2) >> 1
    c = _SC_C[row]
    xs = xr * np.where(mid, _SC_SIGN[n & 3], 1.0)
    x2 = xr * xr
    x3, x4 = x2 * xs, x2 * x2
    sin_ = xs + x3 * _SC_S[0] + (x3 * x2) * (_SC_S[1] + x2 * _SC_S[2])
    cos_ = (c[..., 0] + x2 * c[..., 1]) + x4 * c[..., 2] + (x4 * x2) * (c[..., 3] + x2 * c[..., 4])
    odd = (n & 1).astype(bool)
    s_out = np.where(odd, cos_, sin_).astype(_f)
    c_out = np.where(odd, sin_, cos_).astype(_f)
    tiny = ax < _f(2.0 ** -12)
    s_out[tiny] = x0[tiny]
    c_out[tiny] = 1
    big = ~(ax < _f(120))
    if big.any():
        s_out[big], c_out[big] = _libm_sincosf(x0[big])
    return s_out, c_out


def _libm_sincosf(x):
    lib = _load_libm()
    a, b = ctypes.c_float(), ctypes.c_float()
    s, c = np.empty(x.shape, _f), np.empty(x.shape, _f)
    for i, v in enumerate(x.reshape(-1)):
        lib.sincosf(float(v), ctypes.byref(a), ctypes.byref(b))
        s.flat[i], c.flat[i] = a.value, b.value
    return s, c


_libm = None


def _load_libm():
    global _libm
    if _libm is None:
        lib = libm.c_library()
        for name in ("log1pf", "expm1f", "asinf", "acosf", "atanhf"):
            getattr(lib, name).restype = ctypes.c_float
            getattr(lib, name).argtypes = [ctypes.c_float]
        lib.sincosf.restype = None
        lib.sincosf.argtypes = [ctypes.c_float, ctypes.POINTER(ctypes.c_float),
                                ctypes.POINTER(ctypes.c_float)]
        _libm = lib
    return _libm


def _libm_unary(name):
    """The C library's float function `name`, element by element (for the few tail values)."""
    def call(x):
        fn = getattr(_load_libm(), name)
        x = np.asarray(x, _f)
        return np.array([fn(float(v)) for v in x.reshape(-1)], _f).reshape(x.shape)
    return call


glibc_log1pf = _libm_unary("log1pf")       # (only called for a few tail values)


@_quiet
def plog1p(x):
    """Eigen's generic_plog1p: u * log(1 + u) / ((1 + u) - 1) with plog, u itself where 1 + u == 1."""
    x = np.asarray(x, _f)
    xp1 = x + _f(1)
    log1 = plog(xp1)
    with np.errstate(invalid="ignore", divide="ignore"):
        big = x * (log1 / (xp1 - _f(1)))
    return np.where((xp1 == _f(1)) | (xp1 == log1), x, big)


# -- TF's element-wise kernels: packets over the flat tensor, then a scalar tail -------------------
_TINY = _f(1.17549435e-38)


def flush_denormals(x, dtype=_f):
    """x with subnormal values replaced by zeros of their sign: TF's threads run with the CPU's
    flush-to-zero and denormals-are-zero modes on."""
    x = np.asarray(x, dtype)
    tiny = _TINY if dtype is _f else dtype(np.finfo(dtype).tiny)
    a = np.abs(x)
    if a.min(initial=np.inf) >= tiny:      # (the common case, two passes: nothing to flush)
        return x
    sub = subnormal_mask(a, tiny)
    if sub.any():
        x = np.where(sub, np.copysign(dtype(0), x), x)
    return x


def subnormal_mask(a, tiny):
    """Where |x| (`a`) is subnormal. The zero test is on the bits: under denormals-are-zero (as
    kernels run, see float_env) a subnormal compares equal to 0."""
    sub = a < tiny
    sub &= a.view(np.dtype(f"u{a.dtype.itemsize}")) != 0
    return sub


def packet_then_scalar(packet_fn, scalar_fn, x, dtype=_f, lanes=_P, flush_tail=False):
    """packet_fn on the first n - n % lanes elements of x (flattened), scalar_fn on the rest. The
    packets see denormals flushed (TF's threads run with flush-to-zero and denormals-are-zero);
    glibc's float32 tail tests bit patterns, so it gets the values as they are (`flush_tail`:
    flushed in and out as well, as measured for float64)."""
    x = np.asarray(x, dtype)
    flat = x.reshape(-1)
    cut = flat.size // lanes * lanes
    out = np.empty(flat.size, dtype)
    if cut:
        out[:cut] = flush_denormals(packet_fn(flush_denormals(flat[:cut], dtype)), dtype)
    if cut < flat.size:
        tail = scalar_fn(flush_denormals(flat[cut:], dtype) if flush_tail else flat[cut:])
        out[cut:] = flush_denormals(tail, dtype) if flush_tail else tail
    return out.reshape(x.shape)


def exp(x):
    """TF's float32 Exp kernel."""
    return packet_then_scalar(pexp, glibc_expf, x)


def log(x):
    """TF's float32 Log kernel."""
    return packet_then_scalar(plog, glibc_logf, x)


def tanh(x):
    """TF's float32 Tanh kernel (scalar and packet paths agree). A subnormal input need not be
    flushed first: ptanh returns it unchanged, and the output flush makes it the same signed zero."""
    return flush_denormals(ptanh(x))


def _scalar_logistic(x):
    e = glibc_expf(np.minimum(x, _f(16.6355324)))
    return e / (_f(1) + e)


def sigmoid(x):
    """TF's float32 Sigmoid kernel (Eigen's scalar_logistic_op)."""
    x = np.asarray(x, _f)
    if x.size % _P == 0 and x.size:
        lo = x.min()
        if lo >= _f(-80):
            # All packets, and nothing to flush: a subnormal input gives 0.5 either way, and
            # outputs are normal down to x = -87.3.
            with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
                return _plogistic(x, lo)
    return packet_then_scalar(plogistic, _scalar_logistic, x)


def log1p(x):
    """TF's float32 Log1p kernel."""
    return packet_then_scalar(plog1p, glibc_log1pf, x)


def exp_rows(x):
    """exp of a matrix as an inner-axis reduction reads it: packets from each row's start, the
    last cols % 8 of every row through the scalar exp."""
    x = flush_denormals(x)
    cut = x.shape[1] // _P * _P
    out = np.empty(x.shape, _f)
    if cut:
        out[:, :cut] = pexp(x[:, :cut])
    if cut < x.shape[1]:
        out[:, cut:] = glibc_expf(x[:, cut:])
    return flush_denormals(out)


# SparseSoftmax (kernels/cpu/sparse_extra.py) calls Eigen's exp on whole packets
expf = pexp


# -- sin / cos: Eigen's psincos_float (AVX, no FMA) ----------------------------------------------
# 2/pi's bits for the Payne-Hanek reduction of large arguments, laid out as Eigen stores them
# (each word shifted by 8 bits from the last, so any 96-bit window is three aligned words).
_TWO_OVER_PI = (0x00000028, 0x000028be, 0x0028be60, 0x28be60db, 0xbe60db93, 0x60db9391, 0xdb939105,
                0x9391054a, 0x91054a7f, 0x054a7f09, 0x4a7f09d5, 0x7f09d5f4, 0x09d5f47d, 0xd5f47d4d,
                0xf47d4d37, 0x7d4d3770, 0x4d377036, 0x377036d8, 0x7036d8a5, 0x36d8a566, 0xd8a5664f,
                0xa5664f10, 0x664f10e4, 0x4f10e410, 0x10e41000, 0xe4100000)
_M32, _M64 = (1 << 32) - 1, (1 << 64) - 1
# Without FMA, four float32 pieces of pi/2 keep 2 ulp up to these |x|; beyond, the exact reduction.
_SIN_HUGE, _COS_HUGE = _f(25966.0), _f(18838.0)
_PIO2_PIECES = (-1.5703125, -0.000483989715576171875, 1.62865035235881805419921875e-07,
                5.5644315544167710640977020375430583953857421875e-11)
_COS_POLY = (2.4372266125283204019069671630859375e-05, -0.00138865201734006404876708984375,
             0.041666619479656219482421875, -0.5, 1.0)
_SIN_POLY = (-0.0001959234114083702898469196984621021329076029360294342041015625,
             0.0083326873655616851693794799871284340042620897293090820312500000,
             -0.1666666203982298255503735617821803316473960876464843750000000000)


def _trig_reduce_huge(xf):
    """Eigen's trig_reduce_huge for one finite float32 |x| >= the threshold: x * 2/pi in 2.62
    fixed point from 96 bits of 2/pi; returns (the reduced float32 argument, the quadrant)."""
    xi = int(np.asarray(xf, _f).view(np.uint32))
    e = ((xi >> 23) - 118) & _M32
    xi = (((xi & 0x007fffff) | 0x00800000) << (e & 7)) & _M32
    i = e >> 3
    t1, t2, t3 = _TWO_OVER_PI[i - 1], _TWO_OVER_PI[i + 3], _TWO_OVER_PI[i + 7]
    p = xi * t3
    p = (xi * t2 + (p >> 32)) & _M64
    p = ((((xi * t1) & _M32) << 32) + p) & _M64
    q = ((p + (1 << 61)) & _M64) >> 62
    p = (p - (q << 62)) & _M64
    signed = p - (1 << 64) if p >> 63 else p
    return _f(float(signed) * 3.4061215800865545e-19), int(q)


def _psincos(x, sine):
    with np.errstate(invalid="ignore", over="ignore"):
        return _psincos_quiet(x, sine)


def _psincos_quiet(x, sine):
    x0 = np.asarray(x, _f)
    x = np.abs(x0)
    y = x * _f(0.636619746685028076171875)
    y_round = y + _f(12582912)
    y_int = y_round.view(np.int32).copy()
    y = y_round - _f(12582912)
    for c in _PIO2_PIECES:              # pmadd without FMA: a multiply, then an add
        t = y * _f(c)
        x = t + x
    huge = np.abs(x0) >= (_SIN_HUGE if sine else _COS_HUGE)
    huge &= np.isfinite(x0)
    if huge.any():
        for k in np.flatnonzero(huge):
            x.flat[k], y_int.flat[k] = _trig_reduce_huge(abs(x0.flat[k]))
    yu = y_int.view(np.uint32)
    if sine:
        sign = (x0.view(np.uint32) ^ (yu << np.uint32(30))) & np.uint32(0x80000000)
    else:
        sign = ((yu + np.uint32(1)) << np.uint32(30)) & np.uint32(0x80000000)
    even = (y_int & 1) == 0
    x2 = x * x
    y1 = _polevl(x2, _COS_POLY)
    y2 = _polevl(x2, _SIN_POLY)
    y2 *= x2
    y2 *= x
    y2 += x
    out = np.where(even, y2, y1) if sine else np.where(even, y1, y2)
    return (out.view(np.uint32) ^ sign).view(_f)


def psin(x):
    """Eigen's psin_float: the quadrant by a rounding trick, the reduction by four pieces of pi/2
    (Payne-Hanek above the threshold), then the sine or cosine polynomial and the sign."""
    return _psincos(x, True)


def pcos(x):
    """Eigen's pcos_float (see psin)."""
    return _psincos(x, False)


def sin(x):
    """TF's float32 Sin kernel: packets, then glibc's sinf for the tail."""
    return packet_then_scalar(psin, lambda v: glibc_sincosf(v)[0], x)


def cos(x):
    """TF's float32 Cos kernel: packets, then glibc's cosf for the tail."""
    return packet_then_scalar(pcos, lambda v: glibc_sincosf(v)[1], x)


# -- expm1: Eigen's generic_expm1 (Kahan's formula over pexp and plog) ----------------------------
@_quiet
def pexpm1(x):
    """(u - 1) * (x / log(u)) with u = exp(x); x where u == 1, -1 where u - 1 == -1, u where
    u is +inf."""
    x = np.asarray(x, _f)
    u = pexp(x)
    um1 = u - _f(1)
    logu = plog(u)
    out = um1 * (x / logu)
    out = np.where(logu == u, u, out)
    out = np.where(um1 == _f(-1), _f(-1), out)
    return np.where(u == _f(1), x, out).astype(_f, copy=False)


glibc_expm1f = _libm_unary("expm1f")


def expm1(x):
    """TF's float32 Expm1 kernel. A subnormal x comes back as itself: the packet path sees 0
    (denormals-are-zero), so exp gives 1 and the select returns the input register, which
    flush-to-zero does not touch."""
    x = np.asarray(x, _f)
    out = packet_then_scalar(pexpm1, glibc_expm1f, x)
    sub = subnormal_mask(np.abs(x), _TINY)
    if sub.any():
        out[sub] = x[sub]
    return out


# -- erf: Eigen's generic_fast_erf<float> (the scalar path is the same function) ------------------
_ERF_ALPHA = (2.123732201653183437883853912353515625e-06, 2.861979592125862836837768554687500000e-04,
              3.658048342913389205932617187500000000e-03, 5.243302136659622192382812500000000000e-02,
              1.874160766601562500000000000000000000e-01, 1.128379106521606445312500000000000000e+00)
_ERF_BETA = (3.89185734093189239501953125000e-05, 1.14329601638019084930419921875e-03,
             1.47520881146192550659179687500e-02, 1.12945675849914550781250000000e-01,
             4.99425798654556274414062500000e-01, 1.0)


@_quiet
def perf(x):
    """x * P(x^2) / Q(x^2), an [11/10] rational function with x^2 clamped to 16, clamped to
    [-1, 1]."""
    x = np.asarray(x, _f)
    x2 = np.minimum(_f(16), x * x)
    p = _polevl(x2, _ERF_ALPHA)
    p *= x
    p /= _polevl(x2, _ERF_BETA)
    return np.maximum(np.minimum(p, _f(1)), _f(-1))


def erf(x):
    """TF's float32 Erf kernel (packet and scalar paths alike, denormals flushed)."""
    return flush_denormals(perf(flush_denormals(x)))



# -- erfc: Eigen's generic_fast_erfc<float> -------------------------------------------------------
_ERFC_ALPHA = (5.61802298761904239654541015625e-04, -4.91381669417023658752441406250e-03,
               2.67075151205062866210937500000e-02, -1.12800106406211853027343750000e-01,
               3.76122951507568359375000000000e-01, -1.12837910652160644531250000000e+00)
_ERFC_GAMMA = (1.0208116471767425537109375e-01, 4.2920666933059692382812500e-01,
               3.2379078865051269531250000e-01, 5.3971976041793823242187500e-02)
_ERFC_DELTA = (1.7251677811145782470703125e-02, 3.9137163758277893066406250e-01,
               1.0000000000000000000000000e+00, 6.2173241376876831054687500e-01,
               9.5662862062454223632812500e-02)


def _horner(x, coeffs):
    p = np.full(x.shape, _f(coeffs[0]), _f)
    for c in coeffs[1:]:
        p = p * x + _f(c)
    return p


def _erfc_float(x, exp_fn, reciprocal_fn):
    """erfc(x) = 1 + x S(x^2) for |x| <= 1, else exp(-x^2) (1 - x2_lo) P(1/x^2) / (x Q(1/x^2))
    (+ 2 for x < 0), x clamped to [-11, 11]; every step a float32 operation, unfused."""
    x = np.clip(x, _f(-11), _f(11))
    x2 = x * x
    small = x * _horner(x2, _ERFC_ALPHA) + _f(1)
    x2_lo = (x.astype(np.float64) * x - x2).astype(_f)     # x*x's rounding error, exactly
    e = exp_fn(-x2)
    z = e - e * x2_lo
    q2 = reciprocal_fn(x2)
    r = _horner(q2, _ERFC_GAMMA) / (x * _horner(q2, _ERFC_DELTA))
    large = z * r + np.where(x < 0, _f(2), _f(0))
    return np.where(_f(1) < x2, large, small)


def erfc(x, reciprocal_packets):
    """TF's float32 Erfc kernel: Eigen's generic_fast_erfc on the 8-lane packets (pexp, and the
    CPU's approximate reciprocal with a Newton step, `reciprocal_packets`), the same formula with
    glibc's expf and an exact reciprocal on the scalar tail. Denormals flushed in and out."""
    def packets(v):
        return _erfc_float(v, pexp, reciprocal_packets)

    def tail(v):
        return _erfc_float(v, glibc_expf, lambda t: _f(1) / t)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return flush_denormals(packet_then_scalar(packets, tail, flush_denormals(x)))


def _signbit_mask(x):
    return (x.view(np.uint32) >> np.uint32(31)).astype(bool)


def _or_nan(mask, p):
    """por(mask, p): all bits set (a NaN) where mask."""
    bits = p.view(np.uint32).copy()
    bits[mask] = np.uint32(0xFFFFFFFF)
    return bits.view(_f)


# -- asin / acos / atanh: Eigen's pasin_float, pacos_float, patanh_float ------------------------------
_ASIN_ALPHA = (5.08838854730129241943359375e-2, 3.95139865577220916748046875e-2,
               7.550220191478729248046875e-2, 0.16664917767047882080078125, 1.00000011920928955078125)
_ACOS_P = (2.36423197202384471893310546875e-3, -1.1368644423782825469970703125e-2,
           2.717843465507030487060546875e-2, -4.8969544470310211181640625e-2,
           8.8804088532924652099609375e-2, -0.214591205120086669921875, 1.57079637050628662109375)
_ATANH_ALPHA = (0.1819281280040740966796875, 8.2311116158962249755859375e-2, 0.14672131836414337158203125,
                0.1997792422771453857421875, 0.3333373963832855224609375)


@_quiet
def pasin(x):
    """asin on [0, 0.5] by an odd polynomial; above, pi/2 - 2 asin(sqrt((1 - |x|) / 2)); NaN
    (all bits set) for |x| > 1."""
    x0 = np.asarray(x, _f)
    a = np.abs(x0)
    t = _f(0.5) * a
    x_large = np.sqrt(_f(0.5) - t)
    large = _f(0.5) < a
    v = np.where(large, x_large, a)
    p = _polevl(v * v, _ASIN_ALPHA)
    p *= v
    p = np.where(large, _f(np.pi / 2) - _f(2) * p, p)
    p = (p.view(np.uint32) ^ (x0.view(np.uint32) & np.uint32(0x80000000))).view(_f)
    return _or_nan(_f(1) < a, p)


@_quiet
def pacos(x):
    """acos(|x|) / sqrt(1 - |x|) by a degree-6 polynomial (even and odd halves), times
    sqrt(1 - |x|); pi minus that for negative x (sign bit set)."""
    x0 = np.asarray(x, _f)
    a = np.abs(x0)
    x2 = x0 * x0
    c = [_f(v) for v in _ACOS_P]           # p6 .. p0
    even = c[0] * x2
    even += c[2]
    odd = c[1] * x2
    odd += c[3]
    even *= x2
    even += c[4]
    odd *= x2
    odd += c[5]
    even *= x2
    even += c[6]
    odd *= a
    odd += even
    r = np.sqrt(_f(1) - a) * odd
    return np.where(_signbit_mask(x0), _f(np.pi) - r, r)


@_quiet
def patanh(x):
    """x + x^3 P(x^2) on |x| < 0.5, else log((1 + x) / (1 - x)) / 2; +-inf at +-1, NaN past."""
    x0 = np.asarray(x, _f)
    x2 = x0 * x0
    x3 = x0 * x2
    p = _polevl(x2, _ATANH_ALPHA)
    p *= x3
    p += x0
    r = (_f(1) + x0) / (_f(1) - x0)
    r = _f(0.5) * plog(r)
    a = np.abs(x0)
    out = np.where(_f(0.5) <= a, r, p)
    inf = (np.uint32(0x7F800000) | (x0.view(np.uint32) & np.uint32(0x80000000))).view(_f)
    out = np.where(a == _f(1), inf, out)
    return _or_nan(_f(1) < a, out)


def asin(x):
    """TF's float32 Asin kernel."""
    return packet_then_scalar(pasin, _libm_unary("asinf"), x)


def acos(x):
    """TF's float32 Acos kernel."""
    return packet_then_scalar(pacos, _libm_unary("acosf"), x)


def atanh(x):
    """TF's float32 Atanh kernel."""
    return packet_then_scalar(patanh, _libm_unary("atanhf"), x)


# -- float64: Eigen's double packet functions on 4-lane AVX packets (Packet4d), no FMA -------------
# TF's float64 Exp/Log/Tanh/Sigmoid/Log1p/Expm1 kernels run pexp_double, plog_double, ptanh_double,
# scalar_logistic_op<double> (pexp, then e / (1 + e)), generic_log1p and generic_expm1 on packets
# of 4 over the flat tensor (flush-to-zero and denormals-are-zero apply to doubles too), and the
# last n % 4 elements through glibc's exp/log/tanh/log1p/expm1 (Eigen's scalar paths call std::).
PACKET64 = 4
_D_TINY = np.finfo(_d).tiny


def flush_denormals64(x):
    """float64 x with subnormals replaced by zeros of their sign (FTZ/DAZ)."""
    return flush_denormals(x, _d)


def packet_then_scalar64(packet_fn, scalar_fn, x):
    """packet_fn on the first n - n % 4 float64 elements, scalar_fn (glibc) on the rest, both
    with denormals flushed in and out (glibc's double code runs under FTZ/DAZ as well)."""
    return packet_then_scalar(packet_fn, scalar_fn, x, _d, PACKET64, flush_tail=True)


# glibc's double functions, for the scalar tails (libm.py: exact on every CPU)
glibc_exp, glibc_log, glibc_tanh = libm.exp, libm.log, libm.tanh
glibc_log1p, glibc_expm1 = libm.log1p, libm.expm1


@_quiet
def pexp_double(x):
    """Eigen's pexp_double: Cephes' [2/3] rational exp(g) = 1 + 2 P / (Q - P), times 2^n."""
    x0 = np.asarray(x, _d)
    x = np.minimum(x0, _d(709.784))
    fx = x * _d(1.4426950408889634073599)
    fx += _d(0.5)
    np.floor(fx, out=fx)
    x -= fx * _d(0.693145751953125)
    x -= fx * _d(1.42860682030941723212e-6)
    x2 = x * x
    px = x2 * _d(1.26177193074810590878e-4)
    px += _d(3.02994407707441961300e-2)
    px *= x2
    px += _d(9.99999999999999999910e-1)
    px *= x
    qx = x2 * _d(3.00198505138664455042e-6)
    qx += _d(2.52448340349684104192e-3)
    qx *= x2
    qx += _d(2.27265548208155028766e-1)
    qx *= x2
    qx += _d(2.00000000000000000009e0)
    qx -= px
    px /= qx
    px *= _d(2)
    px += _d(1)
    # pldexp (and pldexp_fast where it is used) round px * 2^fx once
    with np.errstate(invalid="ignore"):
        e = np.clip(np.nan_to_num(fx), -2099, 2099).astype(np.int64)
    out = np.maximum(np.ldexp(px, e), x0)
    lo = x0.min(initial=np.inf)
    if not lo >= _d(-745.519):
        out[x0 < _d(-745.519)] = 0
    return out


_LOG64_P = (1.01875663804580931796E-4, 4.97494994976747001425E-1, 4.70579119878881725854E0,
            1.44989225341610930846E1, 1.79368678507819816313E1, 7.70838733755885391666E0)
_LOG64_Q = (1.0, 1.12873587189167450590E1, 4.52279145837532221105E1, 8.29875266912776603211E1,
            7.11544750618563894466E1, 2.31251620126765340583E1)
_NAN_ALL_ONES = np.array([0xFFFFFFFFFFFFFFFF], np.uint64).view(_d)[0]


def _pmadd(a, b, c):
    p = a * b
    p += c
    return p


@_quiet
def plog_double(x):
    """Eigen's plog_impl_double: frexp, shift to [sqrt(1/2), sqrt(2)), Cephes' x - x^2/2 + x^3 P/Q.
    Negative and NaN inputs give the all-ones NaN (Eigen ORs the invalid mask in)."""
    x0 = np.asarray(x, _d)
    m, e = np.frexp(x0)
    e = e.astype(_d)
    small = m < _d(0.70710678118654752440)
    x = m - _d(1)
    e -= small
    x += np.where(small, m, _d(0))
    x2 = x * x
    x3 = x2 * x
    P, Q = _LOG64_P, _LOG64_Q
    y = _pmadd(x, _d(P[0]), _d(P[1]))
    y1 = _pmadd(x, _d(P[3]), _d(P[4]))
    y = _pmadd(y, x, _d(P[2]))
    y1 = _pmadd(y1, x, _d(P[5]))
    y_ = _pmadd(y, x3, y1)
    y = x + _d(Q[1])                     # (q0 = 1: q0 * x is x)
    y1 = _pmadd(x, _d(Q[3]), _d(Q[4]))
    y = _pmadd(y, x, _d(Q[2]))
    y1 = _pmadd(y1, x, _d(Q[5]))
    y = _pmadd(y, x3, y1)
    y_ *= x3
    y_ /= y
    y_ += x2 * _d(-0.5)
    x += y_
    x += e * _d(0.693147180559945309417232121458176568)
    with np.errstate(invalid="ignore"):
        x[x0 == np.inf] = np.inf
        x[~(x0 >= 0)] = _NAN_ALL_ONES
    x[x0 == 0] = -np.inf
    return x


_TANH64_ALPHA = (2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15,
                 4.2303918148209176e-12, 2.4618379131293676e-09, 6.8644367682497074e-07,
                 9.3839087674268880e-05, 5.9809711724441161e-03, 1.5184719640284322e-01)
_TANH64_BETA = (6.463747022670968018e-21, 5.782506856739003571e-17, 1.293019623712687916e-13,
                1.123643448069621992e-10, 4.492975677839633985e-08, 8.785185266237658698e-06,
                8.295161192716231542e-04, 3.437448108450402717e-02, 4.851805297361760360e-01, 1.0)


@_quiet
def ptanh_double(x):
    """Eigen's ptanh_double: a [19/18] rational function on x clamped to the no-FMA bound."""
    x0 = np.asarray(x, _d)
    c = _d(17.714196154005176)
    x = np.maximum(np.minimum(x0, c), -c)
    x2 = x * x
    x3 = x2 * x
    p = _pmadd(x2, _d(_TANH64_ALPHA[0]), _d(_TANH64_ALPHA[1]))
    for a in _TANH64_ALPHA[2:]:
        p *= x2
        p += _d(a)
    q = _pmadd(x2, _d(_TANH64_BETA[0]), _d(_TANH64_BETA[1]))
    for b in _TANH64_BETA[2:]:
        q *= x2
        q += _d(b)
    p *= x3
    p += x
    p /= q
    return p


def _logistic64(e):
    """scalar_logistic_op<double> from e = exp(x): e / (1 + e), 1 where e is inf."""
    out = e / (_d(1) + e)
    out[e == np.inf] = 1
    return out


@_quiet
def plogistic_double(x):
    """scalar_logistic_op<double>::packetOp: e = pexp(x), e / (1 + e), 1 where e is inf."""
    return _logistic64(pexp_double(x))


@_quiet
def _scalar_logistic64(x):
    return _logistic64(glibc_exp(x))


@_quiet
def plog1p_double(x):
    """Eigen's generic_log1p on Packet4d."""
    x = np.asarray(x, _d)
    xp1 = x + _d(1)
    log1 = plog_double(xp1)
    big = log1 / (xp1 - _d(1))
    big *= x                             # (a NaN x gives plog's all-ones NaN, as TF's build does)
    return np.where((xp1 == _d(1)) | (xp1 == log1), x, big)


@_quiet
def pexpm1_double(x):
    """Eigen's generic_expm1 on Packet4d."""
    x = np.asarray(x, _d)
    u = pexp_double(x)
    um1 = u - _d(1)
    logu = plog_double(u)
    out = um1 * (x / logu)
    out = np.where(logu == u, u, out)
    out = np.where(um1 == _d(-1), _d(-1), out)
    return np.where(u == _d(1), x, out)


def exp64(x):
    """TF's float64 Exp kernel."""
    return packet_then_scalar64(pexp_double, glibc_exp, x)


def _scalar_log64(x):
    out = glibc_log(x)
    with np.errstate(invalid="ignore"):
        out[x < 0] = np.nan              # (TF's tail gives +NaN for x < 0; ctypes' glibc -NaN)
    return out


def log64(x):
    """TF's float64 Log kernel."""
    return packet_then_scalar64(plog_double, _scalar_log64, x)


def tanh64(x):
    """TF's float64 Tanh kernel."""
    return packet_then_scalar64(ptanh_double, glibc_tanh, x)


def sigmoid64(x):
    """TF's float64 Sigmoid kernel."""
    return packet_then_scalar64(plogistic_double, _scalar_logistic64, x)


def _keep_subnormals(x, out, start):
    """out with x's subnormal values from flat index `start` on put back as they are."""
    xf = x.reshape(-1)[start:]
    a = np.abs(xf)
    sub = subnormal_mask(a, _D_TINY)
    if sub.any():
        out.reshape(-1)[start:][sub] = xf[sub]
    return out


def log1p64(x):
    """TF's float64 Log1p kernel. A subnormal x in the scalar tail comes back as itself (glibc
    returns tiny x untouched); in the packets it is flushed to zero (measured)."""
    x = np.asarray(x, _d)
    out = packet_then_scalar64(plog1p_double, glibc_log1p, x)
    # A NaN x gives plog's all-ones NaN in Eigen's 4-packet unrolled loop (the first n // 16 * 16
    # elements) but x itself in the single-packet loop after it (measured: the compiled operand
    # order of x * (log1 / (xp1 - 1)) differs)
    xf, of = x.reshape(-1), out.reshape(-1)
    lo, cut = x.size // 16 * 16, x.size // PACKET64 * PACKET64
    if lo < cut:
        nan = np.isnan(xf[lo:cut])
        of[lo:cut][nan] = xf[lo:cut][nan]
    return _keep_subnormals(x, out, cut)


def expm1_64(x):
    """TF's float64 Expm1 kernel. A subnormal x in the packets comes back as itself (the select
    returns the input register); in the scalar tail it is flushed to zero (measured)."""
    x = np.asarray(x, _d)
    out = packet_then_scalar64(pexpm1_double, glibc_expm1, x)
    cut = x.size // PACKET64 * PACKET64
    _keep_subnormals(x.reshape(-1)[:cut], out.reshape(-1)[:cut], 0)
    return out


# -- atanh, float64: Eigen's patanh_double --------------------------------------------------------
_ATANH64_ALPHA = (3.3071338469301391e-03, -4.7129526768798737e-02, 1.8185306179826699e-01,
                  -2.5949536095445679e-01, 1.2306328729812676e-01)
_ATANH64_BETA = (-3.8679974580640881e-03, 7.6391885763341910e-02, -4.2828141436397615e-01,
                 9.8733495886883648e-01, -1.0000000000000000e+00, 3.6918986189438030e-01)


def _horner64(x, coeffs):
    p = x * _d(coeffs[0])
    p += _d(coeffs[1])
    for c in coeffs[2:]:
        p *= x
        p += _d(c)
    return p


@_quiet
def patanh_double(x):
    """x + x^3 P(x^2) / Q(x^2) on |x| < 0.5, else log((1 + x) / (1 - x)) / 2; +-inf at +-1,
    NaN (all bits set) past."""
    x = np.asarray(x, _d)
    x2 = x * x
    x3 = x * x2
    small = x3 * (_horner64(x2, _ATANH64_ALPHA) / _horner64(x2, _ATANH64_BETA))
    small += x
    large = _d(0.5) * plog_double((_d(1) + x) / (_d(1) - x))
    a = np.abs(x)
    out = np.where(_d(0.5) <= a, large, small)
    inf = (np.uint64(0x7FF0000000000000) | (x.view(np.uint64) & np.uint64(1 << 63))).view(_d)
    out = np.where(a == _d(1), inf, out)
    bits = out.view(np.uint64).copy()
    bits[_d(1) < a] = np.uint64(0xFFFFFFFFFFFFFFFF)
    return bits.view(_d)


glibc_atanh = libm.atanh


def atanh64(x):
    """TF's float64 Atanh kernel. (The tail is not flushed: glibc returns a tiny x itself, so a
    subnormal there comes back unchanged, as measured.)"""
    return packet_then_scalar(patanh_double, glibc_atanh, x, _d, PACKET64)


# -- erf / erfc, float64: Eigen's generic_fast_erf/erfc<double> (scalars take the same path) ---------
_ERF64_ALPHA = (1.9493725660006057018823477644531294572516344487667083740234375e-04,
                1.8272566210022942682217328425053892715368419885635375976562500e-03,
                4.5303363351690106863856044583371840417385101318359375000000000e-02,
                1.4215015503619179981775744181504705920815467834472656250000000e-01,
                1.1283791670955125585606992899556644260883331298828125000000000e+00)
_ERF64_BETA = (2.0294484101083099089526257108317963684385176748037338256835938e-05,
               6.8117805899186819641732970609382391558028757572174072265625000e-04,
               1.0582026056098614921752165685120417037978768348693847656250000e-02,
               9.3252603143757495374188692949246615171432495117187500000000000e-02,
               4.5931062818368939559832142549566924571990966796875000000000000e-01, 1.0)
_ERFC64_GAMMA = (1.5252844933226974316088642158462107545346952974796295166015625e-04,
                 1.0909912393738931124520519233556115068495273590087890625000000e-02,
                 1.0628604636755033252537572252549580298364162445068359375000000e-01,
                 3.3492472973137982217295416376146022230386734008789062500000000e-01,
                 4.5065776215933289750026347064704168587923049926757812500000000e-01,
                 2.9433039130294824659017649537418037652969360351562500000000000e-01,
                 9.8792676360600226170838311645638896152377128601074218750000000e-02,
                 1.7095935395503719655962981960328761488199234008789062500000000e-02,
                 1.4249109729504577659398023570247460156679153442382812500000000e-03,
                 4.4567378313647954771875570045835956989321857690811157226562500e-05)
_ERFC64_DELTA = (2.041985103115789845773520028160419315099716186523437500000000e-03,
                 5.316030659946043707142493417450168635696172714233398437500000e-02,
                 3.426242193784684864077405563875799998641014099121093750000000e-01,
                 8.565637124308049799026321124983951449394226074218750000000000e-01, 1.0,
                 5.968805280570776972126623149961233139038085937500000000000000e-01,
                 1.890922854723317836356244470152887515723705291748046875000000e-01,
                 3.152505418656005586885981983868987299501895904541015625000000e-02,
                 2.565085751861882583380047861965067568235099315643310546875000e-03,
                 7.899362131678837697403017248376499992446042597293853759765625e-05)


def _veltkamp(x):
    """Veltkamp's split of float64 x into a 26-bit high part and the rest (no FMA)."""
    g = _d(2.0 ** 27 + 1) * x
    hi = (x - g) + g
    return hi, x - hi


def _twoprod_low(x, y, xy):
    """Dekker's x * y - fl(x * y), exactly, without FMA (each pmadd a multiply then an add)."""
    xh, xl = _veltkamp(x)
    yh, yl = _veltkamp(y)
    p = xh * yh - xy
    p = xh * yl + p
    p = xl * yh + p
    return xl * yl + p


def _erf_over_x_small64(x2):
    return _horner64(x2, _ERF64_ALPHA) / _horner64(x2, _ERF64_BETA)


def _erfc_large64(x, x2):
    x2_lo = _twoprod_low(x, x, x2)
    # (flush-to-zero applies to every step: exp(-x^2) and its tiny correction underflow to 0)
    e = flush_denormals(pexp_double(-x2), _d)
    z = e - flush_denormals(e * x2_lo, _d)
    q2 = _d(1) / x2
    r = _horner64(q2, _ERFC64_GAMMA) / (x * _horner64(q2, _ERFC64_DELTA))
    return z * r + np.where(x < 0, _d(2), _d(0))


@_quiet
def _erf64(x):
    x = np.asarray(x, _d)
    x2 = x * x
    small = x * _erf_over_x_small64(x2)
    big = _d(1) < x2
    if not big.any():
        return small
    return np.where(big, _d(1) - _erfc_large64(x, x2), small)


@_quiet
def _erfc64(x):
    x = np.asarray(x, _d)
    x = np.minimum(np.maximum(x, _d(-28)), _d(28))
    x2 = x * x
    small = _d(1) - x * _erf_over_x_small64(x2)
    big = _d(1) < x2
    if not big.any():
        return small
    return np.where(big, _erfc_large64(x, x2), small)


def erf64(x):
    """TF's float64 Erf kernel (packet and scalar paths alike, denormals flushed)."""
    return flush_denormals(_erf64(flush_denormals(x, _d)), _d)


def erfc64(x):
    """TF's float64 Erfc kernel (packet and scalar paths alike, denormals flushed)."""
    return flush_denormals(_erfc64(flush_denormals(x, _d)), _d)
