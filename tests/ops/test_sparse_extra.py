"""tf.sparse slice / transpose / fill_empty_rows / to_indicator / merge / softmax / maximum /
minimum / split / reset_shape / expand_dims / eye / reduce_*_sparse and tf.sparse_matmul.
Expected names, entry orders, static shapes and values were recorded from TensorFlow 2.21
(tf.compat.v1 graph mode)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients

IDX = [[0, 0], [0, 3], [1, 2], [3, 1], [3, 4], [4, 0]]


def _run(x):
    with tf.Session() as s:
        return s.run(x)


def _sv(st):
    v = _run(st)
    return v.indices.tolist(), v.values.tolist(), v.dense_shape.tolist()


def _names(st):
    return st.indices.name, st.values.name, st.dense_shape.name


@pytest.fixture
def sp():
    with tf.Graph().as_default():
        yield tf.SparseTensor(IDX, [1., 2., 3., 4., 5., 6.], [5, 6])


def test_slice(sp):
    s = tf.sparse_slice(sp, [1, 1], [3, 4])
    assert _names(s) == ("SparseSlice:0", "SparseSlice:1", "SparseSlice:2")
    assert s.indices.shape.as_list() == [None, 2] and s.dense_shape.shape.as_list() == [2]
    assert _sv(s) == ([[0, 1], [2, 0], [2, 3]], [3.0, 4.0, 5.0], [3, 4])
    assert _sv(tf.sparse.slice(sp, [3, 0], [10, 10])) == ([[0, 1], [0, 4], [1, 0]], [4.0, 5.0, 6.0], [2, 6])


def test_transpose(sp):
    t = tf.sparse_transpose(sp)
    assert _names(t) == ("SparseTranspose/SparseReorder:0", "SparseTranspose/SparseReorder:1",
                         "SparseTranspose/SparseTensor_1/dense_shape:0")
    assert t.shape.as_list() == [6, 5]
    want = ([[0, 0], [0, 4], [1, 3], [2, 1], [3, 0], [4, 3]], [1.0, 6.0, 4.0, 3.0, 2.0, 5.0], [6, 5])
    assert _sv(t) == want
    assert _sv(tf.sparse.transpose(sp, [1, 0])) == want


def test_fill_empty_rows(sp):
    f, empty = tf.sparse_fill_empty_rows(sp, -1.)
    assert _names(f)[:2] == ("SparseFillEmptyRows/SparseFillEmptyRows:0", "SparseFillEmptyRows/SparseFillEmptyRows:1")
    assert empty.name == "SparseFillEmptyRows/SparseFillEmptyRows:2" and empty.shape.as_list() == [5]
    assert f.shape.as_list() == [5, 6]
    assert _sv(f) == ([[0, 0], [0, 3], [1, 2], [2, 0], [3, 1], [3, 4], [4, 0]],
                      [1.0, 2.0, 3.0, -1.0, 4.0, 5.0, 6.0], [5, 6])
    assert _run(empty).tolist() == [False, False, True, False, False]
    # unordered rows: grouped by row, input order within a row
    f2, e2 = tf.sparse.fill_empty_rows(tf.SparseTensor([[1, 2], [1, 0], [3, 1]], [1, 2, 3], [5, 4]), 9)
    assert _sv(f2) == ([[0, 0], [1, 2], [1, 0], [2, 0], [3, 1], [4, 0]], [9, 1, 2, 9, 3, 9], [5, 4])
    assert _run(e2).tolist() == [True, False, True, False, True]


def test_indicator_and_merge():
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]], tf.constant([3, 1, 0, 3], tf.int64), [3, 4])
    ind = tf.sparse_to_indicator(ids, 5)
    assert ind.name == "SparseToIndicator:0" and ind.dtype == tf.bool
    assert _run(ind).tolist() == [[False, True, False, True, False], [True, False, False, False, False],
                                  [False, False, False, True, False]]
    vals = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]], [0.5, 1.5, 2.5, 3.5], [3, 4])
    m = tf.sparse_merge(ids, vals, 5)
    assert _names(m) == ("SparseMerge/SparseReorder:0", "SparseMerge/SparseReorder:1", "SparseMerge/concat_1:0")
    assert _sv(m) == ([[0, 1], [0, 3], [1, 0], [2, 3]], [1.5, 0.5, 2.5, 3.5], [3, 5])


def test_softmax_values_bit_exact():
    st = tf.SparseTensor([[0, 0], [0, 3], [1, 2], [2, 0], [2, 1]], [1., 2., 3., 0.5, -1.], [3, 4])
    sm = tf.sparse_softmax(st)
    assert sm.values.name == "SparseSoftmax/SparseSoftmax:0" and sm.shape.as_list() == [3, 4]
    assert _run(sm.values).tolist() == [0.2689414322376251, 0.7310585975646973, 1.0, 0.8175744414329529,
                                        0.18242551386356354]


def test_maximum_minimum():
    a = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1., -2., 3.], [2, 3])
    b = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], [-5., 4., 1.], [2, 3])
    mx, mn = tf.sparse_maximum(a, b), tf.sparse.minimum(a, b)
    assert mx.indices.name == "SparseSparseMaximum:0" and mn.values.name == "SparseSparseMinimum:1"
    assert _sv(mx) == ([[0, 0], [0, 2], [1, 0], [1, 1]], [1.0, 0.0, 4.0, 3.0], [2, 3])
    assert _sv(mn) == ([[0, 0], [0, 2], [1, 0], [1, 1]], [-5.0, -2.0, 0.0, 1.0], [2, 3])
    with pytest.raises(TypeError):  # TF 2.21's registered gradient takes too few arguments
        tf.gradients(mx.values, a.values)


def test_split(sp):
    parts = tf.sparse_split(sp_input=sp, num_split=3, axis=1)
    assert [_names(p) for p in parts][0] == ("SparseSplit:0", "SparseSplit:3", "SparseSplit:6")
    assert [_sv(p) for p in parts] == [([[0, 0], [3, 1], [4, 0]], [1.0, 4.0, 6.0], [5, 2]),
                                       ([[0, 1], [1, 0]], [2.0, 3.0], [5, 2]), ([[3, 0]], [5.0], [5, 2])]
    rows = tf.sparse.split(sp_input=sp, num_split=2, axis=0)
    assert [_sv(p) for p in rows] == [([[0, 0], [0, 3], [1, 2]], [1.0, 2.0, 3.0], [3, 6]),
                                      ([[0, 1], [0, 4], [1, 0]], [4.0, 5.0, 6.0], [2, 6])]
    four = tf.sparse_split(sp_input=sp, num_split=4, axis=1)
    with pytest.raises(ValueError, match="^axis is required$"):   # TF 2.21, even with split_dim
        tf.sparse_split(sp_input=sp, num_split=4, split_dim=1)
    assert [_sv(p)[2] for p in four] == [[5, 2], [5, 2], [5, 1], [5, 1]]
    assert _sv(four[3]) == ([], [], [5, 1])
    with pytest.raises(ValueError, match="Cannot specify both 'split_dim' and 'axis'"):
        tf.sparse_split(sp_input=sp, num_split=4, split_dim=1, axis=1)
    with pytest.raises(ValueError, match="Keyword arguments are required"):
        tf.sparse_split(sp, 2, 1)
    with pytest.raises(LookupError):
        tf.gradients(parts[0].values, sp.values)


def test_reset_shape_expand_dims_eye(sp):
    r = tf.sparse.reset_shape(sp)
    assert _names(r) == ("Identity:0", "Identity_1:0", "Maximum:0") and r.shape.as_list() == [None, None]
    assert _sv(r)[2] == [5, 5]
    r2 = tf.sparse.reset_shape(sp, [6, 7])
    assert r2.shape.as_list() == [6, 7] and _sv(r2) == (IDX, [1., 2., 3., 4., 5., 6.], [6, 7])
    with pytest.raises(ValueError):
        tf.sparse.reset_shape(sp, [4, 7])
    e = tf.sparse.expand_dims(sp)
    assert _names(e) == ("expand_dims/concat:0", "SparseTensor/values:0", "expand_dims/concat_1:0")
    assert e.indices.shape.as_list() == [6, 3] and e.shape.as_list() == [None, None, 1]
    assert _sv(e) == ([i + [0] for i in IDX], [1., 2., 3., 4., 5., 6.], [5, 6, 1])
    e0 = tf.sparse.expand_dims(sp, 0)
    assert e0.shape.as_list() == [1, None, None] and _sv(e0)[0] == [[0] + i for i in IDX]
    eye = tf.sparse.eye(3)
    assert _names(eye) == ("eye/stack:0", "eye/ones:0", "eye/SparseTensor/dense_shape:0")
    assert eye.shape.as_list() == [3, 3] and _sv(eye) == ([[0, 0], [1, 1], [2, 2]], [1.0] * 3, [3, 3])
    assert _sv(tf.sparse.eye(2, 4, dtype=tf.int32)) == ([[0, 0], [1, 1]], [1, 1], [2, 4])


def test_reduce_sparse(sp):
    s = tf.sparse_reduce_sum_sparse(sp, 1)
    assert _names(s) == ("SparseReduceSumSparse:0", "SparseReduceSumSparse:1", "SparseReduceSumSparse:2")
    assert s.indices.shape.ndims is None
    assert _sv(s) == ([[0], [1], [3], [4]], [3.0, 3.0, 9.0, 6.0], [5])
    assert _sv(tf.sparse.reduce_sum_sparse(sp, 0, keepdims=True)) == (
        [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]], [7.0, 4.0, 3.0, 2.0, 5.0], [1, 6])
    assert _sv(tf.sparse_reduce_max_sparse(sp, [1])) == ([[0], [1], [3], [4]], [2.0, 3.0, 5.0, 6.0], [5])
    assert _sv(tf.sparse_reduce_sum_sparse(sp)) == ([[]], [21.0], [])
    with pytest.raises(LookupError):
        tf.gradients(s.values, sp.values)


def test_sparse_matmul_values_and_grads():
    x = tf.constant([[1., 0, 2], [0, 0, 3]])
    y = tf.constant([[1., 2], [3, 4], [5, 6]])
    m = tf.sparse_matmul(x, y, a_is_sparse=True)
    assert m.name == "SparseMatMul:0" and m.shape.as_list() == [2, 2] and m.dtype == tf.float32
    assert _run(m).tolist() == [[11.0, 14.0], [15.0, 18.0]]
    assert _run(tf.sparse_matmul(x, x, transpose_b=True, b_is_sparse=True)).tolist() == [[5.0, 6.0], [6.0, 9.0]]
    m3 = tf.sparse_matmul(y, x, transpose_a=True, transpose_b=True)
    assert _run(m3).tolist() == [[11.0, 15.0], [14.0, 18.0]]
    w = tf.constant([[1., 2], [3, 4]])
    g = tf.gradients(tf.reduce_sum(m * w), [x, y])
    assert [t.name for t in g] == ["gradients/SparseMatMul_grad/MatMul:0", "gradients/SparseMatMul_grad/MatMul_1:0"]
    gx, gy = _run(g)
    assert gx.tolist() == [[5.0, 11.0, 17.0], [11.0, 25.0, 39.0]] and gy.tolist() == [[1, 2], [0, 0], [11, 16]]
    gx, gy = _run(tf.gradients(tf.reduce_sum(m3 * w), [x, y]))
    assert gx.tolist() == [[7.0, 15.0, 23.0], [10.0, 22.0, 34.0]] and gy.tolist() == [[1, 3], [0, 0], [8, 18]]
    with pytest.raises(TypeError):
        tf.sparse_matmul(tf.constant([[1.0]], tf.float64), tf.constant([[1.0]], tf.float64))


def test_gradients_match_tf(sp):
    v = sp.values
    s1 = tf.sparse_slice(sp, [1, 1], [3, 4])
    g1 = tf.gradients(tf.reduce_sum(s1.values * tf.constant([1., 2., 3.])), v)[0]
    assert g1.name == "gradients/SparseSlice_grad/SparseSliceGrad:0"
    assert _run(g1).tolist() == [0.0, 0.0, 1.0, 2.0, 3.0, 0.0]
    dv = tf.constant(-1.)
    f2, _ = tf.sparse_fill_empty_rows(sp, dv)
    g2 = tf.gradients(tf.reduce_sum(f2.values * tf.constant([1., 2., 3., 4., 5., 6., 7.])), [v, dv])
    a, b = _run(g2)
    assert a.tolist() == [1.0, 2.0, 3.0, 5.0, 6.0, 7.0] and b == 4.0
    sm = tf.sparse_softmax(tf.SparseTensor([[0, 0], [0, 3], [1, 2], [2, 0], [2, 1]], v[:5], [3, 4]))
    g3 = tf.gradients(tf.reduce_sum(sm.values * tf.constant([1., -2., 3., 0.5, 2.])), v)[0]
    np.testing.assert_allclose(_run(g3), [0.58984, -0.58984, 0.0, -0.29492, 0.29492, 0.0], atol=1e-5)


def test_finite_difference_gradients():
    vals = np.array([0.3, -1.2, 2.0, 0.7, -0.4, 1.1])

    def sliced(v):
        return tf.sparse_slice(tf.SparseTensor(IDX, v, [5, 6]), [1, 1], [3, 4]).values

    def filled(v, d):
        return tf.sparse_fill_empty_rows(tf.SparseTensor(IDX, v, [5, 6]), d)[0].values

    def softmax(v):
        return tf.sparse_softmax(tf.SparseTensor(IDX, v, [5, 6])).values

    check_gradients(sliced, [vals])
    check_gradients(filled, [vals, np.float64(0.5)])
    check_gradients(softmax, [vals])
