"""`tf.train.ProximalAdagradOptimizer`: Adagrad with FOBOS l1/l2 proximal steps; slot "accumulator"."""

from ..framework.constant_op import constant, convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef

__all__ = ["ProximalAdagradOptimizer"]


class ProximalAdagradOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """accum += grad^2; lr_t = lr / sqrt(accum); var = prox_{lr_t * (l1, l2)}(var - lr_t * grad)."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None
        self._learning_rate_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            with v.graph.colocate_with(v.op):
                val = constant(self._initial_accumulator_value, shape=v.get_shape(), dtype=v.dtype.base_dtype)
            self._get_or_make_slot(v, val, "accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate, name="learning_rate")
        self._l1_regularization_strength_tensor = convert_to_tensor(self._l1_regularization_strength,
                                                                    name="l1_regularization_strength")
        self._l2_regularization_strength_tensor = convert_to_tensor(self._l2_regularization_strength,
                                                                    name="l2_regularization_strength")

    def _apply_dense(self, grad, var):
        acc = self.get_slot(var, "accumulator")
        return training_ops.apply_proximal_adagrad(
            var, acc, self._learning_rate_tensor, self._l1_regularization_strength_tensor,
            self._l2_regularization_strength_tensor, grad, use_locking=self._use_locking)

    def _apply_sparse(self, grad, var):
        acc = self.get_slot(var, "accumulator")
        return training_ops.sparse_apply_proximal_adagrad(
            var, acc, self._learning_rate_tensor, self._l1_regularization_strength_tensor,
            self._l2_regularization_strength_tensor, grad.values, grad.indices, use_locking=self._use_locking)
