"""SyncReplicasOptimizer in one process: several "replicas" (each its own optimizer and local
step, as in between-graph replication) driven from threads against one session; plus the
Coordinator / QueueRunner it relies on and MonitoredSession starting the chief's queue runner.
Every blocking run is bounded by the session's operation timeout and every thread join by a
timeout."""

import threading
import time

import numpy as np
import pytest

import tensorweave as tf

TIMEOUT_MS = 20000


def _config():
    return tf.ConfigProto(operation_timeout_in_ms=TIMEOUT_MS)


def _wait(pred, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


class _Pusher:
    """Runs one replica's train op in a thread (it may block on the token queue)."""

    def __init__(self, sess, op, feed):
        self.error = None
        self.thread = threading.Thread(target=self._run, args=(sess, op, feed), daemon=True)
        self.thread.start()

    def _run(self, sess, op, feed):
        try:
            sess.run(op, feed)
        except Exception as e:  # noqa: BLE001 - checked by the test
            self.error = e

    def join(self, timeout=10.0):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "replica step did not finish"
        if self.error is not None:
            raise self.error


def _build(num_replicas, replicas_to_aggregate, total_num_replicas, lr=1.0):
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable([0.0, 0.0], name="w")
    replicas = []
    for r in range(num_replicas):
        x = tf.placeholder(tf.float32, [2], name=f"x{r}")
        loss = tf.reduce_sum(w * x)          # gradient = x
        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(lr),
                                             replicas_to_aggregate=replicas_to_aggregate,
                                             total_num_replicas=total_num_replicas)
        replicas.append((x, opt, opt.minimize(loss, global_step=gs)))
    return gs, w, replicas


def test_average_of_first_n_stale_gradients_dropped_and_counted_tokens():
    with tf.Graph().as_default():
        gs, w, replicas = _build(3, replicas_to_aggregate=2, total_num_replicas=3)
        chief = replicas[0][1]
        accum = chief._accumulator_list[0][0]
        token_q = chief._sync_token_queue
        sess = tf.Session(config=_config())
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        sess.run(chief.chief_init_op)
        for _, opt, _ in replicas[1:]:
            sess.run(opt.local_step_init_op)
        sess.run(chief.get_init_tokens_op())          # replicas_to_aggregate tokens
        assert sess.run(token_q.size()) == 2
        coord = tf.train.Coordinator()
        threads = chief.get_chief_queue_runner().create_threads(sess, coord=coord, daemon=True, start=True)

        def push(r, value):
            return _Pusher(sess, replicas[r][2], {replicas[r][0]: value})
        try:
            # Step 1: replicas 0 and 1; the update applies the mean of their gradients.
            push(0, [1.0, 2.0]).join()
            push(1, [3.0, 4.0]).join()
            _wait(lambda: sess.run(gs) == 1)
            np.testing.assert_array_equal(sess.run(w), [-2.0, -3.0])
            _wait(lambda: sess.run(token_q.size()) == 3)   # max(total, to_aggregate) new tokens
            # Replica 2 (the slow one) still has local step 0: its gradient is dropped and counted.
            push(2, [100.0, 100.0]).join()
            assert sess.run(accum.num_accumulated()) == 0
            assert sess.run(replicas[2][1].stale_gradient_count) == 1
            # Replicas 0 and 1 went on with the initial tokens (step 0), so their second gradients
            # are stale too (TF does the same); they then take tokens of step 1.
            push(0, [50.0, 50.0]).join()
            push(1, [50.0, 50.0]).join()
            assert sess.run(accum.num_accumulated()) == 0
            assert [sess.run(o.stale_gradient_count) for _, o, _ in replicas] == [1, 1, 1]
            assert sess.run(token_q.size()) == 0
            assert [sess.run(o._local_step) for _, o, _ in replicas] == [1, 1, 1]
            # Step 2: two fresh gradients (the pushes block until the chief releases tokens).
            p0, p1 = push(0, [1.0, 1.0]), push(1, [3.0, 3.0])
            _wait(lambda: sess.run(gs) == 2)
            p0.join()
            p1.join()
            np.testing.assert_array_equal(sess.run(w), [-4.0, -5.0])
            # A backup replica's late gradient for step 2 is dropped: the accumulator moved on.
            push(2, [7.0, 7.0]).join()          # local step 1 < 2
            assert sess.run(accum.num_accumulated()) == 0
            assert sess.run(replicas[2][1].stale_gradient_count) == 2
        finally:
            coord.request_stop()
            sess.close()                          # cancels the chief's blocked take
            coord.join(threads, stop_grace_period_secs=5, ignore_live_threads=True)


def test_sparse_gradients_aggregate_per_shard_and_update_sparsely():
    table = np.arange(24, dtype=np.float32).reshape(8, 3)
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:0")):
            gs = tf.train.get_or_create_global_step()
            emb = tf.get_variable("emb", initializer=tf.constant(table), partitioner=tf.fixed_size_partitioner(2))
            ids = tf.placeholder(tf.int64, [None])
            loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids, partition_strategy="div"))
            opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(1.0), replicas_to_aggregate=2)
            train = opt.minimize(loss, global_step=gs)
        g = tf.get_default_graph()
        accs = {op.name: op.device for op in g.get_operations() if op.type == "SparseConditionalAccumulator"}
        assert sorted(accs.values()) == ["/job:ps/task:0", "/job:ps/task:1"]
        assert gs.device == "/job:ps/task:0"
        # TF's FIFOQueue adds its own device("CPU") request inside the global step's device.
        assert g.get_operation_by_name("sync_token_q").device == "/job:ps/task:0/device:CPU:*"
        assert opt._local_step.device == "/job:worker/task:0"
        # The aggregated update of each shard is a sparse update on the shard's task.
        scatter = {op.name: op.device for op in g.get_operations() if op.type == "ScatterSub"}
        assert sorted(scatter.values()) == ["/job:ps/task:0", "/job:ps/task:1"]
    # Now run it in one process (devices cleared: one CPU).
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        emb = tf.get_variable("emb", initializer=tf.constant(table), partitioner=tf.fixed_size_partitioner(2))
        ids = tf.placeholder(tf.int64, [None])
        loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, ids, partition_strategy="div"))
        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(1.0), replicas_to_aggregate=2)
        train = opt.minimize(loss, global_step=gs)
        sess = tf.Session(config=_config())
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        sess.run(opt.chief_init_op)
        sess.run(opt.get_init_tokens_op())
        coord = tf.train.Coordinator()
        threads = opt.get_chief_queue_runner().create_threads(sess, coord=coord, daemon=True, start=True)
        try:
            _Pusher(sess, train, {ids: [1, 6]}).join()
            _Pusher(sess, train, {ids: [6, 3]}).join()
            _wait(lambda: sess.run(gs) == 1)
            after = sess.run(emb.as_tensor())
        finally:
            coord.request_stop()
            sess.close()
            coord.join(threads, stop_grace_period_secs=5, ignore_live_threads=True)
    expected = table.copy()
    # SparseConditionalAccumulator (MEAN, as TF): each row is averaged over the gradients that
    # hold it, so rows 1, 3 and 6 all move by exactly one learning rate.
    expected[[1, 3, 6]] -= 1.0
    untouched = [0, 2, 4, 5, 7]
    assert after[untouched].tobytes() == table[untouched].tobytes()
    np.testing.assert_array_equal(after, expected)


def test_hook_runs_chief_queue_runner_in_monitored_session():
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.Variable(5.0, name="w")
        loss = tf.square(w)
        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.25), replicas_to_aggregate=1)
        train = opt.minimize(loss, global_step=gs)
        hook = opt.make_session_run_hook(is_chief=True)
        final = tf.train.FinalOpsHook([gs, w])
        start = time.monotonic()
        local_steps = 0
        with tf.train.MonitoredSession(hooks=[hook, tf.train.StopAtStepHook(last_step=5), final],
                                       stop_grace_period_secs=1,
                                       session_creator=tf.train.ChiefSessionCreator(config=_config())) as sess:
            while not sess.should_stop():
                sess.run(train)
                local_steps += 1
                assert local_steps < 20
        assert time.monotonic() - start < 15
        # One update per applied gradient: w *= 0.5 per global step (the chief's second gradient
        # was computed with the initial token's step 0, so it may be stale and dropped).
        step, w_final = final.final_ops_values
        assert step >= 5
        assert w_final == 5.0 * 0.5 ** step
        assert hook.stale_gradients is not None and hook.stale_gradients <= 1


def test_api_errors_and_passthroughs():
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.Variable([1.0], name="w")
        base = tf.train.MomentumOptimizer(0.1, 0.9)
        opt = tf.train.SyncReplicasOptimizer(base, replicas_to_aggregate=2, total_num_replicas=3)
        with pytest.raises(ValueError, match="Should be called after apply_gradients"):
            opt.get_chief_queue_runner()
        with pytest.raises(ValueError, match="should be called after apply_gradients"):
            opt.get_init_tokens_op()
        with pytest.raises(ValueError, match="apply_gradient should be called before using the hook"):
            opt.make_session_run_hook(True).begin()
        grads = opt.compute_gradients(tf.reduce_sum(w * w))
        with pytest.raises(ValueError, match="Global step is required to check staleness"):
            opt.apply_gradients(grads)
        with pytest.raises(ValueError, match="Must supply at least one variable"):
            opt.apply_gradients([], global_step=gs)
        opt.apply_gradients(grads, global_step=gs)
        assert opt.get_slot(w, "momentum") is base.get_slot(w, "momentum")
        assert opt.get_slot_names() == ["momentum"]
        assert opt.variables() == base.variables()
        assert opt._tokens_per_step == 3
        assert opt.get_init_tokens_op(num_tokens=0).type == "NoOp"
        assert opt._local_step in tf.local_variables()
        assert isinstance(opt.get_chief_queue_runner(), tf.train.QueueRunner)


def test_too_few_tokens():
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        w = tf.Variable([1.0], name="w")
        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), replicas_to_aggregate=3,
                                             total_num_replicas=1)
        opt.minimize(tf.reduce_sum(w), global_step=gs)
        with pytest.raises(ValueError, match=r"Too few tokens to finish the first step: 1 \(given\) vs 2 \(needed\)"):
            opt.get_init_tokens_op(num_tokens=1)


def test_coordinator_and_queue_runner():
    coord = tf.train.Coordinator()

    def worker():
        with coord.stop_on_exception():
            raise RuntimeError("boom")
    t = threading.Thread(target=worker)
    t.start()
    with pytest.raises(RuntimeError, match="boom"):
        coord.join([t], stop_grace_period_secs=5)
    assert coord.joined
    coord = tf.train.Coordinator()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "done"))   # a clean stop
    assert coord.should_stop()
    coord.join([], stop_grace_period_secs=1)

    with tf.Graph().as_default():
        q = tf.FIFOQueue(10, tf.float32, shapes=[])
        counter = tf.Variable(0.0)
        enqueue = q.enqueue(tf.assign_add(counter, 1.0))
        qr = tf.train.QueueRunner(q, [enqueue])
        tf.train.add_queue_runner(qr)
        assert tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS) == [qr]
        take = q.dequeue_many(5)
        with tf.Session(config=_config()) as sess:
            sess.run(tf.global_variables_initializer())
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord=coord)
            assert len(threads) == 2        # the enqueue thread and the close-on-stop thread
            np.testing.assert_array_equal(sorted(sess.run(take)), [1, 2, 3, 4, 5])
            coord.request_stop()
            coord.join(threads, stop_grace_period_secs=5)


def test_monitored_session_starts_queue_runners_and_gives_hooks_the_coordinator():
    seen = {}

    class Hook(tf.train.SessionRunHook):
        def after_create_session(self, session, coord):
            seen["coord"] = coord

    with tf.Graph().as_default():
        q = tf.FIFOQueue(4, tf.int32, shapes=[])
        tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(7)]))
        value = q.dequeue()
        start = time.monotonic()
        with tf.train.MonitoredSession(hooks=[Hook()], stop_grace_period_secs=2) as sess:
            assert isinstance(seen["coord"], tf.train.Coordinator)
            assert [sess.run(value) for _ in range(3)] == [7, 7, 7]
        assert seen["coord"].should_stop() and seen["coord"].joined
        assert time.monotonic() - start < 10
