import numpy as np
x = tf.placeholder(tf.float32, [None, 3, 2])
cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.LSTMCell(3), output_keep_prob=0.5, state_keep_prob=0.8,
    variational_recurrent=True, dtype=tf.float32, seed=11) for _ in range(2)])
out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
print(out.shape, st[0].c.shape, st[1].h.shape)
w = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.GRUCell(3), input_keep_prob=0.5, variational_recurrent=True, dtype=tf.float32, input_size=2, seed=5)
o2, s2 = tf.nn.static_rnn(w, tf.unstack(x, axis=1), dtype=tf.float32, scope="g")
print(len(o2), o2[0].shape, s2.shape)
print([v.name for v in tf.trainable_variables()])
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    r = s.run([out, o2], {x: np.ones((2,3,2), np.float32)})
    print(r[0].shape, np.isfinite(r[1]).all())
