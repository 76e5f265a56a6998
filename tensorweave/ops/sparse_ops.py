"""Sparse ops: `tf.sparse_to_dense`, `tf.sparse_tensor_to_dense` / `tf.sparse.to_dense`,
`tf.sparse_placeholder`, and the sparse segment reductions `tf.sparse_segment_sum` / `_mean` /
`_sqrt_n` (out[s] = reduce over k with segment_ids[k] == s of data[indices[k]]), with TF's
gradients."""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.graph import Tensor
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["sparse_to_dense", "sparse_tensor_to_dense", "sparse_placeholder", "sparse_segment_sum",
           "sparse_segment_mean", "sparse_segment_sqrt_n", "SparseTensor", "SparseTensorValue"]

from ..framework.sparse_tensor import SparseTensorValue  # noqa: E402  (re-exported as tf.SparseTensorValue)


def _array():
    from . import array_ops
    return array_ops


def _math():
    from . import math_ops
    return math_ops


# -- SparseToDense -----------------------------------------------------------------------------

def _sparse_to_dense_shape(op):
    out_shape = op.inputs[1]
    v = constant_value(out_shape)
    if v is not None:
        return [TensorShape([int(d) for d in np.asarray(v).reshape(-1)])]
    s = out_shape.shape
    if s.ndims == 0:
        return [TensorShape([])]
    if s.ndims == 1 and s.dims[0].value is not None:
        return [unknown_shape(rank=s.dims[0].value)]
    return [unknown_shape()]


registry.register_op("SparseToDense", shape_fn=_sparse_to_dense_shape)


@registry.register_gradient("SparseToDense")
def _sparse_to_dense_grad(op, grad):
    """TF's: the values get the gradient at their positions; the default value gets the rest."""
    sparse_indices, output_shape, _, _ = op.inputs
    array_ops, math_ops = _array(), _math()
    sparse_values_grad = array_ops.gather_nd(grad, sparse_indices)
    default_value_grad = math_ops.reduce_sum(grad) - math_ops.reduce_sum(sparse_values_grad)
    return [None, None, sparse_values_grad, default_value_grad]


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True,
                    name=None):
    """A dense tensor of `output_shape` holding `sparse_values` at `sparse_indices` (a scalar value
    fills every index) and `default_value` elsewhere."""
    from ..framework.graph import name_scope
    with name_scope(name, "SparseToDense") as scope:
        sparse_indices = convert_to_tensor(sparse_indices, name="sparse_indices")
        if sparse_indices.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'sparse_indices' has DataType "
                            f"{sparse_indices.dtype.base_dtype.name} not in list of allowed values: int32, int64")
        output_shape = convert_to_tensor(output_shape, name="output_shape", dtype=sparse_indices.dtype.base_dtype)
        sparse_values = convert_to_tensor(sparse_values, name="sparse_values")
        try:
            default_value = convert_to_tensor(default_value, name="default_value",
                                              dtype=sparse_values.dtype.base_dtype)
        except TypeError as e:
            if isinstance(default_value, Tensor):
                raise
            # TF's op-def library names the parameter and op around the conversion error
            raise TypeError(f"Expected {sparse_values.dtype.base_dtype.name} passed to parameter 'default_value' "
                            f"of op 'SparseToDense', got {default_value!r} of type "
                            f"'{type(default_value).__name__}' instead. Error: {e}") from None
        t = sparse_values.dtype.base_dtype
        return apply_op("SparseToDense", [sparse_indices, output_shape, sparse_values, default_value], [t],
                        scope, attrs={"validate_indices": bool(validate_indices), "T": t,
                                      "Tindices": sparse_indices.dtype.base_dtype})


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor a SparseTensor stands for (`default_value`, 0 by default, elsewhere)."""
    if not isinstance(sp_input, SparseTensor):
        if isinstance(sp_input, SparseTensorValue):
            sp_input = SparseTensor.from_value(sp_input)
        else:
            raise TypeError("Input must be a SparseTensor.")
    if default_value is None:
        default_value = _array().zeros([], dtype=sp_input.dtype.base_dtype)
    return sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values,
                           default_value=default_value, validate_indices=validate_indices, name=name)


def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor of placeholders: feed it a `tf.SparseTensorValue` (or an (indices, values,
    dense_shape) tuple). With a `shape`, the dense shape is a PlaceholderWithDefault of that shape
    (-1 for unknown dimensions) and the static shape is `shape`, as in TF; without one, a
    Placeholder of unknown length."""
    from .array_ops import placeholder, placeholder_with_default
    shape_name = (name + "/shape") if name is not None else None
    if shape is None:
        rank = None
        dense_shape = placeholder(_dtypes.int64, shape=[rank], name=shape_name)
        dense_shape_default = None
    else:
        if isinstance(shape, Tensor):
            rank = shape.shape[0].value if shape.shape.ndims else None
            v = constant_value(shape)
            dense_shape_default = TensorShape([None if d == -1 else int(d) for d in v]) if v is not None \
                else unknown_shape(rank=rank)
        else:
            dims = list(TensorShape(shape).as_list()) if not isinstance(shape, (list, tuple)) else \
                [None if d is None or (not hasattr(d, "value") and d == -1) else
                 (d.value if hasattr(d, "value") else int(d)) for d in shape]
            rank = len(dims)
            dense_shape_default = TensorShape(dims)
            shape = convert_to_tensor(np.array([-1 if d is None else d for d in dims], np.int64),
                                      name=(name + "/shape_default") if name is not None else None)
        # Feedable, and unreadable as a constant: ops on it see its value only at run time (TF).
        dense_shape = placeholder_with_default(shape, shape=shape.shape, name=shape_name)
    result = SparseTensor(
        values=placeholder(dtype, shape=[None], name=(name + "/values") if name is not None else None),
        indices=placeholder(_dtypes.int64, shape=[None, rank],
                            name=(name + "/indices") if name is not None else None),
        dense_shape=dense_shape)
    if dense_shape_default is not None:
        result.set_shape(dense_shape_default)
    return result


# -- sparse segment reductions -----------------------------------------------------------------

def _sparse_segment_shape(op):
    data, indices, segment_ids = op.inputs[:3]
    for t in (indices, segment_ids):
        if t.shape.ndims not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {t.shape.ndims}")
    if data.shape.ndims is None:
        return [unknown_shape()]
    if data.shape.ndims < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {data.shape.ndims}")
    return [TensorShape([None]).concatenate(data.shape[1:])]


def _sparse_segment_grad_shape(op):
    grad = op.inputs[0]
    dim0 = constant_value(op.inputs[3])
    if grad.shape.ndims is None:
        return [unknown_shape()]
    return [TensorShape([None if dim0 is None else int(dim0)]).concatenate(grad.shape[1:])]


def _sparse_segment_num_shape(op):
    data = op.inputs[0]
    n = constant_value(op.inputs[3])
    if data.shape.ndims is None:
        return [unknown_shape()]
    return [TensorShape([None if n is None else int(n)]).concatenate(data.shape[1:])]


for _t in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"):
    registry.register_op(_t, shape_fn=_sparse_segment_shape)
    registry.register_op(_t + "WithNumSegments", shape_fn=_sparse_segment_num_shape)
for _t in ("SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"):
    registry.register_op(_t, shape_fn=_sparse_segment_grad_shape)
    registry.no_gradient(_t)


def _sparse_gradient(op, grad, kind):
    """TF's _SparseSegmentReduceGradV2 (the op built with sparse_gradient=True): an IndexedSlices
    over the sorted unique indices, each row the sum of its (scaled) output-gradient rows. TF has
    one SparseSegment<kind>GradV2 op; here it is composed: rows gathered by segment (times
    1/n or 1/sqrt(n) of their segment), stably sorted by index, summed per unique index."""
    from .math_extra_ops import argsort
    array_ops, math_ops = _array(), _math()
    indices, segment_ids = op.inputs[1], op.inputs[2]
    data_shape = array_ops.shape(op.inputs[0])
    rows = array_ops.gather(grad, segment_ids)
    if kind != "sum":
        ones = array_ops.ones_like(segment_ids, dtype=grad.dtype.base_dtype)
        counts = math_ops.maximum(math_ops.unsorted_segment_sum(ones, segment_ids, array_ops.shape(grad)[0]),
                                  1)
        scale = math_ops.reciprocal(counts if kind == "mean" else math_ops.sqrt(counts))
        scale = array_ops.gather(scale, segment_ids)
        if grad.shape.ndims is not None:
            scale = array_ops.reshape(scale, [-1] + [1] * (grad.shape.ndims - 1))
        else:
            scale = array_ops.reshape(scale, array_ops.concat(
                [[-1], array_ops.ones(array_ops.rank(grad) - 1, dtype=_dtypes.int32)], 0))
        rows = rows * scale
    order = argsort(indices)
    unique, idx = array_ops.unique(array_ops.gather(indices, order))
    values = math_ops.unsorted_segment_sum(array_ops.gather(rows, order), idx, array_ops.size(unique))
    return IndexedSlices(values, unique, data_shape)


def _sparse_gradient_attr(op):
    return bool(op._attrs.get("sparse_gradient", False))


@registry.register_gradient("SparseSegmentSum")
def _sparse_segment_sum_grad(op, grad):
    if _sparse_gradient_attr(op):
        return [_sparse_gradient(op, grad, "sum"), None, None]
    array_ops, math_ops = _array(), _math()
    input_rows = array_ops.shape(op.inputs[0])[0]
    return [math_ops.unsorted_segment_sum(array_ops.gather(grad, op.inputs[2]), op.inputs[1], input_rows),
            None, None]


def _scaled_grad(grad_type):
    def grad_fn(op, grad):
        if _sparse_gradient_attr(op):
            return [_sparse_gradient(op, grad, "mean" if "Mean" in grad_type else "sqrtn"), None, None]
        dim0 = _array().shape(op.inputs[0])[0]
        return [_segment_grad_op(grad_type, grad, op.inputs[1], op.inputs[2], dim0), None, None]
    return grad_fn


def _segment_grad_op(op_type, grad, indices, segment_ids, dim0):
    t = grad.dtype.base_dtype
    return apply_op(op_type, [grad, indices, segment_ids, dim0], [t], op_type,
                    attrs={"T": t, "Tidx": indices.dtype.base_dtype})


registry.register_gradient("SparseSegmentMean")(_scaled_grad("SparseSegmentMeanGrad"))
registry.register_gradient("SparseSegmentSqrtN")(_scaled_grad("SparseSegmentSqrtNGrad"))


@registry.register_gradient("SparseSegmentSumWithNumSegments")
def _sparse_segment_sum_num_grad(op, grad):
    return _sparse_segment_sum_grad(op, grad)[:3] + [None]


def _scaled_num_grad(grad_type):
    def grad_fn(op, grad):
        return _scaled_grad(grad_type)(op, grad) + [None]
    return grad_fn


registry.register_gradient("SparseSegmentMeanWithNumSegments")(_scaled_num_grad("SparseSegmentMeanGrad"))
registry.register_gradient("SparseSegmentSqrtNWithNumSegments")(_scaled_num_grad("SparseSegmentSqrtNGrad"))


def _sparse_segment(op_type, data, indices, segment_ids, name, num_segments=None, sparse_gradient=False):
    """The generated op: inputs converted inside its name scope (<op>/indices, ...); with
    sparse_gradient the gradient for `data` is an IndexedSlices (TF's *GradV2)."""
    from ..framework.graph import name_scope
    if num_segments is not None:  # TF's <op>WithNumSegments: num_segments rows (missing ones are 0)
        op_type += "WithNumSegments"
    with name_scope(name, op_type) as scope:
        data = convert_to_tensor(data, name="data")
        indices = convert_to_tensor(indices, name="indices")
        segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
        for arg, t in (("indices", indices), ("segment_ids", segment_ids)):
            if t.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
                raise TypeError(f"Value passed to parameter '{arg}' has DataType {t.dtype.base_dtype.name} not "
                                "in list of allowed values: int32, int64")
        t = data.dtype.base_dtype
        attrs = {"T": t, "Tidx": indices.dtype.base_dtype, "Tsegmentids": segment_ids.dtype.base_dtype,
                 "sparse_gradient": bool(sparse_gradient)}
        inputs = [data, indices, segment_ids]
        if num_segments is not None:
            num_segments = convert_to_tensor(num_segments, name="num_segments")
            attrs["Tnumsegments"] = num_segments.dtype.base_dtype
            inputs.append(num_segments)
        return apply_op(op_type, inputs, [t], scope, attrs=attrs)


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None, sparse_gradient=False):
    """out[s] = sum of data[indices[k]] over k with segment_ids[k] == s (segment_ids sorted)."""
    return _sparse_segment("SparseSegmentSum", data, indices, segment_ids, name, num_segments, sparse_gradient)


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None, sparse_gradient=False):
    """Like sparse_segment_sum, divided by each segment's size (empty segments give 0)."""
    return _sparse_segment("SparseSegmentMean", data, indices, segment_ids, name, num_segments, sparse_gradient)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None, sparse_gradient=False):
    """Like sparse_segment_sum, divided by the square root of each segment's size."""
    return _sparse_segment("SparseSegmentSqrtN", data, indices, segment_ids, name, num_segments,
                           sparse_gradient)


# -- SparseTensor arithmetic: reduce, add, concat, reorder, reshape, dense matmul, retain -----------

def _sp(x):
    if isinstance(x, SparseTensorValue):
        return SparseTensor.from_value(x)
    if not isinstance(x, SparseTensor):
        raise TypeError(f"Input must be a SparseTensor, got {type(x)}.")
    return x


def _const_shape(sp):
    v = constant_value(sp.dense_shape)
    return None if v is None else [int(d) for d in np.asarray(v).reshape(-1)]


def _reduce_shape(op):
    v = constant_value(op.inputs[2])
    axes = constant_value(op.inputs[3])
    keep = op._get_attr("keep_dims")
    if v is None:
        return [unknown_shape()]
    shape = [int(d) for d in np.asarray(v).reshape(-1)]
    if axes is None:
        return [unknown_shape(rank=len(shape)) if keep else unknown_shape()]
    ax = {int(a) % len(shape) for a in np.asarray(axes).reshape(-1)} if np.size(axes) else set(range(len(shape)))
    if keep:
        return [TensorShape([1 if i in ax else d for i, d in enumerate(shape)])]
    return [TensorShape([d for i, d in enumerate(shape) if i not in ax])]


registry.register_op("SparseReduceSum", shape_fn=_reduce_shape)
registry.register_op("SparseReduceMax", shape_fn=_reduce_shape)  # no gradient in TF (LookupError)


@registry.register_gradient("SparseReduceSum")
def _sparse_reduce_sum_grad(op, out_grad):
    """TF's: the output gradient, reshaped to the kept-dims shape, read back at each entry."""
    array_ops, math_ops = _array(), _math()
    sp_indices, sp_shape = op.inputs[0], op.inputs[2]
    kept = _reduced_shape(sp_shape, op.inputs[3])
    reshaped = array_ops.reshape(out_grad, kept)
    scale = sp_shape // math_ops.cast(kept, _dtypes.int64)
    return [None, array_ops.gather_nd(reshaped, sp_indices // scale), None, None]


def _sparse_reduce(op_type, sp_input, axis, keepdims, name):
    from ..framework.graph import name_scope
    sp_input = _sp(sp_input)
    if axis is None:
        # TF's _ReductionDims: every axis, a Const when the rank is static, else range(Rank).
        n = sp_input.dense_shape.shape
        if n.ndims == 1 and n[0].value is not None:
            axis = convert_to_tensor(np.arange(n[0].value, dtype=np.int32))
        else:
            axis = _array().range(0, apply_op("Size", [sp_input.dense_shape], [_dtypes.int32], "Rank",
                                             attrs={"out_type": _dtypes.int32}))
    t = sp_input.dtype.base_dtype
    with name_scope(name, op_type) as scope:
        axes = convert_to_tensor(axis, dtype=_dtypes.int32, name="reduction_axes")
        return apply_op(op_type, [sp_input.indices, sp_input.values, sp_input.dense_shape, axes], [t],
                        scope, attrs={"keep_dims": bool(keepdims), "T": t})


def _reduced_shape(input_shape, axes):
    """TF's math_ops.reduced_shape: input_shape with the reduced axes set to 1 (int32), folded
    to a constant when both are known."""
    array_ops, math_ops = _array(), _math()
    shape_v, axes_v = constant_value(input_shape), constant_value(axes)
    if shape_v is not None and axes_v is not None:
        out = np.array(shape_v, dtype=np.int32)
        out[np.array(axes_v, dtype=np.int32)] = 1
        return out
    from .embedding_ops import dynamic_stitch
    input_shape = math_ops.cast(input_shape, _dtypes.int32)
    axes = math_ops.cast(axes, _dtypes.int32)
    rank = array_ops.size(input_shape)
    axes = (axes + rank) % rank
    return dynamic_stitch([array_ops.range(rank), axes],
                          [input_shape, array_ops.ones(array_ops.shape(axes), dtype=_dtypes.int32)])


def sparse_reduce_sum(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None, name=None):
    """Sum of a SparseTensor's entries (missing ones are 0) over `axis` (all by default); dense."""
    axis = reduction_axes if axis is None else axis
    keepdims = bool(keep_dims if keepdims is None else keepdims)
    return _sparse_reduce("SparseReduceSum", sp_input, axis, keepdims, name)


def sparse_reduce_max(sp_input, axis=None, keepdims=None, reduction_axes=None, keep_dims=None, name=None):
    """Max of a SparseTensor's present entries over `axis` (all by default); dense."""
    axis = reduction_axes if axis is None else axis
    keepdims = bool(keep_dims if keepdims is None else keepdims)
    return _sparse_reduce("SparseReduceMax", sp_input, axis, keepdims, name)


registry.register_op("SparseAdd", shape_fn=lambda op: [TensorShape([None, op.inputs[0].shape[1].value
                                                                    if op.inputs[0].shape.ndims == 2 else None]),
                                                       TensorShape([None]), op.inputs[2].shape])
registry.register_op("SparseTensorDenseAdd", shape_fn=lambda op: [op.inputs[3].shape])
def _sparse_concat_shape(op):
    n = len(op.inputs) // 3
    # TF's shape function: each input's indices columns and dense shape length merge with the others'
    cols = length = None
    for k in range(n):
        ind = op.inputs[k].shape.require_rank(2)
        op.inputs[k + n].shape.require_rank(1)
        shp = op.inputs[k + 2 * n].shape.require_rank(1)
        for seen, d in ((cols, ind[1].value if ind.ndims else None), (length, shp[0].value if shp.ndims else None)):
            if seen is not None and d is not None and seen != d:
                raise ValueError(f"Dimensions must be equal, but are {seen} and {d}")
        cols = cols if ind.ndims is None or ind[1].value is None else ind[1].value
        length = length if shp.ndims is None or shp[0].value is None else shp[0].value
    counts = [t.shape[0].value if t.shape.ndims == 2 else None for t in op.inputs[:n]]
    nnz = sum(counts) if all(c is not None for c in counts) else None   # TF sums the static nnz
    rank = op.inputs[0].shape[1].value if op.inputs[0].shape.ndims == 2 else None
    return [TensorShape([nnz, rank]), TensorShape([nnz]), op.inputs[-1].shape]


registry.register_op("SparseConcat", shape_fn=_sparse_concat_shape)
registry.register_op("SparseReorder", shape_fn=lambda op: [op.inputs[0].shape, op.inputs[1].shape])
registry.register_op("SparseReshape", shape_fn=lambda op: [
    TensorShape([op.inputs[0].shape[0].value if op.inputs[0].shape.ndims == 2 else None,
                 op.inputs[2].shape[0].value if op.inputs[2].shape.ndims == 1 else None]),
    op.inputs[2].shape])
registry.register_op("SparseAddGrad", shape_fn=lambda op: [TensorShape([op.inputs[1].shape[0].value if
                                                                         op.inputs[1].shape.ndims == 2 else None]),
                                                            TensorShape([op.inputs[2].shape[0].value if
                                                                         op.inputs[2].shape.ndims == 2 else None])])
for _t in ("SparseAddGrad", "SparseConcat", "SparseReshape"):
    registry.no_gradient(_t)


@registry.register_gradient("SparseAdd")
def _sparse_add_grad(op, *grads):
    """TF's: SparseAddGrad routes the sum's value gradient to A's and B's entries."""
    a_grad, b_grad = apply_op("SparseAddGrad", [grads[1], op.inputs[0], op.inputs[3], op.outputs[0]],
                              [op.inputs[1].dtype.base_dtype] * 2, "SparseAddGrad")
    a_grad.set_shape(op.inputs[1].shape)
    b_grad.set_shape(op.inputs[4].shape)
    return [None, a_grad, None, None, b_grad, None, None]


@registry.register_gradient("SparseTensorDenseAdd")
def _sparse_dense_add_grad(op, out_grad):
    return [None, _array().gather_nd(out_grad, op.inputs[0]), None, out_grad]


@registry.register_gradient("SparseReorder")
def _sparse_reorder_grad(op, unused_indices_grad, values_grad):
    """TF's: reorder the entry numbers too and invert that permutation."""
    array_ops = _array()
    indices, shape = op.inputs[0], op.inputs[2]
    entries = array_ops.range(array_ops.shape(indices)[0])
    ordered = sparse_reorder(SparseTensor(indices, entries, shape))
    return [None, array_ops.gather(values_grad, array_ops.invert_permutation(ordered.values)), None]


def _with_static_shape(sp, shape):
    if shape is not None:
        sp.set_shape(shape)
    return sp


def sparse_add(a, b, threshold=0, thresh=None, name=None):
    """a + b: a SparseTensor when both are sparse (entries with |sum| < threshold dropped), a
    dense tensor when one of them is dense."""
    threshold = thresh if thresh is not None else threshold
    if not isinstance(a, (SparseTensor, SparseTensorValue)):
        a, b = b, a
    a = _sp(a)
    if not isinstance(b, (SparseTensor, SparseTensorValue)):
        b = convert_to_tensor(b, dtype=a.dtype.base_dtype, name="b")
        return apply_op("SparseTensorDenseAdd", [a.indices, a.values, a.dense_shape, b], [b.dtype.base_dtype],
                        name or "SparseTensorDenseAdd")
    b = _sp(b)
    if b.dtype.base_dtype != a.dtype.base_dtype:
        # TF's op-def check on the shared type attr T
        raise TypeError(f"Input 'b_values' of 'SparseAdd' Op has type {b.dtype.base_dtype.name} that does not "
                        f"match type {a.dtype.base_dtype.name} of argument 'a_values'.")
    thresh = convert_to_tensor(threshold, dtype=a.dtype.base_dtype.real_dtype if hasattr(
        a.dtype.base_dtype, "real_dtype") else a.dtype.base_dtype, name="threshold")
    i, v, s = apply_op("SparseAdd", [a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape,
                                     thresh], [_dtypes.int64, a.dtype.base_dtype, _dtypes.int64], name or "SparseAdd")
    a.shape.assert_is_compatible_with(b.shape)
    static = _broadcast_static_shape(a.shape, b.shape)
    if static.is_fully_defined():
        # TF: a known shape becomes the result's constant dense shape (`SparseTensor/dense_shape`)
        return SparseTensor(i, v, static.as_list())
    return SparseTensor(i, v, s)


def _broadcast_static_shape(a, b):
    from .array_misc_ops import broadcast_static_shape
    return broadcast_static_shape(a, b)


def sparse_concat(axis, sp_inputs, name=None, expand_nonconcat_dim=False, concat_dim=None,
                  expand_nonconcat_dims=None):
    """Concatenates SparseTensors along `axis` (their other dimensions must match unless
    `expand_nonconcat_dim`)."""
    axis = concat_dim if concat_dim is not None else axis
    expand = bool(expand_nonconcat_dims if expand_nonconcat_dims is not None else expand_nonconcat_dim)
    sps = [_sp(x) for x in sp_inputs]
    if len(sps) == 1:  # TF: the one input itself
        return sps[0]
    types = [x.dtype.base_dtype for x in sps]
    if any(t != types[0] for t in types):  # TF's op-def check on the list attr T
        raise TypeError(f"Tensors in list passed to 'values' of 'SparseConcat' Op have types "
                        f"[{', '.join(t.name for t in types)}] that don't all match.")
    shapes = [x.shape for x in sps]
    n = len(sps)
    dense_shapes = [x.dense_shape for x in sps]
    if expand:
        # TF's Python: every input's dense shape becomes the per-dimension max, its own size kept
        # along `axis` (the op itself has no expand attr)
        array_ops, math_ops = _array(), _math()
        max_shape = math_ops.reduce_max(array_ops.concat([array_ops.reshape(d, [1, -1]) for d in dense_shapes], 0), 0)
        dense_shapes = [array_ops.concat([max_shape[:axis], d[-1:] if axis == -1 else d[axis:axis + 1],
                                          [] if axis == -1 else max_shape[axis + 1:]], 0) for d in dense_shapes]
    i, v, s = apply_op("SparseConcat", [x.indices for x in sps] + [x.values for x in sps] + dense_shapes,
                       [_dtypes.int64, sps[0].dtype.base_dtype, _dtypes.int64],
                       name or "SparseConcat", attrs={"N": n, "T": sps[0].dtype.base_dtype, "concat_dim": int(axis)})
    # TF's static shape: the first input's (or the per-dimension max when expanding), the sum
    # along `axis`; a Const dense shape when every input is fully known.
    if all(x.ndims is not None for x in shapes):
        rank = shapes[0].ndims
        dims = [_dim_max([x[d].value for x in shapes]) for d in range(rank)] if expand else shapes[0].as_list()
        along = [x[axis].value for x in shapes]
        dims[axis] = None if None in along else sum(along)
        static = TensorShape(dims)
    else:
        static = unknown_shape()
    if all(x.is_fully_defined() for x in shapes):
        return SparseTensor(i, v, convert_to_tensor(np.asarray(static.as_list(), np.int64)))
    return _with_static_shape(SparseTensor(i, v, s), static)


def _dim_max(dims):
    return None if None in dims else max(dims)


def sparse_reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major (canonical) order."""
    sp_input = _sp(sp_input)
    i, v = apply_op("SparseReorder", [sp_input.indices, sp_input.values, sp_input.dense_shape],
                    [_dtypes.int64, sp_input.dtype.base_dtype], name or "SparseReorder")
    if sp_input.shape.ndims is not None and sp_input.shape.is_fully_defined():
        # TF's: a fully known shape becomes a constant (`SparseTensor/dense_shape`)
        return SparseTensor(i, v, sp_input.shape.as_list())
    return _with_static_shape(SparseTensor(i, v, array_identity(sp_input.dense_shape)), sp_input.shape)


def array_identity(t):
    return _array().identity(t)


def sparse_reshape(sp_input, shape, name=None):
    """The SparseTensor reshaped to `shape` (one -1 allowed), like tf.reshape on its dense form.
    Built as TF builds it: the shape cast to int64 first, then in scope `SparseReshape` the op,
    the values' Identity and, when every dimension is known statically, a Const dense shape."""
    from ..framework.graph import name_scope
    from .math_compare_ops import cast
    sp_input = _sp(sp_input)
    new_shape = cast(shape, _dtypes.int64)
    folded = None
    v = constant_value(new_shape)
    old = _const_shape(sp_input)
    # As TF: the result's shape is known statically only when the input's is fully known
    # (a -1 then resolved); otherwise it is the op's output, with unknown dimensions.
    if v is not None and old is not None:
        user = [int(d) for d in np.asarray(v).reshape(-1)]
        if user.count(-1) > 1:
            raise ValueError(f"At most one dimension can be inferred (-1). Found: {np.asarray(v)}")
        dims = [None if d == -1 else d for d in user]
        original = list(dims)
        total = int(np.prod(old))
        if dims.count(None) == 1 and 0 not in dims:
            rest = [d for d in dims if d is not None]
            dims[dims.index(None)] = int(total // np.prod(rest))
        if dims.count(None) == 0 or (dims.count(None) == 1 and 0 not in dims):
            size = int(np.prod(dims))
            if size != total:
                raise ValueError(f"Cannot reshape a tensor with {total} elements to shape {original} "
                                 f"({size} elements).")
            folded = dims
    with name_scope(name, "SparseReshape", [sp_input]) as scope:
        i, s = apply_op("SparseReshape", [sp_input.indices, sp_input.dense_shape, new_shape],
                        [_dtypes.int64, _dtypes.int64], scope)
        if folded is not None:
            s = convert_to_tensor(np.asarray(folded, np.int64))
        return SparseTensor(i, array_identity(sp_input.values), s)


def _sdmm_shape(op):
    # TF's shape function: indices a matrix, values a vector, a_shape (a vector) of 2 entries, b a matrix
    op.inputs[0].shape.require_rank(2)
    op.inputs[1].shape.require_rank(1)
    a_rank = op.inputs[2].shape.require_rank(1)[0].value
    if a_rank is not None and a_rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {a_rank}")
    b = op.inputs[3].shape.require_rank(2)
    adj_a, adj_b = op._get_attr("adjoint_a"), op._get_attr("adjoint_b")
    a = constant_value(op.inputs[2])
    rows = None if a is None else int(np.asarray(a).reshape(-1)[1 if adj_a else 0])
    cols = None if b.ndims != 2 else b[0 if adj_b else 1].value
    inner_a = None if a is None else int(np.asarray(a).reshape(-1)[0 if adj_a else 1])
    inner_b = None if b.ndims != 2 else b[1 if adj_b else 0].value
    if inner_a is not None and inner_b is not None and inner_a != inner_b:
        # the graph layer adds the node and input shapes to the message, as TF's
        raise ValueError(f"Dimensions must be equal, but are {inner_a} and {inner_b}")
    return [TensorShape([rows, cols])]


registry.register_op("SparseTensorDenseMatMul", shape_fn=_sdmm_shape)


@registry.register_gradient("SparseTensorDenseMatMul")
def _sdmm_grad(op, grad):
    """TF's: d b = A^T grad (adjoints respected); d values = rows of grad . rows of b at the
    entries, as a batch of 1x1 matmuls squeezed (TF's op names)."""
    a_indices, a_values, a_shape, b = op.inputs
    adj_a, adj_b = op._get_attr("adjoint_a"), op._get_attr("adjoint_b")
    if a_values.dtype.base_dtype != b.dtype.base_dtype:
        raise TypeError(f"SparseTensorDenseMatMul op received operands with different types: "
                        f"`{a_values.dtype.base_dtype}` and `{b.dtype.base_dtype}`.")
    array_ops = _array()
    from .linalg_ops import matrix_transpose
    from .math_matmul_ops import matmul
    b_grad = apply_op("SparseTensorDenseMatMul", [a_indices, a_values, a_shape, grad], [grad.dtype.base_dtype],
                      "SparseTensorDenseMatMul",
                      attrs={"T": grad.dtype.base_dtype, "Tindices": a_indices.dtype.base_dtype,
                             "adjoint_a": not adj_a, "adjoint_b": False})
    if adj_b:
        b_grad = matrix_transpose(b_grad, conjugate=True)
    rows, cols = a_indices[:, 0], a_indices[:, 1]
    parts_a = array_ops.gather(grad, rows if not adj_a else cols)
    parts_b = array_ops.gather(b if not adj_b else array_ops.transpose(b), cols if not adj_a else rows)
    ex = array_ops.expand_dims
    if not adj_a and not adj_b:
        g = matmul(ex(parts_a, -2), ex(parts_b, -2), adjoint_b=True)
    elif adj_a and not adj_b:
        g = matmul(ex(parts_a, -1), ex(parts_b, -1), adjoint_a=True)
    elif not adj_a and adj_b:
        g = matmul(ex(parts_a, -2), ex(parts_b, -1))
    else:
        g = matmul(ex(parts_a, -1), ex(parts_b, -2), adjoint_a=True, adjoint_b=True)
    return [None, array_ops.squeeze(g, axis=[-2, -1]), None, b_grad]


def sparse_tensor_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """Dense result of SparseTensor `sp_a` (rank 2) times dense matrix `b`."""
    from ..framework.graph import name_scope
    sp_a = _sp(sp_a)
    with name_scope(name, "SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, b]):
        # TF converts b on its own (inside the scope) and then checks it against the values' type
        b = convert_to_tensor(b, name="b")
        if b.dtype.base_dtype != sp_a.dtype.base_dtype:
            raise TypeError(f"Input 'b' of 'SparseTensorDenseMatMul' Op has type {b.dtype.base_dtype.name} that "
                            f"does not match type {sp_a.dtype.base_dtype.name} of argument 'a_values'.")
        return apply_op("SparseTensorDenseMatMul", [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                        [b.dtype.base_dtype], "SparseTensorDenseMatMul",
                        # T and Tindices as TF's node carries them (they show in shape-error messages)
                        attrs={"T": b.dtype.base_dtype, "Tindices": sp_a.indices.dtype.base_dtype,
                               "adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)})


def sparse_retain(sp_input, to_retain):
    """The entries of `sp_input` where the vector `to_retain` is true (nonzero)."""
    sp_input = _sp(sp_input)
    array_ops = _array()
    # TF converts the mask as given: Where takes any numeric mask as "nonzero"
    to_retain = convert_to_tensor(to_retain)
    # TF checks the mask's length against the number of values at graph build time
    to_retain.shape.assert_has_rank(1)
    if sp_input.values.shape.ndims is not None:
        sp_input.values.shape[0].assert_is_compatible_with(to_retain.shape[0])
    where_true = array_ops.reshape(array_ops.where(to_retain), [-1])
    # TF: an Identity of the dense shape, so a partly known shape is not carried over.
    return SparseTensor(array_ops.gather(sp_input.indices, where_true), array_ops.gather(sp_input.values, where_true),
                        array_ops.identity(sp_input.dense_shape))


def from_dense(tensor, name=None):
    """The SparseTensor of `tensor`'s nonzero entries."""
    from ..framework.graph import name_scope
    array_ops, math_ops = _array(), _math()
    with name_scope(name, "dense_to_sparse"):
        tensor = convert_to_tensor(tensor)
        zero = array_ops.zeros([], dtype=tensor.dtype) if tensor.dtype != _dtypes.string else ""
        indices = array_ops.where(math_ops.not_equal(tensor, zero))
        values = array_ops.gather_nd(tensor, indices)
        shape = array_ops.shape(tensor, out_type=_dtypes.int64)
        return _with_static_shape(SparseTensor(indices, values, shape), tensor.shape)


__all__ += ["sparse_reduce_sum", "sparse_reduce_max", "sparse_add", "sparse_concat", "sparse_reorder",
            "sparse_reshape", "sparse_tensor_dense_matmul", "sparse_retain"]

from .sparse_extra_ops import *  # noqa: E402,F401,F403  (slice, transpose, split, softmax, ...)
from . import sparse_extra_ops as _sparse_extra_ops  # noqa: E402

__all__ += _sparse_extra_ops.__all__
