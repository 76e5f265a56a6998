"""Session.run semantics: fetch structures, feeds, pruning, plan caching, errors, lifetime.

Messages were recorded from TensorFlow 2.21 (`tensorflow.compat.v1`, `disable_v2_behavior()`)."""

import collections
import threading

import numpy as np
import pytest

import tensorweave as tf


def test_fetch_structures():
    P = collections.namedtuple("P", "x y")
    c = tf.constant(1)
    with tf.Session() as sess:
        out = sess.run(P(c, [c, {"k": c}]))
        assert isinstance(out, P) and out.x == 1 and out.y[1] == {"k": 1}
        assert isinstance(out.x, np.int32)  # scalars come back as NumPy scalars
        assert sess.run(c.op) is None
        assert sess.run((c, c)) == (1, 1)
        assert sess.run("Const:0") == 1
        assert sess.run("Const") is None
        assert isinstance(sess.run(tf.constant("ab")), bytes)
        assert sess.run(tf.constant(1.5)).dtype == np.float32


def test_fetch_errors():
    with tf.Session() as sess:
        # As TF (recorded from TF 2.21): an empty graph fails before the fetches are looked at.
        for fetch in (None, 3, "nope:0", []):
            with pytest.raises(RuntimeError, match=r"^The Session graph is empty\. Add operations to the "
                                                   r"graph before calling run\(\)\.$"):
                sess.run(fetch)
        tf.constant(1)
        assert sess.run([]) == []
        with pytest.raises(TypeError, match="Argument `fetch` = None has invalid type"):
            sess.run(None)
        with pytest.raises(TypeError, match='Argument `fetch` = 3 has invalid type "int"'):
            sess.run(3)
        with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
            sess.run("nope:0")


def test_feeds():
    p = tf.placeholder(tf.float32, [2], name="p")
    c = tf.constant(1)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(p, {"p:0": [1, 2]}), [1.0, 2.0])
        assert sess.run(p, {p: np.array([1, 2], np.int64)}).dtype == np.float32
        assert sess.run(c, {c: 5}) == 5  # any tensor may be fed
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object"):
            sess.run(p, {p: c})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor"):
            sess.run(p, {"nope:0": 1})
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3,\) for Tensor p:0, which has "
                                             r"shape \(2,\)"):
            sess.run(p, {p: [1, 2, 3]})
        i = tf.placeholder(tf.int32)
        assert sess.run(i, {i: 1.5}) == 1  # TF truncates like NumPy


def test_missing_feed_error_names_placeholder():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.identity(x)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"You must feed a value for placeholder tensor 'x' with dtype float and "
                                 r"shape \[\?,3\]") as info:
            sess.run(y)
        assert info.value.op is x.op
        assert "test_session.py" in str(info.value)  # the user's source line


def test_only_needed_subgraph_runs():
    x = tf.placeholder(tf.float32, name="unfed")
    tf.identity(x)
    c = tf.constant(3.0)
    with tf.Session() as sess:
        assert sess.run(c) == 3.0  # the unfed placeholder is not needed


def test_fetching_a_fed_tensor_skips_its_producer():
    x = tf.placeholder(tf.float32, [2])
    y = tf.identity(x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {y: [5.0, 6.0]}), [5.0, 6.0])


def test_fetched_constants_are_copies():
    c = tf.constant([1.0, 2.0])
    with tf.Session() as sess:
        r = sess.run(c)
        r[0] = 9.0
        np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])


def test_plan_is_cached_per_signature():
    x = tf.placeholder(tf.float32, [1])
    y = tf.identity(x)
    with tf.Session() as sess:
        sess.run(y, {x: [1.0]})
        sess.run([y], {x: [1.0]})
        n = len(sess._cache)
        for _ in range(5):
            sess.run(y, {x: [2.0]})
            sess.run([y], {x: [2.0]})
        assert len(sess._cache) == n == 2


def test_closed_session_and_context_manager():
    c = tf.constant(1)
    sess = tf.Session()
    with sess.as_default():
        assert c.eval() == 1
        assert tf.get_default_session() is sess
    sess.close()
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
        sess.run(c)
    with pytest.raises(ValueError, match="No default session is registered"):
        c.eval()


def test_session_with_explicit_graph_becomes_default_inside_with():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(2)
    with tf.Session(graph=g) as sess:
        assert tf.get_default_graph() is g
        assert c.eval() == 2
        assert sess.graph is g


def test_interactive_session_installs_itself():
    c = tf.constant(4)
    sess = tf.InteractiveSession()
    try:
        assert c.eval() == 4
        c.op.run()
    finally:
        sess.close()
    assert tf.get_default_session() is None


def test_group_and_tuple():
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    g = tf.group(a, b)
    assert g.type == "NoOp" and g.name == "group_deps"
    assert set(g.control_inputs) == {a.op, b.op}
    ta, tb = tf.tuple([a, b])
    with tf.Session() as sess:
        assert sess.run(g) is None
        assert sess.run([ta, tb]) == [1.0, 2.0]
    assert tf.no_op(name="nop").type == "NoOp"


def test_config_proto_fields():
    config = tf.ConfigProto(inter_op_parallelism_threads=2, intra_op_parallelism_threads=1,
                            allow_soft_placement=True, log_device_placement=False)
    assert config.inter_op_parallelism_threads == 2
    with pytest.raises(ValueError):
        tf.ConfigProto(nonsense=1)
    with tf.Session(config=config) as sess:
        assert sess.run(tf.constant(1)) == 1
    opts = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    assert opts.trace_level == 3


def test_config_messages_print_as_protobuf_text_format():
    # Expected strings recorded from TF 2.21 (str() of the protobuf messages).
    c = tf.ConfigProto(device_count={"CPU": 2, "GPU": 0}, inter_op_parallelism_threads=2)
    c.graph_options.optimizer_options.global_jit_level = tf.OptimizerOptions.ON_1
    c.gpu_options.per_process_gpu_memory_fraction = 0.4
    c.device_filters.append("/job:ps")
    assert str(c) == ('device_count {\n  key: "GPU"\n  value: 0\n}\ndevice_count {\n  key: "CPU"\n'
                      '  value: 2\n}\ndevice_filters: "/job:ps"\ninter_op_parallelism_threads: 2\n'
                      'gpu_options {\n  per_process_gpu_memory_fraction: 0.4\n}\ngraph_options {\n'
                      '  optimizer_options {\n    global_jit_level: ON_1\n  }\n}\n')
    assert str(tf.ConfigProto()) == ""
    assert repr(tf.GPUOptions(allow_growth=True)) == "allow_growth: true\n"
    assert str(tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE, timeout_in_ms=100)) == \
        "trace_level: FULL_TRACE\ntimeout_in_ms: 100\n"
    o = tf.OptimizerOptions(opt_level=tf.OptimizerOptions.L0, do_constant_folding=True)
    assert str(o) == "do_constant_folding: true\nopt_level: L0\n"
    assert (tf.OptimizerOptions.OFF, tf.OptimizerOptions.ON_2) == (-1, 2)


def test_concurrent_runs_from_threads():
    x = tf.placeholder(tf.float32, [3])
    y = tf.identity(x)
    results = []
    with tf.Session() as sess:
        def work(k):
            for _ in range(50):
                results.append(np.array_equal(sess.run(y, {x: [k, k, k]}), [k, k, k]))
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert len(results) == 200 and all(results)


def test_make_callable():
    x = tf.placeholder(tf.float32, [])
    y = tf.identity(x)
    with tf.Session() as sess:
        f = sess.make_callable(y, [x])
        assert f(3.0) == 3.0


def test_fetching_a_fed_scalar_gives_the_fed_array():
    # TF (recorded from 2.21 compat.v1): s.run(i, {i: 1.5}) for an int32 placeholder is
    # array(1, dtype=int32), a 0-d array; computed scalars are NumPy scalars.
    with tf.Graph().as_default():
        i = tf.placeholder(tf.int32, [])
        with tf.Session() as s:
            got = s.run(i, {i: 1.5})
            assert isinstance(got, np.ndarray) and got.shape == () and got.dtype == np.int32 and got == 1
            assert isinstance(s.run(i + 1, {i: 1}), np.int32)


def test_control_dependency_on_a_fed_tensor_is_satisfied_by_the_feed():
    # As in TF: feeding a placeholder counts as running it for ops that depend on it by control.
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [])
        with tf.control_dependencies([x]):
            y = tf.constant(2.0) * 3
        mean, update = tf.metrics.mean(x)
        with tf.Session() as s:
            assert s.run(y, {x: 1.0}) == 6.0
            s.run(tf.local_variables_initializer())
            s.run(update, {x: 4.0})
            assert s.run(mean) == 4.0
            with pytest.raises(tf.errors.InvalidArgumentError):
                s.run(y)


def test_string_feeds_reach_the_graph_as_bytes():
    """A str fed to a string tensor becomes bytes inside the graph, as TF converts the feed to a
    tensor, while fetching the fed tensor itself returns the value as fed (recorded from TF 2.21:
    identity(p) fed 'q' -> b'q'; p itself -> array('q', dtype=object))."""
    import numpy as np
    import tensorweave as tf
    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.string)
        q = tf.placeholder(tf.string, [2])
        joined = tf.strings.join([p, "!"])
    with tf.Session(graph=g) as sess:
        assert sess.run(tf.identity(p), {p: "q"}) == b"q"
        assert sess.run(joined, {p: "q"}) == b"q!"
        fed = sess.run(p, {p: "q"})
        assert fed.dtype == object and fed.item() == "q"
        got = sess.run([tf.identity(q), q], {q: ["a", b"bc"]})
        assert list(got[0]) == [b"a", b"bc"]
        assert list(got[1]) == ["a", b"bc"]
        assert list(sess.run(tf.identity(q), {q: np.array(["é", "z"])})) == ["é".encode(), b"z"]
