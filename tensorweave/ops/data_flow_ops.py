"""Queues and conditional accumulators (TF1's data_flow_ops): `tf.FIFOQueue`,
`tf.RandomShuffleQueue`, `tf.PaddingFIFOQueue`, `tf.PriorityQueue`, `tf.ConditionalAccumulator`,
`tf.SparseConditionalAccumulator`.

A queue is a stateful op whose output is a `resource` handle; enqueue/dequeue ops take that
handle. The state lives in the session's ResourceManager (kernels/cpu/data_flow.py), so separate
`Session.run` calls from several threads share it: a dequeue blocks until another thread
enqueues, a closed and empty queue raises OutOfRangeError, a run timeout raises
DeadlineExceededError and closing the session cancels blocked ops (CancelledError).
Dtypes and static shapes are checked when the ops are built, like TF.
"""

import collections
import functools

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import get_default_graph, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, scalar_shape
from ..framework.tensor_shape import Dimension, TensorShape, as_shape, unknown_shape
from . import math_ops, random_ops

__all__ = ["QueueBase", "FIFOQueue", "RandomShuffleQueue", "PaddingFIFOQueue", "PriorityQueue",
           "ConditionalAccumulatorBase", "ConditionalAccumulator", "SparseConditionalAccumulator"]


def _handle_shape(op):
    return [TensorShape([])]


def _accumulator_shape(op):
    return [TensorShape([2])]


for _t in ("FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2", "PriorityQueueV2"):
    registry.register_op(_t, shape_fn=_handle_shape, stateful=True)
for _t in ("QueueEnqueueV2", "QueueEnqueueManyV2", "QueueCloseV2"):
    registry.register_op(_t, stateful=True)
for _t in ("QueueDequeueV2", "QueueDequeueManyV2", "QueueDequeueUpToV2"):
    registry.register_op(_t, stateful=True)  # output shapes are set by the Python wrapper
registry.register_op("QueueSizeV2", shape_fn=scalar_shape, stateful=True)
registry.register_op("QueueIsClosedV2", shape_fn=scalar_shape, stateful=True)
for _t in ("ResourceConditionalAccumulator", "SparseConditionalAccumulator"):
    registry.register_op(_t, shape_fn=_accumulator_shape, stateful=True)
# The sparse accumulator's handle is a `string_ref` (as in TF): its ops take it as a reference.
for _t in ("ResourceAccumulatorApplyGradient", "ResourceAccumulatorSetGlobalStep"):
    registry.register_op(_t, stateful=True)
for _t in ("SparseAccumulatorApplyGradient", "AccumulatorSetGlobalStep"):
    registry.register_op(_t, stateful=True, ref_inputs=(0,))
registry.register_op("ResourceAccumulatorTakeGradient", stateful=True)
registry.register_op("SparseAccumulatorTakeGradient", stateful=True, ref_inputs=(0,))
registry.register_op("ResourceAccumulatorNumAccumulated", shape_fn=scalar_shape, stateful=True)
registry.register_op("AccumulatorNumAccumulated", shape_fn=scalar_shape, stateful=True, ref_inputs=(0,))
for _t in list(registry._OPS):
    if _t.startswith("Queue") or "Accumulator" in _t or _t.endswith("QueueV2"):
        registry.no_gradient(_t)


# -- argument normalization (TF's helpers) -------------------------------------------------------

def _given_type_list(dtypes):
    """The dtypes as the caller wrote them, as a list (what TF's queue.dtypes returns)."""
    return list(dtypes) if isinstance(dtypes, (list, tuple)) else [dtypes]


def _as_type_list(dtypes):
    if isinstance(dtypes, _dtypes.DType):
        return [dtypes]
    if isinstance(dtypes, (str, type)):
        return [_dtypes.as_dtype(dtypes)]
    return [_dtypes.as_dtype(d) for d in dtypes]


def _as_shape_list(shapes, dtypes, unknown_dim_allowed=False, unknown_rank_allowed=False):
    del dtypes
    if unknown_dim_allowed:
        if (not isinstance(shapes, (list, tuple)) or not shapes
                or any(shape is None or isinstance(shape, int) for shape in shapes)):
            raise ValueError("When providing partial shapes, a list of shapes must be provided.")
    if shapes is None:
        return None
    if isinstance(shapes, TensorShape):
        shapes = [shapes]
    if not isinstance(shapes, (tuple, list)):
        raise TypeError(f"Shapes must be a TensorShape or a list or tuple of TensorShapes, got "
                        f"{type(shapes)} instead.")
    if all(shape is None or isinstance(shape, int) for shape in shapes):
        shapes = [shapes]
    shapes = [as_shape(shape) for shape in shapes]
    if not unknown_dim_allowed and any(not shape.is_fully_defined() for shape in shapes):
        raise ValueError(f"All shapes must be fully defined: {shapes}")
    if not unknown_rank_allowed and any(shape.ndims is None for shape in shapes):
        raise ValueError(f"All shapes must have a defined rank: {shapes}")
    return shapes


def _as_name_list(names, dtypes):
    if names is None:
        return None
    if not isinstance(names, (list, tuple)):
        names = [names]
    if len(names) != len(dtypes):
        raise ValueError("List of names must have the same length as the list of dtypes")
    return list(names)


def _shape_attr(shapes):
    return [] if shapes is None else [tuple(d.value for d in s) for s in shapes]


# -- queues ------------------------------------------------------------------------------------

class QueueBase:
    """Base class for queues: enqueue/dequeue ops over a queue resource handle (`queue_ref`)."""

    def __init__(self, dtypes, shapes, names, queue_ref):
        self._dtypes = dtypes
        if shapes is not None:
            if len(shapes) != len(dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes")
            self._shapes = [TensorShape(s) for s in shapes]
        else:
            self._shapes = [unknown_shape() for _ in self._dtypes]
        if names is not None:
            if len(names) != len(dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
            self._names = names
        else:
            self._names = None
        self._queue_ref = queue_ref
        self._name = queue_ref.op.name.split("/")[-1]

    @staticmethod
    def from_list(index, queues):
        """A queue that is `queues[index]` at run time (the refs stacked and gathered, as TF);
        the queues must share dtypes and names; shapes are those they have in common."""
        if not queues or not isinstance(queues, list) or not all(isinstance(x, QueueBase) for x in queues):
            raise TypeError("A list of queues expected")
        dtypes = queues[0].dtypes
        if not all(dtypes == q.dtypes for q in queues[1:]):
            raise TypeError("Queues do not have matching component dtypes.")
        names = queues[0].names
        if not all(names == q.names for q in queues[1:]):
            raise TypeError("Queues do not have matching component names.")
        shapes = [functools.reduce(_shape_common, s) for s in zip(*[q.shapes for q in queues])]
        from . import array_ops
        refs = array_ops.stack([q.queue_ref for q in queues])
        return QueueBase(dtypes=dtypes, shapes=shapes, names=names, queue_ref=array_ops.gather(refs, index))

    queue_ref = property(lambda self: self._queue_ref)
    name = property(lambda self: self._queue_ref.op.name)
    # TF keeps the dtypes as the caller wrote them (FIFOQueue(3, "float").dtypes is ['float'])
    dtypes = property(lambda self: getattr(self, "_given_dtypes", self._dtypes))
    shapes = property(lambda self: self._shapes)
    names = property(lambda self: self._names)

    def _check_enqueue_dtypes(self, vals):
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
                raise ValueError(f"Keys in dictionary to enqueue do not match names of Queue.  Dictionary: "
                                 f"{sorted(vals.keys())},Queue: {sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if not isinstance(vals, (list, tuple)):
                vals = [vals]
        return [convert_to_tensor(v, dtype=dt, name=f"component_{i}")
                for i, (v, dt) in enumerate(zip(vals, self._dtypes))]

    def _attrs(self, tensors=None):
        attrs = {"timeout_ms": -1}
        if tensors is not None:
            attrs["Tcomponents"] = [t.dtype.base_dtype for t in tensors]
        else:
            attrs["component_types"] = list(self._dtypes)
        return attrs

    def enqueue(self, vals, name=None):
        """Enqueues one element (a tuple/list/dict of tensors, or one tensor); the op blocks while
        the queue is full."""
        with name_scope(name, f"{self._name}_enqueue") as scope:
            vals = self._check_enqueue_dtypes(vals)
            for val, shape in zip(vals, self._shapes):
                val.get_shape().assert_is_compatible_with(shape)
            return apply_op("QueueEnqueueV2", [self._queue_ref] + vals, [], scope, attrs=self._attrs(vals))

    def enqueue_many(self, vals, name=None):
        """Enqueues elements sliced along dimension 0 of each component."""
        with name_scope(name, f"{self._name}_EnqueueMany") as scope:
            vals = self._check_enqueue_dtypes(vals)
            batch_dim = vals[0].get_shape().with_rank_at_least(1)[0]
            batch_dim = Dimension(batch_dim) if not isinstance(batch_dim, Dimension) else batch_dim
            for val, shape in zip(vals, self._shapes):
                s = val.get_shape().with_rank_at_least(1)
                d = s[0]
                batch_dim = batch_dim.merge_with(d)
                s[1:].assert_is_compatible_with(shape)
            return apply_op("QueueEnqueueManyV2", [self._queue_ref] + vals, [], scope, attrs=self._attrs(vals))

    def _dequeue_return_value(self, tensors):
        if self._names:
            return {n: tensors[i] for i, n in enumerate(self._names)}
        if len(tensors) == 1:
            return tensors[0]
        return tensors

    def _outputs(self, out):
        return out if isinstance(out, list) else [out]

    def dequeue(self, name=None):
        """Dequeues one element; blocks until one is available; OutOfRangeError once the queue is
        closed and empty."""
        name = name or f"{self._name}_Dequeue"
        ret = self._outputs(apply_op("QueueDequeueV2", [self._queue_ref], list(self._dtypes), name,
                                     attrs=self._attrs()))
        for output, shape in zip(ret, self._shapes):
            output.set_shape(shape)
        return self._dequeue_return_value(ret)

    def _dequeue_n(self, op_type, n, name, known_batch):
        with name_scope(name) as scope:
            n = convert_to_tensor(n, dtype=_dtypes.int32, name="n")
            ret = self._outputs(apply_op(op_type, [self._queue_ref, n], list(self._dtypes), scope,
                                         attrs=self._attrs()))
        batch = None
        if known_batch:
            v = constant_value(n)
            batch = None if v is None else int(v)
        for output, shape in zip(ret, self._shapes):
            output.set_shape(TensorShape([batch]).concatenate(shape))
        return self._dequeue_return_value(ret)

    def dequeue_many(self, n, name=None):
        """Dequeues and concatenates `n` elements along a new dimension 0."""
        return self._dequeue_n("QueueDequeueManyV2", n, name or f"{self._name}_DequeueMany", True)

    def dequeue_up_to(self, n, name=None):
        """Like dequeue_many, but once the queue is closed returns the remaining (< n) elements."""
        return self._dequeue_n("QueueDequeueUpToV2", n, name or f"{self._name}_DequeueUpTo", False)

    def close(self, cancel_pending_enqueues=False, name=None):
        """Closes the queue: later enqueues fail; dequeues drain what is left, then fail."""
        name = name or f"{self._name}_Close"
        return apply_op("QueueCloseV2", [self._queue_ref], [], name,
                        attrs={"cancel_pending_enqueues": bool(cancel_pending_enqueues)})

    def is_closed(self, name=None):
        name = name or f"{self._name}_Is_Closed"
        return apply_op("QueueIsClosedV2", [self._queue_ref], [_dtypes.bool], name)

    def size(self, name=None):
        name = name or f"{self._name}_Size"
        return apply_op("QueueSizeV2", [self._queue_ref], [_dtypes.int32], name)


def _shape_common(s1, s2):
    """The most specific shape compatible with both (unknown where they differ)."""
    s1, s2 = TensorShape(s1), TensorShape(s2)
    if s1.ndims is None or s2.ndims is None or s1.ndims != s2.ndims:
        return TensorShape(None)
    return TensorShape([a if a == b else None for a, b in zip(s1.as_list(), s2.as_list())])


def _queue_op(op_type, name, dtypes, shapes, capacity, shared_name, extra=None):
    attrs = {"component_types": list(dtypes), "shapes": _shape_attr(shapes), "capacity": int(capacity),
             "container": getattr(get_default_graph(), "_container", ""), "shared_name": shared_name or ""}
    attrs.update(extra or {})
    return apply_op(op_type, [], [_dtypes.resource], name or op_type, attrs=attrs)


class FIFOQueue(QueueBase):
    """A queue that dequeues elements in first-in first-out order."""

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        given = _given_type_list(dtypes)
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        # TF makes the queue under init_scope() and device("CPU"): no control dependencies, and
        # a "/device:CPU:*" request (merged into an enclosing device scope).
        from ..framework.behavior import init_scope
        with init_scope(), get_default_graph().device("CPU"):
            ref = _queue_op("FIFOQueueV2", name, dtypes, shapes, capacity, shared_name)
        super().__init__(dtypes, shapes, names, ref)
        self._given_dtypes = given


class PaddingFIFOQueue(QueueBase):
    """A FIFO queue whose dequeue_many pads variable-size components (None dims) with zeros."""

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        given = _given_type_list(dtypes)
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes, unknown_dim_allowed=True)
        names = _as_name_list(names, dtypes)
        if len(dtypes) != len(shapes):
            raise ValueError(f"Shapes must be provided for all components, but received {len(dtypes)} dtypes "
                             f"and {len(shapes)} shapes.")
        ref = _queue_op("PaddingFIFOQueueV2", name, dtypes, shapes, capacity, shared_name)
        super().__init__(dtypes, shapes, names, ref)
        self._given_dtypes = given


class PriorityQueue(QueueBase):
    """Dequeues elements by ascending int64 priority, given as component 0 of each element."""

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None, name="priority_queue"):
        given = _given_type_list(types)
        types = _as_type_list(types)
        shapes = _as_shape_list(shapes, types)
        ref = _queue_op("PriorityQueueV2", name, types, shapes, capacity, shared_name)
        ref.op._attrs["component_types"] = [_dtypes.int64] + types
        if shapes is not None:
            ref.op._attrs["shapes"] = [()] + _shape_attr(shapes)
        priority_dtypes = [_dtypes.int64] + types
        priority_shapes = [TensorShape([])] + shapes if shapes else shapes
        super().__init__(priority_dtypes, priority_shapes, names, ref)
        self._given_dtypes = [_dtypes.int64] + given


class RandomShuffleQueue(QueueBase):
    """Dequeues elements in random order, keeping `min_after_dequeue` elements (until closed) so
    the order is well mixed."""

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None,
                 shared_name=None, name="random_shuffle_queue"):
        given = _given_type_list(dtypes)
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        seed1, seed2 = random_ops.get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            import hashlib
            string = (str(seed1) + shared_name).encode("utf-8")
            seed2 = int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF
        ref = _queue_op("RandomShuffleQueueV2", name, dtypes, shapes, capacity, shared_name,
                        {"min_after_dequeue": int(min_after_dequeue), "seed": int(seed1), "seed2": int(seed2)})
        super().__init__(dtypes, shapes, names, ref)
        self._given_dtypes = given


# -- conditional accumulators --------------------------------------------------------------------

def _int64(x):
    x = convert_to_tensor(x)
    if x.dtype.base_dtype != _dtypes.int64:
        x = math_ops.cast(x, _dtypes.int64)
    return x


class ConditionalAccumulatorBase:
    """An accumulator of gradients: apply_grad adds one (dropped when its local_step is older than
    the accumulator's global step), take_grad waits for `num_required` and returns their mean."""

    def __init__(self, dtype, shape, accumulator_ref):
        self._dtype = dtype
        self._shape = TensorShape(shape) if shape is not None else unknown_shape()
        self._accumulator_ref = accumulator_ref
        self._name = accumulator_ref.op.name.split("/")[-1]

    accumulator_ref = property(lambda self: self._accumulator_ref)
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)

    def _op_type(self, base):
        return ("Resource" + base) if self._accumulator_ref.dtype.base_dtype == _dtypes.resource else base

    def num_accumulated(self, name=None):
        """The number of gradients accumulated since the last take_grad (int32 scalar)."""
        name = name or f"{self._name}_NumAccumulated"
        return apply_op(self._op_type("AccumulatorNumAccumulated"), [self._accumulator_ref], [_dtypes.int32],
                        name)

    def set_global_step(self, new_global_step, name=None):
        """Sets the global step; later gradients with an older local_step are dropped."""
        step = _int64(new_global_step)
        return apply_op(self._op_type("AccumulatorSetGlobalStep"), [self._accumulator_ref, step], [],
                        name or self._op_type("AccumulatorSetGlobalStep"))


def _accumulator_op(op_type, out_dtype, dtype, shape, shared_name, name, reduction_type):
    if reduction_type not in ("MEAN", "SUM"):
        raise ValueError(f"Value for attr 'reduction_type' of \"{reduction_type}\" is not in the list of allowed "
                         f"values: \"MEAN\", \"SUM\"")
    return apply_op(op_type, [], [out_dtype], name, attrs={
        "dtype": dtype, "shape": TensorShape(shape) if shape is not None else unknown_shape(),
        "container": "", "shared_name": shared_name or "", "reduction_type": reduction_type})


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """Aggregates dense gradients (see ConditionalAccumulatorBase)."""

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator",
                 reduction_type="MEAN"):
        dtype = _dtypes.as_dtype(dtype).base_dtype
        ref = _accumulator_op("ResourceConditionalAccumulator", _dtypes.resource, dtype, shape, shared_name,
                              name, reduction_type)
        super().__init__(dtype, shape, ref)

    def apply_grad(self, grad, local_step=0, name=None):
        grad = convert_to_tensor(grad, self._dtype)
        grad.get_shape().assert_is_compatible_with(self._shape)
        local_step = _int64(local_step)
        return apply_op("ResourceAccumulatorApplyGradient", [self._accumulator_ref, local_step, grad], [],
                        name or "ResourceAccumulatorApplyGradient", attrs={"dtype": self._dtype})

    def take_grad(self, num_required, name=None):
        """Blocks until `num_required` gradients were applied; returns their average (or sum) and
        resets the accumulator."""
        num_required = convert_to_tensor(num_required, _dtypes.int32)
        out = apply_op("ResourceAccumulatorTakeGradient", [self._accumulator_ref, num_required],
                       [self._dtype], name or "ResourceAccumulatorTakeGradient", attrs={"dtype": self._dtype})
        out.set_shape(self._shape)
        return out


_SparseAccumulatorTakeGradient = collections.namedtuple("SparseAccumulatorTakeGradient",
                                                        ["indices", "values", "shape"])


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """Aggregates IndexedSlices gradients; MEAN averages each row over the gradients holding it."""

    def __init__(self, dtype, shape=None, shared_name=None, name="sparse_conditional_accumulator",
                 reduction_type="MEAN"):
        dtype = _dtypes.as_dtype(dtype).base_dtype
        ref = _accumulator_op("SparseConditionalAccumulator", _dtypes.string._as_ref, dtype, shape, shared_name,
                              name, reduction_type)
        super().__init__(dtype, shape, ref)

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        return self.apply_grad(grad.indices, grad.values, grad.dense_shape, local_step, name)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
        local_step = _int64(local_step)
        values = convert_to_tensor(grad_values, self._dtype)
        indices = _int64(grad_indices)
        shape = _int64(convert_to_tensor([] if grad_shape is None else grad_shape,
                                         dtype=None if grad_shape is not None else _dtypes.int64))
        return apply_op("SparseAccumulatorApplyGradient", [self._accumulator_ref, local_step, indices, values, shape],
                        [], name or "SparseAccumulatorApplyGradient",
                        attrs={"dtype": self._dtype, "has_known_shape": grad_shape is not None})

    def take_grad(self, num_required, name=None):
        """(indices, values, shape) of the averaged gradient, once `num_required` were applied."""
        num_required = convert_to_tensor(num_required, _dtypes.int32)
        out = apply_op("SparseAccumulatorTakeGradient", [self._accumulator_ref, num_required],
                       [_dtypes.int64, self._dtype, _dtypes.int64], name or "SparseAccumulatorTakeGradient",
                       attrs={"dtype": self._dtype})
        # TF's generated op wrapper returns a namedtuple (Session.run keeps it one).
        return _SparseAccumulatorTakeGradient(*out)

    def take_indexed_slices_grad(self, num_required, name=None):
        indices, values, shape = self.take_grad(num_required, name)
        return IndexedSlices(values, indices, shape)
