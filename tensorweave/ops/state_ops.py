"""State ops: the variable op and in-place updates (assign, scatter, count_up_to).

Every update op takes the variable's *reference* as input 0 (`ref_inputs=(0,)`): a `tf.Variable`
(its `_ref()`), or a reference tensor (dtype `float32_ref`, e.g. the output of another update).
Its output is that reference again, so `sess.run(v.assign(x))` returns the new value and
`v.assign(x) + 1` reads it. The kernels (kernels/cpu/state.py) write into the variable's buffer in
place and validate everything before they change anything.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, get_default_graph, name_scope
from ..framework.op_util import apply_op, check_allowed, merge_shapes, scalar_shape
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["assign", "assign_add", "assign_sub", "scatter_update", "scatter_add", "scatter_sub",
           "scatter_mul", "scatter_div", "scatter_max", "scatter_min", "scatter_nd_update",
           "scatter_nd_add", "scatter_nd_sub", "count_up_to", "is_variable_initialized", "batch_scatter_update"]


def _is_resource(ref):
    return getattr(ref, "_is_resource_variable", False)



# -- the variable op ---------------------------------------------------------------------------

def _variable_shape(op):
    return [op._attrs["shape"]]


registry.register_op("VariableV2", shape_fn=_variable_shape, stateful=True)
registry.no_gradient("VariableV2")


def variable_op_v2(shape, dtype, name="Variable", container="", shared_name=""):
    """Creates a VariableV2 op; returns its reference tensor (dtype `<dtype>_ref`)."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    shape = as_shape(shape) if shape is not None else unknown_shape()
    g = get_default_graph()
    op = g._create_op("VariableV2", [], [dtype._as_ref], name=name,
                      attrs={"shape": shape, "dtype": dtype, "container": container or getattr(g, "_container", ""),
                             "shared_name": shared_name or ""})
    return op._outputs[0]


# -- argument handling -------------------------------------------------------------------------

def _ref_of(ref, op_type):
    """The reference tensor of a Variable or a ref tensor; AttributeError (as TF) otherwise."""
    r = getattr(ref, "_ref", None)
    if callable(r) and not isinstance(ref, Tensor):
        ref = r()
    if not isinstance(ref, Tensor) or not ref.dtype._is_ref_dtype:
        # TF's tf.assign & co. hand a non-ref argument to the resource-variable path, which
        # fails looking up the method it needs: AttributeError naming it.
        attr = _RESOURCE_ATTR.get(op_type, "_lazy_read")
        kind = "SymbolicTensor" if isinstance(ref, Tensor) else type(ref).__name__
        raise AttributeError(f"'{kind}' object has no attribute '{attr}'")
    return ref


_RESOURCE_ATTR = {"Assign": "assign", "AssignAdd": "assign_add", "AssignSub": "assign_sub", "CountUpTo": "handle",
                  "IsVariableInitialized": "is_initialized"}


def _value_of(value, ref, op_type, arg="value"):
    dt = ref.dtype.base_dtype
    if isinstance(value, Tensor) or hasattr(value, "_as_graph_element"):
        value = convert_to_tensor(value)
        if value.dtype.base_dtype != dt:
            raise TypeError(f"Input '{arg}' of '{op_type}' Op has type {value.dtype.base_dtype.name} "
                            f"that does not match type {dt.name} of argument 'ref'.")
        return value
    try:
        return convert_to_tensor(value, dtype=dt, name=arg)
    except (TypeError, ValueError) as e:  # TF's op-def library names the op and the parameter
        raise TypeError(f"Expected {dt.name} passed to parameter '{arg}' of op '{op_type}', got "
                        f"{value!r} of type '{type(value).__name__}' instead. Error: {e}") from None


def _indices_of(indices, op_type):
    indices = convert_to_tensor(indices, name="indices")
    if indices.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter 'indices' has DataType "
                        f"{indices.dtype.base_dtype.name} not in list of allowed values: int32, int64")
    return indices


def _update_op(op_type, ref, make_inputs, name, make_attrs):
    """Builds update op `op_type` on `ref`. As TF's op-def library does, Python values are
    converted inside the op's own name scope ("AssignAdd/value") and the op takes that scope's
    name ("AssignAdd"), colocated with the variable."""
    g = get_default_graph()
    if not g._building_function:  # (inside a cond branch or loop body the op goes into it)
        g = ref.graph
    with g.as_default(), g.name_scope(name or op_type) as scope:
        inputs = make_inputs()
        with g.colocate_with(ref.op):
            return apply_op(op_type, [ref] + inputs, [ref.dtype], scope, attrs=make_attrs(inputs))


# -- assign ------------------------------------------------------------------------------------

def _assign_shape(op):
    ref, value = op._inputs[0]._shape, op._inputs[1]._shape
    if not op._attrs.get("validate_shape", True):
        return [value]
    return [merge_shapes(ref, value)]


def _update_shape(op):
    return [merge_shapes(op._inputs[0]._shape, op._inputs[1]._shape)]


registry.register_op("Assign", shape_fn=_assign_shape, stateful=True, ref_inputs=(0,))
registry.register_op("AssignAdd", shape_fn=_update_shape, stateful=True, ref_inputs=(0,))
registry.register_op("AssignSub", shape_fn=_update_shape, stateful=True, ref_inputs=(0,))
for _t in ("Assign", "AssignAdd", "AssignSub"):
    registry.no_gradient(_t)


def assign(ref, value, validate_shape=None, use_locking=None, name=None):
    """Sets `ref` to `value`; returns the reference (its value after the assignment).

    validate_shape=False lets the variable take a value of another shape."""
    if _is_resource(ref):
        return ref.assign(value, name=name)
    ref_t = _ref_of(ref, "Assign")
    validate_shape = True if validate_shape is None else bool(validate_shape)
    use_locking = True if use_locking is None else bool(use_locking)
    return _update_op("Assign", ref_t, lambda: [_value_of(value, ref_t, "Assign")], name, lambda _: {
        "T": ref_t.dtype.base_dtype, "validate_shape": validate_shape, "use_locking": use_locking})


def assign_add(ref, value, use_locking=None, name=None):
    """ref += value, in place; returns the reference."""
    if _is_resource(ref):
        return ref.assign_add(value)  # TF's v1 assign_add drops `name` for a resource variable
    ref_t = _ref_of(ref, "AssignAdd")
    return _update_op("AssignAdd", ref_t, lambda: [_value_of(value, ref_t, "AssignAdd")], name, lambda _: {
        "T": ref_t.dtype.base_dtype, "use_locking": bool(use_locking)})


def assign_sub(ref, value, use_locking=None, name=None):
    """ref -= value, in place; returns the reference."""
    if _is_resource(ref):
        return ref.assign_sub(value)  # TF's v1 assign_sub drops `name` for a resource variable
    ref_t = _ref_of(ref, "AssignSub")
    return _update_op("AssignSub", ref_t, lambda: [_value_of(value, ref_t, "AssignSub")], name, lambda _: {
        "T": ref_t.dtype.base_dtype, "use_locking": bool(use_locking)})


# -- scatter -----------------------------------------------------------------------------------

def _scatter_shape(op):
    ref, indices, updates = (t._shape for t in op._inputs)
    if ref.ndims is not None and indices.ndims is not None and updates.ndims is not None:
        if updates.ndims != 0:
            want = indices.concatenate(ref[1:]) if ref.ndims >= 1 else None
            if want is None:
                raise ValueError("Shape must be at least rank 1 but is rank 0")
            merge_shapes(updates, want)
    return [ref]


def _scatter_nd_shape(op):
    ref, indices, updates = (t._shape for t in op._inputs)
    if ref.ndims is not None and indices.ndims is not None and updates.ndims is not None:
        idx = indices.as_list()
        if indices.ndims < 1:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        depth = idx[-1]
        if depth is not None:
            if depth > ref.ndims:
                raise ValueError(f"The last dimension of indices must be <= rank of ref: {depth} vs. "
                                 f"{ref.ndims}")
            merge_shapes(updates, TensorShape(idx[:-1] + ref.as_list()[depth:]))
    return [ref]


_SCATTER = {"ScatterUpdate": True, "ScatterAdd": False, "ScatterSub": False, "ScatterMul": False,
            "ScatterDiv": False, "ScatterMax": False, "ScatterMin": False}
for _t in _SCATTER:
    registry.register_op(_t, shape_fn=_scatter_shape, stateful=True, ref_inputs=(0,))
    registry.no_gradient(_t)
for _t in ("ScatterNdUpdate", "ScatterNdAdd", "ScatterNdSub"):
    registry.register_op(_t, shape_fn=_scatter_nd_shape, stateful=True, ref_inputs=(0,))
    registry.no_gradient(_t)


def _scatter(op_type, ref, indices, updates, use_locking, name):
    if _is_resource(ref):
        # TF's state_ops.scatter_* on a resource variable: the Resource* op and a lazy read.
        from . import resource_variable_ops as rvo
        fn = getattr(rvo, "resource_" + "".join("_" + c.lower() if c.isupper() else c
                                                  for c in op_type).lstrip("_"))
        return ref._lazy_read(fn(ref.handle, indices, convert_to_tensor(updates, ref.dtype), name=name))
    ref_t = _ref_of(ref, op_type)
    default_locking = _SCATTER.get(op_type, True)
    return _update_op(op_type, ref_t,
                      lambda: [_indices_of(indices, op_type), _value_of(updates, ref_t, op_type, "updates")],
                      name, lambda inputs: {
                          "T": ref_t.dtype.base_dtype, "Tindices": inputs[0].dtype.base_dtype,
                          "use_locking": default_locking if use_locking is None else bool(use_locking)})


def scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[indices, ...] = updates (for repeated indices, the last update wins)."""
    return _scatter("ScatterUpdate", ref, indices, updates, use_locking, name)


def scatter_add(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] += updates (repeated indices accumulate)."""
    return _scatter("ScatterAdd", ref, indices, updates, use_locking, name)


def scatter_sub(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] -= updates (repeated indices accumulate)."""
    return _scatter("ScatterSub", ref, indices, updates, use_locking, name)


def scatter_mul(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] *= updates (repeated indices multiply)."""
    return _scatter("ScatterMul", ref, indices, updates, use_locking, name)


def scatter_div(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] /= updates (repeated indices divide)."""
    return _scatter("ScatterDiv", ref, indices, updates, use_locking, name)


def scatter_max(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] = max(ref[indices, ...], updates)."""
    return _scatter("ScatterMax", ref, indices, updates, use_locking, name)


def scatter_min(ref, indices, updates, use_locking=False, name=None):
    """ref[indices, ...] = min(ref[indices, ...], updates)."""
    return _scatter("ScatterMin", ref, indices, updates, use_locking, name)


def scatter_nd_update(ref, indices, updates, use_locking=True, name=None):
    """ref[indices[i]] = updates[i] for the index tuples in the last axis of `indices`."""
    return _scatter("ScatterNdUpdate", ref, indices, updates, use_locking, name)


def batch_scatter_update(ref, indices, updates, use_locking=True, name=None):
    """ref[i_0, ..., i_{k-1}, indices[i_0, ..., i_{k-1}]] = updates[i_0, ..., i_{k-1}] for a k-D
    `indices` (TF builds the full index tuples and calls scatter_nd_update)."""
    from . import array_ops, array_range_ops, math_ops
    with name_scope(name):
        indices = convert_to_tensor(indices, name="indices")
        indices_shape = array_ops.shape(indices)
        indices_dimensions = indices.get_shape().ndims
        if indices_dimensions is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        nd_indices = array_ops.expand_dims(indices, axis=-1)
        nd_indices_list = []
        for dimension in range(indices_dimensions - 1):
            dimension_size = indices_shape[dimension]
            shape_to_broadcast = [1] * (indices_dimensions + 1)
            shape_to_broadcast[dimension] = dimension_size
            dimension_range = array_ops.reshape(array_range_ops.range(0, dimension_size, 1), shape_to_broadcast)
            if dimension_range.dtype.base_dtype != nd_indices.dtype:
                dimension_range = math_ops.cast(dimension_range, nd_indices.dtype)
            nd_indices_list.append(dimension_range * array_ops.ones_like(nd_indices))
        nd_indices_list.append(nd_indices)
        final_indices = array_ops.concat(nd_indices_list, axis=-1)
        return scatter_nd_update(ref, final_indices, updates, use_locking=use_locking)


def scatter_nd_add(ref, indices, updates, use_locking=False, name=None):
    """ref[indices[i]] += updates[i] (repeated indices accumulate)."""
    return _scatter("ScatterNdAdd", ref, indices, updates, use_locking, name)


def scatter_nd_sub(ref, indices, updates, use_locking=False, name=None):
    """ref[indices[i]] -= updates[i] (repeated indices accumulate)."""
    return _scatter("ScatterNdSub", ref, indices, updates, use_locking, name)


# -- count_up_to, is_variable_initialized ------------------------------------------------------

def _count_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {s.ndims}")
    return [TensorShape([])]


registry.register_op("CountUpTo", shape_fn=_count_shape, stateful=True, ref_inputs=(0,))
registry.no_gradient("CountUpTo")
registry.register_op("IsVariableInitialized", shape_fn=scalar_shape, stateful=True, ref_inputs=(0,))


def _resource_count_shape(op):
    from .resource_variable_ops import handle_shape
    s = handle_shape(op._inputs[0])
    if s.ndims is not None and s.ndims != 0:
        raise ValueError(f"Shape must be rank 0 but is rank {s.ndims}")
    return [TensorShape([])]


registry.register_op("ResourceCountUpTo", shape_fn=_resource_count_shape, stateful=True)
registry.no_gradient("ResourceCountUpTo")
registry.no_gradient("IsVariableInitialized")


def count_up_to(ref, limit, name=None):
    """Increments `ref` and returns its old value; OutOfRangeError once the old value reaches
    `limit`."""
    if _is_resource(ref):
        # (the op-builder's scope is taken before its type check, as in TF)
        with name_scope(name, "ResourceCountUpTo") as scope:
            dt = ref.dtype.base_dtype
            check_allowed("T", dt, ("int32", "int64"))
            return apply_op("ResourceCountUpTo", [ref.handle], [dt], scope[:-1] + "/",
                            attrs={"limit": int(limit), "T": dt})
    ref_t = _ref_of(ref, "CountUpTo")
    if ref_t.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter 'ref' has DataType {ref_t.dtype.base_dtype.name} "
                        f"not in list of allowed values: int32, int64")
    return apply_op("CountUpTo", [ref_t], [ref_t.dtype.base_dtype], name or "CountUpTo",
                    attrs={"T": ref_t.dtype.base_dtype, "limit": int(limit)})


def is_variable_initialized(ref, name=None):
    """A scalar bool tensor: whether the variable has been initialized."""
    if _is_resource(ref):
        return ref.is_initialized(name=name)
    ref_t = _ref_of(ref, "IsVariableInitialized")
    # TF's op-def library colocates an op with its ref inputs (_class loc:@<variable>).
    with get_default_graph().colocate_with(ref_t.op):
        return apply_op("IsVariableInitialized", [ref_t], [_dtypes.bool], name or "IsVariableInitialized",
                        attrs={"dtype": ref_t.dtype.base_dtype})
