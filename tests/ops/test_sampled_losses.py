"""sampled_softmax_loss and nce_loss: values for fixed sampled_values (recorded from real
TensorFlow 2.21 compat.v1), a NumPy reference, names, sparse (IndexedSlices) weight gradients,
finite differences, and a sampled step touching only the sampled rows."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients

W = (np.sin(np.arange(200)) * 0.5).reshape(50, 4).astype(np.float32)
B = (np.cos(np.arange(50)) * 0.1).astype(np.float32)
X = np.cos(np.arange(12)).reshape(3, 4).astype(np.float32)

# Recorded from TensorFlow for W, B, X above, labels [[1], [7], [3]] (num_true=2: [[1,2],[7,8],[3,4]])
# and sampled_values ([0, 2, 7, 6, 8], true counts, [0.1, 0.2, 0.3, 0.4, 0.5]).
TF = {"ssl": [3.782698392868042, 3.3158047199249268, 2.549856662750244],
      "ssl_nohit": [3.782698392868042, 3.3630762100219727, 2.549856662750244],
      "ssl2": [2.3130135536193848, 2.6726808547973633, 2.040408134460449],
      "ssl_div": [3.782698392868042, 3.3158047199249268, 2.549856662750244],
      "nce": [10.097574234008789, 8.967510223388672, 7.969064235687256],
      "nce_hit": [10.097573280334473, 8.011964797973633, 7.969063758850098],
      "nce2": [11.469985961914062, 10.059065818786621, 9.491365432739258]}


def _sv(num_true):
    te = [[0.5], [0.4], [0.3]] if num_true == 1 else [[0.5, 0.2], [0.4, 0.2], [0.3, 0.2]]
    return (tf.constant([0, 2, 7, 6, 8], tf.int64), tf.constant(te), tf.constant([0.1, 0.2, 0.3, 0.4, 0.5]))


def test_values_and_names_match_tf():
    w, b, x = tf.constant(W), tf.constant(B), tf.constant(X)
    lab = tf.constant([[1], [7], [3]], tf.int64)
    lab2 = tf.constant([[1, 2], [7, 8], [3, 4]], tf.int64)
    outs = dict(
        ssl=tf.nn.sampled_softmax_loss(w, b, lab, x, 5, 50, sampled_values=_sv(1)),
        ssl_nohit=tf.nn.sampled_softmax_loss(w, b, lab, x, 5, 50, sampled_values=_sv(1),
                                             remove_accidental_hits=False),
        ssl2=tf.nn.sampled_softmax_loss(w, b, lab2, x, 5, 50, num_true=2, sampled_values=_sv(2)),
        ssl_div=tf.nn.sampled_softmax_loss([w[:25], w[25:]], b, lab, x, 5, 50, sampled_values=_sv(1),
                                           partition_strategy="div"),
        nce=tf.nn.nce_loss(w, b, lab, x, 5, 50, sampled_values=_sv(1)),
        nce_hit=tf.nn.nce_loss(w, b, lab, x, 5, 50, sampled_values=_sv(1), remove_accidental_hits=True),
        nce2=tf.nn.nce_loss(w, b, lab2, x, 5, 50, num_true=2, sampled_values=_sv(2)))
    assert outs["ssl"].name == "softmax_cross_entropy_with_logits/Reshape_2:0"
    assert outs["nce"].name == "Reshape:0" and outs["nce2"].name == "Reshape_2:0"
    assert outs["ssl"].shape.as_list() == [3]
    with tf.Session() as sess:
        got = sess.run(outs)
    for k, v in got.items():
        np.testing.assert_allclose(v, TF[k], rtol=1e-5, err_msg=k)


def _reference(w, b, x, labels, sampled, true_exp, sampled_exp, kind, remove_hits):
    true_logits = np.sum(x * w[labels], 1) + b[labels] - np.log(true_exp)
    s_logits = x @ w[sampled].T + b[sampled] - np.log(sampled_exp)
    if remove_hits:
        s_logits = np.where(sampled[None, :] == labels[:, None], s_logits - np.finfo(np.float32).max, s_logits)
    logits = np.concatenate([true_logits[:, None], s_logits], 1)
    if kind == "softmax":
        m = logits.max(1, keepdims=True)
        return -(logits[:, 0] - m[:, 0] - np.log(np.exp(logits - m).sum(1)))
    lab = np.zeros_like(logits)
    lab[:, 0] = 1
    return (np.maximum(logits, 0) - logits * lab + np.log1p(np.exp(-np.abs(logits)))).sum(1)


@pytest.mark.parametrize("kind", ["softmax", "nce"])
def test_against_numpy_with_sampler(kind):
    rng = np.random.RandomState(3)
    w = rng.standard_normal((30, 5)).astype(np.float32)
    b = rng.standard_normal(30).astype(np.float32)
    x = rng.standard_normal((6, 5)).astype(np.float32)
    labels = rng.randint(0, 30, size=(6, 1))
    sv = tf.nn.log_uniform_candidate_sampler(tf.constant(labels, tf.int64), 1, 8, True, 30, seed=2)
    fn = tf.nn.sampled_softmax_loss if kind == "softmax" else tf.nn.nce_loss
    loss = fn(tf.constant(w), tf.constant(b), tf.constant(labels), tf.constant(x), 8, 30, sampled_values=sv,
              remove_accidental_hits=True)
    with tf.Session() as sess:
        got, (cand, te, se) = sess.run([loss, sv])
    with tf.Session() as sess:   # same seed, new session: the same draw
        assert sess.run(sv.sampled_candidates).tolist() == cand.tolist()
    want = _reference(w.astype(np.float64), b, x, labels[:, 0], cand, te[:, 0], se, kind, True)
    np.testing.assert_allclose(got, want, rtol=2e-4)


@pytest.mark.parametrize("kind", ["softmax", "nce"])
def test_gradients_finite_differences(kind):
    rng = np.random.RandomState(4)
    fn = tf.nn.sampled_softmax_loss if kind == "softmax" else tf.nn.nce_loss

    def build(w, b, x):
        sv = (tf.constant([0, 2, 7, 6], tf.int64), tf.constant([[0.5], [0.4]], tf.float64),
              tf.constant([0.1, 0.2, 0.3, 0.4], tf.float64))
        return fn(w, b, tf.constant([[1], [7]], tf.int64), x, 4, 10, sampled_values=sv,
                  remove_accidental_hits=False)
    check_gradients(build, [rng.standard_normal((10, 3)), rng.standard_normal(10), rng.standard_normal((2, 3))])


def test_weight_gradients_are_sparse_and_step_touches_sampled_rows():
    w = tf.Variable(W, name="w")
    b = tf.Variable(B, name="b")
    x = tf.constant(X)
    lab = tf.constant([[1], [7], [3]], tf.int64)
    loss = tf.reduce_sum(tf.nn.sampled_softmax_loss(w, b, lab, x, 5, 50, sampled_values=_sv(1)))
    gw, gb = tf.gradients(loss, [w, b])
    assert isinstance(gw, tf.IndexedSlices) and isinstance(gb, tf.IndexedSlices)
    train = tf.train.GradientDescentOptimizer(0.5).apply_gradients([(gw, w), (gb, b)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        w_after, b_after = sess.run([w, b])
    touched = sorted(set(np.nonzero(np.any(w_after != W, 1))[0]) | set(np.nonzero(b_after != B)[0]))
    assert set(touched) <= {1, 7, 3, 0, 2, 6, 8} and {1, 3, 0} <= set(touched)
