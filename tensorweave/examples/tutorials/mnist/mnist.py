"""The model of TF1's `fully_connected_feed.py` tutorial, as importable helpers:

    logits = mnist.inference(images_placeholder, 128, 32)
    loss = mnist.loss(logits, labels_placeholder)
    train_op = mnist.training(loss, 0.01)
    eval_correct = mnist.evaluation(logits, labels_placeholder)

Two ReLU layers and a linear softmax layer under the name scopes hidden1, hidden2 and
softmax_linear (variables `<scope>/weights`, `<scope>/biases`, as TensorFlow names them, so
checkpoints carry the same keys), the sparse softmax cross-entropy loss, plain gradient descent
with a `loss` scalar summary and a `global_step` variable, and a correct-prediction count by
in_top_k.
"""

import math

import tensorweave as tf

__all__ = ["NUM_CLASSES", "IMAGE_SIZE", "IMAGE_PIXELS", "inference", "loss", "training", "evaluation"]

NUM_CLASSES = 10  # the digits 0..9
IMAGE_SIZE = 28  # MNIST images are 28 x 28
IMAGE_PIXELS = IMAGE_SIZE * IMAGE_SIZE


def _layer(scope, inputs, fan_in, fan_out, activation):
    with tf.name_scope(scope):
        init = tf.truncated_normal([fan_in, fan_out], stddev=1.0 / math.sqrt(float(fan_in)))
        weights = tf.Variable(init, name="weights")
        biases = tf.Variable(tf.zeros([fan_out]), name="biases")
        pre_activation = tf.matmul(inputs, weights) + biases
        return activation(pre_activation) if activation is not None else pre_activation


def inference(images, hidden1_units, hidden2_units):
    """Logits [batch, NUM_CLASSES] of the two-hidden-layer network for `images` [batch, IMAGE_PIXELS]."""
    hidden1 = _layer("hidden1", images, IMAGE_PIXELS, hidden1_units, tf.nn.relu)
    hidden2 = _layer("hidden2", hidden1, hidden1_units, hidden2_units, tf.nn.relu)
    return _layer("softmax_linear", hidden2, hidden2_units, NUM_CLASSES, None)


def loss(logits, labels):
    """Mean sparse softmax cross-entropy of `logits` against class ids `labels` [batch]."""
    return tf.losses.sparse_softmax_cross_entropy(labels=tf.to_int64(labels), logits=logits)


def training(loss, learning_rate):
    """The train op: one gradient-descent step on `loss` that also increments `global_step`
    (a new non-trainable variable); adds a `loss` scalar summary."""
    tf.summary.scalar("loss", loss)
    step = tf.Variable(0, name="global_step", trainable=False)
    return tf.train.GradientDescentOptimizer(learning_rate).minimize(loss, global_step=step)


def evaluation(logits, labels):
    """int32 scalar: how many examples have their label as the top-1 logit."""
    hits = tf.nn.in_top_k(logits, labels, 1)
    return tf.reduce_sum(tf.cast(hits, tf.int32))
