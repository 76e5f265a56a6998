"""Core layers: `Dense` / `dense` (activation(inputs @ kernel + bias)), `Dropout` / `dropout`,
`Flatten` / `flatten`."""

from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor
from ..framework.tensor_shape import TensorShape
from .base import InputSpec, Layer, _activation, _shape_str

__all__ = ["Dense", "dense", "Dropout", "dropout", "Flatten", "flatten"]


def _zeros():
    from ..ops import init_ops
    return init_ops.zeros_initializer()


def _check_floating(dtype):
    if not (dtype.is_floating or dtype.is_complex):
        raise TypeError("A Dense layer can only be built with a floating-point dtype. "
                        f"Received: dtype={dtype}")


class Dense(Layer):
    """Densely connected layer: outputs = activation(matmul(inputs, kernel) + bias).

    Inputs of rank > 2 are contracted on their last axis (tensordot), as TF does. The kernel's
    default initializer is get_variable's (Glorot uniform); the bias starts at zeros."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
                 name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer,
                         **kwargs)
        self.units = int(units)
        if self.units < 0:     # (TF 2.21 accepts 0: an empty output)
            raise ValueError("Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        self.activation = _activation(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer if bias_initializer is not None else _zeros()
        self.kernel_regularizer = kernel_regularizer
        self.bias_regularizer = bias_regularizer
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.kernel = None
        self.bias = None
        self.input_spec = InputSpec(min_ndim=2)

    def __call__(self, inputs, *args, **kwargs):
        # A layer without a dtype takes its first input's (TF's Keras base), and Dense refuses a
        # non-floating one before making variables.
        if not isinstance(inputs, (Tensor, list, tuple, dict)):
            inputs = convert_to_tensor(inputs)   # (as Layer.__call__ would, before any scope)
        if not self.built and self._dtype is None and isinstance(inputs, Tensor):
            _check_floating(inputs.dtype.base_dtype)
        return super().__call__(inputs, *args, **kwargs)

    def build(self, input_shape):
        if self._dtype is not None:
            _check_floating(self._dtype)
        input_shape = TensorShape(input_shape)
        last_dim = input_shape.as_list()[-1] if input_shape.ndims else None
        if last_dim is None:
            raise ValueError("The last dimension of the inputs to a Dense layer should be defined. "
                             f"Found None. Full input shape received: {_shape_str(input_shape)}")
        self.input_spec = InputSpec(min_ndim=2, axes={-1: last_dim})
        self.kernel = self.add_weight("kernel", shape=[last_dim, self.units], initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint,
                                      dtype=self._dtype, trainable=True)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint,
                                        dtype=self._dtype, trainable=True)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs):
        from ..ops import math_ops, nn_ops
        rank = inputs.shape.ndims
        if rank is None or rank == 2:
            outputs = math_ops.matmul(inputs, self.kernel)
        else:
            outputs = math_ops.tensordot(inputs, self.kernel, [[rank - 1], [0]])
            outputs.set_shape(inputs.shape.as_list()[:-1] + [self.units])
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias)
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        return input_shape[:-1].concatenate([self.units])

    def get_config(self):
        config = super().get_config()
        config.update(units=self.units, activation=self.activation, use_bias=self.use_bias)
        return config


def dense(inputs, units, activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
          kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
          bias_constraint=None, trainable=True, name=None, reuse=None):
    """Functional form of `Dense`: variables "<name>/kernel" and "<name>/bias" ("dense/...",
    "dense_1/..." when unnamed); `reuse=True` shares the variables of an earlier layer of that name."""
    layer = Dense(units, activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                  bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                  bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                  kernel_constraint=kernel_constraint, bias_constraint=bias_constraint, trainable=trainable,
                  name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


class Dropout(Layer):
    """Applies dropout (with rate `rate`) when `training` is true; identity otherwise."""

    def __init__(self, rate=0.5, noise_shape=None, seed=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value "
                             "between 0 and 1.")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=False):
        from ..ops import nn_ops
        if isinstance(training, bool) or training is None:
            if not training:
                from ..ops import array_ops
                return array_ops.identity(inputs)
            return nn_ops.dropout(inputs, noise_shape=self.noise_shape, seed=self.seed, rate=self.rate)
        # TF's smart_cond: a training tensor whose value is known at build time (a constant)
        # picks its branch directly; only a truly dynamic one builds a cond.
        from ..framework.constant_op import constant_value
        static = constant_value(training)
        if static is not None:
            return self.call(inputs, training=bool(static))
        from ..ops import control_flow_ops
        return control_flow_ops.cond(
            training,
            lambda: nn_ops.dropout(inputs, noise_shape=self.noise_shape, seed=self.seed, rate=self.rate),
            lambda: inputs)


def dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
    """Functional form of `Dropout`."""
    layer = Dropout(rate, noise_shape=noise_shape, seed=seed, name=name)
    return layer(inputs, training=training)


class Flatten(Layer):
    """Flattens all but the first (batch) dimension."""

    def __init__(self, data_format=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.data_format = data_format

    def call(self, inputs):
        # Keras' Flatten.call, op for op: a constant target shape ("Const") where it is known.
        from ..framework.constant_op import constant
        from ..ops import array_ops
        shape = inputs.shape
        rank = shape.ndims
        if self.data_format == "channels_first" and rank and rank > 1:
            inputs = array_ops.transpose(inputs, perm=[0] + list(range(2, rank)) + [1])
            shape = inputs.shape
        if rank == 1:
            return array_ops.expand_dims(inputs, axis=1)
        dims = shape.as_list() if rank is not None else None
        if dims is not None and all(d is not None for d in dims[1:]):
            n = 1
            for d in dims[1:]:
                n *= d
            target = constant([-1, int(n)])
        elif dims is not None and dims[0] is not None:
            target = constant([int(dims[0]), -1])
        else:
            target = [array_ops.shape(inputs)[0], -1]
        return array_ops.reshape(inputs, target)


def flatten(inputs, name=None, data_format="channels_last"):
    """Functional form of `Flatten`."""
    return Flatten(data_format=data_format, name=name)(inputs)
