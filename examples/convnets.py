"""Train the TensorFlow paper's benchmark convnets (AlexNet, Overfeat, OxfordNet/VGG-A,
GoogLeNet) for a few steps on random 224x224x3 images, printing the step time.

    python examples/convnets.py alexnet --steps 5 --batch-size 8
    python examples/convnets.py googlenet --steps 3 --batch-size 4

The models are built with tf.layers from tensorweave/models/convnets.py (shared with
benchmarks/convnets.py, which compares against PyTorch and TensorFlow).
"""

import argparse
import time

import numpy as np

import tensorweave as tf
from tensorweave.models import convnets

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("model", nargs="?", default="alexnet",
                    choices=["alexnet", "overfeat", "oxfordnet", "googlenet"])
parser.add_argument("--steps", type=int, default=3)
parser.add_argument("--batch-size", type=int, default=4)
parser.add_argument("--image-size", type=int, default=convnets.IMAGE_SIZE)
args = parser.parse_args()

size = args.image_size
images = tf.placeholder(tf.float32, [args.batch_size, size, size, 3], name="images")
labels = tf.placeholder(tf.int64, [args.batch_size], name="labels")
logits = convnets.MODELS[args.model](tf, images, num_classes=1000)
loss, train_op = convnets.train_op(tf, logits, labels, learning_rate=0.01)
n_params = sum(int(np.prod(v.shape.as_list())) for v in tf.trainable_variables())
print("%s: %.1fM parameters, batch %d, %dx%dx3 images" % (args.model, n_params / 1e6,
                                                            args.batch_size, size, size))
rng = np.random.RandomState(0)
x = rng.rand(args.batch_size, size, size, 3).astype(np.float32)
y = rng.randint(0, 1000, size=args.batch_size)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        t0 = time.perf_counter()
        loss_value, _ = sess.run([loss, train_op], {images: x, labels: y})
        print("step %d: loss %.4f, %.3f s" % (step, loss_value, time.perf_counter() - t0))
