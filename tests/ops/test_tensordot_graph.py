"""tf.tensordot (and so tf.layers.dense on rank > 2 inputs) builds TF's graph: with dimensions
unknown to the graph, Shape/Gather/Prod ops compute the matrix shapes around one MatMul. Names,
types, static shapes and the values' digests were recorded from TF 2.21 (tensorflow.compat.v1,
TF_USE_LEGACY_KERAS=1) for this program; the MatMul then adds in TF's order (an Einsum did not).
"""

import hashlib

import numpy as np

import tensorweave as tf

DENSE_OPS = [
    ("dense/Tensordot/axes", "Const"), ("dense/Tensordot/free", "Const"),
    ("dense/Tensordot/Shape", "Shape"), ("dense/Tensordot/GatherV2/axis", "Const"),
    ("dense/Tensordot/GatherV2", "GatherV2"), ("dense/Tensordot/GatherV2_1/axis", "Const"),
    ("dense/Tensordot/GatherV2_1", "GatherV2"), ("dense/Tensordot/Const", "Const"),
    ("dense/Tensordot/Prod", "Prod"), ("dense/Tensordot/Const_1", "Const"),
    ("dense/Tensordot/Prod_1", "Prod"), ("dense/Tensordot/concat/axis", "Const"),
    ("dense/Tensordot/concat", "ConcatV2"), ("dense/Tensordot/stack", "Pack"),
    ("dense/Tensordot/transpose", "Transpose"), ("dense/Tensordot/Reshape", "Reshape"),
    ("dense/Tensordot/MatMul", "MatMul"), ("dense/Tensordot/Const_2", "Const"),
    ("dense/Tensordot/concat_1/axis", "Const"), ("dense/Tensordot/concat_1", "ConcatV2"),
    ("dense/Tensordot", "Reshape")]
SHAPES = ("(?, ?, 10)", "(?, ?, 3)", "(2, 3, ?)")
DIGESTS = ["f587e6fc", "3c882ff3", "15008e58", "272d8ebc"]


def test_tensordot_graph_and_values_as_tf():
    with tf.Graph().as_default() as g:
        tf.set_random_seed(1)
        X = np.random.RandomState(0).randn(5, 6, 6).astype(np.float32)
        x = tf.placeholder(tf.float32, [None, None, 6])
        y = tf.layers.dense(x, 10)
        z = tf.tensordot(x, tf.ones([6, 3]), 1)
        w = tf.tensordot(tf.ones([2, 3, 6]), x[0], [[2], [1]])
        assert tuple(str(t.shape) for t in (y, z, w)) == SHAPES
        assert (z.name, w.name) == ("Tensordot:0", "Tensordot_1:0")
        assert [(op.name, op.type) for op in g.get_operations()
                if op.name.startswith("dense/Tensordot")] == DENSE_OPS
        grad = tf.gradients(tf.reduce_sum(y), x)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            vals = sess.run([y, z, w, grad], {x: X})
    assert [hashlib.sha256(v.tobytes()).hexdigest()[:8] for v in vals] == DIGESTS


def test_fully_defined_shapes_need_no_shape_ops():
    with tf.Graph().as_default() as g:
        a = tf.ones([2, 3, 4])
        b = tf.ones([4, 5])
        c = tf.tensordot(a, b, 1)
        assert c.shape.as_list() == [2, 3, 5]
        assert not [op for op in g.get_operations() if op.type in ("Shape", "GatherV2", "Prod")]
        with tf.Session() as sess:
            assert (sess.run(c) == 4).all()
