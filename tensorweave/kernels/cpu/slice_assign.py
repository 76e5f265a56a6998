"""Kernels of sliced variable assignment (ops/slice_assign_ops.py): the value broadcasts into
the slice, in place, as TF 2.21's StridedSliceAssign does."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from .array import _ss_index_fn
from .resource_variables import _not_found
from .state import _dims, _value


def _assign_into(params, index, value):
    target = params[index]          # basic indexing: a view of the slice
    value = np.asarray(value)
    try:
        value = np.broadcast_to(value, target.shape)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Cannot broadcast input shape {_dims(value.shape)} into final shape "
                        f"{_dims(target.shape)}") from None
    params[index] = value


@register_kernel("StridedSliceAssign")
def _strided_slice_assign(op, ctx):
    index = _ss_index_fn(op)

    def strided_slice_assign(cell, begin, end, strides, value):
        params = _value(cell)
        _assign_into(params, index(params.ndim, params.shape, begin, end, strides), value)
        return cell
    return strided_slice_assign


@register_kernel("ResourceStridedSliceAssign")
def _resource_strided_slice_assign(op, ctx):
    index = _ss_index_fn(op)

    def resource_strided_slice_assign(cell, begin, end, strides, value):
        if cell.value is None:
            raise _not_found(cell)
        params = cell.value
        _assign_into(params, index(params.ndim, params.shape, begin, end, strides), value)
    return resource_strided_slice_assign
