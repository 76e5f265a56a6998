"""Convolution layers: `Conv2D` / `conv2d` and `Conv2DTranspose` / `conv2d_transpose`.

Variables as TF's legacy tf.layers make them: "<name>/kernel" ([kh, kw, in, filters] for
Conv2D, [kh, kw, filters, in] for the transpose) and "<name>/bias" ([filters], zeros), in
GLOBAL_VARIABLES and TRAINABLE_VARIABLES; ops "<name>/Conv2D", "<name>/BiasAdd", then the
activation ("<name>/Relu"). Padding is "valid" or "same"; data_format "channels_last" (NHWC) or
"channels_first" (NCHW).
"""

import numbers

from ..framework.tensor_shape import TensorShape
from .base import InputSpec, Layer, _activation, _shape_str

__all__ = ["Conv2D", "conv2d", "Conv2DTranspose", "conv2d_transpose", "Convolution2D",
           "Convolution2DTranspose", "Deconvolution2D", "Deconv2D"]


def _zeros():
    from ..ops import init_ops
    return init_ops.zeros_initializer()


def _tuple(value, n, name):
    if isinstance(value, numbers.Integral):
        return (int(value),) * n
    value = tuple(int(v) for v in value)
    if len(value) != n:
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received: {value}")
    return value


def _padding(padding):
    p = padding.lower() if isinstance(padding, str) else padding
    if p not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be a list/tuple or one of \"valid\", \"same\" "
                         f"(or \"causal\", only for `Conv1D). Received: {padding}")
    return p


def _data_format(data_format):
    f = (data_format or "channels_last").lower()
    if f not in ("channels_last", "channels_first"):
        raise ValueError(f"The `data_format` argument must be one of \"channels_first\", "
                         f"\"channels_last\". Received: {data_format}")
    return f


def conv_output_length(size, k, padding, stride, dilation=1):
    if size is None:
        return None
    eff = (k - 1) * dilation + 1
    if padding == "same":
        out = size
    else:
        out = size - eff + 1
    return (out + stride - 1) // stride


def deconv_output_length(size, k, padding, stride, output_padding=None):
    if size is None:
        return None
    if output_padding is not None:
        pad = k // 2 if padding == "same" else 0
        return (size - 1) * stride + k - 2 * pad + output_padding
    if padding == "valid":
        return size * stride + max(k - stride, 0)
    return size * stride


class Conv2D(Layer):
    """2-D convolution layer: activation(conv2d(inputs, kernel) + bias)."""
    _exact_rank_spec = False
    _rank = 2  # spatial axes (Conv1D and Conv3D change it)

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None,
                 bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
                 name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer,
                         **kwargs)
        self.filters = int(filters)
        if self.filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly positive value. "
                             f"Received filters={filters}.")
        self.kernel_size = _tuple(kernel_size, 2, "kernel_size")
        self.strides = _tuple(strides, 2, "strides")
        self.padding = _padding(padding)
        self.data_format = _data_format(data_format)
        self.dilation_rate = _tuple(dilation_rate, 2, "dilation_rate")
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
        self.input_spec = InputSpec(min_ndim=4)  # TF: min_ndim (it takes extra batch dims)

    def _channel_axis(self):
        return -1 if self.data_format == "channels_last" else 1

    def _kernel_shape(self, in_channels):
        return list(self.kernel_size) + [in_channels, self.filters]

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        c = input_shape.as_list()[self._channel_axis()] if input_shape.ndims else None
        if c is None:
            raise ValueError("The channel dimension of the inputs should be defined. The input_shape "
                             f"received is {_shape_str(input_shape)}, where axis "
                             f"{self._channel_axis()} (0-based) is the channel dimension, which "
                             "found to be `None`.")
        self.kernel = self.add_weight("kernel", shape=self._kernel_shape(c),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint, dtype=self._dtype, trainable=True)
        if self.use_bias:
            self.bias = self.add_weight("bias", shape=[self.filters], initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint, dtype=self._dtype, trainable=True)
        # TF: once built, a convolution wants at least rank + 2 dims, a transposed one exactly.
        spec_rank = {"ndim" if self._exact_rank_spec else "min_ndim": self._rank + 2}
        self.input_spec = InputSpec(axes={self._channel_axis(): c}, **spec_rank)
        self.built = True

    def _fmt(self):
        return "NHWC" if self.data_format == "channels_last" else "NCHW"

    def _finish(self, outputs, input_shape=None):
        from ..ops import nn_ops
        if self.use_bias:
            outputs = nn_ops.bias_add(outputs, self.bias, data_format=self._fmt())
        if input_shape is not None and input_shape.ndims:
            # as Keras' Conv.call in graph mode: the static shape from compute_output_shape
            # (a dilated convolution's SpaceToBatchND loses the batch dimension)
            outputs.set_shape(self.compute_output_shape(input_shape))
        if self.activation is not None:
            return self.activation(outputs)
        return outputs

    def call(self, inputs):
        from ..ops import conv_ops
        # tf.nn.convolution, as TF's layer: a dilated kernel runs between SpaceToBatchND and
        # BatchToSpaceND ("conv2d/Conv2D/BatchToSpaceND")
        outputs = conv_ops.convolution(inputs, self.kernel, self.padding.upper(), strides=list(self.strides),
                                       data_format=self._fmt(), dilations=list(self.dilation_rate),
                                       name="Conv2D")
        return self._finish(outputs, inputs.shape)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        hi, wi = (1, 2) if self.data_format == "channels_last" else (2, 3)
        out = list(dims)
        for i, k, s, d in ((hi, self.kernel_size[0], self.strides[0], self.dilation_rate[0]),
                           (wi, self.kernel_size[1], self.strides[1], self.dilation_rate[1])):
            out[i] = conv_output_length(dims[i], k, self.padding, s, d)
        out[self._channel_axis()] = self.filters
        return TensorShape(out)

    def get_config(self):
        config = super().get_config()
        config.update(filters=self.filters, kernel_size=self.kernel_size, strides=self.strides,
                      padding=self.padding, data_format=self.data_format,
                      dilation_rate=self.dilation_rate, activation=self.activation,
                      use_bias=self.use_bias)
        return config


def conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
           dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None,
           bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
           activity_regularizer=None, kernel_constraint=None, bias_constraint=None, trainable=True,
           name=None, reuse=None):
    """Functional form of `Conv2D` (variables "conv2d/kernel", "conv2d/bias", ...)."""
    layer = Conv2D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                   dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                   kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                   kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                   activity_regularizer=activity_regularizer, kernel_constraint=kernel_constraint,
                   bias_constraint=bias_constraint, trainable=trainable, name=name, _scope=name,
                   _reuse=reuse)
    return layer(inputs)


class Conv2DTranspose(Conv2D):
    """Transposed 2-D convolution (the gradient of Conv2D with respect to its input)."""
    _exact_rank_spec = True

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
                 activation=None, use_bias=True, kernel_initializer=None, bias_initializer=None,
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, trainable=True, name=None, **kwargs):
        output_padding = kwargs.pop("output_padding", None)   # (Keras' argument, via **kwargs)
        super().__init__(filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
                         activation=activation, use_bias=use_bias, kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                         trainable=trainable, name=name, **kwargs)
        self.output_padding = output_padding
        if output_padding is not None:
            self.output_padding = _tuple(output_padding, 2, "output_padding")
            for stride, out_pad in zip(self.strides, self.output_padding):
                if out_pad >= stride:
                    raise ValueError("Strides must be greater than output padding. "
                                     f"Received strides={self.strides}, "
                                     f"output_padding={self.output_padding}.")

    def _kernel_shape(self, in_channels):
        return list(self.kernel_size) + [self.filters, in_channels]

    def call(self, inputs):
        from ..ops import array_ops, conv_ops
        shape = array_ops.shape(inputs)
        batch = shape[0]
        hi, wi = (1, 2) if self.data_format == "channels_last" else (2, 3)
        dims = inputs.shape.as_list()
        if dims[hi] is not None and dims[wi] is not None:
            h, w = dims[hi], dims[wi]
        else:
            h, w = shape[hi], shape[wi]
        kh, kw = self.kernel_size
        sh, sw = self.strides
        op = getattr(self, "output_padding", None) or (None, None)
        if op[0] is not None:
            oh = deconv_output_length(h, kh, self.padding, sh, op[0])
            ow = deconv_output_length(w, kw, self.padding, sw, op[1])
        else:
            oh = deconv_output_length(h, kh, self.padding, sh) if isinstance(h, int) else \
                h * sh + (max(kh - sh, 0) if self.padding == "valid" else 0)
            ow = deconv_output_length(w, kw, self.padding, sw) if isinstance(w, int) else \
                w * sw + (max(kw - sw, 0) if self.padding == "valid" else 0)
        if self.data_format == "channels_last":
            out_shape = array_ops.stack([batch, oh, ow, self.filters])
        else:
            out_shape = array_ops.stack([batch, self.filters, oh, ow])
        outputs = conv_ops.conv2d_transpose(inputs, self.kernel, out_shape, list(self.strides),
                                            padding=self.padding.upper(), data_format=self._fmt(),
                                            name="conv2d_transpose")
        outputs.set_shape(self.compute_output_shape(inputs.shape))
        return self._finish(outputs)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        hi, wi = (1, 2) if self.data_format == "channels_last" else (2, 3)
        out = list(dims)
        op = getattr(self, "output_padding", None) or (None, None)
        out[hi] = deconv_output_length(dims[hi], self.kernel_size[0], self.padding, self.strides[0], op[0])
        out[wi] = deconv_output_length(dims[wi], self.kernel_size[1], self.padding, self.strides[1], op[1])
        out[self._channel_axis()] = self.filters
        return TensorShape(out)


def conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                     data_format="channels_last", activation=None, use_bias=True, kernel_initializer=None,
                     bias_initializer=None, kernel_regularizer=None, bias_regularizer=None,
                     activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                     trainable=True, name=None, reuse=None):
    """Functional form of `Conv2DTranspose` (variables "conv2d_transpose/kernel", ...)."""
    layer = Conv2DTranspose(filters, kernel_size, strides=strides, padding=padding,
                            data_format=data_format, activation=activation, use_bias=use_bias,
                            kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
                            kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
                            activity_regularizer=activity_regularizer,
                            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint,
                            trainable=trainable, name=name, _scope=name, _reuse=reuse)
    return layer(inputs)


Convolution2D = Conv2D
Convolution2DTranspose = Deconvolution2D = Deconv2D = Conv2DTranspose
