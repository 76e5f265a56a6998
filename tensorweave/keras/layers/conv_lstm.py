"""keras ConvLSTM1D / ConvLSTM2D / ConvLSTM3D: LSTMs whose input and recurrent transforms are
convolutions, run over axis 1 of a (batch, time, spatial..., channels) input.

Each step (TF's ConvLSTMCell; gates i, f, c, o):
  x_g = conv(x * dropout_g, kernel_g, strides, padding, dilation) + bias_g
  h_g = conv(h' * recurrent_dropout_g, recurrent_kernel_g, 1, "same")
  i, f, o = recurrent_activation(x_g + h_g);  c = f c' + i activation(x_c + h_c);  h = o activation(c)
The weights "<layer>/kernel" (kernel_size + (channels, 4 filters)), "<layer>/recurrent_kernel"
(kernel_size + (filters, 4 filters)) and "<layer>/bias" (4 filters, the forget quarter ones when
`unit_forget_bias`) sit in the layer's scope, as TF's; the states h and c start at zero with the
output's spatial shape.
"""

from ...framework.tensor_shape import TensorShape
from .. import activations, backend as K, constraints, initializers, regularizers
from ...layers.base import _unique_layer_name
from ..engine import InputSpec, Layer
from .recurrent import RNN, _CellRNN
from .recurrent_cells import _dropout_masks

__all__ = ["ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]

_CELL_KEYS = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
              "activation", "recurrent_activation", "use_bias", "kernel_initializer",
              "recurrent_initializer", "bias_initializer", "unit_forget_bias",
              "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
              "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
              "recurrent_dropout")


def _tuple(v, n):
    return (int(v),) * n if isinstance(v, int) else tuple(int(x) for x in v)


def _conv_out(n, k, padding, stride, dilation):
    """TF's conv_utils.conv_output_length."""
    if n is None:
        return None
    k = k + (k - 1) * (dilation - 1)
    n = n - k + 1 if padding == "valid" else n
    return (n + stride - 1) // stride


class ConvLSTMCell(Layer):
    """One ConvLSTM step over a (batch, spatial..., channels) input; states [h, c]."""

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="hard_sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        super().__init__(**kwargs)
        self.rank = rank
        self.filters = int(filters)
        self.kernel_size = _tuple(kernel_size, rank)
        self.strides = _tuple(strides, rank)
        self.padding = str(padding).lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be a string: `valid` or `same`. "
                             f"Received: {padding}")
        self.data_format = data_format or K.image_data_format()
        self.dilation_rate = _tuple(dilation_rate, rank)
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.state_size = (self.filters, self.filters)
        self.reset_dropout_mask()

    def reset_dropout_mask(self):
        self._dp_masks = None
        self._rec_dp_masks = None

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        f, base = self.filters, self.bias_initializer

        def init(shape, dtype=None, partition_info=None):
            from ...ops import array_ops
            return array_ops.concat([base((f,), dtype=dtype),
                                     initializers.Ones()((f,), dtype=dtype),
                                     base((2 * f,), dtype=dtype)], 0)
        return init

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        ch = dims[1] if self.data_format == "channels_first" else dims[-1]
        if ch is None:
            raise ValueError("The channel dimension of the inputs should be defined. "
                             f"Found input shape {tuple(dims)}.")
        n = 4 * self.filters
        self.kernel = self.add_weight("kernel", self.kernel_size + (ch, n),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            "recurrent_kernel", self.kernel_size + (self.filters, n),
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)
        self.bias = self.add_weight("bias", (n,), initializer=self._bias_init(),
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def _conv(self, x, w, strides, padding, dilation):
        fn = {1: K.conv1d, 2: K.conv2d, 3: K.conv3d}[self.rank]
        if self.rank == 1:
            strides, dilation = strides[0], dilation[0]
        return fn(x, w, strides=strides, padding=padding, data_format=self.data_format,
                  dilation_rate=dilation)

    def call(self, inputs, states, training=None):
        from ...ops import array_ops
        h_prev, c_prev = states[0], states[1]
        if 0 < self.dropout < 1 and self._dp_masks is None:
            self._dp_masks = _dropout_masks(inputs, self.dropout, training, 4)
        if 0 < self.recurrent_dropout < 1 and self._rec_dp_masks is None:
            self._rec_dp_masks = _dropout_masks(h_prev, self.recurrent_dropout, training, 4)
        xs = [inputs * d for d in self._dp_masks] if self._dp_masks else [inputs] * 4
        hs = [h_prev * d for d in self._rec_dp_masks] if self._rec_dp_masks else [h_prev] * 4
        kernels = array_ops.split(self.kernel, 4, axis=self.rank + 1)
        rkernels = array_ops.split(self.recurrent_kernel, 4, axis=self.rank + 1)
        biases = array_ops.split(self.bias, 4) if self.bias is not None else [None] * 4
        parts = []
        for x, h, k, rk, b in zip(xs, hs, kernels, rkernels, biases):
            xg = self._conv(x, k, self.strides, self.padding, self.dilation_rate)
            if b is not None:
                xg = K.bias_add(xg, b, data_format=self.data_format)
            parts.append(xg + self._conv(h, rk, (1,) * self.rank, "same", (1,) * self.rank))
        i = self.recurrent_activation(parts[0])
        f = self.recurrent_activation(parts[1])
        c = f * c_prev + i * self.activation(parts[2])
        o = self.recurrent_activation(parts[3])
        h = o * self.activation(c)
        return h, [h, c]

    def state_shape(self, step_shape):
        """The (batch, spatial..., filters) shape of h and c for a step's input shape."""
        dims = TensorShape(step_shape).as_list()
        first = self.data_format == "channels_first"
        sp = dims[2:] if first else dims[1:-1]
        out = [_conv_out(sp[d], self.kernel_size[d], self.padding, self.strides[d],
                         self.dilation_rate[d]) for d in range(self.rank)]
        return [dims[0], self.filters] + out if first else [dims[0]] + out + [self.filters]

    def get_config(self):
        cfg = _base_config(self)
        for key in _CELL_KEYS:
            cfg[key] = _serialized(self, key)
        return cfg


def _base_config(layer):
    cfg = {"name": layer.name, "trainable": layer.trainable}
    if getattr(layer, "_batch_input_shape", None) is not None:
        cfg["batch_input_shape"] = tuple(layer._batch_input_shape)
    cfg["dtype"] = layer.dtype
    return cfg


def _serialized(cell, key):
    v = getattr(cell, key)
    if key in ("activation", "recurrent_activation"):
        return activations.serialize(v)
    if key.endswith("_initializer"):
        return initializers.serialize(v)
    if key.endswith("_regularizer"):
        return regularizers.serialize(v)
    if key.endswith("_constraint"):
        return constraints.serialize(v)
    return v


class _ConvLSTM(_CellRNN):
    _rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, activation="tanh", recurrent_activation="hard_sigmoid",
                 use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, dropout=0.0,
                 recurrent_dropout=0.0, **kwargs):
        if not kwargs.get("name"):
            # TF names these "conv_lstm2d" (not the snake case of the class name).
            kwargs["name"] = _unique_layer_name(f"conv_lstm{self._rank}d")
        cell = ConvLSTMCell(
            self._rank, filters, kernel_size, strides=strides, padding=padding,
            data_format=data_format, dilation_rate=dilation_rate, activation=activation,
            recurrent_activation=recurrent_activation, use_bias=use_bias,
            kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint,
            dropout=dropout, recurrent_dropout=recurrent_dropout, name="conv_lstm_cell",
            dtype=kwargs.get("dtype"))
        RNN.__init__(self, cell, return_sequences=return_sequences, return_state=return_state,
                     go_backwards=go_backwards, stateful=stateful,
                     activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.input_spec = InputSpec(ndim=self._rank + 3)

    def build(self, input_shape):
        if isinstance(input_shape, (list, tuple)) and input_shape and \
                not isinstance(input_shape[0], (int, type(None))):
            input_shape = input_shape[0]
        dims = TensorShape(input_shape).as_list()
        if not self.cell.built:
            # The cell's weights sit directly in the layer's scope ("conv_lstm2d/kernel").
            if self.cell._dtype is None:
                self.cell._dtype = self._dtype
            self.cell._in_call = True
            try:
                self.cell.build(TensorShape([dims[0]] + dims[2:]))
            finally:
                self.cell._in_call = False
            self.cell.built = True
        self.built = True

    def _state_dims(self, inputs_shape):
        dims = TensorShape(inputs_shape).as_list()
        return self.cell.state_shape([dims[0]] + dims[2:])

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        state = self._state_dims(dims)
        out = TensorShape(state[:1] + [dims[1]] + state[1:] if self.return_sequences else state)
        if self.return_state:
            return [out, TensorShape(state), TensorShape(state)]
        return out

    def get_initial_state(self, inputs):
        from ...ops import array_ops as a
        dims = self._state_dims(inputs.shape)
        if any(d is None for d in dims[1:]):
            raise NotImplementedError("ConvLSTM over inputs of unknown spatial size is not "
                                      "supported by tensorweave yet")
        shape = a.stack([a.shape(inputs)[0]] + dims[1:])
        zeros = a.zeros(shape, dtype=inputs.dtype.base_dtype)
        return [zeros, zeros]

    def _zero_step_output(self, inputs, states):
        from ...ops import array_ops as a
        return states[0].shape, a.zeros_like(states[0])

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if mask is not None and not (isinstance(mask, (list, tuple)) and
                                     all(m is None for m in mask)):
            raise NotImplementedError("masked ConvLSTM inputs are not supported by tensorweave "
                                      "yet")
        return RNN.call(self, inputs, training=training, initial_state=initial_state)

    def get_config(self):
        cfg = _base_config(self)
        for key in ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
                    "time_major"):
            cfg[key] = getattr(self, key)
        for key in _CELL_KEYS:
            cfg[key] = _serialized(self.cell, key)
            if key == "bias_regularizer":
                cfg["activity_regularizer"] = regularizers.serialize(self._activity_regularizer)
        return cfg


class ConvLSTM1D(_ConvLSTM):
    """A ConvLSTM over (batch, time, steps, channels) sequences."""

    _rank = 1


class ConvLSTM2D(_ConvLSTM):
    """A ConvLSTM over (batch, time, rows, cols, channels) sequences of images."""

    _rank = 2


class ConvLSTM3D(_ConvLSTM):
    """A ConvLSTM over (batch, time, depth, rows, cols, channels) sequences of volumes."""

    _rank = 3
