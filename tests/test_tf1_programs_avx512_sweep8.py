"""Differential sweep (AVX-512 host) of elementwise/nn ops against TF; expected values
recorded from TF 2.21."""
import numpy as np

import tensorweave as tf


def _hex(v):
    return [float(t).hex() for t in v]


def test_leaky_relu_float64_uses_float32_alpha():
    # TF's "alpha" attr is a 32-bit float, so float64 features see float32(alpha).
    x = np.array([-0.5, -1e-10, -3.0, 2.0, -1e30], np.float64)
    with tf.Graph().as_default():
        c = tf.constant(x)
        y = tf.nn.leaky_relu(c, alpha=0.1)
        g = tf.gradients(y, c)[0]
        y2 = tf.nn.leaky_relu(c)
        with tf.Session() as s:
            y, g, y2 = s.run([y, g, y2])
    assert _hex(y) == ['-0x1.99999a0000000p-5', '-0x1.5fd7fe6f8c48ep-37',
                       '-0x1.3333338000000p-2', '0x1.0000000000000p+1',
                       '-0x1.431e0fff34f60p+96']
    assert _hex(g) == ['0x1.99999a0000000p-4'] * 3 + ['0x1.0000000000000p+0',
                                                      '0x1.99999a0000000p-4']
    assert _hex(y2) == ['-0x1.99999a0000000p-4', '-0x1.5fd7fe6f8c48ep-36',
                        '-0x1.3333338000000p-1', '0x1.0000000000000p+1',
                        '-0x1.431e0fff34f60p+97']


def test_float64_tan_sinh_cosh_asinh_acosh_are_glibcs_as_tf():
    # TF 2.21's float64 kernels for these call glibc (measured: bit-equal to Python's math on
    # 5,000 values); NumPy's AVX-512 SVML loops differ in the last bit on up to a fifth of them.
    import math
    rng = np.random.RandomState(0)
    x = np.concatenate([rng.uniform(-10, 10, 301), rng.uniform(1, 30, 200)])
    with tf.Graph().as_default(), tf.Session() as s:
        for op, fn, v in [(tf.tan, math.tan, x), (tf.sinh, math.sinh, x), (tf.cosh, math.cosh, x),
                          (tf.asinh, math.asinh, x), (tf.acosh, math.acosh, x[301:])]:
            got = s.run(op(tf.constant(v, tf.float64)))
            assert np.array_equal(got, [fn(e) for e in v]), op.__name__
        special = s.run(tf.sinh(tf.constant([0., -0., np.inf, -np.inf, np.nan, 800.], tf.float64)))
    assert np.array_equal(special, [0., -0., np.inf, -np.inf, np.nan, np.inf], equal_nan=True)
    assert np.signbit(special[1])
