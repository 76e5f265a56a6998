"""`tf.data.Dataset` (TF1 graph-mode API): sources, transformations and their static types/shapes.

A Dataset is a description: a node with its input datasets, the graph tensors it captures
(`from_tensor_slices(placeholder)`, a batch size tensor, tensors a map function uses) and, for
map/filter/flat_map, a Python function traced once into a FuncGraph. Nothing runs until an
iterator is initialized: the initializer op takes every captured tensor as an input, and its
kernel binds the description to those values, giving a chain of generators (see iterator_ops).
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, pack_sequence_as
from ..framework.graph import Tensor
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from ..ragged.ragged_tensor import RaggedTensor
from ..ragged.ragged_tensor_value import RaggedTensorValue
from . import _runtime
from . import structure as _st
from .specs import element_spec_of

__all__ = ["Dataset", "DatasetV1"]

AUTOTUNE = -1


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _normalize(element, name="component"):
    """Converts the leaves of a (tuple/dict) structure to Tensors; a list is one tensor (TF)."""
    if isinstance(element, SparseTensorValue):
        return SparseTensor.from_value(element)
    if isinstance(element, (SparseTensor, RaggedTensor)):
        return element
    if isinstance(element, RaggedTensorValue):
        from ..ragged.ragged_factory import constant
        return constant(element.to_list(), dtype=_dtypes.as_dtype(element.dtype),
                        ragged_rank=element.ragged_rank, row_splits_dtype=element.row_splits.dtype)
    if isinstance(element, tuple):
        items = [_normalize(x, name) for x in element]
        return type(element)(*items) if hasattr(element, "_fields") else tuple(items)
    if isinstance(element, dict):
        return _same_mapping(element, {k: _normalize(v, name) for k, v in element.items()})
    return convert_to_tensor(element, name=name)


def _same_mapping(like, items):
    """`items` as a mapping of `like`'s type (an OrderedDict stays one, in its order)."""
    if type(like) is dict:
        return items
    try:
        return type(like)((k, items[k]) for k in like)
    except TypeError:
        return items


def _structure_of(element):
    """The structure with leaves replaced by their flat index."""
    flat = flatten(element)
    return pack_sequence_as(element, list(range(len(flat))))


def _most_specific(a, b):
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return unknown_shape()
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


class DatasetV1:
    """Base of every dataset. Subclasses set `_structure`, `_types`, `_shapes` (flat lists), list
    their input datasets in `_inputs` and captured tensors in `_captures`, and implement
    `_bind(valmap, rt) -> make()`, where make() returns a fresh generator of flat tuples."""

    _inputs = ()
    _captures = ()

    def _wrap_args(self, args):
        """The arguments a traced function gets for the element's components (placeholders)."""
        return args

    def _set_element(self, structure, types, shapes, classes=None):
        self._structure = structure
        self._types = list(types)
        self._shapes = [as_shape(s) for s in shapes]
        self._classes = list(classes) if classes is not None else [Tensor] * len(self._types)

    # -- TF1 properties --------------------------------------------------------------------------
    @property
    def output_types(self):
        return pack_sequence_as(self._structure, self._types)

    @property
    def output_shapes(self):
        return pack_sequence_as(self._structure, self._shapes)

    @property
    def output_classes(self):
        return pack_sequence_as(self._structure, [_st.legacy_class(c, t, s) for c, t, s in
                                                  zip(self._classes, self._types, self._shapes)])

    @property
    def element_spec(self):
        """The element's structure of `tf.TensorSpec`s (`tf.SparseTensorSpec` for sparse parts)."""
        return element_spec_of(self._structure, self._types, self._shapes, self._classes)

    # The class name TF's repr shows: its private dataset class (`_MapDataset`); a few override it.
    _tf_name = None

    def __repr__(self):
        name = self._tf_name or "_" + type(self).__name__.lstrip("_")
        return f"<{name} element_spec={self.element_spec}>"

    def all_captures(self):
        """Every graph tensor the pipeline needs, deduplicated, in a fixed order."""
        out, seen = [], set()
        stack = [self]
        while stack:
            ds = stack.pop()
            for t in ds._captures:
                if t not in seen:
                    seen.add(t)
                    out.append(t)
            stack.extend(reversed(list(ds._inputs)))
        return out

    def _graph(self):
        caps = self.all_captures()
        return caps[0].graph if caps else None

    # -- sources -----------------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors):
        """Elements are the slices of `tensors` (a tensor or a tuple/dict of them) along dim 0."""
        return TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors):
        """A dataset with the single element `tensors`."""
        return TensorDataset(tensors)

    @staticmethod
    def range(*args, output_type=_dtypes.int64):
        """range(stop), range(start, stop[, step]) as int64 scalars."""
        return RangeDataset(*args, output_type=output_type)

    @staticmethod
    def zip(*args, datasets=None, name=None):
        """Zips a (nested) tuple/dict of datasets; `zip(a, b)` is `zip((a, b))`, as in TF 2."""
        if datasets is not None and args:
            raise TypeError("Both `*args` and `datasets` cannot be set.")
        if datasets is None:
            if not args:
                raise TypeError("Must pass at least one dataset to `zip`.")
            datasets = args[0] if len(args) == 1 else args
        return ZipDataset(datasets)

    @staticmethod
    def from_generator(generator, output_types, output_shapes=None, args=None):
        from .readers import GeneratorDataset
        return GeneratorDataset(generator, output_types, output_shapes, args)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None):
        """The files matching glob pattern(s) `file_pattern`, matched when the iterator starts
        (sorted; shuffled unless `shuffle=False`). As TF's, a pattern with no directory part
        gives `./name`, and matching nothing fails the iterator's start, not the build."""
        from ..framework.graph_defaults import control_dependencies, name_scope
        from ..ops import array_ops, logging_ops, math_compare_ops, math_elementwise_ops, string_ops
        from ..ops.serialization_ops import matching_files
        with name_scope("list_files"):
            pattern = convert_to_tensor(file_pattern, dtype=_dtypes.string, name="file_pattern")
            matched = matching_files(pattern)
            condition = math_compare_ops.greater(array_ops.shape(matched)[0], 0, name="match_not_empty")
            joined = string_ops.reduce_join(pattern, separator=", ")
            with name_scope("message") as scope:
                prefix = convert_to_tensor("No files matched pattern: ", name="x")
                message = math_elementwise_ops.add(prefix, joined, name=scope)
            check = logging_ops.Assert(condition, [message], summarize=1, name="assert_not_empty")
            with control_dependencies([check]):
                matched = array_ops.identity(matched)
            ds = TensorSliceDataset(matched)
            if shuffle is None or shuffle:
                buffer_size = math_elementwise_ops.maximum(
                    array_ops.shape(matched, out_type=_dtypes.int64)[0], 1)
                ds = ds.shuffle(buffer_size, seed=seed)
        ds._tf_name = "DatasetV1Adapter"   # (TF1's list_files wraps the dataset twice)
        return ds

    # -- transformations ---------------------------------------------------------------------------
    def concatenate(self, dataset):
        return ConcatenateDataset(self, dataset)

    def map(self, map_func, num_parallel_calls=None, deterministic=None):
        """Applies `map_func` to each element (traced once into a graph function)."""
        ds = MapDataset(self, map_func, num_parallel_calls)
        if num_parallel_calls is not None:
            ds._tf_name = "_ParallelMapDataset"
        return ds

    def flat_map(self, map_func):
        """`map_func(element)` returns a Dataset; its elements are produced in turn."""
        return FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=1, num_parallel_calls=None,
                   deterministic=None):
        """Like flat_map, cycling through `cycle_length` inner datasets `block_length` at a time."""
        ds = InterleaveDataset(self, map_func, cycle_length, block_length)
        if num_parallel_calls is not None:
            ds._tf_name = "_ParallelInterleaveDataset"
            ds._count_failed = True
        return ds

    def filter(self, predicate):
        """Keeps the elements for which `predicate` (a scalar bool function) is true."""
        return FilterDataset(self, predicate)

    def batch(self, batch_size, drop_remainder=False):
        return BatchDataset(self, batch_size, drop_remainder)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False):
        return PaddedBatchDataset(self, batch_size, padded_shapes, padding_values, drop_remainder)

    def unbatch(self):
        return UnbatchDataset(self)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None):
        return ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None):
        return RepeatDataset(self, count)

    def prefetch(self, buffer_size):
        return PrefetchDataset(self, buffer_size)

    def take(self, count):
        return TakeDataset(self, count)

    def skip(self, count):
        return SkipDataset(self, count)

    def cache(self, filename=""):
        return CacheDataset(self, filename)

    def apply(self, transformation_func):
        out = transformation_func(self)
        if not isinstance(out, DatasetV1):
            raise TypeError("`transformation_func` must return a Dataset. Got {}.".format(out))
        return out

    def with_options(self, options):
        return self

    # -- iterators ---------------------------------------------------------------------------------
    def make_one_shot_iterator(self):
        from .iterator_ops import make_one_shot_iterator
        return make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        from .iterator_ops import make_initializable_iterator
        return make_initializable_iterator(self, shared_name)

    def __iter__(self):
        raise RuntimeError("dataset.__iter__() is only supported when eager execution is enabled.")


Dataset = DatasetV1


# -- sources ----------------------------------------------------------------------------------------

class TensorSliceDataset(DatasetV1):
    def __init__(self, tensors):
        element = _normalize(tensors)
        flat = flatten(element)
        if not flat:
            raise ValueError("Invalid `element`. `element` should not be empty.")
        dim0 = None
        for t in flat:
            if t.shape.ndims == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            s = t.shape
            if isinstance(t, SparseTensor) or s.ndims is None:
                continue
            d = s[0] if not hasattr(s[0], "value") else s[0].value
            if d is not None:
                if dim0 is not None and d != dim0:
                    raise ValueError(f"Dimensions {dim0} and {d} are not compatible")
                dim0 = d
        self._captures = [x for t in flat for x in _st.leaf_tensors(t)[0]]
        # The captured components' classes; a slice of a ragged component is one ragged_rank down.
        self._source_classes = [_st.leaf_tensors(t)[1] for t in flat]
        self._set_element(_structure_of(element), [t.dtype.base_dtype for t in flat],
                          [t.shape[1:] for t in flat],
                          [c.unbatched() if _st.is_ragged_class(c) else c for c in self._source_classes])

    def _bind(self, valmap, rt):
        if _st.any_sparse(self._classes):
            return self._bind_sparse(valmap, rt)
        vals = [np.asarray(valmap[t]) for t in self._captures]
        n = vals[0].shape[0]
        for v in vals[1:]:
            if v.shape[0] != n:
                raise errors.InvalidArgumentError(
                    None, None, f"All components must have the same size in the 0th dimension: "
                                f"{n} vs. {v.shape[0]}")

        def make():
            for i in range(n):
                yield tuple(v[i] for v in vals)
        return make

    def _bind_sparse(self, valmap, rt):
        classes = self._source_classes
        vals = _st.collapse([valmap[t] for t in self._captures], classes)
        sizes = [int(v.dense_shape[0]) if c is SparseTensor else _st._nrows(v) for v, c in zip(vals, classes)]
        n = sizes[0]
        for m in sizes[1:]:
            if m != n:
                raise errors.InvalidArgumentError(
                    None, None, f"All components must have the same size in the 0th dimension: {n} vs. {m}")

        def make():
            for i in range(n):
                yield tuple(_st.slice_sparse(v, i) if c is SparseTensor else
                            _st.ragged_row(v, i) if _st.is_ragged_class(c) else v[i]
                            for v, c in zip(vals, classes))
        return make

    def _bind_batches(self, valmap, rt, size, drop):
        """Batches of `size` consecutive slices, cut in one piece each (batch over slices)."""
        vals = [np.asarray(valmap[t]) for t in self._captures]
        self._bind(valmap, rt)  # validates the sizes
        n = vals[0].shape[0]

        def make():
            for i in range(0, n, size):
                if drop and i + size > n:
                    return
                yield tuple(v[i:i + size].copy() for v in vals)
        return make


class TensorDataset(DatasetV1):
    def __init__(self, tensors):
        element = _normalize(tensors)
        flat = flatten(element)
        self._captures = [x for t in flat for x in _st.leaf_tensors(t)[0]]
        self._set_element(_structure_of(element), [t.dtype.base_dtype for t in flat], [t.shape for t in flat],
                          [_st.leaf_tensors(t)[1] for t in flat])

    def _bind(self, valmap, rt):
        vals = _st.collapse([np.asarray(valmap[t]) for t in self._captures], self._classes)

        def make():
            yield vals
        return make


class RangeDataset(DatasetV1):
    def __init__(self, *args, output_type=_dtypes.int64):
        if len(args) == 1:
            start, stop, step = 0, args[0], 1
        elif len(args) == 2:
            (start, stop), step = args, 1
        elif len(args) == 3:
            start, stop, step = args
        else:
            raise ValueError(f"Invalid arguments to RangeDataset: {args}")
        self._captures = [convert_to_tensor(x, dtype=_dtypes.int64, name=n)
                          for x, n in zip((start, stop, step), ("start", "stop", "step"))]
        self._dtype = _dtypes.as_dtype(output_type)
        self._set_element(0, [self._dtype], [TensorShape([])])

    def _bind(self, valmap, rt):
        start, stop, step = (int(valmap[t]) for t in self._captures)
        if step == 0:
            raise errors.InvalidArgumentError(None, None, "step must be a non-zero integer.")
        np_dtype = self._dtype.as_numpy_dtype

        def make():
            for i in range(start, stop, step):
                yield (np.array(i, np_dtype),)
        return make


class ZipDataset(DatasetV1):
    def __init__(self, datasets):
        flat = flatten(datasets)
        for ds in flat:
            if not isinstance(ds, DatasetV1):
                raise TypeError(f"Invalid `datasets`. `datasets` is expected to be a (nested) structure of "
                                f"`tf.data.Dataset` objects. Encountered object with type {type(ds)}.")
        self._datasets = datasets
        self._inputs = flat
        structures, types, shapes, classes, offset = [], [], [], [], 0
        for ds in flat:
            structures.append(pack_sequence_as(ds._structure, [i + offset for i in flatten(ds._structure)]))
            offset += len(ds._types)
            types += ds._types
            shapes += ds._shapes
            classes += ds._classes
        self._set_element(pack_sequence_as(datasets, structures), types, shapes, classes)

    def _bind(self, valmap, rt):
        makes = [ds._bind(valmap, rt) for ds in self._inputs]

        def make():
            its = [m() for m in makes]
            try:
                while True:
                    out, failed = (), None
                    for it in its:
                        try:
                            element = next(it)
                        except StopIteration:
                            return
                        if isinstance(element, _runtime.Failed):
                            # TF still takes the other inputs' elements, then fails this one
                            failed = failed or element
                        else:
                            out += tuple(element)
                    yield failed or out
            finally:
                for it in its:
                    it.close()
        return make


class ConcatenateDataset(DatasetV1):
    def __init__(self, input_dataset, dataset_to_concatenate):
        a, b = input_dataset, dataset_to_concatenate
        if a._types != b._types or len(flatten(a._structure)) != len(flatten(b._structure)) or \
                a._classes != b._classes:
            raise TypeError(f"Incompatible dataset elements:\n  {a.element_spec} vs.   {b.element_spec}")
        self._inputs = (a, b)
        self._set_element(a._structure, a._types, [_most_specific(x, y) for x, y in zip(a._shapes, b._shapes)],
                          a._classes)

    def _bind(self, valmap, rt):
        ma, mb = (ds._bind(valmap, rt) for ds in self._inputs)

        def make():
            yield from ma()
            yield from mb()
        return make


# The transformations' classes live in their own modules; DatasetV1's methods find them here.
from .function_datasets import FilterDataset, FlatMapDataset, InterleaveDataset, MapDataset  # noqa: E402
from .batching import BatchDataset, PaddedBatchDataset, UnbatchDataset  # noqa: E402
from .ordering_ops import (CacheDataset, PrefetchDataset, RepeatDataset, ShuffleDataset,  # noqa: E402
                           SkipDataset, TakeDataset)
