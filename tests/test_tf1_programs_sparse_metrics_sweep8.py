"""TF1 programs against TF, sparse ops and metrics (sweep 8): sparse_maximum/minimum of operands
in non-canonical order, the rank checks of sparse_tensor_dense_matmul and sparse_concat,
sparse_concat's expand_nonconcat_dim graph, sparse.retain with a numeric mask, sparse.softmax's
dtype message. Expected values were recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour
disabled)."""

import numpy as np
import pytest

import tensorweave as tf


from _session_helpers import run as _run, run_error as _run_error


# -- sparse_maximum / sparse_minimum -------------------------------------------------------------

def test_sparse_maximum_walks_unordered_operands_as_given():
    with tf.Graph().as_default():
        a = tf.SparseTensor([[1, 0], [0, 1]], [1., 5.], [2, 2])
        b = tf.SparseTensor([[0, 0], [1, 1]], [3., 2.], [2, 2])
        c = tf.SparseTensor([[0, 1], [1, 0]], [4., 0.5], [2, 2])
        mx, mn, mc = _run([tf.sparse_maximum(a, b), tf.sparse_minimum(a, b), tf.sparse_maximum(a, c)])
        assert mx.indices.tolist() == [[0, 0], [1, 0], [0, 1], [1, 1]]
        assert mx.values.tolist() == [3., 1., 5., 2.]
        assert mn.indices.tolist() == [[0, 0], [1, 0], [0, 1], [1, 1]]
        assert mn.values.tolist() == [0., 0., 0., 0.]
        # [1,0] meets c's [1,0] only after c's [0,1]; a's [0,1] is then left over
        assert mc.indices.tolist() == [[0, 1], [1, 0], [0, 1]]
        assert mc.values.tolist() == [4., 1., 5.]


# -- rank checks -----------------------------------------------------------------------------------

def test_sparse_tensor_dense_matmul_rank_checks_at_build():
    with tf.Graph().as_default():
        sp3 = tf.SparseTensor([[0, 0, 0]], [1.], [2, 2, 2])
        sp2 = tf.SparseTensor([[0, 0]], [1.], [2, 2])
        with pytest.raises(ValueError) as e:
            tf.sparse_tensor_dense_matmul(sp3, tf.ones([2, 2]))
        assert str(e.value).startswith("Shape must be rank 2 but is rank 3 for '{{node SparseTensorDenseMatMul/"
                                       "SparseTensorDenseMatMul}} = SparseTensorDenseMatMul[T=DT_FLOAT, ")
        assert str(e.value).endswith("with input shapes: [1,3], [1], [3], [2,2].")
        with pytest.raises(ValueError, match=r"^Shape must be rank 2 but is rank 3 for .*\[2\], \[2,2,2\]\.$"):
            tf.sparse_tensor_dense_matmul(sp2, tf.ones([2, 2, 2]))
        with pytest.raises(ValueError, match=r"^Shape must be rank 2 but is rank 1 for "):
            tf.sparse_tensor_dense_matmul(sp2, tf.ones([2]))
        b = tf.placeholder_with_default(tf.ones([2, 2, 2]), None)
        assert "Tensor 'b' is not a matrix" in _run_error(tf.sparse_tensor_dense_matmul(sp2, b))


def test_sparse_concat_rank_mismatch_at_build():
    with tf.Graph().as_default():
        sp1 = tf.SparseTensor([[0]], [1.], [2])
        sp2 = tf.SparseTensor([[0, 0]], [1.], [2, 2])
        sp3 = tf.SparseTensor([[0, 0, 0]], [1.], [2, 2, 2])
        with pytest.raises(ValueError) as e:
            tf.sparse_concat(0, [sp2, sp3])
        assert str(e.value) == (
            "Dimensions must be equal, but are 2 and 3 for '{{node SparseConcat}} = SparseConcat[N=2, T=DT_FLOAT, "
            "concat_dim=0](SparseTensor_1/indices, SparseTensor_2/indices, SparseTensor_1/values, "
            "SparseTensor_2/values, SparseTensor_1/dense_shape, SparseTensor_2/dense_shape)' with input shapes: "
            "[1,2], [1,3], [1], [1], [2], [3].")
        with pytest.raises(ValueError, match=r"^Dimensions must be equal, but are 1 and 2 for "):
            tf.sparse_concat(0, [sp1, sp2])
        assert tf.sparse_concat(0, [sp2]) is sp2


def test_sparse_concat_expand_nonconcat_dim():
    with tf.Graph().as_default():
        a = tf.SparseTensor([[0, 1], [1, 0]], [1., 2.], [2, 3])
        b = tf.SparseTensor([[0, 3], [2, 1]], [3., 4.], [3, 4])
        got = {}
        for ax in (0, 1, -1):
            r = tf.sparse_concat(ax, [a, b], expand_nonconcat_dim=True)
            got[ax] = _run(r)
        assert r.shape.as_list() == [3, 7]
        assert got[0].indices.tolist() == [[0, 1], [1, 0], [2, 3], [4, 1]]
        assert got[0].dense_shape.tolist() == [5, 4]
        assert got[1].indices.tolist() == [[0, 1], [0, 6], [1, 0], [2, 4]]
        assert got[1].values.tolist() == [1., 3., 2., 4.]
        assert got[1].dense_shape.tolist() == [3, 7]
        assert got[-1].dense_shape.tolist() == [3, 7]
        p = tf.placeholder(tf.int64, [2])
        r = tf.sparse_concat(1, [tf.SparseTensor([[0, 1]], [1.], p), b], expand_nonconcat_dim=True)
        v = _run(r, {p: [3, 2]})
        assert v.indices.tolist() == [[0, 1], [0, 5], [2, 3]]
        assert v.dense_shape.tolist() == [3, 6]
        assert "expand" not in r.indices.op.node_def.attr


# -- retain, softmax -----------------------------------------------------------------------------

def test_sparse_retain_takes_a_numeric_mask():
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0, 0], [1, 1]], [1., 2.], [2, 2])
        assert _run(tf.sparse.retain(sp, [0, 3])).values.tolist() == [2.]
        assert _run(tf.sparse.retain(sp, tf.constant([1, 0]))).values.tolist() == [1.]


def test_sparse_softmax_integer_message():
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0, 0]], [1], [2, 2])
        with pytest.raises(TypeError) as e:
            tf.sparse.softmax(sp)
        assert str(e.value) == ("Value passed to parameter 'sp_values' has DataType int32 not in list of allowed "
                                "values: float16, float32, float64")


# -- metrics: weights that must broadcast to the values --------------------------------------------

def _metric_values(metrics, feed=None):
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([m[1] for m in metrics], feed)
        return sess.run([m[0] for m in metrics])


def _metric_error(metrics, feed):
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run([m[1] for m in metrics], feed)
    return str(e.value)


def test_metrics_static_weights_mismatch_is_a_value_error():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.metrics.mean(tf.ones([2, 3]), weights=tf.ones([3]))
        assert str(e.value) == (
            "weights can not be broadcast to values. Mismatch at dim 0. values.shape=[2 3], weights.shape=[3 1]. "
            "Received weights=Tensor(\"mean/ExpandDims:0\", shape=(3, 1), dtype=float32), "
            "values=Tensor(\"ones:0\", shape=(2, 3), dtype=float32)")
        with pytest.raises(ValueError, match=r"^weights can not be broadcast to values. Mismatch at dim 1. "
                                             r"values.shape=\[2 3\], weights.shape=\[2 2\]"):
            tf.metrics.auc(tf.ones([2, 3]), tf.ones([2, 3]), weights=tf.ones([2, 2]))
        with pytest.raises(ValueError, match=r"^weights can not be broadcast to values. values.rank=2. "
                                             r"weights.rank=4. values.shape=\(2, 3\). weights.shape=\(1, 2, 3, 4\)"):
            tf.metrics.mean_squared_error(tf.ones([2, 3]), tf.ones([2, 3]), weights=tf.ones([1, 2, 3, 4]))
        # [2] weights for [2, 3] values gain a trailing dimension and broadcast
        tf.metrics.accuracy(tf.ones([2, 3]), tf.ones([2, 3]), weights=tf.constant([1., 2.]))


def test_metrics_weights_of_unknown_rank_adjusted_and_checked_at_run_time():
    with tf.Graph().as_default():
        wp = tf.placeholder(tf.float32, None)
        m = tf.metrics.mean(tf.ones([2, 3]), weights=wp)
        for w in (np.ones([2]), np.ones([2, 1, 1]), 2 * np.ones([2, 1])):
            assert _metric_values([m], {wp: w}) == [1.0]
        msg = _metric_error([m], {wp: np.ones([3])})
        assert "mean/broadcast_weights/assert_broadcastable/AssertGuard/Assert" in msg
        assert ("assertion failed: [weights can not be broadcast to values.] [weights.shape=] [mean/cond/Merge:0] "
                "[3 1] [values.shape=] [ones:0] [2 3] [is_scalar=] [0]") in msg
    with tf.Graph().as_default():
        wp = tf.placeholder(tf.float32, None)
        m = tf.metrics.auc(tf.ones([2, 3]), tf.ones([2, 3]), weights=wp)
        assert ("[weights.shape=] [auc/cond/Merge:0] [2 2] [values.shape=] [ones_1:0] [2 3]"
                in _metric_error([m], {wp: np.ones([2, 2])}))


def test_top_k_metrics_weights_checked():
    with tf.Graph().as_default():
        lab = tf.constant([[1, 2], [0, 3]], tf.int64)
        pr = tf.constant([[.1, .2, .3, .4], [.4, .3, .2, .1]])
        w = tf.constant([2., 3.])
        got = _metric_values([tf.metrics.recall_at_k(lab, pr, 2, weights=w),
                              tf.metrics.precision_at_k(lab, pr, 2, weights=w),
                              tf.metrics.average_precision_at_k(lab, pr, 2, weights=w)])
        assert [float(v).hex() for v in got] == ['0x1.0000000000000p-1', '0x1.0000000000000p-1',
                                                 '0x1.999999999999ap-2']
        wp = tf.placeholder(tf.float32, None)
        msg = _metric_error([tf.metrics.recall_at_k(lab, pr, 2, weights=wp)], {wp: np.ones([3])})
        # the true-positive and false-negative counts' Asserts both fail; either may be met first
        assert "/assert_broadcastable/AssertGuard/Assert" in msg
        assert ("assertion failed: [weights can not be broadcast to values.] [weights.shape=] [Placeholder:0] [3] "
                "[values.shape=] [recall_at_2_1/") in msg
        msg = _metric_error([tf.metrics.average_precision_at_k(lab, pr, 2, weights=wp)], {wp: np.ones([3])})
        assert ("[weights.shape=] [average_precision_at_2_1/Cast_1:0] [3] [values.shape=] "
                "[average_precision_at_2_1/average_precision:0] [2]") in msg


# -- confusion_matrix, mean_iou, mean_per_class_accuracy ------------------------------------------

def test_confusion_matrix_squeezes_a_trailing_unit_dimension():
    with tf.Graph().as_default():
        labels = tf.constant([[0], [1], [2], [1]])
        assert _run(tf.confusion_matrix(labels, tf.constant([0, 2, 2, 1]))).tolist() == [[1, 0, 0], [0, 1, 1],
                                                                                          [0, 0, 1]]
        lp = tf.placeholder(tf.int32, None)
        got = _run(tf.confusion_matrix(lp, [0, 2, 2, 1]), {lp: [[0], [1], [2], [1]]})
        assert got.tolist() == [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
        # both [N, 1]: nothing to squeeze, ScatterNd's shape check fails as TF's
        with pytest.raises(ValueError) as e:
            tf.confusion_matrix(labels, tf.constant([[0], [2], [2], [1]]))
        assert str(e.value).startswith(
            "Dimensions [0,2) of indices[shape=[4,2,1]] = [4,2] must match dimensions [0,2) of updates[shape=[4,1]] "
            "= [4,1]: Dimension 1 in both shapes must be equal, but are 2 and 1. Shapes are [4,2] and [4,1]. for "
            "'{{node confusion_matrix_2/ScatterNd}} = ScatterNd[")


def test_mean_iou_label_out_of_range_fails_confusion_matrix_bound_check():
    with tf.Graph().as_default():
        # constant labels: the bound check fails while the graph is built, as TF's
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            tf.metrics.mean_iou(tf.constant([0, 1, 3]), tf.constant([0, 1, 1]), 3)
        assert str(e.value) == ("`labels` out of bound\nCondition x < y did not hold element-wise:\n"
                                "x (mean_iou/confusion_matrix/control_dependency:0) = \n[0 1 3]\n"
                                "y (mean_iou/Cast_2:0) = \n3")
    with tf.Graph().as_default():
        lp = tf.placeholder(tf.int32, [3])
        m = tf.metrics.mean_iou(lp, tf.constant([0, 1, 1]), 3)
        assert "`labels` out of bound" in _metric_error([m], {lp: [0, 1, 3]})


def test_mean_iou_weighted_bits():
    with tf.Graph().as_default():
        rng = np.random.RandomState(0)
        lab = tf.constant(rng.randint(0, 4, [20]))
        pred = tf.constant(rng.randint(0, 4, [20]))
        w = tf.constant(rng.rand(20).astype(np.float32))
        m = tf.metrics.mean_iou(lab, pred, 4, weights=w)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            cm = sess.run(m[1])
            assert cm.tobytes().hex() == (
                "000000000000000000000080abc3e33f000000604ef80240000000785a2bf13f000000c078d1e53f00000090382ae93f0000"
                "000000000000000000c0e088dd3f000000c085c6e83f00000000000000000000000000000000000000311ccdee3f0000007a"
                "369ff13f000000c0a7a5fb3f000000000000000000000000b592e93f")
            assert sess.run(m[0]).tobytes().hex() == "a6f9a03d"


def test_mean_per_class_accuracy_label_out_of_range_fails_the_scatter():
    with tf.Graph().as_default():
        m = tf.metrics.mean_per_class_accuracy(tf.constant([0, 1, 3]), tf.constant([0, 1, 1]), 3)
        assert "indices[2] = 3 is not in [0, 3)" in _metric_error([m], None)
    with tf.Graph().as_default():
        m = tf.metrics.mean_per_class_accuracy(tf.constant([0, 1, -1]), tf.constant([0, 1, 1]), 3)
        assert "indices[2] = -1 is not in [0, 3)" in _metric_error([m], None)


def test_mean_iou_and_mean_per_class_accuracy_need_tensor_weights():
    # TF calls weights.get_shape() on the argument as given
    with tf.Graph().as_default():
        lab, pred = tf.constant([0, 1, 1]), tf.constant([0, 1, 0])
        with pytest.raises(AttributeError, match=r"^'list' object has no attribute 'get_shape'$"):
            tf.metrics.mean_iou(lab, pred, 2, weights=[1., 2., 3.])
        with pytest.raises(AttributeError, match=r"^'numpy.ndarray' object has no attribute 'get_shape'$"):
            tf.metrics.mean_per_class_accuracy(lab, pred, 2, weights=np.ones(3))
        tf.metrics.mean_iou(lab, pred, 2, weights=tf.ones([3]))


def test_count_metrics_weights_rank_checked():
    with tf.Graph().as_default():
        lab = tf.constant([[1, 0, 1], [0, 1, 1]])
        pred = tf.constant([[1, 1, 0], [0, 0, 1]])
        with pytest.raises(ValueError) as e:
            tf.metrics.true_positives(lab, pred, weights=tf.ones([2, 3, 1, 1]))
        assert str(e.value) == "Tensor ones:0 must have rank in (0, 2).  Received rank 4, shape (2, 3, 1, 1)"
        got = _metric_values([tf.metrics.true_positives(lab, pred, weights=tf.constant([[2.], [3.]])),
                              tf.metrics.true_positives(lab, pred, weights=2.)])
        assert [float(v).hex() for v in got] == [float(5).hex(), float(4).hex()]
        names = [o.name for o in tf.get_default_graph().get_operations()]
        assert "true_positives_1/assert_rank_in/static_checks_determined_all_ok" in names


def test_sparse_tensor_dense_matmul_run_time_operand_checks():
    with tf.Graph().as_default():
        ip, sh = tf.placeholder(tf.int64, None), tf.placeholder(tf.int64, None)
        y1 = tf.sparse_tensor_dense_matmul(tf.SparseTensor(ip, [1.], sh), tf.ones([2, 2]))
        y2 = tf.sparse_tensor_dense_matmul(tf.SparseTensor(ip, [1., 2.], sh), tf.ones([2, 2]))
        assert "Tensor 'a_shape' must have 2 elements" in _run_error(y1, {ip: [[0, 0, 0]], sh: [2, 2, 2]})
        assert ("Number of columns of a_indices does not match number of entries in a_shape"
                in _run_error(y1, {ip: [[0, 0, 0]], sh: [2, 2]}))
        assert ("Number of rows of a_indices does not match number of entries in a_values"
                in _run_error(y2, {ip: [[0, 0]], sh: [2, 2]}))


def test_sparse_concat_values_types_must_match():
    with tf.Graph().as_default():
        a = tf.SparseTensor([[0, 0], [1, 1]], [1., -2.], [2, 2])
        with pytest.raises(TypeError) as e:
            tf.sparse_concat(1, [a, tf.SparseTensor([[0, 0]], [1], [2, 2])])
        assert str(e.value) == ("Tensors in list passed to 'values' of 'SparseConcat' Op have types "
                                "[float32, int32] that don't all match.")
