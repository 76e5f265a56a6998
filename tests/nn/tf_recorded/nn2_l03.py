import numpy as np
x = tf.constant(np.arange(2*6*6*3, dtype=np.float32).reshape(2, 6, 6, 3) / 50.)
init = tf.constant_initializer(0.1)
c = tf.layers.conv2d(x, 2, 3, kernel_initializer=init, bias_initializer=tf.constant_initializer(0.5))
cf = tf.layers.conv2d(tf.transpose(x, [0, 3, 1, 2]), 2, 3, kernel_initializer=init, data_format="channels_first")
d = tf.layers.dropout(x, 0.5, training=False)
t = tf.placeholder_with_default(False, [])
d2 = tf.layers.dropout(x, rate=0.3, training=t, seed=3)
print(c.shape, cf.shape, cf.name, d.name, d2.name, d2.shape)
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    print(np.round(s.run(c)[0, :2, :2], 4))
    print(np.round(s.run(cf)[0, :, :2, :2], 4))
    print(np.allclose(s.run(d), s.run(x)), np.allclose(s.run(d2), s.run(x)))
