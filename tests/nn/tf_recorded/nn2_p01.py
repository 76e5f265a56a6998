x = tf.placeholder(tf.float32, [None, 8, 8, 3])
for k in ([2, 2, 2], (1, 3, 3, 1, 1)):
    try:
        tf.nn.max_pool(x, k, 2, "SAME")
    except Exception as e:
        print(type(e).__name__, e)
    try:
        tf.nn.avg_pool2d(x, 2, k, "VALID")
    except Exception as e:
        print(type(e).__name__, e)
print(tf.nn.max_pool(x, 3, 2, "SAME").shape, tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 2, 2, 1], "VALID").name)
print(tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")[1].dtype)
print(tf.nn.pool(x, [2, 2], "MAX", "SAME", strides=[2, 2]).name)
print(tf.nn.max_pool1d(tf.zeros([2, 10, 3]), 3, 2, "SAME").shape, tf.nn.max_pool3d(tf.zeros([1, 4, 4, 4, 2]), 2, 2, "VALID").name)
