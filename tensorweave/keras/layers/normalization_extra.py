"""keras LayerNormalization (per-sample statistics over `axis`; "gamma" then "beta"), built as
TF's tf_keras builds it in graph mode. (UnitNormalization and GroupNormalization are not part of
`tf.compat.v1.keras.layers`, so tensorweave does not offer them either.)"""

from ...framework.tensor_shape import TensorShape
from .. import constraints, initializers, regularizers
from ..engine import Layer

__all__ = ["LayerNormalization"]


def _tf():
    import tensorweave
    return tensorweave


def _axes(axis, ndims, what):
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    out = []
    for a in axes:
        if not isinstance(a, int):
            raise TypeError(f"Expected an int or a list/tuple of ints for the argument 'axis', "
                            f"but received: {axis}")
        if a < -ndims or a >= ndims:
            raise ValueError(f"Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank"
                             f" (with inputs.rank={ndims}). Received: axis={a}")
        out.append(a + ndims if a < 0 else a)
    if len(out) != len(set(out)):
        raise ValueError(f"Duplicate axis: {tuple(out)}")
    return out


class LayerNormalization(Layer):
    """Normalizes each sample over `axis` (default the last) to zero mean and unit variance, then
    scales by "gamma" (ones) and shifts by "beta" (zeros)."""

    _masking = True

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, beta_initializer="zeros",
                 gamma_initializer="ones", beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', "
                            f"but received: {axis}")
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        self.axis = _axes(self.axis, len(dims), "axis")
        param_shape = [dims[d] for d in self.axis]
        self.gamma = self.add_weight(name="gamma", shape=param_shape,
                                     initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer,
                                     constraint=self.gamma_constraint) if self.scale else None
        self.beta = self.add_weight(name="beta", shape=param_shape,
                                    initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer,
                                    constraint=self.beta_constraint) if self.center else None
        self._fused = self._fused_can_be_used(len(dims))
        self.built = True

    def _fused_can_be_used(self, ndims):
        axis = sorted(self.axis)
        fused = axis[-1] == ndims - 1 and axis[-1] - axis[0] == len(axis) - 1
        return fused and self.epsilon >= 1.001e-5 and self.dtype == "float32"

    def call(self, inputs):
        tf = _tf()
        input_shape = inputs.shape
        ndims = input_shape.ndims
        broadcast_shape = [1] * ndims
        for dim in self.axis:
            broadcast_shape[dim] = input_shape.as_list()[dim]

        def _broadcast(v):
            if v is not None and v.shape.ndims != ndims and self.axis != [ndims - 1]:
                return tf.reshape(v, broadcast_shape)
            return v

        if not self._fused:
            mean, variance = tf.nn.moments(inputs, self.axis, keep_dims=True)
            scale, offset = _broadcast(self.gamma), _broadcast(self.beta)
            outputs = tf.nn.batch_normalization(inputs, mean, variance, offset=offset,
                                                scale=scale, variance_epsilon=self.epsilon)
        else:
            # As TF: collapse the leading and the normalized dims into [1, pre, in, 1] and run
            # fused batch norm in NCHW, then scale and shift.
            axis = sorted(self.axis)
            tensor_shape = tf.shape(inputs)
            pre_dim = tf.reduce_prod(tensor_shape[:axis[0]])
            in_dim = tf.reduce_prod(tensor_shape[axis[0]:])
            x = tf.reshape(inputs, [1, pre_dim, in_dim, 1])
            ones = tf.ones([pre_dim], dtype=self.dtype)
            zeros = tf.zeros([pre_dim], dtype=self.dtype)
            outputs, _, _ = tf.nn.fused_batch_norm(x, scale=ones, offset=zeros,
                                                   epsilon=self.epsilon, data_format="NCHW")
            outputs = tf.reshape(outputs, tensor_shape)
            scale, offset = _broadcast(self.gamma), _broadcast(self.beta)
            if scale is not None:
                outputs = outputs * tf.cast(scale, outputs.dtype)
            if offset is not None:
                outputs = outputs + tf.cast(offset, outputs.dtype)
        outputs.set_shape(input_shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)

    def get_config(self):
        from ..layer_configs import ListWrapper, serialize_object as s
        axis = ListWrapper(self.axis) if self.built else self.axis
        return {**Layer.get_config(self), "axis": axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "beta_regularizer": s(self.beta_regularizer),
                "gamma_regularizer": s(self.gamma_regularizer),
                "beta_constraint": s(self.beta_constraint),
                "gamma_constraint": s(self.gamma_constraint)}
