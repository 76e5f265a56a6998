"""tf.train.replica_device_setter and the load-balancing strategies.

Expected devices were recorded from TensorFlow 2.21 (`tensorflow.compat.v1`, graph mode) by
building the same graphs with `tf.device(tf.train.replica_device_setter(...))` and printing
`op.device` for every op (probe: /tmp/h7b/ds.py in the session that wrote this)."""

import numpy as np
import pytest

import tensorweave as tf

# op name -> device, per case, as TensorFlow assigns them.
RECORDED = {'1': {'a': '/job:ps/task:0',
       'a/Assign': '/job:ps/task:0',
       'a/read': '/job:ps/task:0',
       'acc': '/job:ps/task:0',
       'add': '/job:worker',
       'b': '/job:ps/task:1',
       'b/Assign': '/job:ps/task:1',
       'b/Initializer/random_uniform': '',
       'b/Initializer/random_uniform/RandomUniform': '',
       'b/Initializer/random_uniform/max': '',
       'b/Initializer/random_uniform/min': '',
       'b/Initializer/random_uniform/mul': '',
       'b/Initializer/random_uniform/shape': '',
       'b/Initializer/random_uniform/sub': '',
       'b/read': '/job:ps/task:1',
       'c': '/job:ps/task:0',
       'c/Assign': '/job:ps/task:0',
       'c/initial_value': '/job:worker',
       'c/read': '/job:ps/task:0',
       'd': '/job:ps/task:1/device:CPU:0',
       'd/Assign': '/job:ps/task:1/device:CPU:0',
       'd/initial_value': '/job:worker/device:CPU:0',
       'd/read': '/job:ps/task:1/device:CPU:0',
       'e': '/job:worker/device:CPU:0',
       'e/y': '/job:worker/device:CPU:0',
       'f': '/job:ps/task:1',
       'f/Assign': '/job:ps/task:1',
       'f/initial_value': '/job:ps/task:1',
       'f/read': '/job:ps/task:1',
       'global_step': '/job:ps/task:1',
       'global_step/Assign': '/job:ps/task:1',
       'global_step/Initializer/zeros': '',
       'global_step/read': '/job:ps/task:1',
       'h': '/job:foo',
       'h/Assign': '/job:foo',
       'h/initial_value': '/job:foo',
       'h/read': '/job:foo',
       'zeros': '/job:worker'},
 '2': {'a': '/job:ps/task:0',
       'a/Assign': '/job:ps/task:0',
       'a/read': '/job:ps/task:0',
       'b': '/job:ps/task:1',
       'b/Assign': '/job:ps/task:1',
       'b/read': '/job:ps/task:1',
       'c': '/job:ps/task:2',
       'c/Assign': '/job:ps/task:2',
       'c/read': '/job:ps/task:2',
       'd': '/job:ps/task:0',
       'd/Assign': '/job:ps/task:0',
       'd/read': '/job:ps/task:0',
       'mul': '/job:worker/task:1',
       'mul/y': '/job:worker/task:1',
       'zeros': '/job:worker/task:1',
       'zeros_1': '/job:worker/task:1',
       'zeros_2': '/job:worker/task:1',
       'zeros_3': '/job:worker/task:1'},
 '3': {'a': '/device:CPU:0',
       'a/Assign': '/device:CPU:0',
       'a/initial_value': '/device:CPU:0',
       'a/read': '/device:CPU:0',
       'add': '/device:CPU:0',
       'add/y': '/device:CPU:0',
       'b': '/job:ps/task:0',
       'b/Assign': '/job:ps/task:0',
       'b/initial_value': '/job:worker',
       'b/read': '/job:ps/task:0'}}


def _devices(g):
    return {op.name: op.device for op in g.get_operations()}


def test_round_robin_merge_and_explicit_devices_like_tf():
    g = tf.Graph()
    with g.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2)):
            a = tf.Variable(tf.zeros([3]), name="a")
            tf.get_variable("b", [4, 5])
            c = tf.Variable(1.0, name="c")
            with tf.device("/cpu:0"):
                tf.Variable(2.0, name="d")
                tf.add(a, 1.0, name="e")
            with tf.device("/job:ps/task:1"):
                tf.Variable(3.0, name="f")      # the strategy still advances (TF)
            with tf.device("/job:foo"):
                tf.Variable(3.0, name="h")      # another job: no task chosen
            _ = a + c
            tf.train.get_or_create_global_step()
            tf.ConditionalAccumulator(tf.float32, shape=[3], name="acc")  # a ps op too
    assert _devices(g) == RECORDED["1"]


def test_cluster_spec_sets_ps_tasks_and_worker_device():
    g = tf.Graph()
    with g.as_default():
        cluster = {"ps": ["h:1", "h:2", "h:3"], "worker": ["w:1"]}
        with tf.device(tf.train.replica_device_setter(cluster=cluster, worker_device="/job:worker/task:1")):
            a = tf.Variable(tf.zeros([3]), name="a")
            for n in "bcd":
                tf.Variable(tf.zeros([3]), name=n)
            _ = a * 2
    assert _devices(g) == RECORDED["2"]
    g = tf.Graph()
    with g.as_default(), tf.device(tf.train.replica_device_setter(cluster=tf.train.ClusterSpec(cluster))):
        assert tf.Variable(1.0, name="v").device == "/job:ps/task:0"


def test_merge_devices_false_keeps_explicit_devices():
    g = tf.Graph()
    with g.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, merge_devices=False)):
            with tf.device("/cpu:0"):
                a = tf.Variable(1.0, name="a")
                _ = a + 1
            tf.Variable(1.0, name="b")
    assert _devices(g) == RECORDED["3"]


def test_no_ps_tasks_gives_none():
    # TF: None for ps_tasks=0 and for a cluster without the ps job.
    assert tf.train.replica_device_setter(ps_tasks=0) is None
    assert tf.train.replica_device_setter(cluster={"worker": ["a:1"]}) is None
    with pytest.raises(TypeError, match="ps_strategy must be callable"):
        tf.train.replica_device_setter(ps_tasks=2, ps_strategy=3)


def test_custom_ps_ops_and_ps_device():
    g = tf.Graph()
    with g.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, ps_device="/job:params",
                                                      worker_device="/job:worker/task:3",
                                                      ps_ops=["VariableV2", "Const"])):
            v = tf.Variable(tf.zeros([2]), name="v")
            s = v + 1.0
    d = _devices(g)
    assert d["zeros"] == "/job:params/task:0" and d["v"] == "/job:params/task:1"
    assert s.op.device == "/job:worker/task:3"


def test_greedy_load_balancing_by_bytes():
    # Same objects in both namespaces.
    assert tf.train.GreedyLoadBalancingStrategy is tf.contrib.training.GreedyLoadBalancingStrategy
    strategy = tf.contrib.training.GreedyLoadBalancingStrategy(2, tf.contrib.training.byte_size_load_fn)
    g = tf.Graph()
    with g.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, ps_strategy=strategy)):
            big = tf.get_variable("big", [100, 10])        # 4000 bytes -> task 0
            s1 = tf.get_variable("s1", [10])               # 40 -> task 1 (load 0 < 4000)
            s2 = tf.get_variable("s2", [20], dtype=tf.float64)  # 160 -> task 1 (40 < 4000)
            mid = tf.get_variable("mid", [1000])           # 4000 -> task 1 (200 < 4000)
            last = tf.get_variable("last", [], dtype=tf.int64)  # scalar: 8 -> task 0 (4000 < 4200)
    assert [v.device for v in (big, s1, s2, mid, last)] == [
        "/job:ps/task:0", "/job:ps/task:1", "/job:ps/task:1", "/job:ps/task:1", "/job:ps/task:0"]
    np.testing.assert_array_equal(strategy._ps_loads, [4008, 4200])


def test_byte_size_load_fn_needs_one_output():
    g = tf.Graph()
    with g.as_default():
        v = tf.Variable(tf.zeros([3, 4]), name="v")
        assert tf.contrib.training.byte_size_load_fn(v.op) == 48
        split = tf.split(tf.zeros([4]), 2)
        with pytest.raises(ValueError, match="must have a single output"):
            tf.contrib.training.byte_size_load_fn(split[0].op)
