"""Whole tf.keras programs in TF1 graph mode: fit's printed progress, callbacks that write files
or schedule the learning rate, weight/model saving, summary() of subclassed models. Expected
outputs marked "TF" were recorded from TF 2.21's legacy keras (tf.compat.v1,
disable_v2_behavior) running the same program; timings are masked as they differ by nature."""

import os
import re

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras.progbar import Progbar, _format_time


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    np.random.seed(0)
    yield


def _mask(text):
    text = re.sub(r"[0-9]+(ms|us|s)/(epoch|sample|step)", r"T/\2", text)
    return re.sub(r" - [0-9]+s", " - Ts", text)


def _data(n=40, d=5):
    rng = np.random.RandomState(0)
    return rng.rand(n, d).astype("float32"), rng.rand(n, 1).astype("float32")


def _mlp(d=5):
    return tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(d,)),
                                tf.keras.layers.Dense(1)])


def test_fit_verbose2_lines_and_callback_order(capsys):
    x, y = _data()

    class P(tf.keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            print("P begin", epoch)

        def on_epoch_end(self, epoch, logs=None):
            print("P end", epoch)

    model = _mlp()
    model.compile("sgd", "mse")
    model.fit(x, y, epochs=2, verbose=2, callbacks=[P()], validation_split=0.25, shuffle=False)
    lines = _mask(capsys.readouterr().out).splitlines()
    # TF: the progress logger runs after the user's callbacks.
    assert lines[0] == "Train on 30 samples, validate on 10 samples"
    assert lines[1:4] == ["P begin 0", "Epoch 1/2", "P end 0"]
    assert re.fullmatch(r"30/30 - Ts - loss: \d\.\d{4} - val_loss: \d\.\d{4} - T/epoch - "
                        r"T/sample", lines[4])
    assert lines[5:8] == ["P begin 1", "Epoch 2/2", "P end 1"]


def test_fit_verbose1_bar_single_epoch_and_silent_evaluate(capsys):
    x, y = _data(20, 3)
    model = _mlp(3)
    model.compile("sgd", "mse", metrics=["mae"])
    model.fit(x, y, epochs=1, verbose=1, batch_size=20, shuffle=False)
    model.evaluate(x, y)            # TF's v1 evaluate prints no bar
    model.predict(x, verbose=1)
    out = capsys.readouterr().out
    # TF: no "Epoch 1/1" line; the bar is drawn with \r and erased with backspaces.
    assert out.startswith("Train on 20 samples\n\r20/20 [==============================] - ETA: "
                          "0s - loss: ")
    final = out.split("\r")[-1]
    assert re.fullmatch(r"20/20 \[=+\] - 0s \d+(us|ms)/sample - loss: \d\.\d{4} - "
                        r"mean_absolute_error: \d\.\d{4}\n", final)
    assert "\b" * 10 in out
    assert out.count("\n") == 2


def test_dataset_fit_counts_steps_and_shows_batch_size(capsys):
    x, y = _data(20, 3)
    model = _mlp(3)
    model.compile("sgd", "mse")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(5)
    model.fit(ds, epochs=2, verbose=1)
    out = capsys.readouterr().out
    assert out.startswith("Train on 4 steps\nEpoch 1/2\n\r1/4 [======>")   # TF
    # TF's step-mode bar keeps "batch" and "size" in the logs (batch 0 prints as 0.0000e+00).
    assert " - batch: 0.0000e+00 - size: 1.0000 - loss: " in out
    assert " - batch: 1.5000 - size: 1.0000 - loss: " in out


def test_progbar_formats():
    assert _format_time(0, "step") == " 0s/step"
    assert _format_time(0.0123, "sample") == " 12ms/sample"
    assert _format_time(5e-5, "sample") == " 50us/sample"
    assert _format_time(2.4, "epoch") == " 2s/epoch"
    bar = Progbar(4, verbose=2, stateful_metrics=["acc"])
    bar._accumulate(2, [("loss", 1.0), ("acc", 0.5)])
    bar._accumulate(4, [("loss", 3.0), ("acc", 0.25)])
    assert bar._average("loss") == 2.0 and bar._average("acc") == 0.25


def test_model_checkpoint_best_only_weights(tmp_path, capsys):
    x, y = _data()
    model = _mlp()
    model.compile("sgd", "mse")
    path = os.path.join(str(tmp_path), "w-{epoch:02d}-{val_loss:.2f}.ckpt")
    cb = tf.keras.callbacks.ModelCheckpoint(path, save_weights_only=True, verbose=1,
                                            save_best_only=True)
    model.fit(x, y, epochs=3, verbose=0, callbacks=[cb], validation_split=0.25, shuffle=False)
    out = capsys.readouterr().out
    msgs = [line for line in out.splitlines() if line]
    assert re.fullmatch(r"Epoch 1: val_loss improved from inf to \d+\.\d{5}, saving model to "
                        r".*/w-01-\d\.\d\d\.ckpt", msgs[0])
    files = sorted(os.listdir(str(tmp_path)))
    assert "checkpoint" in files and any(f.endswith(".ckpt.index") for f in files)
    state = open(os.path.join(str(tmp_path), "checkpoint")).read()
    # TF: the state file names the newest weights relative to the directory, once.
    assert re.fullmatch(r'model_checkpoint_path: "w-0\d-\d\.\d\d\.ckpt"\n'
                        r'all_model_checkpoint_paths: "w-0\d-\d\.\d\d\.ckpt"\n', state)


def test_save_weights_object_keys_and_load_into_fresh_model(tmp_path):
    x, y = _data(8)
    model = _mlp()
    model.compile("adam", "mse")
    model.fit(x, y, verbose=0)
    p = os.path.join(str(tmp_path), "w")
    assert model.save_weights(p) is None
    names = [n for n, _ in tf.train.list_variables(p)]
    # TF's keys for a compiled, trained Sequential (Adam):
    assert names == [
        "_CHECKPOINTABLE_OBJECT_GRAPH",
        "layer_with_weights-0/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-0/bias/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-0/bias/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-0/kernel/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-1/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-1/bias/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-1/bias/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-1/kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-1/kernel/.OPTIMIZER_SLOT/optimizer/m/.ATTRIBUTES/VARIABLE_VALUE",
        "layer_with_weights-1/kernel/.OPTIMIZER_SLOT/optimizer/v/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/beta_1/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/beta_2/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/decay/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/iter/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/learning_rate/.ATTRIBUTES/VARIABLE_VALUE"]
    fresh = _mlp()          # other layer names (dense_2, dense_3): loaded by position
    status = fresh.load_weights(p)
    assert type(status).__name__ == "CheckpointLoadStatus"
    for a, b in zip(model.get_weights(), fresh.get_weights()):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(tf.errors.NotFoundError):
        fresh.load_weights(os.path.join(str(tmp_path), "nope"))


def test_learning_rate_scheduler(capsys):
    x, y = _data(32, 2)
    model = _mlp(2)
    model.compile(tf.keras.optimizers.SGD(0.1), "mse")
    cb = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: lr * 0.5, verbose=1)
    h = model.fit(x, y, epochs=3, verbose=0, callbacks=[cb])
    # TF's messages (the float32 rate widened to a Python float) and history:
    assert capsys.readouterr().out == (
        "\nEpoch 1: LearningRateScheduler setting learning rate to 0.05000000074505806.\n"
        "\nEpoch 2: LearningRateScheduler setting learning rate to 0.02500000037252903.\n"
        "\nEpoch 3: LearningRateScheduler setting learning rate to 0.012500000186264515.\n")
    assert sorted(h.history) == ["loss", "lr"]
    assert [type(v) for v in h.history["lr"]] == [np.float32] * 3
    np.testing.assert_allclose(h.history["lr"], [0.05, 0.025, 0.0125])
    bad = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 1)
    with pytest.raises(ValueError, match="should be float"):
        model.fit(x, y, epochs=1, verbose=0, callbacks=[bad])


def test_csv_logger_and_reduce_lr_on_plateau(tmp_path, capsys):
    x, y = _data(30, 3)
    y = (y > 0.5).astype("float32")
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid",
                                                       input_shape=(3,))])
    model.compile(tf.keras.optimizers.SGD(0.5), "binary_crossentropy", metrics=["acc"])
    fn = os.path.join(str(tmp_path), "log.csv")
    cbs = [tf.keras.callbacks.CSVLogger(fn, separator=";"),
           tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                                min_delta=10, verbose=1)]
    h = model.fit(x, y, epochs=3, verbose=0, shuffle=False, callbacks=cbs)
    # TF: the lr goes down from the second epoch on; the CSV names val_ columns it fills "NA".
    assert capsys.readouterr().out == (
        "\nEpoch 2: ReduceLROnPlateau reducing learning rate to 0.25.\n"
        "\nEpoch 3: ReduceLROnPlateau reducing learning rate to 0.125.\n")
    lines = open(fn).read().splitlines()
    assert lines[0] == "epoch;acc;loss;val_acc;val_loss"
    assert [line.split(";")[0] for line in lines[1:]] == ["0", "1", "2"]
    assert all(line.endswith(";NA;NA") for line in lines[1:])
    np.testing.assert_allclose(h.history["lr"], [0.5, 0.5, 0.25])
    with pytest.raises(ValueError, match="factor >= 1.0"):
        tf.keras.callbacks.ReduceLROnPlateau(factor=2.0)


def test_summary_of_subclassed_and_data_built_models(capsys):
    class M(tf.keras.Model):
        def __init__(self):
            super(M, self).__init__()
            self.d = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)

    m = M()
    m.build((None, 3))
    seq = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    seq.compile("sgd", "mse")
    seq.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), verbose=0)
    capsys.readouterr()
    m.summary()
    seq.summary()
    out = capsys.readouterr().out
    # TF: layers called on plain placeholders have no node, so their shape is "multiple".
    assert " dense (Dense)               multiple                  8         " in out
    assert " dense_1 (Dense)             multiple                  9         " in out
    assert " dense_2 (Dense)             multiple                  4         " in out
    assert seq.inputs[0].name == "input_1:0"


def test_model_save_and_load_model_h5(tmp_path):
    x, y = _data(8)
    model = _mlp()
    model.compile("adam", "mse")
    model.fit(x, y, verbose=0)
    p = os.path.join(str(tmp_path), "m")   # TF1's default format is HDF5, whatever the name
    import importlib.util
    if importlib.util.find_spec("h5py") is None:
        with pytest.raises(ImportError, match="requires h5py"):
            model.save(p)
        return
    model.save(p)
    assert os.path.isfile(p)
    m2 = tf.keras.models.load_model(p)
    # TF: same layer names, variables uniquified in the graph, compiled with the saved loss.
    assert [layer.name for layer in m2.layers] == ["dense", "dense_1"]
    assert [w.name for w in m2.weights] == ["dense_2/kernel:0", "dense_2/bias:0",
                                            "dense_1_1/kernel:0", "dense_1_1/bias:0"]
    np.testing.assert_allclose(m2.predict(x), model.predict(x), rtol=1e-6)
    assert type(m2.optimizer).__name__ == "Adam" and m2.loss.__name__ == "mean_squared_error"
    m2.fit(x, y, verbose=0)
    model.save_weights(os.path.join(str(tmp_path), "w.h5"))
    fresh = _mlp()
    fresh.load_weights(os.path.join(str(tmp_path), "w.h5"))
    for a, b in zip(model.get_weights(), fresh.get_weights()):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="Layer count mismatch"):
        tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(5,))]).load_weights(
            os.path.join(str(tmp_path), "w.h5"))
