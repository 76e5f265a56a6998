"""CPU kernels for ops/quantization_ops.py: QuantizeV2, Dequantize, QuantizedConcat and the
FakeQuant* ops with their gradients.

Quantized tensors (qint8, quint8, qint16, quint16, qint32) travel as plain NumPy integer arrays of
the same width, which is also what TF's Session.run returns for them. The arithmetic follows TF's
kernels step by step in float32 (quantize_op.cc, dequantize_op.cc, quantization_utils.h,
fake_quant_ops_functor.h), because the rounding of each float32 step decides which integer a value
lands on.
"""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

_F = np.float32

# TF's quantized dtype -> the integer type its values are stored in.
STORAGE = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16, "qint32": np.int32}


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _round_away(x):
    """Eigen's round() of float32 values: half away from zero (in float64, where |x| + 0.5 is
    exact; in float32 it would itself round for |x| >= 2**23)."""
    x = np.asarray(x)
    w = x.astype(np.float64)
    return (np.sign(w) * np.floor(np.abs(w) + 0.5)).astype(x.dtype)


def _ftz(v):
    """TF runs its kernels with denormals flushed to zero: a denormal float32 scalar becomes 0."""
    v = _F(v)
    return _F(np.copysign(_F(0), v)) if abs(v) < np.finfo(_F).tiny else v


def _std_round(x):
    return float(np.sign(x) * np.floor(abs(x) + 0.5))


def _cast_int(x, np_int):
    """static_cast<T>(float) as x86 does it: out-of-range values become the type's INT_MIN-style
    pattern for int32 (cvttss2si) and wrap through int32 for the narrower types."""
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(x).astype(np.int32 if np.dtype(np_int).itemsize <= 4 else np.int64).astype(np_int)


# -- FloatToQuantizedStruct / QuantizedToFloatStruct (MIN_FIRST, QuantizedConcat) ----------------

def float_to_quantized(x, range_min, range_max, np_int):
    """quantization_utils.h's QUANTIZE_WITH_EIGEN."""
    info = np.iinfo(np_int)
    steps = float(1 << (8 * np.dtype(np_int).itemsize))
    range_min, range_max = _F(range_min), _F(range_max)
    scale = _F(0.0 if range_max == range_min else (steps - 1.0) / (float(range_max) - float(range_min)))
    min_scaled = _F(_std_round(float(range_min) * float(scale)))
    lowest = _F(info.min)
    lower = max(_F(info.min), _F(-2.147483648e+09))
    upper = min(_F(info.max), _F(2.147483520e+09))
    y = _round_away(np.asarray(x, _F) * scale) - (min_scaled - lowest)
    return _cast_int(np.minimum(np.maximum(y, lower), upper), np_int)


def quantized_to_float(q, range_min, range_max, np_int):
    """quantization_utils.h's DEQUANTIZE_WITH_EIGEN."""
    steps = float(1 << (8 * np.dtype(np_int).itemsize))
    range_min, range_max = _F(range_min), _F(range_max)
    scale = _F((float(range_max) - float(range_min)) / (steps - 1.0))
    if range_max == range_min:
        rounded = range_min
    else:
        rounded = _F(_std_round(float(range_min) / float(scale)) * float(scale))
    lowest = _F(np.iinfo(np_int).min)
    return (rounded - lowest * scale) + np.asarray(q).astype(_F) * scale


# -- QuantizeV2 ----------------------------------------------------------------------------------

def _quantize_slice(x, in_min, in_max, np_int, mode, round_mode, narrow_range, ensure_minimum_range):
    if in_max < in_min:
        raise _invalid("input_max_range must be larger than input_min_range.")
    info = np.iinfo(np_int)
    signed = info.min < 0
    min_range = _F(min(_F(0), in_min))
    epsilon = _F(max(_F(1), max(abs(in_min), abs(in_max)))) * _F(ensure_minimum_range)
    max_range = _F(max(_F(0), max(in_max, _F(min_range + epsilon))))
    x = np.asarray(x, _F)
    if mode == "MIN_COMBINED":
        scale = _F((float(info.max) - float(info.min)) / float(max_range - min_range))
        shifted = (np.minimum(np.maximum(x, min_range), max_range) - min_range) * scale
        if signed:
            half = _F((float(info.max) - float(info.min) + 1) / 2.0)
            out = _cast_int(_round_away(shifted - half), np_int)
        else:
            out = _cast_int(shifted + _F(0.5), np_int)
    elif mode == "MIN_FIRST":
        out = float_to_quantized(x, min_range, max_range, np_int)
    else:  # SCALED
        lo = int(info.min) + (1 if narrow_range else 0)
        hi = int(info.max)
        fmax = np.finfo(_F).max
        from_min = _F(lo / min_range) if lo * min_range > 0 else fmax
        from_max = _F(hi / max_range) if hi * max_range > 0 else fmax
        scale = _F(min(from_min, from_max))
        min_range, max_range = _ftz(lo / scale), _ftz(hi / scale)
        scaled = np.minimum(np.maximum(x, min_range), max_range) * scale
        out = _cast_int(np.rint(scaled) if round_mode == "HALF_TO_EVEN" else _round_away(scaled), np_int)
    return out, min_range, max_range


@register_kernel("QuantizeV2")
def _quantize_v2(op, ctx):
    np_int = STORAGE[op._get_attr("T").name]
    mode, round_mode = op._get_attr("mode"), op._get_attr("round_mode")
    narrow_range, axis = op._get_attr("narrow_range"), op._get_attr("axis")
    ensure = op._get_attr("ensure_minimum_range")

    def quantize_v2(x, mn, mx):
        if round_mode == "HALF_TO_EVEN" and mode != "SCALED":
            raise _invalid(f"Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is '{mode}'.")
        x, mn, mx = np.asarray(x, _F), np.asarray(mn, _F), np.asarray(mx, _F)
        if axis == -1:
            if mn.size != 1 or mx.size != 1:
                raise _invalid(f"input_min_range and input_max_range must have 1 element each, got "
                               f"{mn.size} and {mx.size}")
            out, lo, hi = _quantize_slice(x, mn.reshape(-1)[0], mx.reshape(-1)[0], np_int, mode, round_mode,
                                          narrow_range, ensure)
            return out, np.asarray(lo, _F), np.asarray(hi, _F)
        if mode == "MIN_FIRST":
            raise errors.UnimplementedError(None, None, "MIN_FIRST mode is not implemented for Quantize with "
                                                        "axis != -1.")
        n = x.shape[axis]
        if mn.size != n or mx.size != n:
            raise _invalid(f"input_min_range and input_max_range must have {n} elements each")
        out = np.empty(x.shape, np_int)
        los, his = np.empty(n, _F), np.empty(n, _F)
        for i in range(n):
            sl = (slice(None),) * axis + (i,)
            out[sl], los[i], his[i] = _quantize_slice(x[sl], mn[i], mx[i], np_int, mode, round_mode,
                                                      narrow_range, ensure)
        return out, los, his
    return quantize_v2


# -- Dequantize ----------------------------------------------------------------------------------

def _dequantize_slice(q, mn, mx, np_int, mode, narrow_range):
    info = np.iinfo(np_int)
    q = np.asarray(q)
    if mode == "MIN_FIRST":
        return quantized_to_float(q, mn, mx, np_int)
    if mode == "MIN_COMBINED":
        half = _F(0) if info.min == 0 else _F((float(info.max) - float(info.min) + 1) / 2.0)
        scale = _F(_F(mx - mn) / (_F(info.max) - _F(info.min)))
        return (q.astype(_F) + half) * scale + mn
    lo = int(info.min) + (1 if narrow_range else 0)
    if info.min == 0:
        scale = _ftz(mx / _F(info.max))
    else:
        scale = _ftz(max(_ftz(mn / _F(lo)), _ftz(mx / _F(info.max))))
    return q.astype(_F) * scale


@register_kernel("Dequantize")
def _dequantize(op, ctx):
    np_int = STORAGE[op._get_attr("T").name]
    mode, narrow_range, axis = op._get_attr("mode"), op._get_attr("narrow_range"), op._get_attr("axis")
    out_dt = op.outputs[0].dtype.as_numpy_dtype

    def dequantize(q, mn, mx):
        q, mn, mx = np.asarray(q).astype(np_int, copy=False), np.asarray(mn, _F), np.asarray(mx, _F)
        if axis == -1:
            if mn.size != 1 or mx.size != 1:
                raise _invalid(f"input_min_range and input_max_range must have 1 element each, got "
                               f"{mn.size} and {mx.size}")
            out = _dequantize_slice(q, mn.reshape(-1)[0], mx.reshape(-1)[0], np_int, mode, narrow_range)
        else:
            n = q.shape[axis]
            if mn.size != n or mx.size != n:
                raise _invalid(f"input_min_range and input_max_range must have {n} elements each")
            out = np.empty(q.shape, _F)
            for i in range(n):
                sl = (slice(None),) * axis + (i,)
                out[sl] = _dequantize_slice(q[sl], mn[i], mx[i], np_int, mode, narrow_range)
        return np.asarray(out, _F).astype(out_dt)
    return dequantize


# -- QuantizedConcat -----------------------------------------------------------------------------

@register_kernel("QuantizedConcat")
def _quantized_concat(op, ctx):
    np_int = STORAGE[op._get_attr("T").name]
    n = op._get_attr("N")

    def quantized_concat(axis, *rest):
        values, mins, maxes = rest[:n], rest[n:2 * n], rest[2 * n:]
        values = [np.asarray(v).astype(np_int, copy=False) for v in values]
        axis = int(axis)
        rank = values[0].ndim
        if not -rank <= axis < max(rank, 1):
            raise _invalid(f"ConcatOp : Expected concatenating dimensions in the range [{-rank}, {rank}), "
                           f"but got {axis}")
        axis %= max(rank, 1)
        for i, v in enumerate(values[1:], 1):
            if v.ndim != rank or v.shape[:axis] + v.shape[axis + 1:] != values[0].shape[:axis] + \
                    values[0].shape[axis + 1:]:
                raise _invalid(f"ConcatOp : Dimension {axis} in both shapes must be equal: shape[0] = "
                               f"{list(values[0].shape)} vs. shape[{i}] = {list(v.shape)}")
        ranges = [(_F(np.asarray(a).reshape(-1)[0]), _F(np.asarray(b).reshape(-1)[0])) for a, b in zip(mins, maxes)]
        lo = _F(min(_F(0), min(r[0] for r in ranges)))
        hi = _F(max(r[1] for r in ranges))
        if np.iinfo(np_int).min < 0:
            big = _F(max(abs(lo), abs(hi)))
            lo, hi = -big, big
        parts = []
        for v, (a, b) in zip(values, ranges):
            if a == lo and b == hi:
                parts.append(v)
            else:
                parts.append(float_to_quantized(quantized_to_float(v, a, b, np_int), lo, hi, np_int))
        return np.concatenate(parts, axis=axis), np.asarray(lo, _F), np.asarray(hi, _F)
    return quantized_concat


# -- FakeQuant* ----------------------------------------------------------------------------------

def nudge(mn, mx, quant_min, quant_max):
    """fake_quant_ops_functor.h's Nudge: (nudged_min, nudged_max, scale, inv_scale) with the zero
    point moved onto the integer grid."""
    qmin, qmax = _F(quant_min), _F(quant_max)
    mn, mx = _F(mn), _F(mx)
    with np.errstate(all="ignore"):
        scale = _F((mx - mn) / (qmax - qmin))
        inv_scale = _F((qmax - qmin) / (mx - mn))
        zp_from_min = _F(qmin - _F(mn / scale))
    if zp_from_min < qmin:
        zp = quant_min
    elif zp_from_min > qmax:
        zp = quant_max
    else:
        zp = int(_std_round(float(zp_from_min))) & 0xFFFF
    nudged_min = _F(_F(qmin - _F(zp)) * scale)
    nudged_max = _F(_F(qmax - _F(zp)) * scale)
    return nudged_min, nudged_max, scale, inv_scale


def _quant_range(num_bits, narrow_range):
    if not 2 <= num_bits <= 16:
        raise _invalid("num_bits must be between 2 and 16, inclusive")
    return (1 if narrow_range else 0), (1 << num_bits) - 1


def fake_quant(x, mn, mx, quant_min, quant_max, divide=True):
    """FakeQuantWithMinMaxVarsFunctor on one channel (float32 throughout). Unlike the Args
    functor it divides by the scale instead of multiplying by its inverse (divide=False: the
    per-channel functor, which multiplies), which puts some values on the neighbouring level."""
    x = np.asarray(x, _F)
    if mn == 0 and mx == 0:
        return np.zeros_like(x)
    nmin, nmax, scale, inv = nudge(mn, mx, quant_min, quant_max)
    quant_zero = np.floor(_F(-nmin * inv) + _F(0.5))
    shifted = np.maximum(np.minimum(x, nmax), nmin) - nmin
    with np.errstate(all="ignore"):
        levels = shifted / scale if divide else shifted * inv
        return (np.floor(levels - quant_zero + _F(0.5)) * scale).astype(_F)


def fake_quant_grad(g, x, mn, mx, quant_min, quant_max):
    """(backprop wrt inputs, wrt min, wrt max) of one channel: the straight-through estimator inside
    the nudged range; what falls below/above it flows to min/max."""
    g, x = np.asarray(g, _F), np.asarray(x, _F)
    if mn == 0 and mx == 0:
        return g.copy(), _F(0), _F(0)
    nmin, nmax, _, _ = nudge(mn, mx, quant_min, quant_max)
    # Multiplied by 0/1 masks as TF does (a negative gradient outside the range gives -0.0).
    return (g * ((x >= nmin) & (x <= nmax)).astype(_F), _F(np.sum(g[x < nmin], dtype=_F)),
            _F(np.sum(g[x > nmax], dtype=_F)))


def _bits(op):
    return op._get_attr("num_bits"), op._get_attr("narrow_range")


@register_kernel("FakeQuantWithMinMaxArgs")
def _fake_quant_args(op, ctx):
    mn, mx = op._get_attr("min"), op._get_attr("max")
    num_bits, narrow = _bits(op)

    def fake_quant_with_min_max_args(x):
        if not mn < mx:
            raise _invalid(f"min has to be smaller than max, was: {mn:g} >= {mx:g}")
        qmin, qmax = _quant_range(num_bits, narrow)
        nmin, nmax, scale, inv = nudge(mn, mx, qmin, qmax)
        x = np.asarray(x, _F)
        quant_zero = np.floor(_F(-nmin * inv) + _F(0.5))
        shifted = np.maximum(np.minimum(x, nmax), nmin) - nmin
        return (np.floor(shifted * inv - quant_zero + _F(0.5)) * scale).astype(_F)
    return fake_quant_with_min_max_args


@register_kernel("FakeQuantWithMinMaxArgsGradient")
def _fake_quant_args_grad(op, ctx):
    mn, mx = op._get_attr("min"), op._get_attr("max")
    num_bits, narrow = _bits(op)

    def fake_quant_with_min_max_args_gradient(g, x):
        if not mn < mx:
            raise _invalid(f"min has to be smaller than max, was: {mn:g} >= {mx:g}")
        qmin, qmax = _quant_range(num_bits, narrow)
        nmin, nmax, _, _ = nudge(mn, mx, qmin, qmax)
        g, x = np.asarray(g, _F), np.asarray(x, _F)
        return g * ((x >= nmin) & (x <= nmax)).astype(_F)
    return fake_quant_with_min_max_args_gradient


def _scalar(v):
    return _F(np.asarray(v, _F).reshape(-1)[0])


@register_kernel("FakeQuantWithMinMaxVars")
def _fake_quant_vars(op, ctx):
    num_bits, narrow = _bits(op)

    def fake_quant_with_min_max_vars(x, mn, mx):
        qmin, qmax = _quant_range(num_bits, narrow)
        return fake_quant(x, _scalar(mn), _scalar(mx), qmin, qmax)
    return fake_quant_with_min_max_vars


@register_kernel("FakeQuantWithMinMaxVarsGradient")
def _fake_quant_vars_grad(op, ctx):
    num_bits, narrow = _bits(op)

    def fake_quant_with_min_max_vars_gradient(g, x, mn, mx):
        qmin, qmax = _quant_range(num_bits, narrow)
        gx, gmin, gmax = fake_quant_grad(g, x, _scalar(mn), _scalar(mx), qmin, qmax)
        return gx, np.asarray(gmin, _F), np.asarray(gmax, _F)
    return fake_quant_with_min_max_vars_gradient


def _check_channels(x, mn, mx):
    d = x.shape[-1]
    if mn.shape != (d,) or mx.shape != (d,):
        raise _invalid(f"min and max must have shape [{d}], got {list(mn.shape)} and {list(mx.shape)}")


@register_kernel("FakeQuantWithMinMaxVarsPerChannel")
def _fake_quant_per_channel(op, ctx):
    num_bits, narrow = _bits(op)

    def fake_quant_with_min_max_vars_per_channel(x, mn, mx):
        qmin, qmax = _quant_range(num_bits, narrow)
        x, mn, mx = np.asarray(x, _F), np.asarray(mn, _F), np.asarray(mx, _F)
        _check_channels(x, mn, mx)
        out = np.empty_like(x)
        for c in range(x.shape[-1]):
            out[..., c] = fake_quant(x[..., c], mn[c], mx[c], qmin, qmax, divide=False)
        return out
    return fake_quant_with_min_max_vars_per_channel


@register_kernel("FakeQuantWithMinMaxVarsPerChannelGradient")
def _fake_quant_per_channel_grad(op, ctx):
    num_bits, narrow = _bits(op)

    def fake_quant_with_min_max_vars_per_channel_gradient(g, x, mn, mx):
        qmin, qmax = _quant_range(num_bits, narrow)
        g, x, mn, mx = np.asarray(g, _F), np.asarray(x, _F), np.asarray(mn, _F), np.asarray(mx, _F)
        _check_channels(x, mn, mx)
        gx = np.empty_like(x)
        gmin, gmax = np.empty_like(mn), np.empty_like(mx)
        for c in range(x.shape[-1]):
            gx[..., c], gmin[c], gmax[c] = fake_quant_grad(g[..., c], x[..., c], mn[c], mx[c], qmin, qmax)
        return gx, gmin, gmax
    return fake_quant_with_min_max_vars_per_channel_gradient
