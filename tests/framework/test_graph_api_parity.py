"""Graph / Session API parity with TF 2.21 (expected values recorded from TF 2.21's
tf.compat.v1 running the same snippets)."""

import collections

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework.graph import InaccessibleTensorError


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def test_namedtuple_fetch_after_equal_tuple_fetch():
    # TF 2.21: the namedtuple comes back as a namedtuple even after (a, b) was fetched.
    Pair = collections.namedtuple("Pair", ["x", "y"])
    a, b = tf.constant([1.0, 2.0]), tf.constant(3)
    with tf.Session() as sess:
        assert type(sess.run((a, b))) is tuple
        r = sess.run(Pair(a, b))
        assert type(r) is Pair and r.y == 3
        r = sess.run({"k": Pair(a, {"z": b})})
        assert type(r["k"]) is Pair and r["k"].y["z"] == 3


def test_make_callable_argument_count_as_tf():
    x = tf.placeholder(tf.float32, [None], name="x")
    y = tf.reduce_mean(x) * 2
    with tf.Session() as sess:
        f = sess.make_callable(y, feed_list=[x])
        assert f([1.0, 2.0, 3.0]) == 4.0
        assert f([1.0], [2.0]) == 2.0          # TF: extra values are ignored
        with pytest.raises(tf.errors.InvalidArgumentError):
            f()                                 # TF: the placeholder is not fed


def test_same_tensor_fed_under_two_keys_takes_the_later():
    x = tf.placeholder(tf.float32, [1], name="x")
    with tf.Session() as sess:
        assert sess.run(x, {x: [1.0], "x:0": [2.0]}).tolist() == [2.0]


def test_prevent_feeding_and_fetching():
    g = tf.get_default_graph()
    c = tf.constant(3.0, name="c")
    y = tf.identity(c * 2.0, name="y")
    g.prevent_feeding(c)
    g.prevent_fetching(y.op)
    assert (g.is_feedable(c), g.is_fetchable(y), g.is_fetchable(y.op), g.is_fetchable(c)) == \
        (False, False, False, True)
    with tf.Session() as sess:
        with pytest.raises(InaccessibleTensorError, match="^Operation y has been marked as not fetchable"):
            sess.run(y)
        with pytest.raises(ValueError, match=r"^Tensor c:0 may not be fed\.$"):
            sess.run(c * 1.0, {c: 1.0})
    assert g.graph_def_versions.producer > 0


def test_session_argument_errors():
    with pytest.raises(TypeError, match='^Argument `graph` must be a tf.Graph, but got "int"$'):
        tf.Session(graph=3)
    with pytest.raises(TypeError, match='^Argument `config` must be a tf.ConfigProto, but got "int"$'):
        tf.Session(config=3)
    with pytest.raises(TypeError):
        tf.Session(target=3)
    with tf.Session() as sess:
        with pytest.raises(AttributeError, match="'int' object has no attribute 'SerializeToString'"):
            sess.run(tf.constant(1), options=3)


def test_op_def_name_inputs_tuple_and_control_dependency_error():
    a = tf.constant([1.0, 2.0], name="a")
    b = tf.add(a, a, name="b")
    assert b.op.op_def.name == "AddV2"
    assert type(b.op.inputs) is tuple and b.op.inputs[0] is a
    with pytest.raises(TypeError, match=r"^Can not convert a int into a Tensor or Operation\.$"):
        with tf.control_dependencies([1]):
            pass


def test_container_sets_empty_container_attrs():
    g = tf.get_default_graph()
    with g.container("foo"):
        v = tf.Variable(1.0, name="v")
        q = tf.FIFOQueue(3, tf.float32, name="q")
        c = tf.constant(1.0)
    w = tf.Variable(1.0, name="w")
    assert v.op.get_attr("container") == b"foo"
    assert q.queue_ref.op.get_attr("container") == b"foo"
    assert w.op.get_attr("container") == b""
    assert "container" not in c.op.node_def.attr


def test_gradient_override_map_rejects_non_strings():
    with pytest.raises(TypeError, match="^op_type_map must be a dictionary mapping strings to strings$"):
        with tf.get_default_graph().gradient_override_map({1: "x"}):
            pass


def test_extract_sub_graph_string_message():
    tf.constant(1, name="y")
    gd = tf.get_default_graph().as_graph_def()
    with pytest.raises(TypeError, match="^dest_nodes must be an iterable of strings, but got type <class 'str'>.$"):
        tf.graph_util.extract_sub_graph(gd, "y")


def test_tensor_shape_and_dimension_edges():
    u = tf.TensorShape(None)
    assert repr(u[1:3]) == "TensorShape([Dimension(None), Dimension(None)])"
    assert repr(u[1:]) == "TensorShape(None)"
    d, n = tf.Dimension(3), tf.Dimension(None)
    with pytest.raises(TypeError, match="unhashable type: 'Dimension'"):
        hash(d)
    with pytest.raises(TypeError, match=r"__int__ returned non-int \(type NoneType\)"):
        int(n)
    with pytest.raises(TypeError, match="please use // instead"):
        d / 2
    assert (10 % d).value == 1 and (n % d).value is None
    with pytest.raises(TypeError, match="^Dimension value must be integer or None or have an __index__ method, "
                                        "got value '1.5' with type '<class 'float'>'$"):
        tf.Dimension(1.5)
    with pytest.raises(ValueError, match="^Dimension -1 must be >= 0$"):
        tf.Dimension(3) - tf.Dimension(4)


def test_dtype_properties_recorded_from_tf():
    sizes = {"string": 0, "resource": 0, "variant": 0, "bfloat16": 2, "qint8": 1, "qint16": 2, "qint32": 4}
    assert {n: tf.as_dtype(n).size for n in sizes} == sizes
    assert tf.bfloat16.is_floating and tf.bfloat16.is_numpy_compatible and tf.qint8.is_numpy_compatible
    assert not tf.resource.is_numpy_compatible
    assert tf.string.as_numpy_dtype is object and tf.string._as_ref.as_numpy_dtype is np.object_
    with pytest.raises(KeyError):
        tf.resource.as_numpy_dtype
    with pytest.raises(KeyError):
        tf.variant.limits
    assert tf.float32.is_compatible_with(tf.float32._as_ref)
    assert not tf.float32._as_ref.is_compatible_with(tf.float32)


def test_bfloat16_limits_with_ml_dtypes():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert tf.bfloat16.as_numpy_dtype is ml_dtypes.bfloat16
    assert float(tf.bfloat16.max) == float(ml_dtypes.finfo(ml_dtypes.bfloat16).max)


def test_bool_and_complex_constants_use_typed_fields():
    # TF 2.21: `bool_val: true bool_val: false`, no tensor_content, for several bools.
    p = tf.make_tensor_proto([True, False])
    assert list(p.bool_val) == [True, False] and not p.tensor_content
    p = tf.make_tensor_proto([1, 2], dtype=tf.uint16)
    assert list(p.int_val) == [1, 2]
    p = tf.make_tensor_proto([1 + 2j, 3j])
    assert list(p.dcomplex_val) == [1, 2, 0, 3]
    assert tf.make_ndarray(p).tolist() == [1 + 2j, 3j]
    assert tf.make_tensor_proto([1, 2], dtype=tf.uint8).tensor_content == b"\x01\x02"


def test_variable_to_proto_round_trip():
    v = tf.Variable([1.0, 2.0], name="v")
    r = tf.Variable(3, name="r", use_resource=True)
    vd = v.to_proto()
    assert (vd.variable_name, vd.initializer_name, vd.snapshot_name, vd.initial_value_name, vd.trainable) == \
        ("v:0", "v/Assign", "v/read:0", "v/initial_value:0", True)
    rd = r.to_proto()
    assert rd.is_resource and rd.snapshot_name == "r/Read/ReadVariableOp:0"
    v2 = tf.Variable.from_proto(vd)
    assert v2.name == "v:0" and v2.initializer.name == "v/Assign"


def test_tensor_ref():
    a = tf.constant(1)
    assert a.ref() == a.ref() and a.experimental_ref() == a.ref() and a.ref().deref() is a
    assert a.ref() != tf.constant(1).ref()
    assert len({a.ref(), a.ref()}) == 1
    with pytest.raises(TypeError, match="Cannot compare wrapped object with unwrapped object"):
        a.ref() == a
