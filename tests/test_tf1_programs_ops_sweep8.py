"""Op-builder parity found in the 2026-12-07 sweep; expected names, classes and messages recorded
from TF 2.21 (tensorflow.compat.v1, graph mode)."""
import numpy as np
import pytest

import tensorweave as tf


def test_unstack_num_is_an_int_attr_as_tf_makes_it():
    with tf.Graph().as_default():
        x = tf.constant([[1., 2.], [3., 4.]])
        assert [u.name for u in tf.unstack(x, num=2.5)] == ["unstack:0", "unstack:1"]
        with pytest.raises(TypeError, match=r"^Expected int for argument 'num' not '2'\.$"):
            tf.unstack(x, num="2")
        assert [u.name for u in tf.unstack(x, num=2, axis=1.0)] == ["unstack_1:0", "unstack_1:1"]
        with pytest.raises(ValueError, match=r"^Attr 'num' of 'Unpack' Op passed -1 less than minimum 0\.$"):
            tf.unstack(x, num=-1)
        # The failed build above took the name "unstack_2", as TF's op builder does.
        with pytest.raises(ValueError, match=r"Dimension must be 3 but is 2 for '\{\{node unstack_3\}\}"):
            tf.unstack(x, num=3)


def test_shape_n_outputs_are_static_shapes_for_shape_functions():
    # TF's shape refiner reads a ShapeN output like a Shape: tf.image.ssim tiles its kernel by
    # shape1[-1] from shape_n, and TF reports the tiled kernel as [11,11,3,1].
    with tf.Graph().as_default():
        a, b = tf.shape_n([tf.zeros([2, 3, 4]), tf.zeros([5, 6])])
        assert tf.tile(tf.zeros([1, 1]), [1, a[-1]]).shape.as_list() == [1, 4]
        assert tf.reshape(tf.zeros([30]), tf.stack([b[0], -1])).shape.as_list() == [5, 6]
        assert tf.zeros(b[:1]).shape.as_list() == [5]
        img = tf.zeros([2, 9, 11, 3])
        with pytest.raises(ValueError, match=r"with input shapes: \[2,9,11,3\], \[11,11,3,1\]\.$"):
            tf.image.ssim(img, img, 1.0)


def test_rgb_to_hsv_hue_rounds_as_tf():
    # TF's norm is range.inverse() * (T(1) / T(6)), not 1 / (6 * range): the hue differed in the
    # last bit on about a tenth of pixels.
    px = np.frombuffer(bytes.fromhex(
        "a8954c3f0647ec3ec3d0473f3dae583f1311333fa849983e75ac4e3f96b0113f547ad03e83915e3de4cb4c3e"
        "05bb973cbc966d3f8154343f8a69023d"), np.float32).reshape(5, 3)
    with tf.Session(graph=tf.Graph()) as s:
        with s.graph.as_default():
            hsv = s.run(tf.image.rgb_to_hsv(tf.constant(px)))
    assert hsv[:, 0].tobytes().hex() == "ecaf573f2ffaf93d691f8a3d3cd3993e3113003e"


def test_feeding_nan_to_an_int_placeholder_casts_silently():
    import warnings
    with tf.Graph().as_default():
        q = tf.placeholder(tf.int32, [])
        with tf.Session() as s, warnings.catch_warnings():
            warnings.simplefilter("error")
            got = s.run(q, {q: float("nan")})
    assert got == -2147483648     # recorded from TF 2.21 on x86-64


def test_einsum_equation_errors_as_tf_python_parse():
    with tf.Graph().as_default():
        x, y = tf.ones([2, 2]), tf.ones([2, 3])
        with pytest.raises(ValueError, match=r"^Output subscripts contain the label l not present in the input subscripts\.$"):
            tf.einsum("ij,jk->il", x, y)
        with pytest.raises(ValueError, match=r"^Output subscripts contain the label l not present"):
            tf.einsum("ij,jk->il", tf.placeholder(tf.float32), y)
        with pytest.raises(ValueError, match=r"^Shape must be rank 3 but is rank 2$"):
            tf.einsum("ijk,jk->ik", x, y)
        with pytest.raises(ValueError, match=r'^Got 2 inputs for equation "ij,jk,kl->il", expecting 3$'):
            tf.einsum("ij,jk,kl->il", x, y)
        with pytest.raises(ValueError, match=r"^Output subscripts contain a label appearing more than once: ij,jk->ii$"):
            tf.einsum("ij,jk->ii", x, y)


def test_conv1d_folds_extra_batch_dims_as_tf():
    # TF 2.21's conv1d runs squeeze_batch_dims for inputs of rank > 3; names and static shapes
    # recorded from TF 2.21; values against conv1d of the folded batch.
    rng = np.random.RandomState(0)
    xv, wv = rng.rand(2, 3, 5, 4).astype(np.float32), rng.rand(2, 4, 6).astype(np.float32)
    with tf.Graph().as_default() as g:
        x = tf.constant(xv)
        y = tf.nn.conv1d(x, tf.constant(wv), 1, "SAME")
        z = tf.nn.conv1d(tf.placeholder(tf.float32, [None, 3, 5, 4]), wv, 2, "VALID")
        zz = tf.nn.conv1d(tf.placeholder(tf.float32, [2, None, None, 4]), wv, 1, "SAME")
        ref = tf.nn.conv1d(tf.constant(xv.reshape(6, 5, 4)), tf.constant(wv), 1, "SAME")
        assert (y.name, y.shape.as_list()) == ("conv1d/Squeeze:0", [2, 3, 5, 6])
        assert z.shape.as_list() == [None, 3, 2, 6] and zz.shape.as_list() == [2, None, None, 6]
        assert sorted(o.name for o in g.get_operations() if o.name.startswith("conv1d/")) == [
            "conv1d/Conv2D", "conv1d/ExpandDims", "conv1d/ExpandDims/dim", "conv1d/ExpandDims_1",
            "conv1d/ExpandDims_1/dim", "conv1d/Reshape", "conv1d/Reshape/shape", "conv1d/Reshape_1",
            "conv1d/Squeeze", "conv1d/concat", "conv1d/concat/axis", "conv1d/concat/values_0",
            "conv1d/concat/values_1"]
        gx = tf.gradients(tf.reduce_sum(y), x)[0]
        with tf.Session() as s:
            got, want, gxv = s.run([y, ref, gx])
    np.testing.assert_array_equal(got.reshape(6, 5, 6), want)
    assert gxv.shape == (2, 3, 5, 4)


def test_softmax_with_an_axis_tensor_builds_tfs_swaps():
    # TF's _wrap_2d_function with a tensor `dim`: Less/Select to wrap a negative axis, Rank,
    # transposes by a run-time perm; names and values recorded from TF 2.21.
    rng = np.random.RandomState(0)
    xv = rng.rand(2, 3, 4).astype(np.float32)
    with tf.Graph().as_default() as g:
        x = tf.constant(xv)
        ax = tf.placeholder(tf.int32, [])
        y = tf.nn.softmax(x, axis=ax)
        y2 = tf.nn.log_softmax(x, axis=tf.constant(0))
        y3 = tf.nn.softmax(x, axis=tf.constant(1), name="sm")
        assert (y.name, y.shape.as_list(), y2.name, y3.name) == ("transpose_1:0", [2, 3, 4], "transpose_3:0", "sm:0")
        names = sorted(o.name for o in g.get_operations())
        assert names[:12] == ["Const", "Const_1", "Const_2", "Less", "Less/y", "Less_1", "Less_1/y", "Less_2",
                              "Less_2/y", "LogSoftmax", "Placeholder", "Rank"]
        assert "Select_2" in names and "Softmax_1" in names
        gx = tf.gradients(tf.reduce_sum(y * y), x)[0]
        with tf.Session() as s:
            for a, want in [(0, "db89fd3eb22ae53e3440213f91cb1c3faf79193f"),
                            (1, "52be963eb527c13eb78da73e33a4963e6e02853e"),
                            (-2, "52be963eb527c13eb78da73e33a4963e6e02853e")]:
                got, grad = s.run([y, gx], {ax: a})
                assert got.tobytes().hex()[:40] == want
                e = np.exp(xv - xv.max(axis=a, keepdims=True))
                np.testing.assert_allclose(got, e / e.sum(axis=a, keepdims=True), rtol=1e-6)
                assert abs(float(grad.astype(np.float64).sum())) < 1e-5    # softmax rows sum to 1
            assert s.run(y2).tobytes().hex()[:40] == "49eb33bfb9ca4dbfa8a7ecbe5900fbbeaefa02bf"
            with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start <= limit"):
                s.run(y, {ax: -1})     # (TF's own wrap: range(3, 2) for the last axis given as a tensor)


def test_where_handles_ranks_1_to_8_as_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        for c in (tf.constant(True), tf.ones([1] * 9, tf.bool)):
            with pytest.raises(tf.errors.InvalidArgumentError, match="WhereOp : Unhandled input dimensions"):
                s.run(tf.where(c))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Unhandled input dimensions: 0"):
            s.run(tf.sparse.from_dense(tf.constant(3.)))
        assert s.run(tf.where(tf.ones([1] * 8, tf.bool))).shape == (1, 8)


def test_sparse_tensor_in_a_dense_binary_op_fails_with_tfs_messages():
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0, 0]], [1.], [2, 2])
        desc = ('SparseTensor(indices=Tensor("SparseTensor/indices:0", shape=(1, 2), dtype=int64), '
                'values=Tensor("SparseTensor/values:0", shape=(1,), dtype=float32), '
                'dense_shape=Tensor("SparseTensor/dense_shape:0", shape=(2,), dtype=int64))')
        inner = f"Expected float32, but got {desc} of type 'SparseTensor'."
        with pytest.raises(TypeError) as e:
            sp + tf.ones([2, 2])
        assert str(e.value) == inner
        with pytest.raises(TypeError) as e:
            tf.ones([2, 2]) + sp
        assert str(e.value) == (f"Expected float32 passed to parameter 'y' of op 'AddV2', got {desc} of type "
                                f"'SparseTensor' instead. Error: {inner}")
        with pytest.raises(TypeError, match="^Failed to convert elements of SparseTensor"):
            tf.convert_to_tensor(sp)
