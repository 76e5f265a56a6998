"""CPU kernels for the stateless random ops: TF's seed scrambling, then the stateful ops'
distributions on a fresh Philox generator at the given key and counter."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from .random import (PhiloxStream, _shape_arg, multinomial_values, normal_values, philox,
                     truncated_values, uniform_int_values, uniform_values)

# TF's kPhiloxDefaultKey: the key under which a seed is scrambled into a key and a counter.
_SCRAMBLE_KEY = (0x3EC8F720, 0x02461E29)
_MASK32 = 0xFFFFFFFF


def key_counter(seed):
    """(key, counter hi word) of TF's StatelessRandomGetKeyCounter for a [2] seed: one Philox block
    of counter (seed0, seed1) under the default key gives key = words 0-1, counter = (0, words 2-3)."""
    seed = np.asarray(seed).reshape(-1)
    if seed.size != 2:
        raise errors.InvalidArgumentError(None, None, f"seed must have shape [2], not {list(seed.shape)}")
    s0, s1 = (int(v) & 0xFFFFFFFFFFFFFFFF for v in seed)
    block = philox(np.array([[s0 & _MASK32, s0 >> 32, s1 & _MASK32, s1 >> 32]], dtype=np.uint64),
                   _SCRAMBLE_KEY)[0].astype(np.uint64)
    return int(block[0] | (block[1] << np.uint64(32))), int(block[2] | (block[3] << np.uint64(32)))


def _stream(key, counter):
    """A generator at `key` (uint64 [1]) and `counter` (uint64 [2]), drawing from block 0."""
    key, counter = np.asarray(key).reshape(-1), np.asarray(counter).reshape(-1)
    k, c0, c1 = int(key[0]), int(counter[0]), int(counter[1])
    stream = PhiloxStream(1, 1)  # (then set exactly: a zero key must not mean "random")
    stream.key = (k & _MASK32, k >> 32)
    stream.counter = [c0 & _MASK32, c0 >> 32, c1 & _MASK32, c1 >> 32]
    return stream


@register_kernel("StatelessRandomGetKeyCounter")
def _get_key_counter(op, ctx):
    def stateless_random_get_key_counter(seed):
        k, c = key_counter(seed)
        return np.array([k], np.uint64), np.array([0, c], np.uint64)
    return stateless_random_get_key_counter


def _float_kernel(sampler):
    def factory(op, ctx):
        dtype = op._get_attr("dtype").as_numpy_dtype

        def kernel(shape, key, counter, alg):
            shape = _shape_arg(shape)
            n = int(np.prod(shape, dtype=np.int64))
            # Half uniforms have their own conversion; half normals are float32 ones, rounded.
            draw = np.float32 if dtype == np.float16 and sampler is not uniform_values else dtype
            return sampler(_stream(key, counter), n, draw).astype(dtype).reshape(shape)
        return kernel
    return factory


register_kernel("StatelessRandomUniformV2")(_float_kernel(uniform_values))
register_kernel("StatelessRandomNormalV2")(_float_kernel(normal_values))
register_kernel("StatelessTruncatedNormalV2")(_float_kernel(truncated_values))


@register_kernel("StatelessRandomUniformIntV2")
def _uniform_int(op, ctx):
    dtype = op._get_attr("dtype").as_numpy_dtype

    def stateless_random_uniform_int(shape, key, counter, alg, minval, maxval):
        return uniform_int_values(_stream(key, counter), _shape_arg(shape), minval, maxval, dtype)
    return stateless_random_uniform_int


@register_kernel("StatelessRandomUniformFullIntV2")
def _uniform_full_int(op, ctx):
    dtype = np.dtype(op._get_attr("dtype").as_numpy_dtype)

    def stateless_random_uniform_full_int(shape, key, counter, alg):
        # TF's UniformFullIntDistribution: one 32-bit sample per 32-bit value; a 64-bit value is
        # sample 2i (low word) | sample 2i+1 (high word), the samples taken four per Philox block.
        shape = _shape_arg(shape)
        n = int(np.prod(shape, dtype=np.int64))
        words = 2 * n if dtype.itemsize == 8 else n
        stream = _stream(key, counter)
        w = stream.blocks(stream.counter, np.arange(-(-words // 4), dtype=np.uint64)).ravel()[:words]
        w = w.astype(np.uint32)
        bits = (w[0::2].astype(np.uint64) | (w[1::2].astype(np.uint64) << np.uint64(32))) if dtype.itemsize == 8 else w
        return bits.view(dtype).reshape(shape)
    return stateless_random_uniform_full_int


@register_kernel("StatelessMultinomial")
def _multinomial(op, ctx):
    out_dtype = op._get_attr("output_dtype").as_numpy_dtype

    def stateless_multinomial(logits, num_samples, seed):
        k, c = key_counter(seed)
        # (uint64 arrays: a Python list holding a counter >= 2**63 would become float64.)
        return multinomial_values(_stream(np.array([k], np.uint64), np.array([0, c], np.uint64)), logits,
                                  num_samples, out_dtype)
    return stateless_multinomial
