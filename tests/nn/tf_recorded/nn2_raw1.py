import numpy as np
max_time, batch_size, input_depth, num_units = 4, 3, 2, 5
inputs = tf.constant(np.linspace(-1, 1, max_time*batch_size*input_depth, dtype=np.float32).reshape(max_time, batch_size, input_depth))
sequence_length = tf.constant([4, 2, 3])
inputs_ta = tf.TensorArray(dtype=tf.float32, size=max_time)
inputs_ta = inputs_ta.unstack(inputs)
cell = tf.nn.rnn_cell.LSTMCell(num_units, initializer=tf.constant_initializer(0.1))
def loop_fn(time, cell_output, cell_state, loop_state):
    emit_output = cell_output
    if cell_output is None:
        next_cell_state = cell.zero_state(batch_size, tf.float32)
    else:
        next_cell_state = cell_state
    elements_finished = (time >= sequence_length)
    finished = tf.reduce_all(elements_finished)
    next_input = tf.cond(finished, lambda: tf.zeros([batch_size, input_depth], dtype=tf.float32), lambda: inputs_ta.read(time))
    next_loop_state = None
    return (elements_finished, next_input, next_cell_state, emit_output, next_loop_state)
outputs_ta, final_state, fls = tf.nn.raw_rnn(cell, loop_fn)
outputs = outputs_ta.stack()
print(type(outputs_ta).__name__, outputs.shape, final_state.c.shape, fls)
print([v.name for v in tf.global_variables()])
print(outputs.name, final_state.h.name)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    o, f = s.run([outputs, final_state])
    print(np.round(o, 5)); print(np.round(f.c, 5)); print(np.round(f.h, 5))
