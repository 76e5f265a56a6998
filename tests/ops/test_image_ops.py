"""tf.image against values, names and errors recorded from TensorFlow 2.21 (compat.v1, TF1's
legacy resize: half_pixel_centers=False), NumPy references, and finite-difference gradients."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, gradient_error

IMG = (np.arange(12, dtype=np.float32).reshape(1, 3, 4, 1) ** 1.5)

# TF's outputs for IMG resized to [5, 3].
BILINEAR = [[0.0, 1.609476, 4.406911], [4.8, 8.055314, 12.110256], [10.925484, 15.590218, 20.769224],
            [19.701935, 25.30325, 31.339436], [22.627417, 28.540926, 34.86284]]
BILINEAR_ALIGN = [[0.0, 1.914214, 5.196152], [4.0, 7.426426, 11.858206], [8.0, 12.938639, 18.520258],
                  [15.313708, 21.125013, 27.501564], [22.627417, 29.311388, 36.482872]]
BILINEAR_HALF = [[0.166667, 1.914214, 4.801532], [3.512023, 6.323984, 10.034136],
                 [8.530057, 12.938639, 17.88304], [17.425732, 22.76229, 28.55693],
                 [23.35618, 29.311388, 35.672855]]
NEAREST = [[0.0, 1.0, 2.828427], [0.0, 1.0, 2.828427], [8.0, 11.18034, 14.696939],
           [8.0, 11.18034, 14.696939], [22.627417, 27.0, 31.622776]]
NEAREST_ALIGN = [[0.0, 2.828427, 5.196152], [8.0, 14.696939, 18.520258], [8.0, 14.696939, 18.520258],
                 [22.627417, 31.622776, 36.482872], [22.627417, 31.622776, 36.482872]]
NEAREST_HALF = [[0.0, 2.828427, 5.196152], [0.0, 2.828427, 5.196152], [8.0, 14.696939, 18.520258],
                [22.627417, 31.622776, 36.482872], [22.627417, 31.622776, 36.482872]]
AREA_2x6 = [[2.666667, 3.530057, 4.393446, 6.784598, 8.211062, 9.637519],
            [17.751612, 19.739197, 21.726778, 25.980833, 28.238087, 30.495325]]


def run(t, feed=None):
    with tf.Session(graph=t.graph) as sess:
        return sess.run(t, feed)


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _img(rows):
    return np.array(rows, np.float32)[None, :, :, None]


@pytest.mark.parametrize("kwargs,want,name", [
    ({}, BILINEAR, "resize/ResizeBilinear:0"),
    ({"align_corners": True}, BILINEAR_ALIGN, "resize/ResizeBilinear:0"),
    ({"method": tf.image.ResizeMethod.NEAREST_NEIGHBOR}, NEAREST, "resize/ResizeNearestNeighbor:0"),
    ({"method": tf.image.ResizeMethod.NEAREST_NEIGHBOR, "align_corners": True}, NEAREST_ALIGN,
     "resize/ResizeNearestNeighbor:0"),
])
def test_resize_images_matches_tf(kwargs, want, name):
    t = tf.image.resize_images(IMG, [5, 3], **kwargs)
    assert t.name == name and t.dtype == tf.float32 and t.shape.as_list() == [1, 5, 3, 1]
    np.testing.assert_allclose(run(t), _img(want), rtol=1e-6, atol=1e-5)


def test_resize_variants_and_single_image():
    np.testing.assert_allclose(run(tf.image.resize_bilinear(IMG, [5, 3], half_pixel_centers=True)),
                               _img(BILINEAR_HALF), atol=1e-5)
    np.testing.assert_allclose(run(tf.image.resize_nearest_neighbor(IMG, [5, 3], half_pixel_centers=True)),
                               _img(NEAREST_HALF), atol=1e-5)
    t = tf.image.resize_images(IMG, [2, 6], method=tf.image.ResizeMethod.AREA)
    assert t.name == "resize/ResizeArea:0"
    np.testing.assert_allclose(run(t), _img(AREA_2x6), atol=1e-5)
    t = tf.image.resize_images(IMG[0], [5, 3])  # 3-D in, 3-D out
    assert t.name == "resize_1/Squeeze:0" and t.shape.as_list() == [5, 3, 1]
    np.testing.assert_allclose(run(t), _img(BILINEAR)[0], atol=1e-5)
    t = tf.image.resize(IMG, [5, 3])
    np.testing.assert_allclose(run(t), _img(BILINEAR), atol=1e-5)
    assert tf.image.resize_bilinear(IMG, [5, 3]).name == "ResizeBilinear_1:0"  # the second at the root
    u8 = IMG.astype(np.uint8)
    t = tf.image.resize_nearest_neighbor(u8, [5, 3])
    assert t.dtype == tf.uint8
    np.testing.assert_array_equal(run(t), _img(NEAREST).astype(np.uint8))
    t = tf.image.resize_images(u8, [5, 3])  # bilinear of uint8 gives float32 (TF)
    assert t.dtype == tf.float32
    np.testing.assert_allclose(run(t)[0, :, :, 0], [[0, 1.333333, 4], [4.8, 7.733334, 11.6],
                                                    [10.800001, 15.266667, 20.2], [19.2, 25.06667, 30.8],
                                                    [22, 28.333334, 34.333332]], atol=1e-5)
    assert run(tf.image.resize_images(IMG, [3, 4])).tolist() == IMG.tolist()  # same size: unchanged
    t = tf.image.resize_images(IMG, [5, 3], method=tf.image.ResizeMethod.BICUBIC)
    assert t.op.type == "ResizeBicubic"  # values: tests/image/test_image_bicubic.py
    with pytest.raises(ValueError, match="3 or 4 dimensions"):
        tf.image.resize_images(np.zeros((2, 2), np.float32), [3, 3])
    assert (tf.image.ResizeMethod.BILINEAR, tf.image.ResizeMethod.NEAREST_NEIGHBOR,
            tf.image.ResizeMethod.BICUBIC, tf.image.ResizeMethod.AREA) == (0, 1, 2, 3)


def test_resize_gradients():
    g = np.arange(15, dtype=np.float32).reshape(1, 5, 3, 1)
    x = tf.placeholder(tf.float32, [1, 3, 4, 1])
    gb = tf.gradients(tf.image.resize_bilinear(x, [5, 3]), x, grad_ys=g)[0]
    gn = tf.gradients(tf.image.resize_nearest_neighbor(x, [5, 3]), x, grad_ys=g)[0]
    assert gb.op.type == "ResizeBilinearGrad" and gn.op.type == "ResizeNearestNeighborGrad"
    with tf.Session() as sess:
        vb, vn = sess.run([gb, gn], {x: IMG})
    np.testing.assert_allclose(vb[0, :, :, 0], [[1.2, 1.733333, 2.2, 2.666667],  # TF's
                                                [8.4, 6.666665, 7.199999, 7.733334],
                                                [20.400002, 14.933332, 15.6, 16.26667]], atol=1e-5)
    np.testing.assert_array_equal(vn[0, :, :, 0], [[3, 5, 7, 0], [15, 17, 19, 0], [12, 13, 14, 0]])  # TF's
    # Finite differences (in float64 for the gradient; the resize output is float32 as in TF, and
    # linear in the image, so a large step is exact up to float32 rounding).
    rng = np.random.RandomState(0)
    x64 = rng.standard_normal((2, 3, 4, 2))
    for kw in ({}, {"align_corners": True}, {"half_pixel_centers": True}):
        err = gradient_error(lambda t: tf.image.resize_bilinear(t, [5, 7], **kw), [x64], delta=0.5)
        assert err < 1e-4, (kw, err)
        err = gradient_error(lambda t: tf.image.resize_nearest_neighbor(t, [2, 7], **kw), [x64], delta=0.5)
        assert err < 1e-9, (kw, err)


def test_flips_transpose_rot90():
    img = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    b4 = np.stack([img, img + 1])
    t = tf.image.flip_left_right(img)
    assert t.name == "flip_left_right/ReverseV2:0"
    np.testing.assert_array_equal(run(t), img[:, ::-1])
    np.testing.assert_array_equal(run(tf.image.flip_left_right(b4)), b4[:, :, ::-1])
    t = tf.image.flip_up_down(img)
    assert t.name == "flip_up_down/ReverseV2:0"
    np.testing.assert_array_equal(run(t), img[::-1])
    np.testing.assert_array_equal(run(tf.image.flip_up_down(b4)), b4[:, ::-1])
    t = tf.image.transpose_image(img)
    assert t.name == "transpose/transpose:0"
    np.testing.assert_array_equal(run(t), img.transpose(1, 0, 2))
    np.testing.assert_array_equal(run(tf.image.transpose_image(b4)), b4.transpose(0, 2, 1, 3))
    for k in range(-1, 5):
        np.testing.assert_array_equal(run(tf.image.rot90(img, k)), np.rot90(img, k, axes=(0, 1)))
        np.testing.assert_array_equal(run(tf.image.rot90(b4, k)), np.rot90(b4, k, axes=(1, 2)))
    with pytest.raises(ValueError, match="must be at least three-dimensional"):
        tf.image.flip_left_right(np.zeros((3, 3), np.float32))
    check_gradients(lambda t: tf.image.rot90(tf.image.flip_left_right(t), 1), [np.random.rand(2, 3, 2)])


def test_random_flips_are_seeded_and_flip_or_not():
    img = np.arange(60, dtype=np.float32).reshape(4, 5, 3)
    tf.set_random_seed(3)
    t = tf.image.random_flip_left_right(img, seed=1)
    b = tf.image.random_flip_up_down(np.stack([img] * 8), seed=2)
    with tf.Session() as sess:
        outs = [sess.run(t) for _ in range(12)]
        batch = sess.run(b)
    kinds = {0 if np.array_equal(o, img) else 1 if np.array_equal(o, img[:, ::-1]) else 2 for o in outs}
    assert kinds == {0, 1}
    kinds = {0 if np.array_equal(o, img) else 1 if np.array_equal(o, img[::-1]) else 2 for o in batch}
    assert kinds <= {0, 1} and len(kinds) == 2  # per-image coin flips
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        t2 = tf.image.random_flip_left_right(img, seed=1)
        with tf.Session() as sess:
            again = [sess.run(t2) for _ in range(12)]
    assert all(np.array_equal(a, o) for a, o in zip(again, outs))


def test_crops_and_pads():
    img = np.arange(60, dtype=np.float32).reshape(4, 5, 3)
    b4 = np.stack([img, img + 1])
    t = tf.image.crop_to_bounding_box(img, 1, 1, 2, 2)
    assert t.name == "crop_to_bounding_box/Squeeze:0"
    np.testing.assert_array_equal(run(t), img[1:3, 1:3])
    np.testing.assert_array_equal(run(tf.image.crop_to_bounding_box(b4, 1, 1, 2, 2)), b4[:, 1:3, 1:3])
    t = tf.image.pad_to_bounding_box(img, 1, 2, 6, 8)
    np.testing.assert_array_equal(run(t), np.pad(img, [[1, 1], [2, 1], [0, 0]]))
    np.testing.assert_array_equal(run(tf.image.pad_to_bounding_box(b4, 0, 1, 4, 6)),
                                  np.pad(b4, [[0, 0], [0, 0], [1, 0], [0, 0]]))
    t = tf.image.resize_image_with_crop_or_pad(img, 3, 2)
    assert t.name == "resize_image_with_crop_or_pad/Squeeze:0"
    np.testing.assert_array_equal(run(t), img[0:3, 1:3])  # TF's offsets
    np.testing.assert_array_equal(run(tf.image.resize_image_with_crop_or_pad(img, 1, 6)),
                                  np.pad(img[1:2], [[0, 0], [0, 1], [0, 0]]))
    np.testing.assert_array_equal(run(tf.image.resize_with_crop_or_pad(b4, 6, 3)),
                                  np.pad(b4[:, :, 1:4], [[0, 0], [1, 1], [0, 0], [0, 0]]))
    c = np.arange(35, dtype=np.float32).reshape(5, 7, 1)
    t = tf.image.central_crop(c, 0.3)
    assert t.name == "central_crop/Slice:0"
    np.testing.assert_array_equal(run(t)[:, :, 0], [[9, 10, 11], [16, 17, 18], [23, 24, 25]])  # TF's
    assert run(tf.image.central_crop(np.zeros((5, 7, 1), np.float32), 0.5)).shape == (3, 5, 1)  # TF's
    np.testing.assert_array_equal(run(tf.image.central_crop(np.stack([c, c]), 0.3)), np.stack([c, c])[:, 1:4, 2:5])
    for f, msg in [(lambda: tf.image.central_crop(img, 1.5), r"central_fraction must be within \(0, 1\]"),
                   (lambda: tf.image.crop_to_bounding_box(img, 1, 1, 2, 5), "width must be >= target \\+ offset."),
                   (lambda: tf.image.crop_to_bounding_box(img, -1, 1, 2, 2), "offset_height must be >= 0."),
                   (lambda: tf.image.pad_to_bounding_box(img, 1, 1, 2, 5), "width must be <= target - offset"),
                   (lambda: tf.image.pad_to_bounding_box(img, 1, 2, 4, 7), "height must be <= target - offset")]:
        with pytest.raises(ValueError, match=msg):
            f()
    assert tf.image.random_crop is not None
    assert run(tf.image.random_crop(img, [2, 3, 3], seed=1)).shape == (2, 3, 3)


def test_convert_image_dtype_matches_tf():
    u8 = np.array([[[0, 1, 127, 128, 255]]], np.uint8)
    t = tf.image.convert_image_dtype(u8, tf.float32)
    assert t.name == "convert_image:0"
    np.testing.assert_allclose(run(t), u8 / 255.0, rtol=1e-6)
    assert run(tf.image.convert_image_dtype(u8, tf.int32)).tolist() == \
        [[[0, 8388608, 1065353216, 1073741824, 2139095040]]]
    assert tf.image.convert_image_dtype(u8, tf.uint8).op.type == "Identity"
    f = np.array([[[-0.5, 0, 0.3, 0.5, 1.0, 1.5]]], np.float32)
    assert run(tf.image.convert_image_dtype(f, tf.uint8, saturate=True)).tolist() == [[[0, 0, 76, 127, 255, 255]]]
    assert run(tf.image.convert_image_dtype(f[..., :5], tf.int16)).tolist() == [[[-16383, 0, 9830, 16383, 32767]]]
    i16 = np.array([[[0, 100, 32767]]], np.int16)
    assert run(tf.image.convert_image_dtype(i16, tf.uint8)).tolist() == [[[0, 0, 255]]]
    assert run(tf.image.convert_image_dtype(i16, tf.int32)).tolist() == [[[0, 6553600, 2147418112]]]
    t = tf.image.convert_image_dtype(np.array([[[0, 0.5]]], np.float32), tf.float64)
    assert t.dtype == tf.float64 and run(t).tolist() == [[[0, 0.5]]]


def test_brightness_contrast_gray_standardization():
    img = np.arange(60, dtype=np.float32).reshape(4, 5, 3)
    u8 = np.array([[[0, 1, 127, 128, 255]]], np.uint8)
    t = tf.image.adjust_brightness(img / 60, 0.1)
    assert t.name == "adjust_brightness/Identity:0"
    np.testing.assert_allclose(run(t), img / 60 + 0.1, rtol=1e-6)
    t = tf.image.adjust_brightness(u8, 0.1)
    assert t.name == "adjust_brightness_1/convert_image_1:0"
    assert run(t).tolist() == [[[25, 26, 152, 153, 255]]]  # TF's
    assert run(tf.image.adjust_brightness(u8, -0.5)).tolist() == [[[0, 0, 0, 0, 127]]]  # TF's
    t = tf.image.adjust_contrast(img, 2.0)
    assert t.name == "adjust_contrast/Identity:0"
    mean = img.mean(axis=(0, 1), keepdims=True)
    np.testing.assert_allclose(run(t), (img - mean) * 2 + mean, rtol=1e-6)
    assert run(tf.image.adjust_contrast(u8.reshape(1, 5, 1), 1.5)).ravel().tolist() == [0, 0, 139, 141, 255]
    b4 = np.stack([img, img + 1])
    bm = b4.mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(run(tf.image.adjust_contrast(b4, 0.5)), (b4 - bm) * 0.5 + bm, rtol=1e-6)
    t = tf.image.rgb_to_grayscale(img)
    assert t.name == "rgb_to_grayscale:0" and t.shape.as_list() == [4, 5, 1]
    np.testing.assert_allclose(run(t), img @ np.array([[0.2989], [0.5870], [0.1140]], np.float32), rtol=1e-5)
    assert run(tf.image.rgb_to_grayscale(np.array([[[10, 200, 30]]], np.uint8))).tolist() == [[[124]]]  # TF's
    t = tf.image.grayscale_to_rgb(np.ones((2, 2, 1), np.float32))
    assert t.name == "grayscale_to_rgb:0" and run(t).shape == (2, 2, 3)
    t = tf.image.per_image_standardization(img)
    assert t.name == "per_image_standardization:0" and t.dtype == tf.float32
    np.testing.assert_allclose(run(t), (img - img.mean()) / img.std(), rtol=1e-5)
    np.testing.assert_allclose(run(t).ravel()[:3], [-1.70342, -1.645677, -1.587934], rtol=1e-5)  # TF's
    got = run(tf.image.per_image_standardization(b4))
    np.testing.assert_allclose(got[1], (b4[1] - b4[1].mean()) / b4[1].std(), rtol=1e-5)
    flat = np.full((2, 2, 1), 7, np.uint8)  # stddev 0: divided by 1/sqrt(N)
    np.testing.assert_array_equal(run(tf.image.per_image_standardization(flat)), np.zeros((2, 2, 1)))
    x64 = img.astype(np.float64)  # float64 goes through float32 and back, as in TF
    np.testing.assert_allclose(run(tf.image.adjust_contrast(x64, 1.5)),
                               (x64 - x64.mean(axis=(0, 1), keepdims=True)) * 1.5
                               + x64.mean(axis=(0, 1), keepdims=True), rtol=1e-5, atol=1e-6)
    # TF 2.21's AdjustContrastv2 has no gradient: tf.gradients raises LookupError.
    with pytest.raises(LookupError, match="AdjustContrastv2"):
        x = tf.placeholder(tf.float32, [2, 2, 3])
        tf.gradients(tf.image.adjust_contrast(x, 1.5), x)


def test_graph_def_round_trip_resize():
    g = tf.Graph()
    with g.as_default():
        t = tf.image.resize_images(IMG.astype(np.uint8), [5, 3])
    with tf.Graph().as_default() as g2:
        (u,) = tf.import_graph_def(g.as_graph_def(), return_elements=[t.name], name="")
        assert u.dtype == tf.float32
        assert run(u).shape == (1, 5, 3, 1)
