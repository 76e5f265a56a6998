"""Array ops over spatial windows: tf.extract_volume_patches (ExtractVolumePatches, its gradient
as one scatter-add op) and tf.required_space_to_batch_paddings (a composite of slices and stacks,
named as TF names it); and two small predicates of TF's top-level namespace, is_symbolic_tensor
and no_regularizer.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.graph import Tensor
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape
from .array_extra_ops import tf_constant_value
from .array_ops import _base, _graph, _to_tensor, zeros

__all__ = ["extract_volume_patches", "required_space_to_batch_paddings", "is_symbolic_tensor",
           "no_regularizer"]

_PATCH_TYPES = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.uint8, _dtypes.int16, _dtypes.int8,
                _dtypes.int64, _dtypes.bfloat16, _dtypes.uint16, _dtypes.float16, _dtypes.uint32,
                _dtypes.uint64)


def volume_patch_geometry(size, k, stride, padding):
    """(output size, padding before) of one spatial dimension, as TF's GetWindowedOutputSize."""
    if padding == "VALID":
        return max((size - k + stride) // stride, 0), 0
    out = (size + stride - 1) // stride
    return out, max((out - 1) * stride + k - size, 0) // 2


def _volume_patches_shape(op):
    s = op.inputs[0].shape
    if s.ndims is not None and s.ndims != 5:
        raise ValueError(f"Shape must be rank 5 but is rank {s.ndims}")
    ks, st = op._get_attr("ksizes"), op._get_attr("strides")
    if len(ks) != 5:
        raise ValueError(f"ExtractVolumePatches requires the ksizes attribute to contain 5 values, but got: "
                         f"{len(ks)}")
    if len(st) != 5:
        raise ValueError(f"ExtractVolumePatches requires the stride attribute to contain 5 values, but got: "
                         f"{len(st)}")
    for v in st[1:4]:
        if v <= 0:
            raise ValueError(f"Stride must be > 0, but got {v}")
    dims = s.as_list() if s.ndims is not None else [None] * 5
    depth = None if dims[4] is None else dims[4] * ks[1] * ks[2] * ks[3]
    if any(d is None for d in dims[1:4]):
        # TF's shape function returns a rank-4 shape here (batch, ?, ?, depth)
        return [TensorShape([dims[0], None, None, depth])]
    pad = op._get_attr("padding")
    out = [volume_patch_geometry(dims[1 + i], ks[1 + i], st[1 + i], pad)[0] for i in range(3)]
    return [TensorShape([dims[0]] + out + [depth])]


registry.register_op("ExtractVolumePatches", shape_fn=_volume_patches_shape)
registry.register_op("ExtractVolumePatchesGrad", shape_fn=lambda op: [op.inputs[1].shape])
registry.no_gradient("ExtractVolumePatchesGrad")


@registry.register_gradient("ExtractVolumePatches")
def _extract_volume_patches_grad(op, grad):
    # one scatter-add op: each input element sums the patch entries that copied it
    attrs = {k: op._get_attr(k) for k in ("ksizes", "strides", "padding")}
    attrs["T"] = _base(op.inputs[0])
    return [apply_op("ExtractVolumePatchesGrad", [grad, op.inputs[0]], [attrs["T"]],
                     "ExtractVolumePatchesGrad", attrs=attrs)]


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """Patches [batch, out_planes, out_rows, out_cols, kp * kr * kc * depth] of a 5-D `input`,
    as if convolving with a ksizes window at `strides`, "VALID" or "SAME"."""
    with _graph().name_scope(name or "ExtractVolumePatches") as scope:  # TF's checks use up the name
        for attr, v in (("ksizes", ksizes), ("strides", strides)):
            if not isinstance(v, (list, tuple)):
                raise TypeError(f"Expected list for '{attr}' argument to 'extract_volume_patches' Op, not {v}.")
            if len(v) < 5:
                raise ValueError(f"Attr '{attr}' of 'ExtractVolumePatches' Op passed list of length {len(v)} "
                                 "less than minimum 5.")
        if padding not in ("SAME", "VALID"):
            raise ValueError(f"Attr 'padding' of 'ExtractVolumePatches' Op passed string '{padding}' not in: "
                             '"SAME", "VALID".')
        x = _to_tensor(input, name="input")
        if _base(x) not in _PATCH_TYPES:
            raise TypeError(f"Value passed to parameter 'input' has DataType {_base(x).name} not in list of "
                            f"allowed values: {', '.join(t.name for t in _PATCH_TYPES)}")
        return apply_op("ExtractVolumePatches", [x], [_base(x)], scope,
                        attrs={"T": _base(x), "ksizes": [int(v) for v in ksizes],
                               "strides": [int(v) for v in strides], "padding": padding})


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None, name=None):
    """The paddings (and crops) that make each dimension of `input_shape`, padded by
    `base_paddings`, a multiple of `block_shape`: pad_end grows by
    (block - (input + pad_start + pad_end) % block) % block, and crops = [[0, that extra], ...]."""
    from .array_join_ops import stack
    with _graph().name_scope(name or "required_space_to_batch_paddings"):
        input_shape = _to_tensor(input_shape, dtype=_dtypes.int32, name="input_shape")
        block_shape = _to_tensor(block_shape, dtype=_dtypes.int32, name="block_shape")
        if not block_shape.shape.is_fully_defined():
            raise ValueError(f"Shape {block_shape.shape} is not fully defined")
        if block_shape.shape.ndims != 1:
            raise ValueError(f"Shape {block_shape.shape} must have rank 1")
        n = block_shape.shape[0].value
        if n == 0:
            return zeros([0, 2], _dtypes.int32), zeros([0, 2], _dtypes.int32)
        if not input_shape.shape.is_compatible_with([n]):
            raise ValueError(f"Shapes {input_shape.shape} and ({n},) are incompatible")
        if base_paddings is not None:
            base_paddings = _to_tensor(base_paddings, dtype=_dtypes.int32, name="base_paddings")
            if not base_paddings.shape.is_compatible_with([n, 2]):
                raise ValueError(f"Shapes {base_paddings.shape} and ({n}, 2) are incompatible")
        else:
            base_paddings = zeros([n, 2], _dtypes.int32)
        # all three known while building: the arithmetic below runs on constants (as in TF)
        consts = [tf_constant_value(t) for t in (block_shape, input_shape, base_paddings)]
        if all(c is not None for c in consts):
            block_shape, input_shape, base_paddings = consts
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full_input_shape = input_shape + pad_start + orig_pad_end
        pad_end_extra = (block_shape - full_input_shape % block_shape) % block_shape
        pad_end = orig_pad_end + pad_end_extra
        paddings = stack([[pad_start[i], pad_end[i]] for i in range(n)], name="paddings")
        crops = stack([[0, pad_end_extra[i]] for i in range(n)], name="crops")
        return paddings, crops


def is_symbolic_tensor(tensor):
    """True if `tensor` is a graph (symbolic) Tensor; False for variables and Python/NumPy values."""
    return isinstance(tensor, Tensor)


def no_regularizer(_):
    """A regularizer that regularizes nothing (returns None): keeps a variable out of a
    variable scope's default regularizer."""
    return None

