"""Train a LeNet-style CNN on the UCI 8x8 handwritten digits, TensorFlow 1.x style.

    python examples/lenet_digits.py [--steps 200] [--batch-size 64] [--seed 0]

conv 5x5x32 + ReLU, 2x2 max pool, conv 5x5x64 + ReLU, 2x2 max pool, dense 256 + ReLU, dense 10
(tf.layers), softmax cross-entropy minimized with Adam; the held-out accuracy is computed with
the usual tf.metrics evaluation loop (tf.local_variables_initializer, then update_op per batch).
The model builder lives in tensorweave/models/convnets.py, shared with the benchmarks; it runs on
TensorFlow too (pass `tensorflow.compat.v1` as `tf`). Expect a held-out accuracy of ~0.98.
"""

import argparse

import numpy as np
from tqdm import tqdm

import tensorweave as tf
from tensorweave.datasets import load_digits, train_test_split
from tensorweave.models import convnets

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--steps", type=int, default=200)
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--learning-rate", type=float, default=0.002)
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()

images, labels = load_digits()
images = images.reshape(-1, 8, 8, 1)                  # NHWC
(x_train, y_train), (x_test, y_test) = train_test_split(images, labels, test_fraction=0.2,
                                                        seed=args.seed)

tf.set_random_seed(args.seed)
x = tf.placeholder(tf.float32, [None, 8, 8, 1], name="images")
y = tf.placeholder(tf.int64, [None], name="labels")
logits = convnets.lenet(tf, x, num_classes=10)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
train_op = tf.train.AdamOptimizer(args.learning_rate).minimize(loss)
accuracy, accuracy_update = tf.metrics.accuracy(labels=y, predictions=tf.argmax(logits, 1))

rng = np.random.RandomState(args.seed)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    bar = tqdm(range(args.steps), desc="training", unit="step")
    for step in bar:
        batch = rng.randint(0, len(x_train), size=args.batch_size)
        _, loss_value = sess.run([train_op, loss], {x: x_train[batch], y: y_train[batch]})
        if step % 20 == 0:
            bar.set_postfix(loss="%.4f" % loss_value)
    sess.run(tf.local_variables_initializer())
    for i in range(0, len(x_test), 128):
        sess.run(accuracy_update, {x: x_test[i:i + 128], y: y_test[i:i + 128]})
    print("held-out accuracy: %.4f on %d test digits" % (sess.run(accuracy), len(x_test)))
