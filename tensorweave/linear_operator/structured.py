"""LinearOperatorTridiag, LinearOperatorToeplitz, LinearOperatorPermutation and
LinearOperatorHouseholder: square operators described by a few vectors."""

import numpy as np

from ..framework import dtypes
from ..framework.tensor_shape import dimension_value
from ._util import adjoint as _adjoint
from ._util import convert, tf
from .base import LinearOperator
from .tridiag_ops import tridiagonal_matmul, tridiagonal_solve

__all__ = ["LinearOperatorTridiag", "LinearOperatorToeplitz", "LinearOperatorPermutation",
           "LinearOperatorHouseholder"]

_FORMATS = ("compact", "matrix", "sequence")


class LinearOperatorTridiag(LinearOperator):
    """A [batch] square tridiagonal matrix given in 'compact', 'matrix' or 'sequence' format
    (see tf.linalg.tridiagonal_solve); matmul and solve never form the dense matrix."""

    def __init__(self, diagonals, diagonals_format="compact", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorTridiag"):
        parameters = dict(diagonals=diagonals, diagonals_format=diagonals_format,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        with tf.name_scope(name, values=[diagonals]):
            if diagonals_format not in _FORMATS:
                raise ValueError(f"Argument `diagonals_format` must be one of compact, matrix, or sequence. "
                                 f"Received : {diagonals_format}.")
            if diagonals_format == "sequence":
                self._diagonals = [convert(d, name="diag_{}".format(i)) for i, d in enumerate(diagonals)]
                dtype = self._diagonals[0].dtype
            else:
                self._diagonals = convert(diagonals, name="diagonals")
                dtype = self._diagonals.dtype
            self._diagonals_format = diagonals_format
            super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def diagonals(self):
        """The diagonals as given (a tensor, or a list of three for 'sequence')."""
        return self._diagonals

    @property
    def diagonals_format(self):
        """'compact', 'matrix' or 'sequence'."""
        return self._diagonals_format

    def _shape(self):
        if self.diagonals_format == "matrix":
            return self.diagonals.shape
        if self.diagonals_format == "compact":
            d_shape = self.diagonals.shape[:-2].concatenate(self.diagonals.shape[-1:])
        else:
            b = tf.broadcast_static_shape(self.diagonals[0].shape[:-1], self.diagonals[1].shape[:-1])
            b = tf.broadcast_static_shape(b, self.diagonals[2].shape[:-1])
            d_shape = b.concatenate(self.diagonals[1].shape[-1:])
        return d_shape.concatenate(d_shape[-1:])

    def _shape_tensor(self, diagonals=None):
        diagonals = self.diagonals if diagonals is None else diagonals
        if self.diagonals_format == "matrix":
            return tf.shape(diagonals)
        if self.diagonals_format == "compact":
            d_shape = tf.shape(diagonals[..., 0, :])
        else:
            b = tf.broadcast_dynamic_shape(tf.shape(diagonals[0])[:-1], tf.shape(diagonals[1])[:-1])
            b = tf.broadcast_dynamic_shape(b, tf.shape(diagonals[2])[:-1])
            d_shape = tf.concat([b, [tf.shape(diagonals[1])[-1]]], axis=0)
        return tf.concat([d_shape, [d_shape[-1]]], axis=-1)

    def _adjoint_diagonals(self):
        """The diagonals of A^H in this operator's format."""
        d = self.diagonals
        if self.diagonals_format == "matrix":
            return _adjoint(d)
        conj = tf.conj if self.dtype.is_complex else (lambda t: t)
        if self.diagonals_format == "sequence":
            superdiag, diag, subdiag = [conj(t) for t in reversed(d)]
            return [tf.roll(superdiag, shift=-1, axis=-1), diag, tf.roll(subdiag, shift=1, axis=-1)]
        superdiag, diag, subdiag = tf.unstack(conj(d), num=3, axis=-2)
        return tf.stack([tf.roll(subdiag, shift=-1, axis=-1), diag, tf.roll(superdiag, shift=1, axis=-1)],
                        axis=-2)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        diagonals = self._adjoint_diagonals() if adjoint else self.diagonals
        x = _adjoint(x) if adjoint_arg else x
        return tridiagonal_matmul(diagonals, x, diagonals_format=self.diagonals_format)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        diagonals = self._adjoint_diagonals() if adjoint else self.diagonals
        rhs_shape = tf.shape(rhs)
        shape = self._shape_tensor(diagonals)
        k = shape[-1]
        batch = tf.broadcast_dynamic_shape(shape[:-2], rhs_shape[:-2])
        rhs = tf.broadcast_to(rhs, tf.concat([batch, rhs_shape[-2:]], axis=-1))
        if self.diagonals_format == "matrix":
            diagonals = tf.broadcast_to(diagonals, tf.concat([batch, [k, k]], axis=-1))
        elif self.diagonals_format == "compact":
            diagonals = tf.broadcast_to(diagonals, tf.concat([batch, [3, k]], axis=-1))
        else:
            diagonals = [tf.broadcast_to(d, tf.concat([batch, [k]], axis=-1)) for d in diagonals]
        return tridiagonal_solve(diagonals, rhs, diagonals_format=self.diagonals_format,
                                 transpose_rhs=adjoint_arg, conjugate_rhs=adjoint_arg)

    def _diag_part(self):
        if self.diagonals_format == "matrix":
            return tf.linalg.diag_part(self.diagonals)
        if self.diagonals_format == "sequence":
            return tf.broadcast_to(self.diagonals[1], self.shape_tensor()[:-1])
        return self.diagonals[..., 1, :]

    def _to_dense(self):
        if self.diagonals_format == "matrix":
            return self.diagonals
        d = self.diagonals if self.diagonals_format == "compact" else tf.stack(self.diagonals, axis=-2)
        return tf.linalg.diag(d, k=(-1, 1), num_rows=-1, num_cols=-1, align="LEFT_RIGHT", padding_value=0.)


class LinearOperatorToeplitz(LinearOperator):
    """A [batch] square Toeplitz matrix: first column `col`, first row `row` (row[0] is ignored;
    col[0] is the diagonal). matmul embeds it in a circulant of size 2N and uses FFTs."""

    def __init__(self, col, row, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorToeplitz"):
        parameters = dict(col=col, row=row, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        with tf.name_scope(name, values=[row, col]):
            self._row = convert(row, name="row")
            self._col = convert(col, name="col")
            self._check_row_col(self._row, self._col)
            if is_square is False:
                raise ValueError("Only square Toeplitz operators currently supported.")
            super().__init__(dtype=self._row.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=True, parameters=parameters, name=name)

    @staticmethod
    def _check_row_col(row, col):
        for name, t in (("row", row), ("col", col)):
            if t.shape.ndims is not None and t.shape.ndims < 1:
                raise ValueError("Argument {} must have at least 1 dimension.  Found: {}".format(name, t))
        if row.shape.ndims and col.shape.ndims and row.shape[-1].value is not None \
                and col.shape[-1].value is not None and row.shape[-1] != col.shape[-1]:
            raise ValueError("Expected square matrix, got row and col with mismatched dimensions.")

    @property
    def col(self):
        """The first column."""
        return self._col

    @property
    def row(self):
        """The first row (its first entry is ignored)."""
        return self._row

    def _shape(self):
        v = tf.broadcast_static_shape(self.row.shape, self.col.shape)
        return v.concatenate(v[-1:])

    def _shape_tensor(self):
        v = tf.broadcast_dynamic_shape(tf.shape(self.row), tf.shape(self.col))
        return tf.concat((v, [v[-1]]), 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        from .circulant import LinearOperatorCirculant, to_complex
        x = _adjoint(x) if adjoint_arg else x
        expanded_x = tf.concat([x, tf.zeros_like(x)], axis=-2)
        col, row = self.col, self.row
        # the first column of the 2N circulant whose top-left N x N block is this matrix
        circulant_col = tf.concat([col, tf.zeros_like(col[..., 0:1]), tf.reverse(row[..., 1:], axis=[-1])],
                                  axis=-1)
        circulant = LinearOperatorCirculant(tf.signal.fft(to_complex(circulant_col)),
                                            input_output_dtype=row.dtype)
        result = circulant.matmul(expanded_x, adjoint=adjoint, adjoint_arg=False)
        n = dimension_value(self.domain_dimension)
        n = self._domain_dimension_tensor(shape=self._shape_tensor()) if n is None else n
        return tf.cast(result[..., :n, :], self.dtype)

    def _trace(self):
        return tf.cast(self.domain_dimension_tensor(), dtype=self.dtype) * self.col[..., 0]

    def _diag_part(self):
        return self.col[..., 0:1] * tf.ones([self.domain_dimension_tensor()], self.dtype)

    def _to_dense(self):
        row, col = self.row, self.col
        total = tf.broadcast_dynamic_shape(tf.shape(row), tf.shape(col))
        n = tf.shape(row)[-1]
        row, col = tf.broadcast_to(row, total), tf.broadcast_to(col, total)
        elements = tf.concat([tf.reverse(col, axis=[-1]), row[..., 1:]], axis=-1)
        # entry (i, j) is col[i - j] for i >= j and row[j - i] otherwise
        indices = tf.mod(tf.range(0, n) + tf.range(n - 1, -1, -1)[..., None], 2 * n - 1)
        return tf.gather(elements, indices, axis=-1)


class LinearOperatorPermutation(LinearOperator):
    """The [batch] permutation matrix P with P @ x = x[perm] (rows gathered)."""

    def __init__(self, perm, dtype=dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        parameters = dict(perm=perm, dtype=dtype, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        with tf.name_scope(name, values=[perm]):
            self._perm = convert(perm, name="perm")
            self._check_perm(self._perm)
            if is_non_singular is False:
                raise ValueError(f"A Permutation operator is always non-singular. Expected argument "
                                 f"`is_non_singular` to be True. Received: {is_non_singular}.")
            if is_square is False:
                raise ValueError(f"A Permutation operator is always square. Expected argument `is_square` "
                                 f"to be True. Received: {is_square}.")
            super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=True,
                             parameters=parameters, name=name)

    @staticmethod
    def _check_perm(perm):
        if perm.shape.ndims is not None and perm.shape.ndims < 1:
            raise ValueError(f"Argument `perm` must have at least 1 dimension. Received: {perm}.")
        if not perm.dtype.is_integer:
            raise TypeError(f"Argument `perm` must be integer dtype. Received: {perm}.")
        static = tf.get_static_value(perm)
        if static is not None and np.any(np.sort(static, axis=-1) != np.arange(0, static.shape[-1])):
            raise ValueError(f"Argument `perm` must be a vector of unique integers from 0 to "
                             f"{static.shape[-1] - 1}.")

    @property
    def perm(self):
        """The permutation vector(s)."""
        return self._perm

    def _shape(self):
        return self._perm.shape.concatenate(self._perm.shape[-1:])

    def _shape_tensor(self):
        s = tf.shape(self._perm)
        return tf.concat((s, [s[-1]]), 0)

    def _domain_dimension_tensor(self, shape=None):
        return tf.shape(self.perm)[-1]

    def _assert_non_singular(self):
        return tf.no_op("assert_non_singular")

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        perm = self.perm
        if adjoint and not self.is_self_adjoint:
            perm = tf.argsort(perm, axis=-1)    # P^T = P^-1 gathers with the inverse permutation
        x = _adjoint(x) if adjoint_arg else x
        batch = tf.broadcast_dynamic_shape(tf.shape(x)[:-1], tf.shape(perm))
        k = tf.shape(x)[-1]
        x_shape = tf.concat([batch, [k]], axis=-1)
        x = tf.broadcast_to(x, x_shape)
        perm = tf.broadcast_to(perm, batch)
        m = tf.shape(x)[-2]
        y = tf.gather(tf.reshape(x, [-1, m, k]), tf.reshape(perm, [-1, m]), axis=-2, batch_dims=1)
        return tf.reshape(y, x_shape)

    def _determinant(self):
        # the sign of the permutation: (-1)^(n - number of cycles), from the dense matrix
        return tf.linalg.det(self.to_dense())

    def _log_abs_determinant(self):
        return tf.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        return tf.cast(tf.equal(tf.range(0, self._domain_dimension_tensor()), self.perm[..., None]), self.dtype)

    def _diag_part(self):
        return tf.cast(tf.equal(tf.range(0, self._domain_dimension_tensor()), self.perm), self.dtype)

    def _cond(self):
        return tf.ones(self.batch_shape_tensor(), dtype=self.dtype)


class LinearOperatorHouseholder(LinearOperator):
    """The [batch] Householder reflection I - 2 v v^H / |v|^2 about the hyperplane orthogonal to
    `reflection_axis` v: self-adjoint, its own inverse, determinant -1."""

    def __init__(self, reflection_axis, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorHouseholder"):
        parameters = dict(reflection_axis=reflection_axis, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        with tf.name_scope(name, values=[reflection_axis]):
            self._reflection_axis = convert(reflection_axis, name="reflection_axis")
            if self._reflection_axis.shape.ndims is not None and self._reflection_axis.shape.ndims < 1:
                raise ValueError("Argument reflection_axis must have at least 1 dimension.  Found: %s"
                                 % self._reflection_axis)
            if is_self_adjoint is False:
                raise ValueError("A Householder operator is always self adjoint.")
            if is_positive_definite is True:
                raise ValueError("A Householder operator is always non-positive definite.")
            if is_square is False:
                raise ValueError("A Householder operator is always square.")
            super().__init__(dtype=self._reflection_axis.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=True, is_positive_definite=False, is_square=True,
                             parameters=parameters, name=name)

    @property
    def reflection_axis(self):
        """The vector v normal to the reflecting hyperplane."""
        return self._reflection_axis

    def _shape(self):
        s = self._reflection_axis.shape
        return s.concatenate(s[-1:])

    def _shape_tensor(self):
        s = tf.shape(self._reflection_axis)
        return tf.concat((s, [s[-1]]), 0)

    def _assert_non_singular(self):
        return tf.no_op("assert_non_singular")

    def _assert_positive_definite(self):
        raise tf.errors.InvalidArgumentError(None, None, "Householder operators are always non-positive "
                                             "definite.")

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _unit_axis(self):
        return tf.nn.l2_normalize(self.reflection_axis, axis=-1)[..., None]

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint(x) if adjoint_arg else x
        mat = self._unit_axis()
        return x - 2 * mat * tf.matmul(mat, x, adjoint_a=True)

    def _trace(self):
        shape = self.shape_tensor()
        return tf.cast(self._domain_dimension_tensor(shape=shape) - 2, self.dtype) * \
            tf.ones(shape=self._batch_shape_tensor(shape=shape), dtype=self.dtype)

    def _determinant(self):
        return -tf.ones(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return tf.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint, adjoint_arg)

    def _to_dense(self):
        mat = self._unit_axis()
        matrix = -2 * tf.matmul(mat, mat, adjoint_b=True)
        return tf.linalg.set_diag(matrix, 1. + tf.linalg.diag_part(matrix))

    def _diag_part(self):
        v = tf.nn.l2_normalize(self.reflection_axis, axis=-1)
        return 1. - 2 * v * (tf.conj(v) if self.dtype.is_complex else v)

    def _eigvals(self):
        s = tf.shape(self.reflection_axis)
        ones = tf.ones(shape=tf.concat([s[:-1], [s[-1] - 1]], axis=-1), dtype=self.dtype)
        return tf.concat([-tf.ones(shape=tf.concat([s[:-1], [1]], axis=-1), dtype=self.dtype), ones], axis=-1)

    def _cond(self):
        return tf.ones(self.batch_shape_tensor(), dtype=self.dtype)
