"""LinearOperatorAdjoint and LinearOperatorInversion: A^H and A^-1 of another operator, computed
through that operator's own (structure-aware) methods."""

from ._util import adjoint as _adjoint
from ._util import tf
from .base import LinearOperator

__all__ = ["LinearOperatorAdjoint", "LinearOperatorInversion"]


def _combine_hint(operator, attr, provided, message):
    op_hint = getattr(operator, attr)
    if op_hint is False and provided:
        raise ValueError(message)
    if op_hint and provided is False:
        raise ValueError(message)
    return op_hint if op_hint or op_hint is False else provided


def _inherited_hints(operator, what, is_square, is_non_singular, is_self_adjoint, is_positive_definite):
    """The four hints of the adjoint or inverse of `operator`: each the operator's own, checked
    against the one given (TF's messages)."""
    return tuple(_combine_hint(operator, hint, given,
                               f"An operator is {word} if and only if its {what} is {word}.")
                 for hint, given, word in (("is_square", is_square, "square"),
                                           ("is_non_singular", is_non_singular, "non-singular"),
                                           ("is_self_adjoint", is_self_adjoint, "self-adjoint"),
                                           ("is_positive_definite", is_positive_definite,
                                            "positive-definite")))


class LinearOperatorAdjoint(LinearOperator):
    """The adjoint (conjugate transpose) A^H of `operator`."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._operator = operator
        is_square, is_non_singular, is_self_adjoint, is_positive_definite = _inherited_hints(
            operator, "adjoint", is_square, is_non_singular, is_self_adjoint, is_positive_definite)
        name = operator.name + "_adjoint" if name is None else name
        with tf.name_scope(name):
            super().__init__(dtype=operator.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=is_square, parameters=parameters, name=name)

    @property
    def operator(self):
        """The operator this is the adjoint of."""
        return self._operator

    def _linop_adjoint(self):
        return self.operator

    def _shape(self):
        s = self.operator.shape
        return s[:-2].concatenate([s[-1], s[-2]])

    def _shape_tensor(self):
        s = self.operator.shape_tensor()
        return tf.concat([s[:-2], [s[-1], s[-2]]], axis=-1)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator.matmul(x, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _matvec(self, x, adjoint=False):
        return self.operator.matvec(x, adjoint=not adjoint)

    def _conj(self, x):
        return tf.conj(x) if x.dtype.is_complex and not self.is_self_adjoint else x

    def _determinant(self):
        return self._conj(self.operator.determinant())

    def _log_abs_determinant(self):
        return self.operator.log_abs_determinant()

    def _trace(self):
        return self._conj(self.operator.trace())

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator.solve(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _solvevec(self, rhs, adjoint=False):
        return self.operator.solvevec(rhs, adjoint=not adjoint)

    def _to_dense(self):
        if self.is_self_adjoint:
            return self.operator.to_dense()
        return _adjoint(self.operator.to_dense())

    def _eigvals(self):
        e = self.operator.eigvals()
        return tf.conj(e) if e.dtype.is_complex and not self.operator.is_self_adjoint else e

    def _cond(self):
        return self.operator.cond()


class LinearOperatorInversion(LinearOperator):
    """The inverse A^-1 of a square, non-singular `operator`: matmul is operator.solve."""

    def __init__(self, operator, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operator=operator, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        self._operator = operator
        if operator.is_non_singular is False or is_non_singular is False:
            raise ValueError(f"Argument `is_non_singular` or argument `operator` must have supplied hint "
                             f"`is_non_singular` equal to `True` or `None`. Found `operator.is_non_singular`: "
                             f"{operator.is_non_singular}, `is_non_singular`: {is_non_singular}.")
        if operator.is_square is False or is_square is False:
            raise ValueError(f"Argument `is_square` or argument `operator` must have supplied hint `is_square` "
                             f"equal to `True` or `None`. Found `operator.is_square`: {operator.is_square}, "
                             f"`is_square`: {is_square}.")
        is_square, is_non_singular, is_self_adjoint, is_positive_definite = _inherited_hints(
            operator, "inverse", is_square, is_non_singular, is_self_adjoint, is_positive_definite)
        name = operator.name + "_inv" if name is None else name
        with tf.name_scope(name):
            super().__init__(dtype=operator.dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=is_square, parameters=parameters, name=name)

    @property
    def operator(self):
        """The operator this is the inverse of."""
        return self._operator

    def _linop_inverse(self):
        return self.operator

    def _linop_solve(self, left, right):
        return left.operator.matmul(right)

    def _shape(self):
        return self.operator.shape

    def _shape_tensor(self):
        return self.operator.shape_tensor()

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self.operator.solve(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        return 1.0 / self.operator.determinant()

    def _log_abs_determinant(self):
        return -1.0 * self.operator.log_abs_determinant()

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self.operator.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _eigvals(self):
        return 1.0 / self.operator.eigvals()

    def _cond(self):
        return self.operator.cond()
