"""tf.train optimizers: TF1 names, slots, values against recorded TensorFlow runs and NumPy updates,
sparse (gather) gradients, in-place updates, global step, errors, and small end-to-end trainings.

Values marked "recorded from TF" come from running the same program with real TensorFlow
(tf.compat.v1, graph mode, float32)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import errors

OPTIMIZERS = {
    "gd": lambda: tf.train.GradientDescentOptimizer(0.1),
    "mom": lambda: tf.train.MomentumOptimizer(0.1, 0.9),
    "nest": lambda: tf.train.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "rms": lambda: tf.train.RMSPropOptimizer(0.01),
    "rmsm": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5),
    "rmsc": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5, centered=True),
    "adam": lambda: tf.train.AdamOptimizer(0.1),
    "adadelta": lambda: tf.train.AdadeltaOptimizer(1.0),
}

# Recorded from TF: w and b after 3 steps of minimize(sum((x @ w + b)^2)) (see _dense_model).
DENSE_AFTER_3_STEPS = {
    'gd': ([[-0.2460000365972519, 0.32700005173683167], [1.3347499370574951, 1.5223748683929443]],
           [0.41850003600120544, -0.5127500295639038]),
    'mom': ([[-0.7589999437332153, -0.4019998610019684], [-0.2672499418258667, -0.8536249399185181]],
            [0.7515000700950623, 0.00025010108947753906]),
    'nest': ([[-1.930314064025879, -1.915647029876709], [-0.48597460985183716, -1.1901025772094727]],
             [0.1362013816833496, -0.7733473777770996]),
    'adagrad': ([[0.7827063798904419, 1.7798758745193481], [2.7735345363616943, 3.7728281021118164]],
                [0.2890743017196655, -0.7142379283905029]),
    'rms': ([[0.9284443259239197, 1.927712321281433], [2.9304020404815674, 3.928223133087158]],
            [0.4349459409713745, -0.5672461986541748]),
    'rmsm': ([[0.8944486379623413, 1.8933099508285522], [2.8976778984069824, 3.894216537475586]],
             [0.40468356013298035, -0.5987398624420166]),
    'rmsc': ([[0.8851438164710999, 1.8837367296218872], [2.8891189098358154, 3.8848700523376465]],
             [0.397655189037323, -0.606490969657898]),
    'adam': ([[0.7021662592887878, 1.7014527320861816], [2.7002317905426025, 3.7001490592956543]],
             [0.20404833555221558, -0.7970255017280579]),
    'adadelta': ([[0.9986435174942017, 1.998643398284912], [2.998642921447754, 3.998642921447754]],
                 [0.4986437261104584, -0.5013563632965088]),
}

# Recorded from TF: the op names apply_gradients/minimize adds (besides gradients/ and slots).
UPDATE_OP_NAMES = {
    "gd": ["GradientDescent/learning_rate", "GradientDescent/update_w/ApplyGradientDescent",
           "GradientDescent/update_b/ApplyGradientDescent", "GradientDescent/update", "GradientDescent/value",
           "GradientDescent"],
    "mom": ["Momentum/learning_rate", "Momentum/momentum", "Momentum/update_w/ApplyMomentum",
            "Momentum/update_b/ApplyMomentum", "Momentum/update", "Momentum/value", "Momentum"],
    "adagrad": ["Adagrad/learning_rate", "Adagrad/update_w/ApplyAdagrad", "Adagrad/update_b/ApplyAdagrad",
                "Adagrad/update", "Adagrad/value", "Adagrad"],
    "rmsc": ["RMSProp/learning_rate", "RMSProp/decay", "RMSProp/momentum", "RMSProp/epsilon",
             "RMSProp/update_w/ApplyCenteredRMSProp", "RMSProp/update_b/ApplyCenteredRMSProp", "RMSProp/update",
             "RMSProp/value", "RMSProp"],
    "adam": ["Adam/learning_rate", "Adam/beta1", "Adam/beta2", "Adam/epsilon", "Adam/update_w/ApplyAdam",
             "Adam/update_b/ApplyAdam", "Adam/mul", "Adam/Assign", "Adam/mul_1", "Adam/Assign_1", "Adam/update",
             "Adam/value", "Adam"],
    "adadelta": ["Adadelta/lr", "Adadelta/rho", "Adadelta/epsilon", "Adadelta/update_w/ApplyAdadelta",
                 "Adadelta/update_b/ApplyAdadelta", "Adadelta/update", "Adadelta/value", "Adadelta"],
}

# Recorded from TF: slot names -> variable names for w, and optimizer.variables().
SLOTS = {
    "gd": ({}, []),
    "mom": ({"momentum": "w/Momentum:0"}, ["b/Momentum:0", "w/Momentum:0"]),
    "adagrad": ({"accumulator": "w/Adagrad:0"}, ["b/Adagrad:0", "w/Adagrad:0"]),
    "rms": ({"momentum": "w/RMSProp_1:0", "rms": "w/RMSProp:0"},
            ["b/RMSProp:0", "b/RMSProp_1:0", "w/RMSProp:0", "w/RMSProp_1:0"]),
    "rmsc": ({"mg": "w/RMSProp_1:0", "momentum": "w/RMSProp_2:0", "rms": "w/RMSProp:0"},
             ["b/RMSProp:0", "b/RMSProp_1:0", "b/RMSProp_2:0", "w/RMSProp:0", "w/RMSProp_1:0", "w/RMSProp_2:0"]),
    "adam": ({"m": "w/Adam:0", "v": "w/Adam_1:0"},
             ["b/Adam:0", "b/Adam_1:0", "beta1_power:0", "beta2_power:0", "w/Adam:0", "w/Adam_1:0"]),
    "adadelta": ({"accum": "w/Adadelta:0", "accum_update": "w/Adadelta_1:0"},
                 ["b/Adadelta:0", "b/Adadelta_1:0", "w/Adadelta:0", "w/Adadelta_1:0"]),
}


def _dense_model(dtype=tf.float32):
    w = tf.Variable(np.array([[1.0, 2.0], [3.0, 4.0]], dtype.as_numpy_dtype), name="w")
    b = tf.Variable(np.array([0.5, -0.5], dtype.as_numpy_dtype), name="b")
    x = tf.constant(np.array([[1.0, -1.0], [2.0, 0.5]], dtype.as_numpy_dtype))
    loss = tf.reduce_sum(tf.square(tf.matmul(x, w) + b))
    return w, b, x, loss


@pytest.mark.parametrize("key", sorted(OPTIMIZERS))
def test_dense_steps_match_tensorflow(key):
    w, b, _, loss = _dense_model()
    gs = tf.train.get_or_create_global_step()
    g = tf.get_default_graph()
    n0 = len(g.get_operations())
    opt = OPTIMIZERS[key]()
    train = opt.minimize(loss, global_step=gs)
    assert isinstance(train, tf.Operation) and train.type == "AssignAdd"
    assert train.name == opt.get_name()
    assert train in tf.get_collection(tf.GraphKeys.TRAIN_OP)
    if key in UPDATE_OP_NAMES:
        names = [op.name for op in g.get_operations()[n0:]
                 if not op.name.startswith(("gradients", "w/", "b/", "beta1_power", "beta2_power"))]
        assert names == UPDATE_OP_NAMES[key]
    if key in SLOTS:
        slots, all_vars = SLOTS[key]
        assert opt.get_slot_names() == sorted(slots)
        for name, var_name in slots.items():
            slot = opt.get_slot(w, name)
            assert slot.name == var_name
            assert slot.shape.as_list() == [2, 2] and slot.dtype == tf.float32_ref
            assert slot in tf.global_variables() and slot not in tf.trainable_variables()
            assert slot.op.colocation_groups() == [b"loc:@w"]
        assert [v.name for v in opt.variables()] == all_vars
    assert [v.name for v in tf.trainable_variables()] == ["w:0", "b:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            sess.run(train)
            assert tf.train.global_step(sess, gs) == step + 1
        want_w, want_b = DENSE_AFTER_3_STEPS[key]
        np.testing.assert_allclose(sess.run(w), want_w, rtol=2e-6, atol=1e-6)
        np.testing.assert_allclose(sess.run(b), want_b, rtol=2e-6, atol=1e-6)


def _numpy_reference(key, w, b, x, steps):
    """Hand-written NumPy updates for the dense model (float64). The hyper-parameters are float32
    constants cast to float64 (as in TF), and Adam's beta powers are float32 variables."""
    c = lambda v: float(np.float32(v))  # noqa: E731
    lr, mu, half, eps10 = c(0.1), c(0.9), c(0.5), c(1e-10)
    state = {}
    params = {"w": w.copy(), "b": b.copy()}
    b1p, b2p = np.float32(0.9), np.float32(0.999)
    for t in range(1, steps + 1):
        r = x @ params["w"] + params["b"]
        grads = {"w": x.T @ (2 * r), "b": (2 * r).sum(0)}
        for n, g in grads.items():
            p = params[n]
            s = state.setdefault(n, {})
            if key == "gd":
                p -= lr * g
            elif key in ("mom", "nest"):
                a = s["a"] = s.get("a", 0) * mu + g
                p -= lr * (g + mu * a) if key == "nest" else lr * a
            elif key == "adagrad":
                a = s["a"] = s.get("a", 0.1) + g * g
                p -= lr * g / np.sqrt(a)
            elif key in ("rms", "rmsm", "rmsc"):
                momentum = 0.0 if key == "rms" else half
                rho, lr2 = mu, c(0.01)
                ms = s["ms"] = rho * s.get("ms", 1.0) + (1 - rho) * g * g
                denom = ms
                if key == "rmsc":
                    mg = s["mg"] = rho * s.get("mg", 0.0) + (1 - rho) * g
                    denom = ms - mg * mg
                mom = s["mom"] = momentum * s.get("mom", 0.0) + lr2 * g / np.sqrt(denom + eps10)
                p -= mom
            elif key == "adam":
                b2 = c(0.999)
                m = s["m"] = mu * s.get("m", 0.0) + (1 - mu) * g
                v = s["v"] = b2 * s.get("v", 0.0) + (1 - b2) * g * g
                lr_t = lr * np.sqrt(1 - float(b2p)) / (1 - float(b1p))
                p -= lr_t * m / (np.sqrt(v) + c(1e-8))
            elif key == "adadelta":
                rho, eps = c(0.95), c(1e-8)
                acc = s["acc"] = rho * s.get("acc", 0.0) + (1 - rho) * g * g
                upd = np.sqrt(s.get("upd", 0.0) + eps) / np.sqrt(acc + eps) * g
                p -= 1.0 * upd
                s["upd"] = rho * s.get("upd", 0.0) + (1 - rho) * upd * upd
        b1p, b2p = b1p * np.float32(0.9), b2p * np.float32(0.999)
    return params["w"], params["b"]


@pytest.mark.parametrize("key", sorted(OPTIMIZERS))
def test_float64_matches_numpy_over_several_steps(key):
    w, b, x, loss = _dense_model(tf.float64)
    opt = OPTIMIZERS[key]()
    train = opt.minimize(loss)
    assert train.type == "NoOp" and train.name == opt.get_name()
    for slot_name in opt.get_slot_names():
        assert opt.get_slot(w, slot_name).dtype == tf.float64_ref
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(5):
            sess.run(train)
        want_w, want_b = _numpy_reference(key, np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([0.5, -0.5]),
                                          np.array([[1.0, -1.0], [2.0, 0.5]]), 5)
        got_w, got_b = sess.run([w, b])
        assert got_w.dtype == np.float64
        np.testing.assert_allclose(got_w, want_w, rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(got_b, want_b, rtol=1e-9, atol=1e-12)


# -- sparse gradients (tf.gather of a variable) ------------------------------------------------

SPARSE_OPTIMIZERS = {
    "gd": lambda: tf.train.GradientDescentOptimizer(0.1),
    "mom": lambda: tf.train.MomentumOptimizer(0.1, 0.9),
    "adagrad": lambda: tf.train.AdagradOptimizer(0.1),
    "rms": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5),
    "rmsc": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5, centered=True),
    "adam": lambda: tf.train.AdamOptimizer(0.1),
    "adadelta": lambda: tf.train.AdadeltaOptimizer(1.0),
}

# Recorded from TF: w (and slots) after 2 steps on sum(gather(w, [2, 0, 2])^2 * [[1], [2], [3]]).
SPARSE_AFTER_2_STEPS = {
    'gd': {
        'w': [[0.0, 0.035999998450279236, 0.07199999690055847], [0.30000001192092896, 0.4000000059604645, 0.5], [0.023999996483325958, 0.02799999713897705, 0.031999990344047546], [0.8999999761581421, 1.0, 1.100000023841858]],  # noqa: E501
    },
    'mom': {
        'w': [[0.0, 0.0, 0.0], [0.30000001192092896, 0.4000000059604645, 0.5], [-0.40800005197525024, -0.47600001096725464, -0.543999969959259], [0.8999999761581421, 1.0, 1.100000023841858]],  # noqa: E501
        'momentum': [[0.0, 0.5999999642372131, 1.1999999284744263], [0.0, 0.0, 0.0], [5.28000020980835, 6.159999847412109, 7.039999485015869], [0.0, 0.0, 0.0]],  # noqa: E501
    },
    'adagrad': {
        'w': [[0.0, 0.004882175475358963, 0.06245619058609009], [0.30000001192092896, 0.4000000059604645, 0.5], [0.43626341223716736, 0.5351296663284302, 0.6343104243278503], [0.8999999761581421, 1.0, 1.100000023841858]],  # noqa: E501
        'accumulator': [[0.10000000149011612, 0.26743289828300476, 0.9231905341148376], [0.10000000149011612, 0.10000000149011612, 0.10000000149011612], [39.15385437011719, 54.51221466064453, 72.43092346191406], [0.10000000149011612, 0.10000000149011612, 0.10000000149011612]],  # noqa: E501
    },
    'rmsc': {
        'w': [[0.0, 0.08952753990888596, 0.17966866493225098], [0.30000001192092896, 0.4000000059604645, 0.5], [0.5358774662017822, 0.6334277391433716, 0.7316698431968689], [0.8999999761581421, 1.0, 1.100000023841858]],  # noqa: E501
        'mg': [[0.0, 0.07432679831981659, 0.14872995018959045], [0.0, 0.0, 0.0], [0.889731764793396, 1.0407800674438477, 1.1920928955078125], [0.0, 0.0, 0.0]],  # noqa: E501
        'momentum': [[0.0, 0.006289425306022167, 0.01215614564716816], [0.0, 0.0, 0.0], [0.036287009716033936, 0.037546999752521515, 0.038445837795734406], [0.0, 0.0, 0.0]],  # noqa: E501
        'rms': [[0.809999942779541, 0.8390894532203674, 0.9264748096466064], [1.0, 1.0, 1.0], [4.978782653808594, 6.513726234436035, 8.292101860046387], [1.0, 1.0, 1.0]],  # noqa: E501
    },
    'rms': {
        'w': [[0.0, 0.08954671025276184, 0.17980527877807617], [0.30000001192092896, 0.4000000059604645, 0.5], [0.539240837097168, 0.6371356248855591, 0.7356364130973816], [0.8999999761581421, 1.0, 1.100000023841858]],  # noqa: E501
        'momentum': [[0.0, 0.006273912265896797, 0.012046707794070244], [0.0, 0.0, 0.0], [0.03394312411546707, 0.03498954698443413, 0.03573045879602432], [0.0, 0.0, 0.0]],  # noqa: E501
        'rms': [[0.809999942779541, 0.8390905857086182, 0.9264914989471436], [1.0, 1.0, 1.0], [4.986255645751953, 6.523615837097168, 8.304445266723633], [1.0, 1.0, 1.0]],  # noqa: E501
    },
    'adam': {
        'w': [[0.0, -0.06700552999973297, 0.006782405078411102], [0.30000001192092896, 0.4000000059604645, 0.5], [0.4008830487728119, 0.500694751739502, 0.6005686521530151], [0.8999999761581421, 1.0, 1.100000023841858]],  # noqa: E501
        'm': [[0.0, 0.03600004315376282, 0.11200004816055298], [0.0, 0.0, 0.0], [0.832000195980072, 0.9840002059936523, 1.136000394821167], [0.0, 0.0, 0.0]],  # noqa: E501
        'v': [[0.0, 0.00015983794583007693, 0.0007993498584255576], [0.0, 0.0, 0.0], [0.03901645913720131, 0.05436793714761734, 0.07227811217308044], [0.0, 0.0, 0.0]],  # noqa: E501
    },
    'adadelta': {
        'w': [[0.0, 0.09910086542367935, 0.19910037517547607], [0.30000001192092896, 0.4000000059604645, 0.5], [0.5991000533103943, 0.6991000175476074, 0.7990999817848206], [0.8999999761581421, 1.0, 1.100000023841858]],  # noqa: E501
        'accum': [[0.0, 0.015528609976172447, 0.0622570663690567], [0.0, 0.0, 0.0], [2.2446839809417725, 3.0555977821350098, 3.991312026977539], [0.0, 0.0, 0.0]],  # noqa: E501
        'accum_update': [[0.0, 1.9711588805648717e-08, 1.97340312979577e-08], [0.0, 0.0, 0.0], [1.974895980083602e-08, 1.975002028586914e-08, 1.975082497551739e-08], [0.0, 0.0, 0.0]],  # noqa: E501
    },
}

# Recorded from TF: the sparse update op for w (after Unique + UnsortedSegmentSum dedup).
SPARSE_UPDATE_OP = {"gd": "GradientDescent/update_w/ScatterSub", "mom": "Momentum/update_w/SparseApplyMomentum",
                    "adagrad": "Adagrad/update_w/SparseApplyAdagrad", "rms": "RMSProp/update_w/SparseApplyRMSProp",
                    "rmsc": "RMSProp/update_w/SparseApplyCenteredRMSProp", "adam": "Adam/update_w/group_deps",
                    "adadelta": "Adadelta/update_w/SparseApplyAdadelta"}


@pytest.mark.parametrize("key", sorted(SPARSE_OPTIMIZERS))
def test_sparse_gather_gradient_matches_tensorflow(key):
    w0 = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    w = tf.Variable(w0, name="w")
    # Index 2 appears twice: the optimizer sums duplicate rows first (TF's _deduplicate_indexed_slices).
    loss = tf.reduce_sum(tf.square(tf.gather(w, tf.constant([2, 0, 2]))) * tf.constant([[1.0], [2.0], [3.0]]))
    opt = SPARSE_OPTIMIZERS[key]()
    (grad, var), = opt.compute_gradients(loss)
    assert isinstance(grad, tf.IndexedSlices) and var is w
    train = opt.apply_gradients([(grad, var)])
    assert train.type == "NoOp" and train.name == opt.get_name()
    tf.get_default_graph().get_operation_by_name(SPARSE_UPDATE_OP[key])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        slots0 = {n: sess.run(opt.get_slot(w, n)) for n in opt.get_slot_names()}
        for _ in range(2):
            sess.run(train)
        want = SPARSE_AFTER_2_STEPS[key]
        got_w = sess.run(w)
        np.testing.assert_allclose(got_w, want["w"], rtol=2e-6, atol=1e-7)
        for n in opt.get_slot_names():
            np.testing.assert_allclose(sess.run(opt.get_slot(w, n)), want[n], rtol=2e-6, atol=1e-12)
        # Rows 1 and 3 were never gathered: bit-identical, slots included.
        assert np.array_equal(got_w[[1, 3]], w0[[1, 3]])
        if key != "adam":  # TF1's Adam decays m and v everywhere (its sparse path is dense on slots)
            for n in opt.get_slot_names():
                assert np.array_equal(sess.run(opt.get_slot(w, n))[[1, 3]], slots0[n][[1, 3]])


def test_sparse_gradient_descent_with_duplicates_accumulates():
    w = tf.Variable(np.zeros((3, 2), np.float32), name="w")
    loss = tf.reduce_sum(tf.gather(w, [1, 1, 1, 0]))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), [[-0.5, -0.5], [-1.5, -1.5], [0.0, 0.0]])


# -- in-place updates and state ----------------------------------------------------------------

@pytest.mark.parametrize("key", ["gd", "mom", "adam", "rmsc", "adagrad"])
def test_updates_are_in_place(key):
    w, b, _, loss = _dense_model()
    opt = OPTIMIZERS[key]()
    train = opt.minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = ["w", "b"] + [opt.get_slot(w, n).op.name for n in opt.get_slot_names()]
        cells = [sess._resources.lookup("variable", n) for n in names]
        before = [(c.value, c.value.__array_interface__["data"][0]) for c in cells]
        for _ in range(3):
            sess.run(train)
        after = [(c.value, c.value.__array_interface__["data"][0]) for c in cells]
        for (a0, p0), (a1, p1) in zip(before, after):
            assert a0 is a1 and p0 == p1


def test_failing_step_leaves_variables_untouched():
    x = tf.placeholder(tf.float32, [None, None])
    w = tf.Variable([[1.0], [2.0]], name="w")
    b = tf.Variable([0.5], name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b))
    gs = tf.train.get_or_create_global_step()
    opt = tf.train.AdamOptimizer(0.1)
    train = opt.minimize(loss, global_step=gs)
    bad_grad = tf.placeholder(tf.float32)
    mopt = tf.train.MomentumOptimizer(0.1, 0.9)
    bad_train = mopt.apply_gradients([(bad_grad, b)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, {x: [[1.0, 2.0]]})
        snapshot = sess.run(tf.global_variables())
        with pytest.raises(errors.InvalidArgumentError):
            sess.run(train, {x: [[1.0, 2.0, 3.0]]})  # bad feed shape into the gradient
        with pytest.raises(errors.InvalidArgumentError, match=r"var and grad do not have the same shape\[1\] \[3\]"):
            sess.run(bad_train, {bad_grad: [1.0, 2.0, 3.0]})
        for before, now in zip(snapshot, sess.run(tf.global_variables())):
            np.testing.assert_array_equal(before, now)
        assert tf.train.global_step(sess, gs) == 1


def test_global_step_is_incremented_after_updates():
    w, b, _, loss = _dense_model()
    gs = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    # Recorded from TF: AssignAdd(global_step, GradientDescent/value), value gated on GradientDescent/update.
    assert [t.name for t in train.inputs] == ["global_step:0", "GradientDescent/value:0"]
    value = train.inputs[1].op
    assert [c.name for c in value.control_inputs] == ["GradientDescent/update"]
    assert train.get_attr("T") == tf.int64
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(4):
            sess.run(train)
        assert sess.run(gs) == 4


def test_minimize_names_and_train_op_collection():
    w = tf.Variable(1.0, name="w")
    t1 = tf.train.AdamOptimizer().minimize(w * w)
    t2 = tf.train.GradientDescentOptimizer(0.1).minimize(w * w, name="train")
    # Recorded from TF.
    assert (t1.name, t1.type) == ("Adam", "NoOp")
    assert sorted(c.name for c in t1.control_inputs) == ["Adam/Assign", "Adam/Assign_1", "Adam/update_w/ApplyAdam"]
    assert (t2.name, t2.type) == ("train", "NoOp")
    assert [c.name for c in t2.control_inputs] == ["train/update_w/ApplyGradientDescent"]
    assert tf.get_collection(tf.GraphKeys.TRAIN_OP) == [t1, t2]
    with tf.name_scope("outer"):
        opt = tf.train.MomentumOptimizer(0.1, 0.9)
        t3 = opt.minimize(w * w)
    assert t3.name == "outer/Momentum"
    assert opt.get_slot(w, "momentum").name == "w/Momentum:0"  # slots ignore name scopes
    opt2 = tf.train.MomentumOptimizer(0.1, 0.9)
    opt2.minimize(w * w)
    assert opt2.get_slot(w, "momentum").name == "w/Momentum_1:0"


def test_optimizer_errors():
    w = tf.Variable(1.0, name="w")
    v2 = tf.Variable(2.0, name="v2")
    c = tf.constant(1.0) * 2.0
    # Messages recorded from TF.
    with pytest.raises(ValueError, match=r"No gradients provided for any variable, check your graph for ops that "
                                         r"do not support gradients, between variables \[\"<tf.Variable 'w:0' "
                                         r"shape=\(\) dtype=float32_ref>\", \"<tf.Variable 'v2:0'"):
        tf.train.GradientDescentOptimizer(0.1).minimize(c, var_list=[w, v2])
    with pytest.raises(ValueError, match="No variables provided."):
        tf.train.GradientDescentOptimizer(0.1).apply_gradients([])
    with pytest.raises(ValueError, match=r"No gradients provided for any variable: \[\"<tf.Variable 'w:0' "
                                         r"shape=\(\) dtype=float32_ref>\"\]\."):
        tf.train.GradientDescentOptimizer(0.1).apply_gradients([(None, w)])
    with pytest.raises(ValueError, match="No variables to optimize."):
        tf.train.GradientDescentOptimizer(0.1).compute_gradients(c, var_list=[])
    with pytest.raises(ValueError, match="Must specify the optimizer name"):
        tf.train.Optimizer(False, "")
    with pytest.raises(ValueError, match="initial_accumulator_value must be positive: 0.0"):
        tf.train.AdagradOptimizer(0.1, initial_accumulator_value=0.0)
    with pytest.raises(TypeError, match="Input 'delta' of 'ApplyGradientDescent' Op has type string that does not "
                                        "match type float32 of argument 'var'."):
        tf.train.GradientDescentOptimizer(0.1).apply_gradients([("x", w)])
    with pytest.raises(ValueError, match="gate_gradients must be one of"):
        tf.train.GradientDescentOptimizer(0.1).compute_gradients(w * w, gate_gradients=7)
    opt = tf.train.GradientDescentOptimizer(0.1)
    assert (opt.GATE_NONE, opt.GATE_OP, opt.GATE_GRAPH) == (0, 1, 2)
    assert opt.get_slot(w, "x") is None and opt.get_slot_names() == []
    # A Python float gradient is converted to a tensor.
    opt.apply_gradients([(1.0, w), (None, v2)])


def test_compute_gradients_var_list_and_gating():
    w = tf.Variable([1.0, 2.0], name="w")
    u = tf.Variable([3.0], name="u")
    frozen = tf.Variable(5.0, name="frozen", trainable=False)
    loss = tf.reduce_sum(w * w) + tf.reduce_sum(u) * frozen
    opt = tf.train.GradientDescentOptimizer(0.1)
    gv = opt.compute_gradients(loss)
    assert [v for _, v in gv] == [w, u]
    gv = opt.compute_gradients(loss, var_list=[u], gate_gradients=tf.train.Optimizer.GATE_GRAPH)
    assert [v for _, v in gv] == [u]
    gv = opt.compute_gradients(loss, var_list=[w], grad_loss=tf.constant(2.0))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(gv[0][0]), [4.0, 8.0])


def test_subclass_hooks_and_tensor_learning_rate():
    class ScaledSGD(tf.train.Optimizer):
        def __init__(self, lr):
            super().__init__(False, "ScaledSGD")
            self._lr = lr

        def _create_slots(self, var_list):
            for v in var_list:
                self._zeros_slot(v, "last", self._name)

        def _prepare(self):
            self._lr_t = tf.convert_to_tensor(self._lr, name="lr")

        def _apply_dense(self, grad, var):
            last = self.get_slot(var, "last")
            return tf.group(tf.assign(last, grad), tf.assign_sub(var, self._lr_t * grad))

    w = tf.Variable([1.0, -1.0], name="w")
    opt = ScaledSGD(0.25)
    train = opt.minimize(tf.reduce_sum(w * w))
    assert opt.get_slot(w, "last").name == "w/ScaledSGD:0"
    lr = tf.placeholder(tf.float32, [])
    w2 = tf.Variable([2.0], name="w2")
    train2 = tf.train.MomentumOptimizer(lr, 0.0).minimize(tf.reduce_sum(3.0 * w2), var_list=[w2])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        np.testing.assert_allclose(sess.run(w), [0.5, -0.5])
        np.testing.assert_allclose(sess.run(opt.get_slot(w, "last")), [2.0, -2.0])
        sess.run(train2, {lr: 0.5})
        np.testing.assert_allclose(sess.run(w2), [0.5])


def test_decayed_learning_rate_drives_the_optimizer():
    w = tf.Variable(0.0, name="w")
    gs = tf.train.get_or_create_global_step()
    lr = tf.train.exponential_decay(1.0, gs, 1, 0.5)
    train = tf.train.GradientDescentOptimizer(lr).minimize(-w, global_step=gs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(train)
        np.testing.assert_allclose(sess.run(w), 1.0 + 0.5 + 0.25)


# -- end to end --------------------------------------------------------------------------------

E2E = {
    "gd": (lambda: tf.train.GradientDescentOptimizer(0.1), 1e-3),
    "mom": (lambda: tf.train.MomentumOptimizer(0.05, 0.9), 1e-3),
    "nest": (lambda: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True), 1e-3),
    "adagrad": (lambda: tf.train.AdagradOptimizer(0.5), 1e-3),
    "rms": (lambda: tf.train.RMSPropOptimizer(0.02), 2e-3),
    "rmsc": (lambda: tf.train.RMSPropOptimizer(0.02, momentum=0.5, centered=True), 2e-3),
    "adam": (lambda: tf.train.AdamOptimizer(0.1), 1e-3),
    "adadelta": (lambda: tf.train.AdadeltaOptimizer(1.0, rho=0.9, epsilon=1e-3), 0.05),
}


@pytest.mark.parametrize("key", sorted(E2E))
def test_linear_regression_converges(key):
    rng = np.random.RandomState(42)
    X = rng.randn(64, 3).astype(np.float32)
    Y = (X @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3 + 0.01 * rng.randn(64, 1)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.placeholder(tf.float32, [None, 1])
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    b = tf.Variable(0.0, name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    make, target = E2E[key]
    train = make().minimize(loss, global_step=tf.train.get_or_create_global_step())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        start = sess.run(loss, {x: X, y: Y})
        for _ in range(200):
            sess.run(train, {x: X, y: Y})
        final = sess.run(loss, {x: X, y: Y})
    assert start > 4.0
    assert final < target, (key, final)  # noise floor is ~1e-4


def test_sparse_embedding_logistic_regression_converges():
    rng = np.random.RandomState(0)
    ids = rng.randint(0, 20, size=256).astype(np.int32)
    labels = (ids % 2).astype(np.float32)
    x = tf.placeholder(tf.int32, [None])
    y = tf.placeholder(tf.float32, [None])
    emb = tf.Variable(np.zeros((20, 1), np.float32), name="emb")
    logits = tf.reshape(tf.gather(emb, x), [-1])
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))
    train = tf.train.AdagradOptimizer(5.0).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(50):
            sess.run(train, {x: ids, y: labels})
        assert sess.run(loss, {x: ids, y: labels}) < 0.1
