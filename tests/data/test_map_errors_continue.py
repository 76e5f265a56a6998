"""A per-element failure in a dataset function fails that element only: `sess.run(get_next)`
raises it and the next run goes on with the following element (the iterator is not finished).

Expected values recorded from TF 2.21 (`tensorflow.compat.v1`, v2 behaviour disabled), input
[1, 2, nan, 4, 5, 6, 7] mapped through `check_numerics` unless noted:
  map / map(num_parallel_calls) / map.prefetch: 1, 2, ERR, 4, 5, 6, 7, END
  map.repeat(2): the error in each epoch; map.batch(2): [1 2], ERR, [5 6], [7], END (a map right
  before a batch is fused: the failed batch uses its n elements; a short last batch with an error
  fails even with drop_remainder); map.filter.batch(3) on [1, nan, 3...]: ERR, [3 4 5], [6 7]
  (unfused: the rows gathered so far are dropped); filter with a failing predicate: like map;
  shuffle: the error comes at once while filling, drawing nothing; take/skip do not count it;
  zip takes the other inputs' elements too; interleave stays on the input that failed;
  from_generator raising: ERR, then END (a Python generator cannot resume).
"""

import numpy as np
import pytest

import tensorweave as tf

X = np.array([1., 2., np.nan, 4., 5., 6., 7.], np.float32)
ERR = "ERR"


def _check(v):
    return tf.debugging.check_numerics(v, "bad")


def _run(ds, n=40):
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        for _ in range(n):
            try:
                v = sess.run(nxt)
            except tf.errors.OutOfRangeError:
                return out
            except tf.errors.InvalidArgumentError:
                out.append(ERR)
                continue
            out.append(v.tolist() if hasattr(v, "tolist") else tuple(np.asarray(c).tolist() for c in v))
    raise AssertionError("no end of sequence")


def _base(x=X):
    return tf.data.Dataset.from_tensor_slices(x)


SEQ = [1.0, 2.0, ERR, 4.0, 5.0, 6.0, 7.0]


@pytest.mark.parametrize("make", [
    lambda: _base().map(_check),
    lambda: _base().map(_check, num_parallel_calls=4),
    lambda: _base().map(_check, num_parallel_calls=tf.data.experimental.AUTOTUNE),
    lambda: _base().map(_check).prefetch(2),
    lambda: _base().filter(lambda v: _check(v) > 0),
    lambda: _base().map(_check).map(lambda v: v * 1),
])
def test_failed_element_then_next(make):
    assert _run(make()) == SEQ


def test_error_message_names_the_node():
    nxt = tf.data.make_one_shot_iterator(_base().map(_check)).get_next()
    with tf.Session() as sess:
        sess.run(nxt), sess.run(nxt)
        with pytest.raises(tf.errors.InvalidArgumentError, match="bad : Tensor had NaN values") as e:
            sess.run(nxt)
        assert "CheckNumerics" in e.value.message
        assert sess.run(nxt) == 4.0


def test_repeat():
    assert _run(_base().map(_check).repeat(2)) == SEQ + SEQ


def test_py_func_and_to_number():
    def f(v):
        if np.isnan(v):
            raise ValueError("nan")
        return v
    assert _run(_base().map(lambda v: tf.py_func(f, [v], tf.float32))) == SEQ
    strings = tf.data.Dataset.from_tensor_slices(["1", "2", "x", "4"]).map(tf.strings.to_number)
    assert _run(strings) == [1.0, 2.0, ERR, 4.0]


def test_map_then_batch_fails_the_whole_batch():
    assert _run(_base().map(_check).batch(2)) == [[1.0, 2.0], ERR, [5.0, 6.0], [7.0]]
    assert _run(_base().map(_check).batch(2).prefetch(1)) == [[1.0, 2.0], ERR, [5.0, 6.0], [7.0]]
    assert _run(_base().map(_check).batch(3, drop_remainder=True)) == [ERR, [4.0, 5.0, 6.0]]
    x = np.array([1., np.nan, 3., 4., 5., 6., 7.], np.float32)
    assert _run(_base(x).map(_check).batch(3)) == [ERR, [4.0, 5.0, 6.0], [7.0]]
    assert _run(_base(x).map(_check, num_parallel_calls=3).batch(3)) == [ERR, [4.0, 5.0, 6.0], [7.0]]
    assert _run(_base(x).map(_check).map(lambda v: v * 10).batch(3)) == [ERR, [40.0, 50.0, 60.0], [70.0]]
    short = np.array([1, 2, 3, 4, np.nan], np.float32)
    assert _run(_base(short).map(_check).batch(3, drop_remainder=True)) == [[1.0, 2.0, 3.0], ERR]


def test_unfused_batch_drops_the_rows_before_the_error():
    x = np.array([1., np.nan, 3., 4., 5., 6., 7.], np.float32)
    assert _run(_base(x).map(_check).filter(lambda v: True).batch(3)) == [ERR, [3.0, 4.0, 5.0], [6.0, 7.0]]


def test_shuffle_take_skip_filter_zip():
    assert _run(_base().map(_check).shuffle(3, seed=1)) == [ERR, 2.0, 5.0, 1.0, 7.0, 4.0, 6.0]
    assert _run(_base().map(_check).take(4)) == [1.0, 2.0, ERR, 4.0, 5.0]
    assert _run(_base().map(_check).skip(1)) == [2.0, ERR, 4.0, 5.0, 6.0, 7.0]
    assert _run(_base().map(_check).filter(lambda v: v > 1)) == [2.0, ERR, 4.0, 5.0, 6.0, 7.0]
    zipped = tf.data.Dataset.zip((_base().map(_check), tf.data.Dataset.range(7)))
    assert _run(zipped) == [(1.0, 0), (2.0, 1), ERR, (4.0, 3), (5.0, 4), (6.0, 5), (7.0, 6)]


def test_flat_map_and_interleave():
    inner = lambda i: _base(X[:4]).map(_check)  # noqa: E731
    assert _run(tf.data.Dataset.range(3).flat_map(inner)) == [1.0, 2.0, ERR, 4.0] * 3
    assert _run(tf.data.Dataset.range(2).interleave(inner, cycle_length=2)) == \
        [1.0, 1.0, 2.0, 2.0, ERR, 4.0, ERR, 4.0]
    twice = lambda v: tf.data.Dataset.from_tensors(v).repeat(2)  # noqa: E731
    assert _run(_base().map(_check).flat_map(twice)) == \
        [1.0, 1.0, 2.0, 2.0, ERR, 4.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0, 7.0]
    assert _run(_base().map(_check).interleave(twice, cycle_length=2)) == \
        [1.0, 2.0, 1.0, 2.0, ERR, 4.0, 5.0, 4.0, 5.0, 6.0, 7.0, 6.0, 7.0]


def test_generator_that_raises_ends_the_iterator():
    def gen():
        for i in range(5):
            if i == 2:
                raise ValueError("boom")
            yield float(i)
    assert _run(tf.data.Dataset.from_generator(gen, tf.float32)) == [0.0, 1.0, ERR]
