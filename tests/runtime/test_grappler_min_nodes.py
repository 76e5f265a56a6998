"""Grappler's rewrites as TF 2.21 applies them in a Session (runtime/grappler.py), recorded from
TF 2.21 (tensorflow.compat.v1) as float32 bit patterns: graphs of fewer than 4 nodes are left
alone (min_graph_nodes), a PlaceholderWithDefault is never a constant to fold, and ConvertPow
also applies when the base's dimensions are unknown to the graph.
"""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import x86_approx

X = np.linspace(0.1, 10, 1000).astype(np.float32)


def _run(build, extra_nodes, shape=(1000,)):
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, list(shape))
        for _ in range(extra_nodes):
            tf.constant(1.0)
        y = build(p)
        with tf.Session() as sess:
            return sess.run(y, {p: X})


def test_tiny_graphs_are_not_rewritten():
    third = np.float32(1) / np.float32(3)
    # three nodes (placeholder, constant, division): a true division, as TF
    assert _run(lambda p: p / 3.0, 0).tobytes() == (X / np.float32(3)).tobytes()
    # one node more anywhere in the graph: ReduceDivToReciprocalMul, x * (1 / 3)
    assert _run(lambda p: p / 3.0, 1).tobytes() == (X * third).tobytes()
    assert _run(lambda p: tf.pow(p, 2.0), 1).tobytes() == (X * X).tobytes()


def test_pow_with_unknown_dims_is_converted():
    for e, want in ((2.0, X * X), (0.5, np.sqrt(X)), (3.0, X * (X * X))):
        assert _run(lambda p: tf.pow(p, e), 3, shape=(None,)).tobytes() == want.tobytes()


def test_placeholder_with_default_is_not_folded():
    # TF: log(1 + x) of a PlaceholderWithDefault becomes log1p(x) (ConvertLog1p); folding the
    # default as a constant would compute log(1 + x) (digest 53df47b998)
    from tensorweave.kernels.cpu import eigen_math, float_env
    with tf.Graph().as_default():
        z = tf.log(1 + tf.placeholder_with_default(X, [1000]))
        tf.constant(0.0)
        with tf.Session() as sess:
            got = sess.run(z)
    saved = float_env.enter()
    try:
        want = eigen_math.log1p(X)
    finally:
        float_env.leave(saved)
    assert got.tobytes() == want.tobytes()


def test_pow_of_unknown_rank_by_a_scalar_is_converted():
    # (aymericdamien's linear regression: shapeless placeholders, cost = sum(pow(pred - y, 2)),
    # whose digits TF printed come from Square; Eigen's generic pow differs in the last bit)
    with tf.Graph().as_default():
        p = tf.placeholder("float")
        for _ in range(3):
            tf.constant(1.0)
        y = tf.pow(p, 2)
        with tf.Session() as sess:
            assert sess.run(y, {p: X}).tobytes() == (X * X).tobytes()


def test_sqrt_div_to_rsqrt_mul():
    # digests recorded from TF 2.21 for these fetches (SqrtDivToRsqrtMul, after CSE: y1 and y5
    # share one Sqrt, and y3's Sqrt also feeds y4, so only y2 is rewritten in the joint run)
    import hashlib
    rng = np.random.RandomState(3)
    a = rng.randn(100).astype(np.float32)
    b = rng.rand(100).astype(np.float32) + 0.1

    def dig(v):
        return hashlib.sha256(np.ascontiguousarray(v).tobytes()).hexdigest()[:10]
    with tf.Graph().as_default():
        pa, pb = tf.placeholder(tf.float32, [None]), tf.placeholder(tf.float32, [None])
        sq = tf.sqrt(pb)
        y1 = pa / tf.sqrt(pb)
        y2 = pa / tf.sqrt(pb + 1e-3)
        y3 = tf.div(pa, sq)
        y4 = sq * 2.0
        y5 = tf.truediv(pa, tf.sqrt(pb))
        with tf.Session() as sess:
            got = [dig(v) for v in sess.run([y1, y2, y3, y4, y5], {pa: a, pb: b})]
            alone = dig(sess.run(y1, {pa: a, pb: b}))
    assert got == ["685ce8c8e3", "20ce8e913b", "685ce8c8e3", "5eca057134", "685ce8c8e3"]
    assert alone == "0719e8f57b"


@pytest.mark.skipif(not x86_approx.available(), reason="TF's reciprocal bits need rcpps")
def test_folded_softmax_inverts_the_sums_as_eigen():
    # A constant Softmax is folded with Eigen's kernel, whose 1 / sum is the CPU's approximate
    # reciprocal (x86_approx) on the packets of the row sums: digests recorded from TF 2.21 for
    # softmax(constant) over the last axis and axis 0 (a (1, 100) constant over axis 0 is not all
    # 1.0 in TF: 0.99999994 where the reciprocal's Newton step rounds down)
    import hashlib
    want = {(4, 10): ("12b7845d8d", "300bcf560c"), (8, 10): ("1b14734270", "0a70e6c692"),
            (5, 17): ("e25f93ee8c", "98d4369f37"), (1, 100): ("22fb32bb02", "fd093871f9")}
    rng = np.random.RandomState(0)
    for shape in [(2, 3), (3, 2), (4, 10), (8, 10), (5, 17), (1, 100)]:
        c = (rng.randn(*shape) * 3).astype(np.float32)
        if shape not in want:
            continue
        with tf.Graph().as_default():
            with tf.Session() as sess:
                got = [sess.run(tf.nn.softmax(tf.constant(c))), sess.run(tf.nn.softmax(tf.constant(c), axis=0))]
        assert tuple(hashlib.sha256(v.tobytes()).hexdigest()[:10] for v in got) == want[shape]


def test_transposed_inputs_keep_the_scalar_tail():
    # Kernels that write their last n % 8 values through a flat view (TF's scalar tail) got
    # Fortran-ordered arrays from transposed inputs, whose flat view is a copy: the tail was
    # lost. Digests recorded from TF 2.21.
    import hashlib
    rng = np.random.RandomState(4)
    x = (rng.randn(6, 5) * 3).astype(np.float32)
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [6, 5])
        t = tf.transpose(p)
        ys = [tf.nn.softmax(t), tf.nn.log_softmax(t),
              tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.ones([5, 6]) / 6, logits=t)]
        c = tf.nn.softmax(tf.constant(np.array([[1., 2., 3.], [4., 5., 6.]], np.float32).T))
        with tf.Session() as sess:
            got = [hashlib.sha256(v.tobytes()).hexdigest()[:10] for v in sess.run(ys + [c], {p: x})]
    assert got == ["2de59d12c9", "b1a1c90aaf", "24e3875248", "bef2be0794"]
