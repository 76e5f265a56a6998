"""`tf.train.MomentumOptimizer`: accum = momentum * accum + grad; var -= learning_rate * accum
(Nesterov: var -= learning_rate * (grad + momentum * accum))."""

from ..framework.constant_op import convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["MomentumOptimizer"]


class MomentumOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """Momentum (heavy-ball or Nesterov) with one slot per variable, "momentum" ("w/Momentum")."""

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov

    use_nesterov = property(lambda self: self._use_nesterov)

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")

    def _apply_dense(self, grad, var):
        mom = self.get_slot(var, "momentum")
        dt = var.dtype.base_dtype
        return training_ops.apply_momentum(
            var, mom, _cast(self._learning_rate_tensor, dt), grad, _cast(self._momentum_tensor, dt),
            use_locking=self._use_locking, use_nesterov=self._use_nesterov).op

    def _apply_sparse(self, grad, var):
        mom = self.get_slot(var, "momentum")
        dt = var.dtype.base_dtype
        return training_ops.sparse_apply_momentum(
            var, mom, _cast(self._learning_rate_tensor, dt), grad.values, grad.indices,
            _cast(self._momentum_tensor, dt), use_locking=self._use_locking,
            use_nesterov=self._use_nesterov).op
