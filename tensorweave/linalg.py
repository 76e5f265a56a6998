"""The tf.linalg namespace (re-exports only)."""

from .ops.linalg_ops import adjoint, cholesky, eye, matrix_transpose, norm, qr, svd  # noqa: F401
from .ops.linalg_ops import log_matrix_determinant as slogdet  # noqa: F401
from .ops.linalg_ops import matrix_determinant as det  # noqa: F401
from .ops.linalg_ops import matrix_diag as diag  # noqa: F401
from .ops.linalg_ops import matrix_diag_part as diag_part  # noqa: F401
from .ops.linalg_ops import matrix_inverse as inv  # noqa: F401
from .ops.linalg_ops import matrix_set_diag as set_diag  # noqa: F401
from .ops.linalg_ops import matrix_solve as solve  # noqa: F401
from .ops.linalg_ops import matrix_triangular_solve as triangular_solve  # noqa: F401
from .ops.math_ops import einsum, matmul, tensordot, trace  # noqa: F401
from .ops.array_ops import matrix_band_part as band_part  # noqa: F401
from .ops.array_ops import diag as tensor_diag, diag_part as tensor_diag_part  # noqa: F401
from .ops.linalg_ops import matrix_transpose as transpose  # noqa: F401
from .ops.clip_ops import global_norm  # noqa: F401
from .ops.nn_ops import l2_normalize  # noqa: F401
from .ops.linalg_extra_ops import (cholesky_solve, eigh, eigvalsh, expm, logdet, lstsq, matvec,  # noqa: F401
                                   pinv, tridiagonal_solve)
from .ops.array_extra_ops import cross  # noqa: F401
from .ops.linalg_more_ops import logm, matrix_rank, normalize, sqrtm  # noqa: F401

__all__ = ["adjoint", "band_part", "cholesky", "det", "diag", "diag_part", "einsum", "eye", "inv", "matmul",
           "matrix_transpose", "norm", "qr", "set_diag", "slogdet", "solve", "svd", "tensordot", "trace",
           "triangular_solve", "tensor_diag", "tensor_diag_part", "transpose", "global_norm", "l2_normalize",
           "cholesky_solve", "eigh", "eigvalsh", "expm", "logdet", "lstsq", "matvec", "pinv", "tridiagonal_solve",
           "cross", "sqrtm", "logm", "matrix_rank", "normalize"]

from .linear_operator import *  # noqa: F401,F403,E402
from . import linear_operator as _linear_operator  # noqa: E402

__all__ += _linear_operator.__all__
