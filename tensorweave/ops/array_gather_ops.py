"""Array ops that pick or repeat elements by index: gather, gather_nd, scatter_nd, tile,
broadcast_to (and SumToShape, the reduction their gradients need).
"""

import numpy as np

from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op
from ..framework.graph_elements import Tensor
from ..framework.tensor_shape import TensorShape, inference_merge_error, note_input_value, unknown_shape
from .array_ops import (
    _base, _dims_str, _graph, _index_tensor, _partial_dims, shape, _shape_from_tensor, _shape_input_dims,
    size, _static_int, _STATIC_LIMIT, _to_tensor,
)


# -- gather, gather_nd, scatter_nd -----------------------------------------------------------

def _gather_shape(op):
    params, indices, axis_t = op.inputs
    axis = _static_int(axis_t)
    bd = op._get_attr("batch_dims")
    p, i = params.shape, indices.shape
    if p.ndims is None or i.ndims is None or axis is None:
        return [unknown_shape()]
    note_input_value(2, constant_value(axis_t))
    n = p.ndims
    if not -n <= axis < n:
        raise ValueError(f"Shape must be at least rank {axis + 1 if axis >= 0 else -axis} but is rank {n}")
    axis %= n
    if bd < 0:
        bd += i.ndims
    if i.ndims < bd:
        raise ValueError(f"Shape must be at least rank {bd} but is rank {i.ndims}")
    if bd > axis:
        raise ValueError(f"batch_dims ({bd}) must be less than or equal to axis ({axis}).")
    pd, id_ = p.as_list(), i.as_list()
    return [TensorShape(pd[:axis] + id_[bd:] + pd[axis + 1:])]


registry.register_op("GatherV2", shape_fn=_gather_shape)


@registry.register_static_value("GatherV2")
def _gather_value(op, value_of):
    p, i, a = (value_of(t) for t in op.inputs)
    if p is None or i is None or a is None or op._get_attr("batch_dims"):
        return None
    i = np.asarray(i)
    axis = int(a) % np.ndim(p)
    if i.size and (i.min() < 0 or i.max() >= np.shape(p)[axis]):
        return None
    return np.take(p, i, axis=axis)


@registry.register_gradient("GatherV2")
def _gather_grad(op, grad):
    params, indices, axis_t = op.inputs
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    bd = int(op._get_attr("batch_dims"))
    if bd < 0:
        if indices.shape.ndims is None:
            raise ValueError(
                "Currently, it is unsupported to take the gradient of tf.gather when batch_dims < 0 "
                "and the rank of the indices is unknown. Please pass a positive batch_dims or use "
                "tf.ensure_shape to update the shape of indices when calling tf.gather. Got "
                f"batch_dims={bd} and indices={indices}")
        bd += indices.shape.ndims
    axis = _static_int(axis_t)
    with params.graph.colocate_with(params):  # TF: params can be large
        params_shape = shape(params)
    indices_size = expand_dims(size(indices), 0)
    if axis == 0:  # TF tests the static axis as given (-rank takes the general path below)
        values_shape = concat([indices_size, params_shape[1:]], 0)
        values = reshape(grad, values_shape)
        flat = reshape(indices, indices_size)
        return [IndexedSlices(values, flat, params_shape), None, None]
    # TF 2.21's _GatherV2Grad for axis != 0: move the gathered axis up to the first non-batch
    # axis, sum the gradient rows into it (_BatchGatherGrad's UnsortedSegmentSum), move it
    # back, and reshape to the params' shape -- built op for op as TF builds it
    from .array_range_ops import range as _range
    outer_shape = params_shape[:axis_t]
    inner_shape = params_shape[axis_t:][1:]
    values_shape = concat([outer_shape, [-1], inner_shape], 0)
    values_dims = size(values_shape)
    axis_dims = size(outer_shape)
    outer_batches = _range(bd)
    batch_axis = _range(bd, axis_dims)
    inner_axes = _range(axis_dims + 1, values_dims)
    values = reshape(grad, values_shape)
    transpose_dims = concat([outer_batches, [axis_dims], batch_axis, inner_axes], 0)
    values_t = transpose(values, transpose_dims)
    params_shape_t = gather(params_shape, transpose_dims)
    params_grad = _batch_gather_grad(params_shape_t, values_t, indices, bd, params_shape[axis_t])
    invert_dims = concat([outer_batches, batch_axis + 1, [bd], inner_axes], 0)
    params_grad = transpose(params_grad, invert_dims)
    return [reshape(params_grad, shape(params)), None, None]


def _batch_gather_grad(params_shape, values, indices, batch_dims, gather_dim_size):
    """TF's _BatchGatherGrad: with batch dims, offset each batch's indices into one flat
    segment range, sum, and reshape the batch dims back."""
    from .math_ops import unsorted_segment_sum
    indices_size = expand_dims(size(indices), 0)
    if batch_dims:
        from .math_ops import reduce_prod
        values_shape = shape(values)
        outer_shape = values_shape[:batch_dims]
        inner_shape = values_shape[batch_dims:][1:]
        batch_size = reduce_prod(outer_shape, [0], name="Prod")
        flat_values_shape = concat([[-1], inner_shape], 0)
        gather_dim_size = gather_dim_size * batch_size
        indices = _batch_indices(params_shape, indices, batch_dims)
        values = reshape(values, flat_values_shape)
    indices = reshape(indices, indices_size)
    params_grad = unsorted_segment_sum(values, indices, gather_dim_size)
    if batch_dims:
        params_grad = reshape(params_grad, concat([outer_shape, flat_values_shape], 0))
    return params_grad


def _batch_indices(params_shape, indices, batch_dims):
    """TF's _GetBatchIndices: indices plus each batch position's offset in the flattened
    batch-by-gather axis."""
    from .array_ops import ones, rank, zeros
    from .array_range_ops import range as _range
    from .math_ops import cast
    dt = _base(indices)
    casted = cast(params_shape, dt)
    accum = ones((), dtype=dt)
    for dim in range(batch_dims, 0, -1):
        dim_value = casted[dim - 1]
        accum = accum * casted[dim]
        dim_indices = _range(zeros((), dtype=dt), dim_value, ones((), dtype=dt))
        dim_indices = dim_indices * accum
        dim_shape = concat([tile([1], [dim - 1]), [dim_value],
                            tile([1], [rank(indices) - dim])], 0)
        indices = indices + reshape(dim_indices, dim_shape)
    return indices


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """Gathers slices of `params` along `axis` at `indices`: out[..., i, ...] =
    params[..., indices[i], ...]. Out-of-range indices are an InvalidArgumentError."""
    if getattr(params, "_is_resource_variable", False) and batch_dims == 0 and axis in (None, 0):
        return params.sparse_read(indices, name=name)  # ResourceGather (TF's gather does the same)
    g = _graph()
    with g.name_scope(name or "GatherV2") as scope:
        params = _to_tensor(params, name="params")
        indices = _index_tensor(indices, "indices", "indices", "GatherV2", int16=True, no_default=True)
        if axis is None:
            axis = batch_dims
        a = _index_tensor(axis, "axis", "axis", "GatherV2")
        av = constant_value(a)
        if av is not None and np.ndim(av) == 0 and int(av) == 0:
            batch_dims = 0   # TF's gather drops batch_dims when axis is 0 (a GatherV2 without it)
        return apply_op("GatherV2", [params, indices, a], [_base(params)], scope,
                        attrs={"Tparams": _base(params), "Tindices": _base(indices), "Taxis": _base(a),
                               "batch_dims": int(batch_dims)})


def gather_nd_shape(p, i):
    """GatherNd's output shape from params' shape `p` and indices' shape `i` (also the
    resource variable's ResourceGatherNd)."""
    if i.ndims is None:
        return unknown_shape()
    if i.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    k = i[-1].value
    if k is None or p.ndims is None:
        return unknown_shape()
    if k > p.ndims:
        raise ValueError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: "
                         f"{_dims_str(i.as_list())} and params shape: {_dims_str(p.as_list())}")
    return TensorShape(i.as_list()[:-1] + p.as_list()[k:])


def _gather_nd_shape(op):
    params, indices = op.inputs
    return [gather_nd_shape(params.shape, indices.shape)]


registry.register_op("GatherNd", shape_fn=_gather_nd_shape)


@registry.register_gradient("GatherNd")
def _gather_nd_grad(op, grad):
    params, indices = op.inputs
    ref_shape = shape(params, out_type=_base(indices))
    if indices.shape.ndims == 2 and indices.shape[-1].value == 1:
        # As TF: indices [N, 1] pick whole rows, so the gradient stays sparse (row slices).
        return [IndexedSlices(grad, squeeze(indices, axis=-1), ref_shape), None]
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    return [scatter_nd(indices, grad, ref_shape), None]


def gather_nd(params, indices, name=None, batch_dims=0):
    """out[i...] = params[indices[i..., :]] (the last axis of `indices` indexes leading dims)."""
    if batch_dims:
        return _batch_gather_nd(params, indices, batch_dims, name)
    g = _graph()
    with g.name_scope(name or "GatherNd") as scope:
        params = _to_tensor(params, name="params")
        indices = _index_tensor(indices, "indices", "indices", "GatherNd", int16=True, no_default=True)
        return apply_op("GatherNd", [params, indices], [_base(params)], scope,
                        attrs={"Tparams": _base(params), "Tindices": _base(indices), "bad_indices_policy": ""})


def _scatter_nd_shape(op):
    indices, updates, shape_t = op.inputs
    if indices.shape.ndims == 0 or updates.shape.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    # TF's first pass runs without the shape tensor: checks that need only indices and updates
    # fail before it is read (their messages carry no input context)
    _check_scatter_nd_shapes(indices.shape, updates.shape, unknown_shape())
    out = _shape_from_tensor(shape_t, 2)
    _check_scatter_nd_shapes(indices.shape, updates.shape, out)
    return [out]


def _check_scatter_nd_shapes(ishape, ushape, oshape):
    """TF's ScatterNdShapeHelper: updates.shape == indices.shape[:-1] + shape[K:], where the
    shape `oshape` is the output's (ScatterNd) or the input tensor's (TensorScatter*)."""
    if oshape.num_elements() == 0 and (ishape.num_elements() or ushape.num_elements()):
        raise ValueError("Indices and updates specified for empty input")
    if ishape.ndims is None or ushape.ndims is None or ushape.ndims == 0:
        return
    idims, udims = ishape.as_list(), ushape.as_list()
    k = idims[-1]
    if k is None:
        return
    outer = len(idims) - 1
    pre_i, pre_u = TensorShape(idims[:-1]), TensorShape(udims[:outer])
    err = inference_merge_error(pre_i, pre_u)
    if err:
        raise ValueError(f"Dimensions [0,{outer}) of indices[shape={_dims_str(idims)}] = {_dims_str(idims[:-1])} "
                         f"must match dimensions [0,{outer}) of updates[shape={_dims_str(udims)}] = "
                         f"{_dims_str(udims[:outer])}: {err}")
    if oshape.ndims is None:
        return
    odims = oshape.as_list()
    suf_o, suf_u = TensorShape(odims[k:]), TensorShape(udims[outer:])
    err = inference_merge_error(suf_o, suf_u)
    if err:
        raise ValueError(f"Dimensions [{k},{len(odims)}) of input[shape={_dims_str(odims)}] = "
                         f"{_dims_str(odims[k:])} must match dimensions [{outer},{len(udims)}) of "
                         f"updates[shape={_dims_str(udims)}] = {_dims_str(udims[outer:])}: {err}")


registry.register_op("ScatterNd", shape_fn=_scatter_nd_shape)


@registry.register_gradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return [None, gather_nd(grad, op.inputs[0]), None]


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` added at `indices` (duplicates add up)."""
    g = _graph()
    with g.name_scope(name or "ScatterNd") as scope:
        indices = _index_tensor(indices, "indices", "indices", "ScatterNd", int16=True, no_default=True)
        updates = _to_tensor(updates, name="updates")
        if isinstance(shape, Tensor) and _base(shape) != _base(indices):
            raise TypeError(f"Input 'shape' of 'ScatterNd' Op has type {_base(shape).name} that does not "
                            f"match type {_base(indices).name} of argument 'indices'.")
        s = _index_tensor(shape, "shape", "shape", "ScatterNd", dtype=_base(indices))
        return apply_op("ScatterNd", [indices, updates, s], [_base(updates)], scope,
                        attrs={"T": _base(updates), "Tindices": _base(indices), "bad_indices_policy": ""})


# -- tile, broadcast_to, and the gradient reduction they need ------------------------------------

def _tile_shape(op):
    x, m = op.inputs
    m.shape.require_rank(1)
    mult = _shape_input_dims(m)
    n = x.shape.ndims
    if mult is None:
        return [unknown_shape(n)]
    if n is not None and len(mult) != n:
        raise ValueError(f"Shape must be rank {n} but is rank {len(mult)}")  # TF's message
    _shape_input_dims(m, 1)
    if n is None:
        return [unknown_shape(len(mult))]
    return [TensorShape([None if d is None or k is None else d * k for d, k in zip(x.shape.as_list(), mult)])]


registry.register_op("Tile", shape_fn=_tile_shape)


@registry.register_static_value("Tile")
def _tile_value(op, value_of):
    v, m = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or m is None or np.size(v) * np.prod(m) > _STATIC_LIMIT:
        return None
    return np.tile(v, [int(k) for k in m])


@registry.register_gradient("Tile")
def _tile_grad(op, grad):
    # TF's _TileGrad: interleave multiples and the input shape ([m0, d0, m1, d1, ...]), reshape
    # the gradient to that and sum over the even axes
    from .array_join_ops import stack
    from .array_range_ops import range as _range
    from .array_reshape_ops import reshape, transpose
    from .math_ops import reduce_sum
    x, multiples = op.inputs
    input_shape = shape(x, out_type=_base(multiples))
    split_shape = reshape(transpose(stack([multiples, input_shape])), [-1])
    axes = _range(0, size(split_shape), 2)
    if isinstance(grad, IndexedSlices):
        from .array_join_ops import concat
        from .math_ops import cast, floormod, unsorted_segment_sum
        n0 = cast(input_shape[0], _base(grad.indices))
        grad = unsorted_segment_sum(grad.values, floormod(grad.indices, n0), n0)
        split_shape = concat([[1], split_shape[1:]], axis=0)
    out = reduce_sum(reshape(grad, split_shape), axes)
    out.set_shape(x.shape)
    return [out, None]


def _tile_grad_shape(op):
    g, m = op.inputs
    mult = _partial_dims(m)
    if mult is None or g.shape.ndims is None:
        return [unknown_shape(g.shape.ndims)]
    return [TensorShape([None if d is None or k is None else d // k for d, k in zip(g.shape.as_list(), mult)])]


registry.register_op("TileGrad", shape_fn=_tile_grad_shape)


@registry.register_gradient("TileGrad")
def _tile_grad_grad(op, grad):
    return [tile(grad, op.inputs[1]), None]


def _tile_grad_op(grad, multiples, shape_hint=None):
    out = apply_op("TileGrad", [grad, multiples], [_base(grad)], "TileGrad", attrs={"T": _base(grad)})
    if shape_hint is not None and shape_hint.ndims is not None:
        out.set_shape(out.shape.merge_with(shape_hint)) if out.shape.is_compatible_with(shape_hint) else None
    return out


def tile(input, multiples, name=None):
    """Repeats `input` `multiples[i]` times along dimension i."""
    g = _graph()
    with g.name_scope(name or "Tile") as scope:
        input = _to_tensor(input, name="input")
        m = _index_tensor(multiples, "multiples", "multiples", "Tile")
        return apply_op("Tile", [input, m], [_base(input)], scope,
                        attrs={"T": _base(input), "Tmultiples": _base(m)})


def _broadcast_to_shape(op):
    x, s = op.inputs
    s.shape.require_rank(1)
    target = _shape_from_tensor(s)
    if target.ndims is None or x.shape.ndims is None:
        return [target]
    if x.shape.ndims > target.ndims:
        raise ValueError(f"Shape must be at most rank {target.ndims} but is rank {x.shape.ndims}")
    _shape_input_dims(s, 1)
    # TF's shape function: an input dimension above 1 must equal (and fixes) the output's
    out = target.as_list()
    k = target.ndims - x.shape.ndims
    for i, a in enumerate(x.shape.as_list()):
        if a is not None and a > 1:
            b = out[k + i]
            if b is not None and b != a:
                raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
            out[k + i] = a
    return [TensorShape(out)]


registry.register_op("BroadcastTo", shape_fn=_broadcast_to_shape)


@registry.register_gradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    # TF's _BroadcastToGrad: BroadcastGradientArgs of the (constant, when known) target shape
    # and the input's shape, a keepdims Sum over the reduction axes, a Reshape to the input
    from ..framework.constant_op import constant
    from .array_extra_ops import tf_constant_value
    from .array_reshape_ops import reshape
    from .math_ops import broadcast_gradient_args, reduce_sum
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    x, target = op.inputs
    dt = _base(target)
    x_shape = shape(x, out_type=dt)
    static = tf_constant_value(target)
    if static is not None:
        target = constant(np.asarray(static, dt.as_numpy_dtype))
    _, axes = broadcast_gradient_args(target, x_shape)
    return [reshape(reduce_sum(grad, axis=axes, keepdims=True), x_shape), None]


def broadcast_to(input, shape, name=None):
    """Broadcasts `input` to `shape` with NumPy's rules."""
    g = _graph()
    with g.name_scope(name or "BroadcastTo") as scope:
        input = _to_tensor(input, name="input")
        s = _index_tensor(shape, "shape", "shape", "BroadcastTo")
        return apply_op("BroadcastTo", [input, s], [_base(input)], scope,
                        attrs={"T": _base(input), "Tidx": _base(s)})


def _sum_to_shape_shape(op):
    return [_shape_from_tensor(op.inputs[1])]


# SumToShape(x, shape): sums `x` down to `shape` (the reverse of broadcasting); used by the
# gradients of broadcasting array ops (BroadcastTo, SelectV2, Fill).
registry.register_op("SumToShape", shape_fn=_sum_to_shape_shape)


@registry.register_gradient("SumToShape")
def _sum_to_shape_grad(op, grad):
    return [broadcast_to(grad, shape(op.inputs[0])), None]


def _sum_to_shape(x, shape_t, shape_hint=None):
    out = apply_op("SumToShape", [x, shape_t], [_base(x)], "SumToShape", attrs={"T": _base(x)})
    if shape_hint is not None and out.shape.is_compatible_with(shape_hint):
        out.set_shape(shape_hint)
    return out


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and array_ops.py imports them all once its helpers exist.
from .array_reshape_ops import expand_dims, reshape, squeeze, transpose  # noqa: E402
from .array_join_ops import concat  # noqa: E402


def _batch_gather_nd(params, indices, batch_dims, name=None):
    """gather_nd with leading batch dimensions: TF's composite (a batch index grid concatenated to
    the indices, one GatherNd), so the result is named like TF's ("BatchGatherND/Reshape_3")."""
    from . import math_ops
    from .array_ops import concat, ones, stack, transpose, unstack
    from .array_misc_ops import meshgrid
    from .array_range_ops import range as _range
    from .array_reshape_ops import reshape
    g = _graph()
    with g.name_scope(name or "BatchGatherND"):
        indices = _to_tensor(indices, name="indices")
        params = _to_tensor(params, name="params")
        if not isinstance(batch_dims, int):
            raise TypeError(f"Argument `batch_dims` must be an int; got {batch_dims}")
        if batch_dims < 0:
            raise ValueError(f"tf.gather_nd does not allow negative batch_dims.")
        ind_nd, par_nd = indices.shape.ndims, params.shape.ndims
        if ind_nd is None:
            raise ValueError("tensorweave's gather_nd with batch_dims needs indices of known rank")
        if batch_dims >= ind_nd:
            raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than rank(`indices`) = {ind_nd}")
        if par_nd is not None and batch_dims >= par_nd:
            raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than rank(`params`) = {par_nd}")
        params_shape = shape(params)
        indices_shape = shape(indices)
        batch_shape = params_shape[:batch_dims]
        batch_size = math_ops.reduce_prod(batch_shape, [0])
        index_internal_ndims = ind_nd - batch_dims - 1
        indices_internal_shape = indices_shape[batch_dims:-1]
        dim_ranges = [math_ops.cast(_range(0, d, 1), _base(indices)) for d in unstack(batch_shape, num=batch_dims)]
        mesh_list = meshgrid(*dim_ranges, indexing="ij") if dim_ranges else []
        flat_list = [reshape(m, [-1]) for m in mesh_list]
        index_grid = transpose(stack(flat_list, axis=0))
        index_grid_shape = shape(index_grid)
        index_grid = reshape(index_grid, concat([index_grid_shape[:1], ones([index_internal_ndims], _dtypes_int32()),
                                                 index_grid_shape[1:]], axis=0))
        tile_shape = concat(([1], indices_internal_shape, [1]), axis=0)
        index_grid = tile(index_grid, tile_shape)
        flat_shape = concat((stack([batch_size]), indices_shape[batch_dims:]), axis=0)
        flat_indices = reshape(indices, flat_shape)
        full = concat((index_grid, flat_indices), axis=-1)
        out = gather_nd(params, full)
        out = reshape(out, concat((batch_shape, shape(out)[1:]), axis=0))
        c = indices.shape[-1].value
        if c is not None and par_nd is not None:
            out.set_shape(indices.shape[:-1].concatenate(params.shape[batch_dims + c:]))
        return out


def _dtypes_int32():
    from ..framework import dtypes
    return dtypes.int32
