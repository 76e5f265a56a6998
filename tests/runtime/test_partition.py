"""Partitioned execution over logical CPU devices: same results as one device, a tensor sent
once per destination device, control edges across devices, errors abort every partition
without hanging, variables on a non-default device trained in place."""

import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tensorweave as tf
from tensorweave.framework import errors
from tensorweave.runtime.executor import PartitionedPlan
from tensorweave.runtime.rendezvous import Rendezvous, StepAborted


def _config(n=3, **kw):
    return tf.ConfigProto(device_count={"CPU": n}, **kw)


def _plan(sess):
    (entry,) = list(sess._cache.values())[-1:]
    return entry.plan


UNARY = [tf.tanh, tf.sin, lambda x: x * 0.5, tf.negative]
BINARY = [tf.add, tf.multiply, tf.subtract, lambda a, b: tf.matmul(a, b)]


@st.composite
def graphs(draw):
    n_ops = draw(st.integers(2, 9))
    ops = []
    for i in range(n_ops):
        kind = draw(st.sampled_from(["u", "b"]))
        a = draw(st.integers(-2, i - 1))  # negative: one of the two inputs
        b = draw(st.integers(-2, i - 1))
        fn = draw(st.integers(0, 3))
        dev = draw(st.sampled_from(["", "/cpu:0", "/cpu:1", "/cpu:2", "/cpu:1", "/cpu:2"]))
        ops.append((kind, a, b, fn, dev))
    n_fetch = draw(st.integers(1, 3))
    fetch = draw(st.lists(st.integers(0, n_ops - 1), min_size=1, max_size=n_fetch, unique=True))
    return ops, fetch


def _build(spec, with_devices):
    ops, fetch = spec
    x = tf.placeholder(tf.float32, [3, 3], name="x")
    y = tf.constant(np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3), name="y")
    vals = []
    for kind, a, b, fn, dev in ops:
        pick = lambda k: (x, y)[-k - 1] if k < 0 else vals[k]  # noqa: E731
        with tf.device(dev if with_devices else None):
            vals.append(UNARY[fn](pick(a)) if kind == "u" else BINARY[fn](pick(a), pick(b)))
    return x, [vals[i] for i in fetch]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_partitioned_matches_single_device(spec):
    xv = np.arange(9, dtype=np.float32).reshape(3, 3) / 9
    with tf.Graph().as_default():
        x, fetches = _build(spec, with_devices=False)
        with tf.Session() as s:
            expected = s.run(fetches, {x: xv})
    with tf.Graph().as_default():
        x, fetches = _build(spec, with_devices=True)
        with tf.Session(config=_config(3)) as s:
            got = s.run(fetches, {x: xv})
            got2 = s.run(fetches, {x: xv})  # the cached partitioned plan again
    for e, g, g2 in zip(expected, got, got2):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(g2, e, rtol=1e-5, atol=1e-6)


def test_tensor_sent_once_per_destination_device():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2], name="x")
        with tf.device("/cpu:0"):
            a = tf.sin(x, name="a")
        with tf.device("/cpu:1"):
            uses = [a * float(i) for i in range(5)]   # five consumers on CPU:1
            s1 = tf.add_n(uses)
        with tf.device("/cpu:2"):
            s2 = a + 1.0                               # one consumer on CPU:2
        with tf.Session(config=_config(3)) as s:
            out = s.run([s1, s2], {x: [1.0, 2.0]})
            plan = _plan(s)
    assert isinstance(plan, PartitionedPlan)
    recvs = [op for p in plan.partitions for op in p.order if op.type == "_Recv"]
    # a goes to CPU:1 once and to CPU:2 once; the two fetched results need no transfer
    assert sorted(r.key for r in recvs) == [
        "/job:localhost/replica:0/task:0/device:CPU:0;/job:localhost/replica:0/task:0/device:CPU:1;a:0",
        "/job:localhost/replica:0/task:0/device:CPU:0;/job:localhost/replica:0/task:0/device:CPU:2;a:0"]
    np.testing.assert_allclose(out[0], np.sin([1.0, 2.0]) * 10, rtol=1e-6)
    np.testing.assert_allclose(out[1], np.sin([1.0, 2.0]) + 1, rtol=1e-6)


def test_control_edge_across_devices_orders_ops():
    with tf.Graph().as_default():
        with tf.device("/cpu:1"):
            v = tf.Variable(0.0, name="v")
            inc = tf.assign_add(v, 1.0)
        with tf.device("/cpu:0"):
            with tf.control_dependencies([inc]):
                out = tf.constant(5.0) + 0.0
        with tf.Session(config=_config(2)) as s:
            s.run(v.initializer)
            for _ in range(3):
                assert s.run(out) == 5.0
            assert s.run(v) == 3.0   # the control input ran every step
            plan = s._cache[(out, ())].plan
    ctl = [op for p in plan.partitions for op in p.order if op.type == "_Recv" and op.tensor is None]
    assert len(ctl) >= 1


def test_error_in_one_partition_aborts_all_without_hanging():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None], name="x")
        with tf.device("/cpu:1"):
            bad = tf.reshape(x, [2])
        with tf.device("/cpu:2"):
            slow = tf.sin(x)
        with tf.device("/cpu:0"):
            out = bad + slow
        with tf.Session(config=_config(3)) as s:
            t0 = time.monotonic()
            with pytest.raises(errors.InvalidArgumentError) as e:
                s.run(out, {x: [1.0, np.nan, 3.0]})
            assert time.monotonic() - t0 < 5
            # the session still works after an aborted step
            np.testing.assert_allclose(s.run(out, {x: [1.0, 2.0]}), np.array([1.0, 2.0]) + np.sin([1.0, 2.0]),
                                       rtol=1e-6)
    # the original error (from CPU:1's op), not an abort of another partition
    assert "{{node Reshape}}" in e.value.message and "CPU:1" in e.value.op.device


def test_rendezvous_abort_wakes_waiters_and_deadline_bounds_waits():
    r = Rendezvous(1)
    caught = []

    def waiter():
        try:
            r.recv("k")
        except StepAborted as e:
            caught.append(e.error)
    t = threading.Thread(target=waiter)
    t.start()
    time.sleep(0.02)
    err = errors.CancelledError(None, None, "boom")
    r.abort(err)
    t.join(2)
    assert not t.is_alive() and caught == [err]
    with pytest.raises(StepAborted):
        r.recv("other")
    r2 = Rendezvous(2, timeout=0.05)
    with pytest.raises(errors.DeadlineExceededError):
        r2.recv("never")
    r3 = Rendezvous(3)
    r3.send("a", 1)
    assert r3.recv("a") == 1 and r3.transfers == 1


def test_variables_on_another_device_trained_in_place():
    rng = np.random.RandomState(0)
    xv = rng.randn(16, 3).astype(np.float32)
    yv = xv @ np.array([[1.0], [-2.0], [0.5]], np.float32)

    def train(config, devices):
        with tf.Graph().as_default():
            x = tf.constant(xv)
            with tf.device(devices[0]):
                w = tf.Variable(tf.zeros([3, 1]), name="w")
            with tf.device(devices[1]):
                pred = tf.matmul(x, w)
                loss = tf.reduce_mean(tf.square(pred - yv))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session(config=config) as s:
                s.run(tf.global_variables_initializer())
                cell = s._resources.variable("w")
                storage = cell.value
                for _ in range(20):
                    s.run(train_op)
                assert cell.value is storage   # updated in place
                return s.run([w, loss])
    w1, l1 = train(None, (None, None))
    w2, l2 = train(_config(2), ("/cpu:1", "/cpu:0"))
    np.testing.assert_allclose(w2, w1, rtol=1e-5, atol=1e-6)
    assert l2 < 1.0
