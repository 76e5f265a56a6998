"""Batching datasets: batch (and the batched-generator helper others share), padded_batch and
unbatch, with the static shapes TF gives them."""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten
from ..framework.graph import Tensor
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from ..framework.tensor_spec import TensorSpec
from . import _runtime
from . import structure as _st
from .dataset_ops import DatasetV1, TensorSliceDataset, _dims
from .function_datasets import MapDataset


# -- batching ---------------------------------------------------------------------------------------

def _int64_scalar(x, name):
    return convert_to_tensor(x, dtype=_dtypes.int64, name=name)


def _static_int(t):
    from ..framework.constant_op import constant_value
    v = constant_value(t)
    return None if v is None else int(v)


def batched_generator(make_input, n, drop_remainder, batch, fused=False):
    """A generator factory: the elements of make_input() gathered n at a time, each list of rows
    turned into one element by batch(rows); a short last batch unless drop_remainder.

    A `Failed` input element fails its batch, as in TF: right away, dropping the rows gathered so
    far (BatchDataset), or, when `fused` (a map right before the batch: TF's MapAndBatch), once
    the batch's n slots are filled, a short last batch failing even with drop_remainder."""
    def make():
        it = make_input()
        try:
            rows, failed = [], None
            for element in it:
                if isinstance(element, _runtime.Failed):
                    if not fused:
                        rows = []
                        yield element
                        continue
                    failed = failed or element
                rows.append(element)
                if len(rows) == n:
                    yield failed or batch(rows)
                    rows, failed = [], None
            if failed:
                yield failed
            elif rows and not drop_remainder:
                yield batch(rows)
        finally:
            it.close()
    return make


def _drop_remainder_const(drop):
    """The "drop_remainder" Const TF makes for a Python bool (unused here: the flag is static),
    so that later ops are uniquified as in TF."""
    if not isinstance(drop, Tensor):
        convert_to_tensor(drop, dtype=_dtypes.bool, name="drop_remainder")


class BatchDataset(DatasetV1):
    def __init__(self, input_dataset, batch_size, drop_remainder=False):
        self._inputs = (input_dataset,)
        self._batch_size = _int64_scalar(batch_size, "batch_size")
        self._drop = _int64_scalar(drop_remainder, "drop_remainder") if isinstance(drop_remainder, Tensor) \
            else bool(drop_remainder)
        self._captures = [self._batch_size] + ([self._drop] if isinstance(self._drop, Tensor) else [])
        if type(self) is BatchDataset:
            _drop_remainder_const(self._drop)
        dim = _static_int(self._batch_size) if self._drop is True else None
        self._set_element(input_dataset._structure, input_dataset._types,
                          [TensorShape([dim]).concatenate(s) for s in input_dataset._shapes],
                          [c.batched() if _st.is_ragged_class(c) else c for c in input_dataset._classes])

    def _batch(self, rows):
        out = []
        for i, parts in enumerate(zip(*rows)):
            if self._classes[i] is SparseTensor:
                out.append(_st.batch_sparse(list(parts)))
                continue
            if _st.is_ragged_class(self._classes[i]):
                out.append(_st.batch_ragged(list(parts), self._classes[i]))
                continue
            try:
                out.append(np.stack(parts))
            except ValueError:
                first = np.shape(parts[0])
                for j, p in enumerate(parts[1:], 1):
                    if np.shape(p) != first:
                        raise errors.InvalidArgumentError(
                            None, None, f"Cannot batch tensors with different shapes in component {i}. First "
                                        f"element had shape {_dims(first)} and element {j} had shape "
                                        f"{_dims(np.shape(p))}.") from None
                raise
        return tuple(out)

    def _bind(self, valmap, rt):
        n = int(valmap[self._batch_size])
        if n <= 0:
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        drop = bool(valmap[self._drop]) if isinstance(self._drop, Tensor) else self._drop
        source = self._inputs[0]
        batch = self._batch
        sparse = _st.any_sparse(self._classes)
        if type(self) is BatchDataset and isinstance(source, MapDataset) and source._batched_fn is not None \
                and not sparse:
            # Vectorized map: batch the map's input, then run the function once per batch.
            fn = source._batched_fn.bind(valmap, rt.ctx)
            plain = batch
            resumable = id(source) in rt.resumable

            def batch(rows):
                return _apply_batched(fn, plain(rows), resumable)
            raw = source._inputs[0]
            if isinstance(raw, TensorSliceDataset):
                make_batches = raw._bind_batches(valmap, rt, n, drop)
                return lambda: (_apply_batched(fn, b, resumable) for b in make_batches())
            make_input = raw._bind(valmap, rt)
        elif type(self) is BatchDataset and isinstance(source, TensorSliceDataset) and not sparse:
            return source._bind_batches(valmap, rt, n, drop)
        else:
            make_input = source._bind(valmap, rt)

        # (TF fuses a map, parallel or not, with the batch right after it into MapAndBatch)
        fused = type(self) is BatchDataset and type(source) is MapDataset
        return batched_generator(make_input, n, drop, batch, fused)


def _apply_batched(fn, columns, resumable):
    """The vectorized map on one batch of columns; its failure fails that batch only."""
    try:
        return tuple(fn(*columns))
    except errors.OpError as e:
        if not resumable:
            raise
        return _runtime.Failed(e)


class PaddedBatchDataset(BatchDataset):
    def __init__(self, input_dataset, batch_size, padded_shapes=None, padding_values=None, drop_remainder=False):
        BatchDataset.__init__(self, input_dataset, batch_size, drop_remainder)
        for spec in flatten(input_dataset.element_spec):
            if not isinstance(spec, TensorSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce tensor elements but "
                                "type spec of elements in the input dataset is not a subclass of TensorSpec: "
                                f"`{spec}`.")
        if padded_shapes is None:
            padded = list(input_dataset._shapes)
            if any(s.ndims is None for s in padded):
                raise ValueError("You must provide `padded_shapes` argument because component has unknown rank.")
        else:
            raw = flatten_up_to(input_dataset._structure, padded_shapes)
            # A dimension may be a scalar tensor (bucket_by_sequence_length's bucket boundary):
            # unknown statically, its value read when the iterator starts.
            dim_tensors = [[d if isinstance(d, Tensor) else None for d in s]
                           if isinstance(s, (list, tuple)) else [] for s in raw]
            padded = [unknown_shape() if isinstance(s, Tensor) else
                      as_shape([None if isinstance(d, Tensor) else d for d in s]) if isinstance(s, (list, tuple))
                      else as_shape(s) for s in raw]
        for s, p in zip(input_dataset._shapes, padded):
            if s.ndims is not None and p.ndims is not None and (s.ndims != p.ndims or any(
                    a is not None and b is not None and a > b for a, b in zip(s.as_list(), p.as_list()))):
                raise ValueError(f"The padded shape {p} is not compatible with the shape {s} of the "
                                 f"corresponding input component.")
        self._padded = [tuple(d for d in (p.as_list() if p.ndims is not None else [])) for p in padded]
        # TF converts each padded shape (an unnamed Const) and padding value ("padding_value") to a
        # tensor; made here too so that later ops are uniquified as in TF ("Const_1"...).
        for p, ts in zip(padded, dim_tensors if padded_shapes is not None else [[]] * len(padded)):
            if p.ndims is not None and not any(t is not None for t in ts):
                convert_to_tensor(np.asarray([-1 if d is None else d for d in p.as_list()], np.int64))
        for v, t in zip(flatten_up_to(input_dataset._structure, padding_values) if padding_values is not None
                        else [None] * len(input_dataset._types), input_dataset._types):
            if not isinstance(v, Tensor):
                convert_to_tensor(v if v is not None else (b"" if t == _dtypes.string else 0), dtype=t,
                                  name="padding_value")
        _drop_remainder_const(self._drop)
        self._dim_tensors = dim_tensors if padded_shapes is not None else [[] for _ in padded]
        self._captures = list(self._captures) + [d for ds in self._dim_tensors for d in ds if d is not None]
        if padding_values is None:
            self._pad_values = [b"" if t == _dtypes.string else 0 for t in input_dataset._types]
        else:
            self._pad_values = [np.asarray(v) if not isinstance(v, Tensor) else v
                                for v in flatten_up_to(input_dataset._structure, padding_values)]
            tensors = [v for v in self._pad_values if isinstance(v, Tensor)]
            self._captures = list(self._captures) + tensors
        dim = self._shapes[0][0].value if self._shapes and self._shapes[0].ndims else None
        self._shapes = [TensorShape([dim]).concatenate(TensorShape(list(p))) for p in self._padded]

    def _batch(self, rows, valmap=None):
        out = []
        for i, (padded, dt) in enumerate(zip(self._padded, self._types)):
            parts = [np.asarray(r[i], dtype=object) if dt == _dtypes.string else np.asarray(r[i]) for r in rows]
            dims = []
            for j, d in enumerate(padded):
                m = max(p.shape[j] for p in parts)
                if d is not None and m > d:
                    raise errors.DataLossError(  # (TF's class for this check)
                        None, None, "Attempted to pad to a smaller size than the input element.")
                dims.append(m if d is None else d)
            np_dtype = object if dt == _dtypes.string else dt.as_numpy_dtype
            pad = self._pad_value_arrays[i]
            batch = np.empty((len(parts),) + tuple(dims), np_dtype)
            batch[...] = pad
            for j, p in enumerate(parts):
                batch[(j,) + tuple(slice(0, s) for s in p.shape)] = p if p.ndim else p[()]
            out.append(batch)
        return tuple(out)

    def _bind(self, valmap, rt):
        self._pad_value_arrays = [np.asarray(valmap[v]) if isinstance(v, Tensor) else v for v in self._pad_values]
        if any(d is not None for ds in self._dim_tensors for d in ds):
            self._padded = [tuple(int(valmap[t]) if t is not None else d for d, t in zip(p, ts)) if ts else p
                            for p, ts in zip(self._padded, self._dim_tensors)]
        return BatchDataset._bind(self, valmap, rt)


def flatten_up_to(structure, value):
    """`value` (with the same structure as `structure`, or one shared leaf) flattened."""
    n = len(flatten(structure))
    if isinstance(structure, int):
        return [value]
    if isinstance(structure, dict):
        return [x for k in sorted(structure) for x in flatten_up_to(structure[k], value[k])]
    if isinstance(structure, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(structure):
            return [value] * n
        return [x for s, v in zip(structure, value) for x in flatten_up_to(s, v)]
    return [value]


class UnbatchDataset(DatasetV1):
    def __init__(self, input_dataset):
        self._inputs = (input_dataset,)
        self._set_element(input_dataset._structure, input_dataset._types,
                          [s[1:] if s.ndims else unknown_shape() for s in input_dataset._shapes],
                          [c.unbatched() if _st.is_ragged_class(c) else c for c in input_dataset._classes])

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)

        classes = self._inputs[0]._classes

        def make():
            for element in make_input():
                if _st.any_sparse(classes):
                    cols = [_st.unbatch_sparse(v) if c is SparseTensor else
                            _st.unbatch_ragged(v) if _st.is_ragged_class(c) and c.ragged_rank else v
                            for v, c in zip(element, classes)]
                    n = len(cols[0])
                else:
                    cols = element
                    n = np.shape(element[0])[0]
                for i in range(n):
                    yield tuple(c[i] for c in cols)
        return make


class DenseToRaggedDataset(DatasetV1):
    """The input's elements with every dense component of known rank and partly unknown shape
    made ragged up to its last unknown dimension (TF's _DenseToRaggedDataset), so that `batch`
    gathers rows of different shapes into a RaggedTensor (`ragged_batch`)."""

    _tf_name = "_DenseToRaggedDataset"

    def __init__(self, input_dataset, row_splits_dtype=_dtypes.int64):
        self._inputs = (input_dataset,)
        splits_dtype = _dtypes.as_dtype(row_splits_dtype)
        classes = []
        for c, s in zip(input_dataset._classes, input_dataset._shapes):
            if c is Tensor and s.ndims is not None and not s.is_fully_defined():
                c = _st.Ragged(max(i for i, d in enumerate(s.as_list()) if d is None), splits_dtype)
            classes.append(c)
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes, classes)

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)
        conv = [(c.ragged_rank, c.row_splits_dtype.as_numpy_dtype) if _st.is_ragged_class(c) and c != old else None
                for c, old in zip(self._classes, self._inputs[0]._classes)]

        def make():
            it = make_input()
            try:
                for element in it:
                    yield tuple(v if k is None else _st.dense_to_ragged(v, *k) for v, k in zip(element, conv))
            finally:
                it.close()
        return make


def ragged_batch(dataset, batch_size, drop_remainder=False, row_splits_dtype=_dtypes.int64):
    """`Dataset.ragged_batch`: `batch` after making partly-shaped dense components ragged."""
    return DenseToRaggedDataset(dataset, row_splits_dtype).batch(batch_size, drop_remainder)
