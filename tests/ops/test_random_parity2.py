"""Seeded random ops against values recorded from TF 2.21 (tf.compat.v1, graph mode)."""

import numpy as np
import pytest

import tensorweave as tf


def _run(fetches, feed=None):
    with tf.Session() as s:
        return s.run(fetches, feed)


def test_float16_uniform_uses_tf_uint16_to_half():
    # Recorded from TF 2.21: half uniforms take 10 mantissa bits of each 32-bit sample.
    with tf.Graph().as_default():
        d = tf.random_uniform([7], 1., 3., dtype=tf.float16, seed=4)
        a = tf.random.stateless_uniform([5], seed=[1, 2], dtype=tf.float16)
        dv, av = _run([d, a])
    assert dv.dtype == np.float16
    np.testing.assert_array_equal(dv, np.array(
        [1.634765625, 2.427734375, 2.91796875, 2.111328125, 1.529296875, 1.658203125,
         1.162109375], np.float16))
    np.testing.assert_array_equal(av, np.array(
        [0.54296875, 0.2353515625, 0.060546875, 0.8935546875, 0.1435546875], np.float16))


# Recorded from TF 2.21: RandomState(0).rand(3, 5, 3) float32, adjust_contrast(1.7) (one
# AdjustContrastv2: pixel sums folded in halves) and adjust_saturation(2.5), first 45 values.
_CONTRAST = [0.5580305457115173, 0.8382367491722107, 0.600807249546051, 0.5513489842414856,
             0.34262803196907043, 0.6741295456886292, 0.36894580721855164, 1.1384289264678955,
             1.2143361568450928, 0.2768981456756592, 0.968347430229187, 0.475230872631073,
             0.5907232761383057, 1.1959292888641357, -0.3031291961669922, -0.22683262825012207,
             -0.34321391582489014, 0.9915633201599121, 0.9479140639305115, 1.101435661315918,
             1.2397606372833252, 0.9836171865463257, 0.40692979097366333, 0.9030091762542725,
             -0.17388594150543213, 0.7102805972099304, -0.18018990755081177, 1.2309846878051758,
             0.5095570087432861, 0.28103482723236084, 0.07479208707809448, 0.9386122226715088,
             0.35156509280204773, 0.5913852453231812, -0.34564244747161865, 0.626089870929718,
             0.6656103134155273, 0.6712026596069336, 1.180481195449829, 0.784142017364502,
             0.23357829451560974, 0.31906384229660034, 0.8110206127166748, -0.27520179748535156,
             0.7096129655838013]
_SATURATION = [0.2992497980594635, 0.7151893377304077, 0.4341243505477905, 0.39336687326431274,
               0.09029579162597656, 0.6458941102027893, 0.0, 0.8319754004478455,
               0.9636627435684204, 0.0, 0.7917250394821167, 0.2820568084716797,
               0.5383227467536926, 0.9255966544151306, 0.0, 0.06857598572969437, 0.0,
               0.832619845867157, 0.47746437788009644, 0.70710289478302, 0.978618323802948,
               0.7991585731506348, 0.0, 0.7550697326660156, 0.0, 0.6399210095405579,
               0.030765092000365257, 0.9446688890457153, 0.191045880317688, 0.0, 0.0,
               0.7742336988449097, 0.2910446226596832, 0.5668899416923523, 0.0,
               0.6176354885101318, 0.11461716890335083, 0.12671302258968353, 0.9437480568885803,
               0.681820273399353, 0.0, 0.1639946699142456, 0.6976311802864075, 0.0,
               0.6638506054878235]


def test_adjust_contrast_and_saturation_bit_exact():
    img = np.random.RandomState(0).rand(3, 5, 3).astype(np.float32)
    with tf.Graph().as_default():
        c = tf.image.adjust_contrast(img, 1.7)
        assert c.op.type == "Identity" and c.op.inputs[0].op.type == "AdjustContrastv2"
        cv, sv = _run([c, tf.image.adjust_saturation(img, 2.5)])
    np.testing.assert_array_equal(cv.ravel(), np.array(_CONTRAST, np.float32))
    np.testing.assert_array_equal(sv.ravel(), np.array(_SATURATION, np.float32))


def test_seeded_random_contrast():
    # Recorded from TF 2.21 (first 12 values).
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        im = tf.reshape(tf.range(48, dtype=tf.float32), [4, 4, 3]) / 48.
        v = _run(tf.image.random_contrast(im, 0.5, 1.5))
    np.testing.assert_array_equal(v.ravel()[:12], np.array(
        [-0.15424877405166626, -0.13341540098190308, -0.11258208751678467, -0.0711822509765625,
         -0.050348877906799316, -0.029515624046325684, 0.011884242296218872, 0.03271755576133728,
         0.053550928831100464, 0.09495073556900024, 0.11578404903411865, 0.13661742210388184],
        np.float32))


def test_adjust_ops_refuse_half_and_have_no_gradient_as_tf():
    h16 = np.ones([2, 2, 3], np.float16)
    for f in (tf.image.adjust_contrast, tf.image.adjust_saturation, tf.image.adjust_hue):
        with tf.Graph().as_default():
            y = f(h16, 0.3)
            assert y.dtype == tf.float16
            with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered"):
                _run(y)
            x = tf.placeholder(tf.float32, [2, 4, 4, 3])
            with pytest.raises(LookupError, match="No gradient defined"):
                tf.gradients(f(x, 0.3), x)


def test_keras_variance_scaling_initializer_classes():
    # TF 2.21's keras v1 initializers: HeNormal etc. are VarianceScaling subclasses, config = seed.
    K = tf.keras.initializers
    for f, name in ((K.he_normal, "HeNormal"), (K.he_uniform, "HeUniform"),
                    (K.lecun_normal, "LecunNormal"), (K.lecun_uniform, "LecunUniform")):
        i = f(seed=3)
        assert type(i).__name__ == name and isinstance(i, K.VarianceScaling)
        assert K.serialize(i) == {"class_name": name, "config": {"seed": 3}}
    assert K.deserialize({"class_name": "HeNormal", "config": {"seed": 2}}).get_config() == {"seed": 2}


def test_bfloat16_random_ops_match_tf():
    """bfloat16 normal / truncated normal (TF's float samples rounded to nearest even) and uniform
    (Uint16ToGfloat16: 7 random mantissa bits); values recorded from TF 2.21."""
    import ml_dtypes  # noqa: F401  (a dependency: tf.bfloat16's NumPy type)
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(1)
        n = tf.random_normal([5], dtype=tf.bfloat16, seed=2)
        u = tf.random_uniform([5], dtype=tf.bfloat16, seed=2)
        t = tf.truncated_normal([5], dtype=tf.bfloat16, seed=2)
    assert n.dtype == tf.bfloat16
    with tf.Session(graph=g) as sess:
        nv, uv, tv = (v.astype(np.float32) for v in sess.run([n, u, t]))
    np.testing.assert_array_equal(nv, [-1.046875, 0.83984375, 1.234375, 2.0625, 0.3046875])
    np.testing.assert_array_equal(uv, [0.6171875, 0.6484375, 0.421875, 0.7265625, 0.8984375])
    np.testing.assert_array_equal(tv, [-1.046875, 0.83984375, 1.234375, 0.3046875, 0.388671875])
