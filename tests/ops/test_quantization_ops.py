"""tf.quantization: quantize (QuantizeV2) in its three modes, dequantize, quantized_concat and the
fake-quantization ops with their gradients. Expected values marked "TF" were recorded by running the
same calls under TensorFlow 2.21 (tf.compat.v1 graph mode, /tmp/pp_math/q1-q5.py); the rest are
checked against a NumPy transcription of the formulas in the op docs."""

import numpy as np
import pytest

import tensorweave as tf

X = np.array([-1.0, 0.0, 0.3, 1.7, 2.5, 7.0], np.float32)


def run(*fetches):
    with tf.Session() as s:
        return s.run(list(fetches) if len(fetches) > 1 else fetches[0])


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default():
        yield


def test_quantize_modes_recorded_from_tf():
    x = tf.constant(X, name="x")
    q = tf.quantization.quantize(x, -1.0, 2.0, tf.quint8)
    assert (q.output.name, q.output_min.name, q.output.dtype, q.output.shape.as_list()) == \
        ("QuantizeV2:0", "QuantizeV2:1", tf.quint8, [6])
    r = run(q)
    assert type(r).__name__ == "QuantizeV2"
    # TF: uint8 [0, 85, 110, 230, 255, 255] over [-1, 2]
    np.testing.assert_array_equal(r.output, np.array([0, 85, 110, 230, 255, 255], np.uint8))
    assert r.output.dtype == np.uint8 and (r.output_min, r.output_max) == (-1.0, 2.0)
    r = run(tf.quantize(x, -1.0, 2.0, tf.qint8, mode="SCALED"))
    np.testing.assert_array_equal(r.output, [-64, 0, 19, 108, 127, 127])  # TF
    assert r.output.dtype == np.int8 and r.output_min == np.float32(-2.015748) and r.output_max == 2.0
    r = run(tf.quantize_v2(x, -1.0, 2.0, tf.qint8, mode="MIN_FIRST"))
    np.testing.assert_array_equal(r.output, [-128, -43, -17, 102, 127, 127])  # TF
    r = run(tf.quantize(x, -1.0, 2.0, tf.qint8))
    np.testing.assert_array_equal(r.output, [-128, -43, -18, 102, 127, 127])  # TF
    r = run(tf.quantize(x, 0.0, 0.0, tf.quint8))  # the range is widened to ensure_minimum_range
    np.testing.assert_array_equal(r.output, [0, 0, 255, 255, 255, 255])  # TF
    assert r.output_max == np.float32(0.01)
    r = run(tf.quantize(x, -0.5, 0.6, tf.qint16, mode="SCALED"))
    np.testing.assert_array_equal(r.output, [-32768, 0, 16384, 32767, 32767, 32767])  # TF
    r = run(tf.quantize(x, -0.5, 0.6, tf.qint32, mode="MIN_FIRST"))
    np.testing.assert_array_equal(r.output, [-2147483648, -195225856, 976128896, 2147483520, 2147483520,
                                             2147483520])  # TF


def test_quantize_per_axis_and_half_to_even():
    x = tf.reshape(tf.constant(X), [2, 3])
    r = run(tf.quantize(x, [-0.5, -1, 0], [0.6, 1, 3], tf.qint8, mode="SCALED", axis=1))
    np.testing.assert_array_equal(r.output, [[-128, 0, 13], [127, 127, 127]])  # TF
    np.testing.assert_allclose(r.output_min, [-0.60472447, -1.007874, -3.023622], rtol=1e-6)
    r = run(tf.quantize(x, [-0.5, -1, 0], [0.6, 1, 3], tf.qint8, axis=1))
    np.testing.assert_array_equal(r.output, [[-128, -1, -103], [127, 127, 127]])  # TF
    half = tf.constant([0.5, 1.5, 2.5, -0.5, -1.5], np.float32)
    even = run(tf.quantize(half, -127.0, 127.0, tf.qint8, mode="SCALED", round_mode="HALF_TO_EVEN"))
    away = run(tf.quantize(half, -127.0, 127.0, tf.qint8, mode="SCALED"))
    np.testing.assert_array_equal(even.output, [0, 2, 2, 0, -2])
    np.testing.assert_array_equal(away.output, [1, 2, 3, -1, -2])


def test_quantize_errors():
    x = tf.constant(X)
    with pytest.raises(ValueError, match="Attr 'mode' of 'QuantizeV2' Op passed string 'FOO'"):
        tf.quantize(x, -1.0, 2.0, tf.quint8, mode="FOO")
    with pytest.raises(TypeError, match="parameter 'T' has DataType float32 not in list"):
        tf.quantize(x, -1.0, 2.0, tf.float32)
    with pytest.raises(TypeError, match="Input 'input' of 'QuantizeV2' Op has type int32"):
        tf.quantize(tf.constant([1, 2]), -0.5, 0.6, tf.qint8)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.quantize(x, [-0.5], [0.6], tf.quint16, mode="SCALED")
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 2 and 3"):
        tf.quantize(tf.reshape(x, [2, 3]), [-0.5, -1], [0.6, 1], tf.qint8, mode="SCALED", axis=-1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input_max_range must be larger"):
        run(tf.quantize(x, 2.0, 1.0, tf.quint8))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Round mode 'HALF_TO_EVEN' only supported"):
        run(tf.quantize(x, -1.0, 2.0, tf.quint8, round_mode="HALF_TO_EVEN"))
    with pytest.raises(tf.errors.UnimplementedError, match="MIN_FIRST mode is not implemented"):
        run(tf.quantize(tf.reshape(x, [2, 3]), [-0.5, -1, 0], [0.6, 1, 3], tf.qint8, mode="MIN_FIRST", axis=1))


def test_dequantize_round_trips():
    x = tf.constant(X)
    q = tf.quantize(x, -1.0, 2.0, tf.quint8)
    d = tf.dequantize(q.output, q.output_min, q.output_max)
    assert (d.name, d.dtype, d.shape.as_list()) == ("Dequantize:0", tf.float32, [6])
    np.testing.assert_allclose(run(d), [-1.0, 0.0, 0.2941177, 1.7058823, 2.0, 2.0], rtol=1e-6)  # TF
    q2 = tf.quantize(x, -1.0, 2.0, tf.qint8, mode="SCALED")
    d2 = tf.quantization.dequantize(q2.output, q2.output_min, q2.output_max, mode="SCALED")
    np.testing.assert_allclose(run(d2), [-1.007874, 0.0, 0.2992126, 1.7007874, 2.0, 2.0], rtol=1e-6)  # TF
    q3 = tf.quantize(x, -0.5, 0.6, tf.qint8, mode="MIN_FIRST")
    d3 = tf.dequantize(q3.output, -0.5, 0.6, mode="MIN_FIRST")
    np.testing.assert_allclose(run(d3), [-0.50039214, 2.2351742e-08, 0.3019608, 0.5996079, 0.5996079,
                                         0.5996079], rtol=1e-6, atol=1e-12)  # TF
    # Every value inside the range comes back within half a quantization step (SCALED: over [-2, 2]).
    grid = np.linspace(-1, 2, 97).astype(np.float32)
    for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED"):
        q = tf.quantize(tf.constant(grid), -1.0, 2.0, tf.qint16, mode=mode)
        back = run(tf.dequantize(q.output, q.output_min, q.output_max, mode=mode))
        assert np.max(np.abs(back - grid)) <= 0.5 * 4.0 / 65535 * 1.01, mode
    with pytest.raises(TypeError, match="parameter 'input' has DataType uint8 not in list"):
        tf.dequantize(tf.constant([1, 2], tf.uint8), -0.5, 0.6)
    with pytest.raises(TypeError, match="parameter 'dtype' has DataType float64"):
        tf.dequantize(q.output, -0.5, 0.6, dtype=tf.float64)


def test_quantized_concat_requantizes_into_the_joint_range():
    a = tf.quantize(tf.constant(X), -1.0, 2.0, tf.quint8)
    b = tf.quantize(tf.constant(X * 2), -3.0, 1.5, tf.quint8)
    c = tf.quantized_concat(0, [a.output, b.output], [a.output_min, b.output_min], [a.output_max, b.output_max])
    assert c.output.shape.as_list() == [12] and c.output.dtype == tf.quint8
    r = run(c)
    assert (r.output_min, r.output_max) == (-3.0, 2.0)
    # each half dequantizes (MIN_FIRST arithmetic) close to its own dequantized input
    got = run(tf.dequantize(c.output, c.output_min, c.output_max, mode="MIN_FIRST"))
    want = np.concatenate(run(tf.dequantize(a.output, -1.0, 2.0, mode="MIN_FIRST"),
                              tf.dequantize(b.output, -3.0, 1.5, mode="MIN_FIRST")))
    np.testing.assert_allclose(got, want, atol=5.0 / 255)


def _nudged_reference(x, mn, mx, num_bits, narrow):
    """The op docs' formula in float64 (TF's float32 arithmetic may pick the neighbouring level)."""
    qmin, qmax = (1 if narrow else 0), 2 ** num_bits - 1
    scale = (mx - mn) / (qmax - qmin)
    zp = np.clip(np.round(qmin - mn / scale), qmin, qmax)
    nmin, nmax = (qmin - zp) * scale, (qmax - zp) * scale
    return np.floor((np.clip(x, nmin, nmax) - nmin) / scale + 0.5) * scale + nmin, nmin, nmax


def test_fake_quant_values_recorded_from_tf():
    x = tf.constant(X, name="x")
    f = tf.quantization.fake_quant_with_min_max_args(x, min=-1.0, max=2.0, num_bits=8)
    f2 = tf.fake_quant_with_min_max_vars(x, tf.constant(-0.3), tf.constant(2.1), num_bits=4, narrow_range=True)
    assert (f.name, f.op.type, f2.name) == ("FakeQuantWithMinMaxArgs:0", "FakeQuantWithMinMaxArgs",
                                            "FakeQuantWithMinMaxVars:0")
    a, b = run(f, f2)
    np.testing.assert_array_equal(a, np.array([-1.0, 0.0, 0.29411766, 1.7058824, 2.0, 2.0], np.float32))
    np.testing.assert_array_equal(b, np.array([-0.34285712, 0.0, 0.34285712, 1.7142856, 2.0571427, 2.0571427],
                                              np.float32))
    np.testing.assert_array_equal(run(tf.fake_quant_with_min_max_vars(x, 0.0, 0.0)), np.zeros(6))  # TF
    pc = tf.fake_quant_with_min_max_vars_per_channel(tf.reshape(x, [2, 3]), [3, -1, 0.5], [1.0, 1, 0])
    np.testing.assert_allclose(run(pc), [[2.0, 0.0, 0.5], [2.0, 1.0039216, 0.5]], rtol=1e-6)  # TF


@pytest.mark.parametrize("mn,mx", [(-1.0, 2.0), (-0.37, 1.13), (0.2, 2.9), (-2.5, -0.3)])
@pytest.mark.parametrize("num_bits,narrow", [(2, False), (4, True), (8, False), (8, True), (16, False)])
def test_fake_quant_against_the_documented_formula(mn, mx, num_bits, narrow):
    vals = np.random.RandomState(1).uniform(-3, 3, 500).astype(np.float32)
    want, _, _ = _nudged_reference(vals.astype(np.float64), mn, mx, num_bits, narrow)
    step = (mx - mn) / (2 ** num_bits - 1 - narrow)
    for got in run(tf.fake_quant_with_min_max_args(vals, min=mn, max=mx, num_bits=num_bits, narrow_range=narrow),
                   tf.fake_quant_with_min_max_vars(vals, mn, mx, num_bits=num_bits, narrow_range=narrow)):
        # float32 rounding can move a value sitting on a half step to the neighbouring level
        err = np.abs(got - want)
        assert np.all((err < 1e-5 * max(1, abs(mn), abs(mx))) | (np.abs(err - step) < 1e-4))
        assert np.mean(err < 1e-5) > 0.99


def test_fake_quant_gradients():
    x = tf.constant(X, name="x")
    mn, mx = tf.constant(-0.4), tf.constant(1.5)
    v = tf.fake_quant_with_min_max_vars_gradient(tf.range(6.0), x, mn, mx, num_bits=5)
    assert type(v).__name__ == "FakeQuantWithMinMaxVarsGradient" and v.backprop_wrt_min.shape.as_list() == []
    r = run(v)
    np.testing.assert_array_equal(r.backprops_wrt_input, [0, 1, 2, 0, 0, 0])  # TF
    assert (r.backprop_wrt_min, r.backprop_wrt_max) == (0.0, 12.0)  # TF
    pc = tf.fake_quant_with_min_max_vars_per_channel_gradient(tf.ones([2, 3]), tf.reshape(x, [2, 3]),
                                                               [-0.5, 0, 0], [0.5, 2, 0])
    r = run(pc)
    np.testing.assert_array_equal(r.backprops_wrt_input, [[0, 1, 1], [0, 0, 1]])  # TF
    np.testing.assert_array_equal(r.backprop_wrt_min, [1, 0, 0])
    np.testing.assert_array_equal(r.backprop_wrt_max, [1, 1, 0])
    y = tf.fake_quant_with_min_max_vars(x, mn, mx)
    g = tf.gradients(y, [x, mn, mx])
    assert [t.name for t in g] == ["gradients/FakeQuantWithMinMaxVars_grad/FakeQuantWithMinMaxVarsGradient:%d" % i
                                   for i in range(3)]
    gx, gmn, gmx = run(*g)
    np.testing.assert_array_equal(gx, [0, 1, 1, 0, 0, 0])
    assert (gmn, gmx) == (1.0, 3.0)
    ya = tf.fake_quant_with_min_max_args(x)
    (ga,) = tf.gradients(ya * 3, [x])
    np.testing.assert_array_equal(run(ga), [3, 3, 3, 3, 3, 0])
    # A negative gradient masked out stays a signed zero, as TF's multiply by the mask gives.
    neg = run(tf.fake_quant_with_min_max_args_gradient(-tf.ones([6]), x, min=-0.5, max=1.0))
    assert np.signbit(neg[0]) and neg[1] == -1.0


def test_fake_quant_errors():
    x = tf.constant(X)
    with pytest.raises(tf.errors.InvalidArgumentError, match="min has to be smaller than max, was: 2 >= 1"):
        run(tf.fake_quant_with_min_max_args(x, min=2.0, max=1.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="num_bits must be between 2 and 16, inclusive"):
        run(tf.fake_quant_with_min_max_vars(x, 0.5, 1.0, num_bits=20))
    with pytest.raises(TypeError, match="Input 'inputs' of 'FakeQuantWithMinMaxArgs' Op has type float64"):
        tf.fake_quant_with_min_max_args(tf.constant([1., 2], tf.float64))
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.fake_quant_with_min_max_vars(x, [0.0], [1.0])
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 2"):
        tf.fake_quant_with_min_max_vars_per_channel(tf.reshape(x, [2, 3]), [0.5, -1], [1.0, 1])
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        tf.fake_quant_with_min_max_vars_per_channel(tf.constant(3.0), [0.5], [1.0])


def test_fake_quant_trains_min_and_max():
    """Quantization-aware training: min/max variables receive the out-of-range gradient."""
    x = tf.constant(np.linspace(-2, 2, 9, dtype=np.float32))
    mn = tf.Variable(-1.0)
    mx = tf.Variable(1.0)
    loss = tf.reduce_sum(tf.square(tf.fake_quant_with_min_max_vars(x, mn, mx) - x))
    step = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        before = s.run(loss)
        for _ in range(20):
            s.run(step)
        lo, hi = s.run([mn, mx])
        assert s.run(loss) < before and lo < -1.0 and hi > 1.0
