"""Pow as TF's Eigen kernels compute it (float32 and float64).

TF's x86 wheel builds Eigen for AVX without FMA: its Pow packets (8 floats or 4 doubles along the
flat tensor) run Eigen's generic_pow, exp2(y * log2(x)) evaluated in double words (every pmadd a
multiply then an add), and its scalar tail calls glibc's powf / pow. NumPy's power (SVML on
AVX-512) differs from both in the last bit. Measured bit-equal to TF 2.21 on 100,000 values of
x ** 0.3 (the FTRL optimizer's accumulator powers, training.py) and, for the binary Pow op with
generic_pow's special cases, on random and special operands.
"""

import ctypes
import math

import numpy as np

from . import libm
from .eigen_math import PACKET, PACKET64, _twoprod_low, flush_denormals, pexp, pexp_double

__all__ = ["eigen_pow", "scalar_pow", "tf_pow", "powf_pairs"]

_f32 = np.float32
_powf_fn = None


def _powf_function():
    global _powf_fn
    if _powf_fn is None:
        _powf_fn = libm.c_function("powf", ctypes.c_float, ctypes.c_float, ctypes.c_float)
    return _powf_fn


def _powf(x, y):
    """glibc's powf, element by element (only the few tail values)."""
    fn = _powf_function()
    x = np.asarray(x, _f32)
    return np.array([fn(float(v), float(y)) for v in x.reshape(-1)], _f32).reshape(x.shape)


def powf_pairs(a, b):
    """glibc's powf of each pair (a[i], b[i]) of float32 values."""
    fn = _powf_function()
    return np.array([fn(float(u), float(v)) for u, v in zip(a, b)], _f32)


def _two_prod(x, y):
    """x * y as an exact pair (Eigen's Veltkamp-Dekker twoprod is exact): float32 through float64,
    float64 by Dekker's algorithm."""
    if np.result_type(x, y) == np.float64:
        x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
        hi = x * y
        return hi, _twoprod_low(x, y, hi)
    p = np.asarray(x, np.float64) * np.asarray(y, np.float64)
    hi = p.astype(_f32)
    return hi, (p - hi).astype(_f32)


def _two_prod_dw(x_hi, x_lo, y):
    """The double word {x_hi, x_lo} times float y (Eigen's twoprod(x_hi, x_lo, y))."""
    c_hi, c_lo1 = _two_prod(x_hi, y)
    t_hi, t_lo1 = _fast_two_sum(c_hi, x_lo * y)
    return _fast_two_sum(t_hi, t_lo1 + c_lo1)


def _fast_two_sum(x, y):
    s = x + y
    return s, y - (s - x)


def _fast_two_sum_dw(x_hi, x_lo, y_hi, y_lo):
    r_hi, r_lo = _fast_two_sum(x_hi, y_hi)
    return _fast_two_sum(r_hi, (y_lo + r_lo) + x_lo)


_LOG2_C0 = 1.442695041742110273474963832995854318141937255859375
_LOG2_C1 = -7.2134751588268664068692714863573201000690460205078125e-01
_LOG2_POLY = tuple(_f32(c) for c in (
    9.7010828554630279541015625e-02, -1.6896486282348632812500000e-01, 1.7200836539268493652343750e-01,
    -1.7892272770404815673828125e-01, 2.0505344867706298828125000e-01, -2.4046677350997924804687500e-01,
    2.8857553005218505859375000e-01, -3.6067414283752441406250000e-01, 4.8089790344238281250000000e-01))


def _split(c):
    hi = _f32(c)
    return hi, _f32(c - float(hi))


def _accurate_log2(z):
    """Eigen's accurate_log2<float> of z in [1/sqrt(2), sqrt(2)], as a double word."""
    x = z - _f32(1)
    p = np.full_like(x, _LOG2_POLY[0])
    for c in _LOG2_POLY[1:]:
        p = p * x + c
    p_hi, p_lo = _two_prod(x, p)
    p_hi, p_lo = _fast_two_sum_dw(*_split(_LOG2_C1), p_hi, p_lo)
    p_hi, p_lo = _two_prod_dw(p_hi, p_lo, x)
    p_hi, p_lo = _fast_two_sum_dw(*_split(_LOG2_C0), p_hi, p_lo)
    return _two_prod_dw(p_hi, p_lo, x)


def _two_prod_dwdw(x_hi, x_lo, y_hi, y_lo):
    p_hi_hi, p_hi_lo = _two_prod_dw(x_hi, x_lo, y_hi)
    p_lo_hi, p_lo_lo = _two_prod_dw(x_hi, x_lo, y_lo)
    return _fast_two_sum_dw(p_hi_hi, p_hi_lo, p_lo_hi, p_lo_lo)


def _accurate_log2_double(x):
    """Eigen's accurate_log2<double>: log2(x) = f(r), r = c (x - 1) / (x + 1), as a double word."""
    d = np.float64
    t_hi, t_lo = _two_prod_dw(d(2.88539008177792677), d(4.07660016854549667e-17), x - d(1))
    y = x + d(1)                        # doubleword_div_fp(t, x + 1)
    q_hi = t_hi / y
    pi_hi, pi_lo = _two_prod(q_hi, y)
    r_hi, r_lo = _fast_two_sum(q_hi, (((t_hi - pi_hi) - pi_lo) + t_lo) / y)
    r2_hi, r2_lo = _two_prod_dwdw(r_hi, r_lo, r_hi, r_lo)
    r4_hi, _ = _two_prod_dwdw(r2_hi, r2_lo, r2_hi, r2_lo)
    q_even = (d(2.87074255468000586e-9) * r4_hi + d(2.31032094540014656e-7)) * r4_hi + d(2.31271023278625638e-5)
    q_odd = (d(2.38957980901884082e-8) * r4_hi + d(2.27279857398537278e-6)) * r4_hi + d(2.47556738444535513e-4)
    q_even = q_even * r4_hi + d(2.88543873228900172e-3)
    q = q_odd * r2_hi + q_even
    p_hi, p_lo = _two_prod_dw(r2_hi, r2_lo, q)
    p_hi, p_lo = _fast_two_sum_dw(d(0.0400377511598501157), d(-4.77726582251425391e-19), p_hi, p_lo)
    p_hi, p_lo = _two_prod_dwdw(r2_hi, r2_lo, p_hi, p_lo)
    s_hi, s_lo = _fast_two_sum(d(1), p_hi)
    p_hi, p_lo = _fast_two_sum(s_hi, p_lo + s_lo)
    return _two_prod_dwdw(p_hi, p_lo, r_hi, r_lo)


def _pround(x):
    """Eigen's AVX pround: x + copysign(the float below 0.5, x), truncated."""
    half = np.nextafter(x.dtype.type(0.5), x.dtype.type(0))
    return np.trunc(x + np.copysign(half, x))


def _pow_impl(x, y):
    """Eigen's generic_pow_impl for positive x: exp2(y * log2(x)) in double words."""
    dt = x.dtype.type
    m, e = np.frexp(x)
    e = e.astype(x.dtype)
    small = m < dt(0.70710678118654752440)
    m = np.where(small, m * dt(2), m)
    e = np.where(small, e - dt(1), e)
    rx_hi, rx_lo = _accurate_log2_double(m) if dt is np.float64 else _accurate_log2(m)
    f1_hi, f1_lo = _two_prod(e, y)
    f2_hi, f2_lo = _two_prod_dw(rx_hi, rx_lo, y)
    f_hi, f_lo = _fast_two_sum_dw(f1_hi, f1_lo, f2_hi, f2_lo)
    n_z = _pround(f_hi)
    r_z = (f_hi - n_z) + f_lo
    n_r = _pround(r_z)
    r_z = r_z - n_r
    n_z = n_z + n_r
    # generic_exp2: exp(hi) * (1 + lo) for ln2 * r = hi + lo
    info = np.finfo(dt)
    r_z = np.clip(r_z, dt(-(info.maxexp + info.nmant)), dt(info.maxexp + 1))
    p_hi, p_lo = _two_prod(dt(0.693147180559945309417232121458176568), r_z)
    e_r = (pexp_double(p_hi) if dt is np.float64 else pexp(p_hi)) * (dt(1) + p_lo)
    return np.ldexp(e_r, np.clip(n_z, -3000, 3000).astype(np.int32)).astype(dt)


def _ppow(x, y):
    """Eigen's scalar_unary_pow_op packet path (tensor.pow(scalar)) for float32 or float64 x."""
    dt = x.dtype.type
    y = dt(y)
    if np.isfinite(y) and np.round(y) == y and -3 <= y <= 7:
        # integer exponents in [-3, 7]: repeated squaring
        if y == 0:
            return np.ones_like(x)
        r = dt(1) / x if y < 0 else x.copy()
        acc = np.ones_like(x)
        k = abs(int(y))
        while k > 1:
            if k % 2:
                acc = acc * r
            r = r * r
            k //= 2
        return acc * r
    if not np.isfinite(y):
        return np.power(x, y)           # (not measured)
    with np.errstate(all="ignore"):
        out = _pow_impl(np.abs(x), y)
    if np.round(y) == y:
        # other integers: generic_pow's special cases
        if y % 2:
            out = np.where(np.signbit(x), -out, out)
        out = np.where(x == 0, np.copysign(dt(np.inf) if y < 0 else dt(0), x) if y % 2
                       else (dt(np.inf) if y < 0 else dt(0)), out)
        out = np.where(np.isinf(x), np.power(x, y), out)
        return np.where((x == 1) | np.isnan(x), x, out)
    # handle_nonint_nonint_errors
    out = np.where(x <= 0, dt(np.nan), out)
    out = np.where(x == 0, dt(np.inf) if y < 0 else dt(0), out)
    out = np.where(np.isinf(x), dt(np.inf) if y > 0 else dt(0), out)
    out = np.where(x == 1, dt(1), out)
    return np.where(np.isnan(x), x, out)


def eigen_pow(x, y, row=None):
    """TF's x.pow(y) (y a scalar) inside an Eigen expression: packets (8 floats, 4 doubles) along
    the flat tensor (or along each `row` elements, for the sparse kernels' per-row expressions),
    glibc's powf / pow on the tail."""
    x = np.asarray(x)
    if x.dtype not in (_f32, np.float64) or not x.size:
        return np.power(x, y)
    lanes = PACKET if x.dtype == _f32 else PACKET64
    rows = x.reshape(-1, row or x.size)
    cut = rows.shape[1] // lanes * lanes
    out = np.empty(rows.shape, x.dtype)
    if cut:
        packets = flush_denormals(rows[:, :cut], x.dtype.type)
        out[:, :cut] = flush_denormals(_ppow(packets, y), x.dtype.type)
    if cut < rows.shape[1]:
        out[:, cut:] = scalar_pow(rows[:, cut:], y)
    return out.reshape(x.shape)


def scalar_pow(x, y):
    """std::pow on each element: glibc's powf for float32, pow (Python's math.pow) for float64."""
    if x.dtype == _f32:
        return _powf(x, y)
    return np.array([math.pow(v, float(y)) for v in x.reshape(-1).tolist()], np.float64).reshape(x.shape)


# -- the binary Pow op: generic_pow's special cases around generic_pow_impl ---------------------

def _generic_pow(x, y):
    """Eigen's generic_pow of packets x, y (same shape), special cases as cppreference's pow."""
    dt = x.dtype.type
    with np.errstate(all="ignore"):
        result = _pow_impl(np.abs(x), y)
        x_neg = x < 0
        x_abs = np.abs(x)
        y_abs = np.abs(y)
        y_abs_inf = np.isinf(y)
        y_neg = y < 0
        y_int = (np.floor(y) == y) & ~y_abs_inf
        y_half = y * dt(0.5)
        y_even = _pround(y_half) == y_half
        y_odd_int = y_int & ~y_even
        huge = dt((np.finfo(dt).maxexp * dt(0.69314718055994530942)) / np.finfo(dt).eps)
        y_huge = huge <= y_abs
        nan, inf, zero, one = dt(np.nan), dt(np.inf), dt(0), dt(1)
        result = np.where(x_neg & ~y_int, nan, result)
        result = np.where(x == 0, np.where(y_neg, inf, zero), result)
        result = np.where(np.signbit(x) & y_odd_int, -result, result)
        inf_y = np.where(y_neg ^ (one < x_abs), inf, zero)
        inf_y = np.where(x == dt(-1), one, inf_y)
        result = np.where(y_huge, inf_y, result)
        pos_inf = np.where(y_neg, zero, inf)
        neg_inf = np.where(y_odd_int, -pos_inf, pos_inf)
        result = np.where(np.isinf(x), np.where(x_neg, neg_inf, pos_inf), result)
        result = np.where(np.isnan(x) | np.isnan(y), nan, result)
        return np.where(y == one, x, np.where((x == one) | (y == 0), one, result))


def tf_pow(x, y):
    """TF's float32 / float64 Pow of broadcast x and y: generic_pow on the packets of the flat
    output, glibc's pow on the tail (denormals flushed in and out of the packets)."""
    dt = np.result_type(x, y).type
    x, y = np.broadcast_arrays(np.asarray(x, dt), np.asarray(y, dt))
    shape = x.shape
    xf, yf = x.reshape(-1), y.reshape(-1)
    lanes = PACKET if dt is _f32 else PACKET64
    cut = xf.size // lanes * lanes
    out = np.empty(xf.size, dt)
    if cut:
        out[:cut] = flush_denormals(_generic_pow(flush_denormals(xf[:cut], dt), flush_denormals(yf[:cut], dt)), dt)
    if cut < xf.size:
        c_pow = _c_pow(dt)
        for i in range(cut, xf.size):
            out[i] = c_pow(xf[i], yf[i])
    return out.reshape(shape)


def _c_pow(dt):
    if dt is _f32:
        # The operands go to glibc as float registers built from their bits: a Python float
        # conversion would flush a subnormal first; TF's call does not (glibc then runs in the
        # thread's flush-to-zero mode, as TF's does)
        fn, bits = _powf_function(), ctypes.c_float.from_buffer_copy
        return lambda a, b: _f32(fn(bits(a.tobytes()), bits(b.tobytes())))
    return lambda a, b: np.float64(math.pow(float(a), float(b))) if np.isfinite(a) and np.isfinite(b) \
        else np.power(np.float64(a), np.float64(b))
