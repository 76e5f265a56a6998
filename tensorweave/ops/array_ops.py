"""Array ops: placeholders, identity, shapes, reshaping, slicing, joining, gathering."""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.op_util import apply_op, unchanged_shape
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["placeholder", "placeholder_with_default", "identity", "stop_gradient"]


def _placeholder_shape(op):
    return [op._attrs["shape"]]


registry.register_op("Placeholder", shape_fn=_placeholder_shape)
registry.no_gradient("Placeholder")


def placeholder(dtype, shape=None, name=None):
    """A tensor whose value must be fed at `Session.run` (InvalidArgumentError if it is not)."""
    dtype = _dtypes.as_dtype(dtype)
    shape = unknown_shape() if shape is None else as_shape(shape)
    return apply_op("Placeholder", [], [dtype], name or "Placeholder",
                    attrs={"dtype": dtype, "shape": shape})


def _pwd_shape(op):
    return [op._attrs["shape"]]


registry.register_op("PlaceholderWithDefault", shape_fn=_pwd_shape)


@registry.register_gradient("PlaceholderWithDefault")
def _pwd_grad(op, grad):
    return [grad]


def placeholder_with_default(input, shape, name=None):
    """A placeholder that passes `input` through when it is not fed."""
    input = convert_to_tensor(input)
    shape = as_shape(shape)
    if not shape.is_compatible_with(input.shape):
        raise ValueError(f"Shapes {input.shape} and {shape} are incompatible")
    return apply_op("PlaceholderWithDefault", [input], [input.dtype.base_dtype],
                    name or "PlaceholderWithDefault", attrs={"dtype": input.dtype.base_dtype, "shape": shape})


registry.register_op("Identity", shape_fn=unchanged_shape)


@registry.register_gradient("Identity")
def _identity_grad(op, grad):
    return [grad]


def identity(input, name=None):
    """Returns a tensor with the same value as `input` (reading a variable's current value)."""
    input = convert_to_tensor(input)
    return apply_op("Identity", [input], [input.dtype.base_dtype], name or "Identity",
                    attrs={"T": input.dtype.base_dtype})


registry.register_op("StopGradient", shape_fn=unchanged_shape)
registry.no_gradient("StopGradient")


def stop_gradient(input, name=None):
    """Passes `input` through; gradients do not flow back through it."""
    input = convert_to_tensor(input)
    return apply_op("StopGradient", [input], [input.dtype.base_dtype], name or "StopGradient",
                    attrs={"T": input.dtype.base_dtype})
