"""tf.variable_scope / tf.get_variable: names, reuse semantics, defaults, errors.

Names and messages recorded from TensorFlow 2.21 (tf.compat.v1)."""

import numpy as np
import pytest

import tensorweave as tf


def test_basic_names_and_default_initializer():
    with tf.variable_scope("foo") as sc:
        v = tf.get_variable("v", [2, 3])
        assert (v.name, sc.name, sc.original_name_scope, sc.reuse) == ("foo/v:0", "foo", "foo/", False)
        assert tf.constant(1.0).name == "foo/Const:0"
    assert [o.name for o in tf.get_default_graph().get_operations()][:10] == [
        "foo/v/Initializer/random_uniform/shape", "foo/v/Initializer/random_uniform/min",
        "foo/v/Initializer/random_uniform/max", "foo/v/Initializer/random_uniform/RandomUniform",
        "foo/v/Initializer/random_uniform/sub", "foo/v/Initializer/random_uniform/mul",
        "foo/v/Initializer/random_uniform", "foo/v", "foo/v/Assign", "foo/v/read"]
    i = tf.get_variable("ints", [2], dtype=tf.int32)
    assert i.initial_value.name == "ints/Initializer/zeros:0"
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        val = sess.run(v)
        assert np.abs(val).max() <= np.sqrt(6.0 / 5) and val.dtype == np.float32
        np.testing.assert_array_equal(sess.run(i), [0, 0])


def test_reuse_and_errors():
    with tf.variable_scope("foo") as sc:
        v = tf.get_variable("v", [2, 3])
    with tf.variable_scope("foo"):
        with pytest.raises(ValueError, match=r"Variable foo/v already exists, disallowed. Did you mean to set "
                                             r"reuse=True or reuse=tf.AUTO_REUSE in VarScope\? Originally "
                                             r"defined at:"):
            tf.get_variable("v", [2, 3])
        assert tf.constant(1.0).name == "foo_1/Const:0"
    with tf.variable_scope("foo", reuse=True):
        assert tf.get_variable("v", [2, 3]) is v
        assert tf.get_variable("v") is v
        with pytest.raises(ValueError, match=r"Trying to share variable foo/v, but specified shape \(2, 4\) "
                                             r"and found shape \(2, 3\)."):
            tf.get_variable("v", [2, 4])
        with pytest.raises(ValueError, match="Trying to share variable foo/v, but specified dtype float64 and "
                                             "found dtype float32_ref."):
            tf.get_variable("v", [2, 3], dtype=tf.float64)
        with pytest.raises(ValueError, match=r"Variable foo/w does not exist, or was not created with "
                                             r"tf.get_variable\(\). Did you mean to set reuse=tf.AUTO_REUSE"):
            tf.get_variable("w", [2, 3])
        with tf.variable_scope("bar", reuse=False):
            assert tf.get_variable_scope().reuse is True  # reuse is inherited
    with tf.variable_scope(sc, reuse=True):
        assert tf.get_variable("v") is v
    with tf.variable_scope("foo") as sc2:
        sc2.reuse_variables()
        assert tf.get_variable("v") is v
    with pytest.raises(ValueError, match="The reuse parameter must be True or False or None."):
        tf.variable_scope("x", reuse="yes")
    with pytest.raises(TypeError, match="If default_name is None then name_or_scope is required"):
        tf.variable_scope(None)


def test_auto_reuse():
    with tf.variable_scope("auto", reuse=tf.AUTO_REUSE):
        a = tf.get_variable("a", [1])
        assert tf.get_variable("a", [1]) is a
        assert tf.get_variable_scope().reuse is tf.AUTO_REUSE
    for _ in range(2):
        with tf.variable_scope("layer", reuse=tf.AUTO_REUSE):
            w = tf.get_variable("w", [3])
    assert len([x for x in tf.global_variables() if x.name == "layer/w:0"]) == 1 and w.name == "layer/w:0"


def test_scope_reentry_and_nesting():
    with tf.variable_scope("foo") as sc:
        pass
    with tf.variable_scope(sc):
        assert tf.constant(1.0).name == "foo_1/Const:0" and tf.get_variable_scope().name == "foo"
    for expected in ("dflt/z:0", "dflt_1/z:0"):
        with tf.variable_scope(None, default_name="dflt"):
            assert tf.get_variable("z", [1]).name == expected
    with tf.variable_scope("outer"):
        with tf.variable_scope("inner"):
            assert tf.get_variable("q", [1]).name == "outer/inner/q:0"
            assert tf.get_variable_scope().name == "outer/inner"
        with tf.variable_scope(sc) as sc2:
            assert sc2.name == "foo"
            assert tf.constant(1.0).name == "outer/foo/Const:0"
            assert tf.get_variable("v2", [1]).name == "foo/v2:0"
        with tf.name_scope("ns"):  # get_variable ignores name scopes, tf.Variable does not
            assert tf.get_variable("r", [1]).name == "outer/r:0"
            assert tf.Variable(1.0, name="rr").name == "outer/ns/rr:0"
    with tf.variable_scope("foo"):
        with tf.variable_scope("foo"):
            assert tf.get_variable("v", [1]).name == "foo/foo/v:0"
    with tf.variable_scope("abc", auxiliary_name_scope=False) as s:
        assert s.original_name_scope == "" and tf.constant(0).name == "Const:0"
        assert tf.get_variable("x", [1]).name == "abc/x:0"


def test_scope_defaults():
    with tf.variable_scope("ini", initializer=tf.constant_initializer(3.0), dtype=tf.float64):
        q = tf.get_variable("q", [2])
        assert q.dtype == tf.float64_ref and q.initial_value.name == "ini/q/Initializer/Const:0"
    c = tf.get_variable("cv", initializer=tf.constant([1.0, 2.0]))
    assert c.shape.as_list() == [2] and c.initial_value.name == "Const:0"
    c2 = tf.get_variable("cv2", initializer=[1.0, 2.0])
    assert c2.initial_value.name == "cv2/initial_value:0"
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        tf.get_variable("cv3", [3], initializer=tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="Variable noshape did not get an initializer, so its `shape` "
                                         "argument must be specified."):
        tf.get_variable("noshape")
    nt = tf.get_variable("nt", [1], trainable=False)
    assert nt not in tf.trainable_variables() and nt in tf.global_variables()
    lc = tf.get_variable("lc", [1], collections=[tf.GraphKeys.LOCAL_VARIABLES])
    assert lc in tf.local_variables() and lc not in tf.global_variables() and lc in tf.trainable_variables()
    loc = tf.get_local_variable("loc", [1])
    assert loc in tf.local_variables() and loc not in tf.trainable_variables()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(q), [3.0, 3.0])


def test_regularizers_and_custom_getters():
    r = tf.get_variable("reg", [2], initializer=tf.ones_initializer(), regularizer=lambda w: tf.reduce_sum(w))
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 1 and losses[0].op.name.startswith("reg/Regularizer/")
    with tf.variable_scope("rs", regularizer=lambda w: tf.reduce_sum(w) * 2.0):
        tf.get_variable("reg", [2], initializer=tf.ones_initializer())
    assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)[-1].name == "rs/reg/Regularizer/mul:0"
    with tf.variable_scope("cg", custom_getter=lambda getter, name, *a, **k: getter(name + "_c", *a, **k)):
        assert tf.get_variable("g", [1]).name == "cg/g_c:0"
        with tf.variable_scope("in", custom_getter=lambda getter, name, *a, **k: getter(name + "_d", *a, **k)):
            assert tf.get_variable("g", [1]).name == "cg/in/g_d_c:0"  # inner getter runs first
    with tf.Session() as sess:
        sess.run(r.initializer)
        assert sess.run(losses[0]) == 2.0


def test_partitioner_makes_shards():
    # Partitioned variables are tested in tests/train/test_partitioned_variables.py.
    pv = tf.get_variable("part", [4], partitioner=lambda shape, dtype: [2])
    assert [v.name for v in pv] == ["part/part_0:0", "part/part_1:0"]


def test_variable_scope_collections():
    with tf.variable_scope("a") as sc:
        w = tf.get_variable("w", [1])
        b = tf.get_variable("b", [1], trainable=False)
    tf.get_variable("ab", [1])
    assert sc.global_variables() == [w, b] and sc.trainable_variables() == [w]
