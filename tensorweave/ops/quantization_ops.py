"""Quantization ops: tf.quantization.quantize (QuantizeV2), dequantize, quantized_concat and the
fake-quantization ops used in quantization-aware training (FakeQuantWithMinMaxArgs/Vars/
VarsPerChannel and their *Gradient ops).

Op types, argument names, defaults, default op names and error classes follow TensorFlow 2.x's
compat.v1 (recorded by running the same calls under TensorFlow 2.21). Quantized outputs
(tf.quint8, tf.qint8, ...) are fetched as plain NumPy integer arrays, as in TF.

Fake quantization maps x onto 2**num_bits levels spread over [min, max] after "nudging" the range
so that 0.0 is exactly representable, then back to float:

    scale = (max - min) / (quant_max - quant_min)
    zero_point = clamp(round(quant_min - min / scale), quant_min, quant_max)
    nudged_min, nudged_max = (quant_min - zero_point) * scale, (quant_max - zero_point) * scale
    out = floor((clamp(x, nudged_min, nudged_max) - nudged_min) / scale + 0.5) * scale + nudged_min

Its gradient is the straight-through estimator: grad where nudged_min <= x <= nudged_max, else 0
(the *Vars ops send what falls below/above the range to min/max).
"""

import collections

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["quantize", "quantize_v2", "dequantize", "quantized_concat", "fake_quant_with_min_max_args",
           "fake_quant_with_min_max_args_gradient", "fake_quant_with_min_max_vars",
           "fake_quant_with_min_max_vars_gradient", "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient"]

_QTYPES = ("qint8", "quint8", "qint32", "qint16", "quint16")

QuantizeV2 = collections.namedtuple("QuantizeV2", ["output", "output_min", "output_max"])
QuantizedConcat = collections.namedtuple("QuantizedConcat", ["output", "output_min", "output_max"])
FakeQuantWithMinMaxVarsGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsGradient", ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])
FakeQuantWithMinMaxVarsPerChannelGradient = collections.namedtuple(
    "FakeQuantWithMinMaxVarsPerChannelGradient", ["backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max"])


# -- argument checks -------------------------------------------------------------------------------

def _float_input(op_type, param, value):
    """`value` as a float32 tensor; a tensor of another dtype is TF's TypeError."""
    if isinstance(value, Tensor):
        t = value
    else:
        t = convert_to_tensor(value, name=param, preferred_dtype=_dtypes.float32)
    if t.dtype.base_dtype is not _dtypes.float32:
        raise TypeError(f"Input '{param}' of '{op_type}' Op has type {t.dtype.base_dtype.name} that does not "
                        f"match expected type of float32.")
    return t


def _check_choice(op_type, attr, value, allowed):
    if value not in allowed:
        raise ValueError(f"Attr '{attr}' of '{op_type}' Op passed string '{value}' not in: "
                         + ", ".join(f'"{a}"' for a in allowed) + ".")


def _qtype(param, dtype):
    dt = _dtypes.as_dtype(dtype).base_dtype
    if dt.name not in _QTYPES:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dt.name} not in list of allowed "
                        f"values: {', '.join(_QTYPES)}")
    return dt


def _rank(shape, rank):
    if shape.ndims is not None and shape.ndims != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {shape.ndims}")


def _merge_dim(a, b):
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return a if a is not None else b


def _range_shapes(op, axis, n_min=1):
    """Shapes of a per-tensor (axis -1: scalars) or per-slice (axis: [d]) min/max pair."""
    x = op._inputs[0]._shape
    mins = [t._shape for t in op._inputs[n_min:n_min + 2]]
    if axis == -1:
        for s in mins:
            _rank(s, 0)
        return TensorShape([])
    if x.ndims is not None and x.ndims < axis + 1:
        raise ValueError(f"Shape must be at least rank {axis + 1} but is rank {x.ndims}")
    d = None
    for s in mins:
        _rank(s, 1)
        if s.ndims is not None:
            d = _merge_dim(d, s[0].value)
    return TensorShape([_merge_dim(d, x[axis].value if x.ndims is not None else None)])


# -- QuantizeV2 / Dequantize -----------------------------------------------------------------------

def _quantize_shape(op):
    r = _range_shapes(op, op._attrs["axis"])
    return [op._inputs[0]._shape, r, r]


registry.register_op("QuantizeV2", shape_fn=_quantize_shape)


def _dequantize_shape(op):
    _range_shapes(op, op._attrs["axis"])
    return [op._inputs[0]._shape]


registry.register_op("Dequantize", shape_fn=_dequantize_shape)
# No gradient registered for "QuantizeV2" (TF has none): tf.gradients through it raises LookupError.
# No gradient registered for "Dequantize" (TF has none): tf.gradients through it raises LookupError.


def _quantize_v2_op(input, min_range, max_range, T, mode, round_mode, narrow_range, axis,
                    ensure_minimum_range, name):
    with _name_scope(name, "QuantizeV2", [input, min_range, max_range]) as scope:
        # (Inside the scope: like TF's op builder, an invalid call still uses up the name.)
        _check_choice("QuantizeV2", "mode", mode, ("MIN_COMBINED", "MIN_FIRST", "SCALED"))
        _check_choice("QuantizeV2", "round_mode", round_mode, ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN"))
        dt = _qtype("T", T)
        x = _float_input("QuantizeV2", "input", input)
        mn = _float_input("QuantizeV2", "min_range", min_range)
        mx = _float_input("QuantizeV2", "max_range", max_range)
        out = apply_op("QuantizeV2", [x, mn, mx], [dt, _dtypes.float32, _dtypes.float32], scope,
                       attrs={"T": dt, "mode": mode, "round_mode": round_mode, "narrow_range": bool(narrow_range),
                              "axis": int(-1 if axis is None else axis),
                              "ensure_minimum_range": float(ensure_minimum_range)})
    return QuantizeV2(*out)


def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED", name=None, round_mode="HALF_AWAY_FROM_ZERO",
                narrow_range=False, axis=None, ensure_minimum_range=0.01):
    """Quantizes float32 `input` over [min_range, max_range] into the quantized type T; returns
    (output, output_min, output_max), the range actually used (it always contains 0 and is at
    least ensure_minimum_range * max(1, |min|, |max|) wide).

    mode MIN_COMBINED: out = (clamp(x) - min) * (range(T) / (max - min)) shifted by half of T's range
    for signed T; MIN_FIRST: round(x * scale) - round(min * scale) + lowest(T); SCALED: symmetric,
    out = round(x * s) with s chosen so that [min, max] fits T (round_mode picks the tie rule).
    A negative `axis` needs a known rank; with an axis, min/max hold one value per slice."""
    if axis is None:
        axis = -1
    elif axis < 0:
        x = input if isinstance(input, Tensor) else convert_to_tensor(input, dtype=_dtypes.float32, name="input")
        if x.shape.ndims is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= x.shape.ndims
        input = x
    return _quantize_v2_op(input, min_range, max_range, T, mode, round_mode, narrow_range, axis,
                           ensure_minimum_range, name)


def quantize(input, min_range, max_range, T, mode="MIN_COMBINED", round_mode="HALF_AWAY_FROM_ZERO", name=None,
             narrow_range=False, axis=None, ensure_minimum_range=0.01):
    """tf.quantization.quantize: quantize_v2 with round_mode before name."""
    return quantize_v2(input, min_range, max_range, T, mode=mode, name=name, round_mode=round_mode,
                       narrow_range=narrow_range, axis=axis, ensure_minimum_range=ensure_minimum_range)


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None, axis=None, narrow_range=False,
               dtype=_dtypes.float32):
    """Maps a quantized tensor back to floats over [min_range, max_range] (the inverse of
    quantize for the same mode); `dtype` is float32 or bfloat16."""
    with _name_scope(name, "Dequantize", [input, min_range, max_range]) as scope:
        _check_choice("Dequantize", "mode", mode, ("MIN_COMBINED", "MIN_FIRST", "SCALED"))
        if not isinstance(input, Tensor):
            raise TypeError("dequantize: `input` must be a quantized Tensor (tensorweave cannot make quantized "
                            "constants yet)")
        dt = _qtype("input", input.dtype)
        out_dt = _dtypes.as_dtype(dtype).base_dtype
        if out_dt.name not in ("bfloat16", "float32"):
            raise TypeError(f"Value passed to parameter 'dtype' has DataType {out_dt.name} not in list of "
                            f"allowed values: bfloat16, float32")
        mn = _float_input("Dequantize", "min_range", min_range)
        mx = _float_input("Dequantize", "max_range", max_range)
        return apply_op("Dequantize", [input, mn, mx], [out_dt], scope,
                        attrs={"T": dt, "mode": mode, "narrow_range": bool(narrow_range),
                               "axis": int(-1 if axis is None else axis), "dtype": out_dt})


# -- QuantizedConcat -------------------------------------------------------------------------------

def _quantized_concat_shape(op):
    from ..framework.constant_op import constant_value
    n = op._attrs["N"]
    _rank(op._inputs[0]._shape, 0)
    values = op._inputs[1:1 + n]
    for t in op._inputs[1 + n:]:
        _rank(t._shape, 0)
    axis = constant_value(op._inputs[0])
    shapes = [v._shape for v in values]
    known = [s for s in shapes if s.ndims is not None]
    if not known:
        return [unknown_shape(), TensorShape([]), TensorShape([])]
    rank = known[0].ndims
    for s in known:
        if s.ndims != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {s.ndims}")
    if axis is None:
        return [unknown_shape(rank=rank), TensorShape([]), TensorShape([])]
    axis = int(axis)
    if not -rank <= axis < rank:
        raise ValueError(f"Expected concat_dim in range [{-rank}, {rank}), but got {axis}")
    axis %= rank
    dims = [None] * rank
    total = 0
    for s in known:
        for i in range(rank):
            if i != axis:
                dims[i] = _merge_dim(dims[i], s[i].value)
    for s in shapes:
        d = s[axis].value if s.ndims is not None else None
        total = None if total is None or d is None else total + d
    dims[axis] = total
    return [TensorShape(dims), TensorShape([]), TensorShape([])]


registry.register_op("QuantizedConcat", shape_fn=_quantized_concat_shape)
registry.no_gradient("QuantizedConcat")


def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
    """Concatenates quantized tensors along `concat_dim`, requantizing each one into the combined
    range (min over input_mins and 0, max over input_maxes; symmetric for signed types); returns
    (output, output_min, output_max)."""
    values, input_mins, input_maxes = list(values), list(input_mins), list(input_maxes)
    n = len(values)
    for param, lst in (("input_mins", input_mins), ("input_maxes", input_maxes)):
        if len(lst) != n:
            raise ValueError(f"List argument '{param}' to 'QuantizedConcat' Op with length {len(lst)} must match "
                             f"length {n} of argument 'values'.")
    with _name_scope(name, "QuantizedConcat", [concat_dim] + values + input_mins + input_maxes) as scope:
        axis = convert_to_tensor(concat_dim, dtype=_dtypes.int32, name="concat_dim")
        dt = None
        for v in values:
            if not isinstance(v, Tensor):
                raise TypeError("quantized_concat: `values` must be quantized Tensors")
            vt = _qtype("T", v.dtype)
            if dt is not None and vt is not dt:
                raise TypeError(f"Tensors in list passed to 'values' of 'QuantizedConcat' Op have types "
                                f"[{', '.join(x.dtype.base_dtype.name for x in values)}] that don't all match.")
            dt = vt
        mins = [_float_input("QuantizedConcat", "input_mins", m) for m in input_mins]
        maxes = [_float_input("QuantizedConcat", "input_maxes", m) for m in input_maxes]
        out = apply_op("QuantizedConcat", [axis] + values + mins + maxes, [dt, _dtypes.float32, _dtypes.float32],
                       scope, attrs={"N": n, "T": dt})
    return QuantizedConcat(*out)


# -- FakeQuant* ------------------------------------------------------------------------------------

def _args_shape(op):
    return [op._inputs[-1]._shape]


def _vars_shape(op):
    n = len(op._inputs)
    for t in op._inputs[n - 2:]:
        _rank(t._shape, 0)
    if op._type.endswith("Gradient"):
        return [op._inputs[1]._shape, TensorShape([]), TensorShape([])]
    return [op._inputs[0]._shape]


def _per_channel_shape(op):
    n = len(op._inputs)
    x = op._inputs[n - 3]._shape
    if x.ndims is not None and x.ndims < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {x.ndims}")
    if op._type.endswith("Gradient") and x.ndims is not None and x.ndims > 4:
        raise ValueError(f"Shape must be at most rank 4 but is rank {x.ndims}")
    d = x[-1].value if x.ndims is not None else None
    for t in op._inputs[n - 2:]:
        _rank(t._shape, 1)
        if t._shape.ndims is not None:
            d = _merge_dim(d, t._shape[0].value)
    if op._type.endswith("Gradient"):
        return [x, TensorShape([d]), TensorShape([d])]
    return [x]


registry.register_op("FakeQuantWithMinMaxArgs", shape_fn=_args_shape)
registry.register_op("FakeQuantWithMinMaxArgsGradient", shape_fn=_args_shape)
registry.register_op("FakeQuantWithMinMaxVars", shape_fn=_vars_shape)
registry.register_op("FakeQuantWithMinMaxVarsGradient", shape_fn=_vars_shape)
registry.register_op("FakeQuantWithMinMaxVarsPerChannel", shape_fn=_per_channel_shape)
registry.register_op("FakeQuantWithMinMaxVarsPerChannelGradient", shape_fn=_per_channel_shape)


def _bits_attrs(num_bits, narrow_range):
    return {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)}


def fake_quant_with_min_max_args(inputs, min=-6, max=6, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """Fake-quantizes float32 `inputs` over the fixed range [min, max] (attributes) onto
    2**num_bits levels (2**num_bits - 1 with narrow_range); see the module docstring."""
    with _name_scope(name, "FakeQuantWithMinMaxArgs", [inputs]) as scope:
        x = _float_input("FakeQuantWithMinMaxArgs", "inputs", inputs)
        attrs = {"min": float(min), "max": float(max)}
        attrs.update(_bits_attrs(num_bits, narrow_range))
        return apply_op("FakeQuantWithMinMaxArgs", [x], [_dtypes.float32], scope, attrs=attrs)


def fake_quant_with_min_max_args_gradient(gradients, inputs, min=-6, max=6, num_bits=8,  # noqa: A002
                                          narrow_range=False, name=None):
    """`gradients` where `inputs` lie inside the nudged [min, max], else 0."""
    with _name_scope(name, "FakeQuantWithMinMaxArgsGradient", [gradients, inputs]) as scope:
        g = _float_input("FakeQuantWithMinMaxArgsGradient", "gradients", gradients)
        x = _float_input("FakeQuantWithMinMaxArgsGradient", "inputs", inputs)
        attrs = {"min": float(min), "max": float(max)}
        attrs.update(_bits_attrs(num_bits, narrow_range))
        return apply_op("FakeQuantWithMinMaxArgsGradient", [g, x], [_dtypes.float32], scope, attrs=attrs)


def _vars_op(op_type, tensors, params, num_bits, narrow_range, name, n_out):
    with _name_scope(name, op_type, tensors) as scope:
        ts = [_float_input(op_type, p, t) for p, t in zip(params, tensors)]
        out = apply_op(op_type, ts, [_dtypes.float32] * n_out, scope, attrs=_bits_attrs(num_bits, narrow_range))
    return out


def fake_quant_with_min_max_vars(inputs, min, max, num_bits=8, narrow_range=False, name=None):  # noqa: A002
    """Fake-quantizes float32 `inputs` over [min, max] given as scalar float32 tensors (usually
    variables trained along with the model); min == max == 0 gives zeros."""
    return _vars_op("FakeQuantWithMinMaxVars", [inputs, min, max], ["inputs", "min", "max"], num_bits,
                    narrow_range, name, 1)


def fake_quant_with_min_max_vars_gradient(gradients, inputs, min, max, num_bits=8,  # noqa: A002
                                          narrow_range=False, name=None):
    """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) of fake_quant_with_min_max_vars."""
    out = _vars_op("FakeQuantWithMinMaxVarsGradient", [gradients, inputs, min, max],
                   ["gradients", "inputs", "min", "max"], num_bits, narrow_range, name, 3)
    return FakeQuantWithMinMaxVarsGradient(*out)


def fake_quant_with_min_max_vars_per_channel(inputs, min, max, num_bits=8, narrow_range=False,  # noqa: A002
                                             name=None):
    """Fake quantization with one [min, max] range per channel (the last dimension of `inputs`;
    min and max have shape [d])."""
    return _vars_op("FakeQuantWithMinMaxVarsPerChannel", [inputs, min, max], ["inputs", "min", "max"], num_bits,
                    narrow_range, name, 1)


def fake_quant_with_min_max_vars_per_channel_gradient(gradients, inputs, min, max, num_bits=8,  # noqa: A002
                                                      narrow_range=False, name=None):
    """(backprops_wrt_input, backprop_wrt_min, backprop_wrt_max) of the per-channel op; the min/max
    backprops have shape [d]."""
    out = _vars_op("FakeQuantWithMinMaxVarsPerChannelGradient", [gradients, inputs, min, max],
                   ["gradients", "inputs", "min", "max"], num_bits, narrow_range, name, 3)
    return FakeQuantWithMinMaxVarsPerChannelGradient(*out)


@registry.register_gradient("FakeQuantWithMinMaxArgs")
def _fake_quant_args_grad(op, grad):
    return [fake_quant_with_min_max_args_gradient(grad, op.inputs[0], min=op._get_attr("min"),
                                                  max=op._get_attr("max"), num_bits=op._get_attr("num_bits"),
                                                  narrow_range=op._get_attr("narrow_range"))]


@registry.register_gradient("FakeQuantWithMinMaxVars")
def _fake_quant_vars_grad(op, grad):
    return list(fake_quant_with_min_max_vars_gradient(grad, op.inputs[0], op.inputs[1], op.inputs[2],
                                                      num_bits=op._get_attr("num_bits"),
                                                      narrow_range=op._get_attr("narrow_range")))


@registry.register_gradient("FakeQuantWithMinMaxVarsPerChannel")
def _fake_quant_per_channel_grad(op, grad):
    return list(fake_quant_with_min_max_vars_per_channel_gradient(
        grad, op.inputs[0], op.inputs[1], op.inputs[2], num_bits=op._get_attr("num_bits"),
        narrow_range=op._get_attr("narrow_range")))
