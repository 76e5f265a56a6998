"""TF1's feature columns: how raw features (a dict of tensors) become a model's inputs.

A *dense* column (numeric, bucketized, indicator, embedding) yields a float tensor
[batch, num_elements]; `input_layer` concatenates them (columns sorted by name, as TF does). A
*categorical* column (identity, vocabulary list, hash bucket, bucketized) yields ids in
[0, num_buckets); `linear_model` gives each column a weight matrix and sums.

Internally a categorical column's ids are a dense int64 tensor [batch, n] plus a float mask of the
ids present (TF keeps a SparseTensor): missing values (-1 for integers, "" for strings, and ids a
vocabulary maps to default_value=-1) have mask 0. Inputs may be dense tensors or SparseTensors.

    price = tf.feature_column.numeric_column("price")
    color = tf.feature_column.categorical_column_with_vocabulary_list("color", ["r", "g", "b"])
    net = tf.feature_column.input_layer(features, [price, tf.feature_column.indicator_column(color)])
"""

import collections
import math

import numpy as np

from ..framework import dtypes
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.tensor_shape import TensorShape

__all__ = ["numeric_column", "bucketized_column", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_list", "categorical_column_with_hash_bucket",
           "indicator_column", "embedding_column", "crossed_column", "input_layer", "linear_model",
           "make_parse_example_spec"]


def _ops():
    from ..ops import array_ops, math_ops, variable_scope
    return array_ops, math_ops, variable_scope


# -- the per-call cache of transformed inputs -------------------------------------------------------

class _Inputs:
    """The features of one call, each column's transformation computed once."""

    def __init__(self, features):
        self._features = dict(features)
        self._cache = {}

    def raw(self, key):
        """features[key] as a dense tensor of rank >= 2 (rank 1 gets a trailing 1, like TF);
        SparseTensors become dense with -1 / "" where values are missing."""
        if key in self._cache:
            return self._cache[key]
        if key not in self._features:
            raise ValueError(f"Feature {key} is not in features dictionary.")
        x = self._features[key]
        array_ops, _, _ = _ops()
        if isinstance(x, SparseTensor):
            from ..ops import sparse_ops
            default = "" if x.dtype == dtypes.string else -1
            x = sparse_ops.sparse_tensor_to_dense(x, default_value=default)
        else:
            x = convert_to_tensor(x)
        if x.shape.ndims == 1:
            x = array_ops.expand_dims(x, -1)
        elif x.shape.ndims == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. Given: {x}")
        self._cache[key] = x
        return x

    def raw_or_sparse(self, key):
        """features[key] as TF's _LazyBuilder gives it to a cross: a SparseTensor as it is, a
        dense tensor of rank >= 2 (rank 1 gets a trailing 1); missing values are not dropped."""
        if key not in self._features:
            raise ValueError(f"Feature {key} is not in features dictionary.")
        x = self._features[key]
        if isinstance(x, SparseTensorValue):
            x = SparseTensor.from_value(x)
        if isinstance(x, SparseTensor):
            if x.shape.ndims == 1:
                from ..ops import sparse_ops
                array_ops, _, _ = _ops()
                return sparse_ops.sparse_reshape(x, [array_ops.shape(x)[0], 1])
            return x
        return self.raw(key)

    def get(self, column):
        if column not in self._cache:
            self._cache[column] = column._transform(self)
        return self._cache[column]


def _flat_per_row(x):
    """x [batch, ...] as [batch, n]."""
    array_ops, _, _ = _ops()
    n = int(np.prod(x.shape.as_list()[1:])) if x.shape[1:].is_fully_defined() else -1
    return array_ops.reshape(x, [-1, n])


# -- columns ---------------------------------------------------------------------------------------

class _FeatureColumn:
    """A column: `name` (its variable scope too) and how it transforms the raw features."""

    @property
    def _var_scope_name(self):
        return self.name


class _DenseColumn(_FeatureColumn):
    is_dense = True

    @property
    def _variable_shape(self):
        raise NotImplementedError

    def _num_elements(self):
        return int(np.prod(self._variable_shape))


class _CategoricalColumn(_FeatureColumn):
    is_dense = False

    @property
    def num_buckets(self):
        return self._num_buckets

    def _ids(self, inputs):
        """(ids int64 [batch, n], mask float32 [batch, n])."""
        return inputs.get(self)

    def _cross_ids(self, inputs):
        """(ids, mask of the ids TF's id SparseTensor holds): what a crossed_column crosses. Ids a
        vocabulary maps to -1 stay in (TF drops them only when looking up weights)."""
        return self._ids(inputs)


class NumericColumn(_DenseColumn, collections.namedtuple(
        "NumericColumn", ["key", "shape", "default_value", "dtype", "normalizer_fn"])):
    """A real-valued feature of fixed shape."""

    @property
    def name(self):
        return self.key

    @property
    def _variable_shape(self):
        return TensorShape(self.shape)

    def _transform(self, inputs):
        _, math_ops, _ = _ops()
        x = inputs.raw(self.key)
        if x.dtype == dtypes.string:
            raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: {self.key}, "
                             f"column dtype: {self.dtype}, tensor dtype: {x.dtype}")
        x = math_ops.cast(x, dtypes.float32)
        if self.normalizer_fn is not None:
            x = self.normalizer_fn(x)
        array_ops, _, _ = _ops()
        batch = x.shape.as_list()[0]   # a known batch as TF's static check has it: [1, 2] is no [1, 1]
        return array_ops.reshape(x, [-1 if batch is None else batch] + list(self.shape))

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


class BucketizedColumn(_DenseColumn, _CategoricalColumn,
                       collections.namedtuple("BucketizedColumn", ["source_column", "boundaries"])):
    """A numeric column cut into buckets at `boundaries`: dense as one-hot, categorical as ids."""

    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    @property
    def _variable_shape(self):
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    @property
    def _num_buckets(self):
        return int(np.prod(self.source_column.shape)) * (len(self.boundaries) + 1)

    def _transform(self, inputs):
        """Bucket ids [batch, *shape]: bucket i holds boundaries[i-1] <= x < boundaries[i]."""
        array_ops, math_ops, _ = _ops()
        x = inputs.get(self.source_column)
        b = constant(np.asarray(self.boundaries, np.float32))
        ge = math_ops.cast(math_ops.greater_equal(array_ops.expand_dims(x, -1), b), dtypes.int64)
        return math_ops.reduce_sum(ge, axis=-1)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        array_ops, _, _ = _ops()
        return array_ops.one_hot(inputs.get(self), depth=len(self.boundaries) + 1, on_value=1.0, off_value=0.0)

    def _ids(self, inputs):
        array_ops, math_ops, _ = _ops()
        buckets = _flat_per_row(inputs.get(self))
        n = int(np.prod(self.source_column.shape))
        offsets = constant(np.arange(n, dtype=np.int64) * (len(self.boundaries) + 1))
        ids = buckets + offsets
        return ids, array_ops.ones_like(math_ops.cast(ids, dtypes.float32))


def _valid_mask(x):
    """1.0 where the raw value is present ("" / -1 are missing, as TF drops them)."""
    _, math_ops, _ = _ops()
    missing = constant("") if x.dtype == dtypes.string else constant(-1, dtype=x.dtype)
    return math_ops.cast(math_ops.not_equal(x, missing), dtypes.float32)


class IdentityCategoricalColumn(_CategoricalColumn, collections.namedtuple(
        "IdentityCategoricalColumn", ["key", "number_buckets", "default_value"])):
    """Integer ids in [0, num_buckets) used as they are."""

    @property
    def name(self):
        return self.key

    @property
    def _num_buckets(self):
        return self.number_buckets

    def _transform(self, inputs):
        array_ops, math_ops, _ = _ops()
        x = inputs.raw(self.key)
        if not x.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: {x.dtype}")
        x = _flat_per_row(math_ops.cast(x, dtypes.int64))
        mask = _valid_mask(x)
        in_range = math_ops.logical_and(math_ops.greater_equal(x, 0),
                                        math_ops.less(x, constant(self.number_buckets, dtypes.int64)))
        if self.default_value is not None:
            x = array_ops.where(in_range, x, array_ops.fill(array_ops.shape(x), constant(self.default_value, dtypes.int64)))
        else:
            ok = math_ops.reduce_all(math_ops.logical_or(in_range, math_ops.equal(mask, 0.0)))
            from ..ops.logging_ops import Assert
            from ..framework.graph import control_dependencies
            with control_dependencies([Assert(ok, [f"ids of {self.key} must be in [0, {self.number_buckets})", x])]):
                x = array_ops.identity(x)
        return x, mask


class VocabularyListCategoricalColumn(_CategoricalColumn, collections.namedtuple(
        "VocabularyListCategoricalColumn", ["key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"])):
    """Strings (or integers) mapped to their index in `vocabulary_list`; others to default_value
    (-1: missing) or, with num_oov_buckets, to a hash bucket after the vocabulary."""

    @property
    def name(self):
        return self.key

    @property
    def _num_buckets(self):
        return len(self.vocabulary_list) + self.num_oov_buckets

    def _transform(self, inputs):
        array_ops, math_ops, _ = _ops()
        x = _flat_per_row(inputs.raw(self.key))
        if (x.dtype == dtypes.string) != (self.dtype == dtypes.string):
            raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: {self.key}, "
                             f"column dtype: {self.dtype}, tensor dtype: {x.dtype}")
        mask = _valid_mask(x)
        vocab = constant(np.asarray(self.vocabulary_list), dtype=x.dtype)
        match = math_ops.equal(array_ops.expand_dims(x, -1), vocab)
        found = math_ops.reduce_any(match, axis=-1)
        index = math_ops.argmax(math_ops.cast(match, dtypes.int32), axis=-1, output_type=dtypes.int64)
        if self.num_oov_buckets:
            from ..ops import string_ops
            s = x if x.dtype == dtypes.string else string_ops.as_string(x)
            other = string_ops.string_to_hash_bucket_fast(s, self.num_oov_buckets) + len(self.vocabulary_list)
        else:
            other = array_ops.fill(array_ops.shape(index), constant(self.default_value, dtypes.int64))
        ids = array_ops.where(found, index, other)
        mask = mask * math_ops.cast(math_ops.greater_equal(ids, 0), dtypes.float32)
        return ids, mask

    def _cross_ids(self, inputs):
        return self._ids(inputs)[0], _valid_mask(_flat_per_row(inputs.raw(self.key)))


class HashedCategoricalColumn(_CategoricalColumn, collections.namedtuple(
        "HashedCategoricalColumn", ["key", "hash_bucket_size", "dtype"])):
    """Strings (or integers, as their decimal strings) hashed into hash_bucket_size buckets with
    TF's Fingerprint64 (string_to_hash_bucket_fast)."""

    @property
    def name(self):
        return self.key

    @property
    def _num_buckets(self):
        return self.hash_bucket_size

    def _transform(self, inputs):
        from ..ops import string_ops
        x = _flat_per_row(inputs.raw(self.key))
        if x.dtype != dtypes.string and not x.dtype.is_integer:
            raise ValueError(f"column_name: {self.key} input_tensor dtype must be string or integer. "
                             f"dtype: {x.dtype}.")
        mask = _valid_mask(x)
        s = x if x.dtype == dtypes.string else string_ops.as_string(x)
        return string_ops.string_to_hash_bucket_fast(s, self.hash_bucket_size), mask


class IndicatorColumn(_DenseColumn, collections.namedtuple("IndicatorColumn", ["categorical_column"])):
    """A categorical column as a multi-hot vector [batch, num_buckets] (counts of each id)."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_indicator"

    @property
    def _variable_shape(self):
        return TensorShape([1, self.categorical_column.num_buckets])   # TF 1.x's shape, with the 1

    def _transform(self, inputs):
        array_ops, math_ops, _ = _ops()
        ids, mask = self.categorical_column._ids(inputs)
        one_hot = array_ops.one_hot(array_ops.where(math_ops.greater_equal(ids, 0), ids, array_ops.zeros_like(ids)),
                                    depth=self.categorical_column.num_buckets, on_value=1.0, off_value=0.0)
        return math_ops.reduce_sum(one_hot * array_ops.expand_dims(mask, -1), axis=-2)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


def _combine(rows, mask, combiner, weighted=False):
    """rows [batch, n, d] and mask [batch, n] -> [batch, d] by sum / mean / sqrtn; 0 for empty rows.
    Unweighted ids scale the sum by 1/n or 1/sqrt(n) (TF's sparse_segment_mean / _sqrt_n kernels
    multiply by the float32 reciprocal); weighted ones divide by the sum of (squared) weights, as
    TF's embedding_lookup_sparse does."""
    array_ops, math_ops, _ = _ops()
    w = array_ops.expand_dims(mask, -1)
    total = math_ops.reduce_sum(rows * w, axis=1)
    if combiner == "sum":
        return total
    if combiner == "mean":
        denom = math_ops.reduce_sum(w, axis=1)
    elif combiner == "sqrtn":
        denom = math_ops.sqrt(math_ops.reduce_sum(w * w, axis=1))
    else:
        raise ValueError(f"Unsupported combiner {combiner!r}; expected one of 'mean', 'sqrtn', 'sum'.")
    if weighted:
        return math_ops.div_no_nan(total, denom)
    return total * math_ops.div_no_nan(array_ops.ones_like(denom), denom)


def _lookup(weights, ids):
    array_ops, math_ops, _ = _ops()
    safe = array_ops.where(math_ops.greater_equal(ids, 0), ids, array_ops.zeros_like(ids))
    return array_ops.gather(weights, safe)


class EmbeddingColumn(_DenseColumn, collections.namedtuple(
        "EmbeddingColumn", ["categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
                            "tensor_name_in_ckpt", "max_norm", "trainable", "use_safe_embedding_lookup"])):
    """A categorical column through a learned table `embedding_weights` [num_buckets, dimension],
    combined per example by `combiner` (mean by default)."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_embedding"

    @property
    def _variable_shape(self):
        return TensorShape([self.dimension])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        _, _, variable_scope = _ops()
        weights = variable_scope.get_variable(
            "embedding_weights", shape=(self.categorical_column.num_buckets, self.dimension), dtype=dtypes.float32,
            initializer=self.initializer, trainable=self.trainable and (trainable is not False),
            collections=weight_collections)
        if self.ckpt_to_load_from is not None:
            from ..train.checkpoint_utils import init_from_checkpoint
            init_from_checkpoint(self.ckpt_to_load_from, {self.tensor_name_in_ckpt: weights})
        return _embed(weights, self.categorical_column, inputs, self.combiner, self.max_norm)


def _embed(weights, categorical_column, inputs, combiner, max_norm):
    """The rows of `weights` for the column's ids, clipped to max_norm, combined per example."""
    ids, mask = categorical_column._ids(inputs)
    rows = _lookup(weights, ids)
    if max_norm is not None:
        from ..ops import clip_ops
        rows = clip_ops.clip_by_norm(rows, max_norm, axes=[-1])
    return _combine(rows, mask, combiner, weighted=hasattr(categorical_column, "weight_feature_key"))


class CrossedColumn(_CategoricalColumn, collections.namedtuple("CrossedColumn",
                                                             ["keys", "hash_bucket_size", "hash_key"])):
    """The hashed cross of string features and categorical columns (TF's sparse_cross_hashed:
    FingerprintCat64 of the features' fingerprints, so the bucket ids are TF's)."""

    @property
    def name(self):
        return "_X_".join(sorted(k if isinstance(k, str) else k.name for k in _leaf_keys(self)))

    @property
    def _num_buckets(self):
        return self.hash_bucket_size

    def _transform(self, inputs):
        from ..ops import sparse_ops
        from ..ops.sparse_cross_ops import sparse_cross_hashed
        _, math_ops, _ = _ops()
        feature_tensors = []
        for key in _leaf_keys(self):
            if isinstance(key, str):
                feature_tensors.append(inputs.raw_or_sparse(key))
            else:
                feature_tensors.append(_to_sparse_ids(*key._cross_ids(inputs)))
        crossed = sparse_cross_hashed(feature_tensors, num_buckets=self.hash_bucket_size, hash_key=self.hash_key)
        ids = sparse_ops.sparse_tensor_to_dense(crossed, default_value=-1)
        return ids, math_ops.cast(math_ops.greater_equal(ids, 0), dtypes.float32)


def _leaf_keys(cross):
    """The string and categorical-column keys of a cross, nested crosses expanded (TF's
    _collect_leaf_level_keys)."""
    keys = []
    for k in cross.keys:
        keys.extend(_leaf_keys(k) if isinstance(k, CrossedColumn) else [k])
    return keys


def _to_sparse_ids(ids, mask):
    """A categorical column's (ids, mask) as TF's id SparseTensor (present ids, row-major)."""
    array_ops, math_ops, _ = _ops()
    where = array_ops.where(math_ops.greater(mask, 0.0))
    return SparseTensor(where, array_ops.gather_nd(ids, where),
                        math_ops.cast(array_ops.shape(ids), dtypes.int64))


# -- constructors ----------------------------------------------------------------------------------

def _numeric_args(key, shape, dtype, normalizer_fn):
    """(shape tuple, DType) of a numeric column, with TF's checks and messages."""
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(d) for d in shape)
    if any(d < 1 for d in shape):
        raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    return shape, dtype


def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32, normalizer_fn=None):
    """A real-valued column; `shape` is the per-example shape."""
    shape, dtype = _numeric_args(key, shape, dtype, normalizer_fn)
    return NumericColumn(key, shape, _default_value_tuple(default_value, shape, dtype, key), dtype, normalizer_fn)


def _default_value_tuple(default_value, shape, dtype, key):
    """TF keeps a numeric column's default as nested tuples of `shape` (a scalar repeated), the
    values as given; a float default for an integer column is a TypeError."""
    if default_value is None:
        return None
    if isinstance(default_value, np.ndarray):
        default_value = default_value.tolist()
    value = np.asarray(default_value)
    if value.dtype.kind not in "biuf" or (dtype.is_integer and value.dtype.kind == "f"):
        raise TypeError(f"default_value must be compatible with dtype. default_value: {default_value}, "
                        f"dtype: {dtype}, key: {key}")
    if value.ndim == 0:
        def fill(dims):
            return tuple(fill(dims[1:]) for _ in range(dims[0])) if dims else default_value
        return fill(list(shape))
    if value.shape != tuple(shape):
        raise ValueError(f"The shape of default_value must be equal to given shape. default_value: "
                         f"{default_value}, shape: {shape}, key: {key}")

    def nest(v):
        return tuple(nest(x) for x in v) if isinstance(v, (list, tuple)) else v
    return nest(default_value)


def bucketized_column(source_column, boundaries):
    """Buckets of a numeric column: (-inf, b0), [b0, b1), ... [b_last, +inf)."""
    if not isinstance(source_column, NumericColumn):
        raise ValueError(f"source_column must be a column generated with numeric_column(). Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError(f"source_column must be one-dimensional column. Given: {source_column}")
    if not boundaries:
        raise ValueError("boundaries must not be empty.")
    if list(boundaries) != sorted(boundaries) or len(set(boundaries)) != len(boundaries):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(boundaries))


def categorical_column_with_identity(key, num_buckets, default_value=None):
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), column_name {key}")
    return IdentityCategoricalColumn(key, int(num_buckets), default_value)


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1, num_oov_buckets=0):
    if not vocabulary_list:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, column_name: {key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, column_name: {key}")
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    if num_oov_buckets and default_value != -1:
        raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
    vocab = np.asarray(vocabulary_list)
    vocab_dtype = dtypes.string if vocab.dtype.kind in "USO" else dtypes.int64
    if dtype is None:
        dtype = vocab_dtype
    dtype = dtypes.as_dtype(dtype)
    if (dtype == dtypes.string) != (vocab_dtype == dtypes.string):
        raise ValueError(f"dtype {dtype} and vocabulary dtype {vocab_dtype} do not match, column_name: {key}")
    return VocabularyListCategoricalColumn(key, tuple(vocabulary_list), dtype, default_value, num_oov_buckets)


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    if hash_bucket_size is None or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: {hash_bucket_size}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError(f"column_name: {key} dtype must be string or integer. dtype: {dtype}.")
    return HashedCategoricalColumn(key, int(hash_bucket_size), dtype)


def indicator_column(categorical_column):
    if not isinstance(categorical_column, _CategoricalColumn):
        raise ValueError(f"Unsupported input type. Input must be a CategoricalColumn. Given: {categorical_column}")
    return IndicatorColumn(categorical_column)


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None, ckpt_to_load_from=None,
                     tensor_name_in_ckpt=None, max_norm=None, trainable=True, use_safe_embedding_lookup=True):
    """TF's default initializer: truncated normal, mean 0, stddev 1/sqrt(dimension)."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or none of them.")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of column_name: "
                         f"{categorical_column.name}")
    if initializer is None:
        from ..ops.init_ops import truncated_normal_initializer
        initializer = truncated_normal_initializer(mean=0.0, stddev=1 / math.sqrt(dimension))
    return EmbeddingColumn(categorical_column, dimension, combiner, initializer, ckpt_to_load_from,
                           tensor_name_in_ckpt, max_norm, trainable, use_safe_embedding_lookup)


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """The hashed cross of `keys` (feature names and categorical columns other than hash-bucket
    ones, crossed columns too) into hash_bucket_size buckets, bit-identical to TF's."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, _CategoricalColumn)):
            raise ValueError(f"Unsupported key type. All keys must be either string, or categorical column except "
                             f"HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError(f"categorical_column_with_hash_bucket is not supported for crossing. Hashing before "
                             f"crossing will increase probability of collision. Instead, use the feature name as a "
                             f"string. Given: {key}")
    return CrossedColumn(tuple(keys), int(hash_bucket_size), hash_key)


def make_parse_example_spec(feature_columns):
    from ..ops.parsing_ops import FixedLenFeature, VarLenFeature
    spec = {}
    for c in feature_columns:
        for leaf in _leaves(c):
            if isinstance(leaf, CrossedColumn):
                spec.update({k: VarLenFeature(dtypes.string) for k in leaf.keys if isinstance(k, str)})
                spec.update(make_parse_example_spec([k for k in leaf.keys if not isinstance(k, str)]))
            elif hasattr(leaf, "weight_feature_key"):
                spec[leaf.weight_feature_key] = VarLenFeature(leaf.dtype)
                spec.update(make_parse_example_spec([leaf.categorical_column]))
            elif isinstance(leaf, NumericColumn):
                spec[leaf.key] = FixedLenFeature(leaf.shape, leaf.dtype, leaf.default_value)
            else:
                spec[leaf.key] = VarLenFeature(getattr(leaf, "dtype", dtypes.int64))
    return spec


def _leaves(c):
    if hasattr(c, "weight_feature_key"):
        return [c]
    for attr in ("source_column", "categorical_column"):
        if hasattr(c, attr):
            return _leaves(getattr(c, attr))
    return [c]


from .builders import input_layer, linear_model  # noqa: E402,F401  (after the columns they use)
