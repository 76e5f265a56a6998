"""tf.layers.batch_normalization: TF's variables, collections and update ops (recorded from
TensorFlow's legacy tf.layers), training vs inference, and a `training` tensor."""

import numpy as np

import tensorweave as tf

X = np.random.RandomState(0).randn(6, 4, 4, 3).astype(np.float32) * 2 + 1


def _names(g, key):
    return [getattr(v, "name", v) for v in g.get_collection(key)]


def test_variables_collections_and_update_ops():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4, 4, 3])
        b = tf.layers.batch_normalization(x, training=True)
        assert (b.name, b.shape.as_list()) == ("batch_normalization/FusedBatchNormV3:0", [None, 4, 4, 3])
        assert _names(g, tf.GraphKeys.GLOBAL_VARIABLES) == [
            "batch_normalization/gamma:0", "batch_normalization/beta:0",
            "batch_normalization/moving_mean:0", "batch_normalization/moving_variance:0"]
        assert _names(g, tf.GraphKeys.TRAINABLE_VARIABLES) == [
            "batch_normalization/gamma:0", "batch_normalization/beta:0"]
        assert _names(g, tf.GraphKeys.UPDATE_OPS) == ["batch_normalization/AssignMovingAvg",
                                                      "batch_normalization/AssignMovingAvg_1"]
        assert [o.name for o in g.get_operations() if o.name.startswith("batch_normalization/")][16:] == [
            "batch_normalization/FusedBatchNormV3", "batch_normalization/Const",
            "batch_normalization/AssignMovingAvg/sub/x", "batch_normalization/AssignMovingAvg/sub",
            "batch_normalization/AssignMovingAvg/sub_1", "batch_normalization/AssignMovingAvg/mul",
            "batch_normalization/AssignMovingAvg", "batch_normalization/AssignMovingAvg_1/sub/x",
            "batch_normalization/AssignMovingAvg_1/sub", "batch_normalization/AssignMovingAvg_1/sub_1",
            "batch_normalization/AssignMovingAvg_1/mul", "batch_normalization/AssignMovingAvg_1"]
        b3 = tf.layers.batch_normalization(x)             # inference: no update ops
        assert b3.name == "batch_normalization_1/FusedBatchNormV3:0"
        b4 = tf.layers.batch_normalization(tf.placeholder(tf.float32, [None, 5]), training=True)
        assert b4.name == "batch_normalization_2/batchnorm/add_1:0"
        assert len(g.get_collection(tf.GraphKeys.UPDATE_OPS)) == 4


def test_training_and_inference_values_and_moving_averages():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4, 4, 3])
        tr = tf.placeholder(tf.bool, [])
        y = tf.layers.batch_normalization(x, training=tr, momentum=0.9)
        updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        mm, mv = tf.global_variables()[2:]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run(y, {x: X, tr: True})
            mean, var = X.mean((0, 1, 2)), X.var((0, 1, 2))
            np.testing.assert_allclose(out, (X - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-4)
            sess.run(updates, {x: X, tr: True})
            # Recorded from TensorFlow (momentum 0.9, unbiased variance for the fused path).
            np.testing.assert_allclose(sess.run(mm), [0.11957555, 0.11308757, 0.07667068], rtol=1e-5)
            np.testing.assert_allclose(sess.run(mv), [1.3391571, 1.2734761, 1.2950562], rtol=1e-5)
            sess.run(updates, {x: X, tr: False})             # inference: statistics unchanged
            np.testing.assert_allclose(sess.run(mm), [0.11957555, 0.11308757, 0.07667068], rtol=1e-5)
            inf = sess.run(y, {x: X, tr: False})
            m, v = sess.run([mm, mv])
            np.testing.assert_allclose(inf, (X - m) / np.sqrt(v + 1e-3), rtol=1e-4, atol=1e-4)


def test_unfused_tensor_training_and_gradients_train():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 5])
        tr = tf.placeholder(tf.bool, [])
        y = tf.layers.batch_normalization(x, training=tr, momentum=0.5)
        loss = tf.reduce_sum(tf.square(y - 1.0))
        with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        xv = np.random.RandomState(3).randn(8, 5).astype(np.float32)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: xv, tr: True})
            mm = sess.run(tf.global_variables()[2])
            np.testing.assert_allclose(mm, 0.5 * xv.mean(0), rtol=1e-5, atol=1e-6)
            sess.run(train, {x: xv, tr: False})
            np.testing.assert_allclose(sess.run(tf.global_variables()[2]), mm, rtol=1e-6)
