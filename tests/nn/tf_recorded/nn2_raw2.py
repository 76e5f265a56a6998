import numpy as np
# emit structure given, loop_state used, placeholder batch
x = tf.placeholder(tf.float32, [None, 3])
cell = tf.nn.rnn_cell.GRUCell(4, kernel_initializer=tf.constant_initializer(0.2))
def loop_fn(time, cell_output, cell_state, loop_state):
    b = tf.shape(x)[0]
    if cell_output is None:
        return (tf.zeros([b], tf.bool), x, cell.zero_state(b, tf.float32), (tf.zeros([2], tf.float32), tf.zeros([], tf.int32)), tf.constant(0.0))
    emit = (cell_output[:, :2] * 2.0, tf.fill([b], time))
    fin = tf.fill([b], time >= 3)
    nxt = tf.concat([cell_output[:, :3]], 1)
    return (fin, nxt, cell_state, emit, loop_state + tf.reduce_sum(cell_output))
ta, st, ls = tf.nn.raw_rnn(cell, loop_fn, scope="dec")
a, b = ta[0].stack(), ta[1].stack()
print(a.shape, b.shape, a.dtype, b.dtype, st.shape, ls.shape, ls.name)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    r = s.run([a, b, st, ls], {x: np.arange(6, dtype=np.float32).reshape(2, 3) / 5})
    for v in r: print(np.round(v, 5))
try:
    tf.nn.raw_rnn(cell, 3)
except Exception as e:
    print(type(e).__name__, e)
