"""`tf.train.GradientDescentOptimizer`: var -= learning_rate * grad."""

from ..framework.constant_op import convert_to_tensor
from ..framework.indexed_slices import IndexedSlices
from ..ops import training_ops
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["GradientDescentOptimizer"]


class GradientDescentOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """Plain gradient descent. Sparse gradients update only their rows (ScatterSub)."""

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _apply_dense(self, grad, var):
        return training_ops.apply_gradient_descent(
            var, _cast(self._learning_rate_tensor, var.dtype.base_dtype), grad,
            use_locking=self._use_locking).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        # Repeated indices need no summing: ScatterSub accumulates them.
        delta = IndexedSlices(grad.values * _cast(self._learning_rate_tensor, var.dtype.base_dtype),
                              grad.indices, grad.dense_shape)
        return var.scatter_sub(delta, use_locking=self._use_locking)

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices):
        # TF: ResourceScatterAdd of -grad * learning_rate (repeated indices accumulate).
        from ..ops import resource_variable_ops
        return resource_variable_ops.resource_scatter_add(
            handle.handle, indices, -grad * _cast(self._learning_rate_tensor, grad.dtype.base_dtype))

    def _prepare(self):
        learning_rate = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = convert_to_tensor(learning_rate, name="learning_rate")
