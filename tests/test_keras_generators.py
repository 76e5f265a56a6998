"""tf.keras fit / evaluate / predict on Python generators, iterators and
`tf.keras.utils.Sequence`, and the deprecated fit_generator / evaluate_generator /
predict_generator. Numbers, messages, callback orders and progress lines below were recorded from
TF 2.21's legacy keras (tf_keras, TF_USE_LEGACY_KERAS=1) under tf.compat.v1 with v2 behaviour
disabled, running the same programs (workers=0 where TF's prefetching would change what a shared
generator yields next)."""

import random
import re
import warnings

import numpy as np
import pytest

import tensorweave as tf

K = tf.keras

rs = np.random.RandomState(0)
X = rs.randn(40, 3).astype("float32")
Y = (X.sum(1, keepdims=True) > 0).astype("float32")
W0 = [rs.randn(3, 4).astype("float32") * .5, np.zeros(4, "float32"),
      rs.randn(4, 1).astype("float32") * .5, np.zeros(1, "float32")]


@pytest.fixture(autouse=True)
def _fresh_graph():
    K.backend.clear_session()
    warnings.simplefilter("ignore", UserWarning)
    yield
    K.backend.clear_session()


def _model(metrics=("acc",)):
    m = K.Sequential([K.layers.Dense(4, activation="tanh", input_shape=(3,)),
                      K.layers.Dense(1, activation="sigmoid")])
    m.compile(K.optimizers.SGD(0.5), "binary_crossentropy", metrics=list(metrics))
    m.set_weights(W0)
    return m


def _gen(bs=10, with_y=True, loop=True):
    while True:
        for i in range(0, 40, bs):
            yield (X[i:i + bs], Y[i:i + bs]) if with_y else X[i:i + bs]
        if not loop:
            return


class _Seq(K.utils.Sequence):
    def __init__(self, bs=10):
        self.bs, self.ends, self.got = bs, 0, []

    def __len__(self):
        return int(np.ceil(len(X) / self.bs))

    def __getitem__(self, i):
        self.got.append(i)
        return X[i * self.bs:(i + 1) * self.bs], Y[i * self.bs:(i + 1) * self.bs]

    def on_epoch_end(self):
        self.ends += 1


def _close(history, expected, atol=2e-6):
    assert sorted(history.history) == sorted(expected)
    for k, v in expected.items():
        np.testing.assert_allclose(history.history[k], v, atol=atol)


def test_fit_generator_trains_and_matches_tf():
    m = _model()
    with pytest.warns(UserWarning, match="`model.fit_generator` is deprecated"):
        h = m.fit_generator(_gen(), steps_per_epoch=4, epochs=3, verbose=0)
    assert h is m.history and h.epoch == [0, 1, 2]
    _close(h, {"acc": [0.875, 0.925, 0.95],
               "loss": [0.5464922040700912, 0.36948634684085846, 0.25902334973216057]})
    assert h.history["loss"][2] < h.history["loss"][0]      # it trains
    assert all(type(v) is float for v in h.history["loss"] + h.history["acc"])
    assert h.params == {"batch_size": None, "epochs": 3, "steps": 4, "samples": 4, "verbose": 0,
                        "do_validation": False, "metrics": ["loss", "acc"]}


def test_fit_generator_same_as_fit_on_arrays():
    a = _model()
    ha = a.fit(X, Y, batch_size=10, epochs=2, shuffle=False, verbose=0)
    wa = a.get_weights()
    K.backend.clear_session()
    b = _model()
    hb = b.fit(_gen(), steps_per_epoch=4, epochs=2, verbose=0)
    for k in ha.history:
        np.testing.assert_allclose(hb.history[k], ha.history[k], rtol=1e-6)
    for x, y in zip(wa, b.get_weights()):
        np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-6)


def test_fit_generator_validation():
    m = _model()
    h = m.fit(_gen(), steps_per_epoch=3, epochs=2, verbose=0, validation_data=_gen(),
              validation_steps=2, workers=0)
    _close(h, {"acc": [0.8333333134651184, 0.9333333373069763],
               "loss": [0.5836822589238485, 0.4178411662578583],
               "val_acc": [0.949999988079071, 0.949999988079071],
               "val_loss": [0.45545732975006104, 0.33408206701278687]})
    # arrays as validation data: batched by the last training batch size (8), the loss
    # averaged over those batches
    K.backend.clear_session()
    m = _model()
    h = m.fit(_gen(bs=8), steps_per_epoch=3, epochs=2, verbose=0, validation_data=(X[:13], Y[:13]))
    _close(h, {"acc": [0.875, 0.9166666865348816], "loss": [0.5653536319732666, 0.3915363947550456],
               "val_acc": [0.9230769276618958, 0.9230769276618958],
               "val_loss": [0.4334913492202759, 0.30230870842933655]})


def test_fit_sequence_shuffle_order_and_on_epoch_end():
    m = _model()
    random.seed(1)
    s = _Seq()
    h = m.fit(s, epochs=2, verbose=0)       # shuffle=True: random.shuffle of the batch order
    assert s.got == [3, 0, 2, 1, 1, 0, 3, 2]
    assert s.ends == 1
    _close(h, {"acc": [0.800000011920929, 0.925000011920929],
               "loss": [0.5437827706336975, 0.3660546913743019]})
    K.backend.clear_session()
    m = _model()
    s = _Seq()
    h = m.fit(s, epochs=2, verbose=0, shuffle=False, workers=0)   # workers=0: no on_epoch_end
    assert s.got == [0, 1, 2, 3, 0, 1, 2, 3] and s.ends == 0
    _close(h, {"acc": [0.875, 0.925], "loss": [0.5464922040700912, 0.36948634684085846]})


def test_sequence_workers_give_the_same_results():
    results = []
    for workers, mp in ((0, False), (1, False), (4, False), (4, True)):
        K.backend.clear_session()
        m = _model()
        h = m.fit(_Seq(), epochs=2, verbose=0, shuffle=False, workers=workers,
                  use_multiprocessing=mp, validation_data=_Seq())
        results.append(h.history)
    for r in results[1:]:
        assert r == results[0]


def test_fit_sequence_with_steps_per_epoch_runs_on_across_epochs():
    m = _model()
    s = _Seq()
    h = m.fit_generator(s, steps_per_epoch=3, epochs=3, verbose=0, shuffle=False)
    assert s.got == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    _close(h, {"acc": [0.8333333134651184, 0.9333333373069763, 0.9666666388511658],
               "loss": [0.5836822589238485, 0.4178411662578583, 0.28945625325043994]})


def test_evaluate_generator_and_sequence():
    m = _model()
    with pytest.warns(UserWarning, match="evaluate_generator` is deprecated"):
        r = m.evaluate_generator(_gen(), steps=3)
    np.testing.assert_allclose(r, [0.6135075, 0.8333333], atol=1e-6)
    assert all(type(v) is np.float32 for v in r)
    np.testing.assert_allclose(m.evaluate(_gen(), steps=4), [0.6037667, 0.8], atol=1e-6)
    np.testing.assert_allclose(m.evaluate(_Seq(), verbose=1), [0.6037667, 0.8], atol=1e-6)
    np.testing.assert_allclose(m.evaluate(_Seq(bs=7), steps=2), [0.5894791, 0.85714287],
                               atol=1e-6)
    assert m.evaluate(_Seq(), return_dict=True).keys() == {"loss", "acc"}
    K.backend.clear_session()
    m2 = _model(metrics=())
    r = m2.evaluate_generator(_gen(), steps=2)
    assert np.ndim(r) == 0
    np.testing.assert_allclose(r, 0.60471046, atol=1e-6)


def test_predict_generator_equals_predict():
    m = _model()
    with pytest.warns(UserWarning, match="predict_generator` is deprecated"):
        p = m.predict_generator(_gen(with_y=False), steps=3)
    assert p.shape == (30, 1) and p.dtype == np.float32
    np.testing.assert_allclose(p, m.predict(X[:30]), rtol=1e-6)
    np.testing.assert_allclose(m.predict(_gen(), steps=4), m.predict(X), rtol=1e-6)  # (x, y)
    np.testing.assert_allclose(m.predict(_Seq(bs=7)), m.predict(X), rtol=1e-6)
    assert m.predict(_gen(loop=False), steps=10).shape == (40, 1)    # runs out: what it had


def test_data_running_out_stops_the_loop():
    m = _model()
    # evaluate: the loss of the 4 batches it got, over the 10 steps asked for
    np.testing.assert_allclose(m.evaluate(_gen(loop=False), steps=10), [0.24150667, 0.8],
                               atol=1e-6)
    K.backend.clear_session()
    m = _model()
    h = m.fit(_gen(loop=False), steps_per_epoch=3, epochs=3, verbose=0)
    # the last epoch's loss is its one batch's (TF's BaseLogger averages over the samples seen)
    _close(h, {"acc": [0.8333333134651184, 1.0], "loss": [0.5836822589238485, 0.4349220395088196]})
    with pytest.raises(ValueError, match="^Empty training data.$"):
        m.fit(iter([]), steps_per_epoch=2, verbose=0)


@pytest.mark.parametrize("call, message", [
    (lambda m: m.fit_generator(_gen()),
     "Please specify the number of steps via the `steps_per_epoch` argument."),
    (lambda m: m.fit(_gen()),
     "Please specify the number of steps via the `steps_per_epoch` argument."),
    (lambda m: m.evaluate_generator(_gen()),
     "Please specify the number of steps via the `steps` argument."),
    (lambda m: m.evaluate(_gen()), "Please specify the number of steps via the `steps` argument."),
    (lambda m: m.predict_generator(_gen()),
     "Please specify the number of steps via the `steps` argument."),
    (lambda m: m.predict(_gen()), "Please specify the number of steps via the `steps` argument."),
    (lambda m: m.fit(_gen(), Y, steps_per_epoch=2),
     "`y` argument is not supported when data isa generator or Sequence instance. Instead pass "
     "targets as the second element of the generator."),
    (lambda m: m.evaluate(_gen(), Y, steps=2),
     "`y` argument is not supported when data isa generator or Sequence instance. Instead pass "
     "targets as the second element of the generator."),
    (lambda m: m.fit(_gen(), sample_weight=np.ones(40), steps_per_epoch=2),
     "`sample_weight` argument is not supported when data isa generator or Sequence instance. "
     "Instead pass sample weights as the third element of the generator."),
    (lambda m: m.fit(_gen(), validation_split=0.2, steps_per_epoch=2),
     "If your data is in the form of a Python generator, you cannot use `validation_split`."),
    (lambda m: m.fit(_gen(), steps_per_epoch=2, validation_data=_gen()),
     "Please specify the `validation_steps` argument."),
])
def test_errors_match_tf(call, message):
    m = _model()
    with pytest.raises(ValueError) as e:
        call(m)
    assert str(e.value) == message


def test_batch_size_and_bad_elements_refused():
    m = _model()
    with pytest.raises(ValueError, match=r"^The `batch_size` argument must not be specified for "
                                         r"the given input type. Received input: <generator "
                                         r"object _gen at 0x[0-9a-f]+>, batch_size: 4$"):
        m.fit(_gen(), batch_size=4, steps_per_epoch=2)
    with pytest.raises(ValueError, match="batch_size: 4$"):
        m.fit(_Seq(), batch_size=4)

    def bad():
        while True:
            yield X[:4], Y[:4], np.ones(4), 1
    with pytest.raises(ValueError, match=r"^Output of generator should be a tuple of 1 or 2 or 3 "
                                         r"elements: \(input,\) or \(input, target\) or \(input, "
                                         r"target, sample_weights\). Received \(array"):
        m.fit(bad(), steps_per_epoch=2, verbose=0)
    with pytest.raises(TypeError, match=r"Model.fit_generator\(\) got an unexpected keyword "
                                        r"argument 'foo'"):
        m.fit_generator(_gen(), steps_per_epoch=2, foo=1)
    with pytest.raises(ValueError, match=r'^No data provided for "dense_input". Need data for '
                                         r"each key in: \['dense_input'\]$"):
        m.fit(iter([{"a": X}] * 3), steps_per_epoch=2, verbose=0)


def test_class_weight_sample_weight_and_initial_epoch():
    m = _model()
    h = m.fit_generator(_gen(), steps_per_epoch=4, epochs=2, verbose=0,
                        class_weight={0: 1.0, 1: 3.0})
    _close(h, {"acc": [0.8500000238418579, 0.8999999761581421],
               "loss": [0.9390852153301239, 0.41322585940361023]})

    def gsw():
        while True:
            for i in range(0, 40, 10):
                yield X[i:i + 10], Y[i:i + 10], np.linspace(0.1, 2, 10).astype("float32")
    K.backend.clear_session()
    m = _model()
    _close(m.fit(gsw(), steps_per_epoch=4, epochs=2, verbose=0),
           {"acc": [0.875, 0.925], "loss": [0.5759313702583313, 0.4014752134680748]})
    K.backend.clear_session()
    m = _model()
    h = m.fit_generator(_gen(), steps_per_epoch=2, epochs=3, initial_epoch=1, verbose=0)
    assert h.epoch == [1, 2]
    _close(h, {"acc": [0.85, 0.9], "loss": [0.6086248755455017, 0.4843595325946808]})


class _Rec(K.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.ev = []

    def __getattribute__(self, n):
        if n.startswith("on_"):
            ev = object.__getattribute__(self, "ev")

            def f(*a):
                ev.append((n,) + tuple(a[:-1]) + (sorted((a[-1] if a else None) or {}),))
            return f
        return object.__getattribute__(self, n)


def test_callback_order_and_params_match_tf():
    m = _model()
    rec = _Rec()
    m.fit(_gen(), steps_per_epoch=2, epochs=2, verbose=0, callbacks=[rec],
          validation_data=_gen(), validation_steps=1)
    train = ["acc", "batch", "loss", "size"]
    epoch = []
    for e in (0, 1):
        epoch += [("on_epoch_begin", e, []),
                  ("on_train_batch_begin", 0, ["batch", "size"]), ("on_train_batch_end", 0, train),
                  ("on_train_batch_begin", 1, ["batch", "size"]), ("on_train_batch_end", 1, train),
                  ("on_test_begin", []), ("on_test_batch_begin", 0, ["batch", "size"]),
                  ("on_test_batch_end", 0, train), ("on_test_end", []),
                  ("on_epoch_end", e, ["acc", "loss", "val_acc", "val_loss"])]
    assert rec.ev == [("on_train_begin", [])] + epoch + [("on_train_end", [])]
    assert rec.params == {"batch_size": None, "do_validation": True, "epochs": 2,
                          "metrics": ["loss", "acc", "val_loss", "val_acc"], "samples": 2,
                          "steps": 2, "verbose": 0}
    rec = _Rec()
    m.evaluate_generator(_gen(), steps=2, callbacks=[rec])
    assert rec.ev == [("on_test_begin", []), ("on_test_batch_begin", 0, ["batch", "size"]),
                      ("on_test_batch_end", 0, train),
                      ("on_test_batch_begin", 1, ["batch", "size"]),
                      ("on_test_batch_end", 1, train), ("on_test_end", [])]
    assert rec.params["metrics"] == ["loss", "acc"] and rec.params["steps"] == 2
    rec = _Rec()
    m.predict(_gen(), steps=2, callbacks=[rec])
    assert rec.ev == [("on_predict_begin", []),
                      ("on_predict_batch_begin", 0, ["batch", "size"]),
                      ("on_predict_batch_end", 0, ["batch", "outputs", "size"]),
                      ("on_predict_batch_begin", 1, ["batch", "size"]),
                      ("on_predict_batch_end", 1, ["batch", "outputs", "size"]),
                      ("on_predict_end", [])]
    assert rec.params["metrics"] == []


def test_batch_logs_hold_python_floats():
    seen = []

    class Types(K.callbacks.Callback):
        def on_train_batch_end(self, b, logs=None):
            seen.append(("train", {k: type(v).__name__ for k, v in logs.items()}))

        def on_test_batch_end(self, b, logs=None):
            seen.append(("test", {k: type(v).__name__ for k, v in logs.items()}))

    m = _model()
    m.fit(_gen(), steps_per_epoch=1, verbose=0, callbacks=[Types()], validation_data=_gen(),
          validation_steps=1)
    types = {"batch": "int", "size": "int", "loss": "float", "acc": "float"}
    assert seen == [("train", types), ("test", types)]


def test_stop_training_early_stopping_and_validation_freq():
    class Stop(K.callbacks.Callback):
        def on_train_batch_end(self, b, logs=None):
            if b == 1:
                self.model.stop_training = True
    m = _model()
    h = m.fit(_gen(), steps_per_epoch=4, epochs=3, verbose=0, callbacks=[Stop()],
              validation_data=_gen(), validation_steps=1)
    _close(h, {"acc": [0.85], "loss": [0.6086248755455017]})   # no validation once stopped
    K.backend.clear_session()
    m = _model()
    es = K.callbacks.EarlyStopping(monitor="loss", patience=0, min_delta=10)
    h = m.fit(_gen(), steps_per_epoch=4, epochs=10, verbose=0, callbacks=[es],
              validation_data=_gen(), validation_steps=4)
    assert h.epoch == [0, 1]
    K.backend.clear_session()
    m = _model()
    h = m.fit(_gen(), steps_per_epoch=2, epochs=3, verbose=0, validation_data=_Seq(),
              validation_freq=[1, 3])
    _close(h, {"acc": [0.85, 0.9, 0.9],
               "loss": [0.6086248755455017, 0.4843595325946808, 0.4093007296323776],
               "val_acc": [0.875, 0.949999988079071],
               "val_loss": [0.49354088306427, 0.33233946561813354]})


def _clean(s):
    s = re.sub(r"\d+(ms|us|s)/(step|sample|epoch)", r"T/\2", s)
    s = re.sub(r" - \d+s", " - Ns", s)
    s = re.sub(r"ETA: \S+", "ETA: X", s)
    return s.replace("\b", "").split("\r")


def test_progress_output_matches_tf(capsys):
    m = _model()
    m.fit(_gen(), steps_per_epoch=4, epochs=2, verbose=2)
    assert _clean(capsys.readouterr().out) == [
        "Epoch 1/2\n4/4 - Ns - loss: 0.5465 - acc: 0.8750 - T/epoch - T/step\n"
        "Epoch 2/2\n4/4 - Ns - loss: 0.3695 - acc: 0.9250 - T/epoch - T/step\n"]
    K.backend.clear_session()
    m = _model()
    m.fit(_Seq(), epochs=2, verbose=2, shuffle=False, validation_data=_Seq())
    assert _clean(capsys.readouterr().out) == [
        "Epoch 1/2\n4/4 - Ns - loss: 0.5465 - acc: 0.8750 - val_loss: 0.4053 - val_acc: 0.9000 - "
        "T/epoch - T/step\nEpoch 2/2\n4/4 - Ns - loss: 0.3695 - acc: 0.9250 - val_loss: 0.2793 - "
        "val_acc: 0.9750 - T/epoch - T/step\n"]
    K.backend.clear_session()
    m = _model()
    m.fit(_Seq(bs=20), epochs=1, verbose=1, shuffle=False, validation_data=_Seq())
    out = _clean(capsys.readouterr().out)
    # the first redraw may be skipped when steps come faster than the bar's interval
    assert out[-1] == ("2/2 [==============================] - Ns T/step - batch: 0.5000 - size: "
                       "20.0000 - loss: 0.5748 - acc: 0.8500 - val_loss: 0.4943 - val_acc: "
                       "0.8750\n")
    # evaluate and predict draw nothing, as TF's v1 loops
    m.evaluate(_Seq(), verbose=1)
    m.predict(_Seq(), verbose=1)
    assert capsys.readouterr().out == ""


def test_multi_input_multi_output_and_deferred_build():
    a = K.Input((3,))
    b = K.Input((2,))
    o = K.layers.Dense(1)(K.layers.concatenate([a, b]))
    mm = K.Model([a, b], o)
    mm.compile("sgd", "mse")
    mm.set_weights([np.ones((5, 1), "float32") * .1, np.zeros(1, "float32")])

    def g2():
        while True:
            yield [X[:8], X[:8, :2]], Y[:8]
    _close(mm.fit(g2(), steps_per_epoch=2, epochs=2, verbose=0),
           {"loss": [0.397419735789299, 0.33130960166454315]})
    assert mm.predict_generator(g2(), steps=1).shape == (8, 1)

    K.backend.clear_session()
    a = K.Input((3,))
    h = K.layers.Dense(2)(a)
    mo = K.Model(a, [K.layers.Dense(1, name="o1")(h), K.layers.Dense(2, name="o2")(h)])
    mo.compile("sgd", ["mse", "mse"], metrics=["mae"])
    mo.set_weights([np.ones((3, 2), "float32") * .1, np.zeros(2, "float32"),
                    np.ones((2, 1), "float32"), np.zeros(1, "float32"),
                    np.ones((2, 2), "float32") * .3, np.zeros(2, "float32")])

    def g3():
        while True:
            for i in range(0, 40, 10):
                yield X[i:i + 10], [Y[i:i + 10], X[i:i + 10, :2]]
    _close(mo.fit(g3(), steps_per_epoch=4, epochs=2, verbose=0),
           {"loss": [1.2625110149383545, 1.1299006789922714],
            "o1_loss": [0.27969229221343994, 0.18607638776302338],
            "o1_mean_absolute_error": [0.4621206820011139, 0.37847548723220825],
            "o2_loss": [0.9828187227249146, 0.943824291229248],
            "o2_mean_absolute_error": [0.8048367500305176, 0.7886776924133301]})
    np.testing.assert_allclose(mo.evaluate(g3(), steps=4),
                               [1.0732929, 0.15031837, 0.92297435, 0.34139025, 0.7804921],
                               atol=1e-6)
    assert [p.shape for p in mo.predict_generator(g3(), steps=3)] == [(30, 1), (30, 2)]

    K.backend.clear_session()
    md = K.Sequential([K.layers.Dense(1, activation="sigmoid")])   # built by the first batch
    md.compile(K.optimizers.SGD(0.1), "binary_crossentropy")
    assert len(md.fit(_gen(), steps_per_epoch=2, epochs=2, verbose=0).history["loss"]) == 2
    assert md.built


def test_plain_iterator_and_lambda_callback():
    m = _model()
    _close(m.fit(iter([(X[:10], Y[:10])] * 5), steps_per_epoch=2, epochs=2, verbose=0),
           {"acc": [0.949999988079071, 1.0], "loss": [0.5159343183040619, 0.3185250163078308]})
    ends = []
    cb = K.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: ends.append(e))
    m.fit(_gen(), steps_per_epoch=1, epochs=2, verbose=0, callbacks=[cb])
    m.fit(X, Y, epochs=1, verbose=0, callbacks=[cb])   # (arrays too: hooks pass logs=)
    assert ends == [0, 1, 0]


def test_is_generator_or_sequence():
    from tensorweave.keras.training_generator import is_generator_or_sequence
    assert is_generator_or_sequence(_gen()) and is_generator_or_sequence(_Seq())
    assert is_generator_or_sequence(iter([1]))
    for x in (X, [X], (X, Y), {"a": X}, "s", None):
        assert not is_generator_or_sequence(x)
