"""GPU kernels (CuPy) against the CPU kernels as the oracle. Needs CuPy and a CUDA GPU;
skipped otherwise (the reason is printed with `pytest -rs`)."""

import numpy as np
import pytest

import tensorweave as tf

pytestmark = pytest.mark.gpu

if not tf.test.is_gpu_available():
    pytest.skip("no CUDA GPU usable through CuPy (pip install tensorweave[gpu] on a GPU machine)",
                allow_module_level=True)

RNG = np.random.RandomState(0)
A = RNG.randn(4, 5).astype(np.float32)
B = RNG.randn(5, 3).astype(np.float32)
C = RNG.randn(4, 5).astype(np.float32)

CASES = {
    "matmul": (lambda a, b, c: tf.matmul(a, b), ),
    "add": (lambda a, b, c: a + c, ),
    "mul_tanh": (lambda a, b, c: tf.tanh(a * c), ),
    "exp_log": (lambda a, b, c: tf.log(tf.exp(a) + 1.0), ),
    "reduce_sum": (lambda a, b, c: tf.reduce_sum(a, axis=1), ),
    "reduce_mean": (lambda a, b, c: tf.reduce_mean(a * c), ),
    "maximum": (lambda a, b, c: tf.maximum(a, c), ),
    "square_sqrt": (lambda a, b, c: tf.sqrt(tf.square(a) + 1.0), ),
}


def _run(fn, device, soft):
    with tf.Graph().as_default():
        a, b, c = (tf.placeholder(tf.float32, v.shape) for v in (A, B, C))
        with tf.device(device):
            out = fn(a, b, c)
        cfg = tf.ConfigProto(allow_soft_placement=soft)
        with tf.Session(config=cfg) as s:
            return s.run(out, {a: A, b: B, c: C})


@pytest.mark.parametrize("name", sorted(CASES))
def test_gpu_matches_cpu(name):
    fn = CASES[name][0]
    np.testing.assert_allclose(_run(fn, "/gpu:0", False), _run(fn, "/cpu:0", False), rtol=1e-5, atol=1e-5)


def test_variable_on_gpu_trained():
    with tf.Graph().as_default():
        with tf.device("/gpu:0"):
            w = tf.Variable(tf.zeros([5, 1]))
            loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(A), w) - 1.0))
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as s:
            s.run(tf.global_variables_initializer())
            l0 = s.run(loss)
            for _ in range(10):
                s.run(train)
            assert s.run(loss) < l0
