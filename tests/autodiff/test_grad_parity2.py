"""tf.gradients parity with TF 2.21, round 2: gradient values, dtypes, static shapes and the
names of gradient tensors, for ops and options user programs differentiate. Values marked
"TF 2.21" were recorded from real TensorFlow; the rest are checked by finite differences."""

import numpy as np

import tensorweave as tf
from tensorweave.testing import check_gradients


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


# -- tf.gather with batch_dims -------------------------------------------------------------

def test_gather_batch_dims_gradient_values_and_name():
    src = tf.reshape(tf.range(12.), [2, 3, 2])
    y = tf.gather(src, [[0, 2], [1, 1]], axis=1, batch_dims=1)
    g = tf.gradients(y * y, src)[0]
    assert isinstance(g, tf.Tensor) and g.shape.as_list() == [2, 3, 2]
    assert g.name == "gradients/GatherV2_grad/Reshape_5:0"  # TF 2.21
    # TF 2.21: repeated index 1 in batch 1 sums both rows
    np.testing.assert_array_equal(_run(g), [[[0, 2], [0, 0], [8, 10]],
                                            [[0, 0], [32, 36], [0, 0]]])


def test_gather_batch_dims_gradients_by_finite_differences():
    rng = np.random.RandomState(0)
    p = rng.randn(2, 3, 4)
    for ind, axis, bd in [([[0, 2], [1, 1]], 1, 1), ([[0, 2, 3], [1, 1, 0]], 2, 1),
                          ([[[0], [1], [2]], [[3], [3], [0]]], 2, 2), ([[0, 2], [1, 1]], 1, -1)]:
        check_gradients(lambda x: tf.gather(x, ind, axis=axis, batch_dims=bd) ** 2, [p])


def test_gather_batch_dims_gradient_with_unknown_batch():
    p = tf.placeholder(tf.float32, [None, 3])
    i = tf.placeholder(tf.int32, [None, 2])
    g = tf.gradients(tf.gather(p, i, axis=1, batch_dims=1), p)[0]
    assert g.shape.as_list() == [None, 3]
    np.testing.assert_array_equal(_run(g, {p: [[1, 2, 3], [4, 5, 6]], i: [[0, 0], [2, 1]]}),
                                  [[2, 0, 0], [0, 1, 1]])


# -- aggregation_method ----------------------------------------------------------------------

def test_tree_aggregation_sums_pairwise_under_op_gradient_sum():
    x = tf.constant([1., 2., 3.])
    y = x * x + x * 3. + tf.sin(x)
    names = []
    for m in [tf.AggregationMethod.EXPERIMENTAL_TREE, tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]:
        g = tf.gradients(y, x, aggregation_method=m)[0]
        names.append(g.name)
        np.testing.assert_allclose(_run(g), 2 * np.array([1., 2., 3.]) + 3 + np.cos([1., 2., 3.]),
                                   rtol=1e-6)
    # TF 2.21: four contributions, three pairwise AddNs
    assert names == ["gradients/Const_gradient_sum/AddN_2:0", "gradients_1/Const_gradient_sum/AddN_2:0"]
    assert tf.gradients(y, x, aggregation_method=tf.AggregationMethod.ADD_N)[0].name == \
        "gradients_2/AddN:0"  # TF 2.21


def test_invalid_aggregation_method_is_a_value_error():
    x = tf.constant(1.)
    try:
        tf.gradients(x * x, x, aggregation_method=7)
    except ValueError as e:
        assert str(e) == ("Invalid `aggregation_method` specified 7. "
                          "Accepted values are [0, 1, 2].")  # TF 2.21
    else:
        raise AssertionError("no error")


# -- products with zeros -----------------------------------------------------------------------

def test_cumprod_gradient_is_div_no_nan_at_zero():
    x = tf.constant([[1., 3., 3.], [2., 2., 0.]])
    g = tf.gradients(tf.cumprod(x, axis=1), x)[0]
    ge = tf.gradients(tf.cumprod(x, axis=1, exclusive=True), x)[0]
    assert g.name == "gradients/Cumprod_grad/div_no_nan:0"  # TF 2.21
    # TF 2.21 (its rule gives 0, not the true 4, at the zero)
    np.testing.assert_array_equal(_run(g), [[13., 4., 3.], [3., 2., 0.]])
    np.testing.assert_array_equal(_run(ge), [[4., 1., 0.], [3., 2., 0.]])
    check_gradients(lambda t: tf.cumprod(t, axis=1, reverse=True), [np.array([[1., 3., 2.], [2., 5., 4.]])])


def test_reduce_prod_gradient_with_zeros_names_and_runtime_axes():
    x = tf.constant([[1., 3., 3.], [2., 2., 0.]])
    g = tf.gradients(tf.reduce_prod(x), x)[0]
    g1 = tf.gradients(tf.reduce_prod(x, axis=1), x)[0]
    assert (g.name, g1.name) == ("gradients/Prod_grad/Reshape_4:0", "gradients_1/Prod_1_grad/Reshape_4:0")  # TF 2.21
    np.testing.assert_array_equal(_run(g), [[0, 0, 0], [0, 0, 36]])  # TF 2.21
    np.testing.assert_array_equal(_run(g1), [[9, 3, 3], [0, 0, 4]])  # TF 2.21
    # axes fed at run time and an unknown rank: TF's rule needs neither statically
    p = tf.placeholder(tf.float32)
    ax = tf.placeholder(tf.int32)
    gp = tf.gradients(tf.reduce_prod(p, ax, keepdims=True), p)[0]
    v = np.array([[1., 2.], [0., 4.], [5., 6.]], np.float32)
    np.testing.assert_array_equal(_run(gp, {p: v, ax: [0]}), [[0, 24], [5, 12], [0, 8]])
    check_gradients(lambda t: tf.reduce_prod(t, axis=[0, 2]), [np.random.RandomState(1).randn(2, 3, 2)])


# -- top_k / sort, softplus, selu ------------------------------------------------------------

def test_top_k_and_sort_gradients_scatter_through_linear_indices():
    x = tf.constant([[1., 3., 3., 0.5], [2., 2., 0., 7.]])
    g = tf.gradients(tf.nn.top_k(x, 2).values * tf.constant([1., 5.]), x)[0]
    gs = tf.gradients(tf.sort(x, direction="DESCENDING") * tf.constant([1., 2., 3., 4.]), x)[0]
    assert g.name == "gradients/TopKV2_grad/Reshape_3:0"  # TF 2.21
    assert gs.name == "gradients_1/sort/TopKV2_grad/Reshape_3:0"  # TF 2.21
    # TF 2.21: ties go to the lower index first
    np.testing.assert_array_equal(_run(g), [[0, 1, 5, 0], [5, 0, 0, 1]])
    np.testing.assert_array_equal(_run(gs), [[3, 1, 2, 4], [2, 3, 4, 1]])
    p = tf.placeholder(tf.float32, [None, 5])
    k = tf.placeholder(tf.int32, [])
    gp = tf.gradients(tf.nn.top_k(p, k).values, p)[0]
    assert gp.shape.as_list() == [None, 5]
    np.testing.assert_array_equal(_run(gp, {p: [[1, 2, 3, 4, 5]], k: 2}), [[0, 0, 0, 1, 1]])
    check_gradients(lambda t: tf.nn.top_k(t, 3).values ** 2, [np.random.RandomState(2).randn(2, 3, 4)])


def test_softplus_gradient_is_grad_times_sigmoid():
    x = tf.constant([[1., 3.], [2., 0.]])
    g = tf.gradients(tf.nn.softplus(x), x)[0]
    assert g.name == "gradients/Softplus_grad/mul:0"  # TF 2.21
    # TF 2.21's float32 digits (sigmoid(2) rounds to ...881, not ...8285)
    assert _run(g).tolist() == [[0.7310585975646973, 0.9525741338729858], [0.8807970881462097, 0.5]]
    check_gradients(tf.nn.softplus, [np.array([-3., -0.5, 0., 2.])])


def test_selu_gradient_at_zero_is_scale():
    x = tf.constant([-1., 0., 1.])
    g = tf.gradients(tf.nn.selu(x), x)[0]
    # TF 2.21: slope scale (1.0507...) at 0, as SeluGrad tests outputs < 0
    assert _run(g).tolist() == [0.6467685699462891, 1.0507010221481323, 1.0507010221481323]


# -- linalg decompositions ------------------------------------------------------------------

def test_qr_gradients_square_deep_and_wide():
    rng = np.random.RandomState(3)
    for shape in [(3, 3), (4, 2), (2, 4), (2, 3, 3)]:
        a = rng.randn(*shape)
        # q's and r's signs are LAPACK's; r's diagonal sign is kept fixed under small steps
        check_gradients(lambda t: tf.qr(t)[0] * tf.qr(t)[1][..., :1, :1], [a], tol=1e-5)
        check_gradients(lambda t: tf.qr(t).r ** 2, [a], tol=1e-5)
    a = tf.constant([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]], tf.float64)
    g = tf.gradients(tf.qr(a)[1], a)[0]
    assert g.name == "gradients/Qr_grad/add_2:0"  # TF 2.21
    np.testing.assert_allclose(_run(g), [[-0.90810294, -0.6332994, -0.83812944],  # TF 2.21
                                         [-0.29145508, -1.19078163, -1.2380501],
                                         [-0.45889018, -0.85866542, 0.87451185]], atol=1e-8)


def test_qr_gradient_full_matrices_tall_is_not_implemented():
    a = tf.constant(np.ones((3, 2)))
    try:
        tf.gradients(tf.qr(a, full_matrices=True)[1], a)
    except NotImplementedError as e:
        assert str(e).startswith("QrGrad not implemented when nrows > ncols and full_matrices is true.")
    else:
        raise AssertionError("no error")


def test_svd_gradients():
    rng = np.random.RandomState(4)
    for shape in [(3, 3), (4, 2), (2, 4), (2, 3, 2)]:
        a = rng.randn(*shape)
        check_gradients(lambda t: tf.svd(t, compute_uv=False), [a], tol=1e-5)
        check_gradients(lambda t: tf.svd(t)[0] * 2., [a], tol=1e-5)
        # u and v only up to a common sign per column: products of them are well defined
        check_gradients(lambda t: tf.matmul(tf.svd(t)[1][..., :, :1], tf.svd(t)[2][..., :, :1],
                                            transpose_b=True), [a], tol=1e-5)
    check_gradients(lambda t: tf.svd(t, full_matrices=True)[0], [rng.randn(3, 2)], tol=1e-5)
    a = tf.constant([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]], tf.float64)
    g = tf.gradients(tf.svd(a, compute_uv=False), a)[0]
    assert g.name == "gradients/Svd_grad/MatMul_1:0"  # TF 2.21
    np.testing.assert_allclose(_run(g), np.eye(3), atol=1e-12)  # symmetric positive definite: I
    g2 = tf.gradients(tf.norm(a, ord=2, axis=[0, 1]), a)[0]
    assert g2.name == "gradients_1/norm/transpose_grad/transpose:0"  # TF 2.21


def test_matrix_diag_part_gradient_is_a_matrix_diag_for_static_shapes():
    a = tf.constant(np.arange(6.).reshape(2, 3))
    g = tf.gradients(tf.matrix_diag_part(a), a)[0]
    g2 = tf.gradients(tf.trace(a), a)[0]
    assert (g.name, g2.name) == ("gradients/diag_part_grad/diag:0", "gradients_1/Trace/diag_part_grad/diag:0")  # TF 2.21
    np.testing.assert_array_equal(_run(g), [[1, 0, 0], [0, 1, 0]])
    p = tf.placeholder(tf.float64, [None, 3])
    gp = tf.gradients(tf.matrix_diag_part(p), p)[0]
    np.testing.assert_array_equal(_run(gp, {p: np.ones((3, 3))}), np.eye(3))


# -- pad, tensor_scatter, segment extremes: TF's op structure and names --------------------------

def test_pad_scatter_and_segment_max_gradient_names():
    x = tf.constant([[1., 2., 3.], [4., 5., 6.]])
    names = [tf.gradients(f, x)[0].name for f in [
        tf.pad(x, [[1, 0], [2, 1]]), tf.pad(x, [[1, 0], [0, 1]], constant_values=3.),
        tf.tensor_scatter_nd_add(x, [[0, 1]], [10.]), tf.math.unsorted_segment_max(x, [1, 1], 2),
        tf.math.segment_max(x, [0, 0])]]
    assert names == ["gradients/Pad_grad/Slice_1:0", "gradients_1/PadV2_grad/Slice_1:0",  # TF 2.21
                     "gradients_2/TensorScatterAdd_grad/Identity:0",
                     "gradients_3/UnsortedSegmentMax_grad/SelectV2_2:0",
                     "gradients_4/SegmentMax_grad/SelectV2:0"]


def test_segment_max_gradients_split_ties_and_drop_negative_ids():
    x = tf.constant([[1., 5., 3.], [4., 5., 6.], [0., 1., 2.]])
    g = tf.gradients(tf.math.unsorted_segment_max(x, [1, 1, -1], 3), x)[0]
    gs = tf.gradients(tf.math.segment_min(x, [0, 0, 1]), x)[0]
    # tied maxima share the gradient; the row with id -1 gets none (TF 2.21)
    np.testing.assert_array_equal(_run(g), [[0, .5, 0], [1, .5, 1], [0, 0, 0]])
    np.testing.assert_array_equal(_run(gs), [[1, .5, 1], [0, .5, 0], [1, 1, 1]])
    p = np.array([[1., 5.5, 3.], [4., 5., 6.], [0., 1., 2.]])
    check_gradients(lambda t: tf.math.unsorted_segment_max(t, [1, 0, 1], 2), [p])  # (no empty segment: its lowest-float output swamps the finite differences)
    check_gradients(lambda t: tf.math.segment_max(t, [0, 0, 1]), [p])


# -- hessians, custom_gradient: TF's op names --------------------------------------------------

def test_hessians_names_and_values():
    x = tf.constant([1., 2.])
    h = tf.hessians(tf.reduce_sum(x ** 3), x)[0]
    xx = tf.constant([[1., 2.], [3., 4.]])
    h2 = tf.hessians(tf.reduce_sum(xx * xx * xx[:, :1]), xx, name="hh")[0]
    g = tf.gradients(xx * 2., xx)[0]
    # TF 2.21: `name` unused, the inner gradients sit in a while loop (two calls: the next is gradients_2)
    assert (h.name, h2.name, g.name) == ("Reshape_1:0", "Reshape_3:0", "gradients_2/mul_2_grad/Mul:0")
    assert h2.shape.as_list() == [2, 2, 2, 2]
    np.testing.assert_array_equal(_run(h), [[6, 0], [0, 12]])
    a = tf.constant(1.5, tf.float64)
    b = tf.constant([0.5, 1.], tf.float64)
    ha, hb = tf.hessians(a * a * tf.reduce_sum(b * b), [a, b])
    assert ha.shape.as_list() == [] and hb.shape.as_list() == [2, 2]
    va, vb = _run([ha, hb])
    assert va == 2.5
    np.testing.assert_allclose(vb, [[4.5, 0], [0, 4.5]])


def test_custom_gradient_leaves_tf_identity_per_result():
    @tf.custom_gradient
    def clip_grad(x):
        def grad(dy):
            return tf.clip_by_value(dy, -0.5, 0.5)
        return tf.identity(x), grad
    x = tf.constant([1., 2.])
    g = tf.gradients(clip_grad(x * 3.), x)[0]
    ops = [op.name for op in tf.get_default_graph().get_operations()]
    assert ops[:6] == ["Const", "mul/y", "mul", "Identity", "Identity_1", "IdentityN"]  # TF 2.21
    np.testing.assert_array_equal(_run(g), [1.5, 1.5])


def test_resize_area_has_no_gradient_as_in_tf():
    x = tf.ones([1, 4, 4, 1])
    try:
        tf.gradients(tf.image.resize_area(x, [2, 2]), x)
    except LookupError as e:  # TF 2.21: ResizeArea has no registered gradient
        assert str(e).startswith("No gradient defined for operation'ResizeArea' (op type: ResizeArea).")
    else:
        raise AssertionError("no error")
