"""SavedModel export and loading; `tensorweave inspect`."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.serving.inspect import inspect_path


def _export(export_dir):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]], name="w")
    y = tf.matmul(x, w, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(w.assign([[3.0], [4.0]]))
        tf.saved_model.simple_save(sess, export_dir, {"x": x}, {"y": y})


def test_simple_save_and_load(tmp_path):
    d = str(tmp_path / "model")
    _export(d)
    assert sorted(os.listdir(d)) == ["saved_model.pb", "variables"]
    assert sorted(os.listdir(os.path.join(d, "variables"))) == ["variables.data-00000-of-00001",
                                                                "variables.index"]
    assert tf.saved_model.loader.maybe_saved_model_directory(d)
    with tf.Graph().as_default(), tf.Session() as sess:
        mgd = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], d)
        assert list(mgd.meta_info_def.tags) == ["serve"]
        sig = mgd.signature_def[tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        assert sig.method_name == "tensorflow/serving/predict"
        assert sig.inputs["x"].name == "x:0" and sig.inputs["x"].dtype == tf.float32.as_datatype_enum
        assert [d.size for d in sig.inputs["x"].tensor_shape.dim] == [-1, 2]
        out = sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: [[1.0, 1.0]]})
        np.testing.assert_allclose(out, [[7.0]])
        assert [v.name for v in tf.global_variables()] == ["w:0"]
    with tf.Graph().as_default(), tf.Session() as sess, pytest.raises(RuntimeError, match="could not be found"):
        tf.saved_model.loader.load(sess, ["train"], d)


def test_builder_multiple_meta_graphs_main_op_and_errors(tmp_path):
    d = str(tmp_path / "b")
    x = tf.placeholder(tf.float32, [None], name="x")
    v = tf.Variable(2.0, name="v")
    counter = tf.Variable(0.0, name="counter", trainable=False)
    y = tf.multiply(x, v, name="y")
    main_op = tf.assign(counter, 10.0).op
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        b = tf.saved_model.builder.SavedModelBuilder(d)
        with pytest.raises(AssertionError, match="has not been saved yet"):
            b.add_meta_graph(["x"])
        sig = tf.saved_model.signature_def_utils.build_signature_def(
            {"x": tf.saved_model.utils.build_tensor_info(x)}, {"y": tf.saved_model.utils.build_tensor_info(y)},
            tf.saved_model.signature_constants.PREDICT_METHOD_NAME)
        b.add_meta_graph_and_variables(sess, [tf.saved_model.tag_constants.TRAINING],
                                       signature_def_map={"pred": sig}, main_op=main_op)
        b.add_meta_graph([tf.saved_model.tag_constants.SERVING, "gpu"], signature_def_map={"pred": sig})
        # TF 2.21 accepts a repeated tag set (a second MetaGraphDef; load finds the first);
        # a reserved signature key is its KeyError
        b.add_meta_graph([tf.saved_model.tag_constants.SERVING, "gpu"])
        with pytest.raises(KeyError, match="reserved for initialization"):
            b.add_meta_graph(["t2"], signature_def_map={"__saved_model_init_op": sig})
        path = b.save(as_text=True)
    assert path.endswith(b"saved_model.pbtxt")
    with pytest.raises(AssertionError, match="isn't empty"):
        tf.saved_model.builder.SavedModelBuilder(d)
    with tf.Graph().as_default(), tf.Session() as sess:
        tf.saved_model.loader.load(sess, ["train"], d)
        assert sess.run("counter:0") == 10.0  # the main op ran after restoring
        assert sess.run("y:0", {"x:0": [3.0]}) == [6.0]
    with tf.Graph().as_default(), tf.Session() as sess:
        mgd = tf.saved_model.loader.load(sess, ["gpu", "serve"], d)
        assert sorted(mgd.meta_info_def.tags) == ["gpu", "serve"]
    with pytest.raises(ValueError):
        tf.saved_model.signature_def_utils.predict_signature_def({}, {"y": y})


def test_inspect_saved_model_and_checkpoints(tmp_path, capsys):
    d = str(tmp_path / "model")
    _export(d)
    text = "\n".join(inspect_path(d))
    assert "MetaGraphDef with tags ['serve']" in text
    assert "signature 'serving_default' (tensorflow/serving/predict)" in text
    assert "input x: x:0  float32  (?, 2)" in text and "output y: y:0  float32  (?, 1)" in text
    assert "w  float32   [2, 1]" in text
    tf.reset_default_graph()
    tf.Variable(np.zeros((3, 4), np.float32), name="layer/kernel")
    tf.Variable(7, name="step")
    saver = tf.train.Saver()
    os.makedirs(tmp_path / "ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        prefix = saver.save(sess, str(tmp_path / "ckpt" / "model"), global_step=1)
    for path in (prefix, str(tmp_path / "ckpt")):
        lines = inspect_path(path)
        assert lines[0] == f"checkpoint: {prefix}"
        assert any("layer/kernel" in ln and "float32" in ln and "[3, 4]" in ln for ln in lines)
        assert any(ln.split()[:2] == ["step", "int32"] for ln in lines)
    from tensorweave import cli
    assert cli.main(["inspect", prefix]) == 0
    assert "layer/kernel" in capsys.readouterr().out
    assert cli.main(["inspect", str(tmp_path / "nothing")]) == 1
    assert "no such checkpoint" in capsys.readouterr().err
