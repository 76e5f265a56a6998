"""tf.linalg.lu (the Lu op: packed L\\U factors and the row permutation p with input[p] = L U),
and the composites lu_reconstruct, lu_solve and lu_matrix_inverse built on it (so their
gradients with respect to the factors and the right-hand side flow through existing ops)."""

from ..framework import dtypes
from ..framework import registry
from ..framework.op_util import apply_op
from ..framework.tensor_shape import unknown_shape
from ._util import convert, tf

__all__ = ["lu", "lu_reconstruct", "lu_solve", "lu_matrix_inverse"]


def _lu_shape(op):
    s = op.inputs[0].shape
    if s.ndims is None:
        return [unknown_shape(), unknown_shape()]
    if s.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {s.ndims} for '{{{{node {op.name}}}}} = "
                         f"Lu[T=DT_{op.inputs[0].dtype.name.upper()}, output_idx_type=DT_INT32](input)' "
                         f"with input shapes: {s}.")
    s[-1].assert_is_compatible_with(s[-2])
    n = s[-1] if s[-1].value is not None else s[-2]
    return [s[:-2].concatenate([n, n]), s[:-2].concatenate([n])]


registry.register_op("Lu", shape_fn=_lu_shape)


def lu(input, output_idx_type=dtypes.int32, name=None):  # noqa: A002 - TF's argument name
    """(lu, p): the LU decomposition with partial pivoting of each innermost square matrix; lu holds
    L (unit diagonal, below) and U (on and above the diagonal), and input[..., p, :] = L @ U."""
    x = convert(input, name="input")
    idx = dtypes.as_dtype(output_idx_type)
    return apply_op("Lu", [x], [x.dtype.base_dtype, idx], name or "Lu",
                    attrs={"T": x.dtype.base_dtype, "output_idx_type": idx})


def _lower_upper(lower_upper):
    lower = tf.linalg.set_diag(tf.linalg.band_part(lower_upper, -1, 0),
                               tf.ones(tf.shape(lower_upper)[:-1], dtype=lower_upper.dtype))
    return lower, tf.linalg.band_part(lower_upper, 0, -1)


def _batch_dims(perm):
    return perm.shape.ndims - 1 if perm.shape.ndims is not None else 0


def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix whose LU decomposition is (lower_upper, perm): P^-1 L U."""
    with tf.name_scope(name or "lu_reconstruct"):
        lower_upper = convert(lower_upper, name="lower_upper")
        perm = convert(perm, name="perm")
        lower, upper = _lower_upper(lower_upper)
        x = tf.matmul(lower, upper)
        return tf.gather(x, tf.math.invert_permutation(perm) if perm.shape.ndims == 1 else
                         tf.argsort(perm, axis=-1), batch_dims=_batch_dims(perm))


def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """X with A X = rhs, A given by its LU decomposition (lower_upper, perm)."""
    with tf.name_scope(name or "lu_solve"):
        lower_upper = convert(lower_upper, name="lower_upper")
        perm = convert(perm, name="perm")
        rhs = convert(rhs, name="rhs", dtype=lower_upper.dtype)
        if rhs.shape.ndims is not None and perm.shape.ndims is not None \
                and rhs.shape.ndims - 1 > perm.shape.ndims:
            raise NotImplementedError("lu_solve with rhs batch dimensions beyond the factor's is not "
                                      "supported by tensorweave yet")
        permuted = tf.gather(rhs, perm, batch_dims=_batch_dims(perm))
        lower, upper = _lower_upper(lower_upper)
        y = tf.linalg.triangular_solve(lower, permuted, lower=True)
        return tf.linalg.triangular_solve(upper, y, lower=False)


def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """The inverse of the matrix with LU decomposition (lower_upper, perm)."""
    with tf.name_scope(name or "lu_matrix_inverse"):
        lower_upper = convert(lower_upper, name="lower_upper")
        perm = convert(perm, name="perm")
        shape = tf.shape(lower_upper)
        eye = tf.eye(shape[-1], batch_shape=shape[:-2], dtype=lower_upper.dtype)
        return lu_solve(lower_upper, perm, rhs=eye)


