"""fit/evaluate/*_on_batch with sample_weight and class_weight, tf.data datasets and steps, the
new keras optimizers, activations, EarlyStopping(restore_best_weights) and Sequential.pop.
Expected values were recorded from TF 2.21's legacy keras under tf.compat.v1 with v2 behaviour
disabled running the same programs."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras.training_loops import standardize_weights


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.keras.backend.clear_session()
    yield
    tf.keras.backend.clear_session()


def _dense_model(units=2, dim=3, **kw):
    return tf.keras.Sequential([tf.keras.layers.Dense(units, input_shape=(dim,),
                                                      kernel_initializer="ones", **kw)])


def test_standardize_weights():
    y = np.array([[0, 1], [1, 0], [0, 1]])
    np.testing.assert_allclose(standardize_weights(y, class_weight={0: 2.0, 1: 0.5}),
                               [0.5, 2.0, 0.5])
    np.testing.assert_allclose(standardize_weights(np.array([0, 1, 1]), np.array([1., 2., 3.]),
                                                   {0: 2.0, 1: 0.5}), [2.0, 1.0, 1.5])
    with pytest.raises(ValueError, match="must contain all classes"):
        standardize_weights(np.array([0, 2]), class_weight={0: 1.0})
    with pytest.raises(ValueError):
        standardize_weights(y, sample_weight=np.ones((3, 1)))


def test_dataset_fit_evaluate_predict_and_sample_weights_match_tf():
    np.random.seed(0)   # fit's shuffling draws from NumPy's global generator, as TF's
    tf.set_random_seed(0)
    m = _dense_model()
    m.compile("sgd", "mse", metrics=["mae"])
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    y = np.ones((4, 2), np.float32)
    assert m.predict(x, steps=2).shape == (8, 2)     # each step feeds all of x, as TF
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
    h = m.fit(ds, epochs=2, verbose=0)
    np.testing.assert_allclose(h.history["loss"], [1.4387477040290833, 1.365462601184845],
                               rtol=1e-6)
    assert h.params["steps"] == 2 and h.params["batch_size"] is None
    h = m.fit(ds.repeat(), epochs=2, steps_per_epoch=3, verbose=0)
    np.testing.assert_allclose(h.history["loss"], [0.9611122806866964, 1.5131833751996357],
                               rtol=1e-6)
    loss, mae = m.evaluate(ds, verbose=0)
    assert isinstance(loss, np.float64)
    np.testing.assert_allclose([loss, mae], [1.1191235780715942, 0.8729497], rtol=1e-6)
    assert m.predict(ds).shape == (4, 2)
    sw = np.array([1., 2., 0., 1.])
    h = m.fit(x, y, sample_weight=sw, epochs=2, verbose=0, batch_size=2)
    np.testing.assert_allclose(h.history["loss"], [0.9191529750823975, 0.8958844542503357],
                               rtol=1e-6)
    # TF quirk kept: the test function made before the weights appeared keeps the old loss.
    np.testing.assert_allclose(m.evaluate(x, y, sample_weight=sw, verbose=0),
                               [1.0515981, 0.8422643], rtol=1e-6)
    np.testing.assert_allclose(m.train_on_batch(x, y, sample_weight=sw),
                               [0.86773473, 0.8422643], rtol=1e-6)
    assert [o.name for o in tf.get_default_graph().get_operations()
            if "sample_weights" in o.name] == ["dense_sample_weights"]


def test_class_weight_and_multi_output_weights_match_tf():
    np.random.seed(0)
    tf.set_random_seed(0)
    x = np.random.rand(20, 4).astype(np.float32)
    y = np.random.randint(0, 3, size=(20,))
    m = _dense_model(3, 4, activation="softmax")
    m.compile(tf.keras.optimizers.SGD(0.1), "sparse_categorical_crossentropy",
              metrics=["accuracy"])
    h = m.fit(x, y, class_weight={0: 1.0, 1: 2.0, 2: 0.5}, epochs=3, batch_size=8, verbose=0,
              shuffle=False)
    np.testing.assert_allclose(h.history["loss"], [0.939, 0.93703, 0.93508], atol=1e-5)
    np.testing.assert_allclose(h.history["acc"], [0.25, 0.25, 0.35])
    yo = np.eye(3, dtype=np.float32)[y]
    inp = tf.keras.Input((4,))
    a = tf.keras.layers.Dense(1, name="a", kernel_initializer="ones")(inp)
    b = tf.keras.layers.Dense(2, name="b", kernel_initializer="ones")(inp)
    mm = tf.keras.Model(inp, [a, b])
    mm.compile("sgd", ["mse", "mae"], loss_weights=[1.0, 0.5])
    r = mm.train_on_batch(x, [y[:, None].astype("float32"), yo[:, :2]],
                          sample_weight=[np.ones(20), np.arange(20.)])
    assert mm.metrics_names == ["loss", "a_loss", "b_loss"]
    np.testing.assert_allclose(r, [8.8555, 1.6253, 14.4603], atol=1e-4)


def test_masked_sequence_loss_uses_the_mask():
    K = tf.keras.initializers.Constant
    m = tf.keras.Sequential([
        tf.keras.layers.Embedding(5, 1, mask_zero=True, input_length=3,
                                  embeddings_initializer=K(1.0)),
        tf.keras.layers.SimpleRNN(1, kernel_initializer=K(1.0), recurrent_initializer=K(0.0),
                                  activation=None, use_bias=False, return_sequences=True)])
    m.compile("sgd", "mse")
    ids = np.array([[1, 1, 0], [1, 0, 0]])
    # outputs are 1 at valid steps; targets 3 there, anything at padded steps
    ys = np.array([[[3.], [3.], [100.]], [[3.], [-50.], [7.]]], np.float32)
    np.testing.assert_allclose(m.evaluate(ids, ys, verbose=0), 4.0, rtol=1e-6)


@pytest.mark.parametrize("opt,loss,kernel", [
    # recorded from TF 2.21 (3 epochs, 2 batches each)
    (lambda: tf.keras.optimizers.Adadelta(1.0), [1.82022, 1.80312, 1.78601],
     [[0.99241, 0.99177], [0.99368, 0.9932], [0.99333, 0.99279]]),
    (lambda: tf.keras.optimizers.Adamax(0.1), [1.5975, 0.74662, 0.34566],
     [[0.61146, 0.55448], [0.64425, 0.61141], [0.63849, 0.59919]]),
    (lambda: tf.keras.optimizers.Nadam(0.05), [1.69663, 1.24198, 0.92709],
     [[0.80021, 0.7832], [0.81921, 0.80541], [0.81434, 0.799]]),
    (lambda: tf.keras.optimizers.Ftrl(0.1, l1_regularization_strength=0.01),
     [1.34324, 0.31332, 0.21836], [[0.46885, 0.43831], [0.52758, 0.52008], [0.53559, 0.51984]]),
])
def test_new_optimizers_match_tf(opt, loss, kernel):
    np.random.seed(0)
    x = np.random.rand(16, 3).astype(np.float32)
    y = np.random.rand(16, 2).astype(np.float32)
    m = _dense_model()
    m.compile(opt(), "mse")
    h = m.fit(x, y, epochs=3, batch_size=8, verbose=0, shuffle=False)
    np.testing.assert_allclose(h.history["loss"], loss, atol=2e-5)
    np.testing.assert_allclose(m.get_weights()[0], kernel, atol=2e-5)


def test_amsgrad_and_centered_slots():
    for opt, slots in [(tf.keras.optimizers.Adam(0.1, amsgrad=True), ["m", "v", "vhat"]),
                       (tf.keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
                        ["rms", "momentum", "mg"])]:
        m = _dense_model()
        m.compile(opt, "mse")
        m.fit(np.ones((4, 3), np.float32), np.zeros((4, 2), np.float32), verbose=0)
        assert opt.get_slot_names() == slots


def test_activations_gelu_and_relu_threshold():
    xs = np.linspace(-3, 3, 13).astype(np.float32)
    A = tf.keras.activations
    x = tf.constant(xs)
    from tensorweave.keras.activations import _gelu
    with tf.Session() as s:
        exact, approx, thr, leaky_thr = s.run([A.get("gelu")(x), _gelu(x, approximate=True),
                                               A.relu(x, threshold=1.0),
                                               A.relu(x, alpha=0.1, threshold=0.5)])
    from math import erf
    np.testing.assert_allclose(exact, [0.5 * v * (1 + erf(v / np.sqrt(2))) for v in xs],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        approx, 0.5 * xs * (1 + np.tanh(np.sqrt(2 / np.pi) * (xs + 0.044715 * xs ** 3))),
        rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(thr, np.where(xs > 1.0, xs, 0))
    np.testing.assert_allclose(leaky_thr, np.where(xs > 0.5, xs, 0) - 0.1 * np.maximum(0.5 - xs, 0),
                               rtol=1e-6, atol=1e-6)
    assert not hasattr(A, "gelu")   # as TF 2.21's v1 namespace


def test_early_stopping_restores_best_weights_and_pop():
    m = _dense_model(1)
    m.compile(tf.keras.optimizers.SGD(0.5), "mse")
    x = np.ones((4, 3), np.float32)
    y = np.zeros((4, 1), np.float32)
    m.set_weights([np.full((3, 1), 10., np.float32), np.zeros(1, np.float32)])
    # lr 0.5 on this problem diverges: epoch 0 is the best one
    es = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1, restore_best_weights=True)
    h = m.fit(x, y, epochs=5, verbose=0, callbacks=[es])
    assert len(h.history["loss"]) == 2 and es.best_epoch == 0 and es.stopped_epoch == 1
    w_after_epoch0 = 10 - 0.5 * 2 * 30   # one step from kernel 10: w - lr * 2 * (3w) * 1
    np.testing.assert_allclose(m.get_weights()[0], np.full((3, 1), w_after_epoch0), rtol=1e-5)
    s = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)), tf.keras.layers.Dense(1)])
    s.pop()
    assert len(s.layers) == 1 and s.output_shape == (None, 4)
    assert s.predict(np.ones((2, 3), np.float32)).shape == (2, 4)
    s.pop()
    with pytest.raises(TypeError, match="There are no layers in the model."):
        s.pop()
