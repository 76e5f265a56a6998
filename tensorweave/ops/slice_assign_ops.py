"""Sliced assignment to a variable, `v[1:3].assign(x)` (TF's StridedSliceAssign on a reference
variable, ResourceStridedSliceAssign on a resource one).

Indexing a variable gives an ordinary strided_slice of its value whose tensor also remembers the
variable and the slice (TF attaches an `assign` closure to that tensor); `assign` builds the
update op named "<slice scope>/_assign" as TF does. The value broadcasts into the slice."""

import weakref

from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor
from ..framework.op_util import apply_op
from . import state_ops

__all__ = ["strided_slice_assign"]

_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")

registry.register_op("StridedSliceAssign", shape_fn=lambda op: [op._inputs[0]._shape], stateful=True,
                     ref_inputs=(0,))
registry.register_op("ResourceStridedSliceAssign", shape_fn=lambda op: [], stateful=True)
registry.no_gradient("StridedSliceAssign")
registry.no_gradient("ResourceStridedSliceAssign")

# slice tensor -> (variable, begin, end, strides, masks, the slice's name scope)
_SLICES = weakref.WeakKeyDictionary()


class _VariableSliceTensor(Tensor):
    """A slice of a variable's value: a Tensor that can also be assigned to."""

    __slots__ = ()

    def assign(self, value, name=None):
        """Writes `value` (broadcast to the slice's shape) into the variable's slice; returns
        the variable's value after the update."""
        var, begin, end, strides, masks, parent = _SLICES[self]
        return strided_slice_assign(var, begin, end, strides, value, masks,
                                    name=name if name is not None else parent + "_assign")


def mark_variable_slice(tensor, var, begin, end, strides, masks, parent_name):
    """Makes the strided_slice output `tensor` assignable to `var` (TF's `op.assign = ...`)."""
    tensor.__class__ = _VariableSliceTensor
    _SLICES[tensor] = (var, begin, end, strides, masks, parent_name or "strided_slice")


def strided_slice_assign(var, begin, end, strides, value, masks, name=None):
    """var[begin:end:strides] = value with StridedSlice's masks (a dict of the five masks)."""
    attrs = {"Index": begin.dtype.base_dtype, **{m: int(masks.get(m, 0)) for m in _MASKS}}
    if getattr(var, "_is_resource_variable", False):
        g = var._update_graph()
        with g.as_default(), g.name_scope(name or "ResourceStridedSliceAssign") as scope:
            value = convert_to_tensor(value, dtype=var.dtype.base_dtype, name="value")
            op = apply_op("ResourceStridedSliceAssign", [var.handle, begin, end, strides, value], [], scope,
                          attrs={"T": var.dtype.base_dtype, **attrs})
        return var._lazy_read(op)
    ref = state_ops._ref_of(var, "StridedSliceAssign")
    return state_ops._update_op(
        "StridedSliceAssign", ref,
        lambda: [begin, end, strides, state_ops._value_of(value, ref, "StridedSliceAssign")], name,
        lambda inputs: {"T": ref.dtype.base_dtype, **attrs})
