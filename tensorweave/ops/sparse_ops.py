"""Sparse ops: `tf.sparse_to_dense`, `tf.sparse_tensor_to_dense` / `tf.sparse.to_dense`,
`tf.sparse_placeholder`, and the sparse segment reductions `tf.sparse_segment_sum` / `_mean` /
`_sqrt_n` (out[s] = reduce over k with segment_ids[k] == s of data[indices[k]]), with TF's
gradients."""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor
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
    sparse_indices = convert_to_tensor(sparse_indices, name="sparse_indices")
    if sparse_indices.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter 'sparse_indices' has DataType "
                        f"{sparse_indices.dtype.base_dtype.name} not in list of allowed values: int32, int64")
    output_shape = convert_to_tensor(output_shape, name="output_shape", dtype=sparse_indices.dtype.base_dtype)
    sparse_values = convert_to_tensor(sparse_values, name="sparse_values")
    default_value = convert_to_tensor(default_value, name="default_value",
                                      dtype=sparse_values.dtype.base_dtype)
    t = sparse_values.dtype.base_dtype
    return apply_op("SparseToDense", [sparse_indices, output_shape, sparse_values, default_value], [t],
                    name or "SparseToDense",
                    attrs={"validate_indices": bool(validate_indices), "T": t,
                           "Tindices": sparse_indices.dtype.base_dtype})


def sparse_tensor_to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    """The dense tensor a SparseTensor stands for (`default_value`, 0 by default, elsewhere)."""
    if not isinstance(sp_input, SparseTensor):
        if isinstance(sp_input, SparseTensorValue):
            sp_input = SparseTensor.from_value(sp_input)
        else:
            raise TypeError("Input must be a SparseTensor.")
    if default_value is None:
        default_value = np.zeros([], sp_input.dtype.base_dtype.as_numpy_dtype)
    return sparse_to_dense(sp_input.indices, sp_input.dense_shape, sp_input.values,
                           default_value=default_value, validate_indices=validate_indices, name=name)


def sparse_placeholder(dtype, shape=None, name=None):
    """A SparseTensor of placeholders: feed it a `tf.SparseTensorValue`. With `shape` fully known,
    the dense shape is a constant; otherwise a placeholder (with `shape` as its default value when
    only some dimensions are unknown is not supported: it is then a plain placeholder)."""
    from .array_ops import placeholder
    shape_name = (name + "/shape") if name is not None else None
    if shape is None:
        rank = None
        dense_shape = placeholder(_dtypes.int64, shape=[rank], name=shape_name)
        dense_shape_default = None
    else:
        shape = TensorShape(shape)
        rank = shape.ndims
        if shape.is_fully_defined():
            dense_shape = convert_to_tensor(np.array(shape.as_list(), np.int64), name=shape_name)
        else:
            dense_shape = placeholder(_dtypes.int64, shape=[rank], name=shape_name)
        dense_shape_default = shape
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
    indices.shape.with_rank(1)
    segment_ids.shape.with_rank(1)
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


for _t in ("SparseSegmentSum", "SparseSegmentMean", "SparseSegmentSqrtN"):
    registry.register_op(_t, shape_fn=_sparse_segment_shape)
for _t in ("SparseSegmentMeanGrad", "SparseSegmentSqrtNGrad"):
    registry.register_op(_t, shape_fn=_sparse_segment_grad_shape)
    registry.no_gradient(_t)


@registry.register_gradient("SparseSegmentSum")
def _sparse_segment_sum_grad(op, grad):
    array_ops, math_ops = _array(), _math()
    input_rows = array_ops.shape(op.inputs[0])[0]
    return [math_ops.unsorted_segment_sum(array_ops.gather(grad, op.inputs[2]), op.inputs[1], input_rows),
            None, None]


def _scaled_grad(grad_type):
    def grad_fn(op, grad):
        dim0 = _array().shape(op.inputs[0])[0]
        return [_segment_grad_op(grad_type, grad, op.inputs[1], op.inputs[2], dim0), None, None]
    return grad_fn


def _segment_grad_op(op_type, grad, indices, segment_ids, dim0):
    t = grad.dtype.base_dtype
    return apply_op(op_type, [grad, indices, segment_ids, dim0], [t], op_type,
                    attrs={"T": t, "Tidx": indices.dtype.base_dtype})


registry.register_gradient("SparseSegmentMean")(_scaled_grad("SparseSegmentMeanGrad"))
registry.register_gradient("SparseSegmentSqrtN")(_scaled_grad("SparseSegmentSqrtNGrad"))


def _sparse_segment(op_type, data, indices, segment_ids, name):
    data = convert_to_tensor(data, name="data")
    indices = convert_to_tensor(indices, name="indices")
    segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
    for arg, t in (("indices", indices), ("segment_ids", segment_ids)):
        if t.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter '{arg}' has DataType {t.dtype.base_dtype.name} not "
                            "in list of allowed values: int32, int64")
    t = data.dtype.base_dtype
    return apply_op(op_type, [data, indices, segment_ids], [t], name or op_type,
                    attrs={"T": t, "Tidx": indices.dtype.base_dtype,
                           "Tsegmentids": segment_ids.dtype.base_dtype})


def sparse_segment_sum(data, indices, segment_ids, name=None, num_segments=None):
    """out[s] = sum of data[indices[k]] over k with segment_ids[k] == s (segment_ids sorted)."""
    if num_segments is not None:
        raise NotImplementedError("sparse_segment_sum(num_segments=...) is not supported by tensorweave yet")
    return _sparse_segment("SparseSegmentSum", data, indices, segment_ids, name)


def sparse_segment_mean(data, indices, segment_ids, name=None, num_segments=None):
    """Like sparse_segment_sum, divided by each segment's size (empty segments give 0)."""
    if num_segments is not None:
        raise NotImplementedError("sparse_segment_mean(num_segments=...) is not supported by tensorweave yet")
    return _sparse_segment("SparseSegmentMean", data, indices, segment_ids, name)


def sparse_segment_sqrt_n(data, indices, segment_ids, name=None, num_segments=None):
    """Like sparse_segment_sum, divided by the square root of each segment's size."""
    if num_segments is not None:
        raise NotImplementedError("sparse_segment_sqrt_n(num_segments=...) is not supported by tensorweave yet")
    return _sparse_segment("SparseSegmentSqrtN", data, indices, segment_ids, name)
