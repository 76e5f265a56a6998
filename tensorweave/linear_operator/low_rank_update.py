"""LinearOperatorLowRankUpdate: A = L + U D V^H for a base operator L, [..., M, K] factors U and V
and a K x K diagonal D; solve and the determinant use the matrix inversion / determinant lemmas
with the K x K "capacitance" C = D^-1 + V^H L^-1 U."""

import logging

from ._util import adjoint as _adjoint
from ._util import convert, matrix_solve_with_broadcast, tf
from .base import LinearOperator

__all__ = ["LinearOperatorLowRankUpdate"]


class LinearOperatorLowRankUpdate(LinearOperator):
    """L + U D V^H (V = U when v is None, D = I when diag_update is None)."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        parameters = dict(base_operator=base_operator, u=u, diag_update=diag_update, v=v,
                          is_diag_update_positive=is_diag_update_positive, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        dtype = base_operator.dtype
        if diag_update is not None and is_diag_update_positive and dtype.is_complex:
            logging.warning("Note: setting is_diag_update_positive with a complex dtype means that "
                            "diagonal is real and positive.")
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError("Default diagonal is the identity, which is positive.  However, user set "
                                 "'is_diag_update_positive' to False.")
            is_diag_update_positive = True
        # L + U D U^H with L self-adjoint positive definite and D > 0 is positive definite
        self._use_cholesky = bool(base_operator.is_positive_definite and base_operator.is_self_adjoint
                                  and is_diag_update_positive and v is None)
        if base_operator.is_self_adjoint and v is None and not dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  Since UDU^H is "
                                 "self-adjoint, this must be a self-adjoint operator.")
            is_self_adjoint = True
        if self._use_cholesky:
            if is_positive_definite is False or is_self_adjoint is False or is_non_singular is False:
                raise ValueError("Arguments imply this is self-adjoint positive-definite operator.")
            is_positive_definite = True
            is_self_adjoint = True
        with tf.name_scope(name):
            self._u = convert(u, name="u")
            self._v = self._u if v is None else convert(v, name="v")
            self._diag_update = None if diag_update is None else convert(diag_update, name="diag_update")
            self._base_operator = base_operator
            super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)
            self._set_diag_operator(is_diag_update_positive)
            self._is_diag_update_positive = is_diag_update_positive
            self._check_shapes()

    def _check_shapes(self):
        uv = tf.broadcast_static_shape(self.u.shape, self.v.shape)
        batch = tf.broadcast_static_shape(self.base_operator.batch_shape, uv[:-2])
        self.base_operator.domain_dimension.assert_is_compatible_with(uv[-2])
        if self._diag_update is not None:
            uv[-1].assert_is_compatible_with(self._diag_update.shape[-1])
            tf.broadcast_static_shape(batch, self._diag_update.shape[:-1])

    def _set_diag_operator(self, is_diag_update_positive):
        from .basic import LinearOperatorDiag
        from .identity import LinearOperatorIdentity
        if self._diag_update is not None:
            self._diag_operator = LinearOperatorDiag(self._diag_update,
                                                     is_positive_definite=is_diag_update_positive)
        else:
            r = self.u.shape[-1].value
            r = tf.shape(self.u)[-1] if r is None else r
            self._diag_operator = LinearOperatorIdentity(num_rows=r, dtype=self.dtype)

    @property
    def u(self):
        """The [batch] M x K factor U."""
        return self._u

    @property
    def v(self):
        """The [batch] N x K factor V (U itself when not given)."""
        return self._v

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    @property
    def diag_update(self):
        """The [batch] K diagonal of D, or None for the identity."""
        return self._diag_update

    @property
    def diag_operator(self):
        """D as a LinearOperator (Diag or Identity)."""
        return self._diag_operator

    @property
    def base_operator(self):
        """L."""
        return self._base_operator

    def _shape(self):
        batch = tf.broadcast_static_shape(self.base_operator.batch_shape, self.diag_operator.batch_shape)
        batch = tf.broadcast_static_shape(batch, self.u.shape[:-2])
        batch = tf.broadcast_static_shape(batch, self.v.shape[:-2])
        return batch.concatenate(self.base_operator.shape[-2:])

    def _shape_tensor(self):
        batch = tf.broadcast_dynamic_shape(self.base_operator.batch_shape_tensor(),
                                           self.diag_operator.batch_shape_tensor())
        batch = tf.broadcast_dynamic_shape(batch, tf.shape(self.u)[:-2])
        batch = tf.broadcast_dynamic_shape(batch, tf.shape(self.v)[:-2])
        return tf.concat([batch, self.base_operator.shape_tensor()[-2:]], axis=0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        u, v = self.u, self.v
        leading = self.base_operator.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        if adjoint:    # A^H x = L^H x + V D^H U^H x
            u, v = v, u
        vh_x = tf.matmul(v, x, adjoint_a=True, adjoint_b=adjoint_arg)
        d_vh_x = self.diag_operator.matmul(vh_x, adjoint=adjoint)
        return leading + tf.matmul(u, d_vh_x)

    def _make_capacitance(self, u, v, adjoint=False):
        """D^-1 + V^H L^-1 U (D^-H + U^H L^-H V for the adjoint, called with u, v swapped)."""
        linv_u = self.base_operator.solve(u, adjoint=adjoint)
        vh_linv_u = tf.matmul(v, linv_u, adjoint_a=True)
        d_inv = self.diag_operator.inverse()
        if adjoint:
            d_inv = d_inv.adjoint()
        return d_inv.add_to_tensor(vh_linv_u)

    def _determinant(self):
        if self.is_positive_definite:
            return tf.exp(self.log_abs_determinant())
        det_c = tf.linalg.det(self._make_capacitance(self.u, self.v))
        return det_c * self.diag_operator.determinant() * self.base_operator.determinant()

    def _log_abs_determinant(self):
        log_d = self.diag_operator.log_abs_determinant()
        log_l = self.base_operator.log_abs_determinant()
        cap = self._make_capacitance(self.u, self.v)
        if self._use_cholesky:
            chol_diag = tf.linalg.diag_part(tf.linalg.cholesky(cap))
            log_c = 2 * tf.reduce_sum(tf.log(chol_diag), axis=[-1])
        else:
            log_c = tf.log(tf.abs(tf.linalg.det(cap)))
            if self.dtype.is_complex:
                log_c = tf.cast(log_c, dtype=self.dtype)
        return log_c + log_d + log_l

    def _diag_part(self):
        product = self.u * tf.conj(self.v) if self.dtype.is_complex else self.u * self.v
        if self.diag_update is not None:
            product *= tf.expand_dims(self.diag_update, axis=-2)
        return tf.reduce_sum(product, axis=-1) + self.base_operator.diag_part()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self.base_operator.is_non_singular is False:
            raise ValueError("Solve not implemented unless this is a perturbation of a non-singular "
                             "LinearOperator.")
        # Woodbury: A^-1 = L^-1 - L^-1 U C^-1 V^H L^-1 (A^H: swap U and V, adjoint L and D)
        u, v = (self.v, self.u) if adjoint else (self.u, self.v)
        base = self.base_operator
        cap = self._make_capacitance(u, v, adjoint=adjoint)
        linv_rhs = base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_linv_rhs = tf.matmul(v, linv_rhs, adjoint_a=True)
        if self._use_cholesky:
            cap_inv = tf.linalg.cholesky_solve(tf.linalg.cholesky(cap), vh_linv_rhs)
        else:
            cap_inv = matrix_solve_with_broadcast(cap, vh_linv_rhs)
        return linv_rhs - base.solve(tf.matmul(u, cap_inv), adjoint=adjoint)

    def _to_dense(self):
        d = self.diag_operator.matmul(_adjoint(self.v))
        return self.base_operator.to_dense() + tf.matmul(self.u, d)
