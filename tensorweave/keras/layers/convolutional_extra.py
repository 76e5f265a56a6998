"""More keras convolutions and poolings: Conv3D / Conv3DTranspose / SeparableConv1D /
MaxPooling3D / AveragePooling3D (tf.layers' implementations under keras naming and defaults),
Conv1DTranspose (`tf.nn.conv1d_transpose` with the output length computed from
`tf.shape(inputs)`), DepthwiseConv2D / DepthwiseConv1D ("depthwise_kernel" of shape
kernel_size + (in_channels, depth_multiplier)) and the 3-D global poolings."""

from ...framework.tensor_shape import TensorShape
from ...layers import convolutional3d as _conv3d, convolutional_extra as _conv_x
from ...layers.convolutional import _tuple, conv_output_length
from .. import activations, backend as K, constraints, initializers, regularizers
from ..engine import InputSpec, Layer, _pop_keras_kwargs
from .convolutional import _GlobalPooling, _keras_conv, _keras_pool

__all__ = ["Conv3D", "Convolution3D", "Conv3DTranspose", "Convolution3DTranspose",
           "Conv1DTranspose", "Convolution1DTranspose", "SeparableConv1D",
           "SeparableConvolution1D", "DepthwiseConv2D", "DepthwiseConv1D", "MaxPooling3D",
           "AveragePooling3D", "MaxPool3D", "AvgPool3D", "GlobalAveragePooling3D",
           "GlobalMaxPooling3D", "GlobalAvgPool3D", "GlobalMaxPool3D"]


class Conv3D(_keras_conv(_conv3d.Conv3D, (1, 1, 1), (1, 1, 1))):
    """3-D convolution over [batch, depth, height, width, channels]."""


class Conv3DTranspose(_keras_conv(_conv3d.Conv3DTranspose, (1, 1, 1), None)):
    """Transposed 3-D convolution."""

    def __init__(self, filters, kernel_size, strides=(1, 1, 1), padding="valid",
                 output_padding=None, data_format=None, dilation_rate=(1, 1, 1), **kwargs):
        if output_padding is not None:
            raise NotImplementedError("Conv3DTranspose(output_padding=...) is not supported by "
                                      "tensorweave yet")
        if _tuple(dilation_rate, 3, "dilation_rate") != (1, 1, 1):
            raise NotImplementedError("Conv3DTranspose(dilation_rate != 1) is not supported by "
                                      "tensorweave yet")
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, **kwargs)
        self.output_padding = None


Convolution3D, Convolution3DTranspose = Conv3D, Conv3DTranspose


def _deconv_length(size, k, padding, output_padding, stride, dilation):
    """TF's conv_utils.deconv_output_length (works on ints and on scalar tensors)."""
    k = k + (k - 1) * (dilation - 1)
    if output_padding is None:
        if padding == "valid":
            return size * stride + max(k - stride, 0)
        if padding == "full":
            return size * stride - (stride + k - 2)
        return size * stride
    pad = {"same": k // 2, "valid": 0, "full": k - 1}[padding]
    return (size - 1) * stride + k - 2 * pad + output_padding


class Conv1DTranspose(_keras_conv(_conv_x.Conv1D, 1, 1)):
    """Transposed 1-D convolution: kernel [kernel_size, filters, in_channels]."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate, **kwargs)
        self.output_padding = None if output_padding is None else \
            _tuple(output_padding, 1, "output_padding")
        if self.output_padding is not None and self.output_padding[0] >= self.strides[0]:
            raise ValueError(f"Strides {self.strides} must be greater than output padding "
                             f"{self.output_padding}. Received: output_padding="
                             f"{self.output_padding}")

    def _kernel_shape(self, in_channels):
        return list(self.kernel_size) + [self.filters, in_channels]

    def call(self, inputs):
        from ...ops import array_ops, nn_extra2
        shape = array_ops.shape(inputs)
        t_axis = 1 if self.data_format == "channels_last" else 2
        op = None if self.output_padding is None else self.output_padding[0]
        length = _deconv_length(shape[t_axis], self.kernel_size[0], self.padding, op,
                                self.strides[0], self.dilation_rate[0])
        out_shape = (shape[0], length, self.filters) if t_axis == 1 else \
            (shape[0], self.filters, length)
        outputs = nn_extra2.conv1d_transpose(
            inputs, self.kernel, array_ops.stack(list(out_shape)), strides=list(self.strides),
            padding=self.padding.upper(), data_format="NWC" if t_axis == 1 else "NCW",
            dilations=list(self.dilation_rate))
        outputs.set_shape(self.compute_output_shape(inputs.shape))
        return self._finish(outputs)

    def _fmt(self):
        return "NWC" if self.data_format == "channels_last" else "NCW"

    def _finish(self, outputs):
        from ...ops import nn_ops
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias,
                                      data_format="NHWC" if self._fmt() == "NWC" else "NCHW")
        return self.activation(outputs) if self.activation is not None else outputs

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        t_axis, c_axis = (1, 2) if self.data_format == "channels_last" else (2, 1)
        op = None if self.output_padding is None else self.output_padding[0]
        if dims[t_axis] is not None:
            dims[t_axis] = _deconv_length(dims[t_axis], self.kernel_size[0], self.padding, op,
                                          self.strides[0], self.dilation_rate[0])
        dims[c_axis] = self.filters
        return TensorShape(dims)


Convolution1DTranspose = Conv1DTranspose


class SeparableConv1D(Layer, _conv_x.SeparableConv1D):
    """Depthwise then pointwise 1-D convolution."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None, pointwise_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                 pointwise_constraint=None, bias_constraint=None, **kwargs):
        kk = _pop_keras_kwargs(kwargs)
        _conv_x.SeparableConv1D.__init__(
            self, filters, kernel_size, strides=strides, padding=padding,
            data_format=data_format or K.image_data_format(), dilation_rate=dilation_rate,
            depth_multiplier=depth_multiplier, activation=activations.get(activation),
            use_bias=use_bias, depthwise_initializer=initializers.get(depthwise_initializer),
            pointwise_initializer=initializers.get(pointwise_initializer),
            bias_initializer=initializers.get(bias_initializer),
            depthwise_regularizer=regularizers.get(depthwise_regularizer),
            pointwise_regularizer=regularizers.get(pointwise_regularizer),
            bias_regularizer=regularizers.get(bias_regularizer),
            activity_regularizer=regularizers.get(activity_regularizer),
            depthwise_constraint=constraints.get(depthwise_constraint),
            pointwise_constraint=constraints.get(pointwise_constraint),
            bias_constraint=constraints.get(bias_constraint), **kwargs)
        self._keras_init(**kk)


SeparableConvolution1D = SeparableConv1D


class DepthwiseConv2D(Layer):
    """Depthwise 2-D convolution: each input channel convolved with its own `depth_multiplier`
    filters (`tf.nn.depthwise_conv2d`), then bias and activation."""

    _rank = 2

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        n = self._rank
        self.kernel_size = _tuple(kernel_size, n, "kernel_size")
        self.strides = _tuple(strides, n, "strides")
        self.padding = str(padding).lower()
        if self.padding not in ("valid", "same"):
            raise ValueError("The `padding` argument must be a list/tuple or one of \"valid\", "
                             f"\"same\" (or \"causal\", only for `Conv1D). Received: {padding}.")
        self.data_format = data_format or K.image_data_format()
        self.dilation_rate = _tuple(dilation_rate, n, "dilation_rate")
        self.depth_multiplier = int(depth_multiplier)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.depthwise_constraint = constraints.get(depthwise_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=n + 2)

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        if len(dims) != self._rank + 2:
            raise ValueError(f"Inputs to `DepthwiseConv{self._rank}D` should have rank "
                             f"{self._rank + 2}. Received input_shape={tuple(dims)}.")
        c = dims[self._channel_axis()]
        if c is None:
            raise ValueError("The channel dimension of the inputs to `DepthwiseConv"
                             f"{self._rank}D` should be defined. The input_shape received is "
                             f"{tuple(dims)}, where axis {self._channel_axis()} (0-based) is the "
                             "channel dimension, which found to be `None`.")
        self.depthwise_kernel = self.add_weight(
            shape=list(self.kernel_size) + [c, self.depth_multiplier],
            initializer=self.depthwise_initializer, name="depthwise_kernel",
            regularizer=self.depthwise_regularizer, constraint=self.depthwise_constraint)
        self.bias = self.add_weight(shape=(c * self.depth_multiplier,),
                                    initializer=self.bias_initializer, name="bias",
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.input_spec = InputSpec(ndim=self._rank + 2, axes={self._channel_axis(): c})
        self.built = True

    def _depthwise(self, inputs, kernel, strides, dilations):
        from ...ops import array_ops, conv_ops
        first = self.data_format == "channels_first"
        if first:   # as K.depthwise_conv2d on CPU: NCHW is computed as NHWC
            inputs = array_ops.transpose(inputs, (0, 2, 3, 1))
        out = conv_ops.depthwise_conv2d(inputs, kernel, strides=[1] + list(strides) + [1],
                                        padding=self.padding.upper(), dilations=list(dilations),
                                        data_format="NHWC")
        if first:
            out = array_ops.transpose(out, (0, 3, 1, 2))
        return out

    def call(self, inputs):
        outputs = self._depthwise(inputs, self.depthwise_kernel, self.strides, self.dilation_rate)
        return self._finish(outputs)

    def _finish(self, outputs):
        from ...ops import nn_ops
        if self.use_bias:
            fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
            outputs = nn_ops.bias_add(outputs, self.bias, data_format=fmt)
        return self.activation(outputs) if self.activation is not None else outputs

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        first = 1 if self.data_format == "channels_last" else 2
        for i in range(self._rank):
            dims[first + i] = conv_output_length(dims[first + i], self.kernel_size[i],
                                                 self.padding, self.strides[i],
                                                 self.dilation_rate[i])
        c = dims[self._channel_axis()]
        dims[self._channel_axis()] = None if c is None else c * self.depth_multiplier
        return TensorShape(dims)

    def get_config(self):
        from .. import layer_configs
        s = layer_configs.serialize_object
        return {**Layer.get_config(self), "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                "groups": 1, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "bias_regularizer": s(self.bias_regularizer),
                "activity_regularizer": s(self._activity_regularizer),
                "bias_constraint": s(self.bias_constraint),
                "depth_multiplier": self.depth_multiplier,
                "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                "depthwise_regularizer": s(self.depthwise_regularizer),
                "depthwise_constraint": s(self.depthwise_constraint)}


class DepthwiseConv1D(DepthwiseConv2D):
    """Depthwise 1-D convolution (a DepthwiseConv2D over a size-1 height)."""

    _rank = 1

    def call(self, inputs):
        from ...ops import array_ops
        spatial = 1 if self.data_format == "channels_last" else 2
        x = array_ops.expand_dims(inputs, spatial)
        kernel = array_ops.expand_dims(self.depthwise_kernel, 0)
        out = self._depthwise(x, kernel, (1,) + self.strides, (1,) + self.dilation_rate)
        if self.use_bias:   # as TF: bias on the 4-D output, squeeze, then the activation
            from ...ops import nn_ops
            fmt = "NHWC" if self.data_format == "channels_last" else "NCHW"
            out = nn_ops.bias_add(out, self.bias, data_format=fmt)
        out = array_ops.squeeze(out, [spatial])
        return self.activation(out) if self.activation is not None else out


class MaxPooling3D(_keras_pool(_conv3d.MaxPooling3D, (2, 2, 2))):
    """Max over pool_size volumes (default 2x2x2), `strides` (default pool_size) apart."""


class AveragePooling3D(_keras_pool(_conv3d.AveragePooling3D, (2, 2, 2))):
    """Mean over pool_size volumes (default 2x2x2), `strides` (default pool_size) apart."""


MaxPool3D, AvgPool3D = MaxPooling3D, AveragePooling3D


class GlobalAveragePooling3D(_GlobalPooling):
    """Mean over the three spatial axes."""
    _rank, _reduce = 3, "mean"


class GlobalMaxPooling3D(_GlobalPooling):
    """Max over the three spatial axes."""
    _rank, _reduce = 3, "max"


GlobalAvgPool3D, GlobalMaxPool3D = GlobalAveragePooling3D, GlobalMaxPooling3D
