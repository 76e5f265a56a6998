"""tf.Variable: op names, conversion, collections, initializers, fetch/feed, operators.

Expected names and messages were recorded from TensorFlow 2.21 (tf.compat.v1 with
disable_v2_behavior, i.e. RefVariable)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import errors


def _op_names():
    return [(o.name, o.type) for o in tf.get_default_graph().get_operations()]


def test_variable_ops_and_names():
    v = tf.Variable([1.0, 2.0], name="v")
    # recorded from TF
    assert _op_names() == [("v/initial_value", "Const"), ("v", "VariableV2"), ("v/Assign", "Assign"),
                           ("v/read", "Identity")]
    assert repr(v) == "<tf.Variable 'v:0' shape=(2,) dtype=float32_ref>"
    assert v.name == "v:0" and v.op.name == "v" and v.dtype == tf.float32_ref
    assert v.initializer.name == "v/Assign" and v.initial_value.name == "v/initial_value:0"
    assert v.value().name == "v/read:0" and v.read_value().name == "read:0"
    assert v._ref().name == "v:0" and v.shape == tf.TensorShape([2]) and v.get_shape().as_list() == [2]
    assert tf.convert_to_tensor(v).name == "v/read:0"
    assert tf.convert_to_tensor(v, as_ref=True) is v._ref()
    assert v.initializer.colocation_groups() == [b"loc:@v"]
    assert v.value().op.colocation_groups() == [b"loc:@v"]
    assert v.graph is tf.get_default_graph() and v.trainable


def test_default_names_scopes_and_callables():
    a = tf.Variable(1.0)
    assert a.name == "Variable:0"
    assert tf.Variable(1.0).name == "Variable_1:0"
    with tf.name_scope("ns"):
        w2 = tf.Variable(1.0)
        assert (w2.name, w2.initial_value.name, w2.initializer.name) == \
            ("ns/Variable:0", "ns/Variable/initial_value:0", "ns/Variable/Assign")
    with tf.name_scope("ns"):
        assert tf.Variable(1.0, name="x").name == "ns_1/x:0"
    lam = tf.Variable(lambda: tf.ones([2]), name="lam")
    assert lam.initial_value.name == "lam/Initializer/ones:0"
    assert lam.initial_value.op.get_attr("_class") == [b"loc:@lam"]
    t = tf.Variable(tf.ones([2]), name="tens")
    assert t.initial_value.name == "ones:0"
    assert tf.Variable(5, name="iv").dtype == tf.int32_ref
    assert tf.Variable(5.0, dtype=tf.float64).dtype == tf.float64_ref
    assert tf.Variable(np.arange(3)).dtype == tf.int64_ref
    assert tf.Variable(np.float64(1.0)).dtype == tf.float64_ref


def test_constructor_errors():
    with pytest.raises(ValueError, match="initial_value must be specified."):
        tf.Variable(None)
    with pytest.raises(TypeError, match="Expected int32, but got 1.0 of type 'float'."):
        tf.Variable([1.0, 2.0], dtype=tf.int32)
    with pytest.raises(ValueError, match="initial_value must have a shape specified"):
        tf.Variable(tf.placeholder(tf.float32))
    v = tf.Variable(tf.placeholder(tf.float32), validate_shape=False)
    assert v.shape.ndims is None


def test_collections():
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(1.0, name="b", trainable=False)
    c = tf.Variable(1.0, name="c", collections=["foo"])
    d = tf.Variable(1.0, name="d", collections=[tf.GraphKeys.LOCAL_VARIABLES], trainable=False)
    assert tf.global_variables() == [a, b] and tf.all_variables() == [a, b]
    assert tf.trainable_variables() == [a, c]
    assert tf.get_collection("foo") == [c] and tf.local_variables() == [d]
    with tf.name_scope("s"):
        e = tf.Variable(1.0, name="e")
    assert tf.global_variables(scope="s") == [e]


def test_initializer_op_names():
    tf.Variable(1.0, name="v")
    tf.Variable(1.0, name="w", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    init = tf.global_variables_initializer()
    assert init.name == "init" and init.type == "NoOp"
    assert [c.name for c in init.control_inputs] == ["v/Assign"]
    assert tf.local_variables_initializer().name == "init_1"  # recorded from TF
    assert tf.variables_initializer([]).type == "NoOp"
    assert tf.initialize_all_variables().name == "init_3"


def test_run_fetch_copy_and_uninitialized():
    v = tf.Variable([1.0, 2.0], name="v")
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError, match="Attempting to use uninitialized value v"):
            sess.run(v)
        with pytest.raises(errors.FailedPreconditionError, match="Attempting to use uninitialized value v"):
            sess.run(v + 1.0)
        assert list(sess.run(tf.report_uninitialized_variables())) == [b"v"]
        assert not sess.run(tf.is_variable_initialized(v))
        sess.run(tf.global_variables_initializer())
        assert sess.run(tf.is_variable_initialized(v))
        assert sess.run(tf.report_uninitialized_variables()).shape == (0,)
        x = sess.run(v)
        assert x.dtype == np.float32
        x[0] = 100.0  # the fetched value is a copy
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
        np.testing.assert_array_equal(v.eval(), [1.0, 2.0])
        # a variable can be fed like a tensor
        np.testing.assert_array_equal(sess.run(v * 2.0, {v: [5.0, 6.0]}), [10.0, 12.0])
        v.load([7.0, 8.0])
        np.testing.assert_array_equal(v.eval(), [7.0, 8.0])
        with pytest.raises(ValueError):
            v.load([1.0])  # shape (1,) cannot be fed for shape (2,)
    # a new session has fresh state
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError):
            sess.run(v)


def test_initial_value_not_aliased():
    init = np.array([1.0, 2.0], np.float32)
    v = tf.Variable(init)
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(v.assign_add([1.0, 1.0]))
        np.testing.assert_array_equal(init, [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(v.initial_value), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(v), [2.0, 3.0])


def test_initialized_value_and_dependent_initializers():
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.Variable(v.initialized_value() * 2.0, name="w")
    with tf.Session() as sess:
        sess.run(w.initializer)  # v is not initialized: uses v's initial value
        np.testing.assert_array_equal(sess.run(w), [2.0, 4.0])
        sess.run(v.initializer)
        sess.run(v.assign([10.0, 20.0]))
        sess.run(w.initializer)
        np.testing.assert_array_equal(sess.run(w), [20.0, 40.0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(w), [2.0, 4.0])


def test_random_initial_value():
    tf.set_random_seed(1)
    v = tf.Variable(tf.random_normal([100, 10]))
    with tf.Session() as sess:
        sess.run(v.initializer)
        a = sess.run(v)
        assert a.shape == (100, 10) and abs(a.mean()) < 0.2
        np.testing.assert_array_equal(sess.run(v), a)  # reading does not redraw


def test_operators_delegate_to_snapshot():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="v")
    w = tf.Variable(np.eye(2, dtype=np.float32), name="w")
    outs = {"add": v + 1.0, "radd": 1.0 + v, "neg": -v, "mul": v * w, "matmul": v @ w, "idx": v[0],
            "sub": 10.0 - v, "div": v / 2.0, "pow": v ** 2.0, "gt": v > 2.0, "abs": abs(v)}
    assert outs["add"].op.inputs[0].name == "v/read:0"
    assert outs["idx"].shape.as_list() == [2]
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        r = sess.run(outs)
    np.testing.assert_array_equal(r["add"], a + 1)
    np.testing.assert_array_equal(r["radd"], a + 1)
    np.testing.assert_array_equal(r["neg"], -a)
    np.testing.assert_array_equal(r["mul"], a * np.eye(2))
    np.testing.assert_array_equal(r["matmul"], a)
    np.testing.assert_array_equal(r["idx"], a[0])
    np.testing.assert_array_equal(r["sub"], 10 - a)
    np.testing.assert_array_equal(r["div"], a / 2)
    np.testing.assert_array_equal(r["pow"], a ** 2)
    np.testing.assert_array_equal(r["gt"], a > 2)
    with pytest.raises(TypeError):
        iter(v)


def test_variable_methods_return_refs():
    v = tf.Variable([1.0, 2.0], name="v")
    a = v.assign([3.0, 4.0])
    assert (a.name, a.dtype) == ("Assign:0", tf.float32_ref)  # recorded from TF
    assert v.assign_add([1.0, 1.0]).name == "AssignAdd:0"
    assert v.assign_sub([1.0, 1.0]).name == "AssignSub:0"
    op = v.assign([3.0, 4.0], read_value=False)
    assert isinstance(op, tf.Operation) and op.get_attr("use_locking") is False
    s = v.scatter_sub(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])))
    assert s.name == "ScatterSub:0"
    c = tf.Variable(0, name="cnt")
    assert c.count_up_to(3).dtype == tf.int32
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(a), [3.0, 4.0])
        np.testing.assert_array_equal(sess.run(a + 1.0), [4.0, 5.0])
        np.testing.assert_array_equal(sess.run(s), [2.0, 4.0])


def test_gradients_with_respect_to_variable():
    v = tf.Variable([1.0, 2.0], name="v")
    y = tf.reduce_sum(v * v)
    (g,) = tf.gradients(y, [v])
    with tf.Session() as sess:
        sess.run(v.initializer)
        np.testing.assert_allclose(sess.run(g), [2.0, 4.0])



def test_report_uninitialized_variables_graph_as_tf():
    # Names, types and colocation recorded from TF 2.21.
    v = tf.Variable(1.0, name="v")
    tf.get_variable("w", [2])
    r = tf.report_uninitialized_variables()
    assert (r.name, r.dtype, r.shape.as_list()) == (
        "report_uninitialized_variables/boolean_mask/GatherV2:0", tf.string, [None])
    g = tf.get_default_graph()
    init = g.get_operation_by_name("report_uninitialized_variables/IsVariableInitialized_1")
    assert init.colocation_groups() == [b"loc:@w"]
    assert g.get_operation_by_name("report_uninitialized_variables/LogicalNot").inputs[0].op.type == "Pack"
    with tf.Session() as sess:
        assert list(sess.run(r)) == [b"v", b"w"]
        sess.run(v.initializer)
        assert list(sess.run(r)) == [b"w"]
        assert list(sess.run(tf.report_uninitialized_variables([v]))) == []
