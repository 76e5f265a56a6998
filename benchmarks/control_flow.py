"""Control-flow overhead: a 10,000-iteration counter while_loop (µs per iteration) and an LSTM
unrolled by dynamic_rnn vs static_rnn (forward step time ratio). Prints numbers, asserts nothing.

    python benchmarks/control_flow.py
"""

import time

import numpy as np

import tensorweave as tf


def _best(fn, rounds=5):
    fn()
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def counter_loop(n=10000):
    with tf.Graph().as_default():
        r = tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)])
        with tf.Session() as sess:
            return _best(lambda: sess.run(r)) / n * 1e6


def lstm(batch=32, steps=20, inputs=32, units=64):
    x_np = np.random.default_rng(0).standard_normal((batch, steps, inputs)).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.constant(x_np)
        cell = tf.nn.rnn_cell.BasicLSTMCell(units)
        dyn, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        st, _ = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32, scope="rnn")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            t_dyn = _best(lambda: sess.run(dyn))
            t_st = _best(lambda: sess.run(st))
    return t_dyn, t_st


def main():
    us = counter_loop()
    print(f"while_loop counter, 10000 iterations: {us:.2f} us/iteration")
    try:
        t_dyn, t_st = lstm()
    except (AttributeError, ImportError) as e:
        print(f"LSTM dynamic_rnn vs static_rnn: skipped ({e})")
        return
    print(f"LSTM (batch 32, 20 steps, 64 units) forward: dynamic_rnn {t_dyn * 1e3:.2f} ms, "
          f"static_rnn {t_st * 1e3:.2f} ms, ratio dynamic/static {t_dyn / t_st:.2f}")


if __name__ == "__main__":
    main()
