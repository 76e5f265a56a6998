"""`tf.train.AdagradOptimizer`: accum += grad^2; var -= learning_rate * grad / sqrt(accum)."""

from ..framework.constant_op import convert_to_tensor
from ..ops import training_ops
from . import slot_creator
from .optimizer import Optimizer, _ResourceUpdatesAsRef, _cast

__all__ = ["AdagradOptimizer"]


class AdagradOptimizer(_ResourceUpdatesAsRef, Optimizer):
    """Adagrad, with one slot per variable, "accumulator" ("w/Adagrad"), starting at
    `initial_accumulator_value`."""

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._learning_rate_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            dtype = v.dtype.base_dtype
            shape = v.get_shape()
            if shape.is_fully_defined():
                init = slot_creator.constant_initializer(self._initial_accumulator_value, "Const")
                self._get_or_make_slot_with_initializer(v, init, shape, dtype, "accumulator", self._name)
            else:
                from ..ops import array_ops
                val = array_ops.fill(array_ops.shape(v.initialized_value()),
                                     _cast_scalar(self._initial_accumulator_value, dtype))
                self._get_or_make_slot(v, val, "accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                       name="learning_rate")

    def _apply_dense(self, grad, var):
        acc = self.get_slot(var, "accumulator")
        return training_ops.apply_adagrad(var, acc, _cast(self._learning_rate_tensor, var.dtype.base_dtype),
                                          grad, use_locking=self._use_locking).op

    def _apply_sparse(self, grad, var):
        acc = self.get_slot(var, "accumulator")
        return training_ops.sparse_apply_adagrad(var, acc, _cast(self._learning_rate_tensor, var.dtype.base_dtype),
                                                 grad.values, grad.indices, use_locking=self._use_locking).op


def _cast_scalar(value, dtype):
    import numpy as np
    return np.asarray(value, dtype=dtype.as_numpy_dtype)
