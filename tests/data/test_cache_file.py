"""Dataset.cache(filename): a complete pass is written to files that later passes (other sessions
too) read instead of the input; an early stop is discarded. File names as TF 2.21 leaves them."""

import os

import tensorweave as tf


def _pass(it, g, sess, feed, n):
    sess.run(it.initializer, feed)
    return [int(sess.run(g)) for _ in range(n)]


def test_cache_file_written_once_and_read_back(tmp_path):
    prefix = str(tmp_path / "cf")
    v = tf.placeholder(tf.int64, [])
    it = tf.data.Dataset.range(4).map(lambda x: x * x + v).cache(prefix).make_initializable_iterator()
    g = it.get_next()
    with tf.Session() as sess:
        assert _pass(it, g, sess, {v: 0}, 2) == [0, 1]          # an early stop: discarded
        sess.run(it.initializer, {v: 10})
        assert sorted(os.listdir(tmp_path)) == []
        assert [int(sess.run(g)) for _ in range(4)] == [10, 11, 14, 19]
        try:
            sess.run(g)
        except tf.errors.OutOfRangeError:
            pass
        assert sorted(os.listdir(tmp_path)) == ["cf.data-00000-of-00001", "cf.index"]
        assert _pass(it, g, sess, {v: 100}, 4) == [10, 11, 14, 19]  # read from the files
    with tf.Session() as sess:
        assert _pass(it, g, sess, {v: 1000}, 4) == [10, 11, 14, 19]


def test_cache_file_keeps_strings_and_sparse_components(tmp_path):
    prefix = str(tmp_path / "c2")
    ds = tf.data.Dataset.from_tensor_slices((["a", "bc"], tf.SparseTensor([[0, 1]], [5], [2, 3]))).cache(prefix)
    for _ in range(2):
        n = ds.make_one_shot_iterator().get_next()
        with tf.Session() as sess:
            (s0, sp0), (s1, sp1) = sess.run(n), sess.run(n)
        assert (s0, s1) == (b"a", b"bc")
        assert sp0.indices.tolist() == [[1]] and sp0.values.tolist() == [5] and sp1.values.tolist() == []
    assert os.path.exists(prefix + ".index")
