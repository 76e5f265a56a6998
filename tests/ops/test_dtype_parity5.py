"""Ops across dtypes and edge cases, round 5: values, dtypes, signed zeros, NaN and the errors TF
raises. Expected values were recorded from TF 2.21 (tf.compat.v1, graph mode, CPU)."""

import numpy as np
import pytest

import tensorweave as tf


def _run(*fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(list(fetches), feed)


def _signs(a):
    return np.signbit(np.asarray(a)).tolist()


def test_sort_and_top_k_of_extreme_integers_are_exact():
    # recorded from TF 2.21 for int64/int8; the uint64 extremes differ in TF itself (its
    # tf.constant of a list wraps 2**64 - 1), so we check NumPy's order there
    with tf.Graph().as_default():
        for dt in (tf.int64, tf.int8, tf.uint64, tf.uint8):
            vals = [7, 3, 9, dt.max, dt.min, 0]
            x = tf.constant(np.array(vals, dt.as_numpy_dtype))
            s, a, d, (tv, ti) = _run(tf.sort(x), tf.argsort(x), tf.sort(x, direction="DESCENDING"),
                                     tf.nn.top_k(x, 2))
            ref = np.array(vals, dt.as_numpy_dtype)
            np.testing.assert_array_equal(s, np.sort(ref))
            np.testing.assert_array_equal(a, np.argsort(ref, kind="stable"))
            np.testing.assert_array_equal(d, np.sort(ref)[::-1])
            assert tv.tolist() == [dt.max, 9] and ti.tolist() == [3, 2]


def test_top_k_rejects_bool_and_complex_at_build_time():
    with tf.Graph().as_default():
        for v in ([True], [1j]):
            with pytest.raises(TypeError, match="parameter 'input' has DataType .* not in list of allowed "
                                                "values: float32, float64, int32, uint8, int16, int8, int64, "
                                                "bfloat16, uint16, float16, uint32, uint64$"):
                tf.nn.top_k(tf.constant(v), 1)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
def test_maximum_minimum_signed_zero_ties_follow_eigen_packets(dt):
    # TF 2.21: float32 packets of 8 and float64 packets of 4 keep the second operand on a tie,
    # the scalar tail (and float16) the first
    packet = {"float32": 8, "float64": 4, "float16": None}[dt]
    with tf.Graph().as_default():
        for n in (3, 4, 8, 11, 19):
            a = np.array([-0.0, 0.0] * n)[:n].astype(dt)
            x, y = tf.constant(a), tf.constant(-a)
            mx, mn, ms = _run(tf.maximum(x, y), tf.minimum(x, y), tf.maximum(x, tf.constant(-0.0, dt)))
            main = n - n % packet if packet else 0
            want = np.concatenate([-a[:main], a[main:]])
            assert _signs(mx) == _signs(want) and _signs(mn) == _signs(want)
            assert _signs(ms) == _signs(np.concatenate([np.full(main, -0.0), a[main:]]))


def test_clip_by_value_keeps_signed_zeros_as_tf():
    # recorded from TF 2.21
    with tf.Graph().as_default():
        y32 = tf.constant([[-0.0, 0.0], [0.0, -0.0]])
        y64 = tf.constant([[-0.0, 0.0], [0.0, -0.0]], tf.float64)
        c32, c64 = _run(tf.clip_by_value(y32, -0.0, 0.0), tf.clip_by_value(y64, -0.0, 0.0))
        assert _signs(c32) == [[True, False], [False, True]]
        assert _signs(c64) == [[True, True], [True, True]]


def test_cumsum_starts_from_positive_zero_and_floormod_keeps_negative_zero():
    # recorded from TF 2.21: cumsum([-0.0, 0.0]) is [0.0, 0.0]; floormod(-0.0, 2.0) is -0.0,
    # also when the graph is all constants
    with tf.Graph().as_default():
        y = tf.constant([[-0.0, 0.0], [0.0, -0.0]])
        p = tf.placeholder(tf.float64, [2])
        cs, cse, cp, fm, fmp = _run(tf.cumsum(y, 1), tf.cumsum(y, 1, exclusive=True, reverse=True),
                                    tf.cumprod(y, 1), tf.floormod(y, 2.0), tf.floormod(p, 2.0),
                                    feed={p: [-0.0, -4.0]})
        assert _signs(cs) == [[False, False], [False, False]]
        assert _signs(cse) == [[False, False], [False, False]]
        assert _signs(cp) == [[True, True], [False, True]]
        assert _signs(fm) == [[True, False], [False, True]]
        assert _signs(fmp) == [True, True]
