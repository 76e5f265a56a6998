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
from ..framework.constant_op import constant, constant_value, convert_to_tensor, set_autopack
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


set_autopack(_autopack)


def _to_tensor(value, name=None, dtype=None, preferred_dtype=None):
    """convert_to_tensor (which autopacks lists holding Tensors through `_autopack`)."""
    if isinstance(value, Tensor) and dtype is not None and \
            value.dtype.base_dtype != _dtypes.as_dtype(dtype).base_dtype:
        raise ValueError(f"Tensor conversion requested dtype {_dtypes.as_dtype(dtype).name} for "
                         f"Tensor with dtype {value.dtype.base_dtype.name}: {value!r}")
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
        return [_scalar_dim(inp) for inp in op.inputs]
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


def _scalar_dim(t):
    """A scalar int tensor's static value; also one dimension of a partially known shape,
    `tf.shape(x)[i]`, when x.shape[i] is known. None if unknown."""
    v = constant_value(t)
    if v is not None:
        return int(v) if np.ndim(v) == 0 else None
    op = t.op
    if op.type == "StridedSlice" and op.get_attr("shrink_axis_mask") == 1 and op.inputs[0].op.type == "Shape" \
            and not (op.get_attr("ellipsis_mask") or op.get_attr("new_axis_mask")):
        src = op.inputs[0].op.inputs[0].shape
        b = constant_value(op.inputs[1])
        if src.ndims is not None and b is not None and np.size(b) == 1 and -src.ndims <= int(b[0]) < src.ndims:
            return src[int(b[0])].value
    return None


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
    shape = as_shape(shape)
    g = _graph()
    with g.name_scope(name or "PlaceholderWithDefault") as scope:
        input = _to_tensor(input, name="input")
        if not shape.is_compatible_with(input.shape):
            raise ValueError(f"Shapes {input.shape} and {shape} are incompatible")
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
    params_shape = shape(params, out_type=_base(indices))
    indices_size = expand_dims(size(indices, out_type=_base(indices)), 0)
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
        raise ValueError(f"Shape must be rank {n} but is rank {len(mult)}")  # TF's message
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


# -- slice, strided_slice, Tensor.__getitem__ ---------------------------------------------------

def _slice_shape(op):
    x, begin_t, size_t = op.inputs
    b, sz = _partial_dims(begin_t), _partial_dims(size_t)
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
    dims = x.shape.as_list() if n is not None else [None] * length
    b = b or [None] * length
    sz = sz or [None] * length
    out = []
    for i, (d, bi, si) in enumerate(zip(dims, b, sz)):
        if si is not None and si >= 0:
            if d is not None and bi is not None and bi + si > d:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {d} and {bi + si}")
            out.append(si)
        elif si == -1 and d is not None and bi is not None:
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
    idx = tuple(_builtin_slice(int(bi), None if int(si) == -1 else int(bi) + int(si)) for bi, si in zip(b, s))
    return v[idx]


@registry.register_gradient("Slice")
def _slice_grad(op, grad):
    x, begin_t, _ = op.inputs
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    b = constant_value(begin_t)
    xs, ys = x.shape, op.outputs[0].shape
    if b is not None and xs.is_fully_defined() and ys.is_fully_defined():
        after = np.array(xs.as_list()) - np.array(ys.as_list()) - np.asarray(b)
        pads = np.stack([np.asarray(b), after], axis=1).astype(np.int32)
        return [pad(grad, pads), None, None]
    from . import math_ops  # the math family's subtraction, only for dynamic shapes
    begin = begin_t
    in_shape = shape(x, out_type=_base(begin))
    out_shape = shape(op.outputs[0], out_type=_base(begin))
    after = math_ops.subtract(math_ops.subtract(in_shape, out_shape), begin)
    pads = stack([begin, after], axis=1)
    return [pad(grad, pads), None, None]


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
    return tuple(op.get_attr(m) for m in _MASKS)


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
    if strides is not None:
        for i, s in enumerate(strides):
            if s == 0 and not (elm | nm) & (1 << i):
                raise ValueError(f"strides[{i}] must be non-zero")
    if x_shape.ndims is None:
        return unknown_shape()
    dims = x_shape.as_list()
    nd = len(dims)
    spec = list(_builtin_range(n_spec))
    has_ellipsis = any(elm & (1 << i) for i in spec)
    consumed = sum(1 for i in spec if not (elm | nm) & (1 << i))
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
            if dim is not None and b is not None and not -dim <= b < dim:
                raise ValueError(f"slice index {b} of dimension {d} out of bounds.")
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


def _strided_slice_shape(op):
    x, b_t, e_t, s_t = op.inputs
    masks = _ss_masks(op)
    b, e, s = _partial_dims(b_t), _partial_dims(e_t), _partial_dims(s_t)
    n = next((len(v) for v in (b, e, s) if v is not None), None)
    for t in (b_t, e_t, s_t):
        if t.shape.ndims not in (None, 1):
            raise ValueError(f"Shape must be rank 1 but is rank {t.shape.ndims}")
    return [_ss_shape_fn(x.shape, b, e, s, n, masks)]


registry.register_op("StridedSlice", shape_fn=_strided_slice_shape)


@registry.register_static_value("StridedSlice")
def _strided_slice_value(op, value_of):
    v, b, e, s = (value_of(t) for t in op.inputs)
    if v is None or b is None or e is None or s is None:
        return None
    return np.asarray(v)[_ss_index(b, e, s, _ss_masks(op))]


def _ss_attrs(op):
    return {m: op.get_attr(m) for m in _MASKS}


@registry.register_gradient("StridedSlice")
def _strided_slice_grad(op, grad):
    x, b, e, s = op.inputs
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    x_shape = shape(x, out_type=_base(b))
    attrs = dict(_ss_attrs(op), T=_base(grad), Index=_base(b))
    out = apply_op("StridedSliceGrad", [x_shape, b, e, s, grad], [_base(grad)], "StridedSliceGrad", attrs=attrs)
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
    with g.name_scope(name or "StridedSlice") as scope:
        input_ = _to_tensor(input_, name="input")
        b = _index_tensor(begin, "begin", "begin", "StridedSlice")
        e = _index_tensor(end, "end", "end", "StridedSlice", dtype=_base(b))
        if strides is None:
            s = ones_like(b)
        else:
            s = _index_tensor(strides, "strides", "strides", "StridedSlice", dtype=_base(b))
        return apply_op("StridedSlice", [input_, b, e, s], [_base(input_)], scope,
                        attrs={"T": _base(input_), "Index": _base(b), "begin_mask": int(begin_mask),
                               "end_mask": int(end_mask), "ellipsis_mask": int(ellipsis_mask),
                               "new_axis_mask": int(new_axis_mask), "shrink_axis_mask": int(shrink_axis_mask)})


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
            s = _builtin_slice(None if undefined(s.start) else value(s.start),
                               None if undefined(s.stop) else value(s.stop),
                               None if undefined(s.step) else value(s.step))
            if s.start is not None:
                _check_index(s.start)
                begin.append(s.start)
            else:
                begin.append(0)
                bm |= bit
            if s.stop is not None:
                _check_index(s.stop)
                end.append(s.stop)
            else:
                end.append(0)
                em |= bit
            if s.step is not None:
                _check_index(s.step)
                strides.append(s.step)
            else:
                strides.append(1)
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
            strides.append(1)
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


# -- range, linspace -------------------------------------------------------------------------

def _range_size(start, limit, delta, integer):
    if delta == 0:
        raise ValueError("Requires delta != 0")
    if delta > 0 and start > limit:
        raise ValueError(f"Requires start <= limit when delta > 0: {start}/{limit}")
    if delta < 0 and start < limit:
        raise ValueError(f"Requires start >= limit when delta < 0: {start}/{limit}")
    if integer:
        return (abs(limit - start) + abs(delta) - 1) // abs(delta)
    return int(np.ceil(abs((limit - start) / delta)))


def _range_shape(op):
    vals = [constant_value(t) for t in op.inputs]
    for t in op.inputs:
        if t.shape.ndims not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {t.shape.ndims}")
    if any(v is None for v in vals):
        return [unknown_shape(1)]
    s, l, d = (v.item() for v in map(np.asarray, vals))
    return [TensorShape([_range_size(s, l, d, _base(op.outputs[0]).is_integer)])]


registry.register_op("Range", shape_fn=_range_shape)
registry.no_gradient("Range")


@registry.register_static_value("Range")
def _range_value(op, value_of):
    vals = [value_of(t) for t in op.inputs]
    if any(v is None for v in vals):
        return None
    dt = _base(op.outputs[0])
    s, l, d = (np.asarray(v).item() for v in vals)
    n = _range_size(s, l, d, dt.is_integer)
    if n > _STATIC_LIMIT:
        return None
    return (np.asarray(s, dt.as_numpy_dtype) + np.arange(n, dtype=dt.as_numpy_dtype) * np.asarray(d, dt.as_numpy_dtype)
            ).astype(dt.as_numpy_dtype)


_RANGE_ORDER = [_dtypes.int32, _dtypes.int64, _dtypes.float32, _dtypes.float64]


def _cast(t, dtype):
    if _base(t) == dtype:
        return t
    v = constant_value(t) if t.op.type == "Const" else None
    if v is not None:
        return constant(np.asarray(v).astype(dtype.as_numpy_dtype), dtype=dtype, name="Cast")
    from . import math_ops
    return math_ops.cast(t, dtype)


def range(start, limit=None, delta=1, dtype=None, name="range"):
    """[start, start + delta, ...) up to (excluding) `limit`; `range(n)` counts from 0. The dtype
    is the widest of the arguments' (int32 < int64 < float32 < float64) unless given."""
    if limit is None:
        start, limit = 0, start
    g = _graph()
    with g.name_scope(name or "range") as scope:
        dt = _dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
        args = []
        for v, n in ((start, "start"), (limit, "limit"), (delta, "delta")):
            args.append(v if isinstance(v, Tensor) else _to_tensor(v, name=n, dtype=dt))
        if dt is None:
            for a in args:
                if _base(a) not in _RANGE_ORDER:
                    raise TypeError(f"Range arguments must be int32, int64, float32 or float64, got "
                                    f"{_base(a).name}")
            dt = max((_base(a) for a in args), key=_RANGE_ORDER.index)
        args = [_cast(a, dt) for a in args]
        return apply_op("Range", args, [dt], scope, attrs={"Tidx": dt})


def _linspace_shape(op):
    n = _static_int(op.inputs[2])
    return [TensorShape([n])]


registry.register_op("LinSpace", shape_fn=_linspace_shape)
registry.no_gradient("LinSpace")


@registry.register_static_value("LinSpace")
def _linspace_value(op, value_of):
    a, b, n = (value_of(t) for t in op.inputs)
    if a is None or b is None or n is None or int(n) > _STATIC_LIMIT:
        return None
    return np.linspace(a, b, int(n)).astype(np.asarray(a).dtype)


def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from `start` to `stop` inclusive (a single LinSpace op; TF 2's
    compat.v1 builds the same values from many small ops under the name scope `linspace`)."""
    if axis != 0:
        raise NotImplementedError("tf.linspace with axis != 0 is not supported by tensorweave")
    g = _graph()
    with g.name_scope(name or "LinSpace") as scope:
        start = _to_tensor(start, name="start")
        if not (_base(start).is_floating):
            raise TypeError(f"Value passed to parameter 'start' has DataType {_base(start).name} not in list "
                            "of allowed values: bfloat16, float16, float32, float64")
        stop = _to_tensor(stop, name="stop", dtype=_base(start))
        num = _index_tensor(num, "num", "num", "LinSpace")
        return apply_op("LinSpace", [start, stop, num], [_base(start)], scope,
                        attrs={"T": _base(start), "Tidx": _base(num)})


lin_space = linspace


# -- one_hot, pad, reverse -------------------------------------------------------------------

def _one_hot_shape(op):
    indices, depth_t = op.inputs[0], op.inputs[1]
    axis = op.get_attr("axis")
    depth = _static_int(depth_t)
    if depth is not None and depth < 0:
        raise ValueError(f"depth must be non-negative, got: {depth}")
    s = indices.shape
    if s.ndims is None:
        return [unknown_shape()]
    if not -1 <= axis <= s.ndims:
        raise ValueError(f"Expected axis to be -1 or between [0, {s.ndims}].  But received: {axis}")
    a = s.ndims if axis == -1 else axis
    dims = s.as_list()
    return [TensorShape(dims[:a] + [depth] + dims[a:])]


registry.register_op("OneHot", shape_fn=_one_hot_shape)
registry.no_gradient("OneHot")


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """out[..., i, ...] = on_value where indices == i, else off_value (a new axis of size
    `depth` at `axis`, last by default). Indices outside [0, depth) give all off_value."""
    g = _graph()
    with g.name_scope(name or "one_hot") as scope:
        on_t = on_value if isinstance(on_value, Tensor) else None
        off_t = off_value if isinstance(off_value, Tensor) else None
        on_dt = _base(on_t) if on_t is not None else (_to_dtype_of(on_value) if on_value is not None else None)
        off_dt = _base(off_t) if off_t is not None else (_to_dtype_of(off_value) if off_value is not None else None)
        if dtype is not None:
            dtype = _dtypes.as_dtype(dtype).base_dtype
            if on_dt is not None and on_dt != dtype and on_t is not None:
                raise TypeError(f"dtype {dtype!r} of on_value does not match dtype parameter {on_dt!r}")
            if off_dt is not None and off_dt != dtype and off_t is not None:
                raise TypeError(f"dtype {dtype!r} of off_value does not match dtype parameter {off_dt!r}")
        else:
            dtype = on_dt or off_dt or _dtypes.float32
            if on_dt is not None and off_dt is not None and on_dt != off_dt:
                raise TypeError(f"dtype {on_dt!r} of on_value does not match dtype {off_dt!r} of off_value")
        one = "" if dtype is _dtypes.string else 1
        zero = "" if dtype is _dtypes.string else 0
        on = on_t if on_t is not None else _to_tensor(on_value if on_value is not None else one, name="on_value",
                                                        dtype=dtype)
        off = off_t if off_t is not None else _to_tensor(off_value if off_value is not None else zero,
                                                           name="off_value", dtype=dtype)
        indices = _to_tensor(indices, name="indices")
        if _base(indices) not in (_dtypes.uint8, _dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'indices' has DataType {_base(indices).name} not in "
                            "list of allowed values: uint8, int32, int64")
        depth = _to_tensor(depth, name="depth", dtype=_dtypes.int32)
        return apply_op("OneHot", [indices, depth, on, off], [dtype], scope,
                        attrs={"T": dtype, "TI": _base(indices), "axis": -1 if axis is None else int(axis)})


def _to_dtype_of(value):
    from ..framework.constant_op import to_numpy
    return to_numpy(value)[1]


def _pad_shape(op):
    x, p = op.inputs[0], op.inputs[1]
    if p.shape.ndims not in (None, 2):
        raise ValueError(f"Shape must be rank 2 but is rank {p.shape.ndims}")
    n = x.shape.ndims
    rows = p.shape[0].value if p.shape.ndims == 2 else None
    if p.shape.ndims == 2 and p.shape[1].value not in (None, 2):
        raise ValueError(f"Dimension 1 in both shapes must be equal, but are {p.shape[1].value} and 2")
    if n is not None and rows is not None and n != rows:
        raise ValueError("Shape must be rank 1 but is rank 2" if rows == 1 else
                         f"Dimension 0 in both shapes must be equal, but are {rows} and {n}")
    if n is None:
        n = rows
    if n is None:
        return [unknown_shape()]
    v = constant_value(p)
    dims = x.shape.as_list() if x.shape.ndims is not None else [None] * n
    if v is None:
        return [unknown_shape(n)]
    v = np.asarray(v)
    if (v < 0).any():
        raise ValueError(f"The first dimension of paddings must be the rank of inputs and paddings must be "
                         f"non-negative")
    if op.type == "MirrorPad":
        off = 0 if op.get_attr("mode") == "REFLECT" else 1
        for d, (a, b) in zip(dims, v.tolist()):
            if d is not None and (a > d - 1 + off or b > d - 1 + off):
                raise ValueError(f"paddings must be less than{' or equal to' if off else ''} the dimension size: "
                                 f"{a}, {b} greater than {d}")
    return [TensorShape([None if d is None else d + int(a) + int(b) for d, (a, b) in zip(dims, v.tolist())])]


registry.register_op("Pad", shape_fn=_pad_shape)
registry.register_op("PadV2", shape_fn=_pad_shape)
registry.register_op("MirrorPad", shape_fn=_pad_shape)


def _pad_grad_impl(op, grad):
    x, a = op.inputs[0], op.inputs[1]
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    v = constant_value(a)
    if v is not None and x.shape.is_fully_defined():
        return slice(grad, np.asarray(v)[:, 0].astype(np.int32), x.shape.as_list())
    pad_before = slice(a, [0, 0], stack([rank(x), 1]))
    begin = reshape(pad_before, [-1])
    sizes = shape(x, out_type=_base(begin))
    return slice(grad, begin, sizes)


@registry.register_gradient("Pad")
def _pad_grad(op, grad):
    return [_pad_grad_impl(op, grad), None]


@registry.register_gradient("PadV2")
def _pad_v2_grad(op, grad):
    return [_pad_grad_impl(op, grad), None, None]


@registry.register_gradient("MirrorPad")
def _mirror_pad_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    mode = op.get_attr("mode")
    out = apply_op("MirrorPadGrad", [grad, op.inputs[1]], [_base(grad)], "MirrorPadGrad",
                   attrs={"T": _base(grad), "mode": mode, "Tpaddings": _base(op.inputs[1])})
    out.set_shape(op.inputs[0].shape)
    return [out, None]


registry.register_op("MirrorPadGrad", shape_fn=None)


@registry.register_gradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, grad):
    return [pad(grad, op.inputs[1], op.get_attr("mode")), None]


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """Pads `tensor` by paddings[i] = [before, after] along each dimension; mode CONSTANT (with
    `constant_values`), REFLECT (mirror excluding the edge) or SYMMETRIC (including it)."""
    m = mode.upper() if isinstance(mode, str) else mode
    g = _graph()
    if m == "CONSTANT":
        is_zero = not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0 and constant_values == 0
        op_type = "Pad" if is_zero else "PadV2"
        with g.name_scope(name or op_type) as scope:
            tensor = _to_tensor(tensor, name="input")
            p = _index_tensor(paddings, "paddings", "paddings", op_type)
            if is_zero:
                return apply_op("Pad", [tensor, p], [_base(tensor)], scope,
                                attrs={"T": _base(tensor), "Tpaddings": _base(p)})
            c = _to_tensor(constant_values, name="constant_values", dtype=_base(tensor))
            return apply_op("PadV2", [tensor, p, c], [_base(tensor)], scope,
                            attrs={"T": _base(tensor), "Tpaddings": _base(p)})
    if m not in ("REFLECT", "SYMMETRIC"):
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or '
                         f'"SYMMETRIC". Received `mode` = {mode}')
    with g.name_scope(name or "MirrorPad") as scope:
        tensor = _to_tensor(tensor, name="input")
        p = _index_tensor(paddings, "paddings", "paddings", "MirrorPad")
        return apply_op("MirrorPad", [tensor, p], [_base(tensor)], scope,
                        attrs={"T": _base(tensor), "Tpaddings": _base(p), "mode": m})


def _reverse_shape(op):
    x, a = op.inputs
    v = constant_value(a)
    n = x.shape.ndims
    if v is not None and n is not None:
        v = np.asarray(v).ravel()
        seen = set()
        for i, ax in enumerate(v.tolist()):
            if not -n <= ax < n:
                raise ValueError(f"'axis'[{i}] = {ax} is out of valid range [0, {n - 1}")
            if ax % n in seen:
                raise ValueError(f"axis {ax % n} specified more than once.")
            seen.add(ax % n)
    return [x.shape]


registry.register_op("ReverseV2", shape_fn=_reverse_shape)


@registry.register_static_value("ReverseV2")
def _reverse_value(op, value_of):
    v, a = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or a is None:
        return None
    return np.flip(v, axis=tuple(int(i) for i in np.asarray(a).ravel())) if np.size(a) else np.asarray(v)


@registry.register_gradient("ReverseV2")
def _reverse_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    return [reverse_v2(grad, op.inputs[1]), None]


def reverse_v2(tensor, axis, name=None):
    """Reverses `tensor` along each dimension listed in `axis`."""
    g = _graph()
    with g.name_scope(name or "ReverseV2") as scope:
        tensor = _to_tensor(tensor, name="tensor")
        a = _index_tensor(axis, "axis", "axis", "ReverseV2")
        return apply_op("ReverseV2", [tensor, a], [_base(tensor)], scope,
                        attrs={"T": _base(tensor), "Tidx": _base(a)})


reverse = reverse_v2


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
    if cs.ndims == 1 and out.ndims != 1:
        if out.ndims == 0:
            raise ValueError("Shape must be rank 0 but is rank 1")
        a, b = cs[0].value, out[0].value
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimension 0 in both shapes must be equal, but are {a} and {b}. Shapes are "
                             f"[{a}] and [{b}].")
        return [TensorShape([a if b is None else b] + out.as_list()[1:])]
    if cs.ndims != out.ndims:
        raise ValueError(f"Shapes must be equal rank, but are {cs.ndims} and {out.ndims}")
    for i, (a, b) in enumerate(zip(cs.as_list(), out.as_list())):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                             f"{_dims_str(cs.as_list())} and {_dims_str(out.as_list())}.")
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


@registry.register_gradient("SelectV2")
def _select_v2_grad(op, grad):
    if isinstance(grad, IndexedSlices):
        grad = convert_to_tensor(grad)
    c, x, y = op.inputs
    z = zeros([], dtype=_base(grad))
    gx = apply_op("SelectV2", [c, grad, z], [_base(grad)], "SelectV2", attrs={"T": _base(grad)})
    gy = apply_op("SelectV2", [c, z, grad], [_base(grad)], "SelectV2", attrs={"T": _base(grad)})
    return [None, _sum_to_shape(gx, shape(x), x.shape), _sum_to_shape(gy, shape(y), y.shape)]


def _check_bool(c):
    if _base(c) is not _dtypes.bool:
        raise TypeError(f"Input 'condition' of 'Select' Op has type {_base(c).name} that does not match "
                        "expected type of bool.")


def where(condition, x=None, y=None, name=None):
    """TF1 `tf.where`: with only `condition`, the int64 coordinates of its true elements (one row
    per element); with x and y, elements of x where condition is true, else of y. `condition`
    either has x's shape or is a vector matching x's first dimension (or a scalar)."""
    if x is None and y is None:
        g = _graph()
        with g.name_scope(name or "Where") as scope:
            c = _to_tensor(condition, name="input")
            return apply_op("Where", [c], [_dtypes.int64], scope, attrs={"T": _base(c)})
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    g = _graph()
    with g.name_scope(name or "Select") as scope:
        c = _to_tensor(condition, name="condition")
        _check_bool(c)
        xt = x if isinstance(x, Tensor) else None
        yt = y if isinstance(y, Tensor) else None
        dt = _base(xt) if xt is not None else (_base(yt) if yt is not None else None)
        xt = xt if xt is not None else _to_tensor(x, name="x", dtype=dt)
        yt = yt if yt is not None else _to_tensor(y, name="y", dtype=_base(xt))
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
        c = _to_tensor(condition, name="condition")
        _check_bool(c)
        xt = x if isinstance(x, Tensor) else None
        yt = y if isinstance(y, Tensor) else None
        dt = _base(xt) if xt is not None else (_base(yt) if yt is not None else None)
        xt = xt if xt is not None else _to_tensor(x, name="t", dtype=dt)
        yt = yt if yt is not None else _to_tensor(y, name="e", dtype=_base(xt))
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
            if axis < 0:
                axis += shape_tensor.ndims
            shape_tensor[axis:axis + ndims_mask].assert_is_compatible_with(shape_mask)
        leading = shape(tensor)[axis:axis + ndims_mask]
        lead_size = _leading_size(tensor, axis, ndims_mask, leading)
        tensor = reshape(tensor, concat([shape(tensor)[:axis], [lead_size], shape(tensor)[axis + ndims_mask:]], 0))
        if shape_tensor.ndims is not None:
            first = shape_tensor[axis:axis + ndims_mask].num_elements()
            tensor.set_shape(TensorShape(shape_tensor.as_list()[:axis]).concatenate([first])
                             .concatenate(shape_tensor[axis + ndims_mask:]))
        mask = reshape(mask, [-1])
        indices = squeeze(where(mask), axis=[1])
        return gather(tensor, indices, axis=axis)


def _leading_size(tensor, axis, ndims_mask, leading):
    n = tensor.shape[axis:axis + ndims_mask].num_elements() if tensor.shape.ndims is not None else None
    if n is not None:
        return n
    if ndims_mask == 1:
        return leading[0]
    # product of the masked dimensions without a math op: the size of a reshape of them
    return size(reshape(zeros(leading, dtype=_dtypes.bool), [-1]))


def sequence_mask(lengths, maxlen=None, dtype=_dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...], for j in [0, maxlen) (maxlen defaults to max(lengths))."""
    from . import math_ops
    g = _graph()
    with g.name_scope(name or "SequenceMask"):
        lengths = _to_tensor(lengths)
        if maxlen is None:
            maxlen = math_ops.reduce_max(lengths, list(_builtin_range(lengths.shape.ndims))
                                         if lengths.shape.ndims is not None else None)
            maxlen = math_ops.maximum(constant(0, _base(maxlen)), maxlen)
        else:
            maxlen = _to_tensor(maxlen)
        if maxlen.shape.ndims not in (None, 0):
            raise ValueError(f"maxlen must be scalar for sequence_mask")
        row = range(constant(0, _base(maxlen)), maxlen, constant(1, _base(maxlen)), name="Range")
        matrix = _cast(expand_dims(lengths, -1), _base(maxlen)) if _base(lengths) != _base(maxlen) \
            else expand_dims(lengths, -1)
        result = math_ops.less(row, matrix)
        dtype = _dtypes.as_dtype(dtype).base_dtype
        if dtype is _dtypes.bool:
            return result
        return math_ops.cast(result, dtype)


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
registry.no_gradient("Unique")


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
        y = _to_tensor(y, name="y", dtype=_base(x))
        index_dtype = _check_out_type(index_dtype)
        out, idx = apply_op("ListDiff", [x, y], [_base(x), index_dtype], scope,
                            attrs={"T": _base(x), "out_idx": index_dtype})
        return _ListDiffOutput(out, idx)


def _band_shape(op):
    x = op.inputs[0]
    if x.shape.ndims is not None and x.shape.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {x.shape.ndims}")
    return [x.shape]


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


def diag(diagonal, name=None):
    """out[i1..ik, i1..ik] = diagonal[i1..ik], zeros elsewhere (rank 2k)."""
    g = _graph()
    with g.name_scope(name or "Diag") as scope:
        d = _to_tensor(diagonal, name="diagonal")
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
        raise ValueError(f"Incompatible shapes for broadcasting: {shape_x} and {shape_y}") from None


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
        full = stack(shapes)
        return [broadcast_to(x, full) for x in output]
