"""tf.bitwise against NumPy references and values/names/errors recorded from TensorFlow 2.21
(compat.v1): shifts clamp the shift amount to [0, bits - 1]; no op has a gradient."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_op

_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _shift_ref(fn, x, y):
    bits = x.dtype.itemsize * 8
    return fn(x, np.clip(y, 0, bits - 1).astype(x.dtype)).astype(x.dtype)


@pytest.mark.parametrize("dt", _INTS)
def test_against_numpy(dt):
    rng = np.random.RandomState(0)
    info = np.iinfo(dt)
    x = rng.randint(max(info.min, -1000), min(info.max, 1000), size=(3, 4)).astype(dt)
    y = rng.randint(max(info.min, -1000), min(info.max, 1000), size=(4,)).astype(dt)
    s = rng.randint(0 if info.min == 0 else -3, 70, size=(3, 1)).astype(dt)
    check_op(tf.bitwise.bitwise_and, [x, y], np.bitwise_and)
    check_op(tf.bitwise.bitwise_or, [x, y], np.bitwise_or)
    check_op(tf.bitwise.bitwise_xor, [x, y], np.bitwise_xor)
    check_op(tf.bitwise.invert, [x], np.invert)
    check_op(tf.bitwise.left_shift, [x, s], lambda a, b: _shift_ref(np.left_shift, a, b))
    check_op(tf.bitwise.right_shift, [x, s], lambda a, b: _shift_ref(np.right_shift, a, b))


def test_shift_out_of_range_matches_tf():
    y = [0, 1, 3, 7, 8, 9, -1, 65]
    x = [1, 5, 7, 100, 3, 2, 1, 9]
    n = [-1, -5, -128, -100, -3, -2, -1, -9]
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run([tf.bitwise.left_shift(tf.constant(x, tf.int8), tf.constant(y, tf.int8)),
                        tf.bitwise.left_shift(tf.constant(n, tf.int8), tf.constant(y, tf.int8)),
                        tf.bitwise.right_shift(tf.constant(n, tf.int8), tf.constant(y, tf.int8)),
                        tf.bitwise.left_shift(tf.constant(n, tf.int32), tf.constant(y, tf.int32)),
                        tf.bitwise.left_shift(tf.constant(x, tf.uint16),
                                              tf.constant([0, 1, 3, 7, 8, 9, 200, 65], tf.uint16))])
    # Recorded from TF 2.21.
    assert got[0].tolist() == [1, 10, 56, 0, -128, 0, 1, -128]
    assert got[1].tolist() == [-1, -10, 0, 0, -128, 0, -1, -128]
    assert got[2].tolist() == [-1, -3, -16, -1, -1, -1, -1, -1]
    assert got[3].tolist() == [-1, -10, -1024, -12800, -768, -1024, -1, -2147483648]
    assert got[4].tolist() == [1, 10, 56, 12800, 768, 1024, 32768, 32768]


def test_names_shapes_gradients_and_errors():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.int32, [None, 3])
        y = tf.bitwise.bitwise_and(x, 3, name="foo")
        assert y.name == "foo:0" and y.shape.as_list() == [None, 3]
        assert [t.name for t in y.op.inputs] == ["Placeholder:0", "foo/y:0"]
        assert tf.bitwise.left_shift(x, [[1], [2]]).shape.as_list() == [2, 3]
        assert tf.bitwise.invert(x).op.type == "Invert"
        assert tf.gradients(tf.bitwise.bitwise_and(x, 3), x) == [None]
        with pytest.raises(TypeError, match="has DataType float32 not in list of allowed values: int8, int16"):
            tf.bitwise.bitwise_and(tf.constant([1.0]), tf.constant([2.0]))
        with pytest.raises(TypeError, match="Input 'y' of 'LeftShift' Op has type int64 that does not match"):
            tf.bitwise.left_shift(tf.constant([1]), tf.constant([2], tf.int64))
        with pytest.raises(TypeError, match="DataType bool not in list"):
            tf.bitwise.invert(tf.constant([True]))
        with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
            tf.bitwise.bitwise_or(tf.zeros([2, 3], tf.int32), tf.zeros([4], tf.int32))


def test_operators_on_integers_are_bitwise_as_tf():
    """&, |, ^ and ~ on integer tensors build TF's bitwise ops (names recorded from TF 2.21:
    `and/BitwiseAnd:0`, `Invert:0`); on bools the logical ones."""
    import tensorweave as tf
    g = tf.Graph()
    with g.as_default():
        a = tf.constant([5, 3], tf.int32)
        b = tf.constant([3, 6], tf.int32)
        ts = [a & b, a | b, a ^ b, ~a, 1 & a, a & 2]
        assert [t.name for t in ts] == ["and/BitwiseAnd:0", "or/BitwiseOr:0", "xor/BitwiseXor:0",
                                        "Invert:0", "and_1/BitwiseAnd:0", "and_2/BitwiseAnd:0"]
        t = tf.constant([True, False])
        assert (t & t).op.type == "LogicalAnd" and (~t).op.type == "LogicalNot"
        with pytest.raises(TypeError, match="not in list of allowed values"):
            tf.constant([1.0]) & tf.constant([2.0])
    with tf.Session(graph=g) as sess:
        vals = sess.run([a & b, a | b, a ^ b, ~a, 7 ^ a])
    for v, want in zip(vals, [[1, 2], [7, 7], [6, 5], [-6, -4], [2, 4]]):
        np.testing.assert_array_equal(v, want)
