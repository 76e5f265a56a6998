"""Ops across dtypes and edge cases, round 5: values, dtypes, signed zeros, NaN and the errors TF
raises. Expected values were recorded from TF 2.21 (tf.compat.v1, graph mode, CPU)."""

import numpy as np
import pytest

import tensorweave as tf


def _run(*fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(list(fetches), feed)


def _signs(a):
    return np.signbit(np.asarray(a)).tolist()


def test_sort_and_top_k_of_extreme_integers_are_exact():
    # recorded from TF 2.21 for int64/int8; the uint64 extremes differ in TF itself (its
    # tf.constant of a list wraps 2**64 - 1), so we check NumPy's order there
    with tf.Graph().as_default():
        for dt in (tf.int64, tf.int8, tf.uint64, tf.uint8):
            vals = [7, 3, 9, dt.max, dt.min, 0]
            x = tf.constant(np.array(vals, dt.as_numpy_dtype))
            s, a, d, (tv, ti) = _run(tf.sort(x), tf.argsort(x), tf.sort(x, direction="DESCENDING"),
                                     tf.nn.top_k(x, 2))
            ref = np.array(vals, dt.as_numpy_dtype)
            np.testing.assert_array_equal(s, np.sort(ref))
            np.testing.assert_array_equal(a, np.argsort(ref, kind="stable"))
            np.testing.assert_array_equal(d, np.sort(ref)[::-1])
            assert tv.tolist() == [dt.max, 9] and ti.tolist() == [3, 2]


def test_top_k_rejects_bool_and_complex_at_build_time():
    with tf.Graph().as_default():
        for v in ([True], [1j]):
            with pytest.raises(TypeError, match="parameter 'input' has DataType .* not in list of allowed "
                                                "values: float32, float64, int32, uint8, int16, int8, int64, "
                                                "bfloat16, uint16, float16, uint32, uint64$"):
                tf.nn.top_k(tf.constant(v), 1)


@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
def test_maximum_minimum_signed_zero_ties_follow_eigen_packets(dt):
    # TF 2.21: float32 packets of 8 and float64 packets of 4 keep the second operand on a tie,
    # the scalar tail (and float16) the first
    packet = {"float32": 8, "float64": 4, "float16": None}[dt]
    with tf.Graph().as_default():
        for n in (3, 4, 8, 11, 19):
            a = np.array([-0.0, 0.0] * n)[:n].astype(dt)
            x, y = tf.constant(a), tf.constant(-a)
            mx, mn, ms = _run(tf.maximum(x, y), tf.minimum(x, y), tf.maximum(x, tf.constant(-0.0, dt)))
            main = n - n % packet if packet else 0
            want = np.concatenate([-a[:main], a[main:]])
            assert _signs(mx) == _signs(want) and _signs(mn) == _signs(want)
            assert _signs(ms) == _signs(np.concatenate([np.full(main, -0.0), a[main:]]))


def test_clip_by_value_keeps_signed_zeros_as_tf():
    # recorded from TF 2.21
    with tf.Graph().as_default():
        y32 = tf.constant([[-0.0, 0.0], [0.0, -0.0]])
        y64 = tf.constant([[-0.0, 0.0], [0.0, -0.0]], tf.float64)
        c32, c64 = _run(tf.clip_by_value(y32, -0.0, 0.0), tf.clip_by_value(y64, -0.0, 0.0))
        assert _signs(c32) == [[True, False], [False, True]]
        assert _signs(c64) == [[True, True], [True, True]]


def test_cumsum_starts_from_positive_zero_and_floormod_keeps_negative_zero():
    # recorded from TF 2.21: cumsum([-0.0, 0.0]) is [0.0, 0.0]; floormod(-0.0, 2.0) is -0.0,
    # also when the graph is all constants
    with tf.Graph().as_default():
        y = tf.constant([[-0.0, 0.0], [0.0, -0.0]])
        p = tf.placeholder(tf.float64, [2])
        cs, cse, cp, fm, fmp = _run(tf.cumsum(y, 1), tf.cumsum(y, 1, exclusive=True, reverse=True),
                                    tf.cumprod(y, 1), tf.floormod(y, 2.0), tf.floormod(p, 2.0),
                                    feed={p: [-0.0, -4.0]})
        assert _signs(cs) == [[False, False], [False, False]]
        assert _signs(cse) == [[False, False], [False, False]]
        assert _signs(cp) == [[True, True], [False, True]]
        assert _signs(fm) == [[True, False], [False, True]]
        assert _signs(fmp) == [True, True]


def test_build_time_type_lists_as_tf():
    # messages recorded from TF 2.21
    with tf.Graph().as_default():
        b, s, c = tf.constant([True]), tf.constant(["a"]), tf.constant([1j])
        cases = [
            (lambda: tf.abs(tf.constant([1], tf.uint8)), "DataType uint8 not in list of allowed values: "
             "bfloat16, float16, float32, float64, int8, int16, int32, int64$"),
            (lambda: tf.square(b), "int64, uint8, uint16, uint32, uint64, complex64, complex128$"),
            (lambda: tf.cumsum(b), "parameter 'x' has DataType bool not in list of allowed values: float32, "
             "float64, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, "
             "quint16, uint16, complex128, float16, uint32, uint64$"),
            (lambda: tf.reduce_logsumexp(c), "parameter 'input' has DataType complex128 not in list"),
            (lambda: tf.norm(b), r"^Expected numeric or variant tensor, got dtype tf.bool.$"),
            (lambda: tf.ones_like(s), r"^Expected string, but got 1 of type 'int'.$"),
            (lambda: tf.ones([2], tf.string), r"^Expected string, but got 1 of type 'int'.$"),
            (lambda: tf.math.divide_no_nan(b, b), r"^Invalid dtype tf.bool in tf.math.divide_no_nan. Expected "
             r"one of \{tf.uint8, tf.int8, .*, tf.complex128\}.$"),
        ]
        for build, msg in cases:
            with pytest.raises(TypeError, match=msg):
                build()
        sq = tf.square(tf.constant([7, 3], tf.uint16))
        assert sq.dtype == tf.uint16 and _run(sq)[0].tolist() == [49, 9]


def test_sign_of_complex_is_div_no_nan_by_its_magnitude():
    with tf.Graph().as_default():
        x = tf.constant([-7, 0, 3 + 4j], tf.complex64)
        r = tf.sign(x)
        assert (r.op.type, r.name, r.dtype) == ("DivNoNan", "DivNoNan:0", tf.complex64)
        assert [i.op.type for i in r.op.inputs] == ["Const", "Cast"]
        np.testing.assert_allclose(_run(r)[0], [-1, 0, 0.6 + 0.8j], rtol=1e-6)


@pytest.mark.parametrize("build,op_type,attrs", [
    (lambda: tf.truncatemod(tf.constant([1.], tf.float16), tf.constant([1.], tf.float16)), "TruncateMod",
     "T=DT_HALF"),
    (lambda: tf.floordiv(tf.constant([1j]), tf.constant([1j])), "FloorDiv", "T=DT_COMPLEX128"),
    (lambda: tf.truncatediv(tf.constant([1j], tf.complex64), tf.constant([1j], tf.complex64)), "TruncateDiv",
     "T=DT_COMPLEX64"),
    (lambda: tf.round(tf.constant([1j])), "Round", "T=DT_COMPLEX128"),
    (lambda: tf.rint(tf.constant([1.], tf.float16)), "Rint", "T=DT_HALF"),
    (lambda: tf.unique(tf.constant([1j])).y, "Unique", "T=DT_COMPLEX128, out_idx=DT_INT32"),
    (lambda: tf.unique_with_counts(tf.constant([1j]), tf.int64).count, "UniqueWithCounts",
     "T=DT_COMPLEX128, out_idx=DT_INT64"),
])
def test_dtypes_without_a_cpu_kernel_fail_at_run_time(build, op_type, attrs):
    # TF 2.21: InvalidArgumentError "No OpKernel was registered to support Op ..."
    with tf.Graph().as_default():
        r = build()
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"No OpKernel was registered to support Op '{op_type}' used by "
                                 f"{{{{node {r.op.name}}}}} with these attrs: \\[{attrs}\\]"):
            _run(r)


def test_complex_reciprocal_rsqrt_and_mean_as_tf():
    # values and signed zeros recorded from TF 2.21
    with tf.Graph().as_default():
        x = tf.constant([-7, 3, 9], tf.complex64)
        y = tf.constant([-7, 3, 9], tf.complex128)
        rx, ry, qx, mean = _run(tf.reciprocal(x), tf.reciprocal(y), tf.rsqrt(x), tf.reduce_mean(y))
        for r in (rx, ry):
            np.testing.assert_allclose(r.real, [-1 / 7, 1 / 3, 1 / 9], rtol=1e-6)
            assert _signs(r.imag) == [True, False, False]
        assert qx[0].imag == np.float32(-0.37796447) and _signs(qx.imag) == [True, True, True]
        assert mean == 1.6666666666666667 + 0j
        z = tf.constant([3.3 - 7.1j] * 11, tf.complex64)
        assert _run(tf.reciprocal(z))[0][-1].imag == np.float32(0.11582382)


def test_integer_pow_by_constant_minus_one_is_tf_reciprocal_not_found():
    # TF 2.21: Grappler rewrites pow(x, -1) to Reciprocal (no integer kernel): NotFoundError;
    # other negative exponents reach Pow's own InvalidArgumentError
    with tf.Graph().as_default():
        p = tf.placeholder(tf.int32)
        r1 = tf.pow(p, -1)
        r2 = tf.pow(tf.constant([[2, 3]]), tf.constant([[-1], [-1]]))
        r3 = tf.pow(tf.constant([2]), -2)
        with pytest.raises(tf.errors.NotFoundError, match="No registered 'Reciprocal' OpKernel for 'CPU' "
                                                          "devices compatible with node {{node Pow}}"):
            _run(r1, feed={p: [2]})
        with pytest.raises(tf.errors.NotFoundError):
            _run(r2)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integers to negative integer powers"):
            _run(r3)
        assert _run(tf.pow(tf.constant([2, 3]), 40))[0].tolist() == [0, 689956897]


def test_half_xlogy_rounds_log_first_and_floormod_name():
    # recorded from TF 2.21: half xlogy(3, 3) is 3.297 (log(3) rounded to half first)
    with tf.Graph().as_default():
        x = tf.constant(np.array([7, 3, 0], np.float16))
        y = tf.constant(np.array([2, 3, 0], np.float16))
        r = _run(tf.math.xlogy(x, y))[0]
        assert r.dtype == np.float16 and r.tolist() == [4.8515625, 3.296875, 0.0]
        bt = tf.truncatemod(tf.constant([1.], tf.bfloat16), tf.constant([1.], tf.bfloat16))
        with pytest.raises(tf.errors.InvalidArgumentError, match="T=DT_BFLOAT16"):
            _run(bt)
    assert tf.floormod.__name__ == "floor_mod" and tf.mod.__name__ == "floor_mod"
