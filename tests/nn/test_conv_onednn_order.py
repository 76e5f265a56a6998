"""float32 Conv2D adds its products in the order of TF's oneDNN kernel (kernels/cpu/conv.py).

The digests are of the outputs TF 2.21 (tensorflow.compat.v1, x86-64 CPU wheel, oneDNN) printed
for the same seeded inputs, fed through placeholders, and of conv + bias_add + relu (which TF
fuses into one oneDNN kernel, adding the bias after the sums). Small convolutions are a running
FMA over (kh, kw, ci), or (kw, kh) for one input channel with a batch and padding; the big
one-channel case (8x28x28x1 by 5x5x1x32, MNIST's first layer) keeps BLAS with its taps laid out
in oneDNN's order.
"""

import hashlib
import os

import numpy as np
import pytest

import tensorweave as tf

CASES = [((2, 4, 5, 1), (3, 3, 1, 4), "SAME", 1, "135009f088f7bf96", "45d5c274483616fd"),
         ((1, 8, 8, 16), (3, 3, 16, 8), "SAME", 1, "5199563b795acdc0", "40b0a63b7edbecf2"),
         ((1, 7, 7, 3), (3, 3, 3, 5), "SAME", 2, "a98268e39a35a2ee", "e0d83d9e6b4ec5c9"),
         ((2, 6, 6, 4), (2, 2, 4, 3), "VALID", 1, "bb3a58e51b743c8d", "bc114ee00ad4c44f"),
         ((8, 28, 28, 1), (5, 5, 1, 32), "SAME", 1, "0a6b5e25b0921cdd", "39a0463dce464b27"),
         ((1, 5, 5, 64), (3, 3, 64, 4), "SAME", 1, "90d94d90dd63d298", "58c9e2099c016012")]


def _digest(a):
    return hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_conv2d_bits_as_tf(i):
    xs, ws, pad, st, want, want_fused = CASES[i]
    rng = np.random.RandomState(i)
    x = rng.randn(*xs).astype(np.float32)
    w = rng.randn(*ws).astype(np.float32)
    b = rng.randn(ws[3]).astype(np.float32)
    with tf.Graph().as_default():
        px = tf.placeholder(tf.float32, xs)
        y = tf.nn.conv2d(px, w, [1, st, st, 1], pad)
        with tf.Session() as sess:
            plain, fused = sess.run([y, tf.nn.relu(tf.nn.bias_add(y, b))], {px: x})
    assert (_digest(plain), _digest(fused)) == (want, want_fused)
    # and the values are the convolution (float64 reference, loose tolerance)
    ref = _reference(x.astype(np.float64), w.astype(np.float64), pad, st)
    assert np.allclose(plain, ref, rtol=1e-5, atol=1e-5)


def _reference(x, w, pad, st):
    kh, kw = w.shape[:2]
    n, h, wd, _ = x.shape
    if pad == "SAME":
        oh, ow = -(-h // st), -(-wd // st)
        th, tw = max((oh - 1) * st + kh - h, 0), max((ow - 1) * st + kw - wd, 0)
        x = np.pad(x, ((0, 0), (th // 2, th - th // 2), (tw // 2, tw - tw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // st + 1, (wd - kw) // st + 1
    out = np.zeros((n, oh, ow, w.shape[3]))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * st:i * st + kh, j * st:j * st + kw, :]
            out[:, i, j, :] = np.tensordot(patch, w, axes=([1, 2, 3], [0, 1, 2]))
    return out


# Filter and input gradients of small convolutions, recorded the same way (tf.gradients with
# grad_ys, 2 intra-op threads). The filter gradient splits the batch over the threads; the input
# gradient of a padded convolution is the flipped filter's taps in order (VALID is not
# reproduced: only its filter gradient is compared).
GRAD_CASES = [((64, 4, 5, 1), (3, 3, 1, 4), "SAME", "f5ef3915e11e2e53", "c4a6040d2216edf3"),
              ((3, 6, 6, 2), (3, 3, 2, 4), "VALID", "f9076331a6214f69", None),
              ((4, 5, 5, 3), (3, 3, 3, 4), "SAME", "75e8e087b4295707", "2196a3006bf841fb"),
              ((2, 5, 5, 8), (3, 3, 8, 4), "SAME", "ddcb258e88159eee", "578758f9f1f7820b")]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="recorded with TF's 2 intra-op threads")
@pytest.mark.parametrize("i", range(len(GRAD_CASES)))
def test_conv2d_gradients_bits_as_tf(i):
    xs, ws, pad, want_w, want_x = GRAD_CASES[i]
    rng = np.random.RandomState(10 + i)
    x = rng.randn(*xs).astype(np.float32)
    w = rng.randn(*ws).astype(np.float32)
    with tf.Graph().as_default():
        px, pw = tf.placeholder(tf.float32, xs), tf.placeholder(tf.float32, ws)
        y = tf.nn.conv2d(px, pw, [1, 1, 1, 1], pad)
        dy = rng.randn(*y.shape.as_list()).astype(np.float32)
        gw, gx = tf.gradients(y, [pw, px], grad_ys=dy)
        config = tf.ConfigProto(intra_op_parallelism_threads=2)
        with tf.Session(config=config) as sess:
            a, b = sess.run([gw, gx], {px: x, pw: w})
    assert _digest(a) == want_w
    if want_x is not None:
        assert _digest(b) == want_x


def test_depthwise_conv_and_input_gradient_bits_as_tf():
    # running FMAs over the taps (channel multiplier innermost for the input gradient); digests
    # recorded from TF 2.21 for these seeded inputs
    f32 = np.float32
    rng = np.random.RandomState(0)
    X = rng.randn(2, 9, 9, 3).astype(f32)
    W = rng.randn(3, 3, 3, 2).astype(f32)
    DY = rng.randn(2, 9, 9, 6).astype(f32)
    with tf.Graph().as_default():
        x = tf.placeholder(f32, [None, 9, 9, 3])
        with tf.Session() as sess:
            out = [sess.run(tf.nn.depthwise_conv2d(x, W, [1, 1, 1, 1], "SAME"), {x: X}),
                   sess.run(tf.nn.depthwise_conv2d(x, W, [1, 2, 2, 1], "VALID"), {x: X})]
            for st, pad, oh in ((1, "SAME", 9), (1, "VALID", 7), (2, "SAME", 5)):
                p = tf.placeholder(f32, [2, oh, oh, 6])
                out.append(sess.run(tf.nn.depthwise_conv2d_native_backprop_input(
                    [2, 9, 9, 3], W, p, [1, st, st, 1], pad), {p: DY[:, :oh, :oh]}))
    digests = [hashlib.sha256(v.tobytes()).hexdigest()[:10] for v in out]
    assert digests == ["253de18e24", "7b4baef52c", "c4d01ff06f", "991ea5ffd5", "b8c615179e"]
