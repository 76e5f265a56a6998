"""tf.train.checkpoints_iterator, basic_train_loop, the maybe_*_join batchers and aliases."""


import tensorweave as tf


def test_aliases_and_vocab_info():
    assert tf.train.piecewise_constant_decay is tf.train.piecewise_constant
    assert tf.train.match_filenames_once is tf.io.match_filenames_once
    vi = tf.train.VocabInfo("new.txt", 10, 1, "old.txt")
    assert vi.old_vocab_size == -1 and vi.axis == 0


def test_checkpoints_iterator_yields_new_checkpoints(tmp_path):
    v = tf.Variable(1.0)
    saver = tf.train.Saver()
    with tf.Session() as s:
        s.run(v.initializer)
        first = saver.save(s, str(tmp_path / "model"), global_step=1)
    it = tf.train.checkpoints_iterator(str(tmp_path), timeout=2)
    assert next(it) == first
    assert list(it) == []   # times out with no newer checkpoint


def test_basic_train_loop_runs_until_stop(tmp_path):
    step = tf.train.get_or_create_global_step()
    inc = tf.assign_add(step, 1)
    sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0, save_summaries_secs=0)
    calls = []

    def train_step(sess):
        calls.append(sess.run(inc))
        if len(calls) == 3:
            sv.request_stop()
    tf.train.basic_train_loop(sv, train_step)
    assert calls == [1, 2, 3]


def test_maybe_batch_join():
    a, b = tf.constant([1.0]), tf.constant([2.0])
    out = tf.train.maybe_batch_join([[a], [b]], True, batch_size=2)
    ref = tf.train.batch_join([[a], [b]], batch_size=2)
    assert type(out) is type(ref) and str(tf.nest.map_structure(lambda t: t.shape, out)) == \
        str(tf.nest.map_structure(lambda t: t.shape, ref))
    # keep_input=False is now supported: the enqueue is a no_op, so nothing reaches the queue
    dropped = tf.train.maybe_batch_join([[a]], False, batch_size=1)
    assert dropped.name == "batch_join_2:0" and dropped.shape.as_list() == [1, 1]   # as TF 2.21
