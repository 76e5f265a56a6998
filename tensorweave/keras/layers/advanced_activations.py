"""keras activation layers: LeakyReLU, ReLU, ELU, PReLU (a learned slope "p_re_lu/alpha"),
ThresholdedReLU and Softmax (a mask adds a large negative number to the masked logits), each
building the ops TF's keras backend builds."""

from ...framework.tensor_shape import TensorShape
from .. import backend as K, constraints, initializers, regularizers
from ..engine import InputSpec, Layer

__all__ = ["LeakyReLU", "ReLU", "ELU", "PReLU", "ThresholdedReLU", "Softmax"]


def _check_nonneg(value, name, cls):
    if value is None:
        raise ValueError(f"The {name} value of a {cls} layer cannot be None. Expected a float. "
                         f"Received: {name}={value}")
    if value < 0:
        raise ValueError(f"The {name} value of a {cls} layer cannot be negative. Received: "
                         f"{name}={value}")


class _Elementwise(Layer):
    _masking = True

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


class LeakyReLU(_Elementwise):
    """x for x > 0, alpha * x otherwise (alpha defaults to 0.3): `tf.nn.leaky_relu`."""

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError("The alpha value of a Leaky ReLU layer cannot be None, Expecting a "
                             f"float. Received: {alpha}")
        self.alpha = K.cast_to_floatx(alpha)

    def call(self, inputs):
        return K.relu(inputs, alpha=float(self.alpha))

    def get_config(self):
        return {**Layer.get_config(self), "alpha": float(self.alpha)}


class ReLU(_Elementwise):
    """relu with an optional cap (`max_value`), slope below the threshold (`negative_slope`) and
    threshold, as `K.relu`."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of a ReLU layer cannot be a negative value. Received: "
                             f"{max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: {negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError("threshold of a ReLU layer cannot be a negative value. Received: "
                             f"{threshold}")
        self.max_value = K.cast_to_floatx(max_value) if max_value is not None else None
        self.negative_slope = K.cast_to_floatx(negative_slope)
        self.threshold = K.cast_to_floatx(threshold)

    def call(self, inputs):
        mv = float(self.max_value) if self.max_value is not None else None
        return K.relu(inputs, alpha=float(self.negative_slope), max_value=mv,
                      threshold=float(self.threshold))

    def get_config(self):
        # As TF: the floatx arrays themselves.
        return {**Layer.get_config(self), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


class ELU(_Elementwise):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        if alpha is None:
            raise ValueError("Alpha of an ELU layer cannot be None, expecting a float. Received: "
                             f"{alpha}")
        self.alpha = K.cast_to_floatx(alpha)

    def call(self, inputs):
        return K.elu(inputs, float(self.alpha))

    def get_config(self):
        return {**Layer.get_config(self), "alpha": float(self.alpha)}


class ThresholdedReLU(_Elementwise):
    """x where x > theta, else 0."""

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError("Theta of a Thresholded ReLU layer cannot be None, expecting a float."
                             f" Received: {theta}")
        if theta < 0:
            raise ValueError("The theta value of a Thresholded ReLU layer should be >=0. "
                             f"Received: {theta}")
        self.theta = K.cast_to_floatx(theta)

    def call(self, inputs):
        from ...ops import math_ops
        theta = math_ops.cast(float(self.theta), inputs.dtype)
        return inputs * math_ops.cast(math_ops.greater(inputs, theta), inputs.dtype)

    def get_config(self):
        return {**Layer.get_config(self), "theta": float(self.theta)}


class Softmax(_Elementwise):
    """Softmax over `axis` (an int or a list of axes); masked positions get a large negative
    logit first so they receive ~0 probability."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        from ...ops import math_ops
        if mask is not None:
            large = -1e9 if inputs.dtype.base_dtype.name != "float16" else -65504.0
            adder = (1.0 - math_ops.cast(mask, inputs.dtype)) * large
            inputs = inputs + adder
        if isinstance(self.axis, (tuple, list)):
            if len(self.axis) > 1:
                return math_ops.exp(inputs - math_ops.reduce_logsumexp(
                    inputs, axis=list(self.axis), keepdims=True))
            return K.softmax(inputs, axis=self.axis[0])
        return K.softmax(inputs, axis=self.axis)

    def get_config(self):
        return {**Layer.get_config(self), "axis": self.axis}


class PReLU(Layer):
    """relu(x) - alpha * relu(-x) with a learned `alpha` per input element ("p_re_lu/alpha",
    zeros by default); `shared_axes` share one alpha along those axes."""

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None, alpha_constraint=None,
                 shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None:
            self.shared_axes = None
        elif not isinstance(shared_axes, (list, tuple)):
            self.shared_axes = [shared_axes]
        else:
            self.shared_axes = list(shared_axes)

    def build(self, input_shape):
        input_shape = TensorShape(input_shape).as_list()
        param_shape = list(input_shape[1:])
        if self.shared_axes is not None:
            for i in self.shared_axes:
                param_shape[i - 1] = 1
        self.alpha = self.add_weight(shape=param_shape, name="alpha",
                                     initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        axes = {}
        if self.shared_axes:
            for i in range(1, len(input_shape)):
                if i not in self.shared_axes:
                    axes[i] = input_shape[i]
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)
        self.built = True

    def call(self, inputs):
        pos = K.relu(inputs)
        neg = -self.alpha * K.relu(-inputs)
        return pos + neg

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        from .. import layer_configs
        return {**Layer.get_config(self),
                "alpha_initializer": initializers.serialize(self.alpha_initializer),
                "alpha_regularizer": layer_configs.serialize_object(self.alpha_regularizer),
                "alpha_constraint": layer_configs.serialize_object(self.alpha_constraint),
                "shared_axes": self.shared_axes}
