"""float64 Exp, Log, Tanh, Sigmoid, Log1p and Expm1 in TF's rounding (Eigen's Packet4d math
without FMA over the first n - n % 4 elements, glibc's double functions for the rest, FTZ/DAZ on).

The expected outputs below (float64 bit patterns as uint64) were recorded from real TF 2.21 (CPU
wheel, this VM's CPU) running tf.math.exp/log/tanh/sigmoid/log1p/expm1 on the same 23 inputs:
20 elements in packets (16 in Eigen's unrolled loop), the last 3 through the scalar tail.
"""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import eigen_math

X = np.array([
        0x0, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
        0x12688b70e62b, 0x40862c0000000000, 0xc086280000000000, 0xc087400000000000,
        0xc0874ccccccccccd, 0x4086300000000000, 0x3fe6a09e667f3bcd, 0x3ff6a09e667f3bcd,
        0xc031b851eb851eb8, 0x4031000000000000, 0x400a000000000000, 0xbfd3333333333333,
        0x3d719799812dea11, 0xbefa36e2eb1c432d, 0x405edd2f1a9fbe77, 0xbff8000000000000,
        0x1a56e1fc2f8f359, 0x3fe8000000000000
], np.uint64).view(np.float64)

EXPECTED = {
    "exp": [
        0x3ff0000000000000, 0x3ff0000000000000, 0x7ff0000000000000, 0x0, 0x7ff8000000000000,
        0x3ff0000000000000, 0x7fe81e9b4b52d0c9, 0x0, 0x0, 0x0, 0x7ff0000000000000,
        0x4000399458f5a0d7, 0x401073f7e8448776, 0x3e55a321782bcf75, 0x417709348c0ea4f9,
        0x4039ca53b781114b, 0x3fe7b4c869c37c05, 0x3ff0000000001198, 0x3fefffcb92651cce,
        0x4b11428e1cbc0143, 0x3fcc8f87724b5c1d, 0x3ff0000000000000, 0x4000ef9db467dcf8
    ],
    "log": [
        0xfff0000000000000, 0xfff0000000000000, 0x7ff0000000000000, 0xffffffffffffffff,
        0xffffffffffffffff, 0xfff0000000000000, 0x401a421c25960b33, 0xffffffffffffffff,
        0xffffffffffffffff, 0xffffffffffffffff, 0x401a42d4d1ff8154, 0xbfd62e42fefa39ee,
        0x3fd62e42fefa39f0, 0xffffffffffffffff, 0x4006aa6bc1fa7f7a, 0x3ff2dbc55768deb3,
        0xffffffffffffffff, 0xc03ba18a998fffa0, 0xffffffffffffffff, 0x401343774f3e2362,
        0x7ff8000000000000, 0xc085963447f87fb5, 0xbfd269621134db92
    ],
    "tanh": [
        0x0, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff8000000000000, 0x0,
        0x3ff0000000000000, 0xbff0000000000000, 0xbff0000000000000, 0xbff0000000000000,
        0x3ff0000000000000, 0x3fe37bc6a2932386, 0x3fec6da78ea7f7db, 0xbff0000000000000,
        0x3fefffffffffffe2, 0x3fefe76795d353a1, 0xbfd2a4dda7d914f9, 0x3d719799812dea11,
        0xbefa36e2eb04ce60, 0x3ff0000000000000, 0xbfecf6f9786df577, 0x1a56e1fc2f8f359,
        0x3fe45323e552f228
    ],
    "sigmoid": [
        0x3fe0000000000000, 0x3fe0000000000000, 0x3ff0000000000000, 0x0, 0x7ff8000000000000,
        0x3fe0000000000000, 0x3ff0000000000000, 0x0, 0x0, 0x0, 0x3ff0000000000000,
        0x3fe56eafc5cf3db5, 0x3fe9bde3514991c3, 0x3e55a32170db21b2, 0x3fefffffe9c61cf8,
        0x3feece37d7f30e3c, 0x3fdb3c5574372aeb, 0x3fe00000000008cc, 0x3fdfffe5c91d14ea,
        0x3ff0000000000000, 0x3fc759b8355a1baf, 0x3fe0000000000000, 0x3fe5bbd4f7a323ec
    ],
    "log1p": [
        0x0, 0x8000000000000000, 0x7ff0000000000000, 0xffffffffffffffff, 0xffffffffffffffff, 0x0,
        0x401a438d5d20e4fd, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff,
        0x401a4445c70632f9, 0x3fe11d14e1fcb730, 0x3fec34366179d427, 0xffffffffffffffff,
        0x40071f7b3a6b9186, 0x3ff7269484fac504, 0xbfd6d3c324e13f4f, 0x3d719799812de065,
        0xbefa36f864c29a48, 0x40134bba22cd5df4, 0xfff8000000000000, 0x1a56e1fc2f8f359,
        0x3fe1e85f5e7040d0
    ],
    "expm1": [
        0x0, 0x8000000000000000, 0x7ff0000000000000, 0xbff0000000000000, 0x7ff8000000000000,
        0x12688b70e62b, 0x7fe81e9b4b52d0c9, 0xbff0000000000000, 0xbff0000000000000,
        0xbff0000000000000, 0x7ff0000000000000, 0x3ff07328b1eb41ae, 0x4008e7efd0890eee,
        0xbfeffffff52e6f44, 0x417709347c0ea4f9, 0x4038ca53b781114b, 0xbfd0966f2c7907f6,
        0x3d719799812df3bd, 0xbefa36cd71991b5e, 0x4b11428e1cbc0144, 0xbfe8dc1e236d28f9,
        0x1a56e1fc2f8f359, 0x3ff1df3b68cfb9f0
    ],
}

FUNCS = {"exp": (eigen_math.exp64, tf.exp), "log": (eigen_math.log64, tf.log),
         "tanh": (eigen_math.tanh64, tf.tanh), "sigmoid": (eigen_math.sigmoid64, tf.sigmoid),
         "log1p": (eigen_math.log1p64, tf.math.log1p), "expm1": (eigen_math.expm1_64, tf.math.expm1)}


def _bits(v):
    return np.asarray(v, np.float64).view(np.uint64)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_eigen_math_float64_matches_tf_bits(name):
    want = np.array(EXPECTED[name], np.uint64)
    got = _bits(FUNCS[name][0](X.copy()))
    assert got.tolist() == want.tolist()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_graph_float64_kernel_matches_tf_bits(name):
    want = np.array(EXPECTED[name], np.uint64)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [None])
        y = FUNCS[name][1](x)
        with tf.Session() as sess:
            got = sess.run(y, {x: X})
    assert got.dtype == np.float64
    assert _bits(got).tolist() == want.tolist()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_float64_tail_only(name):
    # a tensor shorter than a packet runs all through the scalar (glibc) path
    want = np.array(EXPECTED[name], np.uint64)
    got = _bits(FUNCS[name][0](X[-3:].copy()))
    assert got.tolist() == want[-3:].tolist()


def test_float64_large_tensor_uses_numpy():
    x = np.linspace(-5, 5, (1 << 14) + 1)
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float64, [None])
        with tf.Session() as sess:
            got = sess.run(tf.exp(p), {p: x})
    np.testing.assert_allclose(got, np.exp(x), rtol=1e-15)


WANT_ATANH = [9218868437227405312, 18442240474082181120, 18446744073709551615, 18446744073709551615,
              9221120237041090560, 18446744073709551615, 18446744073709551615, 4603122929439146762,
              13826494966293922570, 0, 9223372036854775808, 0, 9223372036854775808,
              4603122929437945803, 4603122929440347722, 4599247429414517909, 13830310856622234199]


def test_atanh_float64_as_tf():
    """Eigen's patanh_double on packets, glibc's atanh on the tail (a subnormal there comes back
    unchanged); bit patterns recorded from TF 2.21."""
    import tensorweave as tf
    x = np.array([1., -1., 1.5, -2., np.nan, np.inf, -np.inf, 0.5, -0.5, 0., -0., 1e-310, -1e-310,
                  0.4999999999, 0.5000000001, 0.3, -0.75])
    with tf.Graph().as_default():
        with tf.Session() as sess:
            got = sess.run(tf.math.atanh(tf.constant(x)))
    assert got.view(np.uint64).tolist() == WANT_ATANH


WANT_ERF = [4592768227809932084, 13827652346808047175, 4606588015210868026, 13830537676627006336,
            4607182418661151094, 4607182418800017408, 13830554455654793216, 4607182418800017408,
            4607182418800017408, 4607182418800017408, 9221120237041090560, 0, 9342768475223956794]
WANT_ERFC = [4606169442906671514, 4610234964004014884, 4589419649376359982, 4611677628913494464,
             4490244809146840550, 4316328707294023355, 4611686018427387904, 150015309510019473, 0, 0,
             9221120237041090560, 4607182418800017408, 4607182418800017408]


def test_erf_erfc_float64_as_tf():
    """Eigen's generic_fast_erf/erfc<double> (Dekker's exact x^2 correction, flush-to-zero on
    every step); bit patterns recorded from TF 2.21."""
    import tensorweave as tf
    x = np.array([0.1, -0.7, 1.3, -2.2, 4.0, 6.5, -9.0, 26.117234171752003, 27.9, 30.0, np.nan,
                  1e-310, -1e-300])
    with tf.Graph().as_default():
        with tf.Session() as sess:
            e, c = sess.run([tf.math.erf(tf.constant(x)), tf.math.erfc(tf.constant(x))])
    assert e.view(np.uint64).tolist() == WANT_ERF
    assert c.view(np.uint64).tolist() == WANT_ERFC
