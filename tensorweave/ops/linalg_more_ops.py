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
