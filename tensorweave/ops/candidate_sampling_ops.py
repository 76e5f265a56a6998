"""Candidate samplers (`tf.random.uniform_candidate_sampler`, `tf.random.log_uniform_candidate_sampler`,
also under `tf.nn`) and `tf.nn.compute_accidental_hits`, for sampled losses.

A sampler draws `num_sampled` classes from [0, range_max) — with `unique=True` it keeps drawing
until it has that many distinct ones, counting the draws (`num_tries`) — and returns, for the true
classes and the sampled ones, the expected number of times each would appear in the sample
(TF's formulas): with P(c) the class probability,

    expected(c) = P(c) * num_sampled                      if every draw was kept (unique=False)
    expected(c) = 1 - (1 - P(c)) ** num_tries             otherwise (computed as -expm1(n log1p(-P)))

Uniform: P(c) = 1 / range_max. Log-uniform (Zipfian): P(c) = log((c + 2) / (c + 1)) / log(range_max + 1).
"""

import collections

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler", "learned_unigram_candidate_sampler",
           "fixed_unigram_candidate_sampler", "all_candidate_sampler", "compute_accidental_hits"]

_SAMPLER_FIELDS = ["sampled_candidates", "true_expected_count", "sampled_expected_count"]
LogUniformCandidateSampler = collections.namedtuple("LogUniformCandidateSampler", _SAMPLER_FIELDS)
UniformCandidateSampler = collections.namedtuple("UniformCandidateSampler", _SAMPLER_FIELDS)
ComputeAccidentalHits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])
LearnedUnigramCandidateSampler = collections.namedtuple("LearnedUnigramCandidateSampler", _SAMPLER_FIELDS)
FixedUnigramCandidateSampler = collections.namedtuple("FixedUnigramCandidateSampler", _SAMPLER_FIELDS)
AllCandidateSampler = collections.namedtuple("AllCandidateSampler", _SAMPLER_FIELDS)
_RESULT = {"LogUniformCandidateSampler": LogUniformCandidateSampler,
           "UniformCandidateSampler": UniformCandidateSampler,
           "LearnedUnigramCandidateSampler": LearnedUnigramCandidateSampler,
           "FixedUnigramCandidateSampler": FixedUnigramCandidateSampler,
           "AllCandidateSampler": AllCandidateSampler}


def _sampler_shape(op):
    true_classes = op.inputs[0]
    num_true, num_sampled = op._get_attr("num_true"), op._get_attr("num_sampled")
    s = true_classes.shape.with_rank(2)
    if s.dims[1].value is not None and s.dims[1].value != num_true:
        raise ValueError(f"Dimension must be {num_true} but is {s.dims[1].value}")
    return [TensorShape([num_sampled]), TensorShape([s.dims[0].value, num_true]), TensorShape([num_sampled])]


for _t in _RESULT:
    registry.register_op(_t, shape_fn=_sampler_shape, stateful=True)
    registry.no_gradient(_t)


def _accidental_hits_shape(op):
    op.inputs[0].shape.with_rank(2)
    op.inputs[1].shape.with_rank(1)
    return [TensorShape([None])] * 3


registry.register_op("ComputeAccidentalHits", shape_fn=_accidental_hits_shape)
registry.no_gradient("ComputeAccidentalHits")


def _sampler(op_type, true_classes, num_true, num_sampled, unique, range_max, seed, name, **extra):
    from .random_ops import get_seed
    true_classes = convert_to_tensor(true_classes, name="true_classes")
    if true_classes.dtype.base_dtype != _dtypes.int64:
        raise TypeError(f"Input 'true_classes' of '{op_type}' Op has type "
                        f"{true_classes.dtype.base_dtype.name} that does not match expected type of int64.")
    limits = [("num_true", num_true, 1), ("num_sampled", num_sampled, 1)]
    if range_max is not None:
        limits.append(("range_max", range_max, 1))
    for what, v, low in limits:
        if int(v) < low:
            raise ValueError(f"Attr '{what}' of '{op_type}' Op passed {int(v)} less than minimum {low}.")
    seed1, seed2 = get_seed(seed)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique)}
    if range_max is not None:
        attrs["range_max"] = int(range_max)
    attrs.update(extra)
    attrs.update({"seed": int(seed1 or 0), "seed2": int(seed2 or 0)})
    outs = apply_op(op_type, [true_classes], [_dtypes.int64, _dtypes.float32, _dtypes.float32],
                    name or op_type, attrs=attrs)
    return _RESULT[op_type](*outs)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None, name=None):
    """Samples `num_sampled` classes uniformly from [0, range_max) (distinct ones if `unique`).
    Returns (sampled_candidates int64 [num_sampled], true_expected_count float32
    [batch, num_true], sampled_expected_count float32 [num_sampled])."""
    return _sampler("UniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max,
                    seed, name)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                  name=None):
    """Samples classes from the log-uniform (Zipfian) distribution
    P(c) = log((c + 2) / (c + 1)) / log(range_max + 1), which suits classes sorted by decreasing
    frequency (word ids ranked by count). Returns as uniform_candidate_sampler does."""
    return _sampler("LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique, range_max,
                    seed, name)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, seed=None,
                                      name=None):
    """Samples from a unigram distribution learned during training: every class starts with a
    count of one and each run adds the true classes it saw (the counts live as long as the
    session). Returns as uniform_candidate_sampler does."""
    return _sampler("LearnedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max,
                    seed, name)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max, vocab_file="",
                                    distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0, unigrams=(),
                                    seed=None, name=None):
    """Samples from a fixed unigram distribution, given as `unigrams` (one count or probability
    per class) or as a CSV `vocab_file` (the count is each line's last field), raised to the
    power `distortion`; `num_reserved_ids` classes of weight zero come first, and with
    `num_shards` > 1 only the classes of shard `shard` are kept. Returns as
    uniform_candidate_sampler does."""
    if int(num_reserved_ids) < 0:
        raise ValueError(f"Attr 'num_reserved_ids' of 'FixedUnigramCandidateSampler' Op passed "
                         f"{int(num_reserved_ids)} less than minimum 0.")
    if int(num_shards) < 1:
        raise ValueError(f"Attr 'num_shards' of 'FixedUnigramCandidateSampler' Op passed {int(num_shards)} "
                         f"less than minimum 1.")
    if int(shard) < 0:
        raise ValueError(f"Attr 'shard' of 'FixedUnigramCandidateSampler' Op passed {int(shard)} less than "
                         f"minimum 0.")
    return _sampler("FixedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max,
                    seed, name, vocab_file=str(vocab_file), distortion=float(distortion),
                    num_reserved_ids=int(num_reserved_ids), num_shards=int(num_shards), shard=int(shard),
                    unigrams=[float(u) for u in unigrams])


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Returns every class in [0, num_sampled) once, with expected counts of one (for testing
    sampled losses against the full softmax)."""
    return _sampler("AllCandidateSampler", true_classes, num_true, num_sampled, unique, None, seed, name)


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """Where a sampled candidate equals one of a row's true classes: returns (indices int32, the
    rows; ids int64, the positions in sampled_candidates; weights float32, -FLT_MAX each), to be
    added to the sampled logits so accidental hits drop out of the loss."""
    from .random_ops import get_seed
    true_classes = convert_to_tensor(true_classes, name="true_classes")
    sampled_candidates = convert_to_tensor(sampled_candidates, name="sampled_candidates")
    seed1, seed2 = get_seed(seed)
    outs = apply_op("ComputeAccidentalHits", [true_classes, sampled_candidates],
                    [_dtypes.int32, _dtypes.int64, _dtypes.float32], name or "ComputeAccidentalHits",
                    attrs={"num_true": int(num_true), "seed": int(seed1 or 0), "seed2": int(seed2 or 0)})
    return ComputeAccidentalHits(*outs)
