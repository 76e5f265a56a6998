"""Pooling layers: `MaxPooling2D` / `max_pooling2d` and `AveragePooling2D` /
`average_pooling2d` (ops "<name>/MaxPool", "<name>/AvgPool"; no variables)."""

from ..framework.tensor_shape import TensorShape
from .base import InputSpec, Layer
from .convolutional import _data_format, _padding, _tuple, conv_output_length

__all__ = ["MaxPooling2D", "max_pooling2d", "AveragePooling2D", "average_pooling2d", "MaxPool2D",
           "AvgPool2D"]


class _Pooling2D(Layer):
    _op = None

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None,
                 **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = _tuple(pool_size, 2, "pool_size")
        self.strides = _tuple(strides if strides is not None else pool_size, 2, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.input_spec = InputSpec(ndim=4)

    def call(self, inputs):
        from ..ops import pooling_ops
        fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
        fn = pooling_ops.max_pool if self._op == "MaxPool" else pooling_ops.avg_pool
        return fn(inputs, list(self.pool_size), list(self.strides), self.padding.upper(),
                  data_format=fmt, name=self._op)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        hi, wi = (1, 2) if self.data_format == "channels_last" else (2, 3)
        dims[hi] = conv_output_length(dims[hi], self.pool_size[0], self.padding, self.strides[0])
        dims[wi] = conv_output_length(dims[wi], self.pool_size[1], self.padding, self.strides[1])
        return TensorShape(dims)

    def get_config(self):
        config = super().get_config()
        config.update(pool_size=self.pool_size, strides=self.strides, padding=self.padding,
                      data_format=self.data_format)
        return config


class MaxPooling2D(_Pooling2D):
    """Max pooling over pool_size windows, `strides` apart."""
    _op = "MaxPool"


class AveragePooling2D(_Pooling2D):
    """Average pooling over pool_size windows, `strides` apart."""
    _op = "AvgPool"


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Functional form of `MaxPooling2D`."""
    return MaxPooling2D(pool_size, strides, padding=padding, data_format=data_format, name=name)(inputs)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
    """Functional form of `AveragePooling2D`."""
    return AveragePooling2D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name)(inputs)


MaxPool2D = MaxPooling2D
AvgPool2D = AveragePooling2D
