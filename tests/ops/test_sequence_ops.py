"""tf.reverse_sequence against a NumPy loop and values/names/errors recorded from TensorFlow 2.21
(compat.v1); its gradient by finite differences."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import errors
from tensorweave.testing import check_gradients, check_op


def _ref(x, lens, seq, batch):
    out = x.copy()
    for b, n in enumerate(lens):
        src = [slice(None)] * x.ndim
        src[batch] = b
        dst = list(src)
        src[seq] = slice(n - 1, None, -1) if n > 0 else slice(0, 0)
        dst[seq] = slice(0, n)
        out[tuple(dst)] = x[tuple(src)]
    return out


def test_matches_tf_values_and_names():
    x = np.arange(12).reshape(3, 4).astype(np.float32)
    with tf.Graph().as_default():
        y = tf.reverse_sequence(x, [1, 2, 4], seq_axis=1, batch_axis=0)
        assert y.name == "ReverseSequence:0" and y.shape.as_list() == [3, 4]
        assert [t.name for t in y.op.inputs] == ["ReverseSequence/input:0", "ReverseSequence/seq_lengths:0"]
        assert y.op.get_attr("seq_dim") == 1 and y.op.get_attr("batch_dim") == 0
        y2 = tf.reverse_sequence(x.T, [1, 2, 3], seq_dim=0, batch_dim=1)  # deprecated names
        y3 = tf.reverse_sequence(x, tf.constant([1, 2, 4], tf.int64), 1)  # batch axis defaults to 0
        assert y3.op.get_attr("Tlen") == tf.int64
        with tf.Session() as sess:
            a, a2, a3 = sess.run([y, y2, y3])
    want = [[0, 1, 2, 3], [5, 4, 6, 7], [11, 10, 9, 8]]  # TF's
    np.testing.assert_array_equal(a, want)
    np.testing.assert_array_equal(a3, want)
    np.testing.assert_array_equal(a2, [[0, 5, 10], [1, 4, 9], [2, 6, 8], [3, 7, 11]])  # TF's


@pytest.mark.parametrize("shape,seq,batch", [((3, 5), 1, 0), ((5, 3, 2), 0, 1), ((2, 4, 3, 5), 3, 2)])
def test_against_numpy(shape, seq, batch):
    rng = np.random.RandomState(0)
    x = rng.standard_normal(shape).astype(np.float32)
    lens = rng.randint(0, shape[seq] + 1, size=shape[batch]).astype(np.int64)
    check_op(lambda t: tf.reverse_sequence(t, lens, seq_axis=seq, batch_axis=batch), [x],
             _ref(x, lens, seq, batch))


def test_gradient_is_reverse_sequence():
    rng = np.random.RandomState(1)
    x = rng.standard_normal((3, 4, 2))
    lens = np.array([4, 0, 2], np.int32)
    check_gradients(lambda t: tf.reverse_sequence(t, lens, seq_axis=1, batch_axis=0), [x])
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [3, 4])
        g = tf.gradients(tf.reverse_sequence(p, [1, 2, 4], 1), p)[0]
        assert g.op.type == "ReverseSequence"


def test_errors():
    x = np.zeros((3, 4), np.float32)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
            tf.reverse_sequence(x, [1, 2], seq_axis=1, batch_axis=0)
        with pytest.raises(ValueError, match="seq_dim must be < input rank: 2 vs. 2"):
            tf.reverse_sequence(x, [1, 2, 3], seq_axis=2, batch_axis=0)
        with pytest.raises(TypeError, match="Expected int for argument 'seq_dim' not None"):
            tf.reverse_sequence(x, [1, 2, 3])
        lens = tf.placeholder(tf.int32, [3])
        y = tf.reverse_sequence(x, lens, seq_axis=1)
        with tf.Session() as sess:
            with pytest.raises(errors.InvalidArgumentError, match=r"seq_lens\(2\) > input.dims\(1\)"):
                sess.run(y, {lens: [1, 2, 5]})
            with pytest.raises(errors.InvalidArgumentError, match=r"seq_lens\(2\) < 0"):
                sess.run(y, {lens: [1, 2, -1]})
