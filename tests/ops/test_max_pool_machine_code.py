"""Max pooling's machine code (kernels/cpu/max_pool.c) gives the NumPy path's bits: NaN payloads,
signed zeros, infinities and ties included."""

import numpy as np
import pytest

from tensorweave.kernels.cpu import pooling

pytestmark = pytest.mark.skipif(pooling._kernel("max_pool") is None,
                                reason="the machine code needs x86-64 Linux with AVX-512F")


def _awkward(shape, seed):
    """Small integers (many ties), signed zeros, infinities and NaNs of several payloads."""
    rng = np.random.RandomState(seed)
    x = rng.randint(-2, 3, size=shape).astype(np.float32)
    flat = x.reshape(-1)
    picks = rng.choice(flat.size, size=flat.size // 5, replace=False)
    specials = np.array([0x80000000, 0x7f800000, 0xff800000, 0x7fc00001, 0xffc00002, 0x7fa00003],
                        np.uint32).view(np.float32)
    flat[picks] = specials[rng.randint(0, len(specials), size=picks.size)]
    return x


def _both(fn, monkeypatch):
    fast = fn()
    with monkeypatch.context() as m:
        m.setattr(pooling, "_native", dict)
        slow = fn()
    return fast, slow


@pytest.mark.parametrize("channels", [5, 16, 33])
@pytest.mark.parametrize("ks,ss,padding", [((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"),
                                           ((2, 3), (1, 2), "SAME"), ((1, 1), (1, 1), "VALID")])
def test_max_pool_bits_equal_numpy_path(channels, ks, ss, padding, monkeypatch):
    x = _awkward((3, 9, 8, channels), seed=channels)
    fast, slow = _both(lambda: pooling.max_pool_nhwc(x, ks, ss, padding), monkeypatch)
    np.testing.assert_array_equal(fast.view(np.uint32), slow.view(np.uint32))


@pytest.mark.parametrize("channels", [3, 16, 20])
@pytest.mark.parametrize("ks", [(2, 2), (3, 2)])
def test_tiled_max_pool_gradient_bits_equal_numpy_path(channels, ks, monkeypatch):
    x = _awkward((2, 7, 9, channels), seed=10 + channels)
    y = pooling.max_pool_nhwc(x, ks, ks, "VALID")
    g = _awkward(y.shape, seed=20 + channels)
    fast, slow = _both(lambda: pooling._pool_grad(x, y, g, ks, ks, "VALID", None), monkeypatch)
    np.testing.assert_array_equal(fast.view(np.uint32), slow.view(np.uint32))
    assert (fast[:, 6:] == 0).all()         # rows past the last window
