"""`tf.data.experimental.cardinality` / `Dataset.cardinality()` and `assert_cardinality`.

The cardinality is computed when the `DatasetCardinality` op runs (from the values the dataset
captures: a batch size, a take count...), by TF's per-transformation rules: -1 (INFINITE) for an
endless dataset, -2 (UNKNOWN) where counting would need running it (filter, flat_map, files,
generators, and TF1's `map`, which does not preserve cardinality).
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors, registry
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape
from ..kernels.registry import register_kernel
from . import _runtime
from . import dataset_ops as _d
from .batching import _int64_scalar
from . import experimental_ops as _e

__all__ = ["INFINITE", "UNKNOWN", "cardinality", "assert_cardinality", "AssertCardinalityDataset"]

INFINITE = -1
UNKNOWN = -2


def _n(ds, valmap):
    return _cardinality(ds, valmap)


def _int(valmap, t):
    return int(valmap[t])


def _range(ds, valmap):
    if getattr(ds, "_endless", False):
        return INFINITE
    start, stop, step = (int(valmap[t]) for t in ds._captures)
    if step > 0:
        return max(0, (stop - start - 1) // step + 1) if stop > start else 0
    return max(0, (start - stop - 1) // (-step) + 1) if start > stop else 0


def _slices(ds, valmap):
    from . import structure as _st
    v = valmap[ds._captures[0]]
    if ds._source_classes[0] is not _d.Tensor:
        vals = _st.collapse([valmap[t] for t in ds._captures], ds._source_classes)
        return int(vals[0].dense_shape[0]) if ds._source_classes[0] is _d.SparseTensor else _st._nrows(vals[0])
    return int(np.shape(v)[0])


def _zip(ds, valmap):
    result = INFINITE
    for inp in ds._inputs:
        n = _n(inp, valmap)
        if n == UNKNOWN:
            return UNKNOWN
        if n != INFINITE and (result == INFINITE or n < result):
            result = n
    return result


def _concat(ds, valmap):
    a, b = (_n(x, valmap) for x in ds._inputs)
    if a == INFINITE or b == INFINITE:
        return INFINITE
    if a == UNKNOWN or b == UNKNOWN:
        return UNKNOWN
    return a + b


def _batch(ds, valmap):
    n = _n(ds._inputs[0], valmap)
    if n < 0:
        return n
    size = int(valmap[ds._batch_size])
    drop = bool(valmap[ds._drop]) if isinstance(ds._drop, _d.Tensor) else ds._drop
    return n // size + (0 if n % size == 0 or drop else 1)


def _repeat(ds, valmap):
    n = _n(ds._inputs[0], valmap)
    count = _int(valmap, ds._count)
    if count < 0:
        return 0 if n == 0 else INFINITE
    if count == 0:
        return 0
    if n < 0:
        return n
    return count * n


def _take(ds, valmap):
    n = _n(ds._inputs[0], valmap)
    count = _int(valmap, ds._count)
    if n == UNKNOWN:
        return UNKNOWN
    if n == INFINITE:
        return count
    if count < 0:
        return n
    return min(n, count)


def _skip(ds, valmap):
    n = _n(ds._inputs[0], valmap)
    if n < 0:
        return n
    count = _int(valmap, ds._count)
    return 0 if count < 0 else max(0, n - count)


def _shard(ds, valmap):
    n = _n(ds._inputs[0], valmap)
    if n < 0:
        return n
    k, i = _int(valmap, ds._num_shards), _int(valmap, ds._index)
    return n // k + (1 if i < n % k else 0)


def _window(ds, valmap):
    n = _n(ds._inputs[0], valmap)
    if n < 0:
        return n
    size, shift, stride = (_int(valmap, t) for t in (ds._size, ds._shift, ds._stride))
    drop = ds._drop if isinstance(ds._drop, bool) else bool(valmap[ds._drop])
    if drop:
        rest = n - ((size - 1) * stride + 1)
        return 0 if rest < 0 else rest // shift + 1
    return n // shift + (0 if n % shift == 0 else 1)


def _same(ds, valmap):
    return _n(ds._inputs[0], valmap)


def _map(ds, valmap):
    return _n(ds._inputs[0], valmap) if getattr(ds, "_preserve_cardinality", False) else UNKNOWN


def _infinite_or_unknown(ds, valmap):
    """Any infinite input makes the output infinite; otherwise unknown (directed interleave,
    group_by_window)."""
    return INFINITE if any(_n(x, valmap) == INFINITE for x in ds._inputs) else UNKNOWN


_RULES = [
    (_d.RangeDataset, _range), (_d.TensorSliceDataset, _slices), (_d.TensorDataset, lambda ds, v: 1),
    (_d.ZipDataset, _zip), (_d.ConcatenateDataset, _concat), (_d.MapDataset, _map), (_d.BatchDataset, _batch),
    (_d.ShuffleDataset, _same), (_d.RepeatDataset, _repeat), (_d.TakeDataset, _take), (_d.SkipDataset, _skip),
    (_d.PrefetchDataset, _same), (_d.CacheDataset, _same), (_e.ShardDataset, _shard), (_e.WindowDataset, _window),
    (_e.ScanDataset, _same),
]


def _cardinality(ds, valmap):
    rule = getattr(ds, "_cardinality", None)
    if rule is not None:
        return rule(valmap)
    if isinstance(ds, _d.BatchDataset):
        return _batch(ds, valmap)
    for cls, fn in _RULES:
        if type(ds) is cls:
            return fn(ds, valmap)
    if any(type(ds).__name__ == n for n in ("GroupByWindowDataset", "_DirectedInterleaveDataset")):
        return _infinite_or_unknown(ds, valmap)
    return UNKNOWN


registry.register_op("DatasetCardinality", stateful=False, shape_fn=lambda op: [TensorShape([])])
registry.no_gradient("DatasetCardinality")


def cardinality(dataset):
    """The number of elements of `dataset` as an int64 scalar tensor (INFINITE_CARDINALITY = -1,
    UNKNOWN_CARDINALITY = -2)."""
    caps = dataset.all_captures()
    return apply_op("DatasetCardinality", caps, [_dtypes.int64], "DatasetCardinality",
                    attrs={"dataset": dataset})


@register_kernel("DatasetCardinality")
def _cardinality_kernel(op, ctx):
    dataset = op._get_attr("dataset")
    caps = dataset.all_captures()

    def run(*values):
        return np.array(_cardinality(dataset, dict(zip(caps, values))), np.int64)
    return run


class AssertCardinalityDataset(_d.DatasetV1):
    def __init__(self, input_dataset, expected_cardinality):
        self._inputs = (input_dataset,)
        self._expected = _int64_scalar(expected_cardinality, "cardinality")
        self._captures = [self._expected]
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _cardinality(self, valmap):
        return int(valmap[self._expected])

    def _bind(self, valmap, rt):
        expected = int(valmap[self._expected])
        make_input = self._inputs[0]._bind(valmap, rt)

        def fmt(n):
            return "an infinite number of" if n == INFINITE else ("an unknown number of" if n == UNKNOWN else str(n))

        resumable = id(self) in rt.resumable

        def make():
            # Failed elements pass and are not counted. As in TF, a wrong count fails every
            # later call too ("at least n" while the input goes on, then "only n" for good).
            count = 0
            it = make_input()
            try:
                for element in it:
                    if isinstance(element, _runtime.Failed):
                        yield element
                        continue
                    count += 1
                    if expected != INFINITE and count > expected:
                        error = errors.FailedPreconditionError(
                            None, None, f"Input dataset was expected to contain {fmt(expected)} elements but "
                                        f"contained at least {count} elements.")
                        if not resumable:
                            raise error
                        yield _runtime.Failed(error)
                        continue
                    yield element
            finally:
                it.close()
            if count != expected:
                error = errors.FailedPreconditionError(
                    None, None, f"Input dataset was expected to contain {fmt(expected)} elements but contained "
                                f"only {count} elements.")
                if not resumable:
                    raise error
                while True:
                    yield _runtime.Failed(error)
        return make


def assert_cardinality(expected_cardinality):
    """tf.data.experimental.assert_cardinality: a transformation for `Dataset.apply`."""
    return lambda ds: AssertCardinalityDataset(ds, expected_cardinality)


_d.DatasetV1.cardinality = lambda self: cardinality(self)
