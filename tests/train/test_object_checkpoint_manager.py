"""tf.train.CheckpointManager, tf.Module and keras-optimizer checkpoints in graph mode.

Expected names, numbers and file lists were recorded from TF 2.21 (tf.compat.v1, graph mode)."""

import os

import numpy as np
import pytest

import tensorweave as tf


def test_manager_numbering_and_max_to_keep(tmp_path):
    run = str(tmp_path / "run")
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        v = tf.Variable(1.0, name="v")
        inc, upd = tf.assign_add(step, 1), tf.assign_add(v, 1.0)
        ckpt = tf.train.Checkpoint(step=step, v=v)
        mgr = tf.train.CheckpointManager(ckpt, run, max_to_keep=2)
        assert mgr.latest_checkpoint is None and mgr.checkpoints == [] and mgr.directory == run
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            paths = []
            for _ in range(4):
                sess.run([inc, upd])
                paths.append(mgr.save())
            assert [os.path.basename(p) for p in paths] == ["ckpt-1", "ckpt-2", "ckpt-3", "ckpt-4"]
            assert mgr.checkpoints == paths[2:] and mgr.latest_checkpoint == paths[3]
            assert sorted(os.listdir(run)) == ["checkpoint", "ckpt-3.data-00000-of-00001", "ckpt-3.index",
                                               "ckpt-4.data-00000-of-00001", "ckpt-4.index"]
            assert os.path.basename(mgr.save(checkpoint_number=step)) == "ckpt-4"
            assert os.path.basename(mgr.save(checkpoint_number=100)) == "ckpt-100"
            assert sess.run(ckpt.save_counter) == 6
            state = tf.train.get_checkpoint_state(run)
            assert [os.path.basename(p) for p in state.all_model_checkpoint_paths] == ["ckpt-4", "ckpt-100"]
            assert len(state.all_model_checkpoint_timestamps) == 2 and state.last_preserved_timestamp > 0
            sess.run(v.assign(0.0))
            # A new manager recovers the state file.
            mgr2 = tf.train.CheckpointManager(ckpt, run, max_to_keep=3, checkpoint_name="model")
            assert [os.path.basename(c) for c in mgr2.checkpoints] == ["ckpt-4", "ckpt-100"]
            ckpt.restore(mgr2.latest_checkpoint).run_restore_ops()
            assert sess.run([v, step]) == [5.0, 4]
            assert os.path.basename(mgr2.save()) == "model-7"
            assert mgr2.restore_or_initialize() == mgr2.latest_checkpoint
        with pytest.raises(ValueError, match="Expected a positive integer or `None` for `max_to_keep`, got 0."):
            tf.train.CheckpointManager(ckpt, run, max_to_keep=0)
        with pytest.raises(ValueError, match="`step_counter` should be passed"):
            tf.train.CheckpointManager(ckpt, run, max_to_keep=1, checkpoint_interval=5)
        assert tf.train.CheckpointManager(ckpt, str(tmp_path / "none"), max_to_keep=None).restore_or_initialize() is None


def test_manager_checkpoint_interval(tmp_path):
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        inc = tf.assign_add(step, 1)
        ckpt = tf.train.Checkpoint(step=step)
        mgr = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=5, step_counter=step,
                                         checkpoint_interval=2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saved = []
            for _ in range(5):
                sess.run(inc)
                saved.append(mgr.save() is not None)
            assert saved == [True, False, True, False, True]


class Lin(tf.Module):
    def __init__(self, n_in, n_out, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.w = tf.Variable(tf.ones([n_in, n_out]), name="w")
            self.b = tf.Variable(tf.zeros([n_out]), name="b")

    @tf.Module.with_name_scope
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class MLP(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.layers = [Lin(3, 4), Lin(4, 2, name="out")]
            self.extra = tf.Variable(1.0, trainable=False, name="extra")

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def test_module_names_and_attribute_walk():
    with tf.Graph().as_default():
        m = MLP()
        assert (m.name, m.name_scope.name) == ("mlp", "mlp/")
        y = m(tf.constant([[1.0, 2.0, 3.0]]))
        assert y.name == "mlp/out/add:0" and y.shape.as_list() == [1, 2]
        # TF 2.21: own attributes (sorted) first, then sub-modules'
        assert [v.name for v in m.variables] == ["mlp/extra:0", "mlp/lin/b:0", "mlp/lin/w:0", "mlp/out/b:0",
                                                 "mlp/out/w:0"]
        assert [v.name for v in m.trainable_variables] == ["mlp/lin/b:0", "mlp/lin/w:0", "mlp/out/b:0",
                                                           "mlp/out/w:0"]
        assert [v.name for v in m.non_trainable_variables] == ["mlp/extra:0"]
        assert [s.name for s in m.submodules] == ["lin", "out"]
        assert MLP().name_scope.name == "mlp_1/"
        assert (tf.Module().variables, tf.Module().submodules) == ((), ())
        with tf.name_scope("outer"):
            assert tf.Module(name="inner").name_scope.name == "outer/inner/"
        with pytest.raises(ValueError, match="'a b' is not a valid module name"):
            tf.Module(name="a b")
        paths = [p for p, _ in m._flatten(predicate=lambda v: isinstance(v, tf.Variable), with_path=True)]
        assert paths[:2] == [("extra",), ("layers", 0, "b")]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(y), [[24.0, 24.0]])


def test_module_checkpoint_round_trip(tmp_path):
    with tf.Graph().as_default():
        m = MLP()
        ckpt = tf.train.Checkpoint(net=m)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(m.extra.assign(42.0))
            p = ckpt.save(str(tmp_path / "m"))
        assert "net/layers/1/w/.ATTRIBUTES/VARIABLE_VALUE" in [n for n, _ in tf.train.list_variables(p)]
    with tf.Graph().as_default():
        m = MLP()
        st = tf.train.Checkpoint(net=m).restore(p)
        with tf.Session() as sess:
            st.assert_consumed().run_restore_ops(sess)
            assert sess.run(m.extra) == 42.0


def test_compiled_keras_model_and_keras_optimizer(tmp_path):
    with tf.Graph().as_default():
        inp = tf.keras.Input((3,))
        model = tf.keras.Model(inp, tf.keras.layers.Dense(2)(tf.keras.layers.Dense(4, use_bias=False)(inp)))
        opt = tf.keras.optimizers.Adam(0.01)
        model.compile(optimizer=opt, loss="mse")
        model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0, epochs=2)
        ckpt = tf.train.Checkpoint(model=model, opt=opt)
        sess = tf.keras.backend.get_session()
        p = ckpt.save(str(tmp_path / "x"), session=sess)
        names = [n for n, _ in tf.train.list_variables(p)]
        # TF 2.21 (legacy keras): the optimizer's shortest path is "opt"
        assert names[-6:] == ["opt/beta_1/.ATTRIBUTES/VARIABLE_VALUE", "opt/beta_2/.ATTRIBUTES/VARIABLE_VALUE",
                              "opt/decay/.ATTRIBUTES/VARIABLE_VALUE", "opt/iter/.ATTRIBUTES/VARIABLE_VALUE",
                              "opt/learning_rate/.ATTRIBUTES/VARIABLE_VALUE", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"]
        assert "model/layer_with_weights-0/kernel/.OPTIMIZER_SLOT/opt/m/.ATTRIBUTES/VARIABLE_VALUE" in names
        assert tf.train.load_variable(p, "opt/iter/.ATTRIBUTES/VARIABLE_VALUE") == 2
        weights = model.get_weights()
        model.fit(np.ones((4, 3)), np.ones((4, 2)), verbose=0)
        ckpt.restore(p).assert_consumed().run_restore_ops(sess)
        for a, b in zip(weights, model.get_weights()):
            np.testing.assert_array_equal(a, b)
        assert sess.run(opt.iterations) == 2


def test_estimator_reexports():
    from tensorweave.train.warm_starting_util import WarmStartSettings
    assert tf.estimator.WarmStartSettings is WarmStartSettings
    ws = tf.estimator.WarmStartSettings("/tmp/x", vars_to_warm_start="dense.*")
    assert ws.ckpt_to_initialize_from == "/tmp/x" and ws.vars_to_warm_start == "dense.*"
    assert tf.estimator.VocabInfo is tf.train.VocabInfo
