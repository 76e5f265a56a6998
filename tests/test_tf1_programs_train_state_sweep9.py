"""TF1 training programs and variable/state handling, sweep 9: optimizers, schedules, moving
averages, variable scopes, initializers and savers run against TF.

Every expected value was recorded from TF 2.21 (tensorflow.compat.v1, CPU) running the same
program; float results are compared as float32 bit patterns.
"""

import numpy as np

import tensorweave as tf
from tensorweave.ops import training_ops as T


def _hex(a):
    return np.asarray(a).tobytes().hex()


def test_ftrl_power_is_eigens_packet_pow_then_glibc_powf():
    # lr_power != -0.5: TF raises the accumulators with Eigen's packet pow (8 lanes) and glibc's
    # powf on the tail; NumPy's float32 power differs in the last bit, magnified by FTRL
    x = np.linspace(0.05, 3.0, 11).astype(np.float32)
    with tf.Graph().as_default():
        var = tf.Variable(np.sin(x * 7).astype(np.float32))
        acc = tf.Variable(x)
        lin = tf.Variable(np.cos(x * 5).astype(np.float32))
        op = T.apply_ftrl(var, acc, lin, np.tan(x).astype(np.float32), np.float32(0.1),
                          np.float32(0.01), np.float32(0.02), np.float32(-0.3))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            s.run(op)
            assert _hex(s.run(var)) == ("d6a372be9d55083d6bf00fbe43a8c6bcc6ed073e400c90bfa52f953e0089993e"
                                        "84e495bd9021a8bb0a3d863d")
            assert _hex(s.run(lin)) == ("16937f3f7c098ebe14c5bf3fe32eae3e423326c079598f420ad5dbc0d0c39ac0"
                                        "f8a7863fb0dda53d3b026dbf")


def test_sparse_ftrl_power_per_row():
    want = {
        9: ("8057093e7cccd33ea6bc273f70d1563fb580713f4df8703faf62383f2244e73ea6d04b3e56312abea708f6be"
            "cddd3dbf1db26bbf626e7fbf45e376bfe90253bf21c617bf817797beb999c13c0737f43b2cba833af05ae13b"
            "967cc23c9fbe3c3dad94833d80b9843d6200003d148dca3df6a66ebe270a0abf462249bfe6f571bfebff7fbf"
            "72b271bfd7a248bfd85c09bf",
            "79a446c060bf5cc16b120cc2ad6abbc21d3563c44f252bc3c6a746c2ab4294c1e792b9c027d617bfb7a241bf"
            "80db61bf89e876bf45bf7fbfc9ef7bbf55aa6bbff2bc4fbf368929bf004ec3bebc2007be3cdedebc660b09be"
            "cfd1ecbe9da872bf262db6bf30ffc9bf834c5dbf22717f3fdbdb7c3ff1c46d3f72eb523f50a32d3f4489ff3e"
            "5f28973ef2359d3df6fd14be"),
        1: ("e418513e951f5fbfe9131abdd85c09bf", "98fd86c17b3571bf2818323ff6fd14be"),
    }
    for inner, (want_var, want_lin) in want.items():
        with tf.Graph().as_default():
            a = np.linspace(0.1, 4.0, 4 * inner).astype(np.float32).reshape(4, inner)
            var = tf.Variable(np.sin(a * 3))
            acc = tf.Variable(a)
            lin = tf.Variable(np.cos(a * 2))
            op = T.sparse_apply_ftrl(var, acc, lin, np.tan(a[:2]).astype(np.float32),
                                     np.array([2, 0], np.int32), np.float32(0.1), np.float32(0.01),
                                     np.float32(0.02), np.float32(-0.6))
            with tf.Session() as s:
                s.run(tf.global_variables_initializer())
                s.run(op)
                assert _hex(s.run(var)) == want_var
                assert _hex(s.run(lin)) == want_lin
