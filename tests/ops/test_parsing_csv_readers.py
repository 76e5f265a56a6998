"""decode_csv and the TF1 readers (TFRecordReader, TextLineReader, WholeFileReader,
FixedLengthRecordReader). Expected values recorded from TensorFlow 2.21 (`tensorflow.compat.v1`)."""

import os

import numpy as np
import pytest

import tensorweave as tf


def test_decode_csv_values_dtypes_names():
    with tf.Graph().as_default(), tf.Session() as sess:
        cols = tf.decode_csv(tf.constant(["1,2.5,abc", "4,,x"]), record_defaults=[[0], [1.0], ["z"]])
        assert [c.name for c in cols] == ["DecodeCSV:0", "DecodeCSV:1", "DecodeCSV:2"]
        assert [c.dtype for c in cols] == [tf.int32, tf.float32, tf.string]
        a, b, c = sess.run(cols)
        assert a.tolist() == [1, 4] and a.dtype == np.int32
        assert b.tolist() == [2.5, 1.0] and b.dtype == np.float32
        assert c.tolist() == [b"abc", b"x"]
        assert sess.run(tf.decode_csv(tf.constant('a;b;"c;d"'), [[""]] * 3, field_delim=";")) == \
            [b"a", b"b", b"c;d"]
        for recs, defaults in (([",1"], [tf.constant([], tf.int32), [0]]),   # required field missing
                               (["a,1"], [[0], [0]]),                        # not an int32
                               (["1,2,3"], [[0], [0]])):                     # wrong field count
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(tf.decode_csv(tf.constant(recs), record_defaults=defaults))


def _coord_run(sess, fetch):
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord=coord)
    out = []
    try:
        while True:
            out.append(sess.run(fetch))
    except tf.errors.OutOfRangeError:
        pass
    coord.request_stop()
    coord.join(threads)
    return out


def test_tfrecord_reader_keys(tmp_path):
    fn = str(tmp_path / "a.tfrecord")
    with tf.python_io.TFRecordWriter(fn) as w:
        for i in range(3):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i * 1.0, i + 0.5])),
                "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"n%d" % i])),
                "var": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(i))))}))
            w.write(ex.SerializeToString())
    with tf.Graph().as_default(), tf.Session() as sess:
        q = tf.train.string_input_producer([fn], num_epochs=1, shuffle=False)
        k, v = tf.TFRecordReader().read(q)
        assert (k.name, v.name) == ("ReaderReadV2:0", "ReaderReadV2:1")
        sess.run(tf.local_variables_initializer())
        keys = [kk for kk, _ in _coord_run(sess, [k, v])]
    # TF: b'<file>:0', b'<file>:80', b'<file>:163'
    assert keys == [f"{fn}:0".encode(), f"{fn}:80".encode(), f"{fn}:163".encode()]


def test_text_line_and_whole_file_readers(tmp_path):
    a = str(tmp_path / "a.csv")
    with open(a, "w") as f:
        f.write("h1,h2\n1,2\n3,4\n")
    with tf.Graph().as_default(), tf.Session() as sess:
        q = tf.train.string_input_producer([a], num_epochs=1, shuffle=False)
        k, v = tf.TextLineReader(skip_header_lines=1).read(q)
        sess.run(tf.local_variables_initializer())
        got = _coord_run(sess, [k, v])
    assert [list(x) for x in got] == [[f"{a}:2".encode(), b"1,2"], [f"{a}:3".encode(), b"3,4"]]
    with tf.Graph().as_default(), tf.Session() as sess:
        q = tf.train.string_input_producer([a], num_epochs=1, shuffle=False)
        k, v = tf.WholeFileReader().read(q)
        sess.run(tf.local_variables_initializer())
        got = _coord_run(sess, [k, v])
    assert [list(x) for x in got] == [[a.encode(), b"h1,h2\n1,2\n3,4\n"]]
    b = str(tmp_path / "b.bin")
    with open(b, "wb") as f:
        f.write(b"HHabcdefFF")
    with tf.Graph().as_default(), tf.Session() as sess:
        q = tf.train.string_input_producer([b], num_epochs=1, shuffle=False)
        reader = tf.FixedLengthRecordReader(3, header_bytes=2, footer_bytes=2)
        k, v = reader.read(q)
        n = reader.num_records_produced()
        sess.run(tf.local_variables_initializer())
        got = _coord_run(sess, [k, v])
        assert sess.run(n) == 2
    assert [list(x) for x in got] == [[f"{b}:0".encode(), b"abc"], [f"{b}:1".encode(), b"def"]]
    assert os.path.exists(b)


def test_decode_csv_graph_and_errors_as_tf():
    # Names and messages recorded from TF 2.21.
    with tf.Graph().as_default():
        c = tf.decode_csv(tf.placeholder(tf.string, [None]), [[1], ["x"]])
        op = c[0].op
        assert op.name == "DecodeCSV" and [t.name for t in op.inputs][1:] == [
            "DecodeCSV/record_defaults_0:0", "DecodeCSV/record_defaults_1:0"]
        with pytest.raises(TypeError, match="parameter 'record_defaults' has DataType bool"):
            tf.decode_csv(["1"], [[True]])
        with pytest.raises(ValueError, match=r"Shape must be at most rank 1 but is rank 2 for '\{\{node DecodeCSV"):
            tf.decode_csv(["1"], [[[1, 2]]])
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="Expect 2 fields but have 1 in record 0"):
                sess.run(tf.decode_csv(["1,2"], [[0], [0]], select_cols=[1, 3]))
            with pytest.raises(tf.errors.InvalidArgumentError, match="field_delim should be only 1 char"):
                sess.run(tf.decode_csv(["1"], [[0]], field_delim=",,"))
