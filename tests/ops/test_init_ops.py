"""Initializers: op names inside get_variable, values and statistics, TF's errors.

Names and messages recorded from TensorFlow 2.21 (tf.compat.v1)."""

import math

import numpy as np
import pytest

import tensorweave as tf


def _initializer_ops(start):
    return [o.name.split("Initializer/")[1] + ":" + o.type
            for o in tf.get_default_graph().get_operations()[start:] if "Initializer" in o.name]


@pytest.mark.parametrize("name,init,value_name,ops", [
    ("z", tf.zeros_initializer(), "z/Initializer/zeros:0", ["zeros:Const"]),
    ("o", tf.ones_initializer(), "o/Initializer/ones:0", ["ones:Const"]),
    ("c", tf.constant_initializer(2.0), "c/Initializer/Const:0", ["Const:Const"]),
    ("rn", tf.random_normal_initializer(), "rn/Initializer/random_normal:0",
     ["random_normal/shape:Const", "random_normal/mean:Const", "random_normal/stddev:Const",
      "random_normal/RandomStandardNormal:RandomStandardNormal", "random_normal/mul:Mul", "random_normal:AddV2"]),
    ("tn", tf.truncated_normal_initializer(), "tn/Initializer/truncated_normal:0",
     ["truncated_normal/shape:Const", "truncated_normal/mean:Const", "truncated_normal/stddev:Const",
      "truncated_normal/TruncatedNormal:TruncatedNormal", "truncated_normal/mul:Mul", "truncated_normal:AddV2"]),
    ("gu", tf.glorot_uniform_initializer(), "gu/Initializer/random_uniform:0",
     ["random_uniform/shape:Const", "random_uniform/min:Const", "random_uniform/max:Const",
      "random_uniform/RandomUniform:RandomUniform", "random_uniform/sub:Sub", "random_uniform/mul:Mul",
      "random_uniform:AddV2"]),
    ("vs", tf.variance_scaling_initializer(), "vs/Initializer/truncated_normal:0", None),
    ("uus", tf.uniform_unit_scaling_initializer(), "uus/Initializer/random_uniform:0", None),
])
def test_names_in_get_variable(name, init, value_name, ops):
    n0 = len(tf.get_default_graph().get_operations())
    v = tf.get_variable(name, [4, 4], initializer=init)
    assert v.initial_value.name == value_name  # recorded from TF
    if ops is not None:
        assert _initializer_ops(n0) == ops


def test_direct_calls_and_dtypes():
    t = tf.zeros_initializer()([2, 3])
    assert (t.name, t.dtype) == ("zeros:0", tf.float32)
    assert tf.ones_initializer(dtype=tf.int32)([2, 3]).dtype == tf.int32
    assert tf.glorot_uniform_initializer()([3, 4]).name == "random_uniform:0"
    c = tf.constant_initializer([1, 2, 3])([4])
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(c), [1, 2, 3, 3])  # padded with the last value
        np.testing.assert_array_equal(sess.run(tf.zeros_initializer()([2], dtype=tf.float64)), [0.0, 0.0])
        np.testing.assert_array_equal(sess.run(tf.initializers.identity(gain=2.0)([2, 3])),
                                      2 * np.eye(2, 3))


def test_errors():
    # messages recorded from TF
    with pytest.raises(ValueError, match="Too many elements provided. Takes at most 2, but got 3."):
        tf.constant_initializer([1, 2, 3])([2])
    with pytest.raises(ValueError, match=r"Argument `distribution` should be one of \('normal', uniform', "
                                         r"'truncated_normal', 'untruncated_normal'\). Received: foo"):
        tf.variance_scaling_initializer(distribution="foo")
    with pytest.raises(ValueError, match=r"Argument `mode` should be one of \('fan_in', 'fan_out', "
                                         r"'fan_avg'\). Received: foo"):
        tf.variance_scaling_initializer(mode="foo")
    with pytest.raises(ValueError, match="Argument `scale` must be a positive float. Received: -1.0"):
        tf.variance_scaling_initializer(scale=-1.0)
    with pytest.raises(TypeError, match="Expected int32, but got 0.0 of type 'float'."):
        tf.random_normal_initializer()([2], dtype=tf.int32)
    with pytest.raises(ValueError, match="must be at least two-dimensional. Received shape=\\[2\\]"):
        tf.orthogonal_initializer()([2])
    with pytest.raises(ValueError, match="expected to be floating point"):
        tf.glorot_uniform_initializer(dtype=tf.int32)
    with pytest.raises(TypeError, match="Invalid type for initial value"):
        tf.constant_initializer(object())


def test_configs_and_namespace():
    assert tf.zeros_initializer().get_config() == {"dtype": "float32"}
    assert tf.variance_scaling_initializer().get_config() == {
        "scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal", "seed": None, "dtype": "float32"}
    assert tf.glorot_uniform_initializer().get_config() == {"seed": None, "dtype": "float32"}
    assert tf.initializers.zeros is tf.zeros_initializer
    assert tf.initializers.glorot_uniform is tf.glorot_uniform_initializer
    assert tf.initializers.variance_scaling is tf.variance_scaling_initializer
    assert isinstance(tf.initializers.he_normal(), tf.variance_scaling_initializer)
    assert tf.initializers.global_variables is tf.global_variables_initializer
    assert issubclass(tf.glorot_uniform_initializer, tf.variance_scaling_initializer)


def _draw(init, shape, dtype=tf.float32):
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(11)
        t = init(shape, dtype=dtype)
        with tf.Session() as sess:
            return sess.run(t)


def test_statistics():
    fan_in, fan_out = 300, 200
    limit = math.sqrt(6.0 / (fan_in + fan_out))
    gu = _draw(tf.glorot_uniform_initializer(), [fan_in, fan_out])
    assert gu.dtype == np.float32 and gu.min() >= -limit and gu.max() < limit
    assert abs(gu.std() - limit / math.sqrt(3)) < 0.002
    gn = _draw(tf.glorot_normal_initializer(), [fan_in, fan_out])
    assert abs(gn.std() - math.sqrt(2.0 / (fan_in + fan_out))) < 0.002  # truncation corrected
    he = _draw(tf.initializers.he_normal(), [fan_in, fan_out])
    assert abs(he.std() - math.sqrt(2.0 / fan_in)) < 0.002
    un = _draw(tf.variance_scaling_initializer(distribution="untruncated_normal", mode="fan_out"),
               [fan_in, fan_out], tf.float64)
    assert un.dtype == np.float64 and abs(un.std() - math.sqrt(1.0 / fan_out)) < 0.002
    conv = _draw(tf.variance_scaling_initializer(2.0, "fan_avg", "uniform"), [3, 3, 16, 32])
    lim = math.sqrt(3.0 * 2.0 / ((9 * 16 + 9 * 32) / 2))
    assert conv.shape == (3, 3, 16, 32) and np.abs(conv).max() < lim and np.abs(conv).max() > 0.95 * lim
    ru = _draw(tf.random_uniform_initializer(-2.0, 3.0), [10000])
    assert ru.min() >= -2.0 and ru.max() < 3.0 and abs(ru.mean() - 0.5) < 0.05
    tn = _draw(tf.truncated_normal_initializer(1.0, 0.1), [10000])
    assert np.all(np.abs(tn - 1.0) <= 0.2 + 1e-6)
    uus = _draw(tf.uniform_unit_scaling_initializer(factor=2.0), [50, 40])
    assert np.abs(uus).max() <= math.sqrt(3.0 / 50) * 2.0


def test_orthogonal():
    for shape in ([6, 4], [4, 6], [2, 3, 5]):
        q = _draw(tf.orthogonal_initializer(gain=1.5), shape).reshape(-1, shape[-1])
        if q.shape[0] >= q.shape[1]:
            np.testing.assert_allclose(q.T @ q, 2.25 * np.eye(q.shape[1]), atol=1e-5)
        else:
            np.testing.assert_allclose(q @ q.T, 2.25 * np.eye(q.shape[0]), atol=1e-5)


def test_seeded_initializer_is_deterministic():
    a = _draw(tf.glorot_uniform_initializer(seed=5), [3, 3])
    b = _draw(tf.glorot_uniform_initializer(seed=5), [3, 3])
    np.testing.assert_array_equal(a, b)
