"""tf.keras in TF1 graph mode, as TF1-era programs use it: messages, names, printed progress and
loading, checked against TF.

Expected values recorded from TF 2.21 (tensorflow.compat.v1 with tf_keras, v2 behaviour
disabled) unless computed with NumPy."""

import numpy as np
import pytest

import tensorweave as tf

L = tf.keras.layers
K = tf.keras.backend

_SEE = (". Please ensure you are using a `keras.utils.custom_object_scope` and that this object "
        "is included in the scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
        "#registering_the_custom_object for details.")


@pytest.fixture(autouse=True)
def _fresh_graph():
    K.clear_session()
    yield
    K.clear_session()


def _raises(exc, fn):
    with pytest.raises(exc) as info:
        fn()
    return str(info.value)


# -- unknown names ---------------------------------------------------------------------------------
@pytest.mark.parametrize("get, kind", [
    (lambda: tf.keras.activations.get("nope"), "activation function"),
    (lambda: L.Dense(2, activation="nope"), "activation function"),
    (lambda: tf.keras.initializers.get("nope"), "initializer"),
    (lambda: tf.keras.initializers.get({"class_name": "nope", "config": {}}), "initializer"),
    (lambda: tf.keras.losses.get("nope"), "loss function"),
    (lambda: tf.keras.metrics.get("nope"), "metric function"),
    (lambda: tf.keras.regularizers.get("nope"), "regularizer"),
    (lambda: tf.keras.constraints.get("nope"), "constraint"),
    (lambda: tf.keras.optimizers.get("nope"), "optimizer"),
    (lambda: tf.keras.optimizers.get({"class_name": "nope", "config": {}}), "optimizer"),
])
def test_unknown_object_messages_point_to_the_guide(get, kind):
    assert _raises(ValueError, get) == f"Unknown {kind}: 'nope'{_SEE}"


def test_failed_constructors_use_up_names_as_tf():
    for bad in (lambda: L.Dense(2, activation="foo"), lambda: L.Dense(-1),
                lambda: L.Dense(2, kernel_initializer="nope")):
        with pytest.raises(ValueError):
            bad()
    assert L.Dense(2).name == "dense_3"
    with pytest.raises(ValueError):
        L.Dropout(1.5)
    assert L.Dropout(0.5).name == "dropout_1"
    # Embedding checks its sizes before taking a name.
    assert _raises(ValueError, lambda: L.Embedding(0, 3)) == (
        "Both `input_dim` and `output_dim` should be positive, Received input_dim = 0 and "
        "output_dim = 3")
    assert L.Embedding(10, 3).name == "embedding"


# -- dtypes and input checks -------------------------------------------------------------------------
def test_dense_refuses_integer_inputs():
    msg = _raises(TypeError, lambda: L.Dense(2)(tf.keras.Input((3,), dtype="int32")))
    assert msg == ("A Dense layer can only be built with a floating-point dtype. Received: "
                   "dtype=<dtype: 'int32'>")
    r = L.Reshape((2,))
    r(tf.keras.Input((2,), dtype="int32"))
    assert r.dtype == "int32"


def test_input_spec_messages():
    assert _raises(ValueError, lambda: L.Conv2D(2, 3)(tf.keras.Input((5,)))) == (
        'Input 0 of layer "conv2d" is incompatible with the layer: expected min_ndim=4, found '
        "ndim=2. Full shape received: (Dimension(None), Dimension(5))")
    d = L.Dense(3)
    d(tf.keras.Input((4,)))
    assert _raises(ValueError, lambda: d(tf.keras.Input((5,)))) == (
        'Input 0 of layer "dense" is incompatible with the layer: expected axis -1 of input shape '
        "to have value 4, but received input with shape (None, 5)")
    assert _raises(ValueError, lambda: L.BatchNormalization()(tf.placeholder(tf.float32))) == (
        "Input has undefined rank. Received: input_shape=<unknown>")


def test_returned_inputs_are_copied():
    assert L.Activation("linear")(tf.keras.Input((2,))).name == "activation/activation/Identity:0"
    inp = tf.keras.Input((2,))
    out = L.Lambda(lambda t: t)(inp)
    assert out.name == "lambda/lambda/Identity:0"
    model = tf.keras.Model(inp, out)
    assert [l.name for l in model.layers] == ["input_2", "lambda"]


# -- merge layers ------------------------------------------------------------------------------------
def test_merge_layer_shape_validation():
    a, b = tf.keras.Input((3,)), tf.keras.Input((4,))
    assert _raises(ValueError, lambda: L.Add()([a, b])) == (
        "Inputs have incompatible shapes. Received shapes (3,) and (4,)")
    assert _raises(ValueError, lambda: L.Add()(a)) == (
        "A merge layer should be called on a list of inputs. Received: input_shape=(None, 3) "
        "(not a list of shapes)")
    assert _raises(ValueError, lambda: L.Concatenate()([a, tf.keras.Input((4, 2))])) == (
        "A `Concatenate` layer requires inputs with matching shapes except for the concatenation "
        "axis. Received: input_shape=[(None, 3), (None, 4, 2)]")
    assert _raises(ValueError, lambda: L.Dot(axes=1)([a, b])) == (
        "Incompatible input shapes: axis values 3 (at axis 1) != 4 (at axis 1). Full input "
        "shapes: (None, 3), (None, 4)")
    assert _raises(ValueError, lambda: L.Subtract()([a, a, a])) == (
        "A `Subtract` layer should be called on exactly 2 inputs. Received: "
        "input_shape=[(None, 3), (None, 3), (None, 3)]")


def test_merge_expands_lower_rank_inputs_at_axis_1():
    a, c = tf.keras.Input((3,)), tf.keras.Input((4, 3))
    out = L.Add()([a, c])
    assert out.shape.as_list() == [None, 4, 3]
    x = np.arange(6, dtype="float32").reshape(2, 3)
    y = np.arange(24, dtype="float32").reshape(2, 4, 3)
    got = K.get_session().run(out, {a: x, c: y})
    np.testing.assert_array_equal(got, x[:, None, :] + y)   # NumPy


# -- compile / fit -----------------------------------------------------------------------------------
def _two_output_model():
    inp = tf.keras.Input(shape=(2,), name="x")
    a = L.Dense(1, kernel_initializer="ones", name="a")(inp)
    b = L.Dense(1, kernel_initializer="zeros", name="b")(inp)
    return tf.keras.Model(inp, [a, b])


_X = np.array([[1., 2.], [0., 1.], [2., 0.], [1., 1.]], "float32")
_Y = [np.ones((4, 1), "float32"), np.ones((4, 1), "float32")]


def test_progress_bar_shows_per_output_metrics_as_stateful(capsys):
    model = _two_output_model()
    model.compile(tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    h = model.fit(_X, _Y, epochs=1, batch_size=2, verbose=1, shuffle=False)
    out = capsys.readouterr().out
    assert ("4/4 [==============================] - 0s" in out and
            "loss: 1.6800 - a_loss: 1.0500 - b_loss: 0.6300 - a_mean_absolute_error: 0.6500 - "
            "b_mean_absolute_error: 0.7500" in out)
    assert {k: [round(v, 4) for v in vs] for k, vs in h.history.items()} == {
        "loss": [1.68], "a_loss": [1.05], "b_loss": [0.63], "a_mean_absolute_error": [0.65],
        "b_mean_absolute_error": [0.75]}


def test_summary_of_a_branching_model_has_connections(capsys):
    _two_output_model().summary()
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == (" Layer (type)                Output Shape                 Param #   "
                        "Connected to                  ")
    assert lines[8].rstrip() == " b (Dense)                   (None, 1)                    3  " \
                                "       ['x[0][0]']"


def test_metrics_argument_forms():
    model = _two_output_model()
    assert _raises(TypeError, lambda: model.compile("sgd", "mse", metrics="accuracy")) == (
        "Type of `metrics` argument not understood. Expected a list or dictionary, found: "
        "accuracy")
    with pytest.raises(TypeError):
        model.compile("sgd", "mse", metrics=("mae",))
    model.compile("sgd", "mse", metrics=[tf.keras.metrics.MeanAbsoluteError(), "mse"])
    assert model.metrics_names == ["loss", "a_loss", "b_loss", "a_mean_absolute_error",
                                   "a_mean_squared_error", "b_mean_absolute_error",
                                   "b_mean_squared_error"]
    res = model.evaluate(_X, _Y, verbose=0)
    # NumPy: output a is x0 + x1, output b is 0, targets are 1.
    pa = _X.sum(1)
    np.testing.assert_allclose(res[3], np.abs(pa - 1).mean(), rtol=1e-6)
    np.testing.assert_allclose(res[5], 1.0, rtol=1e-6)


def test_top_k_categorical_accuracy_metric():
    m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), kernel_initializer="ones")])
    m.compile("sgd", "categorical_crossentropy", metrics=["top_k_categorical_accuracy"])
    y = np.eye(3, dtype="float32")[[0, 1, 2, 0]]
    assert m.evaluate(_X, y, verbose=0)[1] == 1.0


def test_target_shape_checks():
    m = tf.keras.Sequential([L.Dense(3, input_shape=(4,), activation="softmax")])
    x = np.zeros((6, 4), "float32")
    m.compile("sgd", "mse")
    assert _raises(ValueError, lambda: m.fit(x, np.zeros((6,)), verbose=0)) == (
        "A target array with shape (6, 1) was passed for an output of shape (None, 3) while using "
        "as loss `mean_squared_error`. This loss expects targets to have the same shape as the "
        "output.")
    m.compile("sgd", tf.keras.losses.BinaryCrossentropy(name="bce"))
    assert "while using as loss `bce`." in _raises(
        ValueError, lambda: m.train_on_batch(x, np.zeros((6, 5))))
    m.compile("sgd", "categorical_crossentropy")
    assert _raises(ValueError, lambda: m.evaluate(x, np.zeros((6, 1)), verbose=0)).startswith(
        "You are passing a target array of shape (6, 1) while using as loss "
        "`categorical_crossentropy`.")
    msg = _raises(ValueError, lambda: m.fit(x, [np.zeros((6, 3)), np.zeros((6, 3))], verbose=0))
    assert msg.startswith("Error when checking model target: the list of Numpy arrays that you "
                          "are passing to your model is not the size the model expected. Expected "
                          "to see 1 array(s), for inputs ['dense'] but instead got the following "
                          "list of 2 arrays: [array([[0., 0., 0.],")


def test_one_dimensional_inputs_are_columns():
    m = tf.keras.Sequential([L.Dense(1, input_shape=(1,), kernel_initializer="ones")])
    m.compile(tf.keras.optimizers.SGD(0.01), "mse")
    x = np.arange(8, dtype="float32")
    m.fit(x, 2 * x + 1, epochs=1, verbose=0, batch_size=8, shuffle=False)
    # NumPy: one full-batch SGD step on w = 1, b = 0.
    err = x - (2 * x + 1)
    w, b = 1 - 0.01 * 2 * np.mean(err * x), -0.01 * 2 * np.mean(err)
    np.testing.assert_allclose(m.predict([1.0, 2.0])[:, 0], [w + b, 2 * w + b], rtol=1e-5)
    assert _raises(ValueError, lambda: m.predict(np.zeros(3)[None])) == (
        "Error when checking input: expected dense_input to have shape (1,) but got array with "
        "shape (3,)")


# -- backend -----------------------------------------------------------------------------------------
def test_get_uid_counts_apart_from_layer_names():
    assert L.Dense(2).name == "dense"
    assert K.get_uid("dense") == 1
    assert _raises(ValueError, lambda: K.is_keras_tensor(np.zeros(2))) == (
        "Unexpectedly found an instance of type `<class 'numpy.ndarray'>`. Expected a symbolic "
        "tensor instance.")
    assert K.is_keras_tensor(tf.keras.Input((2,)))
    assert not K.is_keras_tensor(K.placeholder((None, 2)))


# -- weights -----------------------------------------------------------------------------------------
def test_load_weights_by_name_from_hdf5(tmp_path):
    pytest.importorskip("h5py")
    src = tf.keras.Sequential([L.Dense(4, input_shape=(3,), kernel_initializer="ones", name="d1"),
                               L.Dense(2, kernel_initializer="ones", name="d2")])
    path = str(tmp_path / "w.h5")
    src.save_weights(path)
    dst = tf.keras.Sequential([L.Dense(4, input_shape=(3,), kernel_initializer="zeros", name="d1"),
                               L.Dense(2, kernel_initializer="zeros", name="other")])
    dst.load_weights(path, by_name=True)
    assert [float(w.sum()) for w in dst.get_weights()] == [12.0, 0.0, 0.0, 0.0]
    bad = tf.keras.Sequential([L.Dense(5, input_shape=(3,), name="d1")])
    assert _raises(ValueError, lambda: bad.load_weights(path, by_name=True)) == (
        "Shape mismatch in layer #0 (named d1) for weight d1_2/kernel:0. Weight expects shape "
        "(3, 5). Received saved weight with shape (3, 4)")
    bad.load_weights(path, by_name=True, skip_mismatch=True)
    assert _raises(ValueError, lambda: bad.load_weights(path, skip_mismatch=True)) == (
        "When calling model.load_weights, skip_mismatch can only be set to True when by_name is "
        "True.")


# -- datasets ----------------------------------------------------------------------------------------
def test_datasets_offline_fail_at_once_with_tf_message(tmp_path, monkeypatch, capsys):
    import urllib.error
    from tensorweave.keras.datasets import _fetch

    def offline(origin, fpath):
        raise urllib.error.URLError(OSError(-2, "Name or service not known"))
    monkeypatch.setattr(_fetch, "_download", offline)
    url = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
    msg = _raises(Exception, lambda: tf.keras.datasets.mnist.load_data(cache_dir=str(tmp_path)))
    assert msg == f"URL fetch failure on {url}: None -- [Errno -2] Name or service not known"
    assert capsys.readouterr().out == f"Downloading data from {url}\n"


def test_datasets_read_the_cache(tmp_path, monkeypatch):
    from tensorweave.keras.datasets import _fetch
    monkeypatch.setattr(_fetch, "_hash_ok", lambda fpath, file_hash: True)
    (tmp_path / "datasets").mkdir()
    x, y = np.arange(50 * 13).reshape(50, 13).astype("float64"), np.arange(50.)
    np.savez(tmp_path / "datasets" / "boston_housing.npz", x=x, y=y)
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.boston_housing.load_data(
        cache_dir=str(tmp_path))
    order = np.arange(50)
    np.random.RandomState(113).shuffle(order)   # NumPy: TF's seeded split
    np.testing.assert_array_equal(y_train, y[order[:40]])
    np.testing.assert_array_equal(x_test, x[order[40:]])


@pytest.mark.parametrize("name", ["cifar10", "cifar100", "imdb", "reuters"])
def test_pickled_datasets_are_refused_before_any_download(name, tmp_path, monkeypatch):
    # Their TF archives are pickles (object arrays for IMDB/Reuters): never unpickled here.
    from tensorweave.keras.datasets import _fetch
    monkeypatch.setattr(_fetch, "_download", lambda *a: pytest.fail("nothing may be fetched"))
    with pytest.raises(NotImplementedError, match="does not unpickle files"):
        getattr(tf.keras.datasets, name).load_data()
