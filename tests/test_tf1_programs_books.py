"""Whole TF1 programs in the style of the classic TF1 books (Géron's Hands-On ML 1st ed., the
TensorFlow Machine Learning Cookbook, CS20SI, Learning TensorFlow), round 3, and the fixes they
found. Expected values were recorded from TF 2.21 (tensorflow.compat.v1 with v2 behaviour
disabled) unless computed from NumPy in the test."""

import numpy as np
import pytest

import tensorweave as tf


def _g(seed, *shape):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


# (m, k, transpose_a, transpose_b) -> TF 2.21's float32 bits of a fed (m, k) @ (k, 1) product.
_MATVEC_BITS = {
    (5, 7, False, False): [3158100864, 1088428671, 3223750345, 1060915684, 1075901200],
    (4, 29, False, False): [3204675942, 3204641318, 3225999555, 1062404962],
    (3, 40, False, False): [3199025736, 3235742645, 1052374880],
    (20, 13, False, True): [3225855261, 1085587749, 1083261258, 3230833406, 3221492546,
                            1058252372, 1075213849, 1082634899, 3234359348, 3221197619,
                            1078939455, 1076933102, 1067084446, 3218785450, 1018510014,
                            3231697604, 3227478755, 3229602702, 1087094158, 1086560400],
    # transpose_a keeps the running FMA of tf_order.matmul (X^T @ error in a gradient)
    (6, 40, True, False): [3199025754, 3235742643, 1052374880, 3239601416, 3235611215,
                           1059922226],
}


@pytest.mark.parametrize("m,k,ta,tb", sorted(_MATVEC_BITS))
def test_one_column_matmul_adds_in_tfs_gemv_order(m, k, ta, tb):
    """A regression's X @ theta (one output column) is oneDNN's GEMV in TF: 8-lane FMA blocks,
    horizontal adds, then 4-, 2- and 1-wide tails; Géron's mini-batch regression printed
    0.2848074 where TF prints 0.28480744 before tf_order.matvec."""
    a, b = _g(1, m, k), _g(2, k, 1)
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, (k, None) if ta else (None, k))
        y = tf.matmul(x, tf.constant(b.T.copy() if tb else b), transpose_a=ta, transpose_b=tb)
        with tf.Session() as sess:
            r = sess.run(y, {x: a.T.copy() if ta else a})
    assert r.ravel().view(np.uint32).tolist() == _MATVEC_BITS[(m, k, ta, tb)]
    np.testing.assert_allclose(r, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def test_row_times_transposed_matrix_is_a_gemv_over_its_rows():
    """(1, k) @ (n, k)^T, the gradient of Learning TensorFlow's matmul(w, transpose(x)) w.r.t. w:
    TF 2.21's bits (recorded) are tf_order.matvec over B's rows."""
    a = np.random.RandomState(1).randn(1, 200).astype(np.float32)
    bt = np.random.RandomState(2).randn(3, 200).astype(np.float32)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, (None, 200))
        y = tf.placeholder(tf.float32, (None, 200))
        with tf.Session() as sess:
            r = sess.run(tf.matmul(x, y, transpose_b=True), {x: a, y: bt})
    assert r.view(np.uint32).tolist() == [[3238771664, 1102149451, 3238332311]]


def test_geron_minibatch_regression_with_saver(tmp_path):
    """Hands-On ML ch. 9: placeholders fed by fetch_batch, a name scope, Saver save/restore and
    import_meta_graph."""
    rng = np.random.RandomState(42)
    m, n = 100, 3
    data = rng.rand(m, n).astype(np.float32)
    # data @ w as a running float32 FMA: what the AVX-512 OpenBLAS sgemv of the recorded run
    # computed (NumPy's own @ rounds differently on other CPUs, and TF's losses follow its input)
    w = np.array([1., -2., 3.], np.float32)
    target = np.zeros(m, np.float32)
    for j in range(n):
        target = (target + data[:, j].astype(np.float64) * w[j]).astype(np.float32)
    target = (target + np.float32(0.3)).reshape(-1, 1)
    data_b = np.c_[np.ones((m, 1)), data].astype(np.float32)
    g = tf.Graph()
    with g.as_default():
        X = tf.placeholder(tf.float32, shape=(None, n + 1), name="X")
        y = tf.placeholder(tf.float32, shape=(None, 1), name="y")
        theta = tf.Variable(tf.random_uniform([n + 1, 1], -1.0, 1.0, seed=42), name="theta")
        y_pred = tf.matmul(X, theta, name="predictions")
        with tf.name_scope("loss") as scope:
            error = y_pred - y
            mse = tf.reduce_mean(tf.square(error), name="mse")
        assert (scope, error.op.name, mse.op.name) == ("loss/", "loss/sub", "loss/mse")
        training_op = tf.train.GradientDescentOptimizer(learning_rate=0.1).minimize(mse)
        saver = tf.train.Saver()
        losses = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for epoch in range(10):
                for batch_index in range(10):
                    r = np.random.RandomState(epoch * 10 + batch_index)
                    idx = r.randint(m, size=10)
                    sess.run(training_op, feed_dict={X: data_b[idx], y: target[idx]})
                if epoch % 3 == 0:
                    losses.append(sess.run(mse, feed_dict={X: data_b, y: target}))
            best_theta = theta.eval()
            path = saver.save(sess, str(tmp_path / "my_model_final.ckpt"))
    # TF 2.21 printed: 0 0.84643877 / 3 0.28480744 / 6 0.09878711 / 9 0.034217097
    assert [str(v) for v in losses] == ["0.84643877", "0.28480744", "0.09878711", "0.034217097"]
    g2 = tf.Graph()
    with g2.as_default():
        saver = tf.train.import_meta_graph(path + ".meta")
        theta = g2.get_tensor_by_name("theta:0")
        with tf.Session() as sess:
            saver.restore(sess, path)
            np.testing.assert_array_equal(theta.eval(), best_theta)


def test_broadcast_gradient_args_of_identical_shapes_is_empty():
    """TF's BCast fast path: identical shapes, even with 1-dims, give no reduction indices
    (fetched from gradients/sub_grad in TF 2.21: [] and [])."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, (None, 1))
        y = tf.placeholder(tf.float32, (None, 1))
        z = tf.placeholder(tf.float32, (None, 3))
        tf.gradients(tf.reduce_sum(x - y), [x, y])
        tf.gradients(tf.reduce_sum(x * z), [x, z])
        with tf.Session() as sess:
            feed = {x: np.ones((10, 1)), y: np.ones((10, 1)), z: np.ones((10, 3))}
            a, b = sess.run(["gradients/sub_grad/BroadcastGradientArgs:0",
                             "gradients/sub_grad/BroadcastGradientArgs:1"], feed)
            c, d = sess.run(["gradients_1/mul_grad/BroadcastGradientArgs:0",
                             "gradients_1/mul_grad/BroadcastGradientArgs:1"], feed)
    assert a.tolist() == [] and b.tolist() == []
    assert c.tolist() == [1] and d.tolist() == []


@pytest.mark.parametrize("build,message", [
    (lambda x: tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], padding="same"),
     "Attr 'padding' of 'MaxPool' Op passed string 'same' not in: \"SAME\", \"VALID\", \"EXPLICIT\"."),
    (lambda x: tf.nn.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], padding="Valid"),
     "Attr 'padding' of 'AvgPool' Op passed string 'Valid' not in: \"SAME\", \"VALID\"."),
    (lambda x: tf.nn.conv2d(x, tf.zeros((3, 3, 2, 2)), [1, 1, 1, 1], padding="same"),
     "Attr 'padding' of 'Conv2D' Op passed string 'same' not in: \"SAME\", \"VALID\", \"EXPLICIT\"."),
    (lambda x: tf.nn.depthwise_conv2d(x, tf.zeros((3, 3, 2, 2)), [1, 1, 1, 1], padding="FOO"),
     "Attr 'padding' of 'DepthwiseConv2dNative' Op passed string 'FOO' not in: \"SAME\", \"VALID\", "
     "\"EXPLICIT\"."),
    (lambda x: tf.nn.atrous_conv2d(x, tf.zeros((3, 3, 2, 2)), 2, padding="same"),
     "`padding` must be one of 'SAME' or 'VALID'. Received: padding=same"),
    (lambda x: tf.extract_image_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], padding="same"),
     "Attr 'padding' of 'ExtractImagePatches' Op passed string 'same' not in: \"SAME\", \"VALID\"."),
])
def test_tf_nn_padding_must_be_upper_case(build, message):
    """Géron ch. 13 readers typing padding="same" into tf.nn.max_pool get TF's op-definition
    ValueError (messages recorded from TF 2.21); tf.layers upper-cases its padding itself."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, (None, 8, 8, 2))
        with pytest.raises(ValueError) as e:
            build(x)
        assert str(e.value) == message
        y = tf.layers.max_pooling2d(x, 2, 2, padding="same")
        assert y.op.get_attr("padding") == b"SAME" and y.shape.as_list() == [None, 4, 4, 2]


def test_zero_state_builds_tfs_ops():
    """rnn_cell_impl._concat: ExpandDims of a tensor batch size (not Reshape), int32 dims, and a
    second prefix/suffix made for the static shape (op names recorded from TF 2.21)."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        z = tf.nn.rnn_cell.BasicRNNCell(5).zero_state(tf.shape(x)[0], tf.float32)
        names = [o.name for o in g.get_operations() if "ZeroState" in o.name]
        zi = tf.nn.rnn_cell.BasicLSTMCell(4).zero_state(3, tf.float32)
        with tf.Session() as sess:
            assert sess.run(z, {x: np.ones((2, 3))}).tolist() == np.zeros((2, 5)).tolist()
            assert [v.shape for v in sess.run(zi)] == [(3, 4), (3, 4)]
    assert names == [
        "BasicRNNCellZeroState/ExpandDims/dim", "BasicRNNCellZeroState/ExpandDims",
        "BasicRNNCellZeroState/Const", "BasicRNNCellZeroState/concat/axis",
        "BasicRNNCellZeroState/concat", "BasicRNNCellZeroState/zeros/Const",
        "BasicRNNCellZeroState/zeros", "BasicRNNCellZeroState/ExpandDims_1/dim",
        "BasicRNNCellZeroState/ExpandDims_1", "BasicRNNCellZeroState/Const_1"]
    assert z.shape.as_list() == [None, 5] and zi.c.shape.as_list() == [3, 4]
    assert zi.c.name == "BasicLSTMCellZeroState/zeros:0"
    assert zi.h.name == "BasicLSTMCellZeroState/zeros_1:0"


def test_full_reduction_of_unknown_rank_is_a_scalar():
    """TF's _may_reduce_to_scalar: the cookbook's kernel-SVM accuracy,
    reduce_mean(cast(equal(squeeze(p), squeeze(y)))) of a [1, ?] prediction, has shape () in TF
    2.21; keepdims=True or an axis leave it unknown."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32)
        b = tf.placeholder(tf.bool)
        for f in (tf.reduce_mean, tf.reduce_sum, tf.reduce_max, tf.reduce_min, tf.reduce_prod,
                  tf.reduce_logsumexp, tf.count_nonzero, tf.math.reduce_std,
                  tf.math.reduce_variance):
            assert f(x).shape.ndims == 0
            assert f(x, keepdims=True).shape.ndims is None
            assert f(x, axis=0).shape.ndims is None
        assert tf.reduce_any(b).shape.ndims == 0 and tf.reduce_all(b).shape.ndims == 0
        p = tf.placeholder(tf.float32, [1, None])
        acc = tf.reduce_mean(tf.cast(tf.equal(tf.squeeze(p), tf.squeeze(p)), tf.float32))
        assert str(acc.shape) == "()"
        with tf.Session() as sess:
            assert sess.run(acc, {p: [[1., 2., 3.]]}) == 1.0
