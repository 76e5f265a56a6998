"""keras RNN cells: SimpleRNNCell, LSTMCell, GRUCell and StackedRNNCells.

A cell computes one time step: `cell(x_t, states) -> (output, new_states)`; `tf.keras.layers.RNN`
runs it over a sequence. Weights are "<cell>/kernel" ([input, gates * units]),
"<cell>/recurrent_kernel" ([units, gates * units], orthogonal) and "<cell>/bias"; under an RNN
layer they sit in its scope ("gru/gru_cell/kernel:0").

  SimpleRNN  h = act(x W + b + h' U)
  LSTM       gates i, f, c, o:  c = f c' + i act(x W_c + h' U_c + b_c);  h = o act(c)
  GRU        gates z, r, h:     h = z h' + (1 - z) act(x W_h + b_h + R)
             reset_after=False: R = (r h') U_h              (bias [3 * units])
             reset_after=True:  R = r (h' U_h + b'_h)       (bias [2, 3 * units]: input, recurrent)

`dropout` / `recurrent_dropout` multiply the inputs / previous states by masks drawn once per
sequence (one per gate) and only in training (the learning phase decides when `training` is not
given), as TF's DropoutRNNCellMixin does.
"""

from ...framework.graph import Tensor, name_scope
from .. import activations, backend as K, constraints, initializers, regularizers
from ..engine import Layer

__all__ = ["AbstractRNNCell", "SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells"]


def _ops():
    from ...ops import array_ops, math_ops
    return array_ops, math_ops


def _dropout_masks(like, rate, training, count):
    """`count` dropout masks shaped like `like` (ones outside training), as
    DropoutRNNCellMixin._generate_dropout_mask."""
    a = _ops()[0]
    ones = a.ones_like(like)

    def dropped():
        return K.dropout(ones, rate)
    return [K.in_train_phase(dropped, ones, training=training) for _ in range(count)]


class AbstractRNNCell(Layer):
    """Base class for a user's RNN cell: define `state_size`, `call(inputs, states)` (and
    `output_size` when it differs); `get_initial_state` makes zero states."""

    def call(self, inputs, states):
        raise NotImplementedError

    @property
    def state_size(self):
        raise NotImplementedError

    @property
    def output_size(self):
        raise NotImplementedError

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        a = _ops()[0]
        if inputs is not None:
            batch_size = a.shape(inputs)[0]
            dtype = inputs.dtype.base_dtype
        nested = isinstance(self.state_size, (list, tuple))
        sizes = list(self.state_size) if nested else [self.state_size]
        out = []
        for s in sizes:
            dims = list(s.as_list() if hasattr(s, "as_list") else
                        (s if isinstance(s, (list, tuple)) else [s]))
            shape = [batch_size] + dims
            if any(hasattr(d, "op") for d in shape):
                shape = a.stack(shape)
            out.append(a.zeros(shape, dtype=dtype or K.floatx()))
        return out if nested else out[0]


class _Cell(Layer):
    """Shared construction of the three cells (activations, initializers, regularizers,
    constraints, dropout rates) and their weights."""

    _gates = 1

    def __init__(self, units, activation="tanh", recurrent_activation="hard_sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None,
                 dropout=0.0, recurrent_dropout=0.0, **kwargs):
        if units is None or int(units) <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a positive "
                             f"integer, got {units}.")
        kwargs.pop("implementation", None)
        super().__init__(**kwargs)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.reset_dropout_mask()

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self):
        return self.units

    def reset_dropout_mask(self):
        self._dp_masks = None
        self._rec_dp_masks = None

    reset_recurrent_dropout_mask = reset_dropout_mask

    def _input_masks(self, x, training):
        if not 0 < self.dropout < 1:
            return None
        if self._dp_masks is None:
            self._dp_masks = _dropout_masks(x, self.dropout, training, self._gates)
        return self._dp_masks

    def _state_masks(self, h, training):
        if not 0 < self.recurrent_dropout < 1:
            return None
        if self._rec_dp_masks is None:
            self._rec_dp_masks = _dropout_masks(h, self.recurrent_dropout, training, self._gates)
        return self._rec_dp_masks

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _bias_init(self):
        return self.bias_initializer

    def build(self, input_shape):
        dims = input_shape.as_list() if hasattr(input_shape, "as_list") else list(input_shape)
        n = self._gates * self.units
        self.kernel = self.add_weight("kernel", (dims[-1], n), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel", (self.units, n), initializer=self.recurrent_initializer,
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        self.bias = self.add_weight("bias", self._bias_shape(), initializer=self._bias_init(),
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        a = _ops()[0]
        if inputs is not None:
            batch_size = a.shape(inputs)[0]
            dtype = inputs.dtype.base_dtype
        sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else [self.state_size]
        out = [a.zeros(a.stack([batch_size, s]), dtype=dtype or K.floatx()) for s in sizes]
        return out if isinstance(self.state_size, (list, tuple)) else out[0]


def _mm(x, w):
    return _ops()[1].matmul(x, w)


class SimpleRNNCell(_Cell):
    """One step of a fully-connected RNN: h = activation(x W + b + h' U)."""

    def __init__(self, units, activation="tanh", **kwargs):
        super().__init__(units, activation=activation, **kwargs)

    def call(self, inputs, states, training=None):
        prev = states[0] if isinstance(states, (list, tuple)) else states
        dp = self._input_masks(inputs, training)
        rdp = self._state_masks(prev, training)
        h = _mm(inputs * dp[0] if dp else inputs, self.kernel)
        if self.bias is not None:
            h = h + self.bias
        h = h + _mm(prev * rdp[0] if rdp else prev, self.recurrent_kernel)
        if self.activation is not None:
            h = self.activation(h)
        return h, ([h] if isinstance(states, (list, tuple)) else h)


class LSTMCell(_Cell):
    """One LSTM step (gates i, f, c, o; TF1's default recurrent activation hard_sigmoid);
    states [h, c]."""

    _gates = 4

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = unit_forget_bias

    @property
    def state_size(self):
        return [self.units, self.units]

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        u, base = self.units, self.bias_initializer

        def init(shape, dtype=None, partition_info=None):
            a = _ops()[0]
            return a.concat([base((u,), dtype=dtype), initializers.Ones()((u,), dtype=dtype),
                             base((2 * u,), dtype=dtype)], 0)
        return init

    def call(self, inputs, states, training=None):
        h_prev, c_prev = states[0], states[1]
        u = self.units
        dp = self._input_masks(inputs, training)
        rdp = self._state_masks(h_prev, training)
        k, rk = self.kernel, self.recurrent_kernel
        if dp is None and rdp is None:
            z = _mm(inputs, k) + _mm(h_prev, rk)
            if self.bias is not None:
                z = z + self.bias
            parts = [z[:, i * u:(i + 1) * u] for i in range(4)]
        else:
            xs = [inputs * d for d in dp] if dp else [inputs] * 4
            hs = [h_prev * d for d in rdp] if rdp else [h_prev] * 4
            parts = []
            for i in range(4):
                p = _mm(xs[i], k[:, i * u:(i + 1) * u])
                if self.bias is not None:
                    p = p + self.bias[i * u:(i + 1) * u]
                parts.append(p + _mm(hs[i], rk[:, i * u:(i + 1) * u]))
        i = self.recurrent_activation(parts[0])
        f = self.recurrent_activation(parts[1])
        c = f * c_prev + i * self.activation(parts[2])
        o = self.recurrent_activation(parts[3])
        h = o * self.activation(c)
        return h, [h, c]


class GRUCell(_Cell):
    """One GRU step (gates z, r, h); `reset_after` applies the reset gate after the recurrent
    matmul (and gives the recurrent part its own bias row: bias shape (2, 3 * units))."""

    _gates = 3

    def __init__(self, units, reset_after=False, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def call(self, inputs, states, training=None):
        nested = isinstance(states, (list, tuple))
        h_prev = states[0] if nested else states
        u = self.units
        dp = self._input_masks(inputs, training)
        rdp = self._state_masks(h_prev, training)
        k, rk = self.kernel, self.recurrent_kernel
        in_bias = rec_bias = None
        if self.bias is not None:
            in_bias, rec_bias = (self.bias[0], self.bias[1]) if self.reset_after else (self.bias, None)
        xs = [inputs * d for d in dp] if dp else [inputs] * 3
        hs = [h_prev * d for d in rdp] if rdp else [h_prev] * 3
        x_parts = []
        for i in range(3):
            p = _mm(xs[i], k[:, i * u:(i + 1) * u])
            if in_bias is not None:
                p = p + in_bias[i * u:(i + 1) * u]
            x_parts.append(p)
        rec = []
        for i in range(2):
            p = _mm(hs[i], rk[:, i * u:(i + 1) * u])
            if rec_bias is not None:
                p = p + rec_bias[i * u:(i + 1) * u]
            rec.append(p)
        z = self.recurrent_activation(x_parts[0] + rec[0])
        r = self.recurrent_activation(x_parts[1] + rec[1])
        if self.reset_after:
            rh = _mm(hs[2], rk[:, 2 * u:])
            if rec_bias is not None:
                rh = rh + rec_bias[2 * u:]
            rh = r * rh
        else:
            rh = _mm(r * hs[2], rk[:, 2 * u:])
        hh = self.activation(x_parts[2] + rh)
        h = z * h_prev + (1 - z) * hh
        return h, ([h] if nested else h)


class StackedRNNCells(Layer):
    """Several cells run one after the other at each step (what `RNN([cell1, cell2])` makes);
    its state is the concatenation of the cells' states."""

    def __init__(self, cells, **kwargs):
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError("All cells must have a `call` method and a `state_size` "
                                 f"attribute. Received cells: {cells}")
        super().__init__(**kwargs)
        self.cells = list(cells)

    @property
    def state_size(self):
        return tuple(c.state_size for c in self.cells)

    @property
    def output_size(self):
        return self.cells[-1].output_size

    def _flat_sizes(self):
        return [list(s) if isinstance(s, (list, tuple)) else [s] for s in self.state_size]

    def reset_dropout_mask(self):
        for c in self.cells:
            if hasattr(c, "reset_dropout_mask"):
                c.reset_dropout_mask()

    def build(self, input_shape):
        from ...framework.tensor_shape import TensorShape
        dims = TensorShape(input_shape).as_list()
        for cell in self.cells:
            if not cell.built:
                if cell._dtype is None:   # as a called cell: its config's dtype is set
                    from ...framework import dtypes
                    cell._dtype = dtypes.as_dtype(K.floatx())
                with name_scope(cell.name):
                    cell._in_call = True
                    try:
                        cell.build(TensorShape(dims))
                    finally:
                        cell._in_call = False
                    cell.built = True
            dims = dims[:-1] + [cell.output_size]
        self.built = True

    def call(self, inputs, states, training=None):
        new_states, pos = [], 0
        for cell, sizes in zip(self.cells, self._flat_sizes()):
            cs = list(states[pos:pos + len(sizes)])
            pos += len(sizes)
            nested = isinstance(cell.state_size, (list, tuple))
            kwargs = {"training": training} if "training" in cell._call_fn_args else {}
            with name_scope(cell.name):
                inputs, cs = cell.call(inputs, cs if nested else cs[0], **kwargs)
            new_states.extend(cs if isinstance(cs, (list, tuple)) else [cs])
        return inputs, new_states

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        out = []
        for cell in self.cells:
            s = cell.get_initial_state(inputs, batch_size, dtype)
            out.extend(s if isinstance(s, (list, tuple)) else [s])
        return out


_ = Tensor
