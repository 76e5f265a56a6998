"""State ops: assign, assign_add/sub, scatter*, scatter_nd*, count_up_to, is_variable_initialized.

Values against NumPy; names, messages and error classes recorded from TensorFlow 2.21
(tf.compat.v1, RefVariable). Updates must happen in place and failed updates change nothing."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import errors


def _session_with(v_init, name="v", dtype=None):
    v = tf.Variable(np.array(v_init, dtype=dtype or np.float32), name=name)
    sess = tf.Session()
    sess.run(v.initializer)
    return v, sess


def _cell(sess, name):
    return sess._resources.variable(name)


def test_op_names_and_types():
    v = tf.Variable([1.0, 2.0], name="v")
    # recorded from TF
    assert tf.assign(v, [1.0, 2.0]).name == "Assign:0"
    assert tf.assign(v, [1.0, 2.0]).op.get_attr("use_locking") is True
    assert tf.assign_add(v, [1.0, 2.0]).name == "AssignAdd:0"
    assert tf.assign_sub(v, [1.0, 2.0]).name == "AssignSub:0"
    g = tf.scatter_update(v, [0], [5.0])
    assert (g.name, g.dtype) == ("ScatterUpdate:0", tf.float32_ref)
    assert [tf.scatter_add(v, [0], [1.0]).name, tf.scatter_sub(v, [0], [1.0]).name,
            tf.scatter_mul(v, [0], [1.0]).name, tf.scatter_div(v, [0], [1.0]).name] == \
        ["ScatterAdd:0", "ScatterSub:0", "ScatterMul:0", "ScatterDiv:0"]
    assert [tf.scatter_nd_update(v, [[0]], [1.0]).name, tf.scatter_nd_add(v, [[0]], [1.0]).name,
            tf.scatter_nd_sub(v, [[0]], [1.0]).name] == ["ScatterNdUpdate:0", "ScatterNdAdd:0",
                                                           "ScatterNdSub:0"]
    iv = tf.is_variable_initialized(v)
    assert (iv.name, iv.dtype, iv.shape.ndims) == ("IsVariableInitialized:0", tf.bool, 0)
    assert tf.assign(v, [1.0, 2.0]).op.colocation_groups() == [b"loc:@v"]


def test_build_time_errors():
    v = tf.Variable([1.0, 2.0], name="v")
    with pytest.raises(ValueError, match=r"Dimension 0 in both shapes must be equal, but are 2 and 3. "
                                         r"Shapes are \[2\] and \[3\]."):
        tf.assign(v, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal"):
        tf.assign_add(v, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        tf.scatter_update(v, [0], [1.0, 2.0])
    with pytest.raises(TypeError, match="Input 'value' of 'Assign' Op has type int32 that does not match "
                                        "type float32 of argument 'ref'."):
        tf.assign(v, tf.constant([1, 2]))
    # a non-reference first argument: TF 2.21's tf.assign & co. raise AttributeError naming the
    # resource-variable method they looked for (messages recorded from TF)
    for fn, attr in ((lambda: tf.assign(tf.constant([1.0]), [2.0]), "assign"),
                     (lambda: tf.assign_add(tf.constant([1.0]), [1.0]), "assign_add"),
                     (lambda: tf.scatter_update(tf.constant([1.0]), [0], [1.0]), "_lazy_read"),
                     (lambda: tf.count_up_to(tf.constant(1), 3), "handle"),
                     (lambda: tf.is_variable_initialized(tf.constant(1)), "is_initialized")):
        with pytest.raises(AttributeError) as info:
            fn()
        assert type(info.value) is AttributeError
        assert str(info.value) == f"'SymbolicTensor' object has no attribute '{attr}'"
    assert tf.assign(v, [1.0, 2.0, 3.0], validate_shape=False).shape.as_list() == [3]


def test_assign_in_place_and_copy():
    v, sess = _session_with([1.0, 2.0])
    cell = _cell(sess, "v")
    arr = cell.value
    p = tf.placeholder(tf.float32, [2])
    fed = np.array([5.0, 6.0], np.float32)
    np.testing.assert_array_equal(sess.run(tf.assign(v, p), {p: fed}), [5.0, 6.0])
    assert cell.value is arr  # written in place
    fed[0] = 100.0  # the variable does not alias the fed array
    np.testing.assert_array_equal(sess.run(v), [5.0, 6.0])
    sess.run(tf.assign_add(v, [1.0, 1.0]))
    sess.run(tf.assign_sub(v, [0.5, 0.5]))
    assert cell.value is arr
    np.testing.assert_array_equal(sess.run(v), [5.5, 6.5])
    sess.close()


def test_assign_shape_validation_at_runtime():
    v, sess = _session_with([1.0, 2.0])
    p = tf.placeholder(tf.float32)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Assign requires shapes of both tensors to match. lhs shape= \[2\] rhs shape= \[3\]"):
        sess.run(tf.assign(v, p), {p: [1.0, 2.0, 3.0]})
    np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])
    np.testing.assert_array_equal(sess.run(tf.assign(v, p, validate_shape=False), {p: [1.0, 2.0, 3.0]}),
                                  [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0])
    with pytest.raises(errors.InvalidArgumentError, match="Parameters and update must be the same size"):
        sess.run(tf.assign_add(v, p), {p: [1.0, 1.0]})
    np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0])
    sess.close()


def test_updates_on_uninitialized_variable():
    v = tf.Variable([1.0, 2.0], name="v")
    with tf.Session() as sess:
        with pytest.raises(errors.FailedPreconditionError, match="Attempting to use uninitialized value v"):
            sess.run(tf.assign_add(v, [1.0, 1.0]))
        with pytest.raises(errors.FailedPreconditionError, match="Attempting to use uninitialized value v"):
            sess.run(tf.scatter_add(v, [0], [1.0]))
        np.testing.assert_array_equal(sess.run(tf.assign(v, [3.0, 4.0])), [3.0, 4.0])


@pytest.mark.parametrize("fn,ufunc", [(tf.scatter_add, np.add), (tf.scatter_sub, np.subtract),
                                      (tf.scatter_mul, np.multiply), (tf.scatter_div, np.divide),
                                      (tf.scatter_max, np.maximum), (tf.scatter_min, np.minimum)])
def test_scatter_accumulates_against_numpy(fn, ufunc):
    rng = np.random.RandomState(0)
    init = rng.uniform(1, 2, (5, 3)).astype(np.float32)
    idx = np.array([0, 2, 0, 4], np.int32)  # 0 repeats
    upd = rng.uniform(1, 2, (4, 3)).astype(np.float32)
    v, sess = _session_with(init)
    arr = _cell(sess, "v").value
    got = sess.run(fn(v, idx, upd))
    want = init.copy()
    ufunc.at(want, idx, upd)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    assert _cell(sess, "v").value is arr
    sess.close()


def test_scatter_update_and_scalar_updates():
    v, sess = _session_with(np.zeros((4, 2)))
    np.testing.assert_array_equal(sess.run(tf.scatter_update(v, [[1], [3]], [[[1.0, 2.0]], [[3.0, 4.0]]])),
                                  [[0, 0], [1, 2], [0, 0], [3, 4]])
    np.testing.assert_array_equal(sess.run(tf.scatter_add(v, [0, 0], 1.0)), [[2, 2], [1, 2], [0, 0], [3, 4]])
    v2, sess2 = _session_with([1.0, 2.0], name="v2")
    np.testing.assert_array_equal(sess2.run(tf.scatter_update(v2, [0, 0], [1.0, 2.0])), [2.0, 2.0])
    sess.close()
    sess2.close()


def test_scatter_int_div_truncates():
    v, sess = _session_with([7, -7, 9], dtype=np.int32)
    np.testing.assert_array_equal(sess.run(tf.scatter_div(v, [0, 1], [2, 2])), [3, -3, 9])
    sess.close()


def test_scatter_bad_indices_change_nothing():
    v, sess = _session_with([1.0, 2.0])
    before = sess.run(v)
    # messages recorded from TF
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[1\] = 7 is not in \[0, 2\)"):
        sess.run(tf.scatter_update(v, [1, 7], [1.0, 2.0]))
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[1,0\] = 7 is not in \[0, 2\)"):
        sess.run(tf.scatter_add(v, [[1], [7]], [[1.0], [2.0]]))
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in \[0, 2\)"):
        sess.run(tf.scatter_update(v, [-1], [1.0]))
    with pytest.raises(errors.InvalidArgumentError, match=r"indices\[1\] = \[7\] does not index into shape \[2\]"):
        sess.run(tf.scatter_nd_update(v, [[1], [7]], [1.0, 2.0]))
    p = tf.placeholder(tf.float32)
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"Must have updates.shape = indices.shape \+ params.shape\[1:\] or updates.shape = \[\], "
                             r"got updates.shape \[3\], indices.shape \[1\], params.shape \[2\]"):
        sess.run(tf.scatter_update(v, [0], p), {p: [1.0, 2.0, 3.0]})
    np.testing.assert_array_equal(sess.run(v), before)
    sess.close()


def test_scatter_nd():
    init = np.arange(12, dtype=np.float32).reshape(3, 4)
    v, sess = _session_with(init)
    arr = _cell(sess, "v").value
    np.testing.assert_array_equal(sess.run(tf.scatter_nd_update(v, [[0, 1], [2, 3]], [10.0, 20.0]))[[0, 2], [1, 3]],
                                  [10.0, 20.0])
    got = sess.run(tf.scatter_nd_add(v, [[1], [1]], np.ones((2, 4), np.float32)))
    np.testing.assert_array_equal(got[1], init[1] + 2)
    got = sess.run(tf.scatter_nd_sub(v, [[1, 0]], [5.0]))
    assert got[1, 0] == init[1, 0] + 2 - 5
    assert _cell(sess, "v").value is arr
    sess.close()


def test_count_up_to():
    c = tf.Variable(0, name="cnt")
    cu = tf.count_up_to(c, 3)
    assert (cu.name, cu.dtype) == ("CountUpTo:0", tf.int32)  # recorded from TF
    with tf.Session() as sess:
        sess.run(c.initializer)
        assert sess.run([cu, cu]) == [0, 0]  # one run of the op per step
        assert sess.run(cu) == 1
        assert sess.run(cu) == 2
        with pytest.raises(errors.OutOfRangeError, match="Reached limit of 3"):
            sess.run(cu)
        assert sess.run(c) == 3
    with pytest.raises(TypeError):
        tf.count_up_to(tf.Variable(1.0), 3)


def test_assign_output_chains():
    v, sess = _session_with([1.0, 2.0])
    a = tf.assign_add(v, [1.0, 1.0])
    b = tf.assign_add(a, [1.0, 1.0])  # an update's output is the reference again
    np.testing.assert_array_equal(sess.run(b), [3.0, 4.0])
    sess.close()


def test_update_ops_convert_values_inside_their_own_scope():
    # Recorded from TensorFlow 2.21: Python values become "<Op>/value" etc., and later names
    # (a summary called "value") are not shifted.
    v = tf.Variable(1.0, name="v")
    s = tf.Variable([1.0, 2.0], name="s")
    tf.assign_add(v, 2.0)
    tf.assign(v, 3.0)
    v.assign_sub(1.0)
    tf.scatter_update(s, [0], [9.0])
    names = [o.name for o in tf.get_default_graph().get_operations()
             if not o.name.startswith(("v/", "s/")) and o.name not in ("v", "s")]
    assert names == ["AssignAdd/value", "AssignAdd", "Assign/value", "Assign", "AssignSub/value", "AssignSub",
                     "ScatterUpdate/indices", "ScatterUpdate/updates", "ScatterUpdate"]
