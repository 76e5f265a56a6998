"""MetaGraphDef export/import: resume training from files alone."""

import numpy as np
import pytest

import tensorweave as tf

X = np.array([[1, 2], [3, 4], [0, 1]], np.float32)
Y = np.array([[1], [2], [0.5]], np.float32)


def _build_and_train(tmp_path):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    yt = tf.placeholder(tf.float32, [None, 1], name="yt")
    w = tf.Variable(tf.zeros([2, 1]), name="w")
    b = tf.Variable(0.0, name="b")
    step = tf.train.get_or_create_global_step()
    tf.Variable(5, trainable=False, name="counter")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - yt), name="loss")
    train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=step, name="train")
    tf.add_to_collection("train_op", train)
    tf.add_to_collection(tf.GraphKeys.LOSSES, loss)
    tf.add_to_collection("notes", "hello")
    tf.add_to_collection("numbers", 3)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train, {x: X, yt: Y})
        path = saver.save(sess, str(tmp_path / "model"), global_step=step)
        for _ in range(2):
            sess.run(train, {x: X, yt: Y})
        expected = sess.run(loss, {x: X, yt: Y})
    return path, expected


def test_resume_training_from_files_alone(tmp_path):
    path, expected = _build_and_train(tmp_path)
    tf.reset_default_graph()
    saver = tf.train.import_meta_graph(path + ".meta")
    assert saver is not None
    assert [v.name for v in tf.global_variables()] == ["w:0", "b:0", "global_step:0", "counter:0"]
    assert [v.name for v in tf.trainable_variables()] == ["w:0", "b:0"]
    assert tf.get_collection("notes") == [b"hello"]  # bytes_list, as TF returns it
    assert tf.get_collection("numbers") == [3]
    assert tf.get_collection(tf.GraphKeys.LOSSES)[0].name == "loss:0"
    train = tf.get_collection("train_op")[0]
    assert isinstance(train, tf.Operation) and train.name == "train"
    with tf.Session() as sess:
        saver.restore(sess, path)
        assert sess.run(tf.train.get_global_step()) == 3
        for _ in range(2):
            sess.run(train, {"x:0": X, "yt:0": Y})
        np.testing.assert_allclose(sess.run("loss:0", {"x:0": X, "yt:0": Y}), expected, rtol=1e-6)
        w = tf.trainable_variables()[0]
        sess.run(w.initializer)  # the imported Variable's ops work
        np.testing.assert_array_equal(sess.run(w), np.zeros((2, 1)))


def test_export_returns_meta_graph_def_with_collections_and_text(tmp_path):
    x = tf.placeholder(tf.float32, [None], name="x")
    v = tf.Variable(1.0, name="v")
    tf.add_to_collection("outs", tf.add(x, v, name="out"))
    mgd = tf.train.export_meta_graph(str(tmp_path / "m.meta.txt"), as_text=True)
    assert isinstance(mgd, tf.MetaGraphDef)
    assert set(mgd.collection_def) >= {"variables", "trainable_variables", "outs"}
    assert list(mgd.collection_def["outs"].node_list.value) == ["out:0"]
    vd = mgd.collection_def["variables"].bytes_list.value[0]
    from tensorweave.protos.variable_pb2 import VariableDef
    vdef = VariableDef.FromString(vd)
    assert (vdef.variable_name, vdef.initializer_name, vdef.snapshot_name) == ("v:0", "v/Assign", "v/read:0")
    assert "_output_shapes" in {k for n in mgd.graph_def.node for k in n.attr}
    tf.reset_default_graph()
    assert tf.train.import_meta_graph(str(tmp_path / "m.meta.txt")) is not None
    assert tf.get_collection("outs")[0].name == "out:0"


def test_import_scope_and_no_variables(tmp_path):
    a = tf.constant(2.0, name="a")
    tf.add_to_collection("things", tf.multiply(a, 3.0, name="m"))
    mgd = tf.train.export_meta_graph()
    with tf.Graph().as_default() as g:
        assert tf.train.import_meta_graph(mgd, import_scope="s") is None
        assert g.get_collection("things")[0].name == "s/m:0"
        with tf.Session() as sess:
            assert sess.run("s/m:0") == 6.0
    with pytest.raises(IOError):
        tf.train.import_meta_graph(str(tmp_path / "missing.meta"))
