"""The global step (tf.train.get_or_create_global_step and friends).

Names, collections and messages were recorded from real TensorFlow (tf.compat.v1)."""

import numpy as np
import pytest

import tensorweave as tf


def test_get_or_create_global_step():
    g = tf.get_default_graph()
    assert tf.train.get_global_step() is None
    gs = tf.train.get_or_create_global_step()
    assert gs.name == "global_step:0"
    assert gs.dtype == tf.int64_ref and gs.shape.as_list() == []
    assert not gs.trainable
    assert [op.name for op in g.get_operations()] == ["global_step/Initializer/zeros", "global_step",
                                                     "global_step/Assign", "global_step/read"]
    assert tf.get_collection(tf.GraphKeys.GLOBAL_STEP) == [gs]
    assert gs in tf.global_variables() and gs not in tf.trainable_variables()
    assert tf.train.get_global_step() is gs
    assert tf.train.get_or_create_global_step() is gs
    assert tf.train.get_global_step(g) is gs
    with pytest.raises(ValueError, match='"global_step" already exists.'):
        tf.train.create_global_step()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = tf.train.global_step(sess, gs)
        assert value == 0 and type(value) is int
        assert sess.run(gs).dtype == np.int64
        sess.run(tf.assign_add(gs, 5))
        assert tf.train.global_step(sess, gs) == 5
        assert tf.train.global_step(sess, "global_step:0") == 5


def test_create_global_step_ignores_name_scope_and_other_graphs():
    with tf.name_scope("foo"):
        gs = tf.train.create_global_step()
    assert gs.name == "global_step:0"
    other = tf.Graph()
    assert tf.train.get_global_step(other) is None
    gs2 = tf.train.get_or_create_global_step(other)
    assert gs2.graph is other and gs2 is not gs
    with other.as_default():
        assert tf.train.get_global_step() is gs2


def test_variable_named_global_step_is_found_without_collection():
    v = tf.Variable(np.int64(0), name="global_step")
    found = tf.train.get_global_step()
    assert found is v._ref() or found is v


def test_assert_global_step_errors():
    # Messages recorded from TF.
    with pytest.raises(TypeError, match="Existing .global_step. does not have integer type: <dtype: 'float32'>"):
        tf.train.assert_global_step(tf.constant(1.0))
    with pytest.raises(TypeError, match=r"Existing \"global_step\" is not scalar: \(2,\)"):
        tf.train.assert_global_step(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Existing .global_step. must be a Variable or Tensor: x."):
        tf.train.assert_global_step("x")
    tf.train.assert_global_step(tf.Variable(0, name="step"))
    tf.train.assert_global_step(tf.placeholder(tf.int32))
