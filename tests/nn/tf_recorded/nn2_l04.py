import numpy as np
tf.set_random_seed(1)
x = tf.constant(np.arange(24, dtype=np.float32).reshape(4, 6) + 1)
a = tf.nn.dropout(x, keep_prob=0.5, seed=2)
b = tf.nn.dropout(x, rate=0.25, seed=5)
c = tf.nn.dropout(x, rate=0.5, noise_shape=[4, 1], seed=7)
d = tf.nn.dropout(x, 0.8)
print(a.name, b.name, c.name, d.name, a.shape)
with tf.Session() as s:
    print(s.run(a)); print(s.run(b)); print(s.run(c))
for kw in ({"keep_prob": 0.5, "rate": 0.5}, {"rate": 1.5}, {"rate": 1.0}, {"keep_prob": 0.0}, {}):
    try:
        r = tf.nn.dropout(x, **kw); print(r.name)
    except Exception as e:
        print(type(e).__name__, e)
try:
    tf.nn.dropout(tf.constant([1, 2]), 0.5)
except Exception as e:
    print(type(e).__name__, e)
