"""Whole TF1 programs against TF: FIFOQueue's init_scope and "CPU" device request, the names of
TensorArray gradients (map_fn/scan/foldl), str() of a re-raised restore error, and guards
(metrics evaluation loop, a queue-runner input pipeline, tf.data bucketing/feedable iterators,
state ops under cond/while); expected values recorded from TF 2.21 (tensorflow.compat.v1, v2
behaviour disabled) unless computed by hand in the test."""

import os

import numpy as np
import pytest

import tensorweave as tf


# -- FIFOQueue ---------------------------------------------------------------------------------

def test_fifo_queue_is_made_under_init_scope_on_cpu():
    with tf.Graph().as_default() as g:
        c = tf.constant(1.0)
        with tf.control_dependencies([c]):
            q = tf.FIFOQueue(2, tf.float32)
            q2 = tf.RandomShuffleQueue(5, 1, tf.float32, seed=1)
            q3 = tf.PaddingFIFOQueue(2, tf.float32, shapes=[[None]])
        got = [(x.queue_ref.op.name, x.queue_ref.device, [i.name for i in x.queue_ref.op.control_inputs])
               for x in (q, q2, q3)]
        # Only FIFOQueue is made under init_scope() and device("CPU") in TF.
        assert got == [("fifo_queue", "/device:CPU:*", []), ("random_shuffle_queue", "", ["Const"]),
                       ("padding_fifo_queue", "", ["Const"])]
        with tf.device("/gpu:0"):
            q4 = tf.FIFOQueue(2, tf.float32, name="gq")
            e4 = q4.enqueue(1.0)
        assert (q4.queue_ref.device, e4.device) == ("/device:CPU:0", "/device:GPU:0")
        x = tf.train.batch([tf.constant([1, 2])], 2)
        assert (x.name, x.device, x.op.inputs[0].device) == ("batch:0", "", "/device:CPU:*")
        ops = [(o.name, o.device) for o in g.get_operations() if "Queue" in o.type]
        assert ops[:8] == [("fifo_queue", "/device:CPU:*"), ("random_shuffle_queue", ""), ("padding_fifo_queue", ""),
                       ("gq", "/device:CPU:0"), ("gq_enqueue", "/device:GPU:0"), ("batch/fifo_queue", "/device:CPU:*"),
                       ("batch/fifo_queue_enqueue", ""), ("batch/fifo_queue_Close", "")]
        with tf.Session() as sess:
            sess.run(q.enqueue(3.0))
            assert sess.run(q.dequeue()) == 3.0


def test_queue_runner_text_pipeline(tmp_path):
    files = []
    for i in range(3):
        fn = str(tmp_path / f"f{i}.txt")
        with open(fn, "w") as f:
            for j in range(4):
                f.write("%d,%d.5\n" % (i * 10 + j, j))
        files.append(fn)
    with tf.Graph().as_default():
        fq = tf.train.string_input_producer(files, shuffle=False, num_epochs=2)
        key, value = tf.TextLineReader().read(fq)
        a, b = tf.decode_csv(value, record_defaults=[[0], [0.0]])
        ba, bb = tf.train.batch([a, b], batch_size=5, allow_smaller_final_batch=True)
        assert (key.name, value.name, ba.name, str(ba.shape)) == ("ReaderReadV2:0", "ReaderReadV2:1", "batch:0", "(?,)")
        assert [qr.name for qr in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)] == ["input_producer", "batch/fifo_queue"]
        assert [v.name for v in tf.local_variables()] == ["input_producer/limit_epochs/epochs:0"]
        out = []
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess=sess, coord=coord)
            with pytest.raises(tf.errors.OutOfRangeError):
                while True:
                    out.append(sess.run(ba).tolist())
            coord.request_stop()
            coord.join(threads)
    assert out == [[0, 1, 2, 3, 10], [11, 12, 13, 20, 21], [22, 23, 0, 1, 2], [3, 10, 11, 12, 13], [20, 21, 22, 23]]


# -- TensorArray gradients ---------------------------------------------------------------------

def test_functional_ops_gradient_names_are_tfs():
    with tf.Graph().as_default():
        x = tf.Variable([1.0, 2.0, 3.0], name="x")
        sq = tf.map_fn(lambda e: e * e, x)
        cs = tf.scan(lambda a, e: a + e, x, initializer=tf.constant(0.0))
        fl = tf.foldl(lambda a, e: a * e, x)
        g1 = tf.gradients(tf.reduce_sum(sq), x)[0]
        g2 = tf.gradients(tf.reduce_sum(cs), x)[0]
        g3 = tf.gradients(fl, x)[0]
        assert [g1.name, g2.name, g3.name] == [
            "gradients/map/TensorArrayUnstack/TensorArrayScatter/TensorArrayScatterV3_grad/TensorArrayGatherV3:0",
            "gradients_1/scan/TensorArrayUnstack/TensorArrayScatter/TensorArrayScatterV3_grad/TensorArrayGatherV3:0",
            "gradients_2/foldl/TensorArrayUnstack/TensorArrayScatter/TensorArrayScatterV3_grad/TensorArrayGatherV3:0"]
        ta = tf.TensorArray(tf.float32, size=3)
        ta = ta.write(0, x[0] * 2.0).write(1, x[1]).write(2, x[2] * x[2])
        gs = tf.gradients(tf.reduce_sum(ta.stack()), x)[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            r1, r2, r3, r4 = sess.run([g1, g2, g3, gs])
    np.testing.assert_allclose(r1, [2.0, 4.0, 6.0])
    np.testing.assert_allclose(r2, [3.0, 2.0, 1.0])
    np.testing.assert_allclose(r3, [6.0, 3.0, 2.0])
    np.testing.assert_allclose(r4, [2.0, 1.0, 6.0])


# -- errors ------------------------------------------------------------------------------------

def test_restore_error_str_has_the_restore_ops_stack(tmp_path):
    with tf.Graph().as_default():
        tf.Variable([1.0, 2.0], name="a")
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            tf.train.Saver().save(s, str(tmp_path / "all"))
    with tf.Graph().as_default():
        tf.Variable([0.0, 0.0], name="a")
        tf.Variable(0.0, name="zz")
        with tf.Session() as s:
            with pytest.raises(tf.errors.NotFoundError) as e:
                tf.train.Saver().restore(s, str(tmp_path / "all"))
    err = e.value
    assert err.op.name == "save/RestoreV2" and err.error_code == 5
    assert err.message.startswith(
        "Restoring from checkpoint failed. This is most likely due to a Variable name or other graph key "
        "that is missing from the checkpoint. Please ensure that you have not altered the graph expected "
        "based on the checkpoint. Original error:\n\nGraph execution error:\n\nDetected at node 'save/RestoreV2'")
    assert err.message.endswith("Node: 'save/RestoreV2'\nKey zz not found in checkpoint\n\t [[{{node save/RestoreV2}}]]")
    # TF's OpError.__str__ appends the op's creation stack whenever the error has an op.
    text = str(err)
    assert text.startswith(err.message + "\n\nOriginal stack trace for 'save/RestoreV2':\n")
    assert __file__ in text[len(err.message):]


# -- guards ------------------------------------------------------------------------------------

def test_metrics_evaluation_loop():
    rng = np.random.RandomState(0)
    labels = rng.randint(0, 2, 40).astype(np.int64)
    preds = rng.rand(40).astype(np.float32)
    with tf.Graph().as_default():
        lp = tf.placeholder(tf.int64, [None])
        pp = tf.placeholder(tf.float32, [None])
        acc, acc_up = tf.metrics.accuracy(lp, tf.cast(pp > 0.5, tf.int64))
        assert (acc.name, acc_up.name) == ("accuracy/value:0", "accuracy/update_op:0")
        mean, mean_up = tf.metrics.mean(pp)
        auc, auc_up = tf.metrics.auc(lp, pp, num_thresholds=50)
        prec, prec_up = tf.metrics.precision(lp, pp > 0.5)
        rec, rec_up = tf.metrics.recall(lp, pp > 0.5)
        mse, mse_up = tf.metrics.mean_squared_error(tf.cast(lp, tf.float32), pp)
        pat, pat_up = tf.metrics.precision_at_thresholds(lp, pp, [0.3, 0.5, 0.7])
        fn, fn_up = tf.metrics.false_negatives(lp, pp > 0.5)
        miou, miou_up = tf.metrics.mean_iou(lp, tf.cast(pp > 0.5, tf.int64), 2)
        rk, rk_up = tf.metrics.recall_at_k(lp, tf.stack([1 - pp, pp], 1), 1)
        pca, pca_up = tf.metrics.mean_per_class_accuracy(lp, tf.cast(pp > 0.5, tf.int64), 2)
        ups = [acc_up, mean_up, auc_up, prec_up, rec_up, mse_up, pat_up, fn_up, miou_up, rk_up, pca_up]
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for i in range(0, 40, 10):
                last = sess.run(ups, {lp: labels[i:i + 10], pp: preds[i:i + 10]})
            final = sess.run([acc, mean, auc, prec, rec, mse, pat, fn, miou, rk, pca])
    np.testing.assert_allclose(last[8], [[8.0, 9.0], [13.0, 10.0]])
    want = [0.45, 0.48384, 0.45396, 0.52632, 0.43478, 0.34748, [0.53571, 0.52632, 0.42857], 13.0, 0.28958, 0.45,
            0.45269]
    for got, w in zip(final, want):
        np.testing.assert_allclose(got, w, rtol=1e-4)


def test_dataset_bucketing_windows_and_feedable_iterators():
    with tf.Graph().as_default():
        ds = tf.data.Dataset.range(10).map(lambda v: tf.fill([tf.cast(v % 4, tf.int32) + 1], v))
        bb = ds.apply(tf.data.experimental.bucket_by_sequence_length(lambda e: tf.shape(e)[0], [2, 3], [2, 2, 2]))
        nb = tf.data.make_one_shot_iterator(bb).get_next()
        gw = tf.data.Dataset.range(10).apply(tf.data.experimental.group_by_window(lambda v: v % 2,
                                                                                  lambda k, w: w.batch(3), 3))
        ng = tf.data.make_one_shot_iterator(gw).get_next()
        red = tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, v: s + v)
        assert (red.name, red.dtype) == ("ReduceDataset:0", tf.int64)
        tr = tf.data.Dataset.range(6).batch(4)
        handle = tf.placeholder(tf.string, [])
        it = tf.data.Iterator.from_string_handle(handle, tr.output_types, tf.TensorShape([None]))
        nx = it.get_next()
        i1 = tr.make_one_shot_iterator()
        i2 = tf.data.Dataset.range(100, 103).batch(2).make_initializable_iterator()
        with tf.Session() as sess:
            assert [sess.run(nb).tolist() for _ in range(5)] == [
                [[2, 2, 2, 0], [3, 3, 3, 3]], [[0], [4]], [[1, 1], [5, 5]], [[6, 6, 6, 0], [7, 7, 7, 7]], [[8]]]
            assert [sess.run(ng).tolist() for _ in range(4)] == [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]]
            assert sess.run(red) == 10
            h1, h2 = sess.run([i1.string_handle(), i2.string_handle()])
            sess.run(i2.initializer)
            got = [sess.run(nx, {handle: h}).tolist() for h in (h1, h2, h1)]
            assert got == [[0, 1, 2, 3], [100, 101], [4, 5]]
            with pytest.raises(tf.errors.OutOfRangeError):
                sess.run(nx, {handle: h1})


def test_state_ops_under_cond_and_while():
    with tf.Graph().as_default():
        v = tf.Variable(0, name="v")
        r = tf.get_variable("r", [], tf.int32, initializer=tf.zeros_initializer(), use_resource=True)
        p = tf.placeholder(tf.bool, [])
        c = tf.cond(p, lambda: tf.assign_add(v, 1), lambda: tf.assign_sub(v, 1))
        assert c.name == "cond/Merge:0"

        def body(i):
            with tf.control_dependencies([tf.assign_add(r, i)]):
                return i + 1
        wl = tf.while_loop(lambda i: i < 5, body, [tf.constant(0)])
        with tf.control_dependencies([wl]):
            rv = r.read_value()
        cnt = tf.Variable(0, name="cnt")
        cu = tf.count_up_to(cnt, 3)
        sv = tf.Variable([1.0, 2.0, 3.0, 4.0], name="sv")
        su = tf.scatter_update(sv, [0, 2], [10.0, 30.0])
        sa = tf.scatter_add(sv, [1, 1], [1.0, 1.0])
        snd = tf.scatter_nd_update(sv, [[3]], [-1.0])
        t1 = tf.tuple([tf.constant(1), tf.constant(2)])
        grp = tf.group(t1[0], t1[1], name="grp")
        assert (grp.name, grp.type, [x.name for x in t1]) == (
            "grp", "NoOp", ["tuple/control_dependency:0", "tuple/control_dependency_1:0"])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            assert [sess.run(c, {p: True}), sess.run(c, {p: True}), sess.run(c, {p: False})] == [1, 2, 1]
            assert sess.run([wl, rv]) == [5, 10] and sess.run(rv) == 20
            assert [sess.run(cu) for _ in range(3)] == [0, 1, 2]
            with pytest.raises(tf.errors.OutOfRangeError) as e:
                sess.run(cu)
            assert e.value.message.split("\n")[-2:] == ["Reached limit of 3", "\t [[{{node CountUpTo}}]]"]
            np.testing.assert_array_equal(sess.run(su), [10.0, 2.0, 30.0, 4.0])
            np.testing.assert_array_equal(sess.run(sa), [10.0, 4.0, 30.0, 4.0])
            np.testing.assert_array_equal(sess.run(snd), [10.0, 4.0, 30.0, -1.0])


def test_summaries_round_trip(tmp_path):
    d = str(tmp_path)
    with tf.Graph().as_default():
        x = tf.Variable(1.0, name="x")
        inc = tf.assign_add(x, 0.5)
        s1 = tf.summary.scalar("x_val", x)
        tf.summary.histogram("hist", tf.stack([x, x * 2, x * 3]))
        with tf.name_scope("grp"):
            s3 = tf.summary.scalar("sq", x * x)
        assert (s1.name, s3.name) == ("x_val:0", "grp/sq:0")
        merged = tf.summary.merge_all()
        w = tf.summary.FileWriter(d, graph=tf.get_default_graph())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for step in range(3):
                sess.run(inc)
                w.add_summary(sess.run(merged), step)
        w.close()
    ev = [f for f in os.listdir(d) if f.startswith("events")]
    got = []
    for e in tf.train.summary_iterator(os.path.join(d, ev[0])):
        for v in e.summary.value:
            if v.HasField("simple_value"):
                got.append((e.step, v.tag, v.simple_value))
            elif v.HasField("histo"):
                got.append((e.step, v.tag, v.histo.min, v.histo.max, v.histo.num, v.histo.sum))
    assert got[:3] == [(0, "x_val", 1.5), (0, "hist", 1.5, 4.5, 3.0, 9.0), (0, "grp/sq", 2.25)]
    assert got[-1] == (2, "grp/sq", 6.25)
