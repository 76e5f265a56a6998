"""Queue-based input pipelines (TF1's training/input.py): `tf.train.batch`, `shuffle_batch`,
`batch_join`, `shuffle_batch_join`, `input_producer`, `string_input_producer`,
`range_input_producer`, `slice_input_producer`, `limit_epochs`.

Each function builds a queue, enqueue ops run by a `QueueRunner` (added to the QUEUE_RUNNERS
collection; `tf.train.start_queue_runners` starts them) and a dequeue op. `num_epochs` counts
epochs in a local variable (`tf.local_variables_initializer()` must run): after the last epoch the
producer's enqueue fails with OutOfRangeError, its queue is closed, and dequeues raise
OutOfRangeError once the queue is drained.
"""

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import GraphKeys, Tensor, control_dependencies, name_scope
from ..framework.tensor_shape import as_shape
from ..ops import array_ops, data_flow_ops, math_ops, random_ops, state_ops
from ..ops import variables as _variables
from .queue_runner import QueueRunner, add_queue_runner

__all__ = ["limit_epochs", "input_producer", "string_input_producer", "range_input_producer",
           "slice_input_producer", "batch", "batch_join", "shuffle_batch", "shuffle_batch_join",
           "maybe_batch", "maybe_shuffle_batch", "maybe_batch_join", "maybe_shuffle_batch_join"]


def _summary_scalar(name, tensor):
    try:
        from ..summary import summary_ops
    except ImportError:  # pragma: no cover - summaries are optional here
        return
    summary_ops.scalar(name, tensor)


def limit_epochs(tensor, num_epochs=None, name=None):
    """Returns `tensor`, but an op reading it fails with OutOfRangeError after `num_epochs`
    evaluations (a local variable counts them)."""
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError("num_epochs must be > 0 not %d." % num_epochs)
    with name_scope(name, "limit_epochs", [tensor]) as name:
        zero64 = constant(0, dtype=_dtypes.int64)
        epochs = _variables.Variable(zero64, name="epochs", trainable=False,
                                     collections=[GraphKeys.LOCAL_VARIABLES])
        counter = state_ops.count_up_to(epochs, num_epochs)
        with control_dependencies([counter]):
            return array_ops.identity(tensor, name=name)   # the scope name: op "limit_epochs"


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None, capacity=32,
                   shared_name=None, summary_name=None, name=None, cancel_op=None):
    """A FIFO queue filled (by a QueueRunner) with the rows of `input_tensor`, epoch after epoch,
    each epoch shuffled when `shuffle`."""
    with name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(as_shape(element_shape) if element_shape is not None
                                                          else input_tensor.shape[1:])
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must "
                             "be specified")
        if shuffle:
            input_tensor = random_ops.random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = data_flow_ops.FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                                    shapes=[element_shape], shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            _summary_scalar(summary_name, math_ops.cast(q.size(), _dtypes.float32) * (1.0 / capacity))
        return q


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32,
                          shared_name=None, name=None, cancel_op=None):
    """A queue of strings (e.g. file names) for a reader, `num_epochs` times over."""
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, Tensor) and not len(string_tensor):
        raise ValueError(not_null_err)
    with name_scope(name, "input_producer", [string_tensor]) as name:
        string_tensor = convert_to_tensor(string_tensor, dtype=_dtypes.string)
        from ..ops.logging_ops import Assert
        with control_dependencies([Assert(math_ops.greater(array_ops.size(string_tensor), 0), [not_null_err])]):
            string_tensor = array_ops.identity(string_tensor)
        return input_producer(input_tensor=string_tensor, element_shape=[], num_epochs=num_epochs,
                              shuffle=shuffle, seed=seed, capacity=capacity, shared_name=shared_name,
                              name=name, summary_name="fraction_of_%d_full" % capacity, cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """A queue of the integers 0 .. limit-1, `num_epochs` times over."""
    with name_scope(name, "input_producer", [limit]) as name:
        range_tensor = array_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity, shared_name,
                              "fraction_of_%d_full" % capacity, name)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """One row of every tensor in `tensor_list` at a time (the same row index for all)."""
    with name_scope(name, "input_producer", tensor_list):
        tensor_list = [convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                     capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [array_ops.gather(t, index) for t in tensor_list]


# -- batching ----------------------------------------------------------------------------------

def _as_tensor_list(tensors):
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors, key=str)]
    if isinstance(tensors, Tensor):
        return [tensors]
    return list(tensors)


def _as_tensor_list_list(tensors_list):
    if not tensors_list:
        raise ValueError("Expected at least one set of tensors")
    if isinstance(tensors_list[0], dict):
        expected_keys = set(tensors_list[0].keys())
        for tensors in tensors_list[1:]:
            if set(tensors.keys()) != expected_keys:
                raise ValueError("All dictionaries in tensors_list must have the same keys")
        return [_as_tensor_list(tensors) for tensors in tensors_list]
    return tensors_list


def _as_original_type(original_tensors, tensor_list):
    if isinstance(original_tensors, dict):
        if len(original_tensors) == 1:
            key = list(original_tensors.keys())[0]
            return {key: tensor_list}
        return {k: tensor_list[i] for i, k in enumerate(sorted(original_tensors, key=str))}
    return tensor_list


def _validate(tensor_list):
    tensor_list = [convert_to_tensor(t) for t in tensor_list]
    if not tensor_list:
        raise ValueError("Expected at least one tensor in batch().")
    return tensor_list


def _validate_join(tensor_list_list):
    tensor_list_list = [[convert_to_tensor(t) for t in tl] for tl in tensor_list_list]
    if not tensor_list_list:
        raise ValueError("Expected at least one input in batch_join().")
    return tensor_list_list


def _validate_keep_input(keep_input, enqueue_many):
    """keep_input as a tensor (TF converts it inside the batching scope: a Python True becomes
    that scope's Const), a scalar, or a vector when `enqueue_many`."""
    keep_input = convert_to_tensor(keep_input)
    if keep_input.shape.ndims is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and keep_input.shape.ndims == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if keep_input.shape.ndims > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _enqueue_ops(queue, tensor_list_list, enqueue_many, keep_input):
    """One enqueue op per tensor list, kept or dropped by `keep_input` as TF does: a vector
    selects examples (dynamic_partition), a constant scalar decides at build time, any other
    scalar builds a tf.cond around the enqueue."""
    from ..framework.constant_op import constant_value
    from ..ops import control_flow_ops, embedding_ops
    fn = queue.enqueue_many if enqueue_many else queue.enqueue
    if keep_input.shape.ndims == 1:
        select = math_ops.cast(keep_input, _dtypes.int32)
        return [fn([embedding_ops.dynamic_partition(x, select, num_partitions=2)[1] for x in tl])
                for tl in tensor_list_list]
    value = constant_value(keep_input)
    if value is not None:
        return [fn(tl) if value else control_flow_ops.no_op() for tl in tensor_list_list]
    return [control_flow_ops.cond(keep_input, lambda tl=tl: fn(tl), control_flow_ops.no_op)
            for tl in tensor_list_list]


def _dtypes_of(tensor_list_list):
    all_types = [[t.dtype.base_dtype for t in tl] for tl in tensor_list_list]
    types = all_types[0]
    for other in all_types[1:]:
        if other != types:
            raise TypeError("Expected types to be consistent: %s vs. %s." %
                            (", ".join(x.name for x in types), ", ".join(x.name for x in other)))
    return types


def _merge_shapes(shape_list, enqueue_many):
    shape_list = [as_shape(s) for s in shape_list]
    if enqueue_many:
        shape_list = [s.with_rank_at_least(1)[1:] for s in shape_list]
    merged = shape_list[0]
    for s in shape_list[1:]:
        merged.merge_with(s)   # TF drops the result: the first shape wins, a clash still raises
    return merged.as_list()


def _shapes(tensor_list_list, shapes, enqueue_many):
    if shapes is None:
        len0 = len(tensor_list_list[0])
        for tl in tensor_list_list:
            for i in range(len0):
                if tl[i].shape.ndims is None:
                    raise ValueError("Cannot infer Tensor's rank: %s" % tl[i])
        shapes = [_merge_shapes([tl[i].shape.as_list() for tl in tensor_list_list], enqueue_many)
                  for i in range(len0)]
    return shapes


def _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input):
    add_queue_runner(QueueRunner(queue, _enqueue_ops(queue, tensor_list_list, enqueue_many, keep_input)))


def _enqueue(queue, tensor_list, threads, enqueue_many, keep_input):
    add_queue_runner(QueueRunner(queue, _enqueue_ops(queue, [tensor_list], enqueue_many, keep_input) * threads))


def _dequeue(queue, batch_size, allow_smaller_final_batch, name):
    if allow_smaller_final_batch:
        return queue.dequeue_up_to(batch_size, name=name)
    return queue.dequeue_many(batch_size, name=name)


def _scope_name(name):
    return name[:-1] if name.endswith("/") else name


def _batch(tensors, batch_size, keep_input, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
           dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    tensor_list = _as_tensor_list(tensors)
    with name_scope(name, "batch", list(tensor_list) + [keep_input]) as name:
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _dtypes_of([tensor_list])
        shapes = _shapes([tensor_list], shapes, enqueue_many)
        cls = data_flow_ops.PaddingFIFOQueue if dynamic_pad else data_flow_ops.FIFOQueue
        queue = cls(capacity=capacity, dtypes=types, shapes=shapes, shared_name=shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        _summary_scalar("fraction_of_%d_full" % capacity,
                        math_ops.cast(queue.size(), _dtypes.float32) * (1.0 / capacity))
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors, dequeued)


def _batch_join(tensors_list, batch_size, keep_input, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    tensor_list_list = _as_tensor_list_list(tensors_list)
    with name_scope(name, "batch_join", [t for tl in tensor_list_list for t in tl] + [keep_input]) as name:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        types = _dtypes_of(tensor_list_list)
        shapes = _shapes(tensor_list_list, shapes, enqueue_many)
        cls = data_flow_ops.PaddingFIFOQueue if dynamic_pad else data_flow_ops.FIFOQueue
        queue = cls(capacity=capacity, dtypes=types, shapes=shapes, shared_name=shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        _summary_scalar("fraction_of_%d_full" % capacity,
                        math_ops.cast(queue.size(), _dtypes.float32) * (1.0 / capacity))
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors_list[0], dequeued)


def _shuffle_queue(tensor_list_list, capacity, min_after_dequeue, seed, enqueue_many, shapes, shared_name):
    types = _dtypes_of(tensor_list_list)
    shapes = _shapes(tensor_list_list, shapes, enqueue_many)
    return data_flow_ops.RandomShuffleQueue(capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed,
                                            dtypes=types, shapes=shapes, shared_name=shared_name)


def _check_capacity(capacity, min_after_dequeue):
    if capacity <= min_after_dequeue:
        raise ValueError("capacity %d must be bigger than min_after_dequeue %d." % (capacity, min_after_dequeue))


def _shuffle_summary(queue, capacity, min_after_dequeue):
    full = (math_ops.cast(math_ops.maximum(0, queue.size() - min_after_dequeue), _dtypes.float32)
            * (1.0 / (capacity - min_after_dequeue)))
    _summary_scalar("fraction_over_%d_of_%d_full" % (min_after_dequeue, capacity - min_after_dequeue), full)


def _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                   enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    tensor_list = _as_tensor_list(tensors)
    with name_scope(name, "shuffle_batch", list(tensor_list) + [keep_input]) as name:
        _check_capacity(capacity, min_after_dequeue)
        tensor_list = _validate(tensor_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        queue = _shuffle_queue([tensor_list], capacity, min_after_dequeue, seed, enqueue_many, shapes,
                               shared_name)
        _enqueue(queue, tensor_list, num_threads, enqueue_many, keep_input)
        _shuffle_summary(queue, capacity, min_after_dequeue)
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors, dequeued)


def _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                        name=None):
    tensor_list_list = _as_tensor_list_list(tensors_list)
    with name_scope(name, "shuffle_batch_join",
                    [t for tl in tensor_list_list for t in tl] + [keep_input]) as name:
        tensor_list_list = _validate_join(tensor_list_list)
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        queue = _shuffle_queue(tensor_list_list, capacity, min_after_dequeue, seed, enqueue_many, shapes,
                               shared_name)
        _enqueue_join(queue, tensor_list_list, enqueue_many, keep_input)
        _shuffle_summary(queue, capacity, min_after_dequeue)
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        return _as_original_type(tensors_list[0], dequeued)


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
          allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches `tensors` (a list or dict) through a FIFO queue filled by `num_threads` threads.

    With `enqueue_many`, each tensor is a batch of examples (dimension 0). `dynamic_pad` pads
    variable-size dimensions (None in the shapes) to the longest in each batch.
    `allow_smaller_final_batch` returns a last, smaller batch when the input runs out."""
    return _batch(tensors, batch_size, True, num_threads, capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name)


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """`batch` that enqueues an example only where `keep_input` (a bool scalar, or a bool vector
    over the examples when `enqueue_many`) is True."""
    return _batch(tensors, batch_size, keep_input, num_threads, capacity, enqueue_many, shapes, dynamic_pad,
                  allow_smaller_final_batch, shared_name, name)


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
               allow_smaller_final_batch=False, shared_name=None, name=None):
    """Like `batch`, with one enqueuing thread per tensor list in `tensors_list`."""
    return _batch_join(tensors_list, batch_size, True, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, shared_name, name)


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False, shapes=None,
                     dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """`batch_join` that enqueues only the examples where `keep_input` is True."""
    return _batch_join(tensors_list, batch_size, keep_input, capacity, enqueue_many, shapes, dynamic_pad,
                       allow_smaller_final_batch, shared_name, name)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None, enqueue_many=False,
                  shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches `tensors` in random order through a RandomShuffleQueue that keeps at least
    `min_after_dequeue` elements to mix from."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, True, num_threads, seed,
                          enqueue_many, shapes, allow_smaller_final_batch, shared_name, name)


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                        name=None):
    """`shuffle_batch` that enqueues only the examples where `keep_input` is True."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads, seed,
                          enqueue_many, shapes, allow_smaller_final_batch, shared_name, name)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None, enqueue_many=False,
                       shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Like `shuffle_batch`, with one enqueuing thread per tensor list in `tensors_list`."""
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, True, seed, enqueue_many,
                               shapes, allow_smaller_final_batch, shared_name, name)


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                             enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                             name=None):
    """`shuffle_batch_join` that enqueues only the examples where `keep_input` is True."""
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed,
                               enqueue_many, shapes, allow_smaller_final_batch, shared_name, name)
