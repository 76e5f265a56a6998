"""Classic TF1 input-pipeline and training-infrastructure programs: queues, readers, tf.data
sources, Saver restores, hooks' event files.

Expected values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled) unless
computed from NumPy.
"""

import os

import numpy as np
import pytest

import tensorweave as tf


def _graph_message_tail(error, n=2):
    return error.message.splitlines()[-n:]


# -- queues and readers ----------------------------------------------------------------------------

def test_padding_fifo_queue_pads_and_batches_string_components():
    with tf.Graph().as_default():
        q = tf.PaddingFIFOQueue(5, [tf.int32, tf.string], shapes=[[None], []])
        batch = q.dequeue_many(2)
        assert [t.shape.as_list() for t in batch] == [[2, None], [2]]
        with tf.Session() as sess:
            sess.run(q.enqueue(([1, 2, 3], "a")))
            sess.run(q.enqueue(([4], "b")))
            ints, strs = sess.run(batch)
    np.testing.assert_array_equal(ints, [[1, 2, 3], [4, 0, 0]])
    assert strs.dtype == object and strs.tolist() == [b"a", b"b"]


def _queue_id(error):
    """n of the `_<n>_<name>` queue an OutOfRangeError names."""
    return int(error.message.splitlines()[-2].split("'")[1].split("_")[1])


def test_reader_takes_a_resource_id_like_a_queue(tmp_path):
    # TF: the filename queue is `_<n>_`, the reader `_<n+1>_`, so the queue made after them is
    # `_<n+2>_` (the ids count over the process: only their spacing is this program's).
    path = str(tmp_path / "a.txt")
    with open(path, "w") as f:
        f.write("l1\nl2\n")
    with tf.Graph().as_default():
        filenames = tf.FIFOQueue(5, tf.string, shapes=[[]])
        reader = tf.TextLineReader()
        key, value = reader.read(filenames)
        later = tf.FIFOQueue(5, tf.string, shapes=[[]], name="later")
        with tf.Session() as sess:
            sess.run(filenames.enqueue_many([[path]]))
            sess.run(filenames.close())
            assert sess.run([key, value]) == [(path + ":1").encode(), b"l1"]
            assert sess.run([key, value]) == [(path + ":2").encode(), b"l2"]
            with pytest.raises(tf.errors.OutOfRangeError) as first:
                sess.run(value)
            sess.run(later.close())
            with pytest.raises(tf.errors.OutOfRangeError) as second:
                sess.run(later.dequeue())
    assert first.value.message.splitlines()[-1] == "\t [[{{node ReaderReadV2}}]]"
    assert second.value.message.splitlines()[-2].split("'")[1].endswith("_later")
    assert _queue_id(second.value) == _queue_id(first.value) + 2


# -- list_files and globbing -----------------------------------------------------------------------

def test_list_files_matches_when_the_iterator_starts(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    open("a.txt", "w").write("x\n")
    with tf.Graph().as_default() as g:
        ds = tf.data.Dataset.list_files("*.txt", shuffle=False)
        assert repr(ds) == "<DatasetV1Adapter element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"
        assert [op.name for op in g.get_operations()] == [
            "list_files/file_pattern", "list_files/MatchingFiles", "list_files/Shape",
            "list_files/strided_slice/stack", "list_files/strided_slice/stack_1",
            "list_files/strided_slice/stack_2", "list_files/strided_slice", "list_files/match_not_empty/y",
            "list_files/match_not_empty", "list_files/ReduceJoin/Const", "list_files/ReduceJoin/ReduceJoin",
            "list_files/message/x", "list_files/message", "list_files/assert_not_empty/Assert",
            "list_files/Identity"]
        shuffled = tf.data.Dataset.list_files("*.txt", seed=1)
        assert repr(shuffled).startswith("<DatasetV1Adapter ")
        open("b.txt", "w").write("x\n")        # after the build: still listed
        nxt = tf.data.make_one_shot_iterator(ds).get_next()
        nxt2 = tf.data.make_one_shot_iterator(shuffled).get_next()
        with tf.Session() as sess:
            assert [sess.run(nxt), sess.run(nxt)] == [b"./a.txt", b"./b.txt"]
            assert sorted([sess.run(nxt2), sess.run(nxt2)]) == [b"./a.txt", b"./b.txt"]


def test_list_files_without_a_match_fails_the_initializer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with tf.Graph().as_default():
        it = tf.data.make_initializable_iterator(tf.data.Dataset.list_files("nomatch*.zz", shuffle=False))
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                sess.run(it.initializer)
    assert _graph_message_tail(info.value) == [
        "assertion failed: [No files matched pattern: nomatch*.zz]",
        "\t [[{{node list_files/assert_not_empty/Assert}}]]"]


def test_glob_and_matching_files_relative_patterns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.makedirs("sub")
    for name in ["b.txt", "a.txt", "sub/c.txt"]:
        open(name, "w").write("x\n")
    assert sorted(tf.gfile.Glob("*.txt")) == ["./a.txt", "./b.txt"]
    assert tf.gfile.Glob("sub/*.txt") == ["sub/c.txt"]
    with tf.Graph().as_default():
        files = tf.matching_files(["sub/*.txt", "*.txt"])      # sorted over all the patterns
        with tf.Session() as sess:
            assert sess.run(files).tolist() == [b"./a.txt", b"./b.txt", b"sub/c.txt"]


# -- from_generator errors -------------------------------------------------------------------------

def _first_error(gen, types, shapes=None):
    with tf.Graph().as_default():
        nxt = tf.data.make_one_shot_iterator(tf.data.Dataset.from_generator(gen, types, shapes)).get_next()
        with tf.Session() as sess:
            values = []
            while True:
                try:
                    values.append(sess.run(nxt))
                except tf.errors.OutOfRangeError:
                    return values, None
                except tf.errors.OpError as e:
                    return values, e


def test_from_generator_conversion_follows_tensorflow_paths():
    # One component of known shape: NumPy conversion (1.5 becomes 1).
    assert _first_error(lambda: [1.5], tf.int64, tf.TensorShape([]))[0] == [1]
    assert _first_error(lambda: [(1.5, 2)], (tf.int64, tf.int64))[0] == [(1, 2)]
    _, e = _first_error(lambda: [1.5], tf.int64)   # unknown shape: the TensorSpec path
    assert type(e) is tf.errors.InvalidArgumentError
    assert e.message.splitlines()[2:] == [
        "TypeError: `generator` yielded an element that did not match the expected structure. The expected "
        "structure was TensorSpec(shape=<unknown>, dtype=tf.int64, name=None), but the yielded element was 1.5.",
        "\t [[{{node EagerPyFunc}}]]", "\t [[IteratorGetNext]]"]
    cases = [
        ((lambda: [("a", 2)], (tf.int64, tf.int64)),
         "TypeError: `generator` yielded an element that could not be converted to the expected type. The "
         "expected type was int64, but the yielded element was a."),
        ((lambda: [(1, 2, 3)], (tf.int64, tf.int64)),
         "TypeError: `generator` yielded an element that did not match the expected structure. The expected "
         "structure was (tf.int64, tf.int64), but the yielded element was (1, 2, 3)."),
        ((lambda: [(1, 2)], tf.int64, tf.TensorShape([])),
         "TypeError: `generator` yielded an element of shape (2,) where an element of shape () was expected."),
        ((lambda: [{"a": 1}], {"a": tf.int64, "b": tf.int64}),
         "TypeError: `generator` yielded an element that did not match the expected structure. The expected "
         "structure was {'a': tf.int64, 'b': tf.int64}, but the yielded element was {'a': 1}."),
    ]
    for args, message in cases:
        _, e = _first_error(*args)
        assert type(e) is tf.errors.InvalidArgumentError
        assert e.message.splitlines()[2:4] == [message, "\t [[{{node PyFunc}}]]"]
    _, e = _first_error(lambda: [3], tf.string, tf.TensorShape([]))
    assert type(e) is tf.errors.InternalError and e.message.splitlines()[2] == "Unsupported object type int"


def test_from_generator_exceptions_keep_their_class():
    def value_error():
        yield 1
        raise ValueError("boom")

    def key_error():
        raise KeyError("k")
        yield 1

    values, e = _first_error(value_error, tf.int64)
    assert values == [1] and type(e) is tf.errors.InvalidArgumentError
    assert e.message.splitlines()[2:] == ["ValueError: boom", "\t [[{{node EagerPyFunc}}]]", "\t [[IteratorGetNext]]"]
    _, e = _first_error(key_error, tf.int64)
    assert type(e) is tf.errors.UnknownError and e.message.splitlines()[2] == "KeyError: 'k'"


# -- Saver -----------------------------------------------------------------------------------------

def test_restore_shape_mismatch_is_the_assign_error(tmp_path):
    prefix = str(tmp_path / "m1")
    with tf.Graph().as_default():
        a = tf.Variable([1., 2.], name="a")
        c = tf.get_variable("c", [2], initializer=tf.constant_initializer([1.0, 2.0]), use_resource=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            tf.train.Saver().save(sess, prefix)
    with tf.Graph().as_default():
        tf.Variable([0., 0., 0.], name="a")
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                tf.train.Saver().restore(sess, prefix)    # before any initializer
    assert info.value.message.startswith("Restoring from checkpoint failed. This is most likely due to a mismatch "
                                         "between the current graph and the graph from the checkpoint.")
    assert _graph_message_tail(info.value) == [
        "Assign requires shapes of both tensors to match. lhs shape= [3] rhs shape= [2]",
        "\t [[{{node save/Assign}}]]"]
    # A resource variable takes the stored shape (its static shape stays the declared one).
    with tf.Graph().as_default():
        c = tf.get_variable("c", [3], use_resource=True)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, prefix)
            np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])
        assert c.shape.as_list() == [3]


def test_import_meta_graph_missing_file_message(tmp_path):
    with tf.Graph().as_default():
        with pytest.raises(OSError, match=r"^File does not exist. Received: .*nonexist.meta.$"):
            tf.train.import_meta_graph(str(tmp_path / "nonexist.meta"))


def test_checkpoint_files_get_the_usual_mode(tmp_path):
    umask = os.umask(0)
    os.umask(umask)
    with tf.Graph().as_default():
        tf.Variable(1.0, name="v")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, str(tmp_path / "m"))
    for name in ["checkpoint", "m.index", "m.data-00000-of-00001"]:
        assert os.stat(tmp_path / name).st_mode & 0o777 == 0o666 & ~umask


# -- hooks ---------------------------------------------------------------------------------------

def test_monitored_training_session_event_file_records_two_meta_graphs(tmp_path):
    from tensorweave.protos.meta_graph_pb2 import MetaGraphDef
    logdir = str(tmp_path / "mts")
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.1))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0), name="loss")
        gs = tf.train.get_or_create_global_step()
        tf.summary.scalar("loss", loss)
        train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=gs)
        with tf.train.MonitoredTrainingSession(checkpoint_dir=logdir, hooks=[tf.train.StopAtStepHook(last_step=3)],
                                               save_checkpoint_steps=4, save_summaries_steps=2,
                                               log_step_count_steps=100) as sess:
            while not sess.should_stop():
                sess.run(train)
    events = [f for f in os.listdir(logdir) if f.startswith("events")]
    assert len(events) == 1
    head = [e for e in tf.train.summary_iterator(os.path.join(logdir, events[0])) if e.step == 0]
    assert [e.WhichOneof("what") for e in head] == [
        "file_version", "graph_def", "meta_graph_def", "graph_def", "meta_graph_def", "session_log"]
    # The FileWriter's MetaGraphDef has no SaverDef; the CheckpointSaverHook's has the Saver's.
    first, second = (MetaGraphDef.FromString(e.meta_graph_def) for e in head if e.HasField("meta_graph_def"))
    assert not first.HasField("saver_def")
    assert second.saver_def.filename_tensor_name == "save/Const:0"


def test_queue_runner_error_reaches_the_coordinator_as_a_callable_error():
    # TF's runner runs its enqueue op through a Session callable: the kernel's message and
    # node tag only, without the "Graph execution error:" header.
    with tf.Graph().as_default():
        q = tf.FIFOQueue(10, tf.float32, shapes=[[]], name="q")
        bad = tf.check_numerics(tf.log(tf.constant(-1.0)), "neg log")
        tf.train.add_queue_runner(tf.train.QueueRunner(q, [q.enqueue(bad)]))
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord)
            with pytest.raises(tf.errors.InvalidArgumentError) as info:
                coord.join(threads, stop_grace_period_secs=5)
    assert info.value.message == "neg log : Tensor had NaN values\n\t [[{{node CheckNumerics}}]]"
    assert str(info.value) == info.value.message
