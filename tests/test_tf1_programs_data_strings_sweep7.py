"""Input pipelines, iterators and parsing as classic TF1 programs run them.

Expected values recorded from TensorFlow 2.21 (tensorflow.compat.v1, CPU) by running these
programs there: every graph-mode Iterator builds its IteratorToStringHandle op when it is made;
strings leaving an iterator keep trailing b"\\x00" bytes (a serialized Example often ends in one);
a map right before a batch is fused into MapAndBatch, which copies elements by their number of
values; DecodeRaw and ParseExample word their errors as TF's kernels do.
"""

import os

import numpy as np
import pytest

import tensorweave as tf


def _example(i):
    feats = {"id": tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
             "vals": tf.train.Feature(float_list=tf.train.FloatList(value=[float(j) for j in range(i)]))}
    return tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()


def _drain(sess, t, feed=None):
    out = []
    while True:
        try:
            out.append(sess.run(t, feed))
        except tf.errors.OutOfRangeError:
            return out


def test_every_iterator_makes_its_string_handle_op_when_built():
    with tf.Graph().as_default() as g:
        d = tf.data.Dataset.range(3)
        it1 = tf.data.make_initializable_iterator(d)
        tf.data.make_one_shot_iterator(d)
        tf.data.Iterator.from_structure(tf.int64, tf.TensorShape([]))
        h = tf.placeholder(tf.string, [])
        fit = tf.data.Iterator.from_string_handle(h, tf.int64, tf.TensorShape([]))
        it5 = tf.data.make_one_shot_iterator(tf.data.Dataset.range(100, 103))
        kinds = [(o.name, o.type) for o in g.get_operations()
                 if o.type in ("IteratorV2", "MakeIterator", "OneShotIterator", "IteratorToStringHandle")]
        assert kinds[:3] == [("IteratorV2", "IteratorV2"), ("MakeIterator", "MakeIterator"),
                             ("IteratorToStringHandle", "IteratorToStringHandle")]
        assert [n for n, t in kinds if t == "IteratorToStringHandle"] == [
            "IteratorToStringHandle", "IteratorToStringHandle_1", "IteratorToStringHandle_2",
            "IteratorToStringHandle_3", "IteratorToStringHandle_4"]
        sh5 = it5.string_handle()
        assert sh5.name == "IteratorToStringHandle_4:0"
        assert it5.string_handle() is sh5
        assert it5.string_handle(name="h5").name == "h5:0"
        el = fit.get_next()
        with tf.Session() as sess:
            h1, h5 = sess.run([it1.string_handle(), sh5])
            sess.run(it1.initializer)
            assert [sess.run(el, {h: h1}), sess.run(el, {h: h5}), sess.run(el, {h: h1})] == [0, 100, 1]
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="Could not parse string_handle as a valid ResourceHandle"):
                sess.run(el, {h: b"garbage"})


def test_strings_leaving_an_iterator_keep_trailing_nul_bytes(tmp_path):
    fn = os.path.join(str(tmp_path), "x.tfrecord")
    with tf.io.TFRecordWriter(fn) as w:
        w.write(b"a\x00")
        w.write(b"\x00\x00")
    with tf.Graph().as_default():
        D = tf.data.Dataset
        p = tf.placeholder(tf.string, [2])
        fed = tf.data.make_initializable_iterator(D.from_tensor_slices(p))
        nexts = [tf.data.make_one_shot_iterator(ds).get_next() for ds in (
            tf.data.TFRecordDataset(fn),
            D.from_tensor_slices([b"a\x00", b"\x00"]).map(lambda s: tf.py_func(lambda b: b + b"\x00", [s],
                                                                                   tf.string)),
            D.from_tensor_slices([b"a\x00", b"\x00"]).shuffle(2, seed=1).repeat(2).batch(2).unbatch(),
            D.from_tensor_slices({"k": [b"a\x00"]}))]
        with tf.Session() as sess:
            sess.run(fed.initializer, {p: [b"a\x00", b"b"]})
            assert _drain(sess, fed.get_next()) == [b"a\x00", b"b"]
            assert _drain(sess, nexts[0]) == [b"a\x00", b"\x00\x00"]
            assert _drain(sess, nexts[1]) == [b"a\x00\x00", b"\x00\x00"]
            assert _drain(sess, nexts[2]) == [b"a\x00", b"\x00", b"a\x00", b"\x00"]
            assert _drain(sess, nexts[3]) == [{"k": b"a\x00"}]


def test_parse_single_example_of_records_read_by_get_next(tmp_path):
    # an Example whose last int64 value is 0 serializes with a trailing b"\x00"
    fn = os.path.join(str(tmp_path), "ex.tfrecord")
    with tf.io.TFRecordWriter(fn) as w:
        for i in range(3):
            w.write(_example(i))
    assert _example(0).endswith(b"\x00")
    with tf.Graph().as_default():
        rec = tf.data.make_one_shot_iterator(tf.data.TFRecordDataset(fn)).get_next()
        parsed = tf.io.parse_single_example(rec, {"id": tf.io.FixedLenFeature([], tf.int64),
                                                  "vals": tf.io.VarLenFeature(tf.float32)})
        with tf.Session() as sess:
            got = [sess.run(parsed) for _ in range(3)]
    assert [int(r["id"]) for r in got] == [0, 1, 2]
    assert [r["vals"].values.tolist() for r in got] == [[], [0.0], [0.0, 1.0]]


def test_map_then_batch_copies_elements_by_their_number_of_values():
    with tf.Graph().as_default():
        D = tf.data.Dataset
        same_n = D.from_tensor_slices([[1, 2], [3, 4]]).map(
            lambda x: tf.reshape(x, [2 - tf.cast(x[0] > 2, tf.int32), -1])).batch(2)
        ragged = D.range(1, 3).map(lambda x: tf.fill([x], x)).batch(2, drop_remainder=True)
        plain = D.range(1, 3).flat_map(lambda x: D.from_tensors(tf.fill([x], x))).batch(2)
        after_prefetch = D.range(1, 3).map(lambda x: tf.fill([x], x)).prefetch(1).batch(2)
        n1, n2, n3, n4 = (tf.data.make_one_shot_iterator(d).get_next()
                          for d in (same_n, ragged, plain, after_prefetch))
        with tf.Session() as sess:
            # TF's MapAndBatch gives the batch the shape of whichever element its parallel calls
            # finish first ([2,2,1] or [2,1,2] from run to run there); in order, the first
            v = sess.run(n1)
            assert v.shape == (2, 2, 1) and v.ravel().tolist() == [1, 2, 3, 4]
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(n2)
            assert ("Cannot add tensor to the batch: number of elements does not match. Shapes are: "
                    "[tensor]: [2], [batch]: [1]") in str(e.value)
            for n in (n3, n4):
                with pytest.raises(tf.errors.InvalidArgumentError) as e:
                    sess.run(n)
                assert ("Cannot batch tensors with different shapes in component 0. First element had "
                        "shape [1] and element 1 had shape [2].") in str(e.value)


def test_decode_raw_and_parse_example_error_messages():
    with tf.Graph().as_default():
        raw = tf.io.decode_raw(tf.constant([b"\x01\x00", b"\x01\x00\x02\x00"]), tf.int16)
        bad = tf.io.parse_example(tf.constant([b"garbage\x01"]),
                                  {"id": tf.io.FixedLenFeature([], tf.int64, default_value=0)})
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(raw)
            assert ("DecodeRaw requires input strings to all be the same size, but element 1 has size "
                    "2 != 4") in str(e.value)
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(bad)
            assert "Could not parse example input, value: 'garbage\x01'" in str(e.value)
            np.testing.assert_array_equal(
                sess.run(tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00"]), tf.int16, little_endian=False)),
                [[256, 512]])


def _int64s(*v):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=list(v)))


def test_parse_example_with_example_names_tensor_and_stride_errors():
    ser = [tf.train.Example(features=tf.train.Features(feature={"a": _int64s(1, 2, 3, 4)})).SerializeToString(),
           tf.train.Example(features=tf.train.Features(feature={"a": _int64s(5, 6)})).SerializeToString()]
    with tf.Graph().as_default():
        s = tf.constant(ser)
        names = tf.constant(["r0", "r1"])
        seq = tf.io.parse_example(s, {"a": tf.io.FixedLenSequenceFeature([2], tf.int64, allow_missing=True)},
                                  example_names=names)
        fixed = tf.io.parse_example(s, {"a": tf.io.FixedLenFeature([2, 2], tf.int64)}, example_names=names)
        stride = tf.io.parse_example(s, {"a": tf.io.FixedLenSequenceFeature([3], tf.int64, allow_missing=True)},
                                     example_names=names)
        single = tf.io.parse_single_example(s[0], {"a": tf.io.FixedLenSequenceFeature([3], tf.int64,
                                                                                        allow_missing=True)})
        assert seq["a"].shape.as_list() == [2, None, 2]
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(seq)["a"], [[[1, 2], [3, 4]], [[5, 6], [0, 0]]])
            for t, msg in ((fixed, "Name: r1, Key: a, Index: 1.  Number of int64 values != expected.  Values "
                                   "size: 2 but output shape: [2,2]"),
                           (stride, "Name: r0, Key: a, Index: 0.  Number of int64 values is not a multiple of "
                                    "stride length. Saw 4 values but output shape is: [?,3]"),
                           (single, "Error while parsing feature with key a: number of elements should be "
                                    "divisible by 3, found 4 instead")):
                with pytest.raises(tf.errors.InvalidArgumentError) as e:
                    sess.run(t)
                assert msg in str(e.value)


def test_sequence_feature_lists_check_totals_then_steps():
    def seq_example(*steps):
        fl = tf.train.FeatureLists(feature_list={"tok": tf.train.FeatureList(feature=[_int64s(*v) for v in steps])})
        return tf.train.SequenceExample(feature_lists=fl).SerializeToString()
    se, se2 = seq_example([1, 2, 3], [4]), seq_example([1, 2, 3], [4, 5])
    want = {
        (2, False): "Name: <unknown>, Key: tok, Index: 0.  Number of values != expected.  values size: 3 but "
                    "output shape: [2]",
        (3, False): "Feature list 'tok' has an unexpected number of values.  Total values size: 4 is not "
                    "consistent with output shape: [?,3]",
        (2, True): "Feature list 'tok' has an unexpected number of values.  Total values size: 5 is not "
                   "consistent with output shape: [?,2]",
        (3, True): "Feature list 'tok' has an unexpected number of values.  Total values size: 5 is not "
                   "consistent with output shape: [?,3]"}
    with tf.Graph().as_default():
        with tf.Session() as sess:
            for (n, batch), msg in want.items():
                spec = {"tok": tf.io.FixedLenSequenceFeature([n], tf.int64)}
                t = tf.io.parse_sequence_example([se, se2], sequence_features=spec) if batch else \
                    tf.io.parse_single_sequence_example(se, sequence_features=spec)
                with pytest.raises(tf.errors.InvalidArgumentError) as e:
                    sess.run(t)
                assert msg in str(e.value)
            ok = tf.io.parse_single_sequence_example(seq_example([1, 2], [3, 4]), sequence_features={
                "tok": tf.io.FixedLenSequenceFeature([2], tf.int64)})[1]["tok"]
            np.testing.assert_array_equal(sess.run(ok), [[1, 2], [3, 4]])


def test_one_shot_iterator_draws_an_op_seed_under_a_graph_seed():
    with tf.Graph().as_default():
        tf.set_random_seed(1234)
        D = tf.data.Dataset
        n1 = tf.data.make_one_shot_iterator(D.range(6).shuffle(6)).get_next()
        n2 = tf.data.make_one_shot_iterator(D.range(6).shuffle(6)).get_next()
        bad = tf.data.make_one_shot_iterator(D.range(3).shuffle(0)).get_next()
        with tf.Session() as sess:
            first, second = _drain(sess, n1), _drain(sess, n2)
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="buffer_size must be greater than zero or UNKNOWN_CARDINALITY"):
                sess.run(bad)
    assert second == [3, 5, 1, 0, 2, 4]
    assert sorted(first) == list(range(6))


def test_fixed_length_records_check_the_body_and_one_shot_captures_read_file(tmp_path):
    fp = os.path.join(str(tmp_path), "p.txt")
    with open(fp, "wb") as f:
        f.write(b"a,1\nb,2\n")
    with tf.Graph().as_default():
        D = tf.data.Dataset
        uneven = tf.data.make_one_shot_iterator(tf.data.FixedLengthRecordDataset(fp, 3)).get_next()
        framed = tf.data.make_one_shot_iterator(tf.data.FixedLengthRecordDataset(fp, 3, 1, 1)).get_next()
        past = tf.data.make_one_shot_iterator(tf.data.FixedLengthRecordDataset(fp, 4, 6, 6)).get_next()
        whole = tf.data.make_one_shot_iterator(D.from_tensors(tf.io.read_file(fp))).get_next()
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(uneven)
            assert (f'Excluding the header (0 bytes) and footer (0 bytes), input file "{fp}" has body length 8 '
                    f'bytes, which is not an exact multiple of the record length (3 bytes).') in str(e.value)
            assert _drain(sess, framed) == [b",1\n", b"b,2"]
            assert _drain(sess, past) == []
            assert _drain(sess, whole) == [b"a,1\nb,2\n"]
