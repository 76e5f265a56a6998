"""Still more of tf.linalg: sqrtm (tf.matrix_square_root), logm, matrix_rank, normalize.

Op types and names follow TensorFlow 2.x's compat.v1 (recorded under TensorFlow 2.21): sqrtm is
one MatrixSquareRoot op; its gradient is TF's composite, which solves the Sylvester equation
R dR + dR R = dA for each matrix through its Kronecker form (I (x) R^T + R (x) I) vec(dR) = vec(dA)
with MatrixSolve ("gradients/MatrixSquareRoot_grad/matrix_transpose_2/transpose").
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op
from . import array_ops, math_ops
from .linalg_ops import _check_type, _square_shape, eye, matrix_solve, matrix_transpose

__all__ = ["matrix_square_root"]   # (the tf.* names; tf.linalg adds sqrtm, logm, matrix_rank, normalize)


registry.register_op("MatrixSquareRoot", shape_fn=_square_shape)


def _kronecker_product(b1, b2):
    """The Kronecker products of two batches of square matrices (TF's helper, op for op)."""
    b1_shape = array_ops.shape(b1)
    b2_shape = array_ops.shape(b2)
    b1_order = b1_shape[-1]
    b2_order = b2_shape[-1]
    shape_slice_size = [math_ops.subtract(array_ops.size(b1_shape), 2)]
    shape_slice = array_ops.slice(b1_shape, [0], shape_slice_size)
    b1_reshape_shape = array_ops.concat([shape_slice, [b1_order], [1], [b1_order], [1]], 0)
    b2_reshape_shape = array_ops.concat([shape_slice, [1], [b2_order], [1], [b2_order]], 0)
    b1_reshape = array_ops.reshape(b1, b1_reshape_shape)
    b2_reshape = array_ops.reshape(b2, b2_reshape_shape)
    order_prod = b1_order * b2_order
    kprod_shape = array_ops.concat([shape_slice, [order_prod], [order_prod]], 0)
    return array_ops.reshape(b1_reshape * b2_reshape, kprod_shape)


@registry.register_gradient("MatrixSquareRoot")
def _matrix_square_root_grad(op, grad):
    # A = R R, so dA = R dR + dR R: a Sylvester equation for dR, solved in Kronecker form.
    sqrtm = op.outputs[0]
    shape = array_ops.shape(sqrtm)
    order = shape[-1]
    matrix_count = math_ops.reduce_prod(shape[0:-2])
    eye_m = eye(order, dtype=sqrtm.dtype)
    eye_flat = array_ops.reshape(eye_m, [-1])
    eye_tiled = array_ops.tile(eye_flat, [matrix_count])
    eye_batch = array_ops.reshape(eye_tiled, shape)
    sqrtm_transpose = matrix_transpose(sqrtm)
    k1 = _kronecker_product(eye_batch, sqrtm_transpose)
    k2 = _kronecker_product(sqrtm, eye_batch)
    ksum = math_ops.add(k1, k2)
    shape_slice_size = [math_ops.subtract(array_ops.size(shape), 2)]
    shape_slice = array_ops.slice(shape, [0], shape_slice_size)
    shape_vec_da = array_ops.concat([shape_slice, [order * order], [1]], 0)
    vec_da = array_ops.reshape(matrix_transpose(grad), shape_vec_da)
    vec_dsqrtm = matrix_solve(ksum, vec_da)
    dsqrtm_plus_transpose = array_ops.reshape(vec_dsqrtm, shape)
    return [matrix_transpose(dsqrtm_plus_transpose)]


def matrix_square_root(input, name=None):  # noqa: A002
    """The principal square root R (R @ R = input, eigenvalues of R in the right half plane) of
    each innermost square matrix, by a Schur decomposition. Like TF, a real matrix with a negative
    real eigenvalue has no real square root and gives NaN; a singular one may give inf/NaN."""
    with _name_scope(name, "MatrixSquareRoot", [input]) as scope:
        # (a failing call still uses up the name, as with TF's op builder)
        x = convert_to_tensor(input, name="input")
        _check_type("input", x)
        dt = x.dtype.base_dtype
        return apply_op("MatrixSquareRoot", [x], [dt], scope, attrs={"T": dt})


sqrtm = matrix_square_root


# -- logm, matrix_rank, normalize ------------------------------------------------------------

registry.register_op("MatrixLogarithm", shape_fn=_square_shape)   # no gradient, as in TF


def logm(input, name=None):  # noqa: A002
    """The principal matrix logarithm of each innermost square complex matrix (complex64 or
    complex128 only, as in TF)."""
    with _name_scope(name, "MatrixLogarithm", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        dt = x.dtype.base_dtype
        if dt.name not in ("complex64", "complex128"):
            raise TypeError(f"Value passed to parameter 'input' has DataType {dt.name} not in list of allowed "
                            f"values: complex64, complex128")
        return apply_op("MatrixLogarithm", [x], [dt], scope, attrs={"T": dt})


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """The number of singular values of each innermost matrix above `tol` (default:
    eps * max(rows, cols) * the largest singular value)."""
    from .linalg_ops import svd
    with _name_scope(name or "matrix_rank", None, [a, tol]):
        a = convert_to_tensor(a, preferred_dtype=_dtypes.float32, name="a")
        if a.shape.ndims is not None and a.shape.ndims < 2:
            raise ValueError(f"Input `a` must have at least 2 dimensions (saw: {a.shape.ndims}).")
        s = svd(a, compute_uv=False)
        if tol is None:
            dims = a.shape.as_list()[-2:] if a.shape.ndims is not None else [None]
            if None not in dims:
                m = np.max(dims)
            else:
                m = math_ops.reduce_max(array_ops.shape(a)[-2:])
            eps = np.finfo(a.dtype.as_numpy_dtype).eps
            tol = eps * math_ops.cast(m, a.dtype) * math_ops.reduce_max(s, axis=-1, keepdims=True)
        return math_ops.reduce_sum(math_ops.cast(s > tol, _dtypes.int32), axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """(tensor / norm, norm) with the norm taken over `axis` with keepdims=True (see tf.norm)."""
    from .linalg_ops import norm
    with _name_scope(name, "normalize", [tensor]):
        tensor = convert_to_tensor(tensor)
        n = norm(tensor, ord, axis, keepdims=True)
        n = math_ops.cast(n, tensor.dtype)
        return tensor / n, n


# -- gradients of the decompositions (TF 2.21's linalg_grad, op for op) ----------------------

@registry.register_gradient("Qr")
def _qr_grad(op, dq, dr):
    """TF's _QrGrad: for num_rows >= num_cols (reduced q), and for wide matrices by splitting
    a = [x | y] with x square."""
    from .array_misc_ops import matrix_band_part
    from .linalg_ops import adjoint, matrix_triangular_solve
    q, r = op.outputs
    rs = r.shape
    if rs.ndims is None or rs[-2].value is None or rs[-1].value is None:
        raise NotImplementedError(f"QrGrad not implemented with dynamic shapes. Received r.shape: {rs}")
    if rs[-2].value > rs[-1].value and q.shape[-2].value == q.shape[-1].value:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and full_matrices is true. "
                                  f"Received r.shape={rs} with nrows={rs[-2]}and ncols={rs[-1]}.")

    def tri_solve(x, r):  # x @ adjoint(inverse(r)) for upper-triangular r
        return adjoint(matrix_triangular_solve(r, adjoint(x), lower=False, adjoint=False))

    def square_and_deep(q, r, dq, dr):
        qdq = math_ops.matmul(q, dq, adjoint_a=True)
        qdq_ = qdq - adjoint(qdq)
        rdr = math_ops.matmul(r, dr, adjoint_b=True)
        rdr_ = rdr - adjoint(rdr)
        tril = matrix_band_part(qdq_ + rdr_, -1, 0)
        grad_a = math_ops.matmul(q, dr + tri_solve(tril, r))
        grad_b = tri_solve(dq - math_ops.matmul(q, qdq), r)
        ret = grad_a + grad_b
        if q.dtype.is_complex:
            from .linalg_ops import matrix_diag_part, matrix_set_diag
            m = rdr - adjoint(qdq)
            eyem = matrix_set_diag(array_ops.zeros_like(m), matrix_diag_part(m))
            correction = eyem - math_ops.cast(math_ops.real(eyem), q.dtype)
            ret = ret + tri_solve(math_ops.matmul(q, adjoint(correction)), r)
        return ret

    num_rows, num_cols = q.shape[-2].value, rs[-1].value
    if num_rows >= num_cols:
        return [square_and_deep(q, r, dq, dr)]
    a = op.inputs[0]
    y = a[..., :, num_rows:]
    u = r[..., :, :num_rows]
    dv = dr[..., :, num_rows:]
    du = dr[..., :, :num_rows]
    dy = math_ops.matmul(q, dv)
    dx = square_and_deep(q, u, dq + math_ops.matmul(y, dv, adjoint_b=True), du)
    return [array_ops.concat([dx, dy], axis=-1)]


@registry.register_gradient("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    """TF's _SvdGrad (Townsend's formulas): the singular values' part u diag(ds) v^H, plus the
    singular vectors' parts through F = 1 / (s_j^2 - s_i^2) off the diagonal."""
    from .linalg_extra_ops import _safe_reciprocal
    from .linalg_ops import adjoint, matrix_diag, matrix_set_diag, svd
    from ..framework.graph import control_dependencies
    a = op.inputs[0]
    a_shape = a.shape.with_rank_at_least(2)
    grad_s = math_ops.cast(grad_s, a.dtype)
    grad_s_mat = matrix_diag(grad_s)
    if not op._get_attr("compute_uv"):
        s, u, v = svd(a, compute_uv=True)
        grad_a = math_ops.matmul(u, math_ops.matmul(grad_s_mat, v, adjoint_b=True))
        grad_a.set_shape(a_shape)
        return [grad_a]
    full_matrices = op._get_attr("full_matrices")
    gus = grad_u.shape.with_rank_at_least(2)
    gvs = grad_v.shape.with_rank_at_least(2)
    m = a_shape.dims[-2].merge_with(gus[-2])
    n = a_shape.dims[-1].merge_with(gvs[-2])
    batch_shape = a_shape[:-2].merge_with(gus[:-2]).merge_with(gvs[:-2])
    a_shape = batch_shape.concatenate([m, n])
    m, n = a_shape.dims[-2].value, a_shape.dims[-1].value
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with unknown inner matrix shape.")
    s, u, v = op.outputs
    s = math_ops.cast(s, a.dtype)
    use_adjoint = m > n
    if use_adjoint:  # work on the wide adjoint
        m, n = n, m
        u, v = v, u
        grad_u, grad_v = grad_v, grad_u
    with control_dependencies([grad_s, grad_u, grad_v]):
        if full_matrices and abs(m - n) > 1:
            raise NotImplementedError(
                "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
                f"Received: m={m} and n={n} from op input={a} with shape={a_shape}.")
        s_mat = matrix_diag(s)
        s2 = math_ops.square(s)
        s_shape = array_ops.shape(s)
        f = matrix_set_diag(_safe_reciprocal(array_ops.expand_dims(s2, -2) - array_ops.expand_dims(s2, -1)),
                            array_ops.zeros_like(s))
        s_inv_mat = matrix_diag(_safe_reciprocal(s))
        v1 = v[..., :, :m]
        grad_v1 = grad_v[..., :, :m]
        u_gu = math_ops.matmul(u, grad_u, adjoint_a=True)
        v_gv = math_ops.matmul(v1, grad_v1, adjoint_a=True)
        f_u = f * u_gu
        f_v = f * v_gv
        term1_nouv = (grad_s_mat + math_ops.matmul(f_u + adjoint(f_u), s_mat)
                      + math_ops.matmul(s_mat, f_v + adjoint(f_v)))
        term1 = math_ops.matmul(u, math_ops.matmul(term1_nouv, v1, adjoint_b=True))
        if m == n:
            grad_a = term1
        else:
            gv1t = matrix_transpose(grad_v1, conjugate=True)
            gv1t_v1 = math_ops.matmul(gv1t, v1)
            term2_nous = gv1t - math_ops.matmul(gv1t_v1, v1, adjoint_b=True)
            if full_matrices:
                v2 = v[..., :, m:n]
                grad_v2 = grad_v[..., :, m:n]
                v1t_gv2 = math_ops.matmul(v1, grad_v2, adjoint_a=True)
                term2_nous -= math_ops.matmul(v1t_gv2, v2, adjoint_b=True)
            u_s_inv = math_ops.matmul(u, s_inv_mat)
            grad_a = term1 + math_ops.matmul(u_s_inv, term2_nous)
        if a.dtype.is_complex:
            e = eye(s_shape[-1], batch_shape=s_shape[:-1], dtype=a.dtype)
            l_ = e * v_gv
            term3_nouv = math_ops.matmul(s_inv_mat, adjoint(l_) - l_)
            grad_a += 1 / 2. * math_ops.matmul(u, math_ops.matmul(term3_nouv, v1, adjoint_b=True))
        if use_adjoint:
            grad_a = matrix_transpose(grad_a, conjugate=True)
        grad_a.set_shape(a_shape)
        return [grad_a]
