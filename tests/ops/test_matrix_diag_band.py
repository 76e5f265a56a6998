"""tf.linalg.diag / diag_part / set_diag over a band of diagonals (k = (lo, hi)) with every
alignment, against a loop over TF's documented layout; shapes and messages marked "TF" were
recorded from TF 2.21."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

ALIGNS = ["RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT"]


def _offset(d, rows, cols, max_len, align):
    length = min(cols - max(d, 0), rows + min(d, 0))
    right = align in ("RIGHT_LEFT", "RIGHT_RIGHT") if d >= 0 else align in ("LEFT_RIGHT", "RIGHT_RIGHT")
    return max_len - length if right else 0


def _ref_diag_part(x, lo, hi, align, pad):
    rows, cols = x.shape[-2:]
    max_len = min(rows + min(hi, 0), cols - max(lo, 0))
    out = np.full(x.shape[:-2] + (hi - lo + 1, max_len), pad, x.dtype)
    for m in range(hi - lo + 1):
        d = hi - m
        off = _offset(d, rows, cols, max_len, align)
        for n in range(max_len):
            i, j = n + max(-d, 0) - off, n + max(d, 0) - off
            if 0 <= i < rows and 0 <= j < cols:
                out[..., m, n] = x[..., i, j]
    return out


def _ref_diag(diag, lo, hi, rows, cols, align, pad):
    max_len = diag.shape[-1]
    out = np.full(diag.shape[:-2] + (rows, cols), pad, diag.dtype)
    for i in range(rows):
        for j in range(cols):
            d = j - i
            if lo <= d <= hi:
                out[..., i, j] = diag[..., hi - d, j - max(d, 0) + _offset(d, rows, cols, max_len, align)]
    return out


@pytest.mark.parametrize("align", ALIGNS)
@pytest.mark.parametrize("lo, hi", [(-2, 1), (0, 2), (-1, -1), (-3, 0)])
def test_band_values_match_the_documented_layout(align, lo, hi):
    x = np.arange(2 * 4 * 5, dtype=np.float32).reshape(2, 4, 5) + 1
    part = _ref_diag_part(x, lo, hi, align, -1.0)
    if lo == hi:
        part1 = part[..., 0, :]
        check_op(lambda t: tf.linalg.diag_part(t, k=(lo, hi), align=align, padding_value=-1), [x], part1)
        return
    check_op(lambda t: tf.linalg.diag_part(t, k=(lo, hi), align=align, padding_value=-1), [x], part)
    check_op(lambda d: tf.linalg.diag(d, k=(lo, hi), align=align, num_rows=4, num_cols=5, padding_value=0.5),
             [part], _ref_diag(part, lo, hi, 4, 5, align, 0.5))
    diag = np.full_like(part, 7.0)
    want = np.where(_ref_diag(np.ones_like(part), lo, hi, 4, 5, align, 0) > 0, 7.0, x)
    check_op(lambda t, d: tf.linalg.set_diag(t, d, k=(lo, hi), align=align), [x, diag], want)


def test_band_values_recorded_from_tf():
    x = np.arange(12).reshape(3, 4).astype(np.float32)
    with tf.Session() as sess:
        got = sess.run([tf.linalg.diag([[1, 2], [3, 4]], k=(-1, 0)),
                        tf.linalg.diag([[1, 2, 0], [3, 4, 5]], k=(0, 1), align="LEFT_RIGHT"),
                        tf.linalg.diag_part(x, k=(-1, 1)),
                        tf.linalg.diag_part(x, k=(-2, 0), align="LEFT_LEFT", padding_value=-1)])
    np.testing.assert_array_equal(got[0], [[1, 0], [3, 2]])
    np.testing.assert_array_equal(got[1], [[3, 1, 0], [0, 4, 2], [0, 0, 5]])
    np.testing.assert_array_equal(got[2], [[1, 6, 11], [0, 5, 10], [4, 9, 0]])
    np.testing.assert_array_equal(got[3], [[0, 5, 10], [4, 9, -1], [8, -1, -1]])


def test_band_static_shapes_and_errors():
    p = tf.placeholder(tf.float32, [None, 3, 4])
    assert tf.linalg.diag_part(p, k=(-1, 2)).shape.as_list() == [None, 4, 3]  # TF
    assert tf.linalg.diag(p, k=(-1, 1)).shape.as_list() == [None, 4, 4]  # TF
    assert tf.linalg.diag(tf.zeros([2, 3]), k=(-1, 0), num_rows=5).shape.as_list() == [5, 3]  # TF
    assert tf.linalg.diag(p, k=tf.placeholder(tf.int32, [2])).shape.ndims is None  # TF
    assert tf.linalg.diag_part(p, k=tf.placeholder(tf.int32, [2])).shape.ndims is None  # TF
    with pytest.raises(ValueError, match=r"^lower_diag_index is out of bound\. for .* and with computed input "
                                         r"tensors: input\[1\] = <5>\.$"):
        tf.linalg.diag_part(tf.zeros([3, 4]), k=5)
    with pytest.raises(ValueError, match="^lower_diag_index is greater than upper_diag_index for"):
        tf.linalg.diag(tf.zeros([3]), k=(1, 0))
    with pytest.raises(ValueError, match="^diag_index must be a vector with one or two elements. It has 3"):
        tf.linalg.diag_part(tf.zeros([3, 4]), k=[0, 1, 2])
    with pytest.raises(ValueError, match=r"^Shape must be rank 2 but is rank 1 for"):
        tf.linalg.set_diag(tf.zeros([3, 4]), tf.zeros([3]), k=(0, 1))


@pytest.mark.parametrize("align", ["RIGHT_LEFT", "LEFT_RIGHT"])
def test_band_gradients(align):
    x = np.random.RandomState(1).randn(3, 4)
    check_gradients(lambda t: tf.linalg.diag_part(t, k=(-1, 2), align=align), [x])
    d = np.random.RandomState(2).randn(2, 3)
    check_gradients(lambda t: tf.linalg.diag(t, k=(-1, 0), align=align), [d])
    check_gradients(lambda t, u: tf.linalg.set_diag(t, u, k=(0, 1), align=align), [x, d])
