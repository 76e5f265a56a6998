"""Build-time errors of array ops: TF's messages, including the input values and partial
shapes the shape function read ("... and with computed input tensors: input[1] = <0 2>.").
Every expected string below was recorded from TF 2.21 (tf.compat.v1, graph mode)."""

import numpy as np
import pytest

import tensorweave as tf


def _err(fn):
    with tf.Graph().as_default():
        x = tf.constant(np.zeros([2, 3], np.float32))
        with pytest.raises(ValueError) as info:
            fn(x)
    return str(info.value)


@pytest.mark.parametrize("fn, expected", [
    (lambda x: tf.reshape(x, [-1, 4]),
     "Dimension size must be evenly divisible by 4 but is 6 for '{{node Reshape}} = Reshape[T=DT_FLOAT, "
     "Tshape=DT_INT32](Const, Reshape/shape)' with input shapes: [2,3], [2] and with input tensors computed "
     "as partial shapes: input[1] = [?,4]."),
    (lambda x: tf.transpose(x, [0, 2]),
     "perm dim 2 is out of range of input rank 2 for '{{node transpose}} = Transpose[T=DT_FLOAT, "
     "Tperm=DT_INT32](Const, transpose/perm)' with input shapes: [2,3], [2] and with computed input "
     "tensors: input[1] = <0 2>."),
    (lambda x: x[:, 5],
     "slice index 5 of dimension 1 out of bounds. for '{{node strided_slice}} = StridedSlice[Index=DT_INT32, "
     "T=DT_FLOAT, begin_mask=1, ellipsis_mask=0, end_mask=1, new_axis_mask=0, shrink_axis_mask=2](Const, "
     "strided_slice/stack, strided_slice/stack_1, strided_slice/stack_2)' with input shapes: [2,3], [2], "
     "[2], [2] and with computed input tensors: input[1] = <0 5>, input[2] = <0 6>, input[3] = <1 1>."),
    (lambda x: x[:, :, 1],
     "Index out of range using input dim 2; input has only 2 dims for '{{node strided_slice}} = "
     "StridedSlice[Index=DT_INT32, T=DT_FLOAT, begin_mask=3, ellipsis_mask=0, end_mask=3, new_axis_mask=0, "
     "shrink_axis_mask=4](Const, strided_slice/stack, strided_slice/stack_1, strided_slice/stack_2)' with "
     "input shapes: [2,3], [3], [3], [3] and with computed input tensors: input[3] = <1 1 1>."),
    (lambda x: tf.slice(x, [0, 4], [1, -1]),
     "Negative dimension size caused by subtracting 4 from 3 for '{{node Slice}} = Slice[Index=DT_INT32, "
     "T=DT_FLOAT](Const, Slice/begin, Slice/size)' with input shapes: [2,3], [2], [2] and with input tensors "
     "computed as partial shapes: input[1] = [0,4],input[2] = [1,?]."),
    (lambda x: tf.pad(x, [[1, 1], [-1, 1]], constant_values=2.0),
     "Paddings must be non-negative for '{{node PadV2}} = PadV2[T=DT_FLOAT, Tpaddings=DT_INT32](Const, "
     "PadV2/paddings, PadV2/constant_values)' with input shapes: [2,3], [2,2], [] and with computed input "
     "tensors: input[1] = <[1 1][-1 1]>."),
    (lambda x: tf.split(x, [1, 5], axis=1),
     "can't split axis of size 3 into pieces of size [1,5] for '{{node split}} = SplitV[T=DT_FLOAT, "
     "Tlen=DT_INT32, num_split=2](Const, Const_1, split/split_dim)' with input shapes: [2,3], [2], [] and "
     "with computed input tensors: input[1] = <1 5>, input[2] = <1>."),
    (lambda x: tf.split(x, 2, axis=1),
     "Dimension size must be evenly divisible by 2 but is 3\n\tNumber of ways to split should evenly divide "
     "the split dimension for '{{node split}} = Split[T=DT_FLOAT, num_split=2](split/split_dim, Const)' with "
     "input shapes: [], [2,3] and with computed input tensors: input[0] = <1>."),
    (lambda x: tf.concat([x, x], 2),
     "Shape must be at least rank 3 but is rank 2 for '{{node concat}} = ConcatV2[N=2, T=DT_FLOAT, "
     "Tidx=DT_INT32](Const, Const, concat/axis)' with input shapes: [2,3], [2,3], [] and with computed "
     "input tensors: input[2] = <2>."),
    (lambda x: tf.stack([x, x, tf.zeros([2, 2])], 1),
     "Dimension 1 in both shapes must be equal, but are 3 and 2. Shapes are [2,3] and [2,2].\n\tFrom merging "
     "shape 1 with other shapes. for '{{node stack}} = Pack[N=3, T=DT_FLOAT, axis=1](Const, Const, zeros)' "
     "with input shapes: [2,3], [2,3], [2,2]."),
    (lambda x: tf.expand_dims(x, 5),
     "dim 5 not in the interval [-3, 2]. for '{{node ExpandDims}} = ExpandDims[T=DT_FLOAT, Tdim=DT_INT32]"
     "(Const, ExpandDims/dim)' with input shapes: [2,3], [] and with computed input tensors: input[1] = <5>."),
    (lambda x: tf.squeeze(x, [3]),
     "squeeze_dims[0] not in [-2,2). for '{{node Squeeze}} = Squeeze[T=DT_FLOAT, squeeze_dims=[3]](Const)' "
     "with input shapes: [2,3]."),
    (lambda x: tf.one_hot([1, 2], -2),
     "Dimension size, given by scalar input 1, must be non-negative but is -2 for '{{node one_hot}} = "
     "OneHot[T=DT_FLOAT, TI=DT_INT32, axis=-1](one_hot/indices, one_hot/depth, one_hot/on_value, "
     "one_hot/off_value)' with input shapes: [2], [], [], [] and with computed input tensors: input[1] = <-2>."),
    (lambda x: tf.broadcast_to(x, [3, 3]),
     "Dimensions must be equal, but are 2 and 3 for '{{node BroadcastTo}} = BroadcastTo[T=DT_FLOAT, "
     "Tidx=DT_INT32](Const, BroadcastTo/shape)' with input shapes: [2,3], [2] and with input tensors "
     "computed as partial shapes: input[1] = [3,3]."),
    (lambda x: tf.range(1., 5., -1.),
     "Requires start >= limit when delta < 0: 1/5 for '{{node range}} = Range[Tidx=DT_FLOAT](range/start, "
     "range/limit, range/delta)' with input shapes: [], [], [] and with computed input tensors: input[0] = "
     "<1>, input[1] = <5>, input[2] = <-1>."),
    (lambda x: tf.zeros([2, -1]),
     "Fill dimensions must be >= 0 for '{{node zeros}} = Fill[T=DT_FLOAT, index_type=DT_INT32](zeros/Const, "
     "zeros/Const_1)' with input shapes: [2], [] and with input tensors computed as partial shapes: "
     "input[0] = [2,?]."),
    (lambda x: tf.batch_to_space_nd(tf.zeros([8, 2, 2, 1]), [2, 2], [[0, 0], [0, 5]]),
     "Negative dimension size caused by subtracting 5 from 4 for '{{node BatchToSpaceND}} = BatchToSpaceND["
     "T=DT_FLOAT, Tblock_shape=DT_INT32, Tcrops=DT_INT32](zeros, BatchToSpaceND/block_shape, "
     "BatchToSpaceND/crops)' with input shapes: [8,2,2,1], [2], [2,2] and with computed input tensors: "
     "input[1] = <2 2>, input[2] = <[0 0][0 5]>."),
    (lambda x: tf.ensure_shape(x, [None, 2]),
     "Dimension 1 in both shapes must be equal, but are 2 and 3. Shapes are [?,2] and [2,3]. for '{{node "
     "EnsureShape}} = EnsureShape[T=DT_FLOAT, shape=[?,2]](Const)' with input shapes: [2,3]."),
    (lambda x: tf.depth_to_space(tf.zeros([1, 2, 2, 3]), 2),
     "Dimension size must be evenly divisible by 4 but is 3 for '{{node DepthToSpace}} = DepthToSpace["
     "T=DT_FLOAT, block_size=2, data_format=\"NHWC\"](zeros)' with input shapes: [1,2,2,3]."),
])
def test_shape_function_errors_carry_tf_context(fn, expected):
    assert _err(fn) == expected


@pytest.mark.parametrize("fn", [
    lambda x: tf.reshape(x, [-2, 3]),
    lambda x: tf.tile(x, [-2, 3]),
    lambda x: tf.broadcast_to(x, [-2, 3]),
    lambda x: tf.slice(x, [0, 0], [-2, 1]),
    lambda x: tf.scatter_nd([[0]], [1.], [-2]),
])
def test_shape_tensor_below_minus_one_is_tfs_context_free_error(fn):
    assert _err(fn) == "Invalid value in tensor used for shape: -2"


def test_set_shape_and_static_broadcast_messages():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None, 3])
        with pytest.raises(ValueError, match=r"^Dimension 1 in both shapes must be equal, but are 3 and 4\. "
                                             r"Shapes are \[\?,3\] and \[4,4\]\.$"):
            p.set_shape([4, 4])
        with pytest.raises(ValueError, match=r"^Shapes must be equal rank, but are 2 and 1$"):
            p.set_shape([None])
        with pytest.raises(ValueError, match=r"Received: \(2, 3\) and \(4,\)\.$"):
            tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4]))


def test_minus_one_in_shape_tensors_reads_as_unknown():
    # TF: multiples/shape -1 is an unknown dimension in shape inference (values recorded from TF)
    with tf.Graph().as_default():
        x = tf.constant(np.zeros([2, 3], np.float32))
        assert tf.tile(x, [-1, 3]).shape.as_list() == [None, 9]
        assert tf.broadcast_to(x, [-1, 3]).shape.as_list() == [2, 3]
        assert tf.one_hot([1, 2], 3, axis=3).shape.as_list() == [2, 3]


def test_pad_keeps_dimensions_whose_paddings_are_known():
    with tf.Graph().as_default():
        x = tf.constant(np.zeros([2, 3], np.float32))
        n = tf.placeholder(tf.int32, [])
        assert tf.pad(x, [[0, 0], [0, n]]).shape.as_list() == [2, None]
        p = tf.placeholder(tf.float32, [None, 3])
        assert tf.pad(p, [[1, 1], [2, n]], "REFLECT").shape.as_list() == [None, None]
        assert tf.pad(p, [[1, 1], [2, 1]], "SYMMETRIC").shape.as_list() == [None, 6]
        with tf.Session() as sess:
            out = sess.run(tf.pad(x, [[0, 0], [0, n]]), {n: 2})
        np.testing.assert_array_equal(out, np.zeros([2, 5], np.float32))


def test_numpy_int64_shape_arguments_keep_their_dtype():
    with tf.Graph().as_default():
        x = tf.constant(np.zeros([2, 3], np.float32))
        assert tf.reshape(x, np.array([3, 2], np.int64)).op.get_attr("Tshape") == tf.int64
        assert tf.reshape(x, [np.int64(3), np.int64(2)]).op.get_attr("Tshape") == tf.int32
        assert tf.expand_dims(x, np.int64(1)).op.get_attr("Tdim") == tf.int64
        s2b = tf.space_to_batch(tf.zeros([1, 4, 4, 1]), [[0, 0], [0, 0]], block_size=2)
        assert s2b.op.get_attr("Tblock_shape") == tf.int64
