"""Train a 64-128-10 ReLU network on the UCI 8x8 handwritten digits, TensorFlow 1.x style.

    python examples/digits_mlp.py

This is a plain TF1 graph-mode program. It runs unchanged on real TensorFlow if you swap the
import line for

    import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()

(the data comes from tensorweave.datasets either way: 1,797 images shipped inside the package).
"""

import numpy as np
from tqdm import tqdm

import tensorweave as tf
from tensorweave.datasets import load_digits, train_test_split

SEED = 0
STEPS = 600
BATCH_SIZE = 64
LEARNING_RATE = 0.01
HIDDEN_UNITS = 128

# Data: pixels scaled to [0, 1], 80% / 20% stratified split (deterministic).
images, labels = load_digits()
(x_train, y_train), (x_test, y_test) = train_test_split(images, labels, test_fraction=0.2,
                                                        seed=SEED)

tf.set_random_seed(SEED)


def dense(x, n_in, n_out, name, activation=None):
    """A fully connected layer: activation(x @ kernel + bias)."""
    with tf.variable_scope(name):
        kernel = tf.get_variable("kernel", [n_in, n_out],
                                 initializer=tf.glorot_uniform_initializer())
        bias = tf.get_variable("bias", [n_out], initializer=tf.zeros_initializer())
        y = tf.matmul(x, kernel) + bias
        return activation(y) if activation is not None else y


# Model: the graph is built once; the session runs it many times.
x = tf.placeholder(tf.float32, [None, 64], name="images")
y = tf.placeholder(tf.int64, [None], name="labels")
hidden = dense(x, 64, HIDDEN_UNITS, "hidden", activation=tf.nn.relu)
logits = dense(hidden, HIDDEN_UNITS, 10, "logits")

loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(LEARNING_RATE).minimize(loss)

correct = tf.equal(tf.argmax(logits, 1), y)
accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

rng = np.random.RandomState(SEED)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    order, pos = rng.permutation(len(x_train)), 0
    bar = tqdm(range(STEPS), desc="training", unit="step")
    for step in bar:
        if pos + BATCH_SIZE > len(order):           # next epoch: reshuffle
            order, pos = rng.permutation(len(x_train)), 0
        batch = order[pos:pos + BATCH_SIZE]
        pos += BATCH_SIZE
        _, loss_value = sess.run([train_op, loss], feed_dict={x: x_train[batch], y: y_train[batch]})
        if step % 20 == 0 or step == STEPS - 1:
            bar.set_postfix(loss="%.4f" % loss_value)
    bar.close()
    test_accuracy = sess.run(accuracy, feed_dict={x: x_test, y: y_test})
    print("test accuracy: %.4f on %d held-out digits" % (test_accuracy, len(x_test)))
