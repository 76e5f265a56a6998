"""`tf.nn.rnn_cell`: recurrent cells (TF1's rnn_cell_impl).

A cell maps (inputs [batch, input_size], state) to (output [batch, output_size], new_state) for
one time step; `state_size` / `output_size` say the structure of both (an int, or a tuple such as
`LSTMStateTuple(c, h)`). Cells are layers: their variables are made on the first call, inside the
cell's variable scope ("rnn/basic_lstm_cell/kernel:0" under `static_rnn`), and reused by later
calls, so a cell can be called once per unrolled step (`tf.nn.static_rnn`) or from a loop body.
A cell's `call` only builds ops from its inputs and state: no Python state changes per step, so a
while-loop can call it too.

The LSTM step is one matmul over the concatenation [x, h] with the fused kernel
[input_size + num_units, 4 * num_units] (gate order i, j, f, o, as TF), a bias add, and a split.
"""

import collections
import contextlib
import numbers
import threading

from ..framework import dtypes as _dtypes
from ..framework.graph import Tensor, name_scope
from ..framework.tensor_shape import TensorShape
from ..layers.base import Layer

__all__ = ["RNNCell", "LayerRNNCell", "BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell",
           "DropoutWrapper", "ResidualWrapper", "DeviceWrapper", "LSTMStateTuple"]

_WEIGHTS_VARIABLE_NAME = "kernel"
_BIAS_VARIABLE_NAME = "bias"


def _ops():
    from ..ops import array_ops, clip_ops, init_ops, math_ops, nn_ops, variable_scope
    return array_ops, math_ops, nn_ops, init_ops, clip_ops, variable_scope


# -- nested structures (tuples, namedtuples, lists) ----------------------------------------------

def _is_sequence(x):
    return isinstance(x, (tuple, list))


def _flatten(x):
    if _is_sequence(x):
        return [y for item in x for y in _flatten(item)]
    return [x]


def _pack_as(structure, flat):
    flat = list(flat)

    def build(s):
        if _is_sequence(s):
            items = [build(item) for item in s]
            if hasattr(s, "_fields"):
                return type(s)(*items)
            return type(s)(items)
        return flat.pop(0)
    out = build(structure)
    if flat:
        raise ValueError("Structure had fewer elements than the flat sequence")
    return out


def _map_structure(fn, *structures):
    flats = [_flatten(s) for s in structures]
    return _pack_as(structures[0], [fn(*xs) for xs in zip(*flats)])


class _Unrolling:
    """Set by static_rnn around each step's cell call: cells then read their kernels through one
    RNNSharedWeight op per kernel (ops/rnn.py), whose gradient is a single matmul over all steps."""

    _local = threading.local()

    def __init__(self, num_steps):
        self.num_steps = num_steps
        self.time = 0
        self._shared = {}

    @contextlib.contextmanager
    def step(self, time):
        prev = getattr(self._local, "current", None)
        self._local.current, self.time = self, time
        try:
            yield self
        finally:
            self._local.current = prev

    def weight(self, var):
        outs = self._shared.get(id(var))
        if outs is None:
            from ..ops import rnn
            outs = rnn.shared_weight(var, self.num_steps)
            self._shared[id(var)] = (outs, var)
        else:
            outs = outs[0]
        return outs[self.time]


def _step_weight(var):
    """`var`, or under static_rnn this step's output of the kernel's RNNSharedWeight op."""
    u = getattr(_Unrolling._local, "current", None)
    if u is None or u.num_steps < 2:
        return var
    return u.weight(var)


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
    """(c, h): the LSTM's cell state and its output (hidden state)."""

    __slots__ = ()

    @property
    def dtype(self):
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


def _zero_state_tensors(state_size, batch_size, dtype):
    """TF's graph for zero states: zeros(concat([batch], dims)) per state, then a second prefix
    and suffix built only for the static shape (ExpandDims_1/Const_1, or Const_2/Const_3 for an
    int batch size), as rnn_cell_impl._concat does, so op names match TF's."""
    array_ops = _ops()[0]
    from ..framework.constant_op import constant, constant_value

    def prefix():
        if isinstance(batch_size, Tensor):
            return array_ops.expand_dims(batch_size, 0), constant_value(batch_size)
        return constant([int(batch_size)], dtype=_dtypes.int32), int(batch_size)

    def zeros(s):
        dims = TensorShape(s).as_list() if not isinstance(s, numbers.Integral) else [int(s)]
        p, _ = prefix()
        shape = array_ops.concat((p, constant(dims, dtype=_dtypes.int32)), 0)
        z = array_ops.zeros(shape, dtype=dtype)
        _, b = prefix()
        constant(dims, dtype=_dtypes.int32)
        z.set_shape([None if b is None else int(b)] + dims)
        return z
    return _map_structure(zeros, state_size)


class RNNCell(Layer):
    """Abstract cell: subclasses define `state_size`, `output_size` and `call(inputs, state)`
    (and `build(inputs_shape)` to make variables)."""

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        self._is_tf_rnn_cell = True

    def __call__(self, inputs, state, scope=None):
        """Runs the cell for one step: returns (output, new_state)."""
        if scope is not None:
            vs = _ops()[5]
            with vs.variable_scope(scope) as captured:
                return super().__call__(inputs, state, scope=captured)
        return super().__call__(inputs, state)

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def build(self, inputs_shape):
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        if inputs is not None:
            array_ops = _ops()[0]
            inputs = array_ops.identity(inputs) if not isinstance(inputs, Tensor) else inputs
            static = inputs.shape.as_list()[0] if inputs.shape.ndims else None
            batch_size = static if static is not None else array_ops.shape(inputs)[0]
            dtype = dtype or inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial state: "
                             f"batch_size={batch_size}, dtype={dtype}")
        return self.zero_state(batch_size, dtype)

    def zero_state(self, batch_size, dtype):
        """Zeros shaped like the state, for a batch of `batch_size` (an int or a scalar tensor)."""
        with name_scope(type(self).__name__ + "ZeroState"):
            return _zero_state_tensors(self.state_size, batch_size, _dtypes.as_dtype(dtype))


class LayerRNNCell(RNNCell):
    """A cell whose variables live in its own layer scope ("basic_lstm_cell", ...)."""


def _check_rnn_cell_input_dtypes(inputs):
    """TF's built-in cells take floating (or complex) inputs and state only: an int32 input
    fails here, before any op is built, not later in a ConcatV2."""
    for t in _flatten(inputs):
        dt = getattr(t, "dtype", None)
        if dt is not None and not (dt.is_floating or dt.is_complex):
            raise ValueError(f"RNN cell only supports floating point inputs, but received dtype: {dt}")


def _check_input_depth(cell, inputs_shape):
    shape = TensorShape(inputs_shape)
    depth = shape.as_list()[-1] if shape.ndims else None
    if depth is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {shape}")
    return depth


def _activation(fn):
    if fn is None:
        return _ops()[1].tanh
    if isinstance(fn, str):
        from ..ops import math_ops, nn_ops
        return getattr(nn_ops, fn, None) or getattr(math_ops, fn)
    return fn


class BasicRNNCell(LayerRNNCell):
    """output = new_state = activation(W [x, h] + b) (tanh by default)."""

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = int(num_units)
        self._activation = _activation(activation)

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        input_depth = _check_input_depth(self, inputs_shape)
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, shape=[input_depth + self._num_units,
                                                                      self._num_units])
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, shape=[self._num_units],
                                     initializer=_ops()[3].zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        _check_rnn_cell_input_dtypes([inputs, state])
        array_ops, math_ops, nn_ops = _ops()[:3]
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), _step_weight(self._kernel))
        gate_inputs = nn_ops.bias_add(gate_inputs, self._bias)
        output = self._activation(gate_inputs)
        return output, output


class GRUCell(LayerRNNCell):
    """Gated recurrent unit (Cho et al. 2014): r, u = sigmoid(W_g [x, h] + b_g);
    c = tanh(W_c [x, r * h] + b_c); h' = u * h + (1 - u) * c. Variables "gates/kernel",
    "gates/bias" (starts at 1), "candidate/kernel", "candidate/bias"."""

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = int(num_units)
        self._activation = _activation(activation)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    state_size = property(lambda self: self._num_units)
    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        init_ops = _ops()[3]
        input_depth = _check_input_depth(self, inputs_shape)
        n = self._num_units
        self._gate_kernel = self.add_weight(f"gates/{_WEIGHTS_VARIABLE_NAME}", shape=[input_depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            f"gates/{_BIAS_VARIABLE_NAME}", shape=[2 * n],
            initializer=self._bias_initializer if self._bias_initializer is not None
            else init_ops.constant_initializer(1.0))
        self._candidate_kernel = self.add_weight(f"candidate/{_WEIGHTS_VARIABLE_NAME}",
                                                 shape=[input_depth + n, n], initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            f"candidate/{_BIAS_VARIABLE_NAME}", shape=[n],
            initializer=self._bias_initializer if self._bias_initializer is not None
            else init_ops.zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        _check_rnn_cell_input_dtypes([inputs, state])
        array_ops, math_ops, nn_ops = _ops()[:3]
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, state], 1), _step_weight(self._gate_kernel))
        gate_inputs = nn_ops.bias_add(gate_inputs, self._gate_bias)
        value = math_ops.sigmoid(gate_inputs)
        r, u = array_ops.split(value=value, num_or_size_splits=2, axis=1)
        r_state = r * state
        candidate = math_ops.matmul(array_ops.concat([inputs, r_state], 1), _step_weight(self._candidate_kernel))
        candidate = nn_ops.bias_add(candidate, self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class BasicLSTMCell(LayerRNNCell):
    """LSTM without peepholes or projection (Zaremba et al. 2014), TF's BasicLSTMCell:
    i, j, f, o = split(W [x, h] + b); c' = c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j);
    h' = tanh(c') * sigmoid(o). State is LSTMStateTuple(c, h) (or their concatenation when
    state_is_tuple=False)."""

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = int(num_units)
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation)

    @property
    def state_size(self):
        n = self._num_units
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    output_size = property(lambda self: self._num_units)

    def build(self, inputs_shape):
        input_depth = _check_input_depth(self, inputs_shape)
        h_depth = self._num_units
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, shape=[input_depth + h_depth, 4 * self._num_units])
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, shape=[4 * self._num_units],
                                     initializer=_ops()[3].zeros_initializer())
        self.built = True

    def call(self, inputs, state):
        _check_rnn_cell_input_dtypes([inputs, state])
        from ..framework.constant_op import constant
        array_ops, math_ops, nn_ops = _ops()[:3]
        sigmoid = math_ops.sigmoid
        one = constant(1, dtype=_dtypes.int32)
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = array_ops.split(value=state, num_or_size_splits=2, axis=one)
        gate_inputs = math_ops.matmul(array_ops.concat([inputs, h], 1), _step_weight(self._kernel))
        gate_inputs = nn_ops.bias_add(gate_inputs, self._bias)
        i, j, f, o = array_ops.split(value=gate_inputs, num_or_size_splits=4, axis=one)
        forget_bias_tensor = constant(self._forget_bias, dtype=f.dtype.base_dtype)
        add, multiply = math_ops.add, math_ops.multiply
        new_c = add(multiply(c, sigmoid(add(f, forget_bias_tensor))), multiply(sigmoid(i), self._activation(j)))
        new_h = multiply(self._activation(new_c), sigmoid(o))
        if self._state_is_tuple:
            new_state = LSTMStateTuple(new_c, new_h)
        else:
            new_state = array_ops.concat([new_c, new_h], 1)
        return new_h, new_state


class LSTMCell(LayerRNNCell):
    """LSTM with optional peepholes (`use_peepholes`: variables w_f_diag, w_i_diag, w_o_diag),
    cell clipping (`cell_clip`), and a projection of the output to `num_proj` units
    ("projection/kernel", clipped by `proj_clip`)."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0, state_is_tuple=True,
                 activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        self._num_units = int(num_units)
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = None if num_proj is None else int(num_proj)
        self._proj_clip = proj_clip
        self._num_unit_shards = num_unit_shards
        self._num_proj_shards = num_proj_shards
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation)

    @property
    def state_size(self):
        n, p = self._num_units, self._num_proj
        if p is not None:
            return LSTMStateTuple(n, p) if self._state_is_tuple else n + p
        return LSTMStateTuple(n, n) if self._state_is_tuple else 2 * n

    @property
    def output_size(self):
        return self._num_proj if self._num_proj is not None else self._num_units

    def build(self, inputs_shape):
        input_depth = _check_input_depth(self, inputs_shape)
        n = self._num_units
        h_depth = n if self._num_proj is None else self._num_proj
        from ..ops.partitioned_variables import fixed_size_partitioner
        # Sharded weights are split along their rows: "kernel/part_0", ... (TF's names).
        self._kernel = self.add_weight(_WEIGHTS_VARIABLE_NAME, shape=[input_depth + h_depth, 4 * n],
                                       initializer=self._initializer,
                                       partitioner=None if self._num_unit_shards is None
                                       else fixed_size_partitioner(self._num_unit_shards))
        self._bias = self.add_weight(_BIAS_VARIABLE_NAME, shape=[4 * n], initializer=_ops()[3].zeros_initializer())
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", shape=[n], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", shape=[n], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", shape=[n], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight(f"projection/{_WEIGHTS_VARIABLE_NAME}", shape=[n, self._num_proj],
                                                initializer=self._initializer,
                                                partitioner=None if self._num_proj_shards is None
                                                else fixed_size_partitioner(self._num_proj_shards))
        self.built = True

    def call(self, inputs, state):
        _check_rnn_cell_input_dtypes([inputs, state])
        array_ops, math_ops, nn_ops, _, clip_ops, _ = _ops()
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        sigmoid = math_ops.sigmoid
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = array_ops.slice(state, [0, 0], [-1, self._num_units])
            m_prev = array_ops.slice(state, [0, self._num_units], [-1, num_proj])
        if inputs.shape.with_rank(2).dims[1].value is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
        lstm_matrix = math_ops.matmul(array_ops.concat([inputs, m_prev], 1), _step_weight(self._kernel))
        lstm_matrix = nn_ops.bias_add(lstm_matrix, self._bias)
        i, j, f, o = array_ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = math_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = math_ops.matmul(m, _step_weight(self._proj_kernel))
            if self._proj_clip is not None:
                m = math_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else array_ops.concat([c, m], 1)
        return m, new_state


class MultiRNNCell(RNNCell):
    """Stacks cells: layer i's output is layer i+1's input; variables under "cell_<i>"."""

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not _is_sequence(cells):
            raise TypeError(f"cells must be a list or tuple, but saw: {cells}.")
        if len(set(id(c) for c in cells)) < len(cells):
            import warnings
            warnings.warn("At least two cells provided to MultiRNNCell are the same object and will share "
                          "weights.")
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(_is_sequence(c.state_size) for c in self._cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set. "
                             f"State sizes are: {[c.state_size for c in self._cells]}")

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    output_size = property(lambda self: self._cells[-1].output_size)

    def zero_state(self, batch_size, dtype):
        with name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return super().zero_state(batch_size, dtype)

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [w for cell in self._cells for w in cell.trainable_weights]

    @property
    def non_trainable_weights(self):
        out = [w for cell in self._cells for w in cell.non_trainable_weights]
        if not self.trainable:
            out = [w for cell in self._cells for w in cell.trainable_weights] + out
        return out

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def call(self, inputs, state):
        array_ops, vs = _ops()[0], _ops()[5]
        cur_state_pos = 0
        cur_inp = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with vs.variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    if not _is_sequence(state):
                        raise ValueError(f"Expected state to be a tuple of length {len(self.state_size)}, but "
                                         f"received: {state}")
                    cur_state = state[i]
                else:
                    cur_state = array_ops.slice(state, [0, cur_state_pos], [-1, cell.state_size])
                    cur_state_pos += cell.state_size
                cur_inp, new_state = cell(cur_inp, cur_state)
                new_states.append(new_state)
        new_states = tuple(new_states) if self._state_is_tuple else array_ops.concat(new_states, 1)
        return cur_inp, new_states


# The wrappers (DropoutWrapper, ResidualWrapper, DeviceWrapper) live in rnn_cell_wrappers.
from .rnn_cell_wrappers import DeviceWrapper, DropoutWrapper, ResidualWrapper  # noqa: E402,F401
