"""`tf.train.AdamOptimizer` (Kingma & Ba), as TF1 implements it:

    lr_t = learning_rate * sqrt(1 - beta2^t) / (1 - beta1^t)
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad^2
    var -= lr_t * m / (sqrt(v) + epsilon)

beta1^t and beta2^t live in two non-slot variables, "beta1_power" and "beta2_power", multiplied by
beta1/beta2 after every step's updates. The sparse path is TF1's: m and v decay everywhere, the
gradient rows are scatter-added, and var moves wherever m is nonzero.
"""

from ..framework.constant_op import convert_to_tensor
from ..framework.graph import control_dependencies
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["AdamOptimizer"]


class AdamOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """Adam with slots "m" ("w/Adam") and "v" ("w/Adam_1")."""

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False,
                 name="Adam"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lr_t = None
        self._beta1_t = None
        self._beta2_t = None
        self._epsilon_t = None

    def _get_beta_accumulators(self):
        from ..framework.graph import get_default_graph
        graph = get_default_graph()
        return (self._get_non_slot_variable("beta1_power", graph=graph),
                self._get_non_slot_variable("beta2_power", graph=graph))

    def _create_slots(self, var_list):
        # The power accumulators are colocated with the alphabetically first variable.
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power", colocate_with=first_var)
        self._create_non_slot_variable(initial_value=self._beta2, name="beta2_power", colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        self._lr_t = convert_to_tensor(self._call_if_callable(self._lr), name="learning_rate")
        self._beta1_t = convert_to_tensor(self._call_if_callable(self._beta1), name="beta1")
        self._beta2_t = convert_to_tensor(self._call_if_callable(self._beta2), name="beta2")
        self._epsilon_t = convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        m = self.get_slot(var, "m")
        v = self.get_slot(var, "v")
        beta1_power, beta2_power = self._get_beta_accumulators()
        dt = var.dtype.base_dtype
        return training_ops.apply_adam(
            var, m, v, _cast(beta1_power, dt), _cast(beta2_power, dt), _cast(self._lr_t, dt),
            _cast(self._beta1_t, dt), _cast(self._beta2_t, dt), _cast(self._epsilon_t, dt), grad,
            use_locking=self._use_locking).op

    def _apply_sparse_shared(self, grad, var, indices, scatter_add):
        from ..ops import control_flow_ops, math_ops, state_ops
        dt = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        beta1_power = _cast(beta1_power, dt)
        beta2_power = _cast(beta2_power, dt)
        lr_t = _cast(self._lr_t, dt)
        beta1_t = _cast(self._beta1_t, dt)
        beta2_t = _cast(self._beta2_t, dt)
        epsilon_t = _cast(self._epsilon_t, dt)
        lr = (lr_t * math_ops.sqrt(1 - beta2_power) / (1 - beta1_power))
        # m_t = beta1 * m + (1 - beta1) * g_t
        m = self.get_slot(var, "m")
        m_scaled_g_values = grad * (1 - beta1_t)
        m_t = state_ops.assign(m, m * beta1_t, use_locking=self._use_locking)
        with control_dependencies([m_t]):
            m_t = scatter_add(m, indices, m_scaled_g_values)
        # v_t = beta2 * v + (1 - beta2) * (g_t * g_t)
        v = self.get_slot(var, "v")
        v_scaled_g_values = (grad * grad) * (1 - beta2_t)
        v_t = state_ops.assign(v, v * beta2_t, use_locking=self._use_locking)
        with control_dependencies([v_t]):
            v_t = scatter_add(v, indices, v_scaled_g_values)
        v_sqrt = math_ops.sqrt(v_t)
        var_update = state_ops.assign_sub(var, lr * m_t / (v_sqrt + epsilon_t), use_locking=self._use_locking)
        return control_flow_ops.group(*[var_update, m_t, v_t])

    def _apply_sparse(self, grad, var):
        from ..ops import state_ops
        return self._apply_sparse_shared(
            grad.values, var, grad.indices,
            lambda x, i, v: state_ops.scatter_add(x, i, v, use_locking=self._use_locking))

    def _resource_scatter_add(self, x, i, v):
        from ..ops import resource_variable_ops
        with control_dependencies([resource_variable_ops.resource_scatter_add(x.handle, i, v)]):
            return x.value()

    def _resource_apply_sparse(self, grad, var, indices):
        return self._apply_sparse_shared(grad, var, indices, self._resource_scatter_add)

    def _finish(self, update_ops, name_scope):
        from ..ops import control_flow_ops
        with control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators()
            from ..framework.graph import colocate_with
            with colocate_with(beta1_power.op):
                update_beta1 = beta1_power.assign(beta1_power * self._beta1_t, use_locking=self._use_locking)
                update_beta2 = beta2_power.assign(beta2_power * self._beta2_t, use_locking=self._use_locking)
        return control_flow_ops.group(*update_ops + [update_beta1, update_beta2], name=name_scope)
