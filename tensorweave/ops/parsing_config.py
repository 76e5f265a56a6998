"""Feature specs for parsing `tf.train.Example` / `SequenceExample` protos, and how a features dict
becomes the keys, types, shapes and default tensors of a ParseExampleV2 or ParseSequenceExampleV2
op (TF's `_ParseOpParams`).

`FixedLenFeature` (dense, fixed shape), `FixedLenSequenceFeature` (dense, a variable number of
items of a fixed shape), `VarLenFeature` (a SparseTensor of the values) and `SparseFeature` (a
SparseTensor whose indices come from other features) are the spec classes. Keys are processed
in sorted order; a SparseFeature adds its index and value keys as sparse keys, and is assembled
after parsing by `sparse_merge` (`construct_composites`).
"""

import collections
import re

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.tensor_shape import as_shape

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "VarLenFeature", "SparseFeature"]


class FixedLenFeature(collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A dense feature of fixed `shape` and `dtype` (float32, int64 or string); `default_value`
    is used when an example lacks it (else the feature is required)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A dense feature of a variable number of items, each of `shape` (a leading dimension is
    added); shorter examples are padded with `default_value` (0 or "" when None)."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A variable-length feature, parsed into a SparseTensor of its values."""


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A SparseTensor built from an int64 index feature (or a list of them, one per dimension)
    and a value feature: entry [index] = value, in a dense shape of `size`.

        tf.SparseFeature(index_key="ix", value_key="v", dtype=tf.float32, size=100)
    """

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


def _key_name(prefix, key):
    return prefix + re.sub("[^A-Za-z0-9_.\\-/]", "_", key)


class ParseOpParams:
    """The sparse and dense keys of a features dict, in the order the parse op lists them."""

    def __init__(self):
        self.sparse_keys, self.sparse_types = [], []
        self.dense_keys, self.dense_types, self.dense_shapes = [], [], []
        self.dense_defaults = {}

    @classmethod
    def from_features(cls, features, types):
        """Params for `features` (a dict key -> spec); each spec must be one of `types`."""
        params = cls()
        if features:
            for key in sorted(features):
                feature = features[key]
                if not isinstance(feature, tuple(types)):
                    raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}'")
                params._add_feature(key, feature)
        params._validate()
        return params

    @property
    def num_features(self):
        return len(self.sparse_keys) + len(self.dense_keys)

    def _add_feature(self, key, feature):
        if isinstance(feature, VarLenFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}")
            self._add_sparse_key(key, feature.dtype)
        elif isinstance(feature, SparseFeature):
            if not feature.index_key:
                raise ValueError(f"Missing index_key for SparseFeature {feature}.")
            if not feature.value_key:
                raise ValueError(f"Missing value_key for SparseFeature {feature}.")
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
            index_keys = feature.index_key if isinstance(feature.index_key, list) else [feature.index_key]
            for index_key in index_keys:
                self._add_sparse_key(index_key, _dtypes.int64)
            self._add_sparse_key(feature.value_key, feature.dtype)
        elif isinstance(feature, FixedLenFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
            if feature.shape is None:
                raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
            shape = as_shape(feature.shape)
            if feature.shape and shape.ndims and shape.dims[0].value is None:
                raise ValueError(f"First dimension of shape for feature {key} unknown. Consider using "
                                 f"FixedLenSequenceFeature. Received feature={feature}.")
            if not shape.is_fully_defined():
                raise ValueError(f"All dimensions of shape for feature {key} need to be known but received "
                                 f"{feature.shape!s}.")
            self._add_dense(key, shape, feature.dtype)
            if feature.default_value is not None:
                self.dense_defaults[key] = feature.default_value
        elif isinstance(feature, FixedLenSequenceFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
            if feature.shape is None:
                raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
            self._add_dense(key, as_shape(feature.shape), feature.dtype)
            if feature.allow_missing:
                self.dense_defaults[key] = None
            if feature.default_value is not None:
                self.dense_defaults[key] = feature.default_value
        else:
            raise ValueError(f"Invalid feature {key}:{feature}.")

    def _add_dense(self, key, shape, dtype):
        self.dense_keys.append(key)
        self.dense_shapes.append(shape)
        self.dense_types.append(_dtypes.as_dtype(dtype).base_dtype)

    def _add_sparse_key(self, key, dtype):
        dtype = _dtypes.as_dtype(dtype).base_dtype
        if key in self.sparse_keys:
            original = self.sparse_types[self.sparse_keys.index(key)]
            if original != dtype:
                raise ValueError(f"Conflicting type {original} vs {dtype} for feature {key}.")
        else:
            self.sparse_keys.append(key)
            self.sparse_types.append(dtype)

    def _validate(self):
        dense, sparse = set(self.dense_keys), set(self.sparse_keys)
        if not dense.isdisjoint(sparse):
            raise ValueError(f"Dense and sparse keys must not intersect; dense_keys: {self.dense_keys}, sparse_keys: "
                             f"{self.sparse_keys}, intersection: {dense & sparse}")

    def check_types(self, dense_param="dense_defaults", sparse_param="sparse_types"):
        """TF's op-creation check that every type is an Example list type (made inside the op's
        name scope, as TF raises it there)."""
        for dtype in self.dense_types:
            _check_dtype(dtype, dense_param)
        for dtype in self.sparse_types:
            _check_dtype(dtype, sparse_param)

    def dense_defaults_vec(self):
        """One default tensor per dense key (made in the caller's name scope): an empty tensor for a
        required feature, the padding scalar for a sequence feature, else the default reshaped to
        the feature's shape."""
        from . import array_ops
        out = []
        for key, shape, dtype in zip(self.dense_keys, self.dense_shapes, self.dense_types):
            default = self.dense_defaults.get(key)
            if shape.ndims and shape.dims[0].value is None:
                # A variable-length (sequence) feature: the default is the scalar padding value.
                if default is None:
                    default = convert_to_tensor("" if dtype == _dtypes.string else 0, dtype=dtype)
                else:
                    default = convert_to_tensor(default, dtype=dtype, name=_key_name("padding_", key))
                    default = array_ops.reshape(default, [])
            elif default is None:
                default = constant([], dtype=dtype)
            elif not isinstance(default, Tensor):
                default = convert_to_tensor(default, dtype=dtype, name=_key_name("key_", key))
                default = array_ops.reshape(default, shape)
            out.append(default)
        return out


_ALLOWED = (_dtypes.float32, _dtypes.int64, _dtypes.string)


def _check_dtype(dtype, param):
    if dtype not in _ALLOWED:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dtype.name} not in list of allowed "
                        f"values: float32, int64, string")
    return dtype


def prepend_none_dimension(features):
    """FixedLenSequenceFeatures with a leading None dimension (parse_example's batch of items);
    they must allow missing values."""
    if not features:
        return features
    out = dict(features)
    for key, feature in features.items():
        if isinstance(feature, FixedLenSequenceFeature):
            if not feature.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            out[key] = FixedLenSequenceFeature([None] + list(feature.shape), feature.dtype, feature.allow_missing,
                                               feature.default_value)
    return out


def construct_composites(features, tensor_dict):
    """Replaces the index/value keys of each SparseFeature by its merged SparseTensor and drops
    the keys that are not features themselves."""
    from .sparse_extra_ops import sparse_merge
    tensor_dict = dict(tensor_dict)
    updates = {}
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, SparseFeature):
            if isinstance(feature.index_key, str):
                sp_ids = tensor_dict[feature.index_key]
            else:
                sp_ids = [tensor_dict[k] for k in feature.index_key]
            updates[key] = sparse_merge(sp_ids, tensor_dict[feature.value_key], vocab_size=feature.size,
                                        already_sorted=feature.already_sorted)
    tensor_dict.update(updates)
    for key in set(tensor_dict) - set(features):
        del tensor_dict[key]
    return tensor_dict
