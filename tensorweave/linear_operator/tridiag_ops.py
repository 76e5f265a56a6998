"""tf.linalg.tridiagonal_matmul, tridiagonal_solve (all three diagonals formats) and
eigh_tridiagonal, as composites of existing ops so gradients flow.

The three formats of a [..., M, M] tridiagonal matrix (TF's):
  'compact':  [..., 3, M]: superdiagonal (last entry ignored), diagonal, subdiagonal (first ignored);
  'sequence': a list [superdiag, diag, subdiag] of [..., M] tensors (M - 1 allowed for the
              off-diagonals in tridiagonal_solve);
  'matrix':   the dense [..., M, M] matrix (only its three diagonals are read).
"""

from ..framework.tensor_shape import dimension_value
from ._util import convert, tf

__all__ = ["tridiagonal_matmul", "tridiagonal_solve", "eigh_tridiagonal"]


def _matrix_to_compact(diagonals):
    m1 = dimension_value(diagonals.shape[-1])
    m2 = dimension_value(diagonals.shape[-2])
    if m1 and m2 and m1 != m2:
        raise ValueError("Expected last two dimensions of diagonals to be same, got {} and {}"
                         .format(m1, m2))
    return tf.linalg.diag_part(diagonals, k=(-1, 1), padding_value=0., align="LEFT_RIGHT")


def _three(diagonals, diagonals_format):
    """(superdiag, diag, subdiag), each [..., M], from any of the three formats."""
    if diagonals_format == "compact":
        d = convert(diagonals, name="diagonals")
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]
    if diagonals_format == "sequence":
        superdiag, maindiag, subdiag = [convert(t) for t in diagonals]
        return superdiag, maindiag, subdiag
    if diagonals_format == "matrix":
        d = _matrix_to_compact(convert(diagonals, name="diagonals"))
        return d[..., 0, :], d[..., 1, :], d[..., 2, :]
    raise ValueError("Unrecognized diagonals_format: %s" % diagonals_format)


def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """A @ rhs for a [..., M, M] tridiagonal A given by its diagonals and rhs [..., M, N].

    Computed as three broadcast products (the superdiagonal times rhs shifted up, the diagonal
    times rhs, the subdiagonal times rhs shifted down), so its gradient follows from those ops.
    """
    with tf.name_scope(name, "TridiagonalMatMul"):
        superdiag, maindiag, subdiag = _three(diagonals, diagonals_format)
        rhs = convert(rhs, name="rhs", dtype=maindiag.dtype)
        if rhs.shape.ndims is not None and rhs.shape.ndims < 2:
            raise ValueError("Shape must be at least rank 2 but is rank %d" % rhs.shape.ndims)
        m = dimension_value(maindiag.shape[-1])
        if m is not None and rhs.shape.ndims is not None and rhs.shape[-2].value is not None \
                and rhs.shape[-2].value != m:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (m, rhs.shape[-2].value))
        zero_row = tf.zeros_like(rhs[..., :1, :])
        up = tf.concat([rhs[..., 1:, :], zero_row], axis=-2)      # row i holds rhs[i + 1]
        down = tf.concat([zero_row, rhs[..., :-1, :]], axis=-2)   # row i holds rhs[i - 1]
        # the ignored corner entries meet the zero rows, so they never contribute
        return (superdiag[..., :, None] * up + maindiag[..., :, None] * rhs
                + subdiag[..., :, None] * down)


def _pad_off_diagonal(t, m, what, padding):
    n = dimension_value(t.shape[-1])
    if not n or n == m:
        return t
    if n == m - 1:
        return tf.pad(t, [[0, 0]] * (t.shape.ndims - 1) + [padding])
    raise ValueError("Expected {} to be have length {} or {}, got {}.".format(what, m, m - 1, n))


def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False, conjugate_rhs=False,
                      name=None, partial_pivoting=True, perturb_singular=False):
    """X with A X = rhs for a [..., M, M] tridiagonal A (any of the three diagonals formats).

    rhs is [..., M, K] (or [..., K, M] with transpose_rhs), or a [..., M] vector, in which case the
    result is a vector too (transpose_rhs is then ignored, as in TF).
    """
    if perturb_singular:
        raise NotImplementedError("tridiagonal_solve(perturb_singular=True) is not supported by "
                                  "tensorweave yet")
    if diagonals_format == "compact":
        return _solve_compact(convert(diagonals, name="diagonals"), rhs, transpose_rhs, conjugate_rhs,
                              partial_pivoting, name)
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        superdiag, maindiag, subdiag = [convert(t) for t in diagonals]
        if not subdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1]) or \
                not superdiag.shape[:-1].is_compatible_with(maindiag.shape[:-1]):
            raise ValueError("Tensors representing the three diagonals must have the same shape,except for "
                             "the last dimension, got {}, {}, {}".format(subdiag.shape, maindiag.shape,
                                                                         superdiag.shape))
        m = dimension_value(maindiag.shape[-1])
        subdiag = _pad_off_diagonal(subdiag, m, "subdiagonal", [1, 0])
        superdiag = _pad_off_diagonal(superdiag, m, "superdiagonal", [0, 1])
        diags = tf.stack((superdiag, maindiag, subdiag), axis=-2)
        return _solve_compact(diags, rhs, transpose_rhs, conjugate_rhs, partial_pivoting, name)
    if diagonals_format == "matrix":
        diags = _matrix_to_compact(convert(diagonals, name="diagonals"))
        return _solve_compact(diags, rhs, transpose_rhs, conjugate_rhs, partial_pivoting, name)
    raise ValueError("Unrecognized diagonals_format: {}".format(diagonals_format))


def _solve_compact(diagonals, rhs, transpose_rhs, conjugate_rhs, partial_pivoting, name):
    from ..ops.linalg_extra_ops import tridiagonal_solve as _compact_op
    rhs = convert(rhs, name="rhs", dtype=diagonals.dtype)
    d_rank, r_rank = diagonals.shape.ndims, rhs.shape.ndims
    if d_rank:
        if d_rank < 2:
            raise ValueError("Expected diagonals to have rank at least 2, got {}".format(d_rank))
        if r_rank and r_rank != d_rank and r_rank != d_rank - 1:
            raise ValueError("Expected the rank of rhs to be {} or {}, got {}".format(
                d_rank - 1, d_rank, r_rank))
        if r_rank and not diagonals.shape[:-2].is_compatible_with(rhs.shape[:d_rank - 2]):
            raise ValueError("Batch shapes {} and {} are incompatible".format(
                diagonals.shape[:-2], rhs.shape[:d_rank - 2]))
    if d_rank and diagonals.shape[-2].value is not None and diagonals.shape[-2].value != 3:
        raise ValueError("Expected 3 diagonals got {}".format(diagonals.shape[-2]))

    def check_sizes(r):
        m, k = diagonals.shape[-1].value, r.shape[-2].value
        if m and k and m != k:
            raise ValueError("Expected number of left-hand sided and right-hand sides to be equal, "
                             "got {} and {}".format(m, k))

    if r_rank and d_rank and r_rank == d_rank - 1:
        if conjugate_rhs:
            rhs = tf.conj(rhs)
        rhs = tf.expand_dims(rhs, -1)
        check_sizes(rhs)
        return tf.squeeze(_compact_op(diagonals, rhs, partial_pivoting=partial_pivoting, name=name), -1)
    if transpose_rhs:
        rhs = tf.linalg.matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = tf.conj(rhs)
    check_sizes(rhs)
    return _compact_op(diagonals, rhs, partial_pivoting=partial_pivoting, name=name)


def eigh_tridiagonal(alpha, beta, eigvals_only=True, select="a", select_range=None, tol=None, name=None):
    """Eigenvalues (ascending) and optionally eigenvectors of the Hermitian tridiagonal matrix with
    diagonal alpha [n] and off-diagonal beta [n - 1].

    tensorweave builds the dense matrix and uses its self-adjoint eigen-decomposition (TF bisects
    the Sturm sequence); `tol` is accepted and unused since that decomposition is exact to working
    precision. select 'i' keeps eigenvalues select_range[0]..select_range[1] (inclusive indices),
    'v' those in the interval (select_range[0], select_range[1]].
    """
    with tf.name_scope(name or "eigh_tridiagonal"):
        alpha = convert(alpha, name="alpha")
        beta = convert(beta, name="beta", dtype=None)
        if alpha.dtype != beta.dtype:
            raise ValueError("'alpha' and 'beta' must have the same type.")
        if select not in ("a", "i", "v"):
            raise ValueError("'select must have a value in {'a', 'i', 'v'}.")
        if alpha.dtype.is_complex:
            alpha = tf.cast(tf.real(alpha), alpha.dtype)   # a Hermitian matrix has a real diagonal
        n = dimension_value(alpha.shape[-1])
        if n == 1:
            dense = tf.reshape(alpha, [1, 1])
        else:
            lower = beta
            upper = tf.conj(beta) if beta.dtype.is_complex else beta
            dense = tf.linalg.diag(tf.stack([tf.pad(upper, [[0, 1]]), alpha, tf.pad(lower, [[1, 0]])]),
                                   k=(-1, 1), num_rows=-1, num_cols=-1, align="LEFT_RIGHT")
        if eigvals_only:
            vals = tf.linalg.eigvalsh(dense)
            vecs = None
        else:
            vals, vecs = tf.linalg.eigh(dense)
        if select == "i":
            lo, hi = select_range[0], select_range[1]
            vals = vals[lo:hi + 1]
            vecs = None if vecs is None else vecs[:, lo:hi + 1]
        elif select == "v":
            lo = tf.cast(select_range[0], vals.dtype)
            hi = tf.cast(select_range[1], vals.dtype)
            keep = tf.logical_and(vals > lo, vals <= hi)
            if vecs is not None:
                vecs = tf.transpose(tf.boolean_mask(tf.transpose(vecs), keep))
            vals = tf.boolean_mask(vals, keep)
        return vals if eigvals_only else (vals, vecs)
