"""CPU kernels for random ops: TF's Philox4x32-10 counter-based generator, vectorized in NumPy.

Each random op owns a stream per session (`ctx.resources`, kind "rng", keyed by op name): a Philox
key from (seed, seed2) and a 128-bit counter. Like TF's GuardedPhiloxRandom, a run that makes N
values reserves N * 256 Philox blocks, so successive runs draw fresh numbers and a new session
starts again from the seeds. Uniform, normal and truncated-normal values use TF's exact bit
conversions (Uint32ToFloat, Box-Muller, rejection at 2 standard deviations), so seeded programs
give TensorFlow's numbers.
"""

import os
import threading

import math

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from . import eigen_math, libm

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_MASK32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_RESERVE = 256


def philox(counters, key):
    """Philox4x32-10 of `counters` (uint64 array [n, 4] holding uint32 words, word 0 least
    significant) under `key` (two ints): a uint32 array [n, 4]."""
    c0, c1, c2, c3 = (counters[:, i].astype(np.uint64) for i in range(4))
    k0, k1 = key
    for r in range(10):
        p0 = _M0 * c0
        p1 = _M1 * c2
        hi0, lo0 = p0 >> _S32, p0 & _MASK32
        hi1, lo1 = p1 >> _S32, p1 & _MASK32
        c0, c1, c2, c3 = (hi1 ^ c1 ^ np.uint64(k0)), lo1, (hi0 ^ c3 ^ np.uint64(k1)), lo0
        k0 = (k0 + _W0) & 0xFFFFFFFF
        k1 = (k1 + _W1) & 0xFFFFFFFF
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def _counters(base, offsets):
    """128-bit counters base + offsets (offsets: uint64 array) as an [n, 4] uint64 word array."""
    lo = (base[0] | (base[1] << 32))
    hi = (base[2] | (base[3] << 32))
    offsets = np.asarray(offsets, dtype=np.uint64)
    with np.errstate(over="ignore"):
        new_lo = np.uint64(lo) + offsets
    carry = (new_lo < np.uint64(lo)).astype(np.uint64)
    with np.errstate(over="ignore"):
        new_hi = np.uint64(hi) + carry
    out = np.empty((offsets.size, 4), dtype=np.uint64)
    out[:, 0] = new_lo & _MASK32
    out[:, 1] = new_lo >> _S32
    out[:, 2] = new_hi & _MASK32
    out[:, 3] = new_hi >> _S32
    return out


class PhiloxStream:
    """One op's generator state in one session: key and 128-bit counter (as four uint32 words)."""

    def __init__(self, seed, seed2):
        if seed == 0 and seed2 == 0:
            seed = int.from_bytes(os.urandom(8), "little")
            seed2 = int.from_bytes(os.urandom(8), "little")
        seed &= (1 << 64) - 1
        seed2 &= (1 << 64) - 1
        self.key = (seed & 0xFFFFFFFF, seed >> 32)
        self.counter = [0, 0, seed2 & 0xFFFFFFFF, seed2 >> 32]
        self.lock = threading.Lock()
        self._np = None

    def reserve(self, blocks):
        """The counter to start from, advancing the stream by `blocks` Philox blocks."""
        with self.lock:
            start = list(self.counter)
            lo = (start[0] | (start[1] << 32)) + blocks
            hi = start[2] | (start[3] << 32)
            if lo >> 64:
                hi = (hi + 1) & ((1 << 64) - 1)
            lo &= (1 << 64) - 1
            self.counter = [lo & 0xFFFFFFFF, lo >> 32, hi & 0xFFFFFFFF, hi >> 32]
        return start

    def blocks(self, start, offsets):
        return philox(_counters(start, offsets), self.key)

    def numpy_generator(self):
        """A NumPy generator seeded from this stream (for ops without a TF-exact algorithm)."""
        if self._np is None:
            w = [int(x) for x in self.blocks(self.reserve(1), [0]).ravel()]
            key = np.array([w[0] | (w[1] << 32), w[2] | (w[3] << 32)], dtype=np.uint64)
            self._np = np.random.Generator(np.random.Philox(key=key))
        return self._np


class PhiloxSamples:
    """32-bit samples of Philox4x32-10 from (seed, seed2), one at a time, in order (TF's
    SingleSampleAdapter over a PhiloxRandom: RandomShuffleQueue, ShuffleDataset)."""

    _BLOCKS = 64

    def __init__(self, seed, seed2):
        self._stream = PhiloxStream(seed, seed2)
        self._next_block = 0
        self._words = []

    def __call__(self):
        if not self._words:
            offsets = np.arange(self._next_block, self._next_block + self._BLOCKS, dtype=np.uint64)
            self._words = self._stream.blocks(self._stream.counter, offsets).ravel().tolist()[::-1]
            self._next_block += self._BLOCKS
        return self._words.pop()


def _stream(op, ctx):
    seed, seed2 = op._get_attr("seed"), op._get_attr("seed2")
    return ctx.resources.lookup_or_create("rng", op.name, lambda: PhiloxStream(seed, seed2))


def _shape_arg(shape):
    shape = np.asarray(shape)
    if shape.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"shape must be a vector of {{int32,int64}}, got "
                                                      f"shape {list(shape.shape)}")
    dims = [int(d) for d in shape]
    for d in dims:
        if d < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {d} must be >= 0")
    return tuple(dims)


# -- TF's conversions --------------------------------------------------------------------------

def uint32_to_float(x):
    """[0, 1) floats from uint32s: 23 random mantissa bits under exponent 127, minus 1."""
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)


def uint16_to_half(x):
    """TF's Uint16ToHalf: the low 10 bits of each 32-bit sample as a half mantissa in [1, 2),
    minus 1 (in half arithmetic)."""
    bits = ((x & np.uint32(0x3FF)) | np.uint32(15 << 10)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1.0)


def uint16_to_bfloat16(x, bfloat16):
    """TF's Uint16ToGfloat16: the low 7 bits of each sample as a bfloat16 mantissa in [1, 2),
    minus 1 (exact)."""
    bits = ((x & np.uint32(0x7F)) | np.uint32(127 << 7)).astype(np.uint16)
    return bits.view(bfloat16) - bfloat16(1.0)


def uint64_to_double(x0, x1):
    man = ((x0 & np.uint32(0xFFFFF)).astype(np.uint64) << _S32) | x1.astype(np.uint64)
    return (man | (np.uint64(1023) << np.uint64(52))).view(np.float64) - 1.0


def box_muller_float(x0, x1):
    """TF's BoxMullerFloat: u2 = sqrt(-2 logf(u1)), sincosf(v1), with glibc's logf and sincosf
    (neither is correctly rounded: a double computation rounded once differed from TF in ~1.5%
    of the normals)."""
    u1 = uint32_to_float(x0)
    u1 = np.maximum(u1, np.float32(1.0e-7))
    v1 = (2.0 * np.pi * uint32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * eigen_math.glibc_logf(u1))
    s, c = eigen_math.glibc_sincosf(v1)
    return s * u2, c * u2


def box_muller_double(x0, x1, x2, x3):
    u1 = uint64_to_double(x0, x1)
    u1 = np.maximum(u1, 1.0e-7)
    v1 = 2.0 * np.pi * uint64_to_double(x2, x3)
    u2 = np.sqrt(-2.0 * libm.log(u1))
    return libm.sin(v1) * u2, libm.cos(v1) * u2


# Values are generated this many groups (Philox blocks) at a time: the uint64 words of a whole
# large initializer at once would take ~25x the memory of its float32 result.
_GROUPS_PER_CHUNK = 1 << 16


def _generate(n, group, dtype, fill):
    """`n` values of `dtype`: fill(g0, g1) gives groups g0..g1 (each `group` values) as a flat
    array; called a chunk of groups at a time."""
    ngroups = -(-n // group)
    out = np.empty(ngroups * group, dtype)
    for g0 in range(0, ngroups, _GROUPS_PER_CHUNK):
        g1 = min(ngroups, g0 + _GROUPS_PER_CHUNK)
        out[g0 * group:g1 * group] = fill(g0, g1)
    return out[:n]


def _group_range(g0, g1):
    return np.arange(g0, g1, dtype=np.uint64)


def uniform_values(stream, n, dtype):
    start = stream.reserve(n * _RESERVE)
    if dtype == np.float64:
        def fill(g0, g1):
            b = stream.blocks(start, _group_range(g0, g1))
            return uint64_to_double(b[:, 0::2].ravel(), b[:, 1::2].ravel())
        return _generate(n, 2, np.float64, fill)
    if dtype == np.float16:
        convert = uint16_to_half
    elif np.dtype(dtype).name == "bfloat16":
        def convert(x):
            return uint16_to_bfloat16(x, dtype)
    else:
        convert = uint32_to_float

    def fill(g0, g1):
        return convert(stream.blocks(start, _group_range(g0, g1)).ravel())
    return _generate(n, 4, dtype, fill)


def normal_values(stream, n, dtype):
    start = stream.reserve(n * _RESERVE)
    if dtype == np.float64:
        def fill(g0, g1):
            b = stream.blocks(start, _group_range(g0, g1))
            return np.stack(box_muller_double(b[:, 0], b[:, 1], b[:, 2], b[:, 3]), axis=1).ravel()
        return _generate(n, 2, np.float64, fill)

    def fill(g0, g1):
        b = stream.blocks(start, _group_range(g0, g1))
        return np.stack(box_muller_float(b[:, 0::2].ravel(), b[:, 1::2].ravel()), axis=1).ravel()
    return _generate(n, 4, dtype, fill)


def truncated_values(stream, n, dtype):
    """TF's TruncatedNormalDistribution: each output group restarts the generator at
    group * (group size * 256 / 4) blocks and keeps Box-Muller values with |x| < 2."""
    double = dtype == np.float64
    group = 2 if double else 4
    start = stream.reserve(n * _RESERVE)
    skip = group * _RESERVE // 4
    nblocks = 3

    def fill(g0, g1):
        first = _group_range(g0, g1) * np.uint64(skip)
        offsets = (first[:, None] + np.arange(nblocks, dtype=np.uint64)[None, :]).ravel()
        words = stream.blocks(start, offsets).reshape(g1 - g0, nblocks * 4)
        if double:
            a, b = box_muller_double(words[:, 0::4], words[:, 1::4], words[:, 2::4], words[:, 3::4])
        else:
            a, b = box_muller_float(words[:, 0::2], words[:, 1::2])
        vals = np.stack([a, b], axis=2).reshape(g1 - g0, -1)  # in draw order
        keep = np.abs(vals) < 2.0
        out = np.empty((g1 - g0, group), dtype=np.float64 if double else np.float32)
        short = keep.sum(axis=1) < group
        ok = ~short
        if ok.any():
            rank = np.cumsum(keep, axis=1) - 1
            sel = keep & (rank < group)
            out[ok] = vals[ok][sel[ok]].reshape(-1, group)
        for g in np.flatnonzero(short):  # rare: needs more than nblocks blocks
            out[g] = _truncated_group(stream, start, int(first[g]), group, double)
        return out.ravel()
    return _generate(n, group, dtype, fill)


def _truncated_group(stream, start, first, group, double):
    res = []
    block = first
    while True:
        w = stream.blocks(start, [block])[0]
        block += 1
        if double:
            pairs = [box_muller_double(w[0:1], w[1:2], w[2:3], w[3:4])]
        else:
            pairs = [box_muller_float(w[0:1], w[1:2]), box_muller_float(w[2:3], w[3:4])]
        for a, b in pairs:
            for v in (a[0], b[0]):
                if abs(v) < 2.0:
                    res.append(v)
                    if len(res) == group:
                        return res


def _float_kernel(sampler):
    def factory(op, ctx):
        stream = _stream(op, ctx)
        dtype = op._get_attr("dtype").as_numpy_dtype

        def kernel(shape):
            shape = _shape_arg(shape)
            n = int(np.prod(shape, dtype=np.int64))
            if np.dtype(dtype).itemsize == 2 and sampler is not uniform_values:
                # half and bfloat16 normals: TF's float samples, rounded to nearest even
                return sampler(stream, n, np.float32).astype(dtype).reshape(shape)
            return sampler(stream, n, dtype).reshape(shape)
        return kernel
    return factory


register_kernel("RandomUniform")(_float_kernel(uniform_values))
register_kernel("RandomStandardNormal")(_float_kernel(normal_values))
register_kernel("TruncatedNormal")(_float_kernel(truncated_values))


@register_kernel("RandomUniformInt")
def _random_uniform_int(op, ctx):
    stream = _stream(op, ctx)
    dtype = op._get_attr("Tout").as_numpy_dtype

    def random_uniform_int(shape, minval, maxval):
        return uniform_int_values(stream, _shape_arg(shape), minval, maxval, dtype)
    return random_uniform_int


def uniform_int_values(stream, shape, minval, maxval, dtype):
    """TF's UniformDistribution for int32 (one 32-bit sample each) / int64 (two): lo + bits % range."""
    if np.ndim(minval) != 0 or np.ndim(maxval) != 0:
        raise errors.InvalidArgumentError(None, None, "minval and maxval must be 0-D")
    lo, hi = int(minval), int(maxval)
    n = int(np.prod(shape, dtype=np.int64))
    if n == 0:
        return np.zeros(shape, dtype)
    if lo >= hi:
        raise errors.InvalidArgumentError(None, None, f"Need minval < maxval: {lo} >= {hi}")
    rng = hi - lo
    start = stream.reserve(n * _RESERVE)
    if dtype == np.int64:
        def fill(g0, g1):
            b = stream.blocks(start, _group_range(g0, g1))
            bits = b[:, 0::2].ravel().astype(np.uint64) | (b[:, 1::2].ravel().astype(np.uint64) << _S32)
            return (bits % np.uint64(rng)).astype(np.int64) + np.int64(lo)
        return _generate(n, 2, np.int64, fill).reshape(shape)

    def fill(g0, g1):
        b = stream.blocks(start, _group_range(g0, g1)).ravel()
        return ((b % np.uint32(rng)).astype(np.int64) + lo).astype(np.int32)
    return _generate(n, 4, np.int32, fill).reshape(shape)


@register_kernel("RandomShuffle")
def _random_shuffle(op, ctx):
    stream = _stream(op, ctx)

    def random_shuffle(value):
        value = np.asarray(value)
        if value.ndim == 0 or value.shape[0] <= 1:
            return value.copy()
        return value[shuffled_indices(stream, value.shape[0])]
    return random_shuffle


def _words(stream, start, count):
    """The first `count` uint32 outputs of the stream from counter `start`, in order."""
    return stream.blocks(start, np.arange(-(-count // 4), dtype=np.uint64)).ravel()[:count]


def shuffled_indices(stream, n):
    """TF's RandomShuffle permutation of range(n): reserve ceil((n-1)/4) Philox blocks (one
    32-bit sample per swap; a second run starts right after them), then a
    Fisher-Yates pass where position i swaps with i + (next 32-bit sample % (n - i))."""
    start = stream.reserve(-(-(n - 1) // 4))
    w = _words(stream, start, n - 1).astype(np.int64)
    targets = (np.arange(n - 1) + w % np.arange(n, 1, -1)).tolist()
    perm = list(range(n))
    for i, j in enumerate(targets):
        perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, dtype=np.int64)


@register_kernel("Multinomial")
def _multinomial(op, ctx):
    stream = _stream(op, ctx)
    out_dtype = op._get_attr("output_dtype").as_numpy_dtype

    def multinomial(logits, num_samples):
        return multinomial_values(stream, logits, num_samples, out_dtype)
    return multinomial


def _tf_intra_op_threads():
    from .parallel import get_intra_op_threads
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, get_intra_op_threads() or cpus)


def _multinomial_shard_rows(batch, n, classes):
    """Rows per shard of TF's CPU Multinomial: Shard -> ThreadPool::ParallelFor -> Eigen's
    ThreadPoolDevice::parallelFor with cost 50 * (n * log2(classes) + classes) per row (Eigen's
    CostModel::numThreads, then CalculateParallelForBlock)."""
    threads = _tf_intra_op_threads()
    if batch <= 1 or threads <= 1 or classes <= 0:
        return max(batch, 1)
    cost = int(50 * (n * math.log(classes) / math.log(2) + classes))
    total = batch * float(cost)
    if min(threads, max(1, int((total - 100000) / 100000 + 0.9))) == 1:
        return batch
    block_f = 1.0 / (cost / 40000.0) if cost > 0 else float("inf")
    block = min(batch, max(-(-batch // (4 * threads)), block_f))
    block = int(block)
    max_block = min(batch, 2 * block)
    count = -(-batch // block)
    best = count / (-(-count // threads) * threads)
    prev = count
    while best < 1.0 and prev > 1:
        coarser = -(-batch // (prev - 1))
        if coarser > max_block:
            break
        c_count = -(-batch // coarser)
        prev = c_count
        eff = c_count / (-(-c_count // threads) * threads)
        if eff + 0.01 >= best:
            block, count = coarser, c_count
            best = max(best, eff)
    return block


def multinomial_values(stream, logits, num_samples, out_dtype):
    """TF's CPU Multinomial: reserve 2 * 256 * batch * ceil4(n) blocks; each sample is a double
    from two 32-bit outputs times the row's running total, located in the unnormalized CDF of
    exp(logit - max finite logit) by upper_bound. (TF may split a very large batch across
    threads, each skipping ahead; we draw every row from one sequence.)"""
    logits = np.asarray(logits)
    if logits.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"logits should be a matrix, got shape "
                                                      f"{list(logits.shape)}")
    n = int(num_samples)
    if n < 0:
        raise errors.InvalidArgumentError(None, None, f"num_samples should be nonnegative, got {n}")
    batch, classes = logits.shape
    if classes == 0 and batch > 0 and n > 0:
        raise errors.InvalidArgumentError(None, None, "num_classes should be positive, got 0")
    start = stream.reserve(2 * _RESERVE * batch * (-(-n // 4) * 4))
    out = np.empty((batch, n), dtype=out_dtype)
    if batch * n == 0:
        return out
    # Row i's words: its shard's first row b0 starts at 4 * (b0 * (n + 3) // 4) (TF's Skip), and
    # the rows after it in that shard continue the same sequence, 2 * n words each.
    shard = _multinomial_shard_rows(batch, n, classes)
    offs = [4 * ((i - i % shard) * (n + 3) // 4) + 2 * n * (i % shard) for i in range(batch)]
    w = _words(stream, start, max(offs) + 2 * n)
    u = np.stack([uint64_to_double(w[o:o + 2 * n:2], w[o + 1:o + 2 * n:2]) for o in offs])
    for i in range(batch):
        row = logits[i]
        finite = np.isfinite(row)
        m = float(row[finite].max()) if finite.any() else 0.0
        cdf = np.cumsum(np.where(finite, np.exp(row.astype(np.float64) - m), 0.0))
        out[i] = np.searchsorted(cdf, u[i] * cdf[-1], side="right")
    return out


@register_kernel("RandomGamma")
def _random_gamma(op, ctx):
    stream = _stream(op, ctx)
    dtype = op._get_attr("T").as_numpy_dtype

    def random_gamma(shape, alpha):
        shape = _shape_arg(shape)
        alpha = np.asarray(alpha, dtype=np.float64)
        n = int(np.prod(shape, dtype=np.int64))
        values = gamma_values(stream, n, alpha.reshape(-1))
        return values.astype(dtype).reshape(shape + alpha.shape)
    return random_gamma


class _PerOutputDraws:
    """TF's per-output sampling for gamma and Poisson: output k reads its own Philox block range
    (from k * 256), uniforms and normals each come two doubles per block and are used from the
    back of that pair. take(kind, idx) draws the next value for each output in idx."""

    def __init__(self, stream, m):
        self._stream = stream
        self._start = stream.reserve(m * _RESERVE)
        self._pointer = np.arange(m, dtype=np.uint64) * np.uint64(_RESERVE)
        self._bufs = {kind: (np.zeros((m, 2)), np.zeros(m, np.int64)) for kind in ("uniform", "normal")}

    def take(self, kind, idx):
        buf, count = self._bufs[kind]
        empty = idx[count[idx] == 0]
        if empty.size:
            w = self._stream.blocks(self._start, self._pointer[empty])
            self._pointer[empty] += np.uint64(1)
            if kind == "uniform":
                buf[empty, 0] = uint64_to_double(w[:, 0], w[:, 1])
                buf[empty, 1] = uint64_to_double(w[:, 2], w[:, 3])
            else:
                buf[empty, 0], buf[empty, 1] = box_muller_double(w[:, 0], w[:, 1], w[:, 2], w[:, 3])
            count[empty] = 2
        count[idx] -= 1
        return buf[idx, count[idx]]


def gamma_values(stream, n, alphas):
    """TF's RandomGamma: n samples per alpha, shaped (n, len(alphas)); output k is alpha-major
    (k = alpha_index * n + sample). An exponential for alpha == 1, else Marsaglia-Tsang rejection,
    with a boost by u^(1/alpha) for alpha < 1. Vectorized over the outputs still rejecting."""
    a = len(alphas)
    m = n * a
    draws = _PerOutputDraws(stream, m)
    out = np.empty(m)
    alpha = np.repeat(alphas, n)
    with np.errstate(all="ignore"):
        out[alpha == 0] = 0.0
        out[~(alpha >= 0)] = np.nan  # negative or NaN
        ones = np.flatnonzero(alpha == 1)
        if ones.size:
            out[ones] = -libm.log1p(-draws.take("uniform", ones))
        active = np.flatnonzero((alpha > 0) & (alpha != 1))
        d = alpha + np.where(alpha < 1, 2.0 / 3, -1.0 / 3)
        c = 1.0 / 3 / np.sqrt(d)
        while active.size:
            x = draws.take("normal", active)
            v = 1 + c[active] * x
            ok = v > 0
            idx, x, v = active[ok], x[ok], v[ok]
            v = v * v * v  # TF: v = v * v * v (two roundings, not pow)
            u = draws.take("uniform", idx)
            accept = (u < 1 - 0.0331 * (x * x) * (x * x)) | (libm.log(u) < 0.5 * x * x + d[idx] * (1 - v + libm.log(v)))
            done = idx[accept]
            res = d[done] * v[accept]
            small = alpha[done] < 1
            if small.any():
                res[small] *= draws.take("uniform", done[small]) ** (1 / alpha[done[small]])
            out[done] = res
            active = np.setdiff1d(active, done, assume_unique=True)
    return out.reshape(a, n).T


def poisson_values(stream, n, rates):
    """TF's RandomPoissonV2: n samples per rate, shaped (n, len(rates)), output k rate-major.
    Rates below 10 multiply uniforms until the product falls to exp(-rate) (Knuth); larger ones use
    Hormann's transformed rejection (PTRS)."""
    a = len(rates)
    m = n * a
    draws = _PerOutputDraws(stream, m)
    out = np.zeros(m)
    rate = np.repeat(rates, n)
    with np.errstate(all="ignore"):
        out[np.isnan(rate)] = np.nan
        out[rate == np.inf] = np.inf
        # Knuth: count the uniforms whose running product stays above exp(-rate).
        active = np.flatnonzero(rate < 10)
        limit = libm.exp(-rate)
        prod = np.ones(m)
        while active.size:
            prod[active] *= draws.take("uniform", active)
            stop = prod[active] <= limit[active]
            out[active[~stop]] += 1
            active = active[~stop]
        # PTRS for rate >= 10.
        active = np.flatnonzero((rate >= 10) & (rate < np.inf))
        log_rate = libm.log(rate)
        b = 0.931 + 2.53 * np.sqrt(rate)
        aa = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        v_r = 0.9277 - 3.6224 / (b - 2)
        while active.size:
            u = draws.take("uniform", active) - 0.5
            v = draws.take("uniform", active)
            us = 0.5 - np.abs(u)
            k = np.floor((2 * aa[active] / us + b[active]) * u + rate[active] + 0.43)
            quick = (us >= 0.07) & (v <= v_r[active])
            retry = ~quick & ((k < 0) | ((us < 0.013) & (v > us)))
            s = libm.log(v * inv_alpha[active] / (aa[active] / (us * us) + b[active]))
            t = -rate[active] + k * log_rate[active] - _lgamma(np.maximum(k, 0) + 1)  # (k < 0 retries)
            accept = quick | (~retry & (s <= t))
            out[active[accept]] = k[accept]
            active = active[~accept]
    return out.reshape(a, n).T


_lgamma = np.vectorize(math.lgamma, otypes=[np.float64])


@register_kernel("RandomPoissonV2")
def _random_poisson(op, ctx):
    stream = _stream(op, ctx)
    dtype = op._get_attr("dtype").as_numpy_dtype

    def random_poisson(shape, lam):
        shape = _shape_arg(shape)
        lam = np.asarray(lam, dtype=np.float64)
        values = poisson_values(stream, int(np.prod(shape, dtype=np.int64)), lam.reshape(-1))
        return values.astype(dtype).reshape(shape + lam.shape)
    return random_poisson
