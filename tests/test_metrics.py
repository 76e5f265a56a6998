"""tf.metrics.accuracy / mean: names, collections and streaming values recorded from TensorFlow."""

import pytest

import tensorweave as tf


def test_accuracy_and_mean():
    g = tf.Graph()
    with g.as_default():
        labels = tf.placeholder(tf.int64, [None])
        preds = tf.placeholder(tf.int64, [None])
        acc, up = tf.metrics.accuracy(labels, preds)
        assert (acc.name, up.name, acc.dtype) == ("accuracy/value:0", "accuracy/update_op:0", tf.float32)
        mv, mu = tf.metrics.mean(tf.cast(preds, tf.float32))
        assert (mv.name, mu.name) == ("mean/value:0", "mean/update_op:0")
        acc2, _ = tf.metrics.accuracy(labels, preds, name="myacc")
        assert acc2.name == "myacc/value:0"
        w = tf.placeholder(tf.float32, [None])
        acc3, up3 = tf.metrics.accuracy(labels, preds, weights=w)
        assert acc3.name == "accuracy_1/value:0"
        want = ["accuracy/total:0", "accuracy/count:0", "mean/total:0", "mean/count:0",
                "myacc/total:0", "myacc/count:0", "accuracy_1/total:0", "accuracy_1/count:0"]
        assert [v.name for v in tf.local_variables()] == want
        assert [v.name for v in g.get_collection(tf.GraphKeys.METRIC_VARIABLES)] == want
        assert tf.global_variables() == []
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            assert sess.run(acc) == 0.0
            assert sess.run(up, {labels: [1, 2, 3], preds: [1, 2, 0]}) == pytest.approx(2 / 3)
            assert sess.run(up, {labels: [1], preds: [0]}) == pytest.approx(0.5)
            assert sess.run(acc) == pytest.approx(0.5)
            assert sess.run(mu, {preds: [1, 2, 6]}) == pytest.approx(3.0)
            assert sess.run(up3, {labels: [1, 2, 3], preds: [1, 2, 0], w: [1, 2, 3]}) == pytest.approx(0.5)
            sess.run(tf.local_variables_initializer())
            assert sess.run(acc) == 0.0
        with pytest.raises(ValueError, match="incompatible"):
            tf.metrics.accuracy(tf.constant([1, 2]), tf.constant([1, 2, 3]))
