"""Convolution ops: conv2d (+ its backprops, which are also conv2d_transpose), depthwise_conv2d
(+ depthwise_conv2d_native and its backprops), separable_conv2d, conv1d.

Primitive ops (kernels in kernels/cpu/conv.py): Conv2D, Conv2DBackpropInput,
Conv2DBackpropFilter, DepthwiseConv2dNative, DepthwiseConv2dNativeBackpropInput,
DepthwiseConv2dNativeBackpropFilter. Their gradients are each other, as in TF, so second
derivatives of convolutions (and gradients of conv2d_transpose) come for free.

Attributes follow TF: strides/dilations are 4-vectors in data_format order ("NHWC" default or
"NCHW"); padding is "SAME", "VALID" or "EXPLICIT" with explicit_paddings (8 ints).
"""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, note_input_partial_shape, unknown_shape

__all__ = ["atrous_conv2d", "conv2d", "conv2d_transpose", "conv2d_backprop_input", "conv2d_backprop_filter",
           "depthwise_conv2d", "depthwise_conv2d_native", "depthwise_conv2d_native_backprop_input",
           "depthwise_conv2d_native_backprop_filter", "separable_conv2d", "conv1d", "convolution"]


def _array():
    from . import array_ops
    return array_ops


# -- attribute normalization -------------------------------------------------------------------

def _norm_format(data_format):
    if data_format is None:
        return "NHWC"
    if isinstance(data_format, bytes):
        data_format = data_format.decode()
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format must be 'NHWC' or 'NCHW'; got {data_format!r}")
    return data_format


def _sequence(value, name, fmt, n=2):
    """TF's _get_sequence for 2-D ops: int or length 1/2/4 -> a 4-list in data_format order."""
    if value is None:
        value = 1
    if isinstance(value, numbers.Integral):
        value = [int(value)] * n
    given, value = list(value), [int(v) for v in value]
    if len(value) == 1:
        value = value * n
    if len(value) == n:
        return [1, 1] + value if fmt == "NCHW" else [1] + value + [1]
    if len(value) == n + 2:
        return value
    raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={given} of length "
                     f"{len(value)}")


# Op types whose padding attr also takes "EXPLICIT" (TF's op definitions).
_EXPLICIT_PADDING_OPS = frozenset({
    "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "DepthwiseConv2dNative",
    "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter", "MaxPool"})


def _padding(padding, fmt, op_type="Conv2D"):
    """(padding string, explicit_paddings list). A string must be exactly "SAME" or "VALID", as
    TF's op definitions check it (tf.nn does not upper-case; tf.layers does before calling)."""
    if isinstance(padding, bytes):
        padding = padding.decode()
    if isinstance(padding, str):
        if padding == "EXPLICIT" and op_type in _EXPLICIT_PADDING_OPS:
            raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit padding, `padding` "
                             "must be a list.")
        if padding not in ("SAME", "VALID"):
            allowed = '"SAME", "VALID", "EXPLICIT"' if op_type in _EXPLICIT_PADDING_OPS \
                else '"SAME", "VALID"'
            raise ValueError(f"Attr 'padding' of '{op_type}' Op passed string '{padding}' not in: "
                             f"{allowed}.")
        return padding, []
    for i, pair in enumerate(padding):  # TF's convert_padding checks, in its order and words
        if not isinstance(pair, (list, tuple)):
            raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size "
                             f"2. Received: padding={padding} with element at index {i} of type {type(pair)}")
        if len(pair) != 2:
            raise ValueError("When `padding` is a list, each element of `padding` must be a list/tuple of size "
                             f"2. Received: padding={padding} with element at index {i} of size {len(pair)}")
    if len(padding) != 4:
        raise ValueError(f"When padding is a list, it must be of size 4. Received: padding={padding} of size "
                         f"{len(padding)}")
    pads = [list(map(int, pair)) for pair in padding]
    # (Negative and batch/depth paddings are the shape function's to reject: _check_explicit.)
    return "EXPLICIT", [v for pair in pads for v in pair]


def _check_explicit(op):
    """TF's CheckValidPadding, run by the shape functions of the ops with explicit padding (so
    a bad list fails naming the op, which has taken its name)."""
    a = op._attrs
    if a.get("padding") != "EXPLICIT":
        return
    ex = [int(v) for v in a.get("explicit_paddings") or []]
    if len(ex) != 8:
        raise ValueError(f"explicit_paddings attribute must contain 8 values, but got: {len(ex)}")
    if any(v < 0 for v in ex):
        raise ValueError("All elements of explicit_paddings must be nonnegative")
    ci = _spatial_idx(a.get("data_format") or "NHWC")[2]
    if ex[0] or ex[1] or ex[2 * ci] or ex[2 * ci + 1]:
        raise ValueError("Nonzero explicit padding in the batch or depth dimensions is not supported")


def _check_dtype(t, param, allowed=("float16", "bfloat16", "float32", "float64", "int32")):
    dt = t.dtype.base_dtype
    if dt.name not in allowed:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dt.name} not in list of "
                        f"allowed values: {', '.join(allowed)}")


# -- geometry (static) -------------------------------------------------------------------------

def _out_dim(size, k, stride, dilation, padding, pads):
    if stride <= 0:  # TF's GetWindowedOutputSizeFromDimsV2, known sizes or not
        raise ValueError(f"Stride must be > 0, but got {stride}")
    if dilation < 1:
        raise ValueError(f"Dilation rate must be >= 1, but got {dilation}")
    if size is None or k is None:
        return None
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        return -(-size // stride)
    if padding == "EXPLICIT":
        size = size + pads[0] + pads[1]
    if size < eff:
        raise ValueError(f"Negative dimension size caused by subtracting {eff} from {size}")
    return (size - eff) // stride + 1


def _spatial_idx(fmt):
    return (1, 2, 3) if fmt == "NHWC" else (2, 3, 1)


def _conv_out_shape(in_shape, kh, kw, out_c, attrs):
    fmt = attrs["data_format"]
    hi, wi, ci = _spatial_idx(fmt)
    dims = in_shape.with_rank(4).as_list() if in_shape.ndims is not None else [None] * 4
    s, d = attrs["strides"], attrs.get("dilations") or [1, 1, 1, 1]
    ex = attrs.get("explicit_paddings") or [0] * 8
    oh = _out_dim(dims[hi], kh, s[hi], d[hi], attrs["padding"], ex[2 * hi:2 * hi + 2])
    ow = _out_dim(dims[wi], kw, s[wi], d[wi], attrs["padding"], ex[2 * wi:2 * wi + 2])
    out = [dims[0], None, None, None]
    out[hi], out[wi], out[ci] = oh, ow, out_c
    return TensorShape(out)


def _conv2d_shape(op):
    x, w = op._inputs[0]._shape, op._inputs[1]._shape
    if x.ndims is not None and x.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {x.ndims}")
    if w.ndims is not None and w.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {w.ndims}")
    wd = w.as_list() if w.ndims is not None else [None] * 4
    if x.ndims is not None:
        cin = x.as_list()[_spatial_idx(op._attrs["data_format"])[2]]
        _check_groups(cin, wd[2], wd[3])
    _check_explicit(op)
    return [_conv_out_shape(x, wd[0], wd[1], wd[3], op._attrs)]


def _check_groups(cin, fin, out):
    """TF's depth checks of Conv2D/Conv3D: the input depth a multiple of the filter's, the output
    depth a multiple of the number of groups."""
    if cin is None or fin is None:
        return
    if fin == 0:
        raise ValueError("Depth of filter must not be 0")
    if cin % fin:
        raise ValueError(f"Depth of input ({cin}) is not a multiple of input depth of filter ({fin})")
    if cin != fin and out is not None and out % (cin // fin):
        raise ValueError(f"Depth of output ({out}) is not a multiple of the number of groups ({cin // fin})")


def _depthwise_shape(op):
    x, w = op._inputs[0]._shape, op._inputs[1]._shape
    if x.ndims is not None and x.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {x.ndims}")
    wd = w.with_rank(4).as_list() if w.ndims is not None else [None] * 4
    cin = x.as_list()[_spatial_idx(op._attrs["data_format"])[2]] if x.ndims is not None else None
    if cin is not None and wd[2] is not None and cin != wd[2]:
        raise ValueError(f"Dimensions must be equal, but are {cin} and {wd[2]}")
    out_c = wd[2] * wd[3] if wd[2] is not None and wd[3] is not None else None
    _check_explicit(op)
    return [_conv_out_shape(x, wd[0], wd[1], out_c, op._attrs)]


def _shape_from_input(i):
    def shape_fn(op):
        v = constant_value(op._inputs[i])
        if v is None:
            return [unknown_shape(rank=4)]
        return [TensorShape([int(d) for d in np.asarray(v).reshape(-1)])]
    return shape_fn


for _t in ("Conv2D",):
    registry.register_op(_t, shape_fn=_conv2d_shape)
registry.register_op("DepthwiseConv2dNative", shape_fn=_depthwise_shape)
def _backprop_input_shape(op):
    """TF's Conv2DBackpropInputShape: out_backprop's depth must be the filter's out channels; the
    batch is out_backprop's (input_sizes' batch only has to merge with it); spatial dims (and, for
    4 values, the depth) come from input_sizes as far as it is known, else the depth is the
    filter's in channels."""
    from .array_ops import _shape_from_tensor
    dy, w = op._inputs[2].shape, op._inputs[1].shape
    for s in (dy, w):
        if s.ndims is not None and s.ndims != 4:
            raise ValueError(f"Shape must be rank 4 but is rank {s.ndims}")
    hi, wi, ci = _spatial_idx(op._attrs["data_format"])
    dyd = dy.as_list() if dy.ndims is not None else [None] * 4
    wd = w.as_list() if w.ndims is not None else [None] * 4
    if dyd[ci] is not None and wd[3] is not None and dyd[ci] != wd[3]:
        raise ValueError(f"Dimensions must be equal, but are {dyd[ci]} and {wd[3]}")
    spec = _shape_from_tensor(op._inputs[0])
    spec = spec.as_list() if spec.ndims is not None else [None] * 4
    if len(spec) in (2, 4):   # TF's message shows the partial shape only once its rank is good
        note_input_partial_shape(0, spec)
    if len(spec) == 4:
        if spec[0] is not None and dyd[0] is not None and spec[0] != dyd[0]:
            raise ValueError(f"Dimensions must be equal, but are {spec[0]} and {dyd[0]}")
        spatial, depth = [spec[hi], spec[wi]], spec[ci]
    elif len(spec) == 2:
        spatial, depth = spec, wd[2]
    else:
        raise ValueError(f"Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: "
                         f"{len(spec)}")
    out = [dyd[0], None, None, None]
    out[hi], out[wi], out[ci] = spatial[0], spatial[1], depth
    return [TensorShape(out)]


registry.register_op("Conv2DBackpropInput", shape_fn=_backprop_input_shape)
registry.register_op("Conv2DBackpropFilter", shape_fn=_shape_from_input(1))
registry.register_op("DepthwiseConv2dNativeBackpropInput", shape_fn=_shape_from_input(0))
registry.register_op("DepthwiseConv2dNativeBackpropFilter", shape_fn=_shape_from_input(1))


def _attrs_of(op):
    return {k: op._get_attr(k) for k in ("strides", "padding", "explicit_paddings", "data_format",
                                        "dilations")}


def _make(op_type, inputs, name, attrs):
    dt = inputs[-1].dtype.base_dtype
    a = {"T": dt}
    a.update(attrs)
    if op_type.startswith("Conv2D"):
        a["use_cudnn_on_gpu"] = True
    return apply_op(op_type, inputs, [dt], name, attrs=a)


def _with_shape(t, shape):
    t.set_shape(shape)
    return t


@registry.register_gradient("Conv2D")
def _conv2d_grad(op, grad):
    a = _attrs_of(op)
    x, w = op.inputs
    s0, s1 = _array().shape_n([x, w])
    return [_with_shape(_make("Conv2DBackpropInput", [s0, w, grad], "Conv2DBackpropInput", a), x.shape),
            _with_shape(_make("Conv2DBackpropFilter", [x, s1, grad], "Conv2DBackpropFilter", a), w.shape)]


@registry.register_gradient("DepthwiseConv2dNative")
def _depthwise_grad(op, grad):
    a = _attrs_of(op)
    x, w = op.inputs
    return [_with_shape(_make("DepthwiseConv2dNativeBackpropInput", [_array().shape(x), w, grad],
                              "DepthwiseConv2dNativeBackpropInput", a), x.shape),
            _with_shape(_make("DepthwiseConv2dNativeBackpropFilter", [x, _array().shape(w), grad],
                              "DepthwiseConv2dNativeBackpropFilter", a), w.shape)]


def _register_backprop_gradients(conv, backprop_input, backprop_filter):
    """A convolution's two backprops are linear in their inputs: each one's gradients are the
    other backprop and the convolution itself (so second derivatives work)."""

    @registry.register_gradient(backprop_input)
    def _backprop_input_grad(op, grad):
        a = _attrs_of(op)
        _, w, dy = op.inputs
        return [None,
                _with_shape(_make(backprop_filter, [grad, _array().shape(w), dy], backprop_filter, a), w.shape),
                _with_shape(_make(conv, [grad, w], conv, a), dy.shape)]

    @registry.register_gradient(backprop_filter)
    def _backprop_filter_grad(op, grad):
        a = _attrs_of(op)
        x, _, dy = op.inputs
        return [_with_shape(_make(backprop_input, [_array().shape(x), grad, dy], backprop_input, a), x.shape),
                None,
                _with_shape(_make(conv, [x, grad], conv, a), dy.shape)]


_register_backprop_gradients("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter")
_register_backprop_gradients("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                             "DepthwiseConv2dNativeBackpropFilter")


# -- public functions --------------------------------------------------------------------------

def _conv_attrs(strides, padding, data_format, dilations, op_type):
    fmt = _norm_format(data_format)
    if strides is None:
        raise ValueError("strides must be given")
    pad, explicit = _padding(padding, fmt, op_type)
    return {"strides": _sequence(strides, "strides", fmt), "padding": pad,
            "explicit_paddings": explicit, "data_format": fmt,
            "dilations": _sequence(dilations, "dilations", fmt)}


def conv2d(input=None, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002
           data_format="NHWC", dilations=None, name=None, filters=None):
    """2-D convolution (cross-correlation, as in TF): out[n, i, j, o] =
    sum_{a, b, c} input[n, i*sh + a*dh - pad_top, j*sw + b*dw - pad_left, c] * filter[a, b, c, o].

    padding: "SAME", "VALID", or explicit [[0, 0], [top, bottom], [left, right], [0, 0]]."""
    if filter is None:
        filter = filters  # noqa: A001
    elif filters is not None:
        raise ValueError("Cannot specify both 'filter' and 'filters'")
    if padding is None:
        raise ValueError("padding must be given")
    attrs = _conv_attrs(strides, padding, data_format, dilations, "Conv2D")
    x = convert_to_tensor(input, name="input")
    w = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
    _check_dtype(x, "input")
    return _make("Conv2D", [x, w], name or "Conv2D", attrs)


def convolution(input, filter, padding, strides=None, dilation_rate=None, name=None,  # noqa: A002
                data_format=None, filters=None, dilations=None):
    """tf.nn.convolution of 1-D, 2-D and 3-D inputs (rank 3, 4 or 5). As in TF, a dilated
    convolution is the plain one between SpaceToBatchND and BatchToSpaceND (with_space_to_batch),
    so its output is named ".../BatchToSpaceND"."""
    if filter is None:
        filter = filters  # noqa: A001
    rate = dilation_rate if dilation_rate is not None else dilations
    if not isinstance(filter, Tensor) and not hasattr(filter, "initializer"):
        with name_scope("convolution_internal", None, [filter, input]):
            filter = convert_to_tensor(filter, name="filters")  # noqa: A001
    if not isinstance(input, Tensor):
        with name_scope("convolution_internal", None, [filter, input]):
            input = convert_to_tensor(input, name="input")  # noqa: A001
    frank, irank = filter.shape.ndims, input.shape.ndims
    if frank:
        n = frank - 2
    elif irank:
        n = irank - 2
    else:
        raise ValueError("When `num_spatial_dims` is not set, one of `input.shape.rank` or `filters.shape.rank` "
                         f"must be known. Received: input.shape={input.shape} of rank {irank} and "
                         f"filters.shape={filter.shape} of rank {frank}")
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims={n}.")
    num_batch = irank - n - 1 if irank else 1
    channels_last = data_format is None or not data_format.startswith("NC")
    channel_index = num_batch + n if channels_last else num_batch
    dilated = rate is not None and any(int(d) != 1 for d in _get_sequence(rate, n, channel_index, "dilations"))
    rate = _get_sequence(rate, n, channel_index, "dilations")
    strides = _get_sequence(strides, n, channel_index, "strides")
    with name_scope(name, None if name else "convolution", [input, filter]) as name:
        if not dilated:
            if n == 2:
                if not isinstance(padding, (str, bytes)):  # gen_nn_ops.conv2d: a string attr
                    raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
                return conv2d(input, filter, strides, padding, data_format=data_format or "NHWC",
                              dilations=rate, name=name)
            if n == 3:
                from .conv3d_ops import conv3d
                return conv3d(input, filter, strides, padding, data_format=data_format or "NDHWC",
                              dilations=rate, name=name)
            return conv1d(input, filter, strides, padding, data_format=data_format, dilations=rate, name=name)
        if channel_index == 1:
            strides, rate = strides[2:], rate[2:]
        else:
            strides, rate = strides[1:-1], rate[1:-1]
        return _dilated_convolution(input, filter, padding, strides, rate, name, data_format, n, num_batch)


def _get_sequence(value, n, channel_index, name):
    """strides/dilations as an (n + 2)-list in data_format order from 1, n or n + 2 values."""
    if value is None:
        return [1] * (n + 2)
    value = [value] if isinstance(value, numbers.Integral) or not hasattr(value, "__len__") else list(value)
    if len(value) == n + 2:
        return value
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of length "
                         f"{len(value)}")
    return [1, 1] + value if channel_index == 1 else [1] + value + [1]


def _dilated_args(n, strides, rate):
    """TF's _get_strides_and_dilation_rate: both as int32 arrays of n, checked in TF's order."""
    if rate is None:
        rate = [1] * n
    elif len(rate) != n:
        raise ValueError(f"`len(dilation_rate)` should be {n}. Received: dilation_rate={rate} of length {len(rate)}")
    rate = np.array(rate, np.int32)
    if np.any(rate < 1):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: dilation_rate={rate}")
    if strides is None:
        strides = [1] * n
    elif len(strides) != n:
        raise ValueError(f"`len(strides)` should be {n}. Received: strides={strides} of length {len(strides)}")
    strides = np.array(strides, np.int32)
    if np.any(strides < 1):
        raise ValueError(f"all values of `strides` must be positive. Received: strides={strides}")
    if np.any(strides > 1) and np.any(rate > 1):
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={strides} and dilation_rate={rate}")
    return strides, rate


def _dilated_convolution(x, w, padding, strides, rate, name, data_format, n, num_batch):
    """TF's Convolution class: strides and rates per spatial dim, the op run by space_to_batch."""
    from .nn_misc_ops import space_to_batch_op
    strides, rate = _dilated_args(n, strides, rate)
    nc = data_format is not None and data_format.startswith("NC")
    spatial = range(num_batch + 1, n + num_batch + 1) if nc else range(num_batch, n + num_batch)
    s = [int(v) for v in strides]

    def build_op(_, pad):
        def op(inp, filt):
            if n == 1:
                return conv1d(inp, filt, s[0], pad, data_format=data_format, name=name)
            full = [1, 1] + s if nc else [1] + s + [1]
            if n == 2:
                return conv2d(inp, filt, full, pad, data_format=data_format or "NHWC", name=name)
            from .conv3d_ops import conv3d
            return conv3d(inp, filt, full, pad, data_format=data_format or "NDHWC", name=name)
        return op
    call = space_to_batch_op(x.shape, rate, padding, build_op, filter_shape=w.shape, spatial_dims=spatial,
                             data_format=data_format, num_batch_dims=num_batch)
    return call(x, w)


def conv2d_backprop_input(input_sizes, filter=None, out_backprop=None, strides=None,  # noqa: A002
                          padding=None, use_cudnn_on_gpu=True, data_format="NHWC", dilations=None,
                          name=None, filters=None):
    """The gradient of conv2d with respect to its input (shape `input_sizes`)."""
    if filter is None:
        filter = filters  # noqa: A001
    attrs = _conv_attrs(strides, padding, data_format, dilations, "Conv2DBackpropInput")
    dy = convert_to_tensor(out_backprop, name="out_backprop")
    w = convert_to_tensor(filter, dtype=dy.dtype.base_dtype, name="filter")
    sizes = convert_to_tensor(input_sizes, dtype=_dtypes.int32, name="input_sizes")
    return _make("Conv2DBackpropInput", [sizes, w, dy], name or "Conv2DBackpropInput", attrs)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
                           use_cudnn_on_gpu=True, data_format="NHWC", dilations=None, name=None):
    """The gradient of conv2d with respect to its filter (shape `filter_sizes`)."""
    attrs = _conv_attrs(strides, padding, data_format, dilations, "Conv2DBackpropFilter")
    x = convert_to_tensor(input, name="input")
    dy = convert_to_tensor(out_backprop, dtype=x.dtype.base_dtype, name="out_backprop")
    sizes = convert_to_tensor(filter_sizes, dtype=_dtypes.int32, name="filter_sizes")
    return _make("Conv2DBackpropFilter", [x, sizes, dy], name or "Conv2DBackpropFilter", attrs)


def conv2d_transpose(value=None, filter=None, output_shape=None, strides=None,  # noqa: A002
                     padding="SAME", data_format="NHWC", name=None, input=None, filters=None,
                     dilations=None):
    """The transpose (gradient) of conv2d: maps a conv2d *output*-shaped `value` to a tensor of
    shape `output_shape`; filter is [height, width, output_channels, in_channels]."""
    if value is None:
        value = input
    if filter is None:
        filter = filters  # noqa: A001
    with name_scope(name, "conv2d_transpose", [value, filter, output_shape]) as name:
        fmt = _norm_format(data_format)
        # TF 2.21 checks nothing here: the op's shape function does (conv2d_transpose_v2)
        attrs = _conv_attrs(strides, padding, fmt, dilations, "Conv2DBackpropInput")
        sizes = output_shape.as_list() if isinstance(output_shape, TensorShape) else output_shape
        if isinstance(sizes, Tensor) and sizes.dtype.base_dtype != _dtypes.int32:
            raise TypeError(f"Input 'input_sizes' of 'Conv2DBackpropInput' Op has type "
                            f"{sizes.dtype.base_dtype.name} that does not match expected type of int32.")
        sizes = convert_to_tensor(sizes, dtype=_dtypes.int32, name="input_sizes")
        filter = convert_to_tensor(filter, name="filter")  # noqa: A001
        value = convert_to_tensor(value, dtype=filter.dtype.base_dtype, name="out_backprop")
        return _make("Conv2DBackpropInput", [sizes, filter, value], name, attrs)


def depthwise_conv2d_native(input, filter, strides, padding, data_format="NHWC",  # noqa: A002
                            dilations=None, name=None):
    """Depthwise 2-D convolution: out[n, i, j, c*M + m] = sum_{a, b} input[n, ., ., c] *
    filter[a, b, c, m] (each input channel convolved with its own M filters)."""
    attrs = _conv_attrs(strides, padding, data_format, dilations, "DepthwiseConv2dNative")
    x = convert_to_tensor(input, name="input")
    w = convert_to_tensor(filter, dtype=x.dtype.base_dtype, name="filter")
    _check_dtype(x, "input", ("float16", "bfloat16", "float32", "float64"))
    return _make("DepthwiseConv2dNative", [x, w], name or "DepthwiseConv2dNative", attrs)


def depthwise_conv2d_native_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                                           padding, data_format="NHWC", dilations=None, name=None):
    attrs = _conv_attrs(strides, padding, data_format, dilations, "DepthwiseConv2dNativeBackpropInput")
    dy = convert_to_tensor(out_backprop, name="out_backprop")
    w = convert_to_tensor(filter, dtype=dy.dtype.base_dtype, name="filter")
    sizes = convert_to_tensor(input_sizes, dtype=_dtypes.int32, name="input_sizes")
    return _make("DepthwiseConv2dNativeBackpropInput", [sizes, w, dy],
                 name or "DepthwiseConv2dNativeBackpropInput", attrs)


def depthwise_conv2d_native_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa: A002
                                            padding, data_format="NHWC", dilations=None, name=None):
    attrs = _conv_attrs(strides, padding, data_format, dilations, "DepthwiseConv2dNativeBackpropFilter")
    x = convert_to_tensor(input, name="input")
    dy = convert_to_tensor(out_backprop, dtype=x.dtype.base_dtype, name="out_backprop")
    sizes = convert_to_tensor(filter_sizes, dtype=_dtypes.int32, name="filter_sizes")
    return _make("DepthwiseConv2dNativeBackpropFilter", [x, sizes, dy],
                 name or "DepthwiseConv2dNativeBackpropFilter", attrs)


def _rate(rate, dilations):
    if rate is not None and dilations is not None:
        raise ValueError("Cannot specify both 'rate' and 'dilations'")
    r = rate if rate is not None else dilations
    if r is None:
        return [1, 1]
    if isinstance(r, numbers.Integral):
        return [int(r)] * 2
    r = [int(v) for v in r]
    return r if len(r) == 2 else [r[0]] * 2


def depthwise_conv2d(input, filter, strides, padding, rate=None, name=None,  # noqa: A002
                     data_format=None, dilations=None):
    """tf.nn.depthwise_conv2d: the depthwise convolution with atrous `rate` (dilation), built as
    TF builds it: DepthwiseConv2dNative between SpaceToBatchND and BatchToSpaceND when rate > 1."""
    from .nn_misc_ops import with_space_to_batch
    with name_scope(name, "depthwise", [input, filter]) as name:
        x = convert_to_tensor(input, name="tensor_in")
        w = convert_to_tensor(filter, name="filter_in")

        def op(converted, _, pad):
            return depthwise_conv2d_native(converted, w, strides, pad, data_format=data_format or "NHWC",
                                           name=name)
        return with_space_to_batch(x, _rate(rate, dilations), padding, op, filter_shape=_array().shape(w),
                                   data_format=data_format)


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,  # noqa: A002
                     rate=None, name=None, data_format=None, dilations=None):
    """Depthwise convolution followed by a 1x1 (pointwise) convolution mixing channels."""
    with name_scope(name, "separable_conv2d", [input, depthwise_filter, pointwise_filter]) as name:
        x = convert_to_tensor(input, name="tensor_in")
        dw = convert_to_tensor(depthwise_filter, dtype=x.dtype.base_dtype, name="depthwise_filter")
        pw = convert_to_tensor(pointwise_filter, dtype=x.dtype.base_dtype, name="pointwise_filter")
        ps = pw.shape
        if ps.ndims is not None:
            pd = ps.with_rank(4).as_list()
            if pd[0] not in (1, None) or pd[1] not in (1, None):
                raise ValueError(f"Dimensions must be equal, but are {pd[0]} and 1")
        from .nn_misc_ops import with_space_to_batch

        def op(converted, _, pad):
            return depthwise_conv2d_native(converted, dw, strides, pad, data_format=data_format or "NHWC",
                                           name="depthwise")
        depthwise = with_space_to_batch(x, _rate(rate, dilations), padding, op, filter_shape=_array().shape(dw),
                                        data_format=data_format)
        return conv2d(depthwise, pw, [1, 1, 1, 1], padding="VALID", data_format=data_format or "NHWC",
                      name=name)


def conv1d(value=None, filters=None, stride=None, padding=None, use_cudnn_on_gpu=None,
           data_format=None, name=None, input=None, dilations=None):  # noqa: A002
    """1-D convolution of [batch, width, in_channels] ("NWC") or [batch, in_channels, width]
    ("NCW") by [width, in_channels, out_channels]: an expanded conv2d, as TF builds it."""
    if value is None:
        value = input
    if data_format is None or data_format in ("NHWC", "NWC"):
        fmt2, axis = "NHWC", -3
    elif data_format in ("NCHW", "NCW"):
        fmt2, axis = "NCHW", -2
    else:
        raise ValueError("data_format must be \"NWC\" or \"NCW\".")
    a = _array()
    with name_scope(name, "conv1d", [value, filters]) as name:
        s = [int(stride)] if isinstance(stride, numbers.Integral) else [int(v) for v in stride]
        if len(s) == 1:
            strides = [1, 1, s[0], 1] if fmt2 == "NHWC" else [1, 1, 1, s[0]]
        elif len(s) == 3:
            strides = [1, 1, s[1], 1] if fmt2 == "NHWC" else [1, 1, 1, s[2]]
        else:
            raise ValueError(f"stride should be of length 1 or 3 but was {len(s)}")
        d = 1 if dilations is None else (int(dilations) if isinstance(dilations, numbers.Integral)
                                         else int(list(dilations)[-1 if fmt2 == "NHWC" else -1]))
        dil = [1, 1, d, 1] if fmt2 == "NHWC" else [1, 1, 1, d]
        value = a.expand_dims(value, axis)
        filters = a.expand_dims(filters, 0)
        if not isinstance(padding, (str, bytes)):  # gen_nn_ops.conv2d: a string attr, as in TF
            raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
        if value.shape.ndims is None or value.shape.ndims <= 4:
            result = conv2d(value, filters, strides, padding, data_format=fmt2, dilations=dil, name=name)
        else:
            result = squeeze_batch_dims(value, lambda v: conv2d(v, filters, strides, padding, data_format=fmt2,
                                                                dilations=dil), inner_rank=3, name=name)
        return a.squeeze(result, [axis])


def squeeze_batch_dims(inp, op, inner_rank, name=None):
    """op on `inp` with its leading (batch) dimensions folded into one, then unfolded: TF's
    nn_ops.squeeze_batch_dims, by which conv1d takes inputs of rank > 3."""
    a = _array()
    with name_scope(name, "squeeze_batch_dims", [inp]):
        inp = convert_to_tensor(inp, name="input")
        shape = inp.shape
        inner = shape[-inner_rank:]
        if not inner.is_fully_defined():
            inner = a.shape(inp)[-inner_rank:]
        batch = shape[:-inner_rank]
        if not batch.is_fully_defined():
            batch = a.shape(inp)[:-inner_rank]
        if isinstance(inner, TensorShape):
            reshaped = a.reshape(inp, [-1] + inner.as_list())
        else:
            reshaped = a.reshape(inp, a.concat(([-1], inner), axis=-1))
        out = op(reshaped)
        out_inner = out.shape[-inner_rank:]
        if not out_inner.is_fully_defined():
            out_inner = a.shape(out)[-inner_rank:]
        out = a.reshape(out, a.concat((batch.as_list() if isinstance(batch, TensorShape) else batch,
                                       out_inner.as_list() if isinstance(out_inner, TensorShape) else out_inner),
                                      axis=-1))
        out.set_shape(inp.shape[:-inner_rank].concatenate(out.shape[-inner_rank:]))
        return out


def atrous_conv2d(value, filters, rate, padding, name=None):
    """Dilated ("atrous") 2-D convolution: tf.nn.convolution with dilation_rate (rate, rate)."""
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: padding={padding}")
    return convolution(value, filters, padding, dilation_rate=[int(rate)] * 2
                       if isinstance(rate, numbers.Integral) else [int(r) for r in rate], name=name)
