"""TF1 programs against TF: sparse_to_dense names, pooling argument checks and names, dynamic_rnn's
rank checks, top_k's unsorted order, bincount's graph and embedding_lookup_sparse's fast path;
expected values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled) unless
computed with NumPy in the test."""

import numpy as np
import pytest

import tensorweave as tf


def _ops(g):
    return [(o.name, o.type) for o in g.get_operations()]


# -- sparse_to_dense ---------------------------------------------------------------------------

def test_sparse_to_dense_converts_its_inputs_inside_its_scope():
    with tf.Graph().as_default() as g:
        x = tf.sparse_to_dense([[0, 1], [1, 2]], [3, 4], [5.0, 6.0])
        y = tf.sparse_to_dense([[0, 1], [1, 2]], [3, 4], 1.0, default_value=2.0, name="foo")
        z = tf.sparse_tensor_to_dense(tf.SparseTensor([[0, 1]], [5.0], [2, 2]))
        names = _ops(g)
        assert names[:10] == [
            ("SparseToDense/sparse_indices", "Const"), ("SparseToDense/output_shape", "Const"),
            ("SparseToDense/sparse_values", "Const"), ("SparseToDense/default_value", "Const"),
            ("SparseToDense", "SparseToDense"),
            ("foo/sparse_indices", "Const"), ("foo/output_shape", "Const"), ("foo/sparse_values", "Const"),
            ("foo/default_value", "Const"), ("foo", "SparseToDense")]
        # sparse_tensor_to_dense's default is array_ops.zeros([]): a Const named "zeros".
        assert ("zeros", "Const") in names and z.name == "SparseToDense_1:0"
        with tf.Session() as sess:
            a, b = sess.run([x, y])
    np.testing.assert_array_equal(a, [[0, 5, 0, 0], [0, 0, 6, 0], [0, 0, 0, 0]])
    np.testing.assert_array_equal(b, [[2, 1, 2, 2], [2, 2, 1, 2], [2, 2, 2, 2]])


# -- pooling -----------------------------------------------------------------------------------

def test_pool_of_a_rank3_input_fails_in_the_shape_function():
    with tf.Graph().as_default():
        x = tf.constant(np.ones((2, 4, 3), np.float32))
        with pytest.raises(ValueError) as e:
            tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        assert str(e.value) == (
            "Shape must be rank 4 but is rank 3 for '{{node MaxPool}} = MaxPool[T=DT_FLOAT, data_format=\"NHWC\", "
            "explicit_paddings=[], ksize=[1, 2, 2, 1], padding=\"VALID\", strides=[1, 2, 2, 1]](Const)' with input "
            "shapes: [2,4,3].")
        with pytest.raises(ValueError) as e:
            tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        assert str(e.value) == (
            "Shape must be rank 4 but is rank 3 for '{{node AvgPool}} = AvgPool[T=DT_FLOAT, data_format=\"NHWC\", "
            "ksize=[1, 2, 2, 1], padding=\"VALID\", strides=[1, 2, 2, 1]](Const)' with input shapes: [2,4,3].")
        # The failed calls took their names, as in TF.
        assert tf.nn.max_pool(tf.ones([1, 2, 2, 1]), 2, 2, "VALID").name == "MaxPool_1:0"


def test_pool_argument_errors_are_tfs():
    x = np.ones((2, 4, 4, 3), np.float32)
    pads = [[0, 0], [1, 1], [1, 1], [0, 0]]
    with tf.Graph().as_default():
        for fn in (tf.nn.avg_pool, tf.nn.avg_pool_v2):
            with pytest.raises(TypeError) as e:
                fn(x, [1, 2, 2, 1], [1, 2, 2, 1], pads)
            assert str(e.value) == "Expected string for argument 'padding' not [[0, 0], [1, 1], [1, 1], [0, 0]]."
        with pytest.raises(TypeError) as e:
            tf.nn.avg_pool1d(np.ones((2, 6, 3), np.float32), 2, 2, [[0, 0], [1, 1], [0, 0]])
        assert str(e.value) == "Expected string for argument 'padding' not [[0, 0], [1, 1], [0, 0]]."
        with pytest.raises(TypeError) as e:
            tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
        assert str(e.value) == "Expected list for 'ksize' argument to 'max_pool_with_argmax' Op, not 2."
        with pytest.raises(TypeError) as e:
            tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], 2, "VALID")
        assert str(e.value) == "Expected list for 'strides' argument to 'max_pool_with_argmax' Op, not 2."
        with pytest.raises(ValueError) as e:
            tf.nn.max_pool(x, [1, 0, 2, 1], [1, 2, 2, 1], "VALID")
        assert str(e.value) == "`ksize` cannot be zero. Received: ksize=[1, 0, 2, 1]"
        with pytest.raises(ValueError) as e:
            tf.nn.max_pool1d(np.ones((2, 6, 3), np.float32), [2, 2], 2, "VALID")
        assert str(e.value) == "ksize should be of length 1, 1 or 3. Received: ksize=[2, 2] of length 2"
        with pytest.raises(ValueError) as e:
            tf.nn.max_pool_v2(tf.ones([2, 2]), 2, 2, "VALID")
        assert str(e.value) == "`input.shape.rank` must be 3, 4 or 5. Received: input.shape=(2, 2) of rank 2."
        out = tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", name="mpa")
        assert type(out).__name__ == "MaxPoolWithArgmax" and out.argmax.name == "mpa:1"


def test_pool1d_ops_are_named_by_their_scope():
    x = np.arange(2 * 6 * 3, dtype=np.float32).reshape(2, 6, 3)
    with tf.Graph().as_default() as g:
        a = tf.nn.max_pool1d(x, 2, 2, "SAME")
        b = tf.nn.avg_pool1d(tf.constant(x), 2, 2, "VALID", name="ap")
        c = tf.nn.max_pool1d(x, [3], [1], [[0, 0], [1, 1], [0, 0]])
        assert _ops(g)[:5] == [
            ("MaxPool1d/ExpandDims/input", "Const"), ("MaxPool1d/ExpandDims/dim", "Const"),
            ("MaxPool1d/ExpandDims", "ExpandDims"), ("MaxPool1d", "MaxPool"), ("MaxPool1d/Squeeze", "Squeeze")]
        assert b.op.inputs[0].op.name == "ap" and b.op.inputs[0].op.type == "AvgPool"
        assert c.op.inputs[0].op.get_attr("explicit_paddings") == [0, 0, 0, 0, 1, 1, 0, 0]
        # TF 2's N-D pools (compat.v1 max_pool_v2 / avg_pool_v2) dispatch on the rank.
        assert tf.nn.max_pool_v2(x, 2, 2, "VALID").name == "MaxPool1d_2/Squeeze:0"
        assert tf.nn.avg_pool_v2(np.ones((1, 4, 4, 4, 2), np.float32), 2, 2, "VALID").name == "AvgPool3D:0"
        with tf.Session() as sess:
            va, vb, vc = sess.run([a, b, c])
    np.testing.assert_array_equal(va, x.reshape(2, 3, 2, 3).max(axis=2))
    np.testing.assert_allclose(vb, x.reshape(2, 3, 2, 3).mean(axis=2))
    padded = np.pad(x, [(0, 0), (1, 1), (0, 0)], constant_values=-np.inf)
    np.testing.assert_array_equal(vc, np.max([padded[:, i:i + 6] for i in range(3)], axis=0))


# -- dynamic_rnn -------------------------------------------------------------------------------

def test_dynamic_rnn_rejects_inputs_without_a_depth():
    with tf.Graph().as_default():
        cell = tf.nn.rnn_cell.BasicRNNCell(5)
        with pytest.raises(ValueError) as e:
            tf.nn.dynamic_rnn(cell, tf.ones([3, 4]), dtype=tf.float32)
        assert str(e.value) == "Shape (4, 3) must have rank at least 3"
        with pytest.raises(ValueError) as e:
            tf.nn.dynamic_rnn(cell, tf.ones([3, 4]), dtype=tf.float32, time_major=True)
        assert str(e.value) == "Shape (3, 4) must have rank at least 3"
        with pytest.raises(ValueError) as e:
            tf.nn.dynamic_rnn(cell, tf.placeholder(tf.float32, [None, 4]), dtype=tf.float32)
        assert str(e.value) == "Shape (4, ?) must have rank at least 3"
        with pytest.raises(ValueError) as e:
            tf.nn.dynamic_rnn(cell, tf.constant(np.ones(3, np.float32), name="v"), dtype=tf.float32)
        assert str(e.value) == ("Input tensor should have rank >= 2. Received input=Tensor(\"v:0\", shape=(3,), "
                                "dtype=float32) of rank 1")


# -- top_k -------------------------------------------------------------------------------------

def test_top_k_unsorted_keeps_tfs_heap_order():
    # TF's CPU kernel leaves its gtl::TopN survivors in heap order (k == 1 and k == n are sorted).
    x = np.array([[0., 1., 3., 2., 4.], [-0.6, -2.2, 0.6, -1.6, -1.1], [3., 3., 1., 3., 0.]], np.float32)
    xi = np.array([[1, 0, 3, 2, 0, 2, 5, 4, 3, 9]], np.int64)
    with tf.Graph().as_default(), tf.Session() as sess:
        def idx(v, k):
            return sess.run(tf.nn.top_k(v, k, sorted=False)).indices.tolist()
        assert idx(x, 3) == [[3, 2, 4], [4, 2, 0], [3, 1, 0]]
        assert idx(x, 5) == [[4, 2, 3, 1, 0], [2, 0, 4, 3, 1], [0, 1, 3, 2, 4]]
        assert idx(x, 1) == [[4], [2], [0]]
        assert idx(xi, 4) == [[2, 7, 6, 9]]
        assert idx(xi, 6) == [[3, 2, 8, 7, 6, 9]]
        assert idx(np.arange(12.), 5) == [7, 8, 10, 9, 11]
        values, indices = sess.run(tf.nn.top_k(x, 3, sorted=False))
    np.testing.assert_array_equal(values, np.take_along_axis(x, indices, axis=-1))


# -- bincount ----------------------------------------------------------------------------------

def test_bincount_builds_tfs_graph():
    with tf.Graph().as_default() as g:
        a = tf.bincount(tf.constant([1, 2, 2, 5]))
        assert _ops(g) == [
            ("Const", "Const"), ("bincount/Size", "Const"), ("bincount/Greater/y", "Const"),
            ("bincount/Greater", "Greater"), ("bincount/Cast", "Cast"), ("bincount/Const", "Const"),
            ("bincount/Max", "Max"), ("bincount/add/y", "Const"), ("bincount/add", "AddV2"),
            ("bincount/mul", "Mul"), ("bincount/Reshape/shape", "Const"), ("bincount/Reshape", "Reshape"),
            ("bincount/Const_1", "Const"), ("bincount/DenseBincount", "DenseBincount")]
        n = len(g.get_operations())
        c = tf.bincount(tf.constant([1, 2, 2, 5]), weights=[1., 2., 3., 4.], maxlength=4)
        assert [name for name, _ in _ops(g)[n:]] == [
            "Const_1", "bincount_1/weights", "bincount_1/Size", "bincount_1/Greater/y", "bincount_1/Greater",
            "bincount_1/Cast", "bincount_1/Const", "bincount_1/Max", "bincount_1/add/y", "bincount_1/add",
            "bincount_1/mul", "bincount_1/maxlength", "bincount_1/Minimum", "bincount_1/Reshape/shape",
            "bincount_1/Reshape", "bincount_1/Reshape_1/shape", "bincount_1/Reshape_1", "bincount_1/DenseBincount"]
        b = tf.math.bincount([1, 2, 2, 5], minlength=8)
        f = tf.bincount(tf.constant([1., 2.]))
        arr = tf.placeholder(tf.int32, [None])
        d = tf.bincount(arr, minlength=3, maxlength=5)
        assert (a.shape.as_list(), b.shape.as_list(), c.shape.as_list(), f.shape.as_list()) == ([6], [8], [4], [3])
        assert ("bincount_2/Maximum", "Maximum") in _ops(g) and d.shape.as_list() == [None]
        with pytest.raises(TypeError) as e:
            tf.bincount([1, 2], name="x")
        assert str(e.value) == "bincount_v1() got an unexpected keyword argument 'name'"
        with tf.Session() as sess:
            va, vb, vc, vf = sess.run([a, b, c, f])
            vd = sess.run(d, {arr: [0, 7, 1]})
    np.testing.assert_array_equal(va, [0, 1, 2, 0, 0, 1])
    np.testing.assert_array_equal(vb, [0, 1, 2, 0, 0, 1, 0, 0])
    np.testing.assert_array_equal(vc, [0., 1., 5., 0.])
    np.testing.assert_array_equal(vf, [0, 1, 1])
    np.testing.assert_array_equal(vd, [1, 1, 0, 0, 0])


# -- embedding_lookup_sparse -------------------------------------------------------------------

def test_embedding_lookup_sparse_fast_path_reduces_the_params_directly():
    with tf.Graph().as_default() as g:
        params = tf.Variable(np.arange(20, dtype=np.float32).reshape(5, 4), name="emb")
        sp = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]], tf.constant([4, 3, 1, 3], tf.int64), [3, 3])
        n = len(g.get_operations())
        a = tf.nn.embedding_lookup_sparse(params, sp, None, combiner="sqrtn")
        assert _ops(g)[n:] == [
            ("embedding_lookup_sparse/strided_slice/stack", "Const"),
            ("embedding_lookup_sparse/strided_slice/stack_1", "Const"),
            ("embedding_lookup_sparse/strided_slice/stack_2", "Const"),
            ("embedding_lookup_sparse/strided_slice", "StridedSlice"),
            ("embedding_lookup_sparse", "SparseSegmentSqrtN")]
        assert a.op.get_attr("sparse_gradient") is True
        b = tf.nn.embedding_lookup_sparse(np.ones((5, 2), np.float32), sp, None, combiner="sum")
        assert b.op.inputs[0].op.name == "embedding_lookup_sparse_1/params"
        grad = tf.gradients(a, params)[0]
        assert isinstance(grad, tf.IndexedSlices)
        # With weights (or max_norm, or several shards) TF still looks the unique ids up first.
        w = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]], tf.constant([1., 2., 3., 4.]), [3, 3])
        n = len(g.get_operations())
        c = tf.nn.embedding_lookup_sparse(params, sp, w, combiner="mean")
        names = [name for name, _ in _ops(g)[n:]]
        assert names[4:6] == ["embedding_lookup_sparse_2/Unique", "embedding_lookup_sparse_2/embedding_lookup/axis"]
        assert "embedding_lookup_sparse_2/Cast" in names and "embedding_lookup_sparse_2/ones" in names
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            va, vc, vg = sess.run([a, c, grad])
    table = np.arange(20, dtype=np.float32).reshape(5, 4)
    np.testing.assert_allclose(va, [(table[4] + table[3]) / np.sqrt(2), table[1], table[3]], rtol=1e-6)
    np.testing.assert_allclose(vc, [(table[4] + 2 * table[3]) / 3, table[1], table[3]], rtol=1e-6)
    # TF's SparseSegmentSqrtNGradV2: the sorted unique ids, each its rows' summed scaled gradient.
    assert vg.indices.tolist() == [1, 3, 4] and vg.dense_shape.tolist() == [5, 4]
    np.testing.assert_allclose(vg.values, [[1.] * 4, [1 + 2 ** -0.5] * 4, [2 ** -0.5] * 4], rtol=1e-6)


def test_sparse_segment_ops_convert_inside_their_scope_and_check_ranks():
    with tf.Graph().as_default() as g:
        x = tf.sparse.segment_mean(tf.ones([4, 2]), [0, 1], [0, 0])
        assert sorted(x.op.node_def.attr.keys()) == ["T", "Tidx", "Tsegmentids", "sparse_gradient"]
        n = len(g.get_operations())
        z = tf.sparse.segment_sqrt_n([[1., 2.], [3., 4.]], [0, 1], [0, 1], num_segments=3, name="sq")
        assert _ops(g)[n:] == [("sq/data", "Const"), ("sq/indices", "Const"), ("sq/segment_ids", "Const"),
                               ("sq/num_segments", "Const"), ("sq", "SparseSegmentSqrtNWithNumSegments")]
        with pytest.raises(ValueError) as e:
            tf.sparse.segment_mean(tf.ones([4, 2], name="o"), [[0, 1]], [0, 0])
        assert str(e.value) == (
            "Shape must be rank 1 but is rank 2 for '{{node SparseSegmentMean_1}} = SparseSegmentMean[T=DT_FLOAT, "
            "Tidx=DT_INT32, Tsegmentids=DT_INT32, sparse_gradient=false](o, SparseSegmentMean_1/indices, "
            "SparseSegmentMean_1/segment_ids)' with input shapes: [4,2], [1,2], [2].")
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(z), [[1., 2.], [3., 4.], [0., 0.]])
