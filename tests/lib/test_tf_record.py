"""TFRecord framing and CRC32C: TF's bytes, compression, corruption."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.lib import crc32c
from tensorweave.lib.io import tf_record

# Written by real TensorFlow: tf.io.TFRecordWriter(path) with records b"hello" and b"".
TF_FILE = (b'\x05\x00\x00\x00\x00\x00\x00\x00\xea\xb2\x04>hello\xbb\x1f\x1c\x19\x00\x00\x00\x00\x00\x00\x00\x00)'
           b'\x03\x98\x07\xd8\xea\x82\xa2')


def test_crc32c_known_values_and_vectorized_path():
    assert crc32c.value(b"123456789") == 0xE3069283
    assert crc32c.value(b"") == 0
    rng = np.random.default_rng(0)
    data = rng.integers(0, 256, 20000, dtype=np.uint8).tobytes()
    # The chunked NumPy path (long inputs) agrees with the byte loop on every split.
    slow = crc32c._raw(0xFFFFFFFF, data) ^ 0xFFFFFFFF
    assert crc32c.value(data) == slow
    assert crc32c.extend(crc32c.value(data[:7001]), data[7001:]) == slow
    assert crc32c.unmask(crc32c.mask(slow)) == slow


def test_writer_matches_tensorflow_bytes(tmp_path):
    p = str(tmp_path / "a.tfrecord")
    with tf.python_io.TFRecordWriter(p) as w:
        w.write(b"hello")
        w.write(b"")
    assert open(p, "rb").read() == TF_FILE
    (tmp_path / "tf.tfrecord").write_bytes(TF_FILE)
    assert list(tf.python_io.tf_record_iterator(str(tmp_path / "tf.tfrecord"))) == [b"hello", b""]


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB", tf.python_io.TFRecordCompressionType.GZIP])
def test_round_trip_with_compression(tmp_path, compression):
    p = str(tmp_path / "c.tfrecord")
    records = [b"x" * 5000, b"", os.urandom(100)]
    opts = tf.python_io.TFRecordOptions(compression)
    with tf.io.TFRecordWriter(p, opts) as w:
        for r in records:
            w.write(r)
    assert list(tf.io.tf_record_iterator(p, opts)) == records
    if compression:
        assert open(p, "rb").read()[:1] != b"\x88"  # really compressed
    assert tf.python_io.TFRecordOptions.get_compression_type_string(opts) in ("", "GZIP", "ZLIB")


def test_corrupt_and_truncated_records_raise_data_loss(tmp_path):
    good = tf_record.encode_record(b"payload") + tf_record.encode_record(b"second")
    for i in (3, 9, 14, len(good) - 1):  # length, header crc, data, footer crc
        bad = bytearray(good)
        bad[i] ^= 0x01
        p = tmp_path / f"bad{i}"
        p.write_bytes(bytes(bad))
        with pytest.raises(tf.errors.DataLossError):
            list(tf.python_io.tf_record_iterator(str(p)))
    p = tmp_path / "trunc"
    p.write_bytes(good[:-3])
    it = tf.python_io.tf_record_iterator(str(p))
    assert next(it) == b"payload"
    with pytest.raises(tf.errors.DataLossError, match="truncated"):
        next(it)
    with pytest.raises(tf.errors.NotFoundError):
        list(tf.python_io.tf_record_iterator(str(tmp_path / "missing")))
    with pytest.raises(ValueError):
        tf.python_io.TFRecordOptions("LZ4")


def test_example_protos_wire_compatible():
    # tf.train.Example serialized by real TensorFlow (features a: int64 [1, 2], b: bytes [x], f: float [0.5]).
    tf_bytes = (b'\n(\n\x0b\n\x01a\x12\x06\x1a\x04\n\x02\x01\x02\n\r\n\x01f\x12\x08\x12\x06\n\x04\x00\x00\x00?\n\n'
                b'\n\x01b\x12\x05\n\x03\n\x01x')
    e = tf.train.Example.FromString(tf_bytes)
    f = e.features.feature
    assert list(f["a"].int64_list.value) == [1, 2]
    assert list(f["b"].bytes_list.value) == [b"x"]
    assert list(f["f"].float_list.value) == [0.5]
    again = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2])),
        "b": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"x"])),
        "f": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5]))}))
    assert tf.train.Example.FromString(again.SerializeToString()) == e
