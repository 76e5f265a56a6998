"""tf.linalg.LinearOperator: the abstract base of the structured linear operators.

A subclass describes a [batch] matrix A of shape [B1, ..., Bb, M, N] without (necessarily)
materializing it; it implements `_shape`, `_shape_tensor` and `_matmul` and may override the
structure-aware `_solve`, `_determinant`, `_log_abs_determinant`, `_diag_part`, `_to_dense`, ...
The public methods open the name scope "<operator name>/<method>" (uniquified like any scope) and
check dtypes and static dimensions as TF does; the defaults fall back on the dense matrix.
"""

import contextlib

from ..framework import dtypes
from ..framework.tensor_shape import Dimension, dimension_value
from ._util import adjoint as _adjoint
from ._util import convert, matrix_solve_with_broadcast, tf

__all__ = ["LinearOperator"]


class LinearOperator:
    """Base class for a [batch] linear operator A: R^N -> R^M acting like a [..., M, N] matrix.

    The `is_*` hints are promises made by the user (positive definite implies non-singular,
    which implies square; self-adjoint implies square); contradicting hints raise ValueError.
    """

    def __init__(self, dtype, graph_parents=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name=None, parameters=None):
        if is_positive_definite:
            if is_non_singular is False:
                raise ValueError("A positive definite matrix is always non-singular.")
            is_non_singular = True
        if is_non_singular:
            if is_square is False:
                raise ValueError("A non-singular matrix is always square.")
            is_square = True
        if is_self_adjoint:
            if is_square is False:
                raise ValueError("A self-adjoint matrix is always square.")
            is_square = True
        self._is_square_set_or_implied_by_hints = is_square
        self._graph_parents = list(graph_parents or [])
        self._dtype = dtypes.as_dtype(dtype).base_dtype if dtype else dtype
        self._is_non_singular = is_non_singular
        self._is_self_adjoint = is_self_adjoint
        self._is_positive_definite = is_positive_definite
        self._parameters = dict(parameters or {})
        self._name = name or type(self).__name__

    @contextlib.contextmanager
    def _name_scope(self, name=None):
        full_name = self.name if name is None else self.name + "/" + name
        with tf.name_scope(full_name) as scope:
            yield scope

    # -- properties ----------------------------------------------------------------------------

    @property
    def parameters(self):
        """The parameters this operator was built from (a dict)."""
        return dict(self._parameters)

    @property
    def dtype(self):
        """The DType of the tensors this operator acts on."""
        return self._dtype

    @property
    def name(self):
        """The name given to this operator (its class name by default)."""
        return self._name

    @property
    def graph_parents(self):
        """Deprecated: the tensors this operator was built from, as TF keeps them (usually [])."""
        return self._graph_parents

    @property
    def is_non_singular(self):
        return self._is_non_singular

    @property
    def is_self_adjoint(self):
        return self._is_self_adjoint

    @property
    def is_positive_definite(self):
        return self._is_positive_definite

    @property
    def is_square(self):
        """True when the operator is (hinted or statically known to be) square."""
        auto = self.domain_dimension == self.range_dimension
        if self._is_square_set_or_implied_by_hints is False and auto:
            raise ValueError("User set is_square hint to False, but the operator was square.")
        if self._is_square_set_or_implied_by_hints is None:
            return auto
        return self._is_square_set_or_implied_by_hints

    # -- shapes --------------------------------------------------------------------------------

    def _shape(self):
        raise NotImplementedError("_shape is not implemented.")

    def _shape_tensor(self):
        raise NotImplementedError("_shape_tensor is not implemented.")

    @property
    def shape(self):
        """The static TensorShape [B1, ..., Bb, M, N]."""
        return self._shape()

    def shape_tensor(self, name="shape_tensor"):
        """The int32 shape [B1, ..., Bb, M, N] as a tensor."""
        with self._name_scope(name):
            if self.shape.is_fully_defined():
                return _shape_const(self.shape.as_list())
            return self._shape_tensor()

    @property
    def batch_shape(self):
        """The static TensorShape [B1, ..., Bb]."""
        return self.shape[:-2]

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        """The int32 batch shape [B1, ..., Bb] as a tensor."""
        with self._name_scope(name):
            return self._batch_shape_tensor()

    def _batch_shape_tensor(self, shape=None):
        if self.batch_shape.is_fully_defined():
            return _shape_const(self.batch_shape.as_list(), name="batch_shape")
        shape = self.shape_tensor() if shape is None else shape
        return shape[:-2]

    @property
    def tensor_rank(self):
        """The static rank b + 2 of the operator (None when unknown)."""
        return self.shape.ndims

    def tensor_rank_tensor(self, name="tensor_rank_tensor"):
        """The rank b + 2 as an int32 tensor."""
        with self._name_scope(name):
            if self.tensor_rank is not None:
                return convert(self.tensor_rank)
            return tf.size(self.shape_tensor())

    @property
    def domain_dimension(self):
        """N, the static Dimension of the domain."""
        if self.shape.rank is None:
            return Dimension(None)
        return self.shape.dims[-1]

    def domain_dimension_tensor(self, name="domain_dimension_tensor"):
        """N as an int32 tensor."""
        with self._name_scope(name):
            return self._domain_dimension_tensor()

    def _domain_dimension_tensor(self, shape=None):
        n = dimension_value(self.domain_dimension)
        if n is not None:
            return convert(n)
        shape = self.shape_tensor() if shape is None else shape
        return shape[-1]

    @property
    def range_dimension(self):
        """M, the static Dimension of the range."""
        if self.shape.dims:
            return self.shape.dims[-2]
        return Dimension(None)

    def range_dimension_tensor(self, name="range_dimension_tensor"):
        """M as an int32 tensor."""
        with self._name_scope(name):
            return self._range_dimension_tensor()

    def _range_dimension_tensor(self, shape=None):
        m = dimension_value(self.range_dimension)
        if m is not None:
            return convert(m)
        shape = self.shape_tensor() if shape is None else shape
        return shape[-2]

    # -- checks --------------------------------------------------------------------------------

    def _check_input_dtype(self, arg):
        if arg.dtype.base_dtype != self.dtype:
            raise TypeError("Expected argument to have dtype %s.  Found: %s in tensor %s"
                            % (self.dtype, arg.dtype, arg))

    def assert_non_singular(self, name="assert_non_singular"):
        """An op that fails at run time unless the operator is non-singular (|det| > 0 by
        the default check: the condition number is finite)."""
        with self._name_scope(name):
            return self._assert_non_singular()

    def _assert_non_singular(self):
        if self.is_square is False:
            raise NotImplementedError("assert_non_singular is not implemented for non-square operators.")
        cond = self._cond()
        return tf.debugging.assert_less(cond, tf.constant(1e30, dtype=cond.dtype),
                                        message="Singular matrix up to precision epsilon.")

    def assert_positive_definite(self, name="assert_positive_definite"):
        """An op that fails at run time unless the operator is positive definite (Cholesky)."""
        with self._name_scope(name):
            return self._assert_positive_definite()

    def _assert_positive_definite(self):
        if self.is_self_adjoint:
            return tf.debugging.assert_positive(tf.linalg.diag_part(tf.linalg.cholesky(self.to_dense())))
        raise NotImplementedError("assert_positive_definite is not implemented.")

    def assert_self_adjoint(self, name="assert_self_adjoint"):
        """An op that fails at run time unless the operator equals its adjoint."""
        with self._name_scope(name):
            dense = self.to_dense()
            return tf.debugging.assert_equal(dense, _adjoint(dense),
                                             message="Matrix was not equal to its adjoint.")

    # -- matmul / solve ------------------------------------------------------------------------

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        raise NotImplementedError("_matmul is not implemented.")

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        """A @ x (A^H @ x with adjoint, A @ x^H with adjoint_arg) for a [batch] matrix or a
        LinearOperator x (then a LinearOperator)."""
        if isinstance(x, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = x.adjoint() if adjoint_arg else x
            _check_operators_compatible(left, right, "x")
            with self._name_scope(name):
                return self._linop_matmul(left, right)
        with self._name_scope(name):
            x = convert(x, name="x")
            self._check_input_dtype(x)
            self_dim = -2 if adjoint else -1
            arg_dim = -1 if adjoint_arg else -2
            if self.shape.dims:
                self.shape.dims[self_dim].assert_is_compatible_with(x.shape[arg_dim])
            return self._matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_matmul(self, left, right):
        from . import _hints
        if getattr(right, "_is_identity", False) and not hasattr(right, "multiplier"):
            return left
        if getattr(right, "_is_zeros", False):
            if not right.is_square or not left.is_square:
                raise ValueError("Matmul with non-square `LinearOperator`s or non-square "
                                 "`LinearOperatorZeros` not supported at this time.")
            return right
        from .composition import LinearOperatorComposition
        return LinearOperatorComposition([left, right], **_hints.product_hints(left, right))

    def __matmul__(self, other):
        return self.matmul(other)

    def _matvec(self, x, adjoint=False):
        y = self.matmul(tf.expand_dims(x, axis=-1), adjoint=adjoint)
        return tf.squeeze(y, axis=-1)

    def matvec(self, x, adjoint=False, name="matvec"):
        """A @ x (A^H @ x with adjoint) for a [batch] vector x of shape [..., N]."""
        with self._name_scope(name):
            x = convert(x, name="x")
            self._check_input_dtype(x)
            self_dim = -2 if adjoint else -1
            if self.shape.dims:
                self.shape.dims[self_dim].assert_is_compatible_with(x.shape[-1])
            return self._matvec(x, adjoint=adjoint)

    def _dense_solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self.is_square is False:
            raise NotImplementedError("Solve is not yet implemented for non-square operators.")
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        if self._can_use_cholesky():
            return tf.linalg.cholesky_solve(tf.linalg.cholesky(self.to_dense()), rhs)
        return matrix_solve_with_broadcast(self.to_dense(), rhs, adjoint=adjoint)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._dense_solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        """X with A @ X = rhs (A^H with adjoint, rhs^H with adjoint_arg); a LinearOperator rhs
        gives the LinearOperator A^-1 @ rhs."""
        if self.is_non_singular is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected "
                                      "to be singular.")
        if self.is_square is False:
            raise NotImplementedError("Exact solve not implemented for an operator that is expected "
                                      "to not be square.")
        if isinstance(rhs, LinearOperator):
            left = self.adjoint() if adjoint else self
            right = rhs.adjoint() if adjoint_arg else rhs
            _check_operators_compatible(left, right, "rhs")
            with self._name_scope(name):
                return self._linop_solve(left, right)
        with self._name_scope(name):
            rhs = convert(rhs, name="rhs")
            self._check_input_dtype(rhs)
            self_dim = -1 if adjoint else -2
            arg_dim = -1 if adjoint_arg else -2
            if self.shape.dims:
                self.shape.dims[self_dim].assert_is_compatible_with(rhs.shape[arg_dim])
            return self._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _linop_solve(self, left, right):
        from . import _hints
        from .composition import LinearOperatorComposition
        from .wrappers import LinearOperatorInversion
        if getattr(right, "_is_identity", False) and not hasattr(right, "multiplier"):
            return left.inverse()
        return LinearOperatorComposition([LinearOperatorInversion(left), right],
                                         **_hints.product_hints(left, right))

    def _solvevec(self, rhs, adjoint=False):
        x = self.solve(tf.expand_dims(rhs, axis=-1), adjoint=adjoint)
        return tf.squeeze(x, axis=-1)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        """x with A @ x = rhs (A^H with adjoint) for a [batch] vector rhs of shape [..., M]."""
        with self._name_scope(name):
            rhs = convert(rhs, name="rhs")
            self._check_input_dtype(rhs)
            self_dim = -1 if adjoint else -2
            if self.shape.dims:
                self.shape.dims[self_dim].assert_is_compatible_with(rhs.shape[-1])
            return self._solvevec(rhs, adjoint=adjoint)

    # -- determinants --------------------------------------------------------------------------

    def _determinant(self):
        if self._can_use_cholesky():
            return tf.exp(self.log_abs_determinant())
        return tf.linalg.det(self.to_dense())

    def determinant(self, name="det"):
        """det(A) for each batch member."""
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected "
                                      "to not be square.")
        with self._name_scope(name):
            return self._determinant()

    def _log_abs_determinant(self):
        if self._can_use_cholesky():
            diag = tf.linalg.diag_part(tf.linalg.cholesky(self.to_dense()))
            return 2 * tf.reduce_sum(tf.log(diag), axis=[-1])
        _, log_abs_det = tf.linalg.slogdet(self.to_dense())
        return log_abs_det

    def log_abs_determinant(self, name="log_abs_det"):
        """log|det(A)| for each batch member."""
        if self.is_square is False:
            raise NotImplementedError("Determinant not implemented for an operator that is expected "
                                      "to not be square.")
        with self._name_scope(name):
            return self._log_abs_determinant()

    # -- derived operators ---------------------------------------------------------------------

    def adjoint(self, name="adjoint"):
        """The LinearOperator A^H (self when hinted self-adjoint)."""
        if self.is_self_adjoint is True:
            return self
        with self._name_scope(name):
            return self._linop_adjoint()

    H = property(adjoint, None)

    def _linop_adjoint(self):
        from .wrappers import LinearOperatorAdjoint
        return LinearOperatorAdjoint(self, is_non_singular=self.is_non_singular,
                                     is_self_adjoint=self.is_self_adjoint,
                                     is_positive_definite=self.is_positive_definite,
                                     is_square=self.is_square)

    def inverse(self, name="inverse"):
        """The LinearOperator A^-1."""
        if self.is_square is False:
            raise ValueError("Cannot take the Inverse: This operator represents a non square matrix.")
        if self.is_non_singular is False:
            raise ValueError("Cannot take the Inverse: This operator represents a singular matrix.")
        with self._name_scope(name):
            return self._linop_inverse()

    def _linop_inverse(self):
        from .wrappers import LinearOperatorInversion
        return LinearOperatorInversion(self, is_non_singular=self.is_non_singular,
                                       is_self_adjoint=self.is_self_adjoint,
                                       is_positive_definite=self.is_positive_definite,
                                       is_square=self.is_square)

    def cholesky(self, name="cholesky"):
        """The lower-triangular LinearOperator L with A = L L^H (A hinted self-adjoint positive
        definite)."""
        if not self._can_use_cholesky():
            raise ValueError("Cannot take the Cholesky decomposition: Not a positive definite self "
                             "adjoint matrix.")
        with self._name_scope(name):
            return self._linop_cholesky()

    def _linop_cholesky(self):
        from .basic import LinearOperatorLowerTriangular
        return LinearOperatorLowerTriangular(tf.linalg.cholesky(self.to_dense()), is_non_singular=True,
                                             is_self_adjoint=False, is_square=True)

    # -- dense views ---------------------------------------------------------------------------

    def _to_dense(self):
        if self.batch_shape.is_fully_defined():
            batch_shape = self.batch_shape.as_list()
        else:
            batch_shape = self.batch_shape_tensor()
        n = dimension_value(self.domain_dimension)
        if n is None:
            n = self.domain_dimension_tensor()
        eye = tf.eye(num_rows=n, batch_shape=batch_shape, dtype=self.dtype)
        return self.matmul(eye)

    def to_dense(self, name="to_dense"):
        """The dense [batch] matrix this operator represents."""
        with self._name_scope(name):
            return self._to_dense()

    def _diag_part(self):
        return tf.linalg.diag_part(self.to_dense())

    def diag_part(self, name="diag_part"):
        """The [batch] diagonal of A, shape [..., min(M, N)]."""
        with self._name_scope(name):
            return self._diag_part()

    def _trace(self):
        return tf.reduce_sum(self.diag_part(), axis=-1)

    def trace(self, name="trace"):
        """The sum of A's diagonal, per batch member."""
        with self._name_scope(name):
            return self._trace()

    def _add_to_tensor(self, x):
        return self.to_dense() + x

    def add_to_tensor(self, x, name="add_to_tensor"):
        """A + x for a tensor x broadcastable to the operator's shape."""
        with self._name_scope(name):
            x = convert(x, name="x")
            self._check_input_dtype(x)
            return self._add_to_tensor(x)

    def _eigvals(self):
        return tf.linalg.eigvalsh(self.to_dense())

    def eigvals(self, name="eigvals"):
        """The eigenvalues of a self-adjoint operator, ascending."""
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        with self._name_scope(name):
            return self._eigvals()

    def _cond(self):
        if not self.is_self_adjoint:
            vals = tf.linalg.svd(self.to_dense(), compute_uv=False)
        else:
            vals = tf.abs(self._eigvals())
        return tf.reduce_max(vals, axis=-1) / tf.reduce_min(vals, axis=-1)

    def cond(self, name="cond"):
        """The condition number (largest over smallest singular value)."""
        with self._name_scope(name):
            return self._cond()

    def _can_use_cholesky(self):
        return self.is_self_adjoint and self.is_positive_definite


def same_dtype_operators(operators):
    """The operators as a list, checked as TF's composite operators check them: not empty, one
    dtype (TF's messages)."""
    operators = list(operators)
    if not operators:
        raise ValueError("Expected a non-empty list of operators. Found: %s" % operators)
    dtype = operators[0].dtype
    if any(op.dtype != dtype for op in operators):
        raise TypeError("Expected all operators to have the same dtype.  Found %s"
                        % "   ".join(str((o.name, o.dtype)) for o in operators))
    return operators


def fold_operators(operators, method, combine):
    """combine(...combine(op0.method(), op1.method())...) over the operators, in order (the
    determinant of a product or direct sum is the product of theirs, and so on)."""
    result = getattr(operators[0], method)()
    for op in operators[1:]:
        result = combine(result, getattr(op, method)())
    return result


def _shape_const(shape, name=None):
    return tf.constant(shape, dtype=tf.int32, name=name or "Const")


def _check_operators_compatible(left, right, arg):
    if right.range_dimension is not None and left.domain_dimension is not None \
            and right.range_dimension.value is not None and left.domain_dimension.value is not None \
            and right.range_dimension != left.domain_dimension:
        raise ValueError("Operators are incompatible. Expected `{}` to have dimension {} but got {}."
                         .format(arg, left.domain_dimension, right.range_dimension))
