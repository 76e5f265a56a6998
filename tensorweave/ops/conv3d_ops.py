"""3-D convolution and pooling ops: conv3d (+ Conv3DBackpropInputV2 / Conv3DBackpropFilterV2,
which are also conv3d_transpose and conv3d_backprop_filter_v2), max_pool3d (+ MaxPool3DGrad,
MaxPool3DGradGrad) and avg_pool3d (+ AvgPool3DGrad). Kernels in kernels/cpu/conv3d.py.

Attributes follow TF: strides / dilations / ksize are 5-vectors in data_format order ("NDHWC"
default, or "NCDHW"); padding is "SAME" or "VALID". As in TF, tf.nn.conv3d takes 5-vectors only,
while conv3d_transpose and the pools also accept an int or a 3-vector.
"""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, unknown_shape
from .conv_ops import _check_dtype, _check_groups, _out_dim

__all__ = ["conv3d", "conv3d_transpose", "conv3d_backprop_filter", "conv3d_backprop_filter_v2",
           "max_pool3d", "avg_pool3d"]


def _array():
    from . import array_ops
    return array_ops


# -- attributes --------------------------------------------------------------------------------

def _norm_format(data_format):
    if data_format is None:
        return "NDHWC"
    if isinstance(data_format, bytes):
        data_format = data_format.decode()
    if data_format not in ("NDHWC", "NCDHW"):
        raise ValueError(f"Attr 'data_format' passed string '{data_format}' not in: "
                         "\"NDHWC\", \"NCDHW\".")
    return data_format


def _spatial_idx(fmt):
    """(depth, height, width, channel) axes."""
    return (1, 2, 3, 4) if fmt == "NDHWC" else (2, 3, 4, 1)


def _attr_list(value, attr, op_type, fn):
    """What TF's generated op wrappers accept for a list attr with minimum length 5."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"Expected list for '{attr}' argument to '{fn}' Op, not {value!r}.")
    value = [int(v) for v in value]
    if len(value) < 5:
        raise ValueError(f"Attr '{attr}' of '{op_type}' Op passed list of length {len(value)} "
                         "less than minimum 5.")
    if len(value) != 5:
        raise ValueError(f"{op_type} requires the {attr[:-1] if attr.endswith('s') else attr} "
                         f"attribute to contain 5 values, but got: {len(value)}")
    return value


def _sequence(value, name, fmt):
    """TF's _get_sequence(value, 3, channel_index, name): int or length 1/3/5 -> a 5-list."""
    if value is None:
        value = 1
    if isinstance(value, numbers.Integral):
        value = [int(value)]
    given, value = list(value), [int(v) for v in value]
    if len(value) == 1:
        value = value * 3
    if len(value) == 3:
        return [1, 1] + value if fmt == "NCDHW" else [1] + value + [1]
    if len(value) == 5:
        return value
    raise ValueError(f"{name} should be of length 1, 3 or 5. Received: {name}={given} of length {len(value)}")


def _padding(padding, op_type):
    if isinstance(padding, bytes):
        padding = padding.decode()
    if not isinstance(padding, str):  # a string attr (TF's generated wrappers' words)
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"Attr 'padding' of '{op_type}' Op passed string '{padding}' not in: "
                         "\"SAME\", \"VALID\".")
    return padding


def _conv_attrs(strides, padding, data_format, dilations, op_type, fn, normalize=False):
    fmt = _norm_format(data_format)
    if normalize:
        s, d = _sequence(strides, "strides", fmt), _sequence(dilations, "dilations", fmt)
    else:
        if strides is None:
            raise ValueError("strides must be given")
        s = _attr_list(strides, "strides", op_type, fn)
        d = [1] * 5 if dilations is None else _attr_list(dilations, "dilations", op_type, fn)
    return {"strides": s, "padding": _padding(padding, op_type), "data_format": fmt, "dilations": d}


def _reserving(name, default, fn, *args):
    """fn(*args); a ValueError (an attr _apply_op_helper rejects) first takes the op's name, as
    TF's name scope had opened; a TypeError (the generated wrapper's own checks) does not."""
    try:
        return fn(*args)
    except ValueError:
        with name_scope(name, default):
            pass
        raise


# -- shape functions ---------------------------------------------------------------------------

def _rank5(shape):
    if shape.ndims is not None and shape.ndims != 5:
        raise ValueError(f"Shape must be rank 5 but is rank {shape.ndims}")
    return shape.as_list() if shape.ndims is not None else [None] * 5


def _out_shape(dims, ks, dilations, out_c, attrs):
    fmt = attrs["data_format"]
    idx = _spatial_idx(fmt)
    s = attrs["strides"]
    out = [dims[0], None, None, None, None]
    for i, k, dl in zip(idx[:3], ks, dilations):
        out[i] = _out_dim(dims[i], k, s[i], dl, attrs["padding"], None)
    out[idx[3]] = out_c
    return TensorShape(out)


def _conv3d_shape(op):
    x, w = _rank5(op._inputs[0]._shape), _rank5(op._inputs[1]._shape)
    a = op._attrs
    idx = _spatial_idx(a["data_format"])
    _check_groups(x[idx[3]], w[3], w[4])
    d = a.get("dilations") or [1] * 5
    return [_out_shape(x, w[:3], [d[i] for i in idx[:3]], w[4], a)]


def _shape_from_input(i):
    """TF's MakeShapeFromShapeTensor(i) then WithRank(5)."""
    def shape_fn(op):
        t = op._inputs[i]
        v = constant_value(t)
        n = int(np.asarray(v).size) if v is not None else (
            t.shape.as_list()[0] if t.shape.ndims == 1 else None)
        if n is not None and n != 5:
            raise ValueError(f"Shape must be rank 5 but is rank {n}")
        if v is None:
            return [unknown_shape(rank=5)]
        return [TensorShape([int(d) for d in np.asarray(v).reshape(-1)])]
    return shape_fn


def _pool_shape(op):
    x = _rank5(op._inputs[0]._shape)
    a = op._attrs
    idx = _spatial_idx(a["data_format"])
    k = a["ksize"]
    out = _out_shape(x, [k[i] for i in idx[:3]], [1, 1, 1], x[idx[3]], a)
    return [out]


registry.register_op("Conv3D", shape_fn=_conv3d_shape)
registry.register_op("Conv3DBackpropInputV2", shape_fn=_shape_from_input(0))
registry.register_op("Conv3DBackpropFilterV2", shape_fn=_shape_from_input(1))
registry.register_op("MaxPool3D", shape_fn=_pool_shape)
registry.register_op("AvgPool3D", shape_fn=_pool_shape)
registry.register_op("MaxPool3DGrad", shape_fn=lambda op: [op._inputs[0]._shape])
registry.register_op("MaxPool3DGradGrad", shape_fn=lambda op: [op._inputs[1]._shape])
registry.register_op("AvgPool3DGrad", shape_fn=_shape_from_input(0))


# -- op construction and gradients -------------------------------------------------------------

_CONV_KEYS = ("strides", "padding", "data_format", "dilations")
_POOL_KEYS = ("ksize", "strides", "padding", "data_format")


def _attrs_of(op, keys):
    return {k: op._get_attr(k) for k in keys}


def _make(op_type, inputs, name, attrs, dt, extra=None):
    a = {"T": dt}
    a.update(attrs)
    if extra:
        a.update(extra)
    return apply_op(op_type, inputs, [dt], name, attrs=a)


def _conv(x, w, attrs, name="Conv3D"):
    return _make("Conv3D", [x, w], name, attrs, x.dtype.base_dtype)


def _backprop_input(sizes, w, dy, attrs, name="Conv3DBackpropInputV2"):
    return _make("Conv3DBackpropInputV2", [sizes, w, dy], name, attrs, dy.dtype.base_dtype,
                 {"Tshape": sizes.dtype.base_dtype})


def _backprop_filter(x, sizes, dy, attrs, name="Conv3DBackpropFilterV2"):
    return _make("Conv3DBackpropFilterV2", [x, sizes, dy], name, attrs, x.dtype.base_dtype)


def _with_shape(t, shape):
    t.set_shape(shape)
    return t


@registry.register_gradient("Conv3D")
def _conv3d_grad(op, grad):
    a = _attrs_of(op, _CONV_KEYS)
    x, w = op.inputs
    s0, s1 = _array().shape_n([x, w])
    return [_with_shape(_backprop_input(s0, w, grad, a), x.shape),
            _with_shape(_backprop_filter(x, s1, grad, a), w.shape)]


@registry.register_gradient("Conv3DBackpropInputV2")
def _conv3d_backprop_input_grad(op, grad):
    a = _attrs_of(op, _CONV_KEYS)
    _, w, dy = op.inputs
    return [None,
            _with_shape(_backprop_filter(grad, _array().shape(w), dy, a), w.shape),
            _with_shape(_conv(grad, w, a), dy.shape)]


@registry.register_gradient("Conv3DBackpropFilterV2")
def _conv3d_backprop_filter_grad(op, grad):
    a = _attrs_of(op, _CONV_KEYS)
    x, _, dy = op.inputs
    return [_with_shape(_backprop_input(_array().shape(x), grad, dy, a), x.shape),
            None,
            _with_shape(_conv(x, grad, a), dy.shape)]


def _max_pool3d_grad_op(x, y, g, attrs, name="MaxPool3DGrad"):
    return _make("MaxPool3DGrad", [x, y, g], name, attrs, g.dtype.base_dtype,
                 {"TInput": x.dtype.base_dtype})


@registry.register_gradient("MaxPool3D")
def _max_pool3d_grad(op, grad):
    return [_max_pool3d_grad_op(op.inputs[0], op.outputs[0], grad, _attrs_of(op, _POOL_KEYS))]


@registry.register_gradient("MaxPool3DGrad")
def _max_pool3d_grad_grad(op, grad):
    a = _array()
    x, y = op.inputs[0], op.inputs[1]
    return [a.zeros_like(x), a.zeros_like(y),
            _make("MaxPool3DGradGrad", [x, y, grad], "MaxPool3DGradGrad", _attrs_of(op, _POOL_KEYS),
                  grad.dtype.base_dtype)]


@registry.register_gradient("MaxPool3DGradGrad")
def _max_pool3d_grad_grad_grad(op, grad):
    a = _array()
    x, y = op.inputs[0], op.inputs[1]
    return [a.zeros_like(x), a.zeros_like(y),
            _max_pool3d_grad_op(x, y, grad, _attrs_of(op, _POOL_KEYS))]


@registry.register_gradient("AvgPool3D")
def _avg_pool3d_grad(op, grad):
    out = _make("AvgPool3DGrad", [_array().shape(op.inputs[0]), grad], "AvgPool3DGrad",
                _attrs_of(op, _POOL_KEYS), grad.dtype.base_dtype)
    return [_with_shape(out, op.inputs[0].shape)]


@registry.register_gradient("AvgPool3DGrad")
def _avg_pool3d_grad_grad(op, grad):
    return [None, _make("AvgPool3D", [grad], "AvgPool3D", _attrs_of(op, _POOL_KEYS),
                        grad.dtype.base_dtype)]


# -- public functions --------------------------------------------------------------------------

def conv3d(input=None, filter=None, strides=None, padding=None, data_format="NDHWC",  # noqa: A002
           dilations=None, name=None, filters=None):
    """3-D convolution (cross-correlation, as in TF) of [batch, depth, height, width, in] (NDHWC)
    by [filter_depth, filter_height, filter_width, in, out]:
    out[n, i, j, k, o] = sum_{a, b, c, ci} input[n, i*s1 + a*d1 - pad_front, j*s2 + b*d2 - pad_top,
    k*s3 + c*d3 - pad_left, ci] * filter[a, b, c, ci, o]. strides and dilations are 5-lists."""
    if filter is None:
        filter = filters  # noqa: A001
    elif filters is not None:
        raise ValueError("Cannot specify both 'filter' and 'filters'")
    attrs = _reserving(name, "Conv3D", _conv_attrs, strides, padding, data_format, dilations, "Conv3D",
                       "conv3d")
    x = convert_to_tensor(input, name="input")
    w = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
    _check_dtype(x, "input", ("float16", "bfloat16", "float32", "float64"))
    return _conv(x, w, attrs, name or "Conv3D")


def conv3d_backprop_filter_v2(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                              data_format="NDHWC", dilations=None, name=None):
    """The gradient of conv3d with respect to its filter (a tensor of shape `filter_sizes`)."""
    attrs = _reserving(name, "Conv3DBackpropFilterV2", _conv_attrs, strides, padding, data_format, dilations,
                       "Conv3DBackpropFilterV2", "conv3d_backprop_filter_v2")
    x = convert_to_tensor(input, name="input")
    dy = convert_to_tensor(out_backprop, dtype=x.dtype.base_dtype, name="out_backprop")
    sizes = convert_to_tensor(filter_sizes, dtype=_dtypes.int32, name="filter_sizes")
    return _backprop_filter(x, sizes, dy, attrs, name or "Conv3DBackpropFilterV2")


conv3d_backprop_filter = conv3d_backprop_filter_v2


def conv3d_transpose(value=None, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NDHWC", name=None, input=None, filters=None,
                     dilations=None):
    """The transpose (gradient) of conv3d: maps a conv3d *output*-shaped `value` to a tensor of
    shape `output_shape`; filter is [depth, height, width, output_channels, in_channels]."""
    if value is None:
        value = input
    if filter is None:
        filter = filters  # noqa: A001
    with name_scope(name, "conv3d_transpose", [value, filter, output_shape]) as name:
        attrs = _conv_attrs(strides, padding, data_format, dilations, "Conv3DBackpropInputV2",
                            "conv3d_backprop_input_v2", normalize=True)
        value = convert_to_tensor(value, name="value")
        filter = convert_to_tensor(filter, dtype=value.dtype.base_dtype, name="filter")  # noqa: A001
        if isinstance(output_shape, Tensor):
            sizes = output_shape
            if sizes.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
                from . import math_ops
                sizes = math_ops.cast(sizes, _dtypes.int32)
        else:
            if isinstance(output_shape, TensorShape):
                output_shape = output_shape.as_list()
            sizes = convert_to_tensor(output_shape, dtype=_dtypes.int32, name="input_sizes")
        # (TF 2.21 checks value's depth against the filter's only in the kernel.)
        return _backprop_input(sizes, filter, value, attrs, name)


def _pool(op_type, scope, input, ksize, strides, padding, data_format, name):  # noqa: A002
    with name_scope(name, scope, [input]) as name:
        fmt = _norm_format(data_format)
        attrs = {"ksize": _sequence(ksize, "ksize", fmt), "strides": _sequence(strides, "strides", fmt),
                 "padding": _padding(padding, op_type), "data_format": fmt}
        x = convert_to_tensor(input, name="input")
        _check_dtype(x, "input", ("float16", "bfloat16", "float32", "float64"))
        return _make(op_type, [x], name, attrs, x.dtype.base_dtype)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Max over each ksize window of [batch, depth, height, width, channels] (NDHWC) or
    NCDHW, windows `strides` apart; padded positions never win. (TF's MaxPool3D rejects float64;
    here it is accepted, so its gradients can be checked in float64.)"""
    return _pool("MaxPool3D", "MaxPool3D", input, ksize, strides, padding, data_format, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):  # noqa: A002
    """Mean over each ksize window (with SAME padding: over the window's real elements only)."""
    return _pool("AvgPool3D", "AvgPool3D", input, ksize, strides, padding, data_format, name)
