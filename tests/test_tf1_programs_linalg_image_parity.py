"""tf.linalg, tf.signal and tf.image against TF, and the fixes the comparison found; expected
values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled) unless computed with
NumPy in the test."""

import numpy as np

import tensorweave as tf


def _names(g):
    return [o.name for o in g.get_operations()]


def _hex(a):
    return np.asarray(a).reshape(-1).tobytes().hex()


def test_determinant_is_sign_times_exp_of_the_log_determinant_like_tf():
    # TF's MatrixDeterminant is sign * exp(sum(log|U_ii|)) of a partial-pivot LU in float32, so
    # det([[4, 1], [1, 3]]) prints 11.000001, not LAPACK's product of the pivots (11.0).
    rng = np.random.RandomState(0)
    ms = [np.array([[4., 1.], [1., 3.]], np.float32), np.array([[1., 2.], [2., 4.]], np.float32),
          np.array([[0., 1.], [1., 0.]], np.float32), np.array([[0., 1.], [0., 1.]], np.float32),
          rng.randn(3, 3).astype(np.float32),
          rng.randn(5, 5).astype(np.float32), rng.randn(9, 9).astype(np.float32)]
    with tf.Graph().as_default(), tf.Session() as sess:
        got = [sess.run([tf.matrix_determinant(m), tf.linalg.slogdet(m)]) for m in ms]
    # Recorded from TF 2.21: (det, sign, log|det|) bit patterns.
    expected = [("01003041", "0000803f", "1e771940"), ("00000080", "00000080", "000080ff"),
                ("000080bf", "000080bf", "00000000"), ("00000000", "00000000", "000080ff"),
                ("2eb53cc0", "000080bf", "93688a3f"), ("a6be0042", "0000803f", "aa2d5e40"),
                ("8d2ad7c2", "000080bf", "56b49540")]
    for (d, (sign, logdet)), want in zip(got, expected):
        assert (_hex(d), _hex(sign), _hex(logdet)) == want
    # A float32 batch and float64 agree with NumPy to rounding.
    b = rng.randn(3, 4, 4)
    with tf.Graph().as_default(), tf.Session() as sess:
        d64, d32 = sess.run([tf.linalg.det(b), tf.linalg.det(b.astype(np.float32))])
    np.testing.assert_allclose(d64, np.linalg.det(b), rtol=1e-12)
    np.testing.assert_allclose(d32, np.linalg.det(b), rtol=1e-5)


def test_regularized_lstsq_slices_the_batch_shape_first_like_tf():
    a = np.arange(6.).reshape(3, 2).astype(np.float32) + 1
    with tf.Graph().as_default() as g:
        x = tf.linalg.lstsq(a, np.array([[1.], [2.], [3.]], np.float32), l2_regularizer=0.5)
        names = [n for n in _names(g) if "eye" not in n][:13]
        # Recorded from TF 2.21.
        assert names == ["matrix",
            "matrix_solve_ls/MatMul", "matrix_solve_ls/Shape", "matrix_solve_ls/strided_slice/stack",
            "matrix_solve_ls/strided_slice/stack_1", "matrix_solve_ls/strided_slice/stack_2",
            "matrix_solve_ls/strided_slice", "matrix_solve_ls/strided_slice_1/stack",
            "matrix_solve_ls/strided_slice_1/stack_1", "matrix_solve_ls/strided_slice_1/stack_2",
            "matrix_solve_ls/strided_slice_1", "matrix_solve_ls/mul/x", "matrix_solve_ls/mul"]
        assert "matrix_solve_ls/eye/shape" not in _names(g)
        assert "matrix_solve_ls/MatMul_1/b" in _names(g)
        assert x.shape.as_list() == [2, 1]
        with tf.Session() as sess:
            got = sess.run(x)
    want = np.linalg.solve(a.T.astype(np.float64) @ a + 0.5 * np.eye(2), a.T @ [[1.], [2.], [3.]])
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_signal_helpers_name_their_floor_mod_mod_and_keep_a_static_perm():
    with tf.Graph().as_default() as g:
        tf.signal.hann_window(8)
        tf.signal.overlap_and_add(tf.ones([3, 4]), 2)
        names = _names(g)
    # Recorded from TF 2.21: math_ops.mod opens a "mod" scope; a static outer rank plus [1, 0, 2]
    # is one NumPy constant inside the concat.
    assert "hann_window/mod" in names and "hann_window/mod/y" in names
    assert "overlap_and_add/concat_2/values_1" in names
    assert "overlap_and_add/add" not in names


def test_nearest_crop_and_resize_rounds_halves_away_from_zero():
    img = np.arange(30, dtype=np.float32).reshape(1, 5, 6, 1)
    boxes = [[0.1, 0.1, 0.8, 0.9], [0., 0., 1., 1.], [-0.2, 0.3, 1.2, 0.5]]
    with tf.Graph().as_default() as g:
        out = tf.image.crop_and_resize(img, boxes, [0, 0, 0], [3, 3], method="nearest", extrapolation_value=-1.)
        assert _names(g)[:4] == ["CropAndResize/image", "CropAndResize/boxes", "CropAndResize/box_ind",
                                 "CropAndResize/crop_size"]
        with tf.Session() as sess:
            got = sess.run(out)[..., 0]
    # Recorded from TF 2.21.
    np.testing.assert_array_equal(got, [[[1, 3, 5], [13, 15, 17], [19, 21, 23]],
                                        [[0, 3, 5], [12, 15, 17], [24, 27, 29]],
                                        [[-1, -1, -1], [14, 14, 15], [-1, -1, -1]]])


def test_resize_ops_and_preserve_aspect_ratio_build_tfs_graph():
    x = np.zeros((1, 2, 3, 3), np.float32)
    with tf.Graph().as_default() as g:
        nn = tf.image.resize_nearest_neighbor(x, [4, 4])
        r = tf.image.resize_images(tf.constant(x), [4, 4], preserve_aspect_ratio=True)
        names = _names(g)
    # Recorded from TF 2.21.
    assert names[:2] == ["ResizeNearestNeighbor/images", "ResizeNearestNeighbor/size"]
    assert nn.name == "ResizeNearestNeighbor:0"
    assert names[-3:] == ["resize/Cast_7", "resize/size_1", "resize/ResizeBilinear"]
    assert "resize/Minimum" in names and "resize/Round_1" in names
    assert r.shape.as_list() == [1, 3, 4, 3]


def test_color_ops_build_tfs_graphs_and_values():
    x = np.arange(18, dtype=np.float32).reshape(1, 2, 3, 3) * 10
    with tf.Graph().as_default() as g:
        c = tf.constant(x)
        gray = tf.image.rgb_to_grayscale(c)
        std = tf.image.per_image_standardization(c)
        flip = tf.image.flip_left_right(c)
        tf.image.adjust_hue(c, 0.2)
        tf.image.adjust_saturation(c, 1.5)
        names = _names(g)
        with tf.Session() as sess:
            gv, sv = sess.run([gray, std])
    # Recorded from TF 2.21.
    for n in ["rgb_to_grayscale/Tensordot/MatMul", "rgb_to_grayscale/ExpandDims",
              "per_image_standardization/control_dependency",
              "per_image_standardization/reduce_std/reduce_variance/Mean_1", "per_image_standardization/sub",
              "flip_left_right/control_dependency", "adjust_hue/AdjustHue/delta",
              "adjust_saturation/AdjustSaturation/scale"]:
        assert n in names, n
    assert gray.name == "rgb_to_grayscale:0" and flip.name == "flip_left_right/ReverseV2:0"
    assert _hex(gv) == "6666024187961842bb4988423148c4425523004390221e43"
    assert _hex(sv) == ("a6b5d1bfb109b9bfbc5da0bfc6b187bfa10b5ebfb6b32cbf97b7f6bec10794beac5fc5bdac5fc53d"
                        "c107943e97b7f63eb6b32c3fa10b5e3fc6b1873fbc5da03fb109b93fa6b5d13f")
