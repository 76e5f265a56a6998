"""More stages that go on after a failed element (see test_map_errors_continue.py): cache,
padded_batch, unbatch, window, dense_to_sparse_batch, scan, shard, unique, take_while,
ignore_errors, group_by_window/reducer, assert_cardinality, parallel interleave, ragged batch.

Expected values recorded from TF 2.21 (`tensorflow.compat.v1`, v2 behaviour disabled); the input
is mapped through `check_numerics`, failing at its NaNs.
"""

import os

import numpy as np
import pytest

import tensorweave as tf

X = np.array([1., 2., np.nan, 4., 5., 6., 7.], np.float32)
X2 = np.array([1., np.nan, 3., 4., 5., 6., 7., 8., np.nan, 10.], np.float32)
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
            out.append(_py(v))
    raise AssertionError("no end of sequence")


def _py(v):
    if isinstance(v, tuple):
        return tuple(_py(c) for c in v)
    return v.tolist() if hasattr(v, "tolist") else v


def _mapped(x=X):
    return tf.data.Dataset.from_tensor_slices(x).map(_check)


SEQ = [1.0, 2.0, ERR, 4.0, 5.0, 6.0, 7.0]
REPLAY = [1.0, 2.0, 4.0, 5.0, 6.0, 7.0]


def test_cache_skips_the_failed_element_on_replay(tmp_path):
    assert _run(_mapped().cache()) == SEQ
    assert _run(_mapped().cache().repeat(2)) == SEQ + REPLAY
    assert _run(_mapped().cache(os.path.join(str(tmp_path), "c")).repeat(2)) == SEQ + REPLAY
    assert _run(_mapped().cache().take(3).repeat(2)) == [1.0, 2.0, ERR, 4.0] * 2


def test_padded_batch_drops_the_rows_before_the_error():
    assert _run(_mapped().padded_batch(2, padded_shapes=[])) == [[1.0, 2.0], ERR, [4.0, 5.0], [6.0, 7.0]]
    assert _run(_mapped().padded_batch(3)) == [ERR, [4.0, 5.0, 6.0], [7.0]]
    assert _run(_mapped().padded_batch(3, drop_remainder=True)) == [ERR, [4.0, 5.0, 6.0]]
    fill = tf.data.Dataset.from_tensor_slices(X).map(lambda v: tf.fill([tf.cast(tf.abs(_check(v)), tf.int32)], v))
    assert _run(fill.padded_batch(2, padded_shapes=[None])) == [
        [[1.0, 0.0], [2.0, 2.0]], ERR, [[4.0] * 4 + [0.0], [5.0] * 5], [[6.0] * 6 + [0.0], [7.0] * 7]]


def test_unbatch_and_rebatch():
    pairs = tf.data.Dataset.from_tensor_slices(X).map(lambda v: tf.stack([_check(v), v]))
    expected = [1.0, 1.0, 2.0, 2.0, ERR, 4.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0, 7.0]
    assert _run(pairs.unbatch()) == expected
    assert _run(pairs.apply(tf.data.experimental.unbatch())) == expected
    assert _run(_mapped().batch(2).unbatch()) == [1.0, 2.0, ERR, 5.0, 6.0, 7.0]
    assert _run(_mapped().batch(2).unbatch().batch(3)) == [ERR, [5.0, 6.0, 7.0]]
    assert _run(_mapped().batch(2).rebatch(1)) == [[1.0], [2.0], ERR, [5.0], [6.0], [7.0]]


def _windows(ds, *args, **kwargs):
    return ds.window(*args, **kwargs).flat_map(lambda w: w.batch(10))


def test_window_fails_the_windows_holding_the_error():
    assert _run(_windows(_mapped(), 3)) == [ERR, [4.0, 5.0, 6.0], [7.0]]
    assert _run(_windows(_mapped(), 3, shift=1, drop_remainder=True)) == [ERR, ERR, ERR, [4.0, 5.0, 6.0],
                                                                         [5.0, 6.0, 7.0]]
    # only the stride-th elements count; elements skipped past the buffer never fail
    assert _run(_windows(_mapped(X2), 3, shift=2, stride=2)) == [[1.0, 3.0, 5.0], [3.0, 5.0, 7.0], ERR, ERR, ERR]
    assert _run(_windows(_mapped(X2), 2, shift=4)) == [ERR, [5.0, 6.0], ERR]
    assert _run(_windows(_mapped(X2), 2, shift=3)) == [ERR, [4.0, 5.0], [7.0, 8.0], [10.0]]
    assert _run(_windows(_mapped(X2), 4, drop_remainder=True)) == [ERR, [5.0, 6.0, 7.0, 8.0]]


def test_dense_to_sparse_batch():
    ds = _mapped().map(lambda v: tf.reshape(v, [1])).apply(tf.data.experimental.dense_to_sparse_batch(2, [1]))
    out = _run(ds.map(lambda s: s.values))
    assert out == [[1.0, 2.0], ERR, [4.0, 5.0], [6.0, 7.0]]


def test_scan_keeps_its_state_over_a_failed_element():
    scan = tf.data.experimental.scan(np.float32(0), lambda s, v: (s + v, s + v))
    assert _run(_mapped().apply(scan)) == [1.0, 3.0, ERR, 7.0, 12.0, 18.0, 25.0]
    failing = tf.data.experimental.scan(np.float32(0), lambda s, v: (s + _check(v), s + v))
    assert _run(tf.data.Dataset.from_tensor_slices(X).apply(failing)) == [1.0, 3.0, ERR, 7.0, 12.0, 18.0, 25.0]
    old = tf.data.experimental.scan(np.float32(0), lambda s, v: (s + v, s))
    assert _run(_mapped().apply(old).batch(3)) == [ERR, [3.0, 7.0, 12.0], [18.0]]


def test_shard_does_not_count_a_failed_element():
    assert _run(_mapped().shard(2, 0)) == [1.0, ERR, 4.0, 6.0]
    assert _run(_mapped().shard(2, 1)) == [2.0, ERR, 5.0, 7.0]
    assert _run(_mapped(X2).shard(3, 0)) == [1.0, ERR, 5.0, 8.0, ERR]
    assert _run(_mapped(X2).shard(3, 1)) == [ERR, 3.0, 6.0, ERR, 10.0]
    assert _run(_mapped(X2).shard(3, 2)) == [ERR, 5.0, 8.0, ERR]
    assert _run(_mapped(np.array([np.nan, np.nan, 1, 2, 3, 4], np.float32)).shard(3, 2)) == [ERR, ERR, 3.0]


def test_unique_take_while_enumerate():
    ints = _mapped().map(lambda v: tf.cast(v, tf.int64))
    assert _run(ints.unique()) == [1, 2, ERR, 4, 5, 6, 7]
    assert _run(_mapped().map(lambda v: tf.cast(v, tf.int64) % 3).unique()) == [1, 2, ERR, 0]
    assert _run(_mapped().take_while(lambda v: v < 6)) == [1.0, 2.0, ERR, 4.0, 5.0]
    base = tf.data.Dataset.from_tensor_slices(X)
    assert _run(base.take_while(lambda v: _check(v) < 6)) == [1.0, 2.0, ERR, 4.0, 5.0]
    assert _run(_mapped().enumerate()) == [(0, 1.0), (1, 2.0), ERR, (3, 4.0), (4, 5.0), (5, 6.0), (6, 7.0)]


def test_ignore_errors_after_any_stage():
    ignore = tf.data.experimental.ignore_errors()
    assert _run(_mapped().filter(lambda v: True).apply(ignore)) == REPLAY
    assert _run(_mapped().batch(2).apply(ignore)) == [[1.0, 2.0], [5.0, 6.0], [7.0]]
    assert _run(tf.data.Dataset.from_tensor_slices(X).map(_check, num_parallel_calls=3).apply(ignore)) == REPLAY
    failing = tf.data.experimental.scan(np.float32(0), lambda s, v: (s + _check(v), s + v))
    assert _run(tf.data.Dataset.from_tensor_slices(X).apply(failing).apply(ignore)) == \
        [1.0, 3.0, 7.0, 12.0, 18.0, 25.0]


def test_ignore_errors_inside_reduce():
    total = _mapped().apply(tf.data.experimental.ignore_errors()).reduce(np.float32(0), lambda s, v: s + v)
    with tf.Session() as sess:
        assert sess.run(total) == 25.0
        with pytest.raises(tf.errors.InvalidArgumentError, match="Tensor had NaN values"):
            sess.run(_mapped().reduce(np.float32(0), lambda s, v: s + v))


def test_group_by_window_and_reducer():
    ints = _mapped().map(lambda v: tf.cast(v, tf.int64))
    by_parity = tf.data.experimental.group_by_window(lambda v: v % 2, lambda k, w: w.batch(5), 5)
    assert _run(ints.apply(by_parity)) == [ERR, [2, 4, 6], [1, 5, 7]]
    key_fails = tf.data.experimental.group_by_window(lambda v: tf.cast(_check(v), tf.int64) % 2,
                                                     lambda k, w: w.batch(5), 5)
    assert _run(tf.data.Dataset.from_tensor_slices(X).apply(key_fails)) == [ERR, [2.0, 4.0, 6.0], [1.0, 5.0, 7.0]]
    reducer = tf.data.experimental.Reducer(lambda k: np.int64(0), lambda s, v: s + v, lambda s: s)
    assert _run(ints.apply(tf.data.experimental.group_by_reducer(lambda v: v % 2, reducer))) == [ERR, 12, 13]


def test_assert_cardinality():
    assert _run(_mapped().apply(tf.data.experimental.assert_cardinality(6))) == REPLAY[:2] + [ERR] + REPLAY[2:]
    nxt = tf.data.make_one_shot_iterator(
        tf.data.Dataset.range(3).apply(tf.data.experimental.assert_cardinality(2))).get_next()
    with tf.Session() as sess:
        assert [sess.run(nxt) for _ in range(2)] == [0, 1]
        with pytest.raises(tf.errors.FailedPreconditionError, match="contain 2 elements but contained at least 3"):
            sess.run(nxt)
        for _ in range(2):  # the end of the input fails for good, it never ends the sequence
            with pytest.raises(tf.errors.FailedPreconditionError, match="contained only 3 elements"):
                sess.run(nxt)


def test_parallel_interleave_counts_a_failed_element_in_its_block():
    inner = lambda i: _mapped(X[:4])  # noqa: E731
    ds = tf.data.Dataset.range(2)
    assert _run(ds.interleave(inner, cycle_length=2, num_parallel_calls=2)) == \
        [1.0, 1.0, 2.0, 2.0, ERR, ERR, 4.0, 4.0]
    assert _run(ds.apply(tf.data.experimental.parallel_interleave(inner, cycle_length=2))) == \
        [1.0, 1.0, 2.0, 2.0, ERR, ERR, 4.0, 4.0]
    assert _run(ds.interleave(inner, cycle_length=2, block_length=2, num_parallel_calls=2)) == \
        [1.0, 2.0, 1.0, 2.0, ERR, 4.0, ERR, 4.0]
    takes = lambda i: _mapped(X[:4]).take(2 + i)  # noqa: E731
    assert _run(tf.data.Dataset.range(3).interleave(takes, cycle_length=2, num_parallel_calls=2)) == \
        [1.0, 1.0, 2.0, 2.0, ERR, 1.0, 4.0, 2.0, ERR, 4.0]


def test_ragged_batch_is_fused_with_its_map():
    assert _run(_mapped().apply(tf.data.experimental.dense_to_ragged_batch(2))) == \
        [[1.0, 2.0], ERR, [5.0, 6.0], [7.0]]


def test_choose_and_options_pass_it_on():
    choice = tf.data.Dataset.range(2).repeat(7)
    chosen = tf.data.experimental.choose_from_datasets([_mapped(), tf.data.Dataset.from_tensor_slices(X)], choice)
    out = _run(chosen)
    assert out[:5] == [1.0, 1.0, 2.0, 2.0, ERR] and np.isnan(out[5]) and out[6:] == [4.0, 4.0, 5.0, 5.0, 6.0, 6.0,
                                                                                     7.0, 7.0]
    assert _run(_mapped().with_options(tf.data.Options())) == SEQ
    assert _run(_mapped().apply(tf.data.experimental.copy_to_device("/cpu:0"))) == SEQ
