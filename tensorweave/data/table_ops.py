"""Lookup tables filled from a dataset: `tf.data.experimental.DatasetInitializer`,
`table_from_dataset` and `index_table_from_dataset`.

The initializer op (`InitializeTableFromDataset`) takes the table handle and every tensor the
dataset captures; its kernel runs the pipeline to the end and imports its (key, value) pairs, so
the table is filled when `tf.tables_initializer()` runs, as in TF.
"""


import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.graph import name_scope
from ..framework.op_util import apply_op
from ..kernels.registry import register_kernel
from ..ops import lookup_ops
from . import _runtime
from .dataset_ops import DatasetV1

__all__ = ["DatasetInitializer", "table_from_dataset", "index_table_from_dataset"]

registry.register_op("InitializeTableFromDataset", stateful=True)
registry.no_gradient("InitializeTableFromDataset")


class DatasetInitializer(lookup_ops._Initializer):
    """Fills a table from a dataset of (key, value) scalar pairs."""

    def __init__(self, dataset):
        if not isinstance(dataset, DatasetV1):
            raise TypeError(f"`dataset` must be a `tf.data.Dataset`. Got {type(dataset).__name__}.")
        spec = dataset.element_spec
        if not isinstance(spec, (tuple, list)):
            raise TypeError(f"object of type '{type(spec).__name__}' has no len()")
        if len(spec) != 2:
            raise ValueError(f"The given dataset must contain pairs. Got {spec}.")
        for what, shape in zip(("key", "value"), dataset._shapes):
            if shape.ndims != 0:
                raise ValueError(f"Datasets used to initialize lookup tables must produce elements in the form "
                                 f"(key, value), where the keys and values are scalar tensors. However, the given "
                                 f"dataset produces non-scalar {what} Tensors of rank {shape.ndims}.")
        self.dataset = dataset
        super().__init__(dataset._types[0], dataset._types[1])

    def initialize(self, table):
        self._check(table)
        caps = self.dataset.all_captures()
        return apply_op("InitializeTableFromDataset", [table.resource_handle] + list(caps), [],
                        "InitializeTableFromDataset", attrs={"dataset": self.dataset})


@register_kernel("InitializeTableFromDataset")
def _init_from_dataset_kernel(op, ctx):
    dataset = op._get_attr("dataset")
    caps = dataset.all_captures()

    def initialize_table_from_dataset(table, *values):
        it = _runtime.whole_pipeline(dataset, dict(zip(caps, values)), ctx)
        keys, vals = [], []
        try:
            for k, v in it:
                keys.append(np.asarray(k).item())
                vals.append(np.asarray(v).item())
        finally:
            it.close()
        table.initialize(keys, vals)
    return initialize_table_from_dataset


def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None,
                       hasher_spec=None, key_dtype=_dtypes.string, name=None):
    """A table of the (key, value) pairs of `dataset`; with `num_oov_buckets`, missing keys go to
    size + Fingerprint64(key) % num_oov_buckets (int64 values only)."""
    if not isinstance(dataset, DatasetV1):
        raise TypeError(f"`dataset` must be a `tf.data.Dataset`. Got {type(dataset).__name__}.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got {num_oov_buckets}.")
    if vocab_size is not None:
        raise NotImplementedError("table_from_dataset(vocab_size=...) is not supported by tensorweave yet")
    if hasher_spec is not None:
        raise NotImplementedError("table_from_dataset(hasher_spec=...) is not supported by tensorweave yet")
    with name_scope(name, "string_to_index"):
        init = DatasetInitializer(dataset)
        if num_oov_buckets:
            return lookup_ops.StaticVocabularyTable(init, num_oov_buckets)
        if default_value is None:
            default_value = -1
        return lookup_ops.StaticHashTable(init, default_value)


def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=-1,
                             hasher_spec=None, key_dtype=_dtypes.string, name=None):
    """A table mapping each element of `dataset` (scalar keys) to its position in it."""
    if not isinstance(dataset, DatasetV1):
        raise TypeError(f"`dataset` must be a `tf.data.Dataset`. Got {type(dataset).__name__}.")
    pairs = dataset.enumerate().map(lambda v, k: (k, v))
    return table_from_dataset(pairs, num_oov_buckets, vocab_size, default_value, hasher_spec, key_dtype, name)
