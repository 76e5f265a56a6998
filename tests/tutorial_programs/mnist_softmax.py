"""Softmax regression on MNIST, a classic TF1 tutorial program (written for tensorweave's tests).

    python mnist_softmax.py --data_dir DIR [--steps 200]

Prints `test accuracy: <float>` on its last line.
"""

import argparse
import sys

import tensorweave as tf
from tensorweave.examples.tutorials.mnist import input_data

FLAGS = None


def main(_):
    data = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)

    images = tf.placeholder(tf.float32, [None, 784])
    targets = tf.placeholder(tf.float32, [None, 10])
    weights = tf.Variable(tf.zeros([784, 10]))
    bias = tf.Variable(tf.zeros([10]))
    logits = tf.matmul(images, weights) + bias

    xent = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=targets, logits=logits))
    step = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(xent)

    hits = tf.equal(tf.argmax(logits, 1), tf.argmax(targets, 1))
    accuracy = tf.reduce_mean(tf.cast(hits, tf.float32))

    sess = tf.InteractiveSession()
    tf.global_variables_initializer().run()
    for i in range(FLAGS.steps):
        xs, ys = data.train.next_batch(FLAGS.batch_size)
        _, loss = sess.run([step, xent], feed_dict={images: xs, targets: ys})
        if i % 50 == 0:
            print("step %d, loss %g" % (i, loss))
    acc = accuracy.eval(feed_dict={images: data.test.images, targets: data.test.labels})
    sess.close()
    print("test accuracy: %g" % acc)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", type=str, default="/tmp/mnist/input_data")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch_size", type=int, default=100)
    parser.add_argument("--learning_rate", type=float, default=0.5)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
