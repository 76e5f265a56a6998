"""Whole programs in the style of the popular GitHub TF1 example collections (aymericdamien's
basic models, GANs, RNNs, text CNNs, DQN, multi-tower training...), small and seeded. Expected
values were recorded by running the same code under TensorFlow 2.21
(`import tensorflow.compat.v1 as tf; tf.disable_v2_behavior()`) unless a comment says otherwise."""

import numpy as np
import pytest

import tensorweave as tf


@pytest.fixture(autouse=True)
def _fresh_graph(request):
    if request.node.name.startswith("test_example_program"):
        # whole programs may call tf.reset_default_graph(), which a nested graph forbids
        tf.reset_default_graph()
        yield
        tf.reset_default_graph()
        return
    with tf.Graph().as_default():
        yield


def test_integer_mod_by_zero_with_an_empty_output_is_no_error():
    """TF's BinaryOp returns before computing an empty output, so a zero divisor there is fine:
    the Sum gradient of an unknown-rank placeholder fed a scalar takes mod(range(0), 0)."""
    with tf.Session() as sess:
        assert sess.run(tf.floormod(tf.zeros([0], tf.int32), 0)).shape == (0,)
        assert sess.run(tf.floordiv(tf.zeros([0, 3], tf.int32), tf.zeros([3], tf.int32))).shape == (0, 3)
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(tf.floordiv(tf.zeros([2, 3], tf.int32), tf.zeros([3], tf.int32)))


def test_linear_regression_fed_one_sample_at_a_time():
    """aymericdamien's linear_regression.py: shapeless float placeholders fed Python scalars
    (one sample per step), then the whole array for the cost."""
    rng = np.random
    rng.seed(1)
    train_X = np.asarray([3.3, 4.4, 5.5, 6.71, 6.93, 4.168, 9.779, 6.182, 7.59, 2.167, 7.042,
                          10.791, 5.313, 7.997, 5.654, 9.27, 3.1])
    train_Y = np.asarray([1.7, 2.76, 2.09, 3.19, 1.694, 1.573, 3.366, 2.596, 2.53, 1.221, 2.827,
                          3.465, 1.65, 2.904, 2.42, 2.94, 1.3])
    X = tf.placeholder("float")
    Y = tf.placeholder("float")
    W = tf.Variable(rng.randn(), name="weight")
    b = tf.Variable(rng.randn(), name="bias")
    pred = tf.add(tf.multiply(X, W), b)
    cost = tf.reduce_sum(tf.pow(pred - Y, 2)) / (2 * train_X.shape[0])
    optimizer = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
    assert (pred.name, cost.name, optimizer.name) == ("Add:0", "truediv:0", "GradientDescent")
    costs = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(50):
            for (x, y) in zip(train_X, train_Y):
                sess.run(optimizer, feed_dict={X: x, Y: y})
            if (epoch + 1) % 10 == 0:
                costs.append("%.9f" % sess.run(cost, feed_dict={X: train_X, Y: train_Y}))
        w_final, b_final = sess.run([W, b])
    assert costs == ["0.227719635", "0.223520085", "0.219990000", "0.216521829", "0.213137463"]
    assert (repr(w_final), repr(b_final)) == ("np.float32(0.4558863)", "np.float32(-0.6825888)")


def test_fused_batch_norm_reserve_spaces_and_inference_as_tf():
    """FusedBatchNormV3's reserve_space_2 is the biased batch variance when training (TF 2.21
    fetches it; it was 1/sqrt(var + eps)) and the given variance otherwise; inference is
    (x - mean) * (rsqrt(var + eps) * scale) + offset, whose float32 digits TF printed."""
    rs = np.random.RandomState(0)
    xd = rs.randn(8, 2, 2, 3).astype(np.float32) * 3 + 1
    x = tf.placeholder(tf.float32, [None, 2, 2, 3])
    sc = tf.Variable(rs.rand(3).astype(np.float32) + 0.5)
    of = tf.Variable(rs.rand(3).astype(np.float32))
    y, m, v = tf.nn.fused_batch_norm(x, sc, of, is_training=True)
    yi = tf.nn.fused_batch_norm(x, sc, of, mean=tf.Variable([0.5, 1.0, 2.0]),
                                variance=tf.Variable([1.0, 4.0, 0.25]), is_training=False)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        r1, r2, bv = sess.run([y.op.outputs[3], y.op.outputs[4], v], {x: xd})
        flat = xd.reshape(-1, 3)
        np.testing.assert_allclose(r1, flat.mean(0), rtol=1e-6)
        np.testing.assert_allclose(r2, flat.var(0), rtol=1e-5)
        np.testing.assert_allclose(bv, flat.var(0, ddof=1), rtol=1e-5)
        ri, ri2 = sess.run([yi, yi.op.outputs[4]], {x: xd})
        assert ri2.tolist() == [1.0, 4.0, 0.25]
        assert [repr(a) for a in ri.ravel()[:3]] == [  # TF 2.21 printed these float32s
            "np.float32(7.73731)", "np.float32(1.0248108)", "np.float32(6.2337294)"]
        ri_ref = (flat - [0.5, 1.0, 2.0]) / np.sqrt(np.array([1.0, 4.0, 0.25]) + 1e-3) \
            * sess.run(sc) + sess.run(of)
        np.testing.assert_allclose(ri.reshape(-1, 3), ri_ref, rtol=1e-5)


@pytest.mark.parametrize("training", [True, False])
def test_fused_batch_norm_gradients_from_the_saved_variance(training):
    """The gradient kernel rebuilds rsqrt(var + eps) from reserve_space_2 (TF's CPU functors);
    checked against the unfused formula's gradients."""
    rs = np.random.RandomState(1)
    xd = rs.randn(6, 3, 2, 4).astype(np.float32)
    wd = rs.randn(6, 3, 2, 4).astype(np.float32)
    x = tf.constant(xd)
    sc = tf.constant(rs.rand(4).astype(np.float32) + 0.5)
    of = tf.constant(rs.rand(4).astype(np.float32))
    if training:
        mean, var = tf.nn.moments(x, [0, 1, 2])
        fused = tf.nn.fused_batch_norm(x, sc, of, epsilon=0.01)[0]
    else:
        mean, var = tf.constant(rs.rand(4).astype(np.float32)), tf.constant(rs.rand(4).astype(np.float32) + 0.5)
        fused = tf.nn.fused_batch_norm(x, sc, of, mean=mean, variance=var, epsilon=0.01, is_training=False)[0]
    plain = tf.nn.batch_normalization(x, mean, var, of, sc, 0.01)
    g1 = tf.gradients(tf.reduce_sum(fused * wd), [x, sc, of])
    g2 = tf.gradients(tf.reduce_sum(plain * wd), [x, sc, of])
    with tf.Session() as sess:
        for a, b in zip(sess.run(g1), sess.run(g2)):
            np.testing.assert_allclose(a, b, rtol=2e-4, atol=2e-4)


def test_reshape_to_a_partially_known_shape_is_tfs_value_error():
    """char-RNN tutorials reshape labels to logits.get_shape(): with an unknown batch TF's op
    builder fails to convert the TensorShape and names the input (message from TF 2.21)."""
    logits = tf.placeholder(tf.float32, [None, 13])
    labels = tf.one_hot(tf.placeholder(tf.int32, [None, None]), 13)
    with pytest.raises(ValueError) as info:
        tf.reshape(labels, logits.get_shape())
    assert str(info.value) == ("Tried to convert 'shape' to a tensor and failed. Error: Cannot "
                               "convert a partially known TensorShape (?, 13) to a Tensor.")
    assert tf.reshape(labels, [-1, 13]).shape.as_list() == [None, 13]


# -- whole example programs: source, then what TF 2.21 printed for it --------------------------
# (each runs with tf bound to tensorweave and must print the same text)

PROGRAMS = {
    # k-means written with tf ops: expand_dims distances, argmin, where/gather means, unsorted_segment_sum
    "kmeans": (r"""
import numpy as np
rs = np.random.RandomState(7)
pts = np.concatenate([rs.randn(20, 2) + [0, 0], rs.randn(20, 2) + [5, 5], rs.randn(20, 2) + [0, 6]]).astype(np.float32)
k = 3
points = tf.constant(pts)
centroids = tf.Variable(tf.slice(tf.random_shuffle(points, seed=3), [0, 0], [k, -1]), name="centroids")
print(centroids, centroids.initial_value)
points_expanded = tf.expand_dims(points, 0)
centroids_expanded = tf.expand_dims(centroids, 1)
print(points_expanded.shape, centroids_expanded.shape)
distances = tf.reduce_sum(tf.square(tf.subtract(points_expanded, centroids_expanded)), 2)
assignments = tf.argmin(distances, 0)
print(distances, assignments)
means = []
for c in range(k):
    means.append(tf.reduce_mean(tf.gather(points, tf.reshape(tf.where(tf.equal(assignments, c)), [1, -1])), reduction_indices=[1]))
new_centroids = tf.concat(means, 0)
print(means[0], new_centroids)
update_centroids = tf.assign(centroids, new_centroids)
# unsorted_segment_sum variant
sums = tf.unsorted_segment_sum(points, assignments, k)
counts = tf.unsorted_segment_sum(tf.ones_like(points[:, :1]), assignments, k)
seg_means = sums / counts
print(sums, counts, seg_means)
init = tf.global_variables_initializer()
with tf.Session() as sess:
    sess.run(init)
    print(sess.run(centroids))
    for step in range(6):
        _, centroid_values, assignment_values, sm = sess.run([update_centroids, centroids, assignments, seg_means])
        print(step, np.bincount(assignment_values), repr(sm[0]))
    print("centroids", centroid_values)
    print("%.6f" % sess.run(tf.reduce_min(distances, 0)).sum())
    w = tf.where(tf.equal(assignments, 0))
    print(w, w.shape, sess.run(tf.shape(w)))
""", r"""
<tf.Variable 'centroids:0' shape=(3, 2) dtype=float32_ref> Tensor("Slice:0", shape=(3, 2), dtype=float32)
(1, 60, 2) (3, 1, 2)
Tensor("Sum:0", shape=(3, 60), dtype=float32) Tensor("ArgMin:0", shape=(60,), dtype=int64)
Tensor("Mean:0", shape=(1, 2), dtype=float32) Tensor("concat:0", shape=(3, 2), dtype=float32)
Tensor("UnsortedSegmentSum:0", shape=(3, 2), dtype=float32) Tensor("UnsortedSegmentSum_1:0", shape=(3, 1), dtype=float32) Tensor("truediv:0", shape=(3, 2), dtype=float32)
[[-0.6736452  5.9441323]
 [ 0.5487451  6.676629 ]
 [ 3.2916608  3.1969013]]
0 [12 10 38] array([-0.4696693,  4.9053764], dtype=float32)
1 [12 16 32] array([-0.4363842,  4.508331 ], dtype=float32)
2 [14 21 25] array([-0.3954883,  4.7374372], dtype=float32)
3 [16 23 21] array([-0.06142617,  6.0924354 ], dtype=float32)
4 [20 20 20] array([0.297558 , 6.1358066], dtype=float32)
5 [20 20 20] array([0.297558 , 6.1358066], dtype=float32)
centroids [[ 0.297558    6.1358066 ]
 [ 5.080371    4.8717685 ]
 [ 0.01917954 -0.2196565 ]]
115.954102
Tensor("Where_3:0", shape=(?, 1), dtype=int64) (?, 1) [20  1]
"""),
    # denoising autoencoder: noisy input, dense layers in variable scopes, dropout, tf.losses, Adam slots
    "dae": (r"""
import numpy as np
tf.set_random_seed(2)
rs = np.random.RandomState(2)
data = rs.rand(32, 12).astype(np.float32)
x = tf.placeholder(tf.float32, [None, 12], name="x")
noisy = x + 0.3 * tf.random_normal(tf.shape(x), seed=4)
noisy = tf.clip_by_value(noisy, 0., 1.)
keep_prob = tf.placeholder_with_default(1.0, shape=(), name="keep_prob")
with tf.variable_scope("enc"):
    h = tf.layers.dense(noisy, 6, activation=tf.nn.relu, kernel_initializer=tf.glorot_uniform_initializer(seed=1))
    h = tf.nn.dropout(h, keep_prob, seed=5)
with tf.variable_scope("dec"):
    out = tf.layers.dense(h, 12, activation=tf.nn.sigmoid, kernel_initializer=tf.glorot_uniform_initializer(seed=2))
print(noisy, h, out)
loss = tf.losses.mean_squared_error(x, out)
print(loss, tf.get_collection(tf.GraphKeys.LOSSES))
train = tf.train.AdamOptimizer(0.01).minimize(loss)
print(sorted(v.name for v in tf.global_variables()))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(30):
        _, l = sess.run([train, loss], {x: data, keep_prob: 0.8})
        if i % 5 == 0:
            print(i, "%.6f" % l, l)
    print(sess.run(loss, {x: data}))
    print(sess.run(h, {x: data[:2]}).round(4))
""", r"""
Tensor("clip_by_value:0", shape=(?, 12), dtype=float32) Tensor("enc/dropout/SelectV2:0", shape=(?, 6), dtype=float32) Tensor("dec/dense/Sigmoid:0", shape=(?, 12), dtype=float32)
Tensor("mean_squared_error/value:0", shape=(), dtype=float32) [<tf.Tensor 'mean_squared_error/value:0' shape=() dtype=float32>]
['beta1_power:0', 'beta2_power:0', 'dec/dense/bias/Adam:0', 'dec/dense/bias/Adam_1:0', 'dec/dense/bias:0', 'dec/dense/kernel/Adam:0', 'dec/dense/kernel/Adam_1:0', 'dec/dense/kernel:0', 'enc/dense/bias/Adam:0', 'enc/dense/bias/Adam_1:0', 'enc/dense/bias:0', 'enc/dense/kernel/Adam:0', 'enc/dense/kernel/Adam_1:0', 'enc/dense/kernel:0']
0 0.091565 0.091564834
5 0.083465 0.08346516
10 0.079203 0.07920251
15 0.078186 0.078186
20 0.078300 0.078299694
25 0.078467 0.07846736
0.07500259
[[0.     0.3262 0.3168 0.     0.     0.    ]
 [0.5739 0.     0.     0.     0.     0.    ]]
"""),
    # DQN update: eval/target nets, reduce_max target with stop_gradient, gather_nd vs one_hot, target copy
    "dqn": (r"""
import numpy as np
tf.set_random_seed(10)
rs = np.random.RandomState(10)
n_states, n_actions, gamma = 4, 3, 0.9
s = tf.placeholder(tf.float32, [None, n_states], name="s")
a = tf.placeholder(tf.int32, [None], name="a")
r = tf.placeholder(tf.float32, [None], name="r")
s_ = tf.placeholder(tf.float32, [None, n_states], name="s_")
w_init, b_init = tf.random_normal_initializer(0., 0.3), tf.constant_initializer(0.1)
with tf.variable_scope('eval_net'):
    e1 = tf.layers.dense(s, 8, tf.nn.relu, kernel_initializer=w_init, bias_initializer=b_init, name='e1')
    q_eval = tf.layers.dense(e1, n_actions, kernel_initializer=w_init, bias_initializer=b_init, name='q')
with tf.variable_scope('target_net'):
    t1 = tf.layers.dense(s_, 8, tf.nn.relu, kernel_initializer=w_init, bias_initializer=b_init, name='t1')
    q_next = tf.layers.dense(t1, n_actions, kernel_initializer=w_init, bias_initializer=b_init, name='t2')
with tf.variable_scope('q_target'):
    q_target = r + gamma * tf.reduce_max(q_next, axis=1, name='Qmax_s_')
    q_target = tf.stop_gradient(q_target)
with tf.variable_scope('q_eval'):
    a_indices = tf.stack([tf.range(tf.shape(a)[0], dtype=tf.int32), a], axis=1)
    q_eval_wrt_a = tf.gather_nd(params=q_eval, indices=a_indices)
    q_onehot = tf.reduce_sum(q_eval * tf.one_hot(a, n_actions), axis=1)
with tf.variable_scope('loss'):
    loss = tf.reduce_mean(tf.squared_difference(q_target, q_eval_wrt_a, name='TD_error'))
with tf.variable_scope('train'):
    _train_op = tf.train.RMSPropOptimizer(0.01).minimize(loss)
print(q_target, a_indices, q_eval_wrt_a, q_onehot, loss, _train_op.name)
t_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='target_net')
e_params = tf.get_collection(tf.GraphKeys.GLOBAL_VARIABLES, scope='eval_net')
print([v.name for v in t_params], [v.name for v in e_params])
with tf.variable_scope('soft_replacement'):
    target_replace_op = [tf.assign(t, e) for t, e in zip(t_params, e_params)]
print([o.name for o in target_replace_op])
print(len(tf.global_variables()), [v.name for v in tf.global_variables()][-3:])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(30):
        if step % 10 == 0:
            sess.run(target_replace_op)
        bs = rs.rand(16, n_states).astype(np.float32)
        ba = rs.randint(0, n_actions, 16)
        br = rs.rand(16).astype(np.float32)
        bs_ = rs.rand(16, n_states).astype(np.float32)
        _, cost, q1, q2 = sess.run([_train_op, loss, q_eval_wrt_a, q_onehot], {s: bs, a: ba, r: br, s_: bs_})
        if step % 5 == 0 and step < 25:
            print(step, "%.6f" % cost, repr(cost), np.abs(q1 - q2).max())
    obs = rs.rand(1, n_states).astype(np.float32)
    av = sess.run(q_eval, {s: obs})
    print(np.argmax(av))
    g = tf.gradients(loss, [q_eval, q_next])
    print(g[1], g[0].name)
""", r"""
Tensor("q_target/StopGradient:0", shape=(?,), dtype=float32) Tensor("q_eval/stack:0", shape=(?, 2), dtype=int32) Tensor("q_eval/GatherNd:0", shape=(?,), dtype=float32) Tensor("q_eval/Sum:0", shape=(?,), dtype=float32) Tensor("loss/Mean:0", shape=(), dtype=float32) train/RMSProp
['target_net/t1/kernel:0', 'target_net/t1/bias:0', 'target_net/t2/kernel:0', 'target_net/t2/bias:0'] ['eval_net/e1/kernel:0', 'eval_net/e1/bias:0', 'eval_net/q/kernel:0', 'eval_net/q/bias:0']
['soft_replacement/Assign:0', 'soft_replacement/Assign_1:0', 'soft_replacement/Assign_2:0', 'soft_replacement/Assign_3:0']
16 ['train/eval_net/q/kernel/RMSProp_1:0', 'train/eval_net/q/bias/RMSProp:0', 'train/eval_net/q/bias/RMSProp_1:0']
0 0.281056 np.float32(0.28105646) 0.0
5 0.417702 np.float32(0.41770178) 0.0
10 0.478256 np.float32(0.4782556) 0.0
15 0.388407 np.float32(0.38840675) 0.0
20 0.318187 np.float32(0.31818688) 0.0
2
None gradients/q_eval/GatherNd_grad/ScatterNd:0
"""),
    # multi-tower training on CPU devices: reused scopes, per-tower gradients averaged, a device function
    "towers": (r"""
import numpy as np
tf.set_random_seed(11)
rs = np.random.RandomState(11)
num_gpus = 2
X = tf.placeholder(tf.float32, [None, 6])
Y = tf.placeholder(tf.float32, [None, 3])
def conv_net(x, reuse):
    with tf.variable_scope('ConvNet', reuse=reuse):
        x = tf.layers.dense(x, 5, activation=tf.nn.relu)
        out = tf.layers.dense(x, 3)
    return out
def average_gradients(tower_grads):
    average_grads = []
    for grad_and_vars in zip(*tower_grads):
        grads = []
        for g, _ in grad_and_vars:
            expanded_g = tf.expand_dims(g, 0)
            grads.append(expanded_g)
        grad = tf.concat(grads, 0)
        grad = tf.reduce_mean(grad, 0)
        v = grad_and_vars[0][1]
        average_grads.append((grad, v))
    return average_grads
def assign_to_device(device, ps_device='/cpu:0'):
    PS_OPS = ['Variable', 'VariableV2', 'AutoReloadVariable']
    def _assign(op):
        node_def = op if isinstance(op, tf.NodeDef) else op.node_def
        if node_def.op in PS_OPS:
            return "/" + ps_device
        else:
            return device
    return _assign
tower_grads = []
reuse_vars = False
optimizer = tf.train.AdamOptimizer(learning_rate=0.01)
for i in range(num_gpus):
    with tf.device(assign_to_device('/cpu:{}'.format(0), ps_device='cpu:0')):
        _x = X[i * 4: (i+1) * 4]
        _y = Y[i * 4: (i+1) * 4]
        logits_train = conv_net(_x, reuse=reuse_vars)
        loss_op = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits_train, labels=_y))
        grads = optimizer.compute_gradients(loss_op)
        if i == 0:
            print(logits_train, logits_train.device, _x)
            print([(g.name, v.name) for g, v in grads])
        reuse_vars = True
        tower_grads.append(grads)
tower_grads = average_gradients(tower_grads)
print([(g.name, v.name) for g, v in tower_grads])
train_op = optimizer.apply_gradients(tower_grads)
print(train_op.name, [v.device for v in tf.global_variables()][:2])
xd = rs.rand(8, 6).astype(np.float32)
yd = np.eye(3, dtype=np.float32)[rs.randint(0, 3, 8)]
with tf.Session(config=tf.ConfigProto(allow_soft_placement=True, log_device_placement=False)) as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(20):
        _, l = sess.run([train_op, loss_op], {X: xd, Y: yd})
        if step % 5 == 0: print(step, "%.6f" % l, repr(l))
    print(sess.run(tower_grads[0][0], {X: xd, Y: yd}).round(5))
""", r"""
Tensor("ConvNet/dense_1/BiasAdd:0", shape=(?, 3), dtype=float32, device=/cpu:0) /cpu:0 Tensor("strided_slice:0", shape=(?, 6), dtype=float32, device=/cpu:0)
[('gradients/ConvNet/dense/MatMul_grad/tuple/control_dependency_1:0', 'ConvNet/dense/kernel:0'), ('gradients/ConvNet/dense/BiasAdd_grad/tuple/control_dependency_1:0', 'ConvNet/dense/bias:0'), ('gradients/ConvNet/dense_1/MatMul_grad/tuple/control_dependency_1:0', 'ConvNet/dense_1/kernel:0'), ('gradients/ConvNet/dense_1/BiasAdd_grad/tuple/control_dependency_1:0', 'ConvNet/dense_1/bias:0')]
[('Mean_2:0', 'ConvNet/dense/kernel:0'), ('Mean_3:0', 'ConvNet/dense/bias:0'), ('Mean_4:0', 'ConvNet/dense_1/kernel:0'), ('Mean_5:0', 'ConvNet/dense_1/bias:0')]
Adam ['/cpu:0', '/cpu:0']
0 1.070863 np.float32(1.0708632)
5 1.006338 np.float32(1.0063385)
10 0.969553 np.float32(0.9695525)
15 0.910118 np.float32(0.9101179)
[[-0.05476  0.00981  0.00139  0.01827 -0.03606]
 [-0.03863  0.00311 -0.00163 -0.02146 -0.04008]
 [ 0.03844  0.02355 -0.03106  0.02054 -0.00973]
 [ 0.00047  0.00913 -0.00781 -0.00091 -0.03218]
 [ 0.02159 -0.03171  0.0108  -0.06337 -0.01786]
 [ 0.00352 -0.027   -0.01542 -0.00295  0.00202]]
"""),
    # seq2seq: time-major encoder/decoder dynamic_rnn with the encoder's final state, sequence_mask
    "seq2seq": (r"""
import numpy as np
tf.set_random_seed(14)
rs = np.random.RandomState(14)
vocab, emb, hid = 10, 4, 6
encoder_inputs = tf.placeholder(shape=(None, None), dtype=tf.int32, name='encoder_inputs')
decoder_targets = tf.placeholder(shape=(None, None), dtype=tf.int32, name='decoder_targets')
decoder_inputs = tf.placeholder(shape=(None, None), dtype=tf.int32, name='decoder_inputs')
embeddings = tf.Variable(tf.random_uniform([vocab, emb], -1.0, 1.0), dtype=tf.float32)
encoder_inputs_embedded = tf.nn.embedding_lookup(embeddings, encoder_inputs)
decoder_inputs_embedded = tf.nn.embedding_lookup(embeddings, decoder_inputs)
encoder_cell = tf.nn.rnn_cell.LSTMCell(hid)
encoder_outputs, encoder_final_state = tf.nn.dynamic_rnn(encoder_cell, encoder_inputs_embedded, dtype=tf.float32, time_major=True)
del encoder_outputs
print(encoder_final_state)
decoder_cell = tf.nn.rnn_cell.LSTMCell(hid)
decoder_outputs, decoder_final_state = tf.nn.dynamic_rnn(decoder_cell, decoder_inputs_embedded, initial_state=encoder_final_state, dtype=tf.float32, time_major=True, scope="plain_decoder")
decoder_logits = tf.layers.dense(decoder_outputs, vocab)
decoder_prediction = tf.argmax(decoder_logits, 2)
print(decoder_outputs, decoder_logits, decoder_prediction)
stepwise_cross_entropy = tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.one_hot(decoder_targets, depth=vocab, dtype=tf.float32), logits=decoder_logits)
loss = tf.reduce_mean(stepwise_cross_entropy)
train_op = tf.train.AdamOptimizer().minimize(loss)
print(stepwise_cross_entropy, [v.name for v in tf.trainable_variables()])
def batch(seqs):
    L = max(len(s) for s in seqs)
    out = np.zeros([L, len(seqs)], np.int32)
    for i, s in enumerate(seqs): out[:len(s), i] = s
    return out
seqs = [rs.randint(2, vocab, rs.randint(2, 5)).tolist() for _ in range(6)]
enc = batch(seqs)
dt = batch([s + [1] for s in seqs])
di = batch([[1] + s for s in seqs])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(40):
        _, l = sess.run([train_op, loss], {encoder_inputs: enc, decoder_inputs: di, decoder_targets: dt})
        if i % 10 == 0: print(i, "%.6f" % l, repr(l))
    print(sess.run(decoder_prediction, {encoder_inputs: enc, decoder_inputs: di}).T)
    # seq lens + masked loss
    lens = tf.placeholder(tf.int32, [None])
    mask = tf.sequence_mask(lens, tf.shape(decoder_targets)[0], dtype=tf.float32)
    print(mask, sess.run(mask, {lens: [1, 3], decoder_targets: np.zeros([4, 2])}))
""", r"""
LSTMStateTuple(c=<tf.Tensor 'rnn/while/Exit_3:0' shape=(?, 6) dtype=float32>, h=<tf.Tensor 'rnn/while/Exit_4:0' shape=(?, 6) dtype=float32>)
Tensor("plain_decoder/TensorArrayStack/TensorArrayGatherV3:0", shape=(?, ?, 6), dtype=float32) Tensor("dense/BiasAdd:0", shape=(?, ?, 10), dtype=float32) Tensor("ArgMax:0", shape=(?, ?), dtype=int64)
Tensor("softmax_cross_entropy_with_logits/Reshape_2:0", shape=(?, ?), dtype=float32) ['Variable:0', 'rnn/lstm_cell/kernel:0', 'rnn/lstm_cell/bias:0', 'plain_decoder/lstm_cell/kernel:0', 'plain_decoder/lstm_cell/bias:0', 'dense/kernel:0', 'dense/bias:0']
0 2.309309 np.float32(2.3093088)
10 2.293130 np.float32(2.2931297)
20 2.277130 np.float32(2.2771301)
30 2.260913 np.float32(2.2609131)
[[0 0 1 0 0]
 [4 1 1 1 1]
 [1 1 1 1 1]
 [1 1 1 1 1]
 [1 1 9 0 0]
 [1 1 1 1 1]]
Tensor("SequenceMask/Cast_1:0", shape=(?, ?), dtype=float32) [[1. 0. 0. 0.]
 [1. 1. 1. 0.]]
"""),
    # tensorboard_basic: scalar/histogram summaries, merge_all, FileWriter events read back
    "tboard": (r"""
import numpy as np, tempfile, os, glob
tf.set_random_seed(13)
rs = np.random.RandomState(13)
logs_path = tempfile.mkdtemp()
x = tf.placeholder(tf.float32, [None, 6], name='InputData')
y = tf.placeholder(tf.float32, [None, 3], name='LabelData')
W = tf.Variable(tf.zeros([6, 3]), name='Weights')
b = tf.Variable(tf.zeros([3]), name='Bias')
with tf.name_scope('Model'):
    pred = tf.nn.softmax(tf.matmul(x, W) + b)
with tf.name_scope('Loss'):
    cost = tf.reduce_mean(-tf.reduce_sum(y*tf.log(pred), reduction_indices=1))
with tf.name_scope('SGD'):
    optimizer = tf.train.GradientDescentOptimizer(0.1).minimize(cost)
with tf.name_scope('Accuracy'):
    acc = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
    acc = tf.reduce_mean(tf.cast(acc, tf.float32))
init = tf.global_variables_initializer()
s1 = tf.summary.scalar("loss", cost)
s2 = tf.summary.scalar("accuracy", acc)
h = tf.summary.histogram("weights", W)
merged_summary_op = tf.summary.merge_all()
print(s1, s2, h, merged_summary_op)
print(tf.get_collection(tf.GraphKeys.SUMMARIES))
print(pred.name, cost.name, optimizer.name, acc.name)
xd = rs.rand(30, 6).astype(np.float32); yd = np.eye(3, dtype=np.float32)[rs.randint(0, 3, 30)]
with tf.Session() as sess:
    sess.run(init)
    summary_writer = tf.summary.FileWriter(logs_path, graph=tf.get_default_graph())
    print(type(summary_writer).__name__, summary_writer.get_logdir() == logs_path)
    for epoch in range(5):
        _, c, summary = sess.run([optimizer, cost, merged_summary_op], feed_dict={x: xd, y: yd})
        summary_writer.add_summary(summary, epoch)
        print(epoch, "%.6f" % c, type(summary), len(summary) > 0)
    summary_writer.flush()
    pb = tf.Summary()
    pb.ParseFromString(sess.run(s1, {x: xd, y: yd}))
    print([(v.tag, round(v.simple_value, 5)) for v in pb.value])
    pb2 = tf.Summary(); pb2.ParseFromString(sess.run(merged_summary_op, {x: xd, y: yd}))
    print([v.tag for v in pb2.value], pb2.value[2].histo.num)
    summary_writer.close()
files = glob.glob(os.path.join(logs_path, "events.out.tfevents.*"))
print(len(files))
tags = []
for e in tf.train.summary_iterator(files[0]):
    for v in e.summary.value:
        tags.append((e.step, v.tag))
    if e.HasField('graph_def'): print("graph_def event")
print(tags[:6], len(tags))
""", r"""
Tensor("loss_1:0", shape=(), dtype=string) Tensor("accuracy_1:0", shape=(), dtype=string) Tensor("weights_1:0", shape=(), dtype=string) Tensor("Merge/MergeSummary:0", shape=(), dtype=string)
[<tf.Tensor 'loss_1:0' shape=() dtype=string>, <tf.Tensor 'accuracy_1:0' shape=() dtype=string>, <tf.Tensor 'weights_1:0' shape=() dtype=string>]
Model/Softmax:0 Loss/Mean:0 SGD/GradientDescent Accuracy/Mean:0
FileWriter True
0 1.098612 <class 'bytes'> True
1 1.088704 <class 'bytes'> True
2 1.080149 <class 'bytes'> True
3 1.072744 <class 'bytes'> True
4 1.066315 <class 'bytes'> True
[('loss_1', 1.06072)]
['loss_1', 'accuracy_1', 'weights_1'] 18.0
1
graph_def event
[(0, 'loss_1'), (0, 'accuracy_1'), (0, 'weights_1'), (1, 'loss_1'), (1, 'accuracy_1'), (1, 'weights_1')] 15
"""),
    # save_restore_model: Saver save/restore, latest_checkpoint, max_to_keep, import_meta_graph
    "saverest": (r"""
import numpy as np, tempfile, os
tf.set_random_seed(12)
rs = np.random.RandomState(12)
tmp = tempfile.mkdtemp()
model_path = os.path.join(tmp, "model.ckpt")
x = tf.placeholder("float", [None, 5])
y = tf.placeholder("float", [None, 2])
weights = {'h1': tf.Variable(tf.random_normal([5, 4])), 'out': tf.Variable(tf.random_normal([4, 2]))}
biases = {'b1': tf.Variable(tf.random_normal([4])), 'out': tf.Variable(tf.random_normal([2]))}
layer_1 = tf.nn.relu(tf.add(tf.matmul(x, weights['h1']), biases['b1']))
pred = tf.matmul(layer_1, weights['out']) + biases['out']
cost = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=pred, labels=y))
optimizer = tf.train.AdamOptimizer(learning_rate=0.01).minimize(cost)
init = tf.global_variables_initializer()
saver = tf.train.Saver()
print(saver.saver_def.filename_tensor_name, saver.saver_def.save_tensor_name, saver.saver_def.restore_op_name)
xd = rs.rand(20, 5).astype(np.float32); yd = np.eye(2, dtype=np.float32)[rs.randint(0, 2, 20)]
print("Starting 1st session...")
with tf.Session() as sess:
    sess.run(init)
    for epoch in range(3):
        _, c = sess.run([optimizer, cost], feed_dict={x: xd, y: yd})
        print("Epoch:", '%04d' % (epoch+1), "cost=", "{:.9f}".format(c))
    save_path = saver.save(sess, model_path)
    print("Model saved in file: %s" % os.path.basename(save_path))
    w1 = sess.run(weights['h1'])
print(sorted(os.listdir(tmp)))
print(tf.train.latest_checkpoint(tmp) == model_path)
print([(n, s) for n, s in tf.train.list_variables(tmp)])
print("Starting 2nd session...")
with tf.Session() as sess:
    sess.run(init)
    saver.restore(sess, model_path)
    print("Model restored from file: %s" % os.path.basename(save_path))
    print(np.array_equal(sess.run(weights['h1']), w1))
    for epoch in range(2):
        _, c = sess.run([optimizer, cost], feed_dict={x: xd, y: yd})
        print("Epoch:", '%04d' % (epoch+1), "cost=", "{:.9f}".format(c))
    correct_prediction = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
    accuracy = tf.reduce_mean(tf.cast(correct_prediction, "float"))
    print("Accuracy:", accuracy.eval({x: xd, y: yd}))
    saver2 = tf.train.Saver({"w1": weights['h1']}, max_to_keep=2)
    for i in range(3):
        saver2.save(sess, os.path.join(tmp, "w"), global_step=i)
    print(sorted(f for f in os.listdir(tmp) if f.startswith("w")), os.path.basename(tf.train.latest_checkpoint(tmp)))
    print(tf.train.load_variable(os.path.join(tmp, "w-2"), "w1").shape)
tf.reset_default_graph()
with tf.Session() as sess:
    new_saver = tf.train.import_meta_graph(model_path + ".meta")
    new_saver.restore(sess, model_path)
    g = tf.get_default_graph()
    print(len(tf.trainable_variables()), tf.trainable_variables()[0])
    print(np.array_equal(sess.run(g.get_tensor_by_name("Variable:0")), w1))
    print(g.get_tensor_by_name("Placeholder:0"))
""", r"""
save/Const:0 save/control_dependency:0 save/restore_all
Starting 1st session...
Epoch: 0001 cost= 1.070141792
Epoch: 0002 cost= 1.041513920
Epoch: 0003 cost= 1.015771151
Model saved in file: model.ckpt
['checkpoint', 'model.ckpt.data-00000-of-00001', 'model.ckpt.index', 'model.ckpt.meta']
True
[('Variable', [5, 4]), ('Variable/Adam', [5, 4]), ('Variable/Adam_1', [5, 4]), ('Variable_1', [4, 2]), ('Variable_1/Adam', [4, 2]), ('Variable_1/Adam_1', [4, 2]), ('Variable_2', [4]), ('Variable_2/Adam', [4]), ('Variable_2/Adam_1', [4]), ('Variable_3', [2]), ('Variable_3/Adam', [2]), ('Variable_3/Adam_1', [2]), ('beta1_power', []), ('beta2_power', [])]
Starting 2nd session...
Model restored from file: model.ckpt
True
Epoch: 0001 cost= 0.991554439
Epoch: 0002 cost= 0.968848586
Accuracy: 0.55
['w-1.data-00000-of-00001', 'w-1.index', 'w-1.meta', 'w-2.data-00000-of-00001', 'w-2.index', 'w-2.meta'] w-2
(5, 4)
4 <tf.Variable 'Variable:0' shape=(5, 4) dtype=float32_ref>
True
Tensor("Placeholder:0", shape=(?, 5), dtype=float32)
"""),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_example_program_prints_what_tf_printed(name, capsys):
    src, want = PROGRAMS[name]
    opts = np.get_printoptions()
    try:
        exec(compile(src, name + ".py", "exec"), {"tf": tf, "__name__": "__examples3__"})
    finally:
        np.set_printoptions(**opts)
    got = capsys.readouterr().out
    assert got.splitlines() == want.strip("\n").splitlines()
