"""SparseTensor (fetch, feed, names, conversion), sparse_to_dense and the sparse segment
reductions against NumPy references, their gradients by finite differences, and TF's names and
values (recorded from real TensorFlow 2.21 compat.v1)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op


def test_sparse_tensor_names_shape_and_fetch():
    sp = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1.0, 2.0], dense_shape=[3, 4])
    # Recorded from TF: SparseTensor/indices:0 SparseTensor/values:0 SparseTensor/dense_shape:0, (3, 4)
    assert (sp.indices.name, sp.values.name, sp.dense_shape.name) == (
        "SparseTensor/indices:0", "SparseTensor/values:0", "SparseTensor/dense_shape:0")
    assert sp.dtype == tf.float32 and sp.indices.dtype == tf.int64 and sp.dense_shape.dtype == tf.int64
    assert sp.shape.as_list() == [3, 4] and sp.get_shape().as_list() == [3, 4]
    d = tf.sparse_tensor_to_dense(sp)
    assert d.name == "SparseToDense:0" and d.shape.as_list() == [3, 4]
    assert tf.sparse.to_dense(sp).name == "SparseToDense_1:0"
    with tf.Session() as sess:
        v = sess.run(sp)
        assert type(v).__name__ == "SparseTensorValue"
        np.testing.assert_array_equal(v.indices, [[0, 0], [1, 2]])
        np.testing.assert_array_equal(v.values, np.array([1, 2], np.float32))
        np.testing.assert_array_equal(v.dense_shape, [3, 4])
        want = np.zeros([3, 4], np.float32)
        want[0, 0], want[1, 2] = 1, 2
        np.testing.assert_array_equal(sess.run(d), want)
        # nested fetch structures keep working
        got = sess.run({"sp": sp, "d": [d]})
        np.testing.assert_array_equal(got["d"][0], want)
        assert got["sp"].values.dtype == np.float32


def test_sparse_tensor_is_not_a_tensor():
    sp = tf.SparseTensor([[0]], [1.0], [2])
    with pytest.raises(TypeError, match="Failed to convert elements of SparseTensor"):
        tf.convert_to_tensor(sp)
    with pytest.raises(TypeError):
        tf.sparse_tensor_to_dense(tf.constant([1.0]))


def test_sparse_placeholder_names_and_feed():
    ph = tf.sparse_placeholder(tf.float32)
    # Recorded from TF: Placeholder_2:0 Placeholder_1:0 Placeholder:0, shape <unknown>, indices (?, ?)
    assert (ph.indices.name, ph.values.name, ph.dense_shape.name) == (
        "Placeholder_2:0", "Placeholder_1:0", "Placeholder:0")
    assert ph.shape.ndims is None and ph.indices.shape.as_list() == [None, None]
    ph2 = tf.sparse_placeholder(tf.float32, shape=[3, 4], name="x")
    assert (ph2.indices.name, ph2.values.name, ph2.dense_shape.name) == ("x/indices:0", "x/values:0", "x/shape:0")
    assert ph2.shape.as_list() == [3, 4] and ph2.indices.shape.as_list() == [None, 2]
    dense = tf.sparse.to_dense(ph)
    with tf.Session() as sess:
        out = sess.run(dense, {ph: tf.SparseTensorValue([[0, 0], [1, 1]], [3.0, 4.0], [2, 2])})
        np.testing.assert_array_equal(out, [[3, 0], [0, 4]])
        # a plain (indices, values, dense_shape) tuple feeds too, mixed with other feeds
        y = tf.placeholder(tf.float32, [])
        out = sess.run(dense * y, {ph: ([[1, 0]], [5.0], [2, 3]), y: 2.0})
        np.testing.assert_array_equal(out, [[0, 0, 0], [10, 0, 0]])
        assert sess.run(ph2.values * 2, {ph2: tf.SparseTensorValue([[0, 0]], [3.0], [3, 4])}) == [6.0]


def test_sparse_to_dense_values_and_errors():
    check_op(lambda i, v: tf.sparse_to_dense(i, [2, 3], v, default_value=-1.0),
             [np.array([[0, 1], [1, 2]], np.int64), np.array([5, 6], np.float32)],
             np.array([[-1, 5, -1], [-1, -1, 6]], np.float32))
    check_op(lambda i: tf.sparse_to_dense(i, [4], 1.0), [np.array([0, 3], np.int32)],
             np.array([1, 0, 0, 1], np.float32))
    with tf.Session() as sess:
        for idx, msg in (([[0, 1], [0, 1]], "is repeated"), ([[1, 0], [0, 1]], "is out of order"),
                         ([[0, 5]], "is out of bounds")):
            with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
                sess.run(tf.sparse_to_dense(np.array(idx, np.int64), [2, 3], 1.0))
        # validate_indices=False accepts unsorted indices
        out = sess.run(tf.sparse_to_dense(np.array([[1, 0], [0, 1]], np.int64), [2, 2], [1.0, 2.0],
                                          validate_indices=False))
        np.testing.assert_array_equal(out, [[0, 2], [1, 0]])


def test_sparse_to_dense_gradient():
    idx = np.array([[0, 1], [1, 2]], np.int64)
    check_gradients(lambda v, d: tf.sparse_to_dense(idx, [2, 3], v, default_value=d),
                    [np.array([0.5, -1.5]), np.array(0.25)])


def _seg_ref(data, indices, segs, kind):
    n = segs[-1] + 1
    out = np.zeros((n,) + data.shape[1:], data.dtype)
    count = np.zeros(n)
    for i, s in zip(indices, segs):
        out[s] += data[i]
        count[s] += 1
    if kind == "mean":
        out /= np.maximum(count, 1).reshape((-1,) + (1,) * (data.ndim - 1))
    elif kind == "sqrt_n":
        out /= np.sqrt(np.maximum(count, 1)).reshape((-1,) + (1,) * (data.ndim - 1))
    return out.astype(data.dtype)


@pytest.mark.parametrize("kind", ["sum", "mean", "sqrt_n"])
def test_sparse_segment_reductions(kind):
    fn = getattr(tf, "sparse_segment_" + kind)
    data = np.arange(12, dtype=np.float32).reshape(4, 3)
    indices, segs = np.array([0, 1, 3, 1], np.int32), np.array([0, 0, 2, 2], np.int32)
    check_op(lambda d: fn(d, indices, segs), [data], _seg_ref(data, indices, segs, kind), rtol=1e-6)
    d64 = np.random.RandomState(0).standard_normal((5, 2))
    check_gradients(lambda d: fn(d, indices, segs), [d64])


def test_sparse_segment_names_and_tf_values():
    data = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    a = tf.sparse_segment_sum(data, [0, 1, 3], [0, 0, 1])
    b = tf.sparse_segment_mean(data, [0, 1, 3], [0, 0, 2])
    c = tf.sparse_segment_sqrt_n(data, [0, 1, 3], [0, 0, 2])
    assert (a.name, b.name, c.name) == ("SparseSegmentSum:0", "SparseSegmentMean:0", "SparseSegmentSqrtN:0")
    assert a.shape.as_list() == [None, 3]
    assert tf.gradients(b, data)[0].op.type == "SparseSegmentMeanGrad"
    with tf.Session() as sess:
        va, vb, vc = sess.run([a, b, c])
    # Recorded from TF
    np.testing.assert_array_equal(va, [[3, 5, 7], [9, 10, 11]])
    np.testing.assert_array_equal(vb, [[1.5, 2.5, 3.5], [0, 0, 0], [9, 10, 11]])
    np.testing.assert_allclose(vc, [[2.1213202, 3.535534, 4.9497476], [0, 0, 0], [9, 10, 11]], rtol=1e-6)


def test_sparse_segment_errors():
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="out of range"):
            sess.run(tf.sparse_segment_sum(tf.ones([2, 2]), [0, 5], [0, 0]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="not increasing"):
            sess.run(tf.sparse_segment_sum(tf.ones([2, 2]), [0, 1], [1, 0]))
    with pytest.raises(TypeError):
        tf.sparse_segment_sum(tf.ones([2, 2]), [0.5], [0])
