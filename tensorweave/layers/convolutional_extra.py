"""Conv1D / conv1d, SeparableConv1D / separable_conv1d and SeparableConv2D / separable_conv2d,
built as TF's legacy tf.layers build them:

- Conv1D: kernel [width, in, filters]; tf.nn.convolution on "NWC"/"NCW" (an expanded conv2d named
  "<name>/Conv1D/..."), then "<name>/BiasAdd" (channels_first: a reshaped bias added, "add");
  padding "causal" pads (kernel - 1) * dilation on the left and convolves "valid".
- SeparableConv2D: "<name>/depthwise_kernel" [kh, kw, in, depth_multiplier],
  "<name>/pointwise_kernel" [1, 1, in * depth_multiplier, filters], "<name>/bias"; ops
  "<name>/separable_conv2d/depthwise", "<name>/separable_conv2d", "<name>/BiasAdd".
- SeparableConv1D: the same with a size-1 height expanded in and squeezed out ("<name>/Squeeze").
"""

from ..framework.tensor_shape import TensorShape
from .base import InputSpec, Layer, _activation
from .convolutional import Conv2D, _data_format, _tuple, _zeros, conv_output_length

__all__ = ["Conv1D", "conv1d", "SeparableConv1D", "separable_conv1d", "SeparableConv2D",
           "separable_conv2d", "Convolution1D", "SeparableConvolution1D",
           "SeparableConvolution2D"]


def _padding(padding, causal_ok=False):
    p = padding.lower() if isinstance(padding, str) else padding
    if p not in ("valid", "same") and not (causal_ok and p == "causal"):
        raise ValueError(f"The `padding` argument must be a list/tuple or one of \"valid\", \"same\" "
                         f"(or \"causal\", only for `Conv1D). Received: {padding}")
    return p


class Conv1D(Conv2D):
    """1-D convolution layer: activation(conv1d(inputs, kernel) + bias)."""
    _rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 trainable=True, name=None, **kwargs):
        causal = isinstance(padding, str) and padding.lower() == "causal"
        super().__init__(filters, 1, strides=1, padding="valid" if causal else padding,
                         data_format=data_format, dilation_rate=1, activation=activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         trainable=trainable, name=name, **kwargs)
        if causal and self.data_format == "channels_first":
            raise ValueError("Causal padding is only supported for `Conv1D`and `SeparableConv1D`.")
        self.padding = "causal" if causal else self.padding
        self.kernel_size = _tuple(kernel_size, 1, "kernel_size")
        self.strides = _tuple(strides, 1, "strides")
        self.dilation_rate = _tuple(dilation_rate, 1, "dilation_rate")
        self.input_spec = InputSpec(min_ndim=3)

    def _causal_pad(self, inputs):
        from ..ops import array_ops
        left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
        return array_ops.pad(inputs, [[0, 0], [left, 0], [0, 0]])

    def call(self, inputs):
        from ..ops import array_ops, conv_ops, nn_ops
        input_shape = inputs.shape
        if self.padding == "causal":
            inputs = self._causal_pad(inputs)
        pad = "VALID" if self.padding == "causal" else self.padding.upper()
        fmt = "NWC" if self.data_format == "channels_last" else "NCW"
        outputs = conv_ops.convolution(inputs, self.kernel, pad, strides=list(self.strides),
                                       dilation_rate=list(self.dilation_rate), data_format=fmt,
                                       name="Conv1D")
        if self.use_bias:
            if self.data_format == "channels_first":
                outputs += array_ops.reshape(self.bias, (1, self.filters, 1))
            else:
                outputs = nn_ops.bias_add(outputs, self.bias, data_format="NHWC")
        if input_shape.ndims:
            outputs.set_shape(self.compute_output_shape(input_shape))
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        wi = 1 if self.data_format == "channels_last" else 2
        out = list(dims)
        pad = "valid" if self.padding == "causal" else self.padding
        size = dims[wi]
        if self.padding == "causal" and size is not None:
            size += self.dilation_rate[0] * (self.kernel_size[0] - 1)
        out[wi] = conv_output_length(size, self.kernel_size[0], pad, self.strides[0],
                                     self.dilation_rate[0])
        out[self._channel_axis()] = self.filters
        return TensorShape(out)


def conv1d(inputs, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
           dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
           activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
           name=None, reuse=None):
    """Functional form of `Conv1D` (variables "conv1d/kernel", "conv1d/bias", ...)."""
    layer = Conv1D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                   dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                   kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                   kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                   activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name,
                   _reuse=reuse)
    return layer(inputs)


class _SeparableConv(Layer):
    _rank = 2

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer=None, pointwise_initializer=None, bias_initializer=None,
                 depthwise_regularizer=None, pointwise_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, depthwise_constraint=None, pointwise_constraint=None,
                 bias_constraint=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer,
                         **kwargs)
        n = self._rank
        self.filters = int(filters)
        self.kernel_size = _tuple(kernel_size, n, "kernel_size")
        self.strides = _tuple(strides, n, "strides")
        self.padding = _padding(padding, causal_ok=(n == 1))
        self.data_format = _data_format(data_format)
        self.dilation_rate = _tuple(dilation_rate, n, "dilation_rate")
        self.depth_multiplier = int(depth_multiplier)
        self.activation = _activation(activation)
        self.use_bias = use_bias
        self.depthwise_initializer = depthwise_initializer
        self.pointwise_initializer = pointwise_initializer
        self.bias_initializer = bias_initializer if bias_initializer is not None else _zeros()
        self.depthwise_regularizer = depthwise_regularizer
        self.pointwise_regularizer = pointwise_regularizer
        self.bias_regularizer = bias_regularizer
        self.depthwise_constraint = depthwise_constraint
        self.pointwise_constraint = pointwise_constraint
        self.bias_constraint = bias_constraint
        self.depthwise_kernel = self.pointwise_kernel = self.bias = None
        self.input_spec = InputSpec(min_ndim=n + 2)

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        c = input_shape.as_list()[self._channel_axis()] if input_shape.ndims else None
        if c is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
        self.input_spec = InputSpec(ndim=self._rank + 2, axes={self._channel_axis(): c})
        self.depthwise_kernel = self.add_weight(
            "depthwise_kernel", shape=list(self.kernel_size) + [c, self.depth_multiplier],
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            constraint=self.depthwise_constraint, dtype=self._dtype, trainable=True)
        self.pointwise_kernel = self.add_weight(
            "pointwise_kernel", shape=[1] * self._rank + [c * self.depth_multiplier, self.filters],
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint, dtype=self._dtype, trainable=True)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.filters],
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, dtype=self._dtype,
                                        trainable=True)
        self.built = True

    def _fmt(self):
        return "NHWC" if self.data_format == "channels_last" else "NCHW"

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        first = 1 if self.data_format == "channels_last" else 2
        out = list(dims)
        for i in range(self._rank):
            size = dims[first + i]
            pad = self.padding
            if pad == "causal":
                pad = "valid"
                if size is not None:
                    size += self.dilation_rate[i] * (self.kernel_size[i] - 1)
            out[first + i] = conv_output_length(size, self.kernel_size[i], pad, self.strides[i],
                                                self.dilation_rate[i])
        out[self._channel_axis()] = self.filters
        return TensorShape(out)


class SeparableConv2D(_SeparableConv):
    """Depthwise-separable 2-D convolution: a depthwise convolution (depth_multiplier outputs per
    input channel) followed by a 1x1 convolution to `filters` channels."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid",
                 data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         depth_multiplier=depth_multiplier, **kwargs)

    def call(self, inputs):
        from ..ops import conv_ops, nn_ops
        if self.data_format == "channels_last":
            strides = (1,) + self.strides + (1,)
        else:
            strides = (1, 1) + self.strides
        outputs = conv_ops.separable_conv2d(inputs, self.depthwise_kernel, self.pointwise_kernel,
                                            strides=list(strides), padding=self.padding.upper(),
                                            rate=list(self.dilation_rate), data_format=self._fmt())
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format=self._fmt())
        if self.activation is not None:
            return self.activation(outputs)
        return outputs


class SeparableConv1D(_SeparableConv):
    """Depthwise-separable 1-D convolution (a SeparableConv2D over a size-1 height)."""
    _rank = 1

    def call(self, inputs):
        from ..ops import array_ops, conv_ops, nn_ops
        if self.padding == "causal":
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            inputs = array_ops.pad(inputs, [[0, 0], [left, 0], [0, 0]])
        if self.data_format == "channels_last":
            strides, spatial_start = (1,) + self.strides * 2 + (1,), 1
        else:
            strides, spatial_start = (1, 1) + self.strides * 2, 2
        inputs = array_ops.expand_dims(inputs, spatial_start)
        dw = array_ops.expand_dims(self.depthwise_kernel, 0)
        pw = array_ops.expand_dims(self.pointwise_kernel, 0)
        pad = "VALID" if self.padding == "causal" else self.padding.upper()
        outputs = conv_ops.separable_conv2d(inputs, dw, pw, strides=list(strides), padding=pad,
                                            rate=[1] + list(self.dilation_rate),
                                            data_format=self._fmt())
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format=self._fmt())
        outputs = array_ops.squeeze(outputs, [spatial_start])
        if self.activation is not None:
            return self.activation(outputs)
        return outputs


def _separable(cls, inputs, filters, kernel_size, strides, padding, data_format, dilation_rate,
               depth_multiplier, activation, use_bias, depthwise_initializer, pointwise_initializer,
               bias_initializer, depthwise_regularizer, pointwise_regularizer, bias_regularizer,
               activity_regularizer, depthwise_constraint, pointwise_constraint, bias_constraint,
               trainable, name, reuse):
    layer = cls(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                dilation_rate=dilation_rate, depth_multiplier=depth_multiplier,
                activation=activation, use_bias=use_bias,
                depthwise_initializer=depthwise_initializer,
                pointwise_initializer=pointwise_initializer, bias_initializer=bias_initializer,
                depthwise_regularizer=depthwise_regularizer,
                pointwise_regularizer=pointwise_regularizer, bias_regularizer=bias_regularizer,
                activity_regularizer=activity_regularizer,
                depthwise_constraint=depthwise_constraint,
                pointwise_constraint=pointwise_constraint, bias_constraint=bias_constraint,
                trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


def separable_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", dilation_rate=(1, 1), depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=None,
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """Functional form of `SeparableConv2D`."""
    return _separable(SeparableConv2D, inputs, filters, kernel_size, strides, padding,
                      data_format, dilation_rate, depth_multiplier, activation, use_bias,
                      depthwise_initializer, pointwise_initializer, bias_initializer,
                      depthwise_regularizer, pointwise_regularizer, bias_regularizer,
                      activity_regularizer, depthwise_constraint, pointwise_constraint,
                      bias_constraint, trainable, name, reuse)


def separable_conv1d(inputs, filters, kernel_size, strides=1, padding="valid",
                     data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                     activation=None, use_bias=True, depthwise_initializer=None,
                     pointwise_initializer=None, bias_initializer=None,
                     depthwise_regularizer=None, pointwise_regularizer=None,
                     bias_regularizer=None, activity_regularizer=None, depthwise_constraint=None,
                     pointwise_constraint=None, bias_constraint=None, trainable=True, name=None,
                     reuse=None):
    """Functional form of `SeparableConv1D`."""
    return _separable(SeparableConv1D, inputs, filters, kernel_size, strides, padding,
                      data_format, dilation_rate, depth_multiplier, activation, use_bias,
                      depthwise_initializer, pointwise_initializer, bias_initializer,
                      depthwise_regularizer, pointwise_regularizer, bias_regularizer,
                      activity_regularizer, depthwise_constraint, pointwise_constraint,
                      bias_constraint, trainable, name, reuse)


Convolution1D = Conv1D
SeparableConvolution1D = SeparableConv1D
SeparableConvolution2D = SeparableConv2D
