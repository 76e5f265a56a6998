"""tf_order: float32 sums and products added in TF's order, bit for bit.

Expected bit patterns (float32 viewed as int32) were recorded from real TF 2.21 (CPU wheel,
oneDNN on) running the same op on the same inputs; the NumPy references below spell the
measured orders out element by element.
"""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import tf_order

f32 = np.float32


def _g(seed, *shape):
    r = np.random.RandomState(seed)
    return (r.randn(*shape) * np.exp(2 * r.randn(*shape))).astype(f32)


def _bits(a):
    return np.asarray(a, f32).view(np.int32).ravel().tolist()


def _run(fn, *values):
    """fn applied to placeholders fed with values (fed, not constants, so the kernels run)."""
    xs = [tf.placeholder(tf.float32, v.shape) for v in values]
    with tf.Session() as s:
        return s.run(fn(*xs), dict(zip(xs, values)))


# recorded from TF 2.21: tf.reduce_sum(_g(n, n))
@pytest.mark.parametrize("n,bits", [(37, -1051870854), (100, -1017269804), (9000, 1157723172)])
def test_full_sum_matches_tf(n, bits):
    assert _bits(tf_order.reduce_sum(_g(n, n), (0,))) == [bits]
    assert _bits(_run(tf.reduce_sum, _g(n, n))) == [bits]


def test_ops_match_recorded_tf_bits():
    # all recorded from TF 2.21 on the same inputs
    assert _bits(_run(tf.reduce_mean, _g(1, 77))) == [-1117052955]
    assert _bits(_run(lambda x: tf.reduce_sum(x, 0), _g(2, 19, 10))) == [
        1102035293, -1026213719, -1028887555, -1043713901, 1112533048, -1047544547, 1080320444,
        -1058589132, 1090546468, 1133170965]
    assert _bits(_run(lambda x: tf.reduce_sum(x, 1), _g(3, 3, 45))) == [
        -1025969200, -1031014406, 1116971086]
    assert _bits(_run(lambda x: tf.reduce_sum(x, [0, 2]), _g(4, 5, 2, 3))) == [
        -1037760796, 1071625878]
    assert _bits(_run(lambda x: tf.reduce_sum(x, 1), _g(5, 2, 17, 9)))[:6] == [
        1117188804, 1111800060, -1082180688, 1112783210, 1096368521, -1033353640]
    assert _bits(_run(tf.matmul, _g(6, 3, 40), _g(7, 40, 2))) == [
        -1026232782, 1091429691, -1042780151, -1040526819, 1103865474, -1017154487]
    assert _bits(_run(_bias_add_grad, _g(10, 300, 3))) == [
        1139355912, 1136685440, 1126294064]


def _bias_add_grad(g):
    """BiasAddGrad of g, through tf.gradients of a bias_add with grad_ys = g."""
    b = tf.zeros([g.shape[1]])
    return tf.gradients(tf.nn.bias_add(tf.zeros(g.shape), b), [b], grad_ys=g)[0]


def _eigen_sum(v):
    """Eigen's InnerMostDimReducer written out element by element (no tree: len(v) <= 8192)."""
    n, acc, start = len(v), np.zeros(8, f32), 0
    if n >= 32:
        a = [np.zeros(8, f32) for _ in range(4)]
        start = n // 32 * 32
        for j in range(0, start, 32):
            for q in range(4):
                a[q] = a[q] + v[j + 8 * q:j + 8 * q + 8]
        acc = ((a[0] + a[1]) + a[2]) + a[3]
    for j in range(start, n // 8 * 8, 8):
        acc = acc + v[j:j + 8]
    s = f32(0)
    for j in range(n // 8 * 8, n):
        s = f32(s + v[j])
    t = acc[:4] + acc[4:]
    t = t[:2] + t[2:]
    return f32(s + f32(t[0] + t[1]))


@pytest.mark.parametrize("n", [1, 7, 8, 31, 32, 33, 100, 257, 1000])
def test_inner_sum_vectorized_equals_elementwise_order(n):
    x = _g(n + 11, 3, n)
    assert _bits(tf_order.inner_sum(x)) == _bits([_eigen_sum(r) for r in x])


@pytest.mark.parametrize("rows,cols", [(3, 9), (16, 8), (17, 12), (40, 33)])
def test_outer_sum_order(rows, cols):
    x = _g(rows * cols, rows, cols)
    ref = np.zeros(cols, f32)
    for r in x:
        ref = ref + r
    if rows >= 16:  # whole packets of columns: four row accumulators
        cp = cols // 8 * 8
        a = [np.zeros(cp, f32) for _ in range(4)]
        for i in range(rows // 4 * 4):
            a[i % 4] = a[i % 4] + x[i, :cp]
        acc = ((a[0] + a[1]) + a[2]) + a[3]
        for i in range(rows // 4 * 4, rows):
            acc = acc + x[i, :cp]
        ref[:cp] = acc
    assert _bits(tf_order.outer_sum(x)) == _bits(ref)


def test_matmul_is_sequential_fma_in_blocks_of_512():
    a, b = _g(1, 4, 700), _g(2, 700, 3)
    ref = np.zeros((4, 3), f32)
    for k0, k1 in ((0, 512), (512, 700)):
        acc = np.zeros((4, 3), f32)
        for k in range(k0, k1):
            acc = (acc + np.outer(a[:, k].astype(np.float64), b[k])).astype(f32)
        ref = ref + acc
    assert _bits(tf_order.matmul(a, b)) == _bits(ref)
    np.testing.assert_allclose(tf_order.matmul(a, b), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-2)


def test_matmul_exact_only_when_cheap():
    assert tf_order.matmul_exact_ok(100, 3, 1)
    assert not tf_order.matmul_exact_ok(128, 512, 10)   # benchmarks/mlp.py keeps BLAS
    assert not tf_order.matmul_exact_ok(2, 600, 2)      # K past the measured rule
    assert not tf_order.matmul_exact_ok(64, 256, 10)    # LeNet's logits keep BLAS's speed


def test_keep_dims_and_fallbacks():
    x = _g(3, 4, 5, 6)
    r = _run(lambda v: tf.reduce_sum(v, [1], keepdims=True), x)
    assert r.shape == (4, 1, 6)
    np.testing.assert_allclose(r, x.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-3)
    assert tf_order.reduce_sum(_g(1, 2, 3, 4, 5), (0, 2)) is None   # TF transposes first
    assert tf_order.reduce_sum(np.ones((3, 1), f32), (1,)) is None  # nothing to add
    m = _run(lambda v: tf.reduce_mean(v, [0, 2]), x)
    np.testing.assert_allclose(m, x.mean(axis=(0, 2)), rtol=1e-5, atol=1e-3)


def test_add_n_adds_in_tfs_order():
    # TF 2.21 sorts AddN's inputs by name (Grappler) and adds them in groups of 8 after the first
    # n % 8 (aggregate_ops.cc); bit patterns recorded from TF for 11 placeholders p0..p10.
    rng = np.random.RandomState(7)
    vals = (rng.randn(11, 6) * 10 ** rng.uniform(-3, 3, (11, 6))).astype(np.float32)
    with tf.Graph().as_default():
        ph = [tf.placeholder(tf.float32, [6], name="p%d" % i) for i in range(11)]
        with tf.Session() as s:
            out = s.run(tf.add_n(ph), dict(zip(ph, vals)))
    assert out.view(np.int32).tolist() == [-1026010980, 1135229056, 1151937546, -1011501819,
                                           1075676096, 1104323631]
