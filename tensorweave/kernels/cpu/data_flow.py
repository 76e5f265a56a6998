"""CPU kernels for queues and gradient accumulators.

A queue or accumulator is a resource in the session's ResourceManager; its op's output (the
handle) is that object, bound when the plan is compiled. Blocking operations wait on the
resource's `threading.Condition`, so a dequeue in one `Session.run` thread is woken by an enqueue
in another. Every wait is bounded by the run's deadline (`RunOptions.timeout_in_ms`, else
`ConfigProto.operation_timeout_in_ms`) and ends with CancelledError when the session closes
(ResourceManager.clear() calls `cancel()`).

Waiting operations are served in arrival order (a ticket line per direction), and a dequeue of
many elements takes them as they arrive, so `dequeue_many(n)` works with `n` above capacity.
"""

import collections
import heapq
import itertools
import math
import os
import threading
import time

import numpy as np

from ...framework import errors
from ..registry import Fixed, register_kernel
from .random import PhiloxSamples

_DEADLINE_MSG = "Timed out waiting for notification"


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _timeout_ms(ctx, step):
    opts = getattr(step, "options", None) if step is not None else None
    ms = getattr(opts, "timeout_in_ms", 0) if opts is not None else 0
    if not ms:
        config = getattr(ctx.session, "_config", None)
        ms = getattr(config, "operation_timeout_in_ms", 0) if config is not None else 0
    return ms if ms and ms > 0 else 0


class _StepDeadline(float):
    """A deadline (monotonic seconds; inf: none) that also carries its step, so a wait can see
    the step being cancelled (a distributed step aborted when its session closes)."""

    __slots__ = ("step",)

    def __new__(cls, value, step):
        d = super().__new__(cls, value)
        d.step = step
        return d


def deadline_of(ctx, step):
    """The monotonic time at which a blocking op gives up (None: wait until woken)."""
    ms = _timeout_ms(ctx, step)
    t = time.monotonic() + ms / 1000.0 if ms else None
    if step is None:
        return t
    return _StepDeadline(math.inf if t is None else t, step)


def _check_step(deadline, what):
    step = getattr(deadline, "step", None)
    error = getattr(step, "cancelled", None)
    if error is not None:
        raise errors.CancelledError(None, None, f"{what} operation was cancelled: {error}")


class Waitable:
    """A resource with a condition variable whose waits honour deadlines and cancellation."""

    def __init__(self):
        self._cv = threading.Condition()
        self._cancelled = False

    def cancel(self):
        """Wakes every waiter with CancelledError (the session is closing)."""
        with self._cv:
            self._cancelled = True
            self._cv.notify_all()

    def _wait(self, deadline, what):
        """Waits once (lock held). Raises on cancellation or when the deadline has passed."""
        if self._cancelled:
            raise errors.CancelledError(None, None, f"{what} operation was cancelled")
        _check_step(deadline, what)
        if deadline is None:
            self._cv.wait(1.0)
        else:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise errors.DeadlineExceededError(None, None, _DEADLINE_MSG)
            self._cv.wait(min(remaining, 1.0))
        if self._cancelled:
            raise errors.CancelledError(None, None, f"{what} operation was cancelled")
        _check_step(deadline, what)


# -- queues ------------------------------------------------------------------------------------

# TF's ResourceMgr::GenerateUniqueId: one counter for the whole process, so a queue made in a
# second session is `_1_fifo_queue`, not `_0_fifo_queue`.
_UNIQUE_IDS = itertools.count()


def _name_maker(ctx, op):
    """TF names a non-shared resource `_<n>_<op name>`, n counting such resources in the process.
    Returns a function giving that name (call it inside the resource's factory)."""
    shared_name = op._get_attr("shared_name")
    if shared_name:
        return lambda: shared_name
    return lambda: f"_{next(_UNIQUE_IDS)}_{op.name}"


class Queue(Waitable):
    """A bounded FIFO of tuples of arrays (TF's FIFOQueue)."""

    kind = "FIFOQueue"

    def __init__(self, name, capacity, dtypes, shapes):
        super().__init__()
        self.name = name
        self.capacity = capacity if capacity is not None and capacity >= 0 else None
        self.np_dtypes = [object if d.name == "string" else d.as_numpy_dtype for d in dtypes]
        self.shapes = shapes  # list of tuples (None entries unknown) or None
        self.closed = False
        self._cancel_gen = 0
        self._enq_line = collections.deque()
        self._deq_line = collections.deque()
        self._init_storage()

    # storage (overridden by the priority and shuffle queues)
    def _init_storage(self):
        self._items = collections.deque()

    def __len__(self):
        return len(self._items)

    def _push(self, item):
        self._items.append(item)

    def _pop(self):
        return self._items.popleft()

    def _put_back(self, items):
        for item in reversed(items):
            self._items.appendleft(item)

    def _available(self):
        return len(self)

    # validation
    def _check_component(self, i, value, many):
        shape = self.shapes[i] if self.shapes else None
        if shape is None:
            return
        got = value.shape[1:] if many else value.shape
        if len(got) != len(shape) or any(d is not None and d != g for d, g in zip(shape, got)):
            if many:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch in tuple component {i}. Expected "
                                f"{_dims((value.shape[0],) + tuple('?' if d is None else d for d in shape))}, "
                                f"got {_dims(value.shape)}")
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch in tuple component {i}. Expected "
                            f"{_dims(tuple('?' if d is None else d for d in shape))}, got {_dims(got)}")

    def _as_items(self, components, many):
        comps = []
        for i, (c, dt) in enumerate(zip(components, self.np_dtypes)):
            a = np.array(c, dtype=dt, copy=True)
            if many and a.ndim == 0:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape must be at least rank 1 but is rank 0 for component {i}")
            self._check_component(i, a, many)
            comps.append(a)
        if not many:
            return [tuple(comps)]
        n = comps[0].shape[0] if comps else 0
        for i, c in enumerate(comps):
            if c.shape[0] != n:
                raise errors.InvalidArgumentError(
                    None, None, f"Expected all components to have the same first dimension: component 0 "
                                f"has {n}, component {i} has {c.shape[0]}")
        return [tuple(c[j] for c in comps) for j in range(n)]

    # operations
    def enqueue(self, components, many, deadline):
        items = self._as_items(components, many)
        with self._cv:
            if self.closed:
                raise errors.CancelledError(None, None, f"{self.kind} '{self.name}' is closed.")
            gen = self._cancel_gen
            token = object()
            self._enq_line.append(token)
            try:
                i = 0
                while True:
                    if self._enq_line[0] is token:
                        space = len(items) - i if self.capacity is None else self.capacity - len(self)
                        k = min(space, len(items) - i)
                        if k > 0:
                            for item in items[i:i + k]:
                                self._push(item)
                            i += k
                            self._cv.notify_all()
                        if i == len(items):
                            return
                    if gen != self._cancel_gen:
                        raise errors.CancelledError(None, None, "Enqueue operation was cancelled")
                    self._wait(deadline, "Enqueue")
                    if gen != self._cancel_gen:
                        raise errors.CancelledError(None, None, "Enqueue operation was cancelled")
            finally:
                self._enq_line.remove(token)
                self._cv.notify_all()

    def dequeue(self, n, deadline, up_to=False):
        """Takes `n` elements (waiting for them); with `up_to`, fewer once the queue is closed."""
        with self._cv:
            token = object()
            self._deq_line.append(token)
            got = []
            try:
                while True:
                    if self._deq_line[0] is token:
                        avail = len(self) if self.closed else self._available()
                        k = min(avail, n - len(got))
                        if k > 0:
                            got.extend(self._pop() for _ in range(k))
                            self._cv.notify_all()
                        if len(got) == n:
                            return got
                        if self.closed:
                            if up_to and got:
                                return got
                            self._put_back(got)
                            got = []
                            raise errors.OutOfRangeError(
                                None, None, f"{self.kind} '{self.name}' is closed and has insufficient "
                                            f"elements (requested {n}, current size {len(self)})")
                    try:
                        self._wait(deadline, "Dequeue")
                    except errors.OpError:
                        self._put_back(got)
                        got = []
                        raise
            finally:
                self._deq_line.remove(token)
                self._cv.notify_all()

    def close(self, cancel_pending_enqueues):
        with self._cv:
            self.closed = True
            if cancel_pending_enqueues:
                self._cancel_gen += 1
            self._cv.notify_all()

    def size(self):
        with self._cv:
            return len(self)

    # batching
    def stack(self, items, n):
        if self.shapes is None or any(d is None for s in self.shapes for d in s):
            raise errors.InvalidArgumentError(
                None, None, f"{self.kind}'s DequeueMany and DequeueUpTo require the components to have "
                            f"specified shapes.")
        if not items:
            return tuple(np.zeros((0,) + tuple(s), dt) for s, dt in zip(self.shapes, self.np_dtypes))
        return tuple(_stack([it[i] for it in items], dt) for i, dt in enumerate(self.np_dtypes))


def _stack(parts, dt):
    """np.stack keeping the component dtype (a string component stays an object array: a row
    may be a bare `bytes`, which np.stack would turn into a fixed-width `S` array)."""
    if dt is object:
        first = np.asarray(parts[0], dtype=object)
        out = np.empty((len(parts),) + first.shape, dtype=object)
        for j, p in enumerate(parts):
            # A scalar row goes in as its bytes (storing a 0-d array would nest arrays).
            out[j] = np.asarray(p, dtype=object).item() if not first.shape else p
        return out
    return np.stack(parts).astype(dt, copy=False)


class RandomShuffleQueue(Queue):
    """Dequeues a uniformly random element, keeping `min_after_dequeue` until closed."""

    kind = "RandomShuffleQueue"

    def __init__(self, name, capacity, dtypes, shapes, min_after_dequeue, seed, seed2):
        super().__init__(name, capacity, dtypes, shapes)
        self.min_after_dequeue = min_after_dequeue
        if seed == 0 and seed2 == 0:
            seed, seed2 = (int.from_bytes(os.urandom(8), "little") for _ in range(2))
        self._rand = PhiloxSamples(seed, seed2)  # TF's sample stream: the same order for a seed

    def _init_storage(self):
        self._items = []

    def _push(self, item):
        self._items.append(item)

    def _pop(self):
        i = self._rand() % len(self._items)
        items = self._items
        items[i], items[-1] = items[-1], items[i]
        return items.pop()

    def _put_back(self, items):
        self._items.extend(items)

    def _available(self):
        return max(0, len(self._items) - self.min_after_dequeue)


class PaddingFIFOQueue(Queue):
    """A FIFO queue whose dequeue_many pads each component to the batch's largest shape."""

    kind = "PaddingFIFOQueue"

    def _check_component(self, i, value, many):
        shape = self.shapes[i]
        got = value.shape[1:] if many else value.shape
        if len(got) != len(shape) or any(d is not None and d != g for d, g in zip(shape, got)):
            want = _dims(tuple(-1 if d is None else d for d in shape))
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch in tuple component {i}. Expected {want}, got {_dims(got)}")

    def stack(self, items, n):
        out = []
        for i, (shape, dt) in enumerate(zip(self.shapes, self.np_dtypes)):
            parts = [it[i] for it in items]
            dims = tuple(max([p.shape[j] for p in parts], default=0) if d is None else d
                         for j, d in enumerate(shape))
            batch = np.full((len(parts),) + dims, b"" if dt is object else 0, dtype=dt)
            for j, p in enumerate(parts):
                # (a 0-d object array assigned to one element would be stored as the array)
                batch[(j,) + tuple(slice(0, s) for s in p.shape)] = p if p.ndim else p[()]
            out.append(batch)
        return tuple(out)


class PriorityQueue(Queue):
    """Dequeues the element with the smallest int64 priority (component 0) first."""

    kind = "PriorityQueue"

    def _init_storage(self):
        self._items = []
        self._seq = itertools.count()

    def _push(self, item):
        heapq.heappush(self._items, (int(item[0]), next(self._seq), item))

    def _pop(self):
        return heapq.heappop(self._items)[2]

    def _put_back(self, items):
        for item in items:
            self._push(item)


def _queue_factory(make):
    def factory(op, ctx):
        dtypes = op._get_attr("component_types")
        shapes = op._get_attr("shapes")
        # (tuples of ints; a graph imported from a GraphDef gives TensorShapes)
        shapes = [tuple(getattr(d, "value", d) for d in s) for s in shapes] if shapes else None
        capacity = op._get_attr("capacity")
        name = op._get_attr("shared_name") or op.name
        container = op._get_attr("container")
        resources = ctx.resources
        make_name = _name_maker(ctx, op)

        def create():
            return make(op, make_name(), capacity, dtypes, shapes)
        return Fixed(resources.lookup_or_create("queue", name, create, container))
    return factory


register_kernel("FIFOQueueV2")(_queue_factory(lambda op, n, c, d, s: Queue(n, c, d, s)))
register_kernel("PaddingFIFOQueueV2")(_queue_factory(lambda op, n, c, d, s: PaddingFIFOQueue(n, c, d, s)))
register_kernel("PriorityQueueV2")(_queue_factory(lambda op, n, c, d, s: PriorityQueue(n, c, d, s)))
register_kernel("RandomShuffleQueueV2")(_queue_factory(
    lambda op, n, c, d, s: RandomShuffleQueue(n, c, d, s, op._get_attr("min_after_dequeue"),
                                              op._get_attr("seed"), op._get_attr("seed2"))))


def _stepped(fn):
    fn.needs_step = True
    return fn


def _queue(handle):
    """The queue a handle names (a gathered handle, QueueBase.from_list, arrives as a 0-d array)."""
    return handle.item() if isinstance(handle, np.ndarray) else handle


@register_kernel("QueueEnqueueV2")
def _enqueue(op, ctx):
    def enqueue(step, queue, *components):
        queue = _queue(queue)
        queue.enqueue(components, False, deadline_of(ctx, step))
    return _stepped(enqueue)


@register_kernel("QueueEnqueueManyV2")
def _enqueue_many(op, ctx):
    def enqueue_many(step, queue, *components):
        queue = _queue(queue)
        queue.enqueue(components, True, deadline_of(ctx, step))
    return _stepped(enqueue_many)


@register_kernel("QueueDequeueV2")
def _dequeue(op, ctx):
    single = len(op._outputs) == 1

    def dequeue(step, queue):
        queue = _queue(queue)
        item = queue.dequeue(1, deadline_of(ctx, step))[0]
        return item[0] if single else item
    return _stepped(dequeue)


def _many(op, ctx, up_to):
    single = len(op._outputs) == 1

    def dequeue_many(step, queue, n):
        queue = _queue(queue)
        n = int(n)
        if n < 0:
            raise errors.InvalidArgumentError(None, None, f"Dequeue requested < 0 elements ({n})")
        items = queue.dequeue(n, deadline_of(ctx, step), up_to=up_to) if n else []
        try:
            out = queue.stack(items, n)
        except errors.OpError:
            with queue._cv:
                queue._put_back(items)
            raise
        return out[0] if single else out
    return _stepped(dequeue_many)


register_kernel("QueueDequeueManyV2")(lambda op, ctx: _many(op, ctx, False))
register_kernel("QueueDequeueUpToV2")(lambda op, ctx: _many(op, ctx, True))


@register_kernel("QueueCloseV2")
def _close(op, ctx):
    cancel = op._get_attr("cancel_pending_enqueues")

    def close(queue):
        queue = _queue(queue)
        queue.close(cancel)
    return close


@register_kernel("QueueSizeV2")
def _size(op, ctx):
    def size(queue):
        queue = _queue(queue)
        return np.array(queue.size(), np.int32)
    return size


@register_kernel("QueueIsClosedV2")
def _is_closed(op, ctx):
    def is_closed(queue):
        queue = _queue(queue)
        return np.array(queue.closed)
    return is_closed


# -- conditional accumulators ------------------------------------------------------------------

class _AccumulatorBase(Waitable):
    def __init__(self, name, np_dtype, shape, reduction_type):
        super().__init__()
        self.name = name
        self.np_dtype = np_dtype
        self.shape = shape  # tuple with None entries, or None
        self.reduction_type = reduction_type
        self.global_step = 0
        self.counter = 0
        self._take_line = collections.deque()

    def set_global_step(self, step):
        with self._cv:
            self.global_step = int(step)

    def num_accumulated(self):
        with self._cv:
            return self.counter

    def _check_shape(self, shape, what="expected"):
        want = self.shape
        if want is None:
            return
        if len(want) != len(shape) or any(d is not None and d != g for d, g in zip(want, shape)):
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch: expected {_dims(tuple(-1 if d is None else d for d in want))}, "
                            f"got {_dims(shape)}")

    def take(self, num_required, deadline):
        if num_required < 1:
            raise errors.InvalidArgumentError(
                None, None, f"Argument num_required must be positive, but was {num_required}")
        with self._cv:
            token = object()
            self._take_line.append(token)
            try:
                while not (self._take_line[0] is token and self.counter >= num_required):
                    self._wait(deadline, "TakeGrad")
                out = self._result()
                self._reset()
                return out
            finally:
                self._take_line.remove(token)
                self._cv.notify_all()


class ConditionalAccumulator(_AccumulatorBase):
    """Averages (or sums) dense gradients whose local step is not older than the global step."""

    def __init__(self, name, np_dtype, shape, reduction_type):
        super().__init__(name, np_dtype, shape, reduction_type)
        self._sum = None

    def apply(self, local_step, grad):
        grad = np.asarray(grad, dtype=self.np_dtype)
        self._check_shape(grad.shape)
        with self._cv:
            if self._sum is not None and self._sum.shape != grad.shape:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: expected {_dims(self._sum.shape)}, got {_dims(grad.shape)}")
            if int(local_step) < self.global_step:
                return  # stale gradient: dropped, as TF does
            if self._sum is None:
                self._sum = np.array(grad, copy=True)
            else:
                self._sum += grad
            self.counter += 1
            self._cv.notify_all()

    def _result(self):
        out = self._sum
        if self.reduction_type == "MEAN":
            out = (out / self.counter).astype(self.np_dtype, copy=False)
        return out

    def _reset(self):
        self._sum = None
        self.counter = 0


class SparseConditionalAccumulator(_AccumulatorBase):
    """Accumulates IndexedSlices gradients row by row; MEAN divides each row by the number of
    gradients that contained it. Rows come out in order of first appearance."""

    def __init__(self, name, np_dtype, shape, reduction_type):
        super().__init__(name, np_dtype, shape, reduction_type)
        self._reset()

    def apply(self, local_step, indices, values, dense_shape):
        values = np.asarray(values, dtype=self.np_dtype)
        indices = np.asarray(indices, dtype=np.int64).reshape(-1)
        if values.shape[:1] != indices.shape:
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch: indices {_dims(indices.shape)} vs. values {_dims(values.shape)}")
        if dense_shape is not None and np.size(dense_shape):
            self._check_shape(tuple(int(d) for d in np.asarray(dense_shape)))
        if self.shape is not None and len(self.shape) == values.ndim:
            self._check_shape((self.shape[0],) + values.shape[1:])
        with self._cv:
            if self._row_shape is not None and self._row_shape != values.shape[1:]:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: expected {_dims(self._row_shape)}, got {_dims(values.shape[1:])}")
            if int(local_step) < self.global_step:
                return
            self._row_shape = values.shape[1:]
            for i, row in zip(indices.tolist(), values):
                slot = self._rows.get(i)
                if slot is None:
                    self._rows[i] = [np.array(row, copy=True), 1]
                else:
                    slot[0] += row
                    slot[1] += 1
            if dense_shape is not None and np.size(dense_shape):
                self._dense_shape = np.asarray(dense_shape, np.int64)
            self.counter += 1
            self._cv.notify_all()

    def _result(self):
        idx = np.array(list(self._rows), dtype=np.int64)
        rows = [v / c if self.reduction_type == "MEAN" else v for v, c in self._rows.values()]
        vals = np.stack(rows).astype(self.np_dtype, copy=False) if rows else \
            np.zeros((0,) + (self._row_shape or ()), self.np_dtype)
        if self._dense_shape is not None:
            shape = self._dense_shape
        elif self.shape is not None and all(d is not None for d in self.shape):
            shape = np.array(self.shape, np.int64)
        else:
            shape = np.array([-1] + list(vals.shape[1:]), np.int64)
        return idx, vals, shape

    def _reset(self):
        self._rows = {}
        self._row_shape = None
        self._dense_shape = None
        self.counter = 0


def _accumulator_factory(cls):
    def factory(op, ctx):
        dtype = op._get_attr("dtype")
        shape = op._get_attr("shape")
        shape = None if shape is None or shape.ndims is None else tuple(d.value for d in shape)
        reduction = op._get_attr("reduction_type")
        name = op._get_attr("shared_name") or op.name
        make_name = _name_maker(ctx, op)

        def create():
            return cls(make_name(), dtype.as_numpy_dtype, shape, reduction)
        return Fixed(ctx.resources.lookup_or_create("accumulator", name, create, op._get_attr("container")))
    return factory


register_kernel("ResourceConditionalAccumulator")(_accumulator_factory(ConditionalAccumulator))
register_kernel("SparseConditionalAccumulator")(_accumulator_factory(SparseConditionalAccumulator))


@register_kernel("AccumulatorApplyGradient")
@register_kernel("ResourceAccumulatorApplyGradient")
def _apply_grad(op, ctx):
    def apply_grad(acc, local_step, grad):
        acc.apply(local_step, grad)
    return apply_grad


@register_kernel("SparseAccumulatorApplyGradient")
def _sparse_apply_grad(op, ctx):
    has_shape = op._get_attr("has_known_shape")

    def apply_grad(acc, local_step, indices, values, shape):
        acc.apply(local_step, indices, values, shape if has_shape else None)
    return apply_grad


@register_kernel("AccumulatorTakeGradient")
@register_kernel("ResourceAccumulatorTakeGradient")
def _take_grad(op, ctx):
    def take_grad(step, acc, num_required):
        return acc.take(int(num_required), deadline_of(ctx, step))
    return _stepped(take_grad)


@register_kernel("SparseAccumulatorTakeGradient")
def _sparse_take_grad(op, ctx):
    def take_grad(step, acc, num_required):
        return acc.take(int(num_required), deadline_of(ctx, step))
    return _stepped(take_grad)


@register_kernel("AccumulatorSetGlobalStep")
@register_kernel("ResourceAccumulatorSetGlobalStep")
def _set_global_step(op, ctx):
    def set_global_step(acc, step):
        acc.set_global_step(step)
    return set_global_step


@register_kernel("AccumulatorNumAccumulated")
@register_kernel("ResourceAccumulatorNumAccumulated")
def _num_accumulated(op, ctx):
    def num_accumulated(acc):
        return np.array(acc.num_accumulated(), np.int32)
    return num_accumulated
