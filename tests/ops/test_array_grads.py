"""Gradients of array ops against central finite differences (float64), sparse gather
gradients (IndexedSlices, like TF), and gradients of gradients."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients

rng = np.random.RandomState(1)
A = rng.standard_normal((2, 3)).astype(np.float64)
B = rng.standard_normal((2, 3, 4)).astype(np.float64)


@pytest.mark.parametrize("build,inputs", [
    (lambda x: tf.reshape(x, [3, -1]), [A]),
    (lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), [B]),
    (lambda x: tf.transpose(x), [B]),
    (lambda x: tf.transpose(x, [1, 0, 2]), [B]),
    (lambda x: tf.expand_dims(x, 1), [A]),
    (lambda x: tf.squeeze(tf.expand_dims(x, 0)), [A]),
    (lambda x, y: tf.concat([x, y], 0), [A, A[:1]]),
    (lambda x, y: tf.concat([x, y], -1), [A, A[:, :2]]),
    (lambda x, y: tf.stack([x, y], 1), [A, 2 * A]),
    (lambda x: tf.unstack(x, axis=1)[1], [A]),
    (lambda x: tf.stack(tf.unstack(x)[::-1]), [B]),
    (lambda x: tf.split(x, 3, 1)[1], [A]),
    (lambda x: tf.concat(tf.split(x, [1, -1], 2)[::-1], 2), [B]),
    (lambda x: tf.slice(x, [0, 1], [-1, 2]), [A]),
    (lambda x: tf.strided_slice(x, [0, 1], [2, 3]), [A]),
    (lambda x: x[1, ::-2], [A]),
    (lambda x: x[..., None, 1:3], [B]),
    (lambda x: x[:, 0, ::2], [B]),
    (lambda x: tf.gather(x, [1, 0, 1], axis=1), [A]),
    (lambda x: tf.gather(x, [[2, 0], [2, 2]], axis=2), [B]),
    (lambda x: tf.gather_nd(x, [[1, 0], [1, 0], [0, 2]]), [A]),
    (lambda x: tf.scatter_nd([[1], [1], [0]], x, [3, 3]), [A[0:1].repeat(3, 0)]),
    (lambda x: tf.tile(x, [2, 1, 3]), [B]),
    (lambda x: tf.pad(x, [[1, 2], [0, 1]]), [A]),
    (lambda x: tf.pad(x, [[1, 2], [0, 1]], constant_values=2.0), [A]),
    (lambda x: tf.pad(x, [[1, 0], [2, 2]], "REFLECT"), [A]),
    (lambda x: tf.pad(x, [[2, 1], [3, 1]], "SYMMETRIC"), [A]),
    (lambda x: tf.reverse(x, [0, 2]), [B]),
    (lambda x: tf.broadcast_to(x, [4, 2, 3]), [A]),
    (lambda x: tf.broadcast_to(x[:, :1], [2, 5]), [A]),
    (lambda x: tf.fill([2, 2], x[0, 0]), [A]),
    (lambda x: tf.placeholder_with_default(x, [2, None]), [A]),
    (lambda x: tf.identity_n([x, x])[1], [A]),
    (lambda x: tf.matrix_band_part(x, 1, 0), [B]),
    (lambda x: tf.diag(x[0]), [A]),
    (lambda x: tf.diag_part(tf.reshape(x[:, :2], [2, 2])), [A]),
])
def test_gradient(build, inputs):
    check_gradients(build, inputs)


def test_where_select_gradients():
    c = np.array([True, False])
    check_gradients(lambda k, x, y: tf.where(k, x, y), [c, A, 3 * A])
    cc = rng.rand(2, 3) > 0.5
    check_gradients(lambda k, x, y: tf.where(k, x, y), [cc, A, 3 * A])
    check_gradients(lambda k, x, y: tf.where_v2(k, x, y), [cc[0], A, A[:1]])
    with tf.Graph().as_default():
        k = tf.placeholder(tf.bool, [2])
        x = tf.placeholder(tf.float64, [2, 3])
        gk, gx = tf.gradients(tf.where(k, x, x), [k, x])
        assert gk is None and gx is not None


def test_boolean_mask_gradient():
    m = np.array([[True, False, True], [False, True, True]])
    check_gradients(lambda x, k: tf.boolean_mask(x, k), [B, m])
    check_gradients(lambda x, k: tf.boolean_mask(x, k, axis=1), [B, m[0]])


def test_gather_gradient_is_indexed_slices():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float64, [4, 3])
        y = tf.gather(p, [[1, 3], [1, 0]])
        (g,) = tf.gradients(y, [p])
        # TF: axis 0 gives IndexedSlices(values [4, 3], flat indices, dense_shape = shape(params))
        assert isinstance(g, tf.IndexedSlices)
        assert g.values.shape.as_list() == [4, 3] and g.indices.shape.as_list() == [4]
        (g1,) = tf.gradients(tf.gather(p, [2, 0], axis=1), [p])
        assert isinstance(g1, tf.Tensor)  # TF: a dense gradient for axis != 0
        pv = rng.standard_normal((4, 3))
        with tf.Session() as s:
            vals, idx, shape = s.run([g.values, g.indices, g.dense_shape], {p: pv})
            dense = s.run(tf.convert_to_tensor(g), {p: pv})
            d1 = s.run(g1, {p: pv})
    np.testing.assert_array_equal(idx, [1, 3, 1, 0])
    np.testing.assert_array_equal(shape, [4, 3])
    np.testing.assert_array_equal(vals, np.ones((4, 3)))
    want = np.zeros((4, 3))
    np.add.at(want, [1, 3, 1, 0], 1.0)
    np.testing.assert_array_equal(dense, want)
    np.testing.assert_array_equal(d1, np.array([[1, 0, 1]] * 4, np.float64))
    check_gradients(lambda x: tf.gather(x, [[1, 3], [1, 0]]), [rng.standard_normal((4, 3))])


def test_no_gradients_for_index_ops():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [2, 3])
        outs = [tf.zeros_like(x), tf.ones_like(x), tf.one_hot(tf.argmax(x, 1), 3, dtype=tf.float64),
                tf.cast(tf.shape(tf.boolean_mask(x, x > 0)), tf.float64)]
        for o in outs:
            assert tf.gradients(o, [x])[0] is None


def test_second_order_gradients():
    # d/dx sum(u * d/dx sum(w * f(x))) exercises the gradients of the gradient ops
    # (StridedSliceGrad, TileGrad, MirrorPadGrad, ScatterNd, SumToShape, Pad/Slice, ConcatOffset).
    for f, x in [
        (lambda t: t[1:, ::-1] * t[1:, ::-1], A),
        (lambda t: tf.tile(t, [2, 2]) ** 2, A),
        (lambda t: tf.pad(t, [[1, 1], [2, 1]], "REFLECT") ** 2, A),
        (lambda t: tf.gather_nd(t, [[0, 1], [0, 1]]) ** 2, A),
        (lambda t: tf.broadcast_to(t[:1], [3, 3]) ** 2, A),
        (lambda t: tf.slice(t, [0, 1], [2, 2]) ** 2, A),
        (lambda t: tf.concat([t, t[:, :1]], 1) ** 2, A),
        (lambda t: tf.gather(t, [1, 1, 0]) ** 2, A),
    ]:
        def grad_of(t, f=f):
            y = f(t)
            w = tf.constant(rng.standard_normal(y.shape.as_list()))
            (g,) = tf.gradients(y, [t], grad_ys=w)
            return tf.convert_to_tensor(g)
        check_gradients(grad_of, [x])


def test_slice_strided_slice_and_tile_gradients_build_tfs_ops():
    # op lists recorded from TF 2.21 (tf.gradients of reduce_sum of the op)
    g = tf.get_default_graph()
    x = tf.placeholder(tf.float32, [None, 4])

    def grad_ops(y):
        s = tf.reduce_sum(y)
        n = len(g.get_operations())
        tf.gradients(s, x)
        return [o.name.split("/", 1)[1] for o in g.get_operations()[n:] if "_grad/" in o.name
                and "Sum" not in o.name.split("/")[1]]

    assert grad_ops(x[:, 1:3]) == ["strided_slice_grad/Shape", "strided_slice_grad/StridedSliceGrad/begin",
                                   "strided_slice_grad/StridedSliceGrad/end",
                                   "strided_slice_grad/StridedSliceGrad/strides",
                                   "strided_slice_grad/StridedSliceGrad"]
    assert grad_ops(tf.slice(x, [0, 1], [-1, 2])) == [
        "Slice_grad/Rank", "Slice_grad/Shape", "Slice_grad/stack/1", "Slice_grad/stack", "Slice_grad/Reshape",
        "Slice_grad/Shape_1", "Slice_grad/sub", "Slice_grad/sub_1", "Slice_grad/Reshape_1",
        "Slice_grad/concat/axis", "Slice_grad/concat", "Slice_grad/Pad"]
    assert grad_ops(tf.tile(x, [2, 3])) == [
        "Tile_grad/Shape", "Tile_grad/stack", "Tile_grad/transpose/perm", "Tile_grad/transpose",
        "Tile_grad/Reshape/shape", "Tile_grad/Reshape", "Tile_grad/Size", "Tile_grad/range/start",
        "Tile_grad/range/delta", "Tile_grad/range", "Tile_grad/Reshape_1", "Tile_grad/Sum"]


def test_tile_gradient_values():
    x = np.random.RandomState(0).randn(2, 3)
    check_gradients(lambda t: tf.tile(t, [2, 3]), [x])
    check_gradients(lambda t: tf.tile(t, tf.constant([1, 2], tf.int64)), [x])
    check_gradients(lambda t: tf.slice(t, [1, 0], [1, -1]), [x])


def test_broadcast_to_gradient_builds_tfs_ops():
    c = tf.constant(np.arange(12.).reshape(3, 4), dtype=tf.float32)
    s = tf.reduce_sum(tf.broadcast_to(c, [2, 3, 4]))
    g = tf.get_default_graph()
    n = len(g.get_operations())
    tf.gradients(s, c)
    names = [o.name for o in g.get_operations()[n:] if "BroadcastTo_grad" in o.name]
    assert names == ["gradients/BroadcastTo_grad/Shape", "gradients/BroadcastTo_grad/Const",
                     "gradients/BroadcastTo_grad/BroadcastGradientArgs", "gradients/BroadcastTo_grad/Sum",
                     "gradients/BroadcastTo_grad/Reshape"]  # TF 2.21
    x = np.random.RandomState(0).randn(3, 1)
    check_gradients(lambda t: tf.broadcast_to(t, [2, 3, 4]), [x])


@pytest.mark.parametrize("axis", [1, 2, -1, -3])
def test_gather_gradient_along_other_axes(axis):
    x = np.random.RandomState(0).randn(3, 4, 5)
    check_gradients(lambda t: tf.gather(t, [2, 0, 2], axis=axis), [x])


def test_gather_axis1_gradient_builds_tfs_ops():
    x = tf.placeholder(tf.float32, [None, 4])
    s = tf.reduce_sum(tf.gather(x, [0, 2], axis=1))
    g = tf.get_default_graph()
    n = len(g.get_operations())
    gr = tf.gradients(s, x)[0]
    names = [o.name.replace("gradients/GatherV2_grad/", "") for o in g.get_operations()[n:]
             if "GatherV2_grad" in o.name]
    # recorded from TF 2.21
    assert names[:4] == ["Shape", "Size", "ExpandDims/dim", "ExpandDims"]
    assert names[-10:] == ["Reshape_1", "UnsortedSegmentSum", "add_2/y", "add_2", "concat_2/values_2",
                           "concat_2/axis", "concat_2", "transpose_1", "Shape_1", "Reshape_2"]
    assert gr.name == "gradients/GatherV2_grad/Reshape_2:0" and gr.shape.as_list() == [None, 4]
