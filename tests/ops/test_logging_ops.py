"""tf.Assert, tf.assert_*, tf.Print, tf.print, tf.check_numerics and tf.case(exclusive=True).

Messages recorded from TensorFlow 2.21 (compat.v1, disable_v2_behavior)."""

import sys

import numpy as np
import pytest

import tensorweave as tf


def _fails(sess, op, feed, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        sess.run(op, feed)


def test_assert_passes_and_fails_with_tf_message():
    x = tf.placeholder(tf.float32, [None])
    a = tf.Assert(tf.reduce_all(x > 0), ["x must be positive", x], summarize=4)
    # TF guards an Assert over float data with cond(..., name="AssertGuard") and returns its Merge
    # (our cond's Merge is a forwarding Identity); the failing node is AssertGuard/Assert.
    assert a.name == "Assert/AssertGuard/Merge"
    with tf.Session() as sess:
        assert sess.run(a, {x: [1.0, 2.0]}) is None
        _fails(sess, a, {x: [1.0, -2.0, 3.0, 4.0, 5.0]},
               r"assertion failed: \[x must be positive\] \[1 -2 3 4\.\.\.\]\n\t \[\[\{\{node Assert/AssertGuard/Assert\}\}\]\]")
        # string/int32 data: the plain Assert op, its Python inputs named in its scope (TF 2.21)
        b = tf.Assert(True, ["always"], name="plain")
        assert (b.type, b.name, [t.name for t in b.inputs]) == \
            ("Assert", "plain/Assert", ["plain/Assert/condition:0", "plain/Assert/data_0:0"])
        # a non-scalar condition is accepted when built and fails when run
        _fails(sess, tf.Assert(x > 0, ["not a scalar condition"]), {x: [1.0, 2.0]},
               r"In\[0\] should be a scalar: \[2\]")


def test_assert_as_control_dependency_guards_a_value():
    x = tf.placeholder(tf.int32, [])
    with tf.control_dependencies([tf.assert_positive(x)]):
        y = tf.identity(x) * 2
    with tf.Session() as sess:
        assert sess.run(y, {x: 3}) == 6
        _fails(sess, y, {x: -1}, r"Condition x > 0 did not hold element-wise:")


def test_binary_asserts_runtime_and_static():
    x = tf.placeholder(tf.float32, [None])
    e = tf.assert_equal(x, tf.ones_like(x), message="not ones")
    with tf.Session() as sess:
        sess.run(e, {x: [1.0, 1.0]})
        _fails(sess, e, {x: [1.0, -2.0, 3.0, 4.0, 5.0]},
               r"assertion failed: \[not ones\] \[Condition x == y did not hold element-wise:\] "
               r"\[x \(Placeholder:0\) = \] \[1 -2 3\.\.\.\] \[y \(ones_like:0\) = \] \[1 1 1\.\.\.\]")
        for fn, good, bad in [(tf.assert_less, [0.5], [1.5]), (tf.assert_less_equal, [1.0], [1.5]),
                              (tf.assert_greater, [1.5], [1.0]), (tf.assert_greater_equal, [1.0], [0.5]),
                              (tf.assert_none_equal, [2.0], [1.0])]:
            op = fn(x, tf.ones_like(x))
            sess.run(op, {x: good})
            _fails(sess, op, {x: bad}, "did not hold element-wise")
        for fn, good, bad in [(tf.assert_negative, [-1.0], [0.0]), (tf.assert_non_negative, [0.0], [-1.0]),
                              (tf.assert_non_positive, [0.0], [1.0])]:
            op = fn(x)
            sess.run(op, {x: good})
            _fails(sess, op, {x: bad}, "did not hold element-wise")
    assert tf.assert_equal(tf.constant(1), tf.constant(1)).type == "Assert"
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold element-wise"):
        tf.assert_equal(tf.constant(1), tf.constant(2))


def test_static_rank_and_type_checks():
    x = tf.placeholder(tf.float32, [2, 3])
    assert tf.assert_rank(x, 2).type == "NoOp"
    with pytest.raises(ValueError, match="must have rank 3"):
        tf.assert_rank(x, 3)
    with pytest.raises(ValueError, match="must have rank at least 3"):
        tf.assert_rank_at_least(x, 3)
    with pytest.raises(TypeError):
        tf.assert_type(x, tf.int32)
    with pytest.raises(TypeError):
        tf.assert_integer(x)
    u = tf.placeholder(tf.float32)
    r = tf.assert_rank(u, 1)
    with tf.Session() as sess:
        sess.run(r, {u: [1.0]})
        _fails(sess, r, {u: [[1.0]]}, "must have rank")
    assert tf.debugging.assert_equal is tf.assert_equal


def test_print_passes_value_through_and_prints(capsys):
    x = tf.placeholder(tf.int32, [None])
    p = tf.Print(x, [x, tf.shape(x)], message="debug: ", first_n=2)
    assert p.op.type == "Print" and p.name == "Print:0"
    with tf.Session() as sess:
        for _ in range(3):
            np.testing.assert_array_equal(sess.run(p, {x: [1, 2]}), [1, 2])
    assert capsys.readouterr().err.count("debug: [1 2][2]") == 2  # first_n=2


def test_tf_print_formats_like_tf(capsys):
    x = tf.placeholder(tf.float32, [None])
    op = tf.print("value:", x, [1, 2])
    assert op.type == "PrintV2"
    with tf.Session() as sess:
        sess.run(op, {x: [1.0, 2.0, 3.0, 4.0]})
        sess.run(tf.print(tf.range(10), summarize=2))
    err = capsys.readouterr().err
    assert "value: [1 2 3 4] [1, 2]\n" in err
    assert "[0 1 ... 8 9]\n" in err


def test_check_numerics():
    x = tf.placeholder(tf.float32, [None])
    c = tf.check_numerics(x, "bad x")
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(c, {x: [1.0]}), [1.0])
        _fails(sess, c, {x: [1.0, np.nan]}, "bad x : Tensor had NaN values")
        _fails(sess, c, {x: [np.inf]}, "bad x : Tensor had Inf values")
    (g,) = tf.gradients(tf.reduce_sum(c * 2.0), x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(g, {x: [1.0, 2.0]}), [2.0, 2.0])
    with pytest.raises(TypeError):
        tf.check_numerics(tf.constant([1]), "ints")


def test_case_exclusive_checks_at_most_one_true():
    x = tf.placeholder(tf.int32, [])
    c = tf.case([(x > 0, lambda: tf.constant(1)), (x > 5, lambda: tf.constant(2))],
                default=lambda: tf.constant(0), exclusive=True)
    with tf.Session() as sess:
        assert sess.run(c, {x: 3}) == 1 and sess.run(c, {x: -1}) == 0
        _fails(sess, c, {x: 7}, r"Input error: exclusive=True: more than 1 conditions \(Greater:0, "
                                r"Greater_1:0\) evaluated as True:\] \[1 1\]")


def _printed(capfd, *ops):
    with tf.Session() as sess:
        sess.run(list(ops))
    return capfd.readouterr().out


def test_tf_print_graph_is_string_format_then_print_v2():
    # Recorded from TF 2.21: tf.print(name="pp") is StringFormat "pp_format" feeding PrintV2 "pp";
    # Python values and structures go into the template through pprint.
    x = tf.constant([[1.5, 2.0, 3.0], [4.0, 5.0, 6.0]])
    op = tf.print("hello", x, {"b": 1, "a": x}, [1, 2], output_stream=sys.stdout, name="pp")
    fmt = op.inputs[0].op
    assert (op.name, op.type, fmt.name, fmt.type) == ("pp", "PrintV2", "pp_format", "StringFormat")
    assert fmt.get_attr("template") == b"hello {} {'a': {}, 'b': 1} [1, 2]"
    assert op.get_attr("output_stream") == b"stdout" and op.get_attr("end") == b"\n"
    single = tf.print(tf.constant("only"))       # a string scalar alone is printed unformatted
    assert single.inputs[0].op.type == "Const"
    with pytest.raises(ValueError, match="Unsupported output stream"):
        tf.print(x, output_stream="bad")


def test_tf_print_values_as_tf_summarizes_them(capfd):
    # Each expected line recorded from TF 2.21's tf.print.
    cases = [
        ((tf.constant([[1.5, 2, 3], [4, 5, 6]]),), {}, "[[1.5 2 3]\n [4 5 6]]"),
        ((tf.range(20),), {"summarize": 2, "sep": "|"}, "[0 1 ... 18 19]"),
        ((tf.zeros([2, 2, 2], tf.int32),), {}, "[[[0 0]\n  [0 0]]\n\n [[0 0]\n  [0 0]]]"),
        ((tf.reshape(tf.range(24), [2, 3, 4]),), {"summarize": 1},
         "[[[0 ... 3]\n  ...\n  [8 ... 11]]\n\n [[12 ... 15]\n  ...\n  [20 ... 23]]]"),
        (("s", tf.constant("str"), tf.constant(["a", "b"]), tf.constant(True)), {}, 's "str" ["a" "b"] 1'),
        ((tf.constant(1.0 / 3, tf.float64), tf.constant([0.1, 2.5e-8, 1e10])), {},
         "0.33333333333333331 [0.1 2.5e-08 1e+10]"),
        ((tf.constant([1e-5, 123456789.0, 16777217.0]),), {}, "[1e-05 123456792 16777216]"),
        ((tf.constant([np.inf, -np.inf, np.nan]), tf.constant([1 + 2j], tf.complex64)), {}, "[inf -inf nan] [?]"),
        ((tf.constant(5.0),), {"summarize": 0}, "..."),
        ((tf.constant([], tf.float32), "a{}b"), {}, "[] a{}b"),
        ((tf.constant([b"a\nb"]),), {}, '["a\\nb"]'),
    ]
    for args, kwargs, expected in cases:
        assert _printed(capfd, tf.print(*args, output_stream=sys.stdout, **kwargs)) == expected + "\n"


def test_v1_print_and_assert_summarize_nested_rows(capsys):
    # TF 2.21's legacy SummarizeValue: row-major, rows bracketed, '...' where the count runs out.
    x = tf.constant([[1.5, 2, 3], [4, 5, 6]])
    p = tf.Print(x, [x, tf.shape(x), tf.constant([["a", "b"], ["c", "d"]]), tf.constant(0.1),
                     tf.constant(1 / 3, tf.float64), tf.constant(True), tf.zeros([2, 2, 2], tf.int32)],
                 message="value: ", summarize=4)
    with tf.Session() as sess:
        sess.run(p)
    assert capsys.readouterr().err == \
        "value: [[1.5 2 3][4...]...][2 3][[a b][c d]][0.1][0.33333333333333331][1][[[0 0][0 0]]...]\n"
