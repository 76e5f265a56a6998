"""Word-level LSTM language model, PTB "small" configuration, TensorFlow 1.x style.

    python examples/ptb_word_lm.py --steps 300                 # full softmax
    python examples/ptb_word_lm.py --steps 300 --sampled       # tf.nn.sampled_softmax_loss

The model of Zaremba et al. (2014) as in TensorFlow's classic ptb_word_lm.py: an embedding, two
layers of 200 LSTM cells unrolled over 20 words with tf.nn.static_rnn, a softmax over a
10,000-word vocabulary, gradients clipped to a global norm of 5, SGD with learning rate 1.0
halved every epoch after the fourth. The corpus is the King James Genesis and Exodus shipped with
tensorweave (public domain, ~71,000 words; tensorweave.datasets.text), read PTB-style.

It prints the training perplexity as it goes and the validation perplexity before and after.
It is a plain TF1 graph program: swap the import for
``import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`` to run it on TensorFlow.
"""

import argparse
import time

import numpy as np

import tensorweave as tf
from tensorweave.datasets.text import kjv_raw_data, ptb_iterator

INIT_SCALE, LEARNING_RATE, MAX_GRAD_NORM = 0.1, 1.0, 5.0
NUM_LAYERS, NUM_STEPS, HIDDEN_SIZE, BATCH_SIZE, VOCAB_SIZE = 2, 20, 200, 20, 10000
MAX_EPOCH, LR_DECAY, NUM_SAMPLED = 4, 0.5, 64


class PTBModel:
    """The graph: placeholders for a [batch, steps] window of word ids and its targets, the
    LSTM state in and out, the cost (sum over steps of the mean per-example loss), and a train op."""

    def __init__(self, sampled=False, dynamic=False):
        self.input = tf.placeholder(tf.int32, [BATCH_SIZE, NUM_STEPS], name="input")
        self.targets = tf.placeholder(tf.int32, [BATCH_SIZE, NUM_STEPS], name="targets")
        embedding = tf.get_variable("embedding", [VOCAB_SIZE, HIDDEN_SIZE])
        inputs = tf.nn.embedding_lookup(embedding, self.input)        # sparse gradient

        cell = tf.nn.rnn_cell.MultiRNNCell(
            [tf.nn.rnn_cell.BasicLSTMCell(HIDDEN_SIZE, forget_bias=0.0) for _ in range(NUM_LAYERS)])
        self.initial_state = cell.zero_state(BATCH_SIZE, tf.float32)
        if dynamic:   # one tf.while_loop over the steps
            outputs, self.final_state = tf.nn.dynamic_rnn(cell, inputs, initial_state=self.initial_state)
            output = tf.reshape(outputs, [-1, HIDDEN_SIZE])
        else:         # NUM_STEPS unrolled copies of the cell
            outputs, self.final_state = tf.nn.static_rnn(cell, tf.unstack(inputs, num=NUM_STEPS, axis=1),
                                                         initial_state=self.initial_state)
            output = tf.reshape(tf.concat(outputs, 1), [-1, HIDDEN_SIZE])
        labels = tf.reshape(self.targets, [-1])

        softmax_w = tf.get_variable("softmax_w", [VOCAB_SIZE, HIDDEN_SIZE])
        softmax_b = tf.get_variable("softmax_b", [VOCAB_SIZE])
        logits = tf.matmul(output, softmax_w, transpose_b=True) + softmax_b
        full = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        self.eval_cost = tf.reduce_sum(full) / BATCH_SIZE
        if sampled:
            loss = tf.nn.sampled_softmax_loss(softmax_w, softmax_b, tf.reshape(tf.cast(labels, tf.int64), [-1, 1]),
                                              output, NUM_SAMPLED, VOCAB_SIZE)
            self.cost = tf.reduce_sum(loss) / BATCH_SIZE
        else:
            self.cost = self.eval_cost

        self.lr = tf.Variable(0.0, trainable=False)
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(self.cost, tvars), MAX_GRAD_NORM)
        self.train_op = tf.train.GradientDescentOptimizer(self.lr).apply_gradients(
            zip(grads, tvars), global_step=tf.train.get_or_create_global_step())
        self.new_lr = tf.placeholder(tf.float32, shape=[])
        self.lr_update = tf.assign(self.lr, self.new_lr)

    def feed(self, x, y, state):
        feed = {self.input: x, self.targets: y}
        for (c, h), (cv, hv) in zip(self.initial_state, state):
            feed[c], feed[h] = cv, hv
        return feed


def perplexity(sess, model, data, fetch_train=False, max_batches=None):
    """exp(mean cost per word) over `data`, the state carried from batch to batch."""
    state = sess.run(model.initial_state)
    costs, iters = 0.0, 0
    fetches = [model.cost if fetch_train else model.eval_cost, model.final_state]
    if fetch_train:
        fetches.append(model.train_op)
    for i, (x, y) in enumerate(ptb_iterator(data, BATCH_SIZE, NUM_STEPS)):
        if max_batches is not None and i >= max_batches:
            break
        cost, state = sess.run(fetches, model.feed(x, y, state))[:2]
        costs += cost
        iters += NUM_STEPS
    return np.exp(costs / iters)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=300, help="training steps (an epoch is ~146)")
    parser.add_argument("--sampled", action="store_true", help="train with sampled_softmax_loss")
    parser.add_argument("--dynamic", action="store_true", help="tf.nn.dynamic_rnn instead of static_rnn")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    train_data, valid_data, _, _ = kjv_raw_data(vocab_size=VOCAB_SIZE)
    tf.set_random_seed(args.seed)
    with tf.variable_scope("Model", initializer=tf.random_uniform_initializer(-INIT_SCALE, INIT_SCALE)):
        model = PTBModel(sampled=args.sampled, dynamic=args.dynamic)

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("validation perplexity before training: %.1f" % perplexity(sess, model, valid_data))
        done, epoch, start = 0, 0, time.time()
        while done < args.steps:
            lr_decay = LR_DECAY ** max(epoch + 1 - MAX_EPOCH, 0.0)
            sess.run(model.lr_update, {model.new_lr: LEARNING_RATE * lr_decay})
            state = sess.run(model.initial_state)
            costs, iters = 0.0, 0
            for x, y in ptb_iterator(train_data, BATCH_SIZE, NUM_STEPS):
                if done >= args.steps:
                    break
                cost, state, _ = sess.run([model.cost, model.final_state, model.train_op],
                                          model.feed(x, y, state))
                costs, iters, done = costs + cost, iters + NUM_STEPS, done + 1
                if done % 25 == 0:
                    print("step %d  train perplexity %.1f  (%.0f ms/step)"
                          % (done, np.exp(costs / iters), 1000 * (time.time() - start) / done))
            epoch += 1
        print("validation perplexity after %d steps: %.1f" % (done, perplexity(sess, model, valid_data)))


if __name__ == "__main__":
    main()
