"""StatelessParameterizedTruncatedNormal: TF's TruncatedNormalFunctorV2 on one Philox stream.

Per batch (one broadcast parameter set), after normalizing the bounds (flipped so a one-sided
bound is the lower one): normal rejection when the bounds hold the mean and 1.3 standard
deviations on a side, uniform rejection on [lo, hi] when hi - lo is below the exponential
sampler's cutoff, else exponential rejection with the optimal rate. Each draw takes one
Philox block (4 float32 or 2 float64 uniforms/normals); a batch that completes leaves the rest
of its block unused, as TF's loop does. Outputs are laid out [samples, batches]. Arithmetic is
in the output dtype (float16 runs in float32), so float32 values match TF's single-shard run.
"""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from . import eigen_math, libm
from .random import _shape_arg, box_muller_double, box_muller_float, uint32_to_float, uint64_to_double
from .stateless_random import _stream, key_counter

_MAX_ITERATIONS = 1000
_RANDN_STDDEVS = 1.3
_CHUNK = 64


class _Blocks:
    """Sequential draws of one Philox stream: uniform() / normal() give one block's values."""

    def __init__(self, stream, dtype):
        self._stream, self._dtype = stream, dtype
        self._next, self._words = 0, []

    def _block(self):
        if not self._words:
            offs = np.arange(self._next, self._next + _CHUNK, dtype=np.uint64)
            self._words = list(self._stream.blocks(self._stream.counter, offs))[::-1]
            self._next += _CHUNK
        return self._words.pop()

    def uniform(self):
        w = self._block()
        if self._dtype == np.float64:
            return list(uint64_to_double(w[[0, 2]], w[[1, 3]]))
        return list(uint32_to_float(w))

    def normal(self):
        w = self._block()
        if self._dtype == np.float64:
            s, c = box_muller_double(w[[0]], w[[1]], w[[2]], w[[3]])
            return [s[0], c[0]]
        s, c = box_muller_float(w[[0, 2]], w[[1, 3]])
        return [s[0], c[0], s[1], c[1]]


def _fail(what):
    raise errors.InternalError(None, None, f"TruncatedNormal {what} sampler failed to accept a sample.")


def _batch(draws, n, mean, stddev, minval, maxval, T):
    """n samples of one batch (TF's per-batch loop), with the C library's exp and log as TF's
    Eigen::numext calls them on scalars."""
    exp, log = (libm.exp, libm.log) if T is np.float64 else (eigen_math.glibc_expf, eigen_math.glibc_logf)
    if not (stddev > 0 and minval < maxval and (np.isfinite(minval) or np.isfinite(maxval))):
        raise errors.InvalidArgumentError(None, None, "Invalid parameters")
    if (np.isinf(minval) and minval < 0) or maxval < mean:
        minval, maxval, stddev = maxval, minval, T(-stddev)
    lo = T((minval - mean) / stddev)
    hi = T((maxval - mean) / stddev)
    sqrt_factor = T(np.sqrt(T(lo * lo + T(4))))
    cutoff = T(T(2) * T(exp(T(T(0.5) + T(lo * T(lo - sqrt_factor)) / T(4)))) / T(lo + sqrt_factor))
    diff = T(hi - lo)
    out, iterations = [], 0
    if (lo < -_RANDN_STDDEVS and hi >= 0) or (hi > _RANDN_STDDEVS and lo <= 0):
        while len(out) < n:
            for z in draws.normal():
                if lo <= z <= hi:
                    out.append(T(T(z) * stddev + mean))
                    iterations = 0
                    if len(out) >= n:
                        break
                else:
                    iterations += 1
                    if iterations > _MAX_ITERATIONS:
                        _fail("randn rejection")
    elif diff < cutoff:
        plus = T(0) if lo < 0 else T(lo * lo)
        while len(out) < n:
            zs = [T(T(r) * diff + lo) for r in draws.uniform()]
            gs = [T(T(plus - T(z * z)) / T(2)) for z in zs]
            for z, g, u in zip(zs, gs, draws.uniform()):
                if T(u) <= T(exp(g)):
                    out.append(T(z * stddev + mean))
                    iterations = 0
                    if len(out) >= n:
                        break
                else:
                    iterations += 1
                    if iterations >= _MAX_ITERATIONS:
                        _fail("uniform rejection")
    else:
        alpha = T(T(lo + T(np.sqrt(T(lo * lo + T(4))))) / T(2))
        while len(out) < n:
            r = draws.uniform()
            for i in range(0, len(r), 2):
                z = T(T(-T(log(T(r[i])))) / alpha + lo)
                x = T(alpha - z) if lo < alpha else T(lo - alpha)
                g = T(exp(T(T(-x * x) / T(2))))
                if T(r[i + 1]) <= g and z < hi:
                    out.append(T(z * stddev + mean))
                    iterations = 0
                    if len(out) >= n:
                        break
                else:
                    iterations += 1
                    if iterations >= _MAX_ITERATIONS:
                        _fail("exponential distribution rejection")
    return out


def parameterized_truncated_normal_values(stream, shape, means, stddevs, minvals, maxvals, dtype):
    """Samples of `shape` (ending with the parameters' broadcast shape) from `stream`."""
    T = np.float32 if dtype == np.float16 else dtype
    params = [np.asarray(p, dtype=T) for p in (means, stddevs, minvals, maxvals)]
    try:
        bshape = np.broadcast_shapes(*[p.shape for p in params])
    except ValueError:
        raise errors.InvalidArgumentError(None, None, "means, stddevs, minvals, maxvals must have "
                                          "compatible batch dimensions: " + " vs. ".join(
                                              str(list(p.shape)) for p in params)) from None
    if len(bshape) > len(shape) or tuple(shape[len(shape) - len(bshape):]) != tuple(bshape):
        raise errors.InvalidArgumentError(None, None, "Shape passed in must end with broadcasted shape.")
    num_batches = int(np.prod(bshape, dtype=np.int64))
    samples = int(np.prod(shape[:len(shape) - len(bshape)], dtype=np.int64))
    flat = [np.broadcast_to(p, bshape).reshape(-1) for p in params]
    out = np.empty((samples, num_batches), T)
    draws = _Blocks(stream, T)
    with np.errstate(all="ignore"):
        for b in range(num_batches if samples else 0):
            out[:, b] = _batch(draws, samples, *(T(f[b]) for f in flat), T)
    return out.astype(dtype).reshape(shape)


@register_kernel("StatelessParameterizedTruncatedNormal")
def _stateless_ptn(op, ctx):
    dtype = op._get_attr("dtype").as_numpy_dtype

    def stateless_parameterized_truncated_normal(shape, seed, means, stddevs, minvals, maxvals):
        shape = _shape_arg(shape)
        k, c = key_counter(seed)
        stream = _stream(np.array([k], np.uint64), np.array([0, c], np.uint64))
        return parameterized_truncated_normal_values(stream, shape, means, stddevs, minvals,
                                                     maxvals, dtype)
    return stateless_parameterized_truncated_normal
