"""tf.nest, the behaviour toggles, init_scope, tf.version and the check ops added with them.
Messages and orders marked "from TF" were recorded from TensorFlow 2.21."""

import collections

import numpy as np
import pytest

import tensorweave as tf

P = collections.namedtuple("P", "a b")


def test_nest_flatten_pack_map():
    s = {"b": [1, (2, 3)], "a": P(4, {"z": 5, "y": 6}), "c": None}
    assert tf.nest.flatten(s) == [4, 6, 5, 1, 2, 3, None]  # from TF
    packed = tf.nest.pack_sequence_as(s, list(range(10, 17)))
    assert packed == {"b": [13, (14, 15)], "a": P(10, {"z": 12, "y": 11}), "c": 16}  # from TF
    assert list(packed) == ["b", "a", "c"]
    assert tf.nest.map_structure(lambda x, y: x + y, [1, (2, 3)], [10, (20, 30)]) == [11, (22, 33)]
    od = collections.OrderedDict([("b", 1), ("a", 2)])
    assert tf.nest.flatten(od) == [2, 1]
    assert tf.nest.pack_sequence_as(od, [5, 6]) == collections.OrderedDict([("b", 6), ("a", 5)])  # from TF
    assert tf.nest.is_nested([1]) and not tf.nest.is_nested("ab") and not tf.nest.is_nested(1)
    assert tf.nest.flatten("ab") == ["ab"] and tf.nest.flatten(None) == [None]


def test_nest_errors():
    with pytest.raises(ValueError, match="don't have the same number of elements"):
        tf.nest.assert_same_structure([1, 2], [1, 2, 3])
    with pytest.raises(TypeError, match="don't have the same sequence type"):
        tf.nest.assert_same_structure([1, 2], (1, 2))
    tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)
    with pytest.raises(ValueError, match="same set of keys"):
        tf.nest.assert_same_structure({"a": 1}, {"b": 1})
    with pytest.raises(ValueError, match=r'Substructure "type=list str=\[1\]" is a sequence, while substructure '
                                         r'"type=int str=1" is not'):
        tf.nest.assert_same_structure(1, [1])
    with pytest.raises(ValueError, match=r"Could not pack sequence. Structure had 2 atoms, but flat_sequence had 1 "
                                         r"items.  Structure: \[1, 2\], flat_sequence: \[1\]."):
        tf.nest.pack_sequence_as([1, 2], [1])


def test_behavior_toggles_say_what_we_are():
    assert tf.control_flow_v2_enabled() is True
    tf.enable_control_flow_v2()
    tf.disable_tensor_equality()
    with pytest.raises(NotImplementedError):
        tf.enable_tensor_equality()
    tf.disable_v2_tensorshape()
    with pytest.raises(NotImplementedError):
        tf.enable_v2_tensorshape()
    assert tf.executing_eagerly_outside_functions() is False
    assert tf.get_logger().name == "tensorflow"
    assert tf.debugging.get_log_device_placement() is False
    with pytest.raises(NotImplementedError):
        tf.debugging.set_log_device_placement(True)
    with pytest.raises(NotImplementedError):
        tf.debugging.enable_check_numerics()


def test_version_constants():
    assert tf.VERSION == tf.version.VERSION == tf.__version__
    assert isinstance(tf.GIT_VERSION, str) and isinstance(tf.COMPILER_VERSION, str)
    assert tf.GRAPH_DEF_VERSION == tf.version.GRAPH_DEF_VERSION
    assert tf.GRAPH_DEF_VERSION_MIN_CONSUMER == 0 and tf.GRAPH_DEF_VERSION_MIN_PRODUCER == 0
    assert tf.Graph().as_graph_def().versions.producer == tf.GRAPH_DEF_VERSION


def test_init_scope_lifts_out_of_functions_and_control_deps():
    x = tf.constant(1.0)
    with tf.name_scope("outer"), tf.control_dependencies([x.op]):
        with tf.init_scope():
            c = tf.constant(2.0, name="c")
    assert c.name == "outer/c:0" and c.op.control_inputs == []
    made = []

    def true_fn():
        with tf.init_scope():
            made.append(tf.constant(3.0, name="lifted"))
        return tf.constant(1.0)
    tf.cond(tf.constant(True), true_fn, lambda: tf.constant(0.0))
    assert made[0].graph is tf.get_default_graph()


def test_assert_near_rank_in_shapes():
    x = tf.placeholder(tf.float32, [None])
    a = tf.assert_near(x, tf.constant([1.0, 2.0]), rtol=1e-3, atol=1e-3)
    with tf.Session() as s:
        s.run(a, {x: [1.0, 2.0]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="x and y not equal to tolerance"):
            s.run(a, {x: [1.0, 2.5]})
    assert tf.assert_rank_in(tf.constant([1, 2]), [1, 2]).name == "assert_rank_in/static_checks_determined_all_ok"
    with pytest.raises(ValueError, match=r"must have rank in \(0, 2\).  Received rank 1, shape \(2,\)"):
        tf.assert_rank_in(tf.constant([1, 2]), [0, 2])
    p = tf.placeholder(tf.float32)
    r = tf.assert_rank_in(p, [0, 2])
    with tf.Session() as s:
        s.run(r, {p: 1.0})
        with pytest.raises(tf.errors.InvalidArgumentError):
            s.run(r, {p: [1.0]})
    y = tf.constant([[1., 2.]])
    tf.debugging.assert_shapes([(y, ("N", "D")), (tf.constant([1, 2]), ("D",))])
    with pytest.raises(ValueError, match="dimension 0 must have size 2.  Received size 3, shape"):
        tf.debugging.assert_shapes([(y, ("N", "D")), (tf.constant([1, 2, 3]), ("D",))])
    q = tf.placeholder(tf.float32, [None])
    chk = tf.debugging.assert_shapes([(y, ("N", "D")), (q, ("D",))])
    with tf.Session() as s:
        s.run(chk, {q: [1, 2]})
        with pytest.raises(tf.errors.InvalidArgumentError):
            s.run(chk, {q: [1, 2, 3]})


def test_assert_same_float_dtype_and_proper_iterable():
    assert tf.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0)]) == tf.float32
    assert tf.assert_same_float_dtype(None, tf.float64) == tf.float64
    with pytest.raises(ValueError, match=r"type=<dtype: 'float64'>, must be of the same type \(<dtype: 'float32'>\)"):
        tf.assert_same_float_dtype([tf.constant(1.0), tf.constant(2.0, tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type, got <dtype: 'int32'>."):
        tf.assert_same_float_dtype([tf.constant(1)])
    tf.assert_proper_iterable([1, 2])
    for bad in ["ab", np.array([1]), tf.constant(1)]:
        with pytest.raises(TypeError, match='"proper" iterable'):
            tf.assert_proper_iterable(bad)
    with pytest.raises(TypeError, match="to be iterable"):
        tf.assert_proper_iterable(5)


def test_namespaces():
    assert tf.dtypes.cast is tf.cast and tf.dtypes.qint8.is_quantized and tf.dtypes.as_string is tf.as_string
    assert tf.manip.tile is tf.tile and tf.manip.gather_nd is tf.gather_nd
    assert tf.math.invert_permutation is tf.invert_permutation
    assert tf.graph_util.import_graph_def is tf.import_graph_def
    assert tf.queue.FIFOQueue is tf.FIFOQueue and tf.io.PaddingFIFOQueue is tf.PaddingFIFOQueue
    assert tf.debugging.is_nan is tf.is_nan
    # TF 2.21: tf.io.gfile holds the TF2 names (exists, glob), tf.gfile the TF1 ones (Exists, Glob)
    assert tf.io.gfile is not tf.gfile and tf.io.gfile.exists and tf.gfile.Exists
