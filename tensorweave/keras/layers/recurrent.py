"""keras `RNN` (any cell, or a list of cells stacked) and SimpleRNN, LSTM and GRU (TF1's v1
layers: LSTM and GRU default to a hard-sigmoid recurrent activation, GRU to reset_after=False),
unrolled over the number of steps when it is known, a `while_loop` over TensorArrays (as TF's
`K.rnn`) when the input's time axis is None.

Weights live under the layer and its cell: "lstm/lstm_cell/kernel" ([input, 4 * units], gates
i, f, c, o), "lstm/lstm_cell/recurrent_kernel" ([units, 4 * units], orthogonal) and
"lstm/lstm_cell/bias". The cells of SimpleRNN/LSTM/GRU are named "simple_rnn_cell",
"lstm_cell", "gru_cell" (fixed names, as TF's). `return_sequences` stacks every step's output
(in the order processed: reversed with `go_backwards`); `return_state` adds the final states.

A mask ([batch, steps], from `Embedding(mask_zero=True)` or `Masking`) makes a masked step keep
the previous states and repeat the previous output (zeros before the first unmasked step), as
TF's `K.rnn`; the layer passes the mask on when it returns sequences.
"""

from ...framework.graph import name_scope
from ...framework.tensor_shape import TensorShape
from .. import regularizers
from ..engine import InputSpec, Layer
from .recurrent_cells import (AbstractRNNCell, GRUCell, LSTMCell, SimpleRNNCell,  # noqa: F401
                              StackedRNNCells, _Cell)

__all__ = ["RNN", "SimpleRNN", "LSTM", "GRU", "AbstractRNNCell", "SimpleRNNCell", "LSTMCell", "GRUCell",
           "StackedRNNCells"]


def _ops():
    from ...ops import array_ops, math_ops
    return array_ops, math_ops


def _flat_state_sizes(cell):
    s = cell.state_size
    if isinstance(s, (list, tuple)):
        out = []
        for x in s:
            out.extend(x if isinstance(x, (list, tuple)) else [x])
        return out
    return [s]


class RNN(Layer):
    """Runs `cell` over axis 1 of a [batch, steps, features] input."""

    _masking = True

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, time_major=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError("Argument `cell` should have a `call` method and a `state_size` "
                             f"attribute. Received: cell={cell}")
        if stateful:
            raise NotImplementedError("keras RNN(stateful=True) is not supported by tensorweave yet")
        if time_major:
            raise NotImplementedError("keras RNN(time_major=True) is not supported by tensorweave "
                                      "yet")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.time_major = time_major
        self.input_spec = InputSpec(ndim=3)

    @property
    def states(self):
        return [None] * len(_flat_state_sizes(self.cell))

    def build(self, input_shape):
        if isinstance(input_shape, (list, tuple)) and input_shape and \
                not isinstance(input_shape[0], (int, type(None))):
            input_shape = input_shape[0]
        dims = TensorShape(input_shape).as_list()
        step = TensorShape([dims[0]] + dims[2:])
        if not self.cell.built:
            with name_scope(self.cell.name):
                self.cell._in_call = True
                try:
                    self.cell.build(step)
                finally:
                    self.cell._in_call = False
                self.cell.built = True
        self.built = True

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        out = self.cell.output_size
        shape = TensorShape([dims[0], dims[1], out] if self.return_sequences else [dims[0], out])
        if self.return_state:
            return [shape] + [TensorShape([dims[0], s]) for s in _flat_state_sizes(self.cell)]
        return shape

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        if self.return_state:
            return [out] + [None] * len(_flat_state_sizes(self.cell))
        return out

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        if constants is not None:
            raise NotImplementedError("keras RNN constants are not supported by tensorweave yet")
        if isinstance(inputs, (list, tuple)) and initial_state is None and len(inputs) > 1:
            inputs, initial_state = inputs[0], list(inputs[1:])
        if initial_state is not None:
            kwargs["initial_state"] = initial_state
        return super().__call__(inputs, **kwargs)

    def get_initial_state(self, inputs):
        a = _ops()[0]
        batch = a.shape(inputs)[0]
        return [a.zeros(a.stack([batch, s]), dtype=inputs.dtype.base_dtype)
                for s in _flat_state_sizes(self.cell)]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        a, m = _ops()
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        steps = inputs.shape.as_list()[1]
        n_states = len(_flat_state_sizes(self.cell))
        if initial_state is None:
            states = self.get_initial_state(inputs)
        else:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) \
                else [initial_state]
            if len(states) != n_states:
                raise ValueError(f"An `initial_state` was passed that is not compatible with "
                                 f"`cell.state_size`. Received `state_spec`={len(states)} states; "
                                 f"however `cell.state_size` is {self.cell.state_size}")
        if hasattr(self.cell, "reset_dropout_mask"):
            self.cell.reset_dropout_mask()
        # Keras cells get their states as a list even when there is one (as TF's RNN); only
        # tf.nn.rnn_cell cells get a lone state as itself.
        nested = isinstance(self.cell.state_size, (list, tuple)) or \
            getattr(self.cell, "_is_tf_rnn_cell", None) is None
        kwargs = {"training": training} if "training" in self.cell._call_fn_args else {}
        if mask is not None:
            mask = m.cast(mask, "bool")
        if steps is None:
            result, states = self._loop_over_time(inputs, states, mask, nested, kwargs)
            if self.return_state:
                return [result] + list(states)
            return result
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        outputs, prev_out = [], None
        for t in order:
            out, new = self.cell.call(inputs[:, t], states if nested else states[0], **kwargs)
            new = list(new) if isinstance(new, (list, tuple)) else [new]
            if mask is not None:
                keep = a.expand_dims(mask[:, t], -1)
                if prev_out is None:
                    prev_out = a.zeros_like(out)
                out = a.where(a.broadcast_to(keep, a.shape(out)), out, prev_out)
                new = [a.where(a.broadcast_to(keep, a.shape(s)), s, p) for s, p in zip(new, states)]
            prev_out = out
            outputs.append(out)
            states = new
        result = a.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        if self.return_state:
            return [result] + list(states)
        return result

    def _loop_over_time(self, inputs, states, mask, nested, kwargs):
        """The steps of an input whose length is only known at run time: a while_loop reading
        time-major TensorArrays; (outputs or last output, final states)."""
        from ...ops import control_flow_ops
        from ...ops.tensor_array_ops import TensorArray
        a, m = _ops()
        perm = [1, 0] + list(range(2, inputs.shape.ndims))
        x_tm = a.transpose(inputs, perm)
        if self.go_backwards:
            x_tm = a.reverse(x_tm, [0])
        steps = a.shape(x_tm)[0]
        in_ta = TensorArray(x_tm.dtype.base_dtype, size=steps,
                            element_shape=x_tm.shape[1:]).unstack(x_tm)
        mask_ta = None
        if mask is not None:
            mask_tm = a.transpose(mask, [1, 0])
            if self.go_backwards:
                mask_tm = a.reverse(mask_tm, [0])
            mask_ta = TensorArray(mask_tm.dtype.base_dtype, size=steps,
                                  element_shape=mask_tm.shape[1:]).unstack(mask_tm)
        elem_shape, prev_out = self._zero_step_output(inputs, states)
        out_ta = TensorArray(inputs.dtype.base_dtype, size=steps, element_shape=elem_shape)

        def body(t, out_ta, prev_out, *states):
            states = list(states)
            out, new = self.cell.call(in_ta.read(t), states if nested else states[0], **kwargs)
            new = list(new) if isinstance(new, (list, tuple)) else [new]
            if mask_ta is not None:
                keep = a.expand_dims(mask_ta.read(t), -1)
                out = a.where(a.broadcast_to(keep, a.shape(out)), out, prev_out)
                new = [a.where(a.broadcast_to(keep, a.shape(s)), s, p) for s, p in zip(new, states)]
            return [t + 1, out_ta.write(t, out), out] + new

        loop = control_flow_ops.while_loop(lambda t, *_: t < steps, body,
                                           [a.constant(0), out_ta, prev_out] + list(states))
        if self.return_sequences:
            seq = loop[1].stack()
            return a.transpose(seq, perm[:2] + list(range(2, seq.shape.ndims))), loop[3:]
        return loop[2], loop[3:]

    def _zero_step_output(self, inputs, states):
        """(static shape, zeros) of one step's output: the loop's output before step 0."""
        a = _ops()[0]
        out_size = self.cell.output_size
        shape = TensorShape([inputs.shape.as_list()[0], out_size])
        return shape, a.zeros(a.stack([a.shape(inputs)[0], out_size]),
                              dtype=inputs.dtype.base_dtype)

    def reset_states(self, states=None):
        raise AttributeError("Layer must be stateful.")


_CELL_ARGS = ("activation", "recurrent_activation", "use_bias", "kernel_initializer",
              "recurrent_initializer", "bias_initializer", "kernel_regularizer",
              "recurrent_regularizer", "bias_regularizer", "kernel_constraint",
              "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout",
              "unit_forget_bias", "reset_after", "implementation")


class _CellRNN(RNN):
    """SimpleRNN / LSTM / GRU: an RNN over their own cell, which takes the cell arguments."""

    _cell_class = None
    _cell_name = None

    def __init__(self, units, activity_regularizer=None, **kwargs):
        cell_kwargs = {k: kwargs.pop(k) for k in _CELL_ARGS if k in kwargs}
        cell = self._cell_class(units, name=self._cell_name, dtype=kwargs.get("dtype"),
                                trainable=kwargs.get("trainable", True), **cell_kwargs)
        super().__init__(cell, activity_regularizer=regularizers.get(activity_regularizer),
                         **kwargs)

    def __getattr__(self, name):
        # units, activation, dropout, ... read through to the cell, as TF's properties do.
        if not name.startswith("_") and name != "cell":
            cell = self.__dict__.get("cell")
            if cell is not None and hasattr(cell, name):
                return getattr(cell, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


class SimpleRNN(_CellRNN):
    """A fully-connected RNN: h_t = activation(x_t W + b + h_{t-1} U)."""
    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"

    def __init__(self, units, activation="tanh", **kwargs):
        super().__init__(units, activation=activation, **kwargs)


class LSTM(_CellRNN):
    """TF1's keras LSTM (gates i, f, c, o; recurrent activation hard_sigmoid by default)."""
    _cell_class = LSTMCell
    _cell_name = "lstm_cell"


class GRU(_CellRNN):
    """TF1's keras GRU (reset_after=False by default; gates z, r, h)."""
    _cell_class = GRUCell
    _cell_name = "gru_cell"


_ = _Cell
