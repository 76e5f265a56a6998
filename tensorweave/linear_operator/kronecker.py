"""LinearOperatorKronecker: op1 x op2 x ... x opJ, applied factor by factor without forming the
product (matmul and solve reshape the argument so each factor acts on its own axis)."""

from ..framework.tensor_shape import TensorShape, dimension_value
from ._util import tf
from .base import LinearOperator

__all__ = ["LinearOperatorKronecker"]


def _static_or_dynamic_shape(x):
    if x.shape.is_fully_defined():
        return x.shape.as_list()
    return tf.shape(x)


def _concat_shape(head, tail):
    if isinstance(head, list) and all(isinstance(t, int) for t in tail):
        return head + list(tail)
    return tf.concat([head, tf.stack(list(tail))], axis=0)


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product of [op1, ..., opJ]: shape [B, prod M_j, prod N_j]."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        operators = list(operators)
        if not operators:
            raise ValueError(f"Argument `operators` must be a list of >=1 operators. Received: {operators}.")
        self._operators = operators
        dtype = operators[0].dtype
        for op in operators:
            if op.dtype != dtype:
                raise TypeError("Expected every operation in argument `operators` to have the same dtype. "
                                "Received {}.".format([str((o.name, o.dtype)) for o in operators]))
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError(f"The Kronecker product of non-singular operators is always non-singular. "
                                 f"Expected argument `is_non_singular` to be True. Received: {is_non_singular}.")
            is_non_singular = True
        if all(op.is_self_adjoint for op in operators):
            if is_self_adjoint is False:
                raise ValueError(f"The Kronecker product of self-adjoint operators is always self-adjoint. "
                                 f"Expected argument `is_self_adjoint` to be True. Received: {is_self_adjoint}.")
            is_self_adjoint = True
        if all(op.is_positive_definite for op in operators):
            if is_positive_definite is False:
                raise ValueError(f"The Kronecker product of positive-definite operators is always "
                                 f"positive-definite. Expected argument `is_positive_definite` to be True. "
                                 f"Received: {is_positive_definite}.")
            is_positive_definite = True
        if name is None:
            name = "_x_".join(op.name for op in operators)
        with tf.name_scope(name):
            super().__init__(dtype=dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def operators(self):
        """The factors, leftmost first."""
        return self._operators

    def _shape(self):
        dom = self.operators[0].domain_dimension
        rng = self.operators[0].range_dimension
        batch = self.operators[0].batch_shape
        for op in self.operators[1:]:
            dom = dom * op.domain_dimension
            rng = rng * op.range_dimension
            batch = tf.broadcast_static_shape(batch, op.batch_shape)
        return batch.concatenate(TensorShape([rng, dom]))

    def _shape_tensor(self):
        dom = self.operators[0].domain_dimension_tensor()
        rng = self.operators[0].range_dimension_tensor()
        batch = self.operators[0].batch_shape_tensor()
        for op in self.operators[1:]:
            dom = dom * op.domain_dimension_tensor()
            rng = rng * op.range_dimension_tensor()
            batch = tf.broadcast_dynamic_shape(batch, op.batch_shape_tensor())
        return tf.concat((batch, [rng, dom]), 0)

    def _linop_adjoint(self):
        return LinearOperatorKronecker([op.adjoint() for op in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorKronecker([op.cholesky() for op in self.operators], is_non_singular=True,
                                       is_self_adjoint=None, is_square=True)

    def _linop_inverse(self):
        return LinearOperatorKronecker([op.inverse() for op in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _apply(self, x, fn, adjoint, adjoint_arg):
        """fn(op, y) for each factor, last first: y holds x^T with the current factor's axis last,
        so (A (x) B) vec-ordered x becomes a chain of small products."""
        conj = self.dtype.is_complex
        if adjoint_arg:
            out = tf.conj(x) if conj else x
        else:
            out = tf.linalg.matrix_transpose(x)
        for op in reversed(self.operators):
            dim = dimension_value(op.range_dimension if adjoint else op.domain_dimension)
            if dim is None:
                dim = op.range_dimension_tensor() if adjoint else op.domain_dimension_tensor()
            shape = _static_or_dynamic_shape(out)
            if isinstance(shape, list) and isinstance(dim, int):
                rows = shape[-2] * shape[-1] // dim
            else:
                rows = tf.cast(tf.shape(out)[-2] * tf.shape(out)[-1] // dim, tf.int32)
            out = tf.reshape(out, _concat_shape(shape[:-2], [rows, dim]))
            if conj:
                out = tf.conj(out)
            out = fn(op, out)    # [..., dim', rows]: the next factor's axis is now last after reshape
        cols = dimension_value(x.shape[-2] if adjoint_arg else x.shape[-1])
        if cols is None:
            cols = tf.shape(x)[-2 if adjoint_arg else -1]
        rows = dimension_value(self.domain_dimension if adjoint else self.range_dimension)
        if rows is None:
            rows = self.domain_dimension_tensor() if adjoint else self.range_dimension_tensor()
        shape = _static_or_dynamic_shape(out)
        out = tf.reshape(out, _concat_shape(shape[:-2], [rows, cols]))
        if x.shape.is_fully_defined() and self.batch_shape.is_fully_defined():
            batch = tf.broadcast_static_shape(x.shape[:-2], self.batch_shape)
            dims = [self.domain_dimension if adjoint else self.range_dimension,
                    x.shape[-2] if adjoint_arg else x.shape[-1]]
            out.set_shape(batch.concatenate(dims))
        return out

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        return self._apply(x, lambda op, y: op.matmul(y, adjoint=adjoint, adjoint_arg=True),
                           adjoint, adjoint_arg)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._apply(rhs, lambda op, y: op.solve(y, adjoint=adjoint, adjoint_arg=True),
                           adjoint, adjoint_arg)

    def _determinant(self):
        total = self.domain_dimension_tensor()
        det = 1.
        for op in self.operators:
            det = det * op.determinant() ** tf.cast(total / op.domain_dimension_tensor(), dtype=op.dtype)
        return det

    def _log_abs_determinant(self):
        total = self.domain_dimension_tensor()
        result = 0.
        for op in self.operators:
            result += op.log_abs_determinant() * tf.cast(total / op.domain_dimension_tensor(), dtype=op.dtype)
        return result

    def _trace(self):
        result = 1.
        for op in self.operators:
            result = result * op.trace()
        return result

    def _outer_flat(self, a, b):
        """[..., p] and [..., q] -> [..., p * q] with a's index outermost."""
        prod = a[..., :, None] * b[..., None, :]
        return tf.reshape(prod, tf.concat([tf.shape(prod)[:-2], [-1]], axis=0))

    def _diag_part(self):
        diag = self.operators[0].diag_part()
        for op in self.operators[1:]:
            diag = self._outer_flat(diag, op.diag_part())
        rng, dom = self.range_dimension, self.domain_dimension
        diag.set_shape(self.batch_shape.concatenate(dom if rng.value is not None and dom.value is not None
                                                    and rng.value > dom.value else rng))
        return diag

    def _to_dense(self):
        product = self.operators[0].to_dense()
        for op in self.operators[1:]:
            product = product[..., :, None, :, None] * op.to_dense()[..., None, :, None, :]
            shape = _static_or_dynamic_shape(product)
            if isinstance(shape, list):
                new = shape[:-4] + [shape[-4] * shape[-3], shape[-2] * shape[-1]]
            else:
                new = tf.concat([shape[:-4], [shape[-4] * shape[-3], shape[-2] * shape[-1]]], axis=0)
            product = tf.reshape(product, new)
        product.set_shape(self.shape)
        return product

    def _eigvals(self):
        vals = self.operators[0].eigvals()
        for op in self.operators[1:]:
            vals = self._outer_flat(vals, op.eigvals())
        vals.set_shape(self.shape[:-1])
        return vals

    def _assert_non_singular(self):
        if all(op.is_square for op in self.operators):
            return tf.group([op.assert_non_singular() for op in self.operators])
        raise tf.errors.InvalidArgumentError(
            None, None, "All Kronecker factors must be square for the product to be invertible. Expected "
            "hint `is_square` to be True for every operator in argument `operators`.")
