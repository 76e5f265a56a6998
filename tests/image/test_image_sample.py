"""draw_bounding_boxes, sample_distorted_bounding_box and extract_glimpse against values recorded
from TensorFlow 2.21 (the literals below are TF's outputs for these inputs). extract_glimpse's
noise is checked for its range only: TF draws it from Eigen's generator."""

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


BOXES = np.array([[[0.1, 0.2, 0.5, 0.7], [0.3, 0.3, 0.9, 0.95]]], np.float32)
# (seed, seed2, min_object_covered, aspect_ratio_range, area_range, image h, w) -> TF's begins, sizes
# over three runs of one session
SDB = [((1, 2, 0.1, None, None, 100, 120), [[62, 53, 0], [12, 34, 0], [17, 20, 0]], [[32, 32], [73, 72], [57, 59]]),
       ((7, 0, 0.5, (0.5, 2.0), (0.1, 0.9), 37, 53), [[0, 7, 0], [0, 26, 0], [1, 2, 0]], [[32, 21], [32, 23], [25, 50]]),
       ((3, 9, 0.9, None, (0.3, 1.0), 480, 640), [[2, 50, 0], [7, 136, 0], [15, 10, 0]],
        [[473, 577], [463, 489], [459, 488]]),
       ((11, 5, 0.0, (1.0, 1.0), (0.05, 0.5), 5, 7), [[0, 0, 0], [1, 0, 0], [1, 2, 0]], [[4, 4], [2, 2], [3, 3]])]


def test_sample_distorted_bounding_box_matches_tf_runs():
    ops = []
    for (seed, seed2, moc, ar, area, h, w), _, _ in SDB:
        ops.append(tf.image.sample_distorted_bounding_box([h, w, 3], BOXES, seed=seed, seed2=seed2,
                                                          min_object_covered=moc, aspect_ratio_range=ar,
                                                          area_range=area))
    begin, size, bbox = ops[0]
    assert begin.name == "sample_distorted_bounding_box/SampleDistortedBoundingBoxV2:0"
    assert bbox.shape.as_list() == [1, 1, 4] and begin.dtype == tf.int32
    with tf.Session() as s:
        for run in range(3):
            got = s.run(ops)
            for (args, begins, sizes), (b, sz, bb) in zip(SDB, got):
                h, w = args[5], args[6]
                np.testing.assert_array_equal(b, begins[run])
                np.testing.assert_array_equal(sz, sizes[run] + [-1])
                np.testing.assert_allclose(bb[0, 0], [b[0] / h, b[1] / w, (b[0] + sz[0]) / h, (b[1] + sz[1]) / w],
                                           rtol=1e-6)
    with tf.Session() as s:  # a new session starts the streams again
        np.testing.assert_array_equal(s.run(ops[0][0]), SDB[0][1][0])


def test_sample_distorted_bounding_box_errors():
    with tf.Session() as s:
        with pytest.raises(tf.errors.InvalidArgumentError, match="No bounding boxes"):
            s.run(tf.image.sample_distorted_bounding_box([10, 10, 3], np.zeros((1, 0, 4), np.float32), seed=1))
        begin, size, _ = tf.image.sample_distorted_bounding_box([10, 10, 3], np.zeros((1, 0, 4), np.float32), seed=1,
                                                                use_image_if_no_bounding_boxes=True)
        b, sz = s.run([begin, size])
        assert (b >= 0).all() and (b[:2] + sz[:2] <= 10).all()
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[0.0, 1.0\]"):
            s.run(tf.image.sample_distorted_bounding_box([10, 10, 3], [[[0.0, 0.0, 1.5, 1.0]]], seed=1))


def _draw_inputs():
    bx = np.array([[[0.1, 0.1, 0.8, 0.9], [-0.2, 0.3, 0.5, 1.4], [0.5, 0.5, 0.2, 0.9]],
                   [[0, 0, 1, 1], [0.33, 0.45, 0.34, 0.46], [2, 2, 3, 3]]], np.float32)
    return bx


# TF's per-channel sums and per-pixel count of nonzero channels summed over the batch
DRAW_TF = [
    ([62.0, 62.0, 13.0],
     [[2, 4, 4, 3, 4, 4, 4, 4, 4, 4, 2], [2, 2, 0, 1, 0, 0, 0, 0, 0, 2, 2], [2, 2, 0, 1, 1, 0, 0, 0, 0, 2, 2],
      [2, 2, 0, 1, 0, 0, 0, 0, 0, 2, 2], [2, 2, 0, 1, 1, 1, 1, 1, 1, 1, 3], [2, 2, 0, 0, 0, 0, 0, 0, 0, 2, 2],
      [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2], [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2], [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]]),
    ([75.0],
     [[1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1], [1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1], [1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1],
      [1, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1], [1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 2], [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1],
      [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]]),
    ([25.4000301361084, 31.299983978271484, 40.449989318847656, 62.59996795654297],
     [[4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4], [4, 4, 0, 4, 0, 0, 0, 0, 0, 4, 4], [4, 4, 0, 4, 4, 0, 0, 0, 0, 4, 4],
      [4, 4, 0, 4, 0, 0, 0, 0, 0, 4, 4], [4, 4, 0, 4, 4, 4, 4, 4, 4, 4, 8], [4, 4, 0, 0, 0, 0, 0, 0, 0, 4, 4],
      [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4], [4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4], [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]]),
]


def test_draw_bounding_boxes_matches_tf():
    bx = _draw_inputs()
    d = tf.image.draw_bounding_boxes(np.zeros((2, 9, 11, 3), np.float32), bx)
    d2 = tf.image.draw_bounding_boxes(np.zeros((2, 9, 11, 1), np.float32), bx)
    d3 = tf.image.draw_bounding_boxes(np.zeros((2, 9, 11, 4), np.float32), bx,
                                      colors=np.array([[0.2, 0.4, 0.6, 0.8], [1, 0.5, 0.25, 1]], np.float32))
    assert d.name == "DrawBoundingBoxes:0" and d3.name == "DrawBoundingBoxesV2:0"
    assert d.shape.as_list() == [2, 9, 11, 3]
    with tf.Session() as s:
        for t, (sums, counts) in zip((d, d2, d3), DRAW_TF):
            v = s.run(t)
            np.testing.assert_allclose(v.reshape(-1, v.shape[-1]).sum(0), sums, rtol=1e-6)
            np.testing.assert_array_equal((v != 0).sum(axis=(0, 3)), counts)
        v = s.run(d)
        np.testing.assert_array_equal(v[0, 0, 1], [1, 1, 0])  # box 0 is yellow: TF's table starts (1, 1, 0)
        # a known depth of 2 fails when the op is built (TF's shape function); an unknown one
        # when the kernel runs
        with pytest.raises(ValueError, match="Channel depth should be either 1"):
            tf.image.draw_bounding_boxes(np.zeros((1, 4, 4, 2), np.float32), bx[:1])
        p = tf.placeholder(tf.float32, [1, 4, 4, None])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Channel depth"):
            s.run(tf.image.draw_bounding_boxes(p, bx[:1]), {p: np.zeros((1, 4, 4, 2), np.float32)})


def test_extract_glimpse_window_and_noise():
    x = np.arange(2 * 10 * 12 * 2, dtype=np.float32).reshape(2, 10, 12, 2)
    g = tf.image.extract_glimpse(x, [4, 5], [[0.1, -0.2], [0.3, 0.25]])
    assert g.shape.as_list() == [2, 4, 5, 2]
    # (centered, normalized) -> offsets, TF's first glimpse value of batch 0 (None: noise) and batch 1
    cases = {(True, False): ([[2.0, 3.0], [1.0, -1.5]], 106, 316), (False, True): ([[0.1, -0.2], [0.3, 0.25]], None, 264),
             (False, False): ([[2.0, 3.0], [1.0, -1.5]], 0, None)}
    with tf.Session() as s:
        v = s.run(g)[..., 0]
        # TF: the window of batch 0 starts at row 3, column 2 ... (values recorded from TF 2.21)
        np.testing.assert_array_equal(v[0, 0], [76.0, 78.0, 80.0, 82.0, 84.0])
        np.testing.assert_array_equal(v[1, :, 0], [346.0, 370.0, 394.0, 418.0])
        for (centered, normalized), (offs, first0, first1) in cases.items():
            out = s.run(tf.image.extract_glimpse(x, [4, 5], offs, centered=centered, normalized=normalized))[..., 0]
            if first0 is None:  # batch 0 runs off the top-left: noise within the image's range
                v0 = out[0]
                assert v0[1, 4] == 0.0 and v0[2, 4] == 24.0
                noise = np.concatenate([v0[:, :4].ravel(), v0[0, 4:]])
                assert (noise >= x[0, ..., 0].min()).all() and (noise <= x[0, ..., 0].max()).all()
            else:
                assert out[0, 0, 0] == first0
            if first1 is not None:
                assert out[1, 0, 0] == first1
