"""tf.train.warm_start: plain, by scope list, renamed, partitioned (re-partitioned), and with
vocabulary remapping along rows and columns. Expected values were recorded from TF 2.21
(tensorflow.compat.v1, graph mode) running the same program."""

import pytest

import tensorweave as tf
from tensorweave.train.warm_starting_util import WarmStartSettings


@pytest.fixture
def ckpt(tmp_path):
    (tmp_path / "old.txt").write_text("apple\nbanana\ncherry\n")
    (tmp_path / "new.txt").write_text("cherry\ndate\napple\nfig\n")
    with tf.Graph().as_default():
        with tf.variable_scope("m"):
            tf.get_variable("w", [2, 2], initializer=tf.constant_initializer([[1, 2], [3, 4]]))
            tf.get_variable("b", [2], initializer=tf.constant_initializer([5, 6]))
            tf.get_variable("emb", [3, 2], initializer=tf.constant_initializer([[1, 1], [2, 2], [3, 3]]))
            tf.get_variable("out", [2, 3], initializer=tf.constant_initializer([[1, 2, 3], [4, 5, 6]]))
        with tf.variable_scope("p", partitioner=tf.fixed_size_partitioner(2)):
            tf.get_variable("pv", [4, 2], initializer=tf.constant_initializer(7.0))
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return tmp_path, saver.save(sess, str(tmp_path / "model.ckpt"))


def _fresh():
    with tf.variable_scope("m"):
        w = tf.get_variable("w", [2, 2], initializer=tf.zeros_initializer())
        b = tf.get_variable("b", [2], initializer=tf.zeros_initializer())
        emb = tf.get_variable("emb", [5, 2], initializer=tf.zeros_initializer())
        out = tf.get_variable("out", [2, 4], initializer=tf.zeros_initializer())
    with tf.variable_scope("p", partitioner=tf.fixed_size_partitioner(3)):
        pv = tf.get_variable("pv", [4, 2], initializer=tf.zeros_initializer())
    return w, b, emb, out, pv


def _values(vs):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [sess.run(tf.convert_to_tensor(v)).tolist() for v in vs]


def test_warm_start_by_scope_list_including_a_repartitioned_variable(ckpt):
    _, path = ckpt
    with tf.Graph().as_default():
        vs = _fresh()
        tf.train.warm_start(path, vars_to_warm_start=["m/w", "p/"])
        assert _values(vs) == [[[1, 2], [3, 4]], [0, 0], [[0, 0]] * 5, [[0] * 4] * 2, [[7, 7]] * 4]


def test_warm_start_with_vocab_rows_and_columns(ckpt):
    d, _ = ckpt
    with tf.Graph().as_default():
        vs = _fresh()
        rows = tf.train.VocabInfo(new_vocab=str(d / "new.txt"), new_vocab_size=4, num_oov_buckets=1,
                                  old_vocab=str(d / "old.txt"), backup_initializer=tf.ones_initializer())
        cols = tf.train.VocabInfo(new_vocab=str(d / "new.txt"), new_vocab_size=4, num_oov_buckets=0,
                                  old_vocab=str(d / "old.txt"), axis=1)
        tf.train.warm_start(str(d), vars_to_warm_start=".*emb.*|.*out.*|.*b$",
                            var_name_to_vocab_info={"m/emb": rows, "m/out": cols})
        assert _values(vs) == [[[0, 0], [0, 0]], [0, 0],
                               [[3, 3], [1, 1], [1, 1], [1, 1], [1, 1]],
                               [[3, 0, 1, 0], [6, 0, 4, 0]],
                               [[0, 0]] * 4]


def test_warm_start_renamed_and_errors(ckpt):
    d, _ = ckpt
    with tf.Graph().as_default():
        with tf.variable_scope("n"):
            w2 = tf.get_variable("w2", [2, 2])
        tf.train.warm_start(str(d), vars_to_warm_start="n/", var_name_to_prev_var_name={"n/w2": "m/w"})
        assert _values([w2]) == [[[1, 2], [3, 4]]]
        with pytest.raises(ValueError, match="must be a `list` or `str`"):
            tf.train.warm_start(str(d), vars_to_warm_start=3)
        with pytest.raises(ValueError, match="must be all `Variable` or all `str`"):
            tf.train.warm_start(str(d), vars_to_warm_start=[w2, "x"])
    with tf.Graph().as_default():
        with tf.variable_scope("m"):
            tf.get_variable("w", [2, 2])
        with pytest.raises(ValueError, match="var_name_to_prev_var_name that were not used"):
            tf.train.warm_start(str(d), var_name_to_prev_var_name={"zz": "m/w"})
    with tf.Graph().as_default():
        tf.get_variable("x", [2])
        with pytest.raises(ValueError, match="Tensor x is not found"):
            tf.train.warm_start(str(d))


def test_warm_start_settings():
    s = WarmStartSettings("/ckpt")
    assert (s.ckpt_to_initialize_from, s.vars_to_warm_start, s.var_name_to_vocab_info) == ("/ckpt", ".*", {})
    with pytest.raises(ValueError, match="MUST be set"):
        WarmStartSettings(None)
