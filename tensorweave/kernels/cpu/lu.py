"""CPU kernel for Lu: LU factorization with partial pivoting of each innermost square matrix."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from .linalg import no_half_kernel


def _lu_one(a):
    """(lu, perm) for one matrix: L (unit lower, below the diagonal) and U packed in lu, and
    perm with a[perm] = L @ U; the pivot is the largest |entry| in the column, as LAPACK."""
    n = a.shape[0]
    lu = a.copy()
    perm = np.arange(n)
    for k in range(n):
        piv = k + int(np.argmax(np.abs(lu[k:, k])))
        if lu[piv, k] == 0:
            raise errors.InvalidArgumentError(None, None, "Input is not invertible.")
        if piv != k:
            lu[[k, piv]] = lu[[piv, k]]
            perm[[k, piv]] = perm[[piv, k]]
        lu[k + 1:, k] /= lu[k, k]
        lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, perm


@register_kernel("Lu")
@no_half_kernel("T", "output_idx_type")
def _lu(op, ctx):
    idx = op._get_attr("output_idx_type").as_numpy_dtype

    def lu(a):
        wide = a.astype(np.float32) if a.dtype == np.float16 else a
        flat = wide.reshape((-1,) + a.shape[-2:])
        outs = [_lu_one(m) for m in flat]
        packed = np.stack([o[0] for o in outs]) if outs else flat.copy()
        perm = np.stack([o[1] for o in outs]) if outs else np.zeros(flat.shape[:-1], np.int64)
        return (packed.reshape(a.shape).astype(a.dtype, copy=False),
                perm.reshape(a.shape[:-1]).astype(idx))
    return lu
