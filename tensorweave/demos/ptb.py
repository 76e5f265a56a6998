"""The `tensorweave demo ptb` model: the classic PTB "small" LSTM language model (Zaremba et al.
2014; TensorFlow's ptb_word_lm.py) on the King James Genesis and Exodus shipped with tensorweave.

Two layers of 200 BasicLSTMCells (forget_bias 0) unrolled 20 steps with `tf.nn.static_rnn`,
batch 20, embeddings by `tf.nn.embedding_lookup` (sparse gradients), softmax over a 10,000-word
vocabulary (the corpus uses about 3,100 of them) either in full or by `tf.nn.sampled_softmax_loss`,
gradients clipped with `tf.clip_by_global_norm(5)`, SGD at learning rate 1.0 halved every epoch
after the fourth. The LSTM state carries over from batch to batch (fed back each step).

`build_model(tf, config)` takes the TF1-style module so the benchmark can build the same graph on
TensorFlow::

    from tensorweave.demos import ptb
    result = ptb.train(steps=50, progress=False)
    print(result.perplexities)
"""

import collections
import time

import numpy as np

from ..datasets.text import kjv_raw_data, ptb_epoch_size, ptb_iterator
from . import positive_int

NAME = "ptb"
SUMMARY = "train the PTB-small LSTM language model on shipped public-domain text"
DESCRIPTION = ("Trains the classic PTB 'small' LSTM language model (2 layers of 200 LSTM cells, "
               "20 unrolled steps, batch 20, vocabulary 10,000, clip_by_global_norm 5, SGD) on "
               "the books of Genesis and Exodus (King James Version) shipped with tensorweave, "
               "and prints the validation perplexity before and after training.")


class SmallConfig:
    """PTB 'small' (ptb_word_lm.py's SmallConfig)."""
    init_scale = 0.1
    learning_rate = 1.0
    max_grad_norm = 5
    num_layers = 2
    num_steps = 20
    hidden_size = 200
    max_epoch = 4
    max_max_epoch = 13
    keep_prob = 1.0
    lr_decay = 0.5
    batch_size = 20
    vocab_size = 10000
    num_sampled = 64


def config(**overrides):
    c = SmallConfig()
    for k, v in overrides.items():
        if not hasattr(c, k):
            raise ValueError(f"unknown config field {k!r}")
        setattr(c, k, v)
    return c


def build_model(tf, cfg, softmax="full", seed=None, rnn="static"):
    """Builds the LM in the default graph; returns a dict of endpoints.

    softmax: "full" (training cost over all vocab_size words) or "sampled"
    (tf.nn.sampled_softmax_loss with cfg.num_sampled classes). `eval_cost` is always the full
    softmax cost, for perplexity.
    rnn: "static" (tf.nn.static_rnn over cfg.num_steps unrolled steps) or "dynamic"
    (tf.nn.dynamic_rnn: one while loop; same variables, same results)."""
    B, T, H, V = cfg.batch_size, cfg.num_steps, cfg.hidden_size, cfg.vocab_size
    input_data = tf.placeholder(tf.int32, [B, T], name="input")
    targets = tf.placeholder(tf.int32, [B, T], name="targets")
    initializer = tf.random_uniform_initializer(-cfg.init_scale, cfg.init_scale, seed=seed)
    with tf.variable_scope("Model", initializer=initializer):
        embedding = tf.get_variable("embedding", [V, H], dtype=tf.float32)
        inputs = tf.nn.embedding_lookup(embedding, input_data)
        if cfg.keep_prob < 1:
            inputs = tf.nn.dropout(inputs, keep_prob=cfg.keep_prob)

        def lstm_cell():
            cell = tf.nn.rnn_cell.BasicLSTMCell(H, forget_bias=0.0, state_is_tuple=True)
            if cfg.keep_prob < 1:
                cell = tf.nn.rnn_cell.DropoutWrapper(cell, output_keep_prob=cfg.keep_prob)
            return cell
        cell = tf.nn.rnn_cell.MultiRNNCell([lstm_cell() for _ in range(cfg.num_layers)], state_is_tuple=True)
        initial_state = cell.zero_state(B, tf.float32)
        if rnn == "static":
            inputs = tf.unstack(inputs, num=T, axis=1)
            outputs, final_state = tf.nn.static_rnn(cell, inputs, initial_state=initial_state)
            output = tf.reshape(tf.concat(outputs, 1), [-1, H])          # row b * T + t
        elif rnn == "dynamic":
            outputs, final_state = tf.nn.dynamic_rnn(cell, inputs, initial_state=initial_state)
            output = tf.reshape(outputs, [-1, H])                         # row b * T + t
        else:
            raise ValueError(f"rnn must be 'static' or 'dynamic', got {rnn!r}")
        labels = tf.reshape(targets, [-1])
        softmax_w = tf.get_variable("softmax_w", [V, H], dtype=tf.float32)   # [classes, dim] for both losses
        softmax_b = tf.get_variable("softmax_b", [V], dtype=tf.float32)
        logits = tf.matmul(output, softmax_w, transpose_b=True) + softmax_b
        full_loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        eval_cost = tf.reduce_sum(full_loss) / B
        if softmax == "full":
            cost = eval_cost
        elif softmax == "sampled":
            sampled = tf.nn.sampled_softmax_loss(
                weights=softmax_w, biases=softmax_b, labels=tf.reshape(tf.cast(labels, tf.int64), [-1, 1]),
                inputs=output, num_sampled=cfg.num_sampled, num_classes=V, seed=seed)
            cost = tf.reduce_sum(sampled) / B
        else:
            raise ValueError(f"softmax must be 'full' or 'sampled', got {softmax!r}")

        lr = tf.Variable(0.0, trainable=False, name="learning_rate")
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(cost, tvars), cfg.max_grad_norm)
        optimizer = tf.train.GradientDescentOptimizer(lr)
        global_step = tf.train.get_or_create_global_step()
        train_op = optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)
        new_lr = tf.placeholder(tf.float32, shape=[], name="new_learning_rate")
        lr_update = tf.assign(lr, new_lr)
    return dict(input=input_data, targets=targets, initial_state=initial_state, final_state=final_state,
                cost=cost, eval_cost=eval_cost, train_op=train_op, lr=lr, new_lr=new_lr, lr_update=lr_update)


def state_feed(m, state):
    """feed_dict entries setting the model's initial LSTM state to `state` (fetched values)."""
    feed = {}
    for (c, h), (cv, hv) in zip(m["initial_state"], state):
        feed[c] = cv
        feed[h] = hv
    return feed


def evaluate(sess, m, data, cfg, max_batches=None):
    """Perplexity of `data` under the full softmax (state carried across batches)."""
    state = sess.run(m["initial_state"])
    costs, iters = 0.0, 0
    for i, (x, y) in enumerate(ptb_iterator(data, cfg.batch_size, cfg.num_steps)):
        if max_batches is not None and i >= max_batches:
            break
        feed = {m["input"]: x, m["targets"]: y}
        feed.update(state_feed(m, state))
        cost, state = sess.run([m["eval_cost"], m["final_state"]], feed)
        costs += cost
        iters += cfg.num_steps
    return float(np.exp(costs / iters))


Result = collections.namedtuple("Result", "perplexities train_perplexity steps seconds step_ms")


def train(steps=200, softmax="full", seed=0, progress=True, cfg=None, eval_batches=None, tf=None,
          rnn="static"):
    """Trains for `steps` batches (epochs repeat as needed, the learning rate decaying per epoch
    as in ptb_word_lm.py); returns validation perplexities before and after, the running training
    perplexity and the mean step time."""
    if tf is None:
        import tensorweave as tf
    cfg = cfg or SmallConfig()
    train_data, valid_data, _, vocab = kjv_raw_data(vocab_size=cfg.vocab_size)
    start = time.perf_counter()
    graph = tf.Graph()
    with graph.as_default():
        tf.set_random_seed(seed)
        m = build_model(tf, cfg, softmax=softmax, seed=seed, rnn=rnn)
        init = tf.global_variables_initializer()
    epoch_size = ptb_epoch_size(len(train_data), cfg.batch_size, cfg.num_steps)
    with tf.Session(graph=graph) as sess:
        sess.run(init)
        before = evaluate(sess, m, valid_data, cfg, eval_batches)
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=steps, desc=f"training ({softmax} softmax)", unit="step")
        done, costs, iters, step_time = 0, 0.0, 0, 0.0
        epoch = 0
        while done < steps:
            lr_decay = cfg.lr_decay ** max(epoch + 1 - cfg.max_epoch, 0.0)
            sess.run(m["lr_update"], {m["new_lr"]: cfg.learning_rate * lr_decay})
            state = sess.run(m["initial_state"])
            for x, y in ptb_iterator(train_data, cfg.batch_size, cfg.num_steps):
                if done >= steps:
                    break
                feed = {m["input"]: x, m["targets"]: y}
                feed.update(state_feed(m, state))
                t0 = time.perf_counter()
                cost, state, _ = sess.run([m["cost"], m["final_state"], m["train_op"]], feed)
                step_time += time.perf_counter() - t0
                costs += cost
                iters += cfg.num_steps
                done += 1
                if bar is not None:
                    bar.update(1)
                    if done % 10 == 0:
                        bar.set_postfix(train_ppl="%.1f" % np.exp(costs / iters))
            epoch += 1
        if bar is not None:
            bar.close()
        after = evaluate(sess, m, valid_data, cfg, eval_batches)
    return Result(perplexities=(before, after), train_perplexity=float(np.exp(costs / max(iters, 1))),
                  steps=done, seconds=time.perf_counter() - start, step_ms=1e3 * step_time / max(done, 1)), \
        epoch_size


def add_arguments(parser):
    parser.add_argument("--steps", type=positive_int, default=300,
                        help="training steps of 20 x 20 words (default: %(default)s; an epoch is about 146)")
    parser.add_argument("--softmax", choices=("full", "sampled"), default="full",
                        help="full softmax or sampled_softmax_loss with 64 samples (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="graph-level random seed (default: %(default)s)")
    parser.add_argument("--rnn", choices=("static", "dynamic"), default="static",
                        help="unroll with tf.nn.static_rnn or loop with tf.nn.dynamic_rnn (default: %(default)s)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(args):
    result, epoch_size = train(steps=args.steps, softmax=args.softmax, seed=args.seed, rnn=args.rnn,
                               progress=not args.no_progress)
    before, after = result.perplexities
    print(f"validation perplexity: {before:.1f} before training, {after:.1f} after {result.steps} steps "
          f"({result.steps / epoch_size:.2f} epochs, {result.step_ms:.1f} ms/step, {result.seconds:.1f} s)")
    return 0
