"""tf.nn ops: kernels against NumPy references, static shapes/dtypes, TF's names and errors.

Expected names, values and error messages marked "TF" were recorded from real TensorFlow 2.21
(`tensorflow.compat.v1` with v2 behavior disabled)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_op, run_op

rng = np.random.RandomState(42)
X = rng.standard_normal((4, 5)).astype(np.float32) * 3
X[0, 0] = 0.0
X64 = X.astype(np.float64)

SELU_A, SELU_S = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def np_log_softmax(x, axis=-1):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize("fn,ref", [
    (tf.nn.relu, lambda x: np.maximum(x, 0)),
    (tf.nn.relu6, lambda x: np.clip(x, 0, 6)),
    (tf.nn.elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    (tf.nn.selu, lambda x: SELU_S * np.where(x > 0, x, SELU_A * np.expm1(x))),
    (tf.nn.softplus, lambda x: np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0)),
    (tf.nn.softsign, lambda x: x / (1 + np.abs(x))),
    (tf.nn.leaky_relu, lambda x: np.where(x > 0, x, float(np.float32(0.2)) * x)),   # TF's float attr
    (lambda x: tf.nn.leaky_relu(x, alpha=3.0), lambda x: np.where(x > 0, x, 3.0 * x)),
    (tf.nn.softmax, np_softmax),
    (tf.nn.log_softmax, np_log_softmax),
    (lambda x: tf.nn.softmax(x, axis=0), lambda x: np_softmax(x, 0)),
    (lambda x: tf.nn.softmax(x, dim=0), lambda x: np_softmax(x, 0)),
    (lambda x: tf.nn.log_softmax(x, axis=0), lambda x: np_log_softmax(x, 0)),
    (tf.nn.l2_loss, lambda x: np.sum(x.astype(np.float64) ** 2) / 2),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_values(fn, ref, dtype):
    x = X.astype(dtype)
    want = np.asarray(ref(x.astype(np.float64))).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    check_op(fn, [x], want, rtol=tol, atol=tol)


def test_activations_keep_dtype_and_names():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    # TF: names of the activation ops.
    for f, n in [(tf.nn.relu, "Relu:0"), (tf.nn.relu6, "Relu6:0"), (tf.nn.elu, "Elu:0"),
                 (tf.nn.selu, "Selu:0"), (tf.nn.softplus, "Softplus:0"), (tf.nn.softsign, "Softsign:0"),
                 (tf.nn.leaky_relu, "LeakyRelu:0"), (tf.nn.softmax, "Softmax:0"),
                 (tf.nn.log_softmax, "LogSoftmax:0"), (tf.nn.l2_loss, "L2Loss:0")]:
        t = f(x)
        assert t.name == n and t.dtype == tf.float32
    assert tf.nn.l2_loss(x).shape.as_list() == []
    assert tf.nn.relu(x).shape.as_list() == [None, 3]
    assert tf.nn.leaky_relu(x).op.get_attr("alpha") == pytest.approx(0.2)
    assert tf.nn.relu(tf.placeholder(tf.int32, [2])).dtype == tf.int32  # TF: relu accepts ints
    assert tf.nn.relu(x, name="r").name == "r:0"


def test_relu_int_values():
    check_op(tf.nn.relu, [np.array([-2, 0, 3], np.int32)], np.array([0, 0, 3], np.int32))
    check_op(tf.nn.relu6, [np.array([-2, 0, 3, 9], np.int64)], np.array([0, 0, 3, 6], np.int64))


def test_recorded_tf_values():
    # TF: selu([-1, 0.5]), elu([-1, 0.5]), softplus([-100, 0, 100]).
    with tf.Session() as s:
        np.testing.assert_allclose(s.run(tf.nn.selu(tf.constant([-1., 0.5]))), [-1.1113307, 0.5253505], rtol=1e-6)
        np.testing.assert_allclose(s.run(tf.nn.elu(tf.constant([-1., 0.5]))), [-0.63212055, 0.5], rtol=1e-6)
        np.testing.assert_allclose(s.run(tf.nn.softplus(tf.constant([-100., 0., 100.]))),
                                   [0., 0.6931472, 100.], rtol=1e-6, atol=1e-30)  # TF flushes the denormal to 0
        # TF: softmax over an axis of length 1 is all ones.
        np.testing.assert_allclose(s.run(tf.nn.softmax(tf.constant([[1., 2., 3.]]), axis=0)), [[1., 1., 1.]])


def test_softmax_stable_for_large_logits():
    x = np.array([[1000., 1001., 1002.], [-1000., -1000., -1000.]], np.float32)
    out = check_op(tf.nn.softmax, [x], np_softmax(x.astype(np.float64)).astype(np.float32))
    assert np.all(np.isfinite(out))
    check_op(tf.nn.log_softmax, [x], np_log_softmax(x.astype(np.float64)).astype(np.float32), atol=1e-4)


def test_softmax_rank3_and_axis_names():
    x3 = rng.standard_normal((2, 3, 4)).astype(np.float32)
    check_op(lambda x: tf.nn.softmax(x, axis=1), [x3], np_softmax(x3, 1), rtol=1e-5)
    x = tf.placeholder(tf.float32, [None, 3])
    # TF: a non-last axis transposes, applies Softmax, and transposes back.
    assert tf.nn.softmax(x, dim=0).name == "transpose_1:0"


def test_softmax_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`dim` must be in the range \[-2, 2\)"):
        tf.nn.softmax(tf.zeros([2, 3]), axis=2)
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        tf.nn.softmax(tf.zeros([]))
    with pytest.raises(TypeError, match="Value passed to parameter 'logits' has DataType int32 not in list "
                                        "of allowed values: float16, bfloat16, float32, float64"):
        tf.nn.softmax(tf.zeros([2, 3], tf.int32))
    with pytest.raises(TypeError, match="parameter 't' has DataType int32"):
        tf.nn.l2_loss(tf.zeros([2, 3], tf.int32))


def test_bias_add():
    b = rng.standard_normal(5).astype(np.float32)
    check_op(tf.nn.bias_add, [X, b], X + b)
    x4 = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b3 = rng.standard_normal(3).astype(np.float32)
    check_op(lambda x, b: tf.nn.bias_add(x, b, data_format="NCHW"), [x4, b3], x4 + b3[:, None, None])
    check_op(lambda x, b: tf.nn.bias_add(x, b, data_format="NHWC"), [x4, b], x4 + b)
    xp = tf.placeholder(tf.float32, [None, 3], name="x")
    assert tf.nn.bias_add(xp, tf.zeros([3])).name == "BiasAdd:0"  # TF
    assert tf.nn.bias_add(xp, tf.placeholder(tf.float32)).shape.as_list() == [None, 3]


def test_bias_add_errors():
    # TF's build-time errors.
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):
        tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([4]))
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.nn.bias_add(tf.zeros([3]), tf.zeros([3]))
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([1, 3]))
    # Unknown static shapes: the kernel checks at run time.
    x = tf.placeholder(tf.float32)
    b = tf.placeholder(tf.float32)
    y = tf.nn.bias_add(x, b)
    with tf.Session() as s:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Must provide as many biases"):
            s.run(y, {x: np.zeros((2, 3)), b: np.zeros(1)})


def test_xw_plus_b():
    w = rng.standard_normal((5, 2)).astype(np.float32)
    b = rng.standard_normal(2).astype(np.float32)
    check_op(tf.nn.xw_plus_b, [X, w, b], X @ w + b, rtol=1e-5)
    t = tf.nn.xw_plus_b(tf.placeholder(tf.float32, [None, 3]), tf.zeros([3, 4]), tf.zeros([4]))
    assert t.name == "xw_plus_b:0" and t.op.type == "BiasAdd"  # TF
    assert t.op.inputs[0].name == "xw_plus_b/MatMul:0"  # TF
    check_op(tf.nn.relu_layer, [X, w, b], np.maximum(X @ w + b, 0), rtol=1e-5)


def np_xent(labels, logits):
    return -(labels * np_log_softmax(logits)).sum(-1)


LAB = rng.rand(4, 5).astype(np.float32)
LAB /= LAB.sum(1, keepdims=True)


def test_softmax_cross_entropy_values():
    want = np_xent(LAB.astype(np.float64), X64).astype(np.float32)
    check_op(lambda l, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=l, logits=x), [LAB, X], want,
             rtol=1e-5)
    check_op(lambda l, x: tf.nn.softmax_cross_entropy_with_logits(labels=l, logits=x), [LAB, X], want,
             rtol=1e-5)
    # rank 3 and a non-last axis
    x3 = rng.standard_normal((2, 3, 4))
    l3 = rng.rand(2, 3, 4)
    check_op(lambda l, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=l, logits=x), [l3, x3],
             np_xent(l3, x3), rtol=1e-10)
    check_op(lambda l, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=l, logits=x, axis=1), [l3, x3],
             np_xent(np.swapaxes(l3, 1, 2), np.swapaxes(x3, 1, 2)), rtol=1e-10)
    # huge logits stay finite
    big = np.array([[1000., -1000., 0.]], np.float32)
    check_op(lambda l, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=l, logits=x),
             [np.array([[0., 1., 0.]], np.float32), big], np.array([2000.], np.float32))


def test_softmax_cross_entropy_backprop_output():
    x = tf.constant(X)
    lab = tf.constant(LAB)
    cost = tf.nn.softmax_cross_entropy_with_logits_v2(labels=lab, logits=x)
    fused = [op for op in tf.get_default_graph().get_operations() if op.type == "SoftmaxCrossEntropyWithLogits"][0]
    with tf.Session() as s:
        loss, backprop = s.run(fused.outputs)
    np.testing.assert_allclose(loss, np_xent(LAB, X64), rtol=1e-5)
    np.testing.assert_allclose(backprop, np_softmax(X64) - LAB, atol=1e-6)
    assert loss.dtype == np.float32 and backprop.dtype == np.float32
    assert cost.shape.as_list() == [4]


def test_softmax_cross_entropy_names():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    lab = tf.placeholder(tf.float32, [None, 3], name="lab")
    # TF: the TF1 version works in a "_sg" scope and stops the gradient into labels.
    t = tf.nn.softmax_cross_entropy_with_logits(labels=lab, logits=x)
    assert t.name == "softmax_cross_entropy_with_logits_sg/Reshape_2:0"
    assert t.shape.as_list() == [None]
    g = tf.get_default_graph()
    assert g.get_operation_by_name("softmax_cross_entropy_with_logits_sg").type == "SoftmaxCrossEntropyWithLogits"
    t2 = tf.nn.softmax_cross_entropy_with_logits_v2(labels=lab, logits=x)
    assert t2.name == "softmax_cross_entropy_with_logits/Reshape_2:0"
    assert g.get_operation_by_name("softmax_cross_entropy_with_logits").type == "SoftmaxCrossEntropyWithLogits"
    assert tf.gradients(t, lab) == [None]
    assert tf.gradients(t2, lab)[0] is not None


def test_softmax_cross_entropy_errors():
    with pytest.raises(ValueError, match="Dimensions must be equal, but are 3 and 4"):  # TF
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.zeros([2, 4]), logits=tf.zeros([2, 3]))
    with pytest.raises(ValueError):
        tf.nn.softmax_cross_entropy_with_logits(logits=tf.zeros([2, 3]))


SL = np.array([0, 4, 2, 1], np.int32)


@pytest.mark.parametrize("ldtype", [np.int32, np.int64])
def test_sparse_softmax_cross_entropy_values(ldtype):
    want = -np_log_softmax(X64)[np.arange(4), SL].astype(np.float32)
    out = check_op(lambda l, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=l, logits=x),
                   [SL.astype(ldtype), X], want, rtol=1e-5)
    assert out.dtype == np.float32
    # rank 3 logits with rank 2 labels
    x3 = rng.standard_normal((2, 3, 4))
    l3 = rng.randint(0, 4, (2, 3)).astype(ldtype)
    want3 = -np.take_along_axis(np_log_softmax(x3), l3[..., None], -1)[..., 0]
    check_op(lambda l, x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=l, logits=x), [l3, x3], want3,
             rtol=1e-10)


def test_sparse_softmax_cross_entropy_names_and_errors():
    x = tf.placeholder(tf.float32, [None, 3])
    sl = tf.placeholder(tf.int32, [None])
    t = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=sl, logits=x)
    # TF
    assert t.name == "SparseSoftmaxCrossEntropyWithLogits/SparseSoftmaxCrossEntropyWithLogits:0"
    assert t.shape.as_list() == [None]
    with pytest.raises(ValueError, match=r"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                                         r"labels.shape=\(2, 3\) of rank 2 and logits.shape=\(2, 3\) of rank 2"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.zeros([2, 3], tf.int32), logits=tf.zeros([2, 3]))
    with pytest.raises(ValueError, match=r"`labels.shape` must equal `logits.shape` except for the last "
                                         r"dimension. Received: labels.shape=\(3,\) and logits.shape=\(2, 3\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.zeros([3], tf.int32), logits=tf.zeros([2, 3]))
    with pytest.raises(TypeError, match="Value passed to parameter 'labels' has DataType float32 not in list of "
                                        "allowed values: int32, int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.zeros([2]), logits=tf.zeros([2, 3]))


def test_sparse_softmax_cross_entropy_label_out_of_range():
    x = tf.placeholder(tf.float32, [None, 10])
    sl = tf.placeholder(tf.int32, [None])
    y = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=sl, logits=x)
    with tf.Session() as s:
        # TF's CPU kernel message.
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Received a label value of 10 which is outside the valid range of \[0, 10\)."
                                 r"  Label values: 10 1"):
            s.run(y, {x: np.zeros((2, 10)), sl: [10, 1]})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Received a label value of -1 which is outside the valid range of \[0, 10\)"):
            s.run(y, {x: np.zeros((2, 10)), sl: [-1, 1]})


def np_sigmoid_xent(z, x):
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


def test_sigmoid_cross_entropy():
    check_op(lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x), [LAB, X],
             np_sigmoid_xent(LAB, X).astype(np.float32), rtol=1e-5)
    with tf.Session() as s:
        # TF: extreme logits stay finite and exact.
        v = s.run(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([0., 1., 0.5]),
                                                          logits=tf.constant([-100., 100., 3.])))
        np.testing.assert_allclose(v, [0., 0., 1.5485873], rtol=1e-6, atol=1e-30)  # TF flushes denormals
        v = s.run(tf.nn.weighted_cross_entropy_with_logits(labels=tf.constant([0., 1., 0.5]),
                                                           logits=tf.constant([-100., 100., 3.]), pos_weight=2.0))
        np.testing.assert_allclose(v, [0., 0., 1.572881], rtol=1e-6, atol=1e-30)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        z = tf.placeholder(tf.float32, [None, 3])
        assert tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x).name == "logistic_loss:0"  # TF
        assert tf.nn.weighted_cross_entropy_with_logits(labels=z, logits=x, pos_weight=2.).name == \
            "logistic_loss_1:0"
    with pytest.raises(ValueError, match=r"`logits` and `labels` must have the same shape, received "
                                         r"\(\(2, 3\) vs \(2, 4\)\)."):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros([2, 4]), logits=tf.zeros([2, 3]))


def test_weighted_cross_entropy_values():
    q = 3.0
    want = (1 - LAB) * X + (1 + (q - 1) * LAB) * (np.log1p(np.exp(-np.abs(X))) + np.maximum(-X, 0))
    check_op(lambda z, x: tf.nn.weighted_cross_entropy_with_logits(labels=z, logits=x, pos_weight=q), [LAB, X],
             want.astype(np.float32), rtol=1e-5)


def test_l2_normalize_moments_zero_fraction_log_poisson():
    want = X64 / np.sqrt(np.maximum((X64 ** 2).sum(1, keepdims=True), 1e-12))
    check_op(lambda x: tf.nn.l2_normalize(x, axis=1), [X], want.astype(np.float32), rtol=1e-5)
    assert tf.nn.l2_normalize(tf.zeros([2, 3]), 1).name == "l2_normalize:0"  # TF
    mean, var = run_op(lambda x: tf.nn.moments(x, axes=[0]), [X])[1]
    np.testing.assert_allclose(mean, X64.mean(0), rtol=1e-5)
    np.testing.assert_allclose(var, X64.var(0), rtol=1e-5)
    with tf.Session() as s:
        # TF values
        m, v = s.run(tf.nn.moments(tf.constant([[1., 2.], [3., 5.]]), axes=[0], keep_dims=True))
        np.testing.assert_allclose(m, [[2., 3.5]])
        np.testing.assert_allclose(v, [[1., 2.25]])
        np.testing.assert_allclose(s.run(tf.nn.log_poisson_loss(tf.constant([0., 1., 2.]), tf.constant([-1., 0., 3.]),
                                                                compute_full_loss=True)),
                                   [0.36787945, 1., 14.737344], rtol=1e-6)
        assert s.run(tf.nn.zero_fraction(tf.constant([0., 1., 0., 2.]))) == 0.5
    with tf.Graph().as_default():
        mt, vt = tf.nn.moments(tf.placeholder(tf.float32, [None, 3]), axes=[0])
        assert (mt.name, vt.name) == ("moments/Squeeze:0", "moments/Squeeze_1:0")  # TF
        assert tf.nn.zero_fraction(tf.zeros([3])).name == "zero_fraction/fraction:0"  # TF


def test_crelu_swish():
    check_op(tf.nn.crelu, [X], np.concatenate([np.maximum(X, 0), np.maximum(-X, 0)], -1))
    assert tf.nn.crelu(tf.zeros([2, 3])).name == "CRelu/Relu:0"  # TF
    check_op(tf.nn.swish, [X], (X64 / (1 + np.exp(-X64))).astype(np.float32), rtol=1e-5)


def test_math_aliases_in_nn():
    assert tf.nn.sigmoid is tf.sigmoid
    assert tf.nn.tanh is tf.tanh


# -- dropout -----------------------------------------------------------------------------------

def test_dropout_scales_kept_units():
    x = np.ones((200, 50), np.float32)
    with tf.Session() as s:
        y = s.run(tf.nn.dropout(tf.constant(x), keep_prob=0.25, seed=1))
    assert y.dtype == np.float32
    kept = y != 0
    np.testing.assert_allclose(y[kept], 4.0)
    assert 0.2 < kept.mean() < 0.3


def test_dropout_rate_noise_shape_and_placeholder_keep_prob():
    x = np.ones((100, 40), np.float32)
    kp = tf.placeholder(tf.float32, [])
    d = tf.nn.dropout(tf.constant(x), keep_prob=kp, noise_shape=[100, 1], seed=3)
    with tf.Session() as s:
        y = s.run(d, {kp: 0.5})
        # noise_shape [100, 1]: whole rows are kept or dropped together.
        assert np.all((y == 0).all(1) | (y == 2.0).all(1))
        np.testing.assert_array_equal(s.run(d, {kp: 1.0}), x)
        y = s.run(tf.nn.dropout(tf.constant(x), rate=0.75, seed=2))
        assert set(np.unique(y)) <= {0.0, 4.0}
        # None in noise_shape takes x's dimension (TF): here whole columns share a decision.
        xp = tf.placeholder(tf.float32, [None, 40])
        y = s.run(tf.nn.dropout(xp, rate=0.5, noise_shape=[1, None], seed=4), {xp: x})
        assert np.all((y == 0).all(0) | (y == 2.0).all(0))


def test_dropout_seeded_is_reproducible_and_names():
    x = tf.placeholder(tf.float32, [None, 3])
    d = tf.nn.dropout(x, keep_prob=0.5)
    assert d.name.startswith("dropout/") and d.shape.as_list() == [None, 3]
    tf.set_random_seed(7)
    a = tf.nn.dropout(tf.ones([50, 50]), rate=0.5, seed=5)
    with tf.Session() as s1, tf.Session() as s2:
        np.testing.assert_array_equal(s1.run(a), s2.run(a))


def test_dropout_errors():
    x = tf.zeros([2, 3])
    # TF's messages
    with pytest.raises(ValueError, match="`rate` must be provided. Received: rate=None"):
        tf.nn.dropout(x)
    with pytest.raises(ValueError, match="Cannot specify both 'keep_prob' and 'rate'."):
        tf.nn.dropout(x, keep_prob=0.5, rate=0.5)
    with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in the range \[0, 1\). "
                                         r"Received: rate=-0.5"):
        tf.nn.dropout(x, keep_prob=1.5)
    with pytest.raises(ValueError, match=r"Received: rate=1.0"):
        tf.nn.dropout(x, rate=1.0)
    with pytest.raises(ValueError, match=r"Received: rate=1.0"):
        tf.nn.dropout(x, keep_prob=0.0)
    assert tf.nn.dropout(x, keep_prob=1.0) is x
