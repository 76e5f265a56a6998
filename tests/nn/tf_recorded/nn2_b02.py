import numpy as np
x = tf.constant(np.arange(2*4*4*3, dtype=np.float32).reshape(2, 4, 4, 3) / 7.)
scale = tf.constant([1., 2., 0.5]); offset = tf.constant([0., 1., -1.])
y, m, v = tf.nn.fused_batch_norm(x, scale, offset)
print(y.name, m.name, v.name, y.shape, m.shape, v.shape)
mean = tf.constant([1., 2., 3.]); var = tf.constant([1., 4., 9.])
y2, m2, v2 = tf.nn.fused_batch_norm(x, scale, offset, mean=mean, variance=var, is_training=False, epsilon=0.01)
print(y2.name, m2.name, v2.name, y2.shape, m2.shape)
xn = tf.transpose(x, [0, 3, 1, 2])
y3, m3, v3 = tf.nn.fused_batch_norm(xn, scale, offset, data_format="NCHW")
p = tf.placeholder(tf.float32, [None, None, None, 3])
y4, m4, v4 = tf.nn.fused_batch_norm(p, scale, offset)
print(y3.shape, m3.shape, y4.shape, m4.shape)
with tf.Session() as s:
    r = s.run([y, m, v, y2, y3, m3, v3])
    for a in r: print(np.round(a.ravel()[:6], 4))
for args in (dict(x=tf.zeros([2, 3]), scale=scale, offset=offset), dict(x=x, scale=scale, offset=offset, is_training=False)):
    try:
        tf.nn.fused_batch_norm(**args)
    except Exception as e:
        print(type(e).__name__, e)
bn = tf.nn.batch_normalization(x, mean, var, offset, scale, 1e-3)
print(bn.name, bn.shape)
