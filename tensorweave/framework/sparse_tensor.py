"""`tf.SparseTensor`: a sparse tensor as three dense tensors — `indices` (int64 [N, rank], the
coordinates of the non-default entries), `values` ([N], their values) and `dense_shape` (int64
[rank]) — and `tf.SparseTensorValue`, what `Session.run` returns for one and accepts as its feed.

Like TF, a SparseTensor is not a Tensor: `convert_to_tensor` refuses it (use
`tf.sparse.to_dense`), and sparse ops take its three parts.
"""

import collections

import numpy as np

from . import dtypes as _dtypes
from .constant_op import constant_value, convert_to_tensor, register_tensor_conversion_function

from .tensor_shape import TensorShape, unknown_shape

__all__ = ["SparseTensor", "SparseTensorValue", "is_sparse", "convert_to_tensor_or_sparse_tensor"]

SparseTensorValue = collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])


class SparseTensor:
    """SparseTensor(indices, values, dense_shape): entry `values[i]` sits at `indices[i]` of a
    tensor of shape `dense_shape`; every other entry is zero."""

    @classmethod
    def from_value(cls, sparse_tensor_value):
        if not is_sparse(sparse_tensor_value):
            raise TypeError(f"Neither a SparseTensor nor SparseTensorValue: {sparse_tensor_value}.")
        return SparseTensor(indices=sparse_tensor_value.indices, values=sparse_tensor_value.values,
                            dense_shape=sparse_tensor_value.dense_shape)

    def __init__(self, indices, values, dense_shape):
        from .graph import name_scope
        with name_scope(None, "SparseTensor", [indices, values, dense_shape]):
            indices = convert_to_tensor(indices, name="indices", dtype=_dtypes.int64)
            values = convert_to_tensor(values, name="values")
            dense_shape = convert_to_tensor(dense_shape, name="dense_shape", dtype=_dtypes.int64)
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        indices.shape.with_rank(2)
        values.shape.with_rank(1)
        dense_shape.shape.with_rank(1)
        indices.shape.dims[0].merge_with(values.shape.dims[0]) if indices.shape.ndims else None
        indices.shape.dims[1].merge_with(dense_shape.shape.dims[0]) if indices.shape.ndims else None
        self._static_shape = None

    indices = property(lambda self: self._indices)
    values = property(lambda self: self._values)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    op = property(lambda self: self._values.op)
    graph = property(lambda self: self._indices.graph)

    @property
    def shape(self):
        """The static dense shape: known where `dense_shape` is a known constant."""
        if self._static_shape is not None:
            return self._static_shape
        v = constant_value(self._dense_shape)
        if v is not None:
            return TensorShape([int(d) for d in np.asarray(v).reshape(-1)])
        n = self._dense_shape.shape
        if n.ndims == 1 and n.dims[0].value is not None:
            return unknown_shape(rank=n.dims[0].value)
        return unknown_shape()

    def get_shape(self):
        return self.shape

    def set_shape(self, shape):
        self._static_shape = self.shape.merge_with(TensorShape(shape))

    def eval(self, feed_dict=None, session=None):
        from .graph import get_default_session
        session = session or get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
        return session.run(self, feed_dict)

    def consumers(self):
        return list(self._indices.consumers()) + list(self._values.consumers()) + \
            list(self._dense_shape.consumers())

    def __repr__(self):
        return f"SparseTensor(indices={self._indices}, values={self._values}, dense_shape={self._dense_shape})"

    __str__ = __repr__


def is_sparse(x):
    return isinstance(x, (SparseTensor, SparseTensorValue))


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    if isinstance(value, SparseTensorValue):
        value = SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        if dtype and not _dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise RuntimeError(f"Sparse dtype: requested = {dtype}, actual = {value.dtype}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def _refuse(value, dtype=None, name=None, as_ref=False):
    if dtype is not None:   # TF's make_tensor_proto checks the requested dtype first
        raise TypeError(f"Expected {_dtypes.as_dtype(dtype).base_dtype.name}, but got {value} of type "
                        f"'{type(value).__name__}'.")
    raise TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting elements to a "
                    "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for "
                    "supported TF dtypes.")


register_tensor_conversion_function(SparseTensor, _refuse)


def _fetch(sp):
    return [sp.indices, sp.values, sp.dense_shape], lambda vals: SparseTensorValue(*vals)


def _feed(sp, value):
    if isinstance(value, SparseTensor):
        raise TypeError("The value of a feed cannot be a tf.Tensor object.")
    if not isinstance(value, tuple) or len(value) != 3:
        raise TypeError(f"Cannot feed value {value!r} for SparseTensor: a SparseTensorValue or an "
                        "(indices, values, dense_shape) tuple is needed")
    return list(zip([sp.indices, sp.values, sp.dense_shape], value))


def _register_fetch():
    from ..runtime.session import register_session_run_conversion_functions
    register_session_run_conversion_functions(SparseTensor, _fetch, _feed)


