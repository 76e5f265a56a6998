"""Array ops that change a tensor's layout but not its elements: reshape, transpose,
expand_dims, squeeze.
"""


import numpy as np

from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, make_int
from ..framework.tensor_shape import (
    TensorShape, note_input_partial_shape, note_input_value, shape_tensor_value_error, unknown_shape,
)
from .array_ops import (
    _base, _builtin_range, _dims_str, _graph, _index_tensor, _partial_dims, rank, shape,
    _to_tensor,
)


# -- reshape, transpose, expand_dims, squeeze --------------------------------------------------

def _reshape_shape(op):
    x, s = op.inputs
    if s.shape.ndims not in (None, 1):
        raise ValueError(f"Shape must be rank 1 but is rank {s.shape.ndims}")
    dims = _partial_dims(s)
    if dims is None:
        return [unknown_shape()]
    for d in dims:
        if d is not None and d < -1:
            raise shape_tensor_value_error(d)
    note_input_partial_shape(1, dims)
    neg = [i for i, d in enumerate(dims) if d == -1]
    if len(neg) > 1:
        # TF builds it (those dimensions unknown); the kernel fails at run time
        return [TensorShape([None if d is None or d < 0 else d for d in dims])]
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
    elif n is None and all_known and not neg and x.shape.ndims is not None:
        # TF's check when exactly one input dimension is unknown and the target is fully known:
        # the known input dimensions must divide the target's size.
        in_dims = x.shape.as_list()
        if sum(d is None for d in in_dims) == 1:
            known_in = int(np.prod([d for d in in_dims if d is not None]))
            if known_in and prod % known_in:
                raise ValueError(f"Dimension size must be evenly divisible by {known_in} but is {prod}")
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
    """TF's _ReshapeGrad: a -1 wildcard when one input dimension is unknown (no Shape op)."""
    s = op.inputs[0].shape
    if s.ndims is not None and not s.is_fully_defined():
        dims = s.as_list()
        undefined = [i for i, d in enumerate(dims) if d is None]
        if len(undefined) == 1 and 0 not in dims:
            dims[undefined[0]] = -1
            return [reshape(grad, dims), None]
    return [reshape(grad, shape(op.inputs[0])), None]


def reshape(tensor, shape, name=None):
    """`tensor` with its elements in row-major order laid out in `shape` (one entry may be -1)."""
    g = _graph()
    with g.name_scope(name or "Reshape") as scope:
        if isinstance(tensor, IndexedSlices):
            tensor = convert_to_tensor(tensor)
        elif not isinstance(tensor, Tensor):
            tensor = _to_tensor(tensor, name="tensor")  # inside the op's scope: "Reshape/tensor", as TF
        s = _index_tensor(shape, "shape", "shape", "Reshape")
        return apply_op("Reshape", [tensor, s], [_base(tensor)], scope,
                        attrs={"T": _base(tensor), "Tshape": _base(s)})


def _perm_of(op):
    return _partial_dims(op.inputs[1])


def _transpose_shape(op):
    x = op.inputs[0]
    op.inputs[1].shape.require_rank(1)
    perm = _perm_of(op)
    n = x.shape.ndims
    if perm is None:
        return [unknown_shape(n)]
    if n is not None and len(perm) != n:
        raise ValueError(f"Dimension must be {n} but is {len(perm)}")
    note_input_value(1, constant_value(op.inputs[1]))
    if any(p is None for p in perm) or n is None:
        return [unknown_shape(len(perm))]
    for p in perm:
        if not 0 <= p < n and not -n <= p < 0:
            raise ValueError(f"perm dim {p} is out of range of input rank {n}")
    perm = [p % n for p in perm]
    # TF's shape function does not check that perm is a permutation ([0, 0] builds; the kernel
    # fails at run time)
    dims = x.shape.as_list()
    return [TensorShape([dims[p] for p in perm])]


registry.register_op("Transpose", shape_fn=_transpose_shape)
registry.register_op("ConjugateTranspose", shape_fn=_transpose_shape)


@registry.register_static_value("Transpose")
def _transpose_value(op, value_of):
    v, p = value_of(op.inputs[0]), value_of(op.inputs[1])
    if v is None or p is None:
        return None
    p = [int(i) for i in p]
    if sorted(i % max(np.ndim(v), 1) for i in p) != list(_builtin_range(np.ndim(v))):
        return None  # not a permutation: the kernel raises at run time
    return np.transpose(v, p)


def _inverse_perm(perm):
    p = constant_value(perm)
    if p is not None:
        return constant(np.argsort(np.asarray(p)).astype(perm.dtype.base_dtype.as_numpy_dtype))
    return invert_permutation(perm)


@registry.register_gradient("Transpose")
def _transpose_grad(op, grad):
    return [transpose(grad, invert_permutation(op.inputs[1])), None]


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
    dv = constant_value(d)
    axis = int(np.asarray(dv).ravel()[0]) if dv is not None and np.size(dv) == 1 else None
    n = x.shape.ndims
    if dv is not None and np.size(dv) != 1:     # (TF checks a known value only)
        note_input_value(1, dv)
        raise ValueError(f"'dim' input must be a tensor with a single value")
    if axis is None or n is None:
        return [unknown_shape()]  # TF: an unknown axis leaves even the rank unknown
    note_input_value(1, constant_value(d))
    if not -n - 1 <= axis <= n:
        raise ValueError(f"dim {axis} not in the interval [{-n - 1}, {n}].")
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
            raise ValueError("Cannot specify both 'dim' and 'axis'.")
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
    axes = op._get_attr("squeeze_dims")
    n = x.shape.ndims
    if n is None:
        return [unknown_shape()]
    dims = x.shape.as_list()
    norm = set()
    for i, a in enumerate(axes):
        if not -n <= a < n:
            raise ValueError(f"squeeze_dims[{i}] not in [{-n},{n}).")
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
    axes = op._get_attr("squeeze_dims")
    return np.squeeze(v, axis=tuple(axes) if axes else None)


@registry.register_gradient("Squeeze")
def _squeeze_grad(op, grad):
    return [reshape(grad, shape(op.inputs[0]))]


def squeeze(input, axis=None, name=None, squeeze_dims=None):
    """Removes dimensions of size 1 (all of them, or those listed in `axis`)."""
    if squeeze_dims is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'squeeze_dims' and 'axis'.")
        axis = squeeze_dims
    if axis is None:
        axis = []
    elif np.isscalar(axis):
        axis = [axis]
    elif not isinstance(axis, (list, tuple)):      # (TF's generated wrapper's check)
        raise TypeError(f"Expected list for 'axis' argument to 'squeeze' Op, not {axis!r}.")
    axis = [make_int(a, "axis") for a in axis]
    with _graph().name_scope(name or "Squeeze") as scope:  # TF: "Squeeze/input"
        input = _to_tensor(input, name="input")
        return apply_op("Squeeze", [input], [_base(input)], scope,
                        attrs={"T": _base(input), "squeeze_dims": axis})


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and array_ops.py imports them all once its helpers exist.
from .array_range_ops import range, reverse_v2  # noqa: E402
from .array_misc_ops import invert_permutation  # noqa: E402
