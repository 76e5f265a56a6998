"""Embeddings: `tf.nn.embedding_lookup` over one tensor or a list of shards ("mod" and "div"
partition strategies, assigned exactly as TF does), `tf.nn.embedding_lookup_sparse` (combiners
"sum", "mean", "sqrtn"), and the ops they stand on, `tf.dynamic_partition` and
`tf.dynamic_stitch`.

The lookup is a gather, so the gradient with respect to the parameters is an `IndexedSlices`
holding only the looked-up rows, and optimizers update only those rows.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, colocate_with, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import Dimension, TensorShape, dimension_value, unknown_shape

# Top-level names (tf.dynamic_partition, ...); the embedding functions are tf.nn names.
__all__ = ["dynamic_partition", "dynamic_stitch"]


def _array():
    from . import array_ops
    return array_ops


def _math():
    from . import math_ops
    return math_ops


# -- DynamicPartition / DynamicStitch ----------------------------------------------------------

def _dynamic_partition_shape(op):
    data, partitions = op.inputs
    if data.shape.ndims is None or partitions.shape.ndims is None:
        return [unknown_shape()] * len(op.outputs)
    k = partitions.shape.ndims
    if data.shape.ndims < k:
        raise ValueError(f"Shape must be at least rank {k} but is rank {data.shape.ndims}")
    data.shape[:k].assert_is_compatible_with(partitions.shape)
    return [TensorShape([None]).concatenate(data.shape[k:])] * len(op.outputs)


registry.register_op("DynamicPartition", shape_fn=_dynamic_partition_shape)


@registry.register_gradient("DynamicPartition")
def _dynamic_partition_grad(op, *grads):
    array_ops, math_ops = _array(), _math()
    data, indices = op.inputs
    num_partitions = op._get_attr("num_partitions")
    prefix_shape = array_ops.shape(indices)
    original_indices = array_ops.reshape(array_ops.range(math_ops.reduce_prod(prefix_shape)), prefix_shape)
    partitioned_indices = dynamic_partition(original_indices, indices, num_partitions)
    grads = [g if g is not None else array_ops.zeros_like(o) for g, o in zip(grads, op.outputs)]
    reconstructed = _stitch("ParallelDynamicStitch", partitioned_indices, grads, None)
    reconstructed = array_ops.reshape(reconstructed, array_ops.shape(data))
    return [reconstructed, None]


def dynamic_partition(data, partitions, num_partitions, name=None):
    """Splits `data` into `num_partitions` tensors: outputs[i] holds, in order, the slices
    data[j] with partitions[j] == i (partitions' shape is a prefix of data's)."""
    data = convert_to_tensor(data, name="data")
    partitions = convert_to_tensor(partitions, name="partitions")
    if partitions.dtype.base_dtype != _dtypes.int32:
        raise TypeError(f"Input 'partitions' of 'DynamicPartition' Op has type "
                        f"{partitions.dtype.base_dtype.name} that does not match expected type of int32.")
    n = int(num_partitions)
    if n < 1:
        raise ValueError(f"Attr 'num_partitions' of 'DynamicPartition' Op passed {n} less than minimum 1.")
    t = data.dtype.base_dtype
    out = apply_op("DynamicPartition", [data, partitions], [t] * n, name or "DynamicPartition",
                   attrs={"num_partitions": n, "T": t})
    return out if isinstance(out, list) else [out]


def _dynamic_stitch_shape(op):
    n = op._get_attr("N")
    indices, data = op.inputs[:n], op.inputs[n:]
    elem = None
    for i, d in zip(indices, data):
        if i.shape.ndims is None or d.shape.ndims is None:
            continue
        s = d.shape[i.shape.ndims:]
        elem = s if elem is None else elem.merge_with(s)
    if elem is None:
        return [unknown_shape()]
    rows = None
    vals = [constant_value(i) for i in indices]
    if all(v is not None for v in vals):
        rows = max([int(v.max()) + 1 if v.size else 0 for v in vals] + [0])
    return [TensorShape([rows]).concatenate(elem)]


registry.register_op("DynamicStitch", shape_fn=_dynamic_stitch_shape)
registry.register_op("ParallelDynamicStitch", shape_fn=_dynamic_stitch_shape)


def _dynamic_stitch_grad(op, grad):
    array_ops, math_ops = _array(), _math()
    n = op._get_attr("N")
    indices = [op.inputs[i] for i in range(n)]
    inputs = [math_ops.cast(x, _dtypes.int32) if x.dtype.base_dtype != _dtypes.int32 else x for x in indices]
    if isinstance(grad, IndexedSlices):
        output_rows = array_ops.shape(op.outputs[0])[0]
        grad = math_ops.unsorted_segment_sum(grad.values, grad.indices, output_rows)
    values_grad = [array_ops.gather(grad, inp) for inp in inputs]
    return [None] * n + values_grad


registry.register_gradient("DynamicStitch")(_dynamic_stitch_grad)
registry.register_gradient("ParallelDynamicStitch")(_dynamic_stitch_grad)


def _stitch(op_type, indices, data, name):
    wrapper = "dynamic_stitch" if op_type == "DynamicStitch" else "parallel_dynamic_stitch"
    for arg, v in (("indices", indices), ("data", data)):
        if not isinstance(v, (list, tuple)):      # (TF's generated wrapper's check)
            raise TypeError(f"Expected list for '{arg}' argument to '{wrapper}' Op, not {v!r}.")
    indices = [convert_to_tensor(i, dtype=_dtypes.int32) for i in indices]
    data = [convert_to_tensor(d) for d in data]
    if len(indices) != len(data):
        raise ValueError(f"List argument 'data' to '{op_type}' Op with length {len(data)} must match "
                         f"length {len(indices)} of argument 'indices'.")
    t = data[0].dtype.base_dtype
    return apply_op(op_type, indices + data, [t], name or op_type, attrs={"N": len(indices), "T": t})


def dynamic_stitch(indices, data, name=None):
    """merged[indices[m][i, ...], ...] = data[m][i, ...]: interleaves the `data` tensors into one,
    with len(merged) = max(indices) + 1; for repeated indices the later one wins."""
    return _stitch("DynamicStitch", indices, data, name)


def parallel_dynamic_stitch(indices, data, name=None):
    return _stitch("ParallelDynamicStitch", indices, data, name)


# -- embedding_lookup --------------------------------------------------------------------------

def _clip(params, ids, max_norm):
    """Each looked-up embedding rescaled to an L2 norm of at most max_norm (TF's _clip)."""
    if max_norm is None:
        return params
    from . import clip_ops
    ids_rank, params_rank = ids.shape.ndims, params.shape.ndims
    if ids_rank is not None and params_rank is not None:
        axes = list(range(ids_rank, params_rank))
    else:
        array_ops = _array()
        axes = array_ops.range(array_ops.rank(ids), array_ops.rank(params))
    return clip_ops.clip_by_norm(params, max_norm, axes=axes)


def _as_param_list(params):
    if params is None or (isinstance(params, (list, tuple)) and len(params) == 0):
        raise ValueError("Need at least one param")
    from .partitioned_variables import PartitionedVariable
    if isinstance(params, PartitionedVariable):
        params = list(params)
    if not isinstance(params, (list, tuple)):
        params = [params]
    return list(params)


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """Rows `ids` of `params` (one tensor or variable, or a list of shards of one).

    With P shards, "mod" puts id i in shard i % P at row i // P; "div" splits the ids into P
    contiguous ranges, the first (total % P) shards holding one more id than the others."""
    params = _as_param_list(params)
    array_ops, math_ops = _array(), _math()
    with name_scope(name, "embedding_lookup", params + [ids]) as name:
        np_ = len(params)
        if not any(getattr(p, "_is_resource_variable", False) for p in params):
            # (TF keeps resource variables as they are, so the lookup is a ResourceGather)
            # (TF's convert_n_to_tensor_or_indexed_slices: "params_0", "params_1", ...)
            params = [p if isinstance(p, IndexedSlices) else convert_to_tensor(p, name=f"params_{i}")
                      for i, p in enumerate(params)]
        ids = convert_to_tensor(ids, name="ids")
        if np_ == 1:
            with colocate_with(params[0]):
                result = _clip(array_ops.gather(params[0], ids, name=name), ids, max_norm)
            return array_ops.identity(result)
        if partition_strategy not in ("mod", "div"):
            raise ValueError(f"Unrecognized partition strategy: {partition_strategy}."
                             "Must be one of either `mod` or `div`.")
        flat_ids = array_ops.reshape(ids, [-1])
        original_indices = array_ops.range(array_ops.size(flat_ids))
        if partition_strategy == "mod":
            p_assignments = flat_ids % np_
            new_ids = flat_ids // np_
        else:
            dim_0_size = Dimension(dimension_value(params[0].shape[0]))
            for p in range(1, np_):
                dim_0_size += Dimension(dimension_value(params[p].shape[0]))
            if dim_0_size.value:
                num_total_ids = convert_to_tensor(dim_0_size.value, dtype=flat_ids.dtype.base_dtype)
            else:
                dim_0_sizes = []
                for p in range(np_):
                    d = dimension_value(params[p].shape[0])
                    if d is not None:
                        dim_0_sizes.append(d)
                    else:
                        with colocate_with(params[p]):
                            dim_0_sizes.append(array_ops.shape(params[p])[0])
                num_total_ids = math_ops.reduce_sum(
                    math_ops.cast(array_ops.stack(dim_0_sizes), flat_ids.dtype.base_dtype))
            ids_per_partition = num_total_ids // np_
            extras = num_total_ids % np_
            p_assignments = math_ops.maximum(flat_ids // (ids_per_partition + 1),
                                             (flat_ids - extras) // ids_per_partition)
            is_in_first_extras_partitions = p_assignments < extras
            new_ids = array_ops.where(is_in_first_extras_partitions, flat_ids % (ids_per_partition + 1),
                                      (flat_ids - extras) % ids_per_partition)
        p_assignments = math_ops.cast(p_assignments, _dtypes.int32)
        gather_ids = dynamic_partition(new_ids, p_assignments, np_)
        pindices = dynamic_partition(original_indices, p_assignments, np_)
        partitioned_result = []
        for p in range(np_):
            with colocate_with(params[p]):
                result = array_ops.gather(params[p], gather_ids[p])
            partitioned_result.append(result)
        ret = parallel_dynamic_stitch(pindices, partitioned_result, name=name)
        element_shape_s = params[0].shape[1:]
        for p in params[1:]:
            element_shape_s = element_shape_s.merge_with(p.shape[1:])
        if element_shape_s.is_fully_defined():
            element_shape_d = element_shape_s.as_list()
        else:
            with colocate_with(params[0]):
                params_shape = array_ops.shape(params[0])
            element_shape_d = params_shape[1:]
        ret = array_ops.reshape(ret, array_ops.concat([array_ops.shape(ids), element_shape_d], 0))
        ret.set_shape(ids.shape.concatenate(element_shape_s))
        # TF clips the stitched result (one clip_by_norm named in this scope), not each partition
        return _clip(ret, ids, max_norm)


def embedding_lookup_sparse(params, sp_ids, sp_weights, partition_strategy="mod", name=None,
                            combiner=None, max_norm=None):
    """Per row of `sp_ids` (a SparseTensor of ids, [batch, ?]), the combination of the embeddings
    of its ids, weighted by `sp_weights` (or 1): "sum", "mean" (sum / sum of weights) or "sqrtn"
    (sum / sqrt(sum of squared weights)). Rows past the last non-empty one are not returned."""
    if combiner is None:
        combiner = "mean"
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    params = _as_param_list(params)
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    ignore_weights = sp_weights is None
    if not ignore_weights:
        if not isinstance(sp_weights, SparseTensor):
            raise TypeError(f"sp_weights must be either None or SparseTensor,got {type(sp_weights)}")
        sp_ids.values.shape.assert_is_compatible_with(sp_weights.values.shape)
        sp_ids.indices.shape.assert_is_compatible_with(sp_weights.indices.shape)
        sp_ids.dense_shape.shape.assert_is_compatible_with(sp_weights.dense_shape.shape)
    array_ops, math_ops = _array(), _math()
    from . import sparse_ops
    with name_scope(name, "embedding_lookup_sparse", params + [sp_ids]) as name:
        # TF 2.21's embedding_lookup_sparse_impl
        segment_ids = sp_ids.indices[:, 0]
        ids = sp_ids.values
        if len(params) == 1 and not isinstance(params[0], Tensor):
            params = [convert_to_tensor(params[0], name="params")]
        fast = (len(params) == 1 and ignore_weights and max_norm is None
                and getattr(params[0], "device", "") == segment_ids.device)
        if fast:  # the segment reduction reads the params itself; its gradient is an IndexedSlices
            idx, embeddings = ids, params[0]
        else:
            ids, idx = array_ops.unique(ids)
            embeddings = embedding_lookup(params, ids, partition_strategy=partition_strategy, max_norm=max_norm)
        if not ignore_weights:
            if segment_ids.dtype.base_dtype != _dtypes.int32:
                segment_ids = math_ops.cast(segment_ids, _dtypes.int32)
            weights = sp_weights.values
            embeddings = array_ops.gather(embeddings, idx)
            if weights.dtype.base_dtype != embeddings.dtype.base_dtype:
                weights = math_ops.cast(weights, embeddings.dtype.base_dtype)
            ones_shape = array_ops.expand_dims(array_ops.rank(embeddings) - 1, 0)
            weights_shape = array_ops.shape(weights)
            ones = array_ops.ones(ones_shape, dtype=weights_shape.dtype)
            bcast_weights_shape = array_ops.concat([weights_shape, ones], 0)
            orig_weights_shape = weights.shape
            weights = array_ops.reshape(weights, bcast_weights_shape)
            if embeddings.shape.ndims is not None:
                weights.set_shape(orig_weights_shape.concatenate([1] * (embeddings.shape.ndims - 1)))
            embeddings *= weights
            if combiner == "sum":
                embeddings = math_ops.segment_sum(embeddings, segment_ids, name=name)
            elif combiner == "mean":
                embeddings = math_ops.segment_sum(embeddings, segment_ids)
                weight_sum = math_ops.segment_sum(weights, segment_ids)
                embeddings = math_ops.div_no_nan(embeddings, weight_sum, name=name)
            else:
                embeddings = math_ops.segment_sum(embeddings, segment_ids)
                weights_squared = math_ops.pow(weights, 2)
                weight_sum = math_ops.segment_sum(weights_squared, segment_ids)
                weight_sum_sqrt = math_ops.sqrt(weight_sum)
                embeddings = math_ops.div_no_nan(embeddings, weight_sum_sqrt, name=name)
        else:
            if segment_ids.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
                segment_ids = math_ops.cast(segment_ids, _dtypes.int32)
            fn = {"sum": sparse_ops.sparse_segment_sum, "mean": sparse_ops.sparse_segment_mean,
                  "sqrtn": sparse_ops.sparse_segment_sqrt_n}[combiner]
            embeddings = fn(embeddings, idx, segment_ids, name=name, sparse_gradient=fast)
        return embeddings
