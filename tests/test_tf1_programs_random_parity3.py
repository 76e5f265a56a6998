"""Seeded random parity with TF 2.21 (values recorded from TF 2.21 on a 2-CPU host)."""
import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import random as cpu_random


def test_random_gamma_float64_bits():
    # TF cubes v as v * v * v (two roundings), not pow(v, 3): float64 outputs differ by an ulp.
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(123)
        out = tf.random_gamma([6], [0.2, 1.0, 7.5], dtype=tf.float64, seed=8)
        with tf.Session() as s:
            got = s.run(out)
    want = ['0x1.9de934c8e2869p-8', '0x1.042c580da233dp-3', '0x1.6599fc5baf6c1p+2',
            '0x1.a3d0b2e80c00bp-4', '0x1.59e294c0793fdp-4', '0x1.9fe6bfb2529d7p+2',
            '0x1.3a5b6a7922088p-9', '0x1.204354cde203ep+0', '0x1.005860a1ec3dcp+2',
            '0x1.154cd93c63643p-23', '0x1.babf053c57f57p-2', '0x1.3443fefeb62aap+3',
            '0x1.3fe8a23f51be3p-3', '0x1.7a9d3a98c1532p+0', '0x1.2ddfce405bafbp+2',
            '0x1.c8172cc179e7cp-10', '0x1.8ceda06b71c2ap+1', '0x1.6a8bb31f1e87dp+3']
    assert got.shape == (6, 3)
    assert [float(x).hex() for x in got.ravel()] == want


def test_multinomial_sharded_rows(monkeypatch):
    # With 2+ intra-op threads and a costly row, TF's Eigen parallelFor gives each row its own
    # shard, which skips start_row * (num_samples + 3) / 4 Philox blocks.
    monkeypatch.setattr(cpu_random, "_tf_intra_op_threads", lambda: 2)
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(123)
        out = tf.multinomial(tf.log(tf.reshape(tf.range(1., 201.), [4, 50])), 300, seed=1)
        with tf.Session() as s:
            got = s.run(out)
    assert got[:, :6].tolist() == [[48, 42, 38, 32, 20, 27], [18, 23, 43, 12, 7, 2],
                                   [40, 28, 35, 48, 43, 47], [44, 33, 25, 12, 25, 16]]
    assert got[:, -3:].tolist() == [[26, 45, 35], [26, 18, 39], [46, 41, 47], [38, 43, 41]]


@pytest.mark.parametrize("args,rows", [((4, 300, 50, 2), 1), ((4, 300, 4, 2), 4), ((2, 8, 3, 2), 2), ((4, 300, 4, 1), 4),
                                       ((3, 200, 20, 2), 3)])
def test_multinomial_shard_rows(monkeypatch, args, rows):
    batch, n, classes, threads = args
    monkeypatch.setattr(cpu_random, "_tf_intra_op_threads", lambda: threads)
    assert cpu_random._multinomial_shard_rows(batch, n, classes) == rows


def test_libm_float64_functions_are_glibc_bits_on_any_cpu():
    # kernels/cpu/libm.py: NumPy's AVX-512 float64 loops differ from glibc in the last bit; the
    # samplers must get glibc's (Python's math module calls it) on every CPU.
    import math
    from tensorweave.kernels.cpu import libm
    rng = np.random.RandomState(1)
    x = np.concatenate([rng.rand(3000), rng.uniform(-30, 30, 3000), 10.0 ** rng.uniform(-300, 2, 3000)])
    for name in [n for n in libm.__all__ if hasattr(np, n)]:     # (the float64 ones)
        got = getattr(libm, name)(x)
        with np.errstate(all="ignore"):
            special = ~np.isfinite(getattr(np, name)(x))
        want = np.array([getattr(math, name)(v) if not s else np.nan for v, s in zip(x.tolist(), special)])
        assert np.array_equal(got[~special], want[~special]), name
    specials = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1e-310])
    with np.errstate(all="ignore"):
        assert np.array_equal(libm.log(specials), np.log(specials), equal_nan=True)
        assert np.array_equal(libm.exp(np.array([800.0, -800.0])), [np.inf, 0.0])
    assert libm.log(np.float64(2.0)) == math.log(2.0)
