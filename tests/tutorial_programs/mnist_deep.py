"""A small convolutional network on MNIST in the style of TF1's mnist_deep.py tutorial (written for
tensorweave's tests): two conv + max-pool layers, a fully connected layer with dropout fed through
a keep_prob placeholder, Adam.

    python mnist_deep.py --data_dir DIR [--steps 40]

Prints `test accuracy: <float>` on its last line.
"""

import argparse
import sys

import tensorweave as tf
from tensorweave.examples.tutorials.mnist import input_data

FLAGS = None


def weight(shape):
    return tf.Variable(tf.truncated_normal(shape, stddev=0.1), name="weights")


def bias(shape):
    return tf.Variable(tf.constant(0.1, shape=shape), name="biases")


def conv_pool(x, in_ch, out_ch):
    """5x5 SAME convolution, ReLU, then 2x2 max pooling (halves height and width)."""
    w, b = weight([5, 5, in_ch, out_ch]), bias([out_ch])
    h = tf.nn.relu(tf.nn.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME") + b)
    return tf.nn.max_pool(h, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="SAME")


def network(images, c1, c2, hidden):
    """Logits [batch, 10] and the keep_prob placeholder of the dropout layer."""
    with tf.name_scope("reshape"):
        x = tf.reshape(images, [-1, 28, 28, 1])
    with tf.name_scope("conv1"):
        h1 = conv_pool(x, 1, c1)  # 14 x 14
    with tf.name_scope("conv2"):
        h2 = conv_pool(h1, c1, c2)  # 7 x 7
    with tf.name_scope("fc1"):
        flat = tf.reshape(h2, [-1, 7 * 7 * c2])
        fc = tf.nn.relu(tf.matmul(flat, weight([7 * 7 * c2, hidden])) + bias([hidden]))
    with tf.name_scope("dropout"):
        keep_prob = tf.placeholder(tf.float32)
        fc = tf.nn.dropout(fc, keep_prob)
    with tf.name_scope("fc2"):
        logits = tf.matmul(fc, weight([hidden, 10])) + bias([10])
    return logits, keep_prob


def main(_):
    data = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
    tf.set_random_seed(FLAGS.seed)
    images = tf.placeholder(tf.float32, [None, 784])
    targets = tf.placeholder(tf.float32, [None, 10])
    logits, keep_prob = network(images, FLAGS.conv1, FLAGS.conv2, FLAGS.hidden)

    with tf.name_scope("loss"):
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=targets, logits=logits))
    with tf.name_scope("adam_optimizer"):
        train_step = tf.train.AdamOptimizer(FLAGS.learning_rate).minimize(loss)
    with tf.name_scope("accuracy"):
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(targets, 1)), tf.float32))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(FLAGS.steps):
            xs, ys = data.train.next_batch(FLAGS.batch_size)
            if i % 20 == 0:
                print("step %d, training accuracy %g"
                      % (i, accuracy.eval(feed_dict={images: xs, targets: ys, keep_prob: 1.0})))
            train_step.run(feed_dict={images: xs, targets: ys, keep_prob: 0.5})
        acc = accuracy.eval(feed_dict={images: data.test.images, targets: data.test.labels, keep_prob: 1.0})
    print("test accuracy: %g" % acc)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", type=str, default="/tmp/mnist/input_data")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--batch_size", type=int, default=50)
    parser.add_argument("--learning_rate", type=float, default=1e-3)
    parser.add_argument("--conv1", type=int, default=8)
    parser.add_argument("--conv2", type=int, default=16)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
