"""Core graph-API behaviours probed against TF 2.21 (tf.compat.v1 with v2 behaviour disabled);
the expected messages were recorded from it."""

import pytest

import tensorweave as tf


def _graph():
    return tf.Graph().as_default()


def test_while_loop_predicate_errors_name_the_loop_cond_node():
    with _graph():
        with pytest.raises(ValueError) as e:
            tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant([1])])
        assert str(e.value) == ("Shape must be rank 0 but is rank 1 for '{{node while/LoopCond}} = "
                                "LoopCond[](while/Less)' with input shapes: [1].")
        with pytest.raises(ValueError) as e:
            tf.while_loop(lambda i: tf.constant([True, False]), lambda i: i + 1, [tf.constant(1)], name="foo")
        assert str(e.value) == ("Shape must be rank 0 but is rank 1 for '{{node foo/LoopCond}} = "
                                "LoopCond[](foo/Const)' with input shapes: [2].")
        with pytest.raises(TypeError, match="^Input 'input' of 'LoopCond' Op has type int32 that does not "
                                            "match expected type of bool.$"):
            tf.while_loop(lambda i: 3, lambda i: i + 1, [tf.constant(1)])


def test_cond_predicate_errors_name_the_switch_node():
    with _graph():
        p = tf.constant([True], name="p")
        with pytest.raises(ValueError) as e:
            tf.cond(p, lambda: 1, lambda: 2)
        assert str(e.value) == ("Shape must be rank 0 but is rank 1 for '{{node cond/Switch}} = "
                                "Switch[T=DT_BOOL](p, p)' with input shapes: [1], [1].")
        with pytest.raises(TypeError, match="^Input 'pred' of 'Switch' Op has type int32 that does not "
                                            "match expected type of bool.$"):
            tf.cond(tf.constant(1), lambda: 1, lambda: 2)


def test_named_conversion_errors_carry_the_name():
    with _graph():
        z = tf.zeros([2])
        with pytest.raises(ValueError, match="^foo: Tensor conversion requested dtype int32 for Tensor "
                                             "with dtype float32: <tf.Tensor 'zeros:0'"):
            tf.convert_to_tensor(z, dtype=tf.int32, name="foo")
        with pytest.raises(ValueError, match="^Tensor conversion requested dtype int32"):
            tf.convert_to_tensor(z, dtype=tf.int32)
        with pytest.raises(ValueError, match="^initial_value: Tensor conversion requested dtype int32"):
            tf.Variable(z, dtype=tf.int32)


# Softplus and its gradient, float32, bit patterns recorded from TF 2.21 for x in -20..20 and at
# the kernel's thresholds (+-13.94): x above -threshold, exp(x) below threshold, else
# log1p(exp(x)); the gradient g / (exp(-x) + 1) with g = index / 7 (index in TF's probe array).
_SP_X = [float(v) for v in range(-20, 21)] + [-13.94, -13.95, 13.94, 13.95, 0.5, 1e-3, -1e-3]
_SP_BITS = [822977587, 834699960, 847434517, 858902297, 871475934, 883178213, 895432248, 907522079,
            919480887, 931928660, 943614642, 956392837, 967825787, 980348793, 992100124, 1004276846,
            1016377129, 1028064137, 1040316778, 1050698710, 1060205080, 1067981045, 1074274199,
            1078139917, 1082168495, 1084241667, 1086329928, 1088423800, 1090519392, 1091567746,
            1092616240, 1093664786, 1094713351, 1095761922, 1096810496, 1097859072, 1098907648,
            1099431936, 1099956224, 1100480512, 1101004800, 896336817, 896182265, 1096747582,
            1096758067, 1064918299, 1060213471, 1060196693]
_SP_GRAD_BITS = [852121676, 864762359, 876580994, 889439461, 901070886, 913917718, 925590790, 938190953,
                 950140025, 962505055, 974717582, 986857896, 999320689, 1011240887, 1023934644,
                 1035601382, 1048352395, 1059601768, 1070963862, 1081306670, 1088721481, 1093190949,
                 1095588351, 1096827743, 1097429070, 1097753803, 1097969607, 1098144062, 1098303037,
                 1098456243, 1098607307, 1098757574, 1098907545, 1098982527, 1099057438, 1099132340,
                 1099207240, 1099282139, 1099357038, 1099431936, 1099506834, 936684947, 936614913,
                 1105723378, 1105798276, 1100076374, 1097567193, 1097626625]


def test_softplus_and_its_gradient_give_tfs_float32_bits():
    import numpy as np
    x = np.array(_SP_X, np.float32)
    g = np.array(list(range(80, 121)) + list(range(201, 208)), np.float32) / np.float32(7)
    with _graph():
        xt = tf.constant(x)
        sp = tf.nn.softplus(xt)
        dx = tf.gradients(sp, xt, grad_ys=tf.constant(g))[0]
        with tf.Session() as sess:
            got, got_dx = sess.run([sp, dx])
    np.testing.assert_array_equal(got.view(np.uint32), np.array(_SP_BITS, np.uint32))
    np.testing.assert_array_equal(got_dx.view(np.uint32), np.array(_SP_GRAD_BITS, np.uint32))


def test_softplus_half_goes_through_float32_as_tf():
    import numpy as np
    with _graph():
        x = tf.constant(np.array([-5., 5., -20., 0.], np.float16))
        with tf.Session() as sess:
            got = sess.run(tf.nn.softplus(x))
    # (recorded from TF 2.21: log1p(exp(x)) at |x| = 5, where float16's own threshold would not)
    assert got.tolist() == [0.0067138671875, 5.0078125, 0.0, 0.693359375]


def test_l2_loss_sums_half_squares_in_tfs_order():
    import numpy as np
    rng = np.random.RandomState(0)
    x = rng.randn(6, 5).astype(np.float32) * 3
    with _graph():
        with tf.Session() as sess:
            got = sess.run(tf.nn.l2_loss(tf.constant(x)))
    # recorded from TF 2.21 (a dot product / 2 gives 184.47575)
    assert float(got) == 184.47573852539062


def test_float64_sums_and_means_add_in_eigens_packet4d_order():
    """float64 reductions in TF run Eigen's reducers on 4-lane packets: the float32 orders of
    tf_order with 4 lanes. Values recorded from TF 2.21 (NumPy's pairwise sums differ)."""
    import numpy as np
    rng = np.random.RandomState(0)
    xs = [rng.randn(n) for n in (3, 10, 17, 100, 1000, 5000)]
    m = rng.randn(37, 23)
    want = [(3.1429475384406267, 1.047649179480209), (6.5966389721185665, 0.6596638972118567),
            (3.546106907336046, 0.20859452396094388), (5.179029296992338, 0.05179029296992338),
            (-56.506535758168994, -0.056506535758168996), (-51.339945146577506, -0.010267989029315501)]
    with _graph():
        with tf.Session() as sess:
            for x, (s, mean) in zip(xs, want):
                assert sess.run(tf.reduce_sum(tf.constant(x))) == s
                assert sess.run(tf.reduce_mean(tf.constant(x))) == mean
            assert sess.run(tf.reduce_sum(tf.constant(m), 0))[:4].tolist() == [
                -0.7559624625433827, 4.562409497845175, -8.384264181897938, -6.792079167055368]
            assert sess.run(tf.reduce_sum(tf.constant(m), 1))[:4].tolist() == [
                6.824736690114751, -5.763224661562138, 1.3716933196945442, 0.5500665685400412]
            assert sess.run(tf.reduce_sum(tf.fill([1000], tf.constant(0.1, tf.float64)))) == 99.99999999999991


def test_softplus_float64_bits():
    """float64 Softplus through Eigen's Packet4d exp/log1p (glibc for the tail); bit patterns
    recorded from TF 2.21 (13 values: 3 packets and a one-value tail)."""
    import numpy as np
    x = np.array([-40., -20., -5., -1.5, -0.3, 0., 0.7, 2.5, 10., 30., 40., 1e-300, -1e-300])
    want = [4346984719898581540, 4477057993638482974, 4574392291837716265, 4596424698399900174,
            4603168407690115094, 4604418534313441775, 4607647127451327790, 4612989562223212170,
            4621819143146279719, 4629137466983448601, 4630826316843712512, 4604418534313441775,
            4604418534313441775]
    with _graph():
        with tf.Session() as sess:
            got = sess.run(tf.nn.softplus(tf.constant(x)))
    assert got.view(np.uint64).tolist() == want
