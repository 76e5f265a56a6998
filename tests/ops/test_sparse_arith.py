"""sparse_reduce_sum/max, sparse_add, sparse_concat, sparse_reorder, sparse_reshape,
sparse_tensor_dense_matmul (+ gradient), sparse_retain, tf.sparse.from_dense. Expected values
recorded from TensorFlow 2.21 (`tensorflow.compat.v1`)."""

import numpy as np

import tensorweave as tf
from tensorweave.testing import check_gradients


def _st():
    return tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1., 2.], dense_shape=[3, 4])


def test_reductions_and_add():
    with tf.Graph().as_default(), tf.Session() as sess:
        st = _st()
        r = tf.sparse_reduce_sum(st)
        assert r.name == "SparseReduceSum:0" and sess.run(r) == 3.0
        assert sess.run(tf.sparse_reduce_sum(st, axis=1)).tolist() == [1., 2., 0.]
        assert sess.run(tf.sparse_reduce_sum(st, axis=1, keepdims=True)).shape == (3, 1)
        assert sess.run(tf.sparse_reduce_max(st)) == 2.0
        a = sess.run(tf.sparse_add(st, st))
        assert a.indices.tolist() == [[0, 0], [1, 2]] and a.values.tolist() == [2., 4.]
        d = sess.run(tf.sparse_add(st, tf.ones([3, 4])))
        assert d.tolist() == [[2, 1, 1, 1], [1, 1, 3, 1], [1, 1, 1, 1]]


def test_concat_reorder_reshape_retain():
    with tf.Graph().as_default(), tf.Session() as sess:
        st = _st()
        c = tf.sparse_concat(1, [st, tf.SparseTensor([[0, 1]], [5.], [3, 2])])
        assert c.shape.as_list() == [3, 6]
        v = sess.run(c)
        assert v.indices.tolist() == [[0, 0], [0, 5], [1, 2]] and v.values.tolist() == [1., 5., 2.]
        assert v.dense_shape.tolist() == [3, 6]
        r = sess.run(tf.sparse_reorder(tf.SparseTensor([[1, 0], [0, 1]], [1, 2], [2, 2])))
        assert r.indices.tolist() == [[0, 1], [1, 0]] and r.values.tolist() == [2, 1]
        rs = tf.sparse_reshape(st, [4, 3])
        v = sess.run(rs)
        assert v.indices.tolist() == [[0, 0], [2, 0]] and v.dense_shape.tolist() == [4, 3]
        assert tf.sparse_reshape(st, [-1, 2]).shape.as_list() == [6, 2]
        k = sess.run(tf.sparse_retain(st, [True, False]))
        assert k.indices.tolist() == [[0, 0]] and k.values.tolist() == [1.]
        fd = sess.run(tf.sparse.from_dense(tf.constant([[0, 1], [2, 0]])))
        assert fd.indices.tolist() == [[0, 1], [1, 0]] and fd.values.tolist() == [1, 2]


def test_sparse_dense_matmul_and_grad():
    with tf.Graph().as_default(), tf.Session() as sess:
        st = _st()
        m = tf.sparse_tensor_dense_matmul(st, tf.ones([4, 2]))
        assert m.name == "SparseTensorDenseMatMul/SparseTensorDenseMatMul:0"
        assert m.shape.as_list() == [3, 2]
        assert sess.run(m).tolist() == [[1, 1], [2, 2], [0, 0]]
        at = sess.run(tf.sparse_tensor_dense_matmul(st, tf.ones([3, 2]), adjoint_a=True))
        assert at.tolist() == [[1, 1], [0, 0], [2, 2], [0, 0]]
    idx = np.array([[0, 0], [1, 2], [2, 1]], np.int64)
    b = np.random.RandomState(0).randn(4, 2)
    vals = np.array([1.0, -2.0, 0.5])
    check_gradients(lambda v, bb: tf.sparse_tensor_dense_matmul(tf.SparseTensor(idx, v, [3, 4]), bb),
                    [vals, b])


def test_sparse_reshape_builds_tfs_graph():
    # Names recorded from TF 2.21: the shape is cast outside the scope, the values' Identity and
    # (for a fully static input shape) a Const dense shape inside it.
    with tf.Graph().as_default() as g:
        sp = tf.SparseTensor(indices=[[0, 0], [1, 2], [2, 1]], values=[1.0, 2.0, 3.0], dense_shape=[3, 4])
        rs = tf.sparse_reshape(sp, [-1, 2], name="rr")
        assert (rs.indices.name, rs.values.name, rs.dense_shape.name) == ("rr:0", "rr/Identity:0", "rr/Const:0")
        ph = tf.sparse_placeholder(tf.float32)
        rs2 = tf.sparse_reshape(ph, [2, -1])
        assert rs2.dense_shape.name == "SparseReshape:1" and rs2.values.name == "SparseReshape/Identity:0"
        with tf.Session(graph=g) as s:
            out = s.run(rs)
        np.testing.assert_array_equal(out.dense_shape, [6, 2])
        np.testing.assert_array_equal(out.indices, [[0, 0], [3, 0], [4, 1]])
