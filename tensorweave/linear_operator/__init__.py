"""tf.linalg.LinearOperator and its structured subclasses (see base.py for the contract)."""

from .base import LinearOperator  # noqa: F401
from .basic import LinearOperatorDiag, LinearOperatorFullMatrix, LinearOperatorLowerTriangular  # noqa: F401
from .composition import LinearOperatorComposition  # noqa: F401
from .identity import LinearOperatorIdentity, LinearOperatorScaledIdentity, LinearOperatorZeros  # noqa: F401
from .wrappers import LinearOperatorAdjoint, LinearOperatorInversion  # noqa: F401

__all__ = ["LinearOperator", "LinearOperatorAdjoint", "LinearOperatorComposition", "LinearOperatorDiag",
           "LinearOperatorFullMatrix", "LinearOperatorIdentity", "LinearOperatorInversion",
           "LinearOperatorLowerTriangular", "LinearOperatorScaledIdentity", "LinearOperatorZeros"]

from .lu_ops import lu, lu_matrix_inverse, lu_reconstruct, lu_solve  # noqa: F401,E402

__all__ += ["lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve"]
