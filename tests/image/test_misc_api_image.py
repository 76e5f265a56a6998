"""tf.image: extract_patches, resize_image_with_pad, combined_non_max_suppression,
non_max_suppression_overlaps, adjust_jpeg_quality / random_jpeg_quality (image_more_ops)."""

import numpy as np
import pytest

import tensorweave as tf


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


def test_extract_patches_matches_numpy():
    x = np.arange(2 * 5 * 6 * 3, dtype=np.float32).reshape(2, 5, 6, 3)
    with tf.Graph().as_default():
        p = tf.image.extract_patches(x, sizes=[1, 2, 2, 1], strides=[1, 2, 2, 1], rates=[1, 1, 1, 1],
                                     padding="VALID")
        assert p.name == "ExtractImagePatches:0" and p.shape.as_list() == [2, 2, 3, 12]
        got = _run(p)
    want = np.stack([np.stack([x[:, 2 * i:2 * i + 2, 2 * j:2 * j + 2, :].reshape(2, -1) for j in range(3)], 1)
                     for i in range(2)], 1)
    np.testing.assert_array_equal(got, want)


def test_resize_image_with_pad_recorded_from_tf():
    x = np.arange(2 * 5 * 6 * 3, dtype=np.float32).reshape(2, 5, 6, 3)
    with tf.Graph().as_default():
        r = tf.image.resize_image_with_pad(x, 8, 8)
        r2 = tf.image.resize_image_with_pad(x[0], 4, 10, method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
        ph = tf.placeholder(tf.float32, [None, None, None, 3])
        r4 = tf.image.resize_image_with_pad(ph, 8, 8)
        # names and static shapes recorded from TF 2.21
        assert r.name == "resize_image_with_pad/pad_to_bounding_box/Pad:0" and r.shape.as_list() == [2, 8, 8, 3]
        assert r2.name == "resize_image_with_pad_1/Squeeze:0" and r2.shape.as_list() == [4, 10, 3]
        assert r4.shape.as_list() == [None, 8, 8, 3]
        a, b, d = _run([r, r2, r4], {ph: np.ones([1, 2, 4, 3])})
    np.testing.assert_allclose(a[0, 0, :, 0], [0, 2.25, 4.5, 6.75, 9, 11.25, 13.5, 15])
    np.testing.assert_allclose(a[0, 5, :, 0], [72, 74.25, 76.5, 78.75, 81, 83.25, 85.5, 87])
    assert not a[:, 6:].any()
    np.testing.assert_array_equal(b[:, :, 0], [[0, 0, 0, 3, 9, 12, 0, 0, 0, 0], [0, 0, 18, 21, 27, 30, 0, 0, 0, 0],
                                               [0, 0, 36, 39, 45, 48, 0, 0, 0, 0], [0, 0, 54, 57, 63, 66, 0, 0, 0, 0]])
    np.testing.assert_array_equal(d[0, :, :, 0], np.repeat([0, 0, 1, 1, 1, 1, 0, 0], 8).reshape(8, 8))


def _np_iou(a, b):
    ih = max(min(a[2], b[2]) - max(a[0], b[0]), 0)
    iw = max(min(a[3], b[3]) - max(a[1], b[1]), 0)
    inter = ih * iw
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _np_combined(boxes, scores, per_class, total, iou, thr, clip=True):
    out = []
    for b in range(boxes.shape[0]):
        found = []
        for c in range(scores.shape[2]):
            order = [i for i in np.argsort(-scores[b, :, c], kind="stable") if scores[b, i, c] > thr]
            kept = []
            for i in order:
                if len(kept) < per_class and all(_np_iou(boxes[b, i, 0], boxes[b, k, 0]) <= iou for k in kept):
                    kept.append(i)
            found += [(scores[b, i, c], c, boxes[b, i, 0]) for i in kept]
        found = sorted(found, key=lambda t: -t[0])[:total]
        out.append(found)
    return out


def test_combined_non_max_suppression():
    rs = np.random.RandomState(0)
    boxes = rs.rand(2, 6, 1, 4).astype(np.float32)
    boxes[..., 2:] = boxes[..., :2] + 0.4
    scores = rs.rand(2, 6, 3).astype(np.float32)
    with tf.Graph().as_default():
        out = tf.image.combined_non_max_suppression(boxes, scores, 3, 5, iou_threshold=0.3, score_threshold=0.1)
        out2 = tf.image.combined_non_max_suppression(boxes, scores, 2, 10, pad_per_class=True, clip_boxes=False)
        assert [t.shape.as_list() for t in out] == [[2, 5, 4], [2, 5], [2, 5], [2]]
        assert [t.shape.as_list() for t in out2] == [[2, 6, 4], [2, 6], [2, 6], [2]]  # min(10, 2 * 3)
        assert out[3].dtype == tf.int32 and out[0].name == "combined_non_max_suppression/CombinedNonMaxSuppression:0"
        (bx, sc, cl, nv), (bx2, sc2, cl2, nv2) = _run([out, out2])
    # recorded from TF 2.21
    np.testing.assert_allclose(sc, [[0.9884, 0.6563, 0.6531, 0.5702, 0.4663], [0.9768, 0.9765, 0.8379, 0.821, 0.7393]],
                               atol=1e-4)
    np.testing.assert_array_equal(cl, [[1, 2, 2, 2, 1], [0, 1, 2, 0, 2]])
    np.testing.assert_array_equal(nv, [5, 5])
    assert bx.max() <= 1.0 and bx2.max() > 1.0
    for b, found in enumerate(_np_combined(boxes, scores, 3, 5, 0.3, 0.1)):
        np.testing.assert_allclose(sc[b, :len(found)], [f[0] for f in found])
        np.testing.assert_allclose(bx[b, :len(found)], np.clip([f[2] for f in found], 0, 1))
    np.testing.assert_array_equal(nv2, [6, 6])


def test_combined_nms_pads_with_zeros():
    boxes = np.array([[[[0, 0, 1, 1]], [[0, 0, 0.9, 0.9]]]], np.float32)
    scores = np.array([[[0.9], [0.8]]], np.float32)
    with tf.Graph().as_default():
        bx, sc, cl, nv = _run(tf.image.combined_non_max_suppression(boxes, scores, 4, 4, iou_threshold=0.5))
    np.testing.assert_array_equal(nv, [1])
    np.testing.assert_allclose(sc, [[0.9, 0, 0, 0]])
    assert not bx[0, 1:].any() and not cl.any()


def test_non_max_suppression_overlaps():
    ov = np.array([[1, 0.7, 0.1], [0.7, 1, 0.2], [0.1, 0.2, 1]], np.float32)
    with tf.Graph().as_default():
        sel = tf.image.non_max_suppression_overlaps(ov, [0.5, 0.9, 0.3], 3, overlap_threshold=0.6)
        assert sel.name == "non_max_suppression_overlaps/NonMaxSuppressionWithOverlaps:0"
        assert sel.shape.as_list() == [None] and sel.dtype == tf.int32
        np.testing.assert_array_equal(_run(sel), [1, 2])
        sel2 = tf.image.non_max_suppression_overlaps(ov, [0.5, 0.9, 0.3], 3, score_threshold=0.4,
                                                     overlap_threshold=0.8)
        np.testing.assert_array_equal(_run(sel2), [1, 0])


def test_adjust_jpeg_quality_is_an_encode_decode_round_trip():
    rs = np.random.RandomState(0)
    img = rs.randint(0, 255, (16, 16, 3)).astype(np.uint8)
    with tf.Graph().as_default():
        j = tf.image.adjust_jpeg_quality(img, 50)
        ref = tf.image.decode_jpeg(tf.image.encode_jpeg(img, quality=50), channels=3)
        jf = tf.image.adjust_jpeg_quality(tf.image.convert_image_dtype(img, tf.float32), 90)
        assert j.dtype == tf.uint8 and j.shape.as_list() == [None, None, 3]
        assert jf.dtype == tf.float32 and jf.name == "adjust_jpeg_quality_1/convert_image_1:0"
        a, b, c = _run([j, ref, jf])
    np.testing.assert_array_equal(a, b)
    assert np.abs(a.astype(int) - img).mean() > 1  # quality 50 loses detail
    assert c.shape == (16, 16, 3) and 0 <= c.min() and c.max() <= 1


def test_random_jpeg_quality():
    img = np.full((8, 8, 1), 128, np.uint8)
    with tf.Graph().as_default():
        out = tf.image.random_jpeg_quality(img, 40, 60, seed=1)
        np.testing.assert_array_equal(_run(out), img)  # a flat image survives any quality
    with pytest.raises(ValueError, match="must be less than"):
        tf.image.random_jpeg_quality(img, 60, 40)
    with pytest.raises(ValueError, match="between 0 and 100"):
        tf.image.random_jpeg_quality(img, 10, 140)


def test_resize_image_with_pad_gradient():
    from tensorweave.testing.op_test import check_gradients
    x = np.random.RandomState(1).rand(1, 3, 4, 2)
    # ResizeBilinear computes in float32; the map is linear in x, so a large step is exact.
    check_gradients(lambda t: tf.image.resize_image_with_pad(t, 5, 5), [x], delta=0.5, tol=1e-4)
