"""`tf.train.AdadeltaOptimizer` (Zeiler 2012):

    accum = rho * accum + (1 - rho) * grad^2
    update = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad
    var -= learning_rate * update
    accum_update = rho * accum_update + (1 - rho) * update^2
"""

from ..framework.constant_op import convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["AdadeltaOptimizer"]


class AdadeltaOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """Adadelta with slots "accum" ("w/Adadelta") and "accum_update" ("w/Adadelta_1")."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False, name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._rho = rho
        self._epsilon = epsilon

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="lr")
        self._rho_t = convert_to_tensor(self._call_if_callable(self._rho), name="rho")
        self._epsilon_t = convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _hyper(self, var):
        dt = var.dtype.base_dtype
        return _cast(self._lr_t, dt), _cast(self._rho_t, dt), _cast(self._epsilon_t, dt)

    def _apply_dense(self, grad, var):
        return training_ops.apply_adadelta(var, self.get_slot(var, "accum"), self.get_slot(var, "accum_update"),
                                           *self._hyper(var), grad, use_locking=self._use_locking)

    def _apply_sparse(self, grad, var):
        return training_ops.sparse_apply_adadelta(var, self.get_slot(var, "accum"),
                                                  self.get_slot(var, "accum_update"), *self._hyper(var),
                                                  grad.values, grad.indices, use_locking=self._use_locking)
