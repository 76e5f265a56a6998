"""Batching datasets: batch (and the batched-generator helper others share), padded_batch and
unbatch, with the static shapes TF gives them."""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, pack_sequence_as
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

    def _batch(self, rows, fused=False):
        out = []
        for i, parts in enumerate(zip(*rows)):
            if self._classes[i] is SparseTensor:
                out.append(_st.batch_sparse(list(parts)))
                continue
            if _st.is_ragged_class(self._classes[i]):
                out.append(_st.batch_ragged(list(parts), self._classes[i]))
                continue
            if fused:
                out.append(_fused_stack(parts))
                continue
            try:
                out.append(_stack(parts))
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

        # (TF fuses a map, parallel or not, with the batch right after it into MapAndBatch; its
        # _DenseToRaggedDataset is such a map)
        fused = type(self) is BatchDataset and type(source) in (MapDataset, DenseToRaggedDataset)
        if fused and batch == self._batch:
            def batch(rows):
                return self._batch(rows, fused=True)
        return batched_generator(make_input, n, drop, batch, fused)


def _fused_stack(parts):
    """MapAndBatch's copy into the batch: the batch takes the first element's shape and each
    element is copied in by its number of elements (so [2,1] and [1,2] batch as [2,2,1])."""
    first = np.shape(parts[0])
    size = int(np.prod(first))
    for p in parts[1:]:
        if np.size(p) != size:
            raise errors.InvalidArgumentError(
                None, None, f"Cannot add tensor to the batch: number of elements does not match. Shapes are: "
                            f"[tensor]: {_dims(np.shape(p))}, [batch]: {_dims(first)}")
    try:
        return _stack(parts)
    except ValueError:
        return _stack([np.reshape(p, first) for p in parts])


def _stack(parts):
    """np.stack, but strings stay Python bytes in an object array (a bytes scalar stacked by
    NumPy becomes fixed-width 'S', which drops trailing b"\x00")."""
    if any(isinstance(p, bytes) for p in parts):
        parts = [np.array(p, dtype=object) if isinstance(p, bytes) else p for p in parts]
    return np.stack(parts)


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
        structure = input_dataset._structure
        if padded_shapes is None:
            for i, shape in enumerate(input_dataset._shapes):
                if shape.ndims is None:
                    raise ValueError(f"You must provide `padded_shapes` argument because component {i} has "
                                     f"unknown rank.")
            raw = list(input_dataset._shapes)
        else:
            raw = nest_flatten_up_to(structure, padded_shapes)
        # Each padded shape becomes an int64 vector (-1 for "the batch's longest"), read when the
        # iterator starts; its static value gives the output shape (TF's _padded_shape_to_tensor).
        self._padded_tensors, padded = [], []
        for p, shape in zip(raw, input_dataset._shapes):
            t, static = _padded_shape_to_tensor(p)
            if not _padded_shape_fits(static, shape):
                raise ValueError(f"The padded shape {static} is not compatible with the shape {shape} of the "
                                 f"corresponding input component.")
            self._padded_tensors.append(t)
            padded.append(static)
        self._pad_values = _padding_value_tensors(structure, padding_values, input_dataset._types)
        _drop_remainder_const(self._drop)
        self._captures = list(self._captures) + self._padded_tensors + self._pad_values
        dim = self._shapes[0][0].value if self._shapes and self._shapes[0].ndims else None
        self._shapes = [TensorShape([dim]).concatenate(p) for p in padded]

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
        self._pad_value_arrays = [np.asarray(valmap[v]) for v in self._pad_values]
        self._padded = [tuple(None if d < 0 else int(d) for d in np.asarray(valmap[t]).reshape(-1))
                        for t in self._padded_tensors]
        return BatchDataset._bind(self, valmap, rt)


def _padded_shape_to_tensor(padded):
    """(int64 vector tensor, static TensorShape) for a `padded_shapes` entry: a shape-like value
    (None dims as -1), else anything convertible to an int64 vector (tensors, -1 entries)."""
    from ..framework.constant_op import constant_value
    try:
        shape = as_shape(padded)
        return convert_to_tensor([-1 if d is None else d for d in shape.as_list()], dtype=_dtypes.int64), shape
    except (TypeError, ValueError):
        pass
    t = padded if isinstance(padded, Tensor) else convert_to_tensor(padded, preferred_dtype=_dtypes.int64)
    if t.shape.ndims is not None and t.shape.ndims != 1:
        raise ValueError(f"Padded shape {padded} must be a `tf.int64` vector tensor, but its shape was {t.shape}.")
    if t.dtype.base_dtype != _dtypes.int64:
        raise TypeError(f"Padded shape {padded} must be a `tf.int64` vector tensor, but its element type was "
                        f"{t.dtype.base_dtype.name}.")
    # (TF's constant_value_as_shape: a constant, or a stack of scalars some of which are constant)
    value = constant_value(t)
    if value is not None:
        dims = [None if d < 0 else int(d) for d in np.asarray(value).reshape(-1)]
    elif t.op.type == "Pack":
        dims = [constant_value(x) for x in t.op.inputs]
        dims = [None if d is None or int(d) < 0 else int(d) for d in dims]
    elif t.shape.ndims == 1 and t.shape[0].value is not None:
        dims = [None] * t.shape[0].value
    else:
        return t, unknown_shape()
    return t, TensorShape(dims)


def _padded_shape_fits(padded, shape):
    """Whether elements of `shape` can be padded to `padded` (unknown ranks always can)."""
    if padded.ndims is None or shape.ndims is None:
        return True
    return padded.ndims == shape.ndims and all(
        a is None or b is None or a >= b for a, b in zip(padded.as_list(), shape.as_list()))


def _padding_value_tensors(structure, padding_values, types):
    """One scalar tensor per component (TF's _padding_values_or_default, then
    _padding_value_to_tensor): None entries take the default (0, or "" for strings); a single
    value serves every component, and each must match its component's dtype."""
    def default(t):
        return "" if t == _dtypes.string else np.zeros((), t.as_numpy_dtype)
    defaults = [default(t) for t in types]
    if padding_values is None:
        flat = defaults
    elif isinstance(padding_values, (tuple, dict)):
        # (the structure checks in TF's order: padding_values against the defaults, then the reverse)
        nest_flatten_up_to(padding_values, pack_sequence_as(structure, defaults))
        flat = [d if v is None else v for v, d in zip(nest_flatten_up_to(structure, padding_values), defaults)]
    else:
        flat = [padding_values] * len(types)
    out = []
    for v, t in zip(flat, types):
        v = convert_to_tensor(v, name="padding_value")
        if v.shape.ndims not in (None, 0):
            raise ValueError(f"Invalid `padding_values`. `padding_values` values should be scalars, but got "
                             f"{v.shape}.")
        if v.dtype.base_dtype != t:
            raise TypeError(f"Invalid `padding_values`. `padding_values` values type {v.dtype.base_dtype} does "
                            f"not match type {t} of the corresponding input component.")
        out.append(v)
    return out


def nest_flatten_up_to(shallow, value):
    """`value` flattened down to the leaves of `shallow`, with tf.data's nest rules (tuples and
    dicts nest, anything else, lists included, is a leaf) and its error messages."""
    if not isinstance(shallow, (tuple, dict)):
        return [value]
    if not isinstance(value, (tuple, dict)):
        raise TypeError(f"If shallow structure is a sequence, input must also be a sequence. Input has type: "
                        f"'{type(value).__name__}'.")
    if isinstance(value, dict) != isinstance(shallow, dict):
        raise TypeError(f"The two structures don't have the same sequence type. Input structure has type "
                        f"'{type(value).__name__}', while shallow structure has type '{type(shallow).__name__}'.")
    if len(value) != len(shallow):
        raise ValueError(f"The two structures don't have the same sequence length. Input structure has length "
                         f"{len(value)}, while shallow structure has length {len(shallow)}.")
    if isinstance(shallow, dict):
        if any(k not in value for k in shallow):
            raise ValueError(f"The two structures don't have the same keys. Input structure has keys "
                             f"{sorted(value)}, while shallow structure has keys {sorted(shallow)}.")
        return [x for k in sorted(shallow) for x in nest_flatten_up_to(shallow[k], value[k])]
    return [x for s, v in zip(shallow, value) for x in nest_flatten_up_to(s, v)]


class UnbatchDataset(DatasetV1):
    def __init__(self, input_dataset):
        if any(s.ndims == 0 for s in input_dataset._shapes):
            raise ValueError("Cannot unbatch an input with scalar components.")
        self._inputs = (input_dataset,)
        self._set_element(input_dataset._structure, input_dataset._types,
                          [s[1:] if s.ndims else unknown_shape() for s in input_dataset._shapes],
                          [c.unbatched() if _st.is_ragged_class(c) else c for c in input_dataset._classes])

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)

        classes = self._inputs[0]._classes

        def make():
            for element in make_input():
                if isinstance(element, _runtime.Failed):
                    yield element  # (a failed batch fails once; its rows are lost, as in TF)
                    continue
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
                    if isinstance(element, _runtime.Failed):
                        yield element
                        continue
                    yield tuple(v if k is None else _st.dense_to_ragged(v, *k) for v, k in zip(element, conv))
            finally:
                it.close()
        return make


def ragged_batch(dataset, batch_size, drop_remainder=False, row_splits_dtype=_dtypes.int64):
    """`Dataset.ragged_batch`: `batch` after making partly-shaped dense components ragged."""
    return DenseToRaggedDataset(dataset, row_splits_dtype).batch(batch_size, drop_remainder)
