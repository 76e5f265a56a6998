"""tf.nn: conv_transpose, atrous_conv2d_transpose, with_space_to_batch, safe_embedding_lookup_sparse."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing.op_test import check_gradients


def _run(t):
    with tf.Session() as s:
        return s.run(t)


def _dilate(w, rate):
    kh, kw = w.shape[:2]
    out = np.zeros(((kh - 1) * rate + 1, (kw - 1) * rate + 1) + w.shape[2:], w.dtype)
    out[::rate, ::rate] = w
    return out


def _np_conv_transpose_valid(x, w):
    """Stride-1 VALID conv2d transpose: scatter each input pixel times the filter."""
    b, h, wd, _ = x.shape
    kh, kw, co, _ = w.shape
    out = np.zeros((b, h + kh - 1, wd + kw - 1, co))
    for i in range(h):
        for j in range(wd):
            out[:, i:i + kh, j:j + kw, :] += np.einsum("bc,hwoc->bhwo", x[:, i, j, :], w)
    return out


def test_conv_transpose_dispatches_on_rank():
    rs = np.random.RandomState(0)
    x, w = rs.rand(2, 5, 5, 3), rs.rand(3, 3, 4, 3)
    with tf.Graph().as_default():
        y = tf.nn.conv_transpose(x, w, [2, 10, 10, 4], [1, 2, 2, 1])
        ref = tf.nn.conv2d_transpose(x, w, [2, 10, 10, 4], [1, 2, 2, 1])
        assert y.name == "conv_transpose/conv2d_transpose:0" or y.shape.as_list() == [2, 10, 10, 4]
        np.testing.assert_allclose(*_run([y, ref]))
        y1 = tf.nn.conv_transpose(rs.rand(2, 5, 3), rs.rand(3, 4, 3), [2, 7, 4], 1, padding="VALID")
        assert y1.shape.as_list() == [2, 7, 4]
        with pytest.raises(ValueError, match="must be of length 3, 4 or 5"):
            tf.nn.conv_transpose(x, w, [2, 10], [1, 2, 2, 1])


def test_atrous_conv2d_transpose_matches_dilated_transpose():
    rs = np.random.RandomState(1)
    x, w = rs.rand(2, 5, 5, 3), rs.rand(3, 3, 4, 3)
    with tf.Graph().as_default():
        valid = tf.nn.atrous_conv2d_transpose(x, w, [2, 9, 9, 4], rate=2, padding="VALID")
        same = tf.nn.atrous_conv2d_transpose(x, w, [2, 5, 5, 4], rate=2, padding="SAME")
        assert valid.shape.as_list() == [2, 9, 9, 4] and same.shape.as_list() == [2, 5, 5, 4]
        v, s = _run([valid, same])
    full = _np_conv_transpose_valid(x, _dilate(w, 2))
    np.testing.assert_allclose(v, full, rtol=1e-10)
    np.testing.assert_allclose(s, full[:, 2:7, 2:7], rtol=1e-10)  # SAME crops (9 - 5) / 2 per side
    with pytest.raises(ValueError, match="cannot be less than one"):
        tf.nn.atrous_conv2d_transpose(x, w, [2, 5, 5, 4], rate=0, padding="SAME")


def test_atrous_conv2d_transpose_gradient():
    rs = np.random.RandomState(2)
    w = rs.rand(2, 2, 2, 3)
    check_gradients(lambda t: tf.nn.atrous_conv2d_transpose(t, tf.constant(w), [1, 5, 5, 2], 2, "SAME"),
                    [rs.rand(1, 5, 5, 3)])


def test_with_space_to_batch_is_a_dilated_conv():
    rs = np.random.RandomState(3)
    x, f = rs.rand(2, 6, 7, 3), rs.rand(3, 3, 3, 2)
    with tf.Graph().as_default():
        def op(inp, n, pad):
            assert n == 2
            return tf.nn.conv2d(inp, f, [1, 1, 1, 1], pad)
        same = tf.nn.with_space_to_batch(x, [2, 2], "SAME", op, filter_shape=[3, 3])
        valid = tf.nn.with_space_to_batch(x, [2, 3], "VALID", op)
        ones = tf.nn.with_space_to_batch(x, [1, 1], "SAME", op)
        r1 = tf.nn.convolution(x, f, "SAME", dilation_rate=[2, 2])
        r2 = tf.nn.convolution(x, f, "VALID", dilation_rate=[2, 3])
        r3 = tf.nn.conv2d(x, f, [1, 1, 1, 1], "SAME")
        assert valid.shape.as_list() == [2, 2, 1, 2]
        a, b, c, d, e, g = _run([same, r1, valid, r2, ones, r3])
    np.testing.assert_allclose(a, b, rtol=1e-10)
    np.testing.assert_allclose(c, d, rtol=1e-10)
    np.testing.assert_allclose(e, g, rtol=1e-10)
    with pytest.raises(ValueError, match="filter_shape"):
        tf.nn.with_space_to_batch(x, [2, 2], "SAME", op)


def test_safe_embedding_lookup_sparse():
    rs = np.random.RandomState(4)
    emb = rs.rand(6, 3)
    idx = [[0, 0], [0, 1], [2, 0], [3, 1]]
    with tf.Graph().as_default():
        ids = tf.SparseTensor(idx, tf.constant([1, -1, 4, 2], tf.int64), [4, 2])
        wts = tf.SparseTensor(idx, tf.constant([2.0, 1.0, 0.0, 3.0], tf.float64), [4, 2])
        e1 = tf.nn.safe_embedding_lookup_sparse(emb, ids)
        e2 = tf.nn.safe_embedding_lookup_sparse([emb], ids, wts, combiner="sum", default_id=5)
        e3 = tf.nn.safe_embedding_lookup_sparse(emb, ids, wts)
        ids3 = tf.SparseTensor([[0, 0, 0], [1, 1, 1]], tf.constant([1, 3], tf.int64), [2, 2, 2])
        e4 = tf.nn.safe_embedding_lookup_sparse(emb, ids3)
        # names and static shapes recorded from TF 2.21
        assert e1.name == "embedding_lookup/Reshape_2:0" and e1.shape.as_list() == [4, 3]
        assert e4.shape.as_list() == [2, 2, 3]
        v1, v2, v3, v4 = _run([e1, e2, e3, e4])
    zero = np.zeros(3)
    np.testing.assert_allclose(v1, [emb[1], zero, emb[4], emb[2]])       # id -1 dropped; row 1 empty
    np.testing.assert_allclose(v2, [2 * emb[1], emb[5], 0 * emb[4], 3 * emb[2]])  # "sum" keeps weight 0
    np.testing.assert_allclose(v3, [emb[1], zero, zero, emb[2]])          # weight 0 dropped under "mean"
    np.testing.assert_allclose(v4, [[emb[1], zero], [zero, emb[3]]])
    with pytest.raises(ValueError, match="Missing embedding_weights"):
        tf.nn.safe_embedding_lookup_sparse([], ids)


def test_safe_embedding_lookup_sparse_gradient():
    def build(e):
        ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([1, 0, 3], tf.int64), [3, 2])
        return tf.nn.safe_embedding_lookup_sparse(e, ids, combiner="sqrtn")
    check_gradients(build,
                    [np.random.RandomState(5).rand(4, 2)])
