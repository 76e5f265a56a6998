"""keras convolution and pooling layers: tf.layers' Conv1D/Conv2D/Conv2DTranspose/
SeparableConv2D and pooling under keras naming and defaults (Glorot-uniform kernels, zero
biases, strides = pool_size), plus the global poolings (a reduce over the spatial axes)."""

from ...framework.tensor_shape import TensorShape
from ...layers import convolutional as _conv, convolutional_extra as _conv_x, pooling as _pool
from .. import activations, backend as K, constraints, initializers, regularizers
from ..engine import InputSpec, Layer, _pop_keras_kwargs

__all__ = ["Conv1D", "Conv2D", "Conv2DTranspose", "SeparableConv2D", "Convolution1D",
           "Convolution2DTranspose", "SeparableConvolution2D",
           "Convolution2D", "MaxPooling1D", "MaxPooling2D", "AveragePooling1D", "AveragePooling2D",
           "MaxPool1D", "MaxPool2D", "AvgPool1D", "AvgPool2D", "GlobalAveragePooling1D",
           "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "GlobalAvgPool1D",
           "GlobalAvgPool2D", "GlobalMaxPool1D", "GlobalMaxPool2D", "ZeroPadding2D", "UpSampling2D"]


def _conv_kwargs(activation, kernel_initializer, bias_initializer, kernel_regularizer,
                 bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint):
    return dict(activation=activations.get(activation),
                kernel_initializer=initializers.get(kernel_initializer),
                bias_initializer=initializers.get(bias_initializer),
                kernel_regularizer=regularizers.get(kernel_regularizer),
                bias_regularizer=regularizers.get(bias_regularizer),
                activity_regularizer=regularizers.get(activity_regularizer),
                kernel_constraint=constraints.get(kernel_constraint),
                bias_constraint=constraints.get(bias_constraint))


def _keras_conv(base, default_strides, default_dilation):
    class KerasConv(Layer, base):
        def __init__(self, filters, kernel_size, strides=default_strides, padding="valid",
                     data_format=None, dilation_rate=default_dilation, activation=None,
                     use_bias=True, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                     kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                     kernel_constraint=None, bias_constraint=None, **kwargs):
            kk = _pop_keras_kwargs(kwargs)
            kwargs.pop("groups", None)
            extra = {} if dilation_rate is None else {"dilation_rate": dilation_rate}
            base.__init__(self, filters, kernel_size, strides=strides, padding=padding,
                          data_format=data_format or K.image_data_format(), use_bias=use_bias,
                          **_conv_kwargs(activation, kernel_initializer, bias_initializer,
                                         kernel_regularizer, bias_regularizer,
                                         activity_regularizer, kernel_constraint, bias_constraint),
                          **extra, **kwargs)
            self._keras_init(**kk)
            # TF's keras convolutions ask for a minimum rank (extra batch axes are allowed).
            self.input_spec = InputSpec(min_ndim=self._rank + 2)

        def build(self, input_shape):
            base.build(self, input_shape)
            if base is not _conv.Conv2DTranspose:   # (which TF keeps at ndim=4 once built)
                self.input_spec = InputSpec(min_ndim=self._rank + 2, axes=self.input_spec.axes)
    return KerasConv


class Conv2D(_keras_conv(_conv.Conv2D, (1, 1), (1, 1))):
    """2-D convolution: activation(conv2d(inputs, kernel) + bias)."""


class Conv1D(_keras_conv(_conv_x.Conv1D, 1, 1)):
    """1-D convolution over [batch, steps, channels] ("causal" padding pads on the left)."""


class Conv2DTranspose(_keras_conv(_conv.Conv2DTranspose, (1, 1), None)):
    """Transposed 2-D convolution."""


class SeparableConv2D(Layer, _conv_x.SeparableConv2D):
    """Depthwise then pointwise 2-D convolution."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", **kwargs):
        kk = _pop_keras_kwargs(kwargs)
        _conv_x.SeparableConv2D.__init__(
            self, filters, kernel_size, strides=strides, padding=padding,
            data_format=data_format or K.image_data_format(), dilation_rate=dilation_rate,
            depth_multiplier=depth_multiplier, activation=activations.get(activation),
            use_bias=use_bias, depthwise_initializer=initializers.get(depthwise_initializer),
            pointwise_initializer=initializers.get(pointwise_initializer),
            bias_initializer=initializers.get(bias_initializer), **kwargs)
        self._keras_init(**kk)


Convolution1D = Conv1D
Convolution2D = Conv2D
Convolution2DTranspose = Conv2DTranspose
SeparableConvolution2D = SeparableConv2D


def _keras_pool(base, default_pool):
    class KerasPool(Layer, base):
        def __init__(self, pool_size=default_pool, strides=None, padding="valid", data_format=None,
                     **kwargs):
            kk = _pop_keras_kwargs(kwargs)
            base.__init__(self, pool_size, strides, padding=padding,
                          data_format=data_format or K.image_data_format(), **kwargs)
            self._keras_init(**kk)
    return KerasPool


class MaxPooling2D(_keras_pool(_pool.MaxPooling2D, (2, 2))):
    """Max over pool_size windows (default 2x2), `strides` (default pool_size) apart."""


class AveragePooling2D(_keras_pool(_pool.AveragePooling2D, (2, 2))):
    """Mean over pool_size windows (default 2x2), `strides` (default pool_size) apart."""


class MaxPooling1D(_keras_pool(_pool.MaxPooling1D, 2)):
    """Max over pool_size steps (default 2)."""


class AveragePooling1D(_keras_pool(_pool.AveragePooling1D, 2)):
    """Mean over pool_size steps (default 2)."""


MaxPool1D, MaxPool2D = MaxPooling1D, MaxPooling2D
AvgPool1D, AvgPool2D = AveragePooling1D, AveragePooling2D


class _GlobalPooling(Layer):
    _rank = None
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or K.image_data_format()
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _axes(self):
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self._rank))

    def call(self, inputs):
        from ...ops import math_ops
        fn = math_ops.reduce_mean if self._reduce == "mean" else math_ops.reduce_max
        return fn(inputs, axis=self._axes(), keepdims=self.keepdims)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        axes = self._axes()
        if self.keepdims:
            return TensorShape([1 if i in axes else d for i, d in enumerate(dims)])
        return TensorShape([d for i, d in enumerate(dims) if i not in axes])


class GlobalAveragePooling2D(_GlobalPooling):
    """Mean over the two spatial axes."""
    _rank, _reduce = 2, "mean"


class GlobalMaxPooling2D(_GlobalPooling):
    """Max over the two spatial axes."""
    _rank, _reduce = 2, "max"


class GlobalAveragePooling1D(_GlobalPooling):
    """Mean over the steps (over the unmasked steps when the input has a keras mask)."""
    _rank, _reduce = 1, "mean"

    def call(self, inputs, mask=None):
        if mask is None:
            return _GlobalPooling.call(self, inputs)
        from ...ops import array_ops, math_ops
        axis = self._axes()[0]
        mask = array_ops.expand_dims(math_ops.cast(mask, inputs.dtype.base_dtype),
                                     2 if self.data_format == "channels_last" else 1)
        inputs *= mask
        return math_ops.reduce_sum(inputs, axis=axis, keepdims=self.keepdims) / \
            math_ops.reduce_sum(mask, axis=axis, keepdims=self.keepdims)


class GlobalMaxPooling1D(_GlobalPooling):
    """Max over the steps."""
    _rank, _reduce = 1, "max"


GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalMaxPool1D, GlobalMaxPool2D = GlobalMaxPooling1D, GlobalMaxPooling2D


class ZeroPadding2D(Layer):
    """Pads the two spatial axes with zeros: padding an int, (h, w) or ((top, bottom), (l, r))."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(padding, int):
            padding = ((padding, padding), (padding, padding))
        elif isinstance(padding[0], int):
            padding = ((padding[0], padding[0]), (padding[1], padding[1]))
        self.padding = tuple(tuple(p) for p in padding)
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs):
        from ...ops import array_ops
        (t, b), (l, r) = self.padding
        if self.data_format == "channels_last":
            pads = [[0, 0], [t, b], [l, r], [0, 0]]
        else:
            pads = [[0, 0], [0, 0], [t, b], [l, r]]
        return array_ops.pad(inputs, pads)


class UpSampling2D(Layer):
    """Repeats rows and columns (nearest neighbour)."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        if interpolation != "nearest":
            raise NotImplementedError("UpSampling2D supports interpolation='nearest' only")
        self.size = (size, size) if isinstance(size, int) else tuple(size)
        self.data_format = data_format or K.image_data_format()

    def call(self, inputs):
        from ...ops import array_ops
        hi, wi = (1, 2) if self.data_format == "channels_last" else (2, 3)
        x = inputs
        for axis, n in ((hi, self.size[0]), (wi, self.size[1])):
            x = array_ops.repeat(x, n, axis=axis)
        return x
