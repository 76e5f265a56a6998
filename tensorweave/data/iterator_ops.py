"""`tf.data.Iterator` (TF1): one-shot, initializable and reinitializable iterators, their ops
and kernels.

    Iterator / OneShotIterator  -> a `resource` handle to an iterator in the session's resources
    MakeIterator(handle, captured tensors...)   binds a dataset to those values (a new pipeline)
    IteratorGetNext(handle)     -> the next element's components; OutOfRangeError at the end

An iterator resource holds the pipeline's generator and a stop event; re-initializing or closing
the session stops its background threads.
"""

import threading

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors, registry
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, pack_sequence_as
from ..framework.graph import get_default_graph
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..kernels.registry import Fixed, register_kernel
from ..framework.graph import Tensor
from ..framework.sparse_tensor import SparseTensor
from . import _runtime
from . import structure as _st
from .specs import element_spec_of
from .dataset_ops import DatasetV1

__all__ = ["Iterator", "make_one_shot_iterator", "make_initializable_iterator", "get_output_types",
           "get_output_shapes", "get_output_classes"]


def _scalar(op):
    return [TensorShape([])]


registry.register_op("IteratorV2", shape_fn=_scalar, stateful=True)
registry.register_op("OneShotIterator", shape_fn=_scalar, stateful=True)
registry.register_op("MakeIterator", stateful=True)
registry.register_op("IteratorGetNext", stateful=True)
registry.register_op("IteratorToStringHandle", shape_fn=_scalar, stateful=True)
registry.register_op("RaggedTensorFromVariant")
registry.no_gradient("RaggedTensorFromVariant")
registry.register_op("IteratorFromStringHandleV2", shape_fn=_scalar, stateful=True)
for _t in ("IteratorV2", "OneShotIterator", "MakeIterator", "IteratorGetNext", "IteratorToStringHandle",
           "IteratorFromStringHandleV2"):
    registry.no_gradient(_t)


class IteratorResource:
    """The state of one iterator: the current pipeline (a generator of flat tuples)."""

    def __init__(self, name):
        self.name = name
        self._lock = threading.Lock()
        self._it = None
        self._stop = None
        self._cancelled = False

    def reset(self, dataset, valmap, ctx):
        """Binds `dataset` to the captured values and starts a new pipeline."""
        stop = threading.Event()
        rt = _runtime.PipelineContext(ctx, stop)
        rt.resumable = _runtime.resumable_ids(dataset)
        make = dataset._bind(valmap, rt)
        with self._lock:
            self._shutdown()
            if self._cancelled:
                raise errors.CancelledError(None, None, "Iterator was cancelled")
            self._it, self._stop = make(), stop

    def _shutdown(self):
        if self._stop is not None:
            self._stop.set()
        it, self._it = self._it, None
        if it is not None:
            try:
                it.close()
            except Exception:  # noqa: BLE001 - a pipeline that fails to close is dropped anyway
                pass

    def get_next(self):
        with self._lock:
            it = self._it
            if it is None:
                if self._cancelled:
                    raise errors.CancelledError(None, None, "Iterator was cancelled")
                raise errors.FailedPreconditionError(
                    None, None, "GetNext() failed because the iterator has not been initialized. Ensure that "
                                "you have run the initializer operation for this iterator before getting the "
                                "next element.")
            try:
                element = next(it)
            except StopIteration:
                raise errors.OutOfRangeError(None, None, "End of sequence") from None
        if isinstance(element, _runtime.Failed):
            # One element failed; the pipeline is intact, so the next call goes on (TF).
            raise element.error
        return element

    @property
    def initialized(self):
        return self._it is not None

    def cancel(self):
        if self._stop is not None:
            self._stop.set()
        self._cancelled = True
        if self._lock.acquire(timeout=2.0):
            try:
                self._shutdown()
            finally:
                self._lock.release()


def _iterator_resource(ctx, op):
    name = op._get_attr("shared_name") or op.name
    return ctx.resources.lookup_or_create("iterator", name, lambda: IteratorResource(name),
                                          op._get_attr("container"))


@register_kernel("IteratorV2")
def _iterator_kernel(op, ctx):
    return Fixed(_iterator_resource(ctx, op))


@register_kernel("OneShotIterator")
def _one_shot_kernel(op, ctx):
    dataset = op._get_attr("dataset")
    captures = dataset.all_captures()
    resource = _iterator_resource(ctx, op)
    lock = threading.Lock()

    def one_shot(*values):
        if not resource.initialized:
            with lock:
                if not resource.initialized and not getattr(resource, "_one_shot_started", False):
                    resource._one_shot_started = True
                    resource.reset(dataset, dict(zip(captures, values)), ctx)
        return resource
    return one_shot


@register_kernel("MakeIterator")
def _make_iterator_kernel(op, ctx):
    dataset = op._get_attr("dataset")
    captures = dataset.all_captures()

    def make_iterator(resource, *values):
        resource.reset(dataset, dict(zip(captures, values)), ctx)
    return make_iterator


@register_kernel("IteratorGetNext")
def _get_next_kernel(op, ctx):
    n = len(op._outputs)
    np_types = [t._storage_type for t in op._get_attr("output_types")]
    shapes = op._get_attr("output_shapes")
    try:
        classes = op._get_attr("output_classes")
    except (KeyError, ValueError):
        classes = None
    sparse = classes is not None and _st.any_sparse(classes)

    def get_next(resource):
        try:
            element = resource.get_next()
        except errors.OpError as e:
            node = getattr(e, "_dataset_function_node", None)
            if node is None:
                raise
            # (TF names the function's node, then this op without the braces)
            raise type(e)(None, None, errors.graph_execution_message(
                f"{e.message}\n\t [[{{{{node {node}}}}}]]\n\t [[{op.name}]]")) from None
        if sparse:
            # A ragged component leaves as one variant (decoded by RaggedTensorFromVariant).
            element = _st.expand([_variant(v) if _st.is_ragged_class(c) else v for v, c in zip(element, classes)],
                                 [Tensor if _st.is_ragged_class(c) else c for c in classes])
        out = []
        for v, nt in zip(element, np_types):
            if nt is None:
                out.append(v)
                continue
            if nt is object and not (isinstance(v, np.ndarray) and v.dtype == object):
                a = np.array(v, dtype=object)     # (not via 'S': that drops trailing b"\x00")
            else:
                a = np.asarray(v)
            if a.dtype != nt:
                a = a.astype(nt)
            out.append(a)
        for a, s in zip(out, shapes):
            if a.dtype == object and a.ndim == 0 and isinstance(a.item(), _RaggedVariant):
                continue
            if s.ndims is not None and (a.ndim != s.ndims or any(d is not None and d != x for d, x in
                                                                  zip(s.as_list(), a.shape))):
                raise errors.InvalidArgumentError(None, None, f"Element has shape {list(a.shape)}, expected "
                                                              f"{s}")
        return out[0] if n == 1 else tuple(out)
    return get_next


class _RaggedVariant:
    """A ragged component's value between IteratorGetNext and RaggedTensorFromVariant."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _variant(value):
    a = np.empty((), dtype=object)
    a[()] = _RaggedVariant(value)
    return a


@register_kernel("RaggedTensorFromVariant")
def _ragged_from_variant_kernel(op, ctx):
    k = op._get_attr("output_ragged_rank")
    splits_type = op._get_attr("Tsplits").as_numpy_dtype

    def decode(variant):
        value = variant.item().value
        if k == 0:
            return np.asarray(value)
        return [np.asarray(s, splits_type) for s in value.nested_row_splits] + [np.asarray(value.flat_values)]
    return decode


@register_kernel("IteratorToStringHandle")
def _to_string_handle(op, ctx):
    def to_string_handle(resource):
        return np.array(resource.name.encode(), dtype=object)
    return to_string_handle


@register_kernel("IteratorFromStringHandleV2")
def _from_string_handle(op, ctx):
    resources = ctx.resources

    def from_string_handle(handle):
        h = handle.item() if isinstance(handle, np.ndarray) else handle
        h = h.decode() if isinstance(h, bytes) else str(h)
        for (kind, _, name), r in resources.items("iterator"):
            if name == h:
                return r
        raise errors.InvalidArgumentError(None, None, "Could not parse string_handle as a valid ResourceHandle")
    return from_string_handle


# -- the Python Iterator ----------------------------------------------------------------------------

def _flat_types_shapes(output_types, output_shapes):
    types = [_dtypes.as_dtype(t) for t in flatten(output_types)]
    if output_shapes is None:
        shapes = [unknown_shape() for _ in types]
    else:
        from .readers import flatten_shapes
        shapes = flatten_shapes(output_types, output_shapes)
    return types, shapes


class Iterator:
    """Iterates over a dataset (TF1 `tf.data.Iterator`)."""

    def __init__(self, iterator_resource, initializer, output_types, output_shapes, output_classes=None,
                 _make_string_handle=True):
        self._iterator_resource = iterator_resource
        self._initializer = initializer
        # TF's graph-mode Iterator builds its `string_handle()` op when it is made (so every
        # iterator takes an "IteratorToStringHandle[_N]" name, whether or not it is fetched)
        self._string_handle = self._new_string_handle() if _make_string_handle else None
        self._types, self._shapes = _flat_types_shapes(output_types, output_shapes)
        self._structure = pack_sequence_as(output_types, list(range(len(self._types)))) \
            if flatten(output_types) != [output_types] else 0
        self._classes = [Tensor] * len(self._types) if output_classes is None else \
            [_st.from_legacy_class(c) for c in flatten(output_classes)]
        if len(self._classes) != len(self._types):
            raise ValueError("`output_classes` must have the structure of `output_types`.")
        self._get_next_call_count = 0

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None,
                       _make_string_handle=True):
        """A reinitializable iterator: initialize it with `make_initializer(dataset)`."""
        types, shapes = _flat_types_shapes(output_types, output_shapes)
        handle = apply_op("IteratorV2", [], [_dtypes.resource], "IteratorV2", attrs={
            "shared_name": shared_name or "", "container": "", "output_types": types, "output_shapes": shapes})
        if output_shapes is None:
            output_shapes = pack_sequence_as(output_types, shapes) if flatten(output_types) != [output_types] \
                else shapes[0]
        return Iterator(handle, None, output_types, output_shapes, output_classes, _make_string_handle)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
        """An iterator chosen at run time by feeding the string handle of another iterator."""
        string_handle = convert_to_tensor(string_handle, dtype=_dtypes.string)
        types, shapes = _flat_types_shapes(output_types, output_shapes)
        handle = apply_op("IteratorFromStringHandleV2", [string_handle], [_dtypes.resource],
                          "IteratorFromStringHandleV2", attrs={"output_types": types, "output_shapes": shapes})
        if output_shapes is None:
            output_shapes = pack_sequence_as(output_types, shapes) if flatten(output_types) != [output_types] \
                else shapes[0]
        return Iterator(handle, None, output_types, output_shapes, output_classes)

    @property
    def initializer(self):
        if self._initializer is not None:
            return self._initializer
        raise ValueError("Iterator does not have an initializer.")

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
        return element_spec_of(self._structure, self._types, self._shapes, self._classes)

    def make_initializer(self, dataset, name=None):
        """An op (re)starting this iterator over `dataset` (types must match; shapes compatible)."""
        if not isinstance(dataset, DatasetV1):
            raise TypeError(f"Expected a Dataset, got {type(dataset)}")
        ds_types = dataset.output_types
        if len(dataset._types) != len(self._types) or \
                flatten(ds_types) != flatten(self.output_types) or \
                _kind(dataset._structure) != _kind(self._structure) or dataset._classes != self._classes:
            raise TypeError(f"Expected output types {self.output_types!r} but got dataset with output types "
                            f"{ds_types!r}.")
        for mine, theirs in zip(self._shapes, dataset._shapes):
            if not mine.is_compatible_with(theirs):
                raise TypeError(f"Expected output shapes compatible with {self.output_shapes!r} but got "
                                f"dataset with output shapes {dataset.output_shapes!r}.")
        captures = dataset.all_captures()
        return apply_op("MakeIterator", [self._iterator_resource] + captures, [], name or "make_initializer",
                        attrs={"dataset": dataset})

    def get_next(self, name=None):
        """The next element (tensors with the dataset's structure); OutOfRangeError at the end."""
        self._get_next_call_count += 1
        # A ragged component travels as one scalar variant, decoded afterwards as in TF.
        wire = [Tensor if _st.is_ragged_class(c) else c for c in self._classes]
        wire_types = [_dtypes.variant if _st.is_ragged_class(c) else t for c, t in zip(self._classes, self._types)]
        wire_shapes = [TensorShape([]) if _st.is_ragged_class(c) else s for c, s in zip(self._classes, self._shapes)]
        specs = _st.arg_specs(wire_types, wire_shapes, wire)
        out = apply_op("IteratorGetNext", [self._iterator_resource], [t for t, _ in specs], name or "IteratorGetNext",
                       attrs={"output_types": [t for t, _ in specs], "output_shapes": [s for _, s in specs],
                              "output_classes": list(self._classes)})
        outs = out if isinstance(out, list) else [out]
        for t, (_, s) in zip(outs, specs):
            t.set_shape(s)
        if any(_st.is_ragged_class(c) for c in self._classes):
            outs = _decode_ragged(outs, wire, self._classes, self._types, self._shapes)
        return pack_sequence_as(self._structure, _st.pack_args(outs, self._shapes, self._classes))

    def string_handle(self, name=None):
        """A string tensor naming this iterator (feed it to a `from_string_handle` iterator)."""
        if name is None:
            if self._string_handle is None:
                self._string_handle = self._new_string_handle()
            return self._string_handle
        return self._new_string_handle(name)

    def _new_string_handle(self, name=None):
        with self._iterator_resource.graph.as_default():
            return apply_op("IteratorToStringHandle", [self._iterator_resource], [_dtypes.string],
                            name or "IteratorToStringHandle")


def _decode_ragged(outs, wire, classes, types, shapes):
    """IteratorGetNext's outputs with each ragged variant replaced by its row_splits and flat
    values (TF's RaggedFromVariant/RaggedTensorFromVariant op, one per ragged component)."""
    from ..framework.graph import name_scope
    flat, i = [], 0
    for w, c, t, s in zip(wire, classes, types, shapes):
        n = 3 if w is SparseTensor else 1
        if not _st.is_ragged_class(c):
            flat += outs[i:i + n]
        else:
            specs = _st.ragged_specs(t, s, c)
            with name_scope("RaggedFromVariant"):
                dec = apply_op("RaggedTensorFromVariant", [outs[i]], [d for d, _ in specs], "RaggedTensorFromVariant",
                               attrs={"input_ragged_rank": -1, "output_ragged_rank": c.ragged_rank,
                                      "Tvalues": t, "Tsplits": c.row_splits_dtype})
            dec = dec if isinstance(dec, list) else [dec]
            for x, (_, shape) in zip(dec, specs):
                x.set_shape(shape)
            flat += dec
        i += n
    return flat


def _kind(structure):
    if isinstance(structure, dict):
        return ("dict", tuple(sorted(structure)), tuple(_kind(structure[k]) for k in sorted(structure)))
    if isinstance(structure, (tuple, list)):
        return ("seq", tuple(_kind(x) for x in structure))
    return "leaf"


_one_shot_count = {}


# Ops tensorweave marks stateful (so their results are never reused) that TF's are not.
_STATELESS_IN_TF = frozenset({"MatchingFiles", "ReadFile"})


def _check_capturable_by_value(captures):
    """A one-shot iterator copies the graph its dataset depends on into itself, as TF does; that
    copy cannot hold a placeholder (nothing feeds it) or a stateful op (a variable, a table).
    As TF's copy, it follows data inputs only (list_files' control dependency on an Assert is
    not copied)."""
    seen, stack = set(), [t.op for t in reversed(captures)]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type in ("Placeholder", "PlaceholderWithDefault", "PlaceholderV2"):
            raise ValueError(f"Cannot capture a placeholder (name:{op.name}, type:{op.type}) by value.")
        if registry.get_op_def(op.type).stateful and op.type not in _STATELESS_IN_TF:
            raise ValueError(
                f"Cannot capture a stateful node (name:{op.name}, type:{op.type}) by value.: A likely cause of this "
                f"error is that the dataset for which you are calling `make_one_shot_iterator()` captures a "
                f"stateful object, such as a `tf.Variable` or `tf.lookup.StaticHashTable`, which is not "
                f"supported. Use `make_initializable_iterator()` instead.")
        stack.extend(t.op for t in reversed(list(op.inputs)))


def make_one_shot_iterator(dataset):
    """An iterator that starts itself over `dataset` the first time it is used (in each session)."""
    return one_shot_iterator(dataset, draw_seed=True)


def one_shot_iterator(dataset, draw_seed):
    """make_one_shot_iterator; `draw_seed=False` for our own input pipelines that stand for TF
    ones drawing no op seed (numpy_input_fn's queues)."""
    if not isinstance(dataset, DatasetV1):
        raise TypeError(f"Expected a Dataset, got {type(dataset)}")
    captures = dataset.all_captures()
    _check_capturable_by_value(captures)
    g = captures[0].graph if captures else get_default_graph()
    with g.as_default():
        # (TF draws an op seed here, so with a graph seed the random ops made after a one-shot
        # iterator get the op seeds they get there)
        if draw_seed:
            from ..ops import random_ops
            random_ops.get_seed(None)
        handle = apply_op("OneShotIterator", captures, [_dtypes.resource], "OneShotIterator", attrs={
            "dataset": dataset, "shared_name": "", "container": "", "output_types": list(dataset._types),
            "output_shapes": list(dataset._shapes)})
    return Iterator(handle, None, dataset.output_types, dataset.output_shapes, dataset.output_classes)


def make_initializable_iterator(dataset, shared_name=None):
    """An iterator whose `initializer` op (re)starts it over `dataset` (with the fed values of the
    placeholders the dataset captures)."""
    if not isinstance(dataset, DatasetV1):
        raise TypeError(f"Expected a Dataset, got {type(dataset)}")
    it = Iterator.from_structure(dataset.output_types, dataset.output_shapes, shared_name, dataset.output_classes,
                                 _make_string_handle=False)
    it._initializer = it.make_initializer(dataset, name="MakeIterator")
    it._string_handle = it._new_string_handle()
    return it


def get_output_types(dataset_or_iterator):
    return dataset_or_iterator.output_types


def get_output_shapes(dataset_or_iterator):
    return dataset_or_iterator.output_shapes


def get_output_classes(dataset_or_iterator):
    return dataset_or_iterator.output_classes
