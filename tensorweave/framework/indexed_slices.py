"""`tf.IndexedSlices`: a sparse slice-wise value (rows `indices` of a dense tensor with the shape
`dense_shape`), the gradient of a gather, kept sparse until an op needs it dense."""

import collections

from .constant_op import register_tensor_conversion_function
from .graph import Tensor

__all__ = ["IndexedSlices", "IndexedSlicesValue", "convert_to_tensor_or_indexed_slices"]

IndexedSlicesValue = collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])


class IndexedSlices:
    """values[i] is row indices[i] of a dense tensor of shape dense_shape; duplicates add up."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = values
        self._indices = indices
        self._dense_shape = dense_shape

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    graph = property(lambda self: self._values.graph)
    op = property(lambda self: self._values.op)
    name = property(lambda self: self._values.name)
    device = property(lambda self: self._values.device)

    @property
    def shape(self):
        from .constant_op import constant_value
        from .tensor_shape import TensorShape
        if self._dense_shape is not None:
            v = constant_value(self._dense_shape)
            if v is not None:
                return TensorShape([int(d) for d in v])
        return self._values.shape[:0].concatenate([None]).concatenate(self._values.shape[1:]) \
            if self._values.shape.ndims else TensorShape(None)

    def __neg__(self):
        from ..ops import math_ops
        return IndexedSlices(math_ops.negative(self._values), self._indices, self._dense_shape)

    def __str__(self):  # TF defines only __str__ (repr stays the default object one)
        return (f"IndexedSlices(indices={self._indices}, values={self._values}"
                + (f", dense_shape={self._dense_shape})" if self._dense_shape is not None else ")"))


_LARGE_SPARSE_NUM_ELEMENTS = 100000000


def _to_dense(value, dtype=None, name=None, as_ref=False):
    """Densifies by summing rows into place (duplicate indices add, like a gather's gradient)."""
    import warnings
    import numpy as np
    from ..ops import math_ops
    from .constant_op import constant_value
    from . import dtypes as _dtypes
    if dtype is not None and not _dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
        raise ValueError(
            f"Incompatible tensor conversion requested to `dtype` {_dtypes.as_dtype(dtype).name} for "
            f"IndexedSlices ({value}) with dtype {value.dtype.name}")
    if value.dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices for argument `value` "
                         f"without dense_shape: {value!s}")
    dense_shape_value = constant_value(value.dense_shape)
    if dense_shape_value is not None:
        num_elements = np.prod(dense_shape_value)
        if num_elements >= _LARGE_SPARSE_NUM_ELEMENTS:  # TF's warning, same text and threshold
            warnings.warn("Converting sparse IndexedSlices to a dense Tensor with %d "
                          "elements. This may consume a large amount of memory." % num_elements)
    # TF slices with `dense_shape[0]` (a "strided_slice" op in the caller's scope).
    return math_ops.unsorted_segment_sum(value.values, value.indices, value.dense_shape[0], name=name)


register_tensor_conversion_function(IndexedSlices, _to_dense)


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    from .constant_op import convert_to_tensor
    if isinstance(value, IndexedSlices):
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def _fetch(v):
    tensors = [v.values, v.indices] + ([v.dense_shape] if v.dense_shape is not None else [])
    return tensors, lambda vals: IndexedSlicesValue(vals[0], vals[1], vals[2] if len(vals) > 2 else None)


def _register_fetch():
    from ..runtime.session import register_session_run_conversion_functions
    register_session_run_conversion_functions(IndexedSlices, _fetch)

