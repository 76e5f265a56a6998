"""3-D convolution and pooling layers, as TF's legacy tf.layers build them:

- Conv3D / conv3d: "<name>/kernel" [kd, kh, kw, in, filters], "<name>/bias" [filters] (zeros);
  ops "<name>/Conv3D", "<name>/BiasAdd", then the activation ("<name>/Relu").
- Conv3DTranspose / conv3d_transpose: kernel [kd, kh, kw, filters, in]; the output size is
  computed from tf.shape(inputs) ("<name>/Shape", "strided_slice", "mul", "add", "stack"), then
  "<name>/conv3d_transpose" (Conv3DBackpropInputV2) and "<name>/BiasAdd".
- MaxPooling3D / AveragePooling3D: "<name>/MaxPool3D" / "<name>/AvgPool3D"; channels_first
  inputs are transposed to channels_last and back ("<name>/transpose", "<name>/transpose_1").

Padding is "valid" or "same"; data_format "channels_last" (NDHWC) or "channels_first" (NCDHW).
"""

from ..framework.tensor_shape import TensorShape
from .base import InputSpec
from .convolutional import Conv2D, _tuple, conv_output_length, deconv_output_length
from .pooling import _Pooling

__all__ = ["Conv3D", "conv3d", "Conv3DTranspose", "conv3d_transpose", "Convolution3D",
           "Convolution3DTranspose", "MaxPooling3D", "max_pooling3d", "AveragePooling3D",
           "average_pooling3d", "MaxPool3D", "AvgPool3D"]


class Conv3D(Conv2D):
    """3-D convolution layer: activation(conv3d(inputs, kernel) + bias)."""
    _rank = 3

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1, 1), activation=None, use_bias=True,
                 kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(filters, 1, strides=1, padding=padding, data_format=data_format,
                         dilation_rate=1, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         trainable=trainable, name=name, **kwargs)
        self.kernel_size = _tuple(kernel_size, 3, "kernel_size")
        self.strides = _tuple(strides, 3, "strides")
        self.dilation_rate = _tuple(dilation_rate, 3, "dilation_rate")
        self.input_spec = InputSpec(min_ndim=5)

    def _spatial_axes(self):
        return (1, 2, 3) if self.data_format == "channels_last" else (2, 3, 4)

    def _fmt(self):
        return "NDHWC" if self.data_format == "channels_last" else "NCDHW"

    def _strides5(self, values):
        return [1, *values, 1] if self.data_format == "channels_last" else [1, 1, *values]

    def call(self, inputs):
        from ..ops import conv_ops
        outputs = conv_ops.convolution(inputs, self.kernel, self.padding.upper(), strides=list(self.strides),
                                       data_format=self._fmt(), dilations=list(self.dilation_rate),
                                       name="Conv3D")
        return self._finish(outputs)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        out = list(dims)
        for i, k, s, d in zip(self._spatial_axes(), self.kernel_size, self.strides, self.dilation_rate):
            out[i] = conv_output_length(dims[i], k, self.padding, s, d)
        out[self._channel_axis()] = self.filters
        return TensorShape(out)


def conv3d(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
           data_format="channels_last", dilation_rate=(1, 1, 1), activation=None, use_bias=True,
           kernel_initializer=None, bias_initializer=None, kernel_regularizer=None,
           bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
           bias_constraint=None, trainable=True, name=None, reuse=None):
    """Functional form of `Conv3D` (variables "conv3d/kernel", "conv3d/bias", ...)."""
    layer = Conv3D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                   dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                   kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                   kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                   activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name,
                   _reuse=reuse)
    return layer(inputs)


class Conv3DTranspose(Conv3D):
    """Transposed 3-D convolution (the gradient of Conv3D with respect to its input)."""
    _exact_rank_spec = True

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 data_format="channels_last", activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 trainable=True, name=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         trainable=trainable, name=name, **kwargs)

    def _kernel_shape(self, in_channels):
        return list(self.kernel_size) + [self.filters, in_channels]

    def call(self, inputs):
        from ..ops import array_ops, conv3d_ops
        shape = array_ops.shape(inputs)
        batch = shape[0]
        # As TF: the spatial sizes are read from tf.shape(inputs), so the output shape is a
        # tensor ("mul", "add"); the static shape is set afterwards.
        sizes = [shape[i] for i in self._spatial_axes()]
        outs = []
        for size, k, s in zip(sizes, self.kernel_size, self.strides):
            if self.padding == "valid":
                outs.append(size * s + max(k - s, 0))
            else:
                outs.append(size * s)
        if self.data_format == "channels_last":
            out_shape = array_ops.stack([batch, *outs, self.filters])
        else:
            out_shape = array_ops.stack([batch, self.filters, *outs])
        outputs = conv3d_ops.conv3d_transpose(inputs, self.kernel, out_shape,
                                              self._strides5(self.strides),
                                              padding=self.padding.upper(), data_format=self._fmt())
        outputs.set_shape(self.compute_output_shape(inputs.shape))
        return self._finish(outputs)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        out = list(dims)
        for i, k, s in zip(self._spatial_axes(), self.kernel_size, self.strides):
            out[i] = deconv_output_length(dims[i], k, self.padding, s)
        out[self._channel_axis()] = self.filters
        return TensorShape(out)


def conv3d_transpose(inputs, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True, kernel_initializer=None,
                     bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
                     activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                     trainable=True, name=None, reuse=None):
    """Functional form of `Conv3DTranspose` (variables "conv3d_transpose/kernel", ...)."""
    layer = Conv3DTranspose(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, activation=activation, use_bias=use_bias,
                            kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                            kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                            activity_regularizer=activity_regularizer,
                            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                            trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


Convolution3D = Conv3D
Convolution3DTranspose = Conv3DTranspose


class _Pooling3D(_Pooling):
    _rank = 3

    def call(self, inputs):
        from ..ops import array_ops, conv3d_ops
        fn = conv3d_ops.max_pool3d if self._op == "MaxPool3D" else conv3d_ops.avg_pool3d
        # As TF's layers: channels_first is pooled as channels_last between two transposes.
        if self.data_format == "channels_first":
            inputs = array_ops.transpose(inputs, (0, 2, 3, 4, 1))
        outputs = fn(inputs, [1, *self.pool_size, 1], [1, *self.strides, 1], self.padding.upper(),
                     name=self._op)
        if self.data_format == "channels_first":
            outputs = array_ops.transpose(outputs, (0, 4, 1, 2, 3))
        return outputs


class MaxPooling3D(_Pooling3D):
    """Max pooling over pool_size windows of [batch, depth, height, width, channels]."""
    _op = "MaxPool3D"


class AveragePooling3D(_Pooling3D):
    """Average pooling over pool_size windows of [batch, depth, height, width, channels]."""
    _op = "AvgPool3D"


def max_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Functional form of `MaxPooling3D`."""
    return MaxPooling3D(pool_size, strides, padding=padding, data_format=data_format, name=name)(inputs)


def average_pooling3d(inputs, pool_size, strides, padding="valid", data_format="channels_last",
                      name=None):
    """Functional form of `AveragePooling3D`."""
    return AveragePooling3D(pool_size, strides, padding=padding, data_format=data_format,
                            name=name)(inputs)


MaxPool3D = MaxPooling3D
AvgPool3D = AveragePooling3D
