"""Type specs: value classes that describe a tensor-like value without holding one.

`tf.TensorSpec(shape, dtype, name)` describes a dense Tensor; `tf.SparseTensorSpec`,
`tf.IndexedSlicesSpec` and `tf.NoneTensorSpec` describe the composite values. They are what
`Dataset.element_spec` returns. Every spec compares and hashes by its fields and prints as TF
does: `TensorSpec(shape=(?, 3), dtype=tf.float32, name='x')`, and the others as their class name
followed by the tuple of their fields, e.g. `SparseTensorSpec(TensorShape([Dimension(None)]),
tf.int64)`. `tf.TensorArraySpec` and `tf.OptionalSpec` live with the values they describe
(data/specs.py), since the graph layer knows nothing of TensorArrays or Optionals.
"""

import numpy as np

from . import dtypes as _dtypes
from .tensor_shape import TensorShape, as_shape

__all__ = ["TypeSpec", "TensorSpec", "SparseTensorSpec", "IndexedSlicesSpec", "NoneTensorSpec"]


def _shape_arg(shape):
    """`shape` as a TensorShape, with TF's message for a value that is not one."""
    if isinstance(shape, TensorShape):
        return shape
    try:
        return as_shape(shape)
    except (TypeError, ValueError):
        if isinstance(shape, str) and shape:
            raise TypeError(f"Failed to convert '{shape!r}' to a shape: '{shape[0]!r}'could not be converted "
                            f"to a dimension. A shape should either be single dimension (e.g. 10), or an "
                            f"iterable of dimensions (e.g. [1, 10, None]).") from None
        raise


def _dtype_arg(dtype):
    try:
        return _dtypes.as_dtype(dtype)
    except TypeError:
        raise TypeError(f"Cannot convert the argument `type_value`: {dtype!r} to a TensorFlow DType.") from None


def _shapes_compatible(a, b):
    return a.is_compatible_with(b)


def _common_shape(a, b):
    """The most specific shape both `a` and `b` are instances of (None where they differ)."""
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


class TypeSpec:
    """Base of the specs: a value class with fields given by `_serialize()`.

    Subclasses define `value_type` and `_serialize()` (a tuple of fields, in constructor order);
    equality, hashing and the default repr come from those fields.
    """

    __slots__ = ()

    @property
    def value_type(self):
        """The Python class of the values this spec describes."""
        raise NotImplementedError

    def _serialize(self):
        raise NotImplementedError

    def _fields_compatible(self, a, b):
        if isinstance(a, TensorShape) and isinstance(b, TensorShape):
            return a.is_compatible_with(b)
        if isinstance(a, TypeSpec) and isinstance(b, TypeSpec):
            return a.is_compatible_with(b)
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
            return len(a) == len(b) and all(self._fields_compatible(x, y) for x, y in zip(a, b))
        if isinstance(a, dict) and isinstance(b, dict):
            return a.keys() == b.keys() and all(self._fields_compatible(a[k], b[k]) for k in a)
        return a == b

    def is_compatible_with(self, spec_or_value):
        """True if `spec_or_value` (a spec of the same kind, or a value) could be described by this
        spec: equal dtypes and other fields, compatible shapes."""
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else self._spec_of(spec_or_value)
        if other is None or type(other) is not type(self):
            return False
        return self._fields_compatible(self._serialize(), other._serialize())

    def _spec_of(self, value):
        return None

    def is_subtype_of(self, other):
        """True if every value this spec describes is also described by `other`."""
        if type(other) is not type(self):
            return False
        return self._subtype(self._serialize(), other._serialize())

    def _subtype(self, a, b):
        if isinstance(a, TensorShape) and isinstance(b, TensorShape):
            if b.ndims is None:
                return True
            return a.ndims == b.ndims and all(y is None or x == y for x, y in zip(a.as_list(), b.as_list()))
        if isinstance(a, TypeSpec) and isinstance(b, TypeSpec):
            return a.is_subtype_of(b)
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
            return len(a) == len(b) and all(self._subtype(x, y) for x, y in zip(a, b))
        return a == b

    def most_specific_common_supertype(self, others):
        """The most specific spec that describes this spec's values and all of `others`', or None."""
        fields = self._serialize()
        for other in others:
            if type(other) is not type(self):
                return None
            fields = self._merge(fields, other._serialize())
            if fields is _NO_MERGE:
                return None
        return type(self)(*fields)

    def most_specific_compatible_type(self, other):
        """Deprecated form of `most_specific_common_supertype` that raises instead of returning None."""
        out = self.most_specific_common_supertype([other])
        if out is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        return out

    def _merge(self, a, b):
        if isinstance(a, TensorShape) and isinstance(b, TensorShape):
            return _common_shape(a, b)
        if isinstance(a, TypeSpec) and isinstance(b, TypeSpec):
            m = a.most_specific_common_supertype([b])
            return _NO_MERGE if m is None else m
        if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
            if len(a) != len(b):
                return _NO_MERGE
            items = [self._merge(x, y) for x, y in zip(a, b)]
            return _NO_MERGE if any(i is _NO_MERGE for i in items) else type(a)(items)
        return a if a == b else _NO_MERGE

    def __eq__(self, other):
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self).__name__, _hashable(self._serialize())))

    def __repr__(self):
        return f"{type(self).__name__}{self._serialize()!r}"

    def __reduce__(self):
        return type(self), self._serialize()


_NO_MERGE = object()


def _hashable(x):
    if isinstance(x, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return tuple(_hashable(v) for v in x)
    if isinstance(x, TensorShape):
        return None if x.ndims is None else tuple(x.as_list())
    return x


class TensorSpec(TypeSpec):
    """Describes a dense Tensor: its static `shape`, `dtype` and an optional `name`.

        tf.TensorSpec([None, 3], tf.float32, name="x")
        # TensorSpec(shape=(?, 3), dtype=tf.float32, name='x')
    """

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=_dtypes.float32, name=None):
        self._shape = _shape_arg(shape)
        self._dtype = _dtype_arg(dtype)
        self._name = name

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def value_type(self):
        from .graph import Tensor
        return Tensor

    @classmethod
    def from_spec(cls, spec, name=None):
        """A TensorSpec with `spec`'s shape and dtype (and its name unless `name` is given)."""
        return cls(spec.shape, spec.dtype, name or getattr(spec, "name", None))

    @classmethod
    def from_tensor(cls, tensor, name=None):
        """The spec of `tensor` (a graph Tensor or a NumPy value); a graph tensor's op name is the
        default name."""
        if hasattr(tensor, "op") and hasattr(tensor, "shape"):
            return cls(tensor.shape, tensor.dtype, name or tensor.op.name)
        arr = np.asarray(tensor)
        return cls(arr.shape, _dtypes.as_dtype(arr.dtype), name)

    def _spec_of(self, value):
        if hasattr(value, "dtype") and hasattr(value, "shape"):
            try:
                return TensorSpec(value.shape, value.dtype, self._name)
            except TypeError:
                return None
        try:
            arr = np.asarray(value)
            return TensorSpec(arr.shape, _dtypes.as_dtype(arr.dtype), self._name)
        except (TypeError, ValueError):
            return None

    def is_compatible_with(self, spec_or_tensor):
        """True if the dtypes are equal and the shapes compatible (names are not compared)."""
        other = spec_or_tensor if isinstance(spec_or_tensor, TypeSpec) else self._spec_of(spec_or_tensor)
        if not isinstance(other, TensorSpec):
            return False
        return self._dtype == other.dtype and self._shape.is_compatible_with(other.shape)

    def _serialize(self):
        return (self._shape, self._dtype, self._name)

    def __repr__(self):
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"


class SparseTensorSpec(TypeSpec):
    """Describes a SparseTensor: the `shape` of the dense tensor it represents and its `dtype`."""

    __slots__ = ("_shape", "_dtype")

    def __init__(self, shape=None, dtype=_dtypes.float32):
        self._shape = _shape_arg(shape)
        self._dtype = _dtype_arg(dtype)

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def value_type(self):
        from .sparse_tensor import SparseTensor
        return SparseTensor

    @classmethod
    def from_value(cls, value):
        """The spec of a SparseTensor or SparseTensorValue."""
        from .sparse_tensor import SparseTensor
        if isinstance(value, SparseTensor):
            return cls(value.shape, value.dtype)
        shape = np.asarray(value.dense_shape).tolist()
        return cls(shape, _dtypes.as_dtype(np.asarray(value.values).dtype))

    def _spec_of(self, value):
        if hasattr(value, "indices") and hasattr(value, "dense_shape"):
            return SparseTensorSpec.from_value(value)
        return None

    def _serialize(self):
        return (self._shape, self._dtype)


class IndexedSlicesSpec(TypeSpec):
    """Describes an IndexedSlices value: dense `shape`, values/indices/dense_shape dtypes and the
    shape of `indices`."""

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")

    def __init__(self, shape=None, dtype=_dtypes.float32, indices_dtype=_dtypes.int64, dense_shape_dtype=None,
                 indices_shape=None):
        self._shape = _shape_arg(shape)
        self._values_dtype = _dtype_arg(dtype)
        self._indices_dtype = _dtype_arg(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else _dtype_arg(dense_shape_dtype)
        self._indices_shape = _shape_arg(indices_shape).with_rank(1) if indices_shape is not None \
            else TensorShape([None])

    @property
    def value_type(self):
        from .indexed_slices import IndexedSlices
        return IndexedSlices

    def _serialize(self):
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype, self._indices_shape)


class NoneTensor:
    """The value a NoneTensorSpec describes: a `None` inside a composite structure."""

    def __repr__(self):
        return "NoneTensor()"


class NoneTensorSpec(TypeSpec):
    """Describes a `None` component (as in a structure with an optional part)."""

    __slots__ = ()

    @property
    def value_type(self):
        return NoneTensor

    def _serialize(self):
        return ()

    def _spec_of(self, value):
        return NoneTensorSpec() if value is None or isinstance(value, NoneTensor) else None
