"""parse_example / parse_single_example against Example protos; decode_raw."""

import numpy as np
import pytest

import tensorweave as tf


def _example(**features):
    feats = {}
    for k, v in features.items():
        if isinstance(v[0], float):
            feats[k] = tf.train.Feature(float_list=tf.train.FloatList(value=v))
        elif isinstance(v[0], int):
            feats[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=v))
        else:
            feats[k] = tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
    return tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()


FEATURES = {"x": tf.io.FixedLenFeature([2], tf.float32), "y": tf.FixedLenFeature([], tf.int64),
            "tags": tf.io.VarLenFeature(tf.string), "z": tf.io.FixedLenFeature([], tf.int64, default_value=7)}


def test_parse_example_batch():
    recs = [_example(x=[1.0, 2.0], y=[3], tags=[b"a"]),
            _example(x=[4.0, 5.0], y=[6], tags=[b"b", b"c"], z=[1])]
    s = tf.placeholder(tf.string, [None])
    out = tf.parse_example(s, FEATURES)
    assert out["x"].shape.as_list() == [None, 2] and out["x"].dtype == tf.float32
    assert out["y"].dtype == tf.int64 and isinstance(out["tags"], tf.SparseTensor)
    with tf.Session() as sess:
        v = sess.run(out, {s: recs})
    np.testing.assert_array_equal(v["x"], [[1, 2], [4, 5]])
    np.testing.assert_array_equal(v["y"], [3, 6])
    np.testing.assert_array_equal(v["z"], [7, 1])
    np.testing.assert_array_equal(v["tags"].indices, [[0, 0], [1, 0], [1, 1]])
    assert list(v["tags"].values) == [b"a", b"b", b"c"]
    np.testing.assert_array_equal(v["tags"].dense_shape, [2, 2])


def test_parse_single_example_and_errors():
    s = tf.placeholder(tf.string, [])
    out = tf.io.parse_single_example(s, FEATURES)
    assert out["x"].shape.as_list() == [2] and out["y"].shape.as_list() == []
    with tf.Session() as sess:
        v = sess.run(out, {s: _example(x=[1.0, 2.0], y=[3], tags=[b"q"])})
        np.testing.assert_array_equal(v["tags"].indices, [[0]])
        np.testing.assert_array_equal(v["tags"].dense_shape, [1])
        assert v["z"] == 7
        with pytest.raises(tf.errors.InvalidArgumentError, match="Feature: y .* is required"):
            sess.run(out, {s: _example(x=[1.0, 2.0])})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Data types don't match"):
            sess.run(out, {s: _example(x=[1, 2], y=[3])})
        # TF 2.21's single-example parser names the key only.
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Key: x.  Can't parse serialized Example: Some float_list slice was not parsed."):
            sess.run(out, {s: _example(x=[1.0, 2.0, 3.0], y=[3])})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse example input"):
            sess.run(out, {s: b"\xff\xff\xff"})
    # TF 2.21's messages: an unknown first dimension points to FixedLenSequenceFeature.
    with pytest.raises(ValueError, match="First dimension of shape for feature a unknown"):
        tf.parse_single_example(s, {"a": tf.io.FixedLenFeature([None], tf.float32)})
    with pytest.raises(ValueError, match="need to be known"):
        tf.parse_single_example(s, {"a": tf.io.FixedLenFeature([2, None], tf.float32)})


def test_fixed_len_sequence_feature_pads():
    s = tf.placeholder(tf.string, [None])
    out = tf.parse_example(s, {"v": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True)})
    with tf.Session() as sess:
        v = sess.run(out["v"], {s: [_example(v=[1, 2, 3]), _example(v=[4])]})
    np.testing.assert_array_equal(v, [[1, 2, 3], [4, 0, 0]])


def test_decode_raw():
    data = np.array([1.5, -2.0], np.float32).tobytes()
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.decode_raw(tf.constant([data, data]), tf.float32)),
                                      [[1.5, -2.0]] * 2)
        big = np.array([1, 2], ">i2").tobytes()
        np.testing.assert_array_equal(sess.run(tf.io.decode_raw(big, tf.int16, little_endian=False)), [1, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="not a multiple of 4"):
            sess.run(tf.decode_raw(tf.constant(b"abc"), tf.float32))
        with pytest.raises(tf.errors.InvalidArgumentError, match="same size"):
            sess.run(tf.decode_raw(tf.constant([b"abcd", b"ab"]), tf.uint8))
    assert tf.decode_raw(tf.constant([b"ab"]), tf.uint8).shape.as_list() == [1, None]
