import numpy as np
np.set_printoptions(precision=5)
x = tf.constant((np.arange(24.).reshape(2,3,4) ** 1.5).astype(np.float32))  # (float32 pow rounds per CPU in NumPy)
w = tf.constant(np.linspace(0.1, 1, 12, dtype=np.float32).reshape(1,3,4))
outs = list(tf.nn.moments(x, [0, 1])) + list(tf.nn.moments(x, axes=[2], keep_dims=True)) + list(tf.nn.moments(x, [0], keepdims=True, name="mm"))
for f in [lambda: tf.nn.weighted_moments(x, [0, 1], w), lambda: tf.nn.weighted_moments(x, [2], w, keep_dims=True),
          lambda: tf.nn.sufficient_statistics(x, [0, 1]), lambda: tf.nn.sufficient_statistics(x, [1], shift=1.0, keep_dims=True),
          lambda: tf.nn.normalize_moments(tf.constant(6.), tf.constant([3., 4.]), tf.constant([20., 30.]), None),
          lambda: tf.nn.normalize_moments(tf.constant(6.), tf.constant([3., 4.]), tf.constant([20., 30.]), tf.constant(1.)),
          lambda: tf.nn.moments(tf.constant([1, 2, 3]), [0])]:
    try:
        outs += list(f())
    except Exception as e: print(type(e).__name__, e)
with tf.Session() as s:
    for o in outs:
        if o is None: print(None); continue
        print(o.name, o.shape, o.dtype.name, repr(s.run(o)))
