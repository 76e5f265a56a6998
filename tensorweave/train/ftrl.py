"""`tf.train.FtrlOptimizer`: FTRL-proximal (McMahan et al., 2013), slots "accum" and "linear"."""

from ..framework.constant_op import convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["FtrlOptimizer"]


class FtrlOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """FTRL-proximal. With `l2_shrinkage_regularization_strength > 0` it runs ApplyFtrlV2 (the
    linear term sees grad + 2 * l2_shrinkage * var); `beta` is folded into the l2 strength."""

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False,
                 name="Ftrl", accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0,
                 beta=None):
        super().__init__(use_locking, name)
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value %f needs to be positive or zero" %
                             initial_accumulator_value)
        if learning_rate_power > 0.0:
            raise ValueError("learning_rate_power %f needs to be negative or zero" % learning_rate_power)
        if l1_regularization_strength < 0.0:
            raise ValueError("l1_regularization_strength %f needs to be positive or zero" %
                             l1_regularization_strength)
        if l2_regularization_strength < 0.0:
            raise ValueError("l2_regularization_strength %f needs to be positive or zero" %
                             l2_regularization_strength)
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError("l2_shrinkage_regularization_strength %f needs to be positive or zero" %
                             l2_shrinkage_regularization_strength)
        self._learning_rate = learning_rate
        self._learning_rate_power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._beta = 0.0 if beta is None else beta
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self._learning_rate_tensor = None
        self._learning_rate_power_tensor = None
        self._l1_regularization_strength_tensor = None
        self._adjusted_l2_regularization_strength_tensor = None
        self._l2_shrinkage_regularization_strength_tensor = None
        self._accum_name = accum_name
        self._linear_name = linear_name

    def _create_slots(self, var_list):
        from ..framework import dtypes as _dtypes
        from ..ops import array_ops

        def _accum_initializer(shape, dtype=_dtypes.float32, partition_info=None):
            return array_ops.ones(shape=shape, dtype=dtype) * self._initial_accumulator_value

        for v in var_list:
            self._get_or_make_slot_with_initializer(v, _accum_initializer, v.shape, v.dtype, "accum",
                                                    self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self):
        from ..ops import math_ops
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate, name="learning_rate")
        self._l1_regularization_strength_tensor = convert_to_tensor(self._l1_regularization_strength,
                                                                    name="l1_regularization_strength")
        self._adjusted_l2_regularization_strength_tensor = convert_to_tensor(
            self._l2_regularization_strength + self._beta / (2. * math_ops.maximum(self._learning_rate, 1e-36)),
            name="adjusted_l2_regularization_strength")
        self._beta_tensor = convert_to_tensor(self._beta, name="beta")
        self._l2_shrinkage_regularization_strength_tensor = convert_to_tensor(
            self._l2_shrinkage_regularization_strength, name="l2_shrinkage_regularization_strength")
        self._learning_rate_power_tensor = convert_to_tensor(self._learning_rate_power,
                                                             name="learning_rate_power")

    def _args(self, var):
        dt = var.dtype.base_dtype
        lr = _cast(self._learning_rate_tensor, dt)
        l1 = _cast(self._l1_regularization_strength_tensor, dt)
        l2 = _cast(self._adjusted_l2_regularization_strength_tensor, dt)
        power = _cast(self._learning_rate_power_tensor, dt)
        if self._l2_shrinkage_regularization_strength <= 0.0:
            return [lr, l1, l2, power]
        return [lr, l1, l2, _cast(self._l2_shrinkage_regularization_strength_tensor, dt), power]

    def _apply_dense(self, grad, var):
        accum = self.get_slot(var, "accum")
        linear = self.get_slot(var, "linear")
        if self._l2_shrinkage_regularization_strength <= 0.0:
            return training_ops.apply_ftrl(var, accum, linear, grad, *self._args(var),
                                           use_locking=self._use_locking)
        return training_ops.apply_ftrl_v2(var, accum, linear, grad, *self._args(var),
                                          use_locking=self._use_locking)

    def _apply_sparse(self, grad, var):
        accum = self.get_slot(var, "accum")
        linear = self.get_slot(var, "linear")
        if self._l2_shrinkage_regularization_strength <= 0.0:
            return training_ops.sparse_apply_ftrl(var, accum, linear, grad.values, grad.indices,
                                                  *self._args(var), use_locking=self._use_locking)
        return training_ops.sparse_apply_ftrl_v2(var, accum, linear, grad.values, grad.indices,
                                                 *self._args(var), use_locking=self._use_locking)
