"""Array ops that cut a window out of a tensor: slice, strided_slice and `Tensor.__getitem__`.
"""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op
from ..framework.tensor_shape import (
    Dimension, TensorShape, note_input_partial_shape, note_input_value, shape_tensor_value_error,
    unknown_shape,
)
from .array_ops import (
    _base, _builtin_range, _builtin_slice, _graph, _index_tensor, _INDEX_TYPES, ones_like,
    _partial_dims, shape, _shape_from_tensor, _to_tensor,
)


# -- slice, strided_slice, Tensor.__getitem__ ---------------------------------------------------

def _slice_shape(op):
    x, begin_t, size_t = op.inputs
    b, sz = _partial_dims(begin_t), _partial_dims(size_t)
    for d in (b or []) + (sz or []):
        if d is not None and d < -1:
            raise shape_tensor_value_error(d)
    n = x.shape.ndims
    for t in (begin_t, size_t):
        if t.shape.ndims not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {t.shape.ndims}")
    if b is not None and sz is not None and len(b) != len(sz):
        raise ValueError(f"Shapes must be equal rank, but are {len(b)} and {len(sz)}")
    length = len(b) if b is not None else len(sz) if sz is not None else n
    if n is not None and length is not None and length != n:
        raise ValueError(f"Shape must be rank {length} but is rank {n}")
    if length is None:
        return [unknown_shape()]
    note_input_partial_shape(1, b)
    note_input_partial_shape(2, sz)
    dims = x.shape.as_list() if n is not None else [None] * length
    b = b or [None] * length
    sz = sz or [None] * length
    out = []
    for i, (d, bi, si) in enumerate(zip(dims, b, sz)):
        if si is not None and si >= 0:
            # a size past the end builds (TF's shape function allows it) and fails at run time
            out.append(si)
        elif si == -1 and d is not None and bi is not None:
            if bi > d:
                raise ValueError(f"Negative dimension size caused by subtracting {bi} from {d}")
            out.append(d - bi)
        else:
            out.append(None)
    return [TensorShape(out)]


registry.register_op("Slice", shape_fn=_slice_shape)


@registry.register_static_value("Slice")
def _slice_value(op, value_of):
    v, b, s = (value_of(t) for t in op.inputs)
    if v is None or b is None or s is None:
        return None
    v = np.asarray(v)
    if v.ndim != len(b) or any(int(bi) < 0 or int(si) < -1 or (int(si) != -1 and int(bi) + int(si) > d)
                               or int(bi) > d for bi, si, d in zip(b, s, v.shape)):
        return None  # the kernel raises at run time
    idx = tuple(_builtin_slice(int(bi), None if int(si) == -1 else int(bi) + int(si)) for bi, si in zip(b, s))
    return v[idx]


@registry.register_gradient("Slice")
def _slice_grad(op, grad):
    # TF's _SliceGrad: pad the gradient by [begin, shape - size - begin] per dimension
    x, begin_t, _ = op.inputs
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    from .array_ops import rank
    from .array_join_ops import concat
    from .array_reshape_ops import reshape
    dt = _base(begin_t)
    input_rank = rank(x)
    slice_size = shape(op.outputs[0], out_type=dt)
    pshape = stack([input_rank, 1])
    before = reshape(begin_t, pshape)
    after = reshape(shape(x, out_type=dt) - slice_size - begin_t, pshape)
    return [pad(grad, concat([before, after], 1)), None, None]


def slice(input_, begin, size, name=None):
    """Extracts `input_[begin[i] : begin[i] + size[i]]` per dimension (size -1: to the end)."""
    g = _graph()
    with g.name_scope(name or "Slice") as scope:
        input_ = _to_tensor(input_, name="input")
        b = _index_tensor(begin, "begin", "begin", "Slice")
        s = _index_tensor(size, "size", "size", "Slice", dtype=_base(b))
        return apply_op("Slice", [input_, b, s], [_base(input_)], scope,
                        attrs={"T": _base(input_), "Index": _base(b)})


_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _ss_masks(op):
    return tuple(op._get_attr(m) for m in _MASKS)


def _ss_index(begin, end, strides, masks):
    """The NumPy index tuple equivalent to a strided slice spec (known begin/end/strides)."""
    bm, em, elm, nm, sm = masks
    idx = []
    for i in _builtin_range(len(begin)):
        bit = 1 << i
        if elm & bit:
            idx.append(Ellipsis)
        elif nm & bit:
            idx.append(None)
        elif sm & bit:
            idx.append(int(begin[i]))
        else:
            idx.append(_builtin_slice(None if bm & bit else int(begin[i]), None if em & bit else int(end[i]),
                                      int(strides[i])))
    return tuple(idx)


def _ss_shape_fn(x_shape, begin, end, strides, n_spec, masks):
    """Static result shape of a strided slice; begin/end/strides are lists of ints or None
    entries (unknown), or None (unknown vectors). Raises ValueError like TF."""
    bm, em, elm, nm, sm = masks
    if n_spec is None:
        return unknown_shape()
    if bin(elm & ((1 << n_spec) - 1)).count("1") > 1:
        raise ValueError("Multiple ellipses in slice spec not allowed")
    spec = list(_builtin_range(n_spec))
    consumed = sum(1 for i in spec if not (elm | nm) & (1 << i))
    if x_shape.ndims is not None and consumed > x_shape.ndims:
        # TF's BuildDenseSpec maps the spec onto the input's dims before any bounds check
        nd = x_shape.ndims
        if nd == 0:
            raise ValueError("Attempting to slice scalar input.")
        raise ValueError(f"Index out of range using input dim {nd}; input has only {nd} dims")
    if strides is not None:
        d = 0  # TF's message names the dense (input) dimension when the rank is known
        for i, s in enumerate(strides):
            if elm & (1 << i):
                d += (x_shape.ndims - consumed) if x_shape.ndims is not None else 0
            elif not nm & (1 << i):
                if s == 0:
                    raise ValueError(f"strides[{d if x_shape.ndims is not None else i}] must be non-zero")
                d += 1
    if x_shape.ndims is None:
        return unknown_shape()
    dims = x_shape.as_list()
    nd = len(dims)
    has_ellipsis = any(elm & (1 << i) for i in spec)
    if not has_ellipsis:
        spec = spec + ["E"]
    out = []
    d = 0
    for i in spec:
        if i == "E" or elm & (1 << i):
            k = nd - consumed
            if k < 0:
                raise ValueError(f"Index out of range using input dim {nd}; input has only {nd} dims")
            out.extend(dims[d:d + k])
            d += k
            continue
        bit = 1 << i
        if nm & bit:
            out.append(1)
            continue
        if d >= nd:
            raise ValueError(f"Index out of range using input dim {d}; input has only {nd} dims")
        dim = dims[d]
        b = None if begin is None else begin[i]
        e = None if end is None else end[i]
        s = None if strides is None else strides[i]
        if sm & bit:
            if s is not None and s < 0:
                raise ValueError("only stride 1 allowed on non-range indexing.")
            if dim is not None and b is not None and not -dim <= b < dim:
                raise ValueError(f"slice index {b + dim if b < 0 else b} of dimension {d} out of bounds.")
        else:
            b_known = bool(bm & bit) or b is not None
            e_known = bool(em & bit) or e is not None
            if dim is not None and s is not None and b_known and e_known:
                sl = _builtin_slice(None if bm & bit else b, None if em & bit else e, s)
                out.append(len(_builtin_range(*sl.indices(dim))))
            else:
                out.append(None)
        d += 1
    return TensorShape(out)


def _const_list(t):
    v = constant_value(t)
    return None if v is None or np.ndim(v) != 1 else [int(d) for d in v]


def _strided_slice_shape(op):
    x, b_t, e_t, s_t = op.inputs
    masks = _ss_masks(op)
    for t in (b_t, e_t, s_t):
        if t.shape.ndims not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {t.shape.ndims}")
    # TF reads begin, end and strides as whole constant vectors: strides unknown -> unknown
    # shape; begin (end) unknown -> every dimension that needs it unknown
    b, e, s = (_const_list(t) for t in (b_t, e_t, s_t))
    if s is None or x.shape.ndims is None:
        return [unknown_shape()]
    n = len(s)
    note_input_value(3, constant_value(s_t))
    try:
        return [_ss_shape_fn(x.shape, b, e, s, n, masks)]
    except ValueError as err:
        # TF's shape function reads begin and end only after the spec checks that need strides
        if str(err).startswith("slice index"):
            note_input_value(1, constant_value(b_t))
            note_input_value(2, constant_value(e_t))
        raise


registry.register_op("StridedSlice", shape_fn=_strided_slice_shape)


@registry.register_static_value("StridedSlice")
def _strided_slice_value(op, value_of):
    v, b, e, s = (value_of(t) for t in op.inputs)
    if v is None or b is None or e is None or s is None:
        return None
    return np.asarray(v)[_ss_index(b, e, s, _ss_masks(op))]


def _ss_attrs(op):
    return {m: op._get_attr(m) for m in _MASKS}


@registry.register_gradient("StridedSlice")
def _strided_slice_grad(op, grad):
    x, b, e, s = op.inputs
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    # TF's _StridedSliceGrad: values known while building (TF's constant_value) are passed as
    # constants, converted inside the op's scope ("StridedSliceGrad/begin", ...)
    from .array_extra_ops import tf_constant_value
    x_shape = shape(x, out_type=_base(b))
    args = []
    for t in (x_shape, b, e, s):
        v = tf_constant_value(t)
        args.append(t if v is None else v)
    attrs = dict(_ss_attrs(op), T=_base(grad), Index=_base(b))
    with _graph().name_scope("StridedSliceGrad") as scope:
        ins = [a if isinstance(a, Tensor) else constant(np.asarray(a, _base(b).as_numpy_dtype), name=nm)
               for a, nm in zip(args, ("shape", "begin", "end", "strides"))]
        out = apply_op("StridedSliceGrad", ins + [grad], [_base(grad)], scope, attrs=attrs)
    return [out, None, None, None]


def _ss_grad_shape(op):
    return [_shape_from_tensor(op.inputs[0])]


registry.register_op("StridedSliceGrad", shape_fn=_ss_grad_shape)


@registry.register_gradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, grad):
    _, b, e, s, _ = op.inputs
    a = _ss_attrs(op)
    return [None, None, None, None, strided_slice(grad, b, e, s, **a)]


def strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0, var=None, name=None):
    """Python-style extended slicing `input_[begin:end:strides]` per dimension, with TF's masks."""
    g = _graph()
    # TF makes the default strides first, outside the op's scope: ops "ones_like/tensor" (for a
    # Python `begin`), "ones_like/...", then "StridedSlice/begin", ... (op count and names).
    default_strides = ones_like(begin) if strides is None else None
    with g.name_scope(name or "StridedSlice") as scope:
        input_ = _to_tensor(input_, name="input")
        b = _index_tensor(begin, "begin", "begin", "StridedSlice")
        e = _index_tensor(end, "end", "end", "StridedSlice", dtype=_base(b))
        if strides is None:
            s = default_strides if _base(default_strides) == _base(b) else ones_like(b)
        else:
            s = _index_tensor(strides, "strides", "strides", "StridedSlice", dtype=_base(b))
        masks = {"begin_mask": int(begin_mask), "end_mask": int(end_mask), "ellipsis_mask": int(ellipsis_mask),
                 "new_axis_mask": int(new_axis_mask), "shrink_axis_mask": int(shrink_axis_mask)}
        out = apply_op("StridedSlice", [input_, b, e, s], [_base(input_)], scope,
                       attrs={"T": _base(input_), "Index": _base(b), **masks})
    if var is not None:   # a slice of a variable can be assigned to: v[1:3].assign(x)
        from .slice_assign_ops import mark_variable_slice
        mark_variable_slice(out, var, b, e, s, masks, name)
    return out


def _check_index(idx):
    if isinstance(idx, (numbers.Integral, np.integer, Dimension)) and not isinstance(idx, (bool, np.bool_)):
        return
    if isinstance(idx, Tensor) and _base(idx) in _INDEX_TYPES and idx.shape.ndims in (None, 0):
        return
    raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                    f"tf.int32/tf.int64 tensors are valid indices, got {idx!r}")


def _slice_helper(tensor, slice_spec, var=None):
    """`Tensor.__getitem__`: TF's basic indexing (ints, slices, `...`, tf.newaxis, scalar tensors)."""
    if isinstance(slice_spec, bool) or isinstance(slice_spec, Tensor) and _base(slice_spec) is _dtypes.bool \
            or isinstance(slice_spec, np.ndarray) and slice_spec.dtype == np.bool_:
        return boolean_mask(tensor=tensor, mask=slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    bm = em = elm = nm = sm = 0
    def undefined(v):  # a Dimension of unknown size counts as an omitted bound (TF1)
        return v is None or isinstance(v, Dimension) and v.value is None

    def value(v):
        return v.value if isinstance(v, Dimension) else v

    for index, s in enumerate(slice_spec):
        bit = 1 << index
        if isinstance(s, Dimension):
            s = s.value
            if s is None:
                raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                                "tf.int32/tf.int64 tensors are valid indices, got ?")
        if isinstance(s, _builtin_slice):
            parts = [None if undefined(v) else value(v) for v in (s.start, s.stop, s.step)]
            tensor_part = next((v for v in parts if isinstance(v, Tensor)), None)
            for v in parts:
                if v is not None:
                    _check_index(v)
            # TF: in a slice holding a tensor, each omitted part becomes a constant of its dtype
            # (0, 0, 1: top-level "Const" ops), the masks still marking the omitted ends
            fill = [0, 0, 1]
            full = [constant(fill[k], dtype=_base(tensor_part)) if v is None and tensor_part is not None else v
                    for k, v in enumerate(parts)]
            begin.append(0 if full[0] is None else full[0])
            end.append(0 if full[1] is None else full[1])
            strides.append(1 if full[2] is None else full[2])
            if parts[0] is None:
                bm |= bit
            if parts[1] is None:
                em |= bit
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            elm |= bit
        elif s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            nm |= bit
        else:
            _check_index(s)
            begin.append(s)
            # The end of a shrunk axis is never read (kernels use begin); TF still builds s + 1.
            end.append(s + 1 if not isinstance(s, Tensor) or hasattr(Tensor, "__add__") else s)
            # TF gives an int16/int64 tensor index a stride constant of its dtype
            strides.append(constant(1, dtype=_base(s)) if isinstance(s, Tensor) and
                           _base(s) in (_dtypes.int16, _dtypes.int64) else 1)
            sm |= bit
    g = _graph()
    with g.name_scope("strided_slice") as name:
        if begin:
            pb, pe, ps = stack(begin), stack(end), stack(strides)
            dts = {_base(t) for t in (pb, pe, ps)}
            if _dtypes.int64 in dts and len(dts) > 1:
                from . import math_ops
                pb, pe, ps = (t if _base(t) is _dtypes.int64 else math_ops.cast(t, _dtypes.int64)
                              for t in (pb, pe, ps))
        else:
            pb = pe = ps = constant(np.zeros([0], np.int32))
        return strided_slice(tensor, pb, pe, ps, begin_mask=bm, end_mask=em, ellipsis_mask=elm,
                             new_axis_mask=nm, shrink_axis_mask=sm, var=var, name=name)


Tensor._override_operator("__getitem__", _slice_helper)


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and array_ops.py imports them all once its helpers exist.
from .array_join_ops import stack  # noqa: E402
from .array_range_ops import pad  # noqa: E402
from .array_misc_ops import boolean_mask  # noqa: E402
