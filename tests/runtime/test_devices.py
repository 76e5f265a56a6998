"""Local devices: device_count, listing APIs, tf.test queries, and the GPU device plumbing
exercised with a NumPy-backed stand-in for CuPy (the real GPU tests are in tests/gpu)."""

import sys
import types

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.python.client import device_lib
from tensorweave.runtime import devices as devices_mod


def test_device_count_and_listing():
    with tf.Session(config=tf.ConfigProto(device_count={"CPU": 3})) as s:
        devs = s.list_devices()
    cpus = [d for d in devs if d.device_type == "CPU"]
    assert [d.name for d in cpus] == [f"/job:localhost/replica:0/task:0/device:CPU:{i}" for i in range(3)]
    assert all(d.memory_limit_bytes == 268435456 for d in cpus)   # as TF reports
    local = device_lib.list_local_devices()
    assert local[0].name == "/device:CPU:0" and local[0].device_type == "CPU" and local[0].memory_limit == 268435456
    assert tf.list_devices()[0].name == "/job:localhost/replica:0/task:0/device:CPU:0"
    with tf.Session() as s:
        assert [d.name for d in s.list_devices() if d.device_type == "CPU"] == \
            ["/job:localhost/replica:0/task:0/device:CPU:0"]


def test_tf_test_gpu_queries_match_the_machine():
    has_gpu = devices_mod.gpu_count() > 0
    assert tf.test.is_gpu_available() == has_gpu
    assert tf.test.gpu_device_name() == ("/device:GPU:0" if has_gpu else "")
    assert isinstance(tf.test.is_built_with_cuda(), bool)


class _FakeCuda:
    class Device:
        def __init__(self, i):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *a):
            return False


def _fake_cupy():
    """A module that quacks like CuPy over NumPy, with arrays of a distinct type."""
    class GpuArray(np.ndarray):
        def get(self):
            return np.asarray(self).view(np.ndarray).copy()

    cp = types.ModuleType("cupy")
    for name in dir(np):
        if not name.startswith("_"):
            setattr(cp, name, getattr(np, name))

    def asarray(a, dtype=None):
        return np.asarray(a, dtype=dtype).view(GpuArray)

    def array(a, dtype=None, copy=True):
        return np.array(a, dtype=dtype, copy=copy).view(GpuArray)
    cp.asarray = asarray
    cp.array = array
    cp.cuda = _FakeCuda
    return cp


@pytest.fixture
def fake_gpu(monkeypatch):
    from tensorweave.kernels import gpu as gpu_kernels
    cp = _fake_cupy()
    monkeypatch.setitem(sys.modules, "cupy", cp)
    monkeypatch.setattr(devices_mod, "_GPU_INFO", [(0, 1 << 30, "device: 0, name: fake")])
    monkeypatch.setattr(devices_mod, "_CACHE", {})
    if gpu_kernels._ACTIVE is None:
        gpu_kernels.activate()
    monkeypatch.setattr(gpu_kernels, "_ACTIVE", cp)
    yield cp


def test_gpu_device_plumbing_with_a_stand_in(fake_gpu):
    devs = tf.list_devices()
    assert [d.device_type for d in devs] == ["CPU", "GPU"]
    from tensorweave.kernels.gpu import gpu_op_types
    assert {"MatMul", "AddV2", "Tanh", "Const", "Assign", "_Send", "_Recv"} <= set(gpu_op_types())
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 2], name="x")
        with tf.device("/gpu:0"):
            y = tf.tanh(tf.matmul(x, x)) + 1.0
        z = y * 2.0   # on the CPU or the GPU, by the cost model
        with tf.device("/cpu:0"):
            w = tf.reduce_sum(z)
        xv = np.arange(4, dtype=np.float32).reshape(2, 2) / 4
        with tf.Session() as s:
            out_y, out_w = s.run([y, w], {x: xv})
    ref = np.tanh(xv @ xv) + 1
    assert type(out_y) is np.ndarray   # fetched back to the host
    np.testing.assert_allclose(out_y, ref, rtol=1e-6)
    np.testing.assert_allclose(out_w, (ref * 2).sum(), rtol=1e-6)


def test_missing_gpu_kernel_error_and_soft_fallback(fake_gpu):
    from tensorweave.framework import registry as op_registry
    from tensorweave.kernels.registry import _KERNELS, register_kernel
    if "TwCpuOnlyTest" not in op_registry._OPS:
        op_registry.register_op("TwCpuOnlyTest", shape_fn=lambda op: [op.inputs[0].shape])
    if ("TwCpuOnlyTest", "CPU") not in _KERNELS:
        register_kernel("TwCpuOnlyTest")(lambda op, ctx: (lambda v: v + 1))
    with tf.Graph().as_default() as g:
        x = tf.constant([1.0], name="x")
        with tf.device("/gpu:0"):
            y = g._create_op("TwCpuOnlyTest", [x], [tf.float32], "cpu_only").outputs[0]
        with tf.Session() as s, pytest.raises(tf.errors.InvalidArgumentError, match="TwCpuOnlyTest has no GPU kernel"):
            s.run(y)
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as s:
            assert s.run(y)[0] == 2.0
