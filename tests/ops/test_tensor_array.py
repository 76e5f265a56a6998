"""tf.TensorArray: write/read/stack/unstack/gather/scatter/concat/split/size, dynamic size,
use inside while_loop, and gradients through it."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients


def test_ops():
    with tf.Graph().as_default():
        # Elements read more than once in a step need clear_after_read=False (TF refuses a second
        # read otherwise); split into unequal lengths needs infer_shape=False (as in TF 2.21).
        ta = tf.TensorArray(tf.float32, size=3, clear_after_read=False)
        ta = ta.write(0, [1., 2.]).write(1, [3., 4.]).write(2, [5., 6.])
        r = ta.read(1)
        s = ta.stack()
        assert s.shape.as_list() == [3, 2]
        g = ta.gather([2, 0])
        ta2 = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(tf.constant([[1.], [2.], [3.]]))
        sc = tf.TensorArray(tf.float32, size=4).scatter([3, 1], tf.constant([7., 8.]))
        sp = tf.TensorArray(tf.float32, size=2, clear_after_read=False, infer_shape=False).split(tf.constant([1., 2., 3.]), [1, 2])
        with tf.Session() as sess:
            out = sess.run([r, s, g, ta2.stack(), ta2.size(), sc.read(3), sp.read(1), sp.concat()])
        np.testing.assert_allclose(out[0], [3, 4])
        np.testing.assert_allclose(out[1], [[1, 2], [3, 4], [5, 6]])
        np.testing.assert_allclose(out[2], [[5, 6], [1, 2]])
        np.testing.assert_allclose(out[3], [[1], [2], [3]])
        assert out[4] == 3 and out[5] == 7.0
        np.testing.assert_allclose(out[6], [2, 3])
        np.testing.assert_allclose(out[7], [1, 2, 3])


def test_errors():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=1)
        # As TF 2.21: a write of another dtype builds, and its kernel fails at run time.
        bad = ta.write(0, tf.constant(1))
        w = ta.write(3, 1.0)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(bad.flow)
            assert "TensorArray dtype is float but Op is trying to write dtype int32." in str(e.value)
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(w.stack())


def test_dynamic_growth_in_loop():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        _, ta = tf.while_loop(lambda i, ta: i < 5, lambda i, ta: (i + 1, ta.write(i, i * i)), [0, ta])
        with tf.Session() as sess:
            assert sess.run(ta.stack()).tolist() == [0, 1, 4, 9, 16]


def test_gradients_through_loop():
    def f(x):
        n = 3
        inp = tf.TensorArray(tf.float64, size=n).unstack(x)
        out = tf.TensorArray(tf.float64, size=n)

        def body(i, h, out):
            h = tf.tanh(h * 0.5 + inp.read(i))
            return i + 1, h, out.write(i, h * h)
        _, _, out = tf.while_loop(lambda i, h, o: i < n, body, [0, tf.zeros([2], tf.float64), out])
        return out.stack()
    check_gradients(f, [np.array([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]])])
