"""tf.ragged.constant / constant_value (nested Python lists to a RaggedTensor or its value) and
tf.ragged.range (TF's RaggedRange op)."""

import builtins

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape
from .ragged_tensor import RaggedTensor
from .ragged_tensor_value import RaggedTensorValue

__all__ = ["constant", "constant_value", "range"]


def _depth(x):
    """The nesting depth of the scalars of x (ValueError if it varies); None for an empty list."""
    if not isinstance(x, (list, tuple)):
        return 0
    depths = {d for d in (_depth(v) for v in x) if d is not None}
    if len(depths) > 1:
        raise ValueError("all scalar values must have the same nesting depth")
    return (depths.pop() + 1) if depths else None


def _max_list_depth(x):
    if not isinstance(x, (list, tuple)):
        return 0
    return 1 + max([_max_list_depth(v) for v in x] + [0])


def _flatten(pylist, ragged_rank):
    """(nested row splits outermost first, list of the values at depth ragged_rank)."""
    splits, level = [], list(pylist)
    for _ in builtins.range(ragged_rank):
        s, nxt = [0], []
        for row in level:
            if not isinstance(row, (list, tuple)):
                raise ValueError(f"pylist has scalar values depth {len(splits) + 1}, but ragged_rank="
                                 f"{ragged_rank} requires scalar value depth greater than {ragged_rank}")
            nxt.extend(row)
            s.append(len(nxt))
        splits.append(s)
        level = nxt
    return splits, level


def _plan(pylist, ragged_rank, inner_shape):
    """(ragged_rank, inner_shape) as TF infers them from the list's depth."""
    depth = _depth(pylist)
    if depth is None:
        depth = _max_list_depth(pylist)
    if inner_shape is not None and ragged_rank is None:
        ragged_rank = max(0, depth - 1 - len(inner_shape))
    if ragged_rank is None:
        ragged_rank = max(0, depth - 1)
    if ragged_rank > 0 and ragged_rank >= depth and depth > 0:
        raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank={ragged_rank}")
    return ragged_rank


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=_dtypes.int64):
    """A constant RaggedTensor from a nested list: `tf.ragged.constant([[1, 2], [3]])` has shape
    (2, ?). Lists of depth 1 (or scalars) give ordinary Tensors."""
    row_splits_dtype = _dtypes.as_dtype(row_splits_dtype)
    with name_scope(name, "RaggedConstant"):
        ragged_rank = _plan(pylist, ragged_rank, inner_shape)
        if ragged_rank == 0:
            return _dense(pylist, dtype, inner_shape)
        splits, flat = _flatten(pylist, ragged_rank)
        values = _values(flat, dtype, inner_shape, "values")
        result = values
        for s in reversed(splits):
            t = convert_to_tensor(np.array(s, row_splits_dtype.as_numpy_dtype))
            result = RaggedTensor(result, t, internal=True)
        return result


def _dense(pylist, dtype, inner_shape):
    if inner_shape is not None:
        return convert_to_tensor(np.reshape(np.array(pylist), inner_shape), dtype=dtype)
    return convert_to_tensor(pylist, dtype=dtype)


def _values(flat, dtype, inner_shape, name):
    """The flat values as a Const (Python lists keep TF's int32/float32 defaults)."""
    if not flat:
        shape = [0] + list(inner_shape or ())
        np_dtype = _dtypes.as_dtype(dtype).as_numpy_dtype if dtype is not None else np.float32
        return convert_to_tensor(np.zeros(shape, np_dtype), name=name)
    depth = _depth(flat)
    if depth is not None and depth > 1:
        try:
            uniform = np.array(flat, dtype=object).ndim == depth
        except ValueError:
            uniform = False
        if not uniform:
            raise ValueError("inner values must have uniform shape")
    if inner_shape is not None:
        flat = np.array(flat, dtype=object).reshape([len(flat)] + list(inner_shape)).tolist()
    return convert_to_tensor(flat, dtype=dtype, name=name)


def constant_value(pylist, dtype=None, ragged_rank=None, inner_shape=None, row_splits_dtype="int64"):
    """A `tf.ragged.RaggedTensorValue` (NumPy arrays) from a nested list; depth-1 lists give arrays."""
    ragged_rank = _plan(pylist, ragged_rank, inner_shape)
    np_dtype = None if dtype is None else (_dtypes.as_dtype(dtype).as_numpy_dtype
                                           if not isinstance(dtype, (str, type, np.dtype)) or dtype in
                                           ("string",) else np.dtype(dtype))
    if ragged_rank == 0:
        arr = np.array(pylist, dtype=np_dtype)
        return arr if inner_shape is None else arr.reshape(inner_shape)
    splits, flat = _flatten(pylist, ragged_rank)
    if not flat:
        values = np.zeros([0] + list(inner_shape or ()), np_dtype or np.float64)
    else:
        values = np.array(flat, dtype=np_dtype)
        if inner_shape is not None:
            values = values.reshape([len(flat)] + list(inner_shape))
    sd = np.dtype(_dtypes.as_dtype(row_splits_dtype).as_numpy_dtype)
    result = values
    for s in reversed(splits):
        result = RaggedTensorValue(result, np.array(s, sd))
    return result


# -- range ------------------------------------------------------------------------------------------

def _range_shape(op):
    n = None
    for t in op.inputs:
        if t.shape.ndims == 1:
            n = t.shape.dims[0].value
    if all(t.shape.ndims == 0 for t in op.inputs):
        n = 1
    return [TensorShape([None if n is None else n + 1]), TensorShape([None])]


registry.register_op("RaggedRange", shape_fn=_range_shape)
registry.no_gradient("RaggedRange")


def range(starts, limits=None, deltas=1, dtype=None, name=None, row_splits_dtype=_dtypes.int64):  # noqa: A001
    """Row i is `tf.range(starts[i], limits[i], deltas[i])` (the arguments broadcast); with one
    argument, the rows are `range(0, starts[i])`."""
    row_splits_dtype = _dtypes.as_dtype(row_splits_dtype)
    if limits is None:
        starts, limits = 0, starts
    with name_scope(name, "RaggedRange", [starts, limits, deltas]) as scope:
        starts = convert_to_tensor(starts, dtype=dtype, name="starts")
        limits = convert_to_tensor(limits, dtype=dtype, name="limits")
        deltas = convert_to_tensor(deltas, dtype=dtype, name="deltas")
        if dtype is None:
            from ..ops import math_ops
            order = [_dtypes.int32, _dtypes.int64, _dtypes.float32, _dtypes.float64]
            best = max((t.dtype for t in (starts, limits, deltas)), key=lambda d: order.index(d)
                       if d in order else -1)
            starts, limits, deltas = [math_ops.cast(t, best) if t.dtype != best else t
                                      for t in (starts, limits, deltas)]
        splits, values = apply_op("RaggedRange", [starts, limits, deltas], [row_splits_dtype, starts.dtype],
                                  scope, attrs={"T": starts.dtype, "Tsplits": row_splits_dtype})
        return RaggedTensor(values, splits, internal=True)

