"""Partitioners, PartitionedVariable (get_variable(partitioner=...)), saving/restoring it, and
embedding lookups on it with sparse updates.

Shard shapes, slice specs, names, op names, error messages and devices were recorded from
TensorFlow 2.21 (`tensorflow.compat.v1`, graph mode) with the same calls."""

import os

import numpy as np
import pytest

import tensorweave as tf

# (partitioner, full shape, dtype) -> TF's shard shapes and SaveSliceInfo specs.
RECORDED_SHARDS = [
    (lambda: tf.fixed_size_partitioner(3), [10, 4], tf.float32,
     [(4, 4), (3, 4), (3, 4)], ["10 4 0,4:0,4", "10 4 4,3:0,4", "10 4 7,3:0,4"]),
    (lambda: tf.fixed_size_partitioner(3, axis=1), [2, 7], tf.float32,
     [(2, 3), (2, 2), (2, 2)], ["2 7 0,2:0,3", "2 7 0,2:3,2", "2 7 0,2:5,2"]),
    (lambda: tf.fixed_size_partitioner(4), [3, 2], tf.float32,
     [(1, 2), (1, 2), (1, 2)], ["3 2 0,1:0,2", "3 2 1,1:0,2", "3 2 2,1:0,2"]),
    (lambda: tf.fixed_size_partitioner(1), [3, 2], tf.float32, [(3, 2)], ["3 2 0,3:0,2"]),
    (lambda: tf.min_max_variable_partitioner(max_partitions=4, min_slice_size=1024), [1000, 8], tf.float32,
     [(250, 8)] * 4, ["1000 8 0,250:0,8", "1000 8 250,250:0,8", "1000 8 500,250:0,8", "1000 8 750,250:0,8"]),
    (lambda: tf.min_max_variable_partitioner(max_partitions=100, min_slice_size=256 << 10), [100000, 16],
     tf.float32, [(4000, 16)] * 25, ["100000 16 %d,4000:0,16" % (4000 * i) for i in range(25)]),
    (lambda: tf.min_max_variable_partitioner(max_partitions=2), [10, 3], tf.float32, [(10, 3)], ["10 3 0,10:0,3"]),
    (lambda: tf.min_max_variable_partitioner(max_partitions=8, min_slice_size=64), [20, 2], tf.string,
     [(3, 2)] * 4 + [(2, 2)] * 4,
     ["20 2 0,3:0,2", "20 2 3,3:0,2", "20 2 6,3:0,2", "20 2 9,3:0,2", "20 2 12,2:0,2", "20 2 14,2:0,2",
      "20 2 16,2:0,2", "20 2 18,2:0,2"]),
    (lambda: tf.variable_axis_size_partitioner(max_shard_bytes=1000), [100, 8], tf.float32,
     [(25, 8)] * 4, ["100 8 0,25:0,8", "100 8 25,25:0,8", "100 8 50,25:0,8", "100 8 75,25:0,8"]),
    (lambda: tf.variable_axis_size_partitioner(max_shard_bytes=1000, max_shards=3), [100, 8], tf.float32,
     [(34, 8), (33, 8), (33, 8)], ["100 8 0,34:0,8", "100 8 34,33:0,8", "100 8 67,33:0,8"]),
    (lambda: tf.variable_axis_size_partitioner(max_shard_bytes=33, axis=1), [2, 40], tf.float32,
     [(2, 4)] * 10, ["2 40 0,2:%d,4" % (4 * i) for i in range(10)]),
    (lambda: tf.variable_axis_size_partitioner(max_shard_bytes=100), [30, 2], tf.string,
     [(3, 2)] * 10, ["30 2 %d,3:0,2" % (3 * i) for i in range(10)]),
]


@pytest.mark.parametrize("case", range(len(RECORDED_SHARDS)))
def test_shard_shapes_and_slice_specs_like_tf(case):
    make, shape, dtype, shapes, specs = RECORDED_SHARDS[case]
    with tf.Graph().as_default():
        pv = tf.get_variable("w", shape, dtype=dtype, partitioner=make(), initializer=tf.zeros_initializer())
        assert [tuple(p.get_shape().as_list()) for p in pv] == shapes
        assert [p.name for p in pv] == ["w/part_%d:0" % i for i in range(len(shapes))]
        assert [p._save_slice_info.spec for p in pv] == specs
        assert pv.get_partitions() == pv._get_partitions()
        assert sum(pv.get_partitions()) == len(shapes) + len(shape) - 1


def test_partitioner_argument_errors():
    with pytest.raises(ValueError, match="Both max_shard_bytes and bytes_per_string_element must be positive"):
        tf.variable_axis_size_partitioner(max_shard_bytes=0)
    with pytest.raises(ValueError, match="max_shards must be positive"):
        tf.variable_axis_size_partitioner(max_shard_bytes=10, max_shards=-1)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Shape of a new partitioned variable must be fully defined, but "
                                             "instead was <unknown>."):
            tf.get_variable("u", partitioner=tf.fixed_size_partitioner(3))
        with pytest.raises(ValueError, match="Can only slice a variable along one dimension"):
            tf.get_variable("two", [4, 4], partitioner=lambda shape, dtype: [2, 2])
        # A scalar ignores the partitioner (TF).
        assert tf.get_variable("scalar", [], partitioner=tf.fixed_size_partitioner(2)).name == "scalar:0"


def test_partitioned_variable_like_tf():
    g = tf.Graph()
    with g.as_default():
        seen = []

        def init(shape, dtype=None, partition_info=None):
            seen.append((shape, partition_info.full_shape, partition_info.var_offset))
            return tf.ones(shape, dtype)
        with tf.variable_scope("s", partitioner=tf.fixed_size_partitioner(2)):
            v = tf.get_variable("w", [5, 3], initializer=init)
        assert seen == [([3, 3], [5, 3], [0, 0]), ([2, 3], [5, 3], [3, 0])]
        assert isinstance(v, tf.PartitionedVariable)
        assert (len(v), v.name, v.get_shape().as_list(), v.dtype) == (2, "s/w", [5, 3], tf.float32)
        assert [p.name for p in v] == [p.name for p in v.get_variable_list()] == ["s/w/part_0:0", "s/w/part_1:0"]
        assert v._get_partitions() == [2, 1]
        t = tf.convert_to_tensor(v)
        assert (t.name, t.op.type, t.shape.as_list()) == ("s/w:0", "Identity", [5, 3])
        assert [x.name for x in tf.global_variables()] == [x.name for x in tf.trainable_variables()] \
            == ["s/w/part_0:0", "s/w/part_1:0"]
        assert [op.name for op in g.get_operations()] == [
            "s/w/part_0/Initializer/ones", "s/w/part_0", "s/w/part_0/Assign", "s/w/part_0/read",
            "s/w/part_1/Initializer/ones", "s/w/part_1", "s/w/part_1/Assign", "s/w/part_1/read",
            "s/w/ConcatPartitions/concat/axis", "s/w/ConcatPartitions/concat", "s/w"]
        with tf.variable_scope("s", reuse=True):
            assert tf.get_variable("w", [5, 3]) is v
        with pytest.raises(ValueError, match="No partitioner was provided, but a partitioned version of the "
                                             "variable was found: s/w/part_0"):
            with tf.variable_scope("s"):
                tf.get_variable("w", [5, 3])
        with pytest.raises(ValueError, match=r"Trying to reuse partitioned variable s/w, but specified partitions "
                                             r"\[3, 1\] and found partitions \[2, 1\]"):
            with tf.variable_scope("s", reuse=True):
                tf.get_variable("w", [5, 3], partitioner=tf.fixed_size_partitioner(3))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(t), np.ones((5, 3), np.float32))


def test_values_from_a_full_initial_tensor_are_sliced():
    full = np.arange(21, dtype=np.float32).reshape(7, 3)
    with tf.Graph().as_default():
        pv = tf.get_variable("w", initializer=tf.constant(full), partitioner=tf.fixed_size_partitioner(3))
        assert [p.get_shape().as_list() for p in pv] == [[3, 3], [2, 3], [2, 3]]
        assign = pv.assign(full * 2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            parts = sess.run(list(pv))
            np.testing.assert_array_equal(np.concatenate(parts), full)
            np.testing.assert_array_equal(parts[1], full[3:5])
            sess.run(assign)
            np.testing.assert_array_equal(sess.run(pv.as_tensor()), full * 2)


def test_save_restore_round_trip(tmp_path):
    rng = np.random.RandomState(0)
    value = rng.rand(11, 4).astype(np.float32)
    with tf.Graph().as_default():
        pv = tf.get_variable("emb", [11, 4], partitioner=tf.fixed_size_partitioner(3),
                             initializer=tf.zeros_initializer())
        other = tf.get_variable("other", [2], initializer=tf.ones_initializer())
        set_value = pv.assign(value)
        saver = tf.train.Saver()
        saver_dict = tf.train.Saver({"emb": pv, "other": other})
        saver_list = tf.train.Saver([pv])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(set_value)
            path = saver.save(sess, os.path.join(str(tmp_path), "model"))
            path2 = saver_dict.save(sess, os.path.join(str(tmp_path), "model_dict"))
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(pv.as_tensor()), np.zeros((11, 4), np.float32))
            saver_list.restore(sess, path)
            np.testing.assert_array_equal(sess.run(pv.as_tensor()), value)
            sess.run(tf.global_variables_initializer())
            saver_dict.restore(sess, path2)
            np.testing.assert_array_equal(sess.run(pv.as_tensor()), value)
    # On disk, as TensorFlow 2.21 writes it: one full "emb" tensor (TF stores the shards as slices
    # of it), so list_variables/load_variable see the whole variable.
    names = dict(tf.train.list_variables(path))
    assert names == {"emb": [11, 4], "other": [2]}
    assert dict(tf.train.list_variables(path2)) == names
    np.testing.assert_array_equal(tf.train.load_variable(path, "emb"), value)


# Devices recorded from TF for this graph (3 ps tasks, div strategy).
RECORDED_DEVICES = {
    "emb/part_0": "/job:ps/task:0", "emb/part_1": "/job:ps/task:1", "emb/part_2": "/job:ps/task:2",
    "w": "/job:ps/task:0",
    "embedding_lookup/GatherV2": "/job:ps/task:0", "embedding_lookup/GatherV2_1": "/job:ps/task:1",
    "embedding_lookup/GatherV2_2": "/job:ps/task:2",
    "gradients/embedding_lookup_grad/GatherV2": "/job:worker/task:0",
    "gradients/embedding_lookup_grad/GatherV2_1": "/job:worker/task:0",
    "gradients/embedding_lookup_grad/GatherV2_2": "/job:worker/task:0",
    "GradientDescent/update_emb/part_0/mul": "/job:ps/task:0",
    "GradientDescent/update_emb/part_0/ScatterSub": "/job:ps/task:0",
    "GradientDescent/update_emb/part_1/mul": "/job:ps/task:1",
    "GradientDescent/update_emb/part_1/ScatterSub": "/job:ps/task:1",
    "GradientDescent/update_emb/part_2/mul": "/job:ps/task:2",
    "GradientDescent/update_emb/part_2/ScatterSub": "/job:ps/task:2",
    "GradientDescent/update_w/ApplyGradientDescent": "/job:ps/task:0",
}


def test_shards_gathers_and_sparse_updates_placed_on_ps_tasks_like_tf():
    g = tf.Graph()
    with g.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=3, worker_device="/job:worker/task:0")):
            emb = tf.get_variable("emb", [10, 4], partitioner=tf.fixed_size_partitioner(3),
                                  initializer=tf.zeros_initializer())
            w = tf.get_variable("w", [4, 2])
            ids = tf.placeholder(tf.int64, [None])
            x = tf.nn.embedding_lookup(emb, ids, partition_strategy="div")
            loss = tf.reduce_sum(tf.matmul(x, w))
            tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    devices = {op.name: op.device for op in g.get_operations() if op.name in RECORDED_DEVICES}
    assert devices == RECORDED_DEVICES


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_embedding_lookup_on_partitioned_variable_updates_sparsely(strategy):
    rng = np.random.RandomState(1)
    table = rng.rand(13, 3).astype(np.float32)
    with tf.Graph().as_default():
        emb = tf.get_variable("emb", initializer=tf.constant(table), partitioner=tf.fixed_size_partitioner(4))
        ids = tf.constant([5, 0, 12, 5], tf.int64)
        looked = tf.nn.embedding_lookup(emb, ids, partition_strategy=strategy)
        loss = tf.reduce_sum(looked * looked)
        opt = tf.train.GradientDescentOptimizer(0.5)
        grads = opt.compute_gradients(loss, var_list=list(emb))
        assert all(isinstance(gv[0], tf.IndexedSlices) for gv in grads)
        train = opt.apply_gradients(grads)
        types = {op.type for op in tf.get_default_graph().get_operations() if op.name.startswith("GradientDescent")}
        assert "ScatterSub" in types and "ApplyGradientDescent" not in types
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            # The initial table is sliced contiguously (shards of 4, 3, 3, 3 rows); an id's row in
            # it depends on the strategy: "div" keeps id order, "mod" puts id i at row i // 4 of
            # shard i % 4.
            offsets = [0, 4, 7, 10]
            rows = [i if strategy == "div" else offsets[i % 4] + i // 4 for i in (5, 0, 12, 5)]
            np.testing.assert_array_equal(sess.run(looked), table[rows])
            sess.run(train)
            after = sess.run(emb.as_tensor())
    expected = table.copy()
    counts = np.bincount(rows, minlength=13).astype(np.float32)
    expected -= 0.5 * 2 * table * counts[:, None]
    touched = counts > 0
    np.testing.assert_allclose(after[touched], expected[touched], rtol=1e-6)
    # Untouched rows are bit-identical.
    assert after[~touched].tobytes() == table[~touched].tobytes()


def test_slots_of_a_partitioned_variable_save_as_one_tensor(tmp_path):
    # Recorded from TF 2.21: list_variables after an Adam step on a 3-way partitioned embedding
    # shows the slots as whole tensors ("emb/E/Adam", "emb/E/Adam_1"), not per shard.
    with tf.Graph().as_default():
        with tf.variable_scope("emb", partitioner=tf.fixed_size_partitioner(3)):
            e = tf.get_variable("E", [10, 4], initializer=tf.ones_initializer())
        loss = tf.reduce_sum(tf.nn.embedding_lookup(e, [0, 4, 9]))
        opt = tf.train.AdamOptimizer(0.1)
        train = opt.minimize(loss)
        m1 = opt.get_slot(list(e)[1], "m")
        assert m1.name == "emb/E/part_1/Adam:0"
        assert (m1._save_slice_info.full_name, m1._save_slice_info.var_offset) == ("emb/E/Adam", [4, 0])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            path = tf.train.Saver().save(sess, str(tmp_path / "m"))
            want = sess.run(tf.concat([opt.get_slot(p, "m") for p in e], 0))
    names = dict(tf.train.list_variables(path))
    assert names["emb/E/Adam"] == [10, 4] and names["emb/E/Adam_1"] == [10, 4]
    assert not any("part_" in n for n in names)
    np.testing.assert_array_equal(tf.train.load_variable(path, "emb/E/Adam"), want)
