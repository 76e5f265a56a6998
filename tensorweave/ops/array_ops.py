"""Array ops: placeholders, identity, shapes, reshaping, slicing, joining, gathering.

Every op declares a static shape function (and, for ops that compute shapes, a static value
function) so shape computations such as `tf.reshape(x, tf.stack([tf.shape(x)[0], -1]))` give static
shapes where TensorFlow has them. Names of the helper constants follow TF (`Reshape/shape`,
`strided_slice/stack`, `GatherV2/axis`, ...).

This module holds the family's shared helpers and the placeholder, identity, shape and fill ops;
the rest live beside it, each op with its shape, static-value and gradient functions:
array_reshape_ops (reshape, transpose, expand_dims, squeeze), array_join_ops (concat, stack,
unstack, split), array_gather_ops (gather, gather_nd, scatter_nd, tile, broadcast_to),
array_slice_ops (slice, strided_slice, Tensor.__getitem__), array_range_ops (range, linspace,
one_hot, pad, reverse) and array_misc_ops (where, boolean_mask, sequence_mask, permutations,
unique, setdiff1d, band, diag, broadcast shapes, meshgrid). All their names are re-exported here.
"""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor, set_autopack
from ..framework.graph import Tensor, get_default_graph
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, unchanged_shape
from ..framework.tensor_shape import (
    Dimension, TensorShape, as_shape, inference_merge_error, note_input_partial_shape, shape_tensor_value_error,
    unknown_shape,
)

__all__ = [
    "placeholder", "placeholder_with_default", "identity", "identity_n", "stop_gradient",
    "zeros", "ones", "fill", "zeros_like", "ones_like", "range", "linspace", "lin_space",
    "reshape", "transpose", "expand_dims", "squeeze", "concat", "stack", "unstack", "split",
    "slice", "strided_slice", "gather", "gather_nd", "scatter_nd", "one_hot", "tile", "pad",
    "reverse", "reverse_v2", "shape", "shape_n", "size", "rank", "where", "where_v2",
    "boolean_mask", "sequence_mask", "broadcast_to", "broadcast_dynamic_shape",
    "broadcast_static_shape", "meshgrid", "unique", "setdiff1d", "matrix_band_part", "diag",
    "diag_part", "invert_permutation", "newaxis",
]

newaxis = None
_builtin_range = range
_builtin_slice = slice

# Constant-folded outputs (zeros/ones) and static values are only materialized up to this size.
_SMALL = 1000
_STATIC_LIMIT = 1 << 16


# -- helpers ---------------------------------------------------------------------------------

def _contains_tensor(value):
    if isinstance(value, Tensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return False


def _nested_dtype(value):
    if isinstance(value, Tensor):
        return value.dtype.base_dtype
    if isinstance(value, (list, tuple)):
        for v in value:
            d = _nested_dtype(v)
            if d is not None:
                return d
    return None


def _autopack(values, name, dtype=None):
    """TF's conversion of a (nested) list holding Tensors: a Pack op named `name`, Python
    elements becoming constants named by their index inside its scope."""
    dtype = dtype or _nested_dtype(values)
    g = get_default_graph()
    with g.name_scope(name) as scope:
        elems = []
        for i, v in enumerate(values):
            if isinstance(v, Tensor):
                if dtype is not None and v.dtype.base_dtype != _dtypes.as_dtype(dtype).base_dtype:
                    raise TypeError(f"Cannot convert a list containing a tensor of dtype {v.dtype} to "
                                    f"{_dtypes.as_dtype(dtype)} (Tensor is: {v!r})")
            elif isinstance(v, (list, tuple)):
                if _contains_tensor(v):
                    v = _autopack(v, str(i), dtype)
                else:
                    # TF opens (and so uses up) the element's name scope before finding no tensor
                    with g.name_scope(str(i)):
                        pass
                    v = constant(v, dtype=dtype, name=str(i))
            else:
                v = constant(v, dtype=dtype, name=str(i))
            elems.append(v)
        return _pack(elems, 0, scope)


set_autopack(_autopack)


def _to_tensor(value, name=None, dtype=None, preferred_dtype=None):
    """convert_to_tensor (which autopacks lists holding Tensors through `_autopack`)."""
    if isinstance(value, Tensor) and dtype is not None and \
            value.dtype.base_dtype != _dtypes.as_dtype(dtype).base_dtype:
        raise ValueError(f"Tensor conversion requested dtype {_dtypes.as_dtype(dtype).name} for "
                         f"Tensor with dtype {value.dtype.base_dtype.name}: {value!r}")
    return convert_to_tensor(value, dtype=dtype, name=name, preferred_dtype=preferred_dtype)


def _op_input(value, param, op_type, dtype=None):
    """Converts `value` for input `param` of `op_type` as TF's op builder does, with its message
    when the value does not convert to the dtype the other inputs fixed."""
    try:
        return _to_tensor(value, name=param, dtype=dtype)
    except (TypeError, ValueError) as e:
        if dtype is None or isinstance(value, Tensor):
            raise
        raise TypeError(f"Expected {_dtypes.as_dtype(dtype).name} passed to parameter '{param}' of op "
                        f"'{op_type}', got {value!r} of type '{type(value).__name__}' instead. Error: {e}") from None


_INDEX_TYPES = (_dtypes.int32, _dtypes.int64)


def _index_tensor(value, name, arg, op_type, dtype=None, int16=False, no_default=False):
    """An int32/int64 argument (shapes, axes, permutations), TypeError for other dtypes;
    `int16=True` also admits int16 (gather indices in TF 2.21). `no_default=True` is for a type
    attr without a default (gather's and scatter_nd's Tindices): Python values convert with no
    preferred dtype, so an empty list is float32 (a TypeError)."""
    # TF's op builder converts Python values with the attr's default type as the preferred dtype,
    # so an empty list (a scalar's shape) becomes int32, not float32 -- after a first try that
    # leaves a float32 Const of the argument's name behind: TF's ops are "Reshape/shape" (dead)
    # and "Reshape/shape_1".
    if isinstance(value, (list, tuple)) and not value and dtype is None and not no_default:
        _to_tensor(value, name=name)
    preferred = _dtypes.int32 if dtype is None and not no_default else None
    if preferred is not None and isinstance(value, (np.ndarray, np.generic)) and value.dtype == np.int64:
        preferred = _dtypes.int64  # TF's op builder keeps a NumPy value's own dtype
    try:
        t = _to_tensor(value, name=name, dtype=dtype, preferred_dtype=preferred)
    except ValueError as e:
        if isinstance(value, Tensor):
            raise
        # TF's op builder words a value that converts to no tensor at all (a partially known
        # TensorShape) with the input's name
        raise ValueError(f"Tried to convert '{arg}' to a tensor and failed. Error: {e}") from None
    if t.dtype.base_dtype not in _INDEX_TYPES and not (int16 and t.dtype.base_dtype == _dtypes.int16):
        raise TypeError(f"Value passed to parameter '{arg}' has DataType {t.dtype.base_dtype.name} not in "
                        f"list of allowed values: {'int16, ' if int16 else ''}int32, int64")
    return t


def _graph():
    return get_default_graph()


def _base(t):
    return t.dtype.base_dtype


def _static_int(t):
    """A Python int if `t` is a scalar known while building, else None."""
    v = constant_value(t)
    if v is None or np.ndim(v) != 0:
        return None
    return int(v)


def _shape_source(t):
    """The static shape that the tensor `t` holds when `t` is an output of Shape or ShapeN, else None."""
    op = t.op
    if op.type == "Shape" and t.value_index == 0:
        return op.inputs[0].shape
    if op.type == "ShapeN":
        return op.inputs[t.value_index].shape
    return None


def _partial_dims(t):
    """The 1-D integer tensor `t` as a list of Python ints (None where unknown), or None when
    even its length is unknown (TF's constant_value_as_shape, but -1 entries are kept)."""
    v = constant_value(t)
    if v is not None:
        if np.ndim(v) == 0:
            return None
        return [int(d) for d in np.asarray(v).ravel()]
    op = t.op
    src = _shape_source(t)
    if src is not None:
        return None if src.ndims is None else src.as_list()
    if op.type == "Pack" and op._get_attr("axis") == 0:
        return [_scalar_dim(inp) for inp in op.inputs]
    if op.type == "ConcatV2":
        out = []
        for inp in op.inputs[:-1]:
            p = _partial_dims(inp)
            if p is None:
                return None
            out.extend(p)
        return out
    if op.type == "StridedSlice" and _shape_source(op.inputs[0]) is not None:
        src = _shape_source(op.inputs[0])
        b, e, s = (constant_value(x) for x in op.inputs[1:4])
        if src.ndims is not None and b is not None and e is not None and s is not None and len(b) == 1 \
                and not (op._get_attr("shrink_axis_mask") or op._get_attr("new_axis_mask")
                         or op._get_attr("ellipsis_mask")):
            bm, em = op._get_attr("begin_mask"), op._get_attr("end_mask")
            sl = _builtin_slice(None if bm & 1 else int(b[0]), None if em & 1 else int(e[0]), int(s[0]))
            return src.as_list()[sl]
    n = t.shape[0].value if t.shape.ndims == 1 else None
    return None if n is None else [None] * n


_DIM_ARITH = {"Mul": lambda a, b: a * b, "AddV2": lambda a, b: a + b, "Add": lambda a, b: a + b,
              "Sub": lambda a, b: a - b, "FloorDiv": lambda a, b: a // b, "Maximum": max, "Minimum": min}


def _scalar_dim(t):
    """A scalar int tensor's static value; also one dimension of a partially known shape,
    `tf.shape(x)[i]`, when x.shape[i] is known. None if unknown."""
    v = constant_value(t)
    if v is not None:
        return int(v) if np.ndim(v) == 0 else None
    op = t.op
    # TF's shape refiner folds arithmetic on known dimensions (repeats * tf.shape(x)[1])
    if op.type in _DIM_ARITH and len(op.inputs) == 2:
        a, b = _scalar_dim(op.inputs[0]), _scalar_dim(op.inputs[1])
        return None if a is None or b is None else int(_DIM_ARITH[op.type](a, b))
    if op.type in ("Cast", "Identity") or op.type == "Reshape" and t.shape.ndims == 0:
        return _scalar_dim(op.inputs[0]) if op.inputs[0].shape.num_elements() in (None, 1) else None
    if op.type == "StridedSlice" and op._get_attr("shrink_axis_mask") == 1 and _shape_source(op.inputs[0]) is not None \
            and not (op._get_attr("ellipsis_mask") or op._get_attr("new_axis_mask")):
        src = _shape_source(op.inputs[0])
        b = constant_value(op.inputs[1])
        if src.ndims is not None and b is not None and np.size(b) == 1 and -src.ndims <= int(b[0]) < src.ndims:
            return src[int(b[0])].value
    return None


def _shape_input_dims(t, index=None):
    """TF's MakeShapeFromShapeTensor: the 1-D shape tensor `t` as a list of ints, None where
    unknown (-1 reads as unknown; a value below -1 is TF's "Invalid value" error), or None when
    its length is unknown. With `index`, notes the read for the shape-function error context."""
    dims = _partial_dims(t)
    if dims is None:
        return None
    for d in dims:
        if d is not None and d < -1:
            raise shape_tensor_value_error(d)
    if index is not None:
        note_input_partial_shape(index, dims)
    return [d if d is not None and d >= 0 else None for d in dims]


def _shape_from_tensor(t, index=None):
    """Static TensorShape described by the 1-D shape tensor `t` (-1 entries unknown)."""
    dims = _shape_input_dims(t, index)
    return unknown_shape() if dims is None else TensorShape(dims)


def _dims_str(dims):
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _norm_axis(axis, ndims, what="axis"):
    if ndims is None:
        return None
    if not -ndims <= axis < ndims:
        raise ValueError(f"{what} {axis} is out of bounds for a tensor of rank {ndims}; must be in "
                         f"[{-ndims}, {ndims})")
    return axis % ndims


# -- placeholders and identity ---------------------------------------------------------------

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
    # As TF: the default must merge with the declared shape (TF's Merge message); the output
    # has the declared shape, which may be less precise than the default's.
    err = inference_merge_error(op.inputs[0].shape, op._attrs["shape"])
    if err:
        raise ValueError(err)
    return [op._attrs["shape"]]


registry.register_op("PlaceholderWithDefault", shape_fn=_pwd_shape)


@registry.register_gradient("PlaceholderWithDefault")
def _pwd_grad(op, grad):
    return [grad]


def placeholder_with_default(input, shape, name=None):
    """A placeholder that passes `input` through when it is not fed."""
    shape = as_shape(shape)
    g = _graph()
    with g.name_scope(name or "PlaceholderWithDefault") as scope:
        input = _to_tensor(input, name="input")
        return apply_op("PlaceholderWithDefault", [input], [input.dtype.base_dtype],
                        scope, attrs={"dtype": input.dtype.base_dtype, "shape": shape})


registry.register_op("Identity", shape_fn=unchanged_shape)


@registry.register_gradient("Identity")
def _identity_grad(op, grad):
    return [grad]


@registry.register_static_value("Identity")
def _identity_value(op, value_of):
    return value_of(op.inputs[0])


def identity(input, name=None):
    """Returns a tensor with the same value as `input` (reading a variable's current value)."""
    if isinstance(input, (numbers.Number, list, tuple, np.ndarray, np.generic)) or \
            getattr(input, "_is_resource_variable", False):
        # A resource variable is read inside the op's scope ("Identity/ReadVariableOp"), as TF does.
        # A Python/NumPy value becomes the constant "<name>/input", as TF's op wrapper names it.
        with get_default_graph().name_scope(name or "Identity") as scope:
            input = convert_to_tensor(input, name="input")
            return apply_op("Identity", [input], [input.dtype.base_dtype], scope,
                            attrs={"T": input.dtype.base_dtype})
    input = convert_to_tensor(input)
    return apply_op("Identity", [input], [input.dtype.base_dtype], name or "Identity",
                    attrs={"T": input.dtype.base_dtype})


def _identity_n_shape(op):
    return [t.shape for t in op.inputs]


registry.register_op("IdentityN", shape_fn=_identity_n_shape)


@registry.register_gradient("IdentityN")
def _identity_n_grad(op, *grads):
    return list(grads)


def identity_n(input, name=None):
    """Returns a list of tensors with the same values as the list `input`."""
    ts = [convert_to_tensor(t) for t in input]
    out = apply_op("IdentityN", ts, [_base(t) for t in ts], name or "IdentityN",
                   attrs={"T": [_base(t) for t in ts]})
    return out if isinstance(out, list) else [out]


registry.register_op("StopGradient", shape_fn=unchanged_shape)
registry.no_gradient("StopGradient")


def stop_gradient(input, name=None):
    """Passes `input` through; gradients do not flow back through it."""
    input = convert_to_tensor(input)
    return apply_op("StopGradient", [input], [input.dtype.base_dtype], name or "StopGradient",
                    attrs={"T": input.dtype.base_dtype})


# -- shape, size, rank -----------------------------------------------------------------------

def _shape_shape(op):
    s = op.inputs[0].shape
    return [TensorShape([s.ndims])]


registry.register_op("Shape", shape_fn=_shape_shape)
registry.no_gradient("Shape")


@registry.register_static_value("Shape")
def _shape_value(op, value_of):
    s = op.inputs[0].shape
    if s.is_fully_defined():
        return np.array(s.as_list(), dtype=op._get_attr("out_type").as_numpy_dtype)
    v = value_of(op.inputs[0])
    if v is not None:
        return np.array(np.shape(v), dtype=op._get_attr("out_type").as_numpy_dtype)
    return None


def _check_out_type(out_type):
    out_type = _dtypes.as_dtype(out_type).base_dtype
    if out_type not in _INDEX_TYPES:
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {out_type.name} not in list "
                        f"of allowed values: int32, int64")
    return out_type


def shape(input, name=None, out_type=_dtypes.int32, optimize=True):
    """The shape of `input` as a 1-D integer tensor (a constant when it is statically known)."""
    out_type = _check_out_type(out_type)
    if isinstance(input, IndexedSlices):
        return input.dense_shape
    if not isinstance(input, Tensor) and _is_sparse(input):
        # TF: a Cast of the dense shape (always a Cast op, even to int64)
        with _graph().name_scope(name or "Shape"):
            return _sparse_dense_shape(input, out_type)
    if isinstance(input, Tensor):
        return _shape_of_tensor(input, name or "Shape", out_type, optimize)
    with _graph().name_scope(name or "Shape") as scope:  # TF converts inside the op's scope
        return _shape_of_tensor(convert_to_tensor(input), scope, out_type, optimize)


def _shape_of_tensor(input, name, out_type, optimize):
    s = input.shape
    if optimize and s.is_fully_defined():
        return constant(np.array(s.as_list(), dtype=out_type.as_numpy_dtype), dtype=out_type, name=name)
    return apply_op("Shape", [input], [out_type], name, attrs={"T": _base(input), "out_type": out_type})


def _is_sparse(x):
    from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
    return isinstance(x, (SparseTensor, SparseTensorValue))


def _sparse_dense_shape(sp, out_type):
    """Cast(sp.dense_shape, out_type), named "Cast" in the current scope, as TF builds it."""
    ds = convert_to_tensor(sp.dense_shape, dtype=_dtypes.int64)
    return apply_op("Cast", [ds], [out_type], "Cast",
                    attrs={"SrcT": _dtypes.int64, "DstT": out_type, "Truncate": False})


def _shape_n_shape(op):
    return [TensorShape([t.shape.ndims]) for t in op.inputs]


registry.register_op("ShapeN", shape_fn=_shape_n_shape)
registry.no_gradient("ShapeN")


def shape_n(input, out_type=_dtypes.int32, name=None):
    """The shapes of a list of tensors (one ShapeN op)."""
    out_type = _check_out_type(out_type)
    first = next((t for t in input if isinstance(t, Tensor)), None)
    dt = _base(first) if first is not None else None
    ts = [t if isinstance(t, Tensor) else convert_to_tensor(t, dtype=dt) for t in input]
    if len({_base(t) for t in ts}) > 1:  # ShapeN has one type attr T for all its inputs
        raise TypeError(f"Tensors in list passed to 'input' of 'ShapeN' Op have types "
                        f"[{', '.join(_base(t).name for t in ts)}] that don't all match.")
    out = apply_op("ShapeN", ts, [out_type] * len(ts), name or "ShapeN",
                   attrs={"N": len(ts), "T": _base(ts[0]) if ts else None, "out_type": out_type})
    return out if isinstance(out, list) else [out]


registry.register_op("Size", shape_fn=lambda op: [TensorShape([])])
registry.no_gradient("Size")


@registry.register_static_value("Size")
def _size_value(op, value_of):
    n = op.inputs[0].shape.num_elements()
    if n is None:
        v = value_of(op.inputs[0])
        if v is None:
            return None
        n = np.size(v)
    return np.array(n, dtype=op._get_attr("out_type").as_numpy_dtype)


def size(input, name=None, out_type=_dtypes.int32):
    """The number of elements of `input` (a constant when statically known)."""
    out_type = _check_out_type(out_type)
    if isinstance(input, IndexedSlices):
        input = convert_to_tensor(input)
    if not isinstance(input, Tensor) and _is_sparse(input):
        # TF: Prod(Cast(dense_shape), 0), the Prod named like the op
        with _graph().name_scope(name or "Size") as scope:
            ds = _sparse_dense_shape(input, out_type)
            axis = constant(np.array(0, np.int32), name="reduction_indices")
            return apply_op("Prod", [ds, axis], [out_type], scope,
                            attrs={"T": out_type, "Tidx": _dtypes.int32, "keep_dims": False})
    if isinstance(input, Tensor):
        return _size_of_tensor(input, name or "Size", out_type)
    with _graph().name_scope(name or "Size") as scope:  # TF converts inside the op's scope
        return _size_of_tensor(convert_to_tensor(input), scope, out_type)


def _size_of_tensor(input, name, out_type):
    n = input.shape.num_elements()
    if n is not None:
        return constant(np.array(n, dtype=out_type.as_numpy_dtype), dtype=out_type, name=name)
    return apply_op("Size", [input], [out_type], name, attrs={"T": _base(input), "out_type": out_type})


registry.register_op("Rank", shape_fn=lambda op: [TensorShape([])])
registry.no_gradient("Rank")


@registry.register_static_value("Rank")
def _rank_value(op, value_of):
    r = op.inputs[0].shape.ndims
    if r is None:
        v = value_of(op.inputs[0])
        if v is None:
            return None
        r = np.ndim(v)
    return np.array(r, dtype=np.int32)


def rank(input, name=None):
    """The number of dimensions of `input` as an int32 scalar."""
    if isinstance(input, IndexedSlices):
        input = convert_to_tensor(input)
    if not isinstance(input, Tensor) and _is_sparse(input):
        # TF: the Size of the dense shape
        with _graph().name_scope(name or "Rank") as scope:
            ds = convert_to_tensor(input.dense_shape, dtype=_dtypes.int64)
            return apply_op("Size", [ds], [_dtypes.int32], scope,
                            attrs={"T": _dtypes.int64, "out_type": _dtypes.int32})
    if isinstance(input, Tensor):
        return _rank_of_tensor(input, name or "Rank")
    with _graph().name_scope(name or "Rank") as scope:  # TF converts inside the op's scope
        return _rank_of_tensor(convert_to_tensor(input), scope)


def _rank_of_tensor(input, name):
    r = input.shape.ndims
    if r is not None:
        return constant(np.array(r, dtype=np.int32), dtype=_dtypes.int32, name=name)
    return apply_op("Rank", [input], [_dtypes.int32], name, attrs={"T": _base(input)})


# -- fill, zeros, ones -----------------------------------------------------------------------

def _fill_shape(op):
    dims_t, value = op.inputs
    if value.shape.ndims not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {value.shape.ndims}")
    if dims_t.shape.ndims not in (None, 1):
        raise ValueError(f"Shape must be rank 1 but is rank {dims_t.shape.ndims}")
    dims = _partial_dims(dims_t)
    s = _shape_from_tensor(dims_t, 0)
    if dims is not None and any(d is not None and d < 0 for d in dims):
        raise ValueError(f"Fill dimensions must be >= 0")
    return [s]


registry.register_op("Fill", shape_fn=_fill_shape)


@registry.register_static_value("Fill")
def _fill_value(op, value_of):
    dims, v = value_of(op.inputs[0]), value_of(op.inputs[1])
    if dims is None or v is None or np.prod(dims) > _STATIC_LIMIT:
        return None
    return np.full([int(d) for d in dims], v, dtype=np.asarray(v).dtype)


@registry.register_gradient("Fill")
def _fill_grad(op, grad):
    from .math_reduction_ops import reduce_sum
    return [None, reduce_sum(grad)]  # TF's _FillGrad: "Fill_grad/Const", "Fill_grad/Sum"


def fill(dims, value, name=None):
    """A tensor of shape `dims` filled with the scalar `value`."""
    g = _graph()
    with g.name_scope(name or "Fill") as scope:
        dims = _index_tensor(dims, "dims", "dims", "Fill")
        value = _to_tensor(value, name="value")
        return apply_op("Fill", [dims, value], [_base(value)], scope,
                        attrs={"T": _base(value), "index_type": _base(dims)})


def _filled(shape, dtype, one, default_name, name):
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if dtype is _dtypes.bool:
        v = bool(one)
    elif dtype is _dtypes.string:
        v = "" if not one else None
        if one:
            raise TypeError(f"Expected string, but got {one} of type 'int'.")  # TF's constant(1, string)
    else:
        v = one
    g = _graph()
    with g.name_scope(name or default_name) as scope:
        if not isinstance(shape, Tensor):
            if isinstance(shape, TensorShape) and not shape.is_fully_defined():
                raise ValueError(f"Cannot convert a partially known TensorShape {shape} to a Tensor.")
            if not _contains_tensor(shape):
                try:
                    dims = [int(d) for d in (shape.as_list() if isinstance(shape, TensorShape) else
                                             np.asarray([shape] if np.ndim(shape) == 0 else shape,
                                                        dtype=object).ravel())]
                except (TypeError, ValueError):
                    dims = None
                if dims is not None and int(np.prod(dims)) < _SMALL:
                    try:
                        return constant(v, dtype=dtype, shape=dims, name=scope)
                    except ValueError:  # negative dims: TF falls back to a Fill (which fails)
                        shape = _index_tensor(shape, "Const", "dims", "Fill")
            if not isinstance(shape, Tensor):
                # a list holding tensors autopacks ("packed"), as TF's convert_to_tensor does
                shape = _index_tensor(shape, None if _contains_tensor(shape) else "shape_as_tensor", "dims",
                                      "Fill")
        if shape.shape.ndims == 0:
            shape = reshape(shape, [-1])
        shape = _index_tensor(shape, None, "dims", "Fill")   # (a float tensor: TF's TypeError)
        value = constant(v, dtype=dtype)
        return apply_op("Fill", [shape, value], [dtype], scope,
                        attrs={"T": dtype, "index_type": _base(shape)})


def zeros(shape, dtype=_dtypes.float32, name=None):
    """A tensor of the given shape with all elements zero."""
    return _filled(shape, dtype, 0, "zeros", name)


def ones(shape, dtype=_dtypes.float32, name=None):
    """A tensor of the given shape with all elements one."""
    return _filled(shape, dtype, 1, "ones", name)


registry.register_op("ZerosLike", shape_fn=unchanged_shape)
registry.no_gradient("ZerosLike")
registry.register_op("OnesLike", shape_fn=unchanged_shape)
registry.no_gradient("OnesLike")


def zeros_like(tensor, dtype=None, name=None, optimize=True):
    """Zeros with the shape of `tensor` (and its dtype unless `dtype` is given)."""
    g = _graph()
    with g.name_scope(name or "zeros_like") as scope:
        if isinstance(tensor, IndexedSlices):
            tensor = convert_to_tensor(tensor)
        tensor = _to_tensor(tensor, name="tensor")
        dt = _dtypes.as_dtype(dtype).base_dtype if dtype is not None else _base(tensor)
        if optimize and tensor.shape.is_fully_defined():
            return zeros(tensor.shape, dtype=dt, name=scope)
        if dt != _base(tensor):
            return zeros(shape(tensor, optimize=optimize), dtype=dt, name=scope)
        return apply_op("ZerosLike", [tensor], [dt], scope, attrs={"T": dt})


def ones_like(tensor, dtype=None, name=None, optimize=True):
    """Ones with the shape of `tensor` (and its dtype unless `dtype` is given)."""
    g = _graph()
    with g.name_scope(name or "ones_like") as scope:
        if isinstance(tensor, IndexedSlices):
            tensor = convert_to_tensor(tensor)
        tensor = _to_tensor(tensor, name="tensor")
        dt = _dtypes.as_dtype(dtype).base_dtype if dtype is not None else _base(tensor)
        if optimize and tensor.shape.is_fully_defined():
            with g.name_scope("Shape"):
                s = constant(np.array(tensor.shape.as_list(), np.int32), name="shape_as_tensor")
        else:
            s = shape(tensor, optimize=optimize)
        out = ones(s, dtype=dt, name=scope)
        out.set_shape(tensor.shape)
        return out


# -- the family's other modules, imported last (they build on the helpers above) -------------

# Every name they define stays reachable from here: callers write `array_ops.reshape` and
# `from .array_ops import _shape_from_tensor`.
from .array_reshape_ops import (  # noqa: E402,F401
    _conj_transpose_grad, expand_dims, _expand_dims_grad, _expand_dims_shape, _expand_dims_value,
    _inverse_perm, _perm_of, reshape, _reshape_grad, _reshape_shape, _reshape_value, squeeze,
    _squeeze_grad, _squeeze_shape, _squeeze_value, transpose, _transpose_grad, _transpose_shape,
    _transpose_value,
)
from .array_join_ops import (  # noqa: E402,F401
    concat, _concat_grad, _concat_offset_shape, _concat_shape, _concat_value, _match_list_dtypes, _pack,
    _pack_grad, _pack_shape, _pack_value, split, _split_grad, _split_shape, _split_v_grad,
    _split_v_shape, stack, _unpack_grad, _unpack_shape, unstack,
)
from .array_gather_ops import (  # noqa: E402,F401
    broadcast_to, _broadcast_to_grad, _broadcast_to_shape, gather, _gather_grad, gather_nd,
    _gather_nd_grad, _gather_nd_shape, _gather_shape, _gather_value, scatter_nd, _scatter_nd_grad,
    _scatter_nd_shape, _sum_to_shape, _sum_to_shape_grad, _sum_to_shape_shape, tile, _tile_grad,
    _tile_grad_grad, _tile_grad_op, _tile_grad_shape, _tile_shape, _tile_value,
)
from .array_slice_ops import (  # noqa: E402,F401
    _check_index, _MASKS, slice, _slice_grad, _slice_helper, _slice_shape, _slice_value, _ss_attrs,
    _ss_grad_shape, _ss_index, _ss_masks, _ss_shape_fn, strided_slice, _strided_slice_grad,
    _strided_slice_grad_grad, _strided_slice_shape, _strided_slice_value,
)
from .array_range_ops import (  # noqa: E402,F401
    _cast, lin_space, linspace, _linspace_shape, _linspace_value, _mirror_pad_grad,
    _mirror_pad_grad_grad, one_hot, _one_hot_shape, pad, _pad_grad, _pad_grad_impl, _pad_shape,
    _pad_v2_grad, range, _RANGE_ORDER, _range_shape, _range_size, _range_value, reverse, _reverse_grad,
    _reverse_shape, reverse_v2, _reverse_value, _to_dtype_of,
)
from .array_misc_ops import (  # noqa: E402,F401
    _band_grad, _band_shape, boolean_mask, _broadcast_args_shape, _broadcast_args_value,
    broadcast_dynamic_shape, broadcast_static_shape, _check_bool, diag, _diag_grad, diag_part,
    _diag_part_grad, _diag_part_shape, _diag_shape, _invert_perm_value, invert_permutation,
    _list_diff_output, _list_diff_shape, _ListDiffOutput, matrix_band_part, meshgrid,
    _select, _select_grad, _select_shape, _select_v2_grad, _select_v2_shape, sequence_mask, setdiff1d,
    unique, _unique_output, _unique_shape, _UniqueOutput, where, _where_shape, where_v2,
)
from .array_extra_ops import *  # noqa: E402,F401,F403
from .array_extra_ops import __all__ as _extra_all  # noqa: E402
from .array_space_ops import *  # noqa: E402,F401,F403
from .array_space_ops import __all__ as _space_all  # noqa: E402

__all__ = __all__ + _extra_all + _space_all
