"""Pooling ops: max_pool, avg_pool, max_pool_with_argmax (and max_pool2d / avg_pool2d aliases).

Primitive ops (kernels in kernels/cpu/pooling.py): MaxPool, AvgPool, MaxPoolWithArgmax and
the gradient ops MaxPoolGrad, AvgPoolGrad, MaxPoolGradGrad (second order of max pooling, as
TF), MaxPoolGradWithArgmax. AvgPoolGrad's gradient is AvgPool.
"""

import collections
import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import name_scope
from ..framework.op_util import apply_op, check_allowed
from ..framework.tensor_shape import TensorShape, unknown_shape
from .conv_ops import _check_explicit, _norm_format, _out_dim, _padding, _spatial_idx

__all__ = ["max_pool", "max_pool2d", "avg_pool", "avg_pool2d", "max_pool_with_argmax",
           "max_pool1d", "avg_pool1d", "pool",
           "max_pool_v2", "avg_pool_v2"]


def _array():
    from . import array_ops
    return array_ops


def _pool_shape(op, in_shape):
    if in_shape.ndims is not None and in_shape.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {in_shape.ndims}")
    a = op._attrs
    fmt = a["data_format"]
    _check_explicit(op)
    hi, wi, ci = _spatial_idx(fmt)
    dims = in_shape.as_list() if in_shape.ndims is not None else [None] * 4
    k, s = a["ksize"], a["strides"]
    ex = a.get("explicit_paddings") or [0] * 8
    out = list(dims)
    out[hi] = _out_dim(dims[hi], k[hi], s[hi], 1, a["padding"], ex[2 * hi:2 * hi + 2])
    out[wi] = _out_dim(dims[wi], k[wi], s[wi], 1, a["padding"], ex[2 * wi:2 * wi + 2])
    return TensorShape(out)


registry.register_op("MaxPool", shape_fn=lambda op: [_pool_shape(op, op._inputs[0]._shape)])
registry.register_op("AvgPool", shape_fn=lambda op: [_pool_shape(op, op._inputs[0]._shape)])
registry.register_op("MaxPoolWithArgmax",
                     shape_fn=lambda op: [_pool_shape(op, op._inputs[0]._shape)] * 2)
registry.register_op("MaxPoolGrad", shape_fn=lambda op: [op._inputs[0]._shape])
registry.register_op("MaxPoolGradGrad", shape_fn=lambda op: [op._inputs[1]._shape])
registry.register_op("MaxPoolGradWithArgmax", shape_fn=lambda op: [op._inputs[0]._shape])


def _avg_grad_shape(op):
    v = constant_value(op._inputs[0])
    if v is None:
        return [unknown_shape(rank=4)]
    return [TensorShape([int(d) for d in np.asarray(v).reshape(-1)])]


registry.register_op("AvgPoolGrad", shape_fn=_avg_grad_shape)


def _attrs_of(op, keys=("ksize", "strides", "padding", "data_format", "explicit_paddings")):
    return {k: op._get_attr(k) for k in keys if k in op._attrs}


def _make(op_type, inputs, out_dtypes, name, attrs, dt):
    a = {"T": dt}
    a.update(attrs)
    return apply_op(op_type, inputs, out_dtypes, name, attrs=a)


@registry.register_gradient("MaxPool")
def _max_pool_grad(op, grad):
    dt = grad.dtype.base_dtype
    return [_make("MaxPoolGrad", [op.inputs[0], op.outputs[0], grad], [dt], "MaxPoolGrad",
                  _attrs_of(op), dt)]


@registry.register_gradient("MaxPoolGrad")
def _max_pool_grad_grad(op, grad):
    a = _array()
    dt = grad.dtype.base_dtype
    return [a.zeros_like(op.inputs[0]), a.zeros_like(op.inputs[1]),
            _make("MaxPoolGradGrad", [op.inputs[0], op.inputs[1], grad], [dt], "MaxPoolGradGrad",
                  _attrs_of(op), dt)]


@registry.register_gradient("MaxPoolGradGrad")
def _max_pool_grad_grad_grad(op, grad):
    a = _array()
    dt = grad.dtype.base_dtype
    return [a.zeros_like(op.inputs[0]), a.zeros_like(op.inputs[1]),
            _make("MaxPoolGrad", [op.inputs[0], op.inputs[1], grad], [dt], "MaxPoolGrad",
                  _attrs_of(op), dt)]


@registry.register_gradient("AvgPool")
def _avg_pool_grad(op, grad):
    dt = grad.dtype.base_dtype
    out = _make("AvgPoolGrad", [_array().shape(op.inputs[0]), grad], [dt], "AvgPoolGrad",
                _attrs_of(op), dt)
    out.set_shape(op.inputs[0].shape)
    return [out]


@registry.register_gradient("AvgPoolGrad")
def _avg_pool_grad_grad(op, grad):
    dt = grad.dtype.base_dtype
    return [None, _make("AvgPool", [grad], [dt], "AvgPool", _attrs_of(op), dt)]


@registry.register_gradient("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op, grad, unused_argmax_grad=None):
    dt = grad.dtype.base_dtype
    attrs = _attrs_of(op, ("ksize", "strides", "padding", "include_batch_in_index"))
    attrs["Targmax"] = op._get_attr("Targmax")
    return [_make("MaxPoolGradWithArgmax", [op.inputs[0], grad, op.outputs[1]], [dt],
                  "MaxPoolGradWithArgmax", attrs, dt)]


registry.no_gradient("MaxPoolGradWithArgmax")


# -- public functions --------------------------------------------------------------------------

def _ksize(value, name, fmt, n=2):
    """TF's _get_sequence: None, an int or a length 1 / n / n+2 sequence -> an (n+2)-list with
    1 for batch and channels (a full-length sequence is taken as given)."""
    if value is None:
        return [1] * (n + 2)
    value = [value] if isinstance(value, numbers.Integral) or not hasattr(value, "__len__") else list(value)
    if len(value) == n + 2:
        return [int(v) for v in value]
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of length "
                         f"{len(value)}")
    value = [int(v) for v in value]
    return [1, 1] + value if fmt.startswith("NC") else [1] + value + [1]


def _pool(op_type, value, ksize, strides, padding, data_format, name):
    """TF's v1 max_pool / avg_pool: the name scope opens first (a Python input becomes
    <name>/input or <name>/value, and a call that fails on its arguments still takes the name);
    the rank is the op's shape function's to check."""
    fmt = _norm_format(data_format if data_format not in ("NWC", "NCW") else None)
    with name_scope(name, op_type, [value]) as scope:
        attrs = {"ksize": _ksize(ksize, "ksize", fmt), "strides": _ksize(strides, "strides", fmt)}
        if op_type == "MaxPool":
            pad, explicit = _padding(padding, fmt, op_type)
            if any(v == 0 for v in attrs["ksize"]):
                raise ValueError(f"`ksize` cannot be zero. Received: ksize={attrs['ksize']}")
            attrs["explicit_paddings"] = explicit
        elif not isinstance(padding, (str, bytes)):  # AvgPool's padding attr is a plain string
            raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
        x = convert_to_tensor(value, name="input" if op_type == "MaxPool" else "value")
        if op_type != "MaxPool":
            check_allowed("value", x.dtype, ("float16", "bfloat16", "float32", "float64"))
            pad, _ = _padding(padding, fmt, op_type)
        attrs.update(padding=pad, data_format=fmt)
        dt = x.dtype.base_dtype
        return _make(op_type, [x], [dt], scope, attrs, dt)


def max_pool(value=None, ksize=None, strides=None, padding=None, data_format="NHWC", name=None,
             input=None):  # noqa: A002
    """Max over each ksize window, windows `strides` apart (padding: "SAME" or "VALID" or
    explicit pairs; padded positions never win)."""
    if value is None:
        value = input
    return _pool("MaxPool", value, ksize, strides, padding, data_format, name or "MaxPool")


def avg_pool(value=None, ksize=None, strides=None, padding=None, data_format="NHWC", name=None,
             input=None):  # noqa: A002
    """Mean over each ksize window (with SAME padding: over the window's real elements only)."""
    if value is None:
        value = input
    return _pool("AvgPool", value, ksize, strides, padding, data_format, name or "AvgPool")


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return max_pool(input, ksize, strides, padding, data_format=data_format,
                    name=name or "MaxPool2d")


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):  # noqa: A002
    return avg_pool(input, ksize, strides, padding, data_format=data_format, name=name)


def _pool_v2(input, ksize, strides, padding, data_format, name, ops):  # noqa: A002
    """TF 2's N-D tf.nn.max_pool / avg_pool (compat.v1 max_pool_v2 / avg_pool_v2): the rank
    of `input` picks the 1-D, 2-D or 3-D pool."""
    if input.shape is not None:
        n = len(input.shape) - 2
    elif data_format is not None:
        n = len(data_format) - 2
    else:
        raise ValueError("`input` must have a static shape or a data format must be given. "
                         f"Received: input.shape={input.shape} and data_format={data_format}")
    if not 1 <= n <= 3:
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: input.shape={input.shape} of rank "
                         f"{n + 2}.")
    fmt = "NC" if data_format is not None and data_format.startswith("NC") else "N"
    ksize = _ksize(ksize, "ksize", fmt, n)
    strides = _ksize(strides, "strides", fmt, n)
    if isinstance(padding, (list, tuple)) and n == 3 and ops[3].__name__ == "max_pool3d":
        raise ValueError(f"Explicit padding is not supported with an input tensor of rank 5. Received: "
                         f"padding={padding}")
    if n == 2 and ops[2] is avg_pool and not isinstance(padding, (str, bytes)):
        # (TF calls the AvgPool op wrapper itself, which checks its string attr before any scope)
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    kwargs = {} if data_format is None else {"data_format": data_format}
    return ops[n](input, ksize, strides, padding, name=name, **kwargs)


def max_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    from .conv3d_ops import max_pool3d
    return _pool_v2(input, ksize, strides, padding, data_format, name, {1: max_pool1d, 2: max_pool2d, 3: max_pool3d})


def avg_pool_v2(input, ksize, strides, padding, data_format=None, name=None):  # noqa: A002
    from .conv3d_ops import avg_pool3d
    return _pool_v2(input, ksize, strides, padding, data_format, name, {1: avg_pool1d, 2: avg_pool, 3: avg_pool3d})


_MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])


def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC", Targmax=None,  # noqa: A002,N803
                         name=None, output_dtype=None, include_batch_in_index=False):
    """(max_pool output, argmax): argmax is the flat index ((b * H + y) * W + x) * C + c of each
    maximum, without the batch term unless include_batch_in_index. ksize and strides go to the op
    as given: 4-lists."""
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")
    if Targmax is not None and output_dtype is not None and Targmax != output_dtype:
        raise ValueError("Cannot specify both 'Targmax' and 'output_dtype'")
    targ = _dtypes.as_dtype(output_dtype or Targmax or _dtypes.int64)
    for what, v in (("ksize", ksize), ("strides", strides)):
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"Expected list for '{what}' argument to 'max_pool_with_argmax' Op, not {v!r}.")
    with name_scope(name, "MaxPoolWithArgmax", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        dt = x.dtype.base_dtype
        pad, _ = _padding(padding, "NHWC", "MaxPoolWithArgmax")
        attrs = {"ksize": [int(v) for v in ksize], "strides": [int(v) for v in strides], "padding": pad,
                 "Targmax": targ, "include_batch_in_index": bool(include_batch_in_index), "data_format": "NHWC"}
        return _MaxPoolWithArgmax(*_make("MaxPoolWithArgmax", [x], [dt, targ], scope, attrs, dt))


def _pool1d(op_type, input, ksize, strides, padding, data_format, name, scope):  # noqa: A002
    """As TF: ExpandDims a height of 1, the 2-D pool named by the scope itself, Squeeze
    ("<scope>/Squeeze:0")."""
    a = _array()
    with name_scope(name, scope, [input]) as name:
        if data_format is None:
            data_format = "NWC"
        nc = data_format.startswith("NC")
        ksize = [1] + _ksize(ksize, "ksize", "NC" if nc else "N", 1)
        strides = [1] + _ksize(strides, "strides", "NC" if nc else "N", 1)
        expand_dim = 1 if data_format == "NWC" else 2
        fmt = "NHWC" if data_format == "NWC" else "NCHW"
        attrs = {"ksize": ksize, "strides": strides, "data_format": fmt}
        if op_type == "MaxPool":
            if isinstance(padding, (list, tuple)):
                if len(padding) != 3 and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in padding):
                    raise ValueError(f"When padding is a list, it must be of size 3. Received: padding={padding} "
                                     f"of size {len(padding)}")
                padding = [[0, 0]] + list(padding)
            attrs["padding"], attrs["explicit_paddings"] = _padding(padding, fmt, op_type)
        x = a.expand_dims(input, expand_dim)
        if op_type != "MaxPool":
            if not isinstance(padding, (str, bytes)):
                raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
            attrs["padding"], _ = _padding(padding, fmt, op_type)
        dt = x.dtype.base_dtype
        return a.squeeze(_make(op_type, [x], [dt], name, attrs, dt), [expand_dim])


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Max pooling of [batch, width, channels] (NWC) or [batch, channels, width] (NCW)."""
    return _pool1d("MaxPool", input, ksize, strides, padding, data_format, name, "MaxPool1d")


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):  # noqa: A002
    """Average pooling of [batch, width, channels] (NWC) or [batch, channels, width] (NCW)."""
    return _pool1d("AvgPool", input, ksize, strides, padding, data_format, name, "AvgPool1D")


def pool(input, window_shape, pooling_type, padding, dilation_rate=None, strides=None,  # noqa: A002
         name=None, data_format=None, dilations=None):
    """tf.nn.pool for 1-D, 2-D and 3-D windows ("MAX" or "AVG"): the pool op takes the scope's name
    ("max_pool:0" / "avg_pool:0"), as in TF. With `dilation_rate` > 1 (VALID padding, unit
    strides) the window has holes: the pool runs between SpaceToBatchND and BatchToSpaceND
    (with_space_to_batch), as TF builds it."""
    from .conv_ops import _dilated_args
    from .nn_misc_ops import with_space_to_batch
    if dilation_rate is not None and dilations is not None:
        raise ValueError("Cannot specify both 'dilation_rate' and 'dilations'")
    dilation_rate = dilation_rate if dilation_rate is not None else dilations
    with name_scope(name, "%s_pool" % str(pooling_type).lower(), [input]) as scope:
        x = convert_to_tensor(input, name="input")
        n = len(window_shape)
        if n < 1 or n > 3:
            raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: window_shape={window_shape} of "
                             f"length {n}")
        x.shape.with_rank(n + 2)
        strides, dilation = _dilated_args(n, strides, dilation_rate)
        if padding == "SAME" and np.any(dilation > 1):
            raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. "
                             f"Received: padding={padding} and dilation_rate={dilation}")
        if np.any(strides > window_shape):
            raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                             f"implementations. Received: strides={strides} and window_shape={window_shape}")
        if pooling_type not in ("MAX", "AVG"):
            raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
        nc = data_format is not None and data_format.startswith("NC")
        if n == 1 and data_format not in (None, "NWC", "NCW"):
            raise ValueError(f"data_format must be either 'NWC' or 'NCW'. Received: data_format={data_format}")
        window = [int(v) for v in window_shape]
        unit = [int(v) for v in strides]

        def op(converted, _, pad):
            return _plain_pool(converted, window, pooling_type, pad, unit, data_format, scope)
        return with_space_to_batch(x, dilation, padding, op, spatial_dims=range(2, n + 2) if nc else range(1, n + 1),
                                   filter_shape=window_shape)


def _np_str(values):
    return "[" + " ".join(str(v) for v in values) + "]"


def _plain_pool(x, window_shape, pooling_type, padding, strides, data_format, scope):
    n = len(window_shape)
    if n == 1:
        fmt = "NCW" if data_format is not None and data_format.startswith("NC") else "NWC"
        fn = max_pool1d if pooling_type == "MAX" else avg_pool1d
        return fn(x, window_shape, strides, padding, data_format=fmt, name=scope)
    if n == 3:
        from . import conv3d_ops
        fn = conv3d_ops.max_pool3d if pooling_type == "MAX" else conv3d_ops.avg_pool3d
        return fn(x, [1, *window_shape, 1], [1, *strides, 1], padding,
                  data_format=data_format or "NDHWC", name=scope)
    fmt = data_format or "NHWC"
    fn = max_pool if pooling_type == "MAX" else avg_pool
    return fn(x, window_shape, strides, padding, data_format=fmt, name=scope)
