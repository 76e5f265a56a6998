"""TF1 programs using tf.image, tf.linalg and tf.signal, compared with TF and fixed where they
differed; expected values, names and messages recorded from TF 2.21 (tensorflow.compat.v1, v2
behaviour disabled)."""

import numpy as np
import pytest

import tensorweave as tf
from tests._session_helpers import run, run_error


def _names(g):
    return [o.name for o in g.get_operations()]


def test_resize_with_a_constant_size_of_minus_one_is_an_unknown_dim_and_a_run_time_error():
    # TF's MakeShapeFromShapeTensor reads -1 as "unknown"; the kernel then rejects it.
    img = np.zeros((2, 5, 7, 3), np.float32)
    for f in (tf.image.resize_bilinear, tf.image.resize_nearest_neighbor, tf.image.resize_bicubic,
              tf.image.resize_area):
        with tf.Graph().as_default():
            t = f(img, tf.constant([-1, 3]))
            assert t.shape.as_list() == [2, None, 3, 3]
            assert "output dimensions must be positive" in run_error(t)
            with pytest.raises(ValueError, match="Dimension -2 must be >= 0"):
                f(img, tf.constant([-2, 3]))


def test_rank_errors_name_the_shape_as_tf_does():
    five = np.zeros((1, 2, 6, 8, 3), np.float32)
    with tf.Graph().as_default():
        # (TF's flips have no space before "must")
        with pytest.raises(ValueError, match=r"^'image' \(shape \(1, 2, 6, 8, 3\)\)must have either 3 or 4 "):
            tf.image.flip_left_right(five)
        with pytest.raises(ValueError, match=r"^'image' \(shape \(1, 2, 6, 8, 3\)\)must have either 3 or 4 "):
            tf.image.flip_up_down(five)
        for f in (tf.image.transpose, tf.image.rot90):
            with pytest.raises(ValueError, match=r"^'image' \(shape \(1, 2, 6, 8, 3\)\) must have either 3 or 4 "):
                f(five)
        # resize_with_crop_or_pad checks the rank before the at-least-3-D checks
        with pytest.raises(ValueError, match=r"^'image' \(shape \(6, 8\)\) must have either 3 or 4 dimensions\.$"):
            tf.image.resize_with_crop_or_pad(np.zeros((6, 8), np.float32), 9, 5)


def test_rot90_with_an_int64_k_tensor_is_a_value_error():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="k: Tensor conversion requested dtype int32 for Tensor with "
                                             "dtype int64"):
            tf.image.rot90(np.zeros((6, 8, 3), np.float32), tf.constant(1, tf.int64))


def test_yuv_and_yiq_of_an_integer_image_are_type_errors_at_build_time():
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match=r"^Expected int32, but got 0.299 of type 'float'\.$"):
            tf.image.rgb_to_yuv(np.zeros((2, 2, 3), np.int32))
        with pytest.raises(TypeError, match=r"^Expected uint8, but got 0.95598634 of type 'float'\.$"):
            tf.image.yiq_to_rgb(tf.zeros((2, 2, 3), tf.uint8))
        with pytest.raises(TypeError, match=r"^Expected int16, but got -0.394642334 of type 'float'\.$"):
            tf.image.yuv_to_rgb(tf.zeros((2, 2, 3), tf.int16))


def test_numpy_inputs_are_converted_inside_the_ops_name_scope():
    x = np.ones((1, 2, 2, 3), np.float32)
    m = np.eye(2, dtype=np.float32)
    cases = [
        (lambda: tf.image.rgb_to_hsv(x), ["RGBToHSV/images", "RGBToHSV"]),
        (lambda: tf.image.hsv_to_rgb(x), ["HSVToRGB/images", "HSVToRGB"]),
        (lambda: tf.image.draw_bounding_boxes(x, np.zeros((1, 1, 4), np.float32)),
         ["DrawBoundingBoxes/images", "DrawBoundingBoxes/boxes", "DrawBoundingBoxes"]),
        (lambda: tf.image.extract_image_patches(x, [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
         ["ExtractImagePatches/images", "ExtractImagePatches"]),
        (lambda: tf.linalg.inv(m), ["MatrixInverse/input", "MatrixInverse"]),
        (lambda: tf.linalg.det(m), ["MatrixDeterminant/input", "MatrixDeterminant"]),
        (lambda: tf.linalg.slogdet(m), ["LogMatrixDeterminant/input", "LogMatrixDeterminant"]),
        (lambda: tf.linalg.cholesky(m), ["Cholesky/input", "Cholesky"]),
        (lambda: tf.linalg.qr(m), ["Qr/input", "Qr"]),
        (lambda: tf.linalg.svd(m), ["Svd/input", "Svd"]),
        (lambda: tf.linalg.eigh(m), ["SelfAdjointEigV2/input", "SelfAdjointEigV2"]),
        (lambda: tf.linalg.eigvalsh(m), ["SelfAdjointEigV2/input", "SelfAdjointEigV2"]),
        (lambda: tf.linalg.solve(m, m), ["MatrixSolve/matrix", "MatrixSolve/rhs", "MatrixSolve"]),
        (lambda: tf.linalg.triangular_solve(m, m),
         ["triangular_solve/MatrixTriangularSolve/matrix", "triangular_solve/MatrixTriangularSolve/rhs",
          "triangular_solve/MatrixTriangularSolve"]),
        (lambda: tf.image.non_max_suppression(np.zeros((3, 4), np.float32), np.zeros(3, np.float32), 2),
         ["non_max_suppression/iou_threshold", "non_max_suppression/score_threshold",
          "non_max_suppression/NonMaxSuppressionV3/boxes", "non_max_suppression/NonMaxSuppressionV3/scores",
          "non_max_suppression/NonMaxSuppressionV3/max_output_size", "non_max_suppression/NonMaxSuppressionV3"]),
        (lambda: tf.image.non_max_suppression_with_scores(np.zeros((3, 4), np.float32), np.zeros(3, np.float32), 2),
         ["non_max_suppression_with_scores/iou_threshold", "non_max_suppression_with_scores/score_threshold",
          "non_max_suppression_with_scores/soft_nms_sigma",
          "non_max_suppression_with_scores/NonMaxSuppressionV5/boxes",
          "non_max_suppression_with_scores/NonMaxSuppressionV5/scores",
          "non_max_suppression_with_scores/NonMaxSuppressionV5/max_output_size",
          "non_max_suppression_with_scores/NonMaxSuppressionV5"]),
        (lambda: tf.image.non_max_suppression_overlaps(np.zeros((3, 3), np.float32), np.zeros(3, np.float32), 2),
         ["non_max_suppression_overlaps/overlap_threshold",
          "non_max_suppression_overlaps/NonMaxSuppressionWithOverlaps/overlaps",
          "non_max_suppression_overlaps/NonMaxSuppressionWithOverlaps/scores",
          "non_max_suppression_overlaps/NonMaxSuppressionWithOverlaps/max_output_size",
          "non_max_suppression_overlaps/NonMaxSuppressionWithOverlaps/score_threshold",
          "non_max_suppression_overlaps/NonMaxSuppressionWithOverlaps"]),
        (lambda: tf.image.combined_non_max_suppression(np.zeros((1, 3, 1, 4), np.float32),
                                                       np.zeros((1, 3, 1), np.float32), 2, 2),
         ["combined_non_max_suppression/iou_threshold", "combined_non_max_suppression/score_threshold",
          "combined_non_max_suppression/Const", "combined_non_max_suppression/CombinedNonMaxSuppression/boxes",
          "combined_non_max_suppression/CombinedNonMaxSuppression/scores",
          "combined_non_max_suppression/CombinedNonMaxSuppression/max_output_size_per_class",
          "combined_non_max_suppression/CombinedNonMaxSuppression"]),
        (lambda: tf.image.psnr(x, x, 1.0),
         ["PSNR/Cast/x", "PSNR/Identity", "PSNR/image", "PSNR/Identity_1", "PSNR/image_1", "PSNR/Identity_2",
          "PSNR/SquaredDifference"]),
    ]
    for build, expected in cases:
        g = tf.Graph()
        with g.as_default():
            build()
        assert _names(g)[:len(expected)] == expected
    # so a later placeholder named "input" keeps its name
    with tf.Graph().as_default():
        tf.linalg.inv(m)
        assert tf.placeholder(tf.float32, name="input").name == "input:0"


def test_nms_thresholds_are_float32_tensors_checked_as_tf_op_builder_does():
    b = np.array([[0, 0, 1, 1], [0, 0, 1, 0.9], [0, 0, 2, 2], [5, 5, 6, 6]], np.float16)
    s = np.array([0.9, 0.8, 0.7, 0.6], np.float16)
    with tf.Graph().as_default():
        t = tf.image.non_max_suppression(b, s, 3, 0.5)
        assert (t.op.get_attr("T"), t.op.get_attr("T_threshold")) == (tf.float16, tf.float32)
        assert run(t).tolist() == [0, 2, 3]
        with pytest.raises(TypeError, match=r"^Input 'iou_threshold' of 'NonMaxSuppressionV5' Op has type "
                                            r"float32 that does not match type float16 of argument 'boxes'\.$"):
            tf.image.non_max_suppression_with_scores(b, s, 3, 0.5)
        b32, s32 = b.astype(np.float32), s.astype(np.float32)
        with pytest.raises(TypeError, match=r"^Value passed to parameter 'iou_threshold' has DataType float64 "
                                            r"not in list of allowed values: float16, float32$"):
            tf.image.non_max_suppression(b32, s32, 3, np.float64(0.5))
        with pytest.raises(TypeError, match=r"^Input 'score_threshold' of 'NonMaxSuppressionV3' Op has type "
                                            r"float64 that does not match type float32 of argument "
                                            r"'iou_threshold'\.$"):
            tf.image.non_max_suppression(b32, s32, 3, 0.5, tf.constant(0.1, tf.float64))


def test_svd_of_a_complex_matrix_gives_real_singular_values_through_real_and_eigh_complex_eigenvalues():
    a = np.array([[1 + 2j, 0.5j], [2, -1 + 1j]], np.complex64)
    g = tf.Graph()
    with g.as_default():
        s, u, v = tf.linalg.svd(a)
        e, w = tf.linalg.eigh(a + a.conj().T)
        assert (s.name, s.dtype, u.dtype) == ("Real:0", tf.float32, tf.complex64)
        assert tf.linalg.svd(a, compute_uv=False).name == "Real_1:0"
        assert (e.dtype, w.dtype) == (tf.complex64, tf.complex64)
        assert tf.linalg.eigvalsh(a).dtype == tf.complex64
        assert tf.linalg.svd(a.real)[0].name == "Svd_2:0"
        sv, ev = run([s, e])
    np.testing.assert_allclose(sv, np.linalg.svd(a, compute_uv=False), rtol=1e-5)
    assert sv.dtype == np.float32 and ev.dtype == np.complex64 and not ev.imag.any()
    np.testing.assert_allclose(ev.real, np.linalg.eigvalsh(a + a.conj().T), rtol=1e-5, atol=1e-6)


def _type_error(build):
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            build()
    return str(e.value)


def test_op_type_lists_in_tfs_words_and_order():
    z = lambda dt, s=(2, 2): tf.zeros(s, dt)  # noqa: E731
    msg = "Value passed to parameter '{}' has DataType {} not in list of allowed values: {}"
    cases = [
        (lambda: tf.linalg.det(z(tf.int32)), msg.format("input", "int32", "float16, float32, float64, complex64, complex128")),
        (lambda: tf.linalg.slogdet(z(tf.int32)), msg.format("input", "int32", "float16, float32, float64, complex64, complex128")),
        (lambda: tf.linalg.inv(z(tf.int32)), msg.format("input", "int32", "float64, float32, float16, complex64, complex128")),
        (lambda: tf.linalg.triangular_solve(z(tf.int32), z(tf.int32)),
         msg.format("matrix", "int32", "bfloat16, float64, float32, float16, complex64, complex128")),
        (lambda: tf.linalg.cholesky_solve(z(tf.int32), z(tf.int32)),
         msg.format("matrix", "int32", "bfloat16, float64, float32, float16, complex64, complex128")),
        (lambda: tf.linalg.tridiagonal_solve(z(tf.int32, (3, 2)), z(tf.int32, (2, 1))),
         msg.format("diagonals", "int32", "float64, float32, complex64, complex128")),
        (lambda: tf.linalg.expm(z(tf.bool)),
         msg.format("x", "bool", "bfloat16, float16, float32, float64, int8, int16, int32, int64")),
        (lambda: tf.image.rgb_to_hsv(z(tf.int32, (2, 2, 3))), msg.format("images", "int32", "float16, bfloat16, float32, float64")),
        (lambda: tf.image.hsv_to_rgb(z(tf.int32, (2, 2, 3))), msg.format("images", "int32", "float16, bfloat16, float32, float64")),
        (lambda: tf.image.draw_bounding_boxes(z(tf.int32, (1, 2, 2, 3)), tf.zeros((1, 1, 4))),
         msg.format("images", "int32", "float32, float16")),
        (lambda: tf.image.resize_bilinear(z(tf.bool, (1, 2, 2, 1)), [3, 3]),
         msg.format("images", "bool", "int8, uint8, int16, uint16, int32, int64, bfloat16, float16, float32, float64, bfloat16")),
        (lambda: tf.image.resize_nearest_neighbor(z(tf.complex64, (1, 2, 2, 1)), [3, 3]),
         msg.format("images", "complex64", "int8, uint8, int16, uint16, int32, int64, float16, float32, float64, bfloat16")),
        (lambda: tf.image.resize_area(z(tf.string, (1, 2, 2, 1)), [3, 3]),
         msg.format("images", "string", "int8, uint8, int16, uint16, int32, int64, float16, float32, float64, bfloat16")),
        (lambda: tf.image.resize(z(tf.bool, (1, 2, 2, 1)), [3, 3], method="nearest"),
         msg.format("images", "bool", "int8, uint8, int16, uint16, int32, int64, float16, float32, float64, bfloat16")),
        (lambda: tf.image.crop_and_resize(z(tf.bool, (1, 2, 2, 1)), tf.zeros((1, 4)), [0], [2, 2]),
         msg.format("image", "bool", "uint8, uint16, int8, int16, int32, int64, float16, float32, float64")),
        (lambda: tf.image.extract_image_patches(z(tf.string, (1, 2, 2, 1)), [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], "SAME"),
         msg.format("images", "string", "bfloat16, float16, float32, float64, int8, int16, int32, int64, uint8, "
                                        "uint16, uint32, uint64, complex64, complex128, bool")),
        (lambda: tf.image.non_max_suppression(z(tf.float64, (2, 4)), z(tf.float64, (2,)), 1),
         msg.format("boxes", "float64", "float16, float32")),
        (lambda: tf.linalg.diag(z(tf.string)),
         "Expected string passed to parameter 'padding_value' of op 'MatrixDiagV3', got 0 of type 'int' instead. "
         "Error: Expected string, but got 0 of type 'int'."),
        (lambda: tf.linalg.diag_part(z(tf.string)),
         "Expected string passed to parameter 'padding_value' of op 'MatrixDiagPartV3', got 0 of type 'int' instead. "
         "Error: Expected string, but got 0 of type 'int'."),
    ]
    for build, expected in cases:
        assert _type_error(build) == expected
    with tf.Graph().as_default():
        # NumPy float64 boxes become float32 (the op's default T), as TF's op builder does
        b = np.array([[0, 0, 1, 1], [0, 0, 1, 0.9], [5, 5, 6, 6]])
        t = tf.image.non_max_suppression(b, np.array([0.9, 0.8, 0.7]), 3)
        assert t.op.get_attr("T") == tf.float32 and run(t).tolist() == [0, 2]
        for dt in (tf.bool, tf.complex64, tf.string):
            with pytest.raises(AttributeError, match="^image dtype must be either floating point or integer$"):
                tf.image.adjust_contrast(z(dt, (1, 2, 2, 3)), 2.0)
        with pytest.raises(ValueError, match=r"^tf.linalg.expm does not support matrices of type <dtype: 'int32'>$"):
            tf.linalg.expm(z(tf.int32))


def test_extract_image_patches_errors_as_tf():
    img = np.zeros((2, 6, 7, 3), np.float32)
    one = [1, 1, 1, 1]
    p = tf.image.extract_image_patches
    with tf.Graph().as_default():
        for args, cls, text in [
                (([1, 2, 2], one, one), ValueError,
                 "Attr 'ksizes' of 'ExtractImagePatches' Op passed list of length 3 less than minimum 4."),
                (([1, 2, 2, 1], [1, 1, 1], one), ValueError,
                 "Attr 'strides' of 'ExtractImagePatches' Op passed list of length 3 less than minimum 4."),
                ((2, one, one), TypeError, "Expected list for 'ksizes' argument to 'extract_image_patches' Op, not 2."),
                (([1, 2, 2, 1, 1], one, one), ValueError,
                 "ExtractImagePatches requires the ksizes attribute to contain 4 values, but got: 5 for"),
                (([1, 2, 2, 1], [1, 1, 1, 1, 1], one), ValueError,
                 "ExtractImagePatches requires the stride attribute to contain 4 values, but got: 5 for"),
                (([1, 2, 2, 1], [1, 0, 1, 1], one), ValueError, "Stride must be > 0, but got 0 for"),
                (([1, 9, 2, 1], one, one), ValueError, "Computed output size would be negative: -2 [input_size: 6, "
                                                       "effective_filter_size: 9, stride: 1] for"),
                (([1, -1, 2, 1], one, one), ValueError,
                 "Negative dimension size caused by overflow when multiplying 3 and -2 for")]:
            with pytest.raises(cls) as e:
                p(img, *args, "VALID")
            assert str(e.value).startswith(text)
        # accepted at build time; the kernel's errors
        for args, cls, text in [(([2, 2, 2, 1], one, one), tf.errors.UnimplementedError, "Only support ksizes across space."),
                                (([1, 2, 2, 1], [1, 1, 1, 2], one), tf.errors.UnimplementedError,
                                 "Only support strides across space."),
                                (([1, 2, 2, 1], one, [1, 0, 1, 1]), tf.errors.OutOfRangeError, "rates is out of range."),
                                (([1, 2, 0, 1], one, one), tf.errors.OutOfRangeError, "ksizes is out of range.")]:
            t = p(img, *args, "SAME")
            with tf.Session() as s, pytest.raises(cls, match=text):
                s.run(t)
        assert p(img, [1, 2, 0, 1], one, one, "SAME").shape.as_list() == [2, 6, 7, 0]
        unknown = tf.placeholder_with_default(img, [None] * 4)
        t = p(unknown, [1, 9, 2, 1], one, one, "VALID")
        assert t.shape.ndims == 4 and t.shape.as_list() == [None] * 4
        assert "Computed output size would be negative: -2 [input_size: 6" in run_error(t)
        assert p(unknown, [1, 0, 2, 1], one, one, "VALID").shape.as_list() == [None, None, None, 0]
        with tf.Session() as s, pytest.raises(tf.errors.OutOfRangeError, match="strides is out of range."):
            s.run(p(unknown, [1, 2, 2, 1], [1, 0, 1, 1], one, "VALID"))
        # rows and columns are unknown unless both are known
        half = tf.placeholder_with_default(img, [2, None, 7, 3])
        assert p(half, [1, 2, 2, 1], one, one, "VALID").shape.as_list() == [2, None, None, 12]


def test_crop_and_resize_and_draw_bounding_boxes_shape_checks_and_kernel_errors_as_tf():
    img = np.zeros((2, 6, 7, 3), np.float32)
    cb = np.array([[0, 0, 1, 1], [0.2, 0.1, 0.7, 0.9], [0.5, 0.5, 0.5, 0.5], [1.1, -0.2, 0.3, 0.4]], np.float32)
    car = tf.image.crop_and_resize
    with tf.Graph().as_default():
        for args, text in [((cb[:, :3], [0, 1, 1, 0], [3, 3]), "Dimension must be 4 but is 3 for"),
                           ((cb, [0, 1, 1], [3, 3]), "Dimensions must be equal, but are 4 and 3 for"),
                           ((cb, [0, 1, 1, 0], [3, 3, 3]), "Dimension must be 2 but is 3 for"),
                           ((cb[0], [0, 1, 1, 0], [3, 3]), "Shape must be rank 2 but is rank 1 for")]:
            with pytest.raises(ValueError) as e:
                car(img, *args)
            assert str(e.value).startswith(text)
        with pytest.raises(ValueError, match=r"^Attr 'method' of 'CropAndResize' Op passed string 'bicubic' not "
                                             r"in: \"bilinear\", \"nearest\"\.$"):
            car(img, cb, [0, 1, 1, 0], [3, 3], method="bicubic")
        t = car(img, cb, [0, 1, 2, 0], [3, 3])
        with tf.Session() as s, pytest.raises(tf.errors.OutOfRangeError,
                                              match=r"box_index has values outside \[0, batch_size\)"):
            s.run(t)
        assert "boxes must have 4 columns" in run_error(
            car(img, tf.placeholder_with_default(cb[:, :3], [None, None]), [0, 1, 1, 0], [3, 3]))
        t = car(img, cb, [0, 1, 1, 0], tf.constant([3, -1]))
        assert t.shape.as_list() == [4, 3, None, 3]
        assert car(img, cb, tf.placeholder_with_default([0, 1, 1, 0], [None]), [3, 3]).shape.as_list() == [4, 3, 3, 3]

        boxes = np.zeros((2, 1, 4), np.float32)
        draw = tf.image.draw_bounding_boxes
        for args, text in [((img[0], boxes), "Shape must be rank 4 but is rank 3 for '{{node DrawBoundingBoxes"),
                           ((img, np.zeros((2, 1, 3), np.float32)), "Dimension must be 4 but is 3 for"),
                           ((img, np.zeros((2, 4), np.float32)), "Shape must be rank 3 but is rank 2 for")]:
            with pytest.raises(ValueError) as e:
                draw(*args)
            assert str(e.value).startswith(text)
        assert "The batch sizes should be the same" in run_error(draw(img, np.zeros((3, 1, 4), np.float32)))
        msg = run_error(draw(tf.placeholder_with_default(img[..., :2], [None] * 4), boxes))
        assert "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)\n" in msg + "\n"


def test_grayscale_to_rgb_builds_tfs_graph_and_checks():
    g = tf.Graph()
    with g.as_default():
        x = tf.constant(np.arange(6, dtype=np.float32).reshape(1, 2, 3, 1))
        t = tf.image.grayscale_to_rgb(x)
        assert _names(g) == ["Const", "grayscale_to_rgb/control_dependency", "grayscale_to_rgb/Rank",
                             "grayscale_to_rgb/sub/y", "grayscale_to_rgb/sub", "grayscale_to_rgb/ExpandDims/dim",
                             "grayscale_to_rgb/ExpandDims", "grayscale_to_rgb/ones/Const", "grayscale_to_rgb/ones",
                             "grayscale_to_rgb/ExpandDims_1/input", "grayscale_to_rgb/ExpandDims_1/dim",
                             "grayscale_to_rgb/ExpandDims_1", "grayscale_to_rgb/concat/axis",
                             "grayscale_to_rgb/concat", "grayscale_to_rgb"]
        assert t.shape.as_list() == [1, 2, 3, 3]
        np.testing.assert_array_equal(run(t), np.repeat(run(x), 3, axis=-1))
        with pytest.raises(ValueError, match=r"^Last dimension of a grayscale image should be size 1\.$"):
            tf.image.grayscale_to_rgb(tf.zeros((2, 2, 3)))
        with pytest.raises(ValueError, match=r"^A grayscale image \(shape \(1,\)\) must be at least two-dimensional\.$"):
            tf.image.grayscale_to_rgb(tf.zeros((1,)))
        u = tf.image.grayscale_to_rgb(tf.placeholder_with_default(np.zeros((2, 2, 1), np.float32), None))
        assert u.shape.ndims is None and run(u).shape == (2, 2, 3)
        bad = tf.image.grayscale_to_rgb(tf.placeholder_with_default(np.zeros((2, 2, 2), np.float32), [None] * 3))
        assert "Last dimension of a grayscale image should be size 1." in run_error(bad)


def test_float16_linalg_ops_without_a_tf_cpu_kernel_fail_when_run():
    a = np.eye(3, dtype=np.float16) * 2
    with tf.Graph().as_default():
        for t, op_type in [(tf.linalg.det(a), "MatrixDeterminant"), (tf.linalg.cholesky(a), "Cholesky"),
                           (tf.linalg.slogdet(a)[0], "LogMatrixDeterminant"), (tf.linalg.solve(a, a), "MatrixSolve"),
                           (tf.linalg.triangular_solve(a, a), "MatrixTriangularSolve"),
                           (tf.linalg.svd(a, compute_uv=False), "Svd"), (tf.linalg.eigh(a)[0], "SelfAdjointEigV2"),
                           (tf.linalg.lu(a)[0], "Lu"), (tf.linalg.sqrtm(a), "MatrixSquareRoot"),
                           (tf.linalg.lstsq(a, a, fast=False), "MatrixSolveLs")]:
            msg = run_error(t)
            # (TF lists the attrs in no fixed order)
            assert f"No OpKernel was registered to support Op '{op_type}' used by {{{{node {t.op.name}}}}} with " \
                   f"these attrs: [" in msg and "T=DT_HALF" in msg
        assert ("No OpKernel was registered to support Op 'MatrixSolve' used by "
                "{{node matrix_exponential/cond/MatrixSolve}} with these attrs: [T=DT_HALF, adjoint=false]"
                in run_error(tf.linalg.expm(a)))
        np.testing.assert_array_equal(run(tf.linalg.inv(a)), np.eye(3, dtype=np.float16) / 2)  # TF has this one


def test_matrix_solve_batch_merge_messages_and_triangular_solve_broadcasts():
    f = np.float32
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^Dimension 0 in both shapes must be equal, but are 3 and 2\. Shapes "
                                             r"are \[3\] and \[2\]\. for '\{\{node MatrixSolve\}\}"):
            tf.linalg.solve(np.zeros((3, 4, 4), f), np.zeros((2, 4, 1), f))
        with pytest.raises(ValueError, match=r"^Shapes must be equal rank, but are 0 and 1 for"):
            tf.linalg.solve(np.zeros((4, 4), f), np.zeros((3, 4, 1), f))
        rng = np.random.RandomState(1)
        a = np.tril(rng.rand(4, 4) + 2 * np.eye(4))
        b = rng.rand(3, 4, 2)
        A, B = tf.constant(a), tf.constant(b)
        x = tf.linalg.triangular_solve(A, B)
        assert x.shape.as_list() == [3, 4, 2]
        ga, gb = tf.gradients(tf.reduce_sum(x * x), [A, B])
        assert ga.shape.as_list() == [4, 4] and gb.shape.as_list() == [3, 4, 2]
        xv, gav = run([x, ga])
        np.testing.assert_allclose(xv, np.linalg.solve(a, b), rtol=1e-12)
        # float64 values recorded from TF 2.21 (the first entries), to a few ulps
        np.testing.assert_allclose(xv.reshape(-1)[:2], [0.17265246305379758, 0.23114801079955458], rtol=1e-14)
        np.testing.assert_allclose(gav[np.tril_indices(4)].sum(), np.tril(gav).sum())
        assert not np.triu(gav, 1).any()
        y = tf.linalg.triangular_solve(tf.placeholder_with_default(np.eye(4, dtype=f)[None, None].repeat(3, 0),
                                                                   [None, None, 4, 4]), np.ones((1, 2, 4, 1), f))
        assert y.shape.as_list() == [None, 2, 4, 1]
        assert run(y).shape == (3, 2, 4, 1)
        bad = tf.linalg.triangular_solve(tf.placeholder_with_default(np.eye(4, dtype=f)[None].repeat(3, 0), None),
                                         np.ones((2, 4, 1), f))
        assert "In[0] and In[1] must have compatible batch dimensions: [3,4,4] vs. [2,4,1]" in run_error(bad)
        with pytest.raises(NotImplementedError, match="^matrix_solve_ls is currently disabled for complex128 and "
                                                      "l2_regularizer != 0 due to poor accuracy.$"):
            tf.linalg.lstsq(np.eye(3, dtype=np.complex128), np.eye(3, dtype=np.complex128), l2_regularizer=0.5)


def test_matrix_2_norm_of_a_tensor_of_unknown_rank():
    b = np.random.RandomState(0).randn(3, 4, 5).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.placeholder_with_default(b, None)
        for ax in ([1, 2], [0, 1], [-1, 0]):
            t = tf.norm(x, ord=2, axis=ax)
            k = tf.norm(x, ord=2, axis=ax, keepdims=True)
            got, kept = run([t, k])
            want = np.linalg.norm(np.moveaxis(b, [a % 3 for a in ax], [-2, -1]), 2, axis=(-2, -1))
            np.testing.assert_allclose(got, want, rtol=1e-5)
            assert kept.shape == tuple(1 if i in [a % 3 for a in ax] else n for i, n in enumerate(b.shape))


def test_resize_and_crop_gradients_are_tfs_loops_bit_for_bit():
    # TF's gradient kernels add float32 products grad * wy * wx, cast to the image's dtype, in
    # the order (row, column, tap); a float16 image's bilinear gradient is summed in float32.
    # (TF has no bicubic gradient for float16: tf.gradients gives None, as here.)
    import hashlib
    rng = np.random.RandomState(42)
    img = rng.rand(2, 3, 4, 2)
    boxes = np.array([[0.1, 0.2, 0.9, 0.7], [0, 0, 1, 1], [-0.2, 0.3, 0.5, 1.3]], np.float32)
    out = []
    with tf.Graph().as_default():
        for dt in (tf.float16, tf.float32, tf.float64):
            v = tf.constant(img, dt)
            ys = [tf.image.resize_bilinear(v, [7, 9]), tf.image.resize_bilinear(v, [5, 3], half_pixel_centers=True),
                  tf.image.resize_bicubic(v, [8, 5], align_corners=True),
                  tf.image.resize_bicubic(v, [6, 7], half_pixel_centers=True)]
            if dt != tf.float16:
                ys.append(tf.image.crop_and_resize(v, boxes, [1, 0, 1], [5, 6]))
            for y in ys:
                w = tf.constant(rng.randn(*y.shape.as_list()).astype(np.float32))
                g = tf.gradients(tf.reduce_sum(tf.cast(y, tf.float32) * w), v)[0]
                assert (g is None) == (dt == tf.float16 and y.op.type == "ResizeBicubic")
                if g is not None:
                    out.append(g)
        vals = run(out)
    got = [hashlib.md5(np.ascontiguousarray(a).tobytes()).hexdigest()[:16] for a in vals]
    assert got == ["f38d6e32fa9e5b22", "89de9b9d40f2d62d", "f7053777230c788c", "f91018def5b99f20", "5b5e5baed4fb989f",
                   "9b4743dca1ff89c9", "370bb6bbd50c1e46", "1330b5099a110acb", "673866e958ff8edb", "a0f0177290bd0619",
                   "cc13840c424053cf", "e416bd963be32445"]


def test_crop_and_resize_box_gradients_are_tfs_loop_bit_for_bit():
    # TF's box gradient: float32 sums over (row, column, channel); its sample positions use
    # (size - 1) / (crop - 1); a crop of size 1 samples at 0.5 * (lo + hi) * (size - 1) in double
    # and adds double terms to the float sums.
    import hashlib
    rng = np.random.RandomState(4)
    bx = np.array([[0.1, 0.2, 0.9, 0.7], [0, 0, 1, 1], [-0.2, 0.3, 0.5, 1.3], [0.3, 0.3, 0.3, 0.8]], np.float32)
    got = []
    with tf.Graph().as_default(), tf.Session() as s:
        for dt in (np.float32, np.float64, np.float16, np.uint8, np.int32):
            img = (rng.rand(2, 6, 7, 3) * (255 if dt in (np.uint8, np.int32) else 1)).astype(dt)
            for cs in ([5, 6], [1, 1], [1, 4], [3, 1]):
                b = tf.constant(bx)
                y = tf.image.crop_and_resize(tf.constant(img), b, [1, 0, 1, 0], cs)
                w = tf.constant(rng.randn(4, cs[0], cs[1], 3).astype(np.float32))
                g = s.run(tf.gradients(tf.reduce_sum(y * w), b)[0])
                got.append(hashlib.md5(g.tobytes()).hexdigest()[:16])
    assert got == ["eb656408d21016f5", "3f06b08b6ffeaeb4", "377b0f893f56cfc1", "b26fe656804f159c",
                   "f7820378723fc475", "fcc9a7076b3d2634", "4d6a890cfbe44dea", "0bffdbdf7392a652",
                   "f1c58c5e045f75a6", "cdfb50d647feaf87", "18a5fd71b898813e", "b50dcf37335867bf",
                   "aa55eda69b737634", "dd4e4d186c21f803", "8095f9d35a8c8c1f", "60ba760aeee92eaf",
                   "b8cc56f76c700340", "c4881ce81de101d4", "de0c4f8ee5ba2749", "4b9348a48b324b40"]


def test_sample_distorted_bounding_box_shape_checks_carry_the_node():
    with tf.Graph().as_default():
        for args, text in [(([8, 10], np.zeros((1, 1, 4), np.float32)), "Dimension must be 3 but is 2 for '{{node "
                                                                          "sample_distorted_bounding_box/"
                                                                          "SampleDistortedBoundingBoxV2}}"),
                           (([8, 10, 3], np.zeros((1, 1, 3), np.float32)), "Dimension must be 4 but is 3 for"),
                           (([[8, 10, 3]], np.zeros((1, 1, 4), np.float32)), "Shape must be rank 1 but is rank 2 for"),
                           (([8, 10, 3], np.zeros((1, 4), np.float32)), "Shape must be rank 3 but is rank 2 for")]:
            with pytest.raises(ValueError) as e:
                tf.image.sample_distorted_bounding_box(*args)
            assert str(e.value).startswith(text)


def test_extract_glimpse_gaussian_noise_stays_in_each_channels_range():
    # Eigen's ExtractGlimpses clips its Gaussian noise to the channel's [min, max].
    img = np.random.RandomState(8).rand(1, 8, 10, 3).astype(np.float32)
    with tf.Graph().as_default():
        g = tf.image.extract_glimpse(img, [6, 6], [[-5.0, -5.0]], centered=False, normalized=False,
                                     uniform_noise=False)
        out = run(g)
    assert (out >= img.min(axis=(0, 1, 2))).all() and (out <= img.max(axis=(0, 1, 2))).all()


def test_rgb_hsv_ops_set_the_last_dimension_to_3():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, None, None, None])
        assert tf.image.rgb_to_hsv(x).shape.as_list() == [2, None, None, 3]
        assert tf.image.hsv_to_rgb(tf.placeholder(tf.float32, [8, None, None])).shape.as_list() == [8, None, 3]
        assert tf.image.rgb_to_hsv(tf.placeholder(tf.float32)).shape.ndims is None


def test_linalg_shape_inference_with_unknown_shapes_as_tf():
    rng = np.random.RandomState(3)
    a = rng.randn(3, 4, 4).astype(np.float32) + 4 * np.eye(4, dtype=np.float32)
    s = a @ np.swapaxes(a, -1, -2)
    r = rng.randn(3, 4, 2).astype(np.float32)
    with tf.Graph().as_default():
        unknown = tf.placeholder_with_default(s, None)
        t = tf.linalg.adjoint(unknown)
        assert t.name == "adjoint/matrix_transpose/transpose:0" and t.shape.ndims is None
        np.testing.assert_array_equal(run(t), np.swapaxes(s, -1, -2))
        assert tf.linalg.set_diag(unknown, tf.ones([3, 4])).shape.as_list() == [3, None, None]
        assert tf.linalg.solve(unknown, r).shape.as_list() == [3, 4, 2]
        assert tf.linalg.solve(s, tf.placeholder(tf.float32)).shape.as_list() == [3, 4, None]
        # lstsq (fast) is TF's composite: a cond on the inner shape when it is not known
        for shape, name, static in [([None, None, None], "matrix_solve_ls/cond/Merge:0", [3, None, 2]),
                                    ([3, None, 4], "matrix_solve_ls_1/cond/Merge:0", [3, 4, 2]),
                                    (None, "matrix_solve_ls_2/cond/Merge:0", None),
                                    ([None, 4, 4], "matrix_solve_ls_3/cholesky_solve/MatrixTriangularSolve_1:0",
                                     [3, 4, 2])]:
            x = tf.linalg.lstsq(tf.placeholder_with_default(s, shape), r)
            assert x.name == name
            assert (x.shape.as_list() if x.shape.ndims is not None else None) == static
            np.testing.assert_allclose(run(x), np.linalg.solve(s, r), rtol=2e-3, atol=1e-4)


def test_signal_static_shapes_as_tfs_shape_inference():
    x = np.random.RandomState(11).randn(2, 16)
    with tf.Graph().as_default():
        s = tf.signal.stft(tf.placeholder_with_default(x, [None, 16]), 8, 4)
        assert s.shape.as_list() == [None, 3, 5]
        assert tf.signal.inverse_stft(s, 8, 4).shape.as_list() == [None, 16]
        f = np.zeros((2, 3, 8))
        assert tf.signal.overlap_and_add(tf.placeholder_with_default(f, [None, 3, 8]), 4).shape.as_list() == [None, 16]
        assert tf.signal.overlap_and_add(tf.placeholder_with_default(f, [None, 3, None]), 4).shape.as_list() == [None, None]
        assert tf.signal.overlap_and_add(tf.placeholder_with_default(f, [None, None, 8]), 4).shape.as_list() == [None, None]
        assert run(tf.signal.overlap_and_add(tf.placeholder_with_default(f + 1, [None, 3, 8]), 4)).shape == (2, 16)
        assert tf.signal.rfft(tf.constant(x, tf.float32), fft_length=[-1]).shape.as_list() == [2, 1]


def test_nms_shape_functions_and_kernel_checks_as_tf():
    b = np.random.RandomState(0).rand(5, 4).astype(np.float32)
    s = np.random.RandomState(1).rand(5).astype(np.float32)
    z = np.zeros
    with tf.Graph().as_default():
        for build, text in [
                (lambda: tf.image.non_max_suppression(b[:, :3], s, 3), "Dimension must be 4 but is 3 for '{{node "
                                                                       "non_max_suppression/NonMaxSuppressionV3}}"),
                (lambda: tf.image.non_max_suppression(b, s[:3], 3), "Dimensions must be equal, but are 5 and 3 for"),
                (lambda: tf.image.non_max_suppression(b, s, [3], 0.5), "Shape must be rank 0 but is rank 1 for"),
                (lambda: tf.image.non_max_suppression(b, s, 3, [0.5]), "Shape must be rank 0 but is rank 1 for"),
                (lambda: tf.image.non_max_suppression_overlaps(z((5, 4), np.float32), s, 3),
                 "Dimensions must be equal, but are 5 and 4 for"),
                (lambda: tf.image.non_max_suppression_overlaps(z((5, 5), np.float32), s[:3], 3),
                 "Dimensions must be equal, but are 5 and 3 for"),
                (lambda: tf.image.combined_non_max_suppression(z((2, 30, 2, 4), np.float32), z((2, 30, 3), np.float32), 5, 8),
                 "third dimension of boxes must be either 1 or equal to the third dimension of scores for"),
                (lambda: tf.image.combined_non_max_suppression(z((2, 30, 1, 3), np.float32), z((2, 30, 3), np.float32), 5, 8),
                 "Dimension must be 4 but is 3 for"),
                (lambda: tf.image.combined_non_max_suppression(z((2, 30, 1, 4), np.float32), z((2, 29, 3), np.float32), 5, 8),
                 "Dimensions must be equal, but are 30 and 29 for"),
                (lambda: tf.image.combined_non_max_suppression(z((2, 30, 1, 4), np.float32), z((3, 30, 3), np.float32), 5, 8),
                 "Dimensions must be equal, but are 2 and 3 for"),
                (lambda: tf.image.combined_non_max_suppression(z((30, 1, 4), np.float32), z((2, 30, 3), np.float32), 5, 8),
                 "Shape must be rank 4 but is rank 3 for")]:
            with pytest.raises(ValueError) as e:
                build()
            assert str(e.value).startswith(text)
        for per_class, total, i, v in [(-5, 8, 2, -5), (5, -8, 3, -8)]:
            with pytest.raises(ValueError) as e:
                tf.image.combined_non_max_suppression(z((2, 30, 1, 4), np.float32), z((2, 30, 3), np.float32),
                                                      per_class, total)
            msg = str(e.value)
            assert msg.startswith(f"Dimension size, given by scalar input {i}, must be non-negative but is {v} for")
            assert msg.endswith(f"and with computed input tensors: input[2] = <{per_class}>, input[3] = <{total}>.")
        assert "output size must be non-negative" in run_error(tf.image.non_max_suppression(b, s, -1, 0.5))
        assert "output size must be non-negative" in run_error(tf.image.non_max_suppression_with_scores(b, s, -2)[0])


def _fmt(a):
    # the probe's format: the bytes' hex, or for more than 64 values their md5 and the first four
    import hashlib
    head = f"{a.dtype}({len(a)},):"
    if a.size <= 64:
        return head + a.tobytes().hex()
    return head + "md5=" + hashlib.md5(a.tobytes()).hexdigest() + " sample=" + a[:4].tobytes().hex()


def test_soft_nms_matches_tf_bit_for_bit():
    # TF's Gaussian Soft-NMS (soft_nms_sigma > 0) in float32, glibc's expf for the weights.
    import hashlib
    rng = np.random.RandomState(21)
    text = []
    with tf.Graph().as_default(), tf.Session() as sess:
        for trial, n in enumerate([30, 50, 8, 100, 20, 40]):
            b = rng.rand(n, 4).astype(np.float32)
            b = np.concatenate([np.minimum(b[:, :2], b[:, 2:]), np.maximum(b[:, :2], b[:, 2:])], 1)
            if trial % 2:
                b = b[:, [2, 3, 0, 1]]
            sc = rng.rand(n).astype(np.float32)
            if trial == 2:
                sc[:] = 0.5
            for sig in (0.1, 0.5, 1.0):
                for st in (float("-inf"), 0.3):
                    for m in (5, 200):
                        idx, val = sess.run(tf.image.non_max_suppression_with_scores(b, sc, m, 0.5, st,
                                                                                     soft_nms_sigma=sig))
                        text.append(f"[{_fmt(idx)}, {_fmt(val)}]\n")
            if trial == 0:
                assert idx.tolist()[:5] == [13, 12, 7, 6, 3]
        assert "soft_nms_sigma_val must be non-negative" in run_error(
            tf.image.non_max_suppression_with_scores(b, sc, 5, 0.5, soft_nms_sigma=-0.5)[0])
    # recorded from TF 2.21: the md5 of the 72 results printed in this form
    assert hashlib.md5("".join(text).encode()).hexdigest() == "78aa0c6da0fe5765ae7eaff32fad4056"


def test_hard_nms_compares_a_float32_iou_with_the_threshold():
    # Boxes whose IOU lies at the float32 threshold: TF keeps or drops the second box by its
    # float32 IOU (a float64 IOU decided 78 of these 200 the other way).
    rng = np.random.RandomState(5)
    f = np.float32
    cases = []
    for _ in range(200):
        b0 = rng.rand(4).astype(f)
        b0 = np.array([min(b0[0], b0[2]), min(b0[1], b0[3]), max(b0[0], b0[2]), max(b0[1], b0[3])], f)
        b1 = (b0 + rng.randn(4).astype(f) * 0.05).astype(f)
        a0 = (b0[2] - b0[0]) * (b0[3] - b0[1])
        a1 = (max(b1[0], b1[2]) - min(b1[0], b1[2])) * (max(b1[1], b1[3]) - min(b1[1], b1[3]))
        ih = max(min(b0[2], max(b1[0], b1[2])) - max(b0[0], min(b1[0], b1[2])), f(0))
        iw = max(min(b0[3], max(b1[1], b1[3])) - max(b0[1], min(b1[1], b1[3])), f(0))
        inter = ih * iw
        cases.append((np.stack([b0, b1]), float(np.float32(float(inter) / (float(a0) + float(a1) - float(inter))))))
    with tf.Graph().as_default():
        kept = run([tf.image.non_max_suppression(b, np.array([0.9, 0.8], f), 2, thr) for b, thr in cases])
    # recorded from TF 2.21: how many boxes each keeps
    assert "".join(str(len(k)) for k in kept) == "21212221222221122211221211122222222211221222122222212122222122222222222222122212221122212221222122222222222122222222222221122222222222222212221222222222121222222212211222222211222222221222222222222222"


def test_rgb_to_hsv_of_numpy_integers_converts_them_to_float32_as_tfs_op_builder():
    with tf.Graph().as_default():
        t = tf.image.rgb_to_hsv(np.array([[100, 50, 25]], np.uint8))
        assert t.dtype == tf.float32 and t.op.inputs[0].op.name == "RGBToHSV/images"
        np.testing.assert_allclose(run(t), [[1 / 18, 0.75, 100.0]], rtol=1e-6)
        assert tf.image.hsv_to_rgb([[0, 1, 1]]).dtype == tf.float32
        assert tf.image.rgb_to_hsv(np.full((1, 3), 0.5, np.float16)).dtype == tf.float16
        assert tf.image.rgb_to_hsv(np.full((1, 3), 0.5)).dtype == tf.float64
