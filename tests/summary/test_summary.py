"""Summary ops and TensorBoard event files."""

import glob
import struct

import numpy as np
import pytest

import tensorweave as tf

# Serialized by real TensorFlow: tf.summary.histogram("h", c) for
# c = [0, -1.5, 1e-13, 2, 3, 3, 100, -0.001] (float32); our kernel must give the same bytes.
TF_HISTOGRAM = (
    b'\n\x87\x02\n\x01h*\x81\x02\t\x00\x00\x00\x00\x00\x00\xf8\xbf\x11\x00\x00\x00\x00\x00\x00Y@\x19\x00\x00\x00\x00'
    b'\x00\x00 @!\x07 \xb2\x9d\xef\x9fZ@)|c\x08\x00 \x94\xc3@2hyL\xfa\xe2\xd3\xff\xf9\xbf\x85E\xcc\x9f\xc0\xa2\xf7\xbf'
    b'nK\x9b\x80\x96LQ\xbfk\xa01^\xfasO\xbf\x00\x00\x00\x00\x00\x00\x00\x00\x11\xea-\x81\x99\x97q=\xdc\x94\xcd.\x8du'
    b'\xff?\xe0\x11\xf1\x0ctM\x01@h\xbc\x105\x9a\x07\x07@\r\x9c\xc5\xa0)U\t@r;`\x14\xcexX@\xfe\xdai\x16I\xebZ@\xff\xff'
    b'\xff\xff\xff\xff\xef\x7f:h' + b'\x00' * 14 + b'\xf0?' + b'\x00' * 14 + b'\xf0?' + b'\x00' * 14 + b'\x00@'
    + b'\x00' * 14 + b'\xf0?' + b'\x00' * 14 + b'\x00@' + b'\x00' * 14 + b'\xf0?' + b'\x00' * 8)


def test_names_tags_and_collections():
    x = tf.placeholder(tf.float32, [None], name="x")
    with tf.name_scope("train"):
        s1 = tf.summary.scalar("loss", tf.reduce_mean(x))
    s2 = tf.summary.histogram("xs", x)
    s3 = tf.summary.image("img", tf.reshape(x, [1, 2, 2, 1]))
    s4 = tf.summary.text("note", tf.constant("hi"))
    s5 = tf.summary.scalar("l2", tf.reduce_sum(x), family="fam")
    # Names as TF1 gives them.
    assert [s.name for s in (s1, s2, s3, s4, s5)] == ["train/loss:0", "xs:0", "img:0", "note:0", "fam/l2:0"]
    assert [s.op.type for s in (s1, s2, s3, s4)] == ["ScalarSummary", "HistogramSummary", "ImageSummary",
                                                     "TensorSummaryV2"]
    assert s1.op.inputs[0].name == "train/loss/tags:0" and s1.dtype == tf.string and s1.shape.ndims == 0
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [s1, s2, s3, s4, s5]
    m = tf.summary.merge_all()
    assert m.name == "Merge/MergeSummary:0"
    with tf.Session() as sess:
        out = tf.Summary.FromString(sess.run(m, {x: [1.0, 2.0, 3.0, 4.0]}))
    assert [v.tag for v in out.value] == ["train/loss", "xs", "img/image/0", "note", "fam/fam/l2"]
    assert out.value[0].simple_value == 2.5
    img = out.value[2].image
    assert (img.height, img.width, img.colorspace) == (2, 2, 1)
    assert img.encoded_image_string.startswith(b"\x89PNG\r\n\x1a\n")
    assert out.value[3].metadata.plugin_data.plugin_name == "text"
    assert list(out.value[3].tensor.string_val) == [b"hi"]
    assert tf.summary.merge_all(key="nothing") is None


def test_histogram_matches_tensorflow_bytes():
    c = tf.constant(np.array([0.0, -1.5, 1e-13, 2.0, 3.0, 3.0, 100.0, -0.001], np.float32))
    h = tf.summary.histogram("h", c)
    with tf.Session() as sess:
        assert sess.run(h) == TF_HISTOGRAM


def test_runtime_errors():
    x = tf.placeholder(tf.float32, None)
    h = tf.summary.histogram("h", x)
    s = tf.summary.scalar("s", x)
    m = tf.summary.merge([s, s])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram for: h"):
            sess.run(h, {x: [1.0, np.nan]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="tags and values"):
            sess.run(s, {x: [1.0, 2.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag s"):
            sess.run(m, {x: 1.0})


def _write_logs(logdir):
    x = tf.placeholder(tf.float32, [None], name="x")
    tf.summary.scalar("loss", tf.reduce_mean(x))
    tf.summary.histogram("values", x)
    merged = tf.summary.merge_all()
    with tf.Session() as sess:
        writer = tf.summary.FileWriter(logdir, sess.graph, filename_suffix=".test")
        assert writer.get_logdir() == logdir
        for step in range(3):
            writer.add_summary(sess.run(merged, {x: [step, step + 1.0]}), global_step=step)
        writer.add_session_log(tf.SessionLog(status=tf.SessionLog.START), 3)
        writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="manual", simple_value=7.0)]), 4)
        writer.close()


def test_event_file_reads_back_with_our_reader(tmp_path):
    logdir = str(tmp_path)
    _write_logs(logdir)
    (path,) = glob.glob(logdir + "/events.out.tfevents.*.test")
    raw = open(path, "rb").read()
    assert struct.unpack("<Q", raw[:8])[0] == len(raw[12:12 + struct.unpack("<Q", raw[:8])[0]])
    events = list(tf.train.summary_iterator(path))
    assert events[0].file_version == "brain.Event:2"
    assert events[1].WhichOneof("what") == "graph_def"
    gd = tf.GraphDef.FromString(events[1].graph_def)
    assert "loss" in [n.name for n in gd.node]
    scalars = [(e.step, v.simple_value) for e in events for v in e.summary.value if v.tag == "loss"]
    assert scalars == [(0, 0.5), (1, 1.5), (2, 2.5)]
    assert events[-2].session_log.status == tf.SessionLog.START
    assert events[-1].summary.value[0].tag == "manual" and events[-1].step == 4


def test_event_file_reads_with_tensorboard(tmp_path, monkeypatch):
    import sys
    if "tensorflow" not in sys.modules:  # keep tensorboard on its own stub (importing TF takes seconds)
        monkeypatch.setitem(sys.modules, "tensorflow", None)
    try:
        from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    except ImportError:
        pytest.skip("tensorboard is not installed (pip install tensorboard to run this check)")
    _write_logs(str(tmp_path))
    acc = EventAccumulator(str(tmp_path), size_guidance={"histograms": 0, "scalars": 0})
    acc.Reload()
    tags = acc.Tags()
    assert "loss" in tags["scalars"] and "manual" in tags["scalars"] and "values" in tags["histograms"]
    assert tags["graph"] is True
    assert [(s.step, s.value) for s in acc.Scalars("loss")] == [(0, 0.5), (1, 1.5), (2, 2.5)]
    h = acc.Histograms("values")[2].histogram_value
    assert (h.min, h.max, h.num, h.sum) == (2.0, 3.0, 2.0, 5.0)
    assert "loss" in [n.name for n in acc.Graph().node]


def test_file_writer_cache(tmp_path):
    w = tf.summary.FileWriterCache.get(str(tmp_path))
    assert tf.summary.FileWriterCache.get(str(tmp_path)) is w
    tf.summary.FileWriterCache.clear()
    assert len(glob.glob(str(tmp_path) + "/events.out.tfevents.*")) == 1
