"""TF's float32 Reciprocal and Rsqrt: the CPU's rcpps/rsqrtps plus one unfused Newton step
(kernels/cpu/x86_approx.py).

RECIPROCAL and RSQRT were recorded from TF 2.21 (tensorflow.compat.v1, x86-64 CPU wheel) on an AMD
EPYC (Zen 4), with RCPPS/RSQRTPS, that CPU's raw approximations of the same inputs. The
approximations differ between CPU vendors, so the bit-for-bit comparison with TF runs where this
CPU's approximations equal the recorded ones; everywhere the results must be within 2 ulps of the
exact values, follow the Newton formula from this CPU's approximations, and the scalar tail (the
5 values after the last 8-lane packet) must be exact, as in TF on any CPU. ERFC (recorded from TF
2.21 on the same machine for ERFC_X, specials included) is Eigen's generic_fast_erfc, which calls
the approximate reciprocal for |x| > 1.
"""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import float_env, x86_approx

pytestmark = pytest.mark.skipif(not x86_approx.available(), reason="needs x86-64 Linux with AVX")

X = np.array([
    0x2ea71e8f, 0x2ab40c86, 0x5088e74c, 0x548bce14, 0x31a02f7e, 0x4c4a3f8e, 0x4ea4e599,
    0x3de15df9, 0x2cdbdc2d, 0x52eac39d, 0x2a62d4e4, 0x7f61b1e6, 0x3b33a354, 0x43c44361,
    0x3ed59126, 0x49316028, 0x3eeffee7, 0x3100d48b, 0x379f3962, 0x3432e991, 0x3e9858dc,
    0x452f779a, 0x2ee29e7c, 0x1, 0x387cc52f, 0x38bb7582, 0x4d3b765b, 0x48aa88d0, 0x0,
    0x2d7d9385, 0x4ef18003, 0x2c39e58d, 0x82ab1e, 0x116c2, 0x37a4c0c7, 0x7fc00000, 0x37899c2b,
    0x4aaafbcc, 0xc0000000, 0x30a7889c, 0x3e800000, 0x41b96446, 0x2e8c37d2, 0x399b838e,
    0x4e8b42fd, 0x2aa97a82, 0x43e44ede, 0x3c087e54, 0x529789bc, 0x2c96538f, 0x2ce0a86d,
    0x48e7e7ea, 0x80000000], np.uint32)
RECIPROCAL = np.array([
    0x5044134f, 0x5435feb8, 0x2e6f59df, 0x2a6a6235, 0x4d4c9015, 0x32a204c8, 0x3046b7d8,
    0x411165fa, 0x52150a4e, 0x2c0b9412, 0x549075a8, 0x0, 0x43b6694b, 0x3b26f5a0, 0x40196e94,
    0x35b8bce8, 0x40088929, 0x4dfe59a6, 0x474dcc44, 0x4ab726b0, 0x40571678, 0x39babf45,
    0x50109856, 0x7f800000, 0x4681a2b1, 0x462ecd06, 0x31aecc3c, 0x3640261e, 0x7f800000,
    0x51813934, 0x3007af6e, 0x52b0451c, 0x7e7ac5aa, 0x7f800000, 0x4746e441, 0x7fc00000,
    0x476e1f48, 0x343fa4e6, 0xbeffffff, 0x4e439730, 0x407fffff, 0x3d30c006, 0x5069b174,
    0x4552b537, 0x306b4c4d, 0x54415894, 0x3b0f867e, 0x42f011f1, 0x2c583c75, 0x5259faa0,
    0x5211db79, 0x360d4c76, 0xff800000], np.uint32)
RSQRT = np.array([
    0x47e00b08, 0x49d7d94d, 0x36f7891d, 0x34f4f417, 0x4664d73a, 0x39100220, 0x37e18c41,
    0x4040ee13, 0x48c354ce, 0x35bd0780, 0x4a07fb21, 0x1f8852ae, 0x4198cd79, 0x3d4ebd90,
    0x3fc63030, 0x3a99c627, 0x3fbaf527, 0x46b46f64, 0x436587d1, 0x45191cb8, 0x3feaa769,
    0x3c9a9ba6, 0x47c06574, 0x7f800000, 0x4300d0ae, 0x42d38a26, 0x3895946e, 0x3addc9d8,
    0x7f800000, 0x48809c3b, 0x37ba5fdb, 0x49163557, 0x5efd5f62, 0x7f800000, 0x4361a575,
    0x7fc00000, 0x4376e63a, 0x39dd7f38, 0xffc00000, 0x46dfc414, 0x40000000, 0x3e54b740,
    0x47f497a8, 0x426840a2, 0x37f56e4d, 0x49de7a70, 0x3d3faeee, 0x412f4bfb, 0x35eb4790,
    0x48ec39ce, 0x48c13bf7, 0x3abe30cb, 0xff800000], np.uint32)
RCPPS = np.array([
    0x50441800, 0x54360000, 0x2e6f6000, 0x2a6a6800, 0x4d4c9000, 0x32a21000, 0x3046c000,
    0x41116800, 0x52151000, 0x2c0b9000, 0x54907800, 0x0, 0x43b66800, 0x3b26f800, 0x40196800,
    0x35b8c000, 0x40088800, 0x4dfe6000, 0x474dc800, 0x4ab72800, 0x40571800, 0x39bac000,
    0x50109800, 0x7f800000, 0x4681a800, 0x462ed000, 0x31aed000, 0x36402800, 0x7f800000,
    0x51813800, 0x3007a800, 0x52b04800, 0x7e7ac800, 0x7f800000, 0x4746e800, 0x7fc00000,
    0x476e2000, 0x343fa800, 0xbefff000, 0x4e439800, 0x407ff000, 0x3d30c000, 0x5069b800,
    0x4552b000, 0x306b5000, 0x54415800, 0x3b0f8800, 0x42f01800], np.uint32)
RSQRTPS = np.array([
    0x47e01000, 0x49d7e000, 0x36f79000, 0x34f4f800, 0x4664d800, 0x39100800, 0x37e19000,
    0x4040f000, 0x48c35800, 0x35bd0800, 0x4a07f800, 0x1f885000, 0x4198c800, 0x3d4ec000,
    0x3fc63000, 0x3a99c800, 0x3fbaf800, 0x46b47000, 0x43658800, 0x45192000, 0x3feaa800,
    0x3c9aa000, 0x47c06800, 0x7f800000, 0x4300d000, 0x42d38800, 0x38959000, 0x3addc800,
    0x7f800000, 0x48809800, 0x37ba6000, 0x49163800, 0x5efd5800, 0x7f800000, 0x4361a800,
    0x7fc00000, 0x4376e000, 0x39dd8000, 0xffc00000, 0x46dfc800, 0x3ffff800, 0x3e54c000,
    0x47f4a000, 0x42684000, 0x37f57000, 0x49de7800, 0x3d3fb800, 0x412f5000], np.uint32)

ERFC_X = np.array([
    0x80000000, 0xbf893c0b, 0x41400000, 0xc03f1dd4, 0x116c2, 0xc09f8e68, 0xbf800000, 0xc06a49f3,
    0x0, 0xbff8a903, 0x41180000, 0x3f800000, 0xc050a137, 0xc1300000, 0x41300000, 0x407f5c29,
    0xff800000, 0xc1f00000, 0x3f6805c0, 0x7fc00000, 0x7f800000, 0x3f000000, 0xc02151a5,
    0xffc00000, 0xda24260, 0x3e42a213, 0xc00b0cd6, 0x3f800000, 0x40745dfc, 0x41400000,
    0xbf800000, 0x116c2, 0x408c2831, 0x7f800000, 0xc1f00000, 0xda24260, 0x3fd95818, 0x3f000000,
    0xc1300000, 0xc01d8493, 0xc04d3846, 0x408dea77, 0xc032bf6c, 0xc001af13, 0xbe1458bb,
    0x407f5c29, 0xffc00000, 0x41300000, 0xff800000, 0x0, 0xc03531cc, 0x80000000, 0xc000aacd,
    0xc05d3764, 0x41180000, 0x3e151acf, 0x4009685d, 0x7fc00000], np.uint32)
ERFC = np.array([
    0x3f800000, 0x3fef6dea, 0x0, 0x3fffff36, 0x3f800000, 0x40000000, 0x3febdd9e, 0x3ffffffe,
    0x3f800000, 0x3fff3b1f, 0x0, 0x3e21130c, 0x3fffffde, 0x40000000, 0x0, 0x328fc9ea,
    0x40000000, 0x40000000, 0x3e4cba14, 0x7fc00000, 0x0, 0x3ef5810a, 0x3ffff410, 0xffc00000,
    0x3f800000, 0x3f49bfc5, 0x3fffba77, 0x3e21130c, 0x338f44c0, 0x0, 0x3febdd9e, 0x3f800000,
    0x30211b83, 0x0, 0x40000000, 0x3f800000, 0x3c85d1ad, 0x3ef5810a, 0x40000000, 0x3fffef9d,
    0x3fffffd0, 0x2fc4232c, 0x3ffffd70, 0x3fff77a1, 0x3f94c748, 0x328fc9ea, 0xffc00000, 0x0,
    0x40000000, 0x3f800000, 0x3ffffdf5, 0x3f800000, 0x3fff6da2, 0x3ffffff7, 0x0, 0x3f563bd5,
    0x3b1cf45d, 0x7fc00000], np.uint32)

x = X.view(np.float32)
CUT = x.size // 8 * 8


def _run(fn):
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None])
        y = fn(p)
        with tf.Session() as sess:
            return sess.run(y, {p: x})


def _ulps(a, b):
    return np.abs(a.view(np.int32).astype(np.int64) - b.view(np.int32))


@pytest.mark.parametrize("fn,want,raw_name,op", [
    (tf.math.reciprocal, RECIPROCAL, "rcp", "Reciprocal"),
    (tf.math.rsqrt, RSQRT, "rsqrt", "Rsqrt")])
def test_matches_tf(fn, want, raw_name, op):
    got = _run(fn)
    with np.errstate(all="ignore"):
        raw = x86_approx._apply(x86_approx._load()[raw_name], x)
        exact = (np.float32(1) / x if op == "Reciprocal" else
                 (1 / np.sqrt(x.astype(np.float64))).astype(np.float32))
    recorded_raw = RCPPS if op == "Reciprocal" else RSQRTPS
    if np.array_equal(raw.view(np.uint32), recorded_raw[:CUT]):
        assert got.view(np.uint32).tolist() == want.tolist()
    # the scalar tail is exact on every CPU
    assert got[CUT:].view(np.uint32).tolist() == want[CUT:].tolist()
    tiny = np.finfo(np.float32).tiny     # (subnormal inputs and results are flushed to zero)
    finite = np.isfinite(exact) & (np.abs(exact) >= tiny) & (np.abs(x) >= tiny)
    assert _ulps(got[finite], exact[finite]).max() <= 2
    nonfinite = ~finite
    assert np.array_equal(np.isnan(got[nonfinite]), np.isnan(want[nonfinite].view(np.float32)))


def test_packets_are_the_newton_step_of_the_cpus_approximation():
    a = x[:CUT][np.isfinite(x[:CUT]) & (x[:CUT] > 1e-30) & (x[:CUT] < 1e30)]
    a = a[:a.size // 8 * 8]
    with np.errstate(all="ignore"):
        x0 = x86_approx._apply(x86_approx._load()["rcp"], a)
        y0 = x86_approx._apply(x86_approx._load()["rsqrt"], a)
    f = np.float32
    assert np.array_equal(x86_approx.reciprocal(a), x0 * (f(1) - a * x0) + x0)
    assert np.array_equal(x86_approx.rsqrt(a), (y0 * f(-0.5)) * ((a * y0) * y0 - f(1)) + y0)


def test_float64_stays_exact():
    v = np.array([3., 7., 0.1, 5., 11., 13., 17., 19., 23.])
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float64, [None])
        with tf.Session() as sess:
            got = sess.run(tf.math.reciprocal(p), {p: v})
    assert got.tolist() == (1 / v).tolist()


def test_under_flush_to_zero_subnormals_read_as_zero():
    v = np.full(8, 1e-40, np.float32)
    saved = float_env.enter()
    try:
        assert np.isinf(x86_approx.reciprocal(v)).all()
    finally:
        float_env.leave(saved)


def _same_cpu_tables():
    with np.errstate(all="ignore"):
        raw = x86_approx._apply(x86_approx._load()["rcp"], x)
    return np.array_equal(raw.view(np.uint32), RCPPS[:CUT])


def test_erfc_float32():
    v = ERFC_X.view(np.float32)
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None])
        y = tf.math.erfc(p)
        with tf.Session() as sess:       # (recorded as two tensors: 25 values, then 33)
            got = np.concatenate([sess.run(y, {p: v[:25]}), sess.run(y, {p: v[25:]})])
    want = ERFC.view(np.float32)
    if _same_cpu_tables():
        assert got.view(np.uint32).tolist() == ERFC.tolist()
    import math
    exact = np.array([math.erfc(float(t)) for t in v], np.float64)
    ok = np.isfinite(v)
    assert np.allclose(got[ok], exact[ok], rtol=1e-6, atol=1e-7)
    assert np.array_equal(np.isnan(got), np.isnan(want))


def test_scalars_stay_scalars():
    # (np.ascontiguousarray made a 0-d input 1-d: rsqrt(16.) had shape (1,), breaking dct's ortho norm)
    with tf.Graph().as_default():
        with tf.Session() as sess:
            r, q = sess.run([tf.math.rsqrt(tf.constant(16.0)), tf.math.reciprocal(tf.constant(4.0))])
            assert np.shape(r) == np.shape(q) == () and r == 0.25 and q == 0.25
            assert sess.run(tf.signal.dct(tf.ones([2, 8]), norm="ortho")).shape == (2, 8)
