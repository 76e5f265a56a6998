"""String ops and SparseTensors as TF1 programs use them, against TF, and the fixes the comparison
found; expected values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled) unless
computed with NumPy in the test."""

import numpy as np
import pytest

import tensorweave as tf


def _sp():
    return tf.SparseTensor(indices=[[0, 0], [1, 2], [2, 1]], values=[1.0, 2.0, 3.0], dense_shape=[3, 4])


def _run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


# -- strings ------------------------------------------------------------------------------------

def test_string_split_keeping_empty_tokens_gives_no_token_for_an_empty_string():
    with tf.Graph().as_default():
        r = _run(tf.string_split(tf.constant(["hello world", "a  b", ""]), sep=" ", skip_empty=False))
        np.testing.assert_array_equal(r.indices, [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]])
        assert r.values.tolist() == [b"hello", b"world", b"a", b"", b"b"]
        np.testing.assert_array_equal(r.dense_shape, [3, 3])


def test_reduce_join_bad_axis_message_lists_the_axes_read():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.reduce_join(tf.constant([["a"]]), axis=2)
        assert str(e.value).endswith(
            "with input shapes: [1,1], [] and with computed input tensors: input[1] = <2>.")
        assert str(e.value).startswith("Invalid reduction dimension 2 for input with 2 dimensions.")


# -- sparse ---------------------------------------------------------------------------------------

def test_sparse_concat_mismatched_shapes_message():
    with tf.Graph().as_default():
        a = tf.SparseTensor([[0, 0], [1, 1]], [1, 2], [2, 2])
        b = tf.SparseTensor([[0, 2], [1, 0]], [3, 4], [2, 3])
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(tf.sparse_concat(0, [a, b]))
        assert "Input shapes must match: expected 2 for dimension 1 but got 3 at position 1" in str(e.value)


def test_sparse_retain_mask_length_checked_at_build_time():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^Dimensions 3 and 2 are not compatible"):
            tf.sparse_retain(_sp(), [True, False])
        r = _run(tf.sparse_retain(_sp(), [True, False, True]))
        np.testing.assert_array_equal(r.indices, [[0, 0], [2, 1]])


def test_sparse_dense_matmul_node_carries_type_attrs():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.sparse_tensor_dense_matmul(_sp(), tf.ones([3, 2]))
        assert ("SparseTensorDenseMatMul[T=DT_FLOAT, Tindices=DT_INT64, adjoint_a=false, adjoint_b=false]"
                in str(e.value))


def test_sparse_dense_matmul_runtime_errors():
    with tf.Graph().as_default():
        p = tf.sparse_placeholder(tf.float32)
        m = tf.sparse_tensor_dense_matmul(p, tf.ones([4, 2]))
        ma = tf.sparse_tensor_dense_matmul(p, tf.ones([4, 2]), adjoint_a=True)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(m, {p: ([[0, 1]], [3.0], [2, 3])})
            # TF's message, with its odd closing bracket
            assert ("Cannot multiply A and B because inner dimension does not match: 3 vs. 4.  Did you forget a "
                    "transpose?  Dimensions of A: [2, 3).  Dimensions of B: [4,2]") in str(e.value)
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"m \(5\) from index\[0,0\] out of bounds "
                                                                       r"\(>=2\)"):
                sess.run(m, {p: ([[5, 1]], [3.0], [2, 4])})
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"k \(7\) from index\[1,1\] out of bounds "
                                                                       r"\(>=4\)"):
                sess.run(m, {p: ([[0, 0], [1, 7]], [3.0, 1.0], [2, 4])})
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"m \(7\) from index\[1,1\] out of bounds "
                                                                       r"\(>=2\)"):
                sess.run(ma, {p: ([[0, 0], [1, 7]], [3.0, 1.0], [4, 2])})
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"k \(9\) from index\[1,0\] out of bounds "
                                                                       r"\(>=4\)"):
                sess.run(ma, {p: ([[0, 0], [9, 1]], [3.0, 1.0], [4, 2])})


def test_sparse_add_of_mismatched_dtypes_is_tfs_type_error():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.sparse_add(_sp(), tf.SparseTensor([[0, 0]], [1], [3, 4]))
        assert str(e.value) == ("Input 'b_values' of 'SparseAdd' Op has type int32 that does not match type "
                                "float32 of argument 'a_values'.")


def test_sparse_split_too_many_parts_message():
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(tf.sparse_split(sp_input=_sp(), num_split=5, axis=1))
        assert ("Input num_split should be between 1 and the splitting dimension size (4), got 5"
                in str(e.value))


def test_sparse_tensor_times_and_over_a_dense_tensor():
    with tf.Graph().as_default() as g:
        s = _sp()
        r = s * tf.constant(2.0)
        r2 = s / tf.constant([[1.0, 2.0, 3.0, 4.0]])
        r3 = s * [[1.0], [2.0], [3.0]]
        assert [r.values.name, r2.values.name, r3.values.name] == ["mul:0", "truediv:0", "mul_1:0"]
        assert r.get_shape().as_list() == [3, 4]
        assert [o.type for o in g.get_operations()][-6:] == [
            "Const", "SparseDenseCwiseMul", "Const", "SparseDenseCwiseDiv", "Const", "SparseDenseCwiseMul"]
        v, v2, v3 = _run([r, r2, r3])
        np.testing.assert_array_equal(v.indices, [[0, 0], [1, 2], [2, 1]])
        np.testing.assert_allclose(v.values, [2.0, 4.0, 6.0])
        np.testing.assert_allclose(v2.values, [1.0, 2.0 / 3.0, 1.5], rtol=1e-6)
        np.testing.assert_allclose(v3.values, [1.0, 4.0, 9.0])
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(s * tf.ones([2, 4]))
        assert ("SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: [3,4] vs. "
                "[2,4]") in str(e.value)


def test_integer_sparse_true_division_casts_to_float64():
    with tf.Graph().as_default():
        s = tf.SparseTensor([[0, 0], [1, 1]], [7, -7], [2, 2])
        r, r2 = s / 2, s * 3
        assert (r.dtype, r2.dtype) == (tf.float64, tf.int32)
        v, v2 = _run([r, r2])
        np.testing.assert_allclose(v.values, [3.5, -3.5])
        np.testing.assert_array_equal(v2.values, [21, -21])


def test_sparse_dense_cwise_gradients():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0, 3.0])
        w = tf.Variable([[1.0, 2.0, 3.0, 4.0]])
        s = tf.SparseTensor([[0, 0], [1, 2], [2, 1]], v, [3, 4])
        r, r2 = s * w, s / w
        g = tf.gradients(tf.reduce_sum(r.values * r.values) + tf.reduce_sum(r2.values), [v, w])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            gv, gw = sess.run(g)
        np.testing.assert_allclose(gv, [3.0, 36.33333206176758, 24.5], rtol=1e-6)
        np.testing.assert_allclose(gw, [[1.0, 35.25, 23.77777862548828, 0.0]], rtol=1e-6)


def test_sparse_maximum_shape_mismatch_messages():
    with tf.Graph().as_default():
        a = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(tf.sparse_maximum(a, tf.SparseTensor([[0, 0, 0]], [1.0], [2, 3, 4])))
        assert "Operands do not have the same ranks; got shapes: 2 2 and 2 3 4" in str(e.value)
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(tf.sparse_minimum(a, tf.SparseTensor([[0, 0]], [1.0], [3, 2])))
        assert "Operands' shapes do not match: got 2 and 3 for dimension 0" in str(e.value)


def test_sparse_reduce_max_of_a_group_without_entries_is_zero():
    with tf.Graph().as_default():
        s = tf.SparseTensor([[0, 0], [1, 1]], [-3.0, -1.0], [3, 2])
        r = _run([tf.sparse_reduce_max(s, 1), tf.sparse_reduce_max(s, 0), tf.sparse_reduce_max(s, 1, keepdims=True),
                  tf.sparse_reduce_max(tf.SparseTensor([[0, 0]], [-2], [2, 2]), 1)])
        np.testing.assert_array_equal(r[0], [-3.0, -1.0, 0.0])
        np.testing.assert_array_equal(r[1], [-3.0, -1.0])
        np.testing.assert_array_equal(r[2], [[-3.0], [-1.0], [0.0]])
        assert r[3].dtype == np.int32 and r[3].tolist() == [-2, 0]


def test_sparse_fill_empty_rows_default_must_be_a_scalar():
    with tf.Graph().as_default():
        s = tf.SparseTensor([[1, 0]], [1.0], [3, 2])
        with pytest.raises(ValueError) as e:
            tf.sparse.fill_empty_rows(s, [1.0, 2.0])
        assert str(e.value).startswith("Shape must be rank 0 but is rank 1 for '{{node "
                                       "SparseFillEmptyRows/SparseFillEmptyRows}} = SparseFillEmptyRows[T=DT_FLOAT]")


def test_reduce_join_duplicate_axes_pass_shape_inference_and_fail_in_the_kernel():
    with tf.Graph().as_default():
        x = tf.constant([["a", "b"]])
        r = tf.reduce_join(x, [0, 0])
        r2 = tf.reduce_join(x, [1, -1], keep_dims=True)
        assert r.shape.as_list() == [2] and r2.shape.as_list() == [1, 1]
        with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate reduction dimension 0"):
            _run(r)
        # the kernel names the index as given
        with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate reduction dimension -1"):
            _run(r2)


def test_python_inputs_of_as_string_and_string_split_are_named_as_tf_names_them():
    with tf.Graph().as_default():
        assert [i.name for i in tf.as_string(np.array([1.5])).op.inputs] == ["AsString/input:0"]
        assert [i.name for i in tf.as_string([1, 2], name="s").op.inputs] == ["s/input:0"]
        r = tf.string_split(["a b"])
        assert [i.name for i in r.indices.op.inputs] == ["StringSplit/Const_1:0", "StringSplit/Const:0"]
        np.testing.assert_array_equal(_run(r).values, [b"a", b"b"])


def test_sparse_dense_matmul_converts_b_in_its_scope_and_checks_its_type():
    with tf.Graph().as_default():
        s = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
        m = tf.sparse_tensor_dense_matmul(s, np.ones([2, 3], np.float32))
        assert m.op.inputs[3].name == "SparseTensorDenseMatMul/b:0"
        assert tf.sparse_tensor_dense_matmul(s, [[1.0, 2], [3, 4]]).dtype == tf.float32
        with pytest.raises(TypeError) as e:
            tf.sparse_tensor_dense_matmul(s, np.ones([2, 2]))
        assert str(e.value) == ("Input 'b' of 'SparseTensorDenseMatMul' Op has type float64 that does not match "
                                "type float32 of argument 'a_values'.")
        with pytest.raises(TypeError, match="has type int32 that does not match type float32"):
            tf.sparse_tensor_dense_matmul(s, [[1, 2], [3, 4]])


def test_unicode_encode_strict_error_message():
    with tf.Graph().as_default():
        for cp in (0x110000, 0xD800, -5):
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match=r"Code point is out of range for Unicode, or is a surrogate\."):
                _run(tf.strings.unicode_encode(tf.constant([[104, cp]]), "UTF-8", errors="strict"))


def test_sparse_reduce_max_has_no_gradient():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0, 3.0])
        s = tf.SparseTensor([[0, 0], [1, 2], [2, 1]], v, [3, 4])
        with pytest.raises(LookupError, match="No gradient defined for operation'SparseReduceMax' "
                                              r"\(op type: SparseReduceMax\)"):
            tf.gradients(tf.reduce_sum(tf.sparse_reduce_max(s, 1)), v)


def test_sparse_softmax_of_a_vector_message():
    with tf.Graph().as_default():
        s = tf.SparseTensor([[0], [2]], [1.0, 2.0], [3])
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(tf.sparse.softmax(s))
        assert "Input should have rank >= 2, but received shape: 3" in str(e.value)


def test_sparse_add_of_operands_out_of_order_merges_as_tfs_single_walk():
    with tf.Graph().as_default():
        v = tf.SparseTensorValue([[1, 0], [0, 1]], [1.0, 2.0], [2, 2])
        w = tf.SparseTensorValue([[0, 1], [1, 1], [0, 0]], [5.0, 1.0, 7.0], [2, 2])
        r, r2, r3 = _run([tf.sparse_add(v, v), tf.sparse_add(v, w), tf.sparse_add(w, v, thresh=4.0)])
        np.testing.assert_array_equal(r.indices, [[1, 0], [0, 1]])
        np.testing.assert_array_equal(r.values, [2.0, 4.0])
        np.testing.assert_array_equal(r2.indices, [[0, 1], [1, 0], [0, 1], [1, 1], [0, 0]])
        np.testing.assert_array_equal(r2.values, [5.0, 1.0, 2.0, 1.0, 7.0])
        np.testing.assert_array_equal(r3.indices, [[0, 1], [1, 0], [0, 1], [1, 1], [0, 0]])
        np.testing.assert_array_equal(r3.values, [5.0, 1.0, 2.0, 1.0, 7.0])


def test_substr_pos_and_len_shapes_must_match_at_run_time():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.int32)
        r = tf.substr(tf.constant(["abc", "def"]), p, 1)
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            _run(r, {p: [0, 1, 2]})
        assert "pos and len should have the same shape, got: [3] vs. []" in str(e.value)


def test_to_dense_default_of_the_wrong_type_message():
    with tf.Graph().as_default():
        s = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
        with pytest.raises(TypeError) as e:
            tf.sparse.to_dense(s, default_value="x")
        assert str(e.value) == ("Expected float32 passed to parameter 'default_value' of op 'SparseToDense', got 'x' "
                                "of type 'str' instead. Error: Expected float32, but got x of type 'str'.")


def test_non_string_tensor_inputs_of_string_ops_get_tfs_op_def_messages():
    with tf.Graph().as_default():
        c = tf.constant([1])
        for fn, op_type, arg in [(tf.strings.length, "StringLength", "input"),
                                 (lambda x: tf.strings.regex_replace(x, "a", "b"), "StaticRegexReplace", "input"),
                                 (lambda x: tf.substr(x, 0, 1), "Substr", "input"),
                                 (tf.strings.to_number, "StringToNumber", "string_tensor"),
                                 (lambda x: tf.string_to_hash_bucket_fast(x, 3), "StringToHashBucketFast", "input"),
                                 (tf.strings.lower, "StringLower", "input"), (tf.reduce_join, "ReduceJoin", "inputs")]:
            with pytest.raises(TypeError) as e:
                fn(c)
            assert str(e.value) == (f"Input '{arg}' of '{op_type}' Op has type int32 that does not match expected "
                                    "type of string.")
        with pytest.raises(TypeError) as e:
            tf.strings.join([c, "a"])
        assert str(e.value) == ("Tensors in list passed to 'inputs' of 'StringJoin' Op have types [int32, string] "
                                "that do not match expected type string.")
        with pytest.raises(ValueError, match="Tensor conversion requested dtype string for Tensor with dtype int32"):
            tf.string_split(c)


def test_sparse_reshape_run_time_messages():
    with tf.Graph().as_default():
        p = tf.sparse_placeholder(tf.float32)
        with tf.Session() as sess:
            feed = {p: ([[0, 1]], [1.0], [3, 4])}
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(tf.sparse.reshape(p, [5, -1]), feed)
            assert ("Input to reshape is a SparseTensor with 12 dense values, but the requested shape requires a "
                    "multiple of 5. input_shape=[3,4] output_shape=[5,1]") in str(e.value)
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(tf.sparse.reshape(p, [5, 3]), feed)
            assert ("Input to reshape is a tensor with 12 dense values, but the requested shape has 15. "
                    "input_shape=[3,4] output_shape=[5,3]") in str(e.value)


@pytest.mark.parametrize("op", ["mul", "div"])
def test_sparse_dense_cwise_gradients_by_finite_differences(op):
    # (SparseDenseCwiseAdd has no gradient, in TF as here)
    from tensorweave.testing import check_gradients
    idx = np.array([[0, 0], [1, 2], [2, 1]], np.int64)

    def build(vals, dense):
        s = tf.SparseTensor(idx, vals, [3, 4])
        return (s * dense if op == "mul" else s / dense).values
    rng = np.random.RandomState(0)
    check_gradients(build, [rng.rand(3) + 0.5, rng.rand(1, 4) + 0.5])
