"""Array ops built as TF 2.21 builds them: op names, static shapes, values and messages.
Expected names, shapes and messages were recorded from TF 2.21 (tf.compat.v1, graph mode)."""

import numpy as np
import pytest

import tensorweave as tf


def test_shape_rank_size_of_a_sparse_tensor():
    with tf.Graph().as_default() as g:
        sp = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1., 2.], dense_shape=[3, 4])
        s, s64, r, n = tf.shape(sp), tf.shape(sp, out_type=tf.int64), tf.rank(sp), tf.size(sp)
        assert (s.name, s.op.type, s.dtype, s.shape.as_list()) == ("Shape/Cast:0", "Cast", tf.int32, [2])
        assert (s64.name, s64.dtype) == ("Shape_1/Cast:0", tf.int64)
        assert (r.name, r.op.type) == ("Rank:0", "Size")
        assert (n.name, n.op.type) == ("Size:0", "Prod")
        x = tf.shape([[1, 2, 3]])
        assert (x.name, x.op.type) == ("Shape_2:0", "Const")
        assert tf.size([[1, 2, 3]]).name == "Size_1:0"
        names = [o.name for o in g.get_operations()]
        assert "Shape_2/Const" in names and "Size_1/Const" in names and "Size/reduction_indices" in names
        sp2 = tf.sparse_placeholder(tf.float32)
        assert tf.shape(sp2).shape.as_list() == [None] and tf.rank(sp2).shape.as_list() == []
        with tf.Session() as sess:
            out = sess.run([s, s64, r, n])
        np.testing.assert_array_equal(out[0], [3, 4])
        assert out[1].dtype == np.int64 and out[2] == 2 and out[3] == 12


def test_meshgrid_multiplies_by_ones_as_tf():
    with tf.Graph().as_default() as g:
        a, b = tf.meshgrid(tf.range(3), [1, 2, 3, 4])
        names = [o.name for o in g.get_operations()]
        assert names == ['range/start', 'range/limit', 'range/delta', 'range', 'meshgrid/Reshape/shape',
                         'meshgrid/Reshape', 'meshgrid/stack', 'meshgrid/Reshape_1/shape', 'meshgrid/Reshape_1',
                         'meshgrid/Size', 'meshgrid/Size_1/Const', 'meshgrid/Size_1', 'meshgrid/Reshape_2/shape',
                         'meshgrid/Reshape_2', 'meshgrid/Reshape_3/shape', 'meshgrid/Reshape_3',
                         'meshgrid/ones/packed', 'meshgrid/ones/Const', 'meshgrid/ones', 'meshgrid/mul',
                         'meshgrid/mul_1']
        assert a.shape.as_list() == [4, 3]
        with tf.Session() as sess:
            av, bv = sess.run([a, b])
        ref_a, ref_b = np.meshgrid(np.arange(3), [1, 2, 3, 4])
        np.testing.assert_array_equal(av, ref_a)
        np.testing.assert_array_equal(bv, ref_b)


def test_stack_of_one_tensor_returns_it():
    with tf.Graph().as_default():
        x = tf.range(3)
        assert tf.stack(x) is x
        assert tf.stack(np.array([1, 2])).shape.as_list() == [2]


def test_where_inputs_are_named_t_and_e():
    with tf.Graph().as_default():
        out = tf.where([True, False], [1, 2], [3, 4])
        assert [t.name for t in out.op.inputs] == ["Select/condition:0", "Select/t:0", "Select/e:0"]
        with pytest.raises(TypeError) as info:
            tf.where([True, False], [1, 2], [3., 4.])
        assert str(info.value) == ("Expected int32 passed to parameter 'e' of op 'Select', got [3.0, 4.0] of "
                                   "type 'list' instead. Error: Expected int32, but got 3.0 of type 'float'.")


@pytest.mark.parametrize("fn, expected", [
    (lambda: tf.scatter_nd([[0]], [1., 2.], [8]),
     "Dimensions [0,1) of indices[shape=[1,1]] = [1] must match dimensions [0,1) of updates[shape=[2]] = [2]: "
     "Dimension 0 in both shapes must be equal, but are 1 and 2. Shapes are [1] and [2]. for '{{node ScatterNd}} "
     "= ScatterNd[T=DT_FLOAT, Tindices=DT_INT32, bad_indices_policy=\"\"](ScatterNd/indices, ScatterNd/updates, "
     "ScatterNd/shape)' with input shapes: [1,1], [2], [1]."),
    (lambda: tf.scatter_nd([[0]], [[1.]], [0, 1]),
     "Indices and updates specified for empty input for '{{node ScatterNd}} = ScatterNd[T=DT_FLOAT, "
     "Tindices=DT_INT32, bad_indices_policy=\"\"](ScatterNd/indices, ScatterNd/updates, ScatterNd/shape)' with "
     "input shapes: [1,1], [1,1], [2] and with input tensors computed as partial shapes: input[2] = [0,1]."),
    (lambda: tf.tensor_scatter_nd_update(tf.ones([4, 2]), [[0]], [[1., 2., 3.]]),
     "Dimensions [1,2) of input[shape=[4,2]] = [2] must match dimensions [1,2) of updates[shape=[1,3]] = [3]: "
     "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3]. for '{{node "
     "TensorScatterUpdate}} = TensorScatterUpdate[T=DT_FLOAT, Tindices=DT_INT32, bad_indices_policy=\"\"](ones, "
     "TensorScatterUpdate/indices, TensorScatterUpdate/updates)' with input shapes: [4,2], [1,1], [1,3]."),
    (lambda: tf.gather_nd(tf.placeholder(tf.float32, [None, 3]), [[0, 1, 2]]),
     "indices.shape[-1] must be <= params.rank, but saw indices shape: [1,3] and params shape: [?,3] for "
     "'{{node GatherNd}} = GatherNd[Tindices=DT_INT32, Tparams=DT_FLOAT, bad_indices_policy=\"\"](Placeholder, "
     "GatherNd/indices)' with input shapes: [?,3], [1,3]."),
])
def test_scatter_and_gather_nd_messages(fn, expected):
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as info:
            fn()
    assert str(info.value) == expected


def test_scatter_nd_with_index_depth_past_the_rank_builds():
    with tf.Graph().as_default():
        assert tf.scatter_nd([[0, 0, 0]], [1.], [8, 3]).shape.as_list() == [8, 3]
        assert tf.tensor_scatter_nd_update(tf.ones([4, 2]), [[0, 0, 0]], [1.]).shape.as_list() == [4, 2]


def test_mirror_pad_run_time_messages():
    x = np.arange(6).reshape(2, 3).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="paddings must be less than the dimension size: 2, 0 not less than 2"):
            sess.run(tf.pad(x, [[2, 0], [0, 0]], "REFLECT"))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="paddings must be no greater than the dimension size: 3, 0 greater than 2"):
            sess.run(tf.pad(x, [[3, 0], [0, 0]], "SYMMETRIC"))
        out = sess.run(tf.pad(x, [[2, 2], [3, 3]], "SYMMETRIC"))
    np.testing.assert_array_equal(out, np.pad(x, [[2, 2], [3, 3]], mode="symmetric"))


@pytest.mark.parametrize("value, dtype", [
    # dtypes recorded from TF 2.21's tf.convert_to_tensor
    ([True, 1], tf.int32), ([2 ** 31, 1], tf.int64), ([2 ** 63], tf.uint64), ([1, 2 ** 63], tf.float32),
    ([-1, 2 ** 63], tf.float32), ([np.int8(1), np.int16(2)], tf.int16), ([np.float16(1), np.float32(2)], tf.float32),
    ([np.int64(2 ** 40), 2], tf.int64), ([[1.], [2]], tf.float32), ([], tf.float32), (["a", b"b"], tf.string),
    ([1j, 2], tf.complex128), (1e40, tf.float32),
])
def test_convert_to_tensor_dtype_inference(value, dtype):
    assert tf.convert_to_tensor(value).dtype == dtype


@pytest.mark.parametrize("value, error, message", [
    ([1, "a"], TypeError, "Failed to convert elements of [1, 'a'] to Tensor. Consider casting elements to a "
                          "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                          "TF dtypes."),
    ([1, None], TypeError, "Failed to convert elements of [1, None] to Tensor."),
    ([2 ** 64], TypeError, "Failed to convert elements of [18446744073709551616] to Tensor."),
    ([[1, 2], [3]], ValueError, "setting an array element with a sequence. The requested array has an "
                                "inhomogeneous shape after 1 dimensions. The detected shape was (2,) + "
                                "inhomogeneous part."),
    ([np.array([1, 2]), np.array([3, 4])], ValueError,
     "Expected values [array([1, 2]), array([3, 4])] to be a dense tensor with shape [2], but got shape [2, 2]."),
    (None, ValueError, "None values not supported."),
])
def test_convert_to_tensor_errors(value, error, message):
    with tf.Graph().as_default() as g:
        with pytest.raises(error) as info:
            tf.convert_to_tensor(value)
        assert not g.get_operations()  # a failed conversion uses up no name
    assert str(info.value).startswith(message)


def test_convert_shapes_and_lists_holding_tensors():
    with tf.Graph().as_default():
        s = tf.convert_to_tensor(tf.TensorShape([3, 2]), dtype=tf.int64)
        assert (s.name, s.dtype) == ("shape_as_tensor:0", tf.int64)
        assert tf.convert_to_tensor(tf.TensorShape([3, 2 ** 31])).dtype == tf.int64
        with pytest.raises(TypeError, match="Allowed dtypes are tf.int32 and tf.int64"):
            tf.convert_to_tensor(tf.TensorShape([3, 2]), dtype=tf.float32)
        p = tf.placeholder(tf.float32, [None, 2])
        with pytest.raises(TypeError, match=r"^Cannot convert a list containing a tensor of dtype <dtype: 'int32'> "
                                            r"to <dtype: 'float32'> \(Tensor is: <tf.Tensor 'Const:0'"):
            tf.convert_to_tensor([p, tf.constant([1, 2])])
        with pytest.raises(ValueError, match=r"packed_1/1_1\)' with input shapes"):  # TF's names
            tf.convert_to_tensor([p, [1, 2]])


@pytest.mark.parametrize("spec, shape", [
    # static shapes recorded from TF 2.21 for p = placeholder([3, 4, 5]), i = int32 scalar
    ("p[:, i:]", [3, None, 5]), ("p[1:, i]", [None, 5]), ("p[:, 1:3, :i]", [3, None, None]),
    ("p[None, :, i:]", [1, 3, None, 5]), ("p[::-1, i:]", [3, None, 5]), ("p[::i]", None), ("p[i, 1:3]", [None, 5]),
    ("p[tf.constant(1):3]", [2, 4, 5]), ("p[:, tf.constant(1):tf.constant(3)]", [3, 2, 5]),
])
def test_slices_with_tensors_have_tfs_static_shapes(spec, shape):
    env = {"tf": tf, "p": tf.placeholder(tf.float32, [3, 4, 5]), "i": tf.placeholder(tf.int32, [])}
    t = eval(spec, env)
    assert (t.shape.as_list() if t.shape.ndims is not None else None) == shape


def test_slices_with_tensors_make_tfs_constants():
    g = tf.get_default_graph()
    p = tf.placeholder(tf.float32, [None, 4, 5])
    i = tf.placeholder(tf.int32, [])
    j = tf.placeholder(tf.int64, [])
    n = len(g.get_operations())
    t = p[:, i:]
    assert [(o.name, o.type) for o in g.get_operations()[n:]] == [  # recorded from TF
        ("Const", "Const"), ("Const_1", "Const"), ("strided_slice/stack/0", "Const"), ("strided_slice/stack", "Pack"),
        ("strided_slice/stack_1/0", "Const"), ("strided_slice/stack_1", "Pack"), ("strided_slice/stack_2/0", "Const"),
        ("strided_slice/stack_2", "Pack"), ("strided_slice", "StridedSlice")]
    assert [t.op.get_attr(m) for m in ("begin_mask", "end_mask")] == [1, 3]
    n = len(g.get_operations())
    p[:, j]
    assert [(o.name, o.type) for o in g.get_operations()[n:]][:3] == [("add/y", "Const"), ("add", "AddV2"),
                                                                     ("Const_2", "Const")]
    with tf.Session() as sess:
        x = np.arange(40, dtype=np.float32).reshape(2, 4, 5)
        np.testing.assert_array_equal(sess.run(t, {p: x, i: 2}), x[:, 2:])
        np.testing.assert_array_equal(sess.run(p[::i], {p: x, i: 2}), x[::2])


def test_one_hot_dtype_rules():
    with pytest.raises(TypeError, match=r"^dtype <dtype: 'int32'> of on_value does not match dtype "
                                        r"<dtype: 'float32'> of off_value$"):
        tf.one_hot([1], 2, on_value=1, off_value=0.5)
    with pytest.raises(TypeError, match=r"^dtype <dtype: 'float32'> of on_value does not match dtype parameter "
                                        r"<dtype: 'int32'>$"):
        tf.one_hot([1], 2, on_value=tf.constant(1.), dtype=tf.int32)
    with pytest.raises(TypeError, match="^Expected string, but got 0 of type 'int'.$"):
        tf.one_hot([1], 2, on_value="a")
    t = tf.one_hot([1, 2], 3, on_value=5, off_value=-1)
    # the failed calls above used up one_hot, one_hot_1 and one_hot_2, as in TF
    assert [x.name for x in t.op.inputs] == ["one_hot_3/indices:0", "one_hot_3/depth:0", "one_hot_3/Const:0",
                                             "one_hot_3/Const_1:0"]  # TF
    assert tf.one_hot(np.array([1], np.int8), 2).op.get_attr("TI") == tf.int8
    assert tf.one_hot([1], 2, on_value=2.0, dtype=tf.float64).dtype == tf.float64


def _new_ops(fn):
    g = tf.get_default_graph()
    n = len(g.get_operations())
    out = fn()
    return out, [o.name for o in g.get_operations()[n:]]


def test_boolean_mask_sequence_mask_and_repeat_build_tfs_ops():
    p = tf.placeholder(tf.float32, [None, 3])
    c = tf.placeholder(tf.bool, [None])
    out, names = _new_ops(lambda: tf.boolean_mask(p, c))
    assert names[:7] == ["boolean_mask/Shape", "boolean_mask/strided_slice/stack", "boolean_mask/strided_slice/stack_1",
                         "boolean_mask/strided_slice/stack_2", "boolean_mask/strided_slice",
                         "boolean_mask/Prod/reduction_indices", "boolean_mask/Prod"]  # TF
    assert names[-3:] == ["boolean_mask/Squeeze", "boolean_mask/GatherV2/axis", "boolean_mask/GatherV2"]
    assert out.shape.as_list() == [None, 3]
    lengths = tf.placeholder(tf.int32, [None])
    _, names = _new_ops(lambda: tf.sequence_mask(lengths))
    assert names[:5] == ["SequenceMask/Const", "SequenceMask/Max", "SequenceMask/Const_1", "SequenceMask/Maximum",
                         "SequenceMask/Const_2"]  # TF
    r, names = _new_ops(lambda: tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0))
    assert names[:4] == ["Repeat/data", "Repeat/repeats", "Repeat/Cast", "Repeat/Shape"]  # TF
    assert "Repeat/BroadcastTo/shape" in names and "Repeat/Tile/multiples/0" in names
    r2 = tf.repeat(p, 2, axis=1)
    assert r2.shape.as_list() == [None, 6]  # TF folds 2 * 3 while building
    with tf.Session() as sess:
        x = np.arange(6, dtype=np.float32).reshape(2, 3)
        got = sess.run([out, r, r2], {p: x, c: [True, False]})
    np.testing.assert_array_equal(got[0], x[:1])
    np.testing.assert_array_equal(got[1], [[1, 2], [3, 4], [3, 4]])
    np.testing.assert_array_equal(got[2], np.repeat(x, 2, axis=1))
    with pytest.raises(TypeError, match=r"^Argument `tensor` \(name: repeats\) must be of type integer"):
        tf.repeat([1, 2], 2.0)


def test_shape_arguments_fold_arithmetic_on_known_dimensions():
    p = tf.placeholder(tf.float32, [None, 3])
    assert tf.reshape(p, [-1, tf.shape(p)[1] * 2]).shape.as_list() == [None, 6]  # TF
    assert tf.zeros([tf.constant(3) - 1, 2]).shape.as_list() == [2, 2]
    assert tf.reshape(p, [-1, tf.shape(p)[0] * 2]).shape.as_list() == [None, None]


def test_searchsorted_linspace_batch_gather_build_tfs_ops():
    _, names = _new_ops(lambda: tf.searchsorted([[1., 2.]], [[1.5]]))
    assert names[:2] == ["Shape/Const", "Shape/shape_as_tensor"] and "Reshape/tensor" in names  # TF
    _, names = _new_ops(lambda: tf.linspace(0., 1., 5))
    assert names[3:5] == ["linspace/Cast", "linspace/Cast_1"]  # TF
    i = names.index("linspace/Const")
    assert names[i + 1:i + 5] == ["linspace/strided_slice_1/stack", "linspace/strided_slice_1/stack_1",
                                  "linspace/strided_slice_1/stack_2", "linspace/strided_slice_1"]
    p = tf.placeholder(tf.float32, [None, 3])
    _, names = _new_ops(lambda: tf.batch_gather(p, [[0], [1]]))
    assert names[3:5] == ["BatchGather/ones", "BatchGather/Cast"] and "BatchGather/concat/values_0" in names  # TF
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(tf.searchsorted([[1., 2, 3], [2, 4, 6]], [[2.5, 0], [7, 4]],
                                                               side="right")), [[2, 0], [3, 2]])
        np.testing.assert_allclose(sess.run(tf.linspace(0., 1., 5)), np.linspace(0, 1, 5))
        np.testing.assert_array_equal(sess.run(tf.batch_gather(np.arange(6.).reshape(2, 3), [[2, 0], [1, 1]])),
                                      [[2, 0], [4, 4]])


@pytest.mark.parametrize("perm, message", [
    # TF 2.21's kernel messages
    ([0, 2, 2], "1 is missing from {0,2,2}."), ([0, 5, 1], "5 is out of range [0 .. 3)"),
    ([1, -1, -1], "0 is missing from {1,2,2}."),
])
def test_transpose_run_time_permutation_errors(perm, message):
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(tf.transpose(np.zeros([2, 3, 4]), tf.placeholder_with_default(perm, [3])))
    assert message in str(info.value)
    with tf.Session() as sess:
        assert sess.run(tf.transpose(np.zeros([2, 3, 4]), tf.placeholder_with_default([-1, 0, 1], [3]))).shape \
            == (4, 2, 3)


def test_tensor_shape_proto_subtype_and_errors():
    a = tf.TensorShape([None, 3])
    proto = a.as_proto()
    assert [d.size for d in proto.dim] == [-1, 3] and not proto.unknown_rank
    assert tf.TensorShape(None).as_proto().unknown_rank
    assert tf.TensorShape(proto) == tf.TensorShape([None, 3]) or tf.TensorShape(proto).as_list() == [None, 3]
    assert tf.TensorShape([1, 2]).is_subtype_of(tf.TensorShape([None, 2]))
    assert not tf.TensorShape([None]).is_subtype_of(tf.TensorShape([1]))
    assert tf.TensorShape([1, 2]).is_subtype_of(tf.TensorShape(None))
    with pytest.raises(IndexError, match="^list index out of range$"):
        a[5]
    with pytest.raises(TypeError, match="^Failed to convert ''a'' to a shape"):  # TF's message
        tf.TensorShape("a")
