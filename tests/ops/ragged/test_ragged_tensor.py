"""RaggedTensor construction, fetches, conversions and printing. Expected values and strings were
recorded from TensorFlow 2.21 (compat.v1 graph mode)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing.op_test import check_gradients


def _run(x, feed=None):
    with tf.Session() as sess:
        return sess.run(x, feed)


def test_from_row_splits_names_shape_and_value():
    with tf.Graph().as_default():
        rt = tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5, 9, 2, 6], [0, 4, 4, 7, 8, 8])
        # recorded from TF 2.21
        assert repr(rt) == ('tf.RaggedTensor(values=Tensor("RaggedFromRowSplits/values:0", shape=(8,), '
                            'dtype=int32), row_splits=Tensor("RaggedFromRowSplits/control_dependency:0", '
                            'shape=(6,), dtype=int64))')
        assert str(rt.shape) == "(5, ?)" and rt.ragged_rank == 1 and rt.dtype == tf.int32
        v = _run(rt)
        assert isinstance(v, tf.ragged.RaggedTensorValue)
        assert str(v) == "<tf.RaggedTensorValue [[3, 1, 4, 1], [], [5, 9, 2], [6], []]>"
        assert repr(v) == ("tf.RaggedTensorValue(values=array([3, 1, 4, 1, 5, 9, 2, 6], dtype=int32), "
                           "row_splits=array([0, 4, 4, 7, 8, 8]))")


@pytest.mark.parametrize("make", [
    lambda v: tf.RaggedTensor.from_row_lengths(v, [4, 0, 3, 1, 0]),
    lambda v: tf.RaggedTensor.from_value_rowids(v, [0, 0, 0, 0, 2, 2, 2, 3], nrows=5),
    lambda v: tf.RaggedTensor.from_row_starts(v, [0, 4, 4, 7, 8]),
    lambda v: tf.RaggedTensor.from_row_limits(v, [4, 4, 7, 8, 8]),
])
def test_factories_agree(make):
    with tf.Graph().as_default():
        rt = make([3, 1, 4, 1, 5, 9, 2, 6])
        assert str(rt.shape) == "(5, ?)"
        assert _run(rt).to_list() == [[3, 1, 4, 1], [], [5, 9, 2], [6], []]


def test_constant_nested_and_inner_shape():
    with tf.Graph().as_default():
        c = tf.ragged.constant([[[1, 2], [3]], [[4]]])
        assert str(c.shape) == "(2, ?, ?)" and c.ragged_rank == 2
        assert c.values.row_splits.name == "RaggedConstant/Const:0"       # TF 2.21's names
        assert c.row_splits.name == "RaggedConstant/Const_1:0"
        assert _run(c).to_list() == [[[1, 2], [3]], [[4]]]
        u = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
        assert str(u.shape) == "(2, ?, 2)"
        assert str(tf.ragged.constant([[], []]).dtype) == "<dtype: 'float32'>"
        with pytest.raises(ValueError):
            tf.ragged.constant([[1, [2]], [3]])


def test_constant_value():
    v = tf.ragged.constant_value([[1, 2], [3]])
    assert repr(v) == "tf.RaggedTensorValue(values=array([1, 2, 3]), row_splits=array([0, 2, 3]))"
    assert v.shape == (2, None)


def test_to_tensor_to_sparse_and_partitions():
    with tf.Graph().as_default():
        rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
        dense = rt.to_tensor(default_value=-1)
        assert dense.name == "RaggedToTensor/RaggedTensorToTensor:0" and str(dense.shape) == "(5, ?)"
        np.testing.assert_array_equal(_run(dense), [[3, 1, 4, 1], [-1] * 4, [5, 9, 2, -1], [6, -1, -1, -1],
                                                    [-1] * 4])
        sp = _run(rt.to_sparse())
        np.testing.assert_array_equal(sp.indices, [[0, 0], [0, 1], [0, 2], [0, 3], [2, 0], [2, 1], [2, 2], [3, 0]])
        np.testing.assert_array_equal(sp.dense_shape, [5, 4])
        lengths, n, ids = _run([rt.row_lengths(), rt.nrows(), rt.value_rowids()])
        np.testing.assert_array_equal(lengths, [4, 0, 3, 1, 0])
        assert n == 5
        np.testing.assert_array_equal(ids, [0, 0, 0, 0, 2, 2, 2, 3])


def test_from_tensor_padding_lengths_and_sparse():
    with tf.Graph().as_default():
        assert _run(tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0)).to_list() == [[1], [2, 3]]
        assert _run(tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], lengths=[1, 3])).to_list() == \
            [[1], [2, 3, 0]]
        st = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4])
        assert _run(tf.RaggedTensor.from_sparse(st)).to_list() == [[1, 2], [], [3]]


def test_getitem():
    with tf.Graph().as_default():
        rt = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
        got = _run([rt[0], rt[-1], rt[1:3], rt[::2], rt[:, :2], rt[:, -1:]])
        np.testing.assert_array_equal(got[0], [3, 1, 4, 1])
        assert got[1].size == 0
        assert got[2].to_list() == [[], [5, 9, 2]]
        assert got[3].to_list() == [[3, 1, 4, 1], [5, 9, 2], []]
        assert got[4].to_list() == [[3, 1], [], [5, 9], [6], []]
        assert got[5].to_list() == [[1], [], [2], [6], []]


def test_invalid_splits_fail_at_run_time():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None])
        rt = tf.RaggedTensor.from_row_lengths(x, [2, 1])
        assert _run(rt, {x: [1, 2, 3]}).to_list() == [[1, 2, 3][:2], [3]]
        with pytest.raises(tf.errors.InvalidArgumentError):
            _run(rt, {x: [1, 2]})
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.RaggedTensor.from_row_splits([1, 2], [0, 3])


def test_feed_ragged_value():
    with tf.Graph().as_default():
        rt = tf.RaggedTensor.from_row_splits(tf.placeholder(tf.int32, [None]),
                                             tf.placeholder(tf.int64, [None]), validate=False)
        out = rt * 2
        v = tf.ragged.constant_value([[1, 2], [3]], dtype="int32")
        assert _run(out, {rt: v}).to_list() == [[2, 4], [6]]


def test_to_tensor_gradient():
    lengths = [2, 0, 1]

    def build(x):
        rt = tf.RaggedTensor.from_row_lengths(x, lengths)
        return rt.to_tensor(default_value=0.5) * tf.constant([[1., 2.], [3., 4.], [5., 6.]], tf.float64)
    check_gradients(build, [np.array([0.3, -1.2, 2.0])])


def test_flat_values_gradient_through_elementwise_and_reduce():
    def build(x):
        rt = tf.RaggedTensor.from_row_splits(x, [0, 2, 2, 5])
        return tf.reduce_sum(tf.square(rt) * 3.0, axis=1) + tf.reduce_mean(rt, axis=0)[0]
    check_gradients(build, [np.array([0.3, -1.2, 2.0, 0.7, 1.1])])
