"""`tf.nn.static_rnn` and `tf.nn.static_bidirectional_rnn`: a cell unrolled over a Python list of
time steps, inside variable scope "rnn" (the first step makes the cell's variables, later steps
reuse them).

`sequence_length` is honoured the way TF's `_rnn_step` does with `skip_conditionals`: past an
example's length its output is zero and its state is copied through (a select per step, no
conditionals; the values are the same as TF's cond-based unrolling).
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, dimension_value
from ..framework.graph import name_scope as _name_scope

__all__ = ["static_rnn", "static_bidirectional_rnn"]


# -- RNNSharedWeight: one weight read shared by the unrolled steps ------------------------------
#
# Under static_rnn a cell's kernel is used by one MatMul per step, so its gradient is the sum of
# T small products x_t^T dz_t (K = batch rows each), added up by an AddN. The cells read their
# kernels through one RNNSharedWeight op with an output per step (each output *is* the weight: no
# copy); its gradient recognises those per-step MatMul gradients and replaces them by a single
# product concat(x_t)^T concat(dz_t) (K = T * batch), which BLAS runs several times faster and
# which needs no T-way sum. The per-step products are then unused and pruned from the plan.
# Outside static_rnn (e.g. a while-loop body) cells use their variables directly.

def _shared_weight_shape(op):
    return [op.inputs[0].shape] * len(op.outputs)


registry.register_op("RNNSharedWeight", shape_fn=_shared_weight_shape)


def _as_matmul_grad(g):
    """(x, dz) when g is MatMul(x, dz, transpose_a=True) (maybe behind gating Identity ops)."""
    from ..framework.graph import Tensor
    if not isinstance(g, Tensor):
        return None
    t = g
    while t.op.type == "Identity" and len(t.op.inputs) == 1:
        t = t.op.inputs[0]
    op = t.op
    if op.type == "MatMul" and op._get_attr("transpose_a") and not op._get_attr("transpose_b"):
        return op.inputs[0], op.inputs[1]
    return None


@registry.register_gradient("RNNSharedWeight")
def _shared_weight_grad(op, *grads):
    from . import array_ops, math_ops
    pairs, rest = [], []
    for g in grads:
        if g is None:
            continue
        pair = _as_matmul_grad(g)
        if pair is not None and pair[0].shape.ndims == 2 and pair[1].shape.ndims == 2:
            pairs.append((pair, g))
        else:
            rest.append(g)
    parts = []
    if len(pairs) > 1 and not _small_products(pairs):
        xs = array_ops.concat([p[0][0] for p in pairs], 0)
        dzs = array_ops.concat([p[0][1] for p in pairs], 0)
        parts.append(math_ops.matmul(xs, dzs, transpose_a=True))
    else:
        parts.extend(g for _, g in pairs)
    parts.extend(rest)
    if not parts:
        return [None]
    if len(parts) == 1:
        return [parts[0]]
    return [math_ops.add_n([convert_to_tensor(p) for p in parts])]


def _small_products(pairs):
    """Whether every per-step product x_t^T dz_t is small enough for the kernels' exact path
    (tf_order): then the AddN of the T products, as TF builds it, gives TF's bits, and merging
    them would gain nothing worth the difference in the last bit."""
    from ..kernels.cpu.tf_order import MATMUL_EXACT_MAX_MACS
    for (x, dz), _ in pairs:
        dims = x.shape.as_list() + dz.shape.as_list()[1:]
        if None in dims or dims[0] * dims[1] * dims[2] > MATMUL_EXACT_MAX_MACS:
            return False
    return True


def shared_weight(weight, num_steps, name="RNNSharedWeight"):
    """num_steps tensors that are all `weight` (see the note above)."""
    weight = convert_to_tensor(weight)
    t = weight.dtype.base_dtype
    out = apply_op("RNNSharedWeight", [weight], [t] * num_steps, name,
                   attrs={"T": t, "num_steps": int(num_steps)})
    return out if isinstance(out, list) else [out]


def _nest():
    from ..nn import rnn_cell
    return rnn_cell


def _assert_like_rnncell(name, cell):
    ok = all(hasattr(cell, a) for a in ("output_size", "state_size", "zero_state")) and callable(cell)
    if not ok:
        raise TypeError(f"The argument {name!r} ({cell}) is not an RNNCell: 'output_size' property is missing, "
                        "'state_size' property is missing, either 'zero_state' or 'get_initial_state' method is "
                        "required, is not callable.")


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """Unrolls `cell` over `inputs` (a list of [batch, input_size] tensors, one per step).
    Returns (outputs, one per step; the final state)."""
    from . import array_ops, math_ops, variable_scope as vs
    nest = _nest()
    _assert_like_rnncell("cell", cell)
    if not nest._is_sequence(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    outputs = []
    with vs.variable_scope(scope or "rnn") as varscope:
        first_input = inputs
        while nest._is_sequence(first_input):
            first_input = first_input[0]
        if first_input.shape.ndims != 1:
            input_shape = first_input.shape.with_rank_at_least(2)
            fixed_batch_size = input_shape.dims[0]
            for flat_input in nest._flatten(inputs):
                input_shape = flat_input.shape.with_rank_at_least(2)
                fixed_batch_size = fixed_batch_size.merge_with(input_shape.dims[0])
                for i, size in enumerate(input_shape[1:].dims):
                    if dimension_value(size) is None:
                        raise ValueError(f"Input size (dimension {i} of inputs) must be accessible via shape "
                                         "inference, but saw value None.")
        else:
            fixed_batch_size = first_input.shape.with_rank_at_least(1).dims[0]
        if dimension_value(fixed_batch_size):
            batch_size = dimension_value(fixed_batch_size)
        else:
            batch_size = array_ops.shape(first_input)[0]
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
            state = cell.zero_state(batch_size, dtype)

        if sequence_length is not None:
            sequence_length = convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.ndims not in (None, 1):
                raise ValueError("sequence_length must be a vector of length batch_size")
            out_dtype = _dtypes.as_dtype(dtype) if dtype else nest._flatten(state)[0].dtype.base_dtype

            def zero_output(size):
                dims = TensorShape(size).as_list() if not isinstance(size, int) else [size]
                if isinstance(batch_size, int):
                    return array_ops.zeros([batch_size] + dims, out_dtype)
                z = array_ops.zeros(array_ops.stack([batch_size] + dims), out_dtype)
                z.set_shape([dimension_value(fixed_batch_size)] + dims)
                return z
            zero_out = nest._map_structure(zero_output, cell.output_size)
            sequence_length = math_ops.cast(sequence_length, _dtypes.int32)

        unroll = nest._Unrolling(len(inputs))
        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            with unroll.step(time):
                output, new_state = cell(input_, state)
            if sequence_length is not None:
                copy_cond = time >= sequence_length
                output = nest._map_structure(lambda z, o: array_ops.where(copy_cond, z, o), zero_out, output)
                new_state = nest._map_structure(lambda s, n: array_ops.where(copy_cond, s, n), state, new_state)
                # TF's step is a cond (time >= max length: zeros and the state; else the cell, copying
                # through past each length): its results are that cond's Merge outputs.
                with _name_scope(None, "cond"):
                    n_out = len(nest._flatten(output))
                    merged = [array_ops.identity(t, name="Merge")
                              for t in nest._flatten(output) + nest._flatten(new_state)]
                output = nest._pack_as(output, merged[:n_out])
                new_state = nest._pack_as(new_state, merged[n_out:])
            state = new_state
            outputs.append(output)
        return outputs, state


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                             sequence_length=None, scope=None):
    """A forward and a backward static_rnn over `inputs` (scopes "bidirectional_rnn/fw" and "/bw");
    returns (outputs, the two directions' outputs concatenated per step; output_state_fw,
    output_state_bw)."""
    from . import array_ops, variable_scope as vs
    nest = _nest()
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    if not nest._is_sequence(inputs):
        raise TypeError("inputs must be a sequence")
    if not inputs:
        raise ValueError("inputs must not be empty")
    with vs.variable_scope(scope or "bidirectional_rnn"):
        with vs.variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length,
                                                    scope=fw_scope)
        with vs.variable_scope("bw") as bw_scope:
            reversed_inputs = _reverse_seq(inputs, sequence_length)
            tmp, output_state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype, sequence_length,
                                              scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
    flat_fw, flat_bw = nest._flatten(output_fw), nest._flatten(output_bw)
    flat_outputs = tuple(array_ops.concat([fw, bw], 1) for fw, bw in zip(flat_fw, flat_bw))
    outputs = nest._pack_as(output_fw, flat_outputs)
    return outputs, output_state_fw, output_state_bw


def _reverse_seq(input_seq, lengths):
    """The time steps reversed; with `lengths`, only each example's first lengths[b] steps (TF's
    _reverse_seq: stack, reverse_sequence along time, unstack)."""
    if lengths is None:
        return list(reversed(input_seq))
    from . import array_ops
    from .sequence_ops import reverse_sequence
    nest = _nest()
    flat_input_seq = tuple(nest._flatten(input_) for input_ in input_seq)
    flat_results = [[] for _ in range(len(input_seq))]
    for sequence in zip(*flat_input_seq):
        input_shape = TensorShape(None) if sequence[0].shape.ndims is None else \
            TensorShape([None] * sequence[0].shape.ndims)
        for input_ in sequence:
            input_shape = input_shape.merge_with(input_.shape)
            input_.set_shape(input_shape)
        s_joined = array_ops.stack(sequence)
        s_reversed = reverse_sequence(s_joined, lengths, 0, 1)
        result = array_ops.unstack(s_reversed)
        for r, flat_result in zip(result, flat_results):
            r.set_shape(input_shape)
            flat_result.append(r)
    return [nest._pack_as(input_, flat_result) for input_, flat_result in zip(input_seq, flat_results)]
