"""tf.test's gradient checker, Benchmark, assert_equal_graph_def and helpers; tf.config.

Expected strings and values marked "TF 2.21" were recorded by running the same calls under
tensorflow.compat.v1 in graph mode."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import config as tw_config


@pytest.fixture(autouse=True)
def fresh_graph_and_config():
    tw_config._state.__init__()
    with tf.Graph().as_default():
        yield
    tw_config._state.__init__()


def test_compute_gradient_layout_matches_numpy_jacobian():
    x = tf.placeholder(tf.float64, [2, 3])
    y = tf.reduce_sum(tf.square(x), axis=1) * 2.0
    xv = np.arange(6, dtype=np.float64).reshape(2, 3) / 10
    expected = np.zeros((6, 2))            # rows: x elements, columns: y elements (TF's layout)
    expected[:3, 0] = 4 * xv[0]
    expected[3:, 1] = 4 * xv[1]
    with tf.Session():
        jt, jn = tf.test.compute_gradient(x, [2, 3], y, [2], x_init_value=xv)
        err = tf.test.compute_gradient_error(x, [2, 3], y, [2], x_init_value=xv)
    assert jt.shape == jn.shape == (6, 2) and jt.dtype == np.float64
    np.testing.assert_allclose(jt, expected, atol=1e-12)
    np.testing.assert_allclose(jn, expected, atol=1e-6)
    assert err < 1e-6


def test_compute_gradient_list_indexed_slices_and_init_targets():
    a = tf.placeholder(tf.float32, [3])
    b = tf.placeholder(tf.float32, [3])
    z = a * b + tf.sin(a)
    av, bv = np.array([1., 2., 3.], np.float32), np.array([.5, .25, 2], np.float32)
    p = tf.Variable(np.ones([4, 2]))
    g = tf.gather(p, [1, 3, 1])
    with tf.Session():
        res = tf.test.compute_gradient([a, b], [[3], [3]], z, [3], x_init_value=[av, bv],
                                       extra_feed_dict={a: av, b: bv})
        jt, jn = tf.test.compute_gradient(p, [4, 2], g, [3, 2], x_init_value=np.ones([4, 2]),
                                          init_targets=[tf.global_variables_initializer()])
    assert len(res) == 2
    np.testing.assert_allclose(res[0][0], np.diag(bv + np.cos(av)), rtol=1e-6)
    np.testing.assert_allclose(res[1][0], np.diag(av), rtol=1e-6)
    expected = np.zeros((8, 6))
    for col_row, x_row in enumerate([1, 3, 1]):   # the gather's rows, summed where repeated
        expected[2 * x_row:2 * x_row + 2, 2 * col_row:2 * col_row + 2] += np.eye(2)
    np.testing.assert_array_equal(jt, expected)
    np.testing.assert_allclose(jn, expected, atol=1e-6)


def test_feeding_a_const_overrides_its_value():
    c = tf.constant(1.0, shape=[2])
    e = tf.identity(c) * 2
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(e, {c: [5., 6.]}), [10., 12.])


def test_benchmark_reports_entries_text(capsys):
    class B(tf.test.Benchmark):
        def benchmark_a(self):
            self.report_benchmark(iters=3, wall_time=0.5, metrics=[{"name": "m", "value": 2, "min_value": 1}])
            self.report_benchmark(name="custom", cpu_time=1.25)
    B().benchmark_a()
    # TF 2.21's printed BenchmarkEntries
    assert capsys.readouterr().out == (
        'entry {\n  name: "B.benchmark_a"\n  iters: 3\n  wall_time: 0.5\n  metrics {\n    name: "m"\n'
        '    value: 2\n    min_value {\n      value: 1\n    }\n  }\n}\n\n'
        'entry {\n  name: "B.custom"\n  cpu_time: 1.25\n}\n\n')
    assert not B.is_abstract() and tf.test.Benchmark.is_abstract()
    x = tf.constant(2.0) * 3.0
    with tf.Session() as sess:
        out = B().run_op_benchmark(sess, x, min_iters=3, store_memory_usage=False)
    assert out["iters"] == 3 and out["wall_time"] >= 0 and "wall_time_mean" in out["extras"]


def test_assert_equal_graph_def_messages():
    def graph(op):
        g = tf.Graph()
        with g.as_default():
            a = tf.constant(1.0, name="a")
            if op is not None:
                op(a, a, name="b")
        return g.as_graph_def()
    add, mul, only_a = graph(tf.add), graph(tf.multiply), graph(None)
    tf.test.assert_equal_graph_def(add, graph(tf.add))
    # TF 2.21's EqualGraphDef messages
    with pytest.raises(AssertionError, match=r"^Node named 'b' has op 'AddV2' that is not expected 'Mul'$"):
        tf.test.assert_equal_graph_def(add, mul)
    with pytest.raises(AssertionError) as e:
        tf.test.assert_equal_graph_def(add, only_a)
    assert str(e.value) == "Found unexpected node '{{node b}} = AddV2[T=DT_FLOAT](a, a)'"
    with pytest.raises(AssertionError) as e:
        tf.test.assert_equal_graph_def(only_a, add)
    assert str(e.value) == "Did not find expected node '{{node b}} = AddV2[T=DT_FLOAT](a, a)'"
    with pytest.raises(TypeError, match="Expected tf.GraphDef for actual, got Graph"):
        tf.test.assert_equal_graph_def(tf.Graph(), add)


def test_small_test_helpers(monkeypatch):
    d = tf.test.get_temp_dir()
    assert os.path.isdir(d) and tf.test.get_temp_dir() == d
    import unittest.mock
    assert tf.test.mock is unittest.mock
    assert (tf.test.is_built_with_rocm(), tf.test.is_built_with_xla(), tf.test.is_cpu_target_available("x86")) == \
        (False, True, True)   # TF 2.21's pip build
    monkeypatch.delenv("TEST_SRCDIR", raising=False)
    with pytest.raises(KeyError):
        tf.test.test_src_dir_path("python/foo")


def test_config_devices_and_settings():
    cpus = tf.config.list_physical_devices("CPU")
    # TF 2.21 on a CPU-only machine
    assert repr(cpus) == "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"
    assert cpus[0] == tf.config.PhysicalDevice("/physical_device:CPU:0", "CPU")
    assert tf.config.experimental.list_physical_devices("cpu") == []
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU and non-Pluggable devices"):
        tf.config.experimental.set_memory_growth(cpus[0], True)
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpus[0])
    with pytest.raises(ValueError, match="Unrecognized device: 'x'"):
        tf.config.set_visible_devices(["x"], "CPU")
    tf.config.threading.set_inter_op_parallelism_threads(2)
    assert tf.config.threading.get_inter_op_parallelism_threads() == 2
    assert tf.config.get_soft_device_placement() is False
    tf.config.set_soft_device_placement(True)
    assert tf.config.get_soft_device_placement() is True
    tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    assert repr(tf.config.list_logical_devices("CPU")) == (
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU'), "
        "LogicalDevice(name='/device:CPU:1', device_type='CPU')]")
    tf.config.set_visible_devices(cpus, "CPU")   # unchanged: allowed after initialization
    with pytest.raises(RuntimeError, match="Visible devices cannot be modified after being initialized"):
        tf.config.set_visible_devices([])
    with pytest.raises(RuntimeError, match="Inter op parallelism cannot be modified after initialization."):
        tf.config.threading.set_inter_op_parallelism_threads(4)
    assert tf.config.experimental.get_memory_info("CPU:0") == {"current": 0, "peak": 0}


def test_no_visible_cpu_is_not_found():
    tf.config.set_visible_devices([], "CPU")
    with pytest.raises(tf.errors.NotFoundError, match="No CPU devices are available in this process"):
        tf.config.list_logical_devices()
