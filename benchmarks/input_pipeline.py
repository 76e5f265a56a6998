"""Input pipeline overhead: a 784-512-10 MLP trained on random data, fed either by
Dataset.from_tensor_slices(...).map(...).batch(...).prefetch(...) (get_next inside the graph) or by
pre-made NumPy batches through feed_dict. Prints both step times and the ratio (dataset / feed);
the goal is a ratio of at most 1.10.

    python benchmarks/input_pipeline.py [--steps 200] [--batch 128] [--rounds 3]
"""

import argparse
import time

import numpy as np

import tensorweave as tf


def model(x, y):
    h = tf.layers.dense(x, 512, activation=tf.nn.relu, name="hidden")
    logits = tf.layers.dense(h, 10, name="logits")
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    return tf.train.GradientDescentOptimizer(0.01).minimize(loss), loss


def run_feed(images, labels, steps, batch):
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        x = tf.placeholder(tf.float32, [None, 784])
        y = tf.placeholder(tf.int32, [None])
        train, _ = model(x, y)
        n = images.shape[0] // batch
        batches = [(images[i * batch:(i + 1) * batch], labels[i * batch:(i + 1) * batch]) for i in range(n)]
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(5):
                bx, by = batches[i % n]
                sess.run(train, {x: bx, y: by})
            t = time.perf_counter()
            for i in range(steps):
                bx, by = batches[i % n]
                sess.run(train, {x: bx, y: by})
            return (time.perf_counter() - t) / steps


def run_dataset(images, labels, steps, batch):
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(0)
        ds = (tf.data.Dataset.from_tensor_slices((images, labels))
              .map(lambda a, b: (a, tf.cast(b, tf.int32)))
              .batch(batch, drop_remainder=True)
              .repeat()
              .prefetch(2))
        x, y = ds.make_one_shot_iterator().get_next()
        train, _ = model(x, y)
        with tf.Session(graph=g) as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(5):
                sess.run(train)
            t = time.perf_counter()
            for _ in range(steps):
                sess.run(train)
            return (time.perf_counter() - t) / steps


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--examples", type=int, default=8192)
    args = p.parse_args(argv)
    rng = np.random.RandomState(0)
    images = rng.rand(args.examples, 784).astype(np.float32)
    labels = rng.randint(0, 10, args.examples).astype(np.int64)
    feed, data = [], []
    for _ in range(args.rounds):  # interleaved rounds; the best of each is kept
        feed.append(run_feed(images, labels, args.steps, args.batch))
        data.append(run_dataset(images, labels, args.steps, args.batch))
    f, d = min(feed), min(data)
    print(f"784-512-10 MLP, batch {args.batch}, {args.steps} steps, best of {args.rounds} rounds")
    print(f"feed_dict (pre-made NumPy batches): {f * 1e3:8.3f} ms/step")
    print(f"Dataset.map.batch.prefetch:         {d * 1e3:8.3f} ms/step")
    print(f"ratio dataset/feed: {d / f:.3f} (goal <= 1.10)")
    return d / f


if __name__ == "__main__":
    main()
