"""tf.train.Coordinator and QueueRunner with real threads (every join bounded)."""

import threading
import time

import pytest

import tensorweave as tf


def test_request_stop_join_and_reraise():
    coord = tf.train.Coordinator()
    assert not coord.should_stop()

    def worker():
        with coord.stop_on_exception():
            while not coord.should_stop():
                time.sleep(0.01)
                raise ValueError("boom")

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(2)]
    for t in threads:
        t.start()
    assert coord.wait_for_stop(5)
    with pytest.raises(ValueError, match="boom"):
        coord.join(threads, stop_grace_period_secs=5)
    with pytest.raises(ValueError, match="boom"):
        coord.raise_requested_exception()
    coord.clear_stop()
    assert not coord.should_stop()
    coord.raise_requested_exception()  # cleared


def test_out_of_range_is_a_clean_stop_and_stragglers_are_reported():
    coord = tf.train.Coordinator()
    coord.request_stop(tf.errors.OutOfRangeError(None, None, "done"))
    coord.join([], stop_grace_period_secs=1)
    coord.clear_stop()
    ev = threading.Event()
    t = threading.Thread(target=lambda: ev.wait(5), daemon=True)
    t.start()
    coord.request_stop()
    with pytest.raises(RuntimeError, match="Coordinator stopped with threads still running"):
        coord.join([t], stop_grace_period_secs=0.05)
    ev.set()
    t.join(5)


def test_looper_thread():
    coord = tf.train.Coordinator()
    calls = []
    looper = coord.loop(0.01, calls.append, args=(1,))
    time.sleep(0.1)
    coord.request_stop()
    coord.join([looper], stop_grace_period_secs=5)
    assert len(calls) >= 2


def test_queue_runner_fills_queue_and_stops_on_request():
    q = tf.FIFOQueue(10, tf.float32, shapes=[[]])
    qr = tf.train.QueueRunner(q, [q.enqueue(1.0)] * 2)
    tf.train.add_queue_runner(qr)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        assert len(threads) == 3  # two enqueue threads and the one closing on stop
        assert sum(sess.run(q.dequeue_many(20))) == 20.0
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)
        assert sess.run(q.is_closed())


def test_queue_runner_reports_errors_to_coordinator():
    q = tf.FIFOQueue(10, tf.float32, shapes=[[]])
    bad = q.enqueue(tf.gather(tf.constant([1.0]), tf.constant(3)))  # index out of range at run time
    qr = tf.train.QueueRunner(q, [bad])
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = qr.create_threads(sess, coord=coord, start=True, daemon=True)
        assert coord.wait_for_stop(5)
        with pytest.raises(tf.errors.InvalidArgumentError):
            coord.join(threads, stop_grace_period_secs=5)
