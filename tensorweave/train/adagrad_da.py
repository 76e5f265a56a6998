"""`tf.train.AdagradDAOptimizer`: Adagrad dual averaging (Duchi et al., 2011), for sparse linear models.

Slots "gradient_accumulator" (sum of gradients) and "gradient_squared_accumulator". The update
uses the global step + 1 (read before `minimize` increments it).
"""

from ..framework.constant_op import constant, convert_to_tensor
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["AdagradDAOptimizer"]


class AdagradDAOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """var = -sign(g) * lr * max(|g| - l1 * t, 0) / (l2 * t * lr + sqrt(gg))."""

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False,
                 name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: %s" %
                             initial_gradient_squared_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gradient_squared_accumulator_value = initial_gradient_squared_accumulator_value
        self._learning_rate_tensor = None
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._global_step = global_step
        self._global_step_on_worker = None

    def _create_slots(self, var_list):
        for v in var_list:
            with v.graph.colocate_with(v.op):
                g_val = constant(0.0, shape=v.get_shape(), dtype=v.dtype.base_dtype)
                gg_val = constant(self._initial_gradient_squared_accumulator_value, shape=v.get_shape(),
                                  dtype=v.dtype.base_dtype)
            self._get_or_make_slot(v, g_val, "gradient_accumulator", self._name)
            self._get_or_make_slot(v, gg_val, "gradient_squared_accumulator", self._name)

    def _prepare(self):
        from ..ops import array_ops
        self._learning_rate_tensor = convert_to_tensor(self._learning_rate, name="learning_rate")
        g = self._learning_rate_tensor.graph
        with g.colocate_with(self._learning_rate_tensor.op):
            self._global_step_on_worker = array_ops.identity(self._global_step) + 1

    def _args(self, var):
        from ..ops import array_ops
        dt = var.dtype.base_dtype
        with var.graph.device(var.device):
            global_step = array_ops.identity(self._global_step_on_worker)
        return (_cast(self._learning_rate_tensor, dt), _cast(self._l1_regularization_strength, dt),
                _cast(self._l2_regularization_strength, dt), global_step)

    def _apply_dense(self, grad, var):
        g_acc = self.get_slot(var, "gradient_accumulator")
        gg_acc = self.get_slot(var, "gradient_squared_accumulator")
        return training_ops.apply_adagrad_da(var, g_acc, gg_acc, grad, *self._args(var),
                                             use_locking=self._use_locking)

    def _apply_sparse(self, grad, var):
        g_acc = self.get_slot(var, "gradient_accumulator")
        gg_acc = self.get_slot(var, "gradient_squared_accumulator")
        return training_ops.sparse_apply_adagrad_da(var, g_acc, gg_acc, grad.values, grad.indices,
                                                    *self._args(var), use_locking=self._use_locking)
