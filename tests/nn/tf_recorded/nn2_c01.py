import numpy as np
x = tf.placeholder(tf.float32, [None, 10, 9, 3])
w = tf.ones([3, 3, 3, 4])
for pad in ("SAME", "VALID", [[0, 0], [1, 2], [0, 1], [0, 0]]):
    for st in (1, 2):
        y = tf.nn.conv2d(x, w, strides=[1, st, st, 1], padding=pad)
        print(y.name, y.shape)
y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME", dilations=[1, 2, 2, 1]); print(y.name, y.shape)
y = tf.nn.conv2d(x, w, 1, "VALID", dilations=2); print(y.shape)
xn = tf.placeholder(tf.float32, [2, 3, 10, 9])
try:
    y = tf.nn.conv2d(xn, w, [1, 1, 2, 2], "SAME", data_format="NCHW"); print(y.shape)
except Exception as e:
    print(type(e).__name__, e)
y = tf.nn.conv2d(xn, w, [1, 1, 2, 2], [[0, 0], [0, 0], [1, 1], [2, 2]], data_format="NCHW"); print(y.shape)
for bad in (dict(strides=[1, 2, 2]), dict(strides=[2, 1, 1, 1]), dict(strides=[1,1,1,1], dilations=[1, 2, 2, 1], padding="SAME", x=tf.zeros([1, 5, 5, 2]))):
    try:
        kw = dict(input=x, filters=w, strides=1, padding="SAME"); 
        if "x" in bad: kw["input"] = bad.pop("x")
        kw.update(bad)
        print(tf.nn.conv2d(**kw).shape)
    except Exception as e:
        print(type(e).__name__, e)
xx = tf.constant(np.arange(1*4*4*1, dtype=np.float32).reshape(1, 4, 4, 1))
ww = tf.constant(np.arange(4, dtype=np.float32).reshape(2, 2, 1, 1))
with tf.Session() as s:
    print(s.run(tf.nn.conv2d(xx, ww, [1, 1, 1, 1], [[0, 0], [1, 0], [0, 1], [0, 0]]))[0, :, :, 0])
    print(s.run(tf.nn.conv2d(xx, ww, [1, 2, 2, 1], "SAME"))[0, :, :, 0])
