"""Conditional accumulators: mean/sum of fresh gradients, stale ones dropped, blocking take_grad.
Names and messages recorded from TensorFlow 2.21 (tf.compat.v1)."""

import threading
import time

import numpy as np
import pytest

import tensorweave as tf


def test_names_like_tf():
    acc = tf.ConditionalAccumulator(tf.float32, shape=[2])
    assert acc.name == "conditional_accumulator" and acc.accumulator_ref.dtype == tf.resource
    assert acc.apply_grad([1., 2.], local_step=0).type == "ResourceAccumulatorApplyGradient"
    tg = acc.take_grad(2)
    assert tg.name == "ResourceAccumulatorTakeGradient:0" and tg.shape.as_list() == [2]
    assert acc.num_accumulated().name == "conditional_accumulator_NumAccumulated:0"
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        acc.apply_grad([1., 2., 3.])
    sacc = tf.SparseConditionalAccumulator(tf.float32, shape=[4, 2])
    assert sacc.accumulator_ref.dtype == tf.string._as_ref


def test_mean_stale_and_errors():
    acc = tf.ConditionalAccumulator(tf.float32, shape=[2])
    g = tf.placeholder(tf.float32, [None])
    step = tf.placeholder(tf.int64, [])
    apply = acc.apply_grad(g, local_step=step)
    with tf.Session() as sess:
        sess.run(apply, {g: [1., 2.], step: 0})
        sess.run(apply, {g: [3., 4.], step: 0})
        assert sess.run(acc.num_accumulated()) == 2
        np.testing.assert_allclose(sess.run(acc.take_grad(2)), [2., 3.])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Argument num_required must be positive, but was 0"):
            sess.run(acc.take_grad(0))
        sess.run(acc.set_global_step(5))
        sess.run(apply, {g: [3., 4.], step: 1})     # stale: dropped
        assert sess.run(acc.num_accumulated()) == 0
        sess.run(apply, {g: [3., 4.], step: 7})
        assert sess.run(acc.num_accumulated()) == 1
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shape mismatch: expected \[2\], got \[3\]"):
            sess.run(apply, {g: [1., 2., 3.], step: 7})


def test_sum_reduction():
    acc = tf.ConditionalAccumulator(tf.float64, shape=[], reduction_type="SUM")
    with tf.Session() as sess:
        for v in (1., 2., 4.):
            sess.run(acc.apply_grad(tf.constant(v, tf.float64)))
        assert sess.run(acc.take_grad(3)) == 7.0


def test_take_grad_blocks_until_enough_gradients():
    acc = tf.ConditionalAccumulator(tf.float32, shape=[1])
    take = acc.take_grad(2)
    g = tf.placeholder(tf.float32, [1])
    apply = acc.apply_grad(g)
    out = {}
    with tf.Session() as sess:
        t = threading.Thread(target=lambda: out.setdefault("v", sess.run(take)), daemon=True)
        t.start()
        sess.run(apply, {g: [1.]})
        time.sleep(0.1)
        assert t.is_alive()
        sess.run(apply, {g: [5.]})
        t.join(5)
        assert not t.is_alive()
        np.testing.assert_allclose(out["v"], [3.])
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(take, options=tf.RunOptions(timeout_in_ms=30))


def test_sparse_accumulator_mean_per_row():
    sacc = tf.SparseConditionalAccumulator(tf.float32, shape=[4, 2])
    a = sacc.apply_indexed_slices_grad(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([1], tf.int64)))
    b = sacc.apply_indexed_slices_grad(
        tf.IndexedSlices(tf.constant([[3., 4.], [1., 1.]]), tf.constant([1, 0], tf.int64)))
    take = sacc.take_indexed_slices_grad(2)
    with tf.Session() as sess:
        sess.run(a)
        sess.run(b)
        assert sess.run(sacc.num_accumulated()) == 2
        v = sess.run(take)
        # Recorded from TF: rows averaged over the gradients that hold them, first-seen order.
        np.testing.assert_allclose(v.values, [[2., 3.], [1., 1.]])
        np.testing.assert_array_equal(v.indices, [1, 0])
        np.testing.assert_array_equal(v.dense_shape, [4, 2])
