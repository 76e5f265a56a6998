"""Pooling ops against loop references; gradients (and max pooling's second order) by finite
differences; argmax indices; TF names."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

RNG = np.random.RandomState(1)


def _pads(size, k, s, padding):
    if padding == "VALID":
        return 0, 0, (size - k) // s + 1
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2, out


def ref_pool(x, k, s, padding, kind):
    n, h, w, c = x.shape
    t, _, oh = _pads(h, k[0], s[0], padding)
    l, _, ow = _pads(w, k[1], s[1], padding)
    out = np.zeros((n, oh, ow, c), x.dtype)
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s[0] - t, j * s[1] - l
            win = x[:, max(r0, 0):r0 + k[0], max(c0, 0):c0 + k[1], :]
            out[:, i, j] = win.max(axis=(1, 2)) if kind == "max" else win.mean(axis=(1, 2))
    return out


CASES = [((2, 2), (2, 2), "VALID"), ((3, 3), (2, 2), "SAME"), ((3, 2), (1, 2), "SAME"),
         ((3, 3), (2, 1), "VALID")]


@pytest.mark.parametrize("k,s,padding", CASES)
def test_pooling_matches_loop_reference(k, s, padding):
    x = RNG.randn(2, 7, 6, 3).astype(np.float32)
    check_op(lambda a: tf.nn.max_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x],
             ref_pool(x, k, s, padding, "max"))
    check_op(lambda a: tf.nn.avg_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x],
             ref_pool(x, k, s, padding, "avg"), rtol=1e-5)


def test_nchw():
    x = RNG.randn(2, 6, 6, 3).astype(np.float32)
    xt = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    check_op(lambda a: tf.nn.max_pool(a, 3, 2, "SAME", data_format="NCHW"), [xt],
             ref_pool(x, (3, 3), (2, 2), "SAME", "max").transpose(0, 3, 1, 2))


@pytest.mark.parametrize("k,s,padding", CASES[:3])
def test_pooling_gradients(k, s, padding):
    x = RNG.randn(2, 5, 5, 2)
    check_gradients(lambda a: tf.nn.max_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x])
    check_gradients(lambda a: tf.nn.avg_pool(a, [1, k[0], k[1], 1], [1, s[0], s[1], 1], padding), [x])


def test_second_order():
    x = RNG.randn(1, 4, 4, 2)
    check_gradients(lambda a: tf.gradients(tf.square(tf.nn.max_pool(a, 2, 1, "VALID")), a)[0], [x])
    check_gradients(lambda a: tf.gradients(tf.square(tf.nn.avg_pool(a, 2, 1, "SAME")), a)[0], [x])


def test_max_pool_gradient_goes_to_first_maximum():
    x = np.ones((1, 2, 2, 1), np.float32)
    g = tf.Graph()
    with g.as_default():
        xt = tf.constant(x)
        grad, = tf.gradients(tf.nn.max_pool(xt, 2, 2, "VALID"), xt)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(grad).ravel(), [1, 0, 0, 0])


def test_max_pool_with_argmax():
    x = RNG.rand(2, 7, 7, 3).astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        out, am = tf.nn.max_pool_with_argmax(tf.constant(x), [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
        assert (out.name, am.name, am.dtype) == ("MaxPoolWithArgmax:0", "MaxPoolWithArgmax:1", tf.int64)
        out2, am2 = tf.nn.max_pool_with_argmax(tf.constant(x), 2, 2, "SAME", include_batch_in_index=True)
        with tf.Session() as sess:
            o, a, a2 = sess.run([out, am, am2])
    np.testing.assert_array_equal(o, ref_pool(x, (2, 2), (2, 2), "SAME", "max"))
    for b in range(2):
        np.testing.assert_array_equal(x[b].ravel()[a[b]], o[b])
    np.testing.assert_array_equal(x.ravel()[a2], o)
    check_gradients(lambda t: tf.nn.max_pool_with_argmax(t, 2, 2, "VALID")[0], [RNG.randn(2, 4, 4, 2)])


def test_names_as_tensorflow():
    # Recorded from TensorFlow's tf.compat.v1 graph mode.
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [2, 7, 7, 3])
        mp = tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        ap = tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "SAME")
        assert (mp.name, mp.shape.as_list()) == ("MaxPool:0", [2, 3, 3, 3])
        assert (ap.name, ap.shape.as_list()) == ("AvgPool:0", [2, 4, 4, 3])
        gm, = tf.gradients(mp, x)
        ga, = tf.gradients(ap, x)
        assert gm.name == "gradients/MaxPool_grad/MaxPoolGrad:0"
        assert ga.name == "gradients_1/AvgPool_grad/AvgPoolGrad:0"
        ggm, = tf.gradients(tf.reduce_sum(gm), gm.op.inputs[2])
        assert ggm.op.type == "MaxPoolGradGrad"
        with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 9 from 7"):
            tf.nn.max_pool(x, [1, 9, 9, 1], [1, 1, 1, 1], "VALID")
