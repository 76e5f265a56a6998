"""`tf.train.ProximalGradientDescentOptimizer`: gradient descent with FOBOS l1/l2 proximal steps."""

from ..framework.constant_op import convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef

__all__ = ["ProximalGradientDescentOptimizer"]


class ProximalGradientDescentOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """prox = var - lr * grad; var = sign(prox) * max(|prox| - lr * l1, 0) / (1 + lr * l2)."""

    def __init__(self, learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None

    def _apply_dense(self, grad, var):
        return training_ops.apply_proximal_gradient_descent(
            var, self._learning_rate_tensor, self._l1_regularization_strength_tensor,
            self._l2_regularization_strength_tensor, grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        return training_ops.sparse_apply_proximal_gradient_descent(
            var, self._learning_rate_tensor, self._l1_regularization_strength_tensor,
            self._l2_regularization_strength_tensor, grad.values, grad.indices,
            use_locking=self._use_locking).op

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate, name="learning_rate")
        self._l1_regularization_strength_tensor = convert_to_tensor(self._l1_regularization_strength,
                                                                    name="l1_regularization_strength")
        self._l2_regularization_strength_tensor = convert_to_tensor(self._l2_regularization_strength,
                                                                    name="l2_regularization_strength")
