"""Moving averages of variables and tensors: `tf.train.ExponentialMovingAverage` and
`assign_moving_average` (TF's `training/moving_averages.py`).

    ema = tf.train.ExponentialMovingAverage(0.999, num_updates=global_step)
    with tf.control_dependencies([train_op]):
        train_op = ema.apply(tf.trainable_variables())   # shadow "w/ExponentialMovingAverage"
    saver = tf.train.Saver(ema.variables_to_restore())    # evaluation loads the averages

One update moves the shadow towards the value:  shadow -= (shadow - value) * (1 - decay).
With `num_updates`, decay is min(decay, (1 + num_updates) / (10 + num_updates)) so early
averages track the value quickly. Zero-debiasing (for averages that start at zero) keeps a
biased average `b` and a step count `t` and sets shadow = b / (1 - decay^t) (Adam's correction).
"""

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import GraphKeys, add_to_collection, get_default_graph, name_scope

__all__ = ["ExponentialMovingAverage", "assign_moving_average"]

_FLOAT_TYPES = (_dtypes.bfloat16, _dtypes.float16, _dtypes.float32, _dtypes.float64)


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
    """variable -= (variable - value) * (1 - decay); returns the updated reference.

    With zero_debias=True (TF's default), `variable` is set to a debiased average kept in two
    helper variables `<variable>/biased` and `<variable>/local_step` (made with get_variable)."""
    from ..ops import math_ops, state_ops
    with name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        decay = convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype.base_dtype != variable.dtype.base_dtype:
            decay = math_ops.cast(decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, decay)
        return state_ops.assign_sub(variable, (variable - value) * decay, name=scope)


def _zero_debias(unbiased_var, value, decay):
    """Keeps biased = biased - (biased - value) * decay and a step count t; sets the variable to
    biased / (1 - (1 - decay)^t). `decay` here is already 1 - decay."""
    from ..ops import init_ops, math_ops, state_ops
    from ..ops import variable_scope as vs
    var_name = unbiased_var.name[:-len(":0")] if unbiased_var.name.endswith(":0") else unbiased_var.op.name
    g = get_default_graph()
    with vs.variable_scope(var_name, values=[unbiased_var, value, decay]):
        scope = vs.get_variable_scope()

        def unique(name):
            if scope.reuse:
                return name
            taken = {v.op.name for v in g.get_collection(GraphKeys.GLOBAL_VARIABLES)}
            full = scope.name + "/" + name
            if full not in taken:
                return name
            i = 1
            while f"{full}_{i}" in taken:
                i += 1
            return f"{name}_{i}"

        with g.colocate_with(unbiased_var.op):
            biased_var = vs.get_variable(unique("biased"), initializer=init_ops.zeros_initializer(),
                                         shape=unbiased_var.get_shape(), dtype=unbiased_var.dtype.base_dtype,
                                         trainable=False)
            local_step = vs.get_variable(unique("local_step"), shape=[], dtype=unbiased_var.dtype.base_dtype,
                                         initializer=init_ops.zeros_initializer(), trainable=False)
    update_biased = state_ops.assign_sub(biased_var, (biased_var - value) * decay)
    update_local_step = local_step.assign_add(1)
    bias_factor = 1 - math_ops.pow(1.0 - decay, update_local_step)
    return state_ops.assign(unbiased_var, update_biased / bias_factor, name=g.get_name_scope() + "/")


class ExponentialMovingAverage:
    """Maintains shadow variables holding exponential moving averages of variables or tensors."""

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Creates the shadow variables (first time only) and returns the op that updates them all
        (a NoOp named like this object, grouping one AssignMovingAvg per entry)."""
        from ..ops import math_ops
        from ..ops.control_flow_ops import group
        from ..ops.variables import Variable, trainable_variables
        from . import slot_creator
        if var_list is None:
            var_list = trainable_variables()
        var_list = list(var_list)
        g = get_default_graph()
        zero_debias_true = set()
        for var in var_list:
            if var.dtype.base_dtype not in _FLOAT_TYPES:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if var in self._averages:
                continue
            if isinstance(var, Variable):
                avg = slot_creator.create_slot(var, var.initialized_value(), self.name)
                # Like TF: the collection holds the averaged variables, not the shadows.
                add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
            else:
                avg = slot_creator.create_zeros_slot(var, self.name)
                if self._zero_debias:
                    zero_debias_true.add(avg)
            self._averages[var] = avg
        with g.name_scope(self.name) as scope:
            decay = convert_to_tensor(self._decay, dtype=_dtypes.float32, name="decay")
            if self._num_updates is not None:
                num_updates = math_ops.cast(self._num_updates, _dtypes.float32, name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[var]
                updates.append(assign_moving_average(avg, var, decay, zero_debias=avg in zero_debias_true))
            return group(*updates, name=scope)

    def average(self, var):
        """The shadow variable of `var`, or None if `apply` was not called for it."""
        return self._averages.get(var, None)

    def average_name(self, var):
        """The name the shadow variable of `var` has (or would have): "<var op name>/<name>"."""
        if var in self._averages:
            return self._averages[var].name[:-len(":0")]
        return get_default_graph().unique_name(var.name[:-len(":0")] + "/" + self.name, mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """{checkpoint name: variable} for a Saver that loads the averages into the variables
        (trainable and MOVING_AVERAGE_VARIABLES by default); other global variables keep their
        own names."""
        from ..ops import variables
        if moving_avg_variables is None:
            moving_avg_variables = variables.trainable_variables()
            moving_avg_variables += variables.moving_average_variables()
        seen, unique_vars = set(), []
        for v in moving_avg_variables:
            if id(v) not in seen:
                seen.add(id(v))
                unique_vars.append(v)
        name_map = {self.average_name(v): v for v in unique_vars}
        names = {v.name for v in unique_vars}
        for v in variables.global_variables():
            if v.name not in names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
