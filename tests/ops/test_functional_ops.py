"""map_fn / scan / foldl / foldr values (TF's documented semantics) and gradients."""

import numpy as np

import tensorweave as tf
from tensorweave.testing import check_gradients


def test_values():
    with tf.Graph().as_default():
        x = tf.constant([1., 2., 3.])
        m = tf.map_fn(lambda e: e * 2, x)
        m2 = tf.map_fn(lambda e: (e[0] * 2, e[1]), (x, tf.constant([1, 2, 3])), dtype=(tf.float32, tf.int32))
        s = tf.scan(lambda a, e: a + e, x)
        s0 = tf.scan(lambda a, e: a * e, x, initializer=tf.constant(2.0), reverse=True)
        f = tf.foldl(lambda a, e: a * 10 + e, x)
        fr = tf.foldr(lambda a, e: a * 10 + e, x)
        fi = tf.foldl(lambda a, e: (a[0] + e, a[1] * e), x, initializer=(tf.constant(0.), tf.constant(1.)))
        assert m.shape.as_list() == [3]
        with tf.Session() as sess:
            out = sess.run([m, m2, s, s0, f, fr, fi])
        np.testing.assert_allclose(out[0], [2, 4, 6])
        np.testing.assert_allclose(out[1][0], [2, 4, 6])
        assert out[1][1].dtype == np.int32
        np.testing.assert_allclose(out[2], [1, 3, 6])
        np.testing.assert_allclose(out[3], [12, 12, 6])
        assert out[4] == 123.0 and out[5] == 321.0
        assert out[6] == (6.0, 6.0)


def test_gradients():
    check_gradients(lambda a: tf.map_fn(lambda e: tf.sin(e) * e, a), [np.array([[1., 2.], [3., .5]])])
    check_gradients(lambda a: tf.scan(lambda c, e: c * e + 1.0, a), [np.array([1., 2., .3])])
    check_gradients(lambda a, b: tf.foldr(lambda c, e: c * e, a, initializer=b), [np.array([1., 2., .3]), np.array(0.7)])
    check_gradients(lambda a: tf.foldl(lambda c, e: c + tf.square(e), a), [np.array([1., 2., .3])])
