import numpy as np
a = np.ones([1, 4, 4, 1], np.float32)
for f in (tf.nn.max_pool, tf.nn.avg_pool, tf.nn.max_pool2d, tf.nn.avg_pool2d):
    y = f(a, 2, 2, "VALID")
    print(y.name, y.op.inputs[0].name)
y = tf.nn.max_pool(a, 2, 2, "VALID", name="mp"); print(y.name, y.op.inputs[0].name)
print([op.name for op in tf.get_default_graph().get_operations()])
