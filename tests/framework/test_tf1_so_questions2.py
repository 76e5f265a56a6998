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
