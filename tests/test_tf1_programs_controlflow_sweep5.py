"""TF1 programs against TF: while_loop's argument errors, loop-variable structure checks and the
names its cond and body see, cond's structure check, case's argument checks, pair order and
default assertion, and static_rnn's per-step names with sequence_length; expected values recorded
from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled)."""

import collections

import numpy as np
import pytest

import tensorweave as tf


# -- while_loop ---------------------------------------------------------------------------------

def test_while_loop_argument_errors_are_tfs():
    with tf.Graph().as_default():
        i = tf.constant(0)
        with pytest.raises(ValueError) as e:
            tf.while_loop(lambda i: i < 1, lambda i: i + 1, [])
        assert str(e.value) == "'loop_vars' must be provided."
        with pytest.raises(ValueError) as e:
            tf.while_loop(lambda i: i < 1, lambda i: i + 1, [i], maximum_iterations=[1, 2])
        assert str(e.value) == "'maximum_iterations' must be a scalar. Received shape: (2,)"
        with pytest.raises(TypeError) as e:
            tf.while_loop(lambda i: i < 1, lambda i: i + 1, [i], parallel_iterations=0)
        assert str(e.value) == "'parallel_iterations' must be a positive integer."
        with pytest.raises(TypeError) as e:
            tf.while_loop(1, lambda i: i + 1, [i])
        assert str(e.value) == "'cond' must be callable."
        with pytest.raises(TypeError) as e:
            tf.while_loop(lambda i: i < 1, 1, [i])
        assert str(e.value) == "'body' must be callable."


def test_while_loop_of_a_bare_tensor_is_refused_before_taking_a_name():
    with tf.Graph().as_default():
        i = tf.constant(0)
        with pytest.raises(TypeError, match="Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"):
            tf.while_loop(lambda i: i < 3, lambda i: i + 1, i)
        with pytest.raises(TypeError):
            tf.while_loop(lambda i: i < 3, lambda i: i + 1, i, maximum_iterations=5)
        assert tf.while_loop(lambda i: i < 3, lambda i: i + 1, [i]).name == "while/Exit:0"


def test_while_loop_body_structure_is_checked_like_tf():
    P = collections.namedtuple("P", ["a", "b"])
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0])
        i = tf.constant(0)
        # [P] loop vars: the body gets the P and must return [P], not a bare P.
        with pytest.raises(ValueError, match="same nested structure"):
            tf.while_loop(lambda p: p.a < 4, lambda p: P(p.a + 1, p.b * 2), [P(i, tf.constant(1.5))])
        r = tf.while_loop(lambda p: p.a < 4, lambda p: [P(p.a + 1, p.b * 2)], [P(i, tf.constant(1.5))])
        assert isinstance(r, list) and isinstance(r[0], P) and r[0].b.name == "while_1/Exit_1:0"
        # Below the first layer the sequence types must match.
        with pytest.raises(TypeError) as e:
            tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, [x]), (i, (x,)))
        assert "The two namedtuples don't have the same sequence type." in str(e.value)
        # A namedtuple of loop vars is passed as its fields (so a one-argument cond fails).
        with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
            tf.while_loop(lambda p: p.a < 4, lambda p: P(p.a + 1, p.b * 2), P(i, tf.constant(1.5)))
        r = tf.while_loop(lambda a, b: a < 4, lambda a, b: P(a + 1, b * 2), P(i, tf.constant(1.5)))
        assert isinstance(r, P) and r.a.name == "while_4/Exit:0"
        # A dict of loop vars is passed as its keys, as TF.
        with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
            tf.while_loop(lambda d: d["a"] < 4, lambda d: d, {"a": i, "b": i})
        # The first layer is compared as a list: a tuple body for list loop vars is fine.
        a, b = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2), [i, x])
        assert (a.name, b.name) == ("while_6/Exit:0", "while_6/Exit_1:0")
        with tf.Session() as sess:
            assert sess.run(r) == P(4, 24.0)
            np.testing.assert_allclose(sess.run(b), [8.0, 16.0])


def test_while_loop_cond_and_body_see_tfs_names():
    seen = {}
    with tf.Graph().as_default():
        def cond(i, x):
            seen["cond"] = (i.name, x.name)
            return i < 3

        def body(i, x):
            seen["body"] = (i.name, x.name)
            return i + 1, x * 2.0
        tf.while_loop(cond, body, [tf.constant(0), tf.constant(1.0)], name="loop")
        assert seen == {"cond": ("loop/Merge:0", "loop/Merge_1:0"),
                        "body": ("loop/Identity:0", "loop/Identity_1:0")}


def test_while_loop_maximum_iterations_names_and_values():
    with tf.Graph().as_default() as g:
        i = tf.constant(0)
        x = tf.constant([1.0, 2.0])
        r = tf.while_loop(lambda i: i < 10, lambda i: i + 1, [i], maximum_iterations=3)
        assert r.name == "while/Exit_1:0"
        assert ("while/iteration_counter", "Const") in [(o.name, o.type) for o in g.get_operations()]
        r2 = tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [i], maximum_iterations=5,
                           return_same_structure=True)
        assert [t.name for t in r2] == ["while_1/Exit_1:0"]
        r3 = tf.while_loop(lambda i, x: i < 3, lambda i, x: [i + 1, x * 2], [i, x], maximum_iterations=2)
        assert [t.name for t in r3] == ["while_2/Exit_1:0", "while_2/Exit_2:0"]
        with tf.Session() as sess:
            out = sess.run([r, r2, r3])
        assert out[0] == 3 and out[1] == [3] and out[2][0] == 2
        np.testing.assert_allclose(out[2][1], [4.0, 8.0])


# -- cond ---------------------------------------------------------------------------------------

def test_cond_branch_sequence_types_must_match():
    with tf.Graph().as_default():
        x = tf.constant(1.0)
        p = tf.constant(True)
        with pytest.raises(TypeError) as e:
            tf.cond(p, lambda: [x, x], lambda: (x, x))
        assert str(e.value).startswith("The two structures don't have the same nested structure.")
        assert "The two namedtuples don't have the same sequence type." in str(e.value)
        with pytest.raises(ValueError) as e:
            tf.cond(p, lambda: {"a": x}, lambda: {"b": x})
        assert "The two dictionaries don't have the same set of keys." in str(e.value)
        # Singletons are unpacked first (unless strict).
        r = tf.cond(p, lambda: [x], lambda: (x,))
        assert r.name == "cond_2/Merge:0"
        with pytest.raises(TypeError):
            tf.cond(p, lambda: [x], lambda: (x,), strict=True)


# -- case ---------------------------------------------------------------------------------------

def test_case_argument_errors_are_tfs():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.int32, [])
        with pytest.raises(TypeError) as e:
            tf.case([tf.less(x, 0)])
        assert str(e.value) == ("Each entry in 'pred_fn_pairs' must be a 2-tuple. Received "
                                "Tensor(\"Less:0\", shape=(), dtype=bool).")
        with pytest.raises(TypeError) as e:
            tf.case([(True, lambda: tf.constant(1))])
        assert str(e.value) == "pred must be a Tensor, got: True"
        with pytest.raises(TypeError) as e:
            tf.case([(tf.constant(1), lambda: tf.constant(1))])
        assert str(e.value) == "pred must be Tensor of type bool: Const:0"
        with pytest.raises(TypeError) as e:
            tf.case(5)
        assert str(e.value) == "'pred_fn_pairs' must be a list, tuple, or dict. Received: <class 'int'>"
        with pytest.raises(ValueError) as e:
            tf.case([], default=lambda: tf.constant(1))
        assert str(e.value) == "not enough values to unpack (expected 2, got 0)"


def test_case_dict_pairs_are_tried_in_predicate_name_order():
    with tf.Graph().as_default():
        a = tf.constant(True, name="b_pred")
        b = tf.constant(True, name="a_pred")
        r = tf.case({a: lambda: tf.constant(1), b: lambda: tf.constant(2)}, default=lambda: tf.constant(3))
        with tf.Session() as sess:
            assert sess.run(r) == 2


def test_case_without_default_asserts_with_all_predicates():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.int32, [])
        r = tf.case([(tf.less(x, 0), lambda: tf.constant(17)), (tf.greater(x, 5), lambda: tf.constant(23))])
        assert r.name == "case/cond/Merge:0"
        with tf.Session() as sess:
            assert sess.run(r, {x: 9}) == 23
            assert sess.run(r, {x: -1}) == 17
            with pytest.raises(tf.errors.InvalidArgumentError) as e:
                sess.run(r, {x: 2})
        msg = str(e.value)
        assert "case/cond/Assert_1/AssertGuard/Assert" in msg
        assert "assertion failed: [Input error: None of conditions evaluated as True:] [0 0]" in msg


# -- static_rnn with sequence_length -------------------------------------------------------------

def test_static_rnn_with_sequence_length_names_its_steps_like_tf():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3, 2, 4])
        xs = tf.unstack(x, axis=1)
        outs, st = tf.nn.static_rnn(tf.nn.rnn_cell.BasicRNNCell(2), xs, dtype=tf.float32,
                                    sequence_length=[1, 2, 2], scope="sl")
        assert [o.name for o in outs] == ["sl/cond/Merge:0", "sl/cond_1/Merge:0"]
        assert st.name == "sl/cond_1/Merge_1:0"
        cell = tf.nn.rnn_cell.LSTMCell(2)
        outs, st = tf.nn.static_rnn(cell, xs, dtype=tf.float32, sequence_length=[1, 2, 0], scope="l")
        assert [o.name for o in outs] == ["l/cond/Merge:0", "l/cond_1/Merge:0"]
        assert (st.c.name, st.h.name) == ("l/cond_1/Merge_1:0", "l/cond_1/Merge_2:0")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            o, s = sess.run([outs, st], {x: np.ones((3, 2, 4), np.float32)})
        # Past its length an example's output is zero and its state is carried through.
        np.testing.assert_array_equal(o[1][0], [0, 0])
        np.testing.assert_array_equal(o[0][2], [0, 0])
        np.testing.assert_array_equal(s.c[2], [0, 0])
        np.testing.assert_array_equal(s.h[0], o[0][0])


# -- regression guards (already matched) ----------------------------------------------------------

def test_dynamic_rnn_names_and_shapes():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 4, 3])
        out, st = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(5), x, dtype=tf.float32, sequence_length=[4, 2])
        assert (out.name, out.shape.as_list()) == ("rnn/transpose_1:0", [2, 4, 5])
        assert (st.c.name, st.h.name) == ("rnn/while/Exit_3:0", "rnn/while/Exit_4:0")
        out2, st2 = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(4), x, dtype=tf.float32, scope="g")
        assert (out2.name, st2.name) == ("g/transpose_1:0", "g/while/Exit_3:0")


def test_map_fn_scan_fold_names():
    with tf.Graph().as_default():
        x = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
        m = tf.map_fn(lambda r: r * 2, x)
        sc = tf.scan(lambda a, r: a + r, x)
        fl = tf.foldl(lambda a, r: a + r, x)
        fr = tf.foldr(lambda a, r: a * r, tf.constant([1., 2., 3.]), initializer=tf.constant(1.0))
        assert (m.name, m.shape.as_list()) == ("map/TensorArrayStack/TensorArrayGatherV3:0", [3, 2])
        assert (sc.name, sc.shape.as_list()) == ("scan/TensorArrayStack/TensorArrayGatherV3:0", [3, 2])
        assert (fl.name, fr.name) == ("foldl/while/Exit_2:0", "foldr/while/Exit_2:0")
        with tf.Session() as sess:
            a, b, c, d = sess.run([m, sc, fl, fr])
        np.testing.assert_allclose(b, [[1, 2], [4, 6], [9, 12]])
        np.testing.assert_allclose(c, [9, 12])
        assert d == 6.0
