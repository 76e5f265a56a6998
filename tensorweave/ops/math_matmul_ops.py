"""Products: matmul (MatMul, BatchMatMulV2), tensordot, einsum and trace.
"""

import builtins

import numpy as np

from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op, broadcast_shapes
from ..framework.tensor_shape import TensorShape, unknown_shape
from .math_ops import (
    _a, _broadcast_like, _check_allowed, _convert_like, _dense, _kept_grad, _mismatch, _reduce_to,
)


# -- matrix multiplication -----------------------------------------------------------------------

def _matmul_shape(op):
    a, b = op._inputs[0]._shape, op._inputs[1]._shape
    for s in (a, b):
        if s.ndims is not None and s.ndims != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {s.ndims}")
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    if a.ndims is None and b.ndims is None:
        return [TensorShape([None, None])]
    ad = a.as_list() if a.ndims is not None else [None, None]
    bd = b.as_list() if b.ndims is not None else [None, None]
    m, ka = (ad[1], ad[0]) if ta else (ad[0], ad[1])
    kb, n = (bd[1], bd[0]) if tb else (bd[0], bd[1])
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f"Dimensions must be equal, but are {ka} and {kb}")
    return [TensorShape([m, n])]


def _batch_matmul_shape(op):
    a, b = op._inputs[0]._shape, op._inputs[1]._shape
    for s in (a, b):
        if s.ndims is not None and s.ndims < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.ndims}")
    if a.ndims is None or b.ndims is None:
        return [unknown_shape()]
    ad, bd = a.as_list(), b.as_list()
    adj_x, adj_y = op._attrs["adj_x"], op._attrs["adj_y"]
    m, ka = (ad[-1], ad[-2]) if adj_x else (ad[-2], ad[-1])
    kb, n = (bd[-1], bd[-2]) if adj_y else (bd[-2], bd[-1])
    if ka is not None and kb is not None and ka != kb:
        raise ValueError(f"Dimensions must be equal, but are {ka} and {kb}")
    batch = broadcast_shapes(TensorShape(ad[:-2]), TensorShape(bd[:-2]))
    return [batch.concatenate([m, n])]


registry.register_op("MatMul", shape_fn=_matmul_shape)
registry.register_op("BatchMatMulV2", shape_fn=_batch_matmul_shape)


def _mat_mul(a, b, transpose_a=False, transpose_b=False, name="MatMul", grad_a=False, grad_b=False):
    # grad_a / grad_b (TF 2.21) mark the products that compute a MatMul's gradients.
    dt = a.dtype.base_dtype
    if b.dtype.base_dtype is not dt:
        raise _mismatch("MatMul", "b", b.dtype, dt, "a")
    return apply_op("MatMul", [a, b], [dt], name, attrs={
        "T": dt, "grad_a": bool(grad_a), "grad_b": bool(grad_b), "transpose_a": bool(transpose_a),
        "transpose_b": bool(transpose_b)})


def _batch_mat_mul(x, y, adj_x=False, adj_y=False, name="MatMul", grad_x=False, grad_y=False):
    dt = x.dtype.base_dtype
    if y.dtype.base_dtype is not dt:
        raise _mismatch("BatchMatMulV2", "y", y.dtype, dt, "x")
    return apply_op("BatchMatMulV2", [x, y], [dt], name, attrs={
        "T": dt, "adj_x": bool(adj_x), "adj_y": bool(adj_y), "grad_x": bool(grad_x),
        "grad_y": bool(grad_y)})


# MatMul's op def; the unsigned types have no CPU kernel (a run-time error, as TF)
_MATMUL_TYPES = ("bfloat16", "float16", "float32", "float64", "int32", "int64", "uint8", "uint16", "uint32",
                 "uint64", "complex64", "complex128")


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, name=None):
    """Matrix product a @ b; inputs of rank > 2 (or unknown rank) are batches of matrices whose
    batch dimensions broadcast (op type BatchMatMulV2)."""
    with _name_scope(name, "MatMul", [a, b]) as scope:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of transpose_a and adjoint_a can be True.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of transpose_b and adjoint_b can be True.")
        a = _dense(a, name="a")
        _check_allowed("a", a.dtype, _MATMUL_TYPES)
        b = _convert_like("MatMul", b, "b", a.dtype.base_dtype, "a", hint=True)  # dtype_hint, as TF
        ra, rb = a.shape.ndims, b.shape.ndims
        if ra is None or rb is None or ra > 2 or rb > 2:
            if transpose_a:
                a, adjoint_a = conj(a), True
            if transpose_b:
                b, adjoint_b = conj(b), True
            return _batch_mat_mul(a, b, adjoint_a, adjoint_b, name=scope)
        if adjoint_a:
            a, transpose_a = conj(a), True
        if adjoint_b:
            b, transpose_b = conj(b), True
        return _mat_mul(a, b, transpose_a, transpose_b, name=scope)


@registry.register_gradient("MatMul")
def _matmul_grad(op, grad):
    a, b = op._inputs
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    if not ta and not tb:
        return [_mat_mul(grad, b, transpose_b=True, grad_a=True),
                _mat_mul(a, grad, transpose_a=True, grad_b=True)]
    if not ta and tb:
        return [_mat_mul(grad, b, grad_a=True), _mat_mul(grad, a, transpose_a=True, grad_b=True)]
    if ta and not tb:
        return [_mat_mul(b, grad, transpose_b=True, grad_a=True), _mat_mul(a, grad, grad_b=True)]
    return [_mat_mul(b, grad, transpose_a=True, transpose_b=True, grad_a=True),
            _mat_mul(grad, a, transpose_a=True, transpose_b=True, grad_b=True)]


@registry.register_gradient("BatchMatMulV2")
def _batch_matmul_grad(op, grad):
    x, y = op._inputs
    ax, ay = op._attrs["adj_x"], op._attrs["adj_y"]
    args = {(False, False): ((grad, y, False, True), (x, grad, True, False)),
            (False, True): ((grad, y, False, False), (grad, x, True, False)),
            (True, False): ((y, grad, False, True), (x, grad, False, False)),
            (True, True): ((y, grad, True, True), (grad, x, True, True))}[(bool(ax), bool(ay))]
    gx = _batch_mat_mul(*args[0], grad_x=True)
    gy = _batch_mat_mul(*args[1], grad_y=True)
    return [_reduce_to(gx, x, y, batch_only=True), _reduce_to(gy, y, x, batch_only=True)]


# -- trace, tensordot, einsum --------------------------------------------------------------------

def trace(x, name=None):
    """Sum of the main diagonal of each innermost matrix."""
    with _name_scope(name, "Trace", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        # TF: reduce_sum(matrix_diag_part(x), [-1], name=name), so the result is "Trace:0"
        from .math_reduction_ops import reduce_sum
        from .linalg_ops import matrix_diag_part
        return reduce_sum(matrix_diag_part(x), [-1], name=scope)


def _tensordot_axes(axes, ra, rb):
    if isinstance(axes, Tensor):
        v = constant_value(axes)
        if v is None:
            raise ValueError("tensordot needs constant axes")
        axes = v.tolist()
    if isinstance(axes, (int, np.integer)):
        if axes < 0:
            raise ValueError(f"'axes' must be at least 0, got {axes}.")
        if ra is not None and axes > ra:
            raise ValueError(f"'axes' must not be larger than the number of dimensions of tensor a. "
                             f"Got {axes} > {ra}.")
        return list(range(ra - axes, ra)), list(range(axes))
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError(f"'axes' must be an integer or have length 2, got {axes}.")
    a_axes, b_axes = axes
    a_axes = [a_axes] if isinstance(a_axes, (int, np.integer)) else list(a_axes)
    b_axes = [b_axes] if isinstance(b_axes, (int, np.integer)) else list(b_axes)
    if len(a_axes) != len(b_axes):
        raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(a_axes)} != {len(b_axes)}.")
    return [x % ra for x in a_axes], [x % rb for x in b_axes]


def tensordot(a, b, axes, name=None):
    """Sums the product of a and b over the given axes (an int N: last N of a with first N of b;
    or a pair of axis lists). Built as TF builds it: each operand transposed and reshaped to a
    matrix, one MatMul, the product reshaped; with dimensions unknown to the graph those shapes
    are computed by Shape/Gather/Prod ops, as in TF."""
    with _name_scope(name, "Tensordot", [a, b, axes]) as scope:
        a = convert_to_tensor(a, name="a")
        # TF converts `b` on its own (no dtype hint); the MatMul it builds then rejects a mismatch.
        b = convert_to_tensor(b, name="b")
        if b.dtype.base_dtype is not a.dtype.base_dtype:
            raise _mismatch("MatMul", "b", b.dtype, a.dtype.base_dtype, "a")
        ra, rb = a.shape.ndims, b.shape.ndims
        if ra is None or rb is None:
            raise ValueError("tensordot needs inputs of known rank")
        a_axes, b_axes = _tensordot_axes(axes, ra, rb)
        # (no check of the contracted sizes here: as in TF, the MatMul's shape function catches
        # a mismatch when the reshaped operands' shapes are static)
        ra_, free_a, static_a = _tensordot_reshape(a, a_axes, False)
        rb_, free_b, static_b = _tensordot_reshape(b, b_axes, True)
        ab = _mat_mul(ra_, rb_)
        arr = _a(a)
        if isinstance(free_a, list) and isinstance(free_b, list):
            if ab.shape.is_fully_defined() and ab.shape.as_list() == free_a + free_b:
                return ab
            return arr.reshape(ab, free_a + free_b, name=scope)
        free_a, free_b = (convert_to_tensor(np.array(f, np.int32)) if isinstance(f, list) else f
                          for f in (free_a, free_b))
        product = arr.reshape(ab, arr.concat([free_a, free_b], 0), name=scope)
        product.set_shape(static_a + static_b)
        return product


def _tensordot_reshape(t, axes, flipped):
    """TF's _tensordot_reshape for an operand of known rank: (the matrix, its free dims (a list
    when static, else an int32 tensor), the free dims' static sizes)."""
    from . import array_ops, math_ops
    dims = t.shape.as_list()
    free = [i for i in range(len(dims)) if i not in axes]
    free_static = [dims[i] for i in free]
    if t.shape.is_fully_defined():
        prod_free = int(np.prod([dims[i] for i in free])) if free else 1
        prod_axes = int(np.prod([dims[i] for i in axes])) if axes else 1
        perm = (list(axes) + free) if flipped else (free + list(axes))
        new = [prod_axes, prod_free] if flipped else [prod_free, prod_axes]
        if perm != list(range(len(dims))):
            t = array_ops.transpose(t, perm)
        if t.shape.as_list() != new:
            t = array_ops.reshape(t, new)
        return t, free_static, free_static
    axes_t = convert_to_tensor(np.array(axes, np.int32), name="axes")
    free_t = convert_to_tensor(np.array(free, np.int32), name="free")
    shape = array_ops.shape(t)
    free_dims = array_ops.gather(shape, free_t)
    axes_dims = array_ops.gather(shape, axes_t)
    prod_free = math_ops.reduce_prod(free_dims)
    prod_axes = math_ops.reduce_prod(axes_dims)
    if flipped:
        perm = array_ops.concat([axes_t, free_t], 0)
        new = array_ops.stack([prod_axes, prod_free])
    else:
        perm = array_ops.concat([free_t, axes_t], 0)
        new = array_ops.stack([prod_free, prod_axes])
    return array_ops.reshape(array_ops.transpose(t, perm), new), free_dims, free_static


def _parse_einsum(equation, n_inputs):
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs = eq
        counts = {}
        for c in lhs.replace(",", "").replace(".", ""):
            counts[c] = counts.get(c, 0) + 1
        out = ("..." if "..." in lhs else "") + "".join(sorted(c for c, k in counts.items() if k == 1))
    ins = lhs.split(",")
    if len(ins) != n_inputs:
        raise ValueError(f"Expected {len(ins)} inputs for equation {equation!r}, got {n_inputs}")
    return ins, out


def _expand_ellipsis(ins, out, ranks):
    """Replaces '...' by explicit (upper-case) labels, right-aligned like broadcasting."""
    if not any("..." in s for s in ins + [out]):
        return ins, out
    if any(r is None for r in ranks):
        return None
    n_ell = 0
    for s, r in zip(ins, ranks):
        if "..." in s:
            n_ell = builtins.max(n_ell, r - (len(s) - 3))
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n_ell]
    new_ins = []
    for s, r in zip(ins, ranks):
        if "..." in s:
            k = r - (len(s) - 3)
            s = s.replace("...", labels[n_ell - k:])
        new_ins.append(s)
    return new_ins, out.replace("...", labels)


def _einsum_shape(op):
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    shapes = [t._shape for t in op._inputs]
    exp = _expand_ellipsis(ins, out, [s.ndims for s in shapes])
    if exp is None or any(s.ndims is None for s in shapes):
        return [unknown_shape()]
    ins, out = exp
    dims = {}
    for s, shp in zip(ins, shapes):
        if len(s) != shp.ndims:
            raise ValueError(f"Expected input of rank {len(s)} for subscripts {s!r}, got rank {shp.ndims}")
        for c, d in zip(s, shp.as_list()):
            old = dims.get(c)
            if old is None or old == 1:
                dims[c] = d if old is None or d != 1 else old
            elif d is not None and d != 1 and d != old:
                raise ValueError(f"Dimensions must be equal, but are {old} and {d}")
    return [TensorShape([dims.get(c) for c in out])]


registry.register_op("Einsum", shape_fn=_einsum_shape)


def _check_einsum_equation(equation, ts):
    """TF's einsum parses the equation in Python before building the op, with these errors."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(ts):
        raise ValueError(f'Got {len(ts)} inputs for equation "{eq}", expecting {len(ins)}')
    for sub, t in zip(ins, ts):
        if "..." not in sub:
            t.shape.require_rank(len(sub))
    if arrow:
        labels = set(lhs.replace(",", "").replace(".", ""))
        bare = out.replace("...", "")
        if len(set(bare)) != len(bare):
            raise ValueError(f"Output subscripts contain a label appearing more than once: {eq}")
        for c in bare:
            if c not in labels:
                raise ValueError(f"Output subscripts contain the label {c} not present in the input subscripts.")


def einsum(equation, *inputs, **kwargs):
    """Einstein summation, e.g. einsum('ij,jk->ik', a, b) is a matrix product."""
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: {', '.join(sorted(kwargs))}")
    with _name_scope(name, "einsum", list(inputs)):
        ts = [convert_to_tensor(t, name="inputs") for t in inputs]
        _check_einsum_equation(equation, ts)
        dt = ts[0].dtype.base_dtype
        for t in ts[1:]:
            if t.dtype.base_dtype is not dt:
                raise TypeError(f"Tensors in list passed to 'inputs' of 'Einsum' Op have types "
                                f"[{', '.join(x.dtype.base_dtype.name for x in ts)}] that don't all match.")
        return apply_op("Einsum", ts, [dt], "Einsum", attrs={"equation": equation, "N": len(ts), "T": dt})


@registry.register_gradient("Einsum")
def _einsum_grad(op, grad):
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    exp = _expand_ellipsis(ins, out, [t.shape.ndims for t in op._inputs])
    if exp is None:
        raise NotImplementedError("einsum gradient with '...' needs inputs of known rank")
    ins, out = exp
    if len(op._inputs) == 2 and all(t.shape.is_fully_defined() for t in op._inputs):
        from .array_ops import shape as _shape
        _shape(op._inputs[0]), _shape(op._inputs[1])  # TF's x_shape, y_shape ("Shape", "Shape_1")
    grads = []
    for i, x in enumerate(op._inputs):
        sub = ins[i]
        if len(set(sub)) != len(sub):
            raise NotImplementedError(f"einsum gradient for repeated subscripts {sub!r} is not supported")
        others = [(s, t) for j, (s, t) in enumerate(zip(ins, op._inputs)) if j != i]
        avail = set(out).union(*[set(s) for s, _ in others]) if others else set(out)
        target = "".join(c for c in sub if c in avail)
        eq = ",".join([out] + [s for s, _ in others]) + "->" + target
        # TF's _EinsumGrad calls the raw op: "Einsum_grad/Einsum", "Einsum_grad/Einsum_1".
        ts = [grad] + [t for _, t in others]
        g = apply_op("Einsum", ts, [grad.dtype.base_dtype], "Einsum",
                     attrs={"equation": eq, "N": len(ts), "T": grad.dtype.base_dtype})
        missing = [k for k, c in enumerate(sub) if c not in avail]
        if missing:
            axes = constant(np.asarray(missing, dtype=np.int32))
            g = _broadcast_like(_kept_grad(g, x, axes, False), x)
        grads.append(g)
    return grads


# Ops of the family's other modules, called only when the functions above run. Imported
# last: the modules call each other, and math_ops.py imports them all once its helpers exist.
from .math_elementwise_ops import conj  # noqa: E402
