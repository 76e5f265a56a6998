"""Model configs, to_json / model_from_json and clone_model against TF 2.21's legacy keras."""

import json

import numpy as np

import tensorweave as tf

L = tf.keras.layers


def _fresh():
    tf.reset_default_graph()
    tf.keras.backend.clear_session()


def test_sequential_to_json_as_tf():
    _fresh()
    m = tf.keras.Sequential([
        L.Dense(4, activation="relu", input_shape=(3,),
                kernel_regularizer=tf.keras.regularizers.l2(0.01)),
        L.Dropout(0.5), L.Dense(2, kernel_constraint=tf.keras.constraints.max_norm(2.))])
    d = json.loads(m.to_json())
    # Recorded from TF 2.21 (TF_USE_LEGACY_KERAS=1, v1 graph mode).
    assert d["keras_version"] == "2.21.0" and d["backend"] == "tensorflow"
    assert d["class_name"] == "Sequential"
    layers = d["config"]["layers"]
    assert layers[0] == {"class_name": "InputLayer", "config": {
        "batch_input_shape": [None, 3], "dtype": "float32", "sparse": False, "ragged": False,
        "name": "dense_input", "optional": False}}
    dense = layers[1]["config"]
    assert list(dense) == ["name", "trainable", "batch_input_shape", "dtype", "units",
                           "activation", "use_bias", "kernel_initializer", "bias_initializer",
                           "kernel_regularizer", "bias_regularizer", "activity_regularizer",
                           "kernel_constraint", "bias_constraint"]
    assert dense["kernel_initializer"] == {"class_name": "GlorotUniform",
                                           "config": {"seed": None, "dtype": "float32"}}
    assert dense["kernel_regularizer"] == {"class_name": "L2",
                                           "config": {"l2": 0.009999999776482582}}
    assert layers[2]["config"] == {"name": "dropout", "trainable": True, "dtype": "float32",
                                   "rate": 0.5, "noise_shape": None, "seed": None}
    assert layers[3]["config"]["kernel_constraint"] == {
        "class_name": "MaxNorm", "config": {"max_value": 2.0, "axis": 0}}


def test_unbuilt_layer_configs():
    _fresh()
    # dtype is None until a layer is built, as TF's v1 layers.
    assert L.Dense(3).get_config()["dtype"] is None
    assert L.MaxPooling1D().get_config() == {
        "name": "max_pooling1d", "trainable": True, "dtype": None, "strides": (2,),
        "pool_size": (2,), "padding": "valid", "data_format": "channels_last"}
    cfg = L.GRU(2).get_config()
    assert cfg["reset_after"] is False and cfg["implementation"] == 1
    assert cfg["recurrent_initializer"] == {"class_name": "Orthogonal",
                                            "config": {"gain": 1.0, "seed": None,
                                                       "dtype": "float32"}}
    assert list(cfg)[3:9] == ["return_sequences", "return_state", "go_backwards", "stateful",
                              "unroll", "time_major"]


def test_functional_config_and_rebuild():
    _fresh()
    a = tf.keras.Input((4,), name="a")
    b = tf.keras.Input((3,))
    d = L.Dense(5, activation="relu")
    x = L.Concatenate()([d(a), L.Dense(5)(b)])
    o1 = L.Dense(1, name="out1")(x)
    o2 = L.Dense(2, activation="softmax")(d(a))
    m = tf.keras.Model([a, b], [o1, o2], name="mm")
    cfg = m.get_config()
    # Recorded from TF 2.21.
    assert [l["name"] for l in cfg["layers"]] == ["a", "input_1", "dense", "dense_1",
                                                  "concatenate", "out1", "dense_2"]
    assert cfg["layers"][2]["inbound_nodes"] == [[["a", 0, 0, {}]], [["a", 0, 0, {}]]]
    assert cfg["layers"][4]["inbound_nodes"] == [[["dense", 0, 0, {}], ["dense_1", 0, 0, {}]]]
    assert cfg["layers"][6]["inbound_nodes"] == [[["dense", 1, 0, {}]]]
    assert cfg["input_layers"] == [["a", 0, 0], ["input_1", 0, 0]]
    assert cfg["output_layers"] == [["out1", 0, 0], ["dense_2", 0, 0]]
    assert json.loads(m.to_json())["class_name"] == "Functional"
    m2 = tf.keras.models.model_from_json(m.to_json())
    assert m2.name == "mm" and m2.output_names == ["out1", "dense_2"]
    assert [w.name for w in m2.weights] == [
        "dense_3/kernel:0", "dense_3/bias:0", "dense_1_1/kernel:0", "dense_1_1/bias:0",
        "out1_1/kernel:0", "out1_1/bias:0", "dense_2_2/kernel:0", "dense_2_2/bias:0"]
    assert m2.to_json() == m.to_json()


def test_round_trip_trains_and_keeps_architecture():
    _fresh()
    m = tf.keras.Sequential([
        L.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1),
                 kernel_regularizer=tf.keras.regularizers.l1_l2(0.01, 0.02)),
        L.MaxPooling2D(), L.BatchNormalization(), L.Flatten(), L.Dropout(0.3),
        L.Dense(3, activation="softmax",
                bias_initializer=tf.keras.initializers.Constant(0.1))])
    m2 = tf.keras.models.model_from_json(m.to_json())
    assert m2.to_json() == m.to_json()
    assert m2.count_params() == m.count_params() == 167
    assert len(m2.losses) == 1
    assert m2.get_config()["layers"][3]["config"]["axis"] == [3]
    m2.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    rng = np.random.RandomState(0)
    h = m2.fit(rng.rand(16, 8, 8, 1).astype("float32"), rng.randint(0, 3, 16), epochs=2,
               verbose=0)
    assert sorted(h.history) == ["acc", "loss"]
    sess = tf.keras.backend.get_session()
    bias = sess.run(m2.layers[-1].bias)
    assert bias.shape == (3,)


def test_rnn_configs_round_trip():
    _fresh()
    i = tf.keras.Input((4, 2))
    m = tf.keras.Model(i, L.RNN([L.SimpleRNNCell(2), L.LSTMCell(3)])(i))
    cell = m.get_config()["layers"][1]["config"]["cell"]
    assert cell["class_name"] == "StackedRNNCells"
    assert [c["class_name"] for c in cell["config"]["cells"]] == ["SimpleRNNCell", "LSTMCell"]
    m2 = tf.keras.Model.from_config(m.get_config())
    # Recorded from TF 2.21.
    assert [w.name for w in m2.weights] == [
        "rnn_1/stacked_rnn_cells/simple_rnn_cell/kernel:0",
        "rnn_1/stacked_rnn_cells/simple_rnn_cell/recurrent_kernel:0",
        "rnn_1/stacked_rnn_cells/simple_rnn_cell/bias:0",
        "rnn_1/stacked_rnn_cells/lstm_cell/kernel:0",
        "rnn_1/stacked_rnn_cells/lstm_cell/recurrent_kernel:0",
        "rnn_1/stacked_rnn_cells/lstm_cell/bias:0"]


def test_clone_model_new_weights():
    _fresh()
    s = tf.keras.Sequential([L.Dense(3, input_dim=2), L.BatchNormalization(axis=1)])
    c = tf.keras.models.clone_model(s)
    assert c.name == s.name and [l.name for l in c.layers] == ["dense", "batch_normalization"]
    assert [w.name for w in c.weights][:2] == ["dense_1/kernel:0", "dense_1/bias:0"]
    assert not any(w is v for w, v in zip(c.weights, s.weights))
    seen = []
    tf.keras.models.clone_model(s, clone_function=lambda l: seen.append(l.name) or
                                l.__class__.from_config(l.get_config()))
    assert seen == ["dense", "batch_normalization"]
    x = np.ones((2, 2), "float32")
    assert c.predict(x).shape == (2, 3)


def test_lambda_and_custom_objects():
    _fresh()

    def double(x):
        return x * 2
    s = tf.keras.Sequential([L.Dense(3, input_shape=(2,), kernel_initializer="ones"),
                             L.Lambda(double)])
    fn = s.get_config()["layers"][2]["config"]
    assert fn["function_type"] == "lambda" and fn["module"] == __name__
    c = tf.keras.Sequential.from_config(s.get_config())
    sess = tf.keras.backend.get_session()
    sess.run(tf.global_variables_initializer())
    np.testing.assert_allclose(c.predict(np.ones((1, 2), "float32")), [[4., 4., 4.]])
    try:
        tf.keras.models.model_from_json('{"class_name": "Foo", "config": {}}')
        raise AssertionError("expected ValueError")
    except ValueError as e:
        assert "Unknown layer: 'Foo'" in str(e)


def test_functional_layers_ordered_by_depth_as_tf():
    _fresh()
    a = tf.keras.Input((10,), name="ids", dtype="int32")
    b = tf.keras.Input((5, 3))
    x = L.concatenate([L.LSTM(6)(L.Embedding(50, 4)(a)), L.GRU(6)(b)])
    m = tf.keras.Model([a, b], [L.Dense(1, name="p")(x), L.Dense(3)(x)])
    # Recorded from TF 2.21: deepest layers first, ties in depth-first order from the outputs.
    assert [l.name for l in m.layers] == ["ids", "embedding", "input_1", "lstm", "gru",
                                          "concatenate", "p", "dense"]
    assert m.count_params() == 696
