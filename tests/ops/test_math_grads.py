"""Gradients of math ops against central finite differences (float64), incl. broadcasting,
unknown static shapes, and second derivatives."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients

rng = np.random.RandomState(1)
X = rng.standard_normal((2, 3))
Y = rng.standard_normal((2, 3))
POS = rng.uniform(0.5, 2.0, (2, 3))
UNIT = rng.uniform(-0.8, 0.8, (2, 3))
# Distinct values so max/min and comparisons are not at ties.
DISTINCT = (rng.permutation(24).reshape(2, 3, 4) - 12.0) / 7.0


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


UNARY = [
    (tf.negative, X), (tf.abs, X), (tf.square, X), (tf.sqrt, POS), (tf.rsqrt, POS), (tf.exp, X),
    (tf.log, POS), (tf.log1p, POS), (tf.expm1, X), (tf.sin, X), (tf.cos, X), (tf.tan, UNIT),
    (tf.asin, UNIT), (tf.acos, UNIT), (tf.atan, X), (tf.sinh, X), (tf.cosh, X), (tf.tanh, X),
    (tf.sigmoid, X), (tf.log_sigmoid, X), (tf.math.erf, X), (tf.reciprocal, POS),
    (lambda x: tf.clip_by_value(x, -0.5, 0.5), X),
    (lambda x: tf.cumsum(x, 1), X), (lambda x: tf.cumsum(x, 1, exclusive=True, reverse=True), X),
    (lambda x: tf.cumprod(x, 1), POS), (lambda x: tf.cumprod(x, 0, exclusive=True, reverse=True), POS),
    (lambda x: tf.add_n([x, x * x, x]), X),
    (lambda x: tf.scalar_mul(3.0, x), X),
]


@pytest.mark.parametrize("fn,x", UNARY)
def test_unary_gradients(fn, x):
    check_gradients(fn, [x])


BINARY = [
    lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b, lambda a, b: a / b,
    lambda a, b: tf.add(a, b), tf.maximum, tf.minimum, tf.squared_difference, tf.atan2,
    lambda a, b: tf.div_no_nan(a, b), lambda a, b: tf.realdiv(a, b),
    lambda a, b: tf.pow(tf.abs(a) + 0.5, b), lambda a, b: a % b,
]


@pytest.mark.parametrize("fn", BINARY)
@pytest.mark.parametrize("shapes", [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((), (2, 3)),
                                    ((4, 1, 3), (2, 1))])
def test_binary_gradients_with_broadcasting(fn, shapes):
    a = rng.standard_normal(shapes[0]) + 3.0   # positive and away from zero for / and %
    b = rng.standard_normal(shapes[1]) + 3.0
    if fn in (tf.maximum, tf.minimum):
        b = b + 0.1  # keep ties away
    check_gradients(fn, [a, b])


def test_broadcast_gradient_with_unknown_static_shapes():
    def build(a, b):
        # hide the static shapes: the reduction axes must be found at run time
        a2 = tf.placeholder_with_default(a, [None, None])
        b2 = tf.placeholder_with_default(b, [None])
        return a2 * b2 + b2
    check_gradients(build, [X, Y[0]])

    def build_bias(x, b):
        x2 = tf.placeholder_with_default(x, [None, 3])
        return tf.matmul(x2, tf.ones([3, 3], tf.float64)) + b  # the [None, 3] + [3] case
    check_gradients(build_bias, [X, Y[0]])


def test_broadcast_gradient_args_kernel():
    from tensorweave.ops.math_ops import broadcast_gradient_args
    a, b = broadcast_gradient_args([2, 3, 1, 5], [3, 4, 1])
    got = _run([a, b])
    assert got[0].tolist() == [2] and got[1].tolist() == [0, 3]


@pytest.mark.parametrize("reduce", [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_min,
                                    tf.reduce_prod, tf.reduce_logsumexp])
@pytest.mark.parametrize("axis", [None, 0, -1, [0, 2], 1])
@pytest.mark.parametrize("keep", [False, True])
def test_reduction_gradients(reduce, axis, keep):
    check_gradients(lambda x: reduce(x, axis=axis, keepdims=keep), [DISTINCT])


def test_reduction_gradients_unknown_shapes():
    def build(x):
        x2 = tf.placeholder_with_default(x, [None, None, 4])
        return tf.reduce_sum(x2, 1) + tf.reduce_mean(x2, [0, 1]) + tf.reduce_max(x2, 1)
    check_gradients(build, [DISTINCT])

    def build_dyn_axes(x):
        x2 = tf.placeholder_with_default(x, None)
        ax = tf.placeholder_with_default(tf.constant([1]), [None])
        return tf.reduce_sum(x2, ax) * 2.0 + tf.reduce_mean(x2)
    check_gradients(build_dyn_axes, [DISTINCT])


def test_max_gradient_splits_ties_like_tf():
    x = tf.constant([[1.0, 3.0, 3.0], [2.0, 0.0, 2.0]])
    g = tf.gradients(tf.reduce_max(x, 1), x)[0]
    assert _run(g).tolist() == [[0.0, 0.5, 0.5], [0.5, 0.0, 0.5]]
    # Maximum gives ties to x (TF's greater_equal mask)
    a, b = tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0])
    ga, gb = tf.gradients(tf.maximum(a, b), [a, b])
    assert _run(ga).tolist() == [1.0, 0.0] and _run(gb).tolist() == [0.0, 1.0]


def test_prod_gradient_with_zeros():
    x = tf.constant([[2.0, 0.0, 3.0], [1.0, 2.0, 3.0]])
    g = tf.gradients(tf.reduce_prod(x, 1), x)[0]
    assert _run(g).tolist() == [[0.0, 6.0, 0.0], [6.0, 3.0, 2.0]]


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_gradients(ta, tb):
    a = rng.standard_normal((3, 4) if ta else (4, 3))
    b = rng.standard_normal((5, 3) if tb else (3, 5))
    check_gradients(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), [a, b])


@pytest.mark.parametrize("shapes", [((2, 4, 3), (2, 3, 5)), ((2, 1, 4, 3), (3, 3, 5)), ((4, 3), (2, 3, 5)),
                                    ((2, 4, 3), (3, 5))])
@pytest.mark.parametrize("adj", [(False, False), (True, True)])
def test_batch_matmul_gradients(shapes, adj):
    a = rng.standard_normal(shapes[0])
    b = rng.standard_normal(shapes[1])
    if adj[0]:
        a = np.swapaxes(a, -1, -2).copy()
    if adj[1]:
        b = np.swapaxes(b, -1, -2).copy()
    check_gradients(lambda x, y: tf.matmul(x, y, adjoint_a=adj[0], adjoint_b=adj[1]), [a, b])


def test_batch_matmul_gradient_unknown_batch():
    def build(x, y):
        x2 = tf.placeholder_with_default(x, [None, 4, 3])
        y2 = tf.placeholder_with_default(y, [None, 3, 5])
        return tf.matmul(x2, y2)
    check_gradients(build, [rng.standard_normal((1, 4, 3)), rng.standard_normal((2, 3, 5))])


def test_tensordot_einsum_gradients():
    a = rng.standard_normal((2, 3, 4))
    b = rng.standard_normal((4, 3, 2))
    check_gradients(lambda x, y: tf.tensordot(x, y, [[1, 2], [1, 0]]), [a, b])
    check_gradients(lambda x, y: tf.einsum("bij,jkl->bikl", x, y), [a, b])
    check_gradients(lambda x, y: tf.einsum("bij,jkb->k", x, y), [a, b])   # summed-out labels
    check_gradients(lambda x: tf.einsum("...ij->...j", x), [a])
    # dimensions unknown to the graph: TF's Shape/Gather/Prod graph around the MatMul
    check_gradients(lambda x, y: tf.tensordot(tf.placeholder_with_default(x, [None, 3, None]), y,
                                              [[1, 2], [1, 0]]), [a, b])


def test_segment_gradients():
    data = rng.standard_normal((5, 3))
    check_gradients(lambda d: tf.unsorted_segment_sum(d, tf.constant([3, 0, 3, -1, 0]), 4), [data])
    check_gradients(lambda d: tf.segment_sum(d, tf.constant([0, 0, 1, 3, 3])), [data])
    check_gradients(lambda d: tf.segment_mean(d, tf.constant([0, 0, 1, 3, 3])), [data])


def test_non_differentiable_ops_give_none():
    x = tf.placeholder(tf.float64, [3])
    for y in [tf.floor(x), tf.ceil(x), tf.round(x), tf.cast(tf.argmax(x), tf.float64),
              tf.cast(x > 0, tf.float64), tf.floordiv(x, 2.0)]:
        assert tf.gradients(y, x)[0] is None
    g = tf.gradients(tf.sign(x), x)[0]
    assert _run(g, {x: [1.0, -2.0, 0.0]}).tolist() == [0.0, 0.0, 0.0]
    assert tf.gradients(tf.cast(tf.cast(x, tf.int32), tf.float64), x)[0] is None


def test_cast_gradient_casts_back():
    x = tf.constant([1.0, 2.0], tf.float64)
    g = tf.gradients(tf.cast(x, tf.float32) * 3.0, x)[0]
    assert g.dtype == tf.float64 and _run(g).tolist() == [3.0, 3.0]


def test_float32_gradients_stay_float32():
    x = tf.constant(rng.standard_normal((4, 3)).astype(np.float32))
    w = tf.constant(rng.standard_normal((3, 2)).astype(np.float32))
    b = tf.constant(np.zeros(2, np.float32))
    loss = tf.reduce_mean(tf.square(tf.sigmoid(tf.matmul(x, w) + b) - 1.0))
    grads = _run(tf.gradients(loss, [w, b]))
    assert all(g.dtype == np.float32 for g in grads)
    assert grads[1].shape == (2,)


SECOND_ORDER = [
    (tf.tanh, X), (tf.sigmoid, X), (tf.sqrt, POS), (tf.rsqrt, POS), (tf.reciprocal, POS), (tf.exp, X),
    (lambda x: tf.reduce_sum(x * x * x, 1), X), (lambda x: tf.pow(x, 3.0), POS),
    (lambda x: tf.reduce_logsumexp(x, 1), X),
    (lambda x: tf.matmul(x, x, transpose_b=True), X),
]


@pytest.mark.parametrize("fn,x", SECOND_ORDER)
def test_second_derivatives(fn, x):
    def grad_of(v):
        return tf.gradients(fn(v), v)[0]
    check_gradients(grad_of, [x], tol=1e-5)
