"""LinearOperatorBlockDiag: the direct sum diag(op1, ..., opJ); matmul and solve split the argument
into the blocks' row ranges and let each block act on its own part."""

from ..framework.tensor_shape import TensorShape, dimension_value
from . import _hints
from ._util import broadcast_batch, convert, tf
from .base import LinearOperator, fold_operators, same_dtype_operators

__all__ = ["LinearOperatorBlockDiag"]


def _is_blockwise(dims, x, axis):
    """True when x is a list of per-block arguments rather than one tensor (TF's rule: a list
    whose length is the number of blocks and whose items are not all scalars/rows of numbers)."""
    if not isinstance(x, (list, tuple)) or len(x) != len(dims):
        return False
    if any(isinstance(b, LinearOperator) or hasattr(b, "dtype") for b in x):
        return True
    try:
        import numpy as np
        arr = np.asarray(x)
        return arr.dtype == object
    except ValueError:
        return True


def _split(dims, dims_fn, x, axis):
    if all(dimension_value(d) is not None for d in dims):
        return tf.split(x, [dimension_value(d) for d in dims], axis=axis)
    return tf.split(x, tf.stack(dims_fn()), axis=axis)


def _broadcast_all(tensors):
    """Broadcasts the batch dimensions of a list of [batch] matrices against each other."""
    tensors = list(tensors)
    if len(tensors) < 2:
        return tensors
    first = tensors[0]
    for t in tensors[1:]:
        first, _ = broadcast_batch(first, t)
    return [broadcast_batch(t, first)[0] for t in tensors]


class LinearOperatorBlockDiag(LinearOperator):
    """A block-diagonal operator with the given (square, by default) operators on its diagonal."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        parameters = dict(operators=operators, is_non_singular=is_non_singular,
                          is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                          is_square=is_square, name=name)
        operators = same_dtype_operators(operators)
        self._operators = operators
        if all(op.is_non_singular for op in operators):
            if is_non_singular is False:
                raise ValueError("The direct sum of non-singular operators is always non-singular.")
            is_non_singular = True
        if all(op.is_self_adjoint for op in operators):
            if is_self_adjoint is False:
                raise ValueError("The direct sum of self-adjoint operators is always self-adjoint.")
            is_self_adjoint = True
        if all(op.is_positive_definite for op in operators):
            if is_positive_definite is False:
                raise ValueError("The direct sum of positive definite operators is always positive definite.")
            is_positive_definite = True
        if name is None:
            name = "_ds_".join(op.name for op in operators)
        with tf.name_scope(name):
            super().__init__(dtype=operators[0].dtype, is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             parameters=parameters, name=name)

    @property
    def operators(self):
        """The diagonal blocks, top left first."""
        return self._operators

    def _range_dims(self):
        return [op.range_dimension for op in self.operators]

    def _domain_dims(self):
        return [op.domain_dimension for op in self.operators]

    def _shape(self):
        batch = self.operators[0].batch_shape
        for op in self.operators[1:]:
            batch = tf.broadcast_static_shape(batch, op.batch_shape)
        return batch.concatenate(TensorShape([sum(self._range_dims()), sum(self._domain_dims())]))

    def _shape_tensor(self):
        dom = tf.add_n([op.domain_dimension_tensor() for op in self.operators])
        rng = tf.add_n([op.range_dimension_tensor() for op in self.operators])
        zeros = tf.zeros(self.operators[0].batch_shape_tensor())
        for op in self.operators[1:]:
            zeros += tf.zeros(op.batch_shape_tensor())
        return tf.concat((tf.shape(zeros), tf.stack([rng, dom])), 0)

    def _linop_adjoint(self):
        return LinearOperatorBlockDiag([op.adjoint() for op in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_cholesky(self):
        return LinearOperatorBlockDiag([op.cholesky() for op in self.operators], is_non_singular=True,
                                       is_self_adjoint=None, is_square=True)

    def _linop_inverse(self):
        return LinearOperatorBlockDiag([op.inverse() for op in self.operators],
                                       is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite, is_square=True)

    def _blockwise_linop(self, left, right, method, what):
        if len(left.operators) != len(right.operators):
            raise ValueError("Can not efficiently %s when number of blocks differ." % what)
        for o1, o2 in zip(left.operators, right.operators):
            if o2.range_dimension.value is not None and o1.domain_dimension.value is not None \
                    and o2.range_dimension != o1.domain_dimension:
                raise ValueError("Blocks are incompatible. Expected `x` to have dimension {} but got {}."
                                 .format(o1.domain_dimension, o2.range_dimension))
        return LinearOperatorBlockDiag([getattr(o1, method)(o2) for o1, o2 in zip(left.operators, right.operators)],
                                       is_non_singular=_hints.non_singular(left, right), is_self_adjoint=None,
                                       is_positive_definite=None, is_square=True)

    def _linop_matmul(self, left, right):
        if isinstance(right, LinearOperatorBlockDiag):
            return self._blockwise_linop(left, right, "matmul",
                                         "multiply two `LinearOperatorBlockDiag`s together")
        return super()._linop_matmul(left, right)

    def _linop_solve(self, left, right):
        if isinstance(right, LinearOperatorBlockDiag):
            return self._blockwise_linop(left, right, "solve", "solve `LinearOperatorBlockDiag`")
        return super()._linop_solve(left, right)

    # -- matmul / solve, accepting a list of per-block arguments too ---------------------------

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """A @ x; x may also be a list with one [batch] matrix per block (the result is then a list)."""
        arg_dim = -1 if adjoint_arg else -2
        dims = self._range_dims() if adjoint else self._domain_dims()
        if not isinstance(x, LinearOperator) and _is_blockwise(dims, x, arg_dim):
            with self._name_scope(name):
                blocks = self._convert_blocks(x, dims, arg_dim)
                return [op.matmul(b, adjoint=adjoint, adjoint_arg=adjoint_arg)
                        for op, b in zip(self.operators, blocks)]
        return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg, name=name)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """X with A X = rhs; rhs may also be a list with one [batch] matrix per block."""
        arg_dim = -1 if adjoint_arg else -2
        dims = self._domain_dims() if adjoint else self._range_dims()
        if not isinstance(rhs, LinearOperator) and _is_blockwise(dims, rhs, arg_dim):
            if self.is_non_singular is False:
                raise NotImplementedError("Exact solve not implemented for an operator that is expected to "
                                          "be singular.")
            with self._name_scope(name):
                blocks = self._convert_blocks(rhs, dims, arg_dim)
                return [op.solve(b, adjoint=adjoint, adjoint_arg=adjoint_arg)
                        for op, b in zip(self.operators, blocks)]
        return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg, name=name)

    def _convert_blocks(self, x, dims, arg_dim):
        out = []
        for d, b in zip(dims, x):
            b = convert(b)
            self._check_input_dtype(b)
            d.assert_is_compatible_with(b.shape[arg_dim])
            out.append(b)
        return out

    def _apply(self, x, adjoint, adjoint_arg, method, dims, dims_fn):
        split_x = _split(dims, dims_fn, x, axis=-1 if adjoint_arg else -2)
        parts = [getattr(op, method)(b, adjoint=adjoint, adjoint_arg=adjoint_arg)
                 for op, b in zip(self.operators, split_x)]
        return tf.concat(_broadcast_all(parts), axis=-2)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        dims = self._range_dims() if adjoint else self._domain_dims()
        fn = (lambda: [o.range_dimension_tensor() for o in self.operators]) if adjoint else \
            (lambda: [o.domain_dimension_tensor() for o in self.operators])
        return self._apply(x, adjoint, adjoint_arg, "matmul", dims, fn)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        dims = self._domain_dims() if adjoint else self._range_dims()
        fn = (lambda: [o.domain_dimension_tensor() for o in self.operators]) if adjoint else \
            (lambda: [o.range_dimension_tensor() for o in self.operators])
        return self._apply(rhs, adjoint, adjoint_arg, "solve", dims, fn)

    def _determinant(self):
        return fold_operators(self.operators, "determinant", lambda a, b: a * b)

    def _log_abs_determinant(self):
        return fold_operators(self.operators, "log_abs_determinant", lambda a, b: a + b)

    def _trace(self):
        return fold_operators(self.operators, "trace", lambda a, b: a + b)

    def _diag_part(self):
        if not all(op.is_square for op in self.operators):
            return super()._diag_part()
        parts = [op.diag_part() for op in self.operators]
        parts = [p[..., None] for p in parts]
        return tf.concat([p[..., 0] for p in _broadcast_all(parts)], axis=-1)

    def _to_dense(self):
        rows = []
        num_cols = [dimension_value(d) for d in self._domain_dims()]
        if any(c is None for c in num_cols):
            return super()._to_dense()
        for i, op in enumerate(self.operators):
            block = op.to_dense()
            left, right = sum(num_cols[:i]), sum(num_cols[i + 1:])
            rank = block.shape.ndims
            if rank is None:
                return super()._to_dense()
            pad = [[0, 0]] * (rank - 1) + [[left, right]]
            rows.append(tf.pad(block, pad))
        dense = tf.concat(_broadcast_all(rows), axis=-2)
        dense.set_shape(self.shape)
        return dense

    def _eigvals(self):
        return tf.concat([op.eigvals() for op in self.operators], axis=-1)

    def _assert_non_singular(self):
        return tf.group([op.assert_non_singular() for op in self.operators])

    def _assert_positive_definite(self):
        return tf.group([op.assert_positive_definite() for op in self.operators])
