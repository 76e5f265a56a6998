"""tf.nn.fractional_max_pool / fractional_avg_pool: TF's pooling sequences for given seeds
(recorded from real TensorFlow 2.21 compat.v1), the pooling against a NumPy reference over
those sequences, static shapes, errors, and gradients by finite differences."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing.op_test import check_gradients

_X = np.random.RandomState(0).randn(2, 9, 7, 3).astype(np.float32)


def _reference(x, rows, cols, overlapping, reduce):
    out = np.empty((x.shape[0], len(rows) - 1, len(cols) - 1, x.shape[3]), x.dtype)
    for i in range(len(rows) - 1):
        r1 = min(rows[i + 1] if overlapping else rows[i + 1] - 1, x.shape[1] - 1)
        for j in range(len(cols) - 1):
            c1 = min(cols[j + 1] if overlapping else cols[j + 1] - 1, x.shape[2] - 1)
            out[:, i, j, :] = reduce(x[:, rows[i]:r1 + 1, cols[j]:c1 + 1, :], axis=(1, 2))
    return out


@pytest.mark.parametrize("pseudo_random,overlapping,seqs", [
    # (row sequence, col sequence) of max pool seed=5/seed2=7 and avg pool seed=3/seed2=1, from TF
    (False, False, [[0, 1, 3, 4, 6, 7, 9], [0, 2, 4, 5, 7], [0, 2, 4, 5, 6, 7, 9], [0, 2, 4, 6, 7]]),
    (True, True, None),
])
def test_sequences_and_values(pseudo_random, overlapping, seqs):
    x = tf.constant(_X)
    m = tf.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], pseudo_random=pseudo_random,
                                  overlapping=overlapping, deterministic=True, seed=5, seed2=7)
    a = tf.nn.fractional_avg_pool(x, [1.0, 1.44, 1.73, 1.0], pseudo_random=pseudo_random,
                                  overlapping=overlapping, deterministic=True, seed=3, seed2=1)
    assert type(m).__name__ == "FractionalMaxPool" and m.output.name == "FractionalMaxPool:0"
    # TF's shape function gives the sequences the output's length
    assert [t.shape.as_list() for t in m] == [[2, 6, 4, 3], [6], [4]]
    with tf.Session() as sess:
        mo, mr, mc, ao, ar, ac = sess.run(list(m) + list(a))
        again = sess.run(list(m))
    if seqs is not None:
        assert [mr.tolist(), mc.tolist(), ar.tolist(), ac.tolist()] == seqs
    for seq, n in ((mr, 9), (mc, 7), (ar, 9), (ac, 7)):
        assert seq[0] == 0 and seq[-1] == n and set(np.diff(seq)) <= {1, 2}
    np.testing.assert_array_equal(mo, _reference(_X, mr, mc, overlapping, np.max))
    np.testing.assert_allclose(ao, _reference(_X, ar, ac, overlapping, np.mean), rtol=1e-6)
    np.testing.assert_array_equal(again[1], mr)  # deterministic: the same regions every run


def test_pseudo_random_sequences_from_tf():
    # recorded from real TF: pseudo_random, seed=5, seed2=7 on a 9 x 7 input
    m = tf.nn.fractional_max_pool(tf.constant(_X), [1.0, 1.44, 1.73, 1.0], pseudo_random=True,
                                  deterministic=True, seed=5, seed2=7)
    with tf.Session() as sess:
        _, rows, cols = sess.run(m)
    assert rows.tolist() == [0, 2, 3, 5, 6, 8, 9] and cols.tolist() == [0, 2, 4, 6, 7]


def test_static_shapes_and_errors():
    p = tf.placeholder(tf.float32, [None, 10, None, 2])
    assert tf.nn.fractional_max_pool(p, [1, 2.5, 1.5, 1])[0].shape.as_list() == [None, 4, None, 2]
    with pytest.raises(ValueError):
        tf.nn.fractional_max_pool(p, [1, 2.5, 1.5])
    with pytest.raises(TypeError):
        tf.nn.fractional_avg_pool(tf.zeros([1, 4, 4, 1], tf.float16), [1, 1.5, 1.5, 1])
    bad = tf.nn.fractional_max_pool(tf.zeros([1, 4, 4, 1]), [1, 1.5, 1.5, 1], seed=1)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="deterministic"):
            sess.run(bad)


@pytest.mark.parametrize("overlapping", [False, True])
@pytest.mark.parametrize("fn", ["fractional_max_pool", "fractional_avg_pool"])
def test_gradients(fn, overlapping):
    x = np.random.RandomState(1).permutation(2 * 7 * 6 * 2).reshape(2, 7, 6, 2).astype(np.float64) / 10
    pool = getattr(tf.nn, fn)
    check_gradients(lambda t: pool(t, [1, 1.6, 1.4, 1], overlapping=overlapping, deterministic=True,
                                   seed=2, seed2=9)[0], [x])
