"""edit_distance, fingerprint, switch_case, angle/erfcinv, numeric checks and small helpers.
Values marked "from TF" were recorded by running the same program under TensorFlow 2.21
(tensorflow.compat.v1, graph mode)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients


def _run(x, feed=None):
    with tf.Session() as s:
        return s.run(x, feed)


def _levenshtein(a, b):
    d = np.arange(len(b) + 1)
    for i, x in enumerate(a, 1):
        prev, d[0] = d.copy(), i
        for j, y in enumerate(b, 1):
            d[j] = min(prev[j] + 1, d[j - 1] + 1, prev[j - 1] + (x != y))
    return d[-1]


def test_edit_distance_matches_tf():
    h = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], [2, 1, 1])
    t = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"], [2, 2, 2])
    d, d2 = tf.edit_distance(h, t), tf.edit_distance(h, t, normalize=False)
    assert d.name == "edit_distance:0" and d2.name == "edit_distance_1:0"
    assert d.shape.as_list() == [2, 2] and d.dtype == tf.float32
    a, b = _run([d, d2])
    np.testing.assert_array_equal(a, [[np.inf, 1.0], [0.5, 1.0]])  # from TF
    np.testing.assert_array_equal(b, [[1, 1], [1, 1]])  # from TF


def test_edit_distance_random_sequences_against_python_levenshtein():
    rng = np.random.RandomState(0)
    hyp = [list(rng.randint(0, 3, rng.randint(1, 6))) for _ in range(4)]
    tru = [list(rng.randint(0, 3, rng.randint(1, 6))) for _ in range(4)]

    def sp(seqs):
        idx = [[i, j] for i, s in enumerate(seqs) for j in range(len(s))]
        return tf.SparseTensor(idx, np.concatenate(seqs).astype(np.int64), [len(seqs), 6])
    got = _run(tf.edit_distance(sp(hyp), sp(tru)))
    want = [_levenshtein(a, b) / len(b) for a, b in zip(hyp, tru)]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_edit_distance_rejects_dense_and_mixed_types():
    with pytest.raises(TypeError):
        tf.edit_distance(tf.constant([1]), tf.SparseTensor([[0, 0]], [1], [1, 1]))
    with pytest.raises(TypeError):
        tf.edit_distance(tf.SparseTensor([[0, 0]], [1], [1, 1]), tf.SparseTensor([[0, 0]], ["a"], [1, 1]))


def test_fingerprint_is_tfs_farmhash():
    fp = tf.fingerprint(tf.constant([[1, 2], [3, 4]]))
    assert fp.shape.as_list() == [2, 8] and fp.dtype == tf.uint8
    np.testing.assert_array_equal(_run(fp), [[76, 18, 253, 133, 168, 204, 240, 10],
                                             [254, 162, 60, 240, 103, 244, 53, 255]])  # from TF
    np.testing.assert_array_equal(_run(tf.fingerprint(tf.constant(["ab", "c"]))),
                                  [[30, 165, 173, 66, 82, 110, 141, 170],
                                   [40, 123, 203, 224, 169, 24, 161, 158]])  # from TF


def test_switch_case_picks_branch_and_default():
    x = tf.placeholder(tf.int32, [])
    r = tf.switch_case(x, [lambda: tf.constant(1.), lambda: tf.constant(2.)], default=lambda: tf.constant(-1.))
    r2 = tf.switch_case(x, {0: lambda: tf.constant(10), 1: lambda: tf.constant(13)})
    assert r.name == "switch_case/indexed_case/Identity:0"
    with tf.Session() as s:  # from TF
        got = [s.run([r, r2], {x: i}) for i in [0, 1, 2, 3, -1]]
    assert got == [[1, 10], [2, 13], [-1, 13], [-1, 13], [-1, 13]]
    with pytest.raises(ValueError, match="contiguous range"):
        tf.switch_case(x, {0: lambda: 1, 3: lambda: 2})


def test_switch_case_gradient():
    def build(v):
        i = tf.constant(1)
        return tf.switch_case(i, [lambda: v * 2.0, lambda: v * v])
    check_gradients(build, [np.array([0.5, -1.5])])


def test_angle_and_erfcinv():
    a = tf.angle(tf.constant([1 + 1j, -1.]))
    assert a.name == "Angle:0" and a.dtype == tf.float64
    b = tf.math.angle(tf.constant([-1., 2.]))
    c = tf.math.erfcinv(tf.constant([0.5, 1.0, 1.5]))
    assert c.name == "erfcinv/mul_1:0"
    va, vb, vc = _run([a, b, c])
    np.testing.assert_allclose(va, [np.pi / 4, np.pi])
    np.testing.assert_allclose(vb, [np.pi, 0.0])
    np.testing.assert_allclose(vc, [0.4769363, 0, -0.4769363], atol=1e-6)  # from TF


def test_angle_gradient():
    x = tf.constant([1 + 2j, -0.5 + 0.25j], dtype=tf.complex128)
    g = tf.gradients(tf.reduce_sum(tf.angle(x)), x)[0]
    z = np.array([1 + 2j, -0.5 + 0.25j])
    # TF's convention: -1 / (imag(z) + i real(z)).
    np.testing.assert_allclose(_run(g), -1.0 / (z.imag + 1j * z.real))


def test_verify_tensor_all_finite_and_add_check_numerics_ops():
    x = tf.placeholder(tf.float32, [2])
    v = tf.verify_tensor_all_finite(x, "bad")
    assert v.name == "VerifyFinite/control_dependency:0"
    y = x * 2.0
    check = tf.add_check_numerics_ops()
    assert check.type == "NoOp"
    with tf.Session() as s:
        s.run([v, check], {x: [1, 2]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="bad"):
            s.run(v, {x: [1, np.nan]})
        with pytest.raises(tf.errors.InvalidArgumentError):
            s.run(check, {x: [1, np.inf]})
    del y


def test_timestamp_guarantee_const_and_helpers():
    t = tf.timestamp()
    assert t.dtype == tf.float64 and t.shape.as_list() == []
    assert abs(_run(t) - __import__("time").time()) < 60
    g = tf.guarantee_const(tf.constant(1.5))
    assert g.name == "GuaranteeConst:0" and _run(g) == 1.5
    d = tf.dimension_at_index(tf.TensorShape([2, None]), 0)
    assert isinstance(d, tf.Dimension) and d.value == 2
    with tf.container("ctr"):
        w = tf.Variable(1.0, name="w")
    assert w.op.get_attr("container") in ("ctr", b"ctr")
    sp = tf.convert_to_tensor_or_sparse_tensor(tf.SparseTensorValue([[0]], [1], [2]))
    assert isinstance(sp, tf.SparseTensor)
    assert isinstance(tf.convert_to_tensor_or_indexed_slices([1, 2]), tf.Tensor)
    assert tf.initialize_all_tables().name == "init_all_tables"


def test_create_partitioned_variables_names():
    vs = tf.create_partitioned_variables([4, 2], [2, 1], tf.ones_initializer(), name="pv")
    assert [v.name for v in vs] == ["pv/part_0:0", "pv/part_1:0"]  # from TF
    assert [v.shape.as_list() for v in vs] == [[2, 2], [2, 2]]


def test_vectorized_map_values():
    y = tf.vectorized_map(lambda t: t * 2.0, tf.constant([[1., 2.], [3., 4.]]))
    np.testing.assert_array_equal(_run(y), [[2, 4], [6, 8]])
    assert y.shape.as_list() == [2, 2]


def test_ragged_string_functions_of_a_scalar_give_one_row():
    # TF 2.21: a scalar string decodes to a rank-1 tensor (no ragged dimension)
    decoded = tf.strings.unicode_decode("ab", "UTF-8")
    split = tf.strings.unicode_split("ab", "UTF-8")
    chars = tf.strings.bytes_split("ab")
    with tf.Session() as sess:
        got = sess.run([decoded, split, chars])
    assert got[0].tolist() == [97, 98]
    assert got[1].tolist() == [b"a", b"b"] and got[2].tolist() == [b"a", b"b"]
