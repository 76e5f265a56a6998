"""tf.train.Saver: round trips, var_list forms, TF's op names, max_to_keep and
keep_checkpoint_every_n_hours, the `checkpoint` state file, errors and failed restores."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.train import checkpoint_format, saver as saver_mod


def _model(w_value=None, b_value=1.0, w_shape=(2, 3), b_dtype=tf.float32):
    w = tf.Variable(np.arange(6, dtype=np.float32).reshape(w_shape) if w_value is None else w_value, name="w")
    b = tf.Variable(tf.constant(b_value, dtype=b_dtype), name="b")
    return w, b


def _save_simple(tmp_path, **kw):
    with tf.Graph().as_default():
        w, b = _model()
        gs = tf.train.get_or_create_global_step()
        saver = tf.train.Saver(**kw)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(gs.assign(7))
            path = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=gs, write_meta_graph=False)
    return path


def test_op_names_match_tensorflow():
    # Recorded from TensorFlow 2.x compat.v1 (tf.train.Saver() over b, global_step, w).
    with tf.Graph().as_default() as g:
        _model()
        tf.train.get_or_create_global_step()
        saver = tf.train.Saver()
        names = [(op.name, op.type) for op in g.get_operations() if op.name.startswith("save")]
        sd = saver.saver_def
    assert names == [
        ("save/filename/input", "Const"), ("save/filename", "PlaceholderWithDefault"),
        ("save/Const", "PlaceholderWithDefault"), ("save/SaveV2/tensor_names", "Const"),
        ("save/SaveV2/shape_and_slices", "Const"), ("save/SaveV2", "SaveV2"),
        ("save/control_dependency", "Identity"), ("save/RestoreV2/tensor_names", "Const"),
        ("save/RestoreV2/shape_and_slices", "Const"), ("save/RestoreV2", "RestoreV2"),
        ("save/Assign", "Assign"), ("save/Assign_1", "Assign"), ("save/Assign_2", "Assign"),
        ("save/restore_all", "NoOp")]
    assert sd.filename_tensor_name == "save/Const:0"
    assert sd.save_tensor_name == "save/control_dependency:0"
    assert sd.restore_op_name == "save/restore_all"
    assert sd.max_to_keep == 5 and sd.keep_checkpoint_every_n_hours == 10000


def test_round_trip_fresh_graph_and_session(tmp_path):
    path = _save_simple(tmp_path)
    assert path == str(tmp_path / "model.ckpt-7")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "model.ckpt-7.data-00000-of-00001",
                                            "model.ckpt-7.index"]
    with tf.Graph().as_default():
        w, b = _model(w_value=np.zeros((2, 3), np.float32), b_value=0.0)
        gs = tf.train.get_or_create_global_step()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, tf.train.latest_checkpoint(str(tmp_path)))  # no initializer needed
            wv, bv, step = sess.run([w, b, gs])
    np.testing.assert_array_equal(wv, np.arange(6, dtype=np.float32).reshape(2, 3))
    assert bv == np.float32(1.0) and bv.dtype == np.float32
    assert step == 7 and step.dtype == np.int64


def test_many_dtypes_round_trip(tmp_path):
    values = {"f16": np.array([1.5, -2], np.float16), "f64": np.array([[1e-300]], np.float64),
              "i8": np.array([-3], np.int8), "i32": np.arange(5, dtype=np.int32),
              "u8": np.array([255], np.uint8), "bool": np.array([True, False]),
              "c64": np.array([1 + 2j], np.complex64), "c128": np.array([[3 - 1j]], np.complex128),
              "s": np.array([b"ab", b"", "\u00e9".encode()], dtype=object), "empty": np.zeros((0, 3), np.float32),
              "scalar": np.float64(2.5)}
    with tf.Graph().as_default():
        vs = {k: tf.Variable(v, name=k) for k, v in values.items()}
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, str(tmp_path / "m"), write_meta_graph=False)
    with tf.Graph().as_default():
        vs = {k: tf.Variable(np.zeros_like(v) if k != "s" else np.array([b"", b"", b""], dtype=object), name=k)
              for k, v in values.items()}
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, str(tmp_path / "m"))
            got = sess.run(vs)
    for k, v in values.items():
        assert np.asarray(got[k]).dtype == np.asarray(v).dtype, k
        np.testing.assert_array_equal(got[k], v)
    reader = tf.train.NewCheckpointReader(str(tmp_path / "m"))
    assert reader.get_variable_to_dtype_map()["c64"] == tf.complex64
    assert reader.get_variable_to_shape_map()["empty"] == [0, 3]


def test_var_list_as_list_and_dict_renaming(tmp_path):
    with tf.Graph().as_default():
        w, b = _model()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver([w]).save(sess, str(tmp_path / "only_w"), write_meta_graph=False)
            tf.train.Saver({"layer/kernel": w, "layer/bias": b}).save(sess, str(tmp_path / "renamed"),
                                                                      write_meta_graph=False)
    assert tf.train.list_variables(str(tmp_path / "only_w")) == [("w", [2, 3])]
    assert tf.train.list_variables(str(tmp_path / "renamed")) == [("layer/bias", []), ("layer/kernel", [2, 3])]
    with tf.Graph().as_default():
        other = tf.Variable(tf.zeros([2, 3]), name="other")
        bias = tf.Variable(0.0, name="bias")
        saver = tf.train.Saver({"layer/kernel": other, "layer/bias": bias})
        with tf.Session() as sess:
            saver.restore(sess, str(tmp_path / "renamed"))
            np.testing.assert_array_equal(sess.run(other), np.arange(6).reshape(2, 3))
            assert sess.run(bias) == 1.0


def test_var_list_errors_match_tensorflow():
    # Messages recorded from TensorFlow.
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^No variables to save$"):
            tf.train.Saver()
        assert tf.train.Saver(allow_empty=True).saver_def is None
        w = tf.Variable(tf.zeros([2]), name="w")
        with pytest.raises(ValueError, match="The same saveable will be restored with two names: b"):
            tf.train.Saver({"a": w, "b": w})
        with pytest.raises(TypeError, match="Variable to save is not a Variable"):
            tf.train.Saver([w.read_value()])
        with tf.variable_scope("s"):
            pass
        w2 = tf.Variable(tf.zeros([2]), name="w2")
        w2.op._name = "w"  # two distinct variables with one name cannot happen in TF; force it
        with pytest.raises(ValueError, match="At least two variables have the same name: w"):
            tf.train.Saver([w, w2])


def test_empty_saver_save_returns_none(tmp_path):
    with tf.Graph().as_default():
        saver = tf.train.Saver(allow_empty=True)
        with tf.Session() as sess:
            assert saver.save(sess, str(tmp_path / "empty"), write_meta_graph=False) is None
            saver.restore(sess, str(tmp_path / "empty"))
    assert not os.path.exists(tmp_path / "checkpoint")


def test_state_file_content_and_helpers(tmp_path):
    with tf.Graph().as_default():
        _model()
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in (0, 100, 200):
                saver.save(sess, str(tmp_path / "model.ckpt"), global_step=step, write_meta_graph=False)
            saver.save(sess, str(tmp_path / "model.ckpt"), write_meta_graph=False)
    d = str(tmp_path)
    # The text TensorFlow writes for the same calls.
    assert open(os.path.join(d, "checkpoint")).read() == (
        f'model_checkpoint_path: "{d}/model.ckpt"\n'
        f'all_model_checkpoint_paths: "{d}/model.ckpt-200"\n'
        f'all_model_checkpoint_paths: "{d}/model.ckpt"\n')
    st = tf.train.get_checkpoint_state(d)
    assert st.model_checkpoint_path == f"{d}/model.ckpt"
    assert list(st.all_model_checkpoint_paths) == [f"{d}/model.ckpt-200", f"{d}/model.ckpt"]
    assert tf.train.latest_checkpoint(d) == f"{d}/model.ckpt"
    assert tf.train.checkpoint_exists(f"{d}/model.ckpt-200")
    assert not tf.train.checkpoint_exists(f"{d}/model.ckpt-100")
    assert tf.train.get_checkpoint_state(str(tmp_path / "nowhere")) is None
    assert tf.train.latest_checkpoint(str(tmp_path / "nowhere")) is None
    # update_checkpoint_state with a relative directory writes relative paths.
    cwd = os.getcwd()
    try:
        os.chdir(d)
        tf.train.update_checkpoint_state("sub", "sub/a", ["sub/b", "sub/a"], latest_filename="ck")
        assert open("sub/ck").read() == 'model_checkpoint_path: "a"\nall_model_checkpoint_paths: "b"\n' \
                                        'all_model_checkpoint_paths: "a"\n'
        st = tf.train.get_checkpoint_state("sub", "ck")
        assert st.model_checkpoint_path == os.path.join("sub", "a")
    finally:
        os.chdir(cwd)


def test_state_file_quoting_round_trip(tmp_path):
    d = str(tmp_path / 'we"ird\\dir\u00e9')
    os.makedirs(d)
    tf.train.update_checkpoint_state(d, d + "/m-1", [d + "/m-1"])
    assert tf.train.get_checkpoint_state(d).model_checkpoint_path == d + "/m-1"


def test_max_to_keep_deletes_old_checkpoints(tmp_path):
    with tf.Graph().as_default():
        _model()
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            paths = [saver.save(sess, str(tmp_path / "m"), global_step=i, write_meta_graph=False) for i in range(5)]
            assert saver.last_checkpoints == paths[-2:]
            # Re-saving an existing name moves it to the end without duplicating it.
            saver.save(sess, str(tmp_path / "m"), global_step=3, write_meta_graph=False)
            assert saver.last_checkpoints == [paths[4], paths[3]]
    files = sorted(os.listdir(tmp_path))
    assert files == ["checkpoint", "m-3.data-00000-of-00001", "m-3.index", "m-4.data-00000-of-00001", "m-4.index"]


def test_max_to_keep_none_keeps_everything(tmp_path):
    with tf.Graph().as_default():
        _model()
        saver = tf.train.Saver(max_to_keep=None)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(4):
                saver.save(sess, str(tmp_path / "m"), global_step=i, write_meta_graph=False)
            assert saver.last_checkpoints == []
    assert all(tf.train.checkpoint_exists(str(tmp_path / f"m-{i}")) for i in range(4))


def test_keep_checkpoint_every_n_hours(tmp_path, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(saver_mod, "_now", lambda: clock[0])
    with tf.Graph().as_default():
        _model()
        saver = tf.train.Saver(max_to_keep=2, keep_checkpoint_every_n_hours=1.0)  # next keep at 1000 + 3600
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(8):   # one save every 20 fake minutes
                saver.save(sess, str(tmp_path / "m"), global_step=i, write_meta_graph=False)
                clock[0] += 1200.0
    kept = sorted(int(f[2:-6]) for f in os.listdir(tmp_path) if f.endswith(".index"))
    # As TF: a checkpoint leaving the max_to_keep window is kept when it is newer than the next
    # keep time (strictly): m-4 (t=5800 > 4600) is kept and the next keep time becomes 8200;
    # m-6 (t=8200) is not past it, but m-6 and m-7 are the two most recent.
    assert kept == [4, 6, 7]


def test_set_and_recover_last_checkpoints(tmp_path):
    with tf.Graph().as_default():
        _model()
        saver = tf.train.Saver(max_to_keep=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            paths = [saver.save(sess, str(tmp_path / "m"), global_step=i, write_meta_graph=False) for i in range(2)]
        saver2 = tf.train.Saver(max_to_keep=2)
        saver2.recover_last_checkpoints(paths + [str(tmp_path / "missing")])
        assert saver2.last_checkpoints == paths
        saver2.set_last_checkpoints_with_time([(paths[0], 5.0)])
        assert saver2.last_checkpoints == [paths[0]]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver2.save(sess, str(tmp_path / "m"), global_step=9, write_meta_graph=False)
            saver2.save(sess, str(tmp_path / "m"), global_step=10, write_meta_graph=False)
    assert not tf.train.checkpoint_exists(paths[0]) and tf.train.checkpoint_exists(paths[1])


def test_pad_step_number_and_relative_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tf.Graph().as_default():
        _model()
        saver = tf.train.Saver(pad_step_number=True, save_relative_paths=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert saver.save(sess, str(tmp_path / "m"), global_step=12, write_meta_graph=False) == \
                str(tmp_path / "m-00000012")
    assert open(tmp_path / "checkpoint").read().splitlines()[0] == 'model_checkpoint_path: "m-00000012"'


def test_save_errors(tmp_path):
    with tf.Graph().as_default():
        _model()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            # As TF 2.21: the save op creates one missing directory level, not two.
            with pytest.raises(ValueError, match="Parent directory of .* doesn't exist, can't save."):
                saver.save(sess, str(tmp_path / "no" / "deeper" / "m"))
            assert saver.save(sess, str(tmp_path / "new" / "m")) == str(tmp_path / "new" / "m")
            assert sorted(os.listdir(tmp_path / "new")) == \
                ["checkpoint", "m.data-00000-of-00001", "m.index", "m.meta"]
            with pytest.raises(ValueError, match="'latest_filename' must not contain path components"):
                saver.save(sess, str(tmp_path / "m"), latest_filename="a/b")
            with pytest.raises(ValueError, match="^Can't load save_path when it is None.$"):
                saver.restore(sess, None)
            with pytest.raises(ValueError, match="The passed save_path is not a valid checkpoint: "):
                saver.restore(sess, str(tmp_path / "nothere"))
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value v"):
                saver.save(sess, str(tmp_path / "m"))
    assert not os.path.exists(tmp_path / "checkpoint")


def _restore_fails(path, build, error, match):
    with tf.Graph().as_default():
        vs = build()
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            before = sess.run(vs)
            with pytest.raises(error, match=match) as info:
                saver.restore(sess, path)
            after = sess.run(vs)
    for x, y in zip(before, after):      # a failed restore changes no variable
        np.testing.assert_array_equal(x, y)
    return info.value


def test_missing_variable_not_found(tmp_path):
    path = _save_simple(tmp_path)
    err = _restore_fails(path, lambda: [*_model(np.full((2, 3), 5, np.float32), 5.0), tf.Variable(2.0, name="c")],
                         tf.errors.NotFoundError, "Key c not found in checkpoint")
    # TF's wrapping of the error.
    assert str(err).startswith("Restoring from checkpoint failed. This is most likely due to a Variable name or "
                               "other graph key that is missing from the checkpoint.")


def test_shape_mismatch_invalid_argument(tmp_path):
    path = _save_simple(tmp_path)
    # As TF 2.21: RestoreV2 checks dtypes only; w's Assign fails on the shape, after b's Assign
    # (b comes first in the restore) has already run.
    with tf.Graph().as_default():
        w, b = _model(np.full((3, 3), 5, np.float32), 5.0)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                saver.restore(sess, path)
            assert sess.run(b) == 1.0
    err = info.value.message     # (str() appends, as TF's, the failed op's creation stack)
    assert "mismatch between the current graph and the graph from the checkpoint" in err
    assert err.splitlines()[-2:] == ["Assign requires shapes of both tensors to match. lhs shape= [3,3] "
                                     "rhs shape= [2,3]", "\t [[{{node save/Assign_1}}]]"]


def test_dtype_mismatch_invalid_argument(tmp_path):
    path = _save_simple(tmp_path)
    _restore_fails(path, lambda: [tf.Variable(tf.zeros([2, 3]), name="w"), tf.Variable(5, name="b")],
                   tf.errors.InvalidArgumentError,
                   "tensor_name = b; expected dtype int32 does not equal original dtype float")


def _flip_byte(path, offset_from_end):
    raw = bytearray(open(path, "rb").read())
    raw[len(raw) - offset_from_end] ^= 0x55
    open(path, "wb").write(bytes(raw))


def test_corrupted_byte_is_data_loss_and_changes_nothing(tmp_path):
    path = _save_simple(tmp_path)
    _flip_byte(checkpoint_format.data_filename(path), 3)   # inside w's data (w is stored last)
    _restore_fails(path, lambda: list(_model(np.full((2, 3), 5, np.float32), 5.0)),
                   tf.errors.DataLossError, "checksum does not match")


def test_truncated_file_is_data_loss(tmp_path):
    path = _save_simple(tmp_path)
    data = checkpoint_format.data_filename(path)
    raw = open(data, "rb").read()
    for cut in (len(raw) - 1, 40, 4):
        open(data, "wb").write(raw[:cut])
        _restore_fails(path, lambda: list(_model(np.full((2, 3), 5, np.float32), 5.0)),
                       tf.errors.DataLossError, "truncated|corrupted")


def test_corrupted_or_truncated_index_is_data_loss(tmp_path):
    path = _save_simple(tmp_path)
    index = checkpoint_format.index_filename(path)
    raw = open(index, "rb").read()
    open(index, "wb").write(raw.replace(b'"shard": 0', b'"shard": 1', 1))
    _restore_fails(path, lambda: list(_model()), tf.errors.DataLossError, "checksum does not match")
    open(index, "wb").write(raw[: len(raw) // 2])
    _restore_fails(path, lambda: list(_model()), tf.errors.DataLossError, "corrupted or truncated")


def test_reshape_restores_same_size_variables(tmp_path):
    path = _save_simple(tmp_path)
    with tf.Graph().as_default():
        w = tf.Variable(tf.zeros([3, 2]), name="w")
        saver = tf.train.Saver([w], reshape=True)
        with tf.Session() as sess:
            saver.restore(sess, path)
            np.testing.assert_array_equal(sess.run(w), np.arange(6).reshape(3, 2))


def test_sharded_save_writes_one_shard_per_device(tmp_path):
    with tf.Graph().as_default() as g:
        with tf.device("/job:ps/task:0"):
            w = tf.Variable(np.ones((2, 2), np.float32), name="w")
        with tf.device("/job:ps/task:1"):
            b = tf.Variable(3.0, name="b")
        saver = tf.train.Saver(sharded=True)
        assert saver.saver_def.sharded and saver.saver_def.save_tensor_name == "save/Identity:0"
        ops = {op.name: op for op in g.get_operations()}
        assert ops["save/SaveV2"].device.startswith("/job:ps/task:0")
        assert ops["save/SaveV2_1"].device.startswith("/job:ps/task:1")
        assert ops["save/MergeV2Checkpoints"].type == "MergeV2Checkpoints"
        # A local session has no /job:ps devices: TF (and tensorweave's placer) raise
        # InvalidArgumentError unless soft placement puts those ops on local devices.
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
            sess.run(tf.global_variables_initializer())
            path = saver.save(sess, str(tmp_path / "m"), global_step=1, write_meta_graph=False)
            assert path == str(tmp_path / "m-1")
            sess.run([w.assign(tf.zeros([2, 2])), b.assign(0.0)])
            saver.restore(sess, path)
            assert sess.run(b) == 3.0 and sess.run(w).sum() == 4.0
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "m-1.data-00000-of-00002", "m-1.data-00001-of-00002",
                                            "m-1.index"]
    reader = tf.train.NewCheckpointReader(path)
    assert reader.get_variable_to_shape_map() == {"w": [2, 2], "b": []}
    # A sharded checkpoint restores into an unsharded saver too.
    with tf.Graph().as_default():
        w = tf.Variable(tf.zeros([2, 2]), name="w")
        b = tf.Variable(0.0, name="b")
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, path)
            assert sess.run(b) == 3.0


def test_saver_from_saver_def_reuses_graph_ops(tmp_path):
    with tf.Graph().as_default() as g:
        _model()
        s1 = tf.train.Saver()
        n_ops = len(g.get_operations())
        s2 = tf.train.Saver(saver_def=s1.as_saver_def())
        assert len(g.get_operations()) == n_ops
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = s2.save(sess, str(tmp_path / "m"), write_meta_graph=False)
            s2.restore(sess, path)


def test_defer_build(tmp_path):
    with tf.Graph().as_default():
        saver = tf.train.Saver(defer_build=True)
        _model()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(RuntimeError, match="build\\(\\)` should be called before save"):
                saver.save(sess, str(tmp_path / "m"))
            saver.build()
            assert saver.save(sess, str(tmp_path / "m"), write_meta_graph=False) == str(tmp_path / "m")
