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
