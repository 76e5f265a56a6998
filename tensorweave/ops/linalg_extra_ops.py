"""More of tf.linalg: eigh (self_adjoint_eig, self_adjoint_eigvals, eigvalsh), logdet, matvec,
pinv, lstsq (tf.matrix_solve_ls), cholesky_solve, expm, tridiagonal_solve.

Op types and names follow TensorFlow 2.x's compat.v1 (recorded under TensorFlow 2.21): eigh is one
SelfAdjointEigV2 op; logdet, matvec, pinv, lstsq and cholesky_solve are TF's composites
("logdet/mul", "MatVec/Squeeze", "pinv/MatMul",
"matrix_solve_ls/cholesky_solve/MatrixTriangularSolve_1"). expm is one MatrixExponential op here
(TF builds a Pade composite with a while loop; the result is named "matrix_exponential/Reshape_1"
in both).

Gradients: eigh has TF's formula (only the lower triangle of the input is read, like the kernel);
expm's gradient is the Frechet derivative read off expm of the block matrix [[A^H, G], [0, A^H]];
lstsq's comes from its composite; tridiagonal_solve's as in TF.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, name_scope as _name_scope
from ..framework.op_util import apply_op, check_allowed
from ..framework.tensor_shape import TensorShape, unknown_shape
from . import array_ops, math_ops
from .linalg_ops import (_check_type, _square, _square_shape, adjoint, cholesky, eye, matrix_diag_part,
                         matrix_set_diag, svd)

__all__ = ["self_adjoint_eig", "self_adjoint_eigvals", "matrix_solve_ls", "cholesky_solve"]


# -- eigh ------------------------------------------------------------------------------------

def _eig_shape(op):
    s = _square(op.inputs[0].shape)
    if s is None:
        return [unknown_shape(), unknown_shape() if op._get_attr("compute_v") else TensorShape([0])]
    e = TensorShape(s[:-1])
    v = TensorShape(s) if op._get_attr("compute_v") else TensorShape([0])
    return [e, v]


registry.register_op("SelfAdjointEigV2", shape_fn=_eig_shape)


def _safe_reciprocal(x, epsilon=1e-20):
    return x * math_ops.reciprocal(x * x + epsilon)


@registry.register_gradient("SelfAdjointEigV2")
def _self_adjoint_eig_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    if op._get_attr("compute_v"):
        v = op.outputs[1]
        f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(e, -2) - array_ops.expand_dims(e, -1)),
                            array_ops.zeros_like(e))
        inner = f * math_ops.matmul(v, grad_v, adjoint_a=True) if grad_v is not None else array_ops.zeros_like(v)
        if grad_e is not None:
            inner = _mdiag(grad_e) + inner
        grad_a = math_ops.matmul(v, math_ops.matmul(inner, v, adjoint_b=True))
    else:
        _, v = self_adjoint_eig(op.inputs[0])
        grad_a = math_ops.matmul(v, math_ops.matmul(_mdiag(grad_e), v, adjoint_b=True))
    grad_a = array_ops.matrix_band_part(grad_a + adjoint(grad_a), -1, 0)
    grad_a = matrix_set_diag(grad_a, 0.5 * matrix_diag_part(grad_a))
    return [grad_a]


def _mdiag(d):
    from .linalg_ops import matrix_diag
    return matrix_diag(d)


def _eig(tensor, compute_v, name):
    if not isinstance(tensor, Tensor):
        # TF converts a non-tensor input inside the op's name scope ("SelfAdjointEigV2/input")
        with _name_scope(name, "SelfAdjointEigV2", [tensor]) as scope:
            return _eig(convert_to_tensor(tensor, name="input"), compute_v, scope)
    x = tensor
    _check_type("input", x)
    dt = x.dtype.base_dtype
    # (the eigenvalues of a complex matrix are complex with zero imaginary parts, as TF's op)
    return apply_op("SelfAdjointEigV2", [x], [dt, dt], name, attrs={"T": dt, "compute_v": compute_v})


def self_adjoint_eig(tensor, name=None):
    """(e, v): the eigenvalues (ascending) and eigenvectors (columns of v) of each innermost
    Hermitian matrix; only its lower triangle is read."""
    e, v = _eig(tensor, True, name or "SelfAdjointEigV2")
    return e, v


def self_adjoint_eigvals(tensor, name=None):
    """The eigenvalues (ascending) of each innermost Hermitian matrix."""
    e, _ = _eig(tensor, False, name or "SelfAdjointEigV2")
    return e


eigh = self_adjoint_eig
eigvalsh = self_adjoint_eigvals


# -- logdet, matvec, pinv --------------------------------------------------------------------

def logdet(matrix, name=None):
    """log(det(matrix)) of each Hermitian positive-definite matrix, via its Cholesky factor."""
    with _name_scope(name, "logdet", [matrix]):
        chol = cholesky(matrix)
        return 2.0 * math_ops.reduce_sum(math_ops.log(math_ops.real(matrix_diag_part(chol))), axis=[-1])


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    """a @ b for a (batch of) matrices a and vectors b."""
    with _name_scope(name, "MatVec", [a, b]):
        output = math_ops.matmul(a, array_ops.expand_dims(b, axis=-1), transpose_a=transpose_a,
                                 adjoint_a=adjoint_a, a_is_sparse=a_is_sparse, b_is_sparse=b_is_sparse)
        return array_ops.squeeze(output, axis=-1)


def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse of each innermost matrix (by SVD; singular values below
    rcond * max(s) count as zero; rcond defaults to 10 * max(rows, cols) * eps)."""
    with _name_scope(name or "pinv", None, [a, rcond]):
        a = convert_to_tensor(a, name="a")
        dt = a.dtype.base_dtype
        if not dt.is_floating:
            raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {dt.name}).")
        if rcond is None:
            dims = a.shape.as_list()[-2:] if a.shape.ndims is not None else [None, None]
            if None in dims:
                d = math_ops.cast(math_ops.reduce_max(array_ops.shape(a)[-2:]), dt)
                rcond = 10.0 * d * np.finfo(dt.as_numpy_dtype).eps
            else:
                rcond = dt.as_numpy_dtype(10.0 * max(dims) * np.finfo(dt.as_numpy_dtype).eps)
        rcond = convert_to_tensor(rcond, dtype=dt, name="rcond")
        singular_values, left, right = svd(a, full_matrices=False, compute_uv=True)
        cutoff = rcond * math_ops.reduce_max(singular_values, axis=-1)
        singular_values = array_ops.where_v2(
            math_ops.greater(singular_values, array_ops.expand_dims(cutoff, -1)), singular_values,
            np.array(np.inf, dt.as_numpy_dtype))
        return math_ops.matmul(right / array_ops.expand_dims(singular_values, -2), left, adjoint_b=True)


# -- cholesky_solve, lstsq ---------------------------------------------------------------------

def cholesky_solve(chol, rhs, name=None):
    """X with A X = rhs, given chol = cholesky(A)."""
    with _name_scope(name, "cholesky_solve", [chol, rhs]):
        y = _tri(chol, rhs, False)
        return _tri(chol, y, True)


def _tri(m, r, adj):
    from .linalg_ops import _binary
    return _binary("MatrixTriangularSolve", m, r, "MatrixTriangularSolve", {"lower": True, "adjoint": adj})


def _ls_shape(op):
    a, b = op.inputs[0].shape, op.inputs[1].shape
    if a.ndims is None or b.ndims is None:
        return [unknown_shape()]
    return [TensorShape(a.as_list()[:-2] + [a[-1].value, b[-1].value])]


registry.register_op("MatrixSolveLs", shape_fn=_ls_shape)


@registry.register_gradient("MatrixSolveLs")
def _matrix_solve_ls_grad(op, grad):
    if not op._get_attr("fast"):
        raise ValueError("Gradient not defined for fast=False")
    from ..autodiff.gradients import gradients
    a, b, l2 = op.inputs
    x = _ls_composite(a, b, l2)
    ga, gb = gradients([x], [a, b], grad_ys=[grad])
    return [ga, gb, None]


def _regularized_gramian_cholesky(matrix, l2_regularizer, first_kind):
    gramian = math_ops.matmul(matrix, matrix, adjoint_a=first_kind, adjoint_b=not first_kind)
    static_l2 = None
    try:
        static_l2 = float(l2_regularizer)
    except (TypeError, ValueError):
        pass
    if static_l2 is None or static_l2 != 0:
        # TF slices the batch shape first (even when it is empty), then the small dimension.
        mshape = array_ops.shape(matrix)
        batch = mshape[:-2]
        small = mshape[-1] if first_kind else mshape[-2]
        identity = eye(small, batch_shape=batch, dtype=matrix.dtype.base_dtype)
        if matrix.shape.ndims is not None:
            small_static = matrix.shape[-1 if first_kind else -2]
            identity.set_shape(matrix.shape[:-2].concatenate([small_static, small_static]))
        gramian = gramian + l2_regularizer * identity
    return cholesky(gramian)


def _ls_overdetermined(matrix, rhs, l2_regularizer):
    chol = _regularized_gramian_cholesky(matrix, l2_regularizer, True)
    return cholesky_solve(chol, math_ops.matmul(matrix, rhs, adjoint_a=True))


def _ls_underdetermined(matrix, rhs, l2_regularizer):
    chol = _regularized_gramian_cholesky(matrix, l2_regularizer, False)
    return math_ops.matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)


def _ls_composite(matrix, rhs, l2_regularizer):
    """TF's composite: by the static inner shape, or a cond on it when it is not known."""
    inner = matrix.shape[-2:].as_list() if matrix.shape.ndims is not None else [None, None]
    if None not in inner:
        f = _ls_overdetermined if inner[0] >= inner[1] else _ls_underdetermined
        return f(matrix, rhs, l2_regularizer)
    from .control_flow_ops import cond
    shape = array_ops.shape(matrix)[-2:]
    return cond(shape[-2] >= shape[-1], lambda: _ls_overdetermined(matrix, rhs, l2_regularizer),
                lambda: _ls_underdetermined(matrix, rhs, l2_regularizer))


def matrix_solve_ls(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares solution X of matrix @ X = rhs (with Tikhonov regularization
    l2_regularizer), per batch entry. fast=True solves the regularized normal equations by
    Cholesky (TF's composite when shapes are known); fast=False uses a complete orthogonal
    decomposition (no gradient)."""
    # TF converts the matrix before its name scope ("matrix"); the composite's second MatMul
    # converts a Python rhs ("matrix_solve_ls/MatMul_1/b").
    matrix = convert_to_tensor(matrix, name="matrix")
    dt = matrix.dtype.base_dtype
    if dt == _dtypes.complex128 and not (isinstance(l2_regularizer, (int, float)) and l2_regularizer == 0):
        raise NotImplementedError("matrix_solve_ls is currently disabled for complex128 and l2_regularizer != 0 "
                                  "due to poor accuracy.")
    with _name_scope(name, "matrix_solve_ls", [matrix, rhs, l2_regularizer]):
        if matrix.shape.ndims is not None and matrix.shape.ndims < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {matrix.shape.ndims}")
        rhs_ndims = rhs.shape.ndims if isinstance(rhs, Tensor) else np.ndim(rhs)
        if rhs_ndims == 1:
            raise ValueError("Shape must be at least rank 2 but is rank 1")
        if fast:   # TF's composite (the kernel only with fast=False)
            if not isinstance(rhs, Tensor):
                rhs = np.asarray(rhs, dt.as_numpy_dtype)
            return _ls_composite(matrix, rhs, l2_regularizer)
        rhs = convert_to_tensor(rhs, name="rhs", dtype=dt)
        l2 = convert_to_tensor(l2_regularizer, dtype=_dtypes.float64, name="l2_regularizer")
    # TF builds the kernel op outside its name scope ("MatrixSolveLs", not "matrix_solve_ls/...")
    return apply_op("MatrixSolveLs", [matrix, rhs, l2], [dt], name or "MatrixSolveLs",
                    attrs={"T": dt, "fast": bool(fast)})


def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """tf.linalg.lstsq: see matrix_solve_ls."""
    return matrix_solve_ls(matrix, rhs, l2_regularizer=l2_regularizer, fast=fast, name=name)


# -- expm ------------------------------------------------------------------------------------

registry.register_op("MatrixExponential", shape_fn=_square_shape)


@registry.register_gradient("MatrixExponential")
def _matrix_exponential_grad(op, grad):
    a = op.inputs[0]
    ah = adjoint(a)
    n = array_ops.shape(a)[-1]
    top = array_ops.concat([ah, grad], axis=-1)
    bottom = array_ops.concat([array_ops.zeros_like(ah), ah], axis=-1)
    big = apply_op("MatrixExponential", [array_ops.concat([top, bottom], axis=-2)], [a.dtype.base_dtype],
                   "MatrixExponential", attrs={"T": a.dtype.base_dtype})
    return [big[..., :n, n:]]


def expm(input, name=None):  # noqa: A002
    """The matrix exponential of each innermost square matrix."""
    with _name_scope(name, "matrix_exponential", [input]):
        x = convert_to_tensor(input, name="input")
        if not x.dtype.is_complex:   # TF's composite starts with math_ops.abs (the Abs op's TypeError)
            check_allowed("x", x.dtype, ["bfloat16", "float16", "float32", "float64", "int8", "int16", "int32",
                                         "int64"])
        if x.dtype.base_dtype not in (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.complex64,
                                      _dtypes.complex128):
            raise ValueError(f"tf.linalg.expm does not support matrices of type <dtype: '{x.dtype.base_dtype.name}'>")
        _check_type("input", x)
        if x.shape.ndims is not None and x.shape.ndims < 2:
            raise ValueError(f"`input` must be a (batch of) square matrices, got shape {x.shape}")
        s = x.shape
        flat = array_ops.reshape(x, array_ops.concat([[-1], array_ops.shape(x)[-2:]], axis=0))
        out = apply_op("MatrixExponential", [flat], [x.dtype.base_dtype], "MatrixExponential",
                       attrs={"T": x.dtype.base_dtype})
        res = array_ops.reshape(out, array_ops.shape(x))
        res.set_shape(s)
        return res


# -- tridiagonal_solve (compact format) ----------------------------------------------------------

def _tri_shape(op):
    return [op.inputs[1].shape]


registry.register_op("TridiagonalSolve", shape_fn=_tri_shape)


@registry.register_gradient("TridiagonalSolve")
def _tridiagonal_solve_grad(op, grad):
    diags, rhs = op.inputs
    x = op.outputs[0]
    pp = op._get_attr("partial_pivoting")
    superdiag, diag, subdiag = diags[..., 0, :], diags[..., 1, :], diags[..., 2, :]
    # grad_rhs = A^-T grad: the transposed system has super and sub diagonals swapped (and shifted).
    zeros = array_ops.zeros_like(superdiag[..., :1])
    tsuper = array_ops.concat([subdiag[..., 1:], zeros], axis=-1)
    tsub = array_ops.concat([zeros, superdiag[..., :-1]], axis=-1)
    tdiags = array_ops.stack([tsuper, diag, tsub], axis=-2)
    grad_rhs = _tridiag_op(tdiags, grad, pp)
    # dA_ij = -grad_rhs_i x_j on the three diagonals
    g_diag = -math_ops.reduce_sum(grad_rhs * x, axis=-1)
    g_super = -math_ops.reduce_sum(grad_rhs[..., :-1, :] * x[..., 1:, :], axis=-1)
    g_sub = -math_ops.reduce_sum(grad_rhs[..., 1:, :] * x[..., :-1, :], axis=-1)
    g_super = array_ops.concat([g_super, array_ops.zeros_like(g_diag[..., :1])], axis=-1)
    g_sub = array_ops.concat([array_ops.zeros_like(g_diag[..., :1]), g_sub], axis=-1)
    return [array_ops.stack([g_super, g_diag, g_sub], axis=-2), grad_rhs]


def _tridiag_op(diags, rhs, partial_pivoting, name="TridiagonalSolve"):
    dt = diags.dtype.base_dtype
    return apply_op("TridiagonalSolve", [diags, rhs], [dt], name,
                    attrs={"T": dt, "partial_pivoting": bool(partial_pivoting), "perturb_singular": False})


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    """X with A X = rhs for tridiagonal A given as [..., 3, M] diagonals (superdiagonal with its
    last entry ignored, diagonal, subdiagonal with its first entry ignored). Only
    diagonals_format='compact' and rhs of shape [..., M, K] are supported."""
    if diagonals_format != "compact":
        raise NotImplementedError("tensorweave's tridiagonal_solve supports diagonals_format='compact' only")
    if transpose_rhs or conjugate_rhs or perturb_singular:
        raise NotImplementedError("tensorweave's tridiagonal_solve does not support transpose_rhs, "
                                  "conjugate_rhs or perturb_singular")
    d = convert_to_tensor(diagonals, name="diagonals")
    r = convert_to_tensor(rhs, name="rhs", dtype=d.dtype.base_dtype)
    if d.shape.ndims is not None and (d.shape.ndims < 2 or d.shape[-2].value not in (None, 3)):
        raise ValueError(f"Expected diagonals to have shape [..., 3, M], got {d.shape}")
    if r.shape.ndims is not None and r.shape.ndims < 2:
        raise ValueError("tensorweave's tridiagonal_solve needs rhs of shape [..., M, K]")
    check_allowed("diagonals", d.dtype, ["float64", "float32", "complex64", "complex128"])
    return _tridiag_op(d, r, partial_pivoting, name or "TridiagonalSolve")
