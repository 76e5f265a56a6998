"""`tf.train.Optimizer`: the TF1 optimizer base class.

    opt = tf.train.MomentumOptimizer(0.1, 0.9)
    train_op = opt.minimize(loss, global_step=tf.train.get_or_create_global_step())

`minimize` = `compute_gradients` (tf.gradients of the loss w.r.t. the trainable variables) then
`apply_gradients`, which builds, inside a name scope named after the optimizer ("Momentum"):

    Momentum/learning_rate, Momentum/momentum      (_prepare: the hyper-parameters as tensors)
    Momentum/update_w/ApplyMomentum                (_apply_dense, or _apply_sparse for IndexedSlices)
    Momentum/update                                (_finish: a group of the updates)
    Momentum                                       (AssignAdd(global_step, 1), after the updates;
                                                    without a global step, the group itself)

exactly as TensorFlow names them. Slot variables ("w/Momentum") are created before, by
`_create_slots`. Subclasses implement `_create_slots`, `_prepare`, `_apply_dense`, `_apply_sparse`
(and optionally `_finish`), like TF1's.
"""

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import (GraphKeys, Tensor, get_collection, get_collection_ref, get_default_graph,
                               name_scope)
from ..framework.indexed_slices import IndexedSlices
from . import slot_creator

__all__ = ["Optimizer"]


def _is_variable(v):
    from ..ops.variables import Variable
    return isinstance(v, Variable)


def _var_key(var):
    if hasattr(var, "op"):
        return (var.op.graph, var.op.name)
    return var._unique_id       # (TF's fallback: an AttributeError naming it for a PartitionedVariable)


def _cast(x, dtype):
    """TF's math_ops.cast: a tensor (or variable's value) of `dtype`, casting only when needed."""
    if (isinstance(x, Tensor) or getattr(x, "_is_resource_variable", False)) and x.dtype.base_dtype == dtype:
        return x  # (a resource variable is read where it is used, as TF's math_ops.cast leaves it)
    x = convert_to_tensor(x)
    if x.dtype.base_dtype == dtype:
        return x
    from ..ops import math_ops
    return math_ops.cast(x, dtype)


def _deduplicate_indexed_slices(values, indices):
    """Sums the rows of `values` that share an index: (summed values, unique indices)."""
    from ..ops import array_ops, math_ops
    unique_indices, new_index_positions = array_ops.unique(indices)
    summed_values = math_ops.unsorted_segment_sum(values, new_index_positions,
                                                  array_ops.shape(unique_indices)[0])
    return summed_values, unique_indices


class _RefVariableProcessor:
    """Processor for tf.Variable (reference variables)."""

    def __init__(self, v):
        self._v = v

    def target(self):
        return self._v._ref()

    def update_op(self, optimizer, g):
        if isinstance(g, Tensor):
            update_op = optimizer._apply_dense(g, self._v)
            if self._v.constraint is not None:
                from ..framework.graph import control_dependencies
                with control_dependencies([update_op]):
                    return self._v.assign(self._v.constraint(self._v))
            return update_op
        assert isinstance(g, IndexedSlices), ("Gradient ", g, " is neither a tensor nor IndexedSlices.")
        if self._v.constraint is not None:
            raise RuntimeError("Cannot use a constraint function on a sparse variable.")
        return optimizer._apply_sparse_duplicate_indices(g, self._v)


def _tape_watched_variables(graph, first_new_op):
    """The trainable resource variables read by the ops made since `first_new_op`."""
    trainable = [v for v in get_collection(GraphKeys.TRAINABLE_VARIABLES)
                 if getattr(v, "_is_resource_variable", False)]
    by_handle = {}
    for v in trainable:
        try:
            by_handle.setdefault(v.handle, v)
        except TypeError:
            pass
    read = set()
    for op in graph.get_operations()[first_new_op:]:
        if op.inputs and op.inputs[0].dtype.base_dtype == _dtypes.resource:
            v = by_handle.get(op.inputs[0])
            if v is not None:
                read.add(id(v))
    return [v for v in trainable if id(v) in read]


class _DenseResourceVariableProcessor:
    """Processor for resource variables: Resource* update ops on their handles."""

    def __init__(self, v):
        self._v = v

    def target(self):
        return self._v

    def update_op(self, optimizer, g):
        if isinstance(g, IndexedSlices):
            if self._v.constraint is not None:
                raise RuntimeError("Cannot use a constraint function on a sparse variable.")
            return optimizer._resource_apply_sparse_duplicate_indices(g.values, self._v, g.indices)
        update_op = optimizer._resource_apply_dense(g, self._v)
        if self._v.constraint is not None:
            from ..framework.graph import control_dependencies
            with control_dependencies([update_op]):
                return self._v.assign(self._v.constraint(self._v))
        return update_op


class _TensorProcessor:
    """Processor for plain Tensors: gradients can be computed, but a Tensor cannot be updated."""

    def __init__(self, v):
        self._v = v

    def target(self):
        return self._v

    def update_op(self, optimizer, g):
        raise NotImplementedError("Trying to update a Tensor ", self._v)


def _get_processor(v):
    if getattr(v, "_is_resource_variable", False):
        return _DenseResourceVariableProcessor(v)
    if _is_variable(v):
        return _RefVariableProcessor(v)
    if isinstance(v, Tensor):
        return _TensorProcessor(v)
    raise NotImplementedError("Trying to optimize unsupported type ", v)


def _flatten(x):
    out = []
    if isinstance(x, (list, tuple)):
        for e in x:
            out.extend(_flatten(e))
    elif isinstance(x, dict):
        for k in sorted(x):
            out.extend(_flatten(x[k]))
    else:
        out.append(x)
    return out


class Optimizer:
    """Base class for optimizers (TF1's `tf.train.Optimizer`)."""

    # Values for the gate_gradients argument.
    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}          # slot name -> {(graph, var op name): slot variable}
        self._non_slot_dict = {}  # (name, graph) -> variable (e.g. Adam's beta1_power)

    def get_name(self):
        return self._name

    # -- the public API ------------------------------------------------------------------------
    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """compute_gradients + apply_gradients; returns the training op (an Operation)."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients, aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not support "
                "gradients, between variables %s and loss %s." % ([str(v) for _, v in grads_and_vars], loss))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """[(gradient, variable)] for `var_list` (default: the trainable variables); a gradient is
        a Tensor, an IndexedSlices (e.g. for a gathered variable), or None."""
        if callable(loss):
            graph = get_default_graph()
            first_new_op = len(graph.get_operations())
            loss = loss()
            if var_list is None:
                # TF (graph mode) differentiates a callable loss with a GradientTape, which watches
                # the trainable *resource* variables the loss reads, in creation order; a ref
                # variable (tf.Variable's default in TF1) is invisible to it.
                var_list = _tape_watched_variables(graph, first_new_op)
                if not var_list:
                    return []
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             "Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            var_list = (get_collection(GraphKeys.TRAINABLE_VARIABLES)
                        + get_collection(GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
        else:
            var_list = _flatten(var_list)
        processors = [_get_processor(v) for v in var_list]
        if not var_list:
            raise ValueError("No variables to optimize.")
        var_refs = [p.target() for p in processors]
        from ..autodiff.gradients import gradients
        grads = gradients(loss, var_refs, grad_ys=grad_loss,
                          gate_gradients=(gate_gradients == Optimizer.GATE_OP),
                          aggregation_method=aggregation_method,
                          colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            from ..ops import control_flow_ops
            grads = control_flow_ops.tuple(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients: one update op per variable with a gradient, then (if given)
        global_step += 1. Returns the training op, named `name` (default: the optimizer's name)."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None:
                if not isinstance(g, (Tensor, IndexedSlices)):
                    try:
                        g = convert_to_tensor(g)
                    except (TypeError, ValueError):
                        raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, or "
                                        "None: %s" % (g,)) from None
            converted.append((g, v, _get_processor(v)))
        var_list = [v for g, v, _ in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: %s." % ([str(v) for _, v, _ in converted],))
        graph = var_list[0].graph if hasattr(var_list[0], "graph") else get_default_graph()
        with graph.as_default():
            with graph.control_dependencies(None):  # like TF's init_scope: slots ignore control deps
                self._create_slots(var_list)
            update_ops = []
            with name_scope(name, self._name) as name:
                self._prepare()
                for grad, var, processor in converted:
                    if grad is None:
                        continue
                    with name_scope("update_" + var.op.name), graph.colocate_with(var.op):
                        update_ops.append(processor.update_op(self, grad))
                if global_step is None:
                    apply_updates = self._finish(update_ops, name)
                else:
                    from ..ops import state_ops
                    with graph.control_dependencies([self._finish(update_ops, "update")]):
                        gs_op = global_step.op if hasattr(global_step, "op") else global_step
                        with graph.colocate_with(gs_op):
                            apply_updates = state_ops.assign_add(global_step, 1, name=name)
                if isinstance(apply_updates, Tensor):
                    apply_updates = apply_updates.op
                train_op = get_collection_ref(GraphKeys.TRAIN_OP)
                if apply_updates not in train_op:
                    train_op.append(apply_updates)
                return apply_updates

    def get_slot(self, var, name):
        """The slot variable `name` ("momentum", "m", ...) created for `var`, or None."""
        named_slots = self._slots.get(name, None)
        if not named_slots:
            return None
        return named_slots.get(_var_key(var), None)

    def get_slot_names(self):
        """Sorted names of the slots this optimizer creates (e.g. ['m', 'v'])."""
        return sorted(self._slots.keys())

    def variables(self):
        """The optimizer's variables (slots and non-slot variables) in the default graph, by name."""
        current_graph = get_default_graph()
        out = [v for (_, g), v in self._non_slot_dict.items() if g is current_graph]
        for variable_dict in self._slots.values():
            for (g, _), slot in variable_dict.items():
                if g is current_graph:
                    out.append(slot)
        return sorted(out, key=lambda v: v.name)

    # -- hooks for subclasses ------------------------------------------------------------------
    def _create_slots(self, var_list):
        """Creates all slot variables needed by the optimizer (before the update ops)."""

    def _prepare(self):
        """Creates the hyper-parameter tensors (inside the optimizer's name scope)."""

    def _apply_dense(self, grad, var):
        raise NotImplementedError()

    def _apply_sparse(self, grad, var):
        """Update for an IndexedSlices gradient whose indices are unique."""
        raise NotImplementedError()

    def _apply_sparse_duplicate_indices(self, grad, var):
        """Sums the rows of repeated indices, then calls _apply_sparse."""
        summed_values, unique_indices = _deduplicate_indexed_slices(values=grad.values, indices=grad.indices)
        return self._apply_sparse(IndexedSlices(indices=unique_indices, values=summed_values,
                                                dense_shape=grad.dense_shape), var)

    # A subclass updating resource variables implements these (as in TF, the base raises).
    def _resource_apply_dense(self, grad, handle):
        raise NotImplementedError()

    def _resource_apply_sparse(self, grad, handle, indices):
        raise NotImplementedError()

    def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices):
        """Sums the rows of repeated indices, then calls _resource_apply_sparse."""
        summed_grad, unique_indices = _deduplicate_indexed_slices(values=grad, indices=indices)
        return self._resource_apply_sparse(summed_grad, handle, unique_indices)

    def _finish(self, update_ops, name_scope):
        """Groups the update ops (subclasses add their own final updates, like Adam's)."""
        from ..ops import control_flow_ops
        return control_flow_ops.group(*update_ops, name=name_scope)

    # -- helpers -------------------------------------------------------------------------------
    def _valid_dtypes(self):
        return {_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64}

    def _assert_valid_dtypes(self, tensors):
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                # TF lists its set of DTypes, hashed by type enum: float32, float64, float16, bfloat16.
                order = [d for d in (_dtypes.float32, _dtypes.float64, _dtypes.float16, _dtypes.bfloat16)
                         if d in valid]
                raise ValueError("Invalid type %r for %s, expected: %s." % (dtype, t.name, order))

    def _call_if_callable(self, param):
        return param() if callable(param) else param

    def _slot_dict(self, slot_name):
        named_slots = self._slots.get(slot_name, None)
        if named_slots is None:
            named_slots = {}
            self._slots[slot_name] = named_slots
        return named_slots

    def _get_or_make_slot(self, var, val, slot_name, op_name):
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_slot(var, val, op_name)
        return named_slots[_var_key(var)]

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name, op_name):
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_slot_with_initializer(
                var, initializer, shape, dtype, op_name)
        return named_slots[_var_key(var)]

    def _zeros_slot(self, var, slot_name, op_name):
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_zeros_slot(var, op_name)
        return named_slots[_var_key(var)]

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        """A variable the optimizer keeps once per graph (not per variable), e.g. beta1_power."""
        graph = colocate_with.graph
        key = (name, graph)
        v = self._non_slot_dict.get(key, None)
        if v is None:
            from ..ops import variables
            with graph.as_default(), graph.control_dependencies(None), graph.colocate_with(colocate_with.op):
                v = variables.Variable(initial_value, name=name, trainable=False,
                                       use_resource=getattr(colocate_with, "_is_resource_variable", False))
            self._non_slot_dict[key] = v
        return v

    def _get_non_slot_variable(self, name, graph=None):
        if graph is None:
            graph = get_default_graph()
        return self._non_slot_dict.get((name, graph), None)

    def _non_slot_variables(self):
        return self._non_slot_dict.values()



class _ResourceUpdatesAsRef:
    """For the built-in optimizers: a resource variable's update is its reference update with
    `var` being the resource variable, for which training_ops.apply_* build the Resource* op
    (ResourceApplyAdam...)."""

    def _resource_apply_dense(self, grad, handle):
        return self._apply_dense(grad, handle)

    def _resource_apply_sparse(self, grad, handle, indices):
        return self._apply_sparse(IndexedSlices(values=grad, indices=indices), handle)
