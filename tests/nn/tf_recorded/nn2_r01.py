import numpy as np
x = tf.constant(np.linspace(-1, 1, 3*5*2, dtype=np.float32).reshape(3, 5, 2))
lens = tf.constant([5, 3, 0])
with tf.variable_scope("enc", initializer=tf.constant_initializer(0.2)):
    fw = tf.nn.rnn_cell.LSTMCell(4); bw = tf.nn.rnn_cell.GRUCell(3)
    (of, ob), (sf, sb) = tf.nn.bidirectional_dynamic_rnn(fw, bw, x, sequence_length=lens, dtype=tf.float32)
print(of.name, ob.name, of.shape, ob.shape, sf.c.name, sf.h.shape, sb.name, sb.shape)
print([v.name for v in tf.global_variables()])
p = tf.placeholder(tf.float32, [None, None, 2]); pl = tf.placeholder(tf.int32, [None])
o, s = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(3), p, sequence_length=pl, dtype=tf.float32)
print(o.shape, s.shape, o.name, s.name)
cells = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(3), tf.nn.rnn_cell.BasicLSTMCell(2)])
o2, s2 = tf.nn.dynamic_rnn(cells, x, dtype=tf.float32, time_major=True, scope="multi")
print(o2.shape, len(s2), s2[1].h.shape, [v.name for v in cells.variables])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    r = sess.run([of, ob, sf, sb])
    for a in r[:2]: print(np.round(a, 4))
    print(np.round(r[2].c, 4), np.round(r[2].h, 4), np.round(r[3], 4))
    print(sess.run(s, {p: np.ones((2, 4, 2)), pl: [4, 1]}).shape)
for bad in (lambda: tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(3), x), lambda: tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(3), x, sequence_length=[[1]], dtype=tf.float32, scope="z"),
            lambda: tf.nn.dynamic_rnn(3, x, dtype=tf.float32)):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
