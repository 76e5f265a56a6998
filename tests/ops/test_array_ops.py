"""Array ops against NumPy references; names, dtypes, static shapes and error classes recorded
from TensorFlow 2.x `tensorflow.compat.v1` (graph mode) where noted."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_op, run_op

rng = np.random.RandomState(0)
X23 = np.arange(6, dtype=np.float32).reshape(2, 3)
X234 = rng.standard_normal((2, 3, 4)).astype(np.float32)


def _ops(g=None):
    return [(o.name, o.type) for o in (g or tf.get_default_graph()).get_operations()]


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


# -- placeholders ---------------------------------------------------------------------------

def test_placeholder_feed_missing_and_shape_check():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    assert x.name == "x:0" and x.shape.as_list() == [None, 3]
    y = tf.identity(x)
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(y, {x: X23}), X23)
        with pytest.raises(tf.errors.InvalidArgumentError, match="must feed a value for placeholder tensor 'x'"):
            s.run(y)
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            s.run(y, {x: np.zeros((2, 4), np.float32)})


def test_placeholder_with_default():
    p = tf.placeholder_with_default([1., 2.], [None])
    # TF: [('PlaceholderWithDefault/input', 'Const'), ('PlaceholderWithDefault', 'PlaceholderWithDefault')]
    assert _ops() == [("PlaceholderWithDefault/input", "Const"), ("PlaceholderWithDefault", "PlaceholderWithDefault")]
    assert p.shape.as_list() == [None]
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(p), [1., 2.])
        np.testing.assert_array_equal(s.run(p, {p: [3., 4., 5.]}), [3., 4., 5.])
    with pytest.raises(ValueError):
        tf.placeholder_with_default(tf.constant([1., 2.]), [3])


# -- fill / zeros / ones ----------------------------------------------------------------------

def test_zeros_ones_fill_names_and_values():
    a = tf.zeros([3, 2])
    b = tf.zeros([100, 100])
    c = tf.ones([3, 2], tf.int32)
    d = tf.fill([2, 3], 5.0)
    # TF: zeros small -> Const 'zeros'; large -> zeros/shape_as_tensor, zeros/Const, zeros (Fill)
    assert _ops() == [("zeros", "Const"), ("zeros_1/shape_as_tensor", "Const"), ("zeros_1/Const", "Const"),
                      ("zeros_1", "Fill"), ("ones", "Const"), ("Fill/dims", "Const"), ("Fill/value", "Const"),
                      ("Fill", "Fill")]
    assert (a.dtype, c.dtype, b.shape.as_list()) == (tf.float32, tf.int32, [100, 100])
    va, vb, vc, vd = _run([a, b, c, d])
    np.testing.assert_array_equal(va, np.zeros((3, 2), np.float32))
    assert vb.shape == (100, 100) and vb.dtype == np.float32 and not vb.any()
    np.testing.assert_array_equal(vc, np.ones((3, 2), np.int32))
    np.testing.assert_array_equal(vd, np.full((2, 3), 5.0, np.float32))
    assert tf.zeros([2], tf.bool).dtype == tf.bool


def test_zeros_dynamic_shape():
    n = tf.placeholder(tf.int32, [2])
    z = tf.zeros(n)
    assert z.op.type == "Fill" and z.shape.as_list() == [None, None]
    assert _run(z, {n: [2, 3]}).shape == (2, 3)
    check_op(lambda s: tf.ones(s, tf.int64), [np.array([3, 1], np.int32)], np.ones((3, 1), np.int64))


def test_zeros_like_ones_like():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    z, o = tf.zeros_like(x), tf.ones_like(x)
    zi = tf.zeros_like(x, dtype=tf.int32)
    # TF: zeros_like of a fully defined shape is a Const; ones_like is a Fill.
    assert (z.name, z.op.type, o.name, o.op.type, zi.dtype) == ("zeros_like:0", "Const", "ones_like:0", "Fill",
                                                                   tf.int32)
    u = tf.placeholder(tf.float32)
    zu, ou = tf.zeros_like(u), tf.ones_like(u)
    assert zu.op.type == "ZerosLike" and ou.op.type == "Fill" and ou.shape.ndims is None
    v = np.ones((2, 2), np.float32) * 7
    with tf.Session() as s:
        a, b, c, d = s.run([z, o, zu, ou], {x: X23, u: v})
    np.testing.assert_array_equal(a, np.zeros((2, 3)))
    np.testing.assert_array_equal(b, np.ones((2, 3)))
    np.testing.assert_array_equal(c, np.zeros((2, 2)))
    np.testing.assert_array_equal(d, np.ones((2, 2)))
    check_op(lambda t: tf.ones_like(t, dtype=tf.int64), [X23], np.ones((2, 3), np.int64))


# -- range / linspace -------------------------------------------------------------------------

def test_range_dtypes_names_values():
    r = tf.range(5)
    # TF: range/start, range/limit, range/delta, range
    assert _ops() == [("range/start", "Const"), ("range/limit", "Const"), ("range/delta", "Const"),
                      ("range", "Range")]
    assert (r.dtype, r.shape.as_list()) == (tf.int32, [5])
    r2 = tf.range(1, 5.0, 2)
    r3 = tf.range(tf.constant(3, tf.int64))
    r4 = tf.range(0, 5, dtype=tf.float64)
    r5 = tf.range(10, 1, -3)
    r6 = tf.range(1.0, 2.0, 0.3)
    assert [t.dtype for t in (r2, r3, r4)] == [tf.float32, tf.int64, tf.float64]
    assert r2.shape.as_list() == [2] and r6.shape.as_list() == [4]
    v = _run([r, r2, r3, r4, r5, r6])
    np.testing.assert_array_equal(v[0], np.arange(5))
    np.testing.assert_array_equal(v[1], [1., 3.])
    assert v[2].dtype == np.int64 and v[3].dtype == np.float64
    np.testing.assert_array_equal(v[4], [10, 7, 4])
    np.testing.assert_allclose(v[5], [1., 1.3, 1.6, 1.9], rtol=1e-6)
    n = tf.placeholder(tf.int32, [])
    rn = tf.range(n)
    assert rn.shape.as_list() == [None]
    np.testing.assert_array_equal(_run(rn, {n: 4}), np.arange(4))


def test_range_errors():
    with pytest.raises(ValueError, match="Requires start <= limit when delta > 0: 5/1"):
        tf.range(5, 1)
    with pytest.raises(ValueError, match="Requires delta != 0"):
        tf.range(0, 5, 0)
    d = tf.placeholder(tf.int32, [])
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(tf.range(0, 5, d), {d: 0})


def test_linspace():
    t = tf.lin_space(0., 1., 5)
    assert t.dtype == tf.float32 and t.shape.as_list() == [5]
    np.testing.assert_allclose(_run(t), np.linspace(0, 1, 5))
    assert tf.linspace is tf.lin_space


# -- shape / size / rank ---------------------------------------------------------------------

def test_shape_size_rank_static_and_dynamic():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    s, s64, n, r = tf.shape(x), tf.shape(x, out_type=tf.int64), tf.size(x), tf.rank(x)
    # TF: fully defined shapes give constants named Shape, Size, Rank
    assert [(t.name, t.op.type, t.dtype) for t in (s, s64, n, r)] == [
        ("Shape:0", "Const", tf.int32), ("Shape_1:0", "Const", tf.int64), ("Size:0", "Const", tf.int32),
        ("Rank:0", "Const", tf.int32)]
    u = tf.placeholder(tf.float32, [None, 3])
    su, nu, ru = tf.shape(u), tf.size(u), tf.rank(u)
    assert (su.op.type, nu.op.type, ru.op.type) == ("Shape", "Size", "Const")
    assert su.shape.as_list() == [2]
    w = tf.placeholder(tf.float32)
    assert tf.rank(w).op.type == "Rank"
    sn = tf.shape_n([x, u])
    assert [t.name for t in sn] == ["ShapeN:0", "ShapeN:1"]
    with tf.Session() as sess:
        v = sess.run([su, nu, tf.rank(w), sn[1], tf.size(w, out_type=tf.int64)],
                     {x: X23, u: np.zeros((4, 3)), w: np.zeros((1, 2, 3))})
    np.testing.assert_array_equal(v[0], [4, 3])
    assert v[0].dtype == np.int32 and v[1] == 12 and v[2] == 3 and v[4].dtype == np.int64
    np.testing.assert_array_equal(v[3], [4, 3])


# -- reshape and friends -----------------------------------------------------------------------

def test_reshape_values_names_static_shape():
    check_op(lambda x: tf.reshape(x, [-1]), [X23], X23.reshape(-1))
    check_op(lambda x: tf.reshape(x, [3, -1, 2]), [X234], X234.reshape(3, -1, 2))
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    y = tf.reshape(x, [-1])
    assert _ops()[1:] == [("Reshape/shape", "Const"), ("Reshape", "Reshape")]  # TF
    assert y.shape.as_list() == [6]
    p = tf.placeholder(tf.float32, [None, 3, 4])
    assert tf.reshape(p, tf.stack([tf.shape(p)[0], -1])).shape.as_list() == [None, None]  # TF: (?, ?)
    assert tf.reshape(p, [tf.shape(p)[0], 12]).shape.as_list() == [None, 12]
    q = tf.placeholder(tf.float32, [5, 3, 4])
    assert tf.reshape(q, tf.stack([tf.shape(q)[0], -1])).shape.as_list() == [5, 12]
    assert tf.reshape(q, [tf.shape(q)[0], -1]).shape.as_list() == [5, 12]
    with tf.Session() as s:
        np.testing.assert_array_equal(
            s.run(tf.reshape(p, [tf.shape(p)[0], -1]), {p: X234}), X234.reshape(2, -1))


def test_reshape_errors():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 6 elements to shape \[4\] \(4 elements\)"):
        tf.reshape(x, [4])
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 4 but is 6"):
        tf.reshape(x, [-1, 4])
    # One unknown input dimension: TF still checks that the known ones divide the target size.
    p = tf.placeholder(tf.float32, [None, 3])
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 3 but is 5"):
        tf.reshape(p, [5])
    assert tf.reshape(p, [6]).shape.as_list() == [6]
    assert tf.reshape(tf.placeholder(tf.float32, [None, None, 3]), [5]).shape.as_list() == [5]
    # TF 2.21 builds reshape(x, [-1, -1]) (static shape (?, ?)) and fails when it runs
    mm = tf.reshape(x, [-1, -1])
    assert mm.shape.as_list() == [None, None]
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(mm, {x: np.ones((2, 3))})
    with pytest.raises(TypeError):
        tf.reshape(x, [2.0, 3.0])
    u = tf.placeholder(tf.float32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 3 values"):
        _run(tf.reshape(u, [2]), {u: [1, 2, 3]})


def test_transpose():
    check_op(lambda x: tf.transpose(x), [X234], X234.T)
    check_op(lambda x: tf.transpose(x, [1, 0, 2]), [X234], X234.transpose(1, 0, 2))
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    t = tf.transpose(x)
    assert _ops()[1:] == [("transpose/perm", "Const"), ("transpose", "Transpose")]  # TF
    assert t.shape.as_list() == [3, 2]
    with pytest.raises(ValueError, match="Dimension must be 2 but is 1"):
        tf.transpose(x, [0])
    u = tf.placeholder(tf.float32)
    np.testing.assert_array_equal(_run(tf.transpose(u), {u: X234}), X234.T)
    c = np.array([[1 + 2j, 3j]], np.complex64)
    check_op(lambda z: tf.transpose(z, conjugate=True), [c], np.conj(c.T))


def test_expand_dims_squeeze():
    check_op(lambda x: tf.expand_dims(x, 1), [X23], X23[:, None])
    check_op(lambda x: tf.expand_dims(x, -1), [X23], X23[..., None])
    check_op(lambda x: tf.expand_dims(x, dim=0), [X23], X23[None])
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    e = tf.expand_dims(x, 1)
    assert (e.name, e.op.inputs[1].name) == ("ExpandDims:0", "ExpandDims/dim:0")  # TF
    with pytest.raises(ValueError):
        tf.expand_dims(x, 4)
    with pytest.raises(ValueError):
        tf.expand_dims(x, 1, dim=1)
    y = np.zeros((1, 2, 1), np.float32)
    check_op(lambda t: tf.squeeze(t), [y], np.zeros(2, np.float32))
    check_op(lambda t: tf.squeeze(t, [0]), [y], np.zeros((2, 1), np.float32))
    check_op(lambda t: tf.squeeze(t, squeeze_dims=[-1]), [y], np.zeros((1, 2), np.float32))
    p = tf.placeholder(tf.float32, [1, 2, 1])
    with pytest.raises(ValueError, match=r"Can not squeeze dim\[1\], expected a dimension of 1, got 2"):
        tf.squeeze(p, [1])
    assert tf.squeeze(tf.placeholder(tf.float32, [None, 1])).shape.ndims is None


# -- concat / stack / unstack / split -------------------------------------------------------

def test_concat():
    check_op(lambda a, b: tf.concat([a, b], 0), [X23, X23 + 1], np.concatenate([X23, X23 + 1], 0))
    check_op(lambda a, b: tf.concat([a, b], -1), [X23, X23[:, :1]], np.concatenate([X23, X23[:, :1]], -1))
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    c = tf.concat([x, x], 0)
    one = tf.concat([x], 0)
    # TF: concat/axis + concat (ConcatV2); single value: concat_1/concat_dim + concat_1/concat (Identity)
    assert (c.name, c.op.type, c.shape.as_list()) == ("concat:0", "ConcatV2", [4, 3])
    assert (one.name, one.op.type) == ("concat_1/concat:0", "Identity")
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.concat([x, tf.placeholder(tf.float32, [2])], 0)
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 2 and 3"):
        tf.concat([x, tf.placeholder(tf.float32, [3, 3])], 1)
    with pytest.raises(TypeError):
        tf.concat([x, tf.placeholder(tf.int32, [2, 3])], 0)
    u = tf.placeholder(tf.float32, [None, 3])
    assert tf.concat([x, u], 0).shape.as_list() == [None, 3]
    assert tf.concat([x, u], 1).shape.as_list() == [2, 6]
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(tf.concat([u, tf.placeholder_with_default(np.zeros((2, 2), np.float32), [None, None])], 0),
             {u: X23})


def test_stack_unstack():
    check_op(lambda a, b: tf.stack([a, b], 1), [X23, X23 * 2], np.stack([X23, X23 * 2], 1))
    s = tf.stack([1, 2])
    assert (s.name, s.op.type) == ("stack:0", "Const")  # TF
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    p = tf.stack([tf.shape(x)[0], -1])  # a Pack op whose Python element becomes stack_1/1 (TF)
    assert p.op.type == "Pack" and "stack_1/1" in [n for n, _ in _ops()]
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 2 and 1"):
        tf.stack([x, tf.placeholder(tf.float32, [2])])
    us = tf.unstack(x)
    assert [t.name for t in us] == ["unstack:0", "unstack:1"] and us[0].shape.as_list() == [3]
    check_op(lambda t: tf.unstack(t, axis=1), [X23], list(X23.T))
    with pytest.raises(ValueError):
        tf.unstack(tf.placeholder(tf.float32, [None, 3]))


def test_split():
    check_op(lambda t: tf.split(t, 3, 1), [X23], np.split(X23, 3, 1))
    check_op(lambda t: tf.split(t, [1, -1], 1), [X23], np.split(X23, [1], 1))
    check_op(lambda t: tf.split(t, [2, 0, 1], axis=-1), [X23], np.split(X23, [2, 2], -1))
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    parts = tf.split(x, 3, 1)
    assert [t.name for t in parts] == ["split:0", "split:1", "split:2"]
    assert parts[0].op.inputs[0].name == "split/split_dim:0" and parts[0].shape.as_list() == [2, 1]  # TF
    v = tf.split(x, [1, -1], 1)
    assert v[0].op.type == "SplitV" and [t.shape.as_list() for t in v] == [[2, 1], [2, 2]]
    with pytest.raises(ValueError, match="evenly divisible"):
        tf.split(x, 2, 1)
    with pytest.raises(ValueError):
        tf.split(x, [1, 1], 1)


# -- slicing ---------------------------------------------------------------------------------

def test_getitem_names_like_tf():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    y = x[0]
    # TF: strided_slice/stack, strided_slice/stack_1, strided_slice/stack_2, strided_slice
    assert _ops()[1:] == [("strided_slice/stack", "Const"), ("strided_slice/stack_1", "Const"),
                          ("strided_slice/stack_2", "Const"), ("strided_slice", "StridedSlice")]
    assert y.shape.as_list() == [3]
    assert x[:, 1:].shape.as_list() == [2, 2]
    assert x[..., None, ::-1].shape.as_list() == [2, 1, 3]
    assert x[tf.placeholder(tf.int32, [])].shape.as_list() == [3]


def test_getitem_static_shapes_partial():
    p = tf.placeholder(tf.float32, [None, 5])
    # TF: (?, 2), (?, 5), (5,), (?, 3); unknown rank stays unknown
    assert p[:, 1:3].shape.as_list() == [None, 2]
    assert p[1:3].shape.as_list() == [None, 5]
    assert p[-1].shape.as_list() == [5]
    assert p[::-1, ::2].shape.as_list() == [None, 3]
    assert tf.placeholder(tf.float32)[1:2].shape.ndims is None
    assert tf.strided_slice(tf.placeholder(tf.float32, [4, 3]), tf.placeholder(tf.int32, [1]),
                            [3]).shape.as_list() == [None, 3]


def test_getitem_errors():
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    with pytest.raises(ValueError, match="slice index 5 of dimension 0 out of bounds"):
        x[5]
    with pytest.raises(ValueError, match="slice index -1 of dimension 0 out of bounds"):
        x[-3]
    with pytest.raises(ValueError, match="strides\\[0\\] must be non-zero"):
        x[::0]
    with pytest.raises(ValueError, match="Multiple ellipses"):
        x[..., ...]
    with pytest.raises(TypeError, match="Only integers, slices"):
        x[1.5]
    with pytest.raises(TypeError, match="Only integers, slices"):
        x[tf.constant(1.0)]
    u = tf.placeholder(tf.float32, [None])
    i = tf.placeholder(tf.int32, [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 5 of dimension 0 out of bounds"):
        _run(u[i], {u: [1, 2, 3], i: 5})


_SPECS = [
    (0,), (-1,), (slice(1, None),), (slice(None, None, -1),), (Ellipsis, 1), (None, 0), (slice(None), None, 1),
    (1, slice(None, None, -2), Ellipsis), (Ellipsis, None), (slice(-2, -5, -1), 2, slice(None, 2)),
    (slice(10, -10, -3),), (slice(-100, 100),), (Ellipsis,), (), (slice(3, 1),), (0, 0, 0),
]


@pytest.mark.parametrize("spec", _SPECS)
def test_getitem_matches_numpy(spec):
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    check_op(lambda t: t[spec], [x], x[spec])


def test_getitem_tensor_indices():
    x = rng.standard_normal((3, 4)).astype(np.float32)
    with tf.Graph().as_default():
        t = tf.constant(x)
        i = tf.placeholder(tf.int32, [])
        j = tf.placeholder(tf.int64, [])
        a, b = t[i:, 1], t[:j]
        with tf.Session() as s:
            va, vb = s.run([a, b], {i: 1, j: 2})
    np.testing.assert_array_equal(va, x[1:, 1])
    np.testing.assert_array_equal(vb, x[:2])


def test_strided_slice_vs_numpy_hypothesis():
    hyp = pytest.importorskip("hypothesis")
    st = hyp.strategies

    idx_int = st.integers(-6, 6)
    sl = st.builds(slice, st.one_of(st.none(), idx_int), st.one_of(st.none(), idx_int),
                   st.one_of(st.none(), st.integers(-3, 3).filter(lambda v: v != 0)))
    item = st.one_of(sl, st.just(None), st.just(Ellipsis), st.integers(-3, 2))
    shape = (3, 4, 2)
    x = np.arange(24, dtype=np.float32).reshape(shape)
    g = tf.Graph()
    with g.as_default():
        t = tf.placeholder(tf.float32, shape)
        sess = tf.Session(graph=g)

    @hyp.settings(max_examples=150, deadline=None, derandomize=True)
    @hyp.given(st.lists(item, max_size=4))
    def check(spec):
        spec = tuple(spec)
        if sum(1 for s in spec if s is Ellipsis) > 1:
            return
        try:
            want = x[spec]
        except IndexError:
            with g.as_default():
                with pytest.raises((ValueError, tf.errors.InvalidArgumentError)):
                    sess.run(t[spec], {t: x})
            return
        with g.as_default():
            out = t[spec]
            assert out.shape.is_compatible_with(want.shape), (spec, out.shape, want.shape)
            assert out.shape.is_fully_defined()
            got = sess.run(out, {t: x})
        np.testing.assert_array_equal(got, want)

    check()
    sess.close()


def test_slice():
    check_op(lambda t: tf.slice(t, [0, 1], [-1, 2]), [X23], X23[:, 1:3])
    check_op(lambda t: tf.slice(t, [1, 0, 2], [1, 3, 2]), [X234], X234[1:2, :, 2:4])
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    s = tf.slice(x, [0, 1], [-1, 2])
    assert _ops()[1:] == [("Slice/begin", "Const"), ("Slice/size", "Const"), ("Slice", "Slice")]  # TF
    assert s.shape.as_list() == [2, 2]
    # TF: a dynamic begin keeps sizes that are given, (2, ?) for size [2, -1]
    assert tf.slice(tf.placeholder(tf.float32, [4, 3]), tf.placeholder(tf.int32, [2]),
                    [2, -1]).shape.as_list() == [2, None]
    u = tf.placeholder(tf.float32, [None, None])
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(tf.slice(u, [1, 0], [5, 1]), {u: X23})


# -- gather / gather_nd / scatter_nd ---------------------------------------------------------

def test_gather():
    check_op(lambda p: tf.gather(p, [1, 0, 1]), [X23], X23[[1, 0, 1]])
    check_op(lambda p: tf.gather(p, [[2, 0]], axis=1), [X23], X23[:, [[2, 0]]])
    check_op(lambda p, i: tf.gather(p, i), [X234, np.array([[1], [0]], np.int64)], X234[[[1], [0]]])
    check_op(lambda p: tf.gather(p, [[0, 1], [1, 0]], axis=1, batch_dims=1),
             [X234], np.stack([X234[0][[0, 1]], X234[1][[1, 0]]]))
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    g = tf.gather(x, [1, 0])
    assert _ops()[1:] == [("GatherV2/indices", "Const"), ("GatherV2/axis", "Const"), ("GatherV2", "GatherV2")]  # TF
    assert g.shape.as_list() == [2, 3]
    with pytest.raises(ValueError, match="Shape must be at least rank 3 but is rank 2"):
        tf.gather(x, [1], axis=2)
    i = tf.placeholder(tf.int32, [None])
    gi = tf.gather(x, i)
    with tf.Session() as s:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 3 is not in \[0, 2\)"):
            s.run(gi, {x: X23, i: [3]})
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = -1 is not in \[0, 2\)"):
            s.run(gi, {x: X23, i: [0, -1]})


def test_gather_nd_scatter_nd():
    idx = np.array([[1, 0], [0, 2]], np.int32)
    check_op(lambda p: tf.gather_nd(p, idx), [X23], X23[idx[:, 0], idx[:, 1]])
    check_op(lambda p: tf.gather_nd(p, [[1]]), [X234], X234[[1]])
    g = tf.gather_nd(tf.placeholder(tf.float32, [2, 3], name="x"), [[1, 0]])
    assert (g.name, g.shape.as_list()) == ("GatherNd:0", [1])  # TF
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not index into param shape"):
        _run(tf.gather_nd([[1, 2]], [[1, 0]]))
    want = np.zeros((4, 2), np.float32)
    np.add.at(want, [1, 1, 3], np.array([[1, 2], [3, 4], [5, 6]], np.float32))
    check_op(lambda u: tf.scatter_nd([[1], [1], [3]], u, [4, 2]), [np.array([[1, 2], [3, 4], [5, 6]], np.float32)],
             want)


# -- one_hot, tile, pad, reverse -------------------------------------------------------------

def test_one_hot():
    oh = tf.one_hot([1, 2], 3)
    # TF: one_hot/on_value, one_hot/off_value, one_hot/indices, one_hot/depth, one_hot
    assert _ops() == [("one_hot/on_value", "Const"), ("one_hot/off_value", "Const"), ("one_hot/indices", "Const"),
                      ("one_hot/depth", "Const"), ("one_hot", "OneHot")]
    assert (oh.dtype, oh.shape.as_list()) == (tf.float32, [2, 3])
    assert tf.one_hot([1, 2], 3, on_value=1, off_value=0).dtype == tf.int32
    assert tf.one_hot([1, 2], 3, dtype=tf.int64).dtype == tf.int64
    assert tf.one_hot([1, 2], 3, axis=0).shape.as_list() == [3, 2]
    with pytest.raises(TypeError):
        tf.one_hot([1, 2], 3, on_value=1.0, off_value=0)
    ind = np.array([[0, 5], [-1, 2]], np.int32)
    want = (ind[..., None] == np.arange(4)).astype(np.float32) * 2 - 1
    check_op(lambda i: tf.one_hot(i, 4, on_value=1.0, off_value=-1.0), [ind], want)
    check_op(lambda i: tf.one_hot(i, 4, axis=1), [ind], np.moveaxis((ind[..., None] == np.arange(4)).astype(
        np.float32), -1, 1))


def test_tile():
    check_op(lambda t: tf.tile(t, [2, 1]), [X23], np.tile(X23, [2, 1]))
    check_op(lambda t: tf.tile(t, [1, 3, 2]), [X234], np.tile(X234, [1, 3, 2]))
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    assert tf.tile(x, [2, 1]).name == "Tile:0" and tf.tile(x, [2, 1]).shape.as_list() == [4, 3]
    with pytest.raises(ValueError):
        tf.tile(x, [2])


def test_pad():
    p = [[1, 1], [0, 2]]
    check_op(lambda t: tf.pad(t, p), [X23], np.pad(X23, p))
    check_op(lambda t: tf.pad(t, p, constant_values=3), [X23], np.pad(X23, p, constant_values=3))
    check_op(lambda t: tf.pad(t, [[1, 1], [2, 2]], "REFLECT"), [X23], np.pad(X23, [[1, 1], [2, 2]], "reflect"))
    check_op(lambda t: tf.pad(t, [[2, 1], [3, 0]], "symmetric"), [X23],
             np.pad(X23, [[2, 1], [3, 0]], "symmetric"))
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    # TF op names: Pad, PadV2, MirrorPad (with their paddings constants)
    assert [tf.pad(x, p).name, tf.pad(x, p, constant_values=3).name, tf.pad(x, p, "REFLECT").name] == [
        "Pad:0", "PadV2:0", "MirrorPad:0"]
    assert tf.pad(x, p).shape.as_list() == [4, 5]
    with pytest.raises(ValueError):
        tf.pad(x, [[1, 1], [0, 0]], "FOO")
    with pytest.raises(ValueError):
        tf.pad(x, [[1, 1]])


def test_reverse():
    check_op(lambda t: tf.reverse(t, [1]), [X234], X234[:, ::-1])
    check_op(lambda t: tf.reverse_v2(t, [0, -1]), [X234], X234[::-1, :, ::-1])
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    assert tf.reverse(x, [1]).name == "ReverseV2:0"  # TF
    with pytest.raises(ValueError):
        tf.reverse(x, [2])


# -- where / select / masks ------------------------------------------------------------------

def test_where_one_arg():
    c = np.array([[True, False, True], [False, False, True]])
    w = check_op(lambda t: tf.where(t), [c], np.argwhere(c))
    assert w.dtype == np.int64
    t = tf.where(tf.placeholder(tf.bool, [2, 3]))
    assert (t.name, t.dtype, t.shape.as_list()) == ("Where:0", tf.int64, [None, 2])  # TF


def test_where_three_args():
    c = np.array([True, False])
    check_op(lambda k, a, b: tf.where(k, a, b), [c, X23, -X23], np.where(c[:, None], X23, -X23))
    cc = np.array([[True, False, True], [False, True, False]])
    check_op(lambda k, a, b: tf.where(k, a, b), [cc, X23, -X23], np.where(cc, X23, -X23))
    check_op(lambda k, a, b: tf.where(k, a, b), [np.array(False), X23, -X23], -X23)
    w = tf.where(tf.placeholder(tf.bool, [2]), tf.placeholder(tf.float32, [2, 3], name="x"),
                 tf.placeholder(tf.float32, [2, 3], name="x"))
    assert (w.name, w.shape.as_list()) == ("Select:0", [2, 3])  # TF
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 3 and 2"):
        tf.where(tf.placeholder(tf.bool, [3]), tf.zeros([2, 3]), tf.zeros([2, 3]))
    with pytest.raises(ValueError, match="x and y must both be non-None or both be None"):
        tf.where(tf.placeholder(tf.bool, [2]), tf.zeros([2]))
    with pytest.raises(ValueError):
        tf.where(tf.placeholder(tf.bool, [2, 3]), tf.zeros([2, 3]), tf.zeros([2, 1]))


def test_where_v2_broadcasts():
    c = np.array([True, False, True])
    check_op(lambda k, a: tf.where_v2(k, a, 0.), [c, X23], np.where(c, X23, 0))
    w = tf.where_v2(tf.placeholder(tf.bool, [3]), tf.placeholder(tf.float32, [2, 3]), 0.)
    assert (w.name, w.shape.as_list()) == ("SelectV2:0", [2, 3])  # TF


def test_boolean_mask():
    m = np.array([True, False])
    check_op(lambda t, k: tf.boolean_mask(t, k), [X23, m], X23[m])
    m2 = rng.rand(2, 3) > 0.5
    check_op(lambda t, k: tf.boolean_mask(t, k), [X234, m2], X234[m2])
    m3 = np.array([True, False, True])
    check_op(lambda t, k: tf.boolean_mask(t, k, axis=1), [X234, m3], X234[:, m3])
    out = tf.boolean_mask(tf.placeholder(tf.float32, [2, 3, 4]), tf.placeholder(tf.bool, [2, 3]))
    assert (out.name, out.shape.as_list()) == ("boolean_mask/GatherV2:0", [None, 4])  # TF
    out = tf.boolean_mask(tf.placeholder(tf.float32, [2, 3, 4]), tf.placeholder(tf.bool, [3]), axis=1)
    assert out.shape.as_list() == [2, None, 4]  # TF
    with pytest.raises(ValueError):
        tf.boolean_mask(tf.placeholder(tf.float32, [2, 3, 4]), tf.placeholder(tf.bool, [3]))
    u = tf.placeholder(tf.float32, [None, None])
    k = tf.placeholder(tf.bool, [None, None])
    np.testing.assert_array_equal(_run(tf.boolean_mask(u, k), {u: X23, k: m2}), X23[m2])


def _has_math(*names):
    from tensorweave.ops import math_ops
    return all(hasattr(math_ops, n) for n in names)


@pytest.mark.skipif(not _has_math("less", "cast", "reduce_max", "maximum"),
                    reason="needs the math family's less/cast/reduce_max")
def test_sequence_mask():
    lens = np.array([1, 3, 0], np.int32)
    check_op(lambda l: tf.sequence_mask(l, 4), [lens], np.arange(4) < lens[:, None])
    check_op(lambda l: tf.sequence_mask(l), [lens], np.arange(3) < lens[:, None])
    check_op(lambda l: tf.sequence_mask(l, 4, dtype=tf.float32), [lens],
             (np.arange(4) < lens[:, None]).astype(np.float32))
    m = tf.sequence_mask(tf.placeholder(tf.int32, [None]), 5, dtype=tf.float32)
    assert m.shape.as_list() == [None, 5]  # TF


# -- broadcasting and the rest ---------------------------------------------------------------

def test_broadcast_to_and_shapes():
    v = np.array([1., 2., 3.], np.float32)
    out = check_op(lambda t: tf.broadcast_to(t, [2, 3]), [v], np.broadcast_to(v, (2, 3)))
    out[0, 0] = 5  # the fetched value is the user's own, writable array
    assert tf.broadcast_to(tf.placeholder(tf.float32, [3]), [2, 3]).name == "BroadcastTo:0"  # TF
    with pytest.raises(ValueError):
        tf.broadcast_to(tf.placeholder(tf.float32, [3]), [2, 4])
    d = tf.broadcast_dynamic_shape([2, 1], [3])
    assert (d.name, d.shape.as_list()) == ("BroadcastArgs:0", [2])  # TF
    np.testing.assert_array_equal(_run(d), [2, 3])
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])).as_list() == [2, 3]
    with pytest.raises(ValueError):
        tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))


def test_meshgrid_unique_setdiff():
    a, b = np.array([1, 2], np.int32), np.array([3, 4, 5], np.int32)
    check_op(lambda x, y: tf.meshgrid(x, y), [a, b], np.meshgrid(a, b))
    check_op(lambda x, y: tf.meshgrid(x, y, indexing="ij"), [a, b], np.meshgrid(a, b, indexing="ij"))
    y, idx = _run(tf.unique([3, 1, 3, 2]))
    np.testing.assert_array_equal(y, [3, 1, 2])  # TF: first-occurrence order
    np.testing.assert_array_equal(idx, [0, 1, 0, 2])
    u = tf.unique(tf.constant([3, 1, 3]), out_idx=tf.int64)
    assert (u.y.shape.as_list(), u.idx.dtype, u.idx.shape.as_list()) == ([None], tf.int64, [3])  # TF
    out, i = _run(tf.setdiff1d([1, 2, 3, 2], [2]))
    np.testing.assert_array_equal(out, [1, 3])
    np.testing.assert_array_equal(i, [0, 2])


def test_band_diag_invert_permutation_identity_n():
    m = rng.standard_normal((2, 4, 4)).astype(np.float32)
    check_op(lambda t: tf.matrix_band_part(t, 1, 0), [m], np.tril(np.triu(m, -1)))
    check_op(lambda t: tf.matrix_band_part(t, 0, -1), [m], np.triu(m))
    d = np.array([1., 2., 3.], np.float32)
    check_op(tf.diag, [d], np.diag(d))
    check_op(tf.diag_part, [np.diag(d)], d)
    d2 = rng.standard_normal((2, 3)).astype(np.float32)
    check_op(lambda t: tf.diag_part(tf.diag(t)), [d2], d2)
    check_op(tf.invert_permutation, [np.array([2, 0, 1], np.int32)], np.argsort([2, 0, 1]).astype(np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(tf.invert_permutation(tf.placeholder_with_default([0, 0], [None])))
    a, b = tf.identity_n([tf.constant(1.0), tf.constant([2, 3])])
    assert (a.name, b.name, b.dtype) == ("IdentityN:0", "IdentityN:1", tf.int32)


def test_kernels_do_not_modify_inputs_and_views_are_safe():
    v = tf.Variable(X23) if hasattr(tf, "Variable") else None
    c = tf.constant(X23)
    r = tf.reshape(c, [-1])
    t = tf.transpose(c)
    with tf.Session() as s:
        a, b = s.run([r, t])
        a[0] = 100.
        b[0, 0] = 100.
        np.testing.assert_array_equal(s.run(c), X23)


def test_static_shapes_through_partial_shape_computations():
    x = tf.placeholder(tf.float32, [5, None, 4])
    # TF: (5, ?) and (5, 4, ?)
    assert tf.reshape(x, [tf.shape(x)[0], -1]).shape.as_list() == [5, None]
    assert tf.reshape(x, tf.stack([tf.shape(x)[0], tf.shape(x)[2], -1])).shape.as_list() == [5, 4, None]
    assert tf.reshape(x, tf.concat([tf.shape(x)[:1], [-1]], 0)).shape.as_list() == [5, None]
    assert tf.zeros(tf.shape(x)).shape.as_list() == [5, None, 4]
    assert tf.fill(tf.stack([tf.shape(x)[2], 3]), 1.0).shape.as_list() == [4, 3]
    assert x[:x.shape[0]].shape.as_list() == [5, None, 4]  # TF: Dimensions are valid bounds
    assert x[np.array([True, False, True, True, False])].shape.as_list() == [None, None, 4]
    # Fully known shapes fold to constants, so shape arithmetic has static values.
    y = tf.placeholder(tf.float32, [2, 3, 4])
    assert tf.reshape(y, [-1, tf.shape(y)[2]]).shape.as_list() == [6, 4]
    assert tf.range(tf.size(y)).shape.as_list() == [24]
    assert tf.concat([tf.shape(y), [1]], 0).shape.as_list() == [4]
