"""Core graph-API behaviours probed against TF 2.21 (tf.compat.v1 with v2 behaviour disabled);
the expected messages were recorded from it."""

import pytest

import tensorweave as tf


def _graph():
    return tf.Graph().as_default()


def test_while_loop_predicate_errors_name_the_loop_cond_node():
    with _graph():
        with pytest.raises(ValueError) as e:
            tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant([1])])
        assert str(e.value) == ("Shape must be rank 0 but is rank 1 for '{{node while/LoopCond}} = "
                                "LoopCond[](while/Less)' with input shapes: [1].")
        with pytest.raises(ValueError) as e:
            tf.while_loop(lambda i: tf.constant([True, False]), lambda i: i + 1, [tf.constant(1)], name="foo")
        assert str(e.value) == ("Shape must be rank 0 but is rank 1 for '{{node foo/LoopCond}} = "
                                "LoopCond[](foo/Const)' with input shapes: [2].")
        with pytest.raises(TypeError, match="^Input 'input' of 'LoopCond' Op has type int32 that does not "
                                            "match expected type of bool.$"):
            tf.while_loop(lambda i: 3, lambda i: i + 1, [tf.constant(1)])


def test_cond_predicate_errors_name_the_switch_node():
    with _graph():
        p = tf.constant([True], name="p")
        with pytest.raises(ValueError) as e:
            tf.cond(p, lambda: 1, lambda: 2)
        assert str(e.value) == ("Shape must be rank 0 but is rank 1 for '{{node cond/Switch}} = "
                                "Switch[T=DT_BOOL](p, p)' with input shapes: [1], [1].")
        with pytest.raises(TypeError, match="^Input 'pred' of 'Switch' Op has type int32 that does not "
                                            "match expected type of bool.$"):
            tf.cond(tf.constant(1), lambda: 1, lambda: 2)


def test_named_conversion_errors_carry_the_name():
    with _graph():
        z = tf.zeros([2])
        with pytest.raises(ValueError, match="^foo: Tensor conversion requested dtype int32 for Tensor "
                                             "with dtype float32: <tf.Tensor 'zeros:0'"):
            tf.convert_to_tensor(z, dtype=tf.int32, name="foo")
        with pytest.raises(ValueError, match="^Tensor conversion requested dtype int32"):
            tf.convert_to_tensor(z, dtype=tf.int32)
        with pytest.raises(ValueError, match="^initial_value: Tensor conversion requested dtype int32"):
            tf.Variable(z, dtype=tf.int32)
