"""Feature-column and estimator parity with TF1 programs.

Expected values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled) unless
computed with NumPy or stated from TF's documentation.
"""

import logging

import numpy as np
import pytest

import tensorweave as tf

fc = tf.feature_column


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default():
        yield


def _run(t, tables=False):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        if tables:
            sess.run(tf.tables_initializer())
        return sess.run(t)


def test_bucketized_column_keeps_boundaries_as_given():
    col = fc.bucketized_column(fc.numeric_column("age"), boundaries=[18, 25, 30])
    assert col.boundaries == (18, 25, 30)
    assert repr(col).endswith("boundaries=(18, 25, 30))")


def test_sqrtn_and_mean_combiners_scale_by_float32_reciprocal():
    # TF's sparse_segment_sqrt_n / _mean multiply the sum by 1/sqrt(n) / 1/n: 6/sqrt(2) is
    # 4.2426405 there, not 4.242641.
    table = [[1., 2.], [3., 4.], [5., 6.], [7., 8.]]
    q = fc.categorical_column_with_identity("q", 4)
    cols = [fc.embedding_column(q, 2, combiner="sqrtn", initializer=tf.constant_initializer(table))]
    out = _run(fc.input_layer({"q": tf.constant([[0, 1], [2, -1]])}, cols))
    np.testing.assert_array_equal(out, np.array([[2.828427, 4.2426405], [5., 6.]], np.float32))


def test_mean_combiner_of_three_ids():
    table = np.array([[1., 2., 7.], [3., 4., 1.], [1.1, 0.3, 5.]], np.float32)
    q = fc.categorical_column_with_identity("q", 3)
    cols = [fc.embedding_column(q, 3, initializer=tf.constant_initializer(table))]
    out = _run(fc.input_layer({"q": tf.constant([[0, 1, 2]])}, cols))
    np.testing.assert_array_equal(out[0], np.array([1.7, 2.1000001, 4.3333335], np.float32))


def test_input_layer_and_linear_model_variables_join_model_variables():
    features = {"i": tf.constant([[1], [2]]), "n": tf.constant([1., 2.])}
    fc.linear_model(features, [fc.categorical_column_with_identity("i", 3), fc.numeric_column("n")],
                    weight_collections=["mine"])
    fc.input_layer(features, [fc.embedding_column(fc.categorical_column_with_identity("i", 3), 2)],
                   weight_collections=["mine"])
    names = ["linear_model/i/weights:0", "linear_model/n/weights:0", "linear_model/bias_weights:0",
             "input_layer/i_embedding/embedding_weights:0"]
    assert [v.name for v in tf.model_variables()] == names
    assert [v.name for v in tf.global_variables()] == names
    assert [v.name for v in tf.get_collection("mine")] == names


def test_linear_model_op_names():
    features = {"n": tf.constant([[1., 2.], [3., 4.]]), "a": tf.constant([[1], [2]])}
    out = fc.linear_model(features, [fc.numeric_column("n", shape=2), fc.categorical_column_with_identity("a", 5)])
    out2 = fc.linear_model(features, [fc.numeric_column("n", shape=2)])
    assert out.name == "linear_model_1/linear_model/weighted_sum:0"
    assert out2.name == "linear_model_1_1/linear_model_1/weighted_sum:0"
    ops = [op.name for op in tf.get_default_graph().get_operations()]
    assert "linear_model_1_1/linear_model_1/weighted_sum_no_bias" in ops
    assert [v.name for v in tf.global_variables()][:3] == [
        "linear_model/a/weights:0", "linear_model/n/weights:0", "linear_model/bias_weights:0"]


@pytest.mark.parametrize("make, message", [
    (lambda: fc.bucketized_column(fc.numeric_column("x"), []), "boundaries must not be empty."),
    (lambda: fc.categorical_column_with_vocabulary_list("x", ["a"], num_oov_buckets=-1),
     "Invalid num_oov_buckets -1 in x."),
    (lambda: fc.categorical_column_with_hash_bucket("x", 5, dtype=tf.float32),
     "column_name: x dtype must be string or integer. dtype: <dtype: 'float32'>."),
    (lambda: fc.indicator_column(fc.numeric_column("x")),
     "Unsupported input type. Input must be a CategoricalColumn. Given: NumericColumn(key='x', shape=(1,), "
     "default_value=None, dtype=tf.float32, normalizer_fn=None)"),
    (lambda: fc.input_layer({"x": tf.constant([[1.]])},
                            [fc.indicator_column(fc.categorical_column_with_hash_bucket("x", 3))]),
     "column_name: x input_tensor dtype must be string or integer. dtype: <dtype: 'float32'>."),
])
def test_column_errors(make, message):
    with pytest.raises(ValueError) as e:
        make()
    assert str(e.value) == message


def test_numeric_column_with_wrong_static_width_fails_at_reshape():
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 2 elements to shape \[1,1\] \(1 elements\)"):
        fc.input_layer({"x": tf.constant([[1., 2.]])}, [fc.numeric_column("x")])


def test_embedding_column_has_use_safe_embedding_lookup_field():
    col = fc.embedding_column(fc.categorical_column_with_identity("x", 3), 2, use_safe_embedding_lookup=False)
    assert col._fields[-1] == "use_safe_embedding_lookup"
    assert col.use_safe_embedding_lookup is False


# -- Estimator (TF 2.21 ships no tf.estimator: the log lines are TF 1.15's estimator.py /
# evaluation.py, "Calling model_fn.", "Starting evaluation at ...", "Evaluation [k/n]",
# "Finished evaluation at ...", "Saving dict for global step N: k = v, ..." with str() of the
# NumPy values, and "Saving 'checkpoint_path' summary for global step N: <path>") -------------

def _model_fn(features, labels, mode):
    logits = tf.layers.dense(features["x"], 2, kernel_initializer=tf.zeros_initializer())
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"class": tf.argmax(logits, 1)})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, eval_metric_ops={"acc": tf.metrics.accuracy(labels, tf.argmax(logits, 1))})
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def test_estimator_logs_model_fn_calls_and_evaluation(tmp_path):
    x = np.array([[1., 0.], [0., 1.], [1., 1.], [0., 0.], [2., 0.]], np.float32)
    y = np.array([0, 1, 0, 1, 1], np.int32)
    est = tf.estimator.Estimator(_model_fn, model_dir=str(tmp_path))
    est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=5, num_epochs=None, shuffle=False), steps=2)
    logger, records = logging.getLogger("tensorflow"), _Records()
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(records)
    try:
        result = est.evaluate(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=1, shuffle=False), steps=3)
    finally:
        logger.removeHandler(records)
        logger.setLevel(level)
    messages = records.messages
    assert messages[:3] == ["Calling model_fn.", "Done calling model_fn.", messages[2]]
    assert messages[2].startswith("Starting evaluation at ")
    assert [m for m in messages if m.startswith("Evaluation [")] == ["Evaluation [1/3]", "Evaluation [2/3]",
                                                                     "Evaluation [3/3]"]
    finished = [i for i, m in enumerate(messages) if m.startswith("Finished evaluation at ")]
    assert len(finished) == 1
    ckpt = str(tmp_path / "model.ckpt-2")
    assert messages[finished[0] + 1] == (f"Saving dict for global step 2: acc = {result['acc']!s}, global_step = 2, "
                                         f"loss = {result['loss']!s}")
    assert messages[finished[0] + 2] == f"Saving 'checkpoint_path' summary for global step 2: {ckpt}"
