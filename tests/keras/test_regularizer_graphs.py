"""keras regularizers build TF's ops (names recorded from TF 2.21): L1 is l1 * sum(|w|), L2 is
2 * l2 * l2_loss(w), L1L2 adds its terms to a Const 0."""

import numpy as np

import tensorweave as tf


def test_regularizer_ops_and_values():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        regs = [tf.keras.regularizers.l1(0.1), tf.keras.regularizers.l2(0.1),
                tf.keras.regularizers.l1_l2(0.1, 0.2), tf.keras.regularizers.L1L2(l2=0.3),
                tf.keras.regularizers.L1L2()]
        for r in regs:
            tf.layers.dense(x, 2, kernel_regularizer=r, kernel_initializer=tf.ones_initializer())
        losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        assert [t.name for t in losses] == [
            "dense/kernel/Regularizer/mul:0", "dense_1/kernel/Regularizer/mul:0",
            "dense_2/kernel/Regularizer/add_1:0", "dense_3/kernel/Regularizer/add:0",
            "dense_4/kernel/Regularizer/Const:0"]
        assert tf.get_default_graph().get_operation_by_name("dense_1/kernel/Regularizer/L2Loss")
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            vals = s.run(losses)
    np.testing.assert_allclose(vals, [0.6, 0.6, 0.6 + 1.2, 1.8, 0.0], rtol=1e-6)
