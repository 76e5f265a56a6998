"""CPU kernels for linear algebra over batches of matrices (np.linalg broadcasts over the leading
dimensions). np.linalg has no float16: such inputs are computed in float32 and cast back.
"""

import warnings

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


_DT_ENUM = {"float16": "HALF", "float32": "FLOAT", "float64": "DOUBLE"}


def attr_text(v):
    """An attr value as TF's "No OpKernel" message prints it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if hasattr(v, "as_numpy_dtype"):
        return "DT_" + _DT_ENUM.get(v.name, v.name.upper())
    return str(v)


def no_half_kernel(*shown):
    """For the ops TF 2.21 registers no float16 CPU kernel for: their float16 graphs build but fail
    when run, with TF's message (its attrs in TF's order, `shown`)."""
    def wrap(factory):
        def make(op, ctx):
            if op._get_attr("T").name == "float16":
                attrs = ", ".join(f"{a}={attr_text(op._get_attr(a))}" for a in shown)
                msg = (f"No OpKernel was registered to support Op '{op._type}' used by {{{{node {op.name}}}}} "
                       f"with these attrs: [{attrs}]")

                def unregistered(*args):
                    raise _invalid(msg)
                return unregistered
            return factory(op, ctx)
        return make
    return wrap


def _wide(x):
    return x.astype(np.float32) if x.dtype == np.float16 else x


def _adj(x):
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if np.iscomplexobj(x) else x


@register_kernel("MatrixInverse")
def _matrix_inverse(op, ctx):
    adj = op._get_attr("adjoint")

    def matrix_inverse(a):
        try:
            out = np.linalg.inv(_wide(_adj(a) if adj else a))
        except np.linalg.LinAlgError:
            raise _invalid("Input is not invertible.") from None
        return out.astype(a.dtype, copy=False)
    return matrix_inverse


def _slogdet(a):
    """np.linalg.slogdet, with TF's sign for singular matrices: the LU permutation's sign times
    the signs of U's diagonal, so a zero pivot after an odd permutation gives -0.0."""
    sign, logdet = np.linalg.slogdet(a)
    sign = np.asarray(sign)
    if np.iscomplexobj(sign) or not np.any(sign == 0):
        return sign, logdet
    import scipy.linalg
    flat_a = a.reshape((-1,) + a.shape[-2:])
    flat_s = sign.reshape(-1).copy()
    for i in np.nonzero(flat_s == 0)[0]:
        with warnings.catch_warnings():   # "Diagonal number 2 is exactly zero": expected here
            warnings.simplefilter("ignore")
            lu, piv = scipy.linalg.lu_factor(flat_a[i], check_finite=False)
        perm = -1.0 if np.count_nonzero(piv != np.arange(len(piv))) % 2 else 1.0
        flat_s[i] = perm * np.prod(np.sign(np.diag(lu)))
    return flat_s.reshape(sign.shape), logdet


def _partial_pivot_lu_diag(flat):
    """U's diagonal and the permutation's sign of Eigen's unblocked PartialPivLU of each matrix in
    flat (batch, n, n), in flat's dtype: the first largest |entry| of the column is the pivot, the
    column below it is divided by it, then a rank-1 update (a product, then a subtraction)."""
    lu = flat.copy()
    b, n = lu.shape[0], lu.shape[-1]
    rows = np.arange(b)
    perm = np.ones(b, lu.dtype)
    for k in range(n):
        piv = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
        perm[piv != k] *= -1
        row_k = lu[rows, k].copy()
        lu[rows, k] = lu[rows, piv]
        lu[rows, piv] = row_k
        d = lu[:, k, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            lu[:, k + 1:, k] = np.where(d[:, None] != 0, lu[:, k + 1:, k] / d[:, None], lu[:, k + 1:, k])
        lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k, None] * lu[:, None, k, k + 1:]
    return np.diagonal(lu, axis1=-2, axis2=-1), perm


def _sum_of_logs_f32(ad):
    """Eigen's abs_diag.log().sum() for float32 rows: 8-lane packets (Eigen's plog, two
    accumulators when there are two packets or more, then predux) and glibc logf on the tail, added
    after; a row shorter than a packet is glibc logf summed in order."""
    from . import eigen_math, tf_order
    n = ad.shape[-1]
    cut = n // 8 * 8
    res = np.zeros(ad.shape[0], np.float32)
    tail_from = 0
    if cut:
        logs = eigen_math.plog(ad[:, :cut]).reshape(ad.shape[0], -1, 8)
        acc0 = logs[:, 0]
        if logs.shape[1] > 1:
            acc1 = logs[:, 1]
            pairs = logs.shape[1] // 2
            for j in range(1, pairs):
                acc0 = acc0 + logs[:, 2 * j]
                acc1 = acc1 + logs[:, 2 * j + 1]
            acc0 = acc0 + acc1
            if logs.shape[1] % 2:
                acc0 = acc0 + logs[:, -1]
        res = tf_order._hsum(acc0)
        tail_from = cut
    elif n:
        res = eigen_math.glibc_logf(ad[:, 0])
        tail_from = 1
    for j in range(tail_from, n):
        res = res + eigen_math.glibc_logf(ad[:, j])
    return res


def _tf_slogdet(a):
    """(sign, log|det|) as TF's SLogDet computes them for real float32/float64 matrices: the
    product of U's diagonal signs times the permutation's sign, and the sum of log|U_ii| in the
    input's precision; a non-finite sum makes the sign zero (keeping the sign of the zero)."""
    flat = a.reshape((-1,) + a.shape[-2:])
    diag, perm = _partial_pivot_lu_diag(flat)
    ad = np.abs(diag)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if a.dtype == np.float32:
            logdet = _sum_of_logs_f32(ad)
        else:
            logdet = np.zeros(flat.shape[0], a.dtype)
            for j in range(ad.shape[-1]):
                logdet = logdet + np.log(ad[:, j])
        sign = perm * np.prod(np.sign(diag), axis=-1)
    bad = ~np.isfinite(logdet)
    sign[bad] *= 0
    return sign.reshape(a.shape[:-2]), logdet.reshape(a.shape[:-2])


def _exact_det_path(w):
    return w.dtype in (np.float32, np.float64) and w.shape[-1] > 0


@register_kernel("MatrixDeterminant")
@no_half_kernel("T")
def _matrix_determinant(op, ctx):
    def matrix_determinant(a):
        w = _wide(a)
        if _exact_det_path(w):
            # TF's determinant is sign * exp(log|det|), not the product of the pivots.
            from . import eigen_math
            sign, logdet = _tf_slogdet(w)
            with np.errstate(over="ignore"):
                mag = (eigen_math.glibc_expf(np.atleast_1d(logdet)).reshape(logdet.shape)
                       if w.dtype == np.float32 else np.exp(logdet))
            return np.asarray(sign * mag).astype(a.dtype, copy=False)
        det = np.asarray(np.linalg.det(w))
        if w.shape[-1] and not np.iscomplexobj(w) and np.any(det == 0):
            det = np.where(det == 0, _slogdet(w)[0], det)   # a singular matrix's zero has TF's sign
        return det.astype(a.dtype, copy=False)
    return matrix_determinant


@register_kernel("LogMatrixDeterminant")
@no_half_kernel("T")
def _log_matrix_determinant(op, ctx):
    def log_matrix_determinant(a):
        w = _wide(a)
        if _exact_det_path(w):
            sign, logdet = _tf_slogdet(w)
        else:
            sign, logdet = _slogdet(w) if w.shape[-1] else np.linalg.slogdet(w)
        return np.asarray(sign).astype(a.dtype, copy=False), np.asarray(logdet).astype(a.dtype, copy=False)
    return log_matrix_determinant


@register_kernel("Cholesky")
@no_half_kernel("T")
def _cholesky(op, ctx):
    def cholesky(a):
        w = _wide(a)
        try:
            out = np.linalg.cholesky(w)
        except np.linalg.LinAlgError:
            # Like TF: a matrix that is not positive definite gets NaN in its lower triangle.
            flat = w.reshape((-1,) + w.shape[-2:])
            out = np.empty_like(flat)
            nan = np.tril(np.full(w.shape[-2:], np.nan, dtype=w.dtype))
            for i, m in enumerate(flat):
                try:
                    out[i] = np.linalg.cholesky(m)
                except np.linalg.LinAlgError:
                    out[i] = nan
            out = out.reshape(w.shape)
        return out.astype(a.dtype, copy=False)
    return cholesky


def _dbg(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_batch(a, b):
    if a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
        raise _invalid(f"Incompatible shapes: matrix {list(a.shape)} and rhs {list(b.shape)} (batch dimensions "
                       f"must be equal and matrix columns must equal rhs rows)")


@register_kernel("MatrixSolve")
@no_half_kernel("T", "adjoint")
def _matrix_solve(op, ctx):
    adj = op._get_attr("adjoint")

    def matrix_solve(a, b):
        if a.shape[-1] != a.shape[-2]:
            raise _invalid(f"Input matrix must be square, got {list(a.shape)}")
        _check_batch(a, b)
        try:
            out = np.linalg.solve(_wide(_adj(a) if adj else a), _wide(b))
        except np.linalg.LinAlgError:
            raise _invalid("Input matrix is not invertible.") from None
        return out.astype(a.dtype, copy=False)
    return matrix_solve


@register_kernel("MatrixTriangularSolve")
@no_half_kernel("lower", "T", "adjoint")
def _matrix_triangular_solve(op, ctx):
    lower, adj = op._get_attr("lower"), op._get_attr("adjoint")

    def matrix_triangular_solve(a, b):
        # the batch dimensions broadcast (TF's MatrixTriangularSolve)
        try:
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        except ValueError:
            raise _invalid(f"In[0] and In[1] must have compatible batch dimensions: "
                           f"{_dbg(a.shape)} vs. {_dbg(b.shape)}") from None
        if a.shape[-1] != b.shape[-2]:
            raise _invalid(f"In[0] mismatch In[1] shape: {a.shape[-1]} vs. {b.shape[-2]}: {_dbg(a.shape)} "
                           f"{_dbg(b.shape)} 0 0")
        a = np.broadcast_to(a, batch + a.shape[-2:])
        b = np.broadcast_to(b, batch + b.shape[-2:])
        t = np.tril(a) if lower else np.triu(a)
        low = lower
        if adj:
            t, low = _adj(t), not lower
        t, x = _wide(t), _wide(b).copy()
        n = t.shape[-1]
        order = range(n) if low else range(n - 1, -1, -1)
        # Substitution row by row, vectorized over the batch and the right-hand sides; a zero on
        # the diagonal gives inf/NaN as in TF (no error).
        with np.errstate(divide="ignore", invalid="ignore"):
            for i in order:
                if low:
                    acc = np.einsum("...j,...jk->...k", t[..., i, :i], x[..., :i, :]) if i else 0
                else:
                    acc = np.einsum("...j,...jk->...k", t[..., i, i + 1:], x[..., i + 1:, :]) if i < n - 1 else 0
                x[..., i, :] = (x[..., i, :] - acc) / t[..., i, i][..., None]
        return x.astype(a.dtype, copy=False)
    return matrix_triangular_solve


@register_kernel("Qr")
def _qr(op, ctx):
    mode = "complete" if op._get_attr("full_matrices") else "reduced"

    def qr(a):
        q, r = np.linalg.qr(_wide(a), mode=mode)
        return q.astype(a.dtype, copy=False), r.astype(a.dtype, copy=False)
    return qr


@register_kernel("Svd")
@no_half_kernel("compute_uv", "T", "full_matrices")
def _svd(op, ctx):
    full, uv = op._get_attr("full_matrices"), op._get_attr("compute_uv")

    def svd(a):
        # s has the input's dtype (complex for complex input), as TF's op; tf.linalg.svd takes
        # its real part.
        w = _wide(a)
        if not uv:
            s = np.linalg.svd(w, compute_uv=False)
            empty = np.zeros((0,), dtype=a.dtype)
            return s.astype(a.dtype), empty, empty
        u, s, vh = np.linalg.svd(w, full_matrices=full)
        return s.astype(a.dtype), u.astype(a.dtype, copy=False), _adj(vh).astype(a.dtype, copy=False)
    return svd


# -- matrix diagonals ----------------------------------------------------------------------------

def _k(k):
    """(lower, upper) diagonal indices."""
    k = np.asarray(k).reshape(-1)
    if k.size not in (1, 2):
        raise _invalid(f"diag_index must be a vector with one or two elements. It has {k.size} elements.")
    lo, hi = int(k[0]), int(k[-1])
    if lo > hi:
        raise _invalid("lower_diag_index is greater than upper_diag_index")
    return lo, hi


def _band(rows, cols, lo, hi, align, max_len):
    """For each diagonal d in [lo, hi] (row hi - d of the packed form): its row and column
    indices in the matrix and the positions they take in the packed row. A diagonal shorter
    than max_len sits left or right in its row, as `align` says (TF's MatrixDiagV3 layout)."""
    for di, d in enumerate(range(hi, lo - 1, -1)):
        length = max(0, min(cols - max(d, 0), rows + min(d, 0)))
        right = align in ("RIGHT_LEFT", "RIGHT_RIGHT") if d >= 0 else align in ("LEFT_RIGHT", "RIGHT_RIGHT")
        offset = max_len - length if right else 0
        t = np.arange(length)
        yield di, t + max(-d, 0), t + max(d, 0), t + offset


def _align(op):
    a = op._get_attr("align")
    return a.decode() if isinstance(a, bytes) else a


def _diag_output_size(lo, hi, max_len, num_rows, num_cols):
    """MatrixDiagV3's output (rows, cols): -1 means the smallest that holds the diagonals."""
    min_rows, min_cols = max_len - min(hi, 0), max_len + max(lo, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    if num_rows != min_rows and num_cols != min_cols:
        raise _invalid(f"num_rows and num_cols are not consistent with lower_diag_index, upper_diag_index, "
                       f"and the length of the given diagonals.\nnum_rows = {num_rows} != min_num_rows = "
                       f"{min_rows}, num_cols = {num_cols} != min_num_cols = {min_cols}")
    return num_rows, num_cols


@register_kernel("MatrixDiagV3")
def _matrix_diag(op, ctx):
    align = _align(op)

    def matrix_diag(d, k, num_rows, num_cols, padding_value):
        lo, hi = _k(k)
        band = d if lo < hi else d[..., None, :]
        if band.shape[-2] != hi - lo + 1:
            raise _invalid("The number of diagonals provided in the input does not match the lower_diag_index "
                           "and upper_diag_index range.")
        max_len = band.shape[-1]
        rows, cols = _diag_output_size(lo, hi, max_len, int(num_rows), int(num_cols))
        out = np.full(band.shape[:-2] + (rows, cols), padding_value, dtype=d.dtype)
        for di, r, c, pos in _band(rows, cols, lo, hi, align, max_len):
            out[..., r, c] = band[..., di, pos]
        return out
    return matrix_diag


@register_kernel("MatrixDiagPartV3")
def _matrix_diag_part(op, ctx):
    align = _align(op)

    def matrix_diag_part(x, k, padding_value):
        lo, hi = _k(k)
        rows, cols = x.shape[-2], x.shape[-1]
        max_len = max(0, min(rows + min(hi, 0), cols - max(lo, 0)))
        out = np.full(x.shape[:-2] + (hi - lo + 1, max_len), padding_value, dtype=x.dtype)
        for di, r, c, pos in _band(rows, cols, lo, hi, align, max_len):
            out[..., di, pos] = x[..., r, c]
        return out if lo < hi else out[..., 0, :]
    return matrix_diag_part


@register_kernel("MatrixSetDiagV3")
def _matrix_set_diag(op, ctx):
    align = _align(op)

    def matrix_set_diag(x, d, k):
        lo, hi = _k(k)
        rows, cols = x.shape[-2], x.shape[-1]
        max_len = max(0, min(rows + min(hi, 0), cols - max(lo, 0)))
        want = x.shape[:-2] + ((hi - lo + 1,) if lo < hi else ()) + (max_len,)
        if d.shape != want:
            raise _invalid(f"Either first dimensions of diagonal don't match input.shape[:-2], or "
                           f"diagonal.shape[:-1] is not equal to the longests diagonal in range "
                           f"[lower_diag_index:upper_diag_index].\nInput shape: {list(x.shape)}\n"
                           f"Diagonal shape: {list(d.shape)}\nExpected diagonal shape: {list(want)}")
        band = d if lo < hi else d[..., None, :]
        out = x.copy()
        for di, r, c, pos in _band(rows, cols, lo, hi, align, max_len):
            out[..., r, c] = band[..., di, pos]
        return out
    return matrix_set_diag


# -- ops/linalg_extra_ops.py ----------------------------------------------------------------------

@register_kernel("SelfAdjointEigV2")
@no_half_kernel("T", "compute_v")
def _self_adjoint_eig(op, ctx):
    compute_v = op._get_attr("compute_v")
    edt = op.outputs[0].dtype.as_numpy_dtype

    def self_adjoint_eig(a):
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise _invalid("Input matrix must be square.")
        w = _wide(a)
        if compute_v:
            e, v = np.linalg.eigh(w, UPLO="L")
            return e.astype(edt, copy=False), v.astype(a.dtype, copy=False)
        return np.linalg.eigvalsh(w, UPLO="L").astype(edt, copy=False), np.zeros((0,), a.dtype)
    return self_adjoint_eig


@register_kernel("MatrixSolveLs")
@no_half_kernel("fast", "T")
def _matrix_solve_ls(op, ctx):
    fast = op._get_attr("fast")

    def matrix_solve_ls(a, b, l2):
        l2 = float(l2)
        a64, b64 = np.asarray(a, np.complex128 if np.iscomplexobj(a) else np.float64), np.asarray(b)
        if a.shape[:-2] != b.shape[:-2] or a.shape[-2] != b.shape[-2]:
            raise _invalid(f"Incompatible shapes: matrix {list(a.shape)} vs. rhs {list(b.shape)}")
        out = np.empty(a.shape[:-2] + (a.shape[-1], b.shape[-1]), dtype=a.dtype)
        for idx in np.ndindex(*a.shape[:-2]):
            m, r = a64[idx], b64[idx]
            if l2 > 0 or fast:
                n = m.shape[1]
                if m.shape[0] >= n:
                    g = _adj(m) @ m + l2 * np.eye(n)
                    out[idx] = np.linalg.solve(g, _adj(m) @ r)
                else:
                    g = m @ _adj(m) + l2 * np.eye(m.shape[0])
                    out[idx] = _adj(m) @ np.linalg.solve(g, r)
            else:
                out[idx] = np.linalg.lstsq(m, r, rcond=None)[0]
        return out
    return matrix_solve_ls


@register_kernel("MatrixExponential")
def _matrix_exponential(op, ctx):
    if op._get_attr("T").name == "float16":
        # TF's expm composite fails at its MatrixSolve, which has no float16 kernel
        node = op.name.rsplit("/", 1)[0] + "/cond/MatrixSolve"

        def unregistered(*args):
            raise _invalid(f"No OpKernel was registered to support Op 'MatrixSolve' used by {{{{node {node}}}}} "
                           f"with these attrs: [T=DT_HALF, adjoint=false]")
        return unregistered
    try:
        from scipy.linalg import expm as _expm
    except ImportError:  # pragma: no cover - depends on the environment
        _expm = None

    def _taylor_expm(m):  # scaling and squaring with a Taylor series (no SciPy)
        norm = np.linalg.norm(m, 1)
        s = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0 else 0
        a = m / (2 ** s)
        out = np.eye(m.shape[-1], dtype=a.dtype)
        term = np.eye(m.shape[-1], dtype=a.dtype)
        for k in range(1, 30):
            term = term @ a / k
            out = out + term
        for _ in range(s):
            out = out @ out
        return out

    def matrix_exponential(a):
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            raise _invalid("Input matrix must be square.")
        w = a.astype(np.complex128 if np.iscomplexobj(a) else np.float64)  # rounded once at the end
        out = np.empty_like(w)
        for idx in np.ndindex(*w.shape[:-2]):
            out[idx] = _expm(w[idx]) if _expm is not None else _taylor_expm(w[idx])
        return out.astype(a.dtype, copy=False)
    return matrix_exponential


@register_kernel("TridiagonalSolve")
def _tridiagonal_solve(op, ctx):
    def tridiagonal_solve(diags, rhs):
        m = diags.shape[-1]
        if rhs.shape[-2] != m:
            raise _invalid(f"Expected number of rows of rhs ({rhs.shape[-2]}) to match the size of the "
                           f"diagonals ({m})")
        full = np.zeros(diags.shape[:-2] + (m, m), dtype=np.result_type(diags.dtype, np.float32))
        i = np.arange(m)
        full[..., i, i] = diags[..., 1, :]
        full[..., i[:-1], i[1:]] = diags[..., 0, :-1]
        full[..., i[1:], i[:-1]] = diags[..., 2, 1:]
        try:
            return np.linalg.solve(full, rhs).astype(rhs.dtype, copy=False)
        except np.linalg.LinAlgError:
            raise _invalid("The matrix is not invertible.") from None
    return tridiagonal_solve


# -- MatrixSquareRoot: Eigen's MatrixSquareRoot (Schur form, then the triangular recurrence) ----------

def _sqrt_quasi_triangular(t):
    """The square root of a real quasi-upper-triangular Schur factor (1x1 and 2x2 diagonal blocks),
    block by block as Eigen computes it; a negative 1x1 block gives NaN (no real square root)."""
    n = t.shape[0]
    s = np.zeros_like(t)
    two = [i < n - 1 and t[i + 1, i] != 0 for i in range(n)]   # a 2x2 block starts at i
    i = 0
    with np.errstate(all="ignore"):
        while i < n:
            if two[i]:
                w, v = np.linalg.eig(t[i:i + 2, i:i + 2])
                s[i:i + 2, i:i + 2] = (v @ np.diag(np.sqrt(w.astype(complex))) @ np.linalg.inv(v)).real
                i += 2
            else:
                s[i, i] = np.sqrt(t[i, i])
                i += 1
        for j in range(1, n):
            if t[j, j - 1] != 0:
                continue
            for i in range(j - 1, -1, -1):
                if i > 0 and t[i, i - 1] != 0:
                    continue
                bi = 2 if two[i] else 1
                bj = 2 if two[j] else 1
                rhs = t[i:i + bi, j:j + bj] - s[i:i + bi, i + bi:j] @ s[i + bi:j, j:j + bj]
                if bi == 1 and bj == 1:
                    s[i, j] = rhs[0, 0] / (s[i, i] + s[j, j])
                    continue
                # A X + X B = rhs with A, B the diagonal blocks' square roots, as a small linear system
                a, b = s[i:i + bi, i:i + bi], s[j:j + bj, j:j + bj]
                k = np.kron(a, np.eye(bj)) + np.kron(np.eye(bi), b.T)
                try:
                    s[i:i + bi, j:j + bj] = np.linalg.solve(k, rhs.reshape(-1)).reshape(bi, bj)
                except np.linalg.LinAlgError:
                    s[i:i + bi, j:j + bj] = np.nan
    return s


def _sqrt_triangular(t):
    n = t.shape[0]
    s = np.zeros_like(t)
    with np.errstate(all="ignore"):
        for i in range(n):
            s[i, i] = np.sqrt(t[i, i])
        for j in range(1, n):
            for i in range(j - 1, -1, -1):
                s[i, j] = (t[i, j] - s[i, i + 1:j] @ s[i + 1:j, j]) / (s[i, i] + s[j, j])
    return s


def _matrix_sqrt(m):
    import scipy.linalg
    if not np.all(np.isfinite(m)):
        return np.full_like(m, np.nan)
    cplx = np.iscomplexobj(m)
    t, u = scipy.linalg.schur(m, output="complex" if cplx else "real")
    s = _sqrt_triangular(t) if cplx else _sqrt_quasi_triangular(t)
    with np.errstate(all="ignore"):
        # plain products: inf * 0 must give NaN exactly as Eigen's do (BLAS may skip zeros)
        return np.einsum("ij,jk->ik", np.einsum("ij,jk->ik", u, s), np.conj(u).T)


@register_kernel("MatrixSquareRoot")
@no_half_kernel("T")
def _matrix_square_root(op, ctx):
    def matrix_square_root(a):
        # computed in the input's precision, as TF does (its float32 roundings are closer to these)
        w = _wide(np.asarray(a))
        if w.shape[-1] == 0:
            return np.asarray(a).copy()
        flat = w.reshape((-1,) + w.shape[-2:])
        out = np.stack([_matrix_sqrt(m) for m in flat]) if flat.shape[0] else flat.copy()
        return out.reshape(w.shape).astype(a.dtype, copy=False)
    return matrix_square_root


@register_kernel("MatrixLogarithm")
def _matrix_logarithm(op, ctx):
    def matrix_logarithm(a):
        import scipy.linalg
        a = np.asarray(a)
        if a.shape[-1] == 0:
            return a.copy()
        flat = a.reshape((-1,) + a.shape[-2:])
        with np.errstate(all="ignore"):
            out = [scipy.linalg.logm(m.astype(np.complex128)) for m in flat]
        return np.asarray(out, dtype=a.dtype).reshape(a.shape) if out else a.copy()
    return matrix_logarithm
