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
