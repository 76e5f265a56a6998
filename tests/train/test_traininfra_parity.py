"""Training-infrastructure parity with TF 2.21 (tf.compat.v1): hooks' log lines, queue-based
input with keep_input, checkpoints, summaries. Expected values were recorded from TF 2.21."""

import logging as _pylogging

import numpy as np

import tensorweave as tf


class _Records:
    """Collects the messages tf.logging emits (its logger does not propagate to caplog)."""

    def __enter__(self):
        self.messages = []
        self._handler = _pylogging.Handler()
        self._handler.emit = lambda r: self.messages.append(r.getMessage())
        self._old = tf.logging.get_verbosity()
        tf.logging.set_verbosity(tf.logging.INFO)
        _pylogging.getLogger("tensorflow").addHandler(self._handler)
        return self

    def __exit__(self, *exc):
        _pylogging.getLogger("tensorflow").removeHandler(self._handler)
        tf.logging.set_verbosity(self._old)


def _run_queue(sess, fetch, n):
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    try:
        return [sess.run(fetch) for _ in range(n)]
    finally:
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)


def test_logging_tensor_hook_prints_float32_as_str():
    # TF 2.21 logs "loss = 1.6384, step = 3": numpy's str() of a float32, not its float64 digits
    gs = tf.train.get_or_create_global_step()
    x = tf.Variable(2.0, name="x")
    loss = tf.square(x, name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    hook = tf.train.LoggingTensorHook({"loss": loss, "step": gs}, every_n_iter=2)
    with _Records() as rec:
        with tf.train.MonitoredSession(hooks=[hook, tf.train.StopAtStepHook(last_step=6)]) as sess:
            while not sess.should_stop():
                sess.run(train)
    lines = [m for m in rec.messages if "loss =" in m]
    assert lines[0] == "loss = 4.0, step = 1"
    assert lines[1].startswith("loss = 1.6384, step = 3 (")
    assert lines[2].startswith("loss = 0.6710885, step = 5 (")


def test_shuffle_batch_converts_keep_input_in_its_scope():
    # TF 2.21: the keep_input=True constant is shuffle_batch/Const, made before the queue
    x = tf.constant([[1, 2], [3, 4], [5, 6]])
    tf.train.shuffle_batch([x], batch_size=2, capacity=10, min_after_dequeue=2, enqueue_many=True, seed=3)
    names = [op.name for op in tf.get_default_graph().get_operations()]
    assert names[:3] == ["Const", "shuffle_batch/Const", "shuffle_batch/random_shuffle_queue"]


def test_maybe_batch_vector_keep_input_selects_examples():
    x = tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]])
    keep = tf.constant([True, False, True, True])
    out = tf.train.maybe_batch([x], keep_input=keep, batch_size=2, enqueue_many=True)
    assert out.name == "batch:0" and out.shape.as_list() == [2, 2]   # one tensor in, one out
    ops = [op.name for op in tf.get_default_graph().get_operations()]
    assert "batch/DynamicPartition" in ops
    with tf.Session() as sess:
        first, second = _run_queue(sess, out, 2)
    np.testing.assert_array_equal(first, [[1, 2], [5, 6]])    # TF 2.21
    np.testing.assert_array_equal(second, [[7, 8], [1, 2]])


def test_maybe_batch_scalar_tensor_keep_input_filters():
    i = tf.train.range_input_producer(6, shuffle=False).dequeue()
    out = tf.train.maybe_batch({"i": i}, keep_input=tf.equal(i % 2, 0), batch_size=2)
    assert out["i"].name == "batch:0" and out["i"].shape.as_list() == [2]
    with tf.Session() as sess:
        a, b = _run_queue(sess, out["i"], 2)
    np.testing.assert_array_equal(a, [0, 2])    # TF 2.21
    np.testing.assert_array_equal(b, [4, 0])


def test_keep_input_errors():
    # messages as TF 2.21
    cases = [(dict(keep_input=tf.constant([True])), "`keep_input` cannot be a vector when `enqueue_many=False`."),
             (dict(keep_input=tf.constant([[True]]), enqueue_many=True), "`keep_input` must be 0 or 1 dimensions."),
             (dict(keep_input=tf.placeholder(tf.bool)), "`keep_input` dimensions must be known at graph construction.")]
    for kwargs, message in cases:
        try:
            tf.train.maybe_batch([tf.constant(1)], batch_size=2, **kwargs)
        except ValueError as e:
            assert str(e) == message
        else:
            raise AssertionError("no ValueError for %s" % kwargs)


def test_string_input_producer_asserts_non_empty():
    tf.train.string_input_producer(["a", "b"], num_epochs=1, shuffle=False)
    names = [op.name for op in tf.get_default_graph().get_operations()]
    # TF 2.21's first ops: the non-empty Assert ahead of the epoch counter
    assert names[:8] == ["input_producer/Const", "input_producer/Size", "input_producer/Greater/y",
                         "input_producer/Greater", "input_producer/Assert/Const",
                         "input_producer/Assert/Assert/data_0", "input_producer/Assert/Assert",
                         "input_producer/Identity"]


def test_scaffold_default_ops_are_tfs():
    # TF 2.21: the ready ops concat the (empty) resource report onto the variable report, and the
    # init ops group a resources NoOp (and tables_initializer for the local init op)
    tf.Variable(5, name="v")
    tf.Variable(1, name="lv", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    scaffold = tf.train.Scaffold()
    scaffold.finalize()
    assert scaffold.ready_op.name == "concat:0"
    assert scaffold.ready_for_local_init_op.name == "concat_1:0"
    assert [c.name for c in scaffold.init_op.control_inputs] == ["init", "init_1"]
    assert [c.name for c in scaffold.local_init_op.control_inputs] == ["init_2", "init_all_tables", "init_3"]
    graph = tf.get_default_graph()
    resources_const = graph.get_tensor_by_name("report_uninitialized_resources/Const:0")
    assert resources_const.shape.as_list() == [0] and resources_const.dtype == tf.string
    with tf.Session() as sess:
        assert list(sess.run(scaffold.ready_op)) == [b"v", b"lv"]
        sess.run(scaffold.init_op)
        assert list(sess.run(scaffold.ready_op)) == [b"lv"]
        assert list(sess.run(scaffold.ready_for_local_init_op)) == []


def test_sharded_saver_graph_is_tfs(tmp_path):
    v = tf.Variable([1.0, 2.0], name="v")
    saver = tf.train.Saver([v], sharded=True)
    names = [op.name for op in tf.get_default_graph().get_operations() if op.name.startswith("save/")]
    # TF 2.21's order: the s3 suffix choice, then the shard's filename with its shard Const
    assert names[:12] == ["save/filename/input", "save/filename", "save/Const", "save/StaticRegexFullMatch",
                          "save/Const_1", "save/Const_2", "save/Select", "save/StringJoin", "save/num_shards",
                          "save/ShardedFilename/shard", "save/ShardedFilename", "save/SaveV2/tensor_names"]
    restored = tf.get_default_graph().get_tensor_by_name("save/RestoreV2:0")
    assert restored.shape.ndims is None    # TF: unknown static shape for a whole-tensor restore
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "m"))
        sess.run(tf.assign(v, [0.0, 0.0]))
        saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])


def test_event_file_created_by_first_event_with_tfs_header(tmp_path):
    import os
    empty = tmp_path / "empty"
    tf.summary.FileWriter(str(empty)).close()
    assert os.listdir(empty) == []          # TF 2.21: no event, no file
    writer = tf.summary.FileWriter(str(tmp_path / "one"))
    writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="a", simple_value=1.5)]), 4)
    writer.close()
    (path,) = [str(tmp_path / "one" / f) for f in os.listdir(tmp_path / "one")]
    header, event = list(tf.train.summary_iterator(path))
    assert header.file_version == "brain.Event:2"
    assert header.source_metadata.writer == "tensorflow.core.util.events_writer"
    assert header.wall_time == int(header.wall_time)          # whole seconds, as TF's header
    assert event.step == 4 and event.summary.value[0].simple_value == 1.5


def test_summary_merge_name_is_scope_and_op():
    s1 = tf.summary.scalar("a", tf.constant(1.0))
    assert tf.summary.merge([s1], name="m").name == "m/m:0"         # TF 2.21
    assert tf.summary.merge([s1]).name == "Merge/MergeSummary:0"


def test_saved_model_errors_are_tfs(tmp_path):
    import pytest
    export = str(tmp_path / "sm")
    v = tf.Variable(1.0, name="v")
    builder = tf.saved_model.builder.SavedModelBuilder(export)
    with tf.Session() as sess:
        sess.run(v.initializer)
        builder.add_meta_graph_and_variables(sess, ["serve"])
    builder.save()
    with pytest.raises(AssertionError) as err:
        tf.saved_model.builder.SavedModelBuilder(export)
    assert str(err.value) == (f"Export directory {export} already exists, and isn't empty. Please choose a "
                              "different export directory, or delete all the contents of the specified directory.")
    with tf.Graph().as_default(), tf.Session() as sess:
        with pytest.raises(RuntimeError) as err:
            tf.saved_model.loader.load(sess, ["train"], export)
    # TF 2.21's message
    assert str(err.value) == ("MetaGraphDef associated with tags 'train' could not be found in SavedModel, with "
                              "available tags '[{'serve'}]'. To inspect available tag-sets in the SavedModel, "
                              "please use the SavedModel CLI: `saved_model_cli`.")
