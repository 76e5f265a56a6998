"""Grouping transformations: `group_by_window`, `group_by_reducer` (+ `Reducer`) and
`bucket_by_sequence_length`, in TF's element order.

TF keeps its open groups in a map ordered by key: a group is flushed (through `reduce_func`) the
moment it holds `window_size` elements; when the input ends, the remaining groups are flushed in
ascending key order. `group_by_reducer` emits one finalized state per key, in ascending key order.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.func_graph import flatten, func_graph_from_py_func, pack_sequence_as
from ..framework.graph import Tensor
from ..framework.tensor_shape import TensorShape
from . import _runtime
from . import structure as _st
from .dataset_ops import DatasetV1, _most_specific, _normalize, _structure_of
from .function_datasets import _listless, _trace

__all__ = ["group_by_window", "group_by_reducer", "Reducer", "bucket_by_sequence_length"]


class _Rows:
    """The value of a group argument inside a traced function: the group's elements."""

    __slots__ = ("rows",)

    def __init__(self, rows):
        self.rows = rows


class _GroupDataset(DatasetV1):
    """Inside `reduce_func`: the dataset of one group's elements (a variant placeholder)."""

    def __init__(self, placeholder, like):
        self._captures = [placeholder]
        self._set_element(like._structure, like._types, like._shapes, like._classes)

    def _bind(self, valmap, rt):
        v = valmap[self._captures[0]]
        rows = v.rows if isinstance(v, _Rows) else np.asarray(v).item().rows

        def make():
            yield from rows
        return make


def _key_function(name, fn, dataset, message):
    """Traces a scalar-int64-valued function of the dataset's elements."""
    fg = _trace(name, fn, dataset)
    out = fg.outputs
    if len(out) != 1 or out[0] is None or out[0].dtype.base_dtype != _dtypes.int64 or \
            out[0].shape.ndims not in (None, 0):
        raise ValueError(message)
    return _runtime.CompiledFunction(fg)


def _scalar_function(name, fn, message):
    """Traces fn(key) -> int64 scalar (window_size_func)."""
    fg = func_graph_from_py_func(name, fn, [(_dtypes.int64, TensorShape([]))])
    out = fg.outputs
    if len(out) != 1 or out[0] is None or out[0].dtype.base_dtype != _dtypes.int64 or \
            out[0].shape.ndims not in (None, 0):
        raise ValueError(message)
    return _runtime.CompiledFunction(fg)


class _KeyedDatasetFunction:
    """fn(key, group_dataset) -> Dataset, traced once (group_by_window's reduce_func)."""

    def __init__(self, name, fn, dataset):
        holder = {}

        def call(key, group):
            return fn(key, _GroupDataset(group, dataset))

        def convert(result):
            if not isinstance(result, DatasetV1):
                raise TypeError(f"`reduce_func` must return a `Dataset` object. Got {type(result)}.")
            holder["ds"] = result
            return result.all_captures()

        fg = func_graph_from_py_func(name, call, [(_dtypes.int64, TensorShape([])), (_dtypes.variant, TensorShape([]))],
                                     convert_outputs=convert)
        self.inner = holder["ds"]
        self.inner_captures = self.inner.all_captures()
        self.fn = _runtime.CompiledFunction(fg)
        self.captures = self.fn.captures

    def bind(self, valmap, rt):
        inner, caps = self.inner, self.inner_captures
        fn = self.fn.bind(valmap, rt.ctx)

        def make_inner(key, rows):
            values = fn(np.array(key, np.int64), _Rows(rows))
            return inner._bind(dict(zip(caps, values)), rt)()
        return make_inner


class GroupByWindowDataset(DatasetV1):
    def __init__(self, input_dataset, key_func, reduce_func, window_size=None, window_size_func=None):
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")
        self._inputs = (input_dataset,)
        self._key = _key_function("key_func", key_func, input_dataset,
                                  "Invalid `key_func`. `key_func` must return a single tf.int64 scalar tensor "
                                  "but its return type is {}.")
        if window_size is not None:
            self._window_size = convert_to_tensor(window_size, dtype=_dtypes.int64, name="window_size")
            self._size_fn = None
            size_caps = [self._window_size]
        else:
            self._window_size = None
            self._size_fn = _scalar_function("window_size_func", window_size_func,
                                             "Invalid `window_size_func`. `window_size_func` must return a "
                                             "single tf.int64 scalar tensor.")
            size_caps = list(self._size_fn.captures)
        self._reduce = _KeyedDatasetFunction("reduce_func", reduce_func, input_dataset)
        self._captures = list(self._key.captures) + size_caps + list(self._reduce.captures)
        inner = self._reduce.inner
        self._set_element(inner._structure, inner._types, inner._shapes, inner._classes)

    def _bind(self, valmap, rt):
        source = self._inputs[0]
        make_input = source._bind(valmap, rt)
        key_fn = _st.adapt(self._key.bind(valmap, rt.ctx), source._classes, [Tensor])
        if self._size_fn is None:
            fixed = int(valmap[self._window_size])
            size_of = lambda key: fixed  # noqa: E731
        else:
            size_fn = self._size_fn.bind(valmap, rt.ctx)
            size_of = lambda key: int(size_fn(np.array(key, np.int64))[0])  # noqa: E731
        make_inner = self._reduce.bind(valmap, rt)
        key_of = _failing_key(key_fn, id(self) in rt.resumable)

        def make():
            groups, sizes = {}, {}
            it = make_input()
            try:
                for element in it:
                    key = key_of(element)
                    if isinstance(key, _runtime.Failed):
                        yield key
                        continue
                    if key not in groups:
                        if key not in sizes:
                            size = size_of(key)
                            if size <= 0:
                                raise errors.InvalidArgumentError(
                                    None, None, f"Window size must be greater than zero, but got {size}.")
                            sizes[key] = size
                        groups[key] = []
                    group = groups[key]
                    group.append(element)
                    if len(group) == sizes[key]:
                        del groups[key]
                        yield from make_inner(key, group)
                for key in sorted(groups):
                    yield from make_inner(key, groups.pop(key))
            finally:
                it.close()
        return make


class Reducer:
    """A reducer for `group_by_reducer`: init_func(key) -> state, reduce_func(state, element) ->
    state, finalize_func(state) -> output."""

    def __init__(self, init_func, reduce_func, finalize_func):
        self._init_func = init_func
        self._reduce_func = reduce_func
        self._finalize_func = finalize_func

    @property
    def init_func(self):
        return self._init_func

    @property
    def reduce_func(self):
        return self._reduce_func

    @property
    def finalize_func(self):
        return self._finalize_func


class GroupByReducerDataset(DatasetV1):
    def __init__(self, input_dataset, key_func, reducer):
        from .experimental_ops import _state_function
        self._inputs = (input_dataset,)
        self._key = _key_function("key_func", key_func, input_dataset,
                                  "Invalid `key_func`. `key_func` must return a single tf.int64 scalar tensor.")
        # init_func(key) -> initial state
        holder = {}

        def convert_state(result):
            state = _normalize(_listless(result), name="state")
            holder["structure"] = _structure_of(state)
            return flatten(state)
        init_fg = func_graph_from_py_func("init_func", reducer.init_func, [(_dtypes.int64, TensorShape([]))],
                                          convert_outputs=convert_state)
        structure = holder["structure"]
        types = [t.dtype.base_dtype for t in init_fg.outputs]
        shapes = [t.shape for t in init_fg.outputs]
        for _ in range(8):
            red_fg, _h = _state_function("reduce_func", reducer.reduce_func, structure, types, shapes, input_dataset)
            new = [_most_specific(a, b.shape) for a, b in zip(shapes, red_fg.outputs)]
            if [s.as_list() if s.ndims is not None else None for s in new] == \
                    [s.as_list() if s.ndims is not None else None for s in shapes]:
                break
            shapes = new
        fin = {}

        def finalize(*args):
            return reducer.finalize_func(*_as_args(pack_sequence_as(structure, list(args))))

        def convert_out(result):
            result = _normalize(_listless(result), name="output")
            fin["structure"] = _structure_of(result)
            return flatten(result)
        fin_fg = func_graph_from_py_func("finalize_func", finalize, list(zip(types, shapes)),
                                         convert_outputs=convert_out)
        self._n_state = len(types)
        self._init = _runtime.CompiledFunction(init_fg)
        self._red = _runtime.CompiledFunction(red_fg)
        self._fin = _runtime.CompiledFunction(fin_fg)
        self._captures = list(self._key.captures) + list(self._init.captures) + list(self._red.captures) + \
            list(self._fin.captures)
        outs = fin_fg.outputs
        self._set_element(fin["structure"], [t.dtype.base_dtype for t in outs], [t.shape for t in outs])

    def _bind(self, valmap, rt):
        source = self._inputs[0]
        make_input = source._bind(valmap, rt)
        key_fn = _st.adapt(self._key.bind(valmap, rt.ctx), source._classes, [Tensor])
        init_fn = self._init.bind(valmap, rt.ctx)
        k = self._n_state
        red_fn = _st.adapt(self._red.bind(valmap, rt.ctx), [Tensor] * k + source._classes, [Tensor] * k)
        fin_fn = self._fin.bind(valmap, rt.ctx)
        key_of = _failing_key(key_fn, id(self) in rt.resumable)

        def make():
            states = {}
            it = make_input()
            try:
                for element in it:
                    key = key_of(element)
                    if isinstance(key, _runtime.Failed):
                        yield key
                        continue
                    if key not in states:
                        states[key] = list(init_fn(np.array(key, np.int64)))
                    states[key] = list(red_fn(*(states[key] + list(element))))
            finally:
                it.close()
            for key in sorted(states):
                yield tuple(fin_fn(*states[key]))
        return make


def _failing_key(key_fn, resumable):
    """element -> its int key, or a `Failed` for a failed element or (when `resumable`) a failing
    key function: TF fails that element only, and the groups gathered so far go on."""
    def key_of(element):
        if isinstance(element, _runtime.Failed):
            return element
        try:
            return int(key_fn(*element)[0])
        except errors.OpError as e:
            if not resumable:
                raise
            return _runtime.Failed(e)
    return key_of


def _as_args(value):
    return value if isinstance(value, tuple) and not hasattr(value, "_fields") else (value,)


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """tf.data.experimental.group_by_window: a transformation for `Dataset.apply`."""
    return lambda ds: GroupByWindowDataset(ds, key_func, reduce_func, window_size, window_size_func)


def group_by_reducer(key_func, reducer):
    """tf.data.experimental.group_by_reducer: one output per key (in ascending key order)."""
    return lambda ds: GroupByReducerDataset(ds, key_func, reducer)


def _bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes,
                               padded_shapes=None, padding_values=None, pad_to_bucket_boundary=False,
                               no_padding=False, drop_remainder=False):
    """TF's composite: a bucket id per element, group_by_window with the bucket's batch size,
    each window padded_batch-ed (or batch-ed when no_padding)."""
    from ..ops import array_ops, math_ops
    if len(bucket_batch_sizes) != (len(bucket_boundaries) + 1):
        raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                         f"`len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
                         f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
    batch_sizes = constant(bucket_batch_sizes, dtype=_dtypes.int64)

    def element_to_bucket_id(*args):
        seq_length = element_length_func(*args)
        boundaries = list(bucket_boundaries)
        buckets_min = [np.iinfo(np.int32).min] + boundaries
        buckets_max = boundaries + [np.iinfo(np.int32).max]
        conditions_c = math_ops.logical_and(math_ops.less_equal(buckets_min, seq_length),
                                            math_ops.less(seq_length, buckets_max))
        return math_ops.reduce_min(array_ops.where(conditions_c))

    def window_size_fn(bucket_id):
        return batch_sizes[bucket_id]

    def make_padded_shapes(shapes, none_filler=None):
        padded = []
        for shape in flatten(shapes):
            shape = TensorShape(shape)
            padded.append([none_filler if d is None else d for d in shape.as_list()])
        return pack_sequence_as(shapes, padded)

    def batching_fn(bucket_id, grouped_dataset):
        batch_size = window_size_fn(bucket_id)
        if no_padding:
            return grouped_dataset.batch(batch_size, drop_remainder=drop_remainder)
        none_filler = None
        if pad_to_bucket_boundary:
            from ..ops import check_ops
            from ..framework.graph import control_dependencies
            check = check_ops.assert_less(
                bucket_id, constant(len(bucket_batch_sizes) - 1, dtype=_dtypes.int64),
                message="When pad_to_bucket_boundary=True, elements must have length < max(bucket_boundaries).")
            with control_dependencies([check]):
                boundaries = constant(bucket_boundaries, dtype=_dtypes.int64)
                none_filler = boundaries[bucket_id] - 1
        shapes = make_padded_shapes(padded_shapes or grouped_dataset.output_shapes, none_filler=none_filler)
        return grouped_dataset.padded_batch(batch_size, shapes, padding_values, drop_remainder=drop_remainder)

    return GroupByWindowDataset(dataset, element_to_bucket_id, batching_fn, window_size_func=window_size_fn)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """tf.data.experimental.bucket_by_sequence_length: a transformation for `Dataset.apply`."""
    return lambda ds: _bucket_by_sequence_length(ds, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                                 padded_shapes, padding_values, pad_to_bucket_boundary,
                                                 no_padding, drop_remainder)


def _group_by_window_method(self, key_func, reduce_func, window_size=None, window_size_func=None):
    return GroupByWindowDataset(self, key_func, reduce_func, window_size, window_size_func)


def _bucket_method(self, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                   padding_values=None, pad_to_bucket_boundary=False, no_padding=False, drop_remainder=False,
                   name=None):
    return _bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                      padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                      drop_remainder)


DatasetV1.group_by_window = _group_by_window_method
DatasetV1.bucket_by_sequence_length = _bucket_method
