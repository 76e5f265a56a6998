"""keras regularization layers that act only in training: GaussianNoise, GaussianDropout,
AlphaDropout, SpatialDropout1D/2D/3D (a whole channel dropped at once) and
ActivityRegularization (an L1/L2 penalty on the outputs). Outside training they return their
input; `training` defaults to the learning phase (a `tf.cond` on "keras_learning_phase")."""

import numpy as np

from ...framework.tensor_shape import TensorShape
from .. import backend as K, regularizers
from ..engine import InputSpec, Layer
from .core import Dropout

__all__ = ["GaussianNoise", "GaussianDropout", "AlphaDropout", "SpatialDropout1D",
           "SpatialDropout2D", "SpatialDropout3D", "ActivityRegularization"]


def _ops():
    from ...ops import array_ops, math_ops
    return array_ops, math_ops


class _Noise(Layer):
    _masking = True

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


class GaussianNoise(_Noise):
    """Adds zero-mean Gaussian noise of standard deviation `stddev` in training."""

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.stddev = stddev
        self.seed = seed

    def call(self, inputs, training=None):
        def noised():
            return inputs + K.random_normal(shape=_ops()[0].shape(inputs), mean=0.0,
                                            stddev=self.stddev, dtype=inputs.dtype,
                                            seed=self.seed)
        return K.in_train_phase(noised, inputs, training=training)

    def get_config(self):
        return {**Layer.get_config(self), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(_Noise):
    """Multiplies by 1-centred Gaussian noise of stddev sqrt(rate / (1 - rate)) in training."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate
        self.seed = seed

    def call(self, inputs, training=None):
        if 0 < self.rate < 1:
            def noised():
                stddev = np.sqrt(self.rate / (1.0 - self.rate))
                return inputs * K.random_normal(shape=_ops()[0].shape(inputs), mean=1.0,
                                                stddev=stddev, dtype=inputs.dtype, seed=self.seed)
            return K.in_train_phase(noised, inputs, training=training)
        return inputs

    def get_config(self):
        return {**Layer.get_config(self), "rate": self.rate, "seed": self.seed}


class AlphaDropout(_Noise):
    """Dropout that keeps SELU activations' mean and variance: dropped units are set to
    -alpha * scale, then an affine correction a * x + b is applied (training only)."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def _get_noise_shape(self, inputs):
        return self.noise_shape if self.noise_shape else _ops()[0].shape(inputs)

    def call(self, inputs, training=None):
        if 0.0 < self.rate < 1.0:
            noise_shape = self._get_noise_shape(inputs)

            def dropped_inputs(inputs=inputs, rate=self.rate, seed=self.seed):
                a_ops, m = _ops()
                alpha = 1.6732632423543772848170429916717
                scale = 1.0507009873554804934193349852946
                alpha_p = -alpha * scale
                kept_idx = m.greater_equal(K.random_uniform(noise_shape, seed=seed), rate)
                kept_idx = m.cast(kept_idx, inputs.dtype)
                a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
                b = -a * alpha_p * rate
                x = inputs * kept_idx + alpha_p * (1 - kept_idx)
                return a * x + b
            return K.in_train_phase(dropped_inputs, inputs, training=training)
        return inputs

    def get_config(self):
        return {**Layer.get_config(self), "rate": self.rate, "seed": self.seed}


class _SpatialDropout(Dropout):
    _rank = 1

    def __init__(self, rate, data_format=None, **kwargs):
        super().__init__(rate, **kwargs)
        self.data_format = data_format or K.image_data_format()
        if self.data_format not in ("channels_last", "channels_first"):
            raise ValueError('`data_format` must be "channels_last" or "channels_first". '
                             f"Received: data_format={data_format}.")
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _get_noise_shape(self, inputs):
        s = _ops()[0].shape(inputs)
        ones = [1] * self._rank
        if self._rank == 1:
            return (s[0], 1, s[2])
        if self.data_format == "channels_first":
            return tuple([s[0], s[1]] + ones)
        return tuple([s[0]] + ones + [s[self._rank + 1]])

    def call(self, inputs, training=None):
        from ...ops import nn_ops
        if training is None:
            training = K.learning_phase()
        noise_shape = self._get_noise_shape(inputs)

        def dropped():
            return nn_ops.dropout(inputs, noise_shape=_ops()[0].stack(list(noise_shape)),
                                  seed=self.seed, rate=self.rate)
        return K.in_train_phase(dropped, inputs, training=training)


class SpatialDropout1D(_SpatialDropout):
    """Drops whole feature maps of a [batch, steps, channels] input."""

    _rank = 1

    def __init__(self, rate, **kwargs):
        super().__init__(rate, **kwargs)
        self.input_spec = InputSpec(ndim=3)


class SpatialDropout2D(_SpatialDropout):
    """Drops whole 2-D feature maps (channels)."""

    _rank = 2


class SpatialDropout3D(_SpatialDropout):
    """Drops whole 3-D feature maps (channels)."""

    _rank = 3


class ActivityRegularization(_Noise):
    """The identity, adding an L1/L2 penalty of its outputs to the model's losses."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1 = l1
        self.l2 = l2

    def call(self, inputs):
        return inputs

    def get_config(self):
        return {**Layer.get_config(self), "l1": self.l1, "l2": self.l2}
