"""Eigen's float32 exp (kernels/cpu/eigen_math.py) against a one-step-per-array reference."""

import numpy as np

from tensorweave.kernels.cpu import eigen_math


def _reference_expf(x):
    # Eigen's pexp_float written out plainly: every multiply and add rounds to float32.
    f = np.float32
    x = np.clip(np.asarray(x, f), f(-88.3762626647950), f(88.3762626647949))
    m = np.floor(x * f(1.44269504088896341) + f(0.5)).astype(f)
    r = m * f(-0.693359375) + x
    r = m * f(2.12194440e-4) + r
    r2 = r * r
    r3 = r2 * r
    y = f(1.9875691500e-4) * r + f(1.3981999507e-3)
    y1 = f(4.1665795894e-2) * r + f(1.6666665459e-1)
    y = y * r + f(8.3334519073e-3)
    y1 = y1 * r + f(5.0000001201e-1)
    y = y * r3 + y1
    y = y * r2 + (r + f(1))
    return np.ldexp(y, m.astype(np.int32)).astype(f)


def test_expf_bitwise_equal_to_reference_across_chunks_and_range_ends():
    rng = np.random.RandomState(0)
    x = np.concatenate([rng.randn(70000) * 30, rng.randn(5000),
                        [88.3762626647949, -88.3762626647950, 88.37, -88.37, 0.0, -0.0,
                         100.0, -100.0, -87.5]]).astype(np.float32)
    got = eigen_math.expf(x.reshape(-1, 3))
    assert got.shape == (len(x) // 3, 3) and got.dtype == np.float32
    np.testing.assert_array_equal(got.reshape(-1).view(np.int32), _reference_expf(x).view(np.int32))


def test_expf_close_to_exact_exp_and_handles_nan():
    x = np.linspace(-80, 80, 1001, dtype=np.float32)
    np.testing.assert_allclose(eigen_math.expf(x), np.exp(x.astype(np.float64)), rtol=3e-7)
    assert np.isnan(eigen_math.expf(np.array([np.nan], np.float32)))[0]
    assert eigen_math.expf(np.zeros((0, 3), np.float32)).shape == (0, 3)
