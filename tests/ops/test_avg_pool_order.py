"""Average pooling and its gradient add in TF's order, bit for bit. The loop references below
spell out the orders that were checked against TF 2.21 on random inputs (2-D and 3-D, SAME and
VALID, overlapping and not): the forward pass is 0 + the window's in-image values one by one,
row-major, divided by their count; the gradient adds g * (1 / count), the reciprocal rounded to
the dtype, into zeros output by output (2-D: row-major; 3-D: columns outermost, then rows, then
planes)."""

import itertools

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu.conv import conv_geometry


def _ranges(o, k, s, lo, size):
    start = o * s - lo
    return [i for i in range(start, start + k) if 0 <= i < size]


def _ref_2d(x, g, k, st, pad):
    n, h, w, c = x.shape
    oh, ow, ph, pw = conv_geometry(h, w, k[0], k[1], st, (1, 1), pad)
    y = np.zeros((n, oh, ow, c), x.dtype)
    dx = np.zeros_like(x)
    for r, q in itertools.product(range(oh), range(ow)):
        rows, cols = _ranges(r, k[0], st[0], ph[0], h), _ranges(q, k[1], st[1], pw[0], w)
        acc = np.zeros((n, c), x.dtype)
        for i, j in itertools.product(rows, cols):
            acc = acc + x[:, i, j]
        y[:, r, q] = acc / x.dtype.type(len(rows) * len(cols))
        coeff = x.dtype.type(1.0 / (len(rows) * len(cols)))
        for i, j in itertools.product(rows, cols):
            dx[:, i, j] += g[:, r, q] * coeff
    return y, dx


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("k,st,pad", [((3, 3), (2, 2), "SAME"), ((2, 2), (2, 2), "VALID"),
                                      ((3, 2), (1, 1), "SAME"), ((3, 3), (1, 1), "VALID")])
def test_avg_pool_and_gradient_bits(k, st, pad, dtype):
    rng = np.random.RandomState(0)
    x = rng.randn(2, 9, 8, 5).astype(dtype)
    with tf.Graph().as_default():
        xt = tf.constant(x)
        y = tf.nn.avg_pool(xt, [1, k[0], k[1], 1], [1, st[0], st[1], 1], pad)
        g = rng.randn(*y.shape.as_list()).astype(dtype)
        dx = tf.gradients(y, xt, grad_ys=tf.constant(g))[0]
        with tf.Session() as sess:
            got_y, got_dx = sess.run([y, dx])
    want_y, want_dx = _ref_2d(x, g, k, st, pad)
    np.testing.assert_array_equal(got_y, want_y)
    np.testing.assert_array_equal(got_dx, want_dx)


def test_avg_pool3d_and_gradient_bits():
    rng = np.random.RandomState(0)
    x = rng.randn(2, 5, 6, 7, 3).astype(np.float32)
    for k, st, pad in [((2, 3, 3), (1, 2, 2), "SAME"), ((2, 2, 2), (2, 2, 2), "VALID")]:
        with tf.Graph().as_default():
            xt = tf.constant(x)
            y = tf.nn.avg_pool3d(xt, [1, *k, 1], [1, *st, 1], pad)
            g = rng.randn(*y.shape.as_list()).astype(np.float32)
            dx = tf.gradients(y, xt, grad_ys=tf.constant(g))[0]
            with tf.Session() as sess:
                got_y, got_dx = sess.run([y, dx])
        n, d, h, w, c = x.shape
        od, ph_d = (got_y.shape[1], None)
        pads = []
        outs = got_y.shape[1:4]
        for size, kk, s, o in zip((d, h, w), k, st, outs):
            total = max((o - 1) * s + kk - size, 0) if pad == "SAME" else 0
            pads.append(total // 2)
        want_y = np.zeros_like(got_y)
        want_dx = np.zeros_like(x)
        for p, r, q in itertools.product(*map(range, outs)):
            win = [_ranges(o, kk, s, lo, size) for o, kk, s, lo, size in zip((p, r, q), k, st, pads, (d, h, w))]
            acc = np.zeros((n, c), np.float32)
            for i, j, l in itertools.product(*win):
                acc = acc + x[:, i, j, l]
            cnt = len(win[0]) * len(win[1]) * len(win[2])
            want_y[:, p, r, q] = acc / np.float32(cnt)
        for q, r, p in itertools.product(*map(range, outs[::-1])):     # columns outermost
            win = [_ranges(o, kk, s, lo, size) for o, kk, s, lo, size in zip((p, r, q), k, st, pads, (d, h, w))]
            coeff = np.float32(1.0 / (len(win[0]) * len(win[1]) * len(win[2])))
            for i, j, l in itertools.product(*win):
                want_dx[:, i, j, l] += g[:, p, r, q] * coeff
        np.testing.assert_array_equal(got_y, want_y)
        np.testing.assert_array_equal(got_dx, want_dx)
