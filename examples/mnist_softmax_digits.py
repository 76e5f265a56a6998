"""Softmax regression on handwritten digits, in the style of TensorFlow 1.x's classic
"MNIST for ML beginners" tutorial (mnist_softmax.py), using the 8x8 UCI digits that ship with
tensorweave instead of downloading MNIST.

    python examples/mnist_softmax_digits.py

It runs unchanged on real TensorFlow with the import line swapped for
`import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`.
"""

import numpy as np

import tensorweave as tf
from tensorweave.datasets import load_digits, train_test_split


class DataSet:
    """The tutorial's `mnist.train`: images, one-hot labels and `next_batch`."""

    def __init__(self, images, labels, seed=0):
        self.images = images
        self.labels = np.eye(10, dtype=np.float32)[labels]   # one-hot, as in the tutorial
        self._rng = np.random.RandomState(seed)
        self._order = self._rng.permutation(len(images))
        self._pos = 0

    def next_batch(self, batch_size):
        if self._pos + batch_size > len(self._order):
            self._order, self._pos = self._rng.permutation(len(self.images)), 0
        idx = self._order[self._pos:self._pos + batch_size]
        self._pos += batch_size
        return self.images[idx], self.labels[idx]


def main():
    # Import data
    images, labels = load_digits()
    (train_x, train_y), (test_x, test_y) = train_test_split(images, labels, test_fraction=0.2)
    train = DataSet(train_x, train_y)
    test = DataSet(test_x, test_y)

    # Create the model
    x = tf.placeholder(tf.float32, [None, 64])
    W = tf.Variable(tf.zeros([64, 10]))
    b = tf.Variable(tf.zeros([10]))
    y = tf.matmul(x, W) + b

    # Define loss and optimizer
    y_ = tf.placeholder(tf.float32, [None, 10])

    # The raw formulation of cross-entropy,
    #
    #   tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(tf.nn.softmax(y)),
    #                                 reduction_indices=[1]))
    #
    # can be numerically unstable.
    #
    # So here we use tf.nn.softmax_cross_entropy_with_logits_v2 on the raw
    # outputs of 'y', and then average across the batch.
    cross_entropy = tf.reduce_mean(
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_, logits=y))
    train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

    sess = tf.InteractiveSession()
    tf.global_variables_initializer().run()
    # Train
    for _ in range(1000):
        batch_xs, batch_ys = train.next_batch(100)
        sess.run(train_step, feed_dict={x: batch_xs, y_: batch_ys})

    # Test trained model
    correct_prediction = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    print("test accuracy:", sess.run(accuracy, feed_dict={x: test.images, y_: test.labels}))
    sess.close()


if __name__ == "__main__":
    main()
