"""The `tensorweave demo lenet` model: a LeNet-style CNN (two 5x5 convolutions with max pooling,
then two dense layers) on the UCI 8x8 digits, evaluated with tf.metrics.accuracy.

The model comes from ``tensorweave.models.convnets.lenet`` (tf.layers.conv2d,
tf.layers.max_pooling2d, tf.layers.dense) and is the same program as ``examples/lenet_digits.py``.
``train()`` is importable so tests can run it in-process::

    from tensorweave.demos import lenet
    result = lenet.train(steps=300, progress=False)
    print(result.accuracy)
"""

import collections
import time

import numpy as np

from ..datasets import load_digits, train_test_split
from . import add_training_arguments

NAME = "lenet"
SUMMARY = "train a LeNet-style convolutional network on the 8x8 handwritten digits"
DESCRIPTION = ("Trains a LeNet-style CNN (conv 5x5x32, max pool, conv 5x5x64, max pool, dense 256, "
               "dense 10; Adam) on the UCI 8x8 handwritten digits shipped with tensorweave, then "
               "prints the held-out accuracy computed with tf.metrics.accuracy. It is the same "
               "TensorFlow 1.x program as examples/lenet_digits.py in the source tree.")

DEFAULTS = dict(steps=200, batch_size=64, learning_rate=0.002, seed=0, test_fraction=0.2)

Result = collections.namedtuple("Result", "accuracy loss steps seconds train_examples test_examples")


def build_model(tf, learning_rate=DEFAULTS["learning_rate"]):
    """Builds the graph in the default graph; returns a dict of its endpoints."""
    from ..models import convnets
    x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
    y = tf.placeholder(tf.int64, [None], name="labels")
    logits = convnets.lenet(tf, x, num_classes=10)
    loss, train_op = convnets.train_op(tf, logits, y,
                                       optimizer=tf.train.AdamOptimizer(learning_rate))
    predictions = tf.argmax(logits, 1)
    accuracy, accuracy_update = tf.metrics.accuracy(y, predictions)
    return dict(x=x, y=y, logits=logits, loss=loss, train_op=train_op, accuracy=accuracy,
                accuracy_update=accuracy_update)


def train(steps=DEFAULTS["steps"], batch_size=DEFAULTS["batch_size"],
          learning_rate=DEFAULTS["learning_rate"], seed=DEFAULTS["seed"],
          test_fraction=DEFAULTS["test_fraction"], progress=True, tf=None):
    """Trains the CNN in a fresh graph; returns a `Result` with the held-out accuracy.
    tf: the TF1-style module (default tensorweave; tensorflow.compat.v1 works too)."""
    if tf is None:
        import tensorweave as tf
    if steps < 1 or batch_size < 1:
        raise ValueError("steps and batch_size must be positive")
    images, labels = load_digits()
    images = images.reshape(-1, 8, 8, 1)
    (x_train, y_train), (x_test, y_test) = train_test_split(images, labels, test_fraction=test_fraction,
                                                            seed=seed)
    batch_size = min(batch_size, len(x_train))
    start = time.perf_counter()
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(seed)
        m = build_model(tf, learning_rate)
        init = tf.global_variables_initializer()
        local_init = tf.local_variables_initializer()
    rng = np.random.RandomState(seed)
    with tf.Session(graph=graph) as sess:
        sess.run(init)
        order, pos = rng.permutation(len(x_train)), 0
        it = range(steps)
        bar = None
        if progress:
            from tqdm import tqdm
            bar = it = tqdm(it, desc="training", unit="step", leave=True)
        loss_value = float("nan")
        for step in it:
            if pos + batch_size > len(order):
                order, pos = rng.permutation(len(x_train)), 0
            batch = order[pos:pos + batch_size]
            pos += batch_size
            _, loss_value = sess.run([m["train_op"], m["loss"]],
                                     feed_dict={m["x"]: x_train[batch], m["y"]: y_train[batch]})
            if bar is not None and (step % 20 == 0 or step == steps - 1):
                bar.set_postfix(loss="%.4f" % loss_value)
        if bar is not None:
            bar.close()
        # The usual evaluation loop: reset the metric's local variables, stream the batches.
        sess.run(local_init)
        for i in range(0, len(x_test), 128):
            sess.run(m["accuracy_update"], feed_dict={m["x"]: x_test[i:i + 128],
                                                      m["y"]: y_test[i:i + 128]})
        accuracy = sess.run(m["accuracy"])
    return Result(accuracy=float(accuracy), loss=float(loss_value), steps=steps,
                  seconds=time.perf_counter() - start, train_examples=len(x_train),
                  test_examples=len(x_test))


def add_arguments(parser):
    """Adds this demo's options to its argparse subparser."""
    add_training_arguments(parser, DEFAULTS)


def main(args):
    """Runs the demo from parsed CLI arguments; returns the process exit status."""
    print("tensorweave demo: a LeNet-style CNN (Adam, lr %g) on 1797 handwritten 8x8 digits"
          % args.learning_rate)
    print("data: UCI Optical Recognition of Handwritten Digits (CC BY 4.0), 80% train / 20% test")
    result = train(steps=args.steps, batch_size=args.batch_size, learning_rate=args.learning_rate,
                   seed=args.seed, progress=args.progress)
    print("trained %d steps in %.1f s; final batch loss %.4f" % (result.steps, result.seconds, result.loss))
    print("held-out accuracy: %.4f (%d of %d test digits)"
          % (result.accuracy, round(result.accuracy * result.test_examples), result.test_examples))
    return 0
