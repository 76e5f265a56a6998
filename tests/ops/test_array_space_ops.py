"""tf.extract_volume_patches, tf.required_space_to_batch_paddings, tf.get_static_value's TF
rules, tf.is_symbolic_tensor and tf.no_regularizer. Shapes, names and messages marked "TF" were
recorded from TF 2.21 (tf.compat.v1, graph mode)."""

import itertools

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op


def _ref_volume_patches(x, ksizes, strides, padding):
    """A direct loop over output positions and kernel offsets (zeros outside the input)."""
    b, *sp, c = x.shape
    k, s = ksizes[1:4], strides[1:4]
    outs, before = [], []
    for n, kk, ss in zip(sp, k, s):
        if padding == "VALID":
            o = max((n - kk + ss) // ss, 0)
            outs.append(o)
            before.append(0)
        else:
            o = -(-n // ss)
            outs.append(o)
            before.append(max((o - 1) * ss + kk - n, 0) // 2)
    out = np.zeros([b] + outs + [k[0] * k[1] * k[2] * c], x.dtype)
    for pos in itertools.product(*[range(o) for o in outs]):
        vals = []
        for off in itertools.product(*[range(kk) for kk in k]):
            idx = [pos[i] * s[i] - before[i] + off[i] for i in range(3)]
            if all(0 <= idx[i] < sp[i] for i in range(3)):
                vals.append(x[:, idx[0], idx[1], idx[2], :])
            else:
                vals.append(np.zeros([b, c], x.dtype))
        out[(slice(None),) + pos] = np.concatenate(vals, axis=-1)
    return out


@pytest.mark.parametrize("shape, ksizes, strides, padding", [
    ([2, 3, 4, 5, 2], [1, 2, 3, 2, 1], [1, 2, 2, 3, 1], "SAME"),
    ([2, 3, 4, 5, 2], [1, 2, 3, 2, 1], [1, 1, 2, 3, 1], "VALID"),
    ([1, 5, 4, 5, 3], [1, 3, 3, 2, 1], [1, 2, 1, 3, 1], "SAME"),
    ([1, 4, 4, 4, 2], [1, 5, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"),
])
def test_extract_volume_patches_values(shape, ksizes, strides, padding):
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    check_op(lambda t: tf.extract_volume_patches(t, ksizes, strides, padding), [x],
             lambda a: _ref_volume_patches(a, ksizes, strides, padding))


def test_extract_volume_patches_values_recorded_from_tf():
    x = tf.reshape(tf.range(2 * 3 * 4 * 5 * 2), [2, 3, 4, 5, 2])
    with tf.Session() as sess:
        same = sess.run(tf.extract_volume_patches(x, [1, 2, 3, 2, 1], [1, 2, 2, 3, 1], "SAME"))
        valid = sess.run(tf.extract_volume_patches(x, [1, 2, 3, 2, 1], [1, 1, 2, 3, 1], "VALID"))
    np.testing.assert_array_equal(same.sum(axis=(1, 2, 3))[:, :8], [[424, 432, 440, 448, 504, 512, 520, 528],
                                                                  [1384, 1392, 1400, 1408, 1464, 1472, 1480, 1488]])
    np.testing.assert_array_equal(valid[1, 1, 0, 1], [166, 167, 168, 169, 176, 177, 178, 179, 186, 187, 188, 189,
                                                      206, 207, 208, 209, 216, 217, 218, 219, 226, 227, 228, 229])


@pytest.mark.parametrize("padding, strides", [("SAME", [1, 2, 1, 2, 1]), ("VALID", [1, 1, 2, 1, 1])])
def test_extract_volume_patches_gradient(padding, strides):
    x = np.random.RandomState(0).randn(1, 3, 4, 3, 2)
    check_gradients(lambda t: tf.extract_volume_patches(t, [1, 2, 2, 2, 1], strides, padding), [x])


def test_extract_volume_patches_static_shapes_and_errors():
    p = tf.placeholder(tf.float32, [None, 5, 4, 4, 2])
    out = tf.extract_volume_patches(p, [1, 2, 2, 2, 1], [1, 1, 2, 2, 1], "SAME")
    assert (out.name, out.shape.as_list()) == ("ExtractVolumePatches:0", [None, 5, 2, 2, 16])  # TF
    # TF's shape function returns rank 4 when a spatial dimension is unknown
    assert tf.extract_volume_patches(tf.placeholder(tf.float32, [2, None, 4, 4, 3]), [1, 2, 3, 2, 1],
                                     [1, 2, 2, 3, 1], "SAME").shape.as_list() == [2, None, None, 36]
    assert tf.extract_volume_patches(tf.placeholder(tf.float32), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1],
                                     "VALID").shape.as_list() == [None] * 4
    with pytest.raises(ValueError, match="^Attr 'ksizes' of 'ExtractVolumePatches' Op passed list of length 4 "
                                         "less than minimum 5.$"):
        tf.extract_volume_patches(p, [1, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")
    with pytest.raises(ValueError, match="^Stride must be > 0, but got 0 for"):
        tf.extract_volume_patches(p, [1, 2, 2, 2, 1], [1, 0, 2, 2, 1], "VALID")
    with pytest.raises(TypeError, match="has DataType bool not in list"):
        tf.extract_volume_patches(tf.zeros([1, 4, 4, 4, 2], tf.bool), [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")
    with tf.Session() as sess, pytest.raises(tf.errors.UnimplementedError, match="Only support ksizes across"):
        sess.run(tf.extract_volume_patches(tf.zeros([1, 4, 4, 4, 2]), [2, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID"))


def test_required_space_to_batch_paddings():
    pads, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]], name="rp")
    assert (pads.name, crops.name, pads.op.type) == ("rp/paddings:0", "rp/crops:0", "Const")  # TF
    n = tf.placeholder(tf.int32, [2])
    dp, dc = tf.required_space_to_batch_paddings(n, [2, 3])
    assert dp.name == "required_space_to_batch_paddings/paddings:0" and dp.shape.as_list() == [2, 2]
    # an Add is not evaluated while building (TF's constant_value), so this one runs as ops
    tp, tc = tf.required_space_to_batch_paddings(tf.constant([5, 7]) + 0, [2, 3], [[1, 0], [0, 2]])
    assert tp.op.type == "Pack"
    with tf.Session() as sess:
        got = sess.run([pads, crops, dp, dc, tp, tc], {n: [4, 8]})
    # (5+1+0) % 2 == 0; (7+0+2) % 3 == 0 -> no extra; for [4, 8]: 0 and (3 - 8 % 3) % 3 = 1
    np.testing.assert_array_equal(got[0], [[1, 0], [0, 2]])
    np.testing.assert_array_equal(got[1], [[0, 0], [0, 0]])
    np.testing.assert_array_equal(got[2], [[0, 0], [0, 1]])
    np.testing.assert_array_equal(got[3], [[0, 0], [0, 1]])
    np.testing.assert_array_equal(got[4], got[0])
    np.testing.assert_array_equal(got[5], got[1])
    e0, e1 = tf.required_space_to_batch_paddings([], [])
    assert e0.shape.as_list() == [0, 2] and e1.shape.as_list() == [0, 2]


def test_get_static_value_follows_tfs_constant_value():
    # recorded from TF: ops TF does not evaluate while building give None
    assert tf.get_static_value(tf.constant([5, 7]) + 0) is None
    assert tf.get_static_value(tf.reshape([1, 2], [2, 1])) is None
    assert tf.get_static_value(tf.constant([1, 2])[0]) is None
    np.testing.assert_array_equal(tf.get_static_value(tf.unstack([[1, 2], [3, 4]])[1]), [3, 4])
    np.testing.assert_array_equal(tf.get_static_value(tf.stop_gradient([1, 2])), [1, 2])
    np.testing.assert_array_equal(tf.get_static_value(tf.cast(tf.range(3), tf.float32)), [0., 1., 2.])
    assert tf.get_static_value(tf.shape(tf.placeholder(tf.float32, [None, 3])), partial=True) is None
    v = tf.get_static_value(tf.stack([1, tf.placeholder(tf.int32, [])]), partial=True)
    assert v.dtype == object and v[1] is None and v[0] == 1
    assert tf.get_static_value(3) == 3


def test_is_symbolic_tensor_and_no_regularizer():
    assert tf.is_symbolic_tensor(tf.constant(1.))
    assert not tf.is_symbolic_tensor(np.zeros(2))
    assert not tf.is_symbolic_tensor(tf.Variable(1.))
    assert tf.no_regularizer(tf.constant(1.)) is None
