import numpy as np
tf.set_random_seed(3)
x = tf.constant(np.arange(2*4*3, dtype=np.float32).reshape(2, 4, 3) / 10.)
cell = tf.nn.rnn_cell.BasicRNNCell(5)
cell = tf.nn.rnn_cell.DropoutWrapper(cell, input_keep_prob=0.6, output_keep_prob=0.7, state_keep_prob=0.5,
                                     variational_recurrent=True, input_size=3, dtype=tf.float32, seed=7)
out, st = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
print(out.shape, st.shape)
print(sorted(op.name for op in tf.get_default_graph().get_operations() if 'random' in op.name.lower())[:20])
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    o, t = s.run([out, st])
    print(np.round(o, 4)); print(np.round(t, 4))
try:
    tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(5), input_keep_prob=0.5, variational_recurrent=True, dtype=tf.float32)
except Exception as e:
    print(type(e).__name__, e)
try:
    tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(5), variational_recurrent=True)
except Exception as e:
    print(type(e).__name__, e)
c2 = tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.LSTMCell(4), state_keep_prob=0.5, variational_recurrent=True, dtype=tf.float32, seed=1)
o2, s2 = tf.nn.dynamic_rnn(c2, x, dtype=tf.float32, scope="l")
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    print(s.run(s2).h.shape)
