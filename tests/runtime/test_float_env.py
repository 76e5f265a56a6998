"""Kernels run with subnormals flushed to zero, as TF's do (kernels/cpu/float_env.py).

Expected bit patterns recorded from TF 2.21 (tensorflow.compat.v1, CPU wheel, x86-64) running the
same graphs: a subnormal operand of arithmetic or a comparison reads as zero, a subnormal result
is stored as zero, copies keep the bits, and code outside Session.run keeps IEEE behaviour.
"""

import concurrent.futures

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.kernels.cpu import float_env

pytestmark = pytest.mark.skipif(not float_env.SUPPORTED, reason="no fenv control on this platform")

S32 = np.float32(1e-40)
S64 = np.float64(1e-310)


def _hex(v):
    v = np.asarray(v)
    return v.dtype.name + ":" + v.tobytes().hex()


def _graph():
    p32 = tf.placeholder(tf.float32, [])
    p64 = tf.placeholder(tf.float64, [])
    c32 = tf.constant(S32)
    exprs = {
        "id32": tf.identity(p32), "idc32": tf.identity(c32), "c32": c32,
        "add0": p32 + 0, "addc0": c32 + 0, "mul1": p32 * 1, "neg": -p32, "abs": tf.abs(p32),
        "max": tf.maximum(p32, 0.), "minimum": tf.minimum(p32, 1.), "sqrt": tf.sqrt(p32),
        "add64": p64 + 0, "id64": tf.identity(p64), "mul64": p64 * 1,
        "tiny": tf.constant(1e-30, tf.float32) * tf.constant(1e-10, tf.float32),
        "tinyp": (p32 + 1e-38) * 0.01,
        "cast64": tf.cast(p32, tf.float64), "cast32": tf.cast(tf.constant(1e-39, tf.float64), tf.float32),
        "sum": tf.reduce_sum(tf.fill([5], p32)), "mm": tf.matmul(tf.reshape(p32, [1, 1]), [[1.]]),
        "exp": tf.exp(tf.constant(-88.5, tf.float32)), "exp64": tf.exp(tf.constant(-709.5, tf.float64)),
        "div": tf.constant(1e-20, tf.float32) / 1e19, "sq": tf.square(tf.constant(1e-20, tf.float32)),
        "floor": tf.floor(p32), "sign": tf.sign(p32), "eq0": tf.equal(p32, 0.), "gt0": p32 > 0,
        "tanh": tf.tanh(p32), "sig": tf.sigmoid(tf.constant(-100., tf.float32)),
        "concat": tf.concat([tf.reshape(p32, [1]), [1.]], 0), "gather": tf.gather(tf.fill([3], p32), [1]),
        "round": tf.round(p32), "where": tf.where(p32 > -1, p32, p32),
    }
    return p32, p64, exprs


TF_BITS = {  # recorded from TF 2.21
    "abs": "float32:c2160100", "add0": "float32:00000000", "add64": "float64:0000000000000000",
    "addc0": "float32:00000000", "c32": "float32:c2160100", "cast32": "float32:00000000",
    "cast64": "float64:0000000000000000", "concat": "float32:c21601000000803f",
    "div": "float32:00000000", "eq0": "bool:01", "exp": "float32:00000000",
    "exp64": "float64:0000000000000000", "floor": "float32:00000000", "gather": "float32:c2160100",
    "gt0": "bool:00", "id32": "float32:c2160100", "id64": "float64:2be6708b68120000",
    "idc32": "float32:c2160100", "max": "float32:00000000", "minimum": "float32:00000000",
    "mm": "float32:00000000", "mul1": "float32:00000000", "mul64": "float64:0000000000000000",
    "neg": "float32:c2160180", "round": "float32:00000000", "sig": "float32:00000000",
    "sign": "float32:00000000", "sq": "float32:00000000", "sqrt": "float32:00000000",
    "sum": "float32:00000000", "tanh": "float32:00000000", "tiny": "float32:00000000",
    "tinyp": "float32:00000000", "where": "float32:c2160100",
}


def test_subnormals_flushed_as_in_tf():
    with tf.Graph().as_default():
        p32, p64, exprs = _graph()
        with tf.Session() as sess:
            got = {k: _hex(sess.run(t, {p32: S32, p64: S64})) for k, t in exprs.items()}
    assert got == TF_BITS


def test_softmax_underflow_is_zero():
    # exp(-100) is 3.7e-44 in IEEE float32; TF's softmax prints it as 0 (recorded from TF 2.21)
    with tf.Graph().as_default():
        y = tf.nn.softmax(tf.constant([[100., 0.]]))
        with tf.Session() as sess:
            assert sess.run(y).tolist() == [[1.0, 0.0]]


def test_user_code_outside_run_keeps_subnormals():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [])
        with tf.Session() as sess:
            sess.run(p + 1, {p: 1.})
    assert S32 + np.float32(0) == S32
    assert S32 > 0
    saved = float_env.enter()
    try:
        assert S32 + np.float32(0) == 0
        assert float_env.enter() is None      # (nested: already flushing)
    finally:
        float_env.leave(saved)
    assert S32 + np.float32(0) == S32


def test_run_from_another_thread_and_inter_op_pool():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [64, 64])
        y = tf.matmul(p, p) + tf.matmul(p * 2, p)     # two independent matmuls: the pool runs one
        config = tf.ConfigProto(inter_op_parallelism_threads=2)
        with tf.Session(config=config) as sess:
            v = np.full((64, 64), 1e-21, np.float32)   # products of 1e-42: subnormal, flushed
            with concurrent.futures.ThreadPoolExecutor(1) as ex:
                got = ex.submit(sess.run, y, {p: v}).result()
            assert not got.any()
            assert not sess.run(y, {p: v}).any()
    assert np.float32(1e-21) * np.float32(1e-21) != 0
