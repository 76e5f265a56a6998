"""Array ops that select and index: where / select, boolean_mask, sequence_mask; and
permutations, unique, setdiff1d, matrix_band_part, diag, broadcast shapes, meshgrid.
"""

import weakref

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, check_allowed, matching_input, unchanged_shape
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from .array_ops import (
    _base, _builtin_range, _check_out_type, _dims_str, _graph, _index_tensor, _op_input, _partial_dims, rank,
    shape, ones, size, _to_tensor, zeros, zeros_like,
)


# -- where / select, boolean_mask, sequence_mask ----------------------------------------------

def _where_shape(op):
    s = op.inputs[0].shape
    return [TensorShape([None, s.ndims])]


registry.register_op("Where", shape_fn=_where_shape)
registry.no_gradient("Where")


def _select_shape(op):
    c, x, y = op.inputs
    if not x.shape.is_compatible_with(y.shape):
        xs, ys = x.shape, y.shape
        if xs.ndims is not None and ys.ndims is not None and xs.ndims == ys.ndims:
            for i, (a, b) in enumerate(zip(xs.as_list(), ys.as_list())):
                if a is not None and b is not None and a != b:
                    raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. "
                                     f"Shapes are {_dims_str(xs.as_list())} and {_dims_str(ys.as_list())}.")
        raise ValueError(f"Shapes must be equal rank, but are {xs.ndims} and {ys.ndims}")
    out = x.shape.merge_with(y.shape)
    cs = c.shape
    if cs.ndims is None or out.ndims is None:
        return [out]
    if cs.ndims == 0:
        return [out]
    if cs.ndims == 1:
        if out.ndims == 0:
            raise ValueError("Shapes must be equal rank, but are 0 and 1")
        a, b = cs[0].value, out[0].value
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimension 0 in both shapes must be equal, but are {a} and {b}. Shapes are "
                             f"[{a}] and [{b}].")
        return [out]   # TF merges cond's length into a copy: the output keeps the data's batch
    # TF's Merge(data, cond): the messages name the data's shape first.
    if cs.ndims != out.ndims:
        raise ValueError(f"Shapes must be equal rank, but are {out.ndims} and {cs.ndims}")
    for i, (a, b) in enumerate(zip(out.as_list(), cs.as_list())):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                             f"{_dims_str(out.as_list())} and {_dims_str(cs.as_list())}.")
    return [out.merge_with(cs)]


registry.register_op("Select", shape_fn=_select_shape)


@registry.register_gradient("Select")
def _select_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    c, x = op.inputs[0], op.inputs[1]
    z = zeros_like(x)
    return [None, _select(c, grad, z), _select(c, z, grad)]


def _select(c, x, y, name="Select"):
    return apply_op("Select", [c, x, y], [_base(x)], name, attrs={"T": _base(x)})


def _select_v2_shape(op):
    from ..framework.op_util import broadcast_shapes
    c, x, y = op.inputs
    return [broadcast_shapes(broadcast_shapes(c.shape, x.shape), y.shape)]


registry.register_op("SelectV2", shape_fn=_select_v2_shape)


FOLDED_SELECTS = weakref.WeakSet()   # the SelectV2 ops whose constant value shape inference sees


@registry.register_static_value("SelectV2")
def _select_v2_value(op, value_of):
    # TF's shape inference evaluates tf.linspace's where_v2(num >= 0, ...) feeding its Range, so
    # a negative constant num fails while building; other SelectV2s it leaves unknown (sparse
    # expand_dims's shape stays [None, None, 1]), so only linspace marks its op
    if op not in FOLDED_SELECTS:
        return None
    c, x, y = (value_of(t) for t in op._inputs)
    if c is None or x is None or y is None:
        return None
    try:
        return np.asarray(np.where(c, x, y), dtype=op._outputs[0]._dtype.as_numpy_dtype)
    except ValueError:
        return None   # not broadcastable: the kernel reports it


@registry.register_gradient("SelectV2")
def _select_v2_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    c, x, y = op.inputs
    z = zeros([], dtype=_base(grad))
    gx = apply_op("SelectV2", [c, grad, z], [_base(grad)], "SelectV2", attrs={"T": _base(grad)})
    gy = apply_op("SelectV2", [c, z, grad], [_base(grad)], "SelectV2", attrs={"T": _base(grad)})
    # TF's _SelectGradV2: each summed over the axes it was broadcast along against the output.
    from .math_ops import _reduce_gradient_args
    gx, _ = _reduce_gradient_args(x, op.outputs[0], gx, None)
    gy, _ = _reduce_gradient_args(y, op.outputs[0], gy, None)
    return [None, gx, gy]


def _check_bool(c, op_type="Select"):
    if _base(c) is not _dtypes.bool:
        raise TypeError(f"Input 'condition' of '{op_type}' Op has type {_base(c).name} that does not match "
                        "expected type of bool.")


def _condition(condition, op_type):
    """Select's bool `condition` as TF's op builder converts it: a Python value to bool (its
    message when that fails), a Tensor of another dtype a TypeError."""
    if isinstance(condition, Tensor):
        _check_bool(condition, op_type)
        return condition
    return _op_input(condition, "condition", op_type, _dtypes.bool)


def where(condition, x=None, y=None, name=None):
    """TF1 `tf.where`: with only `condition`, the int64 coordinates of its true elements (one row
    per element); with x and y, elements of x where condition is true, else of y. `condition`
    either has x's shape or is a vector matching x's first dimension (or a scalar)."""
    if x is None and y is None:
        g = _graph()
        with g.name_scope(name or "Where") as scope:
            c = _to_tensor(condition, name="input")
            if _base(c) in (_dtypes.string, _dtypes.resource, _dtypes.variant):
                raise TypeError(f"Value passed to parameter 'input' has DataType {_base(c).name} not in list of "
                                "allowed values: float32, float64, int32, uint8, int16, int8, complex64, int64, "
                                "qint8, quint8, qint32, bfloat16, qint16, quint16, uint16, complex128, float16, "
                                "uint32, uint64, bool")
            return apply_op("Where", [c], [_dtypes.int64], scope, attrs={"T": _base(c)})
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    g = _graph()
    with g.name_scope(name or "Select") as scope:
        c = _condition(condition, "Select")
        xt = x if isinstance(x, Tensor) else None
        yt = y if isinstance(y, Tensor) else None
        dt = _base(xt) if xt is not None else (_base(yt) if yt is not None else None)
        xt = xt if xt is not None else _op_input(x, "t", "Select", dt)  # Select's inputs are t, e
        yt = yt if yt is not None else _op_input(y, "e", "Select", _base(xt))
        if _base(xt) != _base(yt):
            raise TypeError(f"Input 'e' of 'Select' Op has type {_base(yt).name} that does not match type "
                            f"{_base(xt).name} of argument 't'.")
        return _select(c, xt, yt, scope)


def where_v2(condition, x=None, y=None, name=None):
    """`tf.where` of TF 2: like `where`, but condition, x and y broadcast against each other."""
    if x is None and y is None:
        return where(condition, name=name)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    g = _graph()
    with g.name_scope(name or "SelectV2") as scope:
        c = _condition(condition, "SelectV2")
        xt = x if isinstance(x, Tensor) else None
        yt = y if isinstance(y, Tensor) else None
        dt = _base(xt) if xt is not None else (_base(yt) if yt is not None else None)
        xt = xt if xt is not None else _op_input(x, "t", "SelectV2", dt)
        yt = yt if yt is not None else _op_input(y, "e", "SelectV2", _base(xt))
        if _base(xt) != _base(yt):
            raise TypeError(f"Input 'e' of 'SelectV2' Op has type {_base(yt).name} that does not match type "
                            f"{_base(xt).name} of argument 't'.")
        return apply_op("SelectV2", [c, xt, yt], [_base(xt)], scope, attrs={"T": _base(xt)})


def boolean_mask(tensor, mask, name="boolean_mask", axis=None):
    """The elements (or slices) of `tensor` where `mask` is true, flattened over the mask's
    dimensions, which start at `axis` (0 by default)."""
    g = _graph()
    with g.name_scope(name or "boolean_mask") as scope:
        tensor = _to_tensor(tensor, name="tensor")
        mask = _to_tensor(mask, name="mask")
        shape_mask = mask.shape
        ndims_mask = shape_mask.ndims
        shape_tensor = tensor.shape
        if ndims_mask == 0:
            raise ValueError("mask cannot be scalar.")
        if ndims_mask is None:
            raise ValueError("Number of mask dimensions must be specified, even if some dimensions are None.  "
                             "E.g. shape=[None] is ok, but shape=None is not.")
        axis = 0 if axis is None else int(axis)
        if shape_tensor.ndims is not None:
            # TF slices the static shape with `axis` as given: a negative axis slices short
            shape_tensor[axis:axis + ndims_mask].assert_is_compatible_with(shape_mask)
        # TF: Prod of the masked dimensions' sizes (a Prod op even when they are known)
        leading = shape(tensor)[axis:axis + ndims_mask]
        with g.name_scope("Prod") as prod_scope:
            red = constant(np.array([0], np.int32), name="reduction_indices")
        lead_size = apply_op("Prod", [leading, red], [_dtypes.int32], prod_scope,
                             attrs={"T": _dtypes.int32, "Tidx": _dtypes.int32, "keep_dims": False})
        tensor = reshape(tensor, concat([shape(tensor)[:axis], [lead_size], shape(tensor)[axis + ndims_mask:]], 0))
        if shape_tensor.ndims is not None:
            first = shape_tensor[axis:axis + ndims_mask].num_elements()
            tensor.set_shape(TensorShape(shape_tensor.as_list()[:axis]).concatenate([first])
                             .concatenate(shape_tensor[axis + ndims_mask:]))
        mask = reshape(mask, [-1])
        indices = squeeze(where(mask), axis=[1])
        return gather(tensor, indices, axis=axis)


def sequence_mask(lengths, maxlen=None, dtype=_dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...], for j in [0, maxlen) (maxlen defaults to max(lengths))."""
    from . import math_ops
    g = _graph()
    with g.name_scope(name or "SequenceMask"):
        lengths = _to_tensor(lengths)
        if maxlen is None:
            # TF: the generated Max over all dimensions, their list a plain "Const"
            n = lengths.shape.ndims
            dims = (constant(np.arange(n, dtype=np.int32)) if n is not None
                    else range(0, rank(lengths), 1, name="Range"))
            maxlen = apply_op("Max", [lengths, dims], [_base(lengths)], "Max",
                              attrs={"T": _base(lengths), "Tidx": _dtypes.int32, "keep_dims": False})
            maxlen = math_ops.maximum(constant(0, _base(maxlen)), maxlen)
        else:
            maxlen = _to_tensor(maxlen)
        if maxlen.shape.ndims not in (None, 0):
            raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {maxlen} "
                             f"with shape '{maxlen.shape}' instead")
        row = range(constant(0, _base(maxlen)), maxlen, constant(1, _base(maxlen)), name="Range")
        # TF uses the generated cast: a Cast op even when the dtypes agree (so "Cast", "Cast_1")
        matrix = _gen_cast(expand_dims(lengths, -1), _base(maxlen))
        result = math_ops.less(row, matrix)
        dtype = _dtypes.as_dtype(dtype).base_dtype
        if dtype is _dtypes.bool:
            return result
        return _gen_cast(result, dtype)


def _gen_cast(x, dtype):
    return apply_op("Cast", [x], [dtype], "Cast", attrs={"SrcT": _base(x), "DstT": dtype, "Truncate": False})


# -- permutations, unique, setdiff, band, diag, broadcast shapes, meshgrid -------------------

registry.register_op("InvertPermutation", shape_fn=unchanged_shape)
registry.no_gradient("InvertPermutation")


@registry.register_static_value("InvertPermutation")
def _invert_perm_value(op, value_of):
    v = value_of(op.inputs[0])
    if v is None:
        return None
    v = np.asarray(v)
    if sorted(v.tolist()) != list(_builtin_range(v.size)):
        return None
    return np.argsort(v).astype(v.dtype)


def invert_permutation(x, name=None):
    """y[x[i]] = i for a permutation x of 0..n-1."""
    g = _graph()
    with g.name_scope(name or "InvertPermutation") as scope:
        x = _index_tensor(x, "x", "x", "InvertPermutation")
        if x.shape.ndims not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {x.shape.ndims}")
        return apply_op("InvertPermutation", [x], [_base(x)], scope, attrs={"T": _base(x)})


def _unique_shape(op):
    x = op.inputs[0]
    if x.shape.ndims not in (None, 1):
        raise ValueError(f"Shape must be rank 1 but is rank {x.shape.ndims}")
    return [TensorShape([None]), x.shape.with_rank(1) if x.shape.ndims is not None else TensorShape([None])]


registry.register_op("Unique", shape_fn=_unique_shape)
# No gradient registered for "Unique" (TF has none): tf.gradients through it raises LookupError.


def unique(x, out_idx=_dtypes.int32, name=None):
    """(y, idx): the unique elements of the vector x in order of first occurrence, and for each
    element of x its index in y."""
    g = _graph()
    with g.name_scope(name or "Unique") as scope:
        x = _to_tensor(x, name="x")
        out_idx = _check_out_type(out_idx)
        y, idx = apply_op("Unique", [x], [_base(x), out_idx], scope, attrs={"T": _base(x), "out_idx": out_idx})
        return _UniqueOutput(y, idx)


def _unique_output():
    import collections
    return collections.namedtuple("Unique", ["y", "idx"])


_UniqueOutput = _unique_output()


def _list_diff_shape(op):
    for t in op.inputs:
        if t.shape.ndims not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {t.shape.ndims}")
    return [TensorShape([None]), TensorShape([None])]


registry.register_op("ListDiff", shape_fn=_list_diff_shape)
registry.no_gradient("ListDiff")


def _list_diff_output():
    import collections
    return collections.namedtuple("ListDiff", ["out", "idx"])


_ListDiffOutput = _list_diff_output()


def setdiff1d(x, y, index_dtype=_dtypes.int32, name=None):
    """(out, idx): the elements of x not in y (in x's order) and their positions in x."""
    g = _graph()
    with g.name_scope(name or "ListDiff") as scope:
        x = _to_tensor(x, name="x")
        y = matching_input(y, x, "y", "x", "ListDiff")
        index_dtype = _check_out_type(index_dtype)
        out, idx = apply_op("ListDiff", [x, y], [_base(x), index_dtype], scope,
                            attrs={"T": _base(x), "out_idx": index_dtype})
        return _ListDiffOutput(out, idx)


def _band_shape(op):
    # TF's shape function is UnchangedShape: a rank-1 input fails only in the kernel
    return [op.inputs[0].shape]


registry.register_op("MatrixBandPart", shape_fn=_band_shape)


@registry.register_gradient("MatrixBandPart")
def _band_grad(op, grad):
    return [matrix_band_part(grad, op.inputs[1], op.inputs[2]), None, None]


def matrix_band_part(input, num_lower, num_upper, name=None):
    """Keeps the band of each innermost matrix: entries with (i - j) <= num_lower and
    (j - i) <= num_upper (a negative bound keeps that whole triangle); zeros elsewhere."""
    g = _graph()
    with g.name_scope(name or "MatrixBandPart") as scope:
        input = _to_tensor(input, name="input")
        lo = _index_tensor(num_lower, "num_lower", "num_lower", "MatrixBandPart", dtype=_dtypes.int64
                           if isinstance(num_lower, Tensor) and _base(num_lower) is _dtypes.int64 else None)
        hi = _index_tensor(num_upper, "num_upper", "num_upper", "MatrixBandPart", dtype=_base(lo))
        return apply_op("MatrixBandPart", [input, lo, hi], [_base(input)], scope,
                        attrs={"T": _base(input), "Tindex": _base(lo)})


def _diag_shape(op):
    s = op.inputs[0].shape
    if s.ndims is None:
        return [unknown_shape()]
    if s.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return [s.concatenate(s)]


registry.register_op("Diag", shape_fn=_diag_shape)


@registry.register_gradient("Diag")
def _diag_grad(op, grad):
    return [diag_part(grad)]


_DIAG_TYPES = ("bfloat16", "float16", "float32", "float64", "int32", "int64", "complex64", "complex128")


def diag(diagonal, name=None):
    """out[i1..ik, i1..ik] = diagonal[i1..ik], zeros elsewhere (rank 2k)."""
    g = _graph()
    with g.name_scope(name or "Diag") as scope:
        d = _to_tensor(diagonal, name="diagonal")
        check_allowed("diagonal", d.dtype, _DIAG_TYPES)
        return apply_op("Diag", [d], [_base(d)], scope, attrs={"T": _base(d)})


def _diag_part_shape(op):
    s = op.inputs[0].shape
    if s.ndims is None:
        return [unknown_shape()]
    if s.ndims % 2 or s.ndims == 0:
        raise ValueError(f"Input must have even and non-zero rank, input rank is {s.ndims}")
    k = s.ndims // 2
    dims = s.as_list()
    out = []
    for a, b in zip(dims[:k], dims[k:]):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        out.append(a if a is not None else b)
    return [TensorShape(out)]


registry.register_op("DiagPart", shape_fn=_diag_part_shape)


@registry.register_gradient("DiagPart")
def _diag_part_grad(op, grad):
    return [diag(grad)]


def diag_part(input, name=None):
    """The diagonal of a rank-2k tensor: out[i1..ik] = input[i1..ik, i1..ik]."""
    g = _graph()
    with g.name_scope(name or "DiagPart") as scope:
        x = _to_tensor(input, name="input")
        return apply_op("DiagPart", [x], [_base(x)], scope, attrs={"T": _base(x)})


def _broadcast_args_shape(op):
    for t in op.inputs:
        t.shape.require_rank(1)
    a, b = (_partial_dims(t) for t in op.inputs)
    if a is None or b is None:
        return [unknown_shape(1)]
    return [TensorShape([max(len(a), len(b))])]


registry.register_op("BroadcastArgs", shape_fn=_broadcast_args_shape)
registry.no_gradient("BroadcastArgs")


@registry.register_static_value("BroadcastArgs")
def _broadcast_args_value(op, value_of):
    a, b = (value_of(t) for t in op.inputs)
    if a is None or b is None:
        return None
    return np.array(np.broadcast_shapes(tuple(int(d) for d in a), tuple(int(d) for d in b)),
                    dtype=np.asarray(a).dtype)


def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast of two shape vectors, as a tensor."""
    g = _graph()
    with g.name_scope("BroadcastArgs") as scope:
        a = _index_tensor(shape_x, "s0", "s0", "BroadcastArgs")
        b = _index_tensor(shape_y, "s1", "s1", "BroadcastArgs", dtype=_base(a))
        return apply_op("BroadcastArgs", [a, b], [_base(a)], scope, attrs={"T": _base(a)})


def broadcast_static_shape(shape_x, shape_y):
    """The broadcast of two TensorShapes (ValueError if they are incompatible)."""
    from ..framework.op_util import broadcast_shapes
    try:
        return broadcast_shapes(as_shape(shape_x), as_shape(shape_y))
    except ValueError:
        raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if for each dimension "
                         "pair they are either equal or one of them is 1. Received: "
                         f"{as_shape(shape_x)} and {as_shape(shape_y)}.") from None


def meshgrid(*args, **kwargs):
    """N-D coordinate arrays from 1-D coordinate vectors (indexing 'xy' swaps the first two
    axes, like NumPy)."""
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        key = list(kwargs)[0]
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    g = _graph()
    with g.name_scope(name):
        ndim = len(args)
        s0 = (1,) * ndim
        if not ndim:
            return []
        output = []
        for i, x in enumerate(args):
            output.append(reshape(stack(x), (s0[:i] + (-1,) + s0[i + 1:])))
        shapes = [size(x) for x in args]
        if indexing == "xy" and ndim > 1:
            output[0] = reshape(output[0], (1, -1) + (1,) * (ndim - 2))
            output[1] = reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
            shapes[0], shapes[1] = shapes[1], shapes[0]
        # TF multiplies by a tensor of ones rather than broadcasting (ops "mul", "mul_1")
        mult_fact = ones(shapes, _base(_to_tensor(args[0])))
        return [x * mult_fact for x in output]


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and array_ops.py imports them all once its helpers exist.
from .array_reshape_ops import expand_dims, reshape, squeeze  # noqa: E402
from .array_join_ops import concat, stack  # noqa: E402
from .array_gather_ops import gather, _sum_to_shape  # noqa: E402
from .array_range_ops import _cast, range  # noqa: E402
