"""TF1 programs with control flow and functional ops against TF: tf.group/tf.tuple inside a cond
branch over outer tensors, group's keyword error, None in a branch's result, map_fn/scan/foldl/
foldr built as TF's (loop variables, maximum_iterations, TensorArray element shapes, structure
checks with sequence types, the static leading-dimension check, a scalar's IndexError) and the
names fn sees inside them, TensorArray's build-time rank checks and run-time messages, and
gradients through while_loop/cond/map_fn/scan/fold (bit-exact); expected values recorded from TF
2.21 (tensorflow.compat.v1, v2 behaviour disabled).

Second derivatives through loops and TensorArrays: TF 2.21 raises "Second-order gradient for
while loops not supported." (or fails at run time with "Wrong input container" for a TensorArray,
or returns None where only the loop history connects them); tensorweave computes them, and
those tests check the analytic values instead."""

import numpy as np
import pytest

import tensorweave as tf
from tests._session_helpers import run


# -- group / tuple / cond --------------------------------------------------------------------

def test_tuple_and_group_in_a_cond_branch_over_outer_tensors():
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        r = tf.cond(tf.constant(True), lambda: tf.tuple([x, x * 2]), lambda: [x, x])
        assert [t.name for t in r] == ["cond/Merge:0", "cond/Merge_1:0"]
        assert run(r) == [1.0, 2.0]
        r = tf.cond(tf.constant(True), lambda: tf.group(x, x + 1), lambda: tf.no_op())
        assert run(r) == True  # noqa: E712


def test_group_unknown_keyword_is_a_value_error():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="^Unknown keyword arguments: bogus$"):
            tf.group(tf.constant(1), bogus=1)


def test_cond_branch_returning_none_in_a_tuple():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^None values not supported\.$"):
            tf.cond(tf.constant(True), lambda: (tf.constant(1), None), lambda: (tf.constant(2), None))


# -- map_fn / scan / fold -------------------------------------------------------------------

def test_map_fn_argument_checks():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.map_fn(lambda x: x, [])
        assert str(e.value) == ("elems must be a Tensor or (possibly nested) sequence of Tensors. "
                                "Got [], which does not contain any Tensors.")
        with pytest.raises(ValueError, match="^Dimensions 2 and 3 are not compatible$"):
            tf.map_fn(lambda x: x, (tf.constant([1, 2]), tf.constant([1, 2, 3])))
        with pytest.raises(ValueError, match="^Dimensions 2 and 3 are not compatible$"):
            tf.scan(lambda a, x: a + x[0], (tf.constant([1, 2]), tf.constant([1, 2, 3])), initializer=0)


def test_map_fn_and_scan_check_structures_with_sequence_types():
    with tf.Graph().as_default():
        c = tf.constant([1, 2])
        with pytest.raises(TypeError, match="same nested structure"):
            tf.map_fn(lambda x: [x, -x], c, dtype=(tf.int32, tf.int32))
        with pytest.raises(TypeError, match="same nested structure"):
            tf.map_fn(lambda x: (x[0], x[1]), [c, c])
        with pytest.raises(ValueError, match="same nested structure"):
            tf.map_fn(lambda x: x, tf.constant([[1], [2]]), dtype=[tf.int32])
        r = tf.map_fn(lambda x: [x], tf.constant([[1], [2]]), dtype=[tf.int32])
        assert isinstance(r, list) and r[0].shape.as_list() == [2, 1]
        with pytest.raises(TypeError, match="same nested structure"):
            tf.scan(lambda a, x: [a[0] + x, a[1]], c, initializer=(tf.constant(0), tf.constant(1)))
        with pytest.raises(TypeError, match="same nested structure"):
            tf.scan(lambda a, x: (a[0] + x[0], a[1] + x[1]), [c, c])
        with pytest.raises(TypeError, match="same nested structure"):
            tf.foldl(lambda a, x: (a[0] + x, a[1]), c, initializer=[tf.constant(0), tf.constant(1)])
        r = tf.foldl(lambda a, x: [a[0] + x, a[1]], c, initializer=[tf.constant(0), tf.constant(1)])
        assert [t.name for t in r] == ["foldl_1/while/Exit_2:0", "foldl_1/while/Exit_3:0"]
        assert run(r) == [3, 1]


def test_scan_and_fold_of_scalars_are_index_errors():
    with tf.Graph().as_default():
        for f in (tf.scan, tf.foldl):
            with pytest.raises(IndexError, match="list index out of range"):
                f(lambda a, x: a + x, tf.constant(1))
        with pytest.raises(IndexError):
            tf.foldr(lambda a, x: a + x, [1, 2, 3])


def test_scan_accumulator_keeps_the_initializer_shape():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.scan(lambda a, x: tf.concat([a, [x]], 0), tf.constant([1, 2]), initializer=tf.constant([0]))
        assert str(e.value) == "Inconsistent shapes: saw (2,) but expected (1,) "


def test_names_fn_sees_inside_scan_and_fold():
    seen = []

    def fn(a, x):
        y = a + x
        seen.append((a.name, x.name, y.name))
        return y
    with tf.Graph().as_default():
        m = tf.constant([[1., 2.], [3., 4.]])
        s = tf.scan(fn, m)
        f = tf.foldl(fn, m)
        r = tf.scan(fn, m, reverse=True, initializer=tf.zeros([2]))
        fr = tf.foldr(fn, tf.constant([1., 2.]), initializer=tf.constant(0.))
        assert seen == [
            ("scan/while/Identity_2:0", "scan/while/TensorArrayReadV3:0", "scan/while/add_1:0"),
            ("foldl/while/Identity_2:0", "foldl/while/TensorArrayReadV3:0", "foldl/while/add_1:0"),
            ("scan_1/while/Identity_2:0", "scan_1/while/TensorArrayReadV3:0", "scan_1/while/add_1:0"),
            ("foldr/while/Identity_2:0", "foldr/while/TensorArrayReadV3:0", "foldr/while/add_1:0")]
        assert s.name == "scan/TensorArrayStack/TensorArrayGatherV3:0" and f.name == "foldl/while/Exit_2:0"
        np.testing.assert_array_equal(run(s), [[1., 2.], [4., 6.]])
        np.testing.assert_array_equal(run(r), [[4., 6.], [3., 4.]])
        assert run(f).tolist() == [4., 6.] and run(fr) == 3.


# -- TensorArray -------------------------------------------------------------------------------

def _run_error_text(t):
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(t)
    return str(e.value)


def test_tensor_array_build_time_rank_checks():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=2).write(0, [1., 2.]).write(1, [3., 4.])
        cases = [(lambda: ta.read([0]), "Shape must be rank 0 but is rank 1"),
                 (lambda: ta.gather([[1, 0]]), "Shape must be rank 1 but is rank 2"),
                 (lambda: tf.TensorArray(tf.float32, size=2).write([0], 1.),
                  "Shape must be rank 0 but is rank 1"),
                 (lambda: tf.TensorArray(tf.float32, size=2).scatter([0, 1], [1., 2., 3.]),
                  "Dimensions must be equal, but are 3 and 2"),
                 (lambda: tf.TensorArray(tf.float32, size=2).scatter([0, 1], 1.0),
                  "Shape must be at least rank 1 but is rank 0"),
                 (lambda: tf.TensorArray(tf.float32, size=2).split([1., 2., 3.], [[1, 2]]),
                  "Shape must be rank 1 but is rank 2"),
                 (lambda: tf.TensorArray(tf.float32, size=[2]),
                  "Shape must be rank 0 but is rank 1")]
        for build, msg in cases:
            with pytest.raises(ValueError) as e:
                build()
            # (TF's node text differs after the name: its ops also take the resource handle)
            assert str(e.value).startswith(msg + " for '{{node "), str(e.value)
        assert ta.read(0).shape.as_list() == [2] and ta.gather([1]).shape.as_list() == [None, 2]
        with pytest.raises(TypeError) as e:
            tf.TensorArray(tf.float32, size=2.5)
        assert str(e.value) == ("Expected int32 passed to parameter 'size' of op 'TensorArrayV3', got 2.5 of type "
                                "'float' instead. Error: Expected int32, but got 2.5 of type 'float'.")
        with pytest.raises(ValueError, match=r"^Argument `size` must be provided if handle is not provided\.$"):
            tf.TensorArray(tf.float32)


def test_tensor_array_run_time_errors():
    with tf.Graph().as_default():
        fixed = lambda: tf.TensorArray(tf.float32, size=2)  # noqa: E731
        loose = lambda: tf.TensorArray(tf.float32, size=2, infer_shape=False)  # noqa: E731
        cases = [
            (fixed().scatter([0, 3], [1., 2.]).read(0), "Max scatter index must be < array size (3 vs. 2)"),
            (fixed().unstack(tf.zeros([3, 2])).stack(), "Max scatter index must be < array size (2 vs. 2)"),
            (fixed().split([1., 2., 3.], [1, 1, 1]).read(0),
             "TensorArray's size is not equal to the size of lengths (2 vs. 3), and the TensorArray is not marked "
             "as dynamically resizeable"),
            (fixed().split(1.0, [1, 1]).concat(), "Expected value to be at least a vector, but received shape: []"),
            (loose().write(0, [[1.]]).write(1, [[1., 2.]]).concat(),
             "TensorArray has inconsistent shapes.  Index 0 has (excepting dimension 0) shape: [1] but index 1 has "
             "(excepting dimension 0) shape: [2]"),
            (loose().write(0, 1.).write(1, 2.).concat(),
             "Concat saw a scalar shape at index 0 but requires at least vectors.  Did you mean to call pack?"),
            (tf.TensorArray(tf.float32, size=-1).write(0, 1.).read(0), "Size should be >= 0.")]
        for t, msg in cases:
            assert msg in _run_error_text(t)
        ta = tf.TensorArray(tf.float32, size=3, dynamic_size=True).scatter([0, 4], [1., 2.])
        assert run(ta.size()) == 5
        ta = tf.TensorArray(tf.float32, size=2, dynamic_size=True).split([1., 2., 3.], [1, 1, 1])
        assert run(ta.size()) == 3


def test_tensor_array_close_is_tfs_op():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=2).write(0, 1.).write(1, 2.)
        c = ta.close()
        assert (c.name, c.type) == ("TensorArrayCloseV3", "TensorArrayCloseV3")
        assert run(c) is None


# -- gradients -----------------------------------------------------------------------------------

def _hex(values):
    return [[float(v).hex() for v in np.ravel(x)] for x in values]


def test_first_order_gradients_through_loops_are_tfs_bits():
    with tf.Graph().as_default():
        x = tf.constant(1.5)
        r = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x + tf.sin(y)), (0, x))
        assert _hex(run([r[1]] + tf.gradients(r[1], x))) == [["0x1.8995000000000p+2"], ["0x1.870f780000000p+3"]]

        xs = tf.constant([1., 2., 3.])
        y = tf.scan(lambda a, e: a * e + tf.tanh(a), xs, initializer=tf.constant(0.5))
        assert _hex(run([y] + tf.gradients(tf.reduce_sum(y), xs))) == [
            ["0x1.ec9a9e0000000p-1", "0x1.55b0ac0000000p+1", "0x1.1ff6360000000p+3"],
            ["0x1.5a67260000000p+2", "0x1.eef24e0000000p+1", "0x1.55b0ac0000000p+1"]]

        x = tf.constant(0.7)
        r = tf.while_loop(lambda i, y: i < 4,
                          lambda i, y: (i + 1, tf.cond(y > 1.0, lambda: y * 0.5, lambda: y * 3.0)), (0, x))
        assert _hex(run([r[1]] + tf.gradients(r[1], x))) == [["0x1.9333320000000p+0"], ["0x1.2000000000000p+1"]]

        w = tf.constant([[0.5, -0.2], [0.1, 0.3]])
        seq = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
        hs = tf.scan(lambda h, xt: tf.tanh(tf.matmul(tf.expand_dims(xt, 0), w)[0] + h), seq, initializer=tf.zeros([2]))
        loss = tf.reduce_sum(hs ** 2)
        assert _hex(run([loss] + tf.gradients(loss, w))) == [
            ["0x1.f14bc40000000p+1"],
            ["0x1.ef86d60000000p-1", "0x1.4a91bc0000000p+2", "0x1.d28cd00000000p+0", "0x1.e43eb60000000p+2"]]

        v = tf.constant([1., 2.])
        f = tf.foldl(lambda a, e: a * e + 1.0, v, initializer=tf.constant(1.0))
        fr = tf.foldr(lambda a, e: a * e + 1.0, v, initializer=tf.constant(1.0))
        assert _hex(run([f, fr] + tf.gradients(f, v) + tf.gradients(fr, v))) == [
            ["0x1.4000000000000p+2"], ["0x1.0000000000000p+2"], ["0x1.0000000000000p+1"] * 2,
            ["0x1.8000000000000p+1", "0x1.0000000000000p+0"]]

        xs = tf.constant([3., 1., 2.])
        y = tf.map_fn(lambda e: tf.cond(e > 1.5, lambda: e * e, lambda: -e), xs)
        assert _hex(run([y] + tf.gradients(tf.reduce_sum(y), xs))) == [
            ["0x1.2000000000000p+3", "-0x1.0000000000000p+0", "0x1.0000000000000p+2"],
            ["0x1.8000000000000p+2", "-0x1.0000000000000p+0", "0x1.0000000000000p+2"]]


def test_second_derivatives_through_loops():
    with tf.Graph().as_default():
        x = tf.constant(1.5)
        # y = x**3 (x captured by the body): g = 3x**2, g' = 6x
        r = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), (0, tf.constant(1.0)))
        g = tf.gradients(r[1], x)[0]
        assert run([g] + tf.gradients(g, x) + tf.gradients(g * g, x)) == [6.75, 9.0, 121.5]
        # y = x**8 (x only the initial value: the gradient loop reads it from the history)
        r = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * y), (0, x))
        g = tf.gradients(r[1], x)[0]
        assert run([g] + tf.gradients(g, x)) == [136.6875, 637.875]
        xs = tf.constant([1.5, 2.0])
        g = tf.gradients(tf.map_fn(lambda e: e * e, xs), xs)[0]
        np.testing.assert_array_equal(run([g] + tf.gradients(g, xs)), [[3.0, 4.0], [2.0, 2.0]])
        g = tf.gradients(tf.scan(lambda a, e: a * e, xs), xs)[0]
        np.testing.assert_array_equal(run(tf.gradients(g, xs))[0], [1.0, 1.0])


def test_second_derivatives_through_tensor_arrays():
    with tf.Graph().as_default():
        x = tf.constant([1., 2., 3.])
        ta = tf.TensorArray(tf.float32, size=3).unstack(x)
        g = tf.gradients(tf.reduce_sum(ta.stack() ** 3), x)[0]
        np.testing.assert_array_equal(run(tf.gradients(g, x))[0], [6., 12., 18.])
        s = tf.constant(1.0)
        ta = tf.TensorArray(tf.float32, size=2).write(0, s * s).write(1, s)
        g = tf.gradients(tf.reduce_sum(ta.stack() ** 2), s)[0]
        assert run([g] + tf.gradients(g, s)) == [6.0, 14.0]


# -- while_loop shape invariants; TensorArray static shapes --------------------------------------

def test_while_loop_none_shape_invariant_keeps_the_variables_shape():
    with tf.Graph().as_default():
        r = tf.while_loop(lambda i, m: i < 3, lambda i, m: [i + 1, m], loop_vars=[tf.constant(0), tf.ones([2, 2])],
                          shape_invariants=[None, None])
        assert [t.shape.as_list() for t in r] == [[], [2, 2]]


def test_tensor_array_gather_shape_uses_the_creation_element_shape():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[2], clear_after_read=False)
        _, ta = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, tf.ones([2]))), (0, ta))
        assert ta.gather([2, 0]).shape.as_list() == [2, 2]
        assert ta.stack().shape.as_list() == [None, 2]
        inferred = tf.TensorArray(tf.float32, size=2).write(0, [1., 2.]).write(1, [3., 4.])
        assert inferred.gather([1]).shape.as_list() == [None, 2]


def test_tensor_array_identity_is_an_identity_of_the_flow():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=2).write(0, [1.]).write(1, [2.])
        t2 = ta.identity()
        assert t2.flow.op.type == "Identity" and t2.element_shape.as_list() == [1]
        np.testing.assert_array_equal(run(t2.stack()), [[1.], [2.]])


def test_reading_an_unwritten_element_clears_it():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=2, element_shape=[2])
        r = ta.read(0)
        with tf.control_dependencies([r]):
            s = ta.stack()
        assert "Could not read index 0 twice because it was cleared after a previous read" in _run_error_text(s)


def test_while_loop_parallel_iterations_must_be_an_int():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^'parallel_iterations' must be a positive integer: 2\.5$"):
            tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)], parallel_iterations=2.5)


# -- SparseTensors through cond and while_loop ---------------------------------------------------

def test_cond_returns_sparse_tensors():
    with tf.Graph().as_default():
        sp = tf.SparseTensor([[0, 0]], [1.0], [2, 2])
        y = tf.cond(tf.constant(True), lambda: sp, lambda: tf.SparseTensor([[1, 1]], [5.0], [2, 2]))
        assert isinstance(y, tf.SparseTensor)
        assert [t.name for t in (y.indices, y.values, y.dense_shape)] == [
            "cond/Merge:0", "cond/Merge_1:0", "cond/Merge_2:0"]
        np.testing.assert_array_equal(run(tf.sparse.to_dense(y)), [[1., 0.], [0., 0.]])


def test_while_loop_over_a_sparse_tensor():
    with tf.Graph().as_default():
        x = tf.constant(2.0)
        sp = tf.SparseTensor([[0, 0]], [1.0], [3, 3])

        def body(i, s):
            k = tf.cast(i, tf.int64)
            return i + 1, tf.sparse.add(tf.SparseTensor(s.indices, s.values * x, s.dense_shape),
                                        tf.SparseTensor([[k + 1, k + 1]], [2.0], [3, 3]))
        _, r = tf.while_loop(lambda i, s: i < 2, body, (0, sp))
        assert isinstance(r, tf.SparseTensor)
        assert [t.shape.as_list() for t in (r.indices, r.values, r.dense_shape)] == [[None, 2], [None], [2]]
        np.testing.assert_array_equal(run(tf.sparse.to_dense(r)), [[4., 0., 0.], [0., 4., 0.], [0., 0., 2.]])
        # d/dx of 1*x*x + 2*x: 2x + 2
        assert run(tf.gradients(tf.reduce_sum(r.values), x)) == [6.0]


# -- tf.gradients inside cond and while bodies ---------------------------------------------------

def test_gradients_inside_a_branch_with_respect_to_outer_tensors():
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        y = tf.cond(x > 0, lambda: tf.gradients(x * x * x, x)[0], lambda: x)
        assert _hex(run([y] + tf.gradients(y, x))) == [["0x1.8000000000000p+1"], ["0x1.8000000000000p+2"]]
        z = tf.cond(tf.constant(True), lambda: tf.gradients(x * 3.0, x, stop_gradients=[x])[0], lambda: x)
        assert run(z) == 3.0
        for resource in (False, True):
            v = tf.Variable(2.0, use_resource=resource)
            y = tf.cond(tf.constant(True), lambda: tf.gradients(v * v * v, v)[0], lambda: tf.constant(0.))
            with tf.Session() as sess:
                sess.run(v.initializer)
                assert sess.run(y) == 12.0


def test_gradients_inside_a_loop_body_with_respect_to_outer_tensors():
    with tf.Graph().as_default():
        x = tf.constant(2.0)
        v = tf.Variable(2.0)
        for w in (x, v):
            r = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a + tf.gradients(a * w * w, w)[0]),
                              (0, tf.constant(1.0)))
            with tf.Session() as sess:
                sess.run(v.initializer)
                assert sess.run(r) == (2, 25.0)


def test_case_with_one_pair_and_no_default_returns_the_fns_tensor():
    with tf.Graph().as_default():
        r = tf.case([(tf.constant(False), lambda: tf.constant(1))], default=None)
        assert r.name == "case/Const_1:0"
        assert "Input error: None of conditions evaluated as True" in _run_error_text(r)


def test_tensor_array_element_shape_is_checked_without_infer_shape():
    with tf.Graph().as_default():
        ta = tf.TensorArray(tf.float32, size=2, element_shape=[3], infer_shape=False)
        with pytest.raises(ValueError) as e:
            ta.write(0, [1., 2.])
        assert str(e.value) == "Inconsistent shapes: saw (2,) but expected (3,) "
        loose = tf.TensorArray(tf.float32, size=2, infer_shape=False).write(0, [1., 2.]).write(1, [1.])
        assert loose.element_shape.ndims is None and loose.read(0).shape.ndims is None


def test_layers_called_in_a_loop_body_on_outer_tensors():
    # An RNN cell or layer called inside a while body on an outer tensor (with inner loop
    # state) builds in the body, as TF's does; values recorded from TF 2.21.
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        x = tf.ones([2, 4])
        cell = tf.nn.rnn_cell.LSTMCell(3)

        def body(i, c, h):
            _, st = cell(x, tf.nn.rnn_cell.LSTMStateTuple(c, h))
            return i + 1, st.c, st.h
        _, c, h = tf.while_loop(lambda i, c, h: i < 3, body, [0, tf.zeros([2, 3]), tf.zeros([2, 3])])
        d = tf.layers.Dense(2)
        _, acc = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a + d(x)), [0, tf.zeros([2, 2])])
        assert [v.name for v in tf.trainable_variables()] == [
            "lstm_cell/kernel:0", "lstm_cell/bias:0", "dense/kernel:0", "dense/bias:0"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            hv, av = sess.run([h, acc])
    assert [float(v) for v in hv[0]] == [0.10217217355966568, -0.17234008014202118, 0.058331940323114395]
    assert float(av[0, 0]) == -0.7191934585571289
    np.testing.assert_array_equal(hv[0], hv[1])
