"""tf.train.Checkpoint in graph mode: keys, numbering, restore statuses, name-based fallback.

Expected key lists and messages were recorded from TF 2.21 (tf.compat.v1, graph mode)."""

import os

import numpy as np
import pytest

import tensorweave as tf


def _keys(path):
    return [n for n, _ in tf.train.list_variables(path)]


def test_save_numbering_keys_and_state_file(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        w = tf.get_variable("w", shape=[2, 3], initializer=tf.ones_initializer())
        step = tf.Variable(0, name="step", dtype=tf.int64)
        ckpt = tf.train.Checkpoint(v=v, w=w, step=step)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            p1 = ckpt.save(str(tmp_path / "ckpt"), session=sess)
            p2 = ckpt.save(str(tmp_path / "ckpt"), session=sess)
            assert os.path.basename(p1) == "ckpt-1" and os.path.basename(p2) == "ckpt-2"
            # TF 2.21: list_variables of the second checkpoint
            assert tf.train.list_variables(p2) == [
                ("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
                ("step/.ATTRIBUTES/VARIABLE_VALUE", []), ("v/.ATTRIBUTES/VARIABLE_VALUE", [2]),
                ("w/.ATTRIBUTES/VARIABLE_VALUE", [2, 3])]
            assert tf.train.load_variable(p2, "save_counter/.ATTRIBUTES/VARIABLE_VALUE") == 2
            assert tf.train.latest_checkpoint(str(tmp_path)) == p2
            state = open(tmp_path / "checkpoint").read()
            assert state == 'model_checkpoint_path: "ckpt-2"\nall_model_checkpoint_paths: "ckpt-2"\n'
            sess.run(v.assign([5.0, 6.0]))
            status = ckpt.restore(p1)
            assert type(status).__name__ == "CheckpointLoadStatus"
            status.run_restore_ops(sess)
            np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
            assert status.assert_consumed() is status
            assert sess.run(ckpt.save_counter) == 1
        assert ckpt.save_counter.name == "save_counter:0"
        assert type(ckpt.save_counter).__name__ == "ResourceVariable"
        assert ckpt.save_counter.device == "/device:CPU:0"
        assert [x.name for x in tf.global_variables()] == ["v:0", "w:0", "step:0", "save_counter:0"]


def test_keras_optimizer_and_module_keys(tmp_path):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)), tf.keras.layers.Dense(1)])
        train = tf.train.AdamOptimizer(0.1)
        train_op = train.minimize(tf.reduce_mean(model(x)))

        class M(tf.Module):
            def __init__(self):
                super().__init__(name="m")
                self.a = tf.Variable(1.0, name="a")
                self.lst = [tf.Variable(2.0, name="b"), tf.Variable(3.0, name="c")]
                self.dct = {"k": tf.Variable(4.0, name="d")}

        ckpt = tf.train.Checkpoint(model=model, optimizer=train, m=M())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train_op, {x: [[1, 2, 3]]})
            p = ckpt.save(str(tmp_path / "ckpt"), session=sess)
            slot = ".OPTIMIZER_SLOT/optimizer/"
            layer = "model/layer_with_weights-%d/%s/.ATTRIBUTES/VARIABLE_VALUE"
            expected = ["_CHECKPOINTABLE_OBJECT_GRAPH", "m/a/.ATTRIBUTES/VARIABLE_VALUE",
                        "m/dct/k/.ATTRIBUTES/VARIABLE_VALUE", "m/lst/0/.ATTRIBUTES/VARIABLE_VALUE",
                        "m/lst/1/.ATTRIBUTES/VARIABLE_VALUE"]
            for i in (0, 1):
                for name in ("bias", "kernel"):
                    expected += [layer % (i, name)] + [
                        f"model/layer_with_weights-{i}/{name}/{slot}{s}/.ATTRIBUTES/VARIABLE_VALUE" for s in "mv"]
            expected += ["optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE",
                         "optimizer/beta2_power/.ATTRIBUTES/VARIABLE_VALUE",
                         "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
            assert _keys(p) == expected
            # Values come back after more training.
            before = sess.run(model.weights + [train.get_slot(model.weights[0], "m")])
            sess.run(train_op, {x: [[1, 2, 3]]})
            ckpt.restore(p).assert_consumed().run_restore_ops(sess)
            after = sess.run(model.weights + [train.get_slot(model.weights[0], "m")])
            for a, b in zip(before, after):
                np.testing.assert_array_equal(a, b)


def test_functional_subclassed_and_escaped_names(tmp_path):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        inp = tf.keras.Input((3,))
        fn = tf.keras.Model(inp, tf.keras.layers.Dense(2)(tf.keras.layers.Dropout(0.1)(inp)))

        class Sub(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.d1 = tf.keras.layers.Dense(2)

            def call(self, x):
                return self.d1(x)

        sub = Sub()
        sub(x)
        a, b = tf.Variable(1.0, name="a"), tf.Variable(2.0, name="b")
        ckpt = tf.train.Checkpoint(fn=fn, sub=sub, weird={"a.b": a, "c/d": b})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            p = ckpt.write(str(tmp_path / "c"), session=sess)
        assert os.path.basename(p) == "c" and not os.path.exists(tmp_path / "checkpoint")
        # TF 2.21: the InputLayer is layer-0 of a functional model; "." and "/" are escaped.
        assert _keys(p) == ["_CHECKPOINTABLE_OBJECT_GRAPH",
                            "fn/layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE",
                            "fn/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                            "sub/d1/bias/.ATTRIBUTES/VARIABLE_VALUE", "sub/d1/kernel/.ATTRIBUTES/VARIABLE_VALUE",
                            "weird/a..b/.ATTRIBUTES/VARIABLE_VALUE", "weird/c.Sd/.ATTRIBUTES/VARIABLE_VALUE"]


def test_deferred_restore_in_new_graph(tmp_path):
    prefix = str(tmp_path / "ckpt")
    with tf.Graph().as_default():
        w = tf.Variable([[1.0, 2.0]], name="w")
        opt = tf.train.MomentumOptimizer(0.01, 0.9)
        train = opt.minimize(tf.reduce_sum(tf.square(tf.matmul(w, [[1.0], [1.0]]))))
        ckpt = tf.train.Checkpoint(w=w, opt=opt)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
            saved_w, saved_m = sess.run([w, opt.get_slot(w, "momentum")])
            ckpt.save(prefix)
    with tf.Graph().as_default():
        w = tf.Variable(tf.zeros([1, 2]), name="w")
        opt = tf.train.MomentumOptimizer(0.01, 0.9)
        ckpt = tf.train.Checkpoint(w=w, opt=opt)
        status = ckpt.restore(tf.train.latest_checkpoint(str(tmp_path)))
        # The slot is created after restore(): it is matched when the status is used.
        opt.minimize(tf.reduce_sum(tf.square(tf.matmul(w, [[1.0], [1.0]]))))
        status.assert_consumed()
        with tf.Session() as sess:
            status.initialize_or_restore(sess)
            np.testing.assert_array_equal(sess.run(w), saved_w)
            np.testing.assert_array_equal(sess.run(opt.get_slot(w, "momentum")), saved_m)
            assert os.path.basename(ckpt.save(prefix)) == "ckpt-2"


def test_status_assertions(tmp_path):
    with tf.Graph().as_default():
        a, c = tf.Variable(1.0, name="a"), tf.Variable([1, 2], name="c")
        ck = tf.train.Checkpoint(a=a, c=c)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            p = ck.save(str(tmp_path / "obj"))
    with tf.Graph().as_default():
        a, q = tf.Variable(5.0, name="a"), tf.Variable(6.0, name="q")
        with pytest.raises(AssertionError, match="Found 1 Python objects that were not bound"):
            tf.train.Checkpoint(a=a, q=q).restore(p).assert_existing_objects_matched()
        st = tf.train.Checkpoint(a=a).restore(p)
        assert st.assert_existing_objects_matched() is st
        with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\).c: attributes"):
            st.assert_consumed()
        assert st.expect_partial() is st and st.assert_nontrivial_match() is st
        with tf.Session() as sess:
            st.initialize_or_restore(sess)
            assert sess.run(a) == 1.0
        bad = tf.train.Checkpoint(a=tf.Variable([1.0, 2.0, 3.0])).restore(p)
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError):
            bad.run_restore_ops(sess)


def test_restore_none_and_errors(tmp_path):
    with tf.Graph().as_default():
        v = tf.Variable(3.0, name="v")
        ckpt = tf.train.Checkpoint(v=v)
        st = ckpt.restore(None)
        assert type(st).__name__ == "InitializationOnlyStatus"
        msg = "No checkpoint specified (save_path=None); nothing is being restored."
        for f in (st.assert_consumed, st.assert_existing_objects_matched, st.assert_nontrivial_match):
            with pytest.raises(AssertionError) as e:
                f()
            assert str(e.value) == msg
        with tf.Session() as sess:
            with pytest.raises(AssertionError):
                st.run_restore_ops(sess)
            st.initialize_or_restore(sess)
            assert sess.run(v) == 3.0 and sess.run(ckpt.save_counter) == 0
        with pytest.raises(tf.errors.NotFoundError):
            ckpt.restore(str(tmp_path / "missing"))
        for bad in (1, "s", tf.constant(1.0), None):
            with pytest.raises(ValueError, match="`Checkpoint` was expecting a trackable object"):
                tf.train.Checkpoint(x=bad)
        tf.train.Checkpoint(lst=[1, 2], d={"a": 1})
        assert tf.train.Checkpoint().save_counter.name == "save_counter_1:0"


def test_name_based_saver_checkpoint(tmp_path):
    with tf.Graph().as_default():
        with tf.variable_scope("net"):
            w = tf.get_variable("w", [2], initializer=tf.constant_initializer(7.0))
        b = tf.Variable(3.0, name="b")
        tf.train.Checkpoint(w=w, b=b).save_counter  # so the Saver writes save_counter too
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            path = tf.train.Saver().save(sess, str(tmp_path / "model"), global_step=5)
    with tf.Graph().as_default():
        with tf.variable_scope("net"):
            w = tf.get_variable("w", [2], initializer=tf.zeros_initializer())
        b = tf.Variable(0.0, name="b")
        extra = tf.Variable(9.0, name="extra")
        st = tf.train.Checkpoint(w=w, b=b).restore(path)
        assert type(st).__name__ == "NameBasedSaverStatus"
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(AssertionError):
                st.assert_consumed()
            st.run_restore_ops(sess)
            np.testing.assert_array_equal(sess.run(w), [7.0, 7.0])
            assert sess.run(b) == 3.0 and st.assert_consumed() is st
            # As TF: every variable of the object graph is restored by name.
            with pytest.raises(tf.errors.NotFoundError, match="Key extra not found in checkpoint"):
                tf.train.Checkpoint(w=w, extra=extra).restore(path).initialize_or_restore(sess)
