"""Resource variables (TF1's `use_resource=True`): state reached through a handle.

A `ResourceVariable` is a Python object over these ops, named as TensorFlow names them:

    v/Initializer/...               (the initial value: a Const "initial_value", or the initializer's ops)
    v                               (VarHandleOp: `v:0` is the handle, dtype `resource`, shape ())
    v/IsInitialized/VarIsInitializedOp
    v/Assign                        (AssignVariableOp(v, initial value): the initializer)
    v/Read/ReadVariableOp           (the read that `sess.run(v)` fetches)

Every use of the variable as a tensor (`tf.matmul(x, v)`, `v * 2`, `v.value()`) makes a new
ReadVariableOp in the current name scope, as TF does; `v.read_value()` is "Read/ReadVariableOp" plus
an Identity. Updates (`v.assign(x)`, `assign_add`, `scatter_*`) are ops without outputs; with
`read_value=True` they return an `_UnreadVariable` whose value is a read made after the update.
Gradients flow from a ReadVariableOp to the handle (dense) and from a ResourceGather (`v.sparse_read`,
`tf.gather`, `embedding_lookup`) as IndexedSlices.

Kernels: kernels/cpu/resource_variables.py. The optimizers' Resource* update ops:
ops/resource_training_ops.py.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor, register_tensor_conversion_function
from ..framework.graph import GraphKeys, Tensor, get_default_graph, get_default_session, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, merge_shapes, scalar_shape
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from .array_gather_ops import gather_nd_shape
from .variables import Variable, VariableAggregation, VariableSynchronization

__all__ = ["ResourceVariable", "enable_resource_variables", "disable_resource_variables",
           "resource_variables_enabled", "is_resource_variable"]

# TF1 (compat.v1 with v2 behaviour disabled) makes reference variables unless asked.
_DEFAULT_USE_RESOURCE = False


def enable_resource_variables():
    """From now on, tf.Variable and tf.get_variable make ResourceVariables by default."""
    global _DEFAULT_USE_RESOURCE
    _DEFAULT_USE_RESOURCE = True


def disable_resource_variables():
    """From now on, tf.Variable and tf.get_variable make reference variables by default."""
    global _DEFAULT_USE_RESOURCE
    _DEFAULT_USE_RESOURCE = False


def resource_variables_enabled():
    """Whether variables are resource variables by default."""
    return _DEFAULT_USE_RESOURCE


def default_use_resource():
    return _DEFAULT_USE_RESOURCE


def is_resource_variable(var):
    return getattr(var, "_is_resource_variable", False)


# -- ops ---------------------------------------------------------------------------------------

def _handle_op(handle):
    """The VarHandleOp behind a handle tensor, or None when it is not visible statically."""
    t = handle
    for _ in range(64):
        op = t.op
        if op.type == "VarHandleOp":
            return op
        if op.type in ("Identity", "Enter", "Switch"):
            t = op._inputs[0]
            continue
        # A cond/while branch's placeholder for a captured handle: follow it outside.
        captures = getattr(op.graph, "_captures", None)
        outer = next((o for o, i in captures.items() if i is t), None) if captures else None
        if outer is None:
            return None
        t = outer
    return None


def handle_shape(handle):
    op = _handle_op(handle)
    return op._attrs["shape"] if op is not None else unknown_shape()


def handle_dtype(handle):
    op = _handle_op(handle)
    return op._attrs["dtype"] if op is not None else None


def _read_shape(op):
    return [handle_shape(op._inputs[0])]


def _no_outputs(op):
    return []


def _gather_shape(op):
    params, indices = handle_shape(op._inputs[0]), op._inputs[1]._shape
    if params.ndims is None or indices.ndims is None:
        return [unknown_shape()]
    if params.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return [indices.concatenate(params[1:])]


def _gather_nd_shape(op):
    return [gather_nd_shape(handle_shape(op._inputs[0]), op._inputs[1]._shape)]


def _variable_shape_shape(op):
    s = handle_shape(op._inputs[0])
    return [TensorShape([s.ndims])]


for _t, _fn in (("VarHandleOp", scalar_shape), ("VarIsInitializedOp", scalar_shape),
                ("ReadVariableOp", _read_shape), ("AssignVariableOp", _no_outputs),
                ("AssignAddVariableOp", _no_outputs), ("AssignSubVariableOp", _no_outputs),
                ("ResourceGather", _gather_shape), ("ResourceGatherNd", _gather_nd_shape),
                ("VariableShape", _variable_shape_shape),
                ("ResourceScatterUpdate", _no_outputs), ("ResourceScatterAdd", _no_outputs),
                ("ResourceScatterSub", _no_outputs), ("ResourceScatterMul", _no_outputs),
                ("ResourceScatterDiv", _no_outputs), ("ResourceScatterMax", _no_outputs),
                ("ResourceScatterMin", _no_outputs), ("ResourceScatterNdUpdate", _no_outputs),
                ("ResourceScatterNdAdd", _no_outputs), ("ResourceScatterNdSub", _no_outputs)):
    # All stateful: a read must never be constant-folded or merged with another read.
    registry.register_op(_t, shape_fn=_fn, stateful=True)
for _t in ("VarHandleOp", "VarIsInitializedOp", "AssignVariableOp", "AssignAddVariableOp",
           "AssignSubVariableOp", "VariableShape", "ResourceScatterUpdate", "ResourceScatterAdd",
           "ResourceScatterSub", "ResourceScatterMul", "ResourceScatterDiv", "ResourceScatterMax",
           "ResourceScatterMin", "ResourceScatterNdUpdate", "ResourceScatterNdAdd", "ResourceScatterNdSub"):
    registry.no_gradient(_t)


@registry.register_gradient("ReadVariableOp")
def _read_grad(op, grad):
    return [grad]


def variable_shape(handle, out_type=_dtypes.int32):
    """The variable's shape: a Const when the handle's shape is known (as TF), else VariableShape."""
    s = handle_shape(handle)
    if s.is_fully_defined():
        from ..framework.constant_op import constant
        return constant(s.as_list(), dtype=out_type)
    return apply_op("VariableShape", [handle], [out_type], "VariableShape", attrs={"out_type": out_type})


@registry.register_gradient("ResourceGather")
def _gather_grad(op, grad):
    from . import array_ops
    handle, indices = op._inputs
    params_shape = variable_shape(handle)
    size = array_ops.expand_dims(array_ops.size(indices), 0)
    values_shape = array_ops.concat([size, params_shape[1:]], 0)
    values = array_ops.reshape(grad, values_shape)
    indices = array_ops.reshape(indices, size)
    return [IndexedSlices(values, indices, params_shape), None]


@registry.register_gradient("ResourceGatherNd")
def _gather_nd_grad(op, grad):
    from . import array_ops
    from .array_gather_ops import scatter_nd
    handle, indices = op._inputs
    ref_shape = variable_shape(handle, out_type=indices.dtype.base_dtype)
    if indices.shape.ndims == 2 and indices.shape[-1].value == 1:
        return [IndexedSlices(grad, array_ops.squeeze(indices, axis=-1), ref_shape), None]
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    return [scatter_nd(indices, grad, ref_shape), None]


def resource_gather_nd(resource, indices, dtype, name=None):
    with name_scope(name, "ResourceGatherNd") as scope:
        indices = _indices(indices)
        return apply_op("ResourceGatherNd", [resource, indices], [dtype], scope,
                        attrs={"dtype": dtype, "Tindices": indices.dtype.base_dtype})


def var_handle_op(dtype, shape, container="", shared_name="", name=None, debug_name=""):
    g = get_default_graph()
    op = g._create_op("VarHandleOp", [], [_dtypes.resource], name=name or "VarHandleOp",
                      attrs={"dtype": dtype, "shape": shape, "container": container or "",
                             "shared_name": shared_name or "", "allowed_devices": [],
                             "debug_name": debug_name})
    return op._outputs[0]


def var_is_initialized_op(handle, name=None):
    return apply_op("VarIsInitializedOp", [handle], [_dtypes.bool], name or "VarIsInitializedOp")


def read_variable_op(handle, dtype, name=None):
    return apply_op("ReadVariableOp", [handle], [dtype], name or "ReadVariableOp", attrs={"dtype": dtype})


def _check_value(value, dtype, op_type):
    if value.dtype.base_dtype != dtype:
        raise TypeError(f"Input 'value' of '{op_type}' Op has type {value.dtype.base_dtype.name} that "
                        f"does not match type {dtype.name} of argument 'resource'.")
    return value


def assign_variable_op(handle, value, validate_shape=False, name=None):
    return apply_op("AssignVariableOp", [handle, value], [], name or "AssignVariableOp",
                    attrs={"dtype": value.dtype.base_dtype, "validate_shape": bool(validate_shape)})


def assign_add_variable_op(handle, value, name=None):
    return apply_op("AssignAddVariableOp", [handle, value], [], name or "AssignAddVariableOp",
                    attrs={"dtype": value.dtype.base_dtype})


def assign_sub_variable_op(handle, value, name=None):
    return apply_op("AssignSubVariableOp", [handle, value], [], name or "AssignSubVariableOp",
                    attrs={"dtype": value.dtype.base_dtype})


def _indices(indices):
    t = convert_to_tensor(indices, name="indices")
    if t.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter 'indices' has DataType {t.dtype.base_dtype.name} not "
                        f"in list of allowed values: int32, int64")
    return t


def resource_gather(resource, indices, dtype, batch_dims=0, validate_indices=True, name=None):
    with name_scope(name, "ResourceGather") as scope:
        indices = _indices(indices)
        return apply_op("ResourceGather", [resource, indices], [dtype], scope,
                        attrs={"batch_dims": int(batch_dims), "validate_indices": bool(validate_indices),
                               "dtype": dtype, "Tindices": indices.dtype.base_dtype})


def _resource_scatter(op_type, resource, indices, updates, name, nd=False):
    dtype = handle_dtype(resource)
    with name_scope(name, op_type) as scope:
        indices = _indices(indices)
        updates = convert_to_tensor(updates, dtype=dtype, name="updates")
        attrs = {"Tindices": indices.dtype.base_dtype}
        if nd:
            attrs.update(T=updates.dtype.base_dtype, use_locking=True)
        else:
            attrs["dtype"] = updates.dtype.base_dtype
        return apply_op(op_type, [resource, indices, updates], [], scope, attrs=attrs)


def resource_scatter_update(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterUpdate", resource, indices, updates, name)


def resource_scatter_add(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterAdd", resource, indices, updates, name)


def resource_scatter_sub(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterSub", resource, indices, updates, name)


def resource_scatter_mul(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterMul", resource, indices, updates, name)


def resource_scatter_div(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterDiv", resource, indices, updates, name)


def resource_scatter_max(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterMax", resource, indices, updates, name)


def resource_scatter_min(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterMin", resource, indices, updates, name)


def resource_scatter_nd_update(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterNdUpdate", resource, indices, updates, name, nd=True)


def resource_scatter_nd_add(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterNdAdd", resource, indices, updates, name, nd=True)


def resource_scatter_nd_sub(resource, indices, updates, name=None):
    return _resource_scatter("ResourceScatterNdSub", resource, indices, updates, name, nd=True)


# -- the variable objects ------------------------------------------------------------------------

class BaseResourceVariable(Variable):
    """What ResourceVariable and _UnreadVariable share: reads, updates, conversion."""

    _is_resource_variable = True

    def __init__(self, *args, **kwargs):  # pragma: no cover - subclasses set the fields
        raise TypeError("BaseResourceVariable is abstract")

    def _set_fields(self, handle, dtype, shape, graph_element, initial_value=None, initializer_op=None,
                    is_initialized_op=None, trainable=True, constraint=None, caching_device=None,
                    synchronization=VariableSynchronization.AUTO, aggregation=VariableAggregation.NONE,
                    validate_shape=True):
        self._handle = handle
        self._variable = handle          # Variable's name/op/graph/device properties read this
        self._dtype = dtype
        self._shape = shape
        self._graph_element = graph_element
        self._initial_value = initial_value
        self._initializer_op = initializer_op
        self._is_initialized_op = is_initialized_op
        self._trainable = trainable
        self._constraint = constraint
        self._caching_device = caching_device
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._validate_shape = validate_shape
        self._save_slice_info = None

    handle = property(lambda self: self._handle)
    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)
    _shared_name = property(lambda self: self._handle.op.name)

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        self._shape = self._shape.merge_with(shape)

    def _ref(self):
        return self._handle

    def _as_graph_element(self):
        return self._graph_element

    @property
    def _snapshot(self):
        # Operators (v * 2, v[0], ...) read the variable anew, as TF's do.
        return self.value()

    def _read_variable_op(self):
        return read_variable_op(self._handle, self._dtype)

    def value(self):
        """A new read of the variable (a ReadVariableOp in the current name scope)."""
        if self._cached_value is not None:
            return self._cached_value
        g = self._handle.graph
        with g.colocate_with(None, ignore_existing=True):
            return self._read_variable_op()

    def read_value(self):
        """A read ("Read/ReadVariableOp") and an Identity of it."""
        from . import array_ops
        with name_scope("Read"):
            value = self._read_variable_op()
        return array_ops.identity(value)

    def sparse_read(self, indices, name=None):
        """Rows `indices` of the variable (a ResourceGather; its gradient is IndexedSlices)."""
        with name_scope("Gather" if name is None else name) as name:
            return resource_gather(self._handle, indices, dtype=self._dtype, name=name)

    def gather_nd(self, indices, name=None):
        """The variable's entries at `indices` (a ResourceGatherNd), then an Identity, as TF."""
        from . import array_ops
        with name_scope("GatherNd" if name is None else name) as name:
            value = resource_gather_nd(self._handle, indices, dtype=self._dtype, name=name)
        return array_ops.identity(value)

    def is_initialized(self, name=None):
        return var_is_initialized_op(self._handle, name)

    def initialized_value(self):
        g = self.graph
        with g.as_default(), g.control_dependencies(None), name_scope(None, "cond"):
            return apply_op("InitializedValue", [self._handle, self._initial_value],
                            [self._dtype], "Merge")

    def eval(self, session=None):
        return self._graph_element.eval(session=session)

    def load(self, value, session=None):
        if session is None:
            session = get_default_session()
            if session is None:
                raise ValueError("Either session argument should be provided or default session "
                                 "should be established")
        session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

    def _dense_var_to_tensor(self, dtype=None, name=None, as_ref=False):
        if dtype is not None and not dtype.is_compatible_with(self.dtype):
            raise ValueError(f"Incompatible type conversion requested to type {dtype.name} for "
                             f"`tf.Variable of type {self.dtype.name}. (Variable: {self})")
        if as_ref:
            return self.read_value().op.inputs[0]
        return self.value()

    # -- updates -------------------------------------------------------------------------------
    def _lazy_read(self, op):
        return _UnreadVariable(self._handle, self._dtype, self._shape, op)

    def _convert(self, value):
        return convert_to_tensor(value, dtype=self._dtype)

    def _update_graph(self):
        # (inside a cond branch or loop body the update goes into it; elsewhere, the handle's graph)
        g = get_default_graph()
        return g if g._building_function else self._handle.graph

    def assign(self, value, use_locking=None, name=None, read_value=True):
        g = self._update_graph()
        with g.as_default():
            value_tensor = self._convert(value)
            if not self._shape.is_compatible_with(value_tensor.shape):
                raise ValueError(f"Cannot assign value to variable ' {self.name}': Shape mismatch.The "
                                 f"variable shape {self._shape}, and the assigned value shape "
                                 f"{value_tensor.shape} are incompatible.")
            validate = self._validate_shape and self._shape.is_fully_defined()
            op = assign_variable_op(self._handle, value_tensor, validate_shape=validate, name=name)
            if read_value:
                return self._lazy_read(op)
        return op

    def _update(self, fn, delta, name, read_value):
        g = self._update_graph()
        with g.as_default():
            op = fn(self._handle, self._convert(delta), name=name)
        return self._lazy_read(op) if read_value else op

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(assign_add_variable_op, delta, name, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update(assign_sub_variable_op, delta, name, read_value)

    def _scatter(self, fn, sparse_delta, name):
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                            f"{sparse_delta}")
        return self._lazy_read(fn(self._handle, sparse_delta.indices,
                                  convert_to_tensor(sparse_delta.values, self._dtype), name=name))

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(resource_scatter_update, sparse_delta, name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(resource_scatter_add, sparse_delta, name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(resource_scatter_sub, sparse_delta, name)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(resource_scatter_mul, sparse_delta, name)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(resource_scatter_div, sparse_delta, name)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(resource_scatter_max, sparse_delta, name)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(resource_scatter_min, sparse_delta, name)

    def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
        from . import state_ops
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: "
                            f"{sparse_delta}")
        return self._lazy_read(state_ops.batch_scatter_update(
            self, sparse_delta.indices, sparse_delta.values, use_locking=use_locking, name=name))

    def _scatter_nd(self, fn, indices, updates, name):
        return self._lazy_read(fn(self._handle, indices, convert_to_tensor(updates, self._dtype), name=name))

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd(resource_scatter_nd_update, indices, updates, name)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd(resource_scatter_nd_add, indices, updates, name)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd(resource_scatter_nd_sub, indices, updates, name)

    def count_up_to(self, limit):
        raise NotImplementedError("count_up_to on a resource variable (ResourceCountUpTo) is not "
                                  "supported yet")


class ResourceVariable(BaseResourceVariable):
    """A variable whose state is reached through a handle (TF's ResourceVariable, graph mode)."""

    def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, shape=None):
        if variable_def is not None:
            raise NotImplementedError("ResourceVariable(variable_def=...) is not supported yet")
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except when you "
                             "are not providing a `variable_def`. You provided neither.")
        if trainable is None:
            trainable = synchronization != VariableSynchronization.ON_READ
        init_from_fn = callable(initial_value)
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if not isinstance(collections, (list, tuple, set)):
            raise ValueError(f"collections argument to Variable constructor must be a list, tuple, or "
                             f"set. Got {collections} of type {type(collections)}")
        if constraint is not None and not callable(constraint):
            raise ValueError(f"Argument `constraint` must be None or a callable. a callable. Got a "
                             f"{type(constraint)}:  {constraint}")
        collections = list(collections)
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        if dtype is not None:
            dtype = _dtypes.as_dtype(dtype).base_dtype
        g = get_default_graph()
        with g.as_default(), g.control_dependencies(None):
            with name_scope(name, "Variable", [] if init_from_fn else [initial_value]) as scope:
                handle_name = scope[:-1]
                saved = g._attr_scope
                g._attr_scope = dict(saved, _class=[f"loc:@{handle_name}"])
                try:
                    with g.name_scope("Initializer"), g.device(None):
                        if init_from_fn:
                            initial_value = initial_value()
                        initial_value = convert_to_tensor(initial_value, name="initial_value", dtype=dtype)
                    if shape is not None:
                        shape = as_shape(shape)
                        if not initial_value.shape.is_compatible_with(shape):
                            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape "
                                             f"({initial_value.shape}) is not compatible with the "
                                             f"explicitly supplied `shape` argument ({shape}).")
                    else:
                        # (TF 2.21's resource variable takes the initial value's static shape
                        # even with validate_shape=False; a ref variable's stays unknown)
                        shape = initial_value.shape
                    if validate_shape and not initial_value.shape.is_fully_defined() and \
                            not shape.is_fully_defined():
                        raise ValueError(f"initial_value must have a shape specified: {initial_value}")
                    dtype = initial_value.dtype.base_dtype
                    handle = var_handle_op(dtype, shape, container=getattr(g, "_container", "") or "",
                                           shared_name=handle_name, name=scope, debug_name=scope)
                finally:
                    g._attr_scope = saved
                with g.name_scope("IsInitialized"):
                    is_initialized_op = var_is_initialized_op(handle)
                with g.name_scope("Assign") as n, g.colocate_with(None, ignore_existing=True), \
                        g.device(handle.device or None):
                    initializer_op = assign_variable_op(handle, initial_value, validate_shape=validate_shape,
                                                        name=n)
                with g.name_scope("Read"), g.device(handle.device or None):
                    value = read_variable_op(handle, dtype)
                graph_element = value
                if caching_device is not None:
                    from . import array_ops
                    with g.colocate_with(None, ignore_existing=True), g.device(caching_device):
                        self._cached_value = array_ops.identity(value)
            g.add_to_collections(collections, self)
        self._set_fields(handle, dtype, shape, graph_element, initial_value=initial_value,
                         initializer_op=initializer_op, is_initialized_op=is_initialized_op,
                         trainable=bool(trainable), constraint=constraint, caching_device=caching_device,
                         synchronization=synchronization, aggregation=aggregation,
                         validate_shape=validate_shape)


class _UnreadVariable(BaseResourceVariable):
    """What an update with read_value=True returns: the variable as of after the update. Its
    graph element (what sess.run fetches) is a read made after the update; other reads (value(),
    read_value(), conversion) also wait for it, and so do further updates through it."""

    def __init__(self, handle, dtype, shape, parent_op):
        g = parent_op.graph
        with g.as_default(), g.control_dependencies([parent_op]):
            graph_element = read_variable_op(handle, dtype)
        self._set_fields(handle, dtype, shape, graph_element)
        self._parent_op = parent_op

    name = property(lambda self: self._parent_op.name)
    op = property(lambda self: self._parent_op)

    def value(self):
        return self._read_variable_op()

    def read_value(self):
        return self._read_variable_op()

    def _read_variable_op(self):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return read_variable_op(self._handle, self._dtype)

    def _after(self, method, *args, **kwargs):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return getattr(BaseResourceVariable, method)(self, *args, **kwargs)

    def assign(self, *args, **kwargs):
        return self._after("assign", *args, **kwargs)

    def assign_add(self, *args, **kwargs):
        return self._after("assign_add", *args, **kwargs)

    def assign_sub(self, *args, **kwargs):
        return self._after("assign_sub", *args, **kwargs)

    def _scatter(self, fn, sparse_delta, name):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return BaseResourceVariable._scatter(self, fn, sparse_delta, name)

    def _scatter_nd(self, fn, indices, updates, name):
        with self._parent_op.graph.control_dependencies([self._parent_op]):
            return BaseResourceVariable._scatter_nd(self, fn, indices, updates, name)


BaseResourceVariable._cached_value = None
