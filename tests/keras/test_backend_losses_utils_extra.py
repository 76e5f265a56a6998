"""The added K.* backend functions, losses (Huber, LogCosh, CategoricalHinge, focal
crossentropies), constraints and utils. Names were recorded from TF 2.21 (tf_keras under
tf.compat.v1, v2 behaviour disabled); values are checked against NumPy."""

import numpy as np
import pytest

import tensorweave as tf

K = tf.keras.backend


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.keras.backend.clear_session()
    yield
    tf.keras.backend.clear_session()


def test_batch_dot_shapes_names_values():
    a = np.arange(24.0).reshape(2, 3, 4)
    b = np.arange(24.0).reshape(2, 4, 3)
    c = np.arange(6.0).reshape(2, 3)
    r = K.batch_dot(K.constant(a), K.constant(b))
    assert (r.name, str(r.shape)) == ("MatMul:0", "(2, 3, 3)")
    np.testing.assert_allclose(K.eval(r), np.einsum("bij,bjk->bik", a, b))
    r = K.batch_dot(K.constant(c), K.constant(c), axes=1)
    assert (r.name, str(r.shape)) == ("Squeeze:0", "(2, 1)")
    np.testing.assert_allclose(K.eval(r), (c * c).sum(1, keepdims=True))
    x4, y3 = np.random.rand(2, 3, 4, 5), np.random.rand(2, 5, 2)
    r = K.batch_dot(K.constant(x4), K.constant(y3), axes=(3, 1))
    assert str(r.shape) == "(2, 3, 4, 2)"
    np.testing.assert_allclose(K.eval(r), np.einsum("bijk,bkl->bijl", x4, y3), rtol=1e-5)
    with pytest.raises(ValueError, match="different batch sizes"):
        K.batch_dot(K.constant(c), K.constant(np.ones((3, 3))))
    with pytest.raises(ValueError, match="axis 0"):
        K.batch_dot(K.constant(a), K.constant(b), axes=0)


def test_elementwise_and_reshaping_functions():
    a = np.array([[-1.5, 0.5, 2.5], [1.0, -2.0, 3.0]], np.float32)
    x = K.constant(a)
    np.testing.assert_array_equal(K.eval(K.round(x)), np.round(a))
    np.testing.assert_array_equal(K.eval(K.cumsum(x, 1)), np.cumsum(a, 1))
    np.testing.assert_array_equal(K.eval(K.all(x > 0, axis=1)), [False, False])
    assert K.eval(K.any(x > 2))
    np.testing.assert_array_equal(K.eval(K.reverse(x, 1)), a[:, ::-1])
    r = K.repeat(x, 2)
    assert str(r.shape) == "(2, 2, 3)"
    r = K.repeat_elements(x, 2, 1)
    assert r.name == "concat:0"          # TF: split + concat for a static axis
    np.testing.assert_array_equal(K.eval(r), np.repeat(a, 2, 1))
    ph = tf.placeholder(tf.float32, [None, 3])
    r = K.repeat_elements(ph, 3, 0)      # unknown axis: tile + reshape
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(r, {ph: a}), np.repeat(a, 3, 0))
    sw = K.switch(x > 0, x, -x)
    assert sw.name.startswith("SelectV2")
    np.testing.assert_array_equal(K.eval(sw), np.abs(a))
    np.testing.assert_array_equal(K.eval(K.one_hot(K.constant([0, 2], dtype="int32"), 3)),
                                  np.eye(3)[[0, 2]])
    r = K.arange(5)
    assert (r.name, K.eval(r).tolist()) == ("arange:0", [0, 1, 2, 3, 4])
    assert K.backend() == "tensorflow"
    np.testing.assert_array_equal(K.eval(K.eye(3)), np.eye(3))
    np.testing.assert_array_equal(K.eval(K.bias_add(x, K.constant([1.0, 2.0, 3.0]))),
                                  a + [1, 2, 3])
    p = K.temporal_padding(K.expand_dims(x), (1, 2))
    assert str(p.shape) == "(2, 6, 1)"


def test_pooling_resize_padding():
    img = np.arange(16.0, dtype=np.float32).reshape(1, 2, 2, 4)
    r = K.resize_images(K.constant(img), 2, 3, "channels_last")
    assert (r.name, str(r.shape)) == ("resize/ResizeNearestNeighbor:0", "(1, 4, 6, 4)")
    np.testing.assert_array_equal(K.eval(r), np.repeat(np.repeat(img, 2, 1), 3, 2))
    p = K.pool2d(K.constant(img), (2, 2), (1, 1))
    np.testing.assert_array_equal(K.eval(p).ravel(), img.max(axis=(1, 2)).ravel())
    p = K.spatial_2d_padding(K.constant(img), ((1, 0), (0, 2)))
    assert str(p.shape) == "(1, 3, 4, 4)"
    v = K.resize_volumes(K.constant(np.ones((1, 2, 2, 2, 1))), 2, 1, 3, "channels_last")
    assert str(v.shape) == "(1, 4, 2, 6, 1)"


def test_conv_functions_match_layers():
    x = np.random.rand(2, 5, 5, 3).astype(np.float32)
    k = np.random.rand(3, 3, 3, 4).astype(np.float32)
    out = K.eval(K.conv2d(K.constant(x), K.constant(k), padding="same"))
    ref = K.eval(tf.nn.conv2d(x, k, [1, 1, 1, 1], "SAME"))
    np.testing.assert_allclose(out, ref, rtol=1e-5)
    xf = np.transpose(x, (0, 3, 1, 2))
    outf = K.eval(K.conv2d(K.constant(xf), K.constant(k), padding="same",
                           data_format="channels_first"))
    np.testing.assert_allclose(outf, np.transpose(ref, (0, 3, 1, 2)), rtol=1e-5)


def test_learning_phase_scope_and_manual_init():
    with K.learning_phase_scope(1):
        assert K.learning_phase() == 1
    assert not isinstance(K.learning_phase(), int)
    K.manual_variable_initialization(True)
    try:
        v = K.variable(1.0)
        sess = K.get_session()
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v)
    finally:
        K.manual_variable_initialization(False)


def test_focal_and_new_losses():
    yt = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], np.float32)
    yp = np.array([[0.1, 0.7, 0.2], [0.3, 0.5, 0.2]], np.float32)
    Ls = tf.keras.losses
    with tf.Session() as s:
        ch = s.run(Ls.categorical_hinge(yt, yp))
        np.testing.assert_allclose(ch, np.maximum(((1 - yt) * yp).max(-1) - (yt * yp).sum(-1)
                                                  + 1, 0), rtol=1e-6)
        lc = s.run(Ls.log_cosh(yt, yp))
        np.testing.assert_allclose(lc, np.log(np.cosh(yp - yt)).mean(-1), rtol=1e-5)
        hub = s.run(Ls.Huber(delta=0.2)(yt, yp))
        err = np.abs(yp - yt)
        ref = np.where(err <= 0.2, 0.5 * err ** 2, 0.2 * err - 0.02).mean()
        np.testing.assert_allclose(hub, ref, rtol=1e-5)
        bf = s.run(Ls.binary_focal_crossentropy(yt, yp))
        p_t = yt * yp + (1 - yt) * (1 - yp)
        bce = -(yt * np.log(yp) + (1 - yt) * np.log(1 - yp))
        np.testing.assert_allclose(bf, ((1 - p_t) ** 2 * bce).mean(-1), rtol=1e-5)
        cf = s.run(Ls.categorical_focal_crossentropy(yt, yp))
        np.testing.assert_allclose(cf, (0.25 * (1 - yp) ** 2 * -yt * np.log(yp)).sum(-1),
                                   rtol=1e-5)
    # TF's LossFunctionWrapper config: base keys, the function's arguments, the function
    assert Ls.Huber().get_config() == {"reduction": "auto", "name": "huber_loss", "delta": 1.0,
                                       "fn": "huber"}
    assert Ls.get("logcosh") is Ls.log_cosh
    assert tf.keras.metrics.get("binary_focal_crossentropy") is Ls.binary_focal_crossentropy


def test_min_max_norm_constraint():
    c = tf.keras.constraints.MinMaxNorm(0.5, 1.0, rate=0.5)
    w = np.array([[3.0, 0.1], [4.0, 0.1]], np.float32)
    out = K.eval(c(K.constant(w)))
    norms = np.sqrt((w ** 2).sum(0))
    desired = 0.5 * np.clip(norms, 0.5, 1.0) + 0.5 * norms
    np.testing.assert_allclose(out, w * desired / (1e-7 + norms), rtol=1e-5)


def test_pad_sequences_as_tf():
    pad = tf.keras.preprocessing.sequence.pad_sequences
    seqs = [[1, 2, 3], [4, 5], [6], []]
    # recorded from TF
    assert pad(seqs).tolist() == [[1, 2, 3], [0, 4, 5], [0, 0, 6], [0, 0, 0]]
    assert pad(seqs, maxlen=2).tolist() == [[2, 3], [4, 5], [0, 6], [0, 0]]
    assert pad(seqs, maxlen=2, padding="post", truncating="post", value=-1).tolist() == \
        [[1, 2], [4, 5], [6, -1], [-1, -1]]
    with pytest.raises(ValueError, match='Padding type "mid" not understood'):
        pad(seqs, padding="mid")
    assert tf.keras.utils.to_ordinal([0, 2]).tolist() == [[0, 0], [1, 1]]


def test_utils_sequence_registry_source_inputs_get_file():
    class S(tf.keras.utils.Sequence):
        def __len__(self):
            return 2

        def __getitem__(self, i):
            return i * 10
    assert list(S()) == [0, 10]
    a, b = tf.keras.Input((3,)), tf.keras.Input((2,))
    out = tf.keras.layers.Concatenate()([tf.keras.layers.Dense(2)(a), b])
    assert [t.name for t in tf.keras.utils.get_source_inputs(out)] == ["input_1:0", "input_2:0"]

    @tf.keras.utils.register_keras_serializable(package="my")
    class Foo(tf.keras.layers.Layer):
        pass
    assert tf.keras.utils.get_registered_name(Foo) == "my>Foo"
    assert tf.keras.utils.get_registered_object("my>Foo") is Foo
    with pytest.raises(NotImplementedError, match="cannot download"):
        tf.keras.utils.get_file("x.npz", "https://example.com/x.npz")
