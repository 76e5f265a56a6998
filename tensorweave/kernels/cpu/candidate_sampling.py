"""CPU kernels for the candidate samplers and ComputeAccidentalHits.

The samplers follow TF's BaseCandidateSamplerOp draw for draw, so seeded programs give
TensorFlow's numbers: each run reserves 2048 * num_sampled 32-bit samples of the op's Philox
stream and reads them in order through a SimplePhilox (Rand32 / Rand64 / RandFloat / RandDouble);
a `unique` sampler draws until it has num_sampled distinct classes; expected counts use TF's
float32 ExpectedCountHelper. The learned unigram sampler keeps its counts in the session (its
state lives as long as TF's kernel does) and adds the true classes after every run.
"""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from . import libm
from .random import _stream, uint32_to_float, uint64_to_double

_FLT_MAX = np.finfo(np.float32).max
_KINT32MAX = 2 ** 31 - 1


def _load_libm():
    import ctypes
    lib = libm.c_library()
    if lib is None:
        return None
    for fn in (lib.log1pf, lib.expm1f):
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return lib


_LIBM = _load_libm()
_numpy_is_libm = None    # whether NumPy's float32 log1p/expm1 are the C library's (see below)


def _numpy_matches_libm():
    """Whether NumPy's float32 log1p and expm1 give the C library's log1pf/expm1f bits. Where
    NumPy has no SIMD loops of its own for them (builds without AVX-512's SVML) it calls these
    very functions; a probe of 4096 values over the domains used here tells the cases apart (its
    own loops differ in the last bit on a good share of inputs)."""
    global _numpy_is_libm
    if _numpy_is_libm is None:
        rng = np.random.RandomState(0)
        p = np.concatenate([rng.rand(1024), 10.0 ** -rng.uniform(1, 9, 1024)]).astype(np.float32)
        t = (-rng.uniform(0, 60, 2048)).astype(np.float32)
        with np.errstate(all="ignore"):
            ok = (np.log1p(-p) == np.array([_LIBM.log1pf(float(-v)) for v in p], np.float32)).all() and \
                (np.expm1(t) == np.array([_LIBM.expm1f(float(v)) for v in t], np.float32)).all()
        _numpy_is_libm = bool(ok)
    return _numpy_is_libm


class SimplePhilox:
    """TF's random::SimplePhilox over a PhiloxRandom copied at `start`: 32-bit samples in order,
    fetched a chunk of blocks at a time (a draw past the reservation reuses later blocks, as TF's
    does)."""

    _CHUNK = 256

    def __init__(self, stream, start):
        self._stream, self._start, self._next_block = stream, start, 0
        self._buf, self._pos = np.empty(0, np.uint32), 0

    def words(self, n):
        """The next n 32-bit samples (uint32 array)."""
        while self._buf.size - self._pos < n:
            blocks = max(self._CHUNK, -(-(n - (self._buf.size - self._pos)) // 4))
            offsets = np.arange(self._next_block, self._next_block + blocks, dtype=np.uint64)
            self._next_block += blocks
            fresh = self._stream.blocks(self._start, offsets).ravel()
            self._buf = np.concatenate([self._buf[self._pos:], fresh])
            self._pos = 0
        out = self._buf[self._pos:self._pos + n]
        self._pos += n
        return out

    def rand32(self):
        return int(self.words(1)[0])

    def rand_float(self):
        return float(uint32_to_float(self.words(1))[0])

    def rand_double(self):
        w = self.words(2)
        return float(uint64_to_double(w[0:1], w[1:2])[0])


# -- the samplers: Sample(rnd) and Probability(values) of TF's RangeSampler subclasses ----------

class _Uniform:
    def __init__(self, range_max):
        self.range = range_max
        self.inv = np.float32(1.0 / range_max)

    def sample_many(self, rnd, n):  # Uniform64: Rand64 % range
        w = rnd.words(2 * n).astype(np.uint64)
        return ((w[0::2] | (w[1::2] << np.uint64(32))) % np.uint64(self.range)).astype(np.int64)

    def sample(self, rnd):
        return int(self.sample_many(rnd, 1)[0])

    def probability(self, values):
        return np.full(np.shape(values), self.inv, np.float32)


class _LogUniform:
    def __init__(self, range_max):
        self.range = range_max
        self.log_range = np.log1p(float(range_max))

    def sample_many(self, rnd, n):  # int64(exp(RandDouble * log(range + 1))) - 1, mod range
        w = rnd.words(2 * n)
        u = uint64_to_double(w[0::2], w[1::2])
        return (np.exp(u * self.log_range).astype(np.int64) - 1) % self.range

    def sample(self, rnd):
        return int(self.sample_many(rnd, 1)[0])

    def probability(self, values):
        v = np.asarray(values, np.float64)
        return (np.log((v + 2.0) / (v + 1.0)) / self.log_range).astype(np.float32)


class _DistributionSampler:
    """TF's random::DistributionSampler: Walker's alias table built the way TF builds it."""

    def __init__(self, weights):
        n = len(weights)
        total = float(np.sum(np.asarray(weights, np.float64)))
        pr = [(float(w) * n) / total for w in weights]
        alt = [-1] * n
        low = [i for i in range(n) if pr[i] < 1.0]
        high = [i for i in range(n) if pr[i] >= 1.0]
        while high and low:
            lo, hi = low.pop(), high.pop()
            alt[lo] = hi
            pr[hi] = pr[hi] - (1.0 - pr[lo])
            (low if pr[hi] < 1.0 else high).append(hi)
        prob = np.array(pr, np.float32)
        for idx in high + low:  # rounding leftovers: keep themselves
            prob[idx], alt[idx] = 1.0, idx
        self.prob, self.alt, self.n = prob, np.array(alt, np.int64), n

    def sample(self, rnd):
        r = rnd.rand_float()
        idx = rnd.rand32() % self.n
        return idx if r < self.prob[idx] else int(self.alt[idx])


class _FixedUnigram:
    def __init__(self, range_max, unigrams, distortion, num_reserved_ids, num_shards, shard):
        self.range = range_max
        weights = [0.0 for i in range(num_reserved_ids) if i % num_shards == shard]
        total = np.float32(0.0)
        word_id = len(weights)
        for u in unigrams:
            if word_id % num_shards == shard:
                # powf is correctly rounded here; NumPy's float32 power is not always
                w = np.float32(float(np.float32(u)) ** float(np.float32(distortion)))
                total = np.float32(total + w)
                weights.append(w)
            word_id += 1
        if range_max != len(weights):
            raise errors.InvalidArgumentError(None, None, f"range is {range_max} must be equal to weights size  "
                                                          f"{len(weights)}")
        self.weights = np.array(weights, np.float32)
        self.total = total
        self.dist = _DistributionSampler(self.weights)

    def sample(self, rnd):
        return self.dist.sample(rnd)

    def probability(self, values):
        v = np.asarray(values, np.int64)
        ok = (v >= 0) & (v < self.weights.size)
        return np.where(ok, self.weights[np.where(ok, v, 0)] / self.total, 0.0).astype(np.float32)


class _LearnedUnigram:
    """TF's (ThreadUnsafe)UnigramSampler: a WeightedPicker whose weights start at 1 and grow by
    one for each true class seen."""

    def __init__(self, range_max):
        self.range = range_max
        self.weights = np.ones(range_max, np.int64)

    def sample(self, rnd):
        n = int(self.weights.sum())
        if n & (n - 1) == 0:  # UnbiasedUniform: a power of two masks, others reject low values
            k = rnd.rand32() & (n - 1)
        else:
            rem = ((2 ** 32 - 1) % n) + 1
            rnd32 = rnd.rand32()
            while rnd32 < rem:
                rnd32 = rnd.rand32()
            k = rnd32 % n
        return int(np.searchsorted(np.cumsum(self.weights), k, side="right"))

    def probability(self, values):
        v = np.asarray(values, np.int64)
        ok = (v >= 0) & (v < self.range)
        w = np.where(ok, self.weights[np.where(ok, v, 0)], 0)
        return (w.astype(np.float32) / np.float32(self.weights.sum())).astype(np.float32)

    def update(self, values):
        total = int(self.weights.sum())
        for value in list(np.asarray(values).reshape(-1))[:max(0, _KINT32MAX - total)]:
            self.weights[value] += 1


def _expected_count(p, batch_size, num_tries):
    """TF's ExpectedCountHelper, in float32 as TF computes it: with the C library's log1pf and
    expm1f where it has them (NumPy's float32 loops differ from them in the last bit)."""
    p = np.asarray(p, np.float32)
    if num_tries == batch_size:
        return (p * np.float32(batch_size)).astype(np.float32)
    if _LIBM is None:
        log1p = np.log1p(-p.astype(np.float64)).astype(np.float32)
        return (-np.expm1((np.float32(num_tries) * log1p).astype(np.float64))).astype(np.float32)
    if _numpy_matches_libm():
        with np.errstate(all="ignore"):
            return -np.expm1(np.float32(num_tries) * np.log1p(-p))
    # (The C library one value at a time: each distinct probability once.)
    values, where = np.unique(p.reshape(-1), return_inverse=True)
    flat = [-_LIBM.expm1f(float(np.float32(num_tries) * np.float32(_LIBM.log1pf(float(-x)))))
            for x in values]
    return np.array(flat, np.float32)[where.reshape(-1)].reshape(p.shape)


def _sample_batch(sampler, rnd, num_sampled, unique):
    """RangeSampler::SampleBatchGetExpectedCountAvoid's draws: (classes, num_tries)."""
    if not unique:
        if hasattr(sampler, "sample_many"):
            return sampler.sample_many(rnd, num_sampled), num_sampled
        return np.array([sampler.sample(rnd) for _ in range(num_sampled)], np.int64), num_sampled
    used, batch, num_tries = set(), [], 0
    many = getattr(sampler, "sample_many", None)
    draws = []
    while len(batch) < num_sampled:
        if not draws:
            # Samples drawn ahead in one call take the stream's words in the same order as
            # one-by-one draws would; the ones left over are never used (rnd is per run).
            draws = many(rnd, 2 * num_sampled).tolist()[::-1] if many else [sampler.sample(rnd)]
        num_tries += 1
        value = draws.pop()
        if value not in used:
            used.add(value)
            batch.append(value)
    return np.array(batch, np.int64), num_tries


def _make_sampler(build):
    def factory(op, ctx):
        stream = _stream(op, ctx)
        num_true, num_sampled = op._get_attr("num_true"), op._get_attr("num_sampled")
        unique = op._get_attr("unique")
        state = {}

        def sampler_op(true_classes):
            true_classes = np.asarray(true_classes)
            if true_classes.ndim != 2:
                raise errors.InvalidArgumentError(None, None, "true_classes must be a matrix")
            if true_classes.shape[1] != num_true:
                raise errors.InvalidArgumentError(None, None, f"true_classes must have num_true columns, expected: "
                                                              f"{true_classes.shape[1]} was: {num_true}")
            if "s" not in state:  # TF builds the sampler with the kernel; the learned one lives on
                state["s"] = ctx.resources.lookup_or_create("candidate_sampler", op.name, lambda: build(op))
            sampler = state["s"]
            if unique and num_sampled > sampler.range:
                raise errors.InvalidArgumentError(None, None, "Sampler's range is too small.")
            bad = true_classes[(true_classes < 0) | (true_classes >= sampler.range)]
            if bad.size:
                raise errors.InvalidArgumentError(None, None, f"`true_candidate` out of range [0, {sampler.range}), "
                                                              f"received {int(bad[0])}")
            rnd = SimplePhilox(stream, stream.reserve(-(-2048 * num_sampled // 4)))
            if isinstance(sampler, _AllSampler):  # every class, each expected once
                return (np.arange(num_sampled, dtype=np.int64), np.ones(true_classes.shape, np.float32),
                        np.ones(num_sampled, np.float32))
            sampled, num_tries = _sample_batch(sampler, rnd, num_sampled, unique)
            true_expected = _expected_count(sampler.probability(true_classes), num_sampled, num_tries)
            sampled_expected = _expected_count(sampler.probability(sampled), num_sampled, num_tries)
            if hasattr(sampler, "update"):
                sampler.update(true_classes)
            return sampled.astype(np.int64), true_expected, sampled_expected
        return sampler_op
    return factory


class _AllSampler:
    """TF's AllSampler: every class once, each expected once."""

    def __init__(self, range_max):
        self.range = range_max


def _fixed_unigram(op):
    unigrams = list(op._get_attr("unigrams"))
    vocab_file = op._get_attr("vocab_file")
    if not vocab_file and not unigrams:
        raise errors.InvalidArgumentError(None, None, "Must provide either vocab_file or unigrams.")
    if vocab_file and unigrams:
        raise errors.InvalidArgumentError(None, None, "Must only provide one of vocab_file and unigrams.")
    if vocab_file:
        unigrams = []
        with open(vocab_file, "rb") as f:
            for line in f.read().decode().splitlines():
                if line:
                    unigrams.append(float(line.split(",")[-1]))
    return _FixedUnigram(op._get_attr("range_max"), unigrams, op._get_attr("distortion"),
                         op._get_attr("num_reserved_ids"), op._get_attr("num_shards"), op._get_attr("shard"))


register_kernel("UniformCandidateSampler")(_make_sampler(lambda op: _Uniform(op._get_attr("range_max"))))
register_kernel("LogUniformCandidateSampler")(_make_sampler(lambda op: _LogUniform(op._get_attr("range_max"))))
register_kernel("LearnedUnigramCandidateSampler")(
    _make_sampler(lambda op: _LearnedUnigram(op._get_attr("range_max"))))
register_kernel("FixedUnigramCandidateSampler")(_make_sampler(_fixed_unigram))
register_kernel("AllCandidateSampler")(_make_sampler(lambda op: _AllSampler(op._get_attr("num_sampled"))))


@register_kernel("ComputeAccidentalHits")
def _compute_accidental_hits(op, ctx):
    num_true = op._get_attr("num_true")

    def compute_accidental_hits(true_classes, sampled):
        true_classes = np.asarray(true_classes)
        sampled = np.asarray(sampled).reshape(-1)
        if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
            raise errors.InvalidArgumentError(None, None, f"true_classes must be a matrix with {num_true} "
                                                          f"columns, got shape {list(true_classes.shape)}")
        # TF maps each sampled value to its last position in `sampled`.
        order = np.argsort(sampled, kind="stable")
        s_sorted = sampled[order]
        flat = true_classes.reshape(-1)
        k = np.searchsorted(s_sorted, flat, side="right") - 1
        hit = (k >= 0) & (s_sorted[np.maximum(k, 0)] == flat) if sampled.size else np.zeros(flat.shape, bool)
        rows = (np.nonzero(hit)[0] // num_true).astype(np.int32)
        ids = order[k[hit]].astype(np.int64)
        return rows, ids, np.full(rows.shape, -_FLT_MAX, np.float32)
    return compute_accidental_hits
