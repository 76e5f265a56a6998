"""Array ops that lay values out along an axis: range, linspace, one_hot, pad, reverse.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, note_input_value, unknown_shape
from .array_ops import _base, _graph, _index_tensor, _op_input, rank, shape, _static_int, _STATIC_LIMIT, _to_tensor


# -- range, linspace -------------------------------------------------------------------------

def _fmt_num(v):
    """A number as TF's C++ StrCat prints it (%g-like: 1, 2.5)."""
    return f"{v:g}" if isinstance(v, float) else str(v)


def _range_size(start, limit, delta, integer):
    if delta == 0:
        raise ValueError("Requires delta != 0")
    if delta > 0 and start > limit:
        raise ValueError(f"Requires start <= limit when delta > 0: {_fmt_num(start)}/{_fmt_num(limit)}")
    if delta < 0 and start < limit:
        raise ValueError(f"Requires start >= limit when delta < 0: {_fmt_num(start)}/{_fmt_num(limit)}")
    if integer:
        return (abs(limit - start) + abs(delta) - 1) // abs(delta)
    return int(np.ceil(abs((limit - start) / delta)))


def _range_shape(op):
    vals = [constant_value(t) for t in op.inputs]
    for t, arg in zip(op.inputs, ("start", "limit", "delta")):
        if t.shape.ndims not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {t.shape.ndims}\n\t for '{arg}'")
    if any(v is None for v in vals):
        return [unknown_shape(1)]
    for i, v in enumerate(vals):
        note_input_value(i, v)
    s, l, d = (v.item() for v in map(np.asarray, vals))
    return [TensorShape([_range_size(s, l, d, _base(op.outputs[0]).is_integer)])]


registry.register_op("Range", shape_fn=_range_shape)
registry.no_gradient("Range")


@registry.register_static_value("Range")
def _range_value(op, value_of):
    vals = [value_of(t) for t in op.inputs]
    if any(v is None for v in vals):
        return None
    dt = _base(op.outputs[0])
    s, l, d = (np.asarray(v).item() for v in vals)
    n = _range_size(s, l, d, dt.is_integer)
    if n > _STATIC_LIMIT:
        return None
    return (np.asarray(s, dt.as_numpy_dtype) + np.arange(n, dtype=dt.as_numpy_dtype) * np.asarray(d, dt.as_numpy_dtype)
            ).astype(dt.as_numpy_dtype)


_RANGE_ORDER = [_dtypes.int32, _dtypes.int64, _dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64]


def _cast(t, dtype):
    if _base(t) == dtype:
        return t
    # A Cast op even for a constant, as TF's range builds ("range/Cast"; op count and names).
    from . import math_ops
    return math_ops.cast(t, dtype)


def range(start, limit=None, delta=1, dtype=None, name="range"):
    """[start, start + delta, ...) up to (excluding) `limit`; `range(n)` counts from 0. The dtype
    is the widest of the arguments' (int32 < int64 < float16 < bfloat16 < float32 < float64) unless given."""
    if limit is None:
        start, limit = 0, start
    g = _graph()
    with g.name_scope(name or "range") as scope:
        dt = _dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
        args = []
        for v, n in ((start, "start"), (limit, "limit"), (delta, "delta")):
            args.append(v if isinstance(v, Tensor) else _to_tensor(v, name=n, dtype=dt))
        if dt is None:
            for a in args:
                if _base(a) not in _RANGE_ORDER:
                    # TF's range asserts this (a bare AssertionError)
                    raise AssertionError()
            dt = max((_base(a) for a in args), key=_RANGE_ORDER.index)
        if dt.name not in _RANGE_TYPES:
            raise TypeError(f"Value passed to parameter 'start' has DataType {dt.name} not in list of allowed "
                            f"values: {', '.join(_RANGE_TYPES)}")
        args = [_cast(a, dt) for a in args]
        return apply_op("Range", args, [dt], scope, attrs={"Tidx": dt})


_RANGE_TYPES = ("bfloat16", "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint16",
                "uint32", "uint64")   # (Range's Tidx: no uint8)


def _linspace_shape(op):
    n = _static_int(op.inputs[2])
    return [TensorShape([n])]


registry.register_op("LinSpace", shape_fn=_linspace_shape)
registry.no_gradient("LinSpace")


@registry.register_static_value("LinSpace")
def _linspace_value(op, value_of):
    a, b, n = (value_of(t) for t in op.inputs)
    if a is None or b is None or n is None or int(n) > _STATIC_LIMIT:
        return None
    return np.linspace(a, b, int(n)).astype(np.asarray(a).dtype)


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` inclusive along `axis` (TF 2's linspace_nd,
    which compat.v1 exports as tf.linspace: the same small ops under the name scope "linspace",
    so the result is "linspace/Slice:0"; integer ends give float64 like TF)."""
    from . import math_ops as m
    from .array_gather_ops import broadcast_to
    from .array_join_ops import concat
    from .array_misc_ops import FOLDED_SELECTS, broadcast_dynamic_shape, where_v2
    from .array_ops import zeros_like
    from .array_reshape_ops import expand_dims, reshape
    from .array_slice_ops import slice as _slice
    from ..framework.graph import name_scope
    with name_scope(name, "linspace", [start, stop]):
        start = _to_tensor(start, name="start")
        stop = _to_tensor(stop, name="stop", dtype=_base(start))
        num_int = _to_tensor(num, name="num")
        if not _base(num_int).is_integer:
            raise TypeError(f"Value passed to parameter 'num' has DataType {_base(num_int).name} not in list "
                            "of allowed values: int32, int64")
        # TF's convert_to_int_tensor: a generated Cast op, even from int32 to int32
        num_int = apply_op("Cast", [num_int], [_dtypes.int32], "Cast",
                           attrs={"SrcT": _base(num_int), "DstT": _dtypes.int32, "Truncate": False})
        num_f = m.cast(num_int, dtype=_base(start))
        del num_f  # TF builds this cast and does not use it
        bshape = broadcast_dynamic_shape(shape(start), shape(stop))
        start_b = broadcast_to(start, bshape)
        stop_b = broadcast_to(stop, bshape)
        e_start = expand_dims(start_b, axis=axis)
        e_stop = expand_dims(stop_b, axis=axis)
        shp = shape(e_start)
        ndims = shape(shp)[0]
        axis_t = where_v2(axis >= 0, axis, ndims + axis)
        num_fill = m.maximum(num_int - 2, 0)
        n_steps = m.maximum(num_int - 1, 1)
        delta = (e_stop - e_start) / m.cast(n_steps, e_stop.dtype)
        e_start = m.cast(e_start, delta.dtype)
        e_stop = m.cast(e_stop, delta.dtype)
        range_end = where_v2(num_int >= 0, n_steps, -1)
        FOLDED_SELECTS.add(range_end.op)   # TF folds this one in shape inference (see SelectV2)
        desired = m.cast(range(1, range_end, dtype=_dtypes.int64), delta.dtype)
        mask = m.equal(axis_t, range(ndims))
        desired = reshape(desired, where_v2(mask, num_fill, 1))
        res = e_start + delta * desired
        concatenated = concat((e_start, res, e_stop), axis=axis_t)
        begin = zeros_like(shp)
        head = shp[0:axis_t]  # built before the reshape of num, as in TF
        n1 = reshape(num_int, [1])
        if _base(n1) != _base(shp):
            n1 = m.cast(n1, _base(shp))
        size = concat((head, n1, shp[axis_t + 1:]), axis=0)
        out = _slice(concatenated, begin, size)
        n = _static_int(num_int)
        es = e_start.shape
        if n is not None and n >= 0 and es.ndims is not None:
            dims = es.as_list()
            dims[axis % len(dims)] = n
            out.set_shape(dims)
        return out


lin_space = linspace


# -- one_hot, pad, reverse -------------------------------------------------------------------

def _one_hot_shape(op):
    indices, depth_t = op.inputs[0], op.inputs[1]
    axis = op._get_attr("axis")
    depth = _static_int(depth_t)
    if axis < -1:
        raise ValueError("axis must be >= -1")
    note_input_value(1, constant_value(depth_t))
    if depth is not None and depth < 0:
        raise ValueError(f"Dimension size, given by scalar input 1, must be non-negative but is {depth}")
    s = indices.shape
    if s.ndims is None:
        return [unknown_shape()]
    # TF's shape function wraps an axis past the new rank around ((axis + rank) % rank) instead
    # of rejecting it; the kernel checks it at run time
    a = (axis + s.ndims + 1) % (s.ndims + 1)
    dims = s.as_list()
    return [TensorShape(dims[:a] + [depth] + dims[a:])]


registry.register_op("OneHot", shape_fn=_one_hot_shape)
registry.no_gradient("OneHot")


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """out[..., i, ...] = on_value where indices == i, else off_value (a new axis of size
    `depth` at `axis`, last by default). Indices outside [0, depth) give all off_value."""
    g = _graph()
    with g.name_scope(name or "one_hot") as scope:
        # TF converts given on/off values first (unnamed: "Const", with dtype as a hint), checks
        # their dtypes, and only then makes the defaults ("on_value"/"off_value") of the dtype
        dtype = _dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
        on_exists, off_exists = on_value is not None, off_value is not None
        if on_exists:
            on_value = convert_to_tensor(on_value, dtype_hint=dtype)
        if off_exists:
            off_value = convert_to_tensor(off_value, dtype_hint=dtype)
        on_dt = _base(on_value) if on_exists else None
        off_dt = _base(off_value) if off_exists else None
        if on_exists or off_exists:
            if dtype is not None:
                if on_exists and on_dt != dtype:
                    raise TypeError(f"dtype {on_dt} of on_value does not match dtype parameter {dtype}")
                if off_exists and off_dt != dtype:
                    raise TypeError(f"dtype {off_dt} of off_value does not match dtype parameter {dtype}")
            else:
                dtype = on_dt if on_exists else off_dt
            if on_exists and off_exists and on_dt != off_dt:
                raise TypeError(f"dtype {on_dt} of on_value does not match dtype {off_dt} of off_value")
        elif dtype is None:
            dtype = _dtypes.float32
        if not on_exists:
            on_value = convert_to_tensor(1, dtype, name="on_value")
        if not off_exists:
            off_value = convert_to_tensor(0, dtype, name="off_value")
        indices = _to_tensor(indices, name="indices")
        if _base(indices) not in (_dtypes.uint8, _dtypes.int8, _dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'indices' has DataType {_base(indices).name} not in "
                            "list of allowed values: uint8, int8, int32, int64")
        if isinstance(depth, Tensor) and _base(depth) != _dtypes.int32:
            raise TypeError(f"Input 'depth' of 'OneHot' Op has type {_base(depth).name} that does not match "
                            "expected type of int32.")
        depth = _op_input(depth, "depth", "OneHot", dtype=_dtypes.int32)
        return apply_op("OneHot", [indices, depth, on_value, off_value], [dtype], scope,
                        attrs={"T": dtype, "TI": _base(indices), "axis": -1 if axis is None else int(axis)})


def _to_dtype_of(value):
    from ..framework.constant_op import to_numpy
    return to_numpy(value)[1]


def _pad_shape(op):
    x, p = op.inputs[0], op.inputs[1]
    if p.shape.ndims not in (None, 2):
        raise ValueError(f"Shape must be rank 2 but is rank {p.shape.ndims}")
    n = x.shape.ndims
    rows = p.shape[0].value if p.shape.ndims == 2 else None
    if p.shape.ndims == 2 and p.shape[1].value not in (None, 2):
        raise ValueError(f"Dimension must be 2 but is {p.shape[1].value}")
    if n is not None and rows is not None and n != rows:
        raise ValueError(f"Shape must be rank {rows} but is rank {n}")
    if n is None:
        n = rows
    if n is None:
        return [unknown_shape()]
    v = constant_value(p)
    dims = x.shape.as_list() if x.shape.ndims is not None else [None] * n
    if v is None:
        return [unknown_shape(n)]
    v = np.asarray(v)
    note_input_value(1, v)
    if (v < 0).any():
        raise ValueError("Paddings must be non-negative")
    # MirrorPad paddings larger than the dimension allows build (TF's shape function does not
    # check them); the kernel fails at run time.
    return [TensorShape([None if d is None else d + int(a) + int(b) for d, (a, b) in zip(dims, v.tolist())])]


registry.register_op("Pad", shape_fn=_pad_shape)
registry.register_op("PadV2", shape_fn=_pad_shape)
registry.register_op("MirrorPad", shape_fn=_pad_shape)


def _pad_grad_impl(op, grad):
    x, a = op.inputs[0], op.inputs[1]
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    # (TF builds these ops even for static paddings: the gradient is named ".../Slice_1")
    pad_before = slice(a, [0, 0], stack([rank(x), 1]))
    begin = reshape(pad_before, [-1])
    sizes = shape(x, out_type=_base(begin))
    return slice(grad, begin, sizes)


@registry.register_gradient("Pad")
def _pad_grad(op, grad):
    return [_pad_grad_impl(op, grad), None]


@registry.register_gradient("PadV2")
def _pad_v2_grad(op, grad):
    return [_pad_grad_impl(op, grad), None, None]


@registry.register_gradient("MirrorPad")
def _mirror_pad_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    mode = op._get_attr("mode")
    out = apply_op("MirrorPadGrad", [grad, op.inputs[1]], [_base(grad)], "MirrorPadGrad",
                   attrs={"T": _base(grad), "mode": mode, "Tpaddings": _base(op.inputs[1])})
    out.set_shape(op.inputs[0].shape)
    return [out, None]


registry.register_op("MirrorPadGrad", shape_fn=None)


@registry.register_gradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, grad):
    return [pad(grad, op.inputs[1], op._get_attr("mode")), None]


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """Pads `tensor` by paddings[i] = [before, after] along each dimension; mode CONSTANT (with
    `constant_values`), REFLECT (mirror excluding the edge) or SYMMETRIC (including it)."""
    m = mode.upper() if isinstance(mode, str) else mode
    g = _graph()
    if m == "CONSTANT":
        is_zero = not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0 and constant_values == 0
        op_type = "Pad" if is_zero else "PadV2"
        with g.name_scope(name or op_type) as scope:
            tensor = _to_tensor(tensor, name="input")
            p = _index_tensor(paddings, "paddings", "paddings", op_type)
            if is_zero:
                out = apply_op("Pad", [tensor, p], [_base(tensor)], scope,
                               attrs={"T": _base(tensor), "Tpaddings": _base(p)})
                return _restore_pad_shape(out, tensor, paddings)
            c = _op_input(constant_values, "constant_values", "PadV2", dtype=_base(tensor))
            out = apply_op("PadV2", [tensor, p, c], [_base(tensor)], scope,
                           attrs={"T": _base(tensor), "Tpaddings": _base(p)})
            return _restore_pad_shape(out, tensor, paddings)
    if m not in ("REFLECT", "SYMMETRIC"):
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or '
                         f'"SYMMETRIC". Received `mode` = {mode}')
    with g.name_scope(name or "MirrorPad") as scope:
        tensor = _to_tensor(tensor, name="input")
        p = _index_tensor(paddings, "paddings", "paddings", "MirrorPad")
        out = apply_op("MirrorPad", [tensor, p], [_base(tensor)], scope,
                       attrs={"T": _base(tensor), "Tpaddings": _base(p), "mode": m})
        return _restore_pad_shape(out, tensor, paddings)


def _partial_value(v):
    """`paddings` with every entry known while building as an int, others None (TF's
    constant_value(partial=True) applied through Python lists and Pack ops)."""
    if isinstance(v, (list, tuple)):
        return [_partial_value(x) for x in v]
    if not isinstance(v, Tensor):
        return v
    c = constant_value(v)
    if c is not None:
        return np.asarray(c).tolist()
    if v.op.type == "Pack" and v.op._get_attr("axis") == 0:
        return [_partial_value(x) for x in v.op.inputs]
    return None


def _restore_pad_shape(out, tensor, paddings):
    """TF's tf.pad sets the dimensions whose paddings are partly known while building."""
    in_shape = tensor.shape
    if in_shape.ndims is None or out.shape.is_fully_defined():
        return out
    pv = _partial_value(paddings)
    if pv is None or np.ndim(pv) == 0 and not isinstance(pv, list):
        return out
    dims = []
    for pad_, d in zip(pv, in_shape.as_list()):
        if pad_ is None or d is None or any(x is None for x in pad_):
            dims.append(None)
        else:
            dims.append(int(sum(pad_)) + d)
    out.set_shape(dims)
    return out


def _reverse_shape(op):
    x, a = op.inputs
    a.shape.require_rank(1)
    v = constant_value(a)
    n = x.shape.ndims
    if v is not None and n is not None:
        note_input_value(1, v)
        v = np.asarray(v).ravel()
        seen = set()
        for i, ax in enumerate(v.tolist()):
            if not -n <= ax < n:
                raise ValueError(f"'axis'[{i}] = {ax} is out of valid range [0, {n - 1}")
            if ax % n in seen:
                raise ValueError(f"axis {ax % n} specified more than once.")
            seen.add(ax % n)
    return [x.shape]


registry.register_op("ReverseV2", shape_fn=_reverse_shape)


@registry.register_static_value("ReverseV2")
def _reverse_value(op, value_of):
    v, a = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or a is None:
        return None
    return np.flip(v, axis=tuple(int(i) for i in np.asarray(a).ravel())) if np.size(a) else np.asarray(v)


@registry.register_gradient("ReverseV2")
def _reverse_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    return [reverse_v2(grad, op.inputs[1]), None]


def reverse_v2(tensor, axis, name=None):
    """Reverses `tensor` along each dimension listed in `axis`."""
    g = _graph()
    with g.name_scope(name or "ReverseV2") as scope:
        tensor = _to_tensor(tensor, name="tensor")
        a = _index_tensor(axis, "axis", "axis", "ReverseV2")
        return apply_op("ReverseV2", [tensor, a], [_base(tensor)], scope,
                        attrs={"T": _base(tensor), "Tidx": _base(a)})


reverse = reverse_v2


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and array_ops.py imports them all once its helpers exist.
from .array_reshape_ops import reshape  # noqa: E402
from .array_join_ops import stack  # noqa: E402
from .array_slice_ops import slice  # noqa: E402
