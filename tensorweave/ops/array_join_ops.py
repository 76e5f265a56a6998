"""Array ops that join tensors or split them apart: concat, stack, unstack, split.
"""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, make_int
from ..framework.tensor_shape import Dimension, TensorShape, inference_merge_error, note_input_value, unknown_shape
from .array_ops import (
    _base, _contains_tensor, _dims_str, _graph, identity, _index_tensor, _partial_dims, shape, shape_n,
    _static_int, _to_tensor,
)


# -- concat, stack, unstack, split -------------------------------------------------------------

def _concat_shape(op):
    values, axis_t = op.inputs[:-1], op.inputs[-1]
    axis = _static_int(axis_t)
    rank_ = None
    for v in values:
        if v.shape.ndims is not None:
            if rank_ is None:
                rank_ = v.shape.ndims
            elif v.shape.ndims != rank_:
                raise ValueError(f"Shape must be rank {rank_} but is rank {v.shape.ndims}")
    if rank_ is None:
        return [unknown_shape()]
    if rank_ == 0:
        raise ValueError("Can't concatenate scalars (use tf.stack instead)")
    if axis is None:
        return [unknown_shape(rank_)]
    note_input_value(len(values), constant_value(axis_t))
    if not -rank_ <= axis < rank_:
        need = axis + 1 if axis >= 0 else -axis
        raise ValueError(f"Shape must be at least rank {need} but is rank {rank_}")
    axis %= rank_
    # TF's ConcatShapeHelper: from the last input back, merge the dims before and after `axis`
    # (so its messages index and print those sub-shapes) and add up the middle ones.
    before = after = None
    total = 0
    for v in reversed(values):
        if v.shape.ndims is None:
            total = None
            continue
        dims = v.shape.as_list()
        before = _merge_dims(dims[:axis], before)
        after = _merge_dims(dims[axis + 1:], after)
        if total is not None:
            total = None if dims[axis] is None else total + dims[axis]
    return [TensorShape(before + [total] + after)]


def _merge_dims(s0, s1):
    """InferenceContext::Merge of two known-rank dim lists, with its message."""
    if s1 is None:
        return s0
    for i, (a, b) in enumerate(zip(s0, s1)):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. "
                             f"Shapes are {_dims_str(s0)} and {_dims_str(s1)}.")
    return [a if a is not None else b for a, b in zip(s0, s1)]


registry.register_op("ConcatV2", shape_fn=_concat_shape)


@registry.register_static_value("ConcatV2")
def _concat_value(op, value_of):
    vals = [value_of(t) for t in op.inputs]
    if any(v is None for v in vals):
        return None
    return np.concatenate(vals[:-1], axis=int(vals[-1]))


def _concat_offset_shape(op):
    return [t.shape for t in op.inputs[1:]]


registry.register_op("ConcatOffset", shape_fn=_concat_offset_shape)
registry.no_gradient("ConcatOffset")


@registry.register_gradient("ConcatV2")
def _concat_grad(op, grad):
    """TF's _ConcatGradHelper (dense gradients): ConcatOffset and one Slice per input (a SplitV
    past 16 inputs); the input shapes are Const ops when static, else one ShapeN."""
    values, axis_t = op.inputs[:-1], op.inputs[-1]
    if len(values) == 1:
        return [grad, None]
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    from .array_ops import rank
    non_neg_axis = axis_t % rank(values[0])
    sizes = []
    for v in values:
        s_ = shape(v)
        if s_.op.type != "Const":
            sizes = shape_n(values)
            break
        sizes.append(s_)
    if len(sizes) > 16:
        from .array_ops import squeeze
        sizes = squeeze(slice(stack(sizes, axis=1), [non_neg_axis, 0], [1, -1]))
        return split(grad, sizes, non_neg_axis) + [None]
    offsets = apply_op("ConcatOffset", [non_neg_axis] + list(sizes), [_dtypes.int32] * len(values),
                       "ConcatOffset", attrs={"N": len(values), "shape_type": _dtypes.int32})
    offsets = offsets if isinstance(offsets, list) else [offsets]
    return [slice(grad, o, s_) for o, s_ in zip(offsets, sizes)] + [None]


def _match_list_dtypes(values, op_type, name_fmt="values_{}"):
    """Converts a list of values to tensors of one dtype (the first Tensor's), like TF's list
    inputs; TypeError when tensors disagree."""
    dt = next((_base(v) for v in values if isinstance(v, Tensor)), None)
    ts = []
    for i, v in enumerate(values):
        if isinstance(v, IndexedSlices):
            v = convert_to_tensor(v)
        ts.append(v if isinstance(v, Tensor) else _to_tensor(v, name=name_fmt.format(i), dtype=dt))
    types = [_base(t) for t in ts]
    if any(t != types[0] for t in types):
        raise TypeError(f"Tensors in list passed to 'values' of '{op_type}' Op have types "
                        f"[{', '.join(t.name for t in types)}] that don't all match.")
    return ts


def concat(values, axis, name="concat"):
    """Joins tensors along dimension `axis`."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    g = _graph()
    if len(values) == 1:
        with g.name_scope(name) as scope:
            a = _index_tensor(axis, "concat_dim", "axis", "ConcatV2", dtype=_dtypes.int32)
            if a.shape.ndims not in (None, 0):
                raise ValueError(f"Shape {a.shape} must have rank 0")
            v = values[0]
            if isinstance(v, IndexedSlices):
                v = convert_to_tensor(v)
            return identity(_to_tensor(v), name=name)
    with g.name_scope(name) as scope:
        ts = _match_list_dtypes(values, "ConcatV2")
        if not ts:   # TF's op-builder check on ConcatV2's N >= 2 (one tensor is an Identity above)
            raise ValueError("List argument 'values' to 'ConcatV2' Op with length 0 shorter than "
                             "minimum length 2.")
        a = _index_tensor(axis, "axis", "axis", "ConcatV2")
        return apply_op("ConcatV2", ts + [a], [_base(ts[0])], scope,
                        attrs={"N": len(ts), "T": _base(ts[0]), "Tidx": _base(a)})


def _pack_shape(op):
    axis = op._get_attr("axis")
    s = unknown_shape()
    for i, t in enumerate(op.inputs):
        err = inference_merge_error(s, t.shape)
        if err:
            raise ValueError(f"{err}\n\tFrom merging shape {i - 1} with other shapes.")
        s = s.merge_with(t.shape)
    if s.ndims is None:
        return [unknown_shape()]
    n = s.ndims
    if not -n - 1 <= axis <= n:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-n - 1}, {n + 1})")
    axis %= n + 1
    dims = s.as_list()
    return [TensorShape(dims[:axis] + [len(op.inputs)] + dims[axis:])]


registry.register_op("Pack", shape_fn=_pack_shape)


@registry.register_static_value("Pack")
def _pack_value(op, value_of):
    vals = [value_of(t) for t in op.inputs]
    if any(v is None for v in vals):
        return None
    return np.stack(vals, axis=op._get_attr("axis"))


@registry.register_gradient("Pack")
def _pack_grad(op, grad):
    return unstack(grad, num=len(op.inputs), axis=op._get_attr("axis"))


def _pack(ts, axis, name):
    return apply_op("Pack", ts, [_base(ts[0])], name, attrs={"N": len(ts), "T": _base(ts[0]), "axis": axis})


def stack(values, axis=0, name="stack"):
    """Stacks a list of rank-R tensors into one rank-(R+1) tensor along `axis`."""
    if not isinstance(values, (list, tuple)):
        if axis == 0:  # TF converts the whole value first: a tensor comes back as it is
            return convert_to_tensor(values, name=name)
        # TF checks axis against values[0] (a slice of a tensor), then the Pack wrapper refuses
        # a non-list
        first = values[0] if isinstance(values, Tensor) else _to_tensor(values[0], name=name)
        if first.shape.ndims is not None:
            n = first.shape.ndims + 1
            if not -n <= axis < n:
                raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
        raise TypeError(f"Expected list for 'values' argument to 'pack' Op, not {values!r}.")
    g = _graph()
    if axis == 0 and not any(isinstance(v, IndexedSlices) for v in values):
        # TF first converts the whole list (autopacking under name scope `name`, which uses up the
        # name even when it fails), then falls back to the Pack op below.
        if not _contains_tensor(values):
            try:
                return convert_to_tensor(values, name=name)
            except (TypeError, ValueError):
                pass
        else:
            try:
                with g.name_scope(name) as scope:
                    ts = _match_list_dtypes(values, "Pack", "{}")
                    return _pack(ts, 0, scope)
            except (TypeError, ValueError):
                pass
    first = values[0] if values else None
    if isinstance(first, IndexedSlices):
        first = convert_to_tensor(first)
    elif first is not None and not isinstance(first, Tensor):
        first = _to_tensor(first, name=name)   # TF converts values[0] (a Const named `name`)
    if first is not None and first.shape.ndims is not None:
        n = first.shape.ndims + 1
        if not -n <= axis < n:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-n}, {n})")
    with g.name_scope(name) as scope:
        ts = _match_list_dtypes(values, "Pack", "values_{}")
        return _pack(ts, axis, scope)


def _unpack_shape(op):
    s = op.inputs[0].shape
    num = op._get_attr("num")
    if s.ndims is None:
        return [unknown_shape()] * num
    axis = op._get_attr("axis")
    n = s.ndims
    if not -n <= axis < n:
        raise ValueError(f"axis = {axis} not in [{-n}, {n})")
    axis %= n
    dims = s.as_list()
    if dims[axis] is not None and dims[axis] != num:
        raise ValueError(f"Dimension must be {num} but is {dims[axis]}")
    return [TensorShape(dims[:axis] + dims[axis + 1:])] * num


registry.register_op("Unpack", shape_fn=_unpack_shape)


@registry.register_gradient("Unpack")
def _unpack_grad(op, *grads):
    return [stack(list(grads), axis=op._get_attr("axis"))]


def unstack(value, num=None, axis=0, name="unstack"):
    """Splits `value` along `axis` into a list of `num` tensors of rank R-1."""
    if num is not None:  # TF converts `value` only inside the Unpack op's scope ("unstack/value")
        num, axis = make_int(num, "num"), make_int(axis, "axis")
        with _graph().name_scope(name or "unstack") as scope:
            if num < 0:  # (checked where TF's op builder checks it: the name is taken)
                raise ValueError(f"Attr 'num' of 'Unpack' Op passed {num} less than minimum 0.")
            value = _to_tensor(value, name="value")
            out = apply_op("Unpack", [value], [_base(value)] * num, scope,
                           attrs={"num": num, "T": _base(value), "axis": axis})
        if num == 0:
            return []
        return out if isinstance(out, list) else [out]
    value = _to_tensor(value)
    s = value.shape
    if num is None:
        if s.ndims is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
        if not -s.ndims <= axis < s.ndims:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-s.ndims}, {s.ndims})")
        num = s[axis].value
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
    axis = make_int(axis, "axis")
    out = apply_op("Unpack", [value], [_base(value)] * num, name or "unstack",
                   attrs={"num": num, "T": _base(value), "axis": axis})
    if num == 0:
        return []
    return out if isinstance(out, list) else [out]


def _split_shape(op):
    axis_t, x = op.inputs
    num = op._get_attr("num_split")
    axis = _static_int(axis_t)
    s = x.shape
    if s.ndims is None:
        return [unknown_shape()] * num
    if axis is None:
        return [unknown_shape(s.ndims)] * num
    n = s.ndims
    note_input_value(0, constant_value(axis_t))
    if not -n <= axis < n:
        raise ValueError(f"Dimension size, given by scalar input {axis} must be in range [{-n}, {n})")
    axis %= n
    dims = s.as_list()
    d = dims[axis]
    if d is not None:
        if d % num:
            raise ValueError(f"Dimension size must be evenly divisible by {num} but is {d}\n\t"
                             "Number of ways to split should evenly divide the split dimension")
        d //= num
    return [TensorShape(dims[:axis] + [d] + dims[axis + 1:])] * num


registry.register_op("Split", shape_fn=_split_shape)


@registry.register_gradient("Split")
def _split_grad(op, *grads):
    return [None, concat(list(grads), op.inputs[0])]


def _split_v_shape(op):
    x, sizes_t, axis_t = op.inputs
    num = op._get_attr("num_split")
    axis = _static_int(axis_t)
    s = x.shape
    sizes = _partial_dims(sizes_t)
    if s.ndims is None:
        return [unknown_shape()] * num
    n = s.ndims
    if axis is None:
        return [unknown_shape(n)] * num
    note_input_value(1, constant_value(sizes_t))
    note_input_value(2, constant_value(axis_t))
    if not -n <= axis < n:
        raise ValueError(f"Dimension size, given by scalar input {axis} must be in range [{-n}, {n})")
    axis %= n
    dims = s.as_list()
    if sizes is None:
        sizes = [None] * num
    if len(sizes) != num:
        raise ValueError(f"Dimension 0 in both shapes must be equal, but are {len(sizes)} and {num}")
    sizes = list(sizes)
    neg = [i for i, v in enumerate(sizes) if v == -1]
    if len(neg) > 1:
        raise ValueError("size_splits can only have one -1")
    if all(v is not None for v in sizes):
        known = sum(v for v in sizes if v != -1)
        d = dims[axis]
        if d is not None:
            if neg:
                if known > d:  # TF's check on the size -1 stands for
                    raise ValueError(f"Split size at index {neg[0]} must be >= 0. Got: {d - known}")
                sizes[neg[0]] = d - known
            elif known != d:
                raise ValueError(f"can't split axis of size {d} into pieces of size "
                                 f"[{','.join(str(v) for v in sizes)}]")
    return [TensorShape(dims[:axis] + [None if v is None or v < 0 else v] + dims[axis + 1:]) for v in sizes]


registry.register_op("SplitV", shape_fn=_split_v_shape)


@registry.register_gradient("SplitV")
def _split_v_grad(op, *grads):
    return [concat(list(grads), op.inputs[2]), None, None]


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits `value` along `axis` into `num_or_size_splits` equal parts, or parts of the listed
    sizes (one size may be -1)."""
    g = _graph()
    if isinstance(num_or_size_splits, Dimension) and num_or_size_splits.value is not None:
        num_or_size_splits = num_or_size_splits.value
    if isinstance(num_or_size_splits, (numbers.Integral, np.integer)) and not isinstance(num_or_size_splits, bool):
        with g.name_scope(name) as scope:
            value = _to_tensor(value, name="value")
            a = _index_tensor(axis, "split_dim", "split_dim", "Split", dtype=_dtypes.int32)
            n = int(num_or_size_splits)
            if n <= 0:  # TF's op builder checks the attr's minimum after converting the inputs
                raise ValueError(f"Attr 'num_split' of 'Split' Op passed {n} less than minimum 1.")
            out = apply_op("Split", [a, value], [_base(value)] * n, scope,
                           attrs={"num_split": n, "T": _base(value)})
            return out if isinstance(out, list) else [out]
    if (num_or_size_splits.shape.ndims == 0 if isinstance(num_or_size_splits, Tensor)
            else isinstance(num_or_size_splits, (numbers.Number, np.generic))):       # (a float count, say: TF refuses a scalar that is not an int)
        raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
                         f"Argument provided: {num_or_size_splits}")
    sizes = _index_tensor(num_or_size_splits, None, "size_splits", "SplitV")
    if num is None:
        if sizes.shape.ndims != 1 or sizes.shape[0].value is None:
            raise ValueError(f"Cannot infer argument `num` from shape {num_or_size_splits}")
        num = sizes.shape[0].value
    with g.name_scope(name) as scope:
        value = _to_tensor(value, name="value")
        a = _index_tensor(axis, "split_dim", "split_dim", "SplitV", dtype=_dtypes.int32)
        out = apply_op("SplitV", [value, sizes, a], [_base(value)] * num, scope,
                       attrs={"num_split": num, "T": _base(value), "Tlen": _base(sizes)})
        return out if isinstance(out, list) else [out]


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and array_ops.py imports them all once its helpers exist.
from .array_slice_ops import slice  # noqa: E402
