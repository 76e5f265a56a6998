"""keras core layers: Dense (tf.layers.Dense's build and call under keras naming), Activation,
Dropout (the learning phase when `training` is not given), Flatten, Reshape, Lambda, Permute,
RepeatVector."""

from ...framework.graph import Tensor
from ...framework.tensor_shape import TensorShape
from ...layers import core as _core
from .. import activations, backend as K, constraints, initializers, regularizers
from ..engine import InputLayer, Layer, _pop_keras_kwargs  # noqa: F401

__all__ = ["Identity", "Dense", "Activation", "Dropout", "Flatten", "Reshape", "Lambda", "Permute",
           "RepeatVector", "InputLayer", "Masking"]


class Dense(Layer, _core.Dense):
    """activation(inputs @ kernel + bias); kernel "<name>/kernel" (Glorot uniform), bias zeros."""

    _masking = True


    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        kk = _pop_keras_kwargs(kwargs)
        # As TF: the layer (and its unique name) exists before the arguments are resolved, so a
        # bad activation or initializer still uses up a "dense_N" name.
        _core.Dense.__init__(self, units, use_bias=use_bias,
                             activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self._keras_init(**kk)


class Activation(Layer):
    """Applies an activation function (a name such as "relu", or a callable)."""

    _masking = True


    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


class Dropout(Layer, _core.Dropout):
    """Drops a `rate` fraction of the inputs (scaling the rest by 1 / (1 - rate)) in training; the
    learning phase decides when `training` is not given (a `tf.cond`, "dropout/cond/Merge")."""

    _masking = True


    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        kk = _pop_keras_kwargs(kwargs)
        _core.Dropout.__init__(self, rate, noise_shape=noise_shape, seed=seed, **kwargs)
        if isinstance(rate, (int, float)) and not 0 <= rate <= 1:
            raise ValueError(f"Invalid value {rate} received for `rate`, expected a value between 0 "
                             "and 1.")
        self._keras_init(**kk)

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()
        if isinstance(training, int) and not isinstance(training, bool):
            training = bool(training)
        if self.rate == 0:
            from ...ops import array_ops
            return array_ops.identity(inputs)
        return _core.Dropout.call(self, inputs, training=training)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


class Flatten(Layer, _core.Flatten):
    """Flattens all axes but the first (channels_first inputs are first moved channels-last)."""

    def __init__(self, data_format=None, **kwargs):
        kk = _pop_keras_kwargs(kwargs)
        _core.Flatten.__init__(self, data_format=data_format or K.image_data_format(), **kwargs)
        self._keras_init(**kk)

    def call(self, inputs):
        from ...ops import array_ops
        if self.data_format == "channels_first" and inputs.shape.ndims and inputs.shape.ndims > 2:
            perm = [0] + list(range(2, inputs.shape.ndims)) + [1]
            inputs = array_ops.transpose(inputs, perm)
        if inputs.shape.ndims == 1:
            return array_ops.expand_dims(inputs, 1)
        return _core.Flatten.call(self, inputs)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        rest = dims[1:]
        n = None if any(d is None for d in rest) else int(__import__("numpy").prod(rest))
        return TensorShape([dims[0], n])


class Reshape(Layer):
    """Reshapes to (batch,) + target_shape (one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        out = list(self.target_shape)
        if -1 in out:
            known = 1
            for d in out:
                if d != -1:
                    known *= d
            rest = dims[1:]
            if any(d is None for d in rest):
                out[out.index(-1)] = None
            else:
                total = int(__import__("numpy").prod(rest))
                if total % known:
                    raise ValueError("total size of new array must be unchanged, "
                                     f"input_shape = {rest}, output_shape = {list(self.target_shape)}")
                out[out.index(-1)] = total // known
        elif dims[1:] and all(d is not None for d in dims[1:]):
            import numpy as np
            if int(np.prod(dims[1:])) != int(np.prod(out)):
                raise ValueError("total size of new array must be unchanged, "
                                 f"input_shape = {dims[1:]}, output_shape = {list(self.target_shape)}")
        return TensorShape([dims[0]] + out)

    def call(self, inputs):
        from ...ops import array_ops
        shape = array_ops.stack([array_ops.shape(inputs)[0]] + list(self.target_shape))
        out = array_ops.reshape(inputs, shape)
        out.set_shape(self.compute_output_shape(inputs.shape))
        return out


class Permute(Layer):
    """Permutes the non-batch axes: dims is 1-based, e.g. (2, 1)."""

    _masking = True


    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set of "
                             "indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={dims}")

    def call(self, inputs):
        from ...ops import array_ops
        return array_ops.transpose(inputs, perm=(0,) + self.dims)


class RepeatVector(Layer):
    """[batch, features] -> [batch, n, features]."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = int(n)

    def call(self, inputs):
        from ...ops import array_ops
        x = array_ops.expand_dims(inputs, 1)
        return array_ops.tile(x, array_ops.stack([1, self.n, 1]))


class Lambda(Layer):
    """Wraps a function of tensors as a layer (no weights)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape
        import inspect
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_takes_training = "training" in params

    def call(self, inputs, training=None):
        kwargs = dict(self.arguments)
        if self._fn_takes_training:
            kwargs["training"] = training
        out = self.function(inputs, **kwargs)
        return out

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            raise NotImplementedError("Lambda.compute_output_shape without output_shape")
        if callable(self._output_shape):
            return TensorShape(self._output_shape(input_shape))
        return TensorShape([TensorShape(input_shape).as_list()[0]] + list(self._output_shape))


_ = Tensor


class Masking(Layer):
    """Masks the time steps whose features all equal `mask_value`: zeros them and gives the
    output a mask ([batch, steps], True where kept) that RNN layers honour."""

    _masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def compute_mask(self, inputs, mask=None):
        from ...ops import math_ops
        return math_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        from ...ops import math_ops
        keep = math_ops.reduce_any(math_ops.not_equal(inputs, self.mask_value), axis=-1,
                                   keepdims=True)
        return inputs * math_ops.cast(keep, inputs.dtype.base_dtype)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)



class Identity(Layer):
    """Returns its input unchanged (an Identity op), masks included."""

    _masking = True

    def call(self, inputs):
        from ...ops import array_ops
        return array_ops.identity(inputs)
