"""`tf.nn.dynamic_rnn` and `tf.nn.bidirectional_dynamic_rnn`: an RNN cell unrolled by a
`while_loop` over time (inputs read from, outputs written to TensorArrays), as in TF.

With `sequence_length`, each batch entry's outputs past its length are zeros and its state is
copied through unchanged, so the final state is the state at its last valid step.
"""

from ..framework import dtypes as _dtypes
from ..framework import func_graph as _fg
from ..framework.constant_op import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import array_ops, control_flow_ops, math_ops
from . import variable_scope as vs
from .sequence_ops import reverse_sequence
from .tensor_array_ops import TensorArray

__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn", "raw_rnn"]


def _transpose_batch_time(x):
    if x.shape.ndims is not None and x.shape.ndims < 2:  # (TF leaves it; the batch size check raises)
        return x
    rank = x.shape.ndims
    perm = [1, 0] + list(range(2, rank))
    return array_ops.transpose(x, perm)


def _concat_size(batch, size):
    return TensorShape([batch]).concatenate(TensorShape(size if isinstance(size, (list, tuple)) else [size]))


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    """Runs `cell` over the time steps of `inputs` ([batch, time, ...], or [time, batch, ...] with
    time_major); returns (outputs, final state)."""
    from .rnn import _assert_like_rnncell
    _assert_like_rnncell("cell", cell)
    flat_input = [convert_to_tensor(x) for x in _fg.flatten(inputs)]
    with vs.variable_scope(scope or "rnn") as varscope:
        if not time_major:  # inside the scope, so TF's names: rnn/transpose in, rnn/transpose_1 out
            flat_input = [_transpose_batch_time(x) for x in flat_input]
        if sequence_length is not None:
            sequence_length = math_ops.cast(sequence_length, _dtypes.int32)
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("Argument sequence_length must be a vector of length batch_size. Received "
                                 f"sequence_length={sequence_length} of shape: {sequence_length.shape}")
            sequence_length = array_ops.identity(sequence_length, name="sequence_length")
        for x in flat_input:  # TF's _best_effort_input_batch_size
            if x.shape.ndims is not None and x.shape.ndims < 2:
                raise ValueError(f"Input tensor should have rank >= 2. Received input={x} of rank {x.shape.ndims}")
        in_shape = flat_input[0].shape
        batch_static = in_shape[1].value if in_shape.ndims else None
        time_static = in_shape[0].value if in_shape.ndims else None
        batch_size = batch_static if batch_static is not None else array_ops.shape(flat_input[0])[1]
        if initial_state is not None:
            state = initial_state
        else:
            if dtype is None:
                raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
            state = cell.zero_state(batch_size, dtype)
        for x in flat_input:  # TF's _dynamic_rnn_loop: [time, batch, depth...]
            x.shape.with_rank_at_least(3)
        time_steps = time_static if time_static is not None else array_ops.shape(flat_input[0])[0]
        out_dtype = flat_input[0].dtype.base_dtype
        input_tas = [TensorArray(x.dtype.base_dtype, size=time_steps, element_shape=x.shape[1:]).unstack(x)
                     for x in flat_input]
        out_sizes = _fg.flatten(cell.output_size)
        out_tas = [TensorArray(out_dtype, size=time_steps, element_shape=_concat_size(batch_static, s))
                   for s in out_sizes]
        state_flat = [convert_to_tensor(s) for s in _fg.flatten(state)]
        state_structure = state

        def body(time, tas, st):
            x = _fg.pack_sequence_as(inputs, [ta.read(time) for ta in input_tas])
            prev = _fg.pack_sequence_as(state_structure, st)
            out, new_state = cell(x, prev)
            out_flat = [convert_to_tensor(o) for o in _fg.flatten(out)]
            new_flat = [convert_to_tensor(s) for s in _fg.flatten(new_state)]
            if sequence_length is not None:
                copy = math_ops.greater_equal(time, sequence_length)
                out_flat = [array_ops.where(copy, array_ops.zeros_like(o), o) for o in out_flat]
                new_flat = [array_ops.where(copy, old, new) for old, new in zip(st, new_flat)]
            for n, o in zip(new_flat, st):
                n.set_shape(o.shape)
            return time + 1, [ta.write(time, o) for ta, o in zip(tas, out_flat)], new_flat

        _, tas, final = control_flow_ops.while_loop(
            lambda time, tas, st: time < time_steps, body,
            [convert_to_tensor(0, dtype=_dtypes.int32, name="time"), out_tas, state_flat],
            parallel_iterations=parallel_iterations or 32, swap_memory=swap_memory,
            maximum_iterations=time_steps)
        outputs = []
        for ta, s in zip(tas, out_sizes):
            o = ta.stack()
            o.set_shape(TensorShape([time_static]).concatenate(_concat_size(batch_static, s)))
            if not time_major:
                o = _transpose_batch_time(o)
            outputs.append(o)
        outputs = _fg.pack_sequence_as(cell.output_size, outputs)
        final_state = _fg.pack_sequence_as(state_structure, final)
        del varscope
        return outputs, final_state


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None, initial_state_fw=None,
                              initial_state_bw=None, dtype=None, parallel_iterations=None, swap_memory=False,
                              time_major=False, scope=None):
    """Forward and backward dynamic_rnn; returns ((out_fw, out_bw), (state_fw, state_bw))."""
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            out_fw, st_fw = dynamic_rnn(cell_fw, inputs, sequence_length, initial_state_fw, dtype,
                                        parallel_iterations, swap_memory, time_major, scope=fw_scope)
        time_axis, batch_axis = (0, 1) if time_major else (1, 0)

        def rev(x):
            if sequence_length is not None:
                return reverse_sequence(x, sequence_length, seq_axis=time_axis, batch_axis=batch_axis)
            return array_ops.reverse(x, axis=[time_axis])
        with vs.variable_scope("bw") as bw_scope:
            inputs_rev = _fg.map_structure(rev, inputs)
            tmp, st_bw = dynamic_rnn(cell_bw, inputs_rev, sequence_length, initial_state_bw, dtype,
                                     parallel_iterations, swap_memory, time_major, scope=bw_scope)
    out_bw = _fg.map_structure(rev, tmp)  # outside the scope, as TF: "ReverseSequence"
    return (out_fw, out_bw), (st_fw, st_bw)


def _copy_some_through(finished, current, candidate):
    """Past an entry's end, keep its current value (TensorArrays and scalars pass through)."""
    def copy_fn(cur, cand):
        if isinstance(cur, TensorArray) or cur.shape.ndims == 0:
            return cand
        return array_ops.where(finished, cur, cand)
    return _fg.map_structure(copy_fn, current, candidate)


def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """Runs `cell` under the control of `loop_fn(time, cell_output, cell_state, loop_state)`, which
    returns (elements_finished, next_input, next_cell_state, emit_output, next_loop_state); the
    first call (time 0, all other arguments None) gives the initial input and state and, as its
    emit_output, the structure to emit (None: the cell's output_size). Steps run in a while_loop
    until every entry is finished; finished entries emit zeros and keep their state.

    Returns (emit_ta, final_state, final_loop_state): emit_ta holds TensorArrays, one per emitted
    leaf; final_loop_state is None when loop_fn gave no loop state at time 0."""
    from .rnn import _assert_like_rnncell
    _assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    parallel_iterations = parallel_iterations or 32
    with vs.variable_scope(scope or "rnn"):
        from ..framework.constant_op import constant
        time = constant(0, dtype=_dtypes.int32)
        (elements_finished, next_input, initial_state, emit_structure,
         init_loop_state) = loop_fn(time=time, cell_output=None, cell_state=None, loop_state=None)
        flat_input = [convert_to_tensor(x) for x in _fg.flatten(next_input)]
        next_input = _fg.pack_sequence_as(next_input, flat_input)
        loop_state = init_loop_state if init_loop_state is not None else constant(0, dtype=_dtypes.int32)
        static_batch = flat_input[0].shape.with_rank_at_least(1)[0]
        for x in flat_input:
            static_batch.assert_is_compatible_with(x.shape.with_rank_at_least(1)[0])
        const_batch = static_batch.value
        batch_size = const_batch if const_batch is not None else array_ops.shape(flat_input[0])[0]
        _fg.assert_same_structure(initial_state, cell.state_size)
        flat_state = [convert_to_tensor(s) for s in _fg.flatten(initial_state)]
        state = _fg.pack_sequence_as(initial_state, flat_state)
        if emit_structure is not None:
            flat_emit = _fg.flatten(emit_structure)
            flat_emit_size = [e.shape if e.shape.is_fully_defined() else array_ops.shape(e)
                              for e in flat_emit]
            flat_emit_dtypes = [e.dtype.base_dtype for e in flat_emit]
        else:
            emit_structure = cell.output_size
            flat_emit_size = _fg.flatten(emit_structure)
            flat_emit_dtypes = [flat_state[0].dtype.base_dtype] * len(flat_emit_size)

        def static_size(size):
            if isinstance(size, TensorShape):
                return size
            if hasattr(size, "op"):  # a shape tensor: only its rank may be known
                from ..framework.constant_op import constant_value
                v = constant_value(size)
                return TensorShape(None) if v is None else TensorShape([int(d) for d in v])
            return TensorShape(size if isinstance(size, (list, tuple)) else [size])

        def zeros_shape(size):
            if isinstance(size, TensorShape) or not hasattr(size, "op"):
                dims = static_size(size).as_list()
                if isinstance(batch_size, int):
                    return [batch_size] + dims
                return array_ops.concat([array_ops.reshape(batch_size, [1]),
                                         convert_to_tensor(dims, dtype=_dtypes.int32)], 0)
            return array_ops.concat([array_ops.reshape(batch_size, [1]), size], 0)

        flat_emit_ta = [TensorArray(dtype=dt, dynamic_size=True, size=0, name=f"rnn_output_{i}",
                                    element_shape=TensorShape([const_batch]).concatenate(static_size(sz)))
                        for i, (dt, sz) in enumerate(zip(flat_emit_dtypes, flat_emit_size))]
        emit_ta = _fg.pack_sequence_as(emit_structure, flat_emit_ta)
        flat_zero_emit = [array_ops.zeros(zeros_shape(sz), dt) for sz, dt in zip(flat_emit_size, flat_emit_dtypes)]
        zero_emit = _fg.pack_sequence_as(emit_structure, flat_zero_emit)

        def condition(unused_time, elements_finished, *_):
            return math_ops.logical_not(math_ops.reduce_all(elements_finished))

        def body(time, elements_finished, current_input, emit_ta, state, loop_state):
            next_output, cell_state = cell(current_input, state)
            _fg.assert_same_structure(state, cell_state)
            _fg.assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            (next_finished, next_input, next_state, emit_output,
             next_loop_state) = loop_fn(next_time, next_output, cell_state, loop_state)
            _fg.assert_same_structure(state, next_state)
            _fg.assert_same_structure(current_input, next_input)
            _fg.assert_same_structure(emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state
            emit_output = _copy_some_through(elements_finished, zero_emit, emit_output)
            next_state = _copy_some_through(elements_finished, state, next_state)
            emit_ta = _fg.map_structure(lambda ta, emit: ta.write(time, emit), emit_ta, emit_output)
            elements_finished = math_ops.logical_or(elements_finished, next_finished)
            return next_time, elements_finished, next_input, emit_ta, next_state, loop_state

        returned = control_flow_ops.while_loop(
            condition, body, loop_vars=[time, elements_finished, next_input, emit_ta, state, loop_state],
            parallel_iterations=parallel_iterations, swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
        return emit_ta, final_state, final_loop_state
