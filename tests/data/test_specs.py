"""tf.TensorSpec and the other TypeSpecs as value classes, and Dataset.element_spec.

Expected reprs were recorded from TF 2.21 (compat.v1 with v2 behavior disabled)."""

import pytest

import tensorweave as tf


def test_tensor_spec_repr_equality_and_hash():
    s = tf.TensorSpec([None, 3], tf.float32, name="x")
    assert repr(s) == "TensorSpec(shape=(?, 3), dtype=tf.float32, name='x')"
    assert s == tf.TensorSpec([None, 3], tf.float32, name="x")
    assert s != tf.TensorSpec([None, 3], tf.float32)          # the name takes part in equality
    assert hash(s) == hash(tf.TensorSpec([None, 3], "float32", "x"))
    assert repr(tf.TensorSpec(None, tf.int32)) == "TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)"
    assert tf.TensorSpec(()).dtype == tf.float32
    assert isinstance(s, tf.TypeSpec) and s.value_type is tf.Tensor


def test_tensor_spec_compatibility_and_supertype():
    s = tf.TensorSpec([None, 3], tf.float32, name="x")
    assert s.is_compatible_with(tf.TensorSpec([2, 3], tf.float32))
    assert not s.is_compatible_with(tf.TensorSpec([2, 4], tf.float32))
    assert not s.is_compatible_with(tf.TensorSpec([2, 3], tf.int32))
    p = tf.placeholder(tf.float32, [5, 3])
    assert s.is_compatible_with(p)
    assert repr(tf.TensorSpec.from_tensor(p)) == "TensorSpec(shape=(5, 3), dtype=tf.float32, name='Placeholder')"
    assert tf.TensorSpec.from_spec(s, name="z").name == "z"
    assert tf.TensorSpec([2, 3]).most_specific_compatible_type(tf.TensorSpec([4, 3])) == tf.TensorSpec([None, 3])
    assert s.most_specific_common_supertype([tf.TensorSpec([4, 3], tf.int32)]) is None
    with pytest.raises(ValueError):
        s.most_specific_compatible_type(tf.TensorSpec([4, 3]))   # names differ
    assert tf.TensorSpec([2, 3]).is_subtype_of(tf.TensorSpec([None, 3]))
    assert not tf.TensorSpec([None, 3]).is_subtype_of(tf.TensorSpec([2, 3]))


def test_spec_argument_errors():
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`: 'foo'"):
        tf.TensorSpec([None], "foo")
    with pytest.raises(TypeError, match="Failed to convert"):
        tf.TensorSpec("abc")


def test_composite_spec_reprs():
    assert repr(tf.SparseTensorSpec([None, 4], tf.int64)) == \
        "SparseTensorSpec(TensorShape([Dimension(None), Dimension(4)]), tf.int64)"
    assert repr(tf.SparseTensorSpec()) == "SparseTensorSpec(TensorShape(None), tf.float32)"
    st = tf.SparseTensor([[0, 0]], [1.0], [2, 3])
    assert repr(tf.SparseTensorSpec.from_value(st)) == \
        "SparseTensorSpec(TensorShape([Dimension(2), Dimension(3)]), tf.float32)"
    assert repr(tf.TensorArraySpec([2], tf.float32)) == \
        "TensorArraySpec(TensorShape([Dimension(2)]), tf.float32, False, True)"
    assert repr(tf.TensorArraySpec(dtype=tf.int32, dynamic_size=True, infer_shape=False)) == \
        "TensorArraySpec(TensorShape(None), tf.int32, True, False)"
    assert repr(tf.OptionalSpec(tf.TensorSpec([], tf.int32))) == \
        "OptionalSpec(TensorSpec(shape=(), dtype=tf.int32, name=None),)"
    assert repr(tf.IndexedSlicesSpec([None, 4], tf.float32, tf.int64, None, [4])) == \
        ("IndexedSlicesSpec(TensorShape([Dimension(None), Dimension(4)]), tf.float32, tf.int64, None, "
         "TensorShape([Dimension(4)]))")
    assert repr(tf.IndexedSlicesSpec()) == \
        "IndexedSlicesSpec(TensorShape(None), tf.float32, tf.int64, None, TensorShape([Dimension(None)]))"
    assert repr(tf.NoneTensorSpec()) == "NoneTensorSpec()" and tf.NoneTensorSpec() == tf.NoneTensorSpec()
    assert tf.SparseTensorSpec([None, 4], tf.int64) != tf.SparseTensorSpec([None, 5], tf.int64)
    assert tf.TensorArraySpec().value_type is tf.TensorArray
    assert tf.IndexedSlicesSpec().value_type is tf.IndexedSlices


def test_dataset_element_spec_and_repr():
    ds = tf.data.Dataset.from_tensor_slices({"a": [1], "b": [[1.0, 2.0]]})
    assert repr(ds) == ("<_TensorSliceDataset element_spec={'a': TensorSpec(shape=(), dtype=tf.int32, name=None), "
                        "'b': TensorSpec(shape=(2,), dtype=tf.float32, name=None)}>")
    sp = tf.data.Dataset.from_tensor_slices(tf.SparseTensor([[0, 1]], [1.0], [2, 3]))
    assert sp.element_spec == tf.SparseTensorSpec([3], tf.float32)
    r = tf.data.Dataset.range(6)
    assert repr(r.map(lambda x: x, num_parallel_calls=2)).startswith("<_ParallelMapDataset element_spec=")
    assert repr(r.batch(2)) == "<_BatchDataset element_spec=TensorSpec(shape=(?,), dtype=tf.int64, name=None)>"
    w = r.window(2)
    spec = tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    assert w.element_spec == spec and w.output_shapes == spec and w.output_types == spec
    assert repr(spec) == "DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))"
    assert tf.data.DatasetSpec.from_value(r) == spec
    o = tf.data.experimental.Optional.from_value((1, 2.0))
    assert repr(tf.OptionalSpec.from_value(o)) == (
        "OptionalSpec((TensorSpec(shape=(), dtype=tf.int32, name=None), "
        "TensorSpec(shape=(), dtype=tf.float32, name=None)),)")


def test_zip_takes_datasets_as_arguments():
    z = tf.data.Dataset.zip(tf.data.Dataset.range(3), tf.data.Dataset.range(3))
    assert z.output_types == (tf.int64, tf.int64)


def test_one_shot_iterator_refuses_placeholders_and_state():
    # TF 2.21's messages: the dataset graph is copied by value into the iterator.
    p = tf.placeholder(tf.int64, [])
    with pytest.raises(ValueError, match=r"Cannot capture a placeholder \(name:Placeholder, type:Placeholder\)"):
        tf.data.Dataset.range(3).map(lambda x: x + p).make_one_shot_iterator()
    v = tf.Variable(3, dtype=tf.int64)
    with pytest.raises(ValueError, match=r"Cannot capture a stateful node \(name:Variable, type:VariableV2\)"):
        tf.data.Dataset.range(3).map(lambda x: x + v).make_one_shot_iterator()
    with pytest.raises(ValueError, match="Unbatching a tensor is only supported for rank >= 1"):
        tf.data.Dataset.from_tensor_slices(p)


def test_from_sparse_tensor_slices_gives_row_triples():
    # Recorded from TF 2.21: the rows as (indices, values, dense_shape) dense tensors.
    st = tf.SparseTensor([[0, 1], [2, 0], [2, 2]], [1.0, 2.0, 3.0], [3, 4])
    ds = tf.data.Dataset.from_sparse_tensor_slices(st)
    assert repr(ds) == ("<_SparseTensorSliceDataset element_spec=(TensorSpec(shape=(?, 1), dtype=tf.int64, "
                        "name=None), TensorSpec(shape=(?,), dtype=tf.float32, name=None), TensorSpec(shape=(1,), "
                        "dtype=tf.int64, name=None))>")
    n = ds.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        rows = [sess.run(n) for _ in range(3)]
    assert rows[0][0].tolist() == [[1]] and rows[0][1].tolist() == [1.0] and rows[0][2].tolist() == [4]
    assert rows[1][0].shape == (0, 1)
    assert rows[2][0].tolist() == [[0], [2]] and rows[2][1].tolist() == [2.0, 3.0]
    assert tf.data.experimental.SparseTensorStructure is tf.SparseTensorSpec
    m = tf.data.Dataset.range(4).map_with_legacy_function(lambda x: x * 3).filter_with_legacy_function(
        lambda x: x > 2)
    n = m.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert [sess.run(n), sess.run(n)] == [3, 6]


def test_padded_shape_of_another_rank_is_refused():
    # TF 2.21's message for padded_shapes=[2] on (1, 1) elements.
    ds = tf.data.Dataset.range(3).map(lambda x: tf.reshape(x, [1, 1]))
    with pytest.raises(ValueError, match=r"The padded shape \(2,\) is not compatible with the shape \(1, 1\)"):
        ds.padded_batch(2, padded_shapes=[2])
    assert ds.padded_batch(2, padded_shapes=[2, None]).output_shapes.as_list() == [None, 2, None]
