"""LRN, batch_normalization, fused_batch_norm, top_k and in_top_k against NumPy; gradients by
finite differences; TF names and recorded values."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

RNG = np.random.RandomState(2)


def ref_lrn(x, r, bias, alpha, beta):
    c = x.shape[-1]
    sq = np.zeros_like(x)
    for k in range(c):
        sq[..., k] = np.sum(x[..., max(0, k - r):k + r + 1] ** 2, axis=-1)
    return x / (bias + alpha * sq) ** beta


@pytest.mark.parametrize("r,beta", [(2, 0.75), (5, 0.5), (1, 0.3)])
def test_lrn(r, beta):
    x = RNG.randn(2, 3, 3, 7).astype(np.float32)
    check_op(lambda a: tf.nn.lrn(a, r, 1.5, 0.2, beta), [x], ref_lrn(x, r, 1.5, 0.2, beta), rtol=1e-5)
    # TF's LRN has no float64 kernel: the float32 gradient against central differences of the
    # float64 reference.
    x = RNG.randn(1, 2, 2, 7)
    w = RNG.randn(*x.shape)
    with tf.Graph().as_default():
        a = tf.constant(x.astype(np.float32))
        g = tf.gradients(tf.reduce_sum(tf.nn.local_response_normalization(a, r, 1.5, 0.2, beta) * w), a)[0]
        with tf.Session() as s:
            got = s.run(g)
    want = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = 1e-6
        want[i] = np.sum((ref_lrn(x + d, r, 1.5, 0.2, beta) - ref_lrn(x - d, r, 1.5, 0.2, beta)) * w) / 2e-6
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_lrn_refuses_float64_as_tf():
    with tf.Graph().as_default(), pytest.raises(TypeError, match="DataType float64 not in list of "
                                                 "allowed values: float16, bfloat16, float32"):
        tf.nn.lrn(tf.zeros([1, 1, 1, 2], tf.float64))


def test_batch_normalization_names_values_gradients():
    x = RNG.randn(4, 3).astype(np.float32)
    m, v = x.mean(0), x.var(0)
    off, sc = RNG.randn(3).astype(np.float32), RNG.rand(3).astype(np.float32)
    check_op(lambda a, b, c, d, e: tf.nn.batch_normalization(a, b, c, d, e, 1e-3), [x, m, v, off, sc],
             (x - m) / np.sqrt(v + 1e-3) * sc + off, rtol=1e-5, atol=1e-5)
    check_gradients(lambda a, b, c, d, e: tf.nn.batch_normalization(a, b, c, d, e, 1e-3),
                    [RNG.randn(4, 3), RNG.randn(3), RNG.rand(3) + 1, RNG.randn(3), RNG.randn(3)])
    g = tf.Graph()
    with g.as_default():
        xt = tf.placeholder(tf.float32, [2, 3])
        mean, var = tf.nn.moments(xt, [0])
        y = tf.nn.batch_normalization(xt, mean, var, None, None, 1e-3)
        # Recorded from TensorFlow.
        assert y.name == "batchnorm/add_1:0"
        assert [o.name for o in g.get_operations() if o.name.startswith("batchnorm/")] == [
            "batchnorm/add/y", "batchnorm/add", "batchnorm/Rsqrt", "batchnorm/mul", "batchnorm/Neg",
            "batchnorm/mul_1", "batchnorm/add_1"]


def test_fused_batch_norm_training_and_inference():
    x = RNG.rand(2, 7, 7, 3).astype(np.float32)
    sc, off = RNG.rand(3).astype(np.float32) + 0.5, RNG.randn(3).astype(np.float32)
    mean, var = x.mean((0, 1, 2)), x.var((0, 1, 2))
    want = (x - mean) / np.sqrt(var + 1e-3) * sc + off
    # TF returns the *unbiased* batch variance (recorded: 98/97 times the biased one here).
    check_op(lambda a, b, c: list(tf.nn.fused_batch_norm(a, b, c)), [x, sc, off],
             [want, mean, var * 98 / 97], rtol=1e-4, atol=1e-5)
    pm, pv = RNG.randn(3).astype(np.float32), RNG.rand(3).astype(np.float32) + 0.5
    check_op(lambda a, b, c, d, e: tf.nn.fused_batch_norm(a, b, c, d, e, is_training=False)[0],
             [x, sc, off, pm, pv], (x - pm) / np.sqrt(pv + 1e-3) * sc + off, rtol=1e-4, atol=1e-5)
    xt = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    check_op(lambda a, b, c: tf.nn.fused_batch_norm(a, b, c, data_format="NCHW")[0], [xt, sc, off],
             want.transpose(0, 3, 1, 2), rtol=1e-4, atol=1e-5)


def test_fused_batch_norm_gradients_and_names():
    x, s, o = RNG.randn(2, 3, 3, 2), RNG.rand(2) + 0.5, RNG.randn(2)
    check_gradients(lambda a, b, c: tf.nn.fused_batch_norm(a, b, c)[0], [x, s, o])
    check_gradients(lambda a, b, c: tf.nn.fused_batch_norm(
        a, b, c, tf.constant([0.1, 0.2], tf.float64), tf.constant([1.0, 2.0], tf.float64),
        is_training=False)[0], [x, s, o])
    g = tf.Graph()
    with g.as_default():
        xt = tf.placeholder(tf.float32, [2, 7, 7, 3])
        fb = tf.nn.fused_batch_norm(xt, tf.ones([3]), tf.zeros([3]))
        assert [t.name for t in fb] == ["FusedBatchNormV3:0", "FusedBatchNormV3:1", "FusedBatchNormV3:2"]
        assert [t.shape.as_list() for t in fb] == [[2, 7, 7, 3], [3], [3]]
        gx, = tf.gradients(fb[0], xt)
        assert gx.name == "gradients/FusedBatchNormV3_grad/FusedBatchNormGradV3:0"


def test_top_k_and_in_top_k():
    g = tf.Graph()
    with g.as_default():
        v, i = tf.nn.top_k(tf.constant([[1., 3, 2]]), 2)
        assert (v.name, i.name, i.dtype) == ("TopKV2:0", "TopKV2:1", tf.int32)
        t = tf.nn.in_top_k(tf.constant([[1., 3, 2]]), tf.constant([1]), 1)
        assert (t.name, t.op.type) == ("in_top_k/InTopKV2:0", "InTopKV2")
        ties = tf.nn.top_k(tf.constant([1., 3, 3, 2, 3]), 3)
        in_ties = tf.nn.in_top_k(tf.constant([[1., 3, 3, 2], [1., 2, 3, 4]]), tf.constant([2, 5]), 1)
        x = RNG.randn(4, 50).astype(np.float32)
        big = tf.nn.top_k(tf.constant(x), 3)
        with tf.Session() as sess:
            (tv, ti), (bv, bi), it = sess.run([ties, big, in_ties])
    # Recorded from TensorFlow: ties keep the lower index first; a tie counts as in the top k.
    np.testing.assert_array_equal(tv, [3, 3, 3])
    np.testing.assert_array_equal(ti, [1, 2, 4])
    np.testing.assert_array_equal(it, [True, False])
    order = np.argsort(-x, axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(bi, order)
    np.testing.assert_array_equal(bv, np.take_along_axis(x, order, 1))
    check_gradients(lambda a: tf.nn.top_k(a, 2)[0], [RNG.randn(3, 5)])
