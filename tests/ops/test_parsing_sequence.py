"""parse_sequence_example / parse_single_sequence_example, SparseFeature, and the TF-shaped
ParseExampleV2 graph. Expected values, names and shapes were recorded from TF 2.21."""

import numpy as np
import pytest

import tensorweave as tf


def _seq(n):
    ex = tf.train.SequenceExample()
    ex.context.feature["len"].int64_list.value.append(n)
    ex.context.feature["lbl"].bytes_list.value.append(b"L%d" % n)
    for i in range(n):
        ex.feature_lists.feature_list["tok"].feature.add().int64_list.value.append(i * 10)
        ex.feature_lists.feature_list["vec"].feature.add().float_list.value.extend([i, i + 0.5])
        ex.feature_lists.feature_list["var"].feature.add().int64_list.value.extend(list(range(i)))
    return ex.SerializeToString()


def test_parse_single_sequence_example_values_and_names():
    s = tf.placeholder(tf.string, [])
    ctx, seq = tf.parse_single_sequence_example(
        s, context_features={"len": tf.FixedLenFeature([], tf.int64), "lbl": tf.VarLenFeature(tf.string),
                             "miss": tf.FixedLenFeature([1], tf.float32, default_value=[-1.])},
        sequence_features={"tok": tf.FixedLenSequenceFeature([], tf.int64),
                           "vec": tf.FixedLenSequenceFeature([2], tf.float32), "var": tf.VarLenFeature(tf.int64)})
    op = "ParseSingleSequenceExample/ParseSequenceExample/ParseSequenceExampleV2"
    assert ctx["len"].name == op + ":3" and ctx["len"].shape == tf.TensorShape([])
    assert seq["tok"].name == op + ":8" and seq["tok"].shape.as_list() == [None]
    assert seq["vec"].shape.as_list() == [None, 2]
    assert seq["var"].indices.shape.as_list() == [None, 2]
    with tf.Session() as sess:
        c, f = sess.run((ctx, seq), {s: _seq(3)})
        assert c["len"] == 3 and c["lbl"].values.tolist() == [b"L3"]
        np.testing.assert_array_equal(c["miss"], [-1.0])
        np.testing.assert_array_equal(f["tok"], [0, 10, 20])
        np.testing.assert_array_equal(f["vec"], [[0, 0.5], [1, 1.5], [2, 2.5]])
        np.testing.assert_array_equal(f["var"].indices, [[1, 0], [2, 0], [2, 1]])
        np.testing.assert_array_equal(f["var"].dense_shape, [3, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Feature list 'tok' is required"):
            sess.run(seq, {s: _seq(0)})


def test_parse_sequence_example_batch_pads_and_reports_lengths():
    b = tf.placeholder(tf.string, [None])
    ctx, seq, lens = tf.io.parse_sequence_example(
        b, context_features={"len": tf.FixedLenFeature([], tf.int64)},
        sequence_features={"tok": tf.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
                           "var": tf.VarLenFeature(tf.int64)})
    assert sorted(lens) == ["tok"] and seq["tok"].shape.as_list() == [None, None]
    assert seq["var"].indices.shape.as_list() == [None, 3]
    with tf.Session() as sess:
        c, f, n = sess.run((ctx, seq, lens), {b: [_seq(1), _seq(3)]})
        np.testing.assert_array_equal(c["len"], [1, 3])
        np.testing.assert_array_equal(f["tok"], [[0, 0, 0], [0, 10, 20]])
        np.testing.assert_array_equal(n["tok"], [1, 3])
        np.testing.assert_array_equal(f["var"].indices, [[1, 1, 0], [1, 2, 0], [1, 2, 1]])
        np.testing.assert_array_equal(f["var"].dense_shape, [2, 3, 2])
        f0, n0 = sess.run((seq["tok"], lens["tok"]), {b: [_seq(0), _seq(2)]})   # missing list: length 0
        np.testing.assert_array_equal(f0, [[0, 0], [0, 10]])
        np.testing.assert_array_equal(n0, [0, 2])


def test_sequence_feature_errors():
    s = tf.placeholder(tf.string, [])
    with pytest.raises(ValueError, match="Both context_features and sequence_features are None"):
        tf.parse_single_sequence_example(s)
    with pytest.raises(ValueError, match="Unsupported FixedLenFeature"):
        tf.parse_single_sequence_example(s, sequence_features={"a": tf.FixedLenFeature([], tf.int64)})
    with pytest.raises(ValueError, match=r"dense_defaults\[a\] must be None"):
        tf.io.parse_sequence_example(s, sequence_features={
            "a": tf.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=1)})


def _example(**features):
    f = {}
    for k, v in features.items():
        kind = tf.train.Feature(float_list=tf.train.FloatList(value=v)) if k.startswith("v") else \
            tf.train.Feature(int64_list=tf.train.Int64List(value=v))
        f[k] = kind
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


def test_sparse_feature_is_merged_from_index_and_value_keys():
    s = tf.placeholder(tf.string, [None])
    out = tf.parse_example(s, {"sp": tf.SparseFeature("ix", "v", tf.float32, 6)})
    assert list(out) == ["sp"]                      # the index/value keys are dropped
    assert out["sp"].indices.op.type == "SparseReorder" and out["sp"].indices.name == "SparseMerge/SparseReorder:0"
    with tf.Session() as sess:
        d = sess.run(tf.sparse.to_dense(out["sp"]), {s: [_example(ix=[3, 1], v=[0.5, 1.5]), _example(ix=[], v=[])]})
    np.testing.assert_array_equal(d, [[0, 1.5, 0, 0.5, 0, 0], [0] * 6])
    two = tf.parse_single_example(s[0], {"sp": tf.SparseFeature(["ix", "j"], "v", tf.float32, [6, 2],
                                                                already_sorted=True)})
    with tf.Session() as sess:
        r = sess.run(two["sp"], {s: [_example(ix=[3, 1], j=[1, 0], v=[0.5, 1.5])]})
    np.testing.assert_array_equal(r.indices, [[3, 1], [1, 0]])
    np.testing.assert_array_equal(r.dense_shape, [6, 2])


def test_parse_example_graph_is_tf_shaped():
    s = tf.placeholder(tf.string, [None])
    o = tf.parse_example(s, {"a": tf.FixedLenFeature([2], tf.float32, default_value=[1., 2.]),
                             "b": tf.VarLenFeature(tf.int64), "c": tf.FixedLenFeature([], tf.string)})
    op = o["a"].op
    assert op.type == "ParseExampleV2" and op.name == "ParseExample/ParseExampleV2"
    assert [t.name for t in op.inputs] == [
        "Placeholder:0", "ParseExample/ParseExampleV2/names:0", "ParseExample/ParseExampleV2/sparse_keys:0",
        "ParseExample/ParseExampleV2/dense_keys:0", "ParseExample/ParseExampleV2/ragged_keys:0",
        "ParseExample/Reshape:0", "ParseExample/Const:0"]
    assert op.get_attr("num_sparse") == 1 and op.get_attr("Tdense") == [tf.float32, tf.string]
    with pytest.raises(TypeError, match="parameter 'dense_defaults' has DataType int32"):
        tf.parse_example(s, {"a": tf.FixedLenFeature([], tf.int32)})
    with pytest.raises(ValueError, match=r"Shape must be at most rank 1 but is rank 2 .*sparse_types=\[DT_INT64\]"):
        tf.parse_example([[""]], {"a": tf.VarLenFeature(tf.int64)})


def test_parse_error_messages_name_the_example():
    # Messages recorded from TF 2.21: example_names name the example; VarLen type errors differ.
    s = tf.placeholder(tf.string, [None])
    o = tf.parse_example(s, {"a": tf.FixedLenFeature([2], tf.float32), "v": tf.VarLenFeature(tf.string)},
                         example_names=["ex0"])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Name: ex0, Key: a, Index: 0.  Number of float values != expected.  Values size: 1"):
            sess.run(o, {s: [_a_example([1.0])]})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Name: ex0, Feature: a \\(data type: float\\) is required but could not be found."):
            sess.run(o, {s: [_example(ix=[1])]})


def _a_example(values):
    f = {"a": tf.train.Feature(float_list=tf.train.FloatList(value=values))}
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()
