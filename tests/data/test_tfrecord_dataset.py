"""TFRecordDataset / TextLineDataset / FixedLengthRecordDataset on files the tests write."""

import gzip

import numpy as np
import pytest

import tensorweave as tf


def _all(sess, nxt):
    out = []
    with pytest.raises(tf.errors.OutOfRangeError):
        for _ in range(1000):
            out.append(sess.run(nxt))
    return out


def _write(path, records, options=None):
    with tf.python_io.TFRecordWriter(str(path), options) as w:
        for r in records:
            w.write(r)


def test_tfrecord_dataset_reads_files_in_order(tmp_path):
    a, b = tmp_path / "a.tfrecord", tmp_path / "b.tfrecord"
    _write(a, [b"a0", b"a1"])
    _write(b, [b"b0"])
    n = tf.data.TFRecordDataset([str(a), str(b)]).make_one_shot_iterator().get_next()
    assert n.dtype == tf.string and n.shape.as_list() == []
    with tf.Session() as sess:
        assert _all(sess, n) == [b"a0", b"a1", b"b0"]


def test_tfrecord_dataset_gzip_and_fed_filenames(tmp_path):
    p = tmp_path / "z.tfrecord.gz"
    _write(p, [b"x", b"yy"], tf.python_io.TFRecordOptions("GZIP"))
    files = tf.placeholder(tf.string, [None])
    it = tf.data.TFRecordDataset(files, compression_type="GZIP").make_initializable_iterator()
    n = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer, {files: [str(p)]})
        assert _all(sess, n) == [b"x", b"yy"]


def test_missing_and_corrupt_files(tmp_path):
    p = tmp_path / "c.tfrecord"
    _write(p, [b"hello world"])
    data = bytearray(p.read_bytes())
    data[14] ^= 0xFF
    p.write_bytes(bytes(data))
    n = tf.data.TFRecordDataset([str(p)]).make_one_shot_iterator().get_next()
    m = tf.data.TFRecordDataset([str(tmp_path / "nope")]).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DataLossError):
            sess.run(n)
        with pytest.raises(tf.errors.NotFoundError):
            sess.run(m)


def test_text_line_and_fixed_length_datasets(tmp_path):
    t = tmp_path / "t.txt"
    t.write_bytes(b"one\ntwo\r\nthree")
    g = tmp_path / "t.txt.gz"
    g.write_bytes(gzip.compress(b"x\ny\n"))
    f = tmp_path / "f.bin"
    f.write_bytes(b"HH" + bytes(range(6)) + b"F")
    lines = tf.data.TextLineDataset(str(t)).make_one_shot_iterator().get_next()
    glines = tf.data.TextLineDataset([str(g)], compression_type="GZIP").make_one_shot_iterator().get_next()
    recs = tf.data.FixedLengthRecordDataset([str(f)], 3, header_bytes=2, footer_bytes=1)
    rn = recs.map(lambda r: tf.decode_raw(r, tf.uint8)).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert _all(sess, lines) == [b"one", b"two", b"three"]
        assert _all(sess, glines) == [b"x", b"y"]
        out = _all(sess, rn)
        np.testing.assert_array_equal(out, [[0, 1, 2], [3, 4, 5]])


def test_tfrecord_examples_end_to_end(tmp_path):
    p = tmp_path / "ex.tfrecord"
    recs = []
    for i in range(6):
        ex = tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, -i])),
            "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3]))}))
        recs.append(ex.SerializeToString())
    _write(p, recs)
    feats = {"x": tf.io.FixedLenFeature([2], tf.float32), "y": tf.io.FixedLenFeature([], tf.int64)}

    def parse(r):
        e = tf.io.parse_single_example(r, feats)
        return e["x"], e["y"]
    x, y = tf.data.TFRecordDataset(str(p)).map(parse).batch(4).make_one_shot_iterator().get_next()
    assert x.shape.as_list() == [None, 2]
    with tf.Session() as sess:
        out = _all(sess, [x, y])
    np.testing.assert_array_equal(np.concatenate([o[0] for o in out])[:, 0], np.arange(6))
    np.testing.assert_array_equal(np.concatenate([o[1] for o in out]), [0, 1, 2, 0, 1, 2])


def test_num_parallel_reads_interleaves_files_as_tf(tmp_path):
    # Recorded from TF 2.21: files of 3, 1, 4, 2 records read with num_parallel_reads=2 and 3.
    files = []
    for i, n in enumerate([3, 1, 4, 2]):
        fn = str(tmp_path / f"f{i}.tfr")
        files.append(fn)
        with tf.io.TFRecordWriter(fn) as w:
            for j in range(n):
                w.write(b"%d-%d" % (i, j))
    expected = {
        2: ["0-0", "1-0", "0-1", "0-2", "2-0", "2-1", "3-0", "2-2", "3-1", "2-3"],
        3: ["0-0", "1-0", "2-0", "0-1", "2-1", "0-2", "3-0", "2-2", "3-1", "2-3"],
    }
    for k, want in expected.items():
        n = tf.data.TFRecordDataset(files, num_parallel_reads=k).make_one_shot_iterator().get_next()
        got = []
        with tf.Session() as sess:
            try:
                while True:
                    got.append(sess.run(n).decode())
            except tf.errors.OutOfRangeError:
                pass
        assert got == want
