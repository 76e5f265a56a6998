"""Trains the two-hidden-layer MNIST network of tensorweave.examples.tutorials.mnist.mnist with
feed dicts, in the style of TF1's fully_connected_feed.py tutorial (written for tensorweave's
tests): placeholders, summaries written with a FileWriter, checkpoints with a Saver, and the
precision (in_top_k) on the training, validation and test sets. After training it restores the
last checkpoint into a new session and evaluates the test set again.

    python fully_connected_feed.py --data_dir DIR --log_dir DIR [--max_steps 300]

Prints `test accuracy: <float>` (the restored model's precision) on its last line.
"""

import argparse
import os
import sys
import time

import tensorweave as tf
from tensorweave.examples.tutorials.mnist import input_data
from tensorweave.examples.tutorials.mnist import mnist

FLAGS = None


def placeholders(batch_size):
    images = tf.placeholder(tf.float32, shape=(batch_size, mnist.IMAGE_PIXELS))
    labels = tf.placeholder(tf.int32, shape=(batch_size,))
    return images, labels


def feed(data_set, images_pl, labels_pl):
    xs, ys = data_set.next_batch(FLAGS.batch_size)
    return {images_pl: xs, labels_pl: ys}


def precision(sess, eval_correct, images_pl, labels_pl, data_set, name):
    """Fraction of `data_set` (whole batches) whose label is the top logit."""
    steps = data_set.num_examples // FLAGS.batch_size
    count = steps * FLAGS.batch_size
    correct = sum(sess.run(eval_correct, feed_dict=feed(data_set, images_pl, labels_pl)) for _ in range(steps))
    value = float(correct) / count
    print("%s: %d examples, %d correct, precision @ 1: %0.04f" % (name, count, correct, value))
    return value


def main(_):
    if tf.gfile.Exists(FLAGS.log_dir):
        tf.gfile.DeleteRecursively(FLAGS.log_dir)
    tf.gfile.MakeDirs(FLAGS.log_dir)
    data = input_data.read_data_sets(FLAGS.data_dir)

    with tf.Graph().as_default():
        tf.set_random_seed(FLAGS.seed)
        images_pl, labels_pl = placeholders(FLAGS.batch_size)
        logits = mnist.inference(images_pl, FLAGS.hidden1, FLAGS.hidden2)
        loss = mnist.loss(logits, labels_pl)
        train_op = mnist.training(loss, FLAGS.learning_rate)
        eval_correct = mnist.evaluation(logits, labels_pl)
        summary = tf.summary.merge_all()
        init = tf.global_variables_initializer()
        saver = tf.train.Saver()

        sess = tf.Session()
        writer = tf.summary.FileWriter(FLAGS.log_dir, sess.graph)
        sess.run(init)
        start = time.time()
        for step in range(FLAGS.max_steps):
            fd = feed(data.train, images_pl, labels_pl)
            _, loss_value = sess.run([train_op, loss], feed_dict=fd)
            if step % 100 == 0:
                print("Step %d: loss = %.2f (%.3f sec)" % (step, loss_value, time.time() - start))
                writer.add_summary(sess.run(summary, feed_dict=fd), step)
                writer.flush()
            if (step + 1) == FLAGS.max_steps:
                checkpoint = saver.save(sess, os.path.join(FLAGS.log_dir, "model.ckpt"), global_step=step)
                precision(sess, eval_correct, images_pl, labels_pl, data.train, "Training Data Eval")
                precision(sess, eval_correct, images_pl, labels_pl, data.validation, "Validation Data Eval")
                precision(sess, eval_correct, images_pl, labels_pl, data.test, "Test Data Eval")
        writer.close()
        sess.close()

        with tf.Session() as restored:
            saver.restore(restored, checkpoint)
            acc = precision(restored, eval_correct, images_pl, labels_pl, data.test, "Restored Test Data Eval")
    print("test accuracy: %g" % acc)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--learning_rate", type=float, default=0.1)
    parser.add_argument("--max_steps", type=int, default=300)
    parser.add_argument("--hidden1", type=int, default=64)
    parser.add_argument("--hidden2", type=int, default=32)
    parser.add_argument("--batch_size", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data_dir", type=str, default="/tmp/mnist/input_data")
    parser.add_argument("--log_dir", type=str, default="/tmp/mnist/logs/fully_connected_feed")
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
