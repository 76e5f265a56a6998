"""The step order keeps few big tensors alive at once (plan._toposort)."""

import resource

import tensorweave as tf
from tensorweave.runtime.plan import _BIG_ELEMENTS, _prune, _toposort


def test_initializers_of_big_variables_run_one_chain_at_a_time():
    g = tf.Graph()
    with g.as_default():
        big = [tf.Variable(tf.random_uniform([_BIG_ELEMENTS], -1.0, 1.0), name=f"v{i}") for i in range(3)]
        tf.Variable(tf.random_uniform([10], -1.0, 1.0), name="small")
        init = tf.global_variables_initializer()
    names = [op.name for op in _toposort(_prune([init], {}))]
    for i in range(3):
        scope = "random_uniform" + (f"_{i}" if i else "")
        # each big value is drawn, scaled, shifted and assigned before the next is drawn
        chain = [names.index(f"{scope}/RandomUniform"), names.index(f"{scope}/mul"),
                 names.index(scope), names.index(f"v{i}/Assign")]
        assert chain == list(range(chain[0], chain[0] + 4)), names
    # the small variable keeps the depth order: initialized before any big value is drawn
    assert names.index("small/Assign") < names.index("random_uniform/RandomUniform")
    with tf.Session(graph=g) as sess:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        sess.run(init)
        grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        values = sess.run(big)
    assert all(v.shape == (_BIG_ELEMENTS,) and -1 <= v.min() and v.max() < 1 for v in values)
    # three 16 MiB variables and at most two temporaries alive at once (the old order: 3 + 3)
    assert grown_mib < 6 * _BIG_ELEMENTS * 4 / 2 ** 20
