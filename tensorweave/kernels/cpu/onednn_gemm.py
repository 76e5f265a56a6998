"""Where TF's float32 MatMul (oneDNN's sgemm) restarts its sums: the k-blocks of its GEMM kernels.

Measured on TF 2.21 (oneDNN 3.7, x86-64 AVX-512, 2 intra-op threads) by comparing bits on
about 500 shapes, all transposes, K up to 5000: outside its special small kernels (2-15 rows
times a transposed matrix, one-row or one-column products; tf_order.py has those), oneDNN adds
each output as one running FMA from zero per block of k and adds the blocks' results in order.
Its threads split only the outputs, never k. Two drivers cut k differently:

* "nocopy" (most products): blocks of 384, except that once 385-767 remain they are halved
  (the first half one longer); K <= 384 is one block.
* "copy" (big square-ish products, some layouts): K <= 384 one block, K < 768 two halves, else
  blocks of 384 with the remainder last.

Which driver runs depends on the shapes, leading dimensions, transposes and the thread count
oneDNN ends up with (`_threads`: TF runs small GEMMs on one thread, oneDNN caps others by cache
size and work), as oneDNN's selection code decides (`_nocopy`).
"""

import functools
import os

__all__ = ["k_blocks", "ONE_BLOCK"]

_BK = 384
ONE_BLOCK = _BK         # up to this k, every driver adds k as one running FMA


def _cache_bytes(index, default):
    try:
        with open(f"/sys/devices/system/cpu/cpu0/cache/index{index}/size") as f:
            text = f.read().strip().upper()
        return int(text[:-1]) * 1024 if text.endswith("K") else int(text)
    except (OSError, ValueError):
        return default


_L2 = _cache_bytes(2, 1 << 20)          # per core


def _threads(m, k, n, threads):
    """The thread count oneDNN's sgemm runs with, in TF's (m, k, n)."""
    if 4 * (m * n + k * (m + n)) < 1.01 * _L2:     # TF: small GEMMs single-threaded
        return 1
    if threads == 1:
        return 1
    cores = os.cpu_count() or 1
    if m > 50 and n <= 10:
        return threads
    if _L2 * cores > (m * n + m * k + n * k) * 4:
        return min(threads, cores)
    cycles = m * n * k / 64.0 * 2.0
    if threads <= 4:
        if cycles < 3000.0:
            return 1
        i = threads
        while i > 1 and not 3000.0 * i < cycles * (i - 1):
            i -= 1
        return max(i, 1)
    return threads


def _nocopy(nthr, transa, transb, m, n, k, lda, ldb, ldc):
    """oneDNN's choice of the nocopy driver, in its column-major terms (m = TF's N, n = TF's M,
    transa = TF's transpose_b, transb = TF's transpose_a)."""
    nn, nt, tn = not transa and not transb, not transa and transb, transa and not transb
    lda_bad, ldb_bad, ldc_bad = lda % 256 == 0, ldb % 256 == 0, ldc % 256 == 0
    lda_very_bad = lda % 1024 == 0
    if nthr == 1 and tn and m > 100 and ((m < 1200 and n < 200 and k < 1200) or (lda_bad and ldb_bad)):
        return False
    if nthr <= 8 and nn and lda_very_bad and k > 500 and n > 100:
        return False
    if 1.0 / m + 1.0 / n >= 0.00196 and not (lda_very_bad and nt):
        return True
    if lda_bad or ldb_bad or ldc_bad:
        if (m >= 32 and n > 16) or (m >= 32 and n == 16 and (k >= 6400 or transa or m == 4096)):
            return False
    limit = 378
    if m <= limit and n <= limit and k >= nthr * limit:
        return False
    if m >= nthr * limit and k >= nthr * limit:
        return False
    if not transb:
        return m <= nthr * 28 or n <= nthr * 28 or k <= nthr
    return (m <= nthr * 28 and m >= n) or n <= nthr * 28 or k <= nthr


def _nocopy_blocks(k):
    bounds = [0]
    while bounds[-1] < k:
        left = k - bounds[-1]
        bounds.append(bounds[-1] + (_BK if left >= 2 * _BK else (left + 1) // 2 if left > _BK else left))
    return bounds


def _copy_blocks(k):
    if k <= _BK:
        return [0, k]
    if k < 2 * _BK:
        return [0, (k + 1) // 2, k]
    return list(range(0, k, _BK)) + [k]


@functools.lru_cache(maxsize=256)
def k_blocks(m, k, n, transpose_a, transpose_b, threads):
    """[0, k1, ..., k]: the k-blocks of TF's (m, k) @ (k, n) float32 MatMul with these
    transposes and intra-op threads, or None where oneDNN runs one of its special small
    kernels instead (2-15 rows times a transposed matrix, m == 1 or n == 1). Cached: a step
    asks the same every time (callers must not modify the list)."""
    if m < 2 or n < 2 or k < 1 or (m < 16 and transpose_b and not transpose_a):
        return None
    lda = k if transpose_b else n
    ldb = m if transpose_a else k
    nthr = _threads(m, k, n, threads)
    if _nocopy(nthr, bool(transpose_b), bool(transpose_a), n, m, k, lda, ldb, n):
        return _nocopy_blocks(k)
    return _copy_blocks(k)
