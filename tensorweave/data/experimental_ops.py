"""More `tf.data` transformations (enumerate, shard, scan, take_while, unique, window,
reduce...) and the `tf.data.experimental` namespace's functions.

`Dataset.reduce` is the one that makes a graph op: `ReduceDataset` takes the initial state, the
dataset's captured tensors and the reduce function's captures, and runs the whole pipeline in
one step.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors, registry
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, func_graph_from_py_func, pack_sequence_as
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..kernels.registry import register_kernel
from ..framework.graph import Tensor
from . import _runtime
from . import structure as _st
from .specs import DatasetSpec
from .batching import _int64_scalar
from .dataset_ops import AUTOTUNE, DatasetV1, RangeDataset, TensorDataset, ZipDataset, _most_specific, _structure_of
from .function_datasets import _PredicateDataset, _listless

__all__ = []

_INT64_MAX = np.iinfo(np.int64).max


class ShardDataset(DatasetV1):
    def __init__(self, input_dataset, num_shards, index):
        self._inputs = (input_dataset,)
        self._num_shards = _int64_scalar(num_shards, "num_shards")
        self._index = _int64_scalar(index, "index")
        self._captures = [self._num_shards, self._index]
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        n, k = int(valmap[self._num_shards]), int(valmap[self._index])
        if n <= 0:
            raise errors.InvalidArgumentError(None, None, "Number of shards must be greater than zero "
                                                          f"(currently num_shards = {n}).")
        if k < 0 or k >= n:
            raise errors.InvalidArgumentError(None, None, "Index must be between 0 and "
                                                          f"{n - 1} (currently index = {k}).")
        make_input = self._inputs[0]._bind(valmap, rt)
        Failed = _runtime.Failed

        def make():
            # TF's ShardDataset: each output skips to the next index of the shard, then takes one
            # element. A failed element met while skipping or taking fails that output and is not
            # counted (nor are the elements skipped before it), so the shard's phase shifts.
            it = make_input()
            next_index = 0
            try:
                while True:
                    skipped = 0
                    failed = None
                    for _ in range((k - next_index) % n):
                        element = next(it, None)
                        if element is None:
                            return
                        if isinstance(element, Failed):
                            failed = element
                            break
                        skipped += 1
                    if failed is not None:
                        yield failed
                        continue
                    next_index += skipped
                    element = next(it, None)
                    if element is None:
                        return
                    if not isinstance(element, Failed):
                        next_index += 1
                    yield element
            finally:
                it.close()
        return make


def _state_function(name, fn, state_structure, state_types, state_shapes, dataset, n_extra_outputs=None):
    """Traces fn(state, element) -> (new_state[, output]); returns (func_graph, holder)."""
    holder = {}
    n_state = len(state_types)
    specs = list(zip(state_types, state_shapes)) + _st.arg_specs(dataset._types, dataset._shapes,
                                                                 dataset._classes)

    def call(*args):
        state = pack_sequence_as(state_structure, list(args[:n_state]))
        element = pack_sequence_as(dataset._structure,
                                   _st.pack_args(list(args[n_state:]), dataset._shapes, dataset._classes))
        return fn(state, element)

    def convert(result):
        result = _listless(result)
        if n_extra_outputs:
            if not isinstance(result, tuple) or len(result) != 2:
                raise TypeError(f"The `{name}` must return a pair comprising the new state and the output "
                                f"value.")
            new_state, out = result
            out_leaves = [convert_to_tensor(x) for x in flatten(out)]
            holder["out_structure"] = pack_sequence_as(out, list(range(len(out_leaves))))
        else:
            new_state, out_leaves = result, []
        state_leaves = [convert_to_tensor(x) for x in flatten(new_state)]
        if len(state_leaves) != n_state:
            raise TypeError(f"The element structure returned by `{name}` does not match the initial state.")
        for t, dt in zip(state_leaves, state_types):
            if t.dtype.base_dtype != dt:
                raise TypeError(f"The element types for the new state must match the initial state. Expected "
                                f"{pack_sequence_as(state_structure, list(state_types))}; got "
                                f"{pack_sequence_as(state_structure, [x.dtype.base_dtype for x in state_leaves])}.")
        return state_leaves + out_leaves

    fg = func_graph_from_py_func(name, call, specs, convert_outputs=convert)
    return fg, holder


def _initial_state(initial_state):
    from .dataset_ops import _normalize
    state = _normalize(initial_state, name="initial_state")
    flat = flatten(state)
    return state, flat


class ScanDataset(DatasetV1):
    def __init__(self, input_dataset, initial_state, scan_func):
        self._inputs = (input_dataset,)
        state, flat = _initial_state(initial_state)
        self._state_structure = _structure_of(state)
        types = [t.dtype.base_dtype for t in flat]
        shapes = [t.shape for t in flat]
        # Relax the state shapes until the function keeps them (TF does the same fixed point).
        for _ in range(8):
            fg, holder = _state_function("scan_func", scan_func, self._state_structure, types, shapes,
                                         input_dataset, n_extra_outputs=True)
            new = [_most_specific(a, b.shape) for a, b in zip(shapes, fg.outputs[:len(types)])]
            if [s.as_list() if s.ndims is not None else None for s in new] == \
                    [s.as_list() if s.ndims is not None else None for s in shapes]:
                break
            shapes = new
        self._n_state = len(types)
        self._fn = _runtime.CompiledFunction(fg)
        self._state_init = flat
        self._captures = list(flat) + list(self._fn.captures)
        outs = fg.outputs[len(types):]
        self._set_element(holder["out_structure"], [t.dtype.base_dtype for t in outs], [t.shape for t in outs])

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)
        k = self._n_state
        fn = _st.adapt(self._fn.bind(valmap, rt.ctx), [Tensor] * k + self._inputs[0]._classes,
                       [Tensor] * (k + len(self._types)))
        init = [valmap[t] for t in self._state_init]
        resumable = id(self) in rt.resumable

        def make():
            state = list(init)
            it = make_input()
            try:
                for element in it:
                    if isinstance(element, _runtime.Failed):
                        yield element
                        continue
                    try:
                        out = fn(*(list(state) + list(element)))
                    except errors.OpError as e:
                        if not resumable:
                            raise
                        yield _runtime.Failed(e)  # (TF: this element fails, the state stays)
                        continue
                    state = list(out[:k])
                    yield tuple(out[k:])
            finally:
                it.close()
        return make


class TakeWhileDataset(_PredicateDataset):
    _error = "Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return type is{}."

    @staticmethod
    def _select(elements, keep):
        for element in elements:
            k = keep(element)
            if isinstance(k, _runtime.Failed):
                yield k  # (a failing predicate fails that element only, as in TF)
                continue
            if not k:
                return
            yield element


class UniqueDataset(DatasetV1):
    def __init__(self, input_dataset):
        if len(input_dataset._types) != 1:
            raise TypeError("Dataset.unique() does not support nested structures of tensors.")
        if input_dataset._types[0] not in (_dtypes.int32, _dtypes.int64, _dtypes.string):
            raise TypeError(f"Dataset.unique() does not support type {input_dataset._types[0].name}. Only "
                            "`tf.int32`, `tf.int64`, and `tf.string` are supported.")
        self._inputs = (input_dataset,)
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)

        def make():
            seen = set()
            it = make_input()
            try:
                for element in it:
                    if isinstance(element, _runtime.Failed):
                        yield element
                        continue
                    a = np.asarray(element[0])
                    key = (a.shape, a.tobytes()) if a.dtype != object else (a.shape, tuple(a.ravel().tolist()))
                    if key in seen:
                        continue
                    seen.add(key)
                    yield element
            finally:
                it.close()
        return make


class IgnoreErrorsDataset(DatasetV1):
    """The input's elements, leaving out those that fail: a `Failed` element (the stages
    before pass them on, as this class is in RESUMABLE) is dropped and the input goes on."""

    def __init__(self, input_dataset):
        self._inputs = (input_dataset,)
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)

        def make():
            it = make_input()
            try:
                while True:
                    try:
                        element = next(it)
                    except StopIteration:
                        return
                    except errors.OpError:
                        # A stage that raised (a generator, a file reader) cannot resume: TF would
                        # skip the error and go on, here the input has ended.
                        return
                    if not isinstance(element, _runtime.Failed):
                        yield element
                    else:
                        rt.check()  # (an input failing for good loops here, as in TF: stay cancellable)
            finally:
                it.close()
        return make


# -- window: datasets as elements --------------------------------------------------------------------

class _Window:
    """The value of a window element: the rows of one component."""

    __slots__ = ("rows",)

    def __init__(self, rows):
        self.rows = rows


class _WindowComponentDataset(DatasetV1):
    """Inside a function of a window dataset: the dataset one window component stands for."""

    def __init__(self, placeholder, dtype, shape):
        self._captures = [placeholder]
        self._set_element(0, [dtype], [shape])

    def _bind(self, valmap, rt):
        w = valmap[self._captures[0]]
        rows = w.rows if isinstance(w, _Window) else np.asarray(w).item().rows

        def make():
            for r in rows:
                yield (r,)
        return make


class WindowDataset(DatasetV1):
    def __init__(self, input_dataset, size, shift=None, stride=1, drop_remainder=False):
        self._inputs = (input_dataset,)
        self._size = _int64_scalar(size, "size")
        self._shift = _int64_scalar(size if shift is None else shift, "shift")
        self._stride = _int64_scalar(stride, "stride")
        self._drop = _int64_scalar(drop_remainder, "drop_remainder") if not isinstance(drop_remainder, bool) \
            else bool(drop_remainder)
        self._captures = [self._size, self._shift, self._stride] + \
            ([self._drop] if not isinstance(self._drop, bool) else [])
        self._set_element(input_dataset._structure, [_dtypes.variant] * len(input_dataset._types),
                          [TensorShape([])] * len(input_dataset._types))
        self._window_types = list(input_dataset._types)
        self._window_shapes = list(input_dataset._shapes)

    def _wrap_args(self, args):
        return [_WindowComponentDataset(a, t, s) for a, t, s in zip(args, self._window_types,
                                                                     self._window_shapes)]

    @property
    def element_spec(self):
        """A `tf.data.DatasetSpec` per component (TF's legacy output_* properties show it too)."""
        return pack_sequence_as(self._structure, [DatasetSpec(TensorSpec(s, t)) for t, s in
                                                  zip(self._window_types, self._window_shapes)])

    output_types = output_shapes = output_classes = element_spec

    def _bind(self, valmap, rt):
        size, shift, stride = (int(valmap[t]) for t in (self._size, self._shift, self._stride))
        drop = self._drop if isinstance(self._drop, bool) else bool(valmap[self._drop])
        for v, n in ((size, "size"), (shift, "shift"), (stride, "stride")):
            if v <= 0:
                raise errors.InvalidArgumentError(None, None, f"Window {n} must be positive.")
        make_input = self._inputs[0]._bind(valmap, rt)
        span = (size - 1) * stride + 1
        n_components = len(self._window_types)
        Failed = _runtime.Failed

        def make():
            # TF's WindowDataset: a buffer of up to `span` elements (failed ones kept in place);
            # each output takes every stride-th one, failing if one of those failed, then drops
            # `shift` elements (reading past the buffer ignores the errors it meets).
            buf = []
            it = make_input()
            try:
                ended = False
                while True:
                    while len(buf) < span and not ended:
                        element = next(it, None)
                        if element is None:
                            ended = True
                        else:
                            buf.append(element)
                    if not buf or (ended and drop and len(buf) < span):
                        return
                    rows = buf[::stride]
                    failed = next((r for r in rows if isinstance(r, Failed)), None)
                    if len(buf) >= shift:
                        buf = buf[shift:]
                    else:
                        for _ in range(shift - len(buf)):
                            if ended or next(it, None) is None:
                                ended = True
                                break
                        buf = []
                    yield failed or tuple(_Window([r[i] for r in rows]) for i in range(n_components))
            finally:
                it.close()
        return make


# -- reduce: a graph op -------------------------------------------------------------------------------

registry.register_op("ReduceDataset", stateful=True,
                     shape_fn=lambda op: list(op._get_attr("output_shapes")))
registry.no_gradient("ReduceDataset")


def reduce_dataset(dataset, initial_state, reduce_func):
    state, flat = _initial_state(initial_state)
    structure = _structure_of(state)
    types = [t.dtype.base_dtype for t in flat]
    shapes = [t.shape for t in flat]
    for _ in range(8):
        fg, _h = _state_function("reduce_func", reduce_func, structure, types, shapes, dataset)
        new = [_most_specific(a, b.shape) for a, b in zip(shapes, fg.outputs)]
        if [s.as_list() if s.ndims is not None else None for s in new] == \
                [s.as_list() if s.ndims is not None else None for s in shapes]:
            break
        shapes = new
    fn = _runtime.CompiledFunction(fg)
    ds_caps = dataset.all_captures()
    inputs = list(flat) + list(ds_caps) + list(fn.captures)
    out = apply_op("ReduceDataset", inputs, types, "ReduceDataset", attrs={
        "dataset": dataset, "f": fn, "n_state": len(flat), "n_dataset": len(ds_caps),
        "output_types": types, "output_shapes": shapes})
    outs = out if isinstance(out, list) else [out]
    return pack_sequence_as(structure, outs)


@register_kernel("ReduceDataset")
def _reduce_dataset_kernel(op, ctx):
    dataset, f = op._get_attr("dataset"), op._get_attr("f")
    k, nd = op._get_attr("n_state"), op._get_attr("n_dataset")
    ds_caps = dataset.all_captures()
    n_out = k

    def reduce_dataset(*values):
        state = list(values[:k])
        valmap = dict(zip(ds_caps, values[k:k + nd]))
        valmap.update(zip(f.captures, values[k + nd:]))
        fn = _st.adapt(f.bind(valmap, ctx), [Tensor] * k + dataset._classes, [Tensor] * k)
        it = _runtime.whole_pipeline(dataset, valmap, ctx)
        try:
            for element in it:
                state = list(fn(*(state + list(element))))
        finally:
            it.close()
        state = [np.asarray(s) for s in state]
        return state[0] if n_out == 1 else tuple(state)
    return reduce_dataset


# -- the methods on Dataset ---------------------------------------------------------------------------

def _enumerate(self, start=0):
    max_value = _INT64_MAX
    return ZipDataset((RangeDataset(start, max_value), self))


def _shard(self, num_shards, index):
    return ShardDataset(self, num_shards, index)


def _window(self, size, shift=None, stride=1, drop_remainder=False):
    return WindowDataset(self, size, shift, stride, drop_remainder)


def _reduce(self, initial_state, reduce_func):
    return reduce_dataset(self, initial_state, reduce_func)


def _unique(self):
    return UniqueDataset(self)


def _take_while(self, predicate):
    return TakeWhileDataset(self, predicate)


def _scan(self, initial_state, scan_func):
    return ScanDataset(self, initial_state, scan_func)


for _name, _fn in (("enumerate", _enumerate), ("shard", _shard), ("window", _window), ("reduce", _reduce),
                   ("unique", _unique), ("take_while", _take_while), ("scan", _scan)):
    setattr(DatasetV1, _name, _fn)


# -- tf.data.experimental -----------------------------------------------------------------------------

def unbatch():
    return lambda ds: ds.unbatch()


def enumerate_dataset(start=0):
    return lambda ds: ds.enumerate(start)


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` allows only one of `num_parallel_batches` and "
                         "`num_parallel_calls` to be set.")
    def apply(ds):
        mapped = ds.map(map_func, num_parallel_calls)
        mapped._preserve_cardinality = True  # TF's MapAndBatchDataset keeps the input's count
        return _named(mapped.batch(batch_size, drop_remainder), "_MapAndBatchDataset")
    return apply


def _named(ds, tf_name):
    """`ds` showing TF's class name for a fused transformation in its repr."""
    ds._tf_name = tf_name
    return ds


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    return lambda ds: _named(ds.shuffle(buffer_size, seed).repeat(count), "_ShuffleAndRepeatDataset")


def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False, buffer_output_elements=None,
                        prefetch_input_elements=None):
    # sloppy only lets TF reorder elements; the deterministic order is one TF may give.
    def apply(ds):
        out = _named(ds.interleave(map_func, cycle_length, block_length), "ParallelInterleaveDataset")
        out._count_failed = True  # (a failed element takes its turn, as in TF's parallel interleave)
        return out
    return apply


def ignore_errors(log_warning=False):
    return lambda ds: IgnoreErrorsDataset(ds)


def take_while(predicate):
    return lambda ds: TakeWhileDataset(ds, predicate)


def unique():
    return lambda ds: UniqueDataset(ds)


def scan(initial_state, scan_func):
    return lambda ds: ScanDataset(ds, initial_state, scan_func)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    from .sampling import choose_from_datasets as choose
    return choose(datasets, choice_dataset, stop_on_empty_dataset)


def Counter(start=0, step=1, dtype=_dtypes.int64):  # noqa: N802 - TF's name
    """Counts up from `start` by `step` forever: TF's scan over an endless repeat (so its repr
    is `<_ScanDataset ...>` and its cardinality infinite)."""
    start = convert_to_tensor(start, dtype=dtype, name="start")
    step = convert_to_tensor(step, dtype=dtype, name="step")
    return TensorDataset(0).repeat(None).apply(scan(start, lambda state, _: (state + step, state)))


def get_single_element(dataset):
    """The only element of `dataset` (InvalidArgumentError if it has none or more than one)."""
    if not isinstance(dataset, DatasetV1):
        raise TypeError(f"`dataset` must be a `tf.data.Dataset` object. Got {type(dataset)}.")
    return _single_element(dataset)


registry.register_op("DatasetToSingleElement", stateful=True,
                     shape_fn=lambda op: list(op._get_attr("output_shapes")))
registry.no_gradient("DatasetToSingleElement")


def _single_element(dataset):
    caps = dataset.all_captures()
    out = apply_op("DatasetToSingleElement", caps, list(dataset._types), "DatasetToSingleElement", attrs={
        "dataset": dataset, "output_types": list(dataset._types), "output_shapes": list(dataset._shapes)})
    outs = out if isinstance(out, list) else [out]
    return pack_sequence_as(dataset._structure, outs)


@register_kernel("DatasetToSingleElement")
def _single_element_kernel(op, ctx):
    dataset = op._get_attr("dataset")
    caps = dataset.all_captures()
    n = len(op._outputs)

    def single(*values):
        it = _runtime.whole_pipeline(dataset, dict(zip(caps, values)), ctx)
        try:
            try:
                element = next(it)
            except StopIteration:
                raise errors.InvalidArgumentError(None, None, "Dataset was empty.") from None
            try:
                next(it)
            except StopIteration:
                pass
            else:
                raise errors.InvalidArgumentError(None, None, "Dataset had more than one element.")
        finally:
            it.close()
        out = [np.asarray(v) for v in element]
        return out[0] if n == 1 else tuple(out)
    return single


INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


def namespace():
    import types as _types
    return _types.SimpleNamespace(
        AUTOTUNE=AUTOTUNE, unbatch=unbatch, enumerate_dataset=enumerate_dataset, map_and_batch=map_and_batch,
        shuffle_and_repeat=shuffle_and_repeat, parallel_interleave=parallel_interleave,
        ignore_errors=ignore_errors, take_while=take_while, unique=unique, scan=scan,
        choose_from_datasets=choose_from_datasets, Counter=Counter, get_single_element=get_single_element,
        INFINITE_CARDINALITY=INFINITE_CARDINALITY, UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY)

