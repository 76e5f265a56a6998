"""Graph building: naming, scopes, control dependencies, devices, collections, lookup.

Expected names and messages were recorded from TensorFlow 2.21 (`tensorflow.compat.v1` with
`disable_v2_behavior()`)."""

import sys

import pytest

import tensorweave as tf


def test_unique_names_are_case_insensitive_and_skip_used_suffixes():
    a = tf.constant(1.0, name="a")
    a2 = tf.constant(1.0, name="a")
    a3 = tf.constant(1.0, name="A")
    assert (a.name, a2.name, a3.name) == ("a:0", "a_1:0", "A_2:0")
    assert tf.constant(1.0, name="a_1").name == "a_1_1:0"
    assert tf.constant(1.0, name="a").name == "a_3:0"


def test_name_scopes():
    with tf.name_scope("s") as sc:
        assert sc == "s/"
        assert tf.constant(2.0).name == "s/Const:0"
        with tf.name_scope("t") as sc2:
            assert sc2 == "s/t/"
        with tf.name_scope(None):
            assert tf.constant(0).name == "Const:0"
    with tf.name_scope("s") as sc:
        assert sc == "s_1/"
    with tf.name_scope("s/") as sc:
        assert sc == "s/"
        assert tf.constant(1).name == "s/Const_1:0"
    with pytest.raises(ValueError, match="not a valid root scope name"):
        with tf.name_scope("bad name"):
            pass



def test_invalid_op_name_raises_tf_value_error():
    # Message recorded from TF 2.21: the whole node name is checked when the op is created.
    tf.reset_default_graph()
    with pytest.raises(ValueError) as e:
        tf.constant(1, name="a b")
    assert str(e.value) == ("`a b` is not a valid node name. Accepted names conform to Regex "
                            r"/re.compile('^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$')/")
    with tf.name_scope("x"):
        assert tf.constant(1, name="ok.1-a>b").name == "x/ok.1-a>b:0"


def test_names_starting_with_underscore_are_reserved():
    # Recorded from TF 2.21: a leading "_" is refused at the top level and on import, as TF
    # reserves such names for its runtime's nodes; inside a scope it is an ordinary character.
    tf.reset_default_graph()
    with pytest.raises(ValueError, match="^`_foo` is not a valid node name"):
        tf.constant(1, name="_foo")
    assert tf.constant(1, name="a/_b").name == "a/_b:0"
    gd = tf.GraphDef()
    gd.node.add(name="_x", op="NoOp")
    with tf.Graph().as_default() as g:
        with pytest.raises(ValueError, match="^Node '_x': Node name contains invalid characters$"):
            tf.import_graph_def(gd, name="imp")
        assert g.get_operations() == []


def test_name_scope_default_name_and_values():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(1)
    with tf.name_scope(None, "default", [c]) as sc:
        assert sc == "default/"
        assert tf.get_default_graph() is g
    assert tf.get_default_graph() is not g


def test_lookup_by_name_and_errors():
    a = tf.constant(1.0, name="a")
    g = tf.get_default_graph()
    assert g.get_operation_by_name("a") is a.op
    assert g.get_tensor_by_name("a:0") is a
    with pytest.raises(ValueError, match="looks like an \\(invalid\\) Operation name, not a Tensor"):
        g.get_tensor_by_name("zz")
    with pytest.raises(KeyError, match="exists but only has 1 outputs"):
        g.get_tensor_by_name("a:5")
    with pytest.raises(ValueError, match="refers to an Operation, not a Tensor"):
        g.get_tensor_by_name("a")
    with pytest.raises(ValueError, match="appears to refer to a Tensor, not a Operation"):
        g.get_operation_by_name("a:0")
    assert g.get_operations() == [a.op]


def test_control_dependencies_nest_and_clear():
    a = tf.constant(1.0, name="a")
    a2 = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    with tf.control_dependencies([a]):
        e = tf.identity(b)
        with tf.control_dependencies(None):
            f = tf.identity(b)
        with tf.control_dependencies([a2]):
            h = tf.identity(b)
    assert e.op.control_inputs == [a.op]
    assert f.op.control_inputs == []
    assert h.op.control_inputs == [a.op, a2.op]
    with pytest.raises(TypeError):
        with tf.control_dependencies([3]):
            pass


def test_control_dependencies_skip_inputs_made_inside():
    a = tf.constant(1.0)
    with tf.control_dependencies([a]):
        b = tf.identity(a)
        c = tf.identity(b)
    assert b.op.control_inputs == []  # a is already an input
    assert c.op.control_inputs == []  # ordered through b, made inside the context


def test_devices_merge_and_normalize():
    with tf.device("/cpu:0"):
        x = tf.constant(3)
        with tf.device("/job:ps/task:1"):
            y = tf.constant(3)
        with tf.device(None):
            z = tf.constant(3)
    assert x.device == "/device:CPU:0"
    assert y.device == "/job:ps/task:1/device:CPU:0"
    assert z.device == ""
    with tf.device(lambda op: "/gpu:1" if op.type == "Const" else ""):
        w = tf.constant(1)
    assert w.device == "/gpu:1"  # a device function's string is kept as written (TF 2.21)


def test_collections_and_scope_filter():
    a = tf.constant(1.0, name="a")
    with tf.name_scope("s"):
        b = tf.constant(2.0)
    tf.add_to_collection("foo", a)
    tf.add_to_collection("foo", b)
    assert tf.get_collection("foo") == [a, b]
    assert tf.get_collection("foo", scope="s") == [b]
    ref = tf.get_collection_ref("foo")
    ref.append(3)
    assert tf.get_collection("foo")[-1] == 3
    tf.add_to_collections(["x", "y"], a)
    assert tf.get_collection("x") == [a] and tf.get_collection("y") == [a]
    assert tf.GraphKeys.GLOBAL_VARIABLES == "variables"
    assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"


def test_finalize_and_default_graph():
    g = tf.Graph()
    with g.as_default():
        tf.constant(1)
        g.finalize()
        with pytest.raises(RuntimeError, match="Graph is finalized and cannot be modified."):
            tf.constant(1)
    assert tf.constant([1, 2]).graph is tf.get_default_graph()
    with g.as_default():
        with pytest.raises(AssertionError):
            tf.reset_default_graph()


def test_tensor_repr_str_and_python_protocols():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    assert str(x) == 'Tensor("x:0", shape=(?, 3), dtype=float32)'
    assert repr(x) == "<tf.Tensor 'x:0' shape=(?, 3) dtype=float32>"
    assert repr(x.op) == "<tf.Operation 'x' type=Placeholder>"
    assert x.value_index == 0 and x.op.outputs == [x] and x.get_shape() is x.shape
    with pytest.raises(TypeError, match="as a Python `bool` is not allowed"):
        bool(x)
    with pytest.raises(TypeError, match="Iterating over a symbolic `tf.Tensor` is not allowed"):
        iter(x)
    assert (x == x) is True and (x != x) is False and len({x, x}) == 1
    y = tf.identity(x)
    assert x.consumers() == [y.op]
    assert y.op.inputs[0] is x


def test_set_shape_merges_and_rejects_incompatible():
    x = tf.placeholder(tf.float32)
    x.set_shape([None, 3])
    x.set_shape([2, None])
    assert x.shape.as_list() == [2, 3]
    with pytest.raises(ValueError):
        x.set_shape([3, 3])


def test_get_attr_and_node_def():
    x = tf.placeholder(tf.float32, [2], name="x")
    assert x.op.get_attr("dtype") == tf.float32
    with pytest.raises(ValueError, match="no attr named"):
        x.op.get_attr("nope")
    y = tf.identity(x, name="y")
    assert y.op.node_def.input == ["x"]
    assert y.op.node_def.op == "Identity"


def test_ops_from_different_graphs_rejected():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0)
    with g2.as_default():
        with pytest.raises(ValueError, match="must be from the same graph"):
            tf.identity(a) if False else g2._create_op("Identity", [a], [tf.float32], name="i")


def test_compat_v1_is_the_same_namespace():
    import tensorweave.compat.v1 as tf1
    assert tf1 is tf
    assert tf.compat.v1.placeholder is tf.placeholder


def test_source_line_recorded():
    x = tf.constant(1.0)  # this line
    fn, line = x.op._traceback
    assert fn == __file__
    import inspect
    assert "this line" in inspect.getsourcelines(test_source_line_recorded)[0][line - inspect.getsourcelines(
        test_source_line_recorded)[1]]


def test_control_inputs_are_marked_and_tuple_identities_colocated_as_tensorflow_does():
    # TF 2.x sets `_has_manual_control_dependencies` on each op used as a manual control input,
    # and tf.tuple / with_dependencies colocate each Identity with the tensor it forwards.
    g = tf.Graph()
    with g.as_default():
        a = tf.constant(1.0, name="a")
        b = tf.constant(2.0, name="b")
        with tf.control_dependencies([a]):
            c = tf.identity(b, name="c")
        ta, tb = tf.tuple([a, b])
    assert g.get_operation_by_name("a").node_def.attr["_has_manual_control_dependencies"].b
    assert "_has_manual_control_dependencies" not in c.op.node_def.attr
    assert ta.op.name == "tuple/control_dependency" and ta.op.colocation_groups() == [b"loc:@a"]
    assert tb.op.colocation_groups() == [b"loc:@b"]
    assert "_has_manual_control_dependencies" in g.get_operation_by_name("tuple/group_deps").node_def.attr


def test_colocation_attrs_of_variables_and_slots_as_tf():
    # Recorded from TF 2.21 compat.v1: a variable made from a callable carries _class on every op
    # it makes, the VariableV2 op included; a plain-value variable only on Assign/read; slots and
    # beta powers are colocated with their primary (beta powers with the first variable by name).
    g = tf.Graph()
    with g.as_default():
        w = tf.get_variable("w", [3, 2])
        v = tf.Variable(tf.zeros([2]), name="v")
        loss = tf.reduce_sum(tf.matmul(tf.ones([1, 3]), w) + v)
        tf.train.AdamOptimizer().minimize(loss)

    def cls(name):
        op = g.get_operation_by_name(name)
        return op.get_attr("_class") if "_class" in op.node_def.attr else None
    assert cls("w") == [b"loc:@w"] and cls("w/Initializer/random_uniform/shape") == [b"loc:@w"]
    assert cls("v") is None and cls("v/Assign") == [b"loc:@v"] and cls("v/read") == [b"loc:@v"]
    assert cls("w/Adam") == [b"loc:@w"] and cls("w/Adam/Initializer/zeros") == [b"loc:@w"]
    assert cls("beta1_power") == [b"loc:@v"]


def test_op_error_attributes_as_tf():
    # Recorded from TF 2.21: OpError keeps no args (repr "NotFoundError()"), str() is the message.
    e = tf.errors.NotFoundError(None, None, "nf")
    assert (e.error_code, e.message, str(e), e.op, e.node_def, e.args, repr(e)) == \
        (5, "nf", "nf", None, None, (), "NotFoundError()")


def test_run_time_error_names_the_node_and_its_user_stack():
    # TF 2.21's Session.run wording: e.message and the "Original stack trace" suffix of str(e).
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        line = sys._getframe().f_lineno - 1
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(x + 1)
    where = f'    File "{__file__}", line {line}, in test_run_time_error_names_the_node_and_its_user_stack\n'
    assert e.value.message.startswith("Graph execution error:\n\nDetected at node 'x' defined at (most recent "
                                      "call last):\n")
    assert e.value.message.endswith(where + "Node: 'x'\nYou must feed a value for placeholder tensor 'x' with "
                                    "dtype float and shape [?,3]\n\t [[{{node x}}]]")
    assert str(e.value).startswith(e.value.message + "\n\nOriginal stack trace for 'x':\n")
    assert e.value.op.name == "x" and e.value.node_def.name == "x"


def test_uninitialized_variable_errors_name_tf_nodes():
    with tf.Graph().as_default():
        with tf.variable_scope("sc"):
            v = tf.Variable([1.0, 2.0], name="v")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError) as e:
                sess.run([tf.constant(1.0), v])
            assert e.value.op is None and e.value.message == (
                "Graph execution error:\n\nAttempting to use uninitialized value sc/v\n\t [[{{node _retval_sc/v_0_1}}]]")
            with pytest.raises(tf.errors.FailedPreconditionError) as e:
                sess.run(v + 1)
            assert e.value.op.name == "sc/v/read"


def test_feed_conversion_errors_as_tf():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        i = tf.placeholder(tf.int32, name="i")
        with tf.Session() as sess:
            with pytest.raises(ValueError, match=r"^could not convert string to float: np.str_\('abc'\)$"):
                sess.run(x, {x: "abc"})
            with pytest.raises(TypeError, match="Type of feed value 4294967296 with type <class 'int'> is not "
                                                "compatible with Tensor type <class 'numpy.int32'>"):
                sess.run(i, {i: 2 ** 32})
            with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2,\) for Tensor x:0, which has "
                                                 r"shape \(3,\)"):
                sess.run(x, {x: [1, 2]})
