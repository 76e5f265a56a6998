"""The PTB-style LSTM language model trains: validation perplexity falls in a short run, with the
full softmax and with sampled_softmax_loss (a small configuration, a few seconds)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.demos import ptb


def _small():
    return ptb.config(hidden_size=32, num_steps=8, batch_size=8, vocab_size=400, num_sampled=16)


@pytest.mark.parametrize("softmax", ["full", "sampled"])
def test_perplexity_falls(softmax):
    result, _ = ptb.train(steps=60, softmax=softmax, seed=0, progress=False, cfg=_small(), eval_batches=20)
    before, after = result.perplexities
    assert before > 300                     # about the vocabulary size at initialisation
    assert after < 0.5 * before, result
    assert np.isfinite(result.train_perplexity)


def test_model_graph_is_tf_shaped():
    cfg = _small()
    m = ptb.build_model(tf, cfg, softmax="sampled", seed=1)
    names = [v.name for v in tf.trainable_variables()]
    assert names == ["Model/embedding:0",
                     "Model/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel:0",
                     "Model/rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias:0",
                     "Model/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/kernel:0",
                     "Model/rnn/multi_rnn_cell/cell_1/basic_lstm_cell/bias:0",
                     "Model/softmax_w:0", "Model/softmax_b:0"]
    grads = tf.gradients(m["cost"], [tf.trainable_variables()[0], tf.trainable_variables()[5]])
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)      # embedding and sampled weights stay sparse


def test_demo_command(capsys):
    import argparse
    parser = argparse.ArgumentParser()
    ptb.add_arguments(parser)
    assert ptb.NAME == "ptb" and ptb.SUMMARY
    args = parser.parse_args(["--steps", "1", "--no-progress"])
    assert args.softmax == "full" and args.steps == 1


@pytest.mark.slow
def test_benchmark_runs():
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, os.path.join(root, "benchmarks", "lstm_lm.py"), "--only", "numpy",
                        "tensorweave", "--steps", "1", "--warmup", "1", "--rounds", "1", "--threads", "1"],
                       capture_output=True, text=True, timeout=600, cwd=root)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "skipped" not in r.stdout and "tensorweave-sampled" in r.stdout, r.stdout


def test_dynamic_rnn_model_matches_static_and_trains():
    # The LM switched to tf.nn.dynamic_rnn: same variables, same first costs, and it trains.
    import numpy as np

    import tensorweave as tf
    from tensorweave.demos import ptb
    from tensorweave.datasets.text import kjv_raw_data, ptb_iterator

    cfg = ptb.SmallConfig()
    train_data = kjv_raw_data(vocab_size=cfg.vocab_size)[0]
    x, y = next(ptb_iterator(train_data, cfg.batch_size, cfg.num_steps))
    costs = {}
    for mode in ("static", "dynamic"):
        with tf.Graph().as_default():
            tf.set_random_seed(0)
            m = ptb.build_model(tf, cfg, seed=0, rnn=mode)
            names = sorted(v.name for v in tf.trainable_variables())
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(m["lr_update"], {m["new_lr"]: 1.0})
                state = sess.run(m["initial_state"])
                run = []
                for _ in range(3):
                    feed = {m["input"]: x, m["targets"]: y}
                    feed.update(ptb.state_feed(m, state))
                    cost, _ = sess.run([m["cost"], m["train_op"]], feed)
                    run.append(cost)
        costs[mode] = (names, run)
    assert costs["static"][0] == costs["dynamic"][0]
    np.testing.assert_allclose(costs["static"][1], costs["dynamic"][1], rtol=1e-4)
    assert costs["dynamic"][1][-1] < costs["dynamic"][1][0]
