"""CPU kernels for tf.random.Generator (RngReadAndSkip, StatefulRandomBinomial,
NonDeterministicInts) and the stateless gamma / Poisson / binomial samplers.

A Generator's state is an int64 [3] resource variable: counter (two 64-bit words, low first) and
key. RngReadAndSkip returns the state and moves the counter 256 Philox blocks per value, as TF's
kernel does. The binomial sampler is TF's (random_binomial_op.cc): output k (batch-major,
k = batch * samples_per_batch + sample) reads its own Philox blocks from k * 256 (BTRS, when
count * p >= 10) or k * 42 (inversion), two uniform doubles per block used from the back.
"""

import os

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from . import libm
from .random import _shape_arg, gamma_values, poisson_values, uint64_to_double
from .resource_variables import _read
from .stateless_random import _stream, key_counter

_MASK64 = (1 << 64) - 1


def _state_stream(state):
    """A Philox stream at an int64 [counter_lo, counter_hi, key] state."""
    s = [int(v) & _MASK64 for v in np.asarray(state).reshape(-1)[:3]]
    return _stream(np.array([s[2]], np.uint64), np.array([s[0], s[1]], np.uint64))


def _read_state(cell):
    if cell.value is None:  # TF's lookup of an uninitialized resource fails this way
        raise errors.NotFoundError(None, None, f"Container localhost does not exist. (Could not find resource: "
                                               f"localhost/{cell.name})")
    return _read(cell)


def _skip_state(cell, blocks):
    """The state before, after moving the counter of `cell` by `blocks` (a 128-bit add)."""
    state = _read_state(cell)
    if state.dtype != np.int64:
        raise errors.InvalidArgumentError(None, None, f"dtype of RNG state variable must be int64, not "
                                                      f"{state.dtype.name}")
    if state.ndim != 1 or state.size < 3:
        raise errors.InvalidArgumentError(None, None, f"The size of the state must be at least 3; got "
                                                      f"{state.size}")
    old = state.copy()
    lo = (int(state[0]) & _MASK64) + blocks
    hi = (int(state[1]) & _MASK64) + (lo >> 64)
    new = state.copy()
    new[0] = np.uint64(lo & _MASK64).view(np.int64)
    new[1] = np.uint64(hi & _MASK64).view(np.int64)
    cell.value = new  # a new array: reads made earlier in the step keep what they saw
    return old


@register_kernel("RngReadAndSkip")
def _rng_read_and_skip(op, ctx):
    def rng_read_and_skip(cell, alg, delta):
        if int(alg) not in (1, 3):
            raise errors.InvalidArgumentError(None, None, f"Unsupported algorithm id: {int(alg)}")
        return _skip_state(cell, 256 * int(delta))
    return rng_read_and_skip


@register_kernel("NonDeterministicInts")
def _non_deterministic_ints(op, ctx):
    dtype = np.dtype(op._get_attr("dtype").as_numpy_dtype)

    def non_deterministic_ints(shape):
        shape = _shape_arg(shape)
        n = int(np.prod(shape, dtype=np.int64))
        return np.frombuffer(os.urandom(n * dtype.itemsize), dtype=dtype).reshape(shape).copy()
    return non_deterministic_ints


# -- binomial ----------------------------------------------------------------------------------

class _Uniforms:
    """Per-output uniform doubles: output i reads Philox blocks from start + offsets[i], two doubles
    per block, taken from the back of the pair (TF's UNIFORM macro)."""

    def __init__(self, stream, offsets):
        self._stream, self._start = stream, list(stream.counter)
        self._ptr = np.asarray(offsets, dtype=np.uint64).copy()
        self._buf = np.zeros((self._ptr.size, 2))
        self._count = np.zeros(self._ptr.size, np.int64)

    def take(self, idx):
        empty = idx[self._count[idx] == 0]
        if empty.size:
            w = self._stream.blocks(self._start, self._ptr[empty])
            self._ptr[empty] += np.uint64(1)
            self._buf[empty, 0] = uint64_to_double(w[:, 0], w[:, 1])
            self._buf[empty, 1] = uint64_to_double(w[:, 2], w[:, 3])
            self._count[empty] = 2
        self._count[idx] -= 1
        return self._buf[idx, self._count[idx]]


_TAIL = np.array([0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287])


def _stirling_tail(k):
    kp1sq = (k + 1) * (k + 1)
    far = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    return np.where(k <= 9, _TAIL[np.clip(k, 0, 9).astype(np.int64)], far)


def _inversion(draws, idx, count, p):
    """Sum geometric variables until they pass `count`: how many fit is Binomial(count, p)."""
    out = np.zeros(idx.size)
    total = np.zeros(idx.size)
    active = np.arange(idx.size)
    log_q = libm.log1p(-p)
    while active.size:
        u = draws.take(idx[active])
        total[active] += np.ceil(libm.log(u) / log_q[active])
        stop = total[active] > count[active]
        out[active[~stop]] += 1
        active = active[~stop]
    return out


def _btrs(draws, idx, count, p):
    """Hormann's transformed rejection with TF's constants (and its missing log)."""
    out = np.zeros(idx.size)
    stddev = np.sqrt(count * p * (1 - p))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = count * p + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * stddev
    m = np.floor((count + 1) * p)
    active = np.arange(idx.size)
    while active.size:
        j = active
        u = draws.take(idx[j]) - 0.5
        v = draws.take(idx[j])
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a[j] / us + b[j]) * u + c[j])
        quick = (us >= 0.07) & (v <= v_r[j])
        bad = ~quick & ((k < 0) | (k > count[j]))
        n = count[j]
        with np.errstate(all="ignore"):
            lv = libm.log(v * alpha[j] / (a[j] / (us * us) + b[j]))
            mj = m[j]
            ub = ((mj + 0.5) * libm.log((mj + 1) / (r[j] * (n - mj + 1))) + (n + 1) * libm.log((n - mj + 1) / (n - k + 1))
                  + (k + 0.5) * libm.log(r[j] * (n - k + 1) / (k + 1)) + _stirling_tail(mj) + _stirling_tail(n - mj)
                  - _stirling_tail(k) - _stirling_tail(n - k))
        accept = quick | (~bad & (lv <= ub))
        out[j[accept]] = k[accept]
        active = j[~accept]
    return out


def binomial_values(stream, shape, counts, probs, out_dtype):
    """TF's binomial sampler over a Philox stream; `shape` ends with counts' and probs' broadcast
    shape. Returns the samples and how many values TF reserves (to advance a Generator)."""
    counts, probs = np.asarray(counts), np.asarray(probs)
    try:
        bshape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, f"counts and probs must have compatible batch dimensions: "
                                                      f"{list(counts.shape)} vs. {list(probs.shape)}") from None
    if len(bshape) > len(shape) or tuple(shape[len(shape) - len(bshape):]) != tuple(bshape):
        raise errors.InvalidArgumentError(None, None, "Shape passed in must end with broadcasted shape.")
    nb = int(np.prod(bshape, dtype=np.int64))
    spb = int(np.prod(shape[:len(shape) - len(bshape)], dtype=np.int64))
    t = probs.dtype.type
    cnt = np.broadcast_to(counts, bshape).reshape(-1).astype(t)
    prb = np.broadcast_to(probs, bshape).reshape(-1).astype(t)
    m = nb * spb
    cnt_k, prb_k = np.repeat(cnt, spb), np.repeat(prb, spb)   # output k = batch * spb + sample
    dcount = cnt_k.astype(np.float64)
    with np.errstate(all="ignore"):
        flip = prb_k > t(0.5)
        pq = np.where(flip, t(1) - prb_k, prb_k)                  # computed in T, as TF
        use_btrs = (cnt_k * pq) >= t(10)
        valid = (dcount > 0) & (prb_k > 0) & (prb_k < 1)
        out = np.where(np.isnan(prb_k), np.nan, np.where((dcount > 0) & (prb_k >= 1), dcount, 0.0))
        k = np.arange(m, dtype=np.uint64)
        draws = _Uniforms(stream, np.where(use_btrs, k * np.uint64(256), k * np.uint64(42)))
        dp = pq.astype(np.float64)
        for sel, fn in ((valid & use_btrs, _btrs), (valid & ~use_btrs, _inversion)):
            idx = np.flatnonzero(sel)
            if idx.size:
                v = fn(draws, idx, dcount[idx], dp[idx])
                out[idx] = np.where(flip[idx], dcount[idx] - v, v)
        values = out.reshape(nb, spb).T.astype(out_dtype)
    return values.reshape(shape), nb * 2 * 100 * (spb + 3) // 4


@register_kernel("StatefulRandomBinomial")
def _stateful_binomial(op, ctx):
    out_dtype = op._get_attr("dtype").as_numpy_dtype

    def stateful_random_binomial(cell, alg, shape, counts, probs):
        if int(alg) != 1:
            raise errors.InvalidArgumentError(None, None, f"Unsupported algorithm id: {int(alg)}")
        shape = _shape_arg(shape)
        stream = _state_stream(_read_state(cell))
        values, reserve = binomial_values(stream, shape, counts, probs, out_dtype)
        _skip_state(cell, 256 * reserve)
        return values
    return stateful_random_binomial


def _seed_stream(seed):
    k, c = key_counter(seed)
    return _stream(np.array([k], np.uint64), np.array([0, c], np.uint64))


@register_kernel("StatelessRandomBinomial")
def _stateless_binomial(op, ctx):
    out_dtype = op._get_attr("dtype").as_numpy_dtype

    def stateless_random_binomial(shape, seed, counts, probs):
        return binomial_values(_seed_stream(seed), _shape_arg(shape), counts, probs, out_dtype)[0]
    return stateless_random_binomial


def _per_param(shape, param):
    """Samples per parameter for the gamma / Poisson samplers (shape must end with param's shape)."""
    param = np.asarray(param)
    if param.ndim > len(shape) or tuple(shape[len(shape) - param.ndim:]) != param.shape:
        raise errors.InvalidArgumentError(None, None, "Shape passed in must end with broadcasted shape.")
    return int(np.prod(shape[:len(shape) - param.ndim], dtype=np.int64))


@register_kernel("StatelessRandomGammaV3")
def _stateless_gamma(op, ctx):
    dtype = op._get_attr("dtype").as_numpy_dtype

    def stateless_random_gamma_v3(shape, key, counter, alg, alpha):
        shape = _shape_arg(shape)
        n = _per_param(shape, alpha)
        return gamma_values(_stream(key, counter), n, np.asarray(alpha, np.float64).reshape(-1)) \
            .astype(dtype).reshape(shape)
    return stateless_random_gamma_v3


@register_kernel("StatelessRandomPoisson")
def _stateless_poisson(op, ctx):
    dtype = op._get_attr("dtype").as_numpy_dtype

    def stateless_random_poisson(shape, seed, lam):
        shape = _shape_arg(shape)
        n = _per_param(shape, lam)
        return poisson_values(_seed_stream(seed), n, np.asarray(lam, np.float64).reshape(-1)) \
            .astype(dtype).reshape(shape)
    return stateless_random_poisson
