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

__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn"]


def _transpose_batch_time(x):
    if x.shape.ndims is not None and x.shape.ndims < 2:
        raise ValueError(f"Expected input tensor {x} to have rank at least 2")
    rank = x.shape.ndims
    perm = [1, 0] + list(range(2, rank))
    return array_ops.transpose(x, perm)


def _concat_size(batch, size):
    return TensorShape([batch]).concatenate(TensorShape(size if isinstance(size, (list, tuple)) else [size]))


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    """Runs `cell` over the time steps of `inputs` ([batch, time, ...], or [time, batch, ...] with
    time_major); returns (outputs, final state)."""
    if not callable(cell) or not hasattr(cell, "state_size"):
        raise TypeError(f"cell must be an instance of RNNCell, saw: {type(cell)}")
    flat_input = [convert_to_tensor(x) for x in _fg.flatten(inputs)]
    with vs.variable_scope(scope or "rnn") as varscope:
        if not time_major:  # inside the scope, so TF's names: rnn/transpose in, rnn/transpose_1 out
            flat_input = [_transpose_batch_time(x) for x in flat_input]
        in_shape = flat_input[0].shape
        batch_static = in_shape[1].value if in_shape.ndims else None
        time_static = in_shape[0].value if in_shape.ndims else None
        batch_size = batch_static if batch_static is not None else array_ops.shape(flat_input[0])[1]
        if initial_state is not None:
            state = initial_state
        else:
            if dtype is None:
                raise ValueError("If there is no initial_state, you must give a dtype.")
            state = cell.zero_state(batch_size, dtype)
        if sequence_length is not None:
            sequence_length = math_ops.cast(convert_to_tensor(sequence_length), _dtypes.int32)
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError(f"sequence_length must be a vector of length batch_size, but saw shape: "
                                 f"{sequence_length.shape}")
            sequence_length = array_ops.identity(sequence_length, name="sequence_length")
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
        out_bw = _fg.map_structure(rev, tmp)
    return (out_fw, out_bw), (st_fw, st_bw)
