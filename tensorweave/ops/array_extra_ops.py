"""The less common array ops of TF1's top level: roll, repeat, searchsorted, unique_with_counts,
unravel_index, bitcast, histogram_fixed_width(_bins), tensor_scatter_nd_*, batch_gather,
space_to_depth/depth_to_space, space_to_batch(_nd)/batch_to_space(_nd), cross, complex,
ensure_shape, parallel_stack, is_tensor, get_static_value, to_complex64/128, to_bfloat16.

Op types, default names and static shapes follow TensorFlow 2.x's compat.v1 (recorded by running
the same calls under TensorFlow 2.21). Composite functions build the ops TF's Python builds, so
their results carry TF's names ("Repeat/Reshape_1", "BatchGather/Reshape_3").
"""

import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value
from ..framework.graph import Tensor
from ..framework.op_util import apply_op, broadcast_shape_fn, check_allowed, matching_input, unchanged_shape
from ..framework.tensor_shape import TensorShape, as_shape, inference_merge_error, note_input_value, unknown_shape
from .array_ops import (
    _base, _graph, _index_tensor, _static_int, _to_tensor, concat, expand_dims, gather,
    gather_nd, reshape, shape, stack, tile,
)
from .array_gather_ops import _check_scatter_nd_shapes

__all__ = [
    "roll", "repeat", "searchsorted", "unique_with_counts", "unravel_index", "bitcast",
    "histogram_fixed_width", "histogram_fixed_width_bins", "tensor_scatter_nd_update",
    "tensor_scatter_nd_add", "tensor_scatter_nd_sub", "tensor_scatter_nd_max", "tensor_scatter_nd_min",
    "tensor_scatter_update", "tensor_scatter_add", "tensor_scatter_sub", "batch_gather",
    "space_to_depth", "depth_to_space", "space_to_batch", "space_to_batch_nd", "batch_to_space",
    "batch_to_space_nd", "cross", "complex", "ensure_shape", "parallel_stack", "is_tensor",
    "get_static_value", "to_complex64", "to_complex128", "to_bfloat16",
]

_builtin_complex = complex


def _m():
    from . import math_ops
    return math_ops


def _identity(x):
    from .array_ops import identity
    return identity(x)


# -- roll ------------------------------------------------------------------------------------

registry.register_op("Roll", shape_fn=unchanged_shape)


@registry.register_gradient("Roll")
def _roll_grad(op, grad):
    shift, axis = op.inputs[1], op.inputs[2]
    return [roll(grad, _m().negative(shift), axis), None, None]


def roll(input, shift, axis, name=None):  # noqa: A002
    """Rolls the elements of `input` by `shift` places along `axis` (both may be lists)."""
    with _graph().name_scope(name or "Roll") as scope:
        x = _to_tensor(input, name="input")
        s = _index_tensor(shift, "shift", "shift", "Roll")
        a = _index_tensor(axis, "axis", "axis", "Roll")
        if s.shape.ndims is not None and s.shape.ndims > 1:
            raise ValueError(f"Shape must be at most rank 1 but is rank {s.shape.ndims}")
        if a.shape.ndims is not None and a.shape.ndims > 1:
            raise ValueError(f"Shape must be at most rank 1 but is rank {a.shape.ndims}")
        return apply_op("Roll", [x, s, a], [_base(x)], scope,
                        attrs={"T": _base(x), "Tshift": _base(s), "Taxis": _base(a)})


# -- repeat (TF's repeat_with_axis, a composite) --------------------------------------------

def _tile_one_dimension(data, axis, multiple):
    multiples = [1] * data.shape.ndims
    multiples[axis] = multiple
    return tile(data, multiples)  # a list holding a tensor packs inside Tile ("Tile/multiples")


def repeat(input, repeats, axis=None, name=None):  # noqa: A002
    """Repeats each element (or slice along `axis`) of `input` `repeats` times."""
    m = _m()
    from .array_misc_ops import boolean_mask, sequence_mask
    from .array_gather_ops import broadcast_to
    if axis is None:
        input = reshape(input, [-1])  # noqa: A001
        axis = 0
    g = _graph()
    with g.name_scope(name or "Repeat"):
        data = _to_tensor(input, name="data")
        repeats = _to_tensor(repeats, name="repeats", preferred_dtype=_dtypes.int32)
        if not _base(repeats).is_integer:
            raise TypeError(f"Argument `tensor` (name: repeats) must be of type integer. Received `tensor` = "
                            f"{repeats} of dtype: {repeats.dtype}")
        # TF's generated Cast: an op even from int32 to int32
        repeats = apply_op("Cast", [repeats], [_dtypes.int32], "Cast",
                           attrs={"SrcT": _base(repeats), "DstT": _dtypes.int32, "Truncate": False})
        nd = data.shape.ndims
        if nd is None:
            raise ValueError("repeat needs an input of known rank")
        if nd == 0:
            raise ValueError("axis=0 out of bounds: expected -0<=axis<0")
        if not -nd <= axis < nd:
            raise ValueError(f"axis={axis} out of bounds: expected {-nd}<=axis<{nd}")
        axis %= nd
        if repeats.shape.ndims is None or repeats.shape.ndims > 1:
            raise ValueError("`repeats` must be a scalar or a vector")
        data_shape = shape(data)
        if repeats.shape.num_elements() == 1:
            repeats = reshape(repeats, [])
        if repeats.shape.ndims == 0:
            expanded = expand_dims(data, axis + 1)
            tiled = _tile_one_dimension(expanded, axis + 1, repeats)
            result_shape = concat([data_shape[:axis], [repeats * data_shape[axis]], data_shape[axis + 1:]], axis=0)
            return reshape(tiled, result_shape)
        repeats = broadcast_to(repeats, [data_shape[axis]])  # packs inside BroadcastTo ("BroadcastTo/shape")
        max_repeat = m.maximum(m.reduce_max(repeats), constant(0, name="zero"))
        mask = sequence_mask(repeats, max_repeat)
        expanded = expand_dims(data, axis + 1)
        tiled = _tile_one_dimension(expanded, axis + 1, max_repeat)
        return boolean_mask(tiled, mask, axis=axis)


# -- searchsorted ----------------------------------------------------------------------------

def _bound_shape(op):
    s, v = op.inputs[0].shape, op.inputs[1].shape
    for t in (s, v):
        if t.ndims is not None and t.ndims != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {t.ndims}")
    return [v]


for _t in ("LowerBound", "UpperBound"):
    registry.register_op(_t, shape_fn=_bound_shape)
    registry.no_gradient(_t)


def searchsorted(sorted_sequence, values, side="left", out_type=_dtypes.int32, name=None):
    """For each value, the index into the innermost dimension of `sorted_sequence` where it
    would be inserted ('left': before equal entries, 'right': after)."""
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: `side` = {side!r}.")
    out_type = _dtypes.as_dtype(out_type).base_dtype
    # TF takes each shape in a "Shape" scope (Python values converted there, a known shape as
    # "shape_as_tensor") and reshapes the original arguments (converted again, "Reshape/tensor")
    seq, seq_shape = _shape_in_scope(sorted_sequence)
    seq_size = seq_shape[-1]
    vals, vals_shape = _shape_in_scope(values)
    vals_size = vals_shape[-1]
    if seq.shape.ndims is None or vals.shape.ndims is None:
        raise ValueError("searchsorted needs inputs of known rank")
    seq_2d = reshape(sorted_sequence, [-1, seq_size])
    vals_2d = reshape(values, [-1, vals_size])
    op_type = "LowerBound" if side == "left" else "UpperBound"
    matching_input(vals_2d, seq_2d, "values", "sorted_inputs", op_type)
    out = apply_op(op_type, [seq_2d, vals_2d], [out_type], name or op_type,
                   attrs={"T": _base(seq), "out_type": out_type})
    res = reshape(out, _shape_in_scope(values)[1])
    res.set_shape(vals.shape)
    return res


def _shape_in_scope(value):
    """(tensor, its shape as a tensor), built in a "Shape" name scope as TF's searchsorted does."""
    from ..framework.constant_op import convert_to_tensor as _convert
    with _graph().name_scope("Shape") as scope:
        t = _to_tensor(value)
        if t.shape.is_fully_defined():
            return t, _convert(t.shape)
        return t, apply_op("Shape", [t], [_dtypes.int32], scope, attrs={"T": _base(t), "out_type": _dtypes.int32})


# -- unique_with_counts, unravel_index, bitcast --------------------------------------------------

def _unique_with_counts_shape(op):
    x = op.inputs[0].shape
    if x.ndims is not None and x.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {x.ndims}")
    return [TensorShape([None]), x, TensorShape([None])]


registry.register_op("UniqueWithCounts", shape_fn=_unique_with_counts_shape)
# No gradient registered for "UniqueWithCounts" (TF has none): tf.gradients through it raises LookupError.
_UniqueWithCounts = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def unique_with_counts(x, out_idx=_dtypes.int32, name=None):
    """(y, idx, count): the unique elements of the vector x (in order of first occurrence), the
    index in y of each element of x, and how often each unique element occurs."""
    with _graph().name_scope(name or "UniqueWithCounts") as scope:
        x = _to_tensor(x, name="x")
        out_idx = _dtypes.as_dtype(out_idx).base_dtype
        if out_idx not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'out_idx' has DataType {out_idx.name} not in list of "
                            f"allowed values: int32, int64")
        y, idx, count = apply_op("UniqueWithCounts", [x], [_base(x), out_idx, out_idx], scope,
                                 attrs={"T": _base(x), "out_idx": out_idx})
        return _UniqueWithCounts(y, idx, count)


def _unravel_shape(op):
    i, d = op.inputs[0].shape, op.inputs[1].shape
    if d.ndims is not None and d.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {d.ndims}")
    if i.ndims is not None and i.ndims > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {i.ndims}")
    n = d[0].value if d.ndims == 1 else None
    if i.ndims == 0:
        return [TensorShape([n])]
    if i.ndims == 1:
        return [TensorShape([n, i[0].value])]
    return [unknown_shape()]


registry.register_op("UnravelIndex", shape_fn=_unravel_shape)
registry.no_gradient("UnravelIndex")


def unravel_index(indices, dims, name=None):
    """The coordinates (one row per dimension of `dims`) of flat `indices` into an array of
    shape `dims`."""
    with _graph().name_scope(name or "UnravelIndex") as scope:
        i = _index_tensor(indices, "indices", "indices", "UnravelIndex")
        d = _index_tensor(dims, "dims", "dims", "UnravelIndex", dtype=_base(i))
        return apply_op("UnravelIndex", [i, d], [_base(i)], scope, attrs={"Tidx": _base(i)})


def _bitcast_shape(op):
    x = op.inputs[0].shape
    src, dst = op._get_attr("T"), op._get_attr("type")
    isz, osz = src.size, dst.size
    if x.ndims is None or isz == osz:
        return [x]
    if isz > osz:
        return [x.concatenate([isz // osz])]
    if x.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    last = x[-1].value
    if last is not None and last * isz != osz:
        # TF names the dtypes by their DataType numbers
        raise ValueError(f"Cannot bitcast from {src.as_datatype_enum} to {dst.as_datatype_enum} due to "
                         f"shape. {last} does not match {osz // isz}")
    return [TensorShape(x.as_list()[:-1])]


registry.register_op("Bitcast", shape_fn=_bitcast_shape)
_BITCAST_TYPES = ("bfloat16, float16, float32, float64, int64, int32, uint8, uint16, uint32, uint64, int8, "
                  "int16, complex64, complex128, qint8, quint8, qint16, quint16, qint32")
# No gradient registered for "Bitcast" (TF has none): tf.gradients through it raises LookupError.


def bitcast(input, type, name=None):  # noqa: A002
    """Reinterprets the bytes of `input` as `type` (no copy of values; shapes change when the
    item sizes differ, as in TF)."""
    with _graph().name_scope(name or "Bitcast") as scope:
        x = _to_tensor(input, name="input")
        t = _dtypes.as_dtype(type).base_dtype
        for dt, p in ((_base(x), "input"), (t, "type")):
            if dt in (_dtypes.string, _dtypes.bool) or dt.name.endswith("_ref") or dt.name == "resource":
                raise TypeError(f"Value passed to parameter '{p}' has DataType {dt.name} not in list of "
                                f"allowed values: {_BITCAST_TYPES}")
        return apply_op("Bitcast", [x], [t], scope, attrs={"T": _base(x), "type": t})


# -- histograms ------------------------------------------------------------------------------

def _hist_shape(op):
    op.inputs[1].shape.require_rank(1)
    op.inputs[2].shape.require_rank(0)
    n = _static_int(op.inputs[2])
    if n is not None and n <= 0:
        note_input_value(2, n)
        raise ValueError(f"Requires nbins > 0: {n}")
    return [TensorShape([n])]


registry.register_op("HistogramFixedWidth", shape_fn=_hist_shape)
registry.no_gradient("HistogramFixedWidth")


def histogram_fixed_width(values, value_range, nbins=100, dtype=_dtypes.int32, name=None):
    """Counts of `values` in `nbins` equal-width bins spanning `value_range` (values below the
    range count in the first bin, above it in the last)."""
    with _graph().name_scope(name or "histogram_fixed_width") as scope:
        values = _to_tensor(values, name="values")
        check_allowed("values", values.dtype, ("int32", "int64", "float32", "float64"))
        vr = matching_input(value_range, values, "value_range", "values", "HistogramFixedWidth")
        nb = _to_tensor(nbins, name="nbins", dtype=_dtypes.int32)
        dtype = _dtypes.as_dtype(dtype).base_dtype
        return apply_op("HistogramFixedWidth", [values, vr, nb], [dtype], scope,
                        attrs={"T": _base(values), "dtype": dtype})


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=_dtypes.int32, name=None):
    """The bin index (in [0, nbins)) of each element of `values`, bins as in
    histogram_fixed_width."""
    m = _m()
    with _graph().name_scope(name or "histogram_fixed_width_bins"):
        values = _to_tensor(values, name="values")
        shp = shape(values)
        values = reshape(values, [-1])
        vr = _to_tensor(value_range, name="value_range", dtype=_base(values))
        nbins = _to_tensor(nbins, name="nbins", dtype=_dtypes.int32)
        nb = _static_int(nbins)
        if nb is not None and nb <= 0:
            raise ValueError(f"nbins should be a positive number, but got '{nb}'")  # TF: Assert at run time
        nbins_float = m.cast(nbins, _base(values))
        scaled = m.truediv(values - vr[0], vr[1] - vr[0], name="scaled_values")
        indices = m.floor(nbins_float * scaled, name="indices")
        indices = m.clip_by_value(indices, 0, nbins_float - 1)
        out = reshape(m.cast(indices, dtype), shp)
        return out


# -- tensor_scatter_nd_* ---------------------------------------------------------------------

def _tensor_scatter_shape(op):
    t, i, u = (x.shape for x in op.inputs)
    if i.ndims == 0 or u.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    _check_scatter_nd_shapes(i, u, t)
    return [t]


for _t in ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMax",
           "TensorScatterMin"):
    registry.register_op(_t, shape_fn=_tensor_scatter_shape)


@registry.register_gradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, grad):
    indices, updates = op.inputs[1], op.inputs[2]
    return [tensor_scatter_nd_update(grad, indices, _zeros_like(updates)), None, gather_nd(grad, indices)]


@registry.register_gradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, grad):
    updates_grad = gather_nd(grad, op.inputs[1])
    return [_identity(grad), None, updates_grad]  # TF: identity(grad), "..._grad/Identity"


@registry.register_gradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, grad):
    updates_grad = gather_nd(grad, op.inputs[1])
    return [_identity(grad), None, _m().negative(updates_grad)]


def _tensor_scatter_min_or_max_grad(op, grad):
    from .array_gather_ops import scatter_nd
    m = _m()
    x, indices, y = op.inputs
    out = op.outputs[0]
    x_ind = m.cast(m.equal(x, out), grad.dtype)
    y_out = gather_nd(out, indices)
    y_ind = m.cast(m.equal(y, y_out), grad.dtype)
    ys_ind = scatter_nd(indices, y_ind, shape(x, out_type=_base(indices)))
    indicators = x_ind + ys_ind
    return [grad * x_ind / indicators, None, gather_nd(grad / indicators, indices) * y_ind]


registry.register_gradient("TensorScatterMax")(_tensor_scatter_min_or_max_grad)
registry.register_gradient("TensorScatterMin")(_tensor_scatter_min_or_max_grad)


def _zeros_like(t):
    from .array_ops import zeros_like
    return zeros_like(t)


def _tensor_scatter(op_type, tensor, indices, updates, name):
    with _graph().name_scope(name or op_type) as scope:
        t = _to_tensor(tensor, name="tensor")
        i = _index_tensor(indices, "indices", "indices", op_type)
        u = _to_tensor(updates, name="updates", dtype=_base(t) if not isinstance(updates, Tensor) else None)
        if _base(u) is not _base(t):
            raise TypeError(f"Input 'updates' of '{op_type}' Op has type {_base(u).name} that does not match "
                            f"type {_base(t).name} of argument 'tensor'.")
        return apply_op(op_type, [t, i, u], [_base(t)], scope,
                        attrs={"T": _base(t), "Tindices": _base(i), "bad_indices_policy": ""})


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of `tensor` with the slices at `indices` replaced by `updates`."""
    return _tensor_scatter("TensorScatterUpdate", tensor, indices, updates, name)


def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """A copy of `tensor` with `updates` added at `indices` (duplicates accumulate)."""
    return _tensor_scatter("TensorScatterAdd", tensor, indices, updates, name)


def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """A copy of `tensor` with `updates` subtracted at `indices` (duplicates accumulate)."""
    return _tensor_scatter("TensorScatterSub", tensor, indices, updates, name)


def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """A copy of `tensor` with max(tensor, updates) at `indices`."""
    return _tensor_scatter("TensorScatterMax", tensor, indices, updates, name)


def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """A copy of `tensor` with min(tensor, updates) at `indices`."""
    return _tensor_scatter("TensorScatterMin", tensor, indices, updates, name)


tensor_scatter_update = tensor_scatter_nd_update
tensor_scatter_add = tensor_scatter_nd_add
tensor_scatter_sub = tensor_scatter_nd_sub


# -- batch_gather (TF's _batch_gather with batch_dims = rank(indices) - 1) ---------------------

def _constant_of(value, name):
    from ..framework.constant_op import constant
    return constant(value, name=name)


def _ones_scalar(dtype, name, value=1):
    """A scalar constant named like tf.ones(())/tf.zeros(()) ("ones", "ones_1", "zeros")."""
    return _constant_of(np.array(value, dtype.as_numpy_dtype), name)


def batch_gather(params, indices, name=None):
    """out[b..., i] = params[b..., indices[b..., i]] (the leading dims are batch dims)."""
    with _graph().name_scope(name or "BatchGather"):
        indices = _to_tensor(indices, name="indices")
        params = _to_tensor(params, name="params")
        if indices.shape.ndims is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        batch_dims = indices.shape.ndims - 1
        if batch_dims == 0:
            return gather(params, indices)
        indices_shape = shape(indices)
        params_shape = shape(params)
        idt = _base(indices)
        # TF's ops: ones/zeros constants of the indices' dtype, a generated Cast and Range, the
        # generated Prod, and [flat_inner] packed inside concat ("concat/values_0")
        accum = _ones_scalar(idt, "ones")
        casted = apply_op("Cast", [params_shape], [idt], "Cast",
                          attrs={"SrcT": _base(params_shape), "DstT": idt, "Truncate": False})
        batch_indices = indices
        for dim in range(batch_dims, 0, -1):
            dim_value = casted[dim - 1]
            accum = accum * casted[dim]
            start = _ones_scalar(idt, "zeros", 0)
            step = _ones_scalar(idt, "ones")
            dim_indices = apply_op("Range", [start, dim_value, step], [idt], "Range", attrs={"Tidx": idt})
            dim_indices = dim_indices * accum
            dim_shape = stack([1] * (dim - 1) + [dim_value] + [1] * (indices.shape.ndims - dim), axis=0)
            batch_indices = batch_indices + reshape(dim_indices, dim_shape)
        flat_indices = reshape(batch_indices, [-1])
        outer_shape = params_shape[batch_dims + 1:]
        inner = params_shape[:batch_dims + 1]
        with _graph().name_scope("Prod") as prod_scope:
            red = _constant_of(np.array([0], np.int32), "reduction_indices")
        flat_inner = apply_op("Prod", [inner, red], [_base(inner)], prod_scope,
                              attrs={"T": _base(inner), "Tidx": _dtypes.int32, "keep_dims": False})
        flat_params = reshape(params, concat([[flat_inner], outer_shape], axis=0))
        flat_result = gather(flat_params, flat_indices)
        result = reshape(flat_result, concat([indices_shape, outer_shape], axis=0))
        final = indices.shape[:batch_dims].merge_with(params.shape[:batch_dims]) \
            if params.shape.ndims is not None else indices.shape[:batch_dims]
        final = final.concatenate(indices.shape[batch_dims:])
        if params.shape.ndims is not None:
            final = final.concatenate(params.shape[batch_dims + 1:])
            result.set_shape(final)
        return result


# -- space_to_depth, depth_to_space -----------------------------------------------------------

def _s2d_shape(op, forward):
    x = op.inputs[0].shape
    b = op._get_attr("block_size")
    fmt = op._get_attr("data_format")
    if x.ndims is None:
        return [unknown_shape(4)]
    if x.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {x.ndims}")
    d = x.as_list()
    if fmt == "NCHW":
        n, c, h, w = d
    else:
        n, h, w, c = d
    if forward:
        for v, what in ((w, "width"), (h, "height")):
            if v is not None and v % b:
                raise ValueError(f"Dimension size must be evenly divisible by {b} but is {v}")
        h, w = (None if h is None else h // b), (None if w is None else w // b)
        c = None if c is None else c * b * b
    else:
        if c is not None and c % (b * b):
            raise ValueError(f"Dimension size must be evenly divisible by {b * b} but is {c}")
        h, w = (None if h is None else h * b), (None if w is None else w * b)
        c = None if c is None else c // (b * b)
    return [TensorShape([n, c, h, w] if fmt == "NCHW" else [n, h, w, c])]


registry.register_op("SpaceToDepth", shape_fn=lambda op: _s2d_shape(op, True))
registry.register_op("DepthToSpace", shape_fn=lambda op: _s2d_shape(op, False))


@registry.register_gradient("SpaceToDepth")
def _space_to_depth_grad(op, grad):
    return [depth_to_space(grad, op._get_attr("block_size"), data_format=op._get_attr("data_format"))]


@registry.register_gradient("DepthToSpace")
def _depth_to_space_grad(op, grad):
    return [space_to_depth(grad, op._get_attr("block_size"), data_format=op._get_attr("data_format"))]


def _s2d(op_type, input, block_size, name, data_format):  # noqa: A002
    if data_format not in ("NHWC", "NCHW", "NCHW_VECT_C"):
        raise ValueError(f"data_format must be NHWC or NCHW, got {data_format!r}")
    with _graph().name_scope(name or op_type) as scope:
        x = _to_tensor(input, name="input")
        b = int(block_size)
        if b < 2:
            raise ValueError(f"Attr 'block_size' of '{op_type}' Op passed {b} less than minimum 2.")
        return apply_op(op_type, [x], [_base(x)], scope,
                        attrs={"T": _base(x), "block_size": b, "data_format": data_format})


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """Moves each block_size x block_size spatial block into the depth dimension."""
    return _s2d("SpaceToDepth", input, block_size, name, data_format)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """The inverse of space_to_depth."""
    return _s2d("DepthToSpace", input, block_size, name, data_format)


# -- space_to_batch_nd, batch_to_space_nd ----------------------------------------------------

def _s2b_shape(op, forward):
    x = op.inputs[0].shape
    block = constant_value(op.inputs[1])
    pads = constant_value(op.inputs[2])
    bs = op.inputs[1].shape
    m = bs[0].value if bs.ndims == 1 else None
    if x.ndims is None or m is None:
        return [unknown_shape()]
    if x.ndims < 1 + m:
        raise ValueError(f"Shape must be at least rank {m + 1} but is rank {x.ndims}")
    d = x.as_list()
    if block is None or pads is None:
        return [TensorShape([None] * (1 + m) + d[1 + m:])]
    note_input_value(1, block)
    note_input_value(2, pads)
    block = [int(v) for v in np.asarray(block).reshape(-1)]
    pads = np.asarray(pads).reshape(-1, 2)
    if any(b < 1 for b in block):
        raise ValueError("block_shape must be positive")
    if (pads < 0).any():
        raise ValueError("paddings cannot be negative" if forward else "crops cannot be negative")
    prod = int(np.prod(block))
    if forward:
        out = [None if d[0] is None else d[0] * prod]
        for i, b in enumerate(block):
            s = d[1 + i]
            if s is None:
                out.append(None)
                continue
            p = s + int(pads[i, 0]) + int(pads[i, 1])
            if p % b:
                raise ValueError(f"Dimension size must be evenly divisible by {b} but is {p}")
            out.append(p // b)
    else:
        batch = d[0]
        for b in block:  # TF divides the batch by one block dimension at a time
            if batch is not None:
                if batch % b:
                    raise ValueError(f"Dimension size must be evenly divisible by {b} but is {batch}")
                batch //= b
        out = [batch]
        for i, b in enumerate(block):
            s = d[1 + i]
            if s is None:
                out.append(None)
                continue
            crop = int(pads[i, 0]) + int(pads[i, 1])
            if crop > s * b:
                raise ValueError(f"Negative dimension size caused by subtracting {crop} from {s * b}")
            out.append(s * b - crop)
    return [TensorShape(out + d[1 + m:])]


registry.register_op("SpaceToBatchND", shape_fn=lambda op: _s2b_shape(op, True))
registry.register_op("BatchToSpaceND", shape_fn=lambda op: _s2b_shape(op, False))


@registry.register_gradient("SpaceToBatchND")
def _space_to_batch_nd_grad(op, grad):
    return [batch_to_space_nd(grad, op.inputs[1], op.inputs[2]), None, None]


@registry.register_gradient("BatchToSpaceND")
def _batch_to_space_nd_grad(op, grad):
    return [space_to_batch_nd(grad, op.inputs[1], op.inputs[2]), None, None]


def _s2b(op_type, input, block_shape, pads, name, pads_name):  # noqa: A002
    with _graph().name_scope(name or op_type) as scope:
        x = _to_tensor(input, name="input")
        b = _index_tensor(block_shape, "block_shape", "block_shape", op_type)
        p = _index_tensor(pads, pads_name, pads_name, op_type)
        return apply_op(op_type, [x, b, p], [_base(x)], scope,
                        attrs={"T": _base(x), "Tblock_shape": _base(b), ("Tpaddings" if op_type ==
                               "SpaceToBatchND" else "Tcrops"): _base(p)})


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """Pads the spatial dims, then moves blocks of them into the batch dimension."""
    return _s2b("SpaceToBatchND", input, block_shape, paddings, name, "paddings")


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of space_to_batch_nd (then crops the spatial dims)."""
    return _s2b("BatchToSpaceND", input, block_shape, crops, name, "crops")


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002
    """TF1's 2-D space_to_batch: space_to_batch_nd with block_shape [block_size, block_size]."""
    if block_size is None:
        block_size = block_shape
    return space_to_batch_nd(input, np.array([block_size, block_size], np.int64), paddings, name=name)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """TF1's 2-D batch_to_space: batch_to_space_nd with block_shape [block_size, block_size]."""
    if block_size is None:
        block_size = block_shape
    return batch_to_space_nd(input, np.array([block_size, block_size], np.int64), crops, name=name)


# -- cross, complex ----------------------------------------------------------------------------

def _cross_shape(op):
    a, b = op.inputs[0].shape, op.inputs[1].shape
    s = a.merge_with(b) if a.is_compatible_with(b) else None
    if s is None:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    if s.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    if s.ndims is not None and s[-1].value is not None and s[-1].value != 3:
        raise ValueError(f"Dimension must be 3 but is {s[-1].value}")
    return [s]


registry.register_op("Cross", shape_fn=_cross_shape)


@registry.register_gradient("Cross")
def _cross_grad(op, grad):
    u, v = op.inputs
    return [cross(v, grad), cross(grad, u)]


def cross(a, b, name=None):
    """The pairwise cross product of 3-vectors in the last dimension of a and b."""
    with _graph().name_scope(name or "Cross") as scope:
        a = _to_tensor(a, name="a")
        check_allowed("a", a.dtype, ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16",
                          "uint16", "float16", "uint32", "uint64"))
        b = _to_tensor(b, name="b", dtype=_base(a) if not isinstance(b, Tensor) else None)
        if _base(b) is not _base(a):
            raise TypeError(f"Input 'b' of 'Cross' Op has type {_base(b).name} that does not match type "
                            f"{_base(a).name} of argument 'a'.")
        return apply_op("Cross", [a, b], [_base(a)], scope, attrs={"T": _base(a)})


registry.register_op("Complex", shape_fn=broadcast_shape_fn)


@registry.register_gradient("Complex")
def _complex_grad(op, grad):
    m = _m()
    x, y = op.inputs
    return [m._reduce_to(m.real(grad), x, y), m._reduce_to(m.imag(grad), y, x)]


def complex(real, imag, name=None):  # noqa: A001
    """real + imag * 1j (float32 -> complex64, float64 -> complex128)."""
    with _graph().name_scope(name or "Complex") as scope:
        real = _to_tensor(real, name="real")
        imag = _to_tensor(imag, name="imag")
        rt, it = _base(real), _base(imag)
        if rt is _dtypes.float64 and it is rt:
            out = _dtypes.complex128
        elif rt is _dtypes.float32 and it is rt:
            out = _dtypes.complex64
        else:
            raise TypeError(f"The `real` and `imag` components have incorrect types: {rt.name} {it.name}. "
                            "They must be consistent, and one of [tf.float32, tf.float64]")
        return apply_op("Complex", [real, imag], [out], scope, attrs={"T": rt, "Tout": out})


# -- ensure_shape, parallel_stack ------------------------------------------------------------

def _ensure_shape_shape(op):
    x = op.inputs[0].shape
    s = op._get_attr("shape")
    err = inference_merge_error(s, x)  # TF merges the expected shape with the input's
    if err:
        raise ValueError(err)
    return [x.merge_with(s)]


registry.register_op("EnsureShape", shape_fn=_ensure_shape_shape)


@registry.register_gradient("EnsureShape")
def _ensure_shape_grad(op, grad):
    return [grad]


def ensure_shape(x, shape, name=None):  # noqa: A002
    """x, checked at run time to have a shape compatible with `shape` (InvalidArgumentError
    otherwise); the static shape becomes the merge of both."""
    if not isinstance(shape, TensorShape):
        shape = as_shape(shape)
    with _graph().name_scope(name or "EnsureShape") as scope:
        x = _to_tensor(x, name="input")
        return apply_op("EnsureShape", [x], [_base(x)], scope, attrs={"T": _base(x), "shape": shape})


def _parallel_concat_shape(op):
    return [op._get_attr("shape")]


registry.register_op("ParallelConcat", shape_fn=_parallel_concat_shape)


def parallel_stack(values, name="parallel_stack"):
    """stack(values) along a new first axis; every value's shape must be fully known."""
    with _graph().name_scope(name or "parallel_stack") as scope:
        value_t = [_to_tensor(v) for v in values]
        if not value_t:
            raise ValueError("values must be a non-empty list")
        value_shape = value_t[0].shape
        for t in value_t[1:]:
            value_shape = value_shape.merge_with(t.shape)
        output_shape = TensorShape([len(values)]).concatenate(value_shape)
        if not output_shape.is_fully_defined():
            raise ValueError(f"All input shapes must be fully defined.")
        dt = _base(value_t[0])
        for t in value_t[1:]:
            if _base(t) is not dt:
                raise TypeError(f"Tensors in list passed to 'values' of 'ParallelConcat' Op have types "
                                f"[{', '.join(_base(v).name for v in value_t)}] that don't all match.")
        expanded = [expand_dims(v, 0) for v in value_t]
        return apply_op("ParallelConcat", expanded, [dt], "ParallelConcat",
                        attrs={"T": dt, "N": len(expanded), "shape": output_shape})


# -- is_tensor, get_static_value, to_complex64/128, to_bfloat16 ---------------------------------

def is_tensor(x):
    """True for graph tensors and tensor-like objects (Tensor, SparseTensor, IndexedSlices,
    Variable); False for Python and NumPy values."""
    from ..framework.indexed_slices import IndexedSlices
    from ..framework.sparse_tensor import SparseTensor
    from .variables import Variable
    return isinstance(x, (Tensor, SparseTensor, IndexedSlices, Variable))


def get_static_value(tensor, partial=False):
    """The NumPy value of `tensor` when it is known while building the graph, else None.
    Non-tensor values are returned unchanged."""
    if not is_tensor(tensor):
        return tensor
    if not isinstance(tensor, Tensor):
        return None
    return tf_constant_value(tensor, partial)


def tf_constant_value(tensor, partial=False):
    """TF's tensor_util.constant_value: the value of `tensor` when its op is one TF evaluates
    while building (Const, Identity, Shape/Size/Rank of a known shape, Range, Cast, ConcatV2,
    Pack, Unpack, Fill, Equal, NotEqual), else None -- narrower than tensorweave's own
    constant folding, so user-visible answers match TF's. With `partial`, a Pack's unknown
    elements are None in an object array."""
    op = tensor.op
    t = op.type
    if t == "Const":
        return constant_value(tensor)
    if t in ("Identity", "StopGradient"):
        return tf_constant_value(op.inputs[0], partial)
    if t in ("Shape", "Size", "Rank"):
        s = op.inputs[0].shape
        if t == "Rank":
            return None if s.ndims is None else np.array(s.ndims, np.int32)
        if not s.is_fully_defined():
            return None
        if t == "Size":
            return np.prod(s.as_list(), dtype=np.int32)
        return np.array(s.as_list(), dtype=tensor.dtype.as_numpy_dtype)
    if t == "Range":
        vals = [tf_constant_value(x) for x in op.inputs]
        if any(v is None for v in vals):
            return None
        return np.arange(*vals, dtype=tensor.dtype.as_numpy_dtype)
    if t == "Cast":
        v = tf_constant_value(op.inputs[0])
        return None if v is None else np.asarray(v).astype(op._get_attr("DstT").as_numpy_dtype)
    if t == "ConcatV2":
        axis = tf_constant_value(op.inputs[-1])
        vals = [tf_constant_value(x) for x in op.inputs[:-1]]
        if axis is None or any(v is None for v in vals):
            return None
        return np.concatenate(vals, axis=int(axis))
    if t == "Pack":
        if not op.inputs or op._get_attr("axis") != 0:
            return None
        vals = []
        for x in op.inputs:
            v = tf_constant_value(x, partial)
            if v is None and not partial:
                return None
            vals.append(v)
        try:
            return np.array(vals)
        except ValueError:
            return np.array(vals, dtype=object)
    if t == "Unpack":
        if op._get_attr("axis") != 0:
            return None
        v = tf_constant_value(op.inputs[0], partial)
        return None if v is None else v[tensor.value_index]
    if t == "Fill":
        v = tf_constant_value(op.inputs[1])
        if not tensor.shape.is_fully_defined() or v is None:
            return None
        return np.full(tensor.shape.as_list(), v, dtype=np.asarray(v).dtype)
    if t in ("Equal", "NotEqual"):
        a, b = (tf_constant_value(x) for x in op.inputs[:2])
        if a is None or b is None:
            return None
        return np.equal(a, b) if t == "Equal" else np.not_equal(a, b)
    return None


def to_complex64(x, name="ToComplex64"):
    """cast(x, complex64) (TF1's deprecated helper)."""
    return _m().cast(x, _dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
    """cast(x, complex128) (TF1's deprecated helper)."""
    return _m().cast(x, _dtypes.complex128, name=name)


def to_bfloat16(x, name="ToBFloat16"):
    """cast(x, bfloat16) (TF1's deprecated helper)."""
    return _m().cast(x, _dtypes.bfloat16, name=name)
