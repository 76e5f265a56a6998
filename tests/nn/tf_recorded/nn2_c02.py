import numpy as np
x = tf.placeholder(tf.float32, [2, 5, 5, 4])
w = tf.ones([3, 3, 6, 4])
for os_, st, pad in (([2, 10, 10, 6], 2, "SAME"), ([2, 11, 11, 6], 2, "VALID"), ([2, 7, 7, 6], 1, "VALID"), ([2, 9, 9, 6], 2, "SAME")):
    try:
        y = tf.nn.conv2d_transpose(x, w, os_, strides=[1, st, st, 1], padding=pad)
        print(y.name, y.shape)
    except Exception as e:
        print(type(e).__name__, e)
y = tf.nn.conv2d_transpose(x, w, tf.constant([2, 10, 10, 6]), 2, "SAME", name="up"); print(y.name, y.shape)
p = tf.placeholder(tf.int32, [4])
y = tf.nn.conv2d_transpose(x, w, p, 2, "SAME"); print(y.shape)
xx = tf.constant(np.arange(1*2*2*1, dtype=np.float32).reshape(1, 2, 2, 1) + 1)
ww = tf.constant(np.arange(4, dtype=np.float32).reshape(2, 2, 1, 1))
with tf.Session() as s:
    print(s.run(tf.nn.conv2d_transpose(xx, ww, [1, 4, 4, 1], 2, "SAME"))[0, :, :, 0])
    print(s.run(tf.nn.conv2d_transpose(xx, ww, [1, 3, 3, 1], 1, "VALID"))[0, :, :, 0])
    print(s.run(tf.nn.conv2d_transpose(xx, ww, [1, 4, 4, 1], 2, "SAME", dilations=1))[0, :, :, 0].sum())
