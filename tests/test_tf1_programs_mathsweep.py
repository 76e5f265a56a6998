"""TF1-style programs over math/array edge cases, compared with values recorded from real
TensorFlow 2.21 (tensorflow.compat.v1, CPU wheel) running the same programs."""

import numpy as np
import pytest

import tensorweave as tf


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


_V = np.random.RandomState(0).rand(3000).astype(np.float32)


def test_bfloat16_sum_and_mean_accumulate_in_float32():
    # TF casts bfloat16 to float32 for Sum (a bfloat16 running sum sticks at 256)
    with tf.Graph().as_default():
        p = tf.placeholder(tf.bfloat16, [None])
        q = tf.placeholder(tf.bfloat16, [None, None])
        bf = tf.bfloat16.as_numpy_dtype
        s, m = _run([tf.reduce_sum(p), tf.reduce_mean(p)], {p: _V.astype(bf)})
        assert s.dtype == bf and float(s) == 1512.0 and float(m) == 0.50390625
        cols, rows, tot = _run([tf.reduce_sum(q, 0)[:6], tf.reduce_mean(q, 1)[:6], tf.reduce_sum(q)],
                               {q: _V.reshape(100, 30).astype(bf)})
        assert cols.astype(np.float32).tolist() == [45.5, 52.5, 48, 50.5, 50.25, 53.25]
        assert rows.astype(np.float32).tolist() == [0.58203125, 0.451171875, 0.41796875, 0.53515625, 0.5625,
                                                    0.4765625]
        assert float(tot) == 1512.0


def test_half_sum_mean_prod_in_eigen_packet_order():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float16, [None])
        q = tf.placeholder(tf.float16, [None, None])
        s, s7, m = _run([tf.reduce_sum(p), tf.reduce_sum(p[:7]), tf.reduce_mean(p)], {p: _V.astype(np.float16)})
        assert (float(s), float(s7), float(m)) == (1512.0, 3.917969, 0.5039062) or \
            (s, s7, m) == (np.float16(1512), np.float16(3.918), np.float16(0.504))
        rows = _run(tf.reduce_sum(tf.reshape(p, [30, 100]), 1)[:5], {p: _V.astype(np.float16)})
        assert rows.tolist() == np.array([47.25, 52.8, 50.97, 47.28, 50.], np.float16).tolist()
        cols, means = _run([tf.reduce_sum(q, 0)[:6], tf.reduce_mean(q, 1)[:6]],
                           {q: _V.reshape(100, 30).astype(np.float16)})
        assert cols.tolist() == np.array([45.4, 52.5, 48.03, 50.56, 50.3, 53.3], np.float16).tolist()
        assert means.tolist() == np.array([0.581, 0.4517, 0.4182, 0.5366, 0.5635, 0.476], np.float16).tolist()
        xs = _V[:20].astype(np.float16) + np.float16(1)
        assert _run(tf.reduce_prod(p), {p: xs}) == np.float16(6816)
        b = tf.placeholder(tf.bfloat16, [None])
        bf = tf.bfloat16.as_numpy_dtype
        pr, mx = _run([tf.reduce_prod(b), tf.reduce_max(b)], {b: _V[:20].astype(bf) + bf(1)})
        assert float(pr) == 6784.0 and float(mx) == 1.96875


def test_bfloat16_reduce_max_min_of_empty_and_full():
    with tf.Graph().as_default():
        x = tf.constant([1.5, -2.0, 3.0], tf.bfloat16)
        e = tf.zeros([0], tf.bfloat16)
        r = _run([tf.reduce_max(x), tf.reduce_min(x), tf.reduce_max(e), tf.reduce_min(e)])
        assert [float(v) for v in r] == [3.0, -2.0, -np.inf, np.inf]


def test_half_sigmoid_exp_tanh_rsqrt_round_like_eigen():
    with tf.Graph().as_default():
        x16 = tf.constant(np.linspace(-4, 4, 33), tf.float16)
        xb = tf.constant(np.linspace(-4, 4, 33), tf.bfloat16)
        s16, sb, e16, r16 = _run([tf.sigmoid(x16), tf.sigmoid(xb), tf.exp(x16), tf.rsqrt(tf.abs(x16) + 1)])
        assert s16[[0, 10, 12, 21]].tolist() == [0.017974853515625, 0.1824951171875, 0.268798828125,
                                                 0.77685546875]
        assert sb[[0, 1, 4, 5, 6, 8, 13, 15, 21]].astype(np.float32).tolist() == [
            0.01806640625, 0.0230712890625, 0.047607421875, 0.060302734375, 0.076171875, 0.11962890625,
            0.322265625, 0.435546875, 0.7734375]
        assert e16.dtype == np.float16 and e16[0] == np.float16(0.01831)
        assert r16[3] == np.float16(0.485) and r16[29] == np.float16(0.485)
        assert _run(tf.sigmoid(tf.constant([2.2], tf.float16)))[0] == np.float16(0.9004)


def test_complex_abs_is_hypot():
    with tf.Graph().as_default():
        a = tf.constant([1 + 2j, -3 + 0.5j], tf.complex64)
        r = _run(tf.abs(a))
        assert r.dtype == np.float32 and r.tolist() == [np.float32(2.236068), np.float32(3.0413814)]


def test_cast_out_of_range_floats_to_unsigned_32_and_64():
    v = [3e9, -5e9, 2.5e9, 1e10, -1., 7., -2.1e9, 4.3e9, 3e9, -5e9, 2.5e9, 1e10, -2.1e9]
    u32 = [3000000000, 2147483648, 2500000000, 2147483648, 4294967295, 7, 2194967296, 2147483648,
           3000000000, 3589934592, 2500000000, 1410065408, 2194967296]
    u64_f32 = [3000000000, 18446744068709551616, 2500000000, 10000000000, 18446744073709551615, 7,
               18446744071609551616, 4300000256, 3000000000, 18446744068709551616, 2500000000,
               10000000000, 18446744071609551616]
    with tf.Graph().as_default():
        for dt in (tf.float32, tf.float64):
            x = tf.constant(v, dt)
            a, b, c = _run([tf.cast(x, tf.uint32), tf.cast(x[:3], tf.uint32), tf.cast(x, tf.uint64)])
            assert a.tolist() == u32 and b.tolist() == [3000000000, 3589934592, 2500000000]
            expect = list(u64_f32)
            if dt == tf.float64:
                expect[7] = 4300000000
            assert c.tolist() == expect
        big = tf.constant([1e20, -1e20, float("nan"), float("inf"), -float("inf"), 4294967296., 5e9, -1.,
                           -3e9, 1.9e19, 9.3e18])
        a, b = _run([tf.cast(big, tf.uint32), tf.cast(big, tf.uint64)])
        assert a.tolist() == [2147483648] * 7 + [4294967295, 1294967296, 0, 0]
        assert b.tolist() == [2 ** 63] * 5 + [4294967296, 5000000000, 2 ** 64 - 1, 18446744070709551616, 2 ** 63,
                              9300000300729368576]
        p = tf.placeholder(tf.float32)
        assert _run(tf.cast(p, tf.uint32), {p: [1e20] * 16}).tolist() == [2147483648] * 16


def test_unique_keeps_every_nan():
    with tf.Graph().as_default():
        f = tf.constant([1., float("nan"), float("nan"), -0., 0.])
        y, idx = _run(tf.unique(f))
        assert np.isnan(y[1]) and np.isnan(y[2]) and y.size == 4 and np.signbit(y[3])
        assert idx.tolist() == [0, 1, 2, 3, 3]
        y, idx, c = _run(tf.unique_with_counts(f))
        assert y.size == 4 and idx.tolist() == [0, 1, 2, 3, 3] and c.tolist() == [1, 1, 1, 2]


def test_gather_with_axis_zero_drops_batch_dims():
    # TF's gather calls GatherV2 without batch_dims when the axis is the constant 0
    with tf.Graph().as_default():
        p = tf.reshape(tf.range(24), [2, 3, 4])
        g = tf.gather(p, [[0]], axis=0, batch_dims=1)
        assert g.op.get_attr("batch_dims") == 0 and g.shape.as_list() == [1, 1, 3, 4]
        assert _run(g).tolist() == [[[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]]]


def test_range_of_int16_args_is_an_assertion_error():
    with tf.Graph().as_default():
        with pytest.raises(AssertionError):
            tf.range(tf.constant(1, tf.int16), 5)


def test_integer_pow_minus_one_in_tiny_graph_is_pows_own_error():
    # Grappler skips graphs of fewer than 4 nodes, so ConvertPow does not turn pow(x, -1) into a
    # Reciprocal (NotFoundError) there: Pow's InvalidArgumentError stands
    with tf.Graph().as_default():
        p = tf.placeholder(tf.int32)
        r = p ** -1
        with pytest.raises(tf.errors.InvalidArgumentError, match="Integers to negative integer powers"):
            _run(r, {p: [2]})
        tf.constant(1)
        with pytest.raises(tf.errors.NotFoundError, match="No registered 'Reciprocal' OpKernel"):
            _run(r, {p: [2]})


def test_unsigned_matmul_builds_and_fails_at_run_time():
    with tf.Graph().as_default():
        a = tf.constant([[1, 2]], tf.uint8)
        m = tf.matmul(a, a, transpose_b=True)
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"No OpKernel was registered to support Op 'MatMul' used by \{\{node MatMul\}\}"):
            _run(m)
        with pytest.raises(TypeError, match="int8 not in list of allowed values: bfloat16, float16, float32, "
                                            "float64, int32, int64, uint8, uint16, uint32, uint64, complex64"):
            tf.matmul(tf.constant([[1]], tf.int8), tf.constant([[1]], tf.int8))


def test_complex_squared_difference_is_abs_squared():
    with tf.Graph().as_default():
        r = _run(tf.math.squared_difference(tf.constant([1 + 1j]), tf.constant([0j])))
        assert r.tolist() == [2 + 0j]


def test_linspace_negative_num_fails_while_building():
    # TF's shape inference folds where_v2(num >= 0, ...) into the Range: a ValueError at build
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Requires start <= limit when delta > 0: 1/-1 for "
                                             r"'\{\{node linspace/range\}\}"):
            tf.linspace(0., 1., -1)
        assert _run(tf.linspace(0., 1., 0)).tolist() == []
