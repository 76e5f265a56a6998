"""The rest of `tf.data.experimental` for TF1 programs: `dense_to_sparse_batch`, `from_list`,
`TFRecordWriter`, `prefetch_to_device` / `copy_to_device` (CPU only: the input unchanged),
`make_batched_features_dataset`, `parse_example_dataset`, `DatasetSpec`, `get_structure`, and the
Dataset methods `sparse_batch`, `ignore_errors`, `get_single_element`,
`as_numpy_iterator`.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors, registry
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, pack_sequence_as
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.tensor_shape import TensorShape, as_shape
from ..kernels.registry import register_kernel
from .specs import DatasetSpec
from .batching import _int64_scalar, batched_generator
from .dataset_ops import AUTOTUNE, DatasetV1, TensorSliceDataset

__all__ = ["dense_to_sparse_batch", "from_list", "TFRecordWriter", "prefetch_to_device", "copy_to_device",
           "make_batched_features_dataset", "parse_example_dataset", "DatasetSpec", "get_structure"]


class DenseToSparseBatchDataset(DatasetV1):
    """Batches of `batch_size` dense elements as one SparseTensor of shape [n] + row_shape (every
    entry of each element is a value, zeros included; a -1 row dimension is the batch's largest)."""

    def __init__(self, input_dataset, batch_size, row_shape):
        if len(input_dataset._types) != 1 or input_dataset._classes[0] is SparseTensor:
            raise TypeError("DenseToSparseDataset requires an input whose elements have a single component, "
                            f"but the given dataset has {input_dataset.output_types}.")
        self._inputs = (input_dataset,)
        self._batch_size = _int64_scalar(batch_size, "batch_size")
        if isinstance(row_shape, TensorShape) or row_shape is None or \
                (isinstance(row_shape, (list, tuple)) and all(d is None or isinstance(d, (int, np.integer))
                                                               for d in row_shape)):
            dims = as_shape(row_shape).as_list()
            self._row_static = TensorShape(dims)
            row_shape = [-1 if d is None else d for d in dims]
        else:
            self._row_static = TensorShape(None)
        self._row_shape = convert_to_tensor(row_shape, dtype=_dtypes.int64, name="row_shape")
        self._captures = [self._batch_size, self._row_shape]
        self._set_element(0, input_dataset._types, [TensorShape([None]).concatenate(self._row_static)],
                          [SparseTensor])

    def _bind(self, valmap, rt):
        n = int(valmap[self._batch_size])
        row_shape = [int(d) for d in np.asarray(valmap[self._row_shape]).reshape(-1)]
        make_input = self._inputs[0]._bind(valmap, rt)
        rank = len(row_shape)

        def batch(rows):
            shape = list(row_shape)
            idx, vals = [], []
            for b, (r,) in enumerate(rows):
                a = np.asarray(r)
                if a.ndim != rank:
                    raise errors.InvalidArgumentError(
                        None, None, f"Input element had shape ({', '.join(map(str, a.shape))}) that is "
                                    f"incompatible with the row shape ({', '.join(map(str, row_shape))}).")
                for j, d in enumerate(a.shape):
                    if row_shape[j] == -1:
                        shape[j] = max(shape[j], d)
                    elif d > row_shape[j]:
                        raise errors.InvalidArgumentError(
                            None, None, f"Input element had shape ({', '.join(map(str, a.shape))}) that is "
                                        f"larger than the row shape ({', '.join(map(str, row_shape))}).")
                coords = np.indices(a.shape).reshape(rank, -1).T if rank else np.zeros([1, 0], np.int64)
                idx.append(np.concatenate([np.full((len(coords), 1), b), coords], axis=1).astype(np.int64))
                vals.append(a.reshape(-1))
            shape = [max(d, 0) for d in shape]
            return (SparseTensorValue(np.concatenate(idx), np.concatenate(vals),
                                      np.array([len(rows)] + shape, np.int64)),)

        return batched_generator(make_input, n, False, batch)


def dense_to_sparse_batch(batch_size, row_shape):
    return lambda ds: DenseToSparseBatchDataset(ds, batch_size, row_shape)


def from_list(elements):
    """A dataset of the given elements (each a structure of tensors of one type and shape)."""
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty.")
    if not isinstance(elements, list):
        raise ValueError("Invalid `elements`. `elements` must be a list.")
    first = elements[0]
    columns = list(zip(*[flatten(e) for e in elements]))
    stacked = [convert_to_tensor(list(col)) if not any(hasattr(v, "op") for v in col)
               else _stack_tensors(col) for col in columns]
    return TensorSliceDataset(pack_sequence_as(first, stacked))


def _stack_tensors(col):
    from ..ops import array_ops
    return array_ops.stack([convert_to_tensor(v) for v in col])


class _DeviceDataset(DatasetV1):
    """The input unchanged (prefetch_to_device / copy_to_device on a CPU-only runtime)."""

    def __init__(self, input_dataset):
        self._inputs = (input_dataset,)
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _cardinality(self, valmap):
        from .cardinality import _cardinality
        return _cardinality(self._inputs[0], valmap)

    def _bind(self, valmap, rt):
        return self._inputs[0]._bind(valmap, rt)


def prefetch_to_device(device, buffer_size=None):
    return lambda ds: _DeviceDataset(ds)


def copy_to_device(target_device, source_device="/cpu:0"):
    return lambda ds: _DeviceDataset(ds)


# -- TFRecordWriter: an op writing a dataset of strings ------------------------------------------------

registry.register_op("DatasetToTFRecord", stateful=True)
registry.no_gradient("DatasetToTFRecord")


class TFRecordWriter:
    """Writes a dataset of scalar strings to a TFRecord file: `write(dataset)` is an op."""

    def __init__(self, filename, compression_type=None):
        self._filename = convert_to_tensor(filename, dtype=_dtypes.string, name="filename")
        self._compression_type = convert_to_tensor(compression_type or "", dtype=_dtypes.string,
                                                   name="compression_type")

    def write(self, dataset):
        if not isinstance(dataset, DatasetV1):
            raise TypeError(f"Invalid `dataset.` Expected a `tf.data.Dataset` object but got {type(dataset)}.")
        if dataset._types != [_dtypes.string] or dataset._shapes[0].ndims not in (None, 0) or \
                dataset._classes[0] is SparseTensor:
            raise TypeError(f"Invalid `dataset`. Expected a`dataset` that produces scalar `tf.string` elements, "
                            f"but got a dataset which produces elements with shapes {dataset.output_shapes} and "
                            f"types {dataset.output_types}.")
        caps = dataset.all_captures()
        return apply_op("DatasetToTFRecord", [self._filename, self._compression_type] + caps, [],
                        "DatasetToTFRecord", attrs={"dataset": dataset})


@register_kernel("DatasetToTFRecord")
def _to_tfrecord_kernel(op, ctx):
    from ..lib.io import tf_record
    from . import _runtime
    dataset = op._get_attr("dataset")
    caps = dataset.all_captures()

    def run(filename, compression, *values):
        fname = np.asarray(filename).item()
        fname = fname.decode() if isinstance(fname, bytes) else str(fname)
        comp = np.asarray(compression).item()
        comp = comp.decode() if isinstance(comp, bytes) else (comp or "")
        it = _runtime.whole_pipeline(dataset, dict(zip(caps, values)), ctx)
        writer = tf_record.TFRecordWriter(fname, tf_record.TFRecordOptions(comp))
        try:
            for (record,) in it:
                r = np.asarray(record).item()
                writer.write(r if isinstance(r, bytes) else str(r).encode())
        finally:
            it.close()
            writer.close()
    return run


# -- parsing -------------------------------------------------------------------------------------------

def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """A transformation parsing batches of serialized `Example`s into feature dicts."""
    from ..ops import parsing_ops

    def apply(ds):
        if ds._types != [_dtypes.string]:
            raise TypeError("Input dataset should be a dataset of vectors of strings")
        return ds.map(lambda x: parsing_ops.parse_example(x, features), num_parallel_calls)
    return apply


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None,
                                  reader_args=None, num_epochs=None, shuffle=True, shuffle_buffer_size=10000,
                                  shuffle_seed=None, prefetch_buffer_size=None, reader_num_threads=None,
                                  parser_num_threads=None, sloppy_ordering=False, drop_final_batch=False):
    """Batches of parsed `Example` features read from files (TF's composite and order)."""
    from .readers import TFRecordDataset
    if reader is None:
        reader = TFRecordDataset
    if reader_num_threads is None:
        reader_num_threads = 1
    if parser_num_threads is None:
        parser_num_threads = 2
    if prefetch_buffer_size is None:
        prefetch_buffer_size = AUTOTUNE
    dataset = DatasetV1.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)
    reader_args = list(reader_args or [])
    dataset = dataset.interleave(lambda filename: reader(filename, *reader_args),
                                 cycle_length=None if reader_num_threads == AUTOTUNE else reader_num_threads,
                                 block_length=1)
    if dataset._types == [_dtypes.string, _dtypes.string]:
        dataset = dataset.map(lambda _, v: v)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=drop_final_batch or num_epochs is None)
    dataset = dataset.apply(parse_example_dataset(features, num_parallel_calls=parser_num_threads))
    if label_key:
        if label_key not in features:
            raise ValueError(f"The `label_key` provided ({label_key}) must be one of the `features` keys: "
                             f"{features.keys()}.")
        dataset = dataset.map(lambda x: (x, x.pop(label_key)))
    return dataset.prefetch(prefetch_buffer_size)


# -- specs -------------------------------------------------------------------------------------------

def get_structure(dataset_or_iterator):
    """The element spec of a dataset or iterator."""
    try:
        return dataset_or_iterator.element_spec
    except AttributeError:
        raise TypeError(f"Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a `tf.data.Dataset`, "
                        f"tf.data.Iterator, or `tf.data.experimental.Optional`, but got "
                        f"{type(dataset_or_iterator)}.") from None


# -- Dataset methods -----------------------------------------------------------------------------------

def _sparse_batch(self, batch_size, row_shape, name=None):
    return DenseToSparseBatchDataset(self, batch_size, row_shape)


def _ignore_errors(self, log_warning=False, name=None):
    from .experimental_ops import IgnoreErrorsDataset
    return IgnoreErrorsDataset(self)


def _get_single_element(self, name=None):
    from .experimental_ops import get_single_element
    return get_single_element(self)


def _as_numpy_iterator(self):
    raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in eager mode.")


class SparseTensorSliceDataset(DatasetV1):
    """TF1's `Dataset.from_sparse_tensor_slices`: the rows of a SparseTensor, each as the tuple
    (indices [n, rank-1], values [n], dense_shape [rank-1]) of dense tensors."""

    def __init__(self, sparse_tensor):
        if not isinstance(sparse_tensor, (SparseTensor, SparseTensorValue)):
            raise TypeError(f"`sparse_tensor` must be a `tf.sparse.SparseTensor` object. Was {sparse_tensor}.")
        rows = TensorSliceDataset(sparse_tensor)
        self._inputs = (rows,)
        rank = rows._shapes[0].ndims
        self._set_element((0, 1, 2), [_dtypes.int64, rows._types[0], _dtypes.int64],
                          [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])])

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)

        def make():
            it = make_input()
            try:
                for (row,) in it:
                    yield (np.asarray(row.indices, np.int64), np.asarray(row.values),
                           np.asarray(row.dense_shape, np.int64))
            finally:
                it.close()
        return make


def _from_sparse_tensor_slices(sparse_tensor):
    """Splits a SparseTensor row-wise (deprecated in TF: from_tensor_slices gives SparseTensors)."""
    return SparseTensorSliceDataset(sparse_tensor)


def _map_with_legacy_function(self, map_func, num_parallel_calls=None, deterministic=None):
    """TF1's map through a legacy Defun: the same elements as `map`."""
    return self.map(map_func, num_parallel_calls, deterministic)


def _filter_with_legacy_function(self, predicate):
    """TF1's filter through a legacy Defun: the same elements as `filter`."""
    return self.filter(predicate)


for _name, _fn in (("sparse_batch", _sparse_batch), ("ignore_errors", _ignore_errors),
                   ("get_single_element", _get_single_element),
                   ("as_numpy_iterator", _as_numpy_iterator), ("map_with_legacy_function", _map_with_legacy_function),
                   ("filter_with_legacy_function", _filter_with_legacy_function)):
    setattr(DatasetV1, _name, _fn)
DatasetV1.from_sparse_tensor_slices = staticmethod(_from_sparse_tensor_slices)


# -- rebatch, pad_to_cardinality and the names tensorweave refuses ------------------------------------

def _rebatch(self, batch_size, drop_remainder=False, name=None):
    """`unbatch().batch(batch_size)` of a batched dataset (TF's `_RebatchDataset`)."""
    if not isinstance(batch_size, (int, np.integer)) and np.ndim(batch_size) != 0:
        raise NotImplementedError("Dataset.rebatch with a list of batch sizes is not supported by tensorweave yet")
    ds = self.unbatch().batch(batch_size, drop_remainder)
    ds._tf_name = "_RebatchDataset"
    return ds


def pad_to_cardinality(cardinality, mask_key="valid"):
    """Pads a dataset of dicts with all-zero elements up to `cardinality`; `mask_key` says which
    elements are real (True) and which padding (False)."""
    from ..ops import array_ops
    from .cardinality import cardinality as _cardinality

    def apply(dataset):
        if not isinstance(dataset.element_spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        filler = {k: array_ops.zeros(spec.shape, spec.dtype) for k, spec in dataset.element_spec.items()}
        filler[mask_key] = False
        padding = cardinality - _cardinality(dataset)

        def valid(x):
            x = dict(x)
            x[mask_key] = True
            return x
        ds = dataset.map(valid).concatenate(DatasetV1.from_tensors(filler).repeat(padding))
        ds._tf_name = "DatasetV1Adapter"   # TF1's apply wraps the (TF2) dataset it gets back
        return ds
    return apply


def _ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=_dtypes.int64, name=None):
    """Batches elements whose dense components may differ in shape: a component of known rank
    with unknown dimensions becomes a RaggedTensor, ragged up to its last unknown dimension.

        ds = tf.data.Dataset.range(4).map(tf.range).ragged_batch(2)
        # element_spec: RaggedTensorSpec([None, None], tf.int64, 1, tf.int64)
    """
    from .batching import ragged_batch
    return ragged_batch(self, batch_size, drop_remainder, row_splits_dtype)


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=_dtypes.int64):
    """TF's transformation form of `Dataset.ragged_batch`."""
    return lambda ds: _ragged_batch(ds, batch_size, drop_remainder, row_splits_dtype)


def _fingerprint(self, name=None):
    raise NotImplementedError("Dataset.fingerprint is not supported by tensorweave yet (TF's value is a hash "
                              "of its own graph serialization)")


def _not_supported(what):
    def refuse(*args, **kwargs):
        raise NotImplementedError(f"tf.data.experimental.{what} is not supported by tensorweave yet")
    refuse.__name__ = what
    return refuse


def enable_debug_mode():
    raise ValueError("`enable_debug_mode() is only supported in eager mode.")   # TF's text, backtick included


def RaggedTensorStructure(dtype, shape, ragged_rank):  # noqa: N802 - TF's name
    """TF1's name for a `tf.RaggedTensorSpec`."""
    from ..ragged.ragged_spec import RaggedTensorSpec
    return RaggedTensorSpec(shape, dtype, ragged_rank)


make_saveable_from_iterator = _not_supported("make_saveable_from_iterator")
to_variant = _not_supported("to_variant")
from_variant = _not_supported("from_variant")
distributed_save = _not_supported("distributed_save")
get_model_proto = _not_supported("get_model_proto")

DatasetV1.rebatch = _rebatch
DatasetV1.ragged_batch = _ragged_batch
DatasetV1.fingerprint = _fingerprint
