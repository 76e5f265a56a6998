"""CPU kernels for array ops."""

from ...framework import errors
from ..registry import Fixed, register_kernel


@register_kernel("Const")
def _const(op, ctx):
    return Fixed(op.get_attr("value"))


def _dims_str(shape):
    if shape.ndims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


_TF_TYPE_NAMES = {"float32": "float", "float64": "double"}


@register_kernel("Placeholder")
def _placeholder(op, ctx):
    dtype = op.get_attr("dtype")
    msg = (f"You must feed a value for placeholder tensor '{op.name}' with dtype "
           f"{_TF_TYPE_NAMES.get(dtype.name, dtype.name)}"
           + (f" and shape {_dims_str(op.get_attr('shape'))}" if op.get_attr("shape").ndims is not None else ""))

    def placeholder():
        raise errors.InvalidArgumentError(None, op, msg)
    return placeholder


@register_kernel("PlaceholderWithDefault", forward=True)
def _placeholder_with_default(op, ctx):
    return None


@register_kernel("Identity", forward=True)
def _identity(op, ctx):
    return None


@register_kernel("StopGradient", forward=True)
def _stop_gradient(op, ctx):
    return None
