"""TF1 training programs compared against real TensorFlow (tensorflow.compat.v1, TF 2.21).

Expected values and names below were recorded by running the same programs under TensorFlow.
"""

import logging
import os

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _parse(serialized):
    s = tf.Summary()
    s.ParseFromString(serialized)
    return s


# -- summaries ---------------------------------------------------------------------------------

def test_summary_python_values_are_converted_under_the_op_argument_name():
    # TF converts a Python value inside the op wrapper, so the Const takes the input's name.
    cases = [
        (lambda: tf.summary.scalar("a", 1.0), ["a/tags:0", "a/values:0"]),
        (lambda: tf.summary.scalar("a", 3), ["a_1/tags:0", "a_1/values:0"]),
        (lambda: tf.summary.histogram("h", [1.0, 2.0]), ["h/tag:0", "h/values:0"]),
        (lambda: tf.summary.image("i", np.zeros([1, 2, 2, 1], np.float32)), ["i/tag:0", "i/tensor:0"]),
        (lambda: tf.summary.audio("au", np.zeros([1, 3], np.float32), 8000),
         ["au/tag:0", "au/tensor:0", "au/sample_rate:0"]),
        (lambda: tf.summary.tensor_summary("ts", [1, 2]),
         ["ts/tag:0", "ts/tensor:0", "ts/serialized_summary_metadata:0"]),
        (lambda: tf.summary.scalar("bad name!", 1.0), ["bad_name_/tags:0", "bad_name_/values:0"]),
    ]
    for make, inputs in cases:
        t = make()
        assert [i.name for i in t.op.inputs] == inputs
    with tf.Session() as s:
        assert _parse(s.run("a:0")).value[0].simple_value == 1.0


def test_summary_text_needs_a_string_tensor():
    with pytest.raises(AttributeError, match="'str' object has no attribute 'dtype'"):
        tf.summary.text("tx", "hello")
    c = tf.constant(1)
    with pytest.raises(ValueError) as e:
        tf.summary.text("tx", c)
    assert str(e.value) == "Expected tensor Const:0 to have dtype string, got <dtype: 'int32'>"


def test_image_summary_float_pixels_are_truncated_like_tf():
    ph = tf.placeholder(tf.string)
    dec = tf.image.decode_png(ph)
    gray = tf.summary.image("g", tf.reshape(tf.linspace(-1.0, 3.0, 4), [1, 2, 2, 1]))
    rgb = tf.summary.image("c", tf.reshape(tf.linspace(-1.0, 3.0, 12), [1, 2, 2, 3]))
    nonfin = tf.summary.image("n", tf.constant(np.array(
        [[[[1.0, np.nan, 2.0], [3.0, 4.0, 5.0]], [[-np.inf, 0, 0], [100.0, 1.0, 1.0]]]], np.float32)))
    tiny = tf.summary.image("t", tf.fill([1, 2, 2, 1], 1e-7))
    with tf.Session() as s:
        def pixels(op):
            v = _parse(s.run(op)).value[0]
            return s.run(dec, {ph: v.image.encoded_image_string}).ravel().tolist()
        # values recorded from TF 2.21
        assert pixels(gray) == [85, 142, 198, 255]
        assert pixels(rgb) == [85, 101, 116, 131, 147, 162, 178, 193, 208, 224, 239, 255]
        # non-finite pixels get bad_color; the range only counts all-finite pixels
        assert pixels(nonfin) == [255, 0, 0, 7, 10, 12, 255, 0, 0, 255, 2, 2]
        assert pixels(tiny) == [0, 0, 0, 0]


# -- Saver ---------------------------------------------------------------------------------

def test_saver_save_refuses_something_that_is_not_a_session(tmp_path):
    v = tf.Variable([1.0, 2.0], name="v")
    saver = tf.train.Saver()
    for bad in (None, 5, "x"):
        with pytest.raises(TypeError) as e:
            saver.save(bad, str(tmp_path / "q"))
        assert str(e.value) == "'sess' must be a Session; %s" % (bad,)
    # a MonitoredSession is not a tf.Session either (TF: TypeError too)
    with tf.train.MonitoredSession() as s:
        with pytest.raises(TypeError, match="'sess' must be a Session; <"):
            saver.save(s, str(tmp_path / "m"))
    with tf.Session() as s:
        s.run(v.initializer)
        assert saver.save(s, str(tmp_path / "ok")) == str(tmp_path / "ok")
    assert not os.path.exists(str(tmp_path / "q.index"))


# -- hooks ---------------------------------------------------------------------------------

def test_hooks_get_run_options_and_metadata_and_their_options_are_merged():
    v = tf.Variable(1.0, name="v")
    up = tf.assign_add(v, 1.0)
    seen = []

    class Plain(tf.train.SessionRunHook):
        def after_run(self, run_context, run_values):
            seen.append(("plain", type(run_values.options).__name__, type(run_values.run_metadata).__name__))

    class Tracing(tf.train.SessionRunHook):
        def __init__(self, level, timeout):
            self.level, self.timeout = level, timeout

        def before_run(self, run_context):
            return tf.train.SessionRunArgs(None, options=tf.RunOptions(trace_level=self.level,
                                                                       timeout_in_ms=self.timeout))

        def after_run(self, run_context, run_values):
            seen.append((run_values.options.trace_level, run_values.options.timeout_in_ms,
                         len(run_values.run_metadata.step_stats.dev_stats) > 0))

    hooks = [Plain(), Tracing(tf.RunOptions.FULL_TRACE, 5000), Tracing(tf.RunOptions.SOFTWARE_TRACE, 9000)]
    with tf.train.MonitoredSession(hooks=hooks) as s:
        assert s.run(up) == 2.0
        assert s.run(up, options=tf.RunOptions(timeout_in_ms=10000)) == 3.0
    # recorded from TF: the largest trace level and timeout win; metadata is traced
    assert seen == [("plain", "RunOptions", "RunMetadata"), (3, 9000, True), (3, 9000, True),
                    ("plain", "RunOptions", "RunMetadata"), (3, 10000, True), (3, 10000, True)]


# -- global step ---------------------------------------------------------------------------

def test_multiple_global_steps_log_through_the_tensorflow_logger():
    tf.Variable(1, name="a", collections=[tf.GraphKeys.GLOBAL_STEP])
    tf.Variable(2, name="b", collections=[tf.GraphKeys.GLOBAL_STEP])
    records = []
    handler = logging.Handler()
    handler.emit = records.append
    logger = logging.getLogger("tensorflow")   # TF logs there, not through the root logger
    logger.addHandler(handler)
    try:
        assert tf.train.get_global_step() is None
    finally:
        logger.removeHandler(handler)
    assert [(r.levelname, r.getMessage()) for r in records] == [
        ("ERROR", "Multiple tensors in global_step collection.")]


# -- FileWriter ----------------------------------------------------------------------------

def test_file_writer_with_suffix_creates_its_file_at_once(tmp_path):
    # TF's EventsWriter.InitWithSuffix opens the file (header only) when a suffix is given;
    # without one the file waits for the first event.
    w = tf.summary.FileWriter(str(tmp_path / "b"), filename_suffix=".x")
    (name,) = os.listdir(str(tmp_path / "b"))
    assert name.startswith("events.out.tfevents.") and name.endswith(".x")
    w.close()
    (header,) = list(tf.train.summary_iterator(str(tmp_path / "b" / name)))
    assert header.file_version == "brain.Event:2"
    tf.summary.FileWriter(str(tmp_path / "a")).close()
    assert os.listdir(str(tmp_path / "a")) == []


def test_file_writer_add_graph_arguments(tmp_path):
    tf.constant(1.0, name="a")
    w = tf.summary.FileWriter(str(tmp_path))
    with pytest.raises(TypeError) as e:
        w.add_graph(None)
    assert str(e.value) == "The passed graph must be an instance of `Graph` or the deprecated `GraphDef`"
    with pytest.raises(ValueError, match="Please pass only graph, or graph_def"):
        w.add_graph(tf.get_default_graph(), graph_def=tf.get_default_graph().as_graph_def())
    w.add_graph(tf.get_default_graph().as_graph_def())      # a GraphDef as `graph` works in TF
    w.add_graph(None, graph_def=tf.get_default_graph())     # and a Graph as `graph_def`
    w.close()
    (name,) = os.listdir(str(tmp_path))
    kinds = [e.WhichOneof("what") for e in tf.train.summary_iterator(str(tmp_path / name))]
    assert kinds == ["file_version", "graph_def", "graph_def"]


def test_get_summary_description_only_reads_v1_tensor_summaries():
    t = tf.summary.tensor_summary("ts", [1.0], summary_description="hello")
    with pytest.raises(ValueError) as e:
        tf.summary.get_summary_description(t.op.node_def)
    assert str(e.value) == "Can't get_summary_description on TensorSummaryV2"


# -- callable losses -----------------------------------------------------------------------

def test_callable_loss_differentiates_only_the_resource_variables_it_reads():
    # TF (graph mode) uses a GradientTape for a callable loss: it watches the trainable resource
    # variables the loss reads; ref variables (tf.Variable in TF1) are invisible to it.
    a = tf.Variable([1.0, 2.0], name="a")
    r = tf.get_variable("r", [2], initializer=tf.ones_initializer(), use_resource=True)
    tf.get_variable("unused", [2], use_resource=True)
    opt = tf.train.GradientDescentOptimizer(0.5)
    gv = opt.compute_gradients(lambda: tf.reduce_sum(a * a) + tf.reduce_sum(r * r))
    assert [v.name for _, v in gv] == ["r:0"]
    assert opt.compute_gradients(lambda: tf.reduce_sum(a * a)) == []
    with pytest.raises(ValueError) as e:
        opt.minimize(lambda: tf.reduce_sum(a * a))
    assert str(e.value).startswith("No gradients provided for any variable, check your graph for ops "
                                   "that do not support gradients, between variables [] and loss <function")
    step = opt.minimize(lambda: tf.reduce_sum(r * r))
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(step)
        np.testing.assert_allclose(s.run(r), [0.0, 0.0])


# -- learning-rate schedules ---------------------------------------------------------------

def test_cosine_decay_restarts_with_a_tensor_t_mul():
    gs = tf.placeholder(tf.int64, [])
    t_mul = tf.placeholder(tf.float32, [])
    lr = tf.train.cosine_decay_restarts(0.1, gs, 5, t_mul=t_mul, m_mul=0.7, alpha=0.05)
    assert lr.name == "SGDRDecay:0" and lr.dtype == tf.float32
    # recorded from TF 2.21, steps 0, 3, ..., 39
    want_geometric = [0.1, 0.037821684, 0.069872625, 0.04852481, 0.018706134, 0.051549997, 0.049013175,
                      0.041955695, 0.031916007, 0.021082623, 0.01181709, 0.0061391606, 0.037534773,
                      0.03678759]
    want_arithmetic = [0.1, 0.037821684, 0.065149814, 0.011350179, 0.03546736, 0.037585, 0.016257832,
                       0.025631381, 0.0071781077, 0.015450305, 0.016176654, 0.00886144, 0.012076563,
                       0.005747091]
    with tf.Session() as s:
        got_g = [s.run(lr, {gs: i, t_mul: 2.0}) for i in range(0, 40, 3)]
        got_a = [s.run(lr, {gs: i, t_mul: 1.0}) for i in range(0, 40, 3)]
    np.testing.assert_array_equal(np.array(got_g, np.float32), np.array(want_geometric, np.float32))
    np.testing.assert_allclose(got_a, want_arithmetic, rtol=1e-6)   # (cos may differ in the last ulp)


def test_schedules_fail_on_a_none_step_inside_their_name_scope():
    # TF raises from cast(global_step) inside the schedule's scope, so the scope name is taken
    # and the ops made before it stay in the graph.
    with pytest.raises(ValueError, match="None values not supported."):
        tf.train.exponential_decay(0.1, None, 10, 0.9)
    assert [o.name for o in tf.get_default_graph().get_operations()] == [
        "ExponentialDecay/initial_learning_rate", "ExponentialDecay/Cast/x", "ExponentialDecay/Cast",
        "ExponentialDecay/Cast_1/x"]
    assert tf.train.exponential_decay(0.1, tf.constant(3, tf.int64), 10, 0.9).name == "ExponentialDecay_1:0"
    tf.reset_default_graph()
    with pytest.raises(ValueError, match="None values not supported."):
        tf.train.natural_exp_decay(0.1, None, 10, 0.9)
    assert [o.name for o in tf.get_default_graph().get_operations()] == [
        "Neg/x", "Neg", "Exp", "ExponentialDecay/initial_learning_rate", "ExponentialDecay/Cast/x",
        "ExponentialDecay/Cast"]
    for make, name in [(lambda g: tf.train.polynomial_decay(0.1, g, 10, cycle=True), "PolynomialDecay_1:0"),
                       (lambda g: tf.train.cosine_decay(0.1, g, 10), "CosineDecay_1/Mul_3:0"),
                       (lambda g: tf.train.cosine_decay_restarts(0.1, g, 10), "SGDRDecay_1:0"),
                       (lambda g: tf.train.noisy_linear_cosine_decay(0.1, g, 10), "NoisyLinearCosineDecay_1:0")]:
        tf.reset_default_graph()
        with pytest.raises(ValueError, match="None values not supported."):
            make(None)
        assert make(tf.constant(3, tf.int64)).name == name


def test_summary_merge_checks_its_inputs_like_the_op_definition():
    a = tf.summary.scalar("x", 1.0)
    with pytest.raises(ValueError) as e:
        tf.summary.merge([])
    assert str(e.value) == ("List argument 'inputs' to 'MergeSummary' Op with length 0 shorter than "
                            "minimum length 1.")
    with pytest.raises(TypeError) as e:
        tf.summary.merge([a, tf.constant(1)])
    assert str(e.value) == ("Tensors in list passed to 'inputs' of 'MergeSummary' Op have types "
                            "[string, int32] that do not match expected type string.")
    # the failed calls took their scopes, as in TF
    assert tf.summary.merge([a]).name == "Merge_2/MergeSummary:0"
