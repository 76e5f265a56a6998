"""Queue-based input pipelines: batch, shuffle_batch, input producers with num_epochs."""

import threading

import numpy as np
import pytest

import tensorweave as tf


def _drain(sess, fetch, coord, threads):
    out = []
    try:
        for _ in range(1000):
            out.append(sess.run(fetch))
    except tf.errors.OutOfRangeError:
        pass
    coord.request_stop()
    coord.join(threads, stop_grace_period_secs=5)
    return out


def _start(sess):
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    return coord, tf.train.start_queue_runners(sess, coord)


def test_names_like_tf():
    i = tf.train.range_input_producer(10, num_epochs=2, shuffle=False).dequeue()
    assert tf.train.batch([i], 4, allow_smaller_final_batch=True).name == "batch:0"
    # Recorded from TF: the epoch counter is a local variable.
    assert [v.name for v in tf.local_variables()] == ["input_producer/limit_epochs/epochs:0"]
    d = tf.train.batch({"a": i, "b": i}, 2)
    assert sorted(d) == ["a", "b"] and d["a"].shape.as_list() == [2]
    assert len(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)) == 3


def test_range_producer_epochs_and_smaller_final_batch():
    i = tf.train.range_input_producer(10, num_epochs=2, shuffle=False).dequeue()
    b = tf.train.batch([i], 4, allow_smaller_final_batch=True)
    with tf.Session() as sess:
        coord, threads = _start(sess)
        out = _drain(sess, b, coord, threads)
    assert [list(x) for x in out] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 0, 1], [2, 3, 4, 5], [6, 7, 8, 9]]


def test_batch_without_smaller_final_batch_drops_the_rest():
    i = tf.train.range_input_producer(10, num_epochs=1, shuffle=False).dequeue()
    b = tf.train.batch([i], 4, num_threads=1)
    with tf.Session() as sess:
        coord, threads = _start(sess)
        out = _drain(sess, b, coord, threads)
    assert [list(x) for x in out] == [[0, 1, 2, 3], [4, 5, 6, 7]]


def test_slice_producer_and_shuffle_batch_keep_pairs_and_cover_everything():
    data = np.arange(20).reshape(10, 2)
    img, lab = tf.train.slice_input_producer([tf.constant(data), tf.constant(np.arange(10))], num_epochs=1,
                                             shuffle=True, seed=1)
    bi, bl = tf.train.shuffle_batch([img, lab], 3, capacity=8, min_after_dequeue=2, seed=3,
                                    allow_smaller_final_batch=True)
    with tf.Session() as sess:
        coord, threads = _start(sess)
        out = _drain(sess, [bi, bl], coord, threads)
    labels = np.concatenate([o[1] for o in out])
    assert sorted(labels) == list(range(10))
    for x, y in out:
        np.testing.assert_array_equal(x[:, 0], 2 * y)
    with pytest.raises(ValueError, match="capacity 2 must be bigger than min_after_dequeue 2"):
        tf.train.shuffle_batch([lab], 2, capacity=2, min_after_dequeue=2)


def test_string_input_producer_and_dynamic_pad():
    s = tf.train.string_input_producer(["a", "b", "c"], num_epochs=1, shuffle=False).dequeue()
    v = tf.train.batch([tf.range(3)[:2]], 2, dynamic_pad=True)
    with tf.Session() as sess:
        coord, threads = _start(sess)
        got = _drain(sess, s, coord, threads)
        assert got == [b"a", b"b", b"c"]
    with pytest.raises(ValueError, match="non-null"):
        tf.train.string_input_producer([])
    assert v.shape.as_list() == [2, 2]


def test_closing_session_with_running_queue_runners_does_not_hang():
    i = tf.train.range_input_producer(5, shuffle=False).dequeue()
    b = tf.train.batch([i], 2, capacity=4)
    sess = tf.Session()
    coord, threads = _start(sess)
    sess.run(b)
    coord.request_stop()
    sess.close()                   # cancels the runners' blocked enqueues
    coord.join(threads, stop_grace_period_secs=5)
    assert not any(t.is_alive() for t in threads)
    assert all(t.daemon for t in threads)
    assert threading.active_count() < 50
