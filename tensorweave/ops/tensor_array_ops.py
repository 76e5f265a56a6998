"""`tf.TensorArray`: a list of tensors indexed by position, for loops that read and write one
element per iteration (TF1's TensorArray API).

Here a TensorArray is functional: its `flow` is a float32 scalar tensor whose runtime value is the
array itself (kernels/cpu/tensor_array.py), so it passes through cond/while_loop as an ordinary
loop variable and gradients flow through it like TF's flow tensor. Every op takes the flow and
ops that change the array return the new flow; the Python object just carries the flow and the
static facts (dtype, element shape). `handle` is the flow too (there is no separate resource).
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["TensorArray"]

_SCALAR = TensorShape([])


def _scalar_shape(op):
    return [_SCALAR] * len(op._outputs)


def _ranked(out, **ranks):
    """A shape function checking input ranks as TF's (`index=(1, 0)`: input 1 is a scalar);
    the output is `out`: scalar for a flow, unknown for a value (whose static shape the Python
    method then sets from the array's element shape)."""
    def shape_fn(op):
        for pos, rank in ranks.values():
            op._inputs[pos].shape.require_rank(rank)
        return [out]
    return shape_fn


def _scatter_shape(op):
    # TF's MergePrefix(value, indices): value's first dimension is the number of indices.
    indices, value = op._inputs[1].shape.require_rank(1), op._inputs[2].shape
    if value.ndims is not None:
        if value.ndims < 1:
            raise ValueError(f"Shape must be at least rank 1 but is rank {value.ndims}")
        a, b = value[0].value, indices[0].value if indices.ndims else None
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return [_SCALAR]


registry.register_op("TensorArrayV3", shape_fn=_ranked(_SCALAR, size=(0, 0)), stateful=True)
registry.register_op("TensorArrayWriteV3", shape_fn=_ranked(_SCALAR, index=(1, 0)))
registry.register_op("TensorArrayScatterV3", shape_fn=_scatter_shape)
registry.register_op("TensorArraySplitV3", shape_fn=_ranked(_SCALAR, lengths=(2, 1)))
registry.register_op("TensorArrayReadV3", shape_fn=_ranked(unknown_shape(), index=(1, 0)))
registry.register_op("TensorArrayGatherV3", shape_fn=_ranked(unknown_shape(), indices=(1, 1)))
registry.register_op("TensorArrayConcatV3")
registry.register_op("TensorArraySizeV3", shape_fn=_scalar_shape)
registry.register_op("TensorArrayIdentity", shape_fn=_scalar_shape)
# Gradient helpers: a TensorArray holding g at `index` (rest zero); reads that give zeros where
# the gradient array has nothing. The reads take the names of TF's reads of the gradient
# TensorArray ("..._grad/TensorArrayGatherV3"), which is what a gradient's name shows.
registry.register_op("TensorArrayGradWrite", shape_fn=_scalar_shape)
registry.register_op("TensorArrayGradScatter", shape_fn=_scalar_shape)
registry.register_op("TensorArrayGradSplit", shape_fn=_scalar_shape)
registry.register_op("TensorArrayGradRead")
registry.register_op("TensorArrayGradGather")
registry.register_op("TensorArrayGradConcat")
registry.register_op("TensorArrayCloseV3", stateful=True)
for _t in ("TensorArrayV3", "TensorArraySizeV3", "TensorArrayCloseV3"):
    registry.no_gradient(_t)


# The gradient helpers are linear in their gradient argument and come in adjoint pairs (a
# one-element array and the read of that element, and so on), so gradients of gradients flow
# through them; the flow and `like` inputs give only sizes and shapes.
@registry.register_gradient("TensorArrayGradWrite")
def _grad_write_grad(op, gg):
    flow, index, g = op.inputs
    return [None, None, apply_op("TensorArrayGradRead", [gg, index, g], [g.dtype.base_dtype], "TensorArrayReadV3",
                                 shapes=[g.shape])]


@registry.register_gradient("TensorArrayGradScatter")
def _grad_scatter_grad(op, gg):
    flow, indices, g = op.inputs
    return [None, None, apply_op("TensorArrayGradGather", [gg, indices, g], [g.dtype.base_dtype],
                                 "TensorArrayGatherV3", shapes=[g.shape])]


@registry.register_gradient("TensorArrayGradSplit")
def _grad_split_grad(op, gg):
    flow, g, lengths = op.inputs
    return [None, apply_op("TensorArrayGradConcat", [gg, lengths, g], [g.dtype.base_dtype], "TensorArrayConcatV3",
                           shapes=[g.shape]), None]


@registry.register_gradient("TensorArrayGradRead")
def _grad_read_grad(op, gg):
    flow, index, like = op.inputs
    return [apply_op("TensorArrayGradWrite", [flow, index, gg], [_dtypes.float32], "TensorArrayGradWrite"), None, None]


@registry.register_gradient("TensorArrayGradGather")
def _grad_gather_grad(op, gg):
    flow, indices, like = op.inputs
    return [apply_op("TensorArrayGradScatter", [flow, indices, gg], [_dtypes.float32], "TensorArrayGradScatter"),
            None, None]


@registry.register_gradient("TensorArrayGradConcat")
def _grad_concat_grad(op, gg):
    flow, lengths, like = op.inputs
    return [apply_op("TensorArrayGradSplit", [flow, gg, lengths], [_dtypes.float32], "TensorArrayGradSplit"),
            None, None]


@registry.register_gradient("TensorArrayIdentity")
def _identity_grad(op, g):
    return [g]


@registry.register_gradient("TensorArrayWriteV3")
def _write_grad(op, g_flow):
    flow, index, value = op.inputs
    g = apply_op("TensorArrayGradRead", [g_flow, index, value], [value.dtype.base_dtype], "TensorArrayReadV3",
                 shapes=[value.shape])
    return [g_flow, None, g]


@registry.register_gradient("TensorArrayScatterV3")
def _scatter_grad(op, g_flow):
    flow, indices, value = op.inputs
    g = apply_op("TensorArrayGradGather", [g_flow, indices, value], [value.dtype.base_dtype],
                 "TensorArrayGatherV3", shapes=[value.shape])
    return [g_flow, None, g]


@registry.register_gradient("TensorArraySplitV3")
def _split_grad(op, g_flow):
    flow, value, lengths = op.inputs
    g = apply_op("TensorArrayGradConcat", [g_flow, lengths, value], [value.dtype.base_dtype],
                 "TensorArrayConcatV3", shapes=[value.shape])
    return [g_flow, g, None]


@registry.register_gradient("TensorArrayReadV3")
def _read_grad(op, g):
    flow, index = op.inputs
    return [apply_op("TensorArrayGradWrite", [flow, index, g], [_dtypes.float32], "TensorArrayGradWrite"), None]


@registry.register_gradient("TensorArrayGatherV3")
def _gather_grad(op, g):
    flow, indices = op.inputs
    return [apply_op("TensorArrayGradScatter", [flow, indices, g], [_dtypes.float32],
                     "TensorArrayGradScatter"), None]


@registry.register_gradient("TensorArrayConcatV3")
def _concat_grad(op, g, g_lengths=None):
    flow = op.inputs[0]
    return [apply_op("TensorArrayGradSplit", [flow, g, op.outputs[1]], [_dtypes.float32],
                     "TensorArrayGradSplit")]


class TensorArray:
    """`tf.TensorArray(dtype, size=None, dynamic_size=None, clear_after_read=None, ...)`."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None,
                 colocate_with_first_write_call=True, name=None):
        self._dtype = _dtypes.as_dtype(dtype).base_dtype
        self._dynamic_size = bool(dynamic_size)
        self._infer_shape = infer_shape
        self._element_shape = [as_shape(element_shape) if element_shape is not None else unknown_shape()]
        self._handle_shape = self._element_shape[0]  # the element shape given at creation
        self._static_size = None
        self._size = None       # TF's _size: the size argument as given, when the size is fixed
        if handle is not None or flow is not None:
            if flow is None:
                flow = handle
            self._flow = flow
            return
        if size is None:
            raise ValueError("Argument `size` must be provided if handle is not provided.")
        if not self._dynamic_size:
            self._size = size
        with name_scope(name, "TensorArray", [size]) as scope:
            try:
                size = convert_to_tensor(size, dtype=_dtypes.int32, name="size")
            except (TypeError, ValueError) as e:
                if isinstance(size, Tensor):
                    raise
                # (TF hands the size to the op builder, whose message this is)
                raise TypeError(f"Expected int32 passed to parameter 'size' of op 'TensorArrayV3', got {size!r} "
                                f"of type '{type(size).__name__}' instead. Error: {e}") from None
            self._flow = apply_op("TensorArrayV3", [size], [_dtypes.float32], scope or "TensorArray",
                                  attrs={"dtype": self._dtype, "dynamic_size": self._dynamic_size,
                                         "clear_after_read": True if clear_after_read is None else clear_after_read,
                                         "element_shape": self._element_shape[0],
                                         "identical_element_shapes": bool(infer_shape),
                                         "tensor_array_name": tensor_array_name or ""})
            if not self._dynamic_size:
                from ..framework.constant_op import constant_value
                v = constant_value(size)
                self._static_size = None if v is None else int(v)

    @classmethod
    def _from_flow(cls, proto, flow):
        ta = cls.__new__(cls)
        ta._dtype = proto._dtype
        ta._dynamic_size = proto._dynamic_size
        ta._infer_shape = proto._infer_shape
        ta._element_shape = proto._element_shape
        ta._handle_shape = getattr(proto, "_handle_shape", unknown_shape())
        ta._static_size = getattr(proto, "_static_size", None)
        ta._size = getattr(proto, "_size", None)
        ta._flow = flow
        return ta

    def _with_flow(self, flow):
        return TensorArray._from_flow(self, flow)

    flow = property(lambda self: self._flow)
    handle = property(lambda self: self._flow)
    dtype = property(lambda self: self._dtype)
    dynamic_size = property(lambda self: self._dynamic_size)

    @property
    def element_shape(self):
        return self._element_shape[0]

    def _merge_element_shape(self, shape):
        # As TF's _check_element_shape: checked always (against a given element_shape too),
        # merged only with infer_shape.
        if not shape.is_compatible_with(self._element_shape[0]):
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected {self._element_shape[0]} ")
        if self._infer_shape:
            self._element_shape[0] = self._element_shape[0].merge_with(shape)

    def _check_dtype(self, value, strict=False):
        # As TF: write and scatter convert with the array's dtype preferred, split requires it; a
        # value of another dtype builds (TF only logs it) and fails in the kernel at run time
        # ("TensorArray dtype is float but Op is trying to write dtype int32.")
        if strict:
            return convert_to_tensor(value, dtype=self._dtype, name="value")
        return convert_to_tensor(value, preferred_dtype=self._dtype, name="value")

    def identity(self):
        from . import array_ops
        return self._with_flow(array_ops.identity(self._flow))  # as TF: an Identity of the flow

    def write(self, index, value, name=None):
        with name_scope(name, "TensorArrayWrite", [self._flow, index, value]):
            value = self._check_dtype(value)
            self._merge_element_shape(value.shape)
            with name_scope(name, "TensorArrayWriteV3") as scope:
                index = convert_to_tensor(index, dtype=_dtypes.int32, name="index")
                flow = apply_op("TensorArrayWriteV3", [self._flow, index, value], [_dtypes.float32], scope)
        return self._with_flow(flow)

    def read(self, index, name=None):
        with name_scope(name, "TensorArrayReadV3", [self._flow, index]) as scope:
            index = convert_to_tensor(index, dtype=_dtypes.int32, name="index")
            value = apply_op("TensorArrayReadV3", [self._flow, index], [self._dtype], scope)
            value.set_shape(self.element_shape)
            return value

    def gather(self, indices, name=None):
        # TF's op is named TensorArrayGatherV3 (no scope). Its shape function knows only the
        # element shape given at creation (the handle's): with it, the indices' length leads.
        with name_scope(name, "TensorArrayGatherV3", [self._flow, indices]) as scope:
            indices = convert_to_tensor(indices, dtype=_dtypes.int32, name="indices")
            shape = TensorShape([None]).concatenate(self.element_shape) if self.element_shape.ndims is not None \
                else unknown_shape()
            if self._handle_shape.ndims is not None and indices.shape.ndims == 1:
                shape = shape.merge_with(indices.shape.concatenate(self._handle_shape))
            value = apply_op("TensorArrayGatherV3", [self._flow, indices], [self._dtype], scope,
                             attrs={"dtype": self._dtype, "element_shape": self.element_shape})
            value.set_shape(shape)
            return value

    def stack(self, name=None):
        from . import array_ops
        with name_scope(name, "TensorArrayStack", [self._flow]) as scope:
            size = self.size()
            static = self._static_size if self._static_size is not None else _static_size(self._flow)
            idx = array_ops.range(0, size, name="range")
            out = self.gather(idx, name=name)
            if static is not None and out.shape.ndims is not None:
                out.set_shape(TensorShape([static]).concatenate(out.shape[1:]))
            del scope
            return out

    def unstack(self, value, name=None):
        from . import array_ops
        with name_scope(name, "TensorArrayUnstack", [self._flow, value]):
            n = array_ops.shape(value)[0]    # as TF: the value is converted here and again in scatter
            return self.scatter(array_ops.range(0, n), value, name=name)

    def scatter(self, indices, value, name=None):
        with name_scope(name, "TensorArrayScatter", [self._flow, indices, value]):
            value = self._check_dtype(value)
            if value.shape.ndims is not None and value.shape.ndims >= 1:
                self._merge_element_shape(value.shape[1:])
            with name_scope(name, "TensorArrayScatterV3") as scope:
                indices = convert_to_tensor(indices, dtype=_dtypes.int32, name="indices")
                flow = apply_op("TensorArrayScatterV3", [self._flow, indices, value], [_dtypes.float32], scope)
        return self._with_flow(flow)

    def concat(self, name=None):
        es = self.element_shape
        value, _ = apply_op("TensorArrayConcatV3", [self._flow], [self._dtype, _dtypes.int64],
                            name or "TensorArrayConcatV3",
                            shapes=[TensorShape([None]).concatenate(es[1:]) if es.ndims else unknown_shape(),
                                    TensorShape([None])])
        if es.ndims is not None:
            # As TF: the length is known when the size and the first element dimension are.
            from ..framework.constant_op import constant_value
            n = None
            if self._infer_shape:
                size = constant_value(self.size())
                if size is not None and es.ndims and es[0].value is not None:
                    n = int(size) * es[0].value
            value.set_shape(TensorShape([n]).concatenate(es[1:]) if es.ndims else TensorShape([n]))
        return value

    def split(self, value, lengths, name=None):
        from . import math_ops
        from ..framework.constant_op import constant_value
        with name_scope(name, "TensorArraySplit", [self._flow, value, lengths]):
            value = self._check_dtype(value, strict=True)
            lengths = math_ops.cast(lengths, _dtypes.int64)
            known = constant_value(lengths)
            # As TF: the element shape is known only when every length is the same.
            if value.shape.ndims is not None and known is not None and known.ndim and known.size \
                    and known.max() == known.min():
                self._merge_element_shape(TensorShape([int(known[0])]).concatenate(value.shape[1:]))
            flow = apply_op("TensorArraySplitV3", [self._flow, value, lengths], [_dtypes.float32],
                            name or "TensorArraySplitV3")
        return self._with_flow(flow)

    def size(self, name=None):
        """The number of elements: the size given at creation when it is fixed (TF returns it
        converted to a tensor, no op of its own), else a TensorArraySizeV3 op."""
        if not self._dynamic_size and self._size is not None:
            return convert_to_tensor(self._size, dtype=_dtypes.int32)
        return apply_op("TensorArraySizeV3", [self._flow], [_dtypes.int32], name or "TensorArraySizeV3")

    def close(self, name=None):
        return apply_op("TensorArrayCloseV3", [self._flow], [], name or "TensorArrayCloseV3")

    def grad(self, source, flow=None, name=None):
        raise NotImplementedError("TensorArray.grad is not supported; use tf.gradients")


def _static_size(flow):
    """The size of a fixed-size TensorArray, known when the flow comes straight from creation."""
    from ..framework.constant_op import constant_value
    op = flow.op
    seen = 0
    while op.type in ("TensorArrayWriteV3", "TensorArrayScatterV3", "TensorArrayIdentity", "Identity") and seen < 10000:
        op = op.inputs[0].op
        seen += 1
    if op.type == "TensorArrayV3" and not op._get_attr("dynamic_size"):
        v = constant_value(op.inputs[0])
        return None if v is None else int(v)
    return None
