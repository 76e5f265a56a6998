"""`tf.train.RMSPropOptimizer`:

    ms  = decay * ms + (1 - decay) * grad^2
    mom = momentum * mom + learning_rate * grad / sqrt(ms + epsilon)
    var -= mom

centered=True also keeps mg, the mean gradient, and divides by sqrt(ms - mg^2 + epsilon).
"""

from ..framework.constant_op import convert_to_tensor
from ..ops import training_ops
from . import slot_creator
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["RMSPropOptimizer"]


class RMSPropOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """RMSProp with slots "rms" (starts at 1, "w/RMSProp"), "mg" if centered ("w/RMSProp_1") and
    "momentum" ("w/RMSProp_1", or "w/RMSProp_2" if centered)."""

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
                 centered=False, name="RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon
        self._centered = centered

    def _create_slots(self, var_list):
        for v in var_list:
            shape = v.get_shape()
            if shape.is_fully_defined():
                init_rms = slot_creator.constant_initializer(1, "ones")
                self._get_or_make_slot_with_initializer(v, init_rms, shape, v.dtype.base_dtype, "rms",
                                                        self._name)
            else:
                from ..ops import array_ops
                self._get_or_make_slot(v, array_ops.ones_like(v), "rms", self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")
        self._decay_tensor = convert_to_tensor(self._call_if_callable(self._decay), name="decay")
        self._momentum_tensor = convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")
        self._epsilon_tensor = convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _hyper(self, var):
        dt = var.dtype.base_dtype
        return (_cast(self._learning_rate_tensor, dt), _cast(self._decay_tensor, dt),
                _cast(self._momentum_tensor, dt), _cast(self._epsilon_tensor, dt))

    def _apply_dense(self, grad, var):
        rms = self.get_slot(var, "rms")
        mom = self.get_slot(var, "momentum")
        if self._centered:
            mg = self.get_slot(var, "mg")
            return training_ops.apply_centered_rms_prop(var, mg, rms, mom, *self._hyper(var), grad,
                                                        use_locking=self._use_locking).op
        return training_ops.apply_rms_prop(var, rms, mom, *self._hyper(var), grad,
                                           use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        rms = self.get_slot(var, "rms")
        mom = self.get_slot(var, "momentum")
        if self._centered:
            mg = self.get_slot(var, "mg")
            return training_ops.sparse_apply_centered_rms_prop(
                var, mg, rms, mom, *self._hyper(var), grad.values, grad.indices,
                use_locking=self._use_locking)
        return training_ops.sparse_apply_rms_prop(var, rms, mom, *self._hyper(var), grad.values, grad.indices,
                                                  use_locking=self._use_locking)
