"""StackOverflow-style TF1 questions, round 2: each test is a user's confusion made concrete, with
the values, names, shapes and error classes recorded from TF 2.21 (tensorflow.compat.v1 with v2
behaviour disabled) unless computed from NumPy in the test."""

import sys

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default():
        yield


def test_tensor_array_op_names_size_and_gather_shape():
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.write(0, [1.0, 2.0]).write(1, [3.0, 4.0])
    ta = ta.scatter([2], [[5.0, 6.0]])
    r = ta.read(1)
    g = ta.gather([2, 0])
    st = ta.stack()
    sz = ta.size()
    c = ta.concat()
    tf.TensorArray(tf.float32, size=2).unstack([[1.0], [2.0]])
    tf.TensorArray(tf.float32, size=2).split([1.0, 2.0, 3.0], [1, 2])
    ds = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2]).size()
    # Recorded from TF 2.21: a fixed size() is the size as a Const, gather's first dim unknown.
    assert [str(t.shape) for t in (r, g, st, sz, c)] == ["(2,)", "(?, 2)", "(3, 2)", "()", "(6,)"]
    assert (sz.name, ds.name, g.name, st.name) == (
        "Const:0", "TensorArraySizeV3:0", "TensorArrayGatherV3:0", "TensorArrayStack/TensorArrayGatherV3:0")
    names = [o.name for o in tf.get_default_graph().get_operations()]
    assert names == [
        "TensorArray/size", "TensorArray", "TensorArrayWrite/value", "TensorArrayWrite/TensorArrayWriteV3/index",
        "TensorArrayWrite/TensorArrayWriteV3", "TensorArrayWrite_1/value",
        "TensorArrayWrite_1/TensorArrayWriteV3/index", "TensorArrayWrite_1/TensorArrayWriteV3",
        "TensorArrayScatter/value", "TensorArrayScatter/TensorArrayScatterV3/indices",
        "TensorArrayScatter/TensorArrayScatterV3", "TensorArrayReadV3/index", "TensorArrayReadV3",
        "TensorArrayGatherV3/indices", "TensorArrayGatherV3", "TensorArrayStack/Const",
        "TensorArrayStack/range/start", "TensorArrayStack/range/delta", "TensorArrayStack/range",
        "TensorArrayStack/TensorArrayGatherV3", "Const", "TensorArrayConcatV3", "Const_1",
        "TensorArray_1/size", "TensorArray_1", "TensorArrayUnstack/Shape/Const", "TensorArrayUnstack/Shape",
        "TensorArrayUnstack/strided_slice/stack", "TensorArrayUnstack/strided_slice/stack_1",
        "TensorArrayUnstack/strided_slice/stack_2", "TensorArrayUnstack/strided_slice",
        "TensorArrayUnstack/range/start", "TensorArrayUnstack/range/delta", "TensorArrayUnstack/range",
        "TensorArrayUnstack/TensorArrayScatter/value", "TensorArrayUnstack/TensorArrayScatter/TensorArrayScatterV3",
        "TensorArray_2/size", "TensorArray_2", "TensorArraySplit/value", "TensorArraySplit/Cast/x",
        "TensorArraySplit/Cast", "TensorArraySplit/TensorArraySplitV3", "TensorArray_3/size", "TensorArray_3",
        "TensorArraySizeV3"]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(st), [[1, 2], [3, 4], [5, 6]])
        # stack and gather in one step read an index twice: TF's clear_after_read error (TF names
        # index 2; which read comes second depends on the executor's order).
        with pytest.raises(tf.errors.InvalidArgumentError, match="Could not read index . twice"):
            sess.run([st, g])


def test_concat_of_nothing_and_of_zero_size_tensors():
    c = tf.concat([tf.zeros([0, 3]), tf.ones([2, 3])], 0)
    assert (c.name, str(c.shape)) == ("concat:0", "(2, 3)")
    # Recorded from TF 2.21: the op builder's list-length check (the scope name is still taken).
    with pytest.raises(ValueError, match="^List argument 'values' to 'ConcatV2' Op with length 0 "
                                         "shorter than minimum length 2.$"):
        tf.concat([], 0)
    one = tf.concat([tf.ones([2, 3])], 0)
    assert (one.name, one.op.type) == ("concat_2/concat:0", "Identity")
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(c), np.ones([2, 3]))
        assert sess.run(tf.concat([tf.zeros([2, 0]), tf.ones([2, 3])], 1)).shape == (2, 3)


def test_placeholder_with_default_shape_must_merge_with_the_default():
    x = tf.placeholder_with_default(tf.constant([[1.0, 2.0]]), shape=[None, 2])
    assert (x.name, x.op.type, str(x.shape)) == ("PlaceholderWithDefault:0", "PlaceholderWithDefault", "(?, 2)")
    # Recorded from TF 2.21: the shape function's Merge message.
    with pytest.raises(ValueError) as info:
        tf.placeholder_with_default([1, 2], [3])
    assert str(info.value) == (
        "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for "
        "'{{node PlaceholderWithDefault_1}} = PlaceholderWithDefault[dtype=DT_INT32, shape=[3]]"
        "(PlaceholderWithDefault_1/input)' with input shapes: [2].")
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(x * 2), [[2.0, 4.0]])
        np.testing.assert_array_equal(sess.run(x * 2, {x: [[3., 4.], [5., 6.]]}), [[6., 8.], [10., 12.]])
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(1, 3\)"):
            sess.run(x, {x: [[1., 2., 3.]]})


def test_sparse_softmax_xent_with_one_hot_labels_fails_on_rank_first():
    # A classic: one-hot labels passed to the sparse loss. Recorded from TF 2.21: the rank check
    # comes before the op builder's dtype check.
    labels = tf.constant([[1.0, 0.0], [0.0, 1.0]])
    logits = tf.constant([[10.0, -10.0], [0.5, 0.5]])
    with pytest.raises(ValueError) as info:
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    assert str(info.value) == ("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                               "labels.shape=(2, 2) of rank 2 and logits.shape=(2, 2) of rank 2")
    with pytest.raises(TypeError, match="has DataType float32 not in list of allowed values: int32, int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0.0, 1.0], logits=logits)
    with pytest.raises(ValueError, match=r"must have the same shape, received \(\(2, 1\) vs \(2, 2\)\)"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits[:, :1])
    sp = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 1], logits=logits)
    losses = [tf.losses.softmax_cross_entropy(labels, logits), tf.losses.sparse_softmax_cross_entropy([0, 1], logits),
              tf.losses.sigmoid_cross_entropy(labels, logits), tf.losses.log_loss(labels, tf.sigmoid(logits))]
    assert [t.name for t in losses] == [
        "softmax_cross_entropy_loss/value:0", "sparse_softmax_cross_entropy_loss/value:0",
        "sigmoid_cross_entropy_loss/value:0", "log_loss/value:0"]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(sp), [0.0, np.log(2.0)], atol=1e-6)
        # Recorded from TF 2.21.
        np.testing.assert_allclose(sess.run(losses), [0.3465736, 0.3465736, 0.3620612, 0.36206102], rtol=1e-6)


def test_sliced_assignment_to_a_variable():
    # "'Variable' object does not support item assignment": the answer is v[1:3].assign(...).
    v = tf.Variable([1, 2, 3, 4], name="v")
    a = v[1:3].assign([7, 8])
    b = v[0].assign(9)
    # Recorded from TF 2.21.
    assert (a.name, a.op.type, str(a.shape), a.dtype.name, b.name) == (
        "strided_slice/_assign:0", "StridedSliceAssign", "(4,)", "int32_ref", "strided_slice_1/_assign:0")
    assert [t.name for t in a.op.inputs] == ["v:0", "strided_slice/stack:0", "strided_slice/stack_1:0",
                                             "strided_slice/stack_2:0", "strided_slice/_assign/value:0"]
    m = tf.Variable(tf.zeros([2, 3]), name="m")
    c = m[:, 1].assign([5., 6.])
    d = m[0, ::2].assign([1., 2.], name="row")
    e = m[1].assign(-1.0)                      # the value broadcasts into the slice (TF 2.21)
    bad = v[1:3].assign([1, 2, 3])
    r = tf.Variable([1.0, 2.0], use_resource=True, name="r")
    ra = r[1:].assign([5.0])
    assert (c.name, d.name, ra.name, ra.op.type, str(ra.shape)) == (
        "strided_slice_2/_assign:0", "row:0", "strided_slice_6/_assign", "ResourceStridedSliceAssign", "(2,)")
    assert not hasattr(tf.constant([1, 2])[0], "assign")
    with pytest.raises(TypeError, match="does not support item assignment"):
        v[1:3] = [1, 2]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(a), [1, 7, 8, 4])
        np.testing.assert_array_equal(sess.run(b), [9, 7, 8, 4])
        np.testing.assert_array_equal(sess.run(c), [[0, 5, 0], [0, 6, 0]])
        np.testing.assert_array_equal(sess.run(d), [[1, 5, 2], [0, 6, 0]])
        np.testing.assert_array_equal(sess.run(e), [[1, 5, 2], [-1, -1, -1]])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Cannot broadcast input shape \[3\] into "
                                                                 r"final shape \[2\]"):
            sess.run(bad)
        np.testing.assert_array_equal(sess.run(ra), [1.0, 5.0])
        np.testing.assert_array_equal(sess.run(r), [1.0, 5.0])
        # the slice is still an ordinary tensor: gradients flow through it
        g, = tf.gradients(tf.reduce_sum(m[0] * 2.0), m)
        np.testing.assert_array_equal(sess.run(g), [[2, 2, 2], [0, 0, 0]])


def test_map_fn_dict_outputs_keep_key_order_and_empty_elems_stack():
    x = tf.constant([[1, 2], [3, 4]])
    z = tf.map_fn(lambda r: {"s": tf.reduce_sum(r), "m": tf.reduce_max(r)}, x,
                  dtype={"s": tf.int32, "m": tf.int32})
    # Recorded from TF 2.21: the dict keeps the dtype structure's key order.
    assert list(z) == ["s", "m"] and str(z["s"].shape) == "(2,)"
    # Mapping over zero rows: the loop body's write told the gather its element shape.
    e = tf.map_fn(lambda r: r, tf.zeros([0, 3]))
    assert str(e.shape) == "(0, 3)"
    with tf.Session() as sess:
        out = sess.run(z)
        assert list(out) == ["s", "m"]
        np.testing.assert_array_equal(out["s"], [3, 7])
        np.testing.assert_array_equal(out["m"], [2, 4])
        got = sess.run(e)
        assert got.shape == (0, 3) and got.dtype == np.float32
