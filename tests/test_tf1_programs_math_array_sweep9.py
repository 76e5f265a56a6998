"""TF1 math/array parity sweep 9: integer division, casts, clipping, bitcast and more.

Expected values recorded from TF 2.21 (tensorflow.compat.v1, graph mode, x86 CPU)."""
import numpy as np
import pytest

import tensorweave as tf


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


@pytest.fixture(autouse=True)
def _graph():
    tf.reset_default_graph()
    yield


def test_float_floordiv_of_inf_is_inf():
    x = tf.constant([7., -7., 7.5, -0.0, np.inf, np.nan])
    y = tf.constant([2., 2., -2., 3., 2., 1.])
    np.testing.assert_array_equal(_run(tf.floordiv(x, y)), [3., -4., -4., -0., np.inf, np.nan])


def test_xlog1py_keeps_negative_zero_products():
    x = tf.constant([7., -7., 0.])
    out = _run(tf.math.xlog1py(x, tf.zeros([3])))
    assert out.tobytes().hex() == "000000000000008000000000"


@pytest.mark.parametrize("src", [np.float64, np.float16])
def test_cast_float_to_small_ints_saturates_in_packets(src):
    vals = np.array([0., -0., 1.5, -1.5, 2.5, -2.7, 127.9, 128., 255.5, 256., -129., 3e9, -3e9, 1e20,
                     -1e20, np.inf, -np.inf, np.nan])
    with np.errstate(over="ignore"):
        x = tf.constant(vals.astype(src))
    got = _run([tf.cast(x, d) for d in (tf.int8, tf.uint8, tf.int16, tf.uint16)])
    assert got[0].tobytes().hex() == "000001ff02fe7f7f7f7f8080808080800000"
    assert got[1].tobytes().hex() == "0000010002007f80ffff0000000000000000"
    assert got[2].tobytes().hex() == ("000000000100ffff0200feff7f008000ff0000017fff00800080008000800080"
                                      "00000000")
    assert got[3].tobytes().hex() == ("0000000001000000020000007f008000ff00000100000000000000000000000000"
                                      "000000")


def test_cast_float64_small_int_packet_rules():
    vals = [70000., -70000., 3e9, np.nan, 40000.7, -40000.7, 200.5, -200.5]
    p = tf.placeholder(tf.float64, [None])
    outs = [tf.cast(p, d) for d in (tf.int8, tf.uint8, tf.int16, tf.uint16)]
    with tf.Session() as s:
        full = [s.run(outs, {p: np.full(16, v)}) for v in vals]
        one = [s.run(outs, {p: np.full(1, v)}) for v in vals]
    assert [int(r[0][0]) for r in full] == [127, -128, -128, -128, 127, -128, 127, -128]
    assert [int(r[1][0]) for r in full] == [0, 0, 0, 0, 0, 0, 200, 0]
    assert [int(r[2][0]) for r in full] == [32767, -32768, -32768, -32768, 32767, -32768, 200, -200]
    assert [int(r[3][0]) for r in full] == [65535, 0, 0, 0, 40000, 0, 200, 0]
    assert [int(r[0][0]) for r in one] == [112, -112, 0, 0, 64, -64, -56, 56]
    assert [int(r[3][0]) for r in one] == [4464, 61072, 0, 0, 40000, 25536, 200, 65336]


def test_cast_bfloat16_to_ints():
    x = tf.constant(np.array([300., -300., 70000., np.nan, 1e10] * 4, np.float32))
    b = tf.cast(x, tf.bfloat16)
    i8, u8, i16, i32 = _run([tf.cast(b, d) for d in (tf.int8, tf.uint8, tf.int16, tf.int32)])
    assert i8.tolist() == [127, -128, 127, -128, -128] * 3 + [127, -44, 0, 0, 0]
    assert u8.tolist() == [255, 0, 255, 0, 0] * 3 + [255, 212, 0, 0, 0]
    assert i16.tolist() == [300, -300, 32767, -32768, -32768] * 3 + [300, -300, 4608, 0, 0]
    assert i32.tolist() == [300, -300, 70144, -2 ** 31, -2 ** 31] * 4


def test_saturate_cast_follows_tf_limits():
    f = tf.constant([1e20, -1e20, np.inf, 3e9], tf.float32)
    d = tf.constant([1e20, -1e20, np.inf, 3e9], tf.float64)
    i = tf.constant([0, 1, -1, 2 ** 40], tf.int64)
    c = tf.constant(np.array([1 + 2j, -3.5 - 0.5j, 1e10 + 0j], np.complex64))
    r = [tf.saturate_cast(f, tf.int64), tf.saturate_cast(d, tf.uint64), tf.saturate_cast(i, tf.int64),
         tf.saturate_cast(i, tf.uint64), tf.saturate_cast(i, tf.float32), tf.saturate_cast(c, tf.int8),
         tf.saturate_cast(c, tf.uint32), tf.saturate_cast(c, tf.float16)]
    assert r[2].op.type == "ClipByValue" and r[5].op.type == "Cast"
    got = _run(r)
    assert got[0].tolist() == [-2 ** 63, -2 ** 63, -2 ** 63, 3000000000]
    assert got[1].tolist() == [2 ** 63, 0, 2 ** 63, 3000000000]
    assert got[2].tolist() == [-2 ** 63] * 4          # TF's float(int64.max) wraps to int64.min
    assert got[3].tolist() == [0] * 4
    assert got[4].tolist() == [-2.0 ** 63] * 4
    assert got[5].tolist() == [1, -3, 127]
    assert got[6].tolist() == [1, 0, 4294967040]
    assert got[7].tobytes().hex() == "003c00c3ff7b"


def test_clip_by_value_kernel_nan_and_crossed_bounds():
    from tensorweave.ops.math_compare_ops import _clip
    x = tf.constant([np.nan, 1., 5., -5.])
    c = lambda lo, hi: _clip("ClipByValue", x, tf.constant(lo), tf.constant(hi), "C")  # noqa: E731
    got = _run([c(3., 0.), c(-1., 2.), c([-1.] * 4, np.nan), c(np.nan, 2.)])
    np.testing.assert_array_equal(got[0], [np.nan, 3., 3., 3.])
    np.testing.assert_array_equal(got[1], [np.nan, 1., 2., -1.])
    np.testing.assert_array_equal(got[2], [np.nan, 1., 5., -1.])
    np.testing.assert_array_equal(got[3], [np.nan, 1., 2., -5.])


def test_bitcast_errors():
    allowed = ("bfloat16, float16, float32, float64, int64, int32, uint8, uint16, uint32, uint64, int8, int16, "
               "complex64, complex128, qint8, quint8, qint16, quint16, qint32")
    with pytest.raises(ValueError, match=r"Cannot bitcast from 17 to 1 due to shape\. 3 does not match 2"):
        tf.bitcast(tf.constant([1, 2, 3], tf.uint16), tf.float32)
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        tf.bitcast(tf.constant(1, tf.int8), tf.int16)
    with pytest.raises(TypeError) as e:
        tf.bitcast(tf.constant([True]), tf.int8)
    assert str(e.value) == ("Value passed to parameter 'input' has DataType bool not in list of allowed "
                            "values: " + allowed)
    assert tf.bitcast(tf.placeholder(tf.int16, [None]), tf.int32).shape.as_list() == []


def test_mean_std_variance_of_empty_is_positive_nan():
    for dt in (tf.float32, tf.float64, tf.float16):
        x = tf.constant(np.zeros((0, 3)), dt)
        r = _run([tf.reduce_mean(x), tf.reduce_mean(x, 0), tf.math.reduce_std(x, 0), tf.math.reduce_variance(x)])
        for v in r:
            assert np.isnan(v).all() and not np.signbit(v).any()
    c = _run(tf.reduce_mean(tf.constant(np.zeros((0, 3), np.complex64)), 0))
    assert c.tobytes() == bytes(24)


def test_reduce_variance_std_of_complex_are_real():
    x = tf.constant(np.array([[1 + 2j, 3 - 1j], [0, 2j]], np.complex64))
    v = tf.math.reduce_variance(x)
    sd = tf.math.reduce_std(x, axis=1)
    assert v.dtype == tf.float32 and sd.dtype == tf.float32
    types = [o.type for o in tf.get_default_graph().get_operations() if o.name.startswith("reduce_variance/")]
    assert types[3:6] == ["Conj", "Mul", "Real"]
    rv, rs = _run([v, sd])
    assert float(rv) == 3.1875
    assert float(_run(tf.math.reduce_std(x))) == float.fromhex("0x1.c90d2ap+0")


def test_reduce_prod_float32_packet_order():
    rng = np.random.RandomState(0)
    x = rng.uniform(0.8, 1.25, (24,)).astype(np.float32)
    y = rng.uniform(0.8, 1.25, (2, 3, 4)).astype(np.float32)
    rng.uniform(0.8, 1.25, (2, 3, 4))
    z = rng.uniform(0.8, 1.25, (5, 37)).astype(np.float32)
    a, b, c = _run([tf.reduce_prod(x), tf.reduce_prod(y), tf.reduce_prod(z, 1)])
    assert a.tobytes().hex() == "46cb9840"
    assert b.tobytes().hex() == "8de6a13f"
    assert c.tobytes().hex() == "33592c3f69ba0241f4e4ce3f6fdb853fb624cb3f"


def test_cumulative_logsumexp_nan_and_inf_follow_tf_functor():
    cases = {(1., np.nan, 2.): "0000803f0cb9d83fdf4a2340", (np.nan, 1.): "000080ff0000803f",
             (np.inf, np.inf): "0000807f0000c0ff", (np.inf, -np.inf): "0000807f0000807f",
             (-np.inf, -np.inf, 0.): "000080ff000080ff00000000"}
    for v, want in cases.items():
        assert _run(tf.math.cumulative_logsumexp(tf.constant(v, tf.float32))).tobytes().hex() == want
    r = _run(tf.math.cumulative_logsumexp(tf.constant([-np.inf, np.inf, 1., np.nan], tf.float64)))
    assert r.tobytes().hex() == "000000000000f0ff000000000000f07f000000000000f07f000000000000f8ff"
    x = np.array([[1.5, -2., 3.25, 4.], [0.5, 7., -1., 2.]], np.float32)
    r = _run(tf.math.cumulative_logsumexp(tf.constant(x), axis=1, exclusive=True, reverse=True))
    np.testing.assert_allclose(r[0], [np.logaddexp.reduce(x[0, 1:]), np.logaddexp(3.25, 4.), 4., -np.inf],
                               rtol=1e-6)


def test_argmin_output_type_and_arg_input_lists():
    with pytest.raises(TypeError, match="'output_type' has DataType uint16 not in list of allowed values: int32, int64$"):
        tf.argmin(tf.constant([1.]), 0, output_type=tf.uint16)
    with pytest.raises(TypeError, match="'output_type' has DataType int16 not in list of allowed values: int32, int64$"):
        tf.arg_min(tf.constant([1.]), 0, output_type=tf.int16)
    assert tf.argmax(tf.constant([1.]), 0, output_type=tf.uint16).dtype == tf.uint16
    with pytest.raises(TypeError) as e:
        tf.argmin(tf.constant(["a"]), 0)
    assert str(e.value).endswith("uint32, uint64, qint8, quint8, qint32, qint16, quint16, bool")


_ERFINV = {
    ("erfinv", "float32"): ("08a3b13dcadbcd3e6da03c3e4445a33d3a6c0bbe047f873e5e7de3bdf8bd5f3ffa73a23feea756be5f10133fbbf"
                            "5513dee35f83d95ac823ffde084bff9f075bf4d7ab9bf159b2e3f60a80a3fb3e84b3fbc5fb73f6dce173f1e0c8cbd0a1b"
                            "0c3f", "c5e91440f51030409be247c00000000000000000ff30f43e3a808b3e"),
    ("ndtri", "float32"): ("6837fb3d6190113f1361853e43e6e63d6f2c45bed99ebf3e0adc20bea4359e3f48bee53fe2c897bed7fa4f3fcd7"
                           "6943dee822f3e1ccdb83f4cebbbbf22e8adbf0f2703c00cee763f7417443f782f903f37aa0140c5af563f8d0ec6bdaa2"
                           "3463f", "c6975240cafe78407c598dc000000000000000005dab2c3fb748c53e"),
    ("erfinv", "float64"): ("a43e79786034b63f1a93437c79bbd93fc5f15e120e94c73f14dade3ea868b43ffa458f47876dc1bfcce72c90e0"
                            "efd03f2ddf8b92ab6fbcbf99acb677bff7eb3f", "e5cd0514319d024050ea01cb2d020640bc834919c0fc08c0d7832"
                            "8821508433e00000000000000000ac024bb1f86de3fd45e48740770d13f"),
    ("ndtri", "float64"): ("fc91d23dec66bf3feb7fef440c32e23f274888a922acd03fc80822f5c7dcbc3f86506dd48da5c8bf6cf62839db"
                           "f3d73f950b1111811bc4bfef6c7ad0b4c6f33f", "06f9d2adff520a4082d191a3ee1f0f401b75de812fab11c02790cc"
                           "d32aea4a3e0000000000000000498a52876b95e53f4fcc6c2c17a9d83f"),
}


@pytest.mark.parametrize("fn,dt", sorted(_ERFINV))
def test_erfinv_ndtri_bits(fn, dt):
    rng = np.random.RandomState(0)
    v = np.concatenate([rng.uniform(-1, 1, 200), [0.999, 0.9999, -0.99999, 1e-8, -1e-30, 0.5, 0.3]])
    x = v if fn == "erfinv" else (v + 1) / 2
    got = _run(getattr(tf.math, fn)(tf.constant(x, getattr(tf, dt)))).tobytes().hex()
    head, tail = _ERFINV[fn, dt]
    assert got.startswith(head) and got.endswith(tail)
    n = 8 if dt == "float32" else 16
    assert len(head) >= n * 8


@pytest.mark.parametrize("fn", ["erfinv", "ndtri"])
def test_erfinv_ndtri_have_no_half_kernels(fn):
    for dt in (tf.float16, tf.bfloat16):
        tf.reset_default_graph()
        with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered to support Op"):
            _run(getattr(tf.math, fn)(tf.constant([0.5], dt)))


def test_igamma_domain_errors_are_nan():
    a = tf.constant([0., -1., 1., 1., 0., 2., np.nan])
    x = tf.constant([1., 1., -1., 0., 0., np.inf, 1.])
    lo, hi = _run([tf.math.igamma(a, x), tf.math.igammac(a, x)])
    assert lo.tobytes().hex() == "0000c07f0000c07f0000c07f00000000000000000000803f0000c07f"
    np.testing.assert_array_equal(np.isnan(hi), [True, True, True, False, True, False, True])


def test_complex_mismatched_parts_message():
    with pytest.raises(TypeError) as e:
        tf.complex(tf.constant([1.]), tf.constant([1.], tf.float64))
    assert str(e.value) == ("The `real` and `imag` components have incorrect types: float32 float64. They must be "
                            "consistent, and one of [tf.float32, tf.float64]")


def test_gather_batch_dims_above_indices_rank():
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.gather(tf.constant(np.zeros((2, 3, 4), np.float32)), tf.constant([0, 1]), batch_dims=2)


def test_range_has_no_uint8():
    with pytest.raises(TypeError, match="'start' has DataType uint8 not in list of allowed values: bfloat16, "
                                        "float16, float32, float64, int8, int16, int32, int64, uint16, uint32, uint64"):
        tf.range(3, dtype=tf.uint8)
    assert tf.range(3, dtype=tf.int8).dtype == tf.int8


def test_split_unknown_sizes_message_shows_the_tensor():
    sizes = tf.placeholder(tf.int32, [None])
    with pytest.raises(ValueError) as e:
        tf.split(tf.placeholder(tf.float32, [None, 6]), sizes, axis=1)
    assert str(e.value) == f"Cannot infer argument `num` from shape {sizes}"
    assert str(sizes) == 'Tensor("Placeholder:0", shape=(?,), dtype=int32)'


def test_segment_ops_list_tf_types_in_tf_order():
    number = ("float32, float64, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, "
              "quint16, uint16, complex128, float16, uint32, uint64")
    real = "float32, float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, uint64"
    for fn, allowed, extra in [(tf.math.segment_sum, number, ()), (tf.math.segment_max, real, ()),
                               (tf.math.segment_prod, number, ()), (tf.math.unsorted_segment_sum, number, (1,)),
                               (tf.math.unsorted_segment_min, real, (1,)), (tf.math.unsorted_segment_mean, number, (1,))]:
        with pytest.raises(TypeError) as e:
            fn(tf.constant([True]), [0], *extra)
        assert str(e.value) == f"Value passed to parameter 'data' has DataType bool not in list of allowed values: {allowed}"


def test_euclidean_norm_adds_squares_in_sum_order():
    rng = np.random.RandomState(0)
    a = rng.randn(1000).astype(np.float32)
    rng.randn(1000)
    rng.randn(1000).astype(np.float16)
    b = rng.randn(37, 53).astype(np.float32)
    for _ in range(2):
        rng.randn(37, 53)
    for _ in range(3):
        rng.randn(37, 53)
    c = rng.randn(5, 6, 7).astype(np.float32)
    rb, rc = _run([tf.math.reduce_euclidean_norm(tf.constant(b), 1), tf.math.reduce_euclidean_norm(tf.constant(c), [0, 2])])
    assert rb.tobytes().hex()[:64] == "3876e740049afb403717e140b088f640a8ffec40d2850041cd07e440de2cd140"
    assert rc.tobytes().hex()[:64] == "5c84b0409a28c540ab9db340cf77a7403eb9aa40add0c340"
    assert a.dtype == np.float32


def test_reduce_prod_float64_and_first_last_axes_order():
    x3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.37 - 3
    p32, p64, p16, s16 = _run([tf.reduce_prod(tf.constant(x3), [0, -1]), tf.reduce_prod(tf.constant(x3.astype(np.float64))),
                               tf.reduce_prod(tf.constant(x3.astype(np.float16)), [0, -1]),
                               tf.reduce_sum(tf.constant(x3.astype(np.float16)), [0, -1])])
    assert p32.tobytes().hex() == "2a26f443f36b9e42c70ebcc0"
    assert p64.tobytes().hex() == "d111e9c74fbf0bc1"
    assert p16.tobytes().hex() == "a25ff454e2c5"
    assert s16.tobytes().hex() == "34bf0649794d"


def test_cumulative_logsumexp_float32_bits_as_glibc_scalar_scan():
    import hashlib
    rng = np.random.RandomState(0)
    for shape in [(10000,), (300, 40), (40, 300), (5, 6, 7), (100000,)]:
        for _ in range(6):
            rng.uniform(0.9, 1.1, shape)
    a = rng.uniform(-3, 3, (1000,)).astype(np.float32)
    b = rng.uniform(-3, 3, (30, 40)).astype(np.float32)
    ra, rb = _run([tf.math.cumulative_logsumexp(tf.constant(a), 0), tf.math.cumulative_logsumexp(tf.constant(b), 0)])
    assert hashlib.md5(ra.tobytes()).hexdigest() == "4d46eae8217ef0004cad5ad1be10c82d"
    assert hashlib.md5(rb.tobytes()).hexdigest() == "e85b6e2428fe92647e886dab28ae6b71"


@pytest.mark.parametrize("fn,dt,args", [("lgamma", "bfloat16", 1), ("digamma", "bfloat16", 1), ("rint", "bfloat16", 1),
                                        ("bessel_i0e", "bfloat16", 1), ("bessel_i1", "bfloat16", 1),
                                        ("igamma", "float16", 2), ("igammac", "bfloat16", 2), ("lbeta", "bfloat16", 1)])
def test_special_functions_without_half_kernels(fn, dt, args):
    g = getattr(tf.math, fn, None) or getattr(tf.math.special, fn)
    r = g(*[tf.constant([1.5, 2.25], getattr(tf, dt))] * args)
    with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered to support Op"):
        _run(r)


def test_xlog1py_half_rounds_log1p_first():
    r = _run(tf.math.xlog1py(tf.constant([1.5, 2.25], tf.float16), tf.constant([1.5, 2.25], tf.float16)))
    assert r.tobytes().hex() == "803d4e41"


def test_zeta_polygamma_float32_as_eigen():
    import hashlib
    rng = np.random.RandomState(0)
    xs = rng.uniform(1.01, 8, 300).astype(np.float32)
    qs = rng.uniform(0.1, 20, 300).astype(np.float32)
    z = _run(tf.math.zeta(tf.constant(xs), tf.constant(qs)))
    assert hashlib.md5(z.tobytes()).hexdigest() == "b08f6b73846aeda533aed3db478ac868"
    p = _run(tf.math.polygamma(tf.constant([1., 2., 3., 0., 4.]), tf.constant([0.5, 1.5, 2.5, 3., 10.])))
    assert p.tobytes().hex() == "e6e99d40052c54bf9447653e963b6c3fda583fba"
    for dt in (tf.float32, tf.float64):
        e = _run(tf.math.zeta(tf.constant([3., np.inf, np.inf, 2., 2.], dt), tf.constant([-1., 2., 0.5, 1e9, np.inf], dt)))
        np.testing.assert_array_equal(e, [np.nan, 0., np.inf, e[3], 0.])
        assert e.dtype == dt.as_numpy_dtype


def test_igamma_igammac_bits_as_eigen():
    a = tf.constant([0.5, 1., 2., 3.5, 10., 1e-3, 100.])
    x = tf.constant([0.5, 2., 1., 3.5, 0.1, 5., 99.])
    lo, hi = _run([tf.math.igamma(a, x), tf.math.igammac(a, x)])
    lo64 = _run(tf.math.igamma(tf.cast(a, tf.float64), tf.cast(x, tf.float64)))
    assert lo.tobytes().hex()[:40] == "bec42e3fab5a5d3f9d4a873eed34123f6e17e823"
    assert hi.tobytes().hex()[:40] == "8476a23e55950a3eb25a3c3f2396db3e0000803f"
    assert lo64.tobytes().hex()[:64] == "fba641a297d8e53f8d1f105755abeb3f8f21a69353e9d03f0fb0bcbf9d46e23f"


_BESSEL_MD5 = {("bessel_i0e", "float32"): "23161b83d3313a3e8c8a68bb5c6cebc0",
               ("bessel_i0e", "float64"): "51df106d23ce935b9a35d16053a8048e",
               ("bessel_i1e", "float32"): "20a52b316dfd8bfb994ae6d69aa85acc",
               ("bessel_i1e", "float64"): "5b317d855f857c2439ffc6223b79513e",
               ("bessel_i0", "float32"): "d913d928b27d9cca9ddf601bc23c26b1",
               ("bessel_i0", "float64"): "d076176f7d897547bcf287ddd2ac4e53",
               ("bessel_i1", "float32"): "b34060a0a84ac74002336ca360e57158",
               ("bessel_i1", "float64"): "57d19a12b77fe03a5edda860ab4ef029"}


@pytest.mark.parametrize("fn,dt", sorted(_BESSEL_MD5))
def test_bessel_i_bits_as_eigen(fn, dt):
    import hashlib
    rng = np.random.RandomState(0)
    v = np.concatenate([rng.uniform(-30, 30, 203), [0., -0., 8., -8., 7.999, 1e-20, 100., np.inf, -np.inf, np.nan,
                                                     1e30]])
    with np.errstate(over="ignore"):
        x = tf.constant(v, getattr(tf, dt))
    r = _run(getattr(tf.math, fn)(x))
    assert hashlib.md5(r.tobytes()).hexdigest() == _BESSEL_MD5[fn, dt]


@pytest.mark.parametrize("dt,want", [("float32", "4ec03924d1cda1347cbf9cfdd3f2ed5d"),
                                     ("float64", "d6f4520c110183574369ea9c1c9e98c8")])
def test_betainc_bits_as_eigen(dt, want):
    import hashlib
    rng = np.random.RandomState(0)
    a, b, x = rng.uniform(0.05, 30, 300), rng.uniform(0.05, 30, 300), rng.uniform(0, 1, 300)
    t = getattr(tf, dt)
    r = _run(tf.math.betainc(tf.constant(a, t), tf.constant(b, t), tf.constant(x, t)))
    assert hashlib.md5(r.tobytes()).hexdigest() == want
    e = _run(tf.math.betainc(tf.constant([0., 1., 2.], t), tf.constant([1., 1., -1.], t), tf.constant([0.5, 0., 0.5], t)))
    np.testing.assert_array_equal(e, [np.nan, 0., np.nan])


def test_complex_reciprocal_of_infinite_in_the_tail_is_zero():
    r = _run(tf.math.reciprocal(tf.constant(np.array([np.inf + 1j, 3 + np.nan * 1j, 1 - np.inf * 1j], np.complex64))))
    assert r.tobytes().hex() == "00000000000000000000c07f0000c07f0000008000000000"
