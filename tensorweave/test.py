"""`tf.test`: device queries (is_gpu_available, gpu_device_name, is_built_with_cuda), a small
`TestCase` (a unittest.TestCase with a fresh graph per test and TF's assert helpers), TF1's
gradient checker (`compute_gradient`, `compute_gradient_error`), `Benchmark`, `get_temp_dir`,
`assert_equal_graph_def` and `mock` (unittest.mock)."""

import contextlib
import unittest
from unittest import mock  # noqa: F401  (tf.test.mock is unittest.mock)

import numpy as np

from .platform.gradient_checker import compute_gradient, compute_gradient_error  # noqa: F401
from .platform.test_util import (Benchmark, assert_equal_graph_def, create_local_cluster,  # noqa: F401
                                 get_temp_dir, is_built_with_rocm, is_built_with_xla, is_cpu_target_available,
                                 test_src_dir_path)

__all__ = ["is_gpu_available", "gpu_device_name", "is_built_with_cuda", "is_built_with_gpu_support",
           "TestCase", "main", "mock", "compute_gradient", "compute_gradient_error", "Benchmark",
           "assert_equal_graph_def", "create_local_cluster", "get_temp_dir", "is_built_with_rocm",
           "is_built_with_xla", "is_cpu_target_available", "test_src_dir_path"]


def is_built_with_cuda():
    """True when CuPy (the GPU backend) is importable."""
    try:
        import cupy  # noqa: F401
    except Exception:  # noqa: BLE001
        return False
    return True


is_built_with_gpu_support = is_built_with_cuda


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """True when a CUDA GPU usable through CuPy is present."""
    from .runtime.devices import gpu_count
    return gpu_count() > 0


def gpu_device_name():
    """"/device:GPU:0" when a GPU is available, else ""."""
    return "/device:GPU:0" if is_gpu_available() else ""


class TestCase(unittest.TestCase):
    """Each test runs in a fresh default graph; `self.session()` / `self.cached_session()`."""

    def setUp(self):
        from .framework.graph import Graph
        self._graph_cm = Graph().as_default()
        self._graph_cm.__enter__()

    def tearDown(self):
        self._graph_cm.__exit__(None, None, None)

    @contextlib.contextmanager
    def session(self, graph=None, config=None):
        from .runtime.session import Session
        with Session(graph=graph, config=config) as sess:
            yield sess

    cached_session = session
    test_session = session

    def evaluate(self, tensors):
        from .framework.graph import get_default_session
        sess = get_default_session()
        if sess is None:
            with self.session() as sess:
                return sess.run(tensors)
        return sess.run(tensors)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol, err_msg=msg or "")

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=msg or "")


def main(argv=None):
    unittest.main(argv=argv)
