"""keras BatchNormalization: tf.layers' batch norm (same variables gamma, beta, moving_mean,
moving_variance) whose `training` defaults to the learning phase."""

from .. import backend as K, constraints, initializers, regularizers
from ...layers import normalization as _norm
from ..engine import Layer, _pop_keras_kwargs
from ..layer_configs import ListWrapper

__all__ = ["BatchNormalization"]


class BatchNormalization(Layer, _norm.BatchNormalization):
    """Normalizes with batch statistics in training (updating the moving averages) and with the
    moving averages otherwise."""

    _masking = True


    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                 fused=None, trainable=True, virtual_batch_size=None, adjustment=None, name=None,
                 **kwargs):
        kk = _pop_keras_kwargs(kwargs)
        _norm.BatchNormalization.__init__(
            self, axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
            beta_initializer=initializers.get(beta_initializer),
            gamma_initializer=initializers.get(gamma_initializer),
            moving_mean_initializer=initializers.get(moving_mean_initializer),
            moving_variance_initializer=initializers.get(moving_variance_initializer),
            beta_regularizer=regularizers.get(beta_regularizer),
            gamma_regularizer=regularizers.get(gamma_regularizer),
            beta_constraint=constraints.get(beta_constraint),
            gamma_constraint=constraints.get(gamma_constraint), renorm=renorm,
            renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
            trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
            name=name, **kwargs)
        self._keras_init(**kk)
        if isinstance(self.axis, list):
            self.axis = ListWrapper(self.axis)   # as TF's tracked list attribute

    def build(self, input_shape):
        from ...framework.tensor_shape import TensorShape
        nd = TensorShape(input_shape).ndims
        if nd is None:
            raise ValueError(f"Input has undefined rank. Received: input_shape={input_shape}")
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        if nd is not None:
            for a in axes:
                if not -nd <= a < nd:
                    raise ValueError("Invalid value for `axis` argument. Expected 0 <= axis < "
                                     f"inputs.rank (with inputs.rank={nd}). Received: "
                                     f"axis={tuple(axes)}")
        _norm.BatchNormalization.build(self, input_shape)
        # TF's keras layer keeps the axes as a list of non-negative ints once built.
        self.axis = ListWrapper([a % nd for a in axes])

    def call(self, inputs, training=None):
        if training is None:
            training = K.learning_phase()
        if isinstance(training, int):
            training = bool(training)
        return _norm.BatchNormalization.call(self, inputs, training=training)
