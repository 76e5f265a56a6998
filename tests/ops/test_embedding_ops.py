"""embedding_lookup (one tensor, shards with TF's "mod"/"div" assignment, max_norm),
embedding_lookup_sparse, dynamic_partition/stitch: values vs NumPy, gradients (sparse
IndexedSlices; finite differences), sparse optimizer updates, and TF's names and values (recorded
from real TensorFlow 2.21 compat.v1)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_gradients, check_op

# TF's assignment of ids 0..N-1 to shards of the given sizes: shard k's row r is reported as
# 100 * k + r (recorded from TensorFlow).
TF_ASSIGNMENT = {
    (4, 3, 3): {"mod": [0, 100, 200, 1, 101, 201, 2, 102, 202, 3],
                "div": [0, 1, 2, 3, 100, 101, 102, 200, 201, 202]},
    (3, 3, 3): {"mod": [0, 100, 200, 1, 101, 201, 2, 102, 202],
                "div": [0, 1, 2, 100, 101, 102, 200, 201, 202]},
    (2, 2): {"mod": [0, 100, 1, 101], "div": [0, 1, 100, 101]},
    (5, 4, 4, 4): {"mod": [0, 100, 200, 300, 1, 101, 201, 301, 2, 102, 202, 302, 3, 103, 203, 303, 4],
                   "div": [0, 1, 2, 3, 4, 100, 101, 102, 103, 200, 201, 202, 203, 300, 301, 302, 303]},
}


@pytest.mark.parametrize("sizes", sorted(TF_ASSIGNMENT))
@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_partition_strategies_match_tf(sizes, strategy):
    shards = [tf.constant((np.arange(s) + 100 * k).astype(np.float32).reshape(-1, 1)) for k, s in enumerate(sizes)]
    ids = tf.constant(np.arange(sum(sizes)).reshape(1, -1))
    out = tf.nn.embedding_lookup(shards, ids, partition_strategy=strategy)
    assert out.name == "embedding_lookup/Reshape_1:0"
    assert out.shape.as_list() == [1, sum(sizes), 1]
    with tf.Session() as sess:
        got = sess.run(out).ravel().astype(int).tolist()
    assert got == TF_ASSIGNMENT[sizes][strategy]


def test_partition_strategy_with_unknown_shard_sizes():
    # div with shard sizes only known at run time (sum computed in the graph)
    phs = [tf.placeholder(tf.float32, [None, 1]) for _ in range(3)]
    out = tf.nn.embedding_lookup(phs, tf.constant(np.arange(10)), partition_strategy="div")
    feed = {p: (np.arange(s) + 100 * k).astype(np.float32).reshape(-1, 1) for k, (p, s) in
            enumerate(zip(phs, (4, 3, 3)))}
    with tf.Session() as sess:
        assert sess.run(out, feed).ravel().astype(int).tolist() == TF_ASSIGNMENT[(4, 3, 3)]["div"]
    with pytest.raises(ValueError, match="Unrecognized partition strategy"):
        tf.nn.embedding_lookup(phs, [0], partition_strategy="foo")
    with pytest.raises(ValueError, match="Need at least one param"):
        tf.nn.embedding_lookup([], [0])


def test_single_param_names_values_and_sparse_gradient():
    p = tf.Variable(np.arange(20, dtype=np.float32).reshape(10, 2), name="emb")
    e = tf.nn.embedding_lookup(p, tf.constant([1, 3, 3]))
    types = [(o.type, o.name) for o in tf.get_default_graph().get_operations() if o.name.startswith("embedding")]
    # Recorded from TF
    assert e.name == "embedding_lookup/Identity:0"
    assert types == [("Const", "embedding_lookup/axis"), ("GatherV2", "embedding_lookup"),
                     ("Identity", "embedding_lookup/Identity")]
    g = tf.gradients(tf.reduce_sum(e), [p])[0]
    assert isinstance(g, tf.IndexedSlices)
    e2 = tf.nn.embedding_lookup(p, tf.constant([1, 3, 3]), max_norm=1.0)
    assert e2.name == "embedding_lookup_1/Identity:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(e), [[2, 3], [6, 7], [6, 7]])
        gv = sess.run(g)
        np.testing.assert_array_equal(gv.indices, [1, 3, 3])
        # Recorded from TF (max_norm=1.0)
        np.testing.assert_allclose(sess.run(e2), [[0.5547002, 0.8320503], [0.65079135, 0.7592566],
                                                  [0.65079135, 0.7592566]], rtol=1e-6)


def test_sharded_names_and_sparse_gradients():
    shards = [tf.Variable(tf.ones([3, 2]), name="s%d" % i) for i in range(2)]
    r = tf.nn.embedding_lookup(shards, tf.constant([[0, 5], [2, 3]]), partition_strategy="div")
    assert r.name == "embedding_lookup/Reshape_1:0" and r.shape.as_list() == [2, 2, 2]
    types = {o.type for o in tf.get_default_graph().get_operations() if o.name.startswith("embedding")}
    assert {"DynamicPartition", "ParallelDynamicStitch", "GatherV2"} <= types
    grads = tf.gradients(r, shards)
    assert all(isinstance(g, tf.IndexedSlices) for g in grads)


@pytest.mark.parametrize("strategy", ["mod", "div"])
def test_sharded_gradient_finite_differences(strategy):
    rng = np.random.RandomState(0)
    a, b = rng.standard_normal((3, 2)), rng.standard_normal((2, 2))
    ids = np.array([[0, 4, 2], [3, 3, 1]])
    check_gradients(lambda x, y: tf.nn.embedding_lookup([x, y], ids, partition_strategy=strategy), [a, b])
    check_gradients(lambda x: tf.nn.embedding_lookup(x, ids, max_norm=0.5), [rng.standard_normal((5, 3))])


def test_sharded_values_vs_numpy():
    rng = np.random.RandomState(1)
    table = rng.standard_normal((11, 3)).astype(np.float32)
    ids = rng.randint(0, 11, size=(4, 5))
    # "div" over 3 shards of sizes 4, 4, 3 holds the table's rows in order
    check_op(lambda t0, t1, t2: tf.nn.embedding_lookup([t0, t1, t2], ids, partition_strategy="div"),
             [table[:4], table[4:8], table[8:]], table[ids])
    # "mod": shard k holds rows k, k + 3, ...
    check_op(lambda t0, t1, t2: tf.nn.embedding_lookup([t0, t1, t2], ids),
             [table[0::3], table[1::3], table[2::3]], table[ids])


def test_sparse_update_touches_only_looked_up_rows():
    init = np.arange(40, dtype=np.float32).reshape(10, 4)
    emb = tf.Variable(init, name="emb")
    ids = tf.placeholder(tf.int32, [None])
    loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, ids)))
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {ids: [2, 7, 7]})
        after = sess.run(emb)
    changed = np.nonzero(np.any(after != init, axis=1))[0].tolist()
    assert changed == [2, 7]
    np.testing.assert_allclose(after[2], init[2] - 0.1 * 2 * init[2], rtol=1e-6)
    np.testing.assert_allclose(after[7], init[7] - 0.1 * 2 * 2 * init[7], rtol=1e-6)   # duplicates add


def test_dynamic_partition_and_stitch():
    data = np.arange(10, dtype=np.float32).reshape(5, 2)
    parts = np.array([1, 0, 1, 2, 0], np.int32)
    outs = tf.dynamic_partition(data, parts, 3)
    with tf.Session() as sess:
        got = sess.run(outs)
    for k in range(3):
        np.testing.assert_array_equal(got[k], data[parts == k])
    check_op(lambda a, b: tf.dynamic_stitch([[0, 2], [1, 3]], [a, b]),
             [np.array([[1.0], [2.0]], np.float32), np.array([[3.0], [4.0]], np.float32)],
             np.array([[1], [3], [2], [4]], np.float32))
    check_gradients(lambda d: tf.dynamic_partition(d, parts, 3)[0] * 2.0, [data.astype(np.float64)])
    check_gradients(lambda a, b: tf.dynamic_stitch([[0, 2], [1, 3]], [a, b]),
                    [np.ones((2, 1)), np.ones((2, 1)) * 2])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="is not in"):
            sess.run(tf.dynamic_partition(data, [0, 1, 2, 3, 0], 3))


def _sparse_ids():
    ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([1, 3, 1], tf.int64), [3, 2])
    w = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1.0, 2.0, 0.5], [3, 2])
    return ids, w


# Recorded from TF for params = arange(10).reshape(5, 2): (without weights, with weights)
TF_SPARSE = {"mean": ([[4, 5], [0, 0], [2, 3]], [[4.6666665, 5.6666665], [0, 0], [2, 3]]),
             "sqrtn": ([[5.656854, 7.071068], [0, 0], [2, 3]], [[6.26099, 7.602631], [0, 0], [2, 3]]),
             "sum": ([[8, 10], [0, 0], [2, 3]], [[14, 17], [0, 0], [1, 1.5]])}


@pytest.mark.parametrize("combiner", ["mean", "sqrtn", "sum"])
def test_embedding_lookup_sparse_matches_tf(combiner):
    ids, w = _sparse_ids()
    params = tf.constant(np.arange(10, dtype=np.float32).reshape(5, 2))
    r1 = tf.nn.embedding_lookup_sparse(params, ids, None, combiner=combiner)
    r2 = tf.nn.embedding_lookup_sparse(params, ids, w, combiner=combiner)
    assert (r1.name, r2.name) == ("embedding_lookup_sparse:0", "embedding_lookup_sparse_1:0")
    assert r1.shape.as_list() == [None, 2]
    with tf.Session() as sess:
        v1, v2 = sess.run([r1, r2])
    np.testing.assert_allclose(v1, TF_SPARSE[combiner][0], rtol=1e-6)
    np.testing.assert_allclose(v2, TF_SPARSE[combiner][1], rtol=1e-6)


@pytest.mark.parametrize("combiner", ["mean", "sqrtn", "sum"])
def test_embedding_lookup_sparse_gradients(combiner):
    rng = np.random.RandomState(2)

    def build(p, wv):
        ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 2]], tf.constant([1, 3, 1, 0], tf.int64), [2, 3])
        w = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 2]], wv, [2, 3])
        return tf.nn.embedding_lookup_sparse([p[:2], p[2:]], ids, w, combiner=combiner) + \
            tf.nn.embedding_lookup_sparse(p, ids, None, combiner=combiner)
    check_gradients(build, [rng.standard_normal((4, 3)), rng.uniform(0.5, 2.0, 4)])
    ids, _ = _sparse_ids()
    p = tf.Variable(tf.ones([5, 2]))
    g = tf.gradients(tf.nn.embedding_lookup_sparse(p, ids, None, combiner=combiner), p)[0]
    assert isinstance(g, tf.IndexedSlices)


def test_embedding_lookup_sparse_errors():
    ids, w = _sparse_ids()
    params = tf.ones([5, 2])
    with pytest.raises(ValueError, match="combiner must be one of 'mean', 'sqrtn' or 'sum', got max"):
        tf.nn.embedding_lookup_sparse(params, ids, None, combiner="max")
    with pytest.raises(TypeError, match="sp_ids must be SparseTensor"):
        tf.nn.embedding_lookup_sparse(params, tf.constant([1]), None)
    with pytest.raises(TypeError, match="sp_weights must be either None or SparseTensor"):
        tf.nn.embedding_lookup_sparse(params, ids, tf.constant([1.0]))


def test_partitioned_variable_lookup():
    with tf.variable_scope("e", partitioner=tf.fixed_size_partitioner(3)):
        v = tf.get_variable("emb", [10, 2])
    ids = [0, 4, 9, 3]
    e = tf.nn.embedding_lookup(v, ids, partition_strategy="div")
    assert all(isinstance(g, tf.IndexedSlices) for g in tf.gradients(tf.reduce_sum(e), list(v)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        full = np.concatenate(sess.run(list(v)))     # shards of 4, 3, 3 rows: TF's "div" layout
        np.testing.assert_array_equal(sess.run(e), full[ids])
