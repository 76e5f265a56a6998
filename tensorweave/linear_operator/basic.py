"""LinearOperatorFullMatrix, LinearOperatorDiag and LinearOperatorLowerTriangular: operators that
hold their matrix (or its diagonal) as one tensor."""

from ..framework import dtypes
from . import _hints
from ._util import adjoint as _adjoint
from ._util import convert, tf
from .base import LinearOperator

__all__ = ["LinearOperatorFullMatrix", "LinearOperatorDiag", "LinearOperatorLowerTriangular"]

_FLOATS = [dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128]


class LinearOperatorFullMatrix(LinearOperator):
    """A [batch] matrix held densely: matmul is MatMul, solve a (broadcasting) MatrixSolve or a
    Cholesky solve when hinted self-adjoint positive definite."""

    def __init__(self, matrix, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorFullMatrix"):
        parameters = dict(matrix=matrix, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        with tf.name_scope(name, values=[matrix]):
            self._matrix = convert(matrix, name="matrix")
            if self._matrix.dtype not in _FLOATS:
                raise TypeError(f"Argument `matrix` must have dtype in {_FLOATS}. "
                                f"Received: {self._matrix.dtype}.")
            if self._matrix.shape.ndims is not None and self._matrix.shape.ndims < 2:
                raise ValueError(f"Argument `matrix` must have at least 2 dimensions. "
                                 f"Received: {self._matrix}.")
            super().__init__(dtype=self._matrix.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=is_square, parameters=parameters, name=name)

    @property
    def matrix(self):
        """The dense [batch] matrix."""
        return self._matrix

    def _shape(self):
        return self._matrix.shape

    def _shape_tensor(self):
        return tf.shape(self._matrix)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return tf.matmul(self._matrix, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _to_dense(self):
        return self._matrix


class LinearOperatorDiag(LinearOperator):
    """A [batch] diagonal matrix given by its diagonal `diag` of shape [..., N]."""

    def __init__(self, diag, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorDiag"):
        parameters = dict(diag=diag, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        with tf.name_scope(name, values=[diag]):
            self._diag = convert(diag, name="diag")
            self._check_diag(self._diag)
            if not self._diag.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError("A real diagonal operator is always self adjoint.")
                is_self_adjoint = True
            if is_square is False:
                raise ValueError("Only square diagonal operators currently supported.")
            super().__init__(dtype=self._diag.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=True, parameters=parameters, name=name)

    def _check_diag(self, diag):
        if diag.shape.ndims is not None and diag.shape.ndims < 1:
            raise ValueError("Argument diag must have at least 1 dimension.  Found: %s" % diag)

    @property
    def diag(self):
        """The [batch] diagonal."""
        return self._diag

    def _shape(self):
        return self._diag.shape.concatenate(self._diag.shape[-1:])

    def _shape_tensor(self):
        s = tf.shape(self._diag)
        return tf.concat((s, [s[-1]]), 0)

    def _hints_with(self, left, right):
        sa = True if (left.is_self_adjoint and right.is_self_adjoint) else None
        pd = True if (left.is_positive_definite and left.is_self_adjoint and right.is_positive_definite
                      and right.is_self_adjoint) else None
        return dict(is_non_singular=_hints.non_singular(left, right), is_self_adjoint=sa,
                    is_positive_definite=pd, is_square=True)

    def _linop_matmul(self, left, right):
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(left.diag * right.diag, **self._hints_with(left, right))
        if getattr(right, "_is_identity", False) and hasattr(right, "multiplier"):
            return LinearOperatorDiag(left.diag * right.multiplier, **self._hints_with(left, right))
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(right.diag / left.diag, **self._hints_with(left, right))
        if getattr(right, "_is_identity", False) and hasattr(right, "multiplier"):
            return LinearOperatorDiag(right.multiplier / left.diag, **self._hints_with(left, right))
        return super()._linop_solve(left, right)

    def _linop_inverse(self):
        return LinearOperatorDiag(1.0 / self.diag, is_non_singular=self.is_non_singular,
                                  is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_adjoint(self):
        d = tf.conj(self.diag) if self.diag.dtype.is_complex else self.diag
        return LinearOperatorDiag(d, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                  is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorDiag(tf.sqrt(self.diag), is_non_singular=True, is_self_adjoint=True,
                                  is_positive_definite=True, is_square=True)

    def _assert_non_singular(self):
        return tf.debugging.assert_none_equal(
            tf.abs(self._diag), tf.zeros([], dtype=self._diag.dtype.real_dtype),
            message="Singular operator:  Diagonal contained zero values.")

    def _assert_positive_definite(self):
        msg = ("Diagonal operator had diagonal entries with non-positive real part, thus was not positive "
               "definite." if self.dtype.is_complex else
               "Real diagonal operator had non-positive diagonal entries, thus was not positive definite.")
        return tf.debugging.assert_positive(tf.real(self._diag), message=msg)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        d = tf.conj(self._diag) if adjoint and self.dtype.is_complex else self._diag
        x = _adjoint(x) if adjoint_arg else x
        return tf.expand_dims(d, -1) * x

    def _matvec(self, x, adjoint=False):
        d = tf.conj(self._diag) if adjoint and self.dtype.is_complex else self._diag
        return d * x

    def _determinant(self):
        return tf.reduce_prod(self._diag, axis=[-1])

    def _log_abs_determinant(self):
        log_det = tf.reduce_sum(tf.log(tf.abs(self._diag)), axis=[-1])
        return tf.cast(log_det, self.dtype) if self.dtype.is_complex else log_det

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        d = tf.conj(self._diag) if adjoint and self.dtype.is_complex else self._diag
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        return rhs * tf.expand_dims(1.0 / d, -1)

    def _to_dense(self):
        return tf.linalg.diag(self._diag)

    def _diag_part(self):
        return self.diag

    def _add_to_tensor(self, x):
        return tf.linalg.set_diag(x, self._diag + tf.linalg.diag_part(x))

    def _eigvals(self):
        return convert(self.diag)

    def _cond(self):
        a = tf.abs(self.diag)
        return tf.reduce_max(a, axis=-1) / tf.reduce_min(a, axis=-1)


class LinearOperatorLowerTriangular(LinearOperator):
    """A [batch] square lower-triangular matrix; only the lower triangle of `tril` is read."""

    def __init__(self, tril, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorLowerTriangular"):
        parameters = dict(tril=tril, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        if is_square is False:
            raise ValueError("Only square lower triangular operators supported at this time.")
        with tf.name_scope(name, values=[tril]):
            self._tril = convert(tril, name="tril")
            if self._tril.shape.ndims is not None and self._tril.shape.ndims < 2:
                raise ValueError("Argument tril must have at least 2 dimensions.  Found: %s" % self._tril)
            super().__init__(dtype=self._tril.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=True, parameters=parameters, name=name)

    @property
    def tril(self):
        """The tensor whose lower triangle is the matrix."""
        return self._tril

    def _get_tril(self):
        return tf.linalg.band_part(self._tril, -1, 0)

    def _get_diag(self):
        return tf.linalg.diag_part(self._tril)

    def _shape(self):
        return self._tril.shape

    def _shape_tensor(self):
        return tf.shape(self._tril)

    def _linop_matmul(self, left, right):
        if isinstance(right, LinearOperatorDiag):
            sa = True if (left.is_self_adjoint and right.is_self_adjoint) else None
            return LinearOperatorLowerTriangular(left.to_dense() * right.diag,
                                                 is_non_singular=_hints.non_singular(right, left),
                                                 is_self_adjoint=sa, is_positive_definite=None, is_square=True)
        return super()._linop_matmul(left, right)

    def _assert_non_singular(self):
        return tf.debugging.assert_none_equal(
            tf.abs(self._get_diag()), tf.zeros([], dtype=self.dtype.real_dtype),
            message="Singular operator:  Diagonal contained zero values.")

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return tf.matmul(self._get_tril(), x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    def _determinant(self):
        return tf.reduce_prod(self._get_diag(), axis=[-1])

    def _log_abs_determinant(self):
        return tf.reduce_sum(tf.log(tf.abs(self._get_diag())), axis=[-1])

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        return tf.linalg.triangular_solve(self._get_tril(), rhs, lower=True, adjoint=adjoint)

    def _to_dense(self):
        return self._get_tril()

    def _eigvals(self):
        return self._get_diag()
