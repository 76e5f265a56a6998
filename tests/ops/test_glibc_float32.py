"""float32 Tan, Sinh, Cosh, Asinh and Acosh are glibc's float functions, as TF's kernels
(kernels/cpu/libm.py). Expected bit patterns recorded from TF 2.21 (tensorflow.compat.v1, x86-64
CPU wheel, glibc 2.36) for the inputs X; NumPy's own float32 loops differed on 5-30% of inputs.
"""

import numpy as np
import pytest

import tensorweave as tf

X = [
    0x3e9c0d19, 0x3f9fdb87, 0xbfa095cd, 0x3d850cb3, 0x4016e442, 0x40182d32, 0xc00fc676,
    0xbfe0d664, 0xc02c3c91, 0xbeb5d508, 0xc034870d, 0xbe849bbc, 0x40c62e4e, 0x404e95e3,
    0x40cd1f0b, 0x40b742c9, 0x3f988eb5, 0x40af1110, 0x4044bcbd, 0x408a4412, 0x40512a33,
    0x40d1717d, 0x4090c193, 0x401050f8, 0x0, 0x80000000, 0x116c2, 0x42b00000, 0xc2b00000,
    0x3a83126f]
TAN = [
    0x3ea111e3, 0x403fe5fd, 0xc043989d, 0x3d853cb3, 0xbf7f3d5a, 0xbf7530ce, 0x3f9fb042,
    0x40aa4ac5, 0x3ef79304, 0xbebde213, 0x3eaa2786, 0xbe87a7c2, 0xbdb8e31d, 0x3db131bb,
    0x3e029993, 0xbf1f2d30, 0x4020baa4, 0xbf8717dd, 0xbd8a99ba, 0x401b000f, 0x3e025801,
    0x3e894156, 0x40a78284, 0xbf9cf376, 0x0, 0x80000000, 0x116c2, 0x3d111516, 0xbd111516,
    0x3a831272]
SINH = [
    0x3e9e7a7e, 0x3fccc6d8, 0xbfce271f, 0x3d8524aa, 0x40a78c71, 0x40ab01da, 0xc095944b,
    0xc033d4e0, 0xc0eae77d, 0xbeb9adb8, 0xc105d68b, 0xbe86188e, 0x4374b134, 0x41497edc,
    0x4397faa0, 0x431981bc, 0x3fbf546a, 0x42eda761, 0x412ca8d3, 0x421678f2, 0x4151cec6,
    0x43adf4f2, 0x42385140, 0x4096e0b5, 0x0, 0x80000000, 0x116c2, 0x7e7882b7, 0xfe7882b7,
    0x3a831270]
COSH = [
    0x3f85fdd1, 0x3ff17d7c, 0x3ff2a87d, 0x3f80452c, 0x40aa93bb, 0x40adf9bb, 0x4098f6c3,
    0x403ee16c, 0x40ed12e7, 0x3f88283e, 0x4106ca81, 0x3f845138, 0x4374b1ba, 0x414a213a,
    0x4397fad6, 0x43198292, 0x3fe632aa, 0x42eda989, 0x412d6633, 0x4216868e, 0x41526aba,
    0x43adf522, 0x42385c5b, 0x409a3be1, 0x3f800000, 0x3f800000, 0x3f800000, 0x7e7882b7,
    0x7e7882b7, 0x3f800004]
ASINH = [
    0x3e99bb18, 0x3f8600bd, 0xbf867500, 0x3d84f4c9, 0x3fcbe8ae, 0x3fcce8a3, 0xbfc63ccf,
    0xbfaa213c, 0xbfdba58f, 0xbeb2363a, 0xbfe14daa, 0xbe832b36, 0x40217998, 0x3ff1aef8,
    0x4023a694, 0x401c88f4, 0x3f816034, 0x4019a72b, 0x3febb975, 0x400adcaf, 0x3ff33390,
    0x4024f837, 0x400db9ba, 0x3fc6ad49, 0x0, 0x80000000, 0x116c2, 0x40a574de, 0xc0a574de,
    0x3a83126e]
ACOSH = [
    0xffc00000, 0x3f3110b6, 0xffc00000, 0xffc00000, 0x3fc05106, 0x3fc1838f, 0xffc00000,
    0xffc00000, 0xffc00000, 0xffc00000, 0xffc00000, 0xffc00000, 0x4020a3fc, 0x3feb877a,
    0x4022df2f, 0x401b8f20, 0x3f1c2551, 0x40189566, 0x3fe4ef90, 0x400925a1, 0x3fed32d4,
    0x402438f7, 0x400c2934, 0x3fb9fca9, 0xffc00000, 0xffc00000, 0xffc00000, 0x40a57457,
    0xffc00000, 0xffc00000]


@pytest.mark.parametrize("fn,want", [(tf.tan, TAN), (tf.sinh, SINH), (tf.cosh, COSH),
                                     (tf.asinh, ASINH), (tf.acosh, ACOSH)])
def test_float32_is_glibc(fn, want):
    x = np.array(X, np.uint32).view(np.float32)
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None])
        with tf.Session() as sess:
            got = sess.run(fn(p), {p: x})
    want = np.array(want, np.uint32).view(np.float32)
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), np.flatnonzero(~same)


def test_scalar_and_big_tensors():
    with tf.Graph().as_default():
        c = tf.tan(tf.constant(0.5))
        big = tf.sinh(tf.fill([20000], 0.25))         # past the exact path's size: NumPy's loop
        with tf.Session() as sess:
            v, b = sess.run([c, big])
    assert v.dtype == np.float32 and abs(v - np.tan(0.5)) < 1e-7
    assert b.shape == (20000,) and np.allclose(b, np.sinh(0.25))
