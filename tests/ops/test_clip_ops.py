"""Norm clipping: values against NumPy, TF's names (recorded from real TensorFlow 2.21 compat.v1),
None entries, IndexedSlices, and gradients by finite differences."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

rng = np.random.RandomState(3)
A = rng.standard_normal((2, 3)).astype(np.float32)
B = rng.standard_normal(4).astype(np.float32)


def np_clip_by_norm(t, c, axes=None):
    n = np.sqrt((t.astype(np.float64) ** 2).sum(axis=axes, keepdims=True))
    return (t * c / np.maximum(n, c)).astype(t.dtype)


@pytest.mark.parametrize("clip", [0.5, 100.0])
def test_clip_by_norm_values(clip):
    check_op(lambda t: tf.clip_by_norm(t, clip), [A], np_clip_by_norm(A, clip), rtol=1e-5)
    check_op(lambda t: tf.clip_by_norm(t, clip, axes=[1]), [A], np_clip_by_norm(A, clip, axes=1), rtol=1e-5)
    check_op(lambda t: tf.clip_by_norm(t, clip), [np.zeros((2, 2), np.float32)], np.zeros((2, 2), np.float32))


def test_clip_by_norm_names():
    a = tf.placeholder(tf.float32, [2, 3])
    # TF
    assert tf.clip_by_norm(a, 1.0).name == "clip_by_norm:0"
    t = tf.clip_by_norm(a, 1.0, axes=[1])
    assert t.name == "clip_by_norm_1:0" and t.shape.as_list() == [2, 3]


def test_global_norm_and_clip_by_global_norm():
    a = tf.placeholder(tf.float32, [2, 3], name="a")
    b = tf.placeholder(tf.float32, [4], name="b")
    g = tf.global_norm([a, None, b])
    assert g.name == "global_norm/global_norm:0" and g.shape.as_list() == []  # TF
    clipped, gn = tf.clip_by_global_norm([a, None, b], 1.0)
    # TF
    assert [c if c is None else c.name for c in clipped] == [
        "clip_by_global_norm/clip_by_global_norm/_0:0", None, "clip_by_global_norm/clip_by_global_norm/_2:0"]
    assert gn.name == "global_norm_1/global_norm:0"
    want_norm = np.sqrt((A.astype(np.float64) ** 2).sum() + (B.astype(np.float64) ** 2).sum())
    with tf.Session() as s:
        gv = s.run(g, {a: A, b: B})
        ca, cb, gnv = s.run([clipped[0], clipped[2], gn], {a: A, b: B})
        np.testing.assert_allclose(gv, want_norm, rtol=1e-6)
        np.testing.assert_allclose(gnv, want_norm, rtol=1e-6)
        np.testing.assert_allclose(ca, A / want_norm, rtol=1e-5)
        np.testing.assert_allclose(cb, B / want_norm, rtol=1e-5)
        # A norm below clip_norm leaves the values unchanged; use_norm overrides the computed norm.
        c2, _ = tf.clip_by_global_norm([a, b], 100.0)
        np.testing.assert_allclose(s.run(c2[0], {a: A, b: B}), A, rtol=1e-6)
        c3, n3 = tf.clip_by_global_norm([a], 1.0, use_norm=tf.constant(4.0))
        np.testing.assert_allclose(s.run(c3[0], {a: A}), A / 4.0, rtol=1e-6)
        # An infinite norm makes every value NaN (TF).
        c4, _ = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)
        assert np.all(np.isnan(s.run(c4[0])))


def test_t_list_must_be_a_sequence():
    a = tf.zeros([2, 3])
    with pytest.raises(TypeError, match="`t_list` should be a sequence of tensors. Received"):
        tf.clip_by_global_norm(a, 1.0)
    with pytest.raises(TypeError, match="`t_list` should be a sequence of tensors. Received"):
        tf.global_norm(a)


def test_indexed_slices_stay_sparse():
    emb = tf.Variable(np.ones((5, 2), np.float32))
    gg = tf.gradients(tf.reduce_sum(tf.gather(emb, [0, 2])), emb)[0]
    assert isinstance(gg, tf.IndexedSlices)
    a = tf.constant(A)
    clipped, gn = tf.clip_by_global_norm([gg, a], 1.0)
    assert isinstance(clipped[0], tf.IndexedSlices)
    assert clipped[0].indices is gg.indices
    cn = tf.clip_by_norm(gg, 1.0)
    assert isinstance(cn, tf.IndexedSlices)
    want_norm = np.sqrt(4.0 + (A.astype(np.float64) ** 2).sum())
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        vals, gnv, cnv = s.run([clipped[0].values, gn, cn.values])
    np.testing.assert_allclose(gnv, want_norm, rtol=1e-6)
    np.testing.assert_allclose(vals, np.ones((2, 2)) / want_norm, rtol=1e-5)
    np.testing.assert_allclose(cnv, np.ones((2, 2)) / 2.0, rtol=1e-6)


def test_clip_by_average_norm():
    n = A.size
    l2 = np.sqrt((A.astype(np.float64) ** 2).sum())
    want = A * 0.1 / max(l2 / n, 0.1)
    check_op(lambda t: tf.clip_by_average_norm(t, 0.1), [A], want.astype(np.float32), rtol=1e-5)
    assert tf.clip_by_average_norm(tf.zeros([2, 3]) + 1.0, 1.0).name == "clip_by_average_norm:0"  # TF


def test_clip_gradients():
    x = rng.standard_normal((3, 4))
    check_gradients(lambda t: tf.clip_by_norm(t, 1.0), [x])
    check_gradients(lambda t: tf.clip_by_norm(t, 1.0, axes=[1]), [x])
    check_gradients(lambda t: tf.clip_by_norm(t, 100.0), [x])
    check_gradients(lambda a, b: tf.clip_by_global_norm([a, b], 1.0)[0][0], [x, rng.standard_normal(3)])
    check_gradients(lambda a: tf.global_norm([a]), [x])


def test_clip_by_norm_zero_gradient_is_finite():
    x = tf.zeros([3])
    g = tf.gradients(tf.clip_by_norm(x, 1.0), x)[0]
    with tf.Session() as s:
        assert np.all(np.isfinite(s.run(g)))
