"""TF1 programs against TF, array manipulation and image ops (sweep 5): gather_nd with empty
index vectors, Tindices without a default (an empty list is float32), scatter_nd's shape dtype,
strided_slice's dense-spec errors, pad of strings, tile/one_hot/broadcast_to/band_part kernel
messages, Select's condition conversion, the image crop/pad graphs and resize checks. Expected
values were recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled)."""

import numpy as np
import pytest

import tensorweave as tf


from _session_helpers import run as _run, run_error as _run_error


# -- gather, gather_nd, scatter_nd -------------------------------------------------------------

def test_gather_nd_with_empty_index_vectors_repeats_params():
    with tf.Graph().as_default():
        y = tf.gather_nd([[1, 2, 3], [4, 5, 6]], np.zeros((2, 0), np.int32))
        assert y.shape.as_list() == [2, 2, 3]
        np.testing.assert_array_equal(_run(y), [[[1, 2, 3], [4, 5, 6]]] * 2)


@pytest.mark.parametrize("build", [
    lambda: tf.gather_nd([[1, 2, 3]], []),
    lambda: tf.gather_nd([1, 2], [[0.5]]),
    lambda: tf.gather([1, 2], []),
    lambda: tf.gather([1, 2], [[0.5]]),
    lambda: tf.scatter_nd([], [], [3]),
])
def test_indices_without_a_default_dtype_are_float32_when_empty(build):
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            build()
    assert str(e.value) == ("Value passed to parameter 'indices' has DataType float32 not in list of "
                            "allowed values: int16, int32, int64")


def test_scatter_nd_shape_of_another_dtype_than_indices():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.scatter_nd([[0, 1]], [5], tf.constant([2, 2], tf.int64))
    assert str(e.value) == "Input 'shape' of 'ScatterNd' Op has type int64 that does not match type int32 of argument 'indices'."


def test_gather_batch_dims_mismatch_is_checked_before_the_indices():
    with tf.Graph().as_default():
        y = tf.gather([[1, 2, 3], [4, 5, 6]], [1], axis=1, batch_dims=1)
        assert "params.shape[0]: 2 should be equal to indices.shape[0]: 1" in _run_error(y)


def test_tensor_scatter_ops_regression():
    with tf.Graph().as_default():
        a = tf.tensor_scatter_nd_add([1, 2, 3], [[0], [0]], [5, 6])
        b = tf.tensor_scatter_nd_max([1, 2, 3], [[2], [0]], [1, 7])
        c = tf.tensor_scatter_nd_update([1, 2, 3], [[3]], [5])
        np.testing.assert_array_equal(_run(a), [12, 2, 3])
        np.testing.assert_array_equal(_run(b), [7, 2, 3])
        assert "indices[0] = [3] does not index into shape [3]" in _run_error(c)


# -- strided_slice -----------------------------------------------------------------------------

def test_slicing_a_scalar_fails_in_the_shape_function():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.constant(5)[:]
    assert str(e.value).startswith("Attempting to slice scalar input. for '{{node strided_slice}}")
    with tf.Graph().as_default():
        assert tf.constant(5)[...].shape.as_list() == []
        assert tf.constant(5)[tf.newaxis].shape.as_list() == [1]


def test_shrink_out_of_bounds_names_the_forward_index():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.constant(np.arange(24).reshape(2, 3, 4))[-3]
    assert str(e.value).startswith("slice index -1 of dimension 0 out of bounds. for '{{node strided_slice}}")


@pytest.mark.parametrize("build,feed,msg", [
    (lambda p: p[0], 5, "Attempting to slice scalar input."),
    (lambda p: p[..., 0], 5, "Attempting to slice scalar input."),
    (lambda p: p[-3], [1, 2], "slice index -1 of dimension 0 out of bounds."),
    (lambda p: p[2], [1, 2], "slice index 2 of dimension 0 out of bounds."),
    (lambda p: p[1, 2], [1, 2], "Index out of range using input dim 1; input has only 1 dims"),
    (lambda p: p[:, 0], [1, 2], "Index out of range using input dim 1; input has only 1 dims"),
    (lambda p: p[::0], [1], "strides[0] must be non-zero"),
    (lambda p: tf.strided_slice(p, [0], [1], [-1], shrink_axis_mask=1), [[1, 2]],
     "only stride 1 allowed on non-range indexing."),
])
def test_strided_slice_run_time_errors(build, feed, msg):
    with tf.Graph().as_default():
        p = tf.placeholder(tf.int32, None)
        y = build(p)
        assert msg in _run_error(y, {p: feed})


def test_strided_slice_static_errors_name_the_dense_dimension():
    x = np.arange(6).reshape(2, 3)
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.strided_slice(x, [0, 0], [1, 1], [1, 0], new_axis_mask=1)
        assert str(e.value).startswith("strides[0] must be non-zero for")
        with pytest.raises(ValueError) as e:
            tf.strided_slice(x, [0], [1], [-1], shrink_axis_mask=1)
        assert str(e.value).startswith("only stride 1 allowed on non-range indexing. for")
        np.testing.assert_array_equal(_run(tf.strided_slice(x, [0], [1], [2], shrink_axis_mask=1)), [0, 1, 2])


# -- pad, tile, split, unstack, squeeze, expand_dims -------------------------------------------

def test_pad_of_strings_pads_with_empty_strings():
    with tf.Graph().as_default():
        out = _run(tf.pad(["a", "b"], [[1, 1]]))
    assert out.tolist() == [b"", b"a", b"b", b""]


def test_pad_constant_values_of_another_dtype():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.pad([1, 2, 3], [[1, 1]], constant_values=1.5)
    assert str(e.value) == ("Expected int32 passed to parameter 'constant_values' of op 'PadV2', got 1.5 of "
                            "type 'float' instead. Error: Expected int32, but got 1.5 of type 'float'.")


def test_tile_negative_multiple_message():
    with tf.Graph().as_default():
        y = tf.tile(np.arange(6).reshape(2, 3), [-1, 1])
        assert y.shape.as_list() == [None, 3]
        assert "Expected multiples[0] >= 0, but got -1" in _run_error(y)


def test_split_of_zero_parts_is_the_attr_minimum_error():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.split(np.zeros((2, 3)), 0, axis=1)
    assert str(e.value) == "Attr 'num_split' of 'Split' Op passed 0 less than minimum 1."


def test_unstack_with_num_converts_inside_its_scope():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.unstack(np.arange(6).reshape(2, 3), num=3)
    assert str(e.value) == ("Dimension must be 3 but is 2 for '{{node unstack}} = Unpack[T=DT_INT64, axis=0, "
                            "num=3](unstack/value)' with input shapes: [2,3].")


def test_squeeze_names_and_repeated_axes():
    x = np.zeros((1, 2, 1), np.float32)
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.squeeze(x, [1])
        assert str(e.value) == ("Can not squeeze dim[1], expected a dimension of 1, got 2 for '{{node Squeeze}} = "
                                "Squeeze[T=DT_FLOAT, squeeze_dims=[1]](Squeeze/input)' with input shapes: [1,2,1].")
        with pytest.raises(ValueError) as e:
            tf.squeeze(x, axis=[0], squeeze_dims=[0])
        assert str(e.value) == "Cannot specify both 'squeeze_dims' and 'axis'."
        y = tf.squeeze(x, [0, -3])
        assert y.shape.as_list() == [2, 1]
        np.testing.assert_array_equal(_run(y), np.zeros((2, 1)))


def test_expand_dims_with_a_one_element_axis_list():
    x = np.zeros((1, 2, 1), np.float32)
    with tf.Graph().as_default():
        assert tf.expand_dims(x, [0]).shape.as_list() == [1, 1, 2, 1]
        with pytest.raises(ValueError) as e:
            tf.expand_dims(x, [0, 1])
        assert str(e.value).endswith("with input shapes: [1,2,1], [2] and with computed input tensors: "
                                     "input[1] = <0 1>.")
        with pytest.raises(ValueError) as e:
            tf.expand_dims(x, axis=0, dim=0)
        assert str(e.value) == "Cannot specify both 'dim' and 'axis'."


# -- one_hot, where, boolean_mask, histogram, broadcast_to, band_part -------------------------

def test_one_hot_axis_and_depth_dtype_errors():
    with tf.Graph().as_default():
        y = tf.one_hot([0, 2], 3, axis=2)
        assert "Expected axis to be -1 or between [0, 2).  But received: 2" in _run_error(y)
        with pytest.raises(TypeError) as e:
            tf.one_hot([1], tf.constant(3, tf.int64))
        assert str(e.value) == "Input 'depth' of 'OneHot' Op has type int64 that does not match expected type of int32."


def test_where_condition_conversion():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.where([1, 0], [1, 2], [3, 4])
        assert str(e.value) == ("Expected bool passed to parameter 'condition' of op 'Select', got [1, 0] of type "
                                "'list' instead. Error: Expected bool, but got 1 of type 'int'.")
        with pytest.raises(TypeError) as e:
            tf.where_v2(tf.constant([1, 0]), [1, 2], [3, 4])
        assert str(e.value) == "Input 'condition' of 'SelectV2' Op has type int32 that does not match expected type of bool."
        with pytest.raises(TypeError) as e:
            tf.where(tf.constant(["a"]))
        assert str(e.value).startswith("Value passed to parameter 'input' has DataType string not in list of "
                                       "allowed values: float32, float64, int32, uint8")


def test_select_shape_errors_name_the_condition_first():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.where([True, False], [1, 2, 3], [3, 4, 5])
        assert str(e.value).startswith("Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].")
        with pytest.raises(ValueError) as e:
            tf.where([True, False], 1, 2)
        assert str(e.value).startswith("Shapes must be equal rank, but are 0 and 1 for '{{node Select_1}}")


def test_boolean_mask_negative_axis_slices_the_static_shape_as_given():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.boolean_mask(np.arange(6).reshape(2, 3), [True, False, True], axis=-1)
        assert str(e.value) == "Shapes () and (3,) are incompatible"
        y = tf.boolean_mask(np.arange(6).reshape(2, 3), [True, False], axis=-2)
        np.testing.assert_array_equal(_run(y), [[0, 1, 2]])


def test_histogram_fixed_width_checks():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.histogram_fixed_width([1., 2.], [0., 1.], nbins=0)
        assert str(e.value).startswith("Requires nbins > 0: 0 for '{{node histogram_fixed_width}}")
        assert str(e.value).endswith("and with computed input tensors: input[2] = <0>.")
        y = tf.histogram_fixed_width([1., 2.], [2., 1.], nbins=2)
        assert ("value_range should satisfy value_range[0] < value_range[1], but got '[2, 1]'"
                in _run_error(y))
        h = tf.histogram_fixed_width([0., 1., 2., 5., -1., 10.], [0., 5.], nbins=5)
        np.testing.assert_array_equal(_run(h), [2, 1, 1, 0, 2])


def test_broadcast_to_negative_dimension():
    with tf.Graph().as_default():
        assert "Dimension -1 must be >= 0" in _run_error(tf.broadcast_to([1, 2], [2, -1]))


def test_matrix_band_part_of_a_vector_fails_in_the_kernel():
    with tf.Graph().as_default():
        y = tf.matrix_band_part([1., 2.], 0, 0)
        assert y.shape.as_list() == [2]
        assert "input must be at least 2-dim, received shape: [2]" in _run_error(y)


# -- tf.image ----------------------------------------------------------------------------------

def test_resize_checks():
    img = np.zeros((2, 3, 4, 2), np.float32)
    with tf.Graph().as_default():
        y = tf.image.resize_bilinear(img, [5, 3], align_corners=True, half_pixel_centers=True)
        assert y.name == "ResizeBilinear:0" and y.shape.as_list() == [2, 5, 3, 2]
        assert "If half_pixel_centers is True, align_corners must be False." in _run_error(y)
        with pytest.raises(ValueError) as e:
            tf.image.resize_images(img, [5., 3.])
        assert str(e.value) == "'size' must be a 1-D int32 Tensor"


def test_resize_values_regression():
    img = (np.arange(2 * 3 * 4 * 2).reshape(2, 3, 4, 2) % 7).astype(np.float32)
    with tf.Graph().as_default():
        y = tf.image.resize_bilinear(img, [2, 3], half_pixel_centers=True)
        n = tf.image.resize_images(img.astype(np.uint8), [2, 3], method=1)
        assert n.dtype == tf.uint8
        out = _run(y)
    np.testing.assert_allclose(out[0, :, :, 0], [[0.5833334, 3.25, 4.4583335], [2.0833335, 4.75, 1.5833325]],
                               rtol=1e-6)


def test_crop_to_bounding_box_graph_and_checks():
    img = np.arange(20).reshape(4, 5, 1).astype(np.float32)
    with tf.Graph().as_default() as g:
        p = tf.placeholder(tf.float32, [None, None, 1])
        y = tf.image.crop_to_bounding_box(p, 1, 1, 2, 3)
        assert y.shape.as_list() == [2, 3, 1]
        names = [o.name for o in g.get_operations()]
        assert "crop_to_bounding_box/assert_positive/assert_less/Assert/Assert" in names
        assert "crop_to_bounding_box/assert_greater_equal/Assert/Assert" in names
        assert names[-5:-1] == ["crop_to_bounding_box/stack_1/1", "crop_to_bounding_box/stack_1/2",
                                "crop_to_bounding_box/stack_1", "crop_to_bounding_box/Slice"]
        q = tf.placeholder_with_default(img, [None, None, 1])
        z = tf.image.crop_to_bounding_box(q, 3, 1, 2, 3)
        assert "assertion failed: [height must be >= target + offset.]" in _run_error(z)
        np.testing.assert_array_equal(_run(y, {p: img})[..., 0], [[6, 7, 8], [11, 12, 13]])
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.image.crop_to_bounding_box(img[:, :, 0], 0, 0, 1, 1)
        assert str(e.value) == "'image' (shape (4, 5)) must have either 3 or 4 dimensions."


def test_pad_to_bounding_box_graph():
    with tf.Graph().as_default() as g:
        p = tf.placeholder(tf.float32, [4, 5, 1])
        y = tf.image.pad_to_bounding_box(p, 1, 1, 6, 7)
        assert y.shape.as_list() == [6, 7, 1]
        names = [o.name for o in g.get_operations()]
        assert names[-6:-1] == ["pad_to_bounding_box/control_dependency", "pad_to_bounding_box/stack",
                                "pad_to_bounding_box/Reshape/shape", "pad_to_bounding_box/Reshape",
                                "pad_to_bounding_box/Pad"]


def test_resize_image_with_crop_or_pad_dynamic_graph_size():
    with tf.Graph().as_default() as g:
        p = tf.placeholder(tf.float32, [None, None, 1])
        y = tf.image.resize_image_with_crop_or_pad(p, 3, 7)
        assert y.shape.as_list() == [3, 7, 1]
        assert len(g.get_operations()) == 206
        img = np.arange(20).reshape(4, 5, 1).astype(np.float32)
        out = _run(y, {p: img})
    np.testing.assert_array_equal(out[..., 0], [[0, 0, 1, 2, 3, 4, 0], [0, 5, 6, 7, 8, 9, 0],
                                                [0, 10, 11, 12, 13, 14, 0]])


def test_central_crop_dynamic_graph():
    with tf.Graph().as_default() as g:
        p = tf.placeholder(tf.float32, [None, None, 1])
        y = tf.image.central_crop(p, 0.5)
        assert y.shape.as_list() == [None, None, 1]
        names = [o.name for o in g.get_operations()]
        assert names.index("central_crop/strided_slice_1") < names.index("central_crop/Cast")
        assert "central_crop/assert_positive/assert_less/Assert/Assert" in names
        f = tf.placeholder(tf.float32, [])
        z = tf.image.central_crop(np.arange(20).reshape(4, 5, 1).astype(np.float32), f)
        np.testing.assert_array_equal(_run(z, {f: 0.5})[..., 0], [[6, 7, 8], [11, 12, 13]])


def test_rot90_checks():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.image.rot90(np.zeros((2, 3, 2), np.float32), 1.5)
        assert str(e.value) == "Expected int32, but got 1.5 of type 'float'."
        with pytest.raises(ValueError) as e:
            tf.image.rot90(tf.zeros([2, 0, 1]))
        assert str(e.value) == "inner 3 dims of 'image.shape' must be > 0: (2, 0, 1)"


def test_sort_direction_and_matrix_diag_scalar_messages():
    with tf.Graph().as_default():
        for fn in (tf.sort, tf.argsort):
            with pytest.raises(ValueError) as e:
                fn([3, 1], direction="UP")
            assert str(e.value) == "Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction=UP"
        with pytest.raises(ValueError) as e:
            tf.matrix_diag(1.0)
        assert str(e.value) == (
            "Shape must be at least rank 1 but is rank 0 for '{{node diag}} = MatrixDiagV3[T=DT_FLOAT, "
            "align=\"RIGHT_LEFT\"](diag/diagonal, diag/k, diag/num_rows, diag/num_cols, diag/padding_value)' "
            "with input shapes: [], [], [], [], [].")
