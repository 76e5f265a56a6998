"""Queues: names and static shapes as TF, FIFO/shuffle/padding/priority semantics, blocking across
threads (every wait bounded), close/cancel, timeouts, session close.

Expected names and messages were recorded from TensorFlow 2.21 (tf.compat.v1, graph mode)."""

import re
import threading
import time

import numpy as np
import pytest

import tensorweave as tf


def _in_thread(fn):
    out = {}

    def run():
        try:
            out["value"] = fn()
        except Exception as e:  # noqa: BLE001
            out["error"] = e
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, out


def test_names_and_shapes_like_tf():
    q = tf.FIFOQueue(3, [tf.float32, tf.int32], shapes=[[2], []])
    assert q.name == "fifo_queue" and q.queue_ref.dtype == tf.resource
    assert q.dtypes == [tf.float32, tf.int32] and q.names is None
    assert q.enqueue([[1., 2.], 3]).name == "fifo_queue_enqueue"
    assert q.enqueue_many([[[1., 2.]], [4]]).name == "fifo_queue_EnqueueMany"
    d = q.dequeue()
    assert [t.name for t in d] == ["fifo_queue_Dequeue:0", "fifo_queue_Dequeue:1"]
    assert [t.shape.as_list() for t in d] == [[2], []]
    assert [t.shape.as_list() for t in q.dequeue_many(2)] == [[2, 2], [2]]
    assert [t.shape.as_list() for t in q.dequeue_up_to(2)] == [[None, 2], [None]]
    assert q.size().name == "fifo_queue_Size:0" and q.is_closed().name == "fifo_queue_Is_Closed:0"
    c = q.close()
    assert c.name == "fifo_queue_Close" and c.type == "QueueCloseV2"
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        q.enqueue([[1., 2., 3.], 3])
    with pytest.raises(TypeError):
        q.enqueue([[1., 2.], 3.5])


def test_named_components_and_dicts():
    q = tf.FIFOQueue(10, [tf.float32, tf.int32], names=["a", "b"], shapes=[[], []])
    e = q.enqueue({"a": 1., "b": 2})
    d = q.dequeue()
    assert sorted(d) == ["a", "b"]
    with pytest.raises(ValueError, match="You must enqueue a dictionary"):
        q.enqueue([1., 2])
    with tf.Session() as sess:
        sess.run(e)
        assert sess.run(d) == {"a": 1.0, "b": 2}


def test_fifo_order_size_and_closed_errors():
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[1, 2, 3, 4, 5]]))
        assert sess.run(q.size()) == 5
        assert sess.run(q.dequeue()) == 1
        np.testing.assert_array_equal(sess.run(q.dequeue_many(2)), [2, 3])
        sess.run(q.close())
        assert sess.run(q.is_closed())
        with pytest.raises(tf.errors.CancelledError, match=r"FIFOQueue '_\d+_fifo_queue' is closed."):
            sess.run(q.enqueue(9))
        with pytest.raises(tf.errors.OutOfRangeError,
                           match=r"is closed and has insufficient elements \(requested 3, current size 2\)"):
            sess.run(q.dequeue_many(3))
        np.testing.assert_array_equal(sess.run(q.dequeue_up_to(3)), [4, 5])
        with pytest.raises(tf.errors.OutOfRangeError,
                           match=r"FIFOQueue '_\d+_fifo_queue' is closed and has insufficient elements "
                                 r"\(requested 1, current size 0\)"):
            sess.run(q.dequeue())


def test_runtime_shape_check_and_unknown_shapes():
    q = tf.FIFOQueue(2, tf.float32, shapes=[[2]])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Shape mismatch in tuple component 0. Expected \[2\], got \[3\]"):
            sess.run(q.enqueue(tf.placeholder_with_default([1., 2., 3.], [None])))
        mq = tf.FIFOQueue(2, tf.float32)
        sess.run(mq.enqueue([1.]))
        sess.run(mq.enqueue([[1., 2.]]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="require the components to have specified shapes"):
            sess.run(mq.dequeue_many(2))
        assert sess.run(mq.size()) == 2  # a failed dequeue_many puts its elements back


def test_dequeue_blocks_until_another_thread_enqueues():
    q = tf.FIFOQueue(2, tf.float32, shapes=[[]])
    d = q.dequeue()
    e = q.enqueue(7.0)
    with tf.Session() as sess:
        t, out = _in_thread(lambda: sess.run(d))
        time.sleep(0.1)
        assert t.is_alive()
        sess.run(e)
        t.join(5)
        assert not t.is_alive() and out["value"] == 7.0


def test_enqueue_blocks_when_full_and_dequeue_many_above_capacity():
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    with tf.Session() as sess:
        t, out = _in_thread(lambda: sess.run(q.enqueue_many([[1, 2, 3, 4, 5]])))
        time.sleep(0.1)
        assert t.is_alive() and sess.run(q.size()) == 2
        np.testing.assert_array_equal(sess.run(q.dequeue_many(5)), [1, 2, 3, 4, 5])
        t.join(5)
        assert not t.is_alive() and "error" not in out


def test_close_wakes_blocked_dequeue_and_cancel_pending_enqueues():
    q = tf.FIFOQueue(1, tf.float32, shapes=[[]])
    with tf.Session() as sess:
        t, out = _in_thread(lambda: sess.run(q.dequeue()))
        time.sleep(0.1)
        sess.run(q.close())
        t.join(5)
        assert isinstance(out["error"], tf.errors.OutOfRangeError)
    q2 = tf.FIFOQueue(1, tf.float32, shapes=[[]])
    with tf.Session() as sess:
        sess.run(q2.enqueue(1.0))
        t, out = _in_thread(lambda: sess.run(q2.enqueue(2.0)))
        time.sleep(0.1)
        sess.run(q2.close(cancel_pending_enqueues=True))
        t.join(5)
        assert isinstance(out["error"], tf.errors.CancelledError)
        assert "Enqueue operation was cancelled" in str(out["error"])


def test_timeouts_give_deadline_exceeded():
    q = tf.FIFOQueue(1, tf.float32, shapes=[[]])
    d = q.dequeue()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.DeadlineExceededError, match="Timed out waiting for notification"):
            sess.run(d, options=tf.RunOptions(timeout_in_ms=50))
        sess.run(q.enqueue(1.0))
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(q.enqueue(2.0), options=tf.RunOptions(timeout_in_ms=50))
    with tf.Session(config=tf.ConfigProto(operation_timeout_in_ms=50)) as sess:
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(d)


def test_closing_the_session_cancels_blocked_ops():
    q = tf.FIFOQueue(1, tf.float32, shapes=[[]])
    d = q.dequeue()
    sess = tf.Session()
    t, out = _in_thread(lambda: sess.run(d))
    time.sleep(0.1)
    sess.close()
    t.join(5)
    assert not t.is_alive()
    assert isinstance(out["error"], tf.errors.CancelledError)
    assert "Dequeue operation was cancelled" in str(out["error"])


def test_random_shuffle_queue_seeded_and_min_after_dequeue():
    def run():
        with tf.Graph().as_default():
            q = tf.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=3)
            assert q.name == "random_shuffle_queue" and q.queue_ref.op.type == "RandomShuffleQueueV2"
            with tf.Session() as sess:
                sess.run(q.enqueue_many([list(range(10))]))
                first = sess.run(q.dequeue_many(8))
                with pytest.raises(tf.errors.DeadlineExceededError):  # 2 left = min_after_dequeue
                    sess.run(q.dequeue(), options=tf.RunOptions(timeout_in_ms=30))
                sess.run(q.close())
                with pytest.raises(tf.errors.OutOfRangeError,
                                   match=r"RandomShuffleQueue '_\d+_random_shuffle_queue' is closed and has "
                                         r"insufficient elements \(requested 3, current size 2\)"):
                    sess.run(q.dequeue_many(3))
                rest = sess.run(q.dequeue_up_to(3))
                return list(first), list(rest)
    a, b = run(), run()
    assert a == b
    assert sorted(a[0] + a[1]) == list(range(10)) and a[0] != list(range(8))


def test_padding_and_priority_queues():
    pq = tf.PaddingFIFOQueue(10, [tf.int32], shapes=[[None]])
    assert pq.dequeue_many(2).shape.as_list() == [2, None]
    with pytest.raises(TypeError):
        tf.PaddingFIFOQueue(10, [tf.int32])
    prq = tf.PriorityQueue(10, [tf.string], shapes=[[]])
    assert prq.dtypes == [tf.int64, tf.string]
    with tf.Session() as sess:
        sess.run(pq.enqueue([[1, 2, 3]]))
        sess.run(pq.enqueue([[1]]))
        np.testing.assert_array_equal(sess.run(pq.dequeue_many(2)), [[1, 2, 3], [1, 0, 0]])
        sess.run(prq.enqueue_many([[5, 1, 3], [b"a", b"b", b"c"]]))
        pri, val = sess.run(prq.dequeue_many(3))
        np.testing.assert_array_equal(pri, [1, 3, 5])
        assert list(val) == [b"b", b"c", b"a"]


def test_shared_name_shares_between_queues():
    a = tf.FIFOQueue(5, tf.float32, shapes=[[]], shared_name="shared_q", name="a")
    b = tf.FIFOQueue(5, tf.float32, shapes=[[]], shared_name="shared_q", name="b")
    with tf.Session() as sess:
        sess.run(a.enqueue(3.0))
        assert sess.run(b.dequeue()) == 3.0


def test_concurrent_producers_and_consumers():
    q = tf.FIFOQueue(4, tf.int32, shapes=[[]])
    x = tf.placeholder(tf.int32, [])
    enq, deq = q.enqueue(x), q.dequeue()
    got = []
    lock = threading.Lock()
    with tf.Session() as sess:
        def produce(base):
            for i in range(50):
                sess.run(enq, {x: base + i})

        def consume():
            for _ in range(50):
                v = sess.run(deq)
                with lock:
                    got.append(int(v))
        threads = [threading.Thread(target=produce, args=(k * 100,), daemon=True) for k in range(2)]
        threads += [threading.Thread(target=consume, daemon=True) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert not any(t.is_alive() for t in threads)
    assert sorted(got) == sorted(list(range(50)) + list(range(100, 150)))


def test_anonymous_queue_names_count_across_sessions():
    # TF 2.21 numbers non-shared resources with one process-wide counter: a queue made by a later
    # session has a larger number (recorded: '_0_priority_queue' then '_1_fifo_queue').
    q = tf.FIFOQueue(2, tf.int32, shapes=[[]])
    ids = []
    for _ in range(2):
        with tf.Session() as sess:
            sess.run(q.close())
            with pytest.raises(tf.errors.CancelledError) as e:
                sess.run(q.enqueue(1))
            ids.append(int(re.search(r"'_(\d+)_fifo_queue'", e.value.message).group(1)))
    assert ids[1] > ids[0]


def test_priority_queue_string_component_batches():
    q = tf.PriorityQueue(5, [tf.string], shapes=[[]])
    with tf.Session() as sess:
        for p, v in [(3, "c"), (1, "a"), (2, "b")]:
            sess.run(q.enqueue((tf.constant(p, tf.int64), v)))
        prio, vals = sess.run(q.dequeue_many(3))
    np.testing.assert_array_equal(prio, [1, 2, 3])
    assert vals.dtype == object and vals.tolist() == [b"a", b"b", b"c"]


def test_range_input_producer_reshuffles_each_epoch_as_tf():
    # Recorded from TF 2.21: tf.set_random_seed(5); range_input_producer(5, seed=2), two epochs;
    # the queue is named input_producer/FIFOQueueV2 when input_producer is called directly.
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        r = tf.train.range_input_producer(5, shuffle=True, seed=2).dequeue()
        q = tf.train.input_producer(tf.constant([1, 2]), shuffle=False)
        assert q.name == "input_producer_1/FIFOQueueV2"
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            got = [int(sess.run(r)) for _ in range(10)]
            coord.request_stop()
            sess.run(q.close(cancel_pending_enqueues=True))
            coord.join(threads)
    assert got == [1, 2, 0, 3, 4, 1, 4, 3, 2, 0]


def test_queue_from_list_selects_a_queue_at_run_time():
    # As TF 2.21: the refs are stacked and gathered; shapes are what the queues share.
    qa = tf.FIFOQueue(3, tf.int32, shapes=[[2]])
    qb = tf.FIFOQueue(3, tf.int32, shapes=[[3]])
    sel = tf.placeholder(tf.int32, [])
    q = tf.QueueBase.from_list(sel, [qa, qb])
    assert q.shapes == [tf.TensorShape([None])] and q.queue_ref.op.type == "GatherV2"
    with tf.Session() as sess:
        sess.run(q.enqueue([[1, 2]]), {sel: 0})
        sess.run(q.enqueue([[1, 2, 3]]), {sel: 1})
        assert sess.run([qa.size(), qb.size()]) == [1, 1]
        assert sess.run(q.dequeue(), {sel: 1}).tolist() == [1, 2, 3]
    with pytest.raises(TypeError, match="A list of queues expected"):
        tf.QueueBase.from_list(0, [])
    with pytest.raises(TypeError, match="matching component dtypes"):
        tf.QueueBase.from_list(0, [qa, tf.FIFOQueue(3, tf.float32)])
    q3 = tf.FIFOQueue(4, [tf.int32, tf.int32], names=["a", "b"], shapes=[[], []])
    with pytest.raises(ValueError, match=r"Dictionary: \['a'\],Queue: \['a', 'b'\]"):
        q3.enqueue({"a": 1})


def test_limit_epochs_is_named_by_its_scope():
    # TF 2.21: the identity takes the scope's name, so the tensor is limit_epochs:0.
    with tf.Graph().as_default():
        le = tf.train.limit_epochs(tf.constant([1, 2]), num_epochs=2)
        assert le.name == "limit_epochs:0"
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            assert sess.run(le).tolist() == [1, 2] and sess.run(le).tolist() == [1, 2]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(le)
