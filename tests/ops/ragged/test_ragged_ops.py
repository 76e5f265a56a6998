"""Ragged dispatch (math, reductions, concat/stack, gather, boolean_mask) and the ragged string
functions. Expected values were recorded from TensorFlow 2.21 (compat.v1 graph mode)."""

import numpy as np

import tensorweave as tf


def _run(x):
    with tf.Session() as sess:
        return sess.run(x)


def _rt():
    return tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])


def test_elementwise_and_reductions():
    with tf.Graph().as_default():
        rt = _rt()
        f = tf.ragged.constant([[1.5, 2.0], [], [3.0]])
        got = _run([rt + 1, tf.reduce_sum(rt, axis=1), tf.reduce_sum(rt, axis=0), tf.reduce_sum(rt),
                    tf.reduce_max(rt, axis=1), tf.reduce_mean(f, axis=1), tf.reduce_any(rt > 4, axis=1),
                    tf.reduce_all(rt > 0, axis=1), tf.cast(rt, tf.float32)])
        assert got[0].to_list() == [[4, 2, 5, 2], [], [6, 10, 3], [7], []]
        np.testing.assert_array_equal(got[1], [9, 0, 16, 6, 0])
        np.testing.assert_array_equal(got[2], [14, 10, 6, 1])
        assert got[3] == 31
        np.testing.assert_array_equal(got[4], [4, -2147483648, 9, 6, -2147483648])
        np.testing.assert_array_equal(got[5], [1.75, np.nan, 3.0])
        np.testing.assert_array_equal(got[6], [False, False, True, True, False])
        np.testing.assert_array_equal(got[7], [True] * 5)
        assert got[8].dtype == np.float32


def test_concat_stack_gather_mask():
    with tf.Graph().as_default():
        rt = _rt()
        got = _run([tf.concat([rt, rt], axis=0), tf.concat([rt, rt], axis=1), tf.stack([rt, rt], axis=1),
                    tf.gather(rt, [2, 0]), tf.ragged.boolean_mask(rt, rt > 2),
                    tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])])
        rows = [[3, 1, 4, 1], [], [5, 9, 2], [6], []]
        assert got[0].to_list() == rows + rows
        assert got[1].to_list() == [r + r for r in rows]
        assert got[2].to_list() == [[r, r] for r in rows]
        assert got[3].to_list() == [[5, 9, 2], [3, 1, 4, 1]]
        assert got[4].to_list() == [[3, 4], [], [5, 9], [6], []]
        assert got[5].to_list() == [[1, 3], [6]]


def test_range_and_segment_ids():
    with tf.Graph().as_default():
        r = tf.ragged.range([3, 0, 2])
        assert r.values.name == "RaggedRange:1"
        got = _run([r, tf.ragged.range([1, 2], [4, 5], 2), tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5]),
                    tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2, 2])])
        assert got[0].to_list() == [[0, 1, 2], [], [0, 1]]
        assert got[1].to_list() == [[1, 3], [2, 4]]
        np.testing.assert_array_equal(got[2], [0, 0, 2, 2, 2])
        np.testing.assert_array_equal(got[3], [0, 2, 2, 5])


def test_string_split_and_unicode():
    with tf.Graph().as_default():
        s = tf.strings.split(['hello world', 'a b  c', ''], result_type='RaggedTensor')
        assert s.row_splits.shape.as_list() == [4]
        d = tf.strings.unicode_decode(['h\u00e9llo', ''], 'UTF-8')
        c, o = tf.strings.unicode_decode_with_offsets(['a\xffb'.encode('latin-1')], 'UTF-8')
        got = _run([s, d, c, o, tf.strings.unicode_split(['h\u00e9'], 'UTF-8'),
                    tf.strings.ngrams(tf.ragged.constant([['a', 'b', 'c'], ['d']]), 2)])
        assert got[0].to_list() == [[b'hello', b'world'], [b'a', b'b', b'c'], []]
        assert got[1].to_list() == [[104, 233, 108, 108, 111], []]
        assert got[2].to_list() == [[97, 65533, 98]] and got[3].to_list() == [[0, 1, 2]]
        assert got[4].to_list() == [[b'h', '\u00e9'.encode()]]
        assert got[5].to_list() == [[b'a b', b'b c'], []]
