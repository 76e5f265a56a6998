"""The distributed runtime with real processes and real gRPC on 127.0.0.1: a ps task in its own
process, this test process as worker 0 (an in-process Server), replica processes as workers 1, 2."""

import json
import os
import signal
import time

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.distributed import rpc
from tensorweave.distributed.protos import worker_pb2

from conftest import Procs, make_cluster

pytestmark = pytest.mark.distributed


@pytest.fixture(scope="module")
def cluster():
    """(cluster dict, in-process worker:0 Server, ps Popen); the ps serves the whole module."""
    from conftest import TOKEN
    saved = dict(rpc.security._override)
    rpc.configure_security(token=TOKEN)
    spec = make_cluster(n_ps=1, n_workers=3)
    procs = Procs()
    server = None
    try:
        ps = procs.serve(spec, "ps", 0)
        procs.wait_line(ps, "READY")
        server = tf.train.Server(spec, job_name="worker", task_index=0)
        yield spec, server, ps
    finally:
        if server is not None:
            server.stop()
        procs.stop_all()
        rpc.security._override.clear()
        rpc.security._override.update(saved)


def test_ps_serves_its_task(cluster):
    spec, server, ps = cluster
    stub = rpc.Stub(spec["ps"][0], rpc.WORKER_SERVICE)
    status = stub.call("GetStatus", worker_pb2.GetStatusRequest(), worker_pb2.GetStatusResponse, 10)
    assert (status.task, status.pid) == ("/job:ps/replica:0/task:0", ps.pid)
    assert server.target == "grpc://" + spec["worker"][0]


def test_step_spans_ps_and_worker_with_send_recv(cluster):
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        v = tf.Variable([1.0, 2.0, 3.0], name="spanned")
    with tf.device("/job:worker/task:0"):
        x = tf.placeholder(tf.float32, [3])
        delta = v * 2.0 + x                       # reads the ps's variable on the worker
    with tf.device("/job:ps/task:0"):
        update = tf.assign_add(v, delta)          # writes the worker's result back on the ps
    with tf.Session(server.target) as sess:
        sess.run(v.initializer)
        assert np.array_equal(sess.run(update, {x: [1, 1, 1]}), [4, 7, 10])
        fetched, d = sess.run([v, delta], {x: [0, 0, 1]})
        assert np.array_equal(fetched, [4, 7, 10]) and np.array_equal(d, [8, 14, 21])
        # The step really was cut into a ps and a worker partition joined by send/recv pairs.
        plan = next(e.plan for e in sess._cache.values() if hasattr(e.plan, "partitions")
                    and len(e.plan.partitions) == 2)
        ops = {task: {n.op for n in p.graph_def.node} for task, p in plan.partitions.items()}
        assert {"_RpcSend", "_RpcRecv"} <= ops["/job:ps/replica:0/task:0"]
        assert {"_RpcSend", "_RpcRecv"} <= ops["/job:worker/replica:0/task:0"]
    # The variable lives on the ps: a new client session sees its value.
    with tf.Session(server.target) as sess:
        assert np.array_equal(sess.run(v), [4, 7, 10])


def test_control_flow_runs_on_the_ps(cluster):
    # cond/while ops carry their branches and bodies as FunctionDefs in the partition's library.
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(2.0, name="cf_var")
        x = tf.placeholder(tf.float32, [], name="cf_x")
        r = tf.cond(x > 0, lambda: v * x, lambda: -x)
        _, total = tf.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + r), (0, 0.0))
    with tf.device("/job:worker/task:0"):
        out = total * 10.0
    with tf.Session(server.target) as sess:
        sess.run(v.initializer)
        assert sess.run(out, {x: 3.0}) == 240.0
        assert sess.run(out, {x: -1.0}) == 40.0


def test_closing_a_session_cancels_its_blocked_step(cluster):
    # A step blocked on the ps (a dequeue with nothing to dequeue, like a sync-replicas queue
    # runner waiting for gradients) ends with CancelledError when its session closes.
    import threading
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        q = tf.FIFOQueue(1, tf.float32, shapes=[], shared_name="cancel_test_queue")
        deq = q.dequeue()
    sess = tf.Session(server.target)
    caught = []

    def run():
        try:
            sess.run(deq)
        except Exception as e:  # noqa: BLE001 - asserted below
            caught.append(e)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    time.sleep(1.0)  # now blocked in the ps's dequeue
    assert t.is_alive(), caught
    started = time.monotonic()
    sess.close()
    t.join(15)
    assert not t.is_alive(), "the blocked step was not cancelled"
    assert time.monotonic() - started < 10
    assert isinstance(caught[0], tf.errors.CancelledError), caught


def test_large_tensors_cross_the_wire_intact(cluster):
    spec, server, _ = cluster
    n = 3_000_000  # 12 MB of float32: several chunks each way
    value = np.random.RandomState(0).standard_normal(n).astype(np.float32)
    with tf.device("/job:ps/task:0"):
        big = tf.Variable(tf.zeros([n]), name="big")
    with tf.device("/job:worker/task:0"):
        fed = tf.placeholder(tf.float32, [n])
        doubled = big * 2.0                        # ps -> worker
        total = tf.reduce_sum(tf.cast(tf.equal(big, fed), tf.int32))
    with tf.device("/job:ps/task:0"):
        load = tf.assign(big, fed * 1.0)           # worker (the feed) -> ps
    with tf.Session(server.target) as sess:
        sess.run(big.initializer)
        sess.run(load.op, {fed: value})
        got, d, same = sess.run([big, doubled, total], {fed: value})
        assert got.dtype == np.float32 and np.array_equal(got, value)
        assert np.array_equal(d, value * 2.0) and same == n
        got[0] = 1.0  # fetched arrays are the caller's (writable)


def test_between_graph_replication(cluster):
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        counter = tf.get_variable("counter", [], initializer=tf.zeros_initializer())
    with tf.Session(server.target) as sess:
        sess.run(counter.initializer)
    procs = Procs()
    try:
        replicas = [procs.start("replica", json.dumps(spec), str(i), "25") for i in (1, 2)]
        for p in replicas:
            procs.wait_line(p, "DONE", timeout=60)
    finally:
        procs.stop_all()
    with tf.Session(server.target) as sess:
        assert sess.run(counter) == 50.0


def test_error_on_ps_aborts_step_with_original_error(cluster):
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        never = tf.Variable(1.0, name="never_initialized")
    with tf.device("/job:worker/task:0"):
        y = never * 2.0
    with tf.Session(server.target) as sess:
        t = time.monotonic()
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value never_initialized"):
            sess.run(y)
        assert time.monotonic() - t < 10


def test_error_on_worker_aborts_ps_partition(cluster):
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        acc = tf.Variable(tf.zeros([4]), name="acc")
    with tf.device("/job:worker/task:0"):
        x = tf.placeholder(tf.float32, [None])
        shaped = tf.reshape(x, [4])                # fails on the worker for a wrong size
    with tf.device("/job:ps/task:0"):
        update = tf.assign_add(acc, shaped)        # the ps waits for the worker's tensor
    with tf.Session(server.target) as sess:
        sess.run(acc.initializer)
        t = time.monotonic()
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(update, {x: [1.0, 2.0, 3.0]})
        assert time.monotonic() - t < 10           # the ps partition was aborted, not left waiting
        assert np.array_equal(sess.run(update, {x: [1, 2, 3, 4]}), [1, 2, 3, 4])


def test_remote_client_talks_to_master_over_grpc(cluster):
    spec, server, _ = cluster
    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.device("/job:ps/task:0"):
        w = tf.Variable([10.0, 20.0], name="remote_w")
    y = tf.reduce_sum(x * w)                      # no device: the master's own task (the ps)
    with tf.Session("grpc://" + spec["ps"][0]) as sess:   # master in another process
        sess.run(w.initializer)
        assert sess.run(y, {x: [1.0, 2.0]}) == 50.0
        z = y + 1.0                               # the graph grew: sent again
        assert sess.run([y, z], {x: [1.0, 1.0]}) == [30.0, 31.0]


def test_wrong_or_missing_token_is_rejected(cluster):
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        c = tf.constant(1.0) + 1.0
    try:
        rpc.configure_security(token="wrong")
        with tf.Session(server.target) as sess:
            with pytest.raises(tf.errors.PermissionDeniedError, match="Wrong cluster token"):
                sess.run(c)
        rpc.security._override["token"] = ""
        os.environ.pop("TENSORWEAVE_CLUSTER_TOKEN", None)
        with tf.Session(server.target) as sess:
            with pytest.raises(tf.errors.UnauthenticatedError, match="Missing cluster token"):
                sess.run(c)
    finally:
        from conftest import TOKEN
        rpc.configure_security(token=TOKEN)
    with tf.Session(server.target) as sess:
        assert sess.run(c) == 2.0


def test_reset_clears_state_on_every_task(cluster):
    spec, server, _ = cluster
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(5.0, name="to_reset")
    with tf.Session(server.target) as sess:
        sess.run(v.initializer)
        assert sess.run(v) == 5.0
    tf.Session.reset(server.target)
    with tf.Session(server.target) as sess:
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v)


def test_stalled_task_times_out_and_killed_task_is_unavailable(procs):
    spec = make_cluster(n_ps=1, n_workers=1)
    ps = procs.serve(spec, "ps", 0)
    procs.wait_line(ps, "READY")
    server = tf.train.Server(spec, job_name="worker", task_index=0)
    try:
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(1.0, name="v")
        with tf.device("/job:worker/task:0"):
            y = v * 3.0
        with tf.Session(server.target) as sess:
            sess.run(v.initializer)
            assert sess.run(y) == 3.0
            os.kill(ps.pid, signal.SIGSTOP)       # a task that hangs
            t = time.monotonic()
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(y, options=tf.RunOptions(timeout_in_ms=500))
            assert time.monotonic() - t < 8
            os.kill(ps.pid, signal.SIGKILL)       # a task that dies
            ps.wait(timeout=10)
            t = time.monotonic()
            with pytest.raises(tf.errors.UnavailableError):
                sess.run(y)
            assert time.monotonic() - t < 10
    finally:
        server.stop()
