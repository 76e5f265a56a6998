"""The `tensorweave demo digits` model: a 64-128-10 ReLU network on the UCI 8x8 digits.

The model is written against the public TF1-style API only (placeholders, variables, matmul,
sparse softmax cross-entropy, Adam), the same model as ``examples/digits_mlp.py``; the training
loop is a ``tf.train.MonitoredTrainingSession`` with a StopAtStepHook, tensorweave's
ProgressBarHook (a tqdm bar) and a FinalOpsHook that measures the held-out accuracy.
``train()`` is importable so tests can run it in-process::

    from tensorweave.demos import digits
    result = digits.train(steps=600, seed=0, progress=False)
    print(result.accuracy)
"""

import collections
import time

import numpy as np

from ..datasets import load_digits, train_test_split
from . import add_training_arguments, positive_int

NAME = "digits"
SUMMARY = "train a 64-128-10 ReLU network on 1,797 handwritten 8x8 digits"
DESCRIPTION = ("Trains a 64-128-10 ReLU network (softmax cross-entropy, Adam) on the UCI 8x8 "
               "handwritten digits shipped with tensorweave, with a progress bar, then prints "
               "the accuracy on the 20% of the digits held out from training. It is the same "
               "plain TensorFlow 1.x program as examples/digits_mlp.py in the source tree.")

DEFAULTS = dict(steps=600, batch_size=64, learning_rate=0.01, hidden=128, seed=0,
                test_fraction=0.2)

Result = collections.namedtuple(
    "Result", "accuracy loss steps seconds train_examples test_examples")


def _dense(tf, x, n_in, n_out, name, activation=None):
    with tf.variable_scope(name):
        kernel = tf.get_variable("kernel", [n_in, n_out],
                                 initializer=tf.glorot_uniform_initializer())
        bias = tf.get_variable("bias", [n_out], initializer=tf.zeros_initializer())
        y = tf.matmul(x, kernel) + bias
        return activation(y) if activation is not None else y


def build_model(tf, hidden=128, learning_rate=0.01, num_pixels=64, num_classes=10, global_step=False):
    """Builds the graph in the default graph; returns a dict of its endpoints.

    global_step: also create the global step (after the layers, so their seeded initial values
    do not change) and count training steps in it."""
    x = tf.placeholder(tf.float32, [None, num_pixels], name="images")
    y = tf.placeholder(tf.int64, [None], name="labels")
    h = _dense(tf, x, num_pixels, hidden, "hidden", activation=tf.nn.relu)
    logits = _dense(tf, h, hidden, num_classes, "logits")
    loss = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    step = tf.train.get_or_create_global_step() if global_step else None
    train_op = tf.train.AdamOptimizer(learning_rate).minimize(loss, global_step=step)
    correct = tf.equal(tf.argmax(logits, 1), y)
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    tf.summary.scalar("loss", loss)
    tf.summary.scalar("batch_accuracy", accuracy)
    tf.summary.histogram("hidden_kernel", tf.trainable_variables()[0])
    return dict(x=x, y=y, logits=logits, loss=loss, train_op=train_op, accuracy=accuracy,
                global_step=step)


def train(steps=DEFAULTS["steps"], batch_size=DEFAULTS["batch_size"],
          learning_rate=DEFAULTS["learning_rate"], hidden=DEFAULTS["hidden"],
          seed=DEFAULTS["seed"], test_fraction=DEFAULTS["test_fraction"], progress=True,
          tf=None, logdir=None):
    """Trains the network in a fresh graph and returns a `Result` with the held-out accuracy.

    progress: show a tqdm bar with the running loss (on stderr).
    logdir: write TensorBoard summaries (loss, batch accuracy, a weight histogram, the graph)
      there every 20 steps.
    tf: the TF1-style module to use (default: tensorweave). Passing
      ``tensorflow.compat.v1`` (after ``disable_v2_behavior()``) runs the same model on TensorFlow.
    """
    if tf is None:
        import tensorweave as tf
    if steps < 1 or batch_size < 1:
        raise ValueError("steps and batch_size must be positive")
    images, labels = load_digits()
    (x_train, y_train), (x_test, y_test) = train_test_split(
        images, labels, test_fraction=test_fraction, seed=seed)
    batch_size = min(batch_size, len(x_train))

    start = time.perf_counter()
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(seed)
        m = build_model(tf, hidden=hidden, learning_rate=learning_rate,
                        num_pixels=images.shape[1], num_classes=10, global_step=True)
        evaluate = tf.train.FinalOpsHook(m["accuracy"], {m["x"]: x_test, m["y"]: y_test})
        hooks = [tf.train.StopAtStepHook(last_step=steps), evaluate]
        progress_hook = getattr(tf.train, "ProgressBarHook", None)  # tensorweave's, not in TF
        if progress and progress_hook is not None:
            hooks.append(progress_hook(total=steps, tensors={"loss": m["loss"]}, every_n_steps=20,
                                       desc="training"))
        rng = np.random.RandomState(seed)
        order, pos = rng.permutation(len(x_train)), 0
        loss_value = float("nan")
        with tf.train.MonitoredTrainingSession(hooks=hooks, log_step_count_steps=None,
                                               summary_dir=logdir,
                                               save_summaries_steps=20 if logdir else None) as sess:
            while not sess.should_stop():
                if pos + batch_size > len(order):
                    order, pos = rng.permutation(len(x_train)), 0
                batch = order[pos:pos + batch_size]
                pos += batch_size
                _, loss_value = sess.run([m["train_op"], m["loss"]],
                                         feed_dict={m["x"]: x_train[batch], m["y"]: y_train[batch]})
        accuracy = evaluate.final_ops_values
    return Result(accuracy=float(accuracy), loss=float(loss_value), steps=steps,
                  seconds=time.perf_counter() - start, train_examples=len(x_train),
                  test_examples=len(x_test))


def add_arguments(parser):
    """Adds this demo's options to its argparse subparser."""
    add_training_arguments(parser, DEFAULTS)
    parser.add_argument("--hidden", type=positive_int, default=DEFAULTS["hidden"],
                        help="hidden units (default: %(default)s)")
    parser.add_argument("--logdir", default=_default_logdir(),
                        help="where to write TensorBoard summaries (default: %(default)s; "
                             "'' for none)")


def _default_logdir():
    import os
    import tempfile
    return os.path.join(tempfile.gettempdir(), "tensorweave-demo", NAME)


def main(args):
    """Runs the demo from parsed CLI arguments; returns the process exit status."""
    n_images = 1797
    print("tensorweave demo: a 64-%d-10 ReLU network (Adam, lr %g) on %d handwritten 8x8 digits"
          % (args.hidden, args.learning_rate, n_images))
    print("data: UCI Optical Recognition of Handwritten Digits (CC BY 4.0), 80% train / 20% test")
    logdir = getattr(args, "logdir", None) or None
    result = train(steps=args.steps, batch_size=args.batch_size,
                   learning_rate=args.learning_rate, hidden=args.hidden, seed=args.seed,
                   progress=args.progress, logdir=logdir)
    print("trained %d steps in %.1f s; final batch loss %.4f"
          % (result.steps, result.seconds, result.loss))
    print("held-out accuracy: %.4f (%d of %d test digits)"
          % (result.accuracy, round(result.accuracy * result.test_examples),
             result.test_examples))
    if logdir:
        print("summaries written to %s; view them with: tensorboard --logdir %s" % (logdir, logdir))
    return 0
