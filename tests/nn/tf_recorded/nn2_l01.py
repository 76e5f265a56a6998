import numpy as np
x = tf.placeholder(tf.float32, [None, 4])
y = tf.layers.dense(x, 3)
y2 = tf.layers.dense(y, 2, activation=tf.nn.relu, kernel_regularizer=tf.nn.l2_loss, bias_regularizer=lambda b: tf.reduce_sum(tf.abs(b)))
y3 = tf.layers.dense(x, 3, name="dense", reuse=True)
print(y.name, y2.name, y3.name, y.shape, y2.shape)
print([v.name for v in tf.global_variables()])
print([t.name for t in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)])
print(tf.losses.get_regularization_loss().name)
l = tf.layers.Dense(5, use_bias=False, name="fc")
z = l(x); z2 = l(x)
print(z.name, z2.name, [w.name for w in l.weights], l.kernel.shape, l.bias)
try:
    tf.layers.dense(x, 3, name="dense")
except Exception as e:
    print(type(e).__name__, str(e)[:90])
try:
    tf.layers.dense(tf.placeholder(tf.float32, [None, None]), 3)
except Exception as e:
    print(type(e).__name__, e)
