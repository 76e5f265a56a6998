"""LinearOperatorComposition: the product A1 @ A2 @ ... @ An, applied factor by factor."""

from ..framework.tensor_shape import TensorShape
from ._util import tf
from .base import LinearOperator, fold_operators, same_dtype_operators

__all__ = ["LinearOperatorComposition"]


def _is_adjoint_pair(x, y):
    from .wrappers import LinearOperatorAdjoint
    return (x is y and bool(x.is_self_adjoint)) or \
        (isinstance(x, LinearOperatorAdjoint) and x.operator is y) or \
        (isinstance(y, LinearOperatorAdjoint) and y.operator is x)


def is_aat_form(operators):
    """True for [A, A^H] or a palindrome-like chain of adjoint pairs around the middle."""
    operators = list(operators)
    if not operators:
        return False
    if len(operators) % 2:
        return False
    n = len(operators)
    return all(_is_adjoint_pair(operators[i], operators[n - 1 - i]) for i in range(n // 2))


class LinearOperatorComposition(LinearOperator):
    """The composition (product) of operators [A1, ..., An] acting like A1 @ ... @ An."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        operators = same_dtype_operators(operators)
        self._operators = operators
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError("The composition of non-singular operators is always non-singular.")
            is_non_singular = True
        if (len(operators) == 1 and operators[0].is_self_adjoint) or is_aat_form(operators):
            if is_self_adjoint is False:
                raise ValueError("The composition was determined to be self-adjoint but user provided "
                                 "incorrect `False` hint.")
            is_self_adjoint = True
        if is_aat_form(operators):
            if is_square is False:
                raise ValueError("The composition was determined have the form A @ A.H, hence it must be "
                                 "square. The user provided an incorrect `False` hint.")
            is_square = True
            if is_non_singular:
                if is_positive_definite is False:
                    raise ValueError("The composition was determined to be non-singular and have the form "
                                     "A @ A.H, hence it must be positive-definite. The user provided an "
                                     "incorrect `False` hint.")
                is_positive_definite = True
        if name is None:
            name = "_o_".join(op.name for op in operators)
        with tf.name_scope(name):
            super().__init__(dtype=operators[0].dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def operators(self):
        """The factors, leftmost first."""
        return self._operators

    def _shape(self):
        dom = self.operators[0].domain_dimension
        for op in self.operators[1:]:
            dom.assert_is_compatible_with(op.range_dimension)
            dom = op.domain_dimension
        batch = self.operators[0].batch_shape
        for op in self.operators[1:]:
            batch = tf.broadcast_static_shape(batch, op.batch_shape)
        return batch.concatenate(TensorShape([self.operators[0].range_dimension,
                                              self.operators[-1].domain_dimension]))

    def _shape_tensor(self):
        m = tf.stack([self.operators[0].range_dimension_tensor(), self.operators[-1].domain_dimension_tensor()])
        zeros = tf.zeros(self.operators[0].batch_shape_tensor())
        for op in self.operators[1:]:
            zeros += tf.zeros(op.batch_shape_tensor())
        return tf.concat((tf.shape(zeros), m), 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        order = self.operators if adjoint else list(reversed(self.operators))
        result = order[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            result = op.matmul(result, adjoint=adjoint)
        return result

    def _determinant(self):
        return fold_operators(self.operators, "determinant", lambda a, b: a * b)

    def _log_abs_determinant(self):
        return fold_operators(self.operators, "log_abs_determinant", lambda a, b: a + b)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        order = list(reversed(self.operators)) if adjoint else self.operators
        x = order[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in order[1:]:
            x = op.solve(x, adjoint=adjoint)
        return x
