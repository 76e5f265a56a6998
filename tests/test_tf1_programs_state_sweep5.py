"""TF1 programs against TF: import_graph_def's argument checks, atomic imports, input-map dtype
checks and return-element errors; the order of a checkpoint reader's variable maps; restoring from a
directory or a file that is no checkpoint; update ops' conversion errors; a Variable named "";
ResourceVariable.gather_nd. Expected values were recorded from TF 2.21 (tensorflow.compat.v1, v2
behaviour disabled) unless computed with NumPy in the test."""

import os

import numpy as np
import pytest

import tensorweave as tf


def _graph_def():
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y = tf.matmul(x, tf.ones([2, 1]), name="y")
        tf.reshape(y, [-1], name="r")
        return g.as_graph_def()


# -- import_graph_def ----------------------------------------------------------------------------

def test_import_graph_def_failures_leave_the_graph_unchanged_but_take_their_scope():
    gd = _graph_def()
    with tf.Graph().as_default() as g:
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, return_elements=["nope:0"])
        assert str(e.value) == "Requested return tensor 'nope:0' not found in graph def"
        assert g.get_operations() == []
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, return_elements=["y:1"])
        assert str(e.value) == "Invalid return output 1 of node 'y', which has 1 output(s)"
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, return_elements=["nope"])
        assert str(e.value) == "Requested return node 'nope' not found in graph def"
        assert g.get_operations() == []
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, input_map={"x:0": tf.constant([[1, 2]])})
        assert str(e.value) == ("Input 0 of node import_3/y was passed int32 from Const:0 incompatible with "
                                "expected float.")
        assert [o.name for o in g.get_operations()] == ["Const"]
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, input_map={"x:0": tf.constant([[1., 2.]], tf.float64)})
        assert str(e.value) == ("Input 0 of node import_4/y was passed double from Const_1:0 incompatible "
                                "with expected float.")
        with pytest.raises(ValueError) as e:  # a shape error also leaves nothing behind
            tf.import_graph_def(gd, input_map={"x:0": tf.constant([1., 2.])})
        assert str(e.value).startswith("Shape must be rank 2 but is rank 1 for '{{node import_5/y}} = MatMul")
        with pytest.raises(ValueError) as e:  # a mapped MatMul output, checked against Reshape's T
            tf.import_graph_def(gd, input_map={"y:0": tf.constant([[1, 2]])})
        assert str(e.value) == ("Input 0 of node import_6/r was passed int32 from Const_3:0 incompatible "
                                "with expected float.")
        r = tf.import_graph_def(gd, input_map={"x:0": tf.constant([[1., 2.]])}, return_elements=["r:0"],
                                name="ok")
        assert r[0].shape == (1,)
        # A key naming a missing output is reported after the import, whose ops stay (as TF).
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, input_map={"x:1": tf.constant([[1., 2.]])})
        assert str(e.value) == "Attempted to map inputs that were not found in graph_def: [x:1]"
        r = tf.import_graph_def(gd, input_map={"x:0": tf.constant([[1., 2.]]), "y:0": tf.constant([[1., 2.]])},
                                return_elements=["y:0", "y"])
        assert r[0].name == "Const_7:0" and r[1].name == "import_8/y"
        assert [o.name for o in g.get_operations()] == [
            "Const", "Const_1", "Const_2", "Const_3", "Const_4", "ok/x", "ok/ones", "ok/y", "ok/r/shape", "ok/r",
            "Const_5", "import_7/x", "import_7/ones", "import_7/y", "import_7/r/shape", "import_7/r", "Const_6",
            "Const_7", "import_8/x", "import_8/ones", "import_8/y", "import_8/r/shape", "import_8/r"]


def test_import_graph_def_argument_errors_are_tfs():
    gd = _graph_def()
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.import_graph_def(gd, input_map=[1])
        assert str(e.value) == "Argument `input_map` must be a dictionary. Obtained list"
        with pytest.raises(TypeError) as e:
            tf.import_graph_def(gd, input_map={1: 2})
        assert str(e.value) == "All keys for argument `input_map` must be strings. Obtained keys: [1]"
        with pytest.raises(TypeError) as e:
            tf.import_graph_def(gd, return_elements=[1])
        assert str(e.value) == "Argument `return_elements` must be a list of strings. Obtained [1]."
        with pytest.raises(TypeError) as e:
            tf.import_graph_def(3)
        assert str(e.value) == "Argument `graph_def` must be a GraphDef proto."
        # A string is iterated as TF does: "y" is the list ["y"].
        r = tf.import_graph_def(gd, return_elements="y")
        assert [o.name for o in r] == ["import/y"]  # (the argument errors came before the scope)
        # Non-Tensor input_map values are converted inside the import's scope, under "_inputs".
        r = tf.import_graph_def(gd, input_map={"x:0": [[1., 2.]]}, return_elements=["y:0"])
        assert r[0].name == "import_1/y:0" and r[0].op.inputs[0].name == "import_1/_inputs/Const:0"
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, input_map={"x:0": "abc"}, return_elements=["y:0"])
        assert str(e.value) == ("Input 0 of node import_2/y was passed string from import_2/_inputs/Const:0 "
                                "incompatible with expected float.")
        with pytest.raises(ValueError) as e:
            tf.import_graph_def(gd, input_map={"x:0": [[1., 2.]]}, name="")
        assert str(e.value).startswith("tf.import_graph_def() requires a non-empty `name` if `input_map` "
                                       "contains non-Tensor values.")
        assert tf.import_graph_def(gd, return_elements=["y:0"])[0].name == "import_3/y:0"


def test_import_of_a_frozen_graph_with_an_input_map_runs():
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable([[1.], [2.]], name="w")
        tf.nn.relu(tf.matmul(x, w, name="y"), name="z")
        with tf.Session() as s:
            s.run(w.initializer)
            frozen = tf.graph_util.convert_variables_to_constants(s, g.as_graph_def(), ["z"])
    assert [(n.name, n.op) for n in frozen.node] == [
        ("x", "Placeholder"), ("w", "Const"), ("w/read", "Identity"), ("y", "MatMul"), ("z", "Relu")]
    with tf.Graph().as_default():
        r = tf.import_graph_def(frozen, return_elements=["z:0", "x"], name="imp")
        assert r[0].name == "imp/z:0" and r[1].name == "imp/x"
        (z,) = tf.import_graph_def(frozen, input_map={"x:0": tf.constant([[1., 1.]])}, return_elements=["z:0"],
                                   name="m")
        with tf.Session() as s:
            np.testing.assert_array_equal(s.run(z), [[3.]])


# -- checkpoint readers ----------------------------------------------------------------------------

def _save(path, names):
    with tf.Graph().as_default():
        for n in names:
            tf.Variable(1.0, name=n)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            return tf.train.Saver().save(s, path)


def test_reader_maps_iterate_in_tfs_unordered_map_order(tmp_path):
    cases = [
        (["a", "b", "c"], ["c", "b", "a"]),
        (["x/y", "a", "m", "b/c", "zz", "k1", "k2", "k3", "q"],
         ["q", "x/y", "k3", "k2", "m", "k1", "zz", "b/c", "a"]),
        (["v%d" % i for i in range(15)],
         ["v9", "v8", "v0", "v10", "v11", "v6", "v12", "v5", "v13", "v14", "v2", "v3", "v1", "v4", "v7"]),
    ]
    for k, (names, order) in enumerate(cases):
        p = _save(str(tmp_path / f"m{k}"), names)
        r = tf.train.NewCheckpointReader(p)
        assert list(r.get_variable_to_shape_map()) == order
        assert list(r.get_variable_to_dtype_map()) == order
        assert [n for n, _ in tf.train.list_variables(p)] == sorted(names)


def test_init_from_checkpoint_names_the_map_in_tfs_order(tmp_path):
    with tf.Graph().as_default():
        with tf.variable_scope("enc"):
            tf.get_variable("w", initializer=tf.constant([[1., 2.], [3., 4.]]))
            tf.get_variable("b", initializer=tf.constant([5., 6.]))
        with tf.variable_scope("other"):
            tf.get_variable("o", initializer=tf.constant([7.]))
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            p = tf.train.Saver().save(s, str(tmp_path / "m"))
    with tf.Graph().as_default():
        w = tf.get_variable("w", [2, 2])
        with pytest.raises(ValueError) as e:
            tf.train.init_from_checkpoint(p, {"enc/nope": w})
        assert str(e.value) == (f"Tensor enc/nope is not found in {p} checkpoint "
                                "{'other/o': [1], 'enc/w': [2, 2], 'enc/b': [2]}")


def test_restoring_from_a_directory_or_a_foreign_file_is_a_data_loss(tmp_path):
    d = str(tmp_path)
    with tf.Graph().as_default():
        v = tf.Variable([1., 2.], name="v")
        sv = tf.train.Saver()
        with tf.Session() as s:
            s.run(v.initializer)
            sv.save(s, os.path.join(d, "model"), global_step=1)
            with pytest.raises(tf.errors.DataLossError) as e:
                sv.restore(s, d)
            assert (f"Unable to open table file {d}: FAILED_PRECONDITION: {d}; Is a directory: perhaps your file "
                    "is in a different file format and you need to use a different restore operator?") \
                in str(e.value)
            junk = os.path.join(d, "junk.txt")
            with open(junk, "w") as f:
                f.write("hello")
            with pytest.raises(tf.errors.DataLossError) as e:
                sv.restore(s, junk)
            assert f"Unable to open table file {junk}: DATA_LOSS: file is too short to be an sstable" in str(e.value)
            with pytest.raises(ValueError) as e:
                sv.restore(s, os.path.join(d, "nope"))
            assert str(e.value) == f"The passed save_path is not a valid checkpoint: {d}/nope"
    assert tf.train.checkpoint_exists(d) and tf.train.checkpoint_exists(os.path.join(d, "model-1.meta"))
    assert tf.train.checkpoint_exists(os.path.join(d, "mod*"))
    assert not tf.train.checkpoint_exists(os.path.join(d, "nope"))
    with pytest.raises(tf.errors.DataLossError) as e:
        tf.train.NewCheckpointReader(d)
    assert str(e.value) == (f"Unable to open table file {d}: FAILED_PRECONDITION: {d}; Is a directory: perhaps "
                            "your file is in a different file format and you need to use a different restore "
                            "operator?")
    with pytest.raises(tf.errors.NotFoundError) as e:
        tf.train.NewCheckpointReader(os.path.join(d, "nonexist"))
    assert str(e.value) == (f"Unsuccessful TensorSliceReader constructor: Failed to find any matching files for "
                            f"{d}/nonexist")
    np.testing.assert_array_equal(tf.train.load_variable(d, "v"), [1., 2.])


def test_saver_round_trip_and_checkpoint_state(tmp_path):
    d = str(tmp_path)
    with tf.Graph().as_default():
        tf.Variable([1., 2.], name="v")
        gs = tf.train.get_or_create_global_step()
        inc = tf.assign_add(gs, 1)
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            for _ in range(4):
                s.run(inc)
                saver.save(s, os.path.join(d, "model"), global_step=gs)
    assert [os.path.basename(p) for p in saver.last_checkpoints] == ["model-3", "model-4"]
    assert sorted(os.listdir(d)) == [
        "checkpoint", "model-3.data-00000-of-00001", "model-3.index", "model-3.meta",
        "model-4.data-00000-of-00001", "model-4.index", "model-4.meta"]
    assert tf.train.latest_checkpoint(d) == os.path.join(d, "model-4")
    assert tf.train.list_variables(d) == [("global_step", []), ("v", [2])]


# -- variables ---------------------------------------------------------------------------------------

def test_update_ops_name_the_op_and_parameter_of_a_failed_conversion():
    with tf.Graph().as_default():
        v = tf.Variable([1, 2, 3, 4], name="v")
        f = tf.Variable([1., 2.], name="f")
        cases = [
            (lambda: tf.assign(v, [1., 2., 3., 4.]),
             "Expected int32 passed to parameter 'value' of op 'Assign', got [1.0, 2.0, 3.0, 4.0] of type 'list' "
             "instead. Error: Expected int32, but got 1.0 of type 'float'."),
            (lambda: v.assign([1., 2., 3., 4.]),
             "Expected int32 passed to parameter 'value' of op 'Assign', got [1.0, 2.0, 3.0, 4.0] of type 'list' "
             "instead. Error: Expected int32, but got 1.0 of type 'float'."),
            (lambda: v.assign_sub([1.5, 2., 3., 4.]),
             "Expected int32 passed to parameter 'value' of op 'AssignSub', got [1.5, 2.0, 3.0, 4.0] of type "
             "'list' instead. Error: Expected int32, but got 1.5 of type 'float'."),
            (lambda: tf.scatter_update(v, [0], [1.5]),
             "Expected int32 passed to parameter 'updates' of op 'ScatterUpdate', got [1.5] of type 'list' "
             "instead. Error: Expected int32, but got 1.5 of type 'float'."),
            (lambda: tf.scatter_nd_update(v, [[0]], [1.5]),
             "Expected int32 passed to parameter 'updates' of op 'ScatterNdUpdate', got [1.5] of type 'list' "
             "instead. Error: Expected int32, but got 1.5 of type 'float'."),
            (lambda: tf.assign(f, ["a", "b"]),
             "Expected float32 passed to parameter 'value' of op 'Assign', got ['a', 'b'] of type 'list' "
             "instead. Error: Expected float32, but got a of type 'str'."),
            (lambda: tf.assign(f, tf.constant([1, 2])),
             "Input 'value' of 'Assign' Op has type int32 that does not match type float32 of argument 'ref'."),
        ]
        for fn, msg in cases:
            with pytest.raises(TypeError) as e:
                fn()
            assert str(e.value) == msg
        # A NumPy float array converts to int32 silently (as TF).
        assert tf.assign_add(v, np.array([1.5, 2., 3., 4.])).name == "AssignAdd:0"


def test_a_variable_named_empty_takes_its_op_types_name():
    with tf.Graph().as_default() as g:
        with tf.name_scope("outer"):
            v = tf.Variable([1.0], name="")
            w = tf.Variable([2.0], name="")
        assert (v.name, w.name, v.initializer.name, v.value().name, v.initial_value.name, w.initializer.name) == (
            "VariableV2:0", "VariableV2_1:0", "Assign", "read:0", "initial_value:0", "Assign_1")
        assert [(o.name, o.type) for o in g.get_operations()] == [
            ("initial_value", "Const"), ("VariableV2", "VariableV2"), ("Assign", "Assign"), ("read", "Identity"),
            ("initial_value_1", "Const"), ("VariableV2_1", "VariableV2"), ("Assign_1", "Assign"),
            ("read_1", "Identity")]
        assert tf.get_variable("", [1]).name == "VariableV2_2:0"
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            assert [x.tolist() for x in s.run([v, w])] == [[1.0], [2.0]]


def test_resource_variable_gather_nd():
    with tf.Graph().as_default():
        r = tf.get_variable("r", initializer=tf.constant(np.arange(12.).reshape(3, 4), tf.float32),
                            use_resource=True)
        a = r.gather_nd([[0], [2]])
        b = r.gather_nd([[0, 1], [2, 3]], name="gg")
        c = r.gather_nd([1, 2])
        assert (a.name, a.shape, b.name, b.shape, c.name, c.shape) == (
            "Identity:0", (2, 4), "Identity_1:0", (2,), "Identity_2:0", ())
        assert (a.op.inputs[0].op.type, a.op.inputs[0].op.name) == ("ResourceGatherNd", "GatherNd")
        ga = tf.gradients(tf.reduce_sum(a) * 2., r)[0]
        gb = tf.gradients(tf.reduce_sum(b), r)[0]
        assert isinstance(ga, tf.IndexedSlices) and isinstance(gb, tf.Tensor)
        with pytest.raises(ValueError) as e:
            r.gather_nd([[0, 1, 2]])
        assert str(e.value).startswith("indices.shape[-1] must be <= params.rank, but saw indices shape: [1,3] "
                                       "and params shape: [3,4] for '{{node GatherNd_2}} = ResourceGatherNd")
        with tf.Session() as s:
            s.run(r.initializer)
            av, bv, cv = s.run([a, b, c])
            np.testing.assert_array_equal(av, [[0, 1, 2, 3], [8, 9, 10, 11]])
            np.testing.assert_array_equal(bv, [1, 11])
            assert cv == 6.0
            np.testing.assert_array_equal(s.run(tf.convert_to_tensor(ga)), [[2] * 4, [0] * 4, [2] * 4])
            np.testing.assert_array_equal(s.run(gb), [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])
            with pytest.raises(tf.errors.InvalidArgumentError):
                s.run(r.gather_nd([[5]]))


def test_variable_scope_reuse_errors_are_tfs():
    with tf.Graph().as_default():
        with tf.variable_scope("a"):
            tf.get_variable("v", [2, 3])
        with pytest.raises(ValueError) as e:
            tf.get_variable("a/v", [2, 3])
        assert str(e.value).startswith("Variable a/v already exists, disallowed. Did you mean to set reuse=True "
                                       "or reuse=tf.AUTO_REUSE in VarScope?")
        with tf.variable_scope("a", reuse=True):
            with pytest.raises(ValueError) as e:
                tf.get_variable("w", [2, 3])
            assert str(e.value) == ("Variable a/w does not exist, or was not created with tf.get_variable(). "
                                    "Did you mean to set reuse=tf.AUTO_REUSE in VarScope?")
            with pytest.raises(ValueError) as e:
                tf.get_variable("v", [2, 4])
            assert str(e.value) == "Trying to share variable a/v, but specified shape (2, 4) and found shape (2, 3)."
            with pytest.raises(ValueError) as e:
                tf.get_variable("v", [2, 3], dtype=tf.int32)
            assert str(e.value) == ("Trying to share variable a/v, but specified dtype int32 and found dtype "
                                    "float32_ref.")


def test_assert_variables_initialized_with_a_resource_variable():
    # Recorded from TF 2.21: the ranks of a ref and a resource variable, stacked; running it
    # before initialization is a FailedPreconditionError.
    with tf.Graph().as_default():
        tf.Variable(1.0)
        tf.get_variable("r", [2], use_resource=True)
        a = tf.assert_variables_initialized()
        assert (a.name, a.op.type) == ("stack:0", "Pack")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(a)
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(a), [0, 1])


def test_one_hot_float_depth_message():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.one_hot([0, 1], depth=2.5)
    assert str(e.value) == ("Expected int32 passed to parameter 'depth' of op 'OneHot', got 2.5 of type "
                            "'float' instead. Error: Expected int32, but got 2.5 of type 'float'.")
