"""LinearOperatorIdentity, LinearOperatorScaledIdentity and LinearOperatorZeros: operators
described by their size alone (and a multiplier), never materialized for matmul or solve."""

import numpy as np

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from . import _hints
from ._util import adjoint as _adjoint
from ._util import convert, tf
from .base import LinearOperator

__all__ = ["LinearOperatorIdentity", "LinearOperatorScaledIdentity", "LinearOperatorZeros"]


def _size_arg(value, what, name):
    """The int32 tensor for num_rows/num_columns and its static value, checked as TF does."""
    t = convert(value, name=name, dtype=None if not isinstance(value, (list, tuple)) or value else tf.int32)
    if not t.dtype.is_integer:
        raise TypeError("Argument %s must be integer type.  Found: %s" % (what, t))
    static = tf.get_static_value(t)
    if static is not None:
        static = np.asarray(static)
        if static.ndim != 0:
            raise ValueError("Argument %s must be a 0-D Tensor.  Found: %s" % (what, static))
        if static < 0:
            raise ValueError("Argument %s must be non-negative.  Found: %s" % (what, static))
        static = int(static)
    return t, static


def _batch_arg(batch_shape):
    if batch_shape is None:
        return None, None
    t = convert(list(batch_shape) if isinstance(batch_shape, TensorShape) else batch_shape,
                name="batch_shape_arg", dtype=tf.int32 if isinstance(batch_shape, (list, tuple, TensorShape))
                and not len(batch_shape) else None)
    if not t.dtype.is_integer:
        raise TypeError("Argument batch_shape must be integer type.  Found: %s" % t)
    static = tf.get_static_value(t)
    if static is not None:
        static = np.asarray(static)
        if static.ndim != 1:
            raise ValueError("Argument batch_shape must be a 1-D Tensor.  Found: %s" % static)
        if np.any(static < 0):
            raise ValueError("Argument batch_shape must be non-negative.  Found:%s" % static)
        static = [int(d) for d in static]
    return t, static


class _SizedOperator(LinearOperator):
    """Shared by Identity and Zeros: an optional batch_shape argument broadcast into results."""

    _batch_shape_arg = None
    _batch_shape_static = None

    def _possibly_broadcast_batch_shape(self, x):
        if self._batch_shape_arg is None:
            return x
        special = self.batch_shape.concatenate([1, 1])
        if special.is_fully_defined():
            if tf.broadcast_static_shape(x.shape, special) == x.shape:
                return x
            return x + tf.zeros(special.as_list(), dtype=self.dtype)
        return x + tf.zeros(tf.concat((self.batch_shape_tensor(), [1, 1]), 0), dtype=self.dtype)

    def _batch_ones(self):
        shape = self.batch_shape.as_list() if self.batch_shape.is_fully_defined() else self.batch_shape_tensor()
        return tf.ones(shape, dtype=self.dtype)

    def _min_dim(self):
        d, r = self.domain_dimension.value, self.range_dimension.value
        return None if d is None or r is None else min(d, r)

    def _diag_shape(self):
        if self.shape.is_fully_defined():
            return self.batch_shape.concatenate([self._min_dim()]).as_list()
        return tf.concat([self.batch_shape_tensor(), [tf.reduce_min(self.shape_tensor()[-2:])]], axis=0)


class LinearOperatorIdentity(_SizedOperator):
    """The [batch] identity matrix of size num_rows (float32 unless `dtype` says otherwise)."""

    _is_identity = True

    def __init__(self, num_rows, batch_shape=None, dtype=None, is_non_singular=True, is_self_adjoint=True,
                 is_positive_definite=True, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorIdentity"):
        parameters = dict(num_rows=num_rows, batch_shape=batch_shape, dtype=dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        with tf.name_scope(name):
            if not is_self_adjoint:
                raise ValueError("An identity operator is always self adjoint.")
            if not is_non_singular:
                raise ValueError("An identity operator is always non-singular.")
            if not is_positive_definite:
                raise ValueError("An identity operator is always positive-definite.")
            if not is_square:
                raise ValueError("An identity operator is always square.")
            super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)
            self._num_rows, self._num_rows_static = _size_arg(num_rows, "num_rows", "num_rows")
            self._batch_shape_arg, self._batch_shape_static = _batch_arg(batch_shape)

    def _shape(self):
        m = TensorShape((self._num_rows_static, self._num_rows_static))
        if self._batch_shape_arg is None:
            return m
        return TensorShape(self._batch_shape_static).concatenate(m)

    def _shape_tensor(self):
        m = tf.stack((self._num_rows, self._num_rows), axis=0)
        return m if self._batch_shape_arg is None else tf.concat((self._batch_shape_arg, m), 0)

    def _linop_adjoint(self):
        return self

    def _linop_inverse(self):
        return self

    def _linop_cholesky(self):
        return LinearOperatorIdentity(num_rows=self._num_rows, batch_shape=self._batch_shape_arg,
                                      dtype=self.dtype)

    def _linop_matmul(self, left, right):
        return right

    def _linop_solve(self, left, right):
        return right

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint(x) if adjoint_arg else x
        return self._possibly_broadcast_batch_shape(x)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return tf.ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _log_abs_determinant(self):
        return tf.zeros(self.batch_shape_tensor(), dtype=self.dtype)

    def _trace(self):
        n = self._min_dim()
        n = n if n is not None else tf.cast(tf.reduce_min(self.shape_tensor()[-2:]), self.dtype)
        return n * self._batch_ones()

    def _diag_part(self):
        return tf.ones(self._diag_shape(), dtype=self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """mat + I."""
        with self._name_scope(name):
            mat = convert(mat, name="mat")
            return tf.linalg.set_diag(mat, 1 + tf.linalg.diag_part(mat))

    def _eigvals(self):
        return tf.ones(self._diag_shape(), dtype=self.dtype)

    def _cond(self):
        return tf.ones(self.batch_shape_tensor(), dtype=self.dtype)

    def _assert_non_singular(self):
        return tf.no_op("assert_non_singular")

    def _assert_positive_definite(self):
        return tf.no_op("assert_positive_definite")


class LinearOperatorScaledIdentity(_SizedOperator):
    """multiplier * I for a [batch] of scalars `multiplier`."""

    _is_identity = True

    def __init__(self, num_rows, multiplier, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorScaledIdentity"):
        parameters = dict(num_rows=num_rows, multiplier=multiplier, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, assert_proper_shapes=assert_proper_shapes, name=name)
        with tf.name_scope(name, values=[multiplier, num_rows]):
            self._multiplier = convert(multiplier, name="multiplier")
            if not self._multiplier.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError("A real diagonal operator is always self adjoint.")
                is_self_adjoint = True
            if not is_square:
                raise ValueError("A ScaledIdentity operator is always square.")
            super().__init__(dtype=self._multiplier.dtype.base_dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=is_square, parameters=parameters, name=name)
            self._num_rows, self._num_rows_static = _size_arg(num_rows, "num_rows", "num_rows")
            self._num_rows_cast_to_dtype = tf.cast(self._num_rows, self.dtype)
            self._num_rows_cast_to_real_dtype = tf.cast(self._num_rows, self.dtype.real_dtype)

    @property
    def multiplier(self):
        """The [batch] scalar multiplier."""
        return self._multiplier

    def _shape(self):
        return self._multiplier.shape.concatenate(TensorShape((self._num_rows_static, self._num_rows_static)))

    def _shape_tensor(self):
        return tf.concat((tf.shape(self._multiplier), tf.stack((self._num_rows, self._num_rows), axis=0)), 0)

    def _mult_matrix(self, conjugate=False):
        m = tf.expand_dims(tf.expand_dims(self._multiplier, -1), -1)
        return tf.conj(m) if conjugate and self.dtype.is_complex else m

    def _commuting(self, left, right):
        sa = True if (left.is_self_adjoint and right.is_self_adjoint) else None
        pd = True if (left.is_positive_definite and left.is_self_adjoint and right.is_positive_definite
                      and right.is_self_adjoint) else None
        return dict(is_non_singular=_hints.non_singular(left, right), is_self_adjoint=sa,
                    is_positive_definite=pd, is_square=True)

    def _linop_matmul(self, left, right):
        from .basic import LinearOperatorDiag
        if isinstance(right, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(num_rows=left.domain_dimension_tensor(),
                                                multiplier=left.multiplier * right.multiplier,
                                                **self._commuting(left, right))
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(right.diag * left.multiplier, **self._commuting(left, right))
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        from .basic import LinearOperatorDiag
        if isinstance(right, LinearOperatorScaledIdentity):
            return LinearOperatorScaledIdentity(num_rows=left.domain_dimension_tensor(),
                                                multiplier=right.multiplier / left.multiplier,
                                                **self._commuting(left, right))
        if isinstance(right, LinearOperatorDiag):
            return LinearOperatorDiag(right.diag / left.multiplier, **self._commuting(left, right))
        return super()._linop_solve(left, right)

    def _linop_adjoint(self):
        m = tf.conj(self.multiplier) if self.dtype.is_complex else self.multiplier
        return LinearOperatorScaledIdentity(num_rows=self._num_rows, multiplier=m,
                                            is_non_singular=self.is_non_singular,
                                            is_self_adjoint=self.is_self_adjoint,
                                            is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorScaledIdentity(num_rows=self._num_rows, multiplier=tf.sqrt(self.multiplier),
                                            is_non_singular=True, is_self_adjoint=True,
                                            is_positive_definite=True, is_square=True)

    def _linop_inverse(self):
        return LinearOperatorScaledIdentity(num_rows=self._num_rows, multiplier=1.0 / self.multiplier,
                                            is_non_singular=self.is_non_singular, is_self_adjoint=True,
                                            is_positive_definite=self.is_positive_definite, is_square=True)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint(x) if adjoint_arg else x
        return x * self._mult_matrix(conjugate=adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        return rhs / self._mult_matrix(conjugate=adjoint)

    def _determinant(self):
        return self.multiplier ** self._num_rows_cast_to_dtype

    def _log_abs_determinant(self):
        return self._num_rows_cast_to_real_dtype * tf.log(tf.abs(self.multiplier))

    def _trace(self):
        n = self._min_dim()
        n = n if n is not None else tf.cast(tf.reduce_min(self.shape_tensor()[-2:]), self.dtype)
        return self.multiplier * n * self._batch_ones()

    def _diag_part(self):
        return tf.ones(self._diag_shape(), dtype=self.dtype) * self.multiplier[..., tf.newaxis]

    _eigvals = _diag_part

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """mat + multiplier * I."""
        with self._name_scope(name):
            m = tf.expand_dims(self.multiplier, -1)
            mat = convert(mat, name="mat")
            return tf.linalg.set_diag(mat, m + tf.linalg.diag_part(mat))

    def _cond(self):
        return tf.where(tf.equal(self._multiplier, 0.0), tf.cast(np.nan, dtype=self.dtype),
                        tf.cast(1.0, dtype=self.dtype))

    def _assert_non_singular(self):
        return tf.debugging.assert_positive(tf.abs(self.multiplier), message="LinearOperator was singular")

    def _assert_positive_definite(self):
        return tf.debugging.assert_positive(tf.real(self.multiplier),
                                            message="LinearOperator was not positive definite.")


class LinearOperatorZeros(_SizedOperator):
    """The [batch] zero matrix of shape [num_rows, num_columns]."""

    _is_zeros = True

    def __init__(self, num_rows, num_columns=None, batch_shape=None, dtype=None, is_non_singular=False,
                 is_self_adjoint=True, is_positive_definite=False, is_square=True, assert_proper_shapes=False,
                 name="LinearOperatorZeros"):
        parameters = dict(num_rows=num_rows, num_columns=num_columns, batch_shape=batch_shape, dtype=dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square,
                          assert_proper_shapes=assert_proper_shapes, name=name)
        dtype = dtypes.as_dtype(dtype or dtypes.float32)
        with tf.name_scope(name):
            if not is_self_adjoint and is_square:
                raise ValueError("A zero operator is always self adjoint.")
            if is_non_singular:
                raise ValueError("A zero operator is always singular.")
            if is_positive_definite:
                raise ValueError("A zero operator is always not positive-definite.")
            super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)
            self._num_rows, self._num_rows_static = _size_arg(num_rows, "num_rows", "num_rows")
            self._num_columns, self._num_columns_static = _size_arg(
                num_rows if num_columns is None else num_columns, "num_columns", "num_columns")
            if self._num_rows_static is not None and self._num_columns_static is not None and is_square \
                    and self._num_rows_static != self._num_columns_static:
                raise ValueError("LinearOperatorZeros initialized as is_square=True, but got num_rows({}) != "
                                 "num_columns({})".format(self._num_rows_static, self._num_columns_static))
            self._batch_shape_arg, self._batch_shape_static = _batch_arg(batch_shape)

    def _shape(self):
        m = TensorShape((self._num_rows_static, self._num_columns_static))
        if self._batch_shape_arg is None:
            return m
        return TensorShape(self._batch_shape_static).concatenate(m)

    def _shape_tensor(self):
        m = tf.stack((self._num_rows, self._num_columns), axis=0)
        return m if self._batch_shape_arg is None else tf.concat((self._batch_shape_arg, m), 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        xs = tf.shape(x)
        if self.is_square:
            out = tf.concat([xs[:-2], [xs[-1], xs[-2]]], axis=0) if adjoint_arg else xs
        else:
            n = self._num_columns if adjoint else self._num_rows
            m = xs[-2] if adjoint_arg else xs[-1]
            out = tf.concat([xs[:-2], [n, m]], axis=0)
        return self._possibly_broadcast_batch_shape(tf.zeros(out, dtype=x.dtype))

    def _linop_matmul(self, left, right):
        if not left.is_square or not right.is_square:
            raise ValueError("Matmul with non-square `LinearOperator`s or non-square `LinearOperatorZeros` "
                             "not supported at this time.")
        return left

    def _zero_batch(self):
        shape = self.batch_shape.as_list() if self.batch_shape.is_fully_defined() else self.batch_shape_tensor()
        return tf.zeros(shape, dtype=self.dtype)

    def _determinant(self):
        return self._zero_batch()

    def _trace(self):
        return self._zero_batch()

    def _diag_part(self):
        return tf.zeros(self._diag_shape(), dtype=self.dtype)

    def add_to_tensor(self, mat, name="add_to_tensor"):
        """mat (broadcast to the batch shape)."""
        return self._possibly_broadcast_batch_shape(mat)

    def _assert_non_singular(self):
        from ..framework import errors
        raise errors.InvalidArgumentError(None, None, "Zero operators are always non-invertible.")

    def _assert_positive_definite(self):
        from ..framework import errors
        raise errors.InvalidArgumentError(None, None, "Zero operators are always non-positive definite.")
