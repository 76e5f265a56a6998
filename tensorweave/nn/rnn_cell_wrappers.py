"""`tf.nn.rnn_cell` wrappers: DropoutWrapper (per-step or variational dropout), ResidualWrapper,
DeviceWrapper. A wrapper opens no variable scope of its own, so the wrapped cell's variables keep
their names."""

import hashlib
import numbers

from ..framework import dtypes as _dtypes
from ..framework.graph import device as _device, name_scope
from ..framework.tensor_shape import TensorShape
from .rnn_cell import (LSTMStateTuple, RNNCell, _flatten, _is_sequence, _map_structure, _ops,
                       _pack_as)

class _Wrapper(RNNCell):
    """A cell around another; it opens no variable scope of its own (the wrapped cell's variables
    keep their names)."""

    def __init__(self, cell):
        super().__init__()
        if not isinstance(cell, RNNCell) and not (hasattr(cell, "state_size") and callable(cell)):
            raise TypeError(f"The parameter cell is not a RNNCell: {cell}")
        self._cell = cell

    wrapped_cell = property(lambda self: self._cell)
    state_size = property(lambda self: self._cell.state_size)
    output_size = property(lambda self: self._cell.output_size)

    @property
    def trainable_weights(self):
        return self._cell.trainable_weights

    @property
    def non_trainable_weights(self):
        return self._cell.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def zero_state(self, batch_size, dtype):
        with name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)

    def __call__(self, inputs, state, scope=None):
        return self._wrapped_call(inputs, state, scope)


def _default_dropout_state_filter_visitor(substate):
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return True


class DropoutWrapper(_Wrapper):
    """Dropout on the cell's inputs, outputs and (by default the h part of) its state, with keep
    probabilities `input_keep_prob`, `output_keep_prob`, `state_keep_prob` (floats or scalar
    tensors); a fresh mask each step, or with `variational_recurrent=True` one mask drawn at
    construction and shared by all steps (then `dtype`, and `input_size` for input dropout, are
    required)."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None):
        super().__init__(cell)
        from ..framework.constant_op import convert_to_tensor
        with name_scope("DropoutWrapperInit"):
            def tensor_and_const_value(v):
                from ..framework.constant_op import constant_value
                t = convert_to_tensor(v)
                const = constant_value(t)
                return t, (None if const is None else float(const))
            for prob, attr in ((input_keep_prob, "input_keep_prob"), (state_keep_prob, "state_keep_prob"),
                               (output_keep_prob, "output_keep_prob")):
                tensor_prob, const_prob = tensor_and_const_value(prob)
                if const_prob is not None:
                    if const_prob < 0 or const_prob > 1:
                        raise ValueError(f"Parameter {attr} must be between 0 and 1. Received {const_prob}")
                    setattr(self, f"_{attr}", float(const_prob))
                else:
                    setattr(self, f"_{attr}", tensor_prob)
        self._seed = seed
        self._dropout_state_filter = dropout_state_filter_visitor or _default_dropout_state_filter_visitor
        self._variational_recurrent = variational_recurrent
        self._recurrent_input_noise = self._recurrent_state_noise = self._recurrent_output_noise = None
        if variational_recurrent:
            self._make_recurrent_noise(cell, input_size, dtype)

    def _make_recurrent_noise(self, cell, input_size, dtype):
        """One [1, size] uniform noise tensor per leaf of input_size / state_size / output_size,
        drawn once here, so every step (and every batch entry) shares the same masks (TF's
        variational dropout; seeds salted "input_i", "state_i", "output_i" as TF's)."""
        if dtype is None:
            raise ValueError("When variational_recurrent=True, dtype must be provided")
        from ..framework.constant_op import constant
        from ..ops import array_ops, random_ops

        def batch_noise(s, inner_seed):
            dims = [int(s)] if isinstance(s, numbers.Integral) else TensorShape(s).as_list()
            shape = array_ops.concat((constant([1]), constant(dims, dtype=_dtypes.int32)), 0)
            return random_ops.random_uniform(shape, seed=inner_seed, dtype=dtype)

        def noise_for(structure, salt):
            flat = _flatten(structure)
            return _pack_as(structure, [batch_noise(s, self._gen_seed(salt, i)) for i, s in enumerate(flat)])
        if not isinstance(self._input_keep_prob, numbers.Real) or self._input_keep_prob < 1.0:
            if input_size is None:
                raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                 "input_size must be provided")
            self._recurrent_input_noise = noise_for(input_size, "input")
        self._recurrent_state_noise = noise_for(cell.state_size, "state")
        self._recurrent_output_noise = noise_for(cell.output_size, "output")

    def _gen_seed(self, salt_prefix, index):
        if self._seed is None:
            return None
        salt = "%s_%d" % (salt_prefix, index)
        string = (str(self._seed) + salt).encode("utf-8")
        return int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF

    def _dropout(self, values, salt_prefix, keep_prob, filter_structure=None, noise=None):
        from ..ops import math_ops
        nn_ops = _ops()[2]
        flat = _flatten(values)
        flags = _flatten(filter_structure) if filter_structure is not None else [True] * len(flat)
        if not self._variational_recurrent:
            out = [nn_ops.dropout(v, rate=1. - keep_prob, seed=self._gen_seed(salt_prefix, i)) if do else v
                   for i, (v, do) in enumerate(zip(flat, flags))]
            return _pack_as(values, out)
        out = []
        for v, do, n in zip(flat, flags, _flatten(noise)):
            if do:
                # keep_prob + U[0, 1) floors to 1 with probability keep_prob: TF's mask arithmetic.
                binary = math_ops.floor(keep_prob + n)
                r = math_ops.divide(v, keep_prob) * binary
                r.set_shape(v.shape)
                v = r
            out.append(v)
        return _pack_as(values, out)

    def _state_filter(self, state):
        def visit(s):
            r = self._dropout_state_filter(s)
            if isinstance(r, bool):
                return _map_structure(lambda _: r, s) if _is_sequence(s) else r
            if _is_sequence(s) and _is_sequence(r):
                return _pack_as(s, [x for x in _flatten(r)])
            return r
        if _is_sequence(state) and not isinstance(state, LSTMStateTuple):
            return type(state)(visit(s) for s in state) if not hasattr(state, "_fields") else \
                type(state)(*[visit(s) for s in state])
        return visit(state)

    def _wrapped_call(self, inputs, state, scope):
        def should_dropout(p):
            return not isinstance(p, float) or p < 1
        if should_dropout(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._input_keep_prob, noise=self._recurrent_input_noise)
        output, new_state = self._cell(inputs, state, scope=scope)
        if should_dropout(self._state_keep_prob):
            new_state = self._dropout(new_state, "state", self._state_keep_prob, self._state_filter(new_state),
                                      noise=self._recurrent_state_noise)
        if should_dropout(self._output_keep_prob):
            output = self._dropout(output, "output", self._output_keep_prob, noise=self._recurrent_output_noise)
        return output, new_state


class ResidualWrapper(_Wrapper):
    """output = residual_fn(inputs, cell output) (inputs + output by default)."""

    def __init__(self, cell, residual_fn=None):
        super().__init__(cell)
        self._residual_fn = residual_fn

    def _wrapped_call(self, inputs, state, scope):
        outputs, new_state = self._cell(inputs, state, scope=scope)

        def default_residual_fn(inputs, outputs):
            # TF checks the shapes first: "Shapes (3, 2) and (3, 3) are incompatible".
            def add(i, o):
                i.get_shape().assert_is_compatible_with(o.get_shape())
                return i + o
            return _map_structure(add, inputs, outputs)
        return (self._residual_fn or default_residual_fn)(inputs, outputs), new_state


class DeviceWrapper(_Wrapper):
    """Runs the cell's ops on `device`."""

    def __init__(self, cell, device):
        super().__init__(cell)
        self._device = device

    def zero_state(self, batch_size, dtype):
        with name_scope(type(self).__name__ + "ZeroState"):
            with _device(self._device):
                return self._cell.zero_state(batch_size, dtype)

    def _wrapped_call(self, inputs, state, scope):
        with _device(self._device):
            return self._cell(inputs, state, scope=scope)
