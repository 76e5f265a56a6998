"""Session.partial_run_setup / partial_run. Messages and handles recorded from TF 2.21."""

import numpy as np
import pytest

import tensorweave as tf


def _graph():
    a = tf.placeholder(tf.float32, shape=[], name="a")
    b = tf.placeholder(tf.float32, shape=[], name="b")
    c = tf.placeholder(tf.float32, shape=[], name="c")
    r1 = tf.add(a, b)
    r2 = tf.multiply(r1, c)
    return a, b, c, r1, r2


def test_partial_run_feeds_and_fetches_in_steps():
    with tf.Graph().as_default():
        a, b, c, r1, r2 = _graph()
        with tf.Session() as sess:
            h = sess.partial_run_setup([r1, r2], [a, b, c])
            assert h == "a:0,b:0,c:0->Add:0,Mul:0//1/;0"
            res = sess.partial_run(h, r1, feed_dict={a: 1, b: 2})
            assert res == 3.0 and isinstance(res, np.float32)
            assert sess.partial_run(h, r2, feed_dict={c: res}) == 9.0
            h = sess.partial_run_setup([r1, r2], [a, b, c])
            assert h.endswith(";1")
            assert sess.partial_run(h, {"x": r1, "y": [r1]}, {a: 1, b: 5}) == {"x": 6.0, "y": [6.0]}


@pytest.mark.parametrize("calls,message", [
    ([("r2", {"a": 1, "b": 2})], "Fetch c:0 can't be computed from the feeds that have been fed so far."),
    ([("r1", {"a": 1, "b": 2}), ("r1", {"c": 2})], "The fetch Add:0 has already been fetched."),
    ([("r1", {"a": 1, "b": 2}), ("r2", {"a": 2})], "The feed a:0 has already been fed."),
])
def test_partial_run_errors(calls, message):
    with tf.Graph().as_default():
        a, b, c, r1, r2 = _graph()
        names = {"a": a, "b": b, "c": c, "r1": r1, "r2": r2}
        with tf.Session() as sess:
            h = sess.partial_run_setup([r1, r2], [a, b, c])
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                for fetch, feed in calls:
                    sess.partial_run(h, names[fetch], {names[k]: v for k, v in feed.items()})
            assert e.value.message == "Graph execution error:\n\n" + message and e.value.op is None


def test_partial_run_unknown_names_and_finished_handles():
    with tf.Graph().as_default():
        a, b, c, r1, r2 = _graph()
        with tf.Session() as sess:
            h = sess.partial_run_setup([r1], [a, b])
            with pytest.raises(tf.errors.InvalidArgumentError, match="The fetch Mul:0 was not specified in "
                                                                     "partial_run_setup."):
                sess.partial_run(h, r2, {a: 1, b: 2})
            with pytest.raises(tf.errors.InvalidArgumentError, match="The feed c:0 was not specified in "
                                                                     "partial_run_setup."):
                sess.partial_run(h, r1, {c: 1.0})
            with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2,\) for Tensor a:0, which has "
                                                 r"shape \(\)"):
                sess.partial_run(h, r1, {a: [1, 2]})
            assert sess.partial_run(h, [r1], {a: 1, b: 5}) == [6.0]
            # every feed fed and every fetch fetched: the run is over
            with pytest.raises(tf.errors.InvalidArgumentError, match="Must run 'setup' before performing partial"):
                sess.partial_run(h, [r1], {a: 1})
            with pytest.raises(tf.errors.InvalidArgumentError, match="add:0 is both fed and fetched|Add:0 is both"):
                sess.partial_run_setup([r1], [r1])
        with pytest.raises(RuntimeError, match="closed Session"):
            sess.partial_run_setup([r1], [a])


def test_partial_run_runs_each_op_once():
    # A random op feeding two fetches of one partial run is drawn once (both see the same value),
    # and a stateful op runs once: as TF's single executor per partial run does.
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [])
        b = tf.placeholder(tf.float32, [])
        r = tf.random_uniform([], seed=1)
        v = tf.Variable(0.0)
        inc = tf.assign_add(v, 1.0)
        with tf.control_dependencies([inc]):
            r3 = a * 2
        r1, r2 = a + r, b + r
        with tf.Session() as sess:
            sess.run(v.initializer)
            h = sess.partial_run_setup([r1, r2, r3], [a, b])
            x1, x3 = sess.partial_run(h, [r1, r3], {a: 0.0})
            x2 = sess.partial_run(h, r2, {b: 0.0})
            assert x1 == x2 and x3 == 0.0
            assert sess.run(v) == 1.0
