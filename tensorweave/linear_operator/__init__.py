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

from .block_diag import LinearOperatorBlockDiag  # noqa: F401,E402
from .circulant import LinearOperatorCirculant, LinearOperatorCirculant2D, LinearOperatorCirculant3D  # noqa: F401,E402
from .kronecker import LinearOperatorKronecker  # noqa: F401,E402
from .low_rank_update import LinearOperatorLowRankUpdate  # noqa: F401,E402
from .structured import (LinearOperatorHouseholder, LinearOperatorPermutation,  # noqa: F401,E402
                         LinearOperatorToeplitz, LinearOperatorTridiag)
from .tridiag_ops import eigh_tridiagonal, tridiagonal_matmul, tridiagonal_solve  # noqa: F401,E402

__all__ += ["LinearOperatorBlockDiag", "LinearOperatorCirculant", "LinearOperatorCirculant2D",
            "LinearOperatorCirculant3D", "LinearOperatorKronecker", "LinearOperatorLowRankUpdate",
            "LinearOperatorHouseholder", "LinearOperatorPermutation", "LinearOperatorToeplitz",
            "LinearOperatorTridiag", "eigh_tridiagonal", "tridiagonal_matmul", "tridiagonal_solve"]
