"""Linear algebra over batches of matrices (the innermost two dimensions; leading dimensions are
a batch): inverse, determinant, slogdet, Cholesky, solves, QR, SVD, matrix diagonals, eye and
norm. Op types and default names are TF's ("MatrixInverse", "Cholesky", "MatrixDiagV3", ...);
kernels are in kernels/cpu/linalg.py (np.linalg).

Gradients (checked by finite differences in tests/ops/test_linalg_ops.py), for A = input:
  inv:      dA = -inv(A)^H G inv(A)^H
  det:      dA = g det(A) inv(A)^H;   slogdet: dA = g inv(A)^H  (the sign has no gradient)
  solve:    X = A^-1 B:  dB = A^-H G,  dA = -dB X^H
  cholesky: A = L L^H:   Phi(L^H G) sandwiched by L^-1, symmetrized (Murray 2016; TF's formula)
QR and SVD have no gradients yet (tf.gradients raises LookupError, as for any op without one).
"""

import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, get_default_graph
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op, broadcast_shapes, make_bool
from ..framework.tensor_shape import TensorShape, unknown_shape
from . import array_ops, math_ops

# The tf.* names (tf.linalg adds adjoint and slogdet = log_matrix_determinant, which TF1 has only there).
__all__ = ["matrix_inverse", "matrix_determinant", "cholesky", "matrix_solve", "matrix_triangular_solve",
           "matrix_transpose", "eye", "matrix_diag", "matrix_diag_part", "matrix_set_diag", "norm", "qr", "svd"]

_FLOATS = ("float64", "float32", "float16", "complex64", "complex128")


# The ops whose type lists TF orders otherwise (its op-builder message lists them in this order).
_ALLOWED = {"MatrixDeterminant": ("float16", "float32", "float64", "complex64", "complex128"),
            "LogMatrixDeterminant": ("float16", "float32", "float64", "complex64", "complex128"),
            "MatrixTriangularSolve": ("bfloat16",) + _FLOATS}


def _check_type(param, t, op_type=None):
    allowed = _ALLOWED.get(op_type, _FLOATS)
    if t.dtype.base_dtype.name not in allowed:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {t.dtype.base_dtype.name} not in "
                        f"list of allowed values: {', '.join(allowed)}")


def _same_type(op_type, param, t, first, dt):
    if t.dtype.base_dtype is not dt:
        raise TypeError(f"Input '{param}' of '{op_type}' Op has type {t.dtype.base_dtype.name} that does not "
                        f"match type {dt.name} of argument '{first}'.")


# -- shape functions -----------------------------------------------------------------------------

def _rank2(s):
    """The dims of a shape of rank >= 2 (None if the rank is unknown)."""
    if s.ndims is None:
        return None
    if s.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {s.ndims}")
    return s.as_list()


def _merge_dim(a, b):
    if a is not None and b is not None and a != b:
        raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
    return a if a is not None else b


def _square(s):
    d = _rank2(s)
    if d is None:
        return None
    n = _merge_dim(d[-2], d[-1])
    return d[:-2] + [n, n]


def _square_shape(op):
    d = _square(op.inputs[0].shape)
    return [unknown_shape() if d is None else TensorShape(d)]


def _det_shape(op):
    d = _square(op.inputs[0].shape)
    return [unknown_shape() if d is None else TensorShape(d[:-2])] * len(op.outputs)


def _merge_batch(a, b):
    """TF's Merge of the two batch shapes, with its messages."""
    if len(a) != len(b):
        raise ValueError(f"Shapes must be equal rank, but are {len(a)} and {len(b)}")
    for i, (x, y) in enumerate(zip(a, b)):
        if x is not None and y is not None and x != y:
            text = lambda d: "[" + ",".join("?" if v is None else str(v) for v in d) + "]"  # noqa: E731
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {x} and {y}. Shapes are "
                             f"{text(a)} and {text(b)}.")
    return [x if x is not None else y for x, y in zip(a, b)]


def _solve_shape(op):
    m = _square(op.inputs[0].shape)
    r = _rank2(op.inputs[1].shape)
    if m is None and r is None:
        return [unknown_shape()]
    # (TF's MatrixSolveShapeFn merges what is known of either side)
    if m is None:
        return [TensorShape(r)]
    if r is None:
        return [TensorShape(m[:-2] + [m[-1], None])]
    batch = _merge_batch(m[:-2], r[:-2])
    n = _merge_dim(m[-1], r[-2])
    return [TensorShape(batch + [n, r[-1]])]


def _triangular_solve_shape(op):
    """MatrixTriangularSolve broadcasts the batch dimensions (TF's MatrixTriangularSolveShapeFn)."""
    m = _square(op.inputs[0].shape)
    r = _rank2(op.inputs[1].shape)
    if m is None or r is None:
        return [unknown_shape()]
    batch = broadcast_shapes(TensorShape(m[:-2]), TensorShape(r[:-2])).as_list()
    n = _merge_dim(m[-1], r[-2])
    return [TensorShape(batch + [n, r[-1]])]


registry.register_op("MatrixInverse", shape_fn=_square_shape)
registry.register_op("MatrixDeterminant", shape_fn=_det_shape)
registry.register_op("LogMatrixDeterminant", shape_fn=_det_shape)
registry.register_op("Cholesky", shape_fn=_square_shape)
registry.register_op("MatrixSolve", shape_fn=_solve_shape)
registry.register_op("MatrixTriangularSolve", shape_fn=_triangular_solve_shape)


def _batch_diag_size(m, n):
    return None if m is None or n is None else min(m, n)


def _qr_shape(op):
    d = _rank2(op.inputs[0].shape)
    if d is None:
        return [unknown_shape(), unknown_shape()]
    m, n = d[-2], d[-1]
    if op._get_attr("full_matrices"):
        return [TensorShape(d[:-2] + [m, m]), TensorShape(d[:-2] + [m, n])]
    p = _batch_diag_size(m, n)
    return [TensorShape(d[:-2] + [m, p]), TensorShape(d[:-2] + [p, n])]


def _svd_shape(op):
    d = _rank2(op.inputs[0].shape)
    if d is None:
        return [unknown_shape()] * 3
    m, n = d[-2], d[-1]
    p = _batch_diag_size(m, n)
    s = TensorShape(d[:-2] + [p])
    if not op._get_attr("compute_uv"):
        return [s, TensorShape([0]), TensorShape([0])]
    if op._get_attr("full_matrices"):
        return [s, TensorShape(d[:-2] + [m, m]), TensorShape(d[:-2] + [n, n])]
    return [s, TensorShape(d[:-2] + [m, p]), TensorShape(d[:-2] + [n, p])]


registry.register_op("Qr", shape_fn=_qr_shape)
registry.register_op("Svd", shape_fn=_svd_shape)


# -- gradients -----------------------------------------------------------------------------------

def _expand2(g):
    return array_ops.expand_dims(array_ops.expand_dims(g, -1), -1)


@registry.register_gradient("MatrixInverse")
def _matrix_inverse_grad(op, grad):
    ainv = op.outputs[0]
    adj = op._get_attr("adjoint")
    return [-math_ops.matmul(ainv, math_ops.matmul(grad, ainv, adjoint_a=adj, adjoint_b=not adj),
                             adjoint_a=not adj)]


@registry.register_gradient("MatrixDeterminant")
def _matrix_determinant_grad(op, grad):
    a_adj_inv = matrix_inverse(op.inputs[0], adjoint=True)
    return [_expand2(grad * op.outputs[0]) * a_adj_inv]


@registry.register_gradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, _, grad_b):
    a_adj_inv = matrix_inverse(op.inputs[0], adjoint=True)
    return [_expand2(grad_b) * a_adj_inv]


@registry.register_gradient("MatrixSolve")
def _matrix_solve_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    adj = op._get_attr("adjoint")
    grad_b = matrix_solve(a, grad, adjoint=not adj)
    grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True) if adj else -math_ops.matmul(grad_b, c, adjoint_b=True)
    return [grad_a, grad_b]


@registry.register_gradient("MatrixTriangularSolve")
def _matrix_triangular_solve_grad(op, grad):
    a, c = op.inputs[0], op.outputs[0]
    adj, lower = op._get_attr("adjoint"), op._get_attr("lower")
    grad_b = matrix_triangular_solve(a, grad, lower=lower, adjoint=not adj)
    grad_a = -math_ops.matmul(c, grad_b, adjoint_b=True) if adj else -math_ops.matmul(grad_b, c, adjoint_b=True)
    grad_a = array_ops.matrix_band_part(grad_a, -1, 0) if lower else array_ops.matrix_band_part(grad_a, 0, -1)
    b = op.inputs[1]
    if a.shape.is_fully_defined() and b.shape.is_fully_defined() and a.shape[:-2] == b.shape[:-2]:
        return [grad_a, grad_b]
    # TF's un-broadcast of the batch dimensions
    a_shape, b_shape = array_ops.shape(a), array_ops.shape(b)
    ra, rb = math_ops.broadcast_gradient_args(a_shape[:-2], b_shape[:-2])
    grad_a = array_ops.reshape(math_ops.reduce_sum(grad_a, axis=ra), a_shape)
    grad_b = array_ops.reshape(math_ops.reduce_sum(grad_b, axis=rb), b_shape)
    return [grad_a, grad_b]


@registry.register_gradient("Cholesky")
def _cholesky_grad(op, grad):
    l = op.outputs[0]  # noqa: E741 - the factor's usual name
    l_inverse = matrix_inverse(l)
    middle = math_ops.matmul(l, grad, adjoint_a=True)
    middle = matrix_set_diag(middle, 0.5 * matrix_diag_part(middle))
    middle = array_ops.matrix_band_part(middle, -1, 0)
    grad_a = math_ops.matmul(math_ops.matmul(l_inverse, middle, adjoint_a=True), l_inverse)
    grad_a = grad_a + adjoint(grad_a)
    return [grad_a * 0.5]


# -- inverse, determinants, Cholesky, solves -----------------------------------------------------

def _unary(op_type, input, name, attrs=None, param="input", n_out=1):
    if not isinstance(input, Tensor):
        # TF's op wrapper converts a non-tensor input inside the op's name scope ("Qr/input")
        with _name_scope(name, op_type, [input]) as scope:
            return _unary(op_type, convert_to_tensor(input, name=param), scope, attrs, param, n_out)
    x = input
    _check_type(param, x, op_type)
    dt = x.dtype.base_dtype
    a = {"T": dt}
    a.update(attrs or {})
    return apply_op(op_type, [x], [dt] * n_out, name, attrs=a)


def matrix_inverse(input, adjoint=False, name=None):
    """The inverse (or, with adjoint=True, the inverse of the adjoint) of each innermost square
    matrix. A singular matrix fails with InvalidArgumentError "Input is not invertible."."""
    return _unary("MatrixInverse", input, name or "MatrixInverse", {"adjoint": make_bool(adjoint, "adjoint")})


def matrix_determinant(input, name=None):
    """The determinant of each innermost square matrix (shape: the batch dimensions)."""
    return _unary("MatrixDeterminant", input, name or "MatrixDeterminant")


LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant", ["sign", "log_abs_determinant"])


def log_matrix_determinant(input, name=None):
    """(sign, log|det|) of each innermost square matrix (tf.linalg.slogdet); a singular matrix
    gives sign 0 and log|det| = -inf."""
    s, l = _unary("LogMatrixDeterminant", input, name or "LogMatrixDeterminant", n_out=2)  # noqa: E741
    return LogMatrixDeterminant(s, l)


def cholesky(input, name=None):
    """The lower-triangular L with L L^H = input for each innermost Hermitian positive-definite
    matrix (only the lower triangle is read). Like TF, a matrix that is not positive definite
    gives NaN in its lower triangle rather than an error."""
    return _unary("Cholesky", input, name or "Cholesky")


def _binary(op_type, matrix, rhs, name, attrs):
    if not (isinstance(matrix, Tensor) and isinstance(rhs, Tensor)):
        # TF converts non-tensor inputs inside the op's name scope ("MatrixSolve/rhs")
        with _name_scope(name, op_type, [matrix, rhs]) as scope:
            a = convert_to_tensor(matrix, name="matrix")
            _check_type("matrix", a, op_type)
            if not isinstance(rhs, Tensor):
                rhs = convert_to_tensor(rhs, name="rhs", dtype=a.dtype.base_dtype)
            return _binary(op_type, a, rhs, scope, attrs)
    a = matrix
    _check_type("matrix", a, op_type)
    dt = a.dtype.base_dtype
    _same_type(op_type, "rhs", rhs, "matrix", dt)
    at = {"T": dt}
    at.update(attrs)
    return apply_op(op_type, [a, rhs], [dt], name, attrs=at)


def matrix_solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (adjoint(matrix) @ X = rhs with adjoint=True), per batch entry.
    Batch dimensions must be equal. A singular matrix fails with InvalidArgumentError."""
    return _binary("MatrixSolve", matrix, rhs, name or "MatrixSolve", {"adjoint": make_bool(adjoint, "adjoint")})


def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with T @ X = rhs, T the lower (lower=True) or upper triangle of `matrix` (the other
    triangle is ignored), adjoint(T) with adjoint=True. Batch dimensions must be equal (TF
    broadcasts them; this does not yet). A zero on the diagonal gives inf/NaN, as in TF."""
    with _name_scope(name, "triangular_solve", [matrix, rhs]):
        return _binary("MatrixTriangularSolve", matrix, rhs, "MatrixTriangularSolve",
                       {"lower": make_bool(lower, "lower"), "adjoint": make_bool(adjoint, "adjoint")})


def qr(input, full_matrices=False, name=None):
    """(q, r) with input = q @ r, q with orthonormal columns, r upper triangular; per batch entry."""
    q, r = _unary("Qr", input, name or "Qr", {"full_matrices": make_bool(full_matrices, "full_matrices")}, n_out=2)
    return _Qr(q, r)


_Qr = collections.namedtuple("Qr", ["q", "r"])


def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values s (descending), and with compute_uv the (s, u, v) with
    tensor = u @ diag(s) @ adjoint(v), per batch entry."""
    s, u, v = _unary("Svd", tensor, name or "Svd", {"full_matrices": make_bool(full_matrices, "full_matrices"),
                                                     "compute_uv": make_bool(compute_uv, "compute_uv")}, n_out=3)
    if s.dtype.is_complex:   # TF's wrapper: the op's complex s through Real
        s = math_ops.real(s)
    return (s, u, v) if compute_uv else s


# -- transposes ----------------------------------------------------------------------------------

def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Transposes the innermost two dimensions (conjugating with conjugate=True)."""
    with _name_scope(name, None, [a]):
        a = convert_to_tensor(a, name="a")
        ndims = a.shape.ndims
        if ndims is None:
            # TF's perm when run: [0, ..., rank - 3, rank - 1, rank - 2]
            from .array_range_ops import range as _range
            r = array_ops.rank(a)
            perm = array_ops.concat([_range(0, r - 2, 1), array_ops.stack([r - 1, r - 2])], 0)
            return array_ops.transpose(a, perm=perm, conjugate=conjugate)
        if ndims < 2:
            raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  Received `a` = {a} "
                             f"with shape: {a.shape}")
        perm = list(range(ndims - 2)) + [ndims - 1, ndims - 2]
        return array_ops.transpose(a, perm=perm, conjugate=conjugate)


def adjoint(matrix, name=None):
    """The conjugate transpose of the innermost two dimensions."""
    with _name_scope(name, "adjoint", [matrix]):
        matrix = convert_to_tensor(matrix, name="matrix")
        return matrix_transpose(matrix, conjugate=True)


# -- matrix diagonals (MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3) and eye -------------------

def _k_value(op, i):
    """(lower, upper) diagonal indices from the `k` input, or None when unknown; TF's checks."""
    from ..framework.tensor_shape import note_input_value
    k = constant_value(op.inputs[i])
    if k is None:
        return None
    note_input_value(i, k)
    k = np.asarray(k).reshape(-1)
    if k.size not in (1, 2):
        raise ValueError(f"diag_index must be a vector with one or two elements. It has {k.size} elements.")
    lo, hi = int(k[0]), int(k[-1])
    if lo > hi:
        raise ValueError("lower_diag_index is greater than upper_diag_index")
    return lo, hi


def _const_int(t):
    v = constant_value(t)
    return None if v is None else int(np.asarray(v).reshape(-1)[0])


def _diag_output_size(lo, hi, max_len, num_rows, num_cols):
    """(rows, cols) of MatrixDiagV3's output, with TF's rules and error."""
    min_rows, min_cols = max_len - min(hi, 0), max_len + max(lo, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    if num_rows != min_rows and num_cols != min_cols:
        raise ValueError(f"num_rows and num_cols are not consistent with lower_diag_index, upper_diag_index, "
                         f"and the length of the given diagonals.\nnum_rows = {num_rows} != min_num_rows = "
                         f"{min_rows}, num_cols = {num_cols} != min_num_cols = {min_cols}")
    return num_rows, num_cols


def _matrix_diag_shape(op):
    s = op.inputs[0].shape
    if s.ndims is not None and s.ndims < 1:     # (TF checks the rank before reading k)
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    k = _k_value(op, 1)
    if s.ndims is None or k is None:
        return [unknown_shape()]
    lo, hi = k
    band = lo < hi
    d = s.as_list()
    if band:
        other = d[s.ndims - 2] if s.ndims >= 2 else d[-1]
        if other is not None and other != hi - lo + 1:
            # TF's message, its odd tail included
            raise ValueError("The number of rows of `diagonal` doesn't match the number of diagonals implied "
                             f"from `d_lower` and `d_upper`.\nnum_diags = {other}, d_lower = {lo}, d_upper = "
                             f"{hi} {s.ndims} {d[-1]}")
    batch = d[:-2] if band else d[:-1]
    rows, cols = _const_int(op.inputs[2]), _const_int(op.inputs[3])
    if rows is None or cols is None or d[-1] is None:
        return [TensorShape(batch + [None, None])]
    return [TensorShape(batch + list(_diag_output_size(lo, hi, d[-1], rows, cols)))]


def _diag_part_length(lo, hi, m, n):
    return max(0, min(m + min(hi, 0), n - max(lo, 0)))


def _matrix_diag_part_shape(op):
    d = _rank2(op.inputs[0].shape)
    k = _k_value(op, 1)
    if d is None or k is None:
        return [unknown_shape()]
    lo, hi = k
    m, n = d[-2], d[-1]
    if m is not None and n is not None:
        if lo != 0 and not -m < lo < n:
            raise ValueError("lower_diag_index is out of bound.")
        if hi != 0 and not -m < hi < n:
            raise ValueError("upper_diag_index is out of bound.")
    length = None if m is None or n is None else _diag_part_length(lo, hi, m, n)
    return [TensorShape(d[:-2] + ([hi - lo + 1] if lo < hi else []) + [length])]


def _matrix_set_diag_shape(op):
    d = _rank2(op.inputs[0].shape)
    k = _k_value(op, 2)
    ds = op.inputs[1].shape
    if d is None:
        # TF infers the batch dimensions from the diagonal's shape
        if ds.ndims is None or k is None:
            return [unknown_shape()]
        batch = ds.as_list()[:-2] if k[0] < k[1] else ds.as_list()[:-1]
        return [TensorShape(batch + [None, None])]
    band = k is not None and k[0] < k[1]
    if ds.ndims is not None:
        want = len(d) if band else len(d) - 1
        if ds.ndims != want:
            raise ValueError(f"Shape must be rank {want} but is rank {ds.ndims}")
        d = _merge_batch(d[:-2], ds.as_list()[:want - (2 if band else 1)]) + d[-2:]
    return [TensorShape(d)]


registry.register_op("MatrixDiagV3", shape_fn=_matrix_diag_shape)
registry.register_op("MatrixDiagPartV3", shape_fn=_matrix_diag_part_shape)
registry.register_op("MatrixSetDiagV3", shape_fn=_matrix_set_diag_shape)


@registry.register_gradient("MatrixDiagV3")
def _matrix_diag_grad(op, grad):
    return [matrix_diag_part(grad, k=op.inputs[1], align=op._get_attr("align")), None, None, None, None]


@registry.register_gradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, grad):
    # TF: a MatrixDiag ("diag") when the matrix shape is static, else set_diag of zeros
    ms = op.inputs[0].shape[-2:] if op.inputs[0].shape.ndims is not None else None
    if ms is not None and ms.is_fully_defined():
        return [matrix_diag(grad, k=op.inputs[1], num_rows=ms[0].value, num_cols=ms[1].value,
                            align=op._get_attr("align")), None, None]
    return [matrix_set_diag(array_ops.zeros_like(op.inputs[0]), grad, k=op.inputs[1],
                            align=op._get_attr("align")), None, None]


@registry.register_gradient("MatrixSetDiagV3")
def _matrix_set_diag_grad(op, grad):
    k, align = op.inputs[2], op._get_attr("align")
    return [matrix_set_diag(grad, array_ops.zeros_like(op.inputs[1]), k=k, align=align),
            matrix_diag_part(grad, k=k, align=align), None]


_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _int_input(v, name):
    return v if isinstance(v, Tensor) else convert_to_tensor(v, dtype=_dtypes.int32, name=name)


def _check_align(align):
    if align not in _ALIGNS:
        raise ValueError(f"Value for attr 'align' of \"{align}\" is not in the list of allowed values: "
                         f"\"LEFT_RIGHT\", \"RIGHT_LEFT\", \"LEFT_LEFT\", \"RIGHT_RIGHT\"")


def _is_bool(x):
    return getattr(x, "dtype", None) is not None and _dtypes.as_dtype(x.dtype).base_dtype == _dtypes.bool


def _padding(value, dt, op_type):
    """The padding_value input, with TF's op-builder TypeError for a value of another kind."""
    try:
        return convert_to_tensor(value, dtype=dt, name="padding_value")
    except TypeError as e:
        raise TypeError(f"Expected {dt.name} passed to parameter 'padding_value' of op '{op_type}', got {value!r} "
                        f"of type '{type(value).__name__}' instead. Error: {e}") from None


def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Batched diagonal matrices: out[..., i, i + k] = diagonal[..., i], padding_value elsewhere;
    with k = (lo, hi), diagonal[..., hi - d, :] fills diagonal d (packed by `align`);
    num_rows/num_cols as in TF, -1 = the smallest that fits."""
    _check_align(align)
    if _is_bool(diagonal):
        padding_value = bool(padding_value)     # (as TF: 0 would not convert to bool)
    g = get_default_graph()
    with g.name_scope(name or "MatrixDiagV3") as scope:
        d = convert_to_tensor(diagonal, name="diagonal")
        dt = d.dtype.base_dtype
        ins = [d, _int_input(k, "k"), _int_input(num_rows, "num_rows"), _int_input(num_cols, "num_cols"),
               _padding(padding_value, dt, "MatrixDiagV3")]
        return apply_op("MatrixDiagV3", ins, [dt], scope, attrs={"T": dt, "align": align})


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):
    """The k-th diagonal of each innermost matrix: out[..., i] = input[..., i, i + k]; with
    k = (lo, hi), the band's diagonals stacked (upper first), padded as `align` says."""
    _check_align(align)
    if _is_bool(input):
        padding_value = bool(padding_value)
    g = get_default_graph()
    with g.name_scope(name or "MatrixDiagPartV3") as scope:
        x = convert_to_tensor(input, name="input")
        dt = x.dtype.base_dtype
        ins = [x, _int_input(k, "k"), _padding(padding_value, dt, "MatrixDiagPartV3")]
        return apply_op("MatrixDiagPartV3", ins, [dt], scope, attrs={"T": dt, "align": align})


def matrix_set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):
    """`input` with its k-th innermost diagonal replaced by `diagonal`."""
    _check_align(align)
    g = get_default_graph()
    with g.name_scope(name or "MatrixSetDiagV3") as scope:
        x = convert_to_tensor(input, name="input")
        dt = x.dtype.base_dtype
        d = convert_to_tensor(diagonal, name="diagonal", dtype=dt) if not isinstance(diagonal, Tensor) else diagonal
        _same_type("MatrixSetDiagV3", "diagonal", d, "input", dt)
        return apply_op("MatrixSetDiagV3", [x, d, _int_input(k, "k")], [dt], scope,
                        attrs={"T": dt, "align": align})


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_dtypes.float32, name=None):
    """Identity matrices of shape batch_shape + [num_rows, num_columns] (ones on the main
    diagonal); num_rows/num_columns may be int32 scalar tensors."""
    with _name_scope(name, "eye", [num_rows, num_columns, batch_shape]):
        dtype = _dtypes.as_dtype(dtype)
        is_square = num_columns is None
        batch_shape = [] if batch_shape is None else batch_shape
        num_columns = num_rows if num_columns is None else num_columns
        dynamic = isinstance(num_rows, Tensor) or isinstance(num_columns, Tensor)
        if dynamic:
            diag_size = math_ops.minimum(num_rows, num_columns)
        else:
            for v in (num_rows, num_columns):
                if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
                    raise TypeError(f"Arguments `num_rows` and `num_columns` must be positive integer values. "
                                    f"Received: num_rows={num_rows}, num_columns={num_columns}")
            is_square = num_rows == num_columns
            diag_size = int(min(num_rows, num_columns))
        if dynamic or isinstance(batch_shape, Tensor):
            batch_shape = convert_to_tensor(batch_shape, name="shape", dtype=_dtypes.int32)
            diag_shape = array_ops.concat((batch_shape, [diag_size]), axis=0)
            if not is_square:
                shape = array_ops.concat((batch_shape, [num_rows, num_columns]), axis=0)
        else:
            batch_shape = [int(b) for b in batch_shape]
            diag_shape = batch_shape + [diag_size]
            if not is_square:
                shape = batch_shape + [num_rows, num_columns]
        diag_ones = array_ops.ones(diag_shape, dtype=dtype)
        if is_square:
            return matrix_diag(diag_ones)
        return matrix_set_diag(array_ops.zeros(shape, dtype=dtype), diag_ones)


# -- norm ----------------------------------------------------------------------------------------

_MATRIX_NORMS = ["euclidean", "fro", 1, 2, np.inf]


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002
    """Vector norms (ord 'euclidean', 1, 2, np.inf or any p > 0) over `axis` (an int or None =
    the whole tensor as one vector), or matrix norms (ord 'fro'/'euclidean', 1, 2, np.inf) over
    a pair of axes; keepdims keeps the reduced axes with size 1."""
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
    keepdims = bool(keepdims if keepdims is not None else keep_dims)
    is_matrix_norm = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if not _is_int(axis[0]) or not _is_int(axis[1]) or axis[0] == axis[1]:
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        if isinstance(ord, bool) or ord not in _MATRIX_NORMS:
            raise ValueError(f"'ord' must be a supported matrix norm in {_MATRIX_NORMS}, got {ord}")
    else:
        if not (_is_int(axis) or axis is None):
            raise ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique integers, got {axis}")
        numeric = isinstance(ord, (int, float, np.integer, np.floating)) and not isinstance(ord, bool)
        if not (ord == "euclidean" if isinstance(ord, str) else numeric and ord > 0):
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    with _name_scope(name, "norm", [tensor]):
        tensor = convert_to_tensor(tensor)
        if isinstance(ord, str) or ord == 2:
            if is_matrix_norm and not isinstance(ord, str):
                result = _matrix_2_norm(tensor, axis)
            else:
                result = math_ops.sqrt(math_ops.reduce_sum(tensor * math_ops.conj(tensor),
                                                           list(axis) if axis else axis, keepdims=True))
        else:
            result = math_ops.abs(tensor)
            if ord == 1:
                result = math_ops.reduce_sum(result, None if axis is None else axis[0], keepdims=True)
                if is_matrix_norm:
                    result = math_ops.reduce_max(result, axis[-1], keepdims=True)
            elif ord == np.inf:
                if is_matrix_norm:
                    result = math_ops.reduce_sum(result, axis[1], keepdims=True)
                result = math_ops.reduce_max(result, None if axis is None else axis[0], keepdims=True)
            else:
                result = math_ops.pow(math_ops.reduce_sum(math_ops.pow(result, ord),
                                                          list(axis) if axis else axis, keepdims=True),
                                      1.0 / ord)
        if not keepdims:
            result = array_ops.squeeze(result, list(axis) if axis else axis)
        return result


def _matrix_2_norm(tensor, axis):
    """The largest singular value over the two axes, kept as size-1 dims."""
    rank = tensor.shape.ndims
    if rank is None:
        # TF's permutation, computed when run: the two axes last, then back
        from .array_misc_ops import invert_permutation, setdiff1d
        from .array_range_ops import range as _range
        r = array_ops.rank(tensor)
        ax = convert_to_tensor(list(axis), dtype=_dtypes.int32)
        pos = array_ops.where_v2(ax >= 0, ax, ax + r)
        perm = array_ops.concat([setdiff1d(_range(r), pos)[0], pos], axis=0)
        s = svd(array_ops.transpose(tensor, perm=perm), compute_uv=False)
        top = array_ops.expand_dims(math_ops.reduce_max(math_ops.abs(s), axis=-1, keepdims=True), -1)
        return array_ops.transpose(top, perm=invert_permutation(perm))
    pos = [a % rank for a in axis]
    perm = [i for i in range(rank) if i not in pos] + pos
    inv = list(np.argsort(perm))
    s = svd(array_ops.transpose(tensor, perm=perm), compute_uv=False)
    top = array_ops.expand_dims(math_ops.reduce_max(math_ops.abs(s), axis=-1, keepdims=True), -1)
    return array_ops.transpose(top, perm=[int(i) for i in inv])


# -- the family's other module, imported last (it builds on the helpers above) --------------------
from .linalg_extra_ops import *  # noqa: E402,F401,F403
from .linalg_extra_ops import __all__ as _extra_all  # noqa: E402

__all__ = __all__ + _extra_all
from .linalg_more_ops import *  # noqa: E402,F401,F403
from .linalg_more_ops import __all__ as _more_all  # noqa: E402

__all__ = __all__ + _more_all
