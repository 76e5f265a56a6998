"""tf.data: exact elements, OutOfRangeError at the end, seeded shuffles, re-initialization with new
feeds, map/filter tracing, background threads that end."""

import threading

import numpy as np
import pytest

import tensorweave as tf


def _all(sess, nxt, limit=1000):
    out = []
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        for _ in range(limit):
            out.append(sess.run(nxt))
    return out


def test_types_shapes_and_names():
    ds = tf.data.Dataset.from_tensor_slices((np.zeros((4, 3), np.float32), np.arange(4)))
    assert ds.output_types == (tf.float32, tf.int64)
    assert [s.as_list() for s in ds.output_shapes] == [[3], []]
    b = ds.batch(2)
    assert [s.as_list() for s in b.output_shapes] == [[None, 3], [None]]
    assert [s.as_list() for s in ds.batch(2, drop_remainder=True).output_shapes] == [[2, 3], [2]]
    x, y = b.make_one_shot_iterator().get_next()
    assert x.name == "IteratorGetNext:0" and x.shape.as_list() == [None, 3]
    d = tf.data.Dataset.from_tensors({"a": 1, "b": [1.0, 2.0]})
    assert d.output_types == {"a": tf.int32, "b": tf.float32}
    assert d.output_classes == {"a": tf.Tensor, "b": tf.Tensor}


def test_initializable_iterator_with_placeholder_and_reinit():
    x = tf.placeholder(tf.float32, [None, 2])
    ds = (tf.data.Dataset.from_tensor_slices((x, tf.range(5)))
          .map(lambda a, b: (a * 2.0, b + 1))
          .filter(lambda a, b: tf.equal(b % 2, 1))
          .batch(2))
    it = ds.make_initializable_iterator()
    a, b = it.get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="iterator has not been initialized"):
            sess.run(a)
        sess.run(it.initializer, {x: np.arange(10).reshape(5, 2)})
        out = _all(sess, [a, b])
        np.testing.assert_array_equal(out[0][0], [[0, 2], [8, 10]])
        np.testing.assert_array_equal(out[0][1], [1, 3])
        np.testing.assert_array_equal(out[1][1], [5])
        assert len(out) == 2
        sess.run(it.initializer, {x: np.ones((5, 2))})
        np.testing.assert_array_equal(sess.run(a), [[2, 2], [2, 2]])


def test_range_take_skip_repeat_concatenate_zip():
    ds = tf.data.Dataset.range(10).skip(2).take(5)
    nxt = ds.repeat(2).make_one_shot_iterator().get_next()
    c = tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 7)).make_one_shot_iterator().get_next()
    z = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(10, 20))).make_one_shot_iterator()
    zn = z.get_next()
    with tf.Session() as sess:
        assert _all(sess, nxt) == [2, 3, 4, 5, 6] * 2
        assert _all(sess, c) == [0, 1, 5, 6]
        assert [tuple(v) for v in _all(sess, zn)] == [(0, 10), (1, 11), (2, 12)]


def test_shuffle_is_deterministic_with_seed_and_reshuffles_each_epoch():
    def run():
        with tf.Graph().as_default():
            nxt = tf.data.Dataset.range(20).shuffle(5, seed=7).repeat(2).make_one_shot_iterator().get_next()
            with tf.Session() as sess:
                return _all(sess, nxt)
    a, b = run(), run()
    assert a == b
    assert sorted(a[:20]) == list(range(20)) and sorted(a[20:]) == list(range(20))
    assert a[:20] != list(range(20)) and a[:20] != a[20:]


def test_from_generator_padded_batch_and_errors():
    gen = lambda: ((i, [1.0] * i) for i in range(4))  # noqa: E731
    ds = tf.data.Dataset.from_generator(gen, (tf.int32, tf.float32), ((), (None,)))
    n = ds.padded_batch(2, ((), (None,))).make_one_shot_iterator().get_next()
    bad = tf.data.Dataset.from_generator(lambda: iter([[1, 2], [1, 2, 3]]), tf.int32, [2])
    bn = bad.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        i, v = sess.run(n)
        np.testing.assert_array_equal(i, [0, 1])
        np.testing.assert_array_equal(v, [[0.0], [1.0]])
        i, v = sess.run(n)
        np.testing.assert_array_equal(v, [[1, 1, 0], [1, 1, 1]])
        np.testing.assert_array_equal(sess.run(bn), [1, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match="yielded an element of shape"):
            sess.run(bn)


def test_batch_of_different_shapes_fails_like_tf():
    ds = tf.data.Dataset.from_generator(lambda: iter([[1], [1, 2]]), tf.int32, [None]).batch(2)
    n = ds.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot batch tensors with different shapes"):
            sess.run(n)


def test_flat_map_interleave_and_map_capturing_outer_tensor():
    scale = tf.constant(10, tf.int64)
    fm = tf.data.Dataset.range(3).flat_map(lambda i: tf.data.Dataset.from_tensors(i).repeat(i))
    il = tf.data.Dataset.range(1, 3).interleave(lambda i: tf.data.Dataset.from_tensors(i).repeat(3),
                                               cycle_length=2, block_length=2)
    m = tf.data.Dataset.range(4).map(lambda v: v * scale, num_parallel_calls=2)
    with tf.Session() as sess:
        assert _all(sess, fm.make_one_shot_iterator().get_next()) == [1, 2, 2]
        assert _all(sess, il.make_one_shot_iterator().get_next()) == [1, 1, 2, 2, 1, 2]
        assert _all(sess, m.make_one_shot_iterator().get_next()) == [0, 10, 20, 30]


def test_vectorized_map_batch_equals_elementwise():
    data = np.arange(12, dtype=np.float32).reshape(6, 2)
    ds = tf.data.Dataset.from_tensor_slices(data).map(lambda v: tf.square(v) + 1.0).batch(4)
    assert ds._inputs[0]._batched_fn is not None
    n = ds.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        out = _all(sess, n)
    np.testing.assert_allclose(np.concatenate(out), data ** 2 + 1)


def test_reinitializable_iterator_from_structure():
    train = tf.data.Dataset.range(3)
    val = tf.data.Dataset.range(10, 12)
    it = tf.data.Iterator.from_structure(train.output_types, train.output_shapes)
    n = it.get_next()
    init_train, init_val = it.make_initializer(train), it.make_initializer(val)
    with pytest.raises(TypeError):
        it.make_initializer(tf.data.Dataset.from_tensors(1.0))
    with tf.Session() as sess:
        sess.run(init_train)
        assert _all(sess, n) == [0, 1, 2]
        sess.run(init_val)
        assert _all(sess, n) == [10, 11]


def test_string_handle_switching():
    a = tf.data.Dataset.range(3).make_one_shot_iterator()
    b = tf.data.Dataset.range(100, 103).make_one_shot_iterator()
    h = tf.placeholder(tf.string, [])
    it = tf.data.Iterator.from_string_handle(h, a.output_types, a.output_shapes)
    n = it.get_next()
    with tf.Session() as sess:
        ha, hb = sess.run([a.string_handle(), b.string_handle()])
        assert sess.run(n, {h: ha}) == 0
        assert sess.run(n, {h: hb}) == 100
        assert sess.run(n, {h: ha}) == 1


def test_cache_replays_and_prefetch_threads_end():
    counter = []

    def gen():
        counter.append(1)
        yield from range(3)
    ds = tf.data.Dataset.from_generator(gen, tf.int64, []).cache().repeat(3).prefetch(2)
    n = ds.make_one_shot_iterator().get_next()
    before = threading.active_count()
    sess = tf.Session()
    assert _all(sess, n) == [0, 1, 2] * 3
    assert len(counter) == 1
    inf = tf.data.Dataset.range(5).repeat().prefetch(4).make_one_shot_iterator().get_next()
    sess.run(inf)
    sess.close()  # stops the prefetch thread of the infinite pipeline
    for t in threading.enumerate():
        if t.name == "tensorweave-prefetch":
            t.join(5)
    assert threading.active_count() <= before


def test_one_shot_iterator_refuses_placeholders():
    x = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match="placeholder"):
        tf.data.Dataset.from_tensor_slices(x).make_one_shot_iterator()
