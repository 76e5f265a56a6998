"""End to end: real models train to a stated accuracy; a failing step changes no state; running
expensive ops on the inter-op pool gives bit-identical results to running them inline."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.datasets import digits


def _digits_split():
    images, labels = digits.load_digits()
    return digits.train_test_split(images, labels)


def _mlp(x, hidden=64, seed=1):
    h = tf.layers.dense(x, hidden, activation=tf.nn.relu,
                        kernel_initializer=tf.glorot_uniform_initializer(seed=seed))
    return tf.layers.dense(h, 10, kernel_initializer=tf.glorot_uniform_initializer(seed=seed + 1))


def test_softmax_regression_on_digits_reaches_accuracy():
    (xtr, ytr), (xte, yte) = _digits_split()
    x = tf.placeholder(tf.float32, [None, 64])
    y = tf.placeholder(tf.int64, [None])
    w = tf.Variable(tf.zeros([64, 10]))
    b = tf.Variable(tf.zeros([10]))
    logits = tf.matmul(x, w) + b
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    acc = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(300):
            sess.run(train, {x: xtr, y: ytr})
        assert sess.run(acc, {x: xte, y: yte}) >= 0.92


def test_mlp_with_adam_and_minibatches_reaches_accuracy():
    (xtr, ytr), (xte, yte) = _digits_split()
    tf.set_random_seed(0)
    x = tf.placeholder(tf.float32, [None, 64])
    y = tf.placeholder(tf.int64, [None])
    logits = _mlp(x)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    step = tf.train.get_or_create_global_step()
    train = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=step)
    acc = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
    rng = np.random.RandomState(0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(8):
            order = rng.permutation(len(xtr))
            for i in range(0, len(xtr), 64):
                idx = order[i:i + 64]
                sess.run(train, {x: xtr[idx], y: ytr[idx]})
        assert sess.run(acc, {x: xte, y: yte}) >= 0.95
        assert sess.run(step) == 8 * int(np.ceil(len(xtr) / 64))


def test_failing_step_leaves_every_variable_untouched():
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.int64, [None])
    logits = tf.layers.dense(x, 3)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    step = tf.train.get_or_create_global_step()
    train = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, global_step=step)
    xs = np.ones((2, 4), np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: xs, y: [0, 1]})
        before = sess.run(tf.global_variables())
        with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of 7") as info:
            sess.run(train, {x: xs, y: [0, 7]})  # label out of range: the loss op fails
        assert "test_end_to_end.py" in str(info.value)  # names the user's line
        after = sess.run(tf.global_variables())
        for a, b in zip(before, after):
            np.testing.assert_array_equal(a, b)


def test_inter_op_pool_gives_identical_results():
    rng = np.random.RandomState(0)
    xs = rng.rand(256, 784).astype(np.float32)
    ys = rng.randint(0, 10, 256)

    def run(inter_op):
        g = tf.Graph()
        with g.as_default():
            tf.set_random_seed(3)
            x = tf.placeholder(tf.float32, [256, 784])
            y = tf.placeholder(tf.int64, [256])
            h = tf.layers.dense(x, 512, activation=tf.nn.relu)
            h = tf.layers.dense(h, 512, activation=tf.nn.relu)
            logits = tf.layers.dense(h, 10)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            config = tf.ConfigProto(inter_op_parallelism_threads=inter_op)
            with tf.Session(config=config) as sess:
                sess.run(tf.global_variables_initializer())
                losses = [sess.run([train, loss], {x: xs, y: ys})[1] for _ in range(3)]
                entry = sess._cache[next(k for k in sess._cache if train in (k[0] if isinstance(k[0], tuple)
                                                                             else (k[0],)))]
                return losses, sess.run(tf.trainable_variables()), entry.plan.source

    inline_losses, inline_vars, inline_src = run(1)
    pooled_losses, pooled_vars, pooled_src = run(2)
    assert "_pool.submit" not in inline_src
    assert "_pool.submit" in pooled_src  # layer 2's two gradient matmuls overlap
    assert inline_losses == pooled_losses
    for a, b in zip(inline_vars, pooled_vars):
        np.testing.assert_array_equal(a, b)


def test_train_step_skips_the_input_batch_gradient():
    # TF's gate_gradients groups both of a MatMul's gradients; we gate only on the needed one,
    # so the gradient w.r.t. the fed batch (often the biggest matmul) is never computed.
    x = tf.placeholder(tf.float32, [32, 100])
    h = tf.layers.dense(x, 50, activation=tf.nn.relu)
    loss = tf.reduce_sum(tf.square(tf.layers.dense(h, 5)))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: np.ones((32, 100), np.float32)})
        plan = sess._cache[(train, (x,))].plan
        matmuls = [op.name for op in plan._line_ops.values() if op.type == "MatMul"]
    # forward: 2; backward: dW for both layers and dh for the hidden layer
    assert sorted(matmuls) == sorted(["dense/MatMul", "dense_1/MatMul", "gradients/dense_1/MatMul_grad/MatMul",
                                      "gradients/dense_1/MatMul_grad/MatMul_1",
                                      "gradients/dense/MatMul_grad/MatMul_1"])
