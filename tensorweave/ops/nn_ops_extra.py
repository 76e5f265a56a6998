"""top_k and in_top_k (ops TopKV2 and InTopKV2; kernels in kernels/cpu/normalization.py).

top_k returns the k largest entries of the last axis and their int32 indices, largest first,
ties broken by the lower index (as TF). in_top_k(predictions, targets, k) is true when fewer
than k classes score strictly higher than the target class (ties count as in), false for an
out-of-range target or a non-finite prediction.
"""

import collections
import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, note_input_value, unknown_shape

__all__ = ["top_k", "in_top_k"]


def _top_k_shape(op):
    s = op._inputs[0]._shape
    k = constant_value(op._inputs[1])
    if s.ndims is None:
        return [unknown_shape(), unknown_shape()]
    if s.ndims < 1:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    dims = s.as_list()
    if k is not None:
        # TF's MakeDimForScalarInput: a known k of rank > 0 fails after it was read.
        k = np.asarray(k)
        note_input_value(1, k)
        if k.ndim != 0:
            raise ValueError(f"Input must be scalar but has rank {k.ndim}")
        k = int(k)
        if k < 0:
            raise ValueError(f"Dimension size, given by scalar input 1, must be non-negative but is {k}")
        if dims[-1] is not None and dims[-1] < k:
            raise ValueError(f"input must have last dimension >= k = {k} but is {dims[-1]}")
    out = TensorShape(dims[:-1] + [None if k is None else k])
    return [out, out]


def _in_top_k_shape(op):
    p, t = op._inputs[0]._shape, op._inputs[1]._shape
    if p.ndims is not None and p.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {p.ndims}")
    if t.ndims is not None and t.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {t.ndims}")
    n = p.as_list()[0] if p.ndims is not None else None
    m = t.as_list()[0] if t.ndims is not None else None
    if n is not None and m is not None and n != m:
        raise ValueError(f"Dimensions must be equal, but are {n} and {m}")
    return [TensorShape([n if n is not None else m])]


registry.register_op("TopKV2", shape_fn=_top_k_shape)
registry.register_op("InTopKV2", shape_fn=_in_top_k_shape)
registry.no_gradient("InTopKV2")


@registry.register_gradient("TopKV2")
def _top_k_grad(op, grad_values, grad_indices=None):
    """TF's _TopKGrad, op for op: scatter the values' gradient to the chosen positions through
    flattened linear indices (ScatterNd), reshaped to the input's shape; zeros for k."""
    from . import array_ops, math_ops
    from .array_gather_ops import scatter_nd
    from .array_range_ops import range as _range
    in_shape = array_ops.shape(op.inputs[0])
    ind_shape = array_ops.shape(op.outputs[1])
    ind_lastdim = array_ops.gather(math_ops.cast(ind_shape, _dtypes.int64), array_ops.size(ind_shape) - 1)
    ind_2d = array_ops.reshape(op.outputs[1], array_ops.stack([-1, ind_lastdim]))
    in_lastdim = array_ops.gather(math_ops.cast(in_shape, _dtypes.int64), array_ops.size(in_shape) - 1)
    outerdim = array_ops.shape(ind_2d)[0]
    ind = array_ops.reshape(
        ind_2d + math_ops.cast(array_ops.expand_dims(
            _range(0, math_ops.cast(outerdim, _dtypes.int64) * in_lastdim, in_lastdim), -1),
            _dtypes.int32), [-1])
    return [array_ops.reshape(scatter_nd(array_ops.expand_dims(ind, -1), array_ops.reshape(grad_values, [-1]),
                                         [math_ops.reduce_prod(in_shape)]), in_shape),
            array_ops.zeros([], dtype=_dtypes.int32)]


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


# TopKV2's T (TF's realnumbertypes, in the order its TypeError lists them)
_TOPK_T = ("float32", "float64", "int32", "uint8", "int16", "int8", "int64", "bfloat16", "uint16",
           "float16", "uint32", "uint64")


def top_k(input, k=1, sorted=True, name=None, index_type=_dtypes.int32):  # noqa: A002
    """TopKV2(values, indices): the k largest entries along the last axis (a namedtuple, as in TF,
    so `sess.run(tf.nn.top_k(x, 2)).values` works). Inputs made from Python values are named
    inside the op's scope ("TopKV2/k"), and the op carries TF's attrs (T, Tk, index_type, sorted)."""
    index_type = _dtypes.as_dtype(index_type).base_dtype
    if index_type not in (_dtypes.int32, _dtypes.int64, _dtypes.int16):
        raise TypeError(f"Value passed to parameter 'index_type' has DataType {index_type.name} not in "
                        "list of allowed values: int16, int32, int64")
    with name_scope(name, "TopKV2") as scope:
        x = convert_to_tensor(input, name="input")
        k = convert_to_tensor(np.asarray(k, np.int32) if isinstance(k, numbers.Integral) else k,
                              dtype=_dtypes.int32 if isinstance(k, numbers.Integral) else None, name="k")
        if k.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64, _dtypes.int16):
            raise TypeError(f"Value passed to parameter 'k' has DataType {k.dtype.base_dtype.name} not in "
                            "list of allowed values: int16, int32, int64")
        dt = x.dtype.base_dtype
        if dt.name not in _TOPK_T:
            raise TypeError(f"Value passed to parameter 'input' has DataType {dt.name} not in list of "
                            f"allowed values: {', '.join(_TOPK_T)}")
        values, indices = apply_op("TopKV2", [x, k], [dt, index_type], scope,
                                   attrs={"T": dt, "Tk": k.dtype.base_dtype, "index_type": index_type,
                                          "sorted": bool(sorted)})
    return TopKV2(values, indices)


def in_top_k(predictions, targets, k, name=None):
    """Whether each target's prediction is among the k largest of its row (bool vector)."""
    # TF: gen in_top_kv2 inside the "in_top_k" scope, so Python inputs are "in_top_k/InTopKV2/k"
    with name_scope(name, "in_top_k"), name_scope(None, "InTopKV2") as op_scope:
        # predictions is a plain float32 input (no type attr): Python values convert to float32;
        # a tensor of another dtype is _apply_op_helper's "Input ... does not match" TypeError.
        try:
            p = convert_to_tensor(predictions, dtype=_dtypes.float32, name="predictions")
        except (TypeError, ValueError):
            p = convert_to_tensor(predictions, name="predictions")
        if p.dtype.base_dtype != _dtypes.float32:
            raise TypeError(f"Input 'predictions' of 'InTopKV2' Op has type {p.dtype.base_dtype.name} that "
                            "does not match expected type of float32.")
        t = convert_to_tensor(targets, name="targets")
        if not t.dtype.base_dtype.is_integer:
            raise TypeError(f"Value passed to parameter 'targets' has DataType "
                            f"{t.dtype.base_dtype.name} not in list of allowed values: int32, int64")
        kt = convert_to_tensor(np.asarray(k, t.dtype.base_dtype.as_numpy_dtype)
                               if isinstance(k, numbers.Integral) else k, dtype=t.dtype.base_dtype,
                               name="k")
        return apply_op("InTopKV2", [p, t, kt], [_dtypes.bool], op_scope,
                        attrs={"T": t.dtype.base_dtype})
