"""Array ops: placeholders, identity, shapes, reshaping, slicing, joining, gathering.

Every op declares a static shape function (and, for ops that compute shapes, a static value
function) so shape computations such as `tf.reshape(x, tf.stack([tf.shape(x)[0], -1]))` give static
shapes where TensorFlow has them. Names of the helper constants follow TF (`Reshape/shape`,
`strided_slice/stack`, `GatherV2/axis`, ...).
"""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor, get_default_graph
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, unchanged_shape
from ..framework.tensor_shape import Dimension, TensorShape, as_shape, unknown_shape

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
            if isinstance(v, (list, tuple)) and _contains_tensor(v):
                v = _autopack(v, str(i), dtype)
            elif not isinstance(v, Tensor):
                v = constant(v, dtype=dtype, name=str(i))
            elems.append(v)
        return _pack(elems, 0, scope)


def _to_tensor(value, name=None, dtype=None, preferred_dtype=None):
    """convert_to_tensor, plus TF's autopacking of lists holding Tensors and TensorShapes."""
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype.base_dtype != _dtypes.as_dtype(dtype).base_dtype:
            raise ValueError(f"Tensor conversion requested dtype {_dtypes.as_dtype(dtype).name} for "
                             f"Tensor with dtype {value.dtype.base_dtype.name}: {value!r}")
        return value
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {value} to a Tensor.")
        value = value.as_list()
    elif isinstance(value, Dimension):
        if value.value is None:
            raise ValueError("Cannot convert an unknown Dimension to a Tensor: ?")
        value = value.value
    if isinstance(value, (list, tuple)):
        if _contains_tensor(value):
            return _autopack(value, name or "packed", dtype)
        if any(isinstance(v, Dimension) for v in value):
            value = [v.value if isinstance(v, Dimension) else v for v in value]
    return convert_to_tensor(value, dtype=dtype, name=name, preferred_dtype=preferred_dtype)


_INDEX_TYPES = (_dtypes.int32, _dtypes.int64)


def _index_tensor(value, name, arg, op_type, dtype=None):
    """An int32/int64 argument (shapes, axes, permutations), TypeError for other dtypes."""
    t = _to_tensor(value, name=name, dtype=dtype)
    if t.dtype.base_dtype not in _INDEX_TYPES:
        raise TypeError(f"Value passed to parameter '{arg}' has DataType {t.dtype.base_dtype.name} not in "
                        f"list of allowed values: int32, int64")
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


def _partial_dims(t):
    """The 1-D integer tensor `t` as a list of Python ints (None where unknown), or None when
    even its length is unknown (TF's constant_value_as_shape, but -1 entries are kept)."""
    v = constant_value(t)
    if v is not None:
        if np.ndim(v) == 0:
            return None
        return [int(d) for d in np.asarray(v).ravel()]
    op = t.op
    if op.type == "Shape" and t.value_index == 0:
        s = op.inputs[0].shape
        return None if s.ndims is None else s.as_list()
    if op.type == "Pack" and op.get_attr("axis") == 0:
        out = []
        for inp in op.inputs:
            v = constant_value(inp)
            out.append(int(v) if v is not None and np.ndim(v) == 0 else None)
        return out
    if op.type == "ConcatV2":
        out = []
        for inp in op.inputs[:-1]:
            p = _partial_dims(inp)
            if p is None:
                return None
            out.extend(p)
        return out
    if op.type == "StridedSlice" and op.inputs[0].op.type == "Shape":
        src = op.inputs[0].op.inputs[0].shape
        b, e, s = (constant_value(x) for x in op.inputs[1:4])
        if src.ndims is not None and b is not None and e is not None and s is not None and len(b) == 1 \
                and not (op.get_attr("shrink_axis_mask") or op.get_attr("new_axis_mask")
                         or op.get_attr("ellipsis_mask")):
            bm, em = op.get_attr("begin_mask"), op.get_attr("end_mask")
            sl = _builtin_slice(None if bm & 1 else int(b[0]), None if em & 1 else int(e[0]), int(s[0]))
            return src.as_list()[sl]
    n = t.shape[0].value if t.shape.ndims == 1 else None
    return None if n is None else [None] * n


def _shape_from_tensor(t):
    """Static TensorShape described by the 1-D shape tensor `t` (negative entries unknown)."""
    dims = _partial_dims(t)
    if dims is None:
        return unknown_shape()
    return TensorShape([d if d is not None and d >= 0 else None for d in dims])


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
    return [op._attrs["shape"]]


registry.register_op("PlaceholderWithDefault", shape_fn=_pwd_shape)


@registry.register_gradient("PlaceholderWithDefault")
def _pwd_grad(op, grad):
    return [grad]


def placeholder_with_default(input, shape, name=None):
    """A placeholder that passes `input` through when it is not fed."""
    input = _to_tensor(input, name="input") if not isinstance(input, Tensor) else input
    shape = as_shape(shape)
    if not shape.is_compatible_with(input.shape):
        raise ValueError(f"Shapes {input.shape} and {shape} are incompatible")
    g = _graph()
    with g.name_scope(name or "PlaceholderWithDefault") as scope:
        pass
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
        return np.array(s.as_list(), dtype=op.get_attr("out_type").as_numpy_dtype)
    v = value_of(op.inputs[0])
    if v is not None:
        return np.array(np.shape(v), dtype=op.get_attr("out_type").as_numpy_dtype)
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
    input = convert_to_tensor(input)
    s = input.shape
    if optimize and s.is_fully_defined():
        return constant(np.array(s.as_list(), dtype=out_type.as_numpy_dtype), dtype=out_type,
                        name=name or "Shape")
    return apply_op("Shape", [input], [out_type], name or "Shape",
                    attrs={"T": _base(input), "out_type": out_type})


def _shape_n_shape(op):
    return [TensorShape([t.shape.ndims]) for t in op.inputs]


registry.register_op("ShapeN", shape_fn=_shape_n_shape)
registry.no_gradient("ShapeN")


def shape_n(input, out_type=_dtypes.int32, name=None):
    """The shapes of a list of tensors (one ShapeN op)."""
    out_type = _check_out_type(out_type)
    ts = [convert_to_tensor(t) for t in input]
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
    return np.array(n, dtype=op.get_attr("out_type").as_numpy_dtype)


def size(input, name=None, out_type=_dtypes.int32):
    """The number of elements of `input` (a constant when statically known)."""
    out_type = _check_out_type(out_type)
    if isinstance(input, IndexedSlices):
        input = convert_to_tensor(input)
    input = convert_to_tensor(input)
    n = input.shape.num_elements()
    if n is not None:
        return constant(np.array(n, dtype=out_type.as_numpy_dtype), dtype=out_type, name=name or "Size")
    return apply_op("Size", [input], [out_type], name or "Size",
                    attrs={"T": _base(input), "out_type": out_type})


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
    input = convert_to_tensor(input)
    r = input.shape.ndims
    if r is not None:
        return constant(np.array(r, dtype=np.int32), dtype=_dtypes.int32, name=name or "Rank")
    return apply_op("Rank", [input], [_dtypes.int32], name or "Rank", attrs={"T": _base(input)})


# -- fill, zeros, ones -----------------------------------------------------------------------

def _fill_shape(op):
    dims_t, value = op.inputs
    if value.shape.ndims not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {value.shape.ndims}")
    if dims_t.shape.ndims not in (None, 1):
        raise ValueError(f"Shape must be rank 1 but is rank {dims_t.shape.ndims}")
    s = _shape_from_tensor(dims_t)
    dims = _partial_dims(dims_t)
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
    return [None, _sum_to_shape(grad, constant(np.zeros([0], np.int32)))]


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
            raise TypeError("ones of string dtype are not supported")
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
                    arr = np.full(dims, v, dtype=dtype.as_numpy_dtype if dtype is not _dtypes.string else object)
                    return constant(arr, dtype=dtype, name=scope)
            shape = _index_tensor(shape, "shape_as_tensor", "dims", "Fill")
        if shape.shape.ndims == 0:
            shape = reshape(shape, [-1])
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


# -- reshape, transpose, expand_dims, squeeze --------------------------------------------------

def _reshape_shape(op):
    x, s = op.inputs
    if s.shape.ndims not in (None, 1):
        raise ValueError(f"Shape must be rank 1 but is rank {s.shape.ndims}")
    dims = _partial_dims(s)
    if dims is None:
        return [unknown_shape()]
    neg = [i for i, d in enumerate(dims) if d == -1]
    if len(neg) > 1:
        raise ValueError(f"Cannot infer multiple unknown dimensions in shape {_dims_str(dims)}: "
                         f"Only one input size may be -1, not both {neg[0]} and {neg[1]}")
    for i, d in enumerate(dims):
        if d is not None and d < -1:
            raise ValueError(f"Size {i} must be non-negative, not {d}")
    n = x.shape.num_elements()
    out = [None if d is None or d == -1 else d for d in dims]
    known = [d for d in dims if d is not None and d != -1]
    all_known = all(d is not None for d in dims)
    prod = int(np.prod(known)) if known else 1
    if n is not None and all_known:
        if not neg:
            if prod != n:
                raise ValueError(f"Cannot reshape a tensor with {n} elements to shape {_dims_str(dims)} "
                                 f"({prod} elements)")
        else:
            if prod == 0:
                if n != 0:
                    raise ValueError(f"Cannot reshape a tensor with {n} elements to shape "
                                     f"{_dims_str(dims)} (0 elements)")
            elif n % prod:
                raise ValueError(f"Dimension size must be evenly divisible by {prod} but is {n}")
            else:
                out[neg[0]] = n // prod
    elif n is not None and not neg and all_known is False and prod and n % prod:
        raise ValueError(f"Dimension size must be evenly divisible by {prod} but is {n}")
    return [TensorShape(out)]


registry.register_op("Reshape", shape_fn=_reshape_shape)


@registry.register_static_value("Reshape")
def _reshape_value(op, value_of):
    v, s = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or s is None:
        return None
    return np.reshape(v, [int(d) for d in s])


@registry.register_gradient("Reshape")
def _reshape_grad(op, grad):
    return [reshape(grad, shape(op.inputs[0])), None]


def reshape(tensor, shape, name=None):
    """`tensor` with its elements in row-major order laid out in `shape` (one entry may be -1)."""
    tensor = _to_tensor(tensor, name="tensor") if not isinstance(tensor, Tensor) else tensor
    g = _graph()
    with g.name_scope(name or "Reshape") as scope:
        if isinstance(tensor, IndexedSlices):
            tensor = convert_to_tensor(tensor)
        s = _index_tensor(shape, "shape", "shape", "Reshape")
        return apply_op("Reshape", [tensor, s], [_base(tensor)], scope,
                        attrs={"T": _base(tensor), "Tshape": _base(s)})


def _perm_of(op):
    return _partial_dims(op.inputs[1])


def _transpose_shape(op):
    x = op.inputs[0]
    perm = _perm_of(op)
    n = x.shape.ndims
    if perm is None:
        return [unknown_shape(n)]
    if n is not None and len(perm) != n:
        raise ValueError(f"Dimension must be {n} but is {len(perm)}")
    if any(p is None for p in perm) or n is None:
        return [unknown_shape(len(perm))]
    for p in perm:
        if not 0 <= p < n and not -n <= p < 0:
            raise ValueError(f"perm dim {p} is out of range of input rank {n}")
    perm = [p % n for p in perm]
    if sorted(perm) != list(_builtin_range(n)):
        raise ValueError(f"{_dims_str(perm)} is not a permutation")
    dims = x.shape.as_list()
    return [TensorShape([dims[p] for p in perm])]


registry.register_op("Transpose", shape_fn=_transpose_shape)
registry.register_op("ConjugateTranspose", shape_fn=_transpose_shape)


@registry.register_static_value("Transpose")
def _transpose_value(op, value_of):
    v, p = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or p is None:
        return None
    return np.transpose(v, [int(i) for i in p])


def _inverse_perm(perm):
    p = constant_value(perm)
    if p is not None:
        return constant(np.argsort(np.asarray(p)).astype(perm.dtype.base_dtype.as_numpy_dtype))
    return invert_permutation(perm)


@registry.register_gradient("Transpose")
def _transpose_grad(op, grad):
    return [transpose(grad, _inverse_perm(op.inputs[1])), None]


@registry.register_gradient("ConjugateTranspose")
def _conj_transpose_grad(op, grad):
    return [transpose(grad, _inverse_perm(op.inputs[1]), conjugate=True), None]


def transpose(a, perm=None, name="transpose", conjugate=False):
    """Permutes the dimensions of `a` (reversed when `perm` is None); with `conjugate`, also
    conjugates complex values."""
    g = _graph()
    with g.name_scope(name or "transpose") as scope:
        a = _to_tensor(a, name="a")
        if isinstance(a, IndexedSlices):
            a = convert_to_tensor(a)
        if perm is None:
            r = a.shape.ndims
            if r is not None:
                perm = constant(np.arange(r - 1, -1, -1, dtype=np.int32), name="perm")
            else:
                rk = rank(a, name="Rank")
                perm = reverse_v2(range(0, rk, 1, name="range"), [0], name="perm")
        else:
            perm = _index_tensor(perm, "perm", "perm", "Transpose")
        op_type = "ConjugateTranspose" if conjugate and _base(a).is_complex else "Transpose"
        return apply_op(op_type, [a, perm], [_base(a)], scope, attrs={"T": _base(a), "Tperm": _base(perm)})


def _expand_dims_shape(op):
    x, d = op.inputs
    axis = _static_int(d)
    n = x.shape.ndims
    if d.shape.num_elements() not in (None, 1):
        raise ValueError(f"'dim' input must be a tensor with a single value")
    if axis is None or n is None:
        return [unknown_shape(None if n is None else n + 1)]
    if not -n - 1 <= axis <= n:
        raise ValueError(f"Tried to expand dim index {axis} for tensor with {n} dimensions.")
    axis = axis % (n + 1)
    dims = x.shape.as_list()
    return [TensorShape(dims[:axis] + [1] + dims[axis:])]


registry.register_op("ExpandDims", shape_fn=_expand_dims_shape)


@registry.register_static_value("ExpandDims")
def _expand_dims_value(op, value_of):
    v, d = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or d is None:
        return None
    return np.expand_dims(v, int(np.asarray(d).ravel()[0]))


@registry.register_gradient("ExpandDims")
def _expand_dims_grad(op, grad):
    return [reshape(grad, shape(op.inputs[0])), None]


def expand_dims(input, axis=None, name=None, dim=None):
    """Inserts a dimension of size 1 at `axis` (TF1 also accepts the deprecated `dim`)."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        raise ValueError("Must specify an axis argument to tf.expand_dims()")
    g = _graph()
    with g.name_scope(name or "ExpandDims") as scope:
        input = _to_tensor(input, name="input")
        d = _index_tensor(axis, "dim", "dim", "ExpandDims")
        return apply_op("ExpandDims", [input, d], [_base(input)], scope,
                        attrs={"T": _base(input), "Tdim": _base(d)})


def _squeeze_shape(op):
    x = op.inputs[0]
    axes = op.get_attr("squeeze_dims")
    n = x.shape.ndims
    if n is None:
        return [unknown_shape()]
    dims = x.shape.as_list()
    norm = set()
    for a in axes:
        if not -n <= a < n:
            raise ValueError(f"Tried to squeeze dim index {a} for tensor with {n} dimensions.")
        a %= n
        if dims[a] is not None and dims[a] != 1:
            raise ValueError(f"Can not squeeze dim[{a}], expected a dimension of 1, got {dims[a]}")
        norm.add(a)
    if axes:
        return [TensorShape([d for i, d in enumerate(dims) if i not in norm])]
    if any(d is None for d in dims):
        return [unknown_shape()]
    return [TensorShape([d for d in dims if d != 1])]


registry.register_op("Squeeze", shape_fn=_squeeze_shape)


@registry.register_static_value("Squeeze")
def _squeeze_value(op, value_of):
    v = value_of(op.inputs[0])
    if v is None:
        return None
    axes = op.get_attr("squeeze_dims")
    return np.squeeze(v, axis=tuple(axes) if axes else None)


@registry.register_gradient("Squeeze")
def _squeeze_grad(op, grad):
    return [reshape(grad, shape(op.inputs[0]))]


def squeeze(input, axis=None, name=None, squeeze_dims=None):
    """Removes dimensions of size 1 (all of them, or those listed in `axis`)."""
    if squeeze_dims is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'squeeze_dims' and 'axis'")
        axis = squeeze_dims
    if axis is None:
        axis = []
    elif isinstance(axis, (numbers.Integral, np.integer)):
        axis = [axis]
    axis = [int(a) for a in axis]
    input = _to_tensor(input, name="input")
    return apply_op("Squeeze", [input], [_base(input)], name or "Squeeze",
                    attrs={"T": _base(input), "squeeze_dims": axis})


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
    if not -rank_ <= axis < rank_:
        raise ValueError(f"ConcatOp : Expected concatenating dimensions in the range [{-rank_}, {rank_}), "
                         f"but got {axis}")
    axis %= rank_
    out = [None] * rank_
    total = 0
    for v in values:
        if v.shape.ndims is None:
            total = None
            continue
        dims = v.shape.as_list()
        for i, d in enumerate(dims):
            if i == axis:
                continue
            if out[i] is None:
                out[i] = d
            elif d is not None and d != out[i]:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {out[i]} and {d}. "
                                 f"Shapes are {_dims_str([x for j, x in enumerate(out) if j != axis])} and "
                                 f"{_dims_str([x for j, x in enumerate(dims) if j != axis])}.")
        if total is not None:
            total = None if dims[axis] is None else total + dims[axis]
    out[axis] = total
    return [TensorShape(out)]


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
    values, axis_t = op.inputs[:-1], op.inputs[-1]
    if len(values) == 1:
        return [grad, None]
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    axis = _static_int(axis_t)
    n = values[0].shape.ndims
    if axis is not None and n is not None:
        axis %= n
        sizes = [v.shape[axis].value if v.shape.ndims is not None else None for v in values]
        if all(s is not None for s in sizes):
            return split(grad, sizes, axis) + [None]
        axis_t = constant(np.int32(axis))
    shapes = shape_n(values)
    offsets = apply_op("ConcatOffset", [axis_t] + shapes, [_dtypes.int32] * len(values), "ConcatOffset",
                       attrs={"N": len(values)})
    offsets = offsets if isinstance(offsets, list) else [offsets]
    return [slice(grad, o, s) for o, s in zip(offsets, shapes)] + [None]


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
        a = _index_tensor(axis, "axis", "axis", "ConcatV2")
        return apply_op("ConcatV2", ts + [a], [_base(ts[0])], scope,
                        attrs={"N": len(ts), "T": _base(ts[0]), "Tidx": _base(a)})


def _pack_shape(op):
    axis = op.get_attr("axis")
    s = unknown_shape()
    for t in op.inputs:
        if s.ndims is not None and t.shape.ndims is not None and s.ndims != t.shape.ndims:
            raise ValueError(f"Shapes must be equal rank, but are {s.ndims} and {t.shape.ndims}")
        if not s.is_compatible_with(t.shape):
            raise ValueError(f"Shapes {s} and {t.shape} are not compatible")
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
    return np.stack(vals, axis=op.get_attr("axis"))


@registry.register_gradient("Pack")
def _pack_grad(op, grad):
    return unstack(grad, num=len(op.inputs), axis=op.get_attr("axis"))


def _pack(ts, axis, name):
    return apply_op("Pack", ts, [_base(ts[0])], name, attrs={"N": len(ts), "T": _base(ts[0]), "axis": axis})


def stack(values, axis=0, name="stack"):
    """Stacks a list of rank-R tensors into one rank-(R+1) tensor along `axis`."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    if axis == 0 and not _contains_tensor(values) and not any(isinstance(v, IndexedSlices) for v in values):
        try:
            return convert_to_tensor(values, name=name)
        except (TypeError, ValueError):
            pass
    g = _graph()
    with g.name_scope(name) as scope:
        ts = _match_list_dtypes(values, "Pack", "{}")
        return _pack(ts, axis, scope)


def _unpack_shape(op):
    s = op.inputs[0].shape
    num = op.get_attr("num")
    if s.ndims is None:
        return [unknown_shape()] * num
    axis = op.get_attr("axis")
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
    return [stack(list(grads), axis=op.get_attr("axis"))]


def unstack(value, num=None, axis=0, name="unstack"):
    """Splits `value` along `axis` into a list of `num` tensors of rank R-1."""
    value = _to_tensor(value, name="value")
    s = value.shape
    if num is None:
        if s.ndims is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
        if not -s.ndims <= axis < s.ndims:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-s.ndims}, {s.ndims})")
        num = s[axis].value
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {s}")
    out = apply_op("Unpack", [value], [_base(value)] * num, name or "unstack",
                   attrs={"num": num, "T": _base(value), "axis": axis})
    if num == 0:
        return []
    return out if isinstance(out, list) else [out]


def _split_shape(op):
    axis_t, x = op.inputs
    num = op.get_attr("num_split")
    axis = _static_int(axis_t)
    s = x.shape
    if s.ndims is None:
        return [unknown_shape()] * num
    if axis is None:
        return [unknown_shape(s.ndims)] * num
    n = s.ndims
    if not -n <= axis < n:
        raise ValueError(f"Dimension {axis} must be in range [{-n}, {n})")
    axis %= n
    dims = s.as_list()
    d = dims[axis]
    if d is not None:
        if d % num:
            raise ValueError(f"Dimension size must be evenly divisible by {num} but is {d}")
        d //= num
    return [TensorShape(dims[:axis] + [d] + dims[axis + 1:])] * num


registry.register_op("Split", shape_fn=_split_shape)


@registry.register_gradient("Split")
def _split_grad(op, *grads):
    return [None, concat(list(grads), op.inputs[0])]


def _split_v_shape(op):
    x, sizes_t, axis_t = op.inputs
    num = op.get_attr("num_split")
    axis = _static_int(axis_t)
    s = x.shape
    sizes = _partial_dims(sizes_t)
    if s.ndims is None:
        return [unknown_shape()] * num
    n = s.ndims
    if axis is None:
        return [unknown_shape(n)] * num
    if not -n <= axis < n:
        raise ValueError(f"Dimension {axis} must be in range [{-n}, {n})")
    axis %= n
    dims = s.as_list()
    if sizes is None:
        sizes = [None] * num
    if len(sizes) != num:
        raise ValueError(f"Dimension 0 in both shapes must be equal, but are {len(sizes)} and {num}")
    sizes = list(sizes)
    neg = [i for i, v in enumerate(sizes) if v == -1]
    if len(neg) > 1:
        raise ValueError("Only one dimensions can have a value of -1. Second one found at dimension "
                         f"{neg[1]}")
    if all(v is not None for v in sizes):
        known = sum(v for v in sizes if v != -1)
        d = dims[axis]
        if d is not None:
            if neg:
                if known > d:
                    raise ValueError("Determined shape must either match input shape along split_dim "
                                     "exactly if fully specified, or be less than the size of the input "
                                     "along split_dim if not fully specified.  Got: " + str(known))
                sizes[neg[0]] = d - known
            elif known != d:
                raise ValueError("Determined shape must either match input shape along split_dim exactly "
                                 "if fully specified, or be less than the size of the input along "
                                 f"split_dim if not fully specified.  Got: {known}")
    return [TensorShape(dims[:axis] + [None if v is None or v < 0 else v] + dims[axis + 1:]) for v in sizes]


registry.register_op("SplitV", shape_fn=_split_v_shape)


@registry.register_gradient("SplitV")
def _split_v_grad(op, *grads):
    return [concat(list(grads), op.inputs[2]), None, None]


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Splits `value` along `axis` into `num_or_size_splits` equal parts, or parts of the listed
    sizes (one size may be -1)."""
    g = _graph()
    if isinstance(num_or_size_splits, (numbers.Integral, np.integer)) and not isinstance(num_or_size_splits, bool):
        with g.name_scope(name) as scope:
            value = _to_tensor(value, name="value")
            a = _index_tensor(axis, "split_dim", "split_dim", "Split", dtype=_dtypes.int32)
            n = int(num_or_size_splits)
            if n <= 0:
                raise ValueError(f"num_or_size_splits must be a positive integer, got {n}")
            out = apply_op("Split", [a, value], [_base(value)] * n, scope,
                           attrs={"num_split": n, "T": _base(value)})
            return out if isinstance(out, list) else [out]
    sizes = _index_tensor(num_or_size_splits, None, "size_splits", "SplitV")
    if num is None:
        if sizes.shape.ndims != 1 or sizes.shape[0].value is None:
            raise ValueError(f"Cannot infer argument `num` from shape {sizes.shape}")
        num = sizes.shape[0].value
    with g.name_scope(name) as scope:
        value = _to_tensor(value, name="value")
        a = _index_tensor(axis, "split_dim", "split_dim", "SplitV", dtype=_dtypes.int32)
        out = apply_op("SplitV", [value, sizes, a], [_base(value)] * num, scope,
                       attrs={"num_split": num, "T": _base(value), "Tlen": _base(sizes)})
        return out if isinstance(out, list) else [out]


# -- gather, gather_nd, scatter_nd -----------------------------------------------------------

def _gather_shape(op):
    params, indices, axis_t = op.inputs
    axis = _static_int(axis_t)
    bd = op.get_attr("batch_dims")
    p, i = params.shape, indices.shape
    if p.ndims is None or i.ndims is None or axis is None:
        return [unknown_shape()]
    n = p.ndims
    if not -n <= axis < n:
        raise ValueError(f"Shape must be at least rank {axis + 1} but is rank {n}")
    axis %= n
    if bd < 0:
        bd += i.ndims
    if bd > axis:
        raise ValueError(f"batch_dims ({bd}) must be less than or equal to axis ({axis}).")
    pd, id_ = p.as_list(), i.as_list()
    return [TensorShape(pd[:axis] + id_[bd:] + pd[axis + 1:])]


registry.register_op("GatherV2", shape_fn=_gather_shape)


@registry.register_static_value("GatherV2")
def _gather_value(op, value_of):
    p, i, a = (value_of(t) for t in op.inputs)
    if p is None or i is None or a is None or op.get_attr("batch_dims"):
        return None
    i = np.asarray(i)
    axis = int(a) % np.ndim(p)
    if i.size and (i.min() < 0 or i.max() >= np.shape(p)[axis]):
        return None
    return np.take(p, i, axis=axis)


@registry.register_gradient("GatherV2")
def _gather_grad(op, grad):
    params, indices, axis_t = op.inputs
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    if op.get_attr("batch_dims"):
        raise LookupError("Gradient of tf.gather with batch_dims != 0 is not supported by tensorweave")
    axis = _static_int(axis_t)
    params_shape = shape(params)
    indices_size = expand_dims(size(indices), 0)
    if axis is not None and params.shape.ndims is not None:
        axis %= params.shape.ndims
    if axis == 0:
        values_shape = concat([indices_size, params_shape[1:]], 0)
        values = reshape(grad, values_shape)
        flat = reshape(indices, indices_size)
        return [IndexedSlices(values, flat, params_shape), None, None]
    n = params.shape.ndims
    if axis is None or n is None:
        raise LookupError("Gradient of tf.gather needs a static axis and params rank in tensorweave")
    # Dense gradient (like TF for axis != 0): move `axis` to the front, scatter-add rows back.
    outer, inner = params_shape[:axis], params_shape[axis + 1:]
    values = reshape(grad, concat([outer, indices_size, inner], 0))
    perm = [axis] + list(_builtin_range(axis)) + list(_builtin_range(axis + 1, n))
    values_t = transpose(values, perm)
    shape_t = gather(params_shape, perm)
    flat = reshape(indices, concat([indices_size, [1]], 0))
    grad_t = scatter_nd(flat, values_t, shape_t)
    return [transpose(grad_t, list(np.argsort(perm))), None, None]


def gather(params, indices, validate_indices=None, name=None, axis=None, batch_dims=0):
    """Gathers slices of `params` along `axis` at `indices`: out[..., i, ...] =
    params[..., indices[i], ...]. Out-of-range indices are an InvalidArgumentError."""
    g = _graph()
    with g.name_scope(name or "GatherV2") as scope:
        params = _to_tensor(params, name="params")
        indices = _index_tensor(indices, "indices", "indices", "GatherV2")
        if axis is None:
            axis = batch_dims
        a = _index_tensor(axis, "axis", "axis", "GatherV2")
        return apply_op("GatherV2", [params, indices, a], [_base(params)], scope,
                        attrs={"Tparams": _base(params), "Tindices": _base(indices), "Taxis": _base(a),
                               "batch_dims": int(batch_dims)})


def _gather_nd_shape(op):
    params, indices = op.inputs
    p, i = params.shape, indices.shape
    if i.ndims is None:
        return [unknown_shape()]
    if i.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    k = i[-1].value
    if k is None or p.ndims is None:
        return [unknown_shape()]
    if k > p.ndims:
        raise ValueError(f"indices.shape[-1] must be <= params.rank, but saw indices shape: {i} and "
                         f"params shape: {p}")
    return [TensorShape(i.as_list()[:-1] + p.as_list()[k:])]


registry.register_op("GatherNd", shape_fn=_gather_nd_shape)


@registry.register_gradient("GatherNd")
def _gather_nd_grad(op, grad):
    params, indices = op.inputs
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    return [scatter_nd(indices, grad, shape(params, out_type=_base(indices))), None]


def gather_nd(params, indices, name=None, batch_dims=0):
    """out[i...] = params[indices[i..., :]] (the last axis of `indices` indexes leading dims)."""
    if batch_dims:
        raise NotImplementedError("tf.gather_nd with batch_dims != 0 is not supported by tensorweave")
    g = _graph()
    with g.name_scope(name or "GatherNd") as scope:
        params = _to_tensor(params, name="params")
        indices = _index_tensor(indices, "indices", "indices", "GatherNd")
        return apply_op("GatherNd", [params, indices], [_base(params)], scope,
                        attrs={"Tparams": _base(params), "Tindices": _base(indices)})


def _scatter_nd_shape(op):
    indices, updates, shape_t = op.inputs
    return [_shape_from_tensor(shape_t)]


registry.register_op("ScatterNd", shape_fn=_scatter_nd_shape)


@registry.register_gradient("ScatterNd")
def _scatter_nd_grad(op, grad):
    return [None, gather_nd(grad, op.inputs[0]), None]


def scatter_nd(indices, updates, shape, name=None):
    """A zero tensor of `shape` with `updates` added at `indices` (duplicates add up)."""
    g = _graph()
    with g.name_scope(name or "ScatterNd") as scope:
        indices = _index_tensor(indices, "indices", "indices", "ScatterNd")
        updates = _to_tensor(updates, name="updates")
        s = _index_tensor(shape, "shape", "shape", "ScatterNd", dtype=_base(indices))
        return apply_op("ScatterNd", [indices, updates, s], [_base(updates)], scope,
                        attrs={"T": _base(updates), "Tindices": _base(indices)})


# -- tile, broadcast_to, and the gradient reduction they need ------------------------------------

def _tile_shape(op):
    x, m = op.inputs
    mult = _partial_dims(m)
    n = x.shape.ndims
    if mult is None:
        return [unknown_shape(n)]
    if n is not None and len(mult) != n:
        raise ValueError(f"Shape must be rank {n} but is rank {len(mult)}" if False else
                         f"Dimension must be {n} but is {len(mult)}")
    if n is None:
        return [unknown_shape(len(mult))]
    return [TensorShape([None if d is None or k is None else d * k for d, k in zip(x.shape.as_list(), mult)])]


registry.register_op("Tile", shape_fn=_tile_shape)


@registry.register_static_value("Tile")
def _tile_value(op, value_of):
    v, m = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or m is None or np.size(v) * np.prod(m) > _STATIC_LIMIT:
        return None
    return np.tile(v, [int(k) for k in m])


@registry.register_gradient("Tile")
def _tile_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    return [_tile_grad_op(grad, op.inputs[1], op.inputs[0].shape), None]


def _tile_grad_shape(op):
    g, m = op.inputs
    mult = _partial_dims(m)
    if mult is None or g.shape.ndims is None:
        return [unknown_shape(g.shape.ndims)]
    return [TensorShape([None if d is None or k is None else d // k for d, k in zip(g.shape.as_list(), mult)])]


registry.register_op("TileGrad", shape_fn=_tile_grad_shape)


@registry.register_gradient("TileGrad")
def _tile_grad_grad(op, grad):
    return [tile(grad, op.inputs[1]), None]


def _tile_grad_op(grad, multiples, shape_hint=None):
    out = apply_op("TileGrad", [grad, multiples], [_base(grad)], "TileGrad", attrs={"T": _base(grad)})
    if shape_hint is not None and shape_hint.ndims is not None:
        out.set_shape(out.shape.merge_with(shape_hint)) if out.shape.is_compatible_with(shape_hint) else None
    return out


def tile(input, multiples, name=None):
    """Repeats `input` `multiples[i]` times along dimension i."""
    g = _graph()
    with g.name_scope(name or "Tile") as scope:
        input = _to_tensor(input, name="input")
        m = _index_tensor(multiples, "multiples", "multiples", "Tile")
        return apply_op("Tile", [input, m], [_base(input)], scope,
                        attrs={"T": _base(input), "Tmultiples": _base(m)})


def _broadcast_to_shape(op):
    x, s = op.inputs
    target = _shape_from_tensor(s)
    if target.ndims is not None and x.shape.ndims is not None:
        if x.shape.ndims > target.ndims:
            raise ValueError(f"Rank of input ({x.shape.ndims}) must be no greater than rank of output "
                             f"shape ({target.ndims}).")
        xd = [None] * (target.ndims - x.shape.ndims) + x.shape.as_list()
        for a, b in zip(xd, target.as_list()):
            if a is not None and b is not None and a != 1 and a != b:
                raise ValueError(f"Incompatible shapes: {_dims_str(x.shape.as_list())} vs. "
                                 f"{_dims_str(target.as_list())}")
    return [target]


registry.register_op("BroadcastTo", shape_fn=_broadcast_to_shape)


@registry.register_gradient("BroadcastTo")
def _broadcast_to_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    return [_sum_to_shape(grad, shape(op.inputs[0]), op.inputs[0].shape), None]


def broadcast_to(input, shape, name=None):
    """Broadcasts `input` to `shape` with NumPy's rules."""
    g = _graph()
    with g.name_scope(name or "BroadcastTo") as scope:
        input = _to_tensor(input, name="input")
        s = _index_tensor(shape, "shape", "shape", "BroadcastTo")
        return apply_op("BroadcastTo", [input, s], [_base(input)], scope,
                        attrs={"T": _base(input), "Tidx": _base(s)})


def _sum_to_shape_shape(op):
    return [_shape_from_tensor(op.inputs[1])]


# SumToShape(x, shape): sums `x` down to `shape` (the reverse of broadcasting); used by the
# gradients of broadcasting array ops (BroadcastTo, SelectV2, Fill).
registry.register_op("SumToShape", shape_fn=_sum_to_shape_shape)


@registry.register_gradient("SumToShape")
def _sum_to_shape_grad(op, grad):
    return [broadcast_to(grad, shape(op.inputs[0])), None]


def _sum_to_shape(x, shape_t, shape_hint=None):
    out = apply_op("SumToShape", [x, shape_t], [_base(x)], "SumToShape", attrs={"T": _base(x)})
    if shape_hint is not None and out.shape.is_compatible_with(shape_hint):
        out.set_shape(shape_hint)
    return out


__all__ = [n for n in __all__ if n in globals()]  # TEMP while the module grows
