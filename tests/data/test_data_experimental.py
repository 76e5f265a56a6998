"""tf.data.experimental additions. Expected sequences marked "TF" were recorded from TensorFlow
2.21 (tf.compat.v1, graph mode) running the same program."""

import numpy as np
import pytest

import tensorweave as tf

R = tf.data.Dataset.range


def run(ds, n=60):
    it = tf.data.make_initializable_iterator(ds)
    nx = it.get_next()
    out = []
    with tf.Session() as s:
        s.run(it.initializer)
        try:
            for _ in range(n):
                out.append(s.run(nx))
        except tf.errors.OutOfRangeError:
            out.append("END")
        except tf.errors.OpError as e:
            out.append(type(e).__name__)
    return out


def ints(xs):
    return [x if isinstance(x, str) else int(x) for x in xs]


def test_random_dataset_stream_matches_tf():
    # TF: RandomDataset(seed=7) under the default graph seed
    assert ints(run(tf.data.experimental.RandomDataset(seed=7), 4)) == [1992159687, 3200305987, 237021325, 2601514894]
    assert ints(run(tf.data.Dataset.random(seed=4).take(2))) == [3128586565, 2023892699, "END"]


def test_sample_from_datasets_matches_tf():
    a, b = R(0, 10), R(100, 105)
    assert ints(run(tf.data.experimental.sample_from_datasets([a, b], seed=3))) == \
        [100, 101, 102, 0, 103, 104, 1, 2, 3, 4, 5, 6, 7, 8, 9, "END"]  # TF
    assert ints(run(tf.data.experimental.sample_from_datasets([a, b], weights=[0.5, 0.5], seed=5,
                                                              stop_on_empty_dataset=True))) == \
        [0, 1, 2, 100, 101, 3, 102, 103, 4, 5, 6, 104, "END"]  # TF
    assert ints(run(tf.data.Dataset.sample_from_datasets([R(10), R(100, 110)], weights=[0.3, 0.7], seed=2))) == \
        [100, 0, 101, 1, 102, 103, 2, 104, 105, 106, 3, 107, 108, 109, 4, 5, 6, 7, 8, 9, "END"]  # TF
    w = tf.data.Dataset.from_tensor_slices(tf.constant([[0.9, 0.1], [0.1, 0.9]] * 6))
    assert ints(run(tf.data.experimental.sample_from_datasets([R(10), R(100, 110)], weights=w, seed=11))) == \
        [0, 100, 1, 101, 2, 102, 3, 103, 4, 104, 5, 105, "END"]  # TF


def test_choose_from_datasets_skips_or_stops_on_empty():
    choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 1, 1, 1, 1, 1, 0, 0], tf.int64))
    a, b = R(0, 10), R(100, 105)
    assert ints(run(tf.data.experimental.choose_from_datasets([a, b], choice))) == \
        [0, 100, 101, 102, 103, 104, 1, 2, "END"]
    assert ints(run(tf.data.experimental.choose_from_datasets([a, b], choice, stop_on_empty_dataset=True))) == \
        [0, 100, 101, 102, 103, 104, "END"]
    bad = tf.data.Dataset.from_tensor_slices(tf.constant([0, 2], tf.int64))
    assert run(tf.data.experimental.choose_from_datasets([R(3), R(10, 13)], bad)) == [0, "InvalidArgumentError"]


def test_group_by_window_order_matches_tf():
    g = R(17).apply(tf.data.experimental.group_by_window(lambda x: x % 3, lambda k, w: w.batch(4), window_size=4))
    assert [list(x) if not isinstance(x, str) else x for x in run(g)] == \
        [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11], [12, 15], [13, 16], [14], "END"]  # TF
    g = R(17).group_by_window(lambda x: (5 - x) % 3, lambda k, w: w.batch(10), window_size_func=lambda k: k + 2)
    assert [list(x) if not isinstance(x, str) else x for x in run(g)] == \
        [[2, 5], [1, 4, 7], [0, 3, 6, 9], [8, 11], [10, 13, 16], [14], [12, 15], "END"]  # TF


def test_group_by_reducer():
    r = tf.data.experimental.Reducer(init_func=lambda k: tf.constant(0, tf.int64), reduce_func=lambda s, x: s + x,
                                     finalize_func=lambda s: s * 10)
    g = tf.data.Dataset.from_tensor_slices(tf.constant([5, 3, 8, 1, 5, 3, 2], tf.int64)).apply(
        tf.data.experimental.group_by_reducer(lambda x: x % 4, r))
    assert ints(run(g)) == [80, 110, 20, 60, "END"]  # TF: keys in ascending order


def test_bucket_by_sequence_length():
    ds = tf.data.Dataset.from_tensor_slices(tf.constant(
        [[1, 2, 3, 0], [4, 5, 0, 0], [6, 0, 0, 0], [7, 8, 9, 1], [1, 0, 0, 0]], tf.int32)).map(
        lambda x: x[:tf.reduce_sum(tf.cast(x > 0, tf.int32))])
    b = ds.apply(tf.data.experimental.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3], [2, 1],
                                                                padding_values=-1))
    out = run(b)
    assert [x.tolist() for x in out[:-1]] == [[[1, 2, 3]], [[4, 5], [6, -1]], [[7, 8, 9, 1]], [[1]]]
    assert out[-1] == "END"
    ds = R(12).map(lambda x: tf.fill([tf.cast(x % 5, tf.int32)], x))
    b = ds.apply(tf.data.experimental.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [2, 4], [3, 2, 2],
                                                                pad_to_bucket_boundary=True))
    out = run(b)
    assert [x.tolist() for x in out[:3]] == [[[2, 2, 0], [3, 3, 3]], [[0], [1], [0]], [[7, 7, 0], [8, 8, 8]]]  # TF


def test_cardinality_matches_tf():
    cases = {"range": (R(10), 10), "map": (R(5).map(lambda x: x + 1), -2), "filter": (R(5).filter(lambda x: x > 1), -2),
             "batch": (R(10).batch(3), 4), "batch_drop": (R(10).batch(3, drop_remainder=True), 3),
             "repeat": (R(6).repeat(), -1), "repeat_empty": (R(0).repeat(), 0), "take_inf": (R(6).repeat().take(4), 4),
             "skip_m1": (R(6).skip(-1), 0), "zip": (tf.data.Dataset.zip((R(5), R(3))), 3),
             "concat_inf": (R(5).repeat().concatenate(R(4)), -1), "shard": (R(10).shard(3, 1), 3),
             "window_drop": (R(10).window(3, 2, drop_remainder=True), 4), "counter": (tf.data.experimental.Counter(), -1),
             "map_batch": (R(10).apply(tf.data.experimental.map_and_batch(lambda x: x, 4)), 3),
             "sample_inf": (tf.data.experimental.sample_from_datasets([R(3).repeat(), R(4)], seed=1), -1),
             "assert": (R(4).filter(lambda x: True).apply(tf.data.experimental.assert_cardinality(4)), 4)}
    ts = {k: tf.data.experimental.cardinality(v) for k, (v, _) in cases.items()}
    assert ts["range"].dtype == tf.int64 and ts["range"].shape.ndims == 0
    with tf.Session() as s:
        got = s.run(ts)
        assert s.run(R(7).cardinality()) == 7
    assert {k: int(v) for k, v in got.items()} == {k: n for k, (_, n) in cases.items()}
    assert tf.data.INFINITE_CARDINALITY == -1 and tf.data.experimental.UNKNOWN_CARDINALITY == -2


def test_assert_cardinality_errors():
    assert run(R(5).apply(tf.data.experimental.assert_cardinality(3)))[-1] == "FailedPreconditionError"
    assert run(R(5).apply(tf.data.experimental.assert_cardinality(8)))[-1] == "FailedPreconditionError"
    assert ints(run(R(3).apply(tf.data.experimental.assert_cardinality(3)))) == [0, 1, 2, "END"]


def test_get_next_as_optional():
    it = tf.data.make_initializable_iterator(R(2))
    opt = tf.data.experimental.get_next_as_optional(it)
    hv, v = opt.has_value(), opt.get_value()
    with tf.Session() as sess:
        sess.run(it.initializer)
        assert [bool(sess.run(hv)) for _ in range(3)] == [True, True, False]
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(v)
    o = tf.data.experimental.Optional.from_value((tf.constant(1), tf.constant([2., 3.])))
    with tf.Session() as sess:
        h, (a, b) = sess.run([o.has_value(), o.get_value()])
    assert h and a == 1 and b.tolist() == [2.0, 3.0]


def test_csv_dataset_and_make_csv_dataset(tmp_path):
    f1, f2 = tmp_path / "f1.csv", tmp_path / "f2.csv"
    f1.write_text('a,b,c,label\n1,2.5,x,0\n3,,"y,z",1\n5,4.0,w,0\n7,1e3,"q""r",1\n9,2,v,0\n')
    f2.write_text('a,b,c,label\n11,0.5,m,1\n13,,n,0\n')
    d = tf.data.experimental.CsvDataset([str(f1), str(f2)], [tf.int32, tf.constant(-1.0), tf.string, tf.int64],
                                        header=True)
    out = run(d)
    assert [(int(a), float(b), c, int(l)) for a, b, c, l in out[:-1]] == [
        (1, 2.5, b"x", 0), (3, -1.0, b"y,z", 1), (5, 4.0, b"w", 0), (7, 1000.0, b'q"r', 1), (9, 2.0, b"v", 0),
        (11, 0.5, b"m", 1), (13, -1.0, b"n", 0)]
    assert run(tf.data.experimental.CsvDataset(str(f1), [tf.int32, tf.float32, tf.string, tf.int64], header=True))[1] \
        == "InvalidArgumentError"  # field 1 of record 2 is empty and has no default
    m = tf.data.experimental.make_csv_dataset([str(f1), str(f2)], 3, label_name="label", num_epochs=1, shuffle_seed=4)
    out = run(m)
    # TF: the same three batches, in this order
    assert [(x["a"].tolist(), x["c"].tolist(), y.tolist()) for x, y in out[:-1]] == [
        ([13, 5, 7], [b"n", b"w", b'q"r'], [0, 0, 1]), ([1, 11, 9], [b"x", b"m", b"v"], [0, 1, 0]),
        ([3], [b"y,z"], [1])]
    assert list(out[0][0].keys()) == ["a", "b", "c"]


def test_make_batched_features_dataset(tmp_path):
    for f in range(2):
        with tf.python_io.TFRecordWriter(str(tmp_path / ("r%d.tfrecord" % f))) as w:
            for i in range(5):
                ex = tf.train.Example(features=tf.train.Features(feature={
                    "x": tf.train.Feature(int64_list=tf.train.Int64List(value=[f * 10 + i]))}))
                w.write(ex.SerializeToString())
    m = tf.data.experimental.make_batched_features_dataset(str(tmp_path / "*.tfrecord"), 4,
                                                           {"x": tf.FixedLenFeature([], tf.int64)},
                                                           num_epochs=1, shuffle=False)
    out = run(m)
    assert [x["x"].tolist() for x in out[:-1]] == [[0, 1, 2, 3], [4, 10, 11, 12], [13, 14]]


def test_dense_to_sparse_batch_and_from_list():
    ds = tf.data.Dataset.from_tensor_slices(tf.constant([[1, 2, 0], [4, 0, 0]], tf.int32)).map(
        lambda x: x[:tf.reduce_sum(tf.cast(x > 0, tf.int32))])
    s = ds.apply(tf.data.experimental.dense_to_sparse_batch(2, [None]))
    v = run(s)[0]
    assert v.indices.tolist() == [[0, 0], [0, 1], [1, 0]] and v.values.tolist() == [1, 2, 4]
    assert v.dense_shape.tolist() == [2, 2]
    out = run(tf.data.experimental.from_list([(1, "a"), (2, "b")]))
    assert out[0][0].dtype == np.int32 and out[1] == (2, b"b")


def test_tfrecord_writer_and_options(tmp_path):
    fn = str(tmp_path / "w.tfrecord")
    op = tf.data.experimental.TFRecordWriter(fn).write(R(4).map(lambda x: tf.as_string(x * 3)))
    tf.Session().run(op)
    assert run(tf.data.TFRecordDataset(fn)) == [b"0", b"3", b"6", b"9", "END"]
    o = tf.data.Options()
    o.experimental_threading.private_threadpool_size = 4
    o.experimental_optimization.map_fusion = True
    d = R(3).with_options(o).map(lambda x: x * 2)
    o2 = tf.data.Options()
    o2.threading.max_intra_op_parallelism = 1
    got = d.with_options(o2).options()
    assert got.threading.private_threadpool_size == 4 and got.threading.max_intra_op_parallelism == 1
    assert got.experimental_optimization.map_fusion is True and got != o and tf.data.Options() == tf.data.Options()
    with pytest.raises(AttributeError):
        o.foo = 1
    assert ints(run(d.with_options(o2))) == [0, 2, 4, "END"]


def test_ignore_errors_skips_failing_map_elements():
    ds = R(8).map(lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x - 3, tf.float32), "bad")).apply(
        tf.data.experimental.ignore_errors())
    out = run(ds)
    assert len(out) == 8 and out[-1] == "END"  # TF: the element x == 3 is dropped
