"""float32 softmax, log-softmax and softmax cross-entropies computed in TF 2.21's CPU order.

Measured against TF 2.21 (oneDNN on, AVX-512 CPU; bit patterns in
tests/ops/test_tf_order_transcendental.py):

* Softmax is rewritten by oneDNN to _MklSoftmax: its JIT kernel (16-lane AVX-512 with FMA) takes
  x - max, applies oneDNN's exp (`onednn_exp`), adds the vectors of a row into four accumulators
  (vector j into acc[j % 4], the row's last partial vector masked), combines them as
  (a0 + a1) + (a2 + a3), folds the 16 lanes in halves, and multiplies every value by 1 / sum.
* LogSoftmax stays Eigen's: shifted = x - max; lse = log(sum(exp(shifted))) where the exp runs
  inside the inner-axis reduction (eigen_math.exp_rows) added in tf_order's order and the log is
  TF's Log over the batch; out = shifted - lse.
* SoftmaxCrossEntropyWithLogits: the same sum s; loss = sum over classes of
  labels * (log(s) - shifted) (tf_order's inner sum); backprop = exp(shifted) / s - labels with
  the exp over the flat matrix (eigen_math.exp).
* SparseSoftmaxCrossEntropyWithLogits: loss = glibc logf(s) - shifted[label]; backprop as above.
"""

import numpy as np

from . import eigen_math, tf_order, x86_approx

__all__ = ["onednn_exp", "softmax", "log_softmax", "softmax_xent", "sparse_softmax_xent",
           "MAX_ELEMENTS"]

_f = np.float32
_d = np.float64
# The exact paths run for matrices up to this many values (a few ms at most); bigger ones keep
# NumPy's own order and speed.
MAX_ELEMENTS = 1 << 15


def _bits(u):
    return np.array([u], np.uint32).view(_f)[0]


_LOG2E = _bits(0x3fb8aa3b)
_LN2 = _d(_bits(0x3f317218))
_EXP_HI = _bits(0x42b17218)      # ln(FLT_MAX)
_EXP_LO = _bits(0xc2aeac50)      # ln(FLT_MIN)
_EXP_POLY = [_bits(u) for u in (0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d, 0x3c07cfce)]


def _fma(a, b, c):
    # a * b is exact in float64 for float32 a and b, so one rounding of the sum is the FMA (but for
    # double-rounding ties, about one in 2^29)
    return (a.astype(_d) * b + c).astype(_f)


def onednn_exp(x):
    """oneDNN's JIT exp (eltwise injector): n = floor(x log2e + 1/2), r = fma(-n, ln2, x), a
    degree-5 polynomial by FMAs, times 2^(n - 1), times 2; below ln(FLT_MIN) gives 0."""
    x0 = np.asarray(x, _f)
    with np.errstate(invalid="ignore"):
        return _onednn_exp(x0)


def _onednn_exp(x0):
    x = np.clip(x0, _EXP_LO, _EXP_HI)
    n = x * _LOG2E
    n += _f(0.5)
    np.floor(n, out=n)
    r = _fma(-n, _LN2, x)
    y = np.full(x.shape, _EXP_POLY[4], _f)
    for c in _EXP_POLY[3::-1]:
        y = _fma(y, r, c)
    y = _fma(y, r, _f(1))
    scale = ((n - _f(1)).astype(np.int32) + 127 << 23).view(_f)
    scale[x0 < _EXP_LO] = 0
    y *= scale
    y *= _f(2)
    return y


def _fold16(v):
    """Horizontal sum of 16-lane vectors: halves added (i, i + 8), (i, i + 4), (i, i + 2), (0, 1)."""
    for w in (8, 4, 2, 1):
        v = v[..., :w] + v[..., w:2 * w]
    return v[..., 0]


def _onednn_row_sum(e):
    rows, n = e.shape
    nv = -(-n // 16)
    padded = np.zeros((rows, nv * 16), _f)
    padded[:, :n] = e
    vecs = padded.reshape(rows, nv, 16)
    acc = [None] * 4
    for j in range(nv):
        a = acc[j % 4]
        acc[j % 4] = vecs[:, j] if a is None else a + vecs[:, j]
    acc = [a if a is not None else np.zeros((rows, 16), _f) for a in acc]
    return _fold16((acc[0] + acc[1]) + (acc[2] + acc[3]))


def softmax(x):
    """TF's float32 Softmax of a matrix (_MklSoftmax on the last axis)."""
    x = eigen_math.flush_denormals(x)
    e = onednn_exp(x - x.max(axis=1, keepdims=True))
    inv = _f(1) / _onednn_row_sum(e)
    e *= inv[:, None]
    return e


def eigen_softmax(x):
    """TF's float32 Softmax of a matrix as Eigen's SoftmaxOp computes it (the kernel Grappler's
    constant folding runs, before oneDNN's rewrite): exp over the flat matrix, row sums of
    those values, times 1/sum."""
    # (C order: a transposed input would make the arrays below Fortran-ordered, and the writes
    # through their flat views below would go to copies)
    x = eigen_math.flush_denormals(np.ascontiguousarray(x))
    shifted = x - x.max(axis=1, keepdims=True)
    e = eigen_math.flush_denormals(eigen_math.pexp(shifted))
    tail = e.size % 8
    if tail:
        e.reshape(-1)[-tail:] = eigen_math.glibc_expf(shifted.reshape(-1)[-tail:])
    s = tf_order.inner_sum(e)
    # Eigen's .inverse() of the row sums: the CPU's approximate reciprocal plus a Newton step on
    # the packets of that vector (x86_approx), exact on its tail
    inv = x86_approx.reciprocal(s) if x86_approx.available() else _f(1) / s
    e *= inv[:, None]
    return e


def _shift_and_sum(x, flat_exp=False):
    """(shifted, s, e): x - max, the row sums of exp as the reduction adds them, and (when
    flat_exp) exp(shifted) as TF's flat element-wise exp rounds it. Eigen's packet exp runs once
    over the matrix; only the scalar tails (each row's last cols % 8, the flat last n % 8) go
    through glibc's expf."""
    x = eigen_math.flush_denormals(np.ascontiguousarray(x))   # (C order: see eigen_softmax)
    shifted = x - x.max(axis=1, keepdims=True)
    packet = eigen_math.flush_denormals(eigen_math.pexp(shifted))
    rows_e = packet
    cut = shifted.shape[1] // 8 * 8
    if cut < shifted.shape[1]:
        rows_e = packet.copy()
        rows_e[:, cut:] = eigen_math.glibc_expf(shifted[:, cut:])
    s = tf_order.inner_sum(rows_e)
    if not flat_exp:
        return shifted, s, None
    tail = shifted.size % 8
    if tail:
        flat = packet.reshape(-1)
        flat[-tail:] = eigen_math.glibc_expf(shifted.reshape(-1)[-tail:])
    return shifted, s, packet


def log_softmax(x):
    """TF's float32 LogSoftmax of a matrix (Eigen's SoftmaxEigenImpl)."""
    shifted, s, _ = _shift_and_sum(x)
    shifted -= eigen_math.log(s)[:, None]
    return shifted


def softmax_xent(logits, labels):
    """TF's float32 SoftmaxCrossEntropyWithLogits of (batch, classes) matrices: (loss, backprop)."""
    shifted, s, back = _shift_and_sum(logits, flat_exp=True)
    labels = np.asarray(labels, _f)
    loss = tf_order.inner_sum(labels * (eigen_math.log(s)[:, None] - shifted))
    back /= s[:, None]
    back -= labels
    return loss, back


def sparse_softmax_xent(logits, labels):
    """TF's float32 SparseSoftmaxCrossEntropyWithLogits with labels already range-checked."""
    shifted, s, back = _shift_and_sum(logits, flat_exp=True)
    rows = np.arange(shifted.shape[0])
    loss = eigen_math.glibc_logf(s) - shifted[rows, labels]
    back /= s[:, None]
    back[rows, labels] -= _f(1)
    return loss, back
