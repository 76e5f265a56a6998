"""float32 sums and products added in the order TF's CPU kernels add them.

TF's Eigen reductions and its MatMul do not add in NumPy's order (NumPy sums an inner axis
pairwise and hands products to BLAS), so a training loop that prints float32 losses drifts from
TF's digits in the last place after a few steps. The routines here reproduce, bit for bit, the
orders measured on TF 2.21's x86-64 CPU wheel (Eigen with 8-lane AVX packets), vectorized with
NumPy: a loop runs only over the few lanes or blocks of the order, never over elements.

Orders (measured by comparing float32 bit patterns with real TF, see tests/ops/test_tf_order.py):

* Inner-axis and full sums (Eigen's InnerMostDimReducer): a run of n values is split in halves
  at an 8-aligned offset while n > 8192 (tree reduction, leaves of 1024 packets). A leaf of n >= 32
  adds blocks of 32 into four 8-lane accumulators, combines them as ((a0 + a1) + a2) + a3, adds
  the remaining whole packets to that, sums the last n % 8 values in a scalar from 0, and returns
  scalar + hsum(acc) where hsum adds lanes (i, i + 4), then (i, i + 2), then (0, 1).
* Outer-axis (column) sums (InnerMostDimPreserver): columns in whole packets of 8 are summed with
  four row accumulators (row j into acc[j % 4]) when there are at least 16 rows, combined
  sequentially, then the last rows % 4 rows are added; other columns add rows one by one.
* Sums over the first and last of three (merged) axes add one by one, last axis outermost.
* Mean is that sum divided by float32(n).
"""

import ctypes

import numpy as np

from . import direct_conv, machine_code

__all__ = ["inner_sum", "outer_sum", "reduce_sum", "reduce_mean", "matmul", "matmul_exact_ok", "matmul_block",
           "matvec", "matvec_order", "matmul_dot16", "DOT16_ROWS", "batch_matmul", "MATVEC_EXACT_MAX_MACS", "bias_add_grad",
           "EXACT_MAX_ELEMENTS", "OUTER_EXACT_MAX_ELEMENTS", "exact_max_elements"]

_f = np.float32
_P = 8                  # Eigen's float packet (AVX)
# TF's full reduction is one shard on one thread at least up to 4e6 values (measured on 2 cores);
# the exact path stops at 2^18 values (under ~1 ms) so big reductions keep NumPy's speed.
EXACT_MAX_ELEMENTS = 1 << 18
# Outer-axis sums (a conv layer's `+ b` gradient: Sum over N, H, W) cost no more than NumPy's, and
# TF adds them in one shard at least up to 250000 x 32 and 60000 x 128 values (measured, 2 threads).
OUTER_EXACT_MAX_ELEMENTS = 1 << 23


# float64 reduces in Eigen's Packet4d: the same orders with 4 lanes (measured on TF 2.21)
_LANES = {np.dtype(np.float32): _P, np.dtype(np.float64): 4}


def _hsum(acc):
    """Eigen's predux of packets along the last axis: halves added lane by lane, (i, i + w/2),
    down to one (8 lanes: (i, i+4), then (i, i+2), then (0, 1))."""
    t = acc
    while t.shape[-1] > 1:
        w = t.shape[-1] // 2
        t = t[..., :w] + t[..., w:]
    return t[..., 0]


def _map_rows():
    from . import _rows_code as generated
    P, I = ctypes.c_void_p, ctypes.c_int64
    page, fns = machine_code.load(generated, {"sum_rows": ctypes.CFUNCTYPE(None, P, I, I, I, P)})
    fns["_page"] = page
    return fns


# rows.c's sum_rows, or {} (no AVX-512F, or TENSORWEAVE_DIRECT_CONV=0)
_rows = machine_code.Loader(_map_rows, {"avx512f"}, "TENSORWEAVE_DIRECT_CONV")
_NATIVE_ROWS_MIN = 64       # below this many rows NumPy's call is as quick


def _seq_rows(x):
    """x[0] + x[1] + ... over axis 0, in that order, in x's dtype."""
    dt = x.dtype
    if x.shape[0] == 0:
        return np.zeros(x.shape[1:], dt)
    x = np.ascontiguousarray(x)
    if dt == np.float32 and x.shape[0] >= _NATIVE_ROWS_MIN and x[0].size > 1:
        fn = _rows().get("sum_rows")
        if fn is not None:
            out = np.empty(x.shape[1:], dt)
            cols = x[0].size
            fn(x.ctypes.data, x.shape[0], cols, cols, out.ctypes.data)
            return out
    if x[0].size <= 1:
        # NumPy would sum a lone column pairwise; a running sum is sequential
        return np.add.accumulate(x, axis=0, dtype=dt)[-1]
    # a C-contiguous reduction over the outer axis adds whole rows one after another
    return np.add.reduce(x, axis=0, dtype=dt)


def _leaf(x):
    """InnerMostDimReducer's non-tree vectorized sum of each row of x (rows, n), n <= 1024
    packets."""
    rows, n = x.shape
    p = _LANES[x.dtype]
    acc = None
    start = 0
    if n >= 4 * p:
        v4 = n // (4 * p) * (4 * p)
        blocks = x[:, :v4].reshape(rows, v4 // (4 * p), 4, p)
        a = _seq_rows(np.moveaxis(blocks, 1, 0))             # (rows, 4, p)
        acc = ((a[:, 0] + a[:, 1]) + a[:, 2]) + a[:, 3]
        start = v4
    v = n // p * p
    for j in range(start, v, p):
        acc = x[:, j:j + p] + acc if acc is not None else np.array(x[:, j:j + p], x.dtype)
    s = np.zeros(rows, x.dtype)
    for j in range(v, n):
        s = s + x[:, j]
    return s + _hsum(acc) if acc is not None else s


def _tree(x, first):
    """The tree reduction over rows of x (rows, n) whose runs start at flat offset `first`."""
    n = x.shape[1]
    p = _LANES[x.dtype]
    if n <= p * 1024:
        return _leaf(x)
    split = p * -(-(first + -(-n // 2)) // p)
    left = min(split - first, n)
    acc = _tree(x[:, :left], first)
    if left < n:
        acc = acc + _tree(x[:, left:], split)
    return acc


def _float(x):
    """x as float64 when it is, else float32 (the dtypes whose orders are reproduced)."""
    x = np.asarray(x)
    return x if x.dtype == np.float64 else np.asarray(x, _f)


def inner_sum(x):
    """Sums of the rows of a float32 (or float64) matrix x (rows, n), as TF's inner-axis / full
    Sum adds."""
    x = _float(x)
    rows, n = x.shape
    p = _LANES[x.dtype]
    if n == 0:
        return np.zeros(rows, x.dtype)
    if n <= p * 1024:
        return _leaf(x)
    # The split point is aligned on the flat offset of each run, so it depends on row * n % p.
    out = np.empty(rows, x.dtype)
    for r0 in range(min(rows, p)):
        out[r0::p] = _tree(x[r0::p], r0 * n)
    return out


def outer_sum(x):
    """Sums over the rows of float32 (or float64) matrices x (rows, cols) or (batch, rows, cols),
    as TF's outer-axis (and middle-axis) Sum adds."""
    x = _float(x)
    if x.ndim == 2:
        return outer_sum(x[None])[0]
    batch, rows, cols = x.shape
    p = _LANES[x.dtype]
    xt = np.moveaxis(x, 1, 0)                                 # (rows, batch, cols)
    cp = cols // p * p
    if rows < 16 or cp == 0:
        return _seq_rows(xt)
    out = np.empty((batch, cols), x.dtype)
    r4 = rows // 4 * 4
    a = _seq_rows(xt[:r4, :, :cp].reshape(r4 // 4, 4, batch, cp))
    acc = ((a[0] + a[1]) + a[2]) + a[3]
    for r in range(r4, rows):
        acc = acc + xt[r, :, :cp]
    out[:, :cp] = acc
    if cp < cols:
        out[:, cp:] = _seq_rows(xt[:, :, cp:])
    return out


def _simplify(shape, axes):
    """TF's ReductionHelper: drop size-1 dims, merge neighbours alike; (dims, first_reduced)."""
    dims, red = [], []
    for i, d in enumerate(shape):
        if d == 1:
            continue
        r = i in axes
        if red and red[-1] == r:
            dims[-1] *= d
        else:
            dims.append(d)
            red.append(r)
    return dims, (red[0] if red else False)


def exact_max_elements(shape, axes):
    """The size up to which reduce_sum / reduce_mean of this layout take TF's order."""
    dims, first_red = _simplify(shape, set(axes))
    outer = (len(dims) == 2 and first_red) or (len(dims) == 3 and not first_red)
    return OUTER_EXACT_MAX_ELEMENTS if outer else EXACT_MAX_ELEMENTS


def reduce_sum(x, axes):
    """TF's float32 (or float64) Sum of x over `axes` (a tuple of non-negative ints), keep_dims False shape.

    Returns None for the layouts TF transposes first (4+ alternating dims), which callers then
    compute in NumPy's order.
    """
    x = np.ascontiguousarray(_float(x))
    out_shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    dims, first_red = _simplify(x.shape, set(axes))
    if x.size == 0 or not dims or not any(i in axes for i in range(x.ndim)):
        return None  # empty, one value, or nothing reduced: every order agrees
    if len(dims) == 1:
        r = inner_sum(x.reshape(1, -1))[0] if first_red else None
    elif len(dims) == 2:
        r = outer_sum(x.reshape(dims)) if first_red else inner_sum(x.reshape(dims))
    elif len(dims) == 3 and not first_red:
        r = outer_sum(x.reshape(dims))
    elif len(dims) == 3:
        # axes 0 and 2 (GenericDimReducer): one running sum per output, axis 2 outer, axis 0 inner
        a, b, c = dims
        r = _seq_rows(x.reshape(a, b, c).transpose(2, 0, 1).reshape(c * a, b))
    else:
        return None
    return None if r is None else np.asarray(r, x.dtype).reshape(out_shape)


def reduce_mean(x, axes):
    """TF's float32 (float64) Mean over `axes`: the Sum above divided by the count in that
    dtype, or None."""
    s = reduce_sum(x, axes)
    if s is None:
        return None
    n = x.size // max(s.size, 1)
    return np.asarray(s / s.dtype.type(n), s.dtype)


# -- MatMul ----------------------------------------------------------------------------------------
# TF's float32 MatMul (oneDNN) computes each output as a running fused multiply-add over k from 0
# (measured for K <= 512, any M and N, when the graph leaves the shapes unknown, and for N >= 3 with
# static shapes; static shapes with N <= 2 and fused MatMul+BiasAdd with N = 1 take other kernels
# whose order is not reproduced). Past K = 512, with unknown shapes, blocks of 512 so computed are
# added (kept here; matmul_exact_ok does not send such K to it, as static shapes split otherwise).
# The product of two float32s is exact in float64, so float32(float64(acc) + a * b) is the FMA but
# for rare double-rounding ties.
_MM_BLOCK = 512
# The exact loop costs about 1.5 us per k plus the float64 products, against microseconds for
# BLAS: it runs only for K <= 128 and up to 2^18 multiply-adds (well under 1 ms), which covers the
# small regressions and nets whose printed values users compare; LeNet's logits layer (K = 256)
# and every matmul of benchmarks/mlp.py keep BLAS (measured: exact K = 256 cost LeNet 2 ms a step).
MATMUL_EXACT_MAX_K = 128
MATMUL_EXACT_MAX_MACS = 1 << 18  # (k, m, n) float64 products: 2 MiB


# A transposed lhs times one column (a regression's weight gradient X^T @ dy) is one running FMA
# over all of k, unblocked (measured to k = 1000); such products have few outputs, so the exact
# path runs up to this k (about 1 us per k).
MATMUL_T1_MAX_K = 1024
MATMUL_T1_MAX_M = 64


def matmul_exact_ok(m, k, n, transpose_a=False):
    """Whether matmul() reproduces TF's bits for an (m, k) @ (k, n) float32 product cheaply."""
    if transpose_a and n == 1 and m <= MATMUL_T1_MAX_M:
        return 0 < k <= MATMUL_T1_MAX_K
    return 0 < k <= MATMUL_EXACT_MAX_K and m * k * n <= MATMUL_EXACT_MAX_MACS


def _fma_run(prods, k0, k1):
    acc = np.zeros(prods.shape[1:], _f)
    for k in range(k0, k1):
        # the float64 sum of acc and the exact product, rounded once to float32
        np.add(prods[k], acc, out=acc, casting="same_kind")
    return acc


def matmul_block(transpose_a, n):
    """The k-block size matmul() uses for TF's product (None: one run over all of k)."""
    return None if transpose_a and n == 1 else _MM_BLOCK


def matmul(a, b, block=_MM_BLOCK):
    """a @ b for float32 matrices, each output added in TF's order (see matmul_exact_ok): running
    FMAs over blocks of `block` k (None: one run), the blocks' results added."""
    k = a.shape[1]
    block = block or k
    if direct_conv.available():     # the same sums by true FMAs in registers
        return direct_conv.matmul(a, b, list(range(0, k, block)) + [k])
    # every product a[i, k] * b[k, j] at once, (k, m, n), exact in float64
    prods = np.asarray(a, np.float64).T[:, :, None] * np.asarray(b, np.float64)[:, None, :]
    out = _fma_run(prods, 0, min(k, block))
    for k0 in range(block, k, block):
        out += _fma_run(prods, k0, min(k, k0 + block))
    return out


def batch_matmul(a, b):
    """a @ b for float32 stacks of matrices (batch dimensions broadcast), each output a running
    FMA over k from 0: TF's float32 BatchMatMulV2 (measured on TF 2.21, static and unknown
    shapes, any transposes)."""
    k = a.shape[-1]
    shape = np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    acc = np.zeros(shape, _f)
    a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
    for j in range(k):
        np.add(acc, a64[..., :, j, None] * b64[..., j, None, :], out=acc, casting="same_kind")
    return acc


# TF's float32 MatMul A @ B^T for 2 <= M < 16 rows is a dot product per output in 16 lanes
# (measured on TF 2.21 with AVX-512, shapes static or not, K up to 600, any N): lane l is a running FMA over the
# k = l (mod 16), the lanes then added by halves (l + 8, l + 4, l + 2, l + 1).
DOT16_ROWS = (2, 16)
_DOT_LANES = 16


def matmul_dot16(a, b):
    """a @ b for float32 (m, k) by (k, n) in the order of that 16-lane kernel."""
    m, k = a.shape
    n = b.shape[1]
    kk = -(-k // _DOT_LANES) * _DOT_LANES
    a64 = np.zeros((m, kk), np.float64)
    a64[:, :k] = a
    b64 = np.zeros((kk, n), np.float64)
    b64[:k] = b
    acc = np.zeros((_DOT_LANES, m, n), _f)
    for j in range(0, kk, _DOT_LANES):
        prods = a64[:, j:j + _DOT_LANES].T[:, :, None] * b64[j:j + _DOT_LANES][:, None, :]
        np.add(acc, prods, out=acc, casting="same_kind")    # one rounding: the FMA
    while acc.shape[0] > 1:
        h = acc.shape[0] // 2
        acc = acc[:h] + acc[h:]
    return acc[0]


# matvec loops over blocks of 8, not over k: measured to match TF for any k (up to 10,000) when an
# operand is fed; it costs a few times BLAS's GEMV, so it stops at 2^20 multiply-adds (~3 ms).
MATVEC_EXACT_MAX_MACS = 1 << 20


def matvec_order(m, n, transpose_a, transpose_b):
    """Whether TF's float32 MatMul of an (m, k) by (k, n) product is oneDNN's GEMV (see matvec).

    Measured on TF 2.21: one output column with a row-major lhs (no transpose_a) takes the GEMV
    kernel for m >= 2, and with transpose_b for m == 1 or m >= 16 (2 <= m < 16 adds in yet
    another order, not reproduced); a single row times a transposed (n, k) matrix is the same
    GEMV over that matrix's rows, matvec(B, a.T).T, for any n; every other small product is the
    running FMA of matmul()."""
    if n != 1 or transpose_a:
        return False
    return m == 1 or m >= 16 if transpose_b else m >= 2


def _hsum8_hadd(v):
    """vhaddps twice on an 8-lane register, then its two 128-bit halves added:
    ((l0 + l1) + (l4 + l5)) + ((l2 + l3) + (l6 + l7))."""
    s01, s23, s45, s67 = (v[:, i] + v[:, i + 1] for i in (0, 2, 4, 6))
    return (s01 + s45) + (s23 + s67)


def matvec(a, b):
    """a @ b for a float32 (m, k) matrix and (k, 1) column in the order of oneDNN's GEMV.

    Each row's k products go in blocks of 8 into one 8-lane accumulator by fused multiply-add;
    when there are three or more blocks and their count is odd, the last block's products are
    reduced on their own and added after the accumulator. The accumulator is reduced with
    horizontal adds (_hsum8_hadd), then a block of 4 (hadds: (p0 + p1) + (p2 + p3)), a pair and a
    last single product (each product rounded to float32) are added in that order."""
    a = np.asarray(a, _f)
    col = np.asarray(b, _f)[:, 0]
    m, k = a.shape
    nb = k // _P
    fused = nb - 1 if nb > 1 and nb % 2 else nb
    acc = np.zeros((m, _P), _f)
    for i in range(fused):
        blk = slice(i * _P, (i + 1) * _P)
        acc = (acc.astype(np.float64) + a[:, blk].astype(np.float64) * col[blk]).astype(_f)
    s = _hsum8_hadd(acc)
    prods = a * col
    if fused < nb:
        s = s + _hsum8_hadd(prods[:, fused * _P:nb * _P])
    j = nb * _P
    if j + 4 <= k:
        s = s + ((prods[:, j] + prods[:, j + 1]) + (prods[:, j + 2] + prods[:, j + 3]))
        j += 4
    if j + 2 <= k:
        s = s + (prods[:, j] + prods[:, j + 1])
        j += 2
    if j < k:
        s = s + prods[:, j]
    return s[:, None]


# -- BiasAddGrad ---------------------------------------------------------------------------------
# Past this many values TF's BiasAddGrad with at most 64 channels splits the rows between two
# threads (measured on TF 2.21, 2 intra-op threads: 1944 x 64 is one run, 1945 x 64 two; with
# 65 or more channels one run at every size tried, up to 65536 x 256).
_BIAS_GRAD_SPLIT_ELEMENTS = 124416
_BIAS_GRAD_SPLIT_MAX_CHANNELS = 64


def bias_add_grad(g, threads=1):
    """TF's float32 BiasAddGrad of g (rows, channels) in NHWC: each channel one running sum over
    the rows in order (measured on TF 2.21, also for one channel, where Sum would use a tree);
    with `threads` >= 2, few channels and many values, the two halves of the rows (the first
    one row longer) each summed so, then added."""
    g = np.ascontiguousarray(g, _f)
    rows, channels = g.shape
    if not rows:
        return np.zeros(channels, _f)
    if threads >= 2 and 2 <= channels <= _BIAS_GRAD_SPLIT_MAX_CHANNELS and \
            g.size > _BIAS_GRAD_SPLIT_ELEMENTS:
        half = -(-rows // 2)
        return _seq_rows(g[:half]) + _seq_rows(g[half:])
    return _seq_rows(g)
