"""tf.py_func / numpy_function / py_function, tf.make_template and the graph/eager switches.
Expected behaviour recorded from TensorFlow 2.21 compat.v1 on the same programs."""

import numpy as np
import pytest

import tensorweave as tf


def test_py_func_values_names_and_errors():
    with tf.Graph().as_default(), tf.Session() as s:
        x = tf.constant([1.0, 2.0])
        y = tf.py_func(lambda a: a * 2, [x], tf.float32)
        assert (y.name, y.op.type, y.shape.ndims) == ("PyFunc:0", "PyFunc", None)
        np.testing.assert_array_equal(s.run(y), [2.0, 4.0])
        pair = tf.py_func(lambda a: (a, a + 1), [x], [tf.float32, tf.float32], stateful=False, name="pf")
        assert [t.name for t in pair] == ["pf:0", "pf:1"] and pair[0].op.type == "PyFuncStateless"
        assert isinstance(tf.py_func(lambda a: None, [x], []), tf.Operation)
        assert s.run(tf.py_func(lambda s_: s_ + b"!", [tf.constant("hi")], tf.string)) == b"hi!"
        kinds = tf.py_func(lambda a, b, c: np.array([type(a).__name__, type(b).__name__, type(c).__name__],
                                                    dtype=object), [x, tf.constant(3), tf.constant("s")],
                           tf.string)
        assert s.run(kinds).tolist() == [b"ndarray", b"int32", b"bytes"]
        assert s.run(tf.py_func(lambda a: np.float64(1.5), [x], tf.float64)) == 1.5
        assert tf.gradients(tf.reduce_sum(y), x) == [None]
        eager = tf.py_function(lambda a: a.numpy() * 3, [x], tf.float32)
        assert eager.op.type == "EagerPyFunc"
        np.testing.assert_array_equal(s.run(eager), [3.0, 6.0])
        it = tf.data.Dataset.range(3).map(lambda i: tf.py_func(lambda v: v * 10, [i], tf.int64))
        nxt = it.make_one_shot_iterator().get_next()
        assert [s.run(nxt) for _ in range(3)] == [0, 10, 20]
        for exc, cls in ((ValueError, tf.errors.InvalidArgumentError), (StopIteration, tf.errors.OutOfRangeError),
                         (NotImplementedError, tf.errors.UnimplementedError), (KeyError, tf.errors.UnknownError)):
            def boom(a, exc=exc):
                raise exc("boom")
            with pytest.raises(cls):
                s.run(tf.py_func(boom, [x], tf.float32))
        for bad in (lambda a: a.astype(np.float64), lambda a: [1.0, 2.0], lambda a: (a, a)):
            with pytest.raises(tf.errors.InvalidArgumentError):
                s.run(tf.py_func(bad, [x], tf.float32))
        with pytest.raises(ValueError):
            tf.py_func(3, [x], tf.float32)


def test_make_template_shares_variables():
    with tf.Graph().as_default():
        def dense(x, units):
            w = tf.get_variable("w", [x.shape[1], units], initializer=tf.ones_initializer())
            return tf.matmul(x, w, name="mm")
        tmpl = tf.make_template("my_dense", dense, units=3)
        a = tmpl(tf.ones([2, 4]))
        b = tmpl(tf.ones([5, 4]))
        c = tf.make_template("my_dense", dense, units=2)(tf.ones([1, 4]))
        assert [v.name for v in tf.global_variables()] == ["my_dense/w:0", "my_dense_1/w:0"]
        assert (a.name, b.name, c.name) == ("my_dense/mm:0", "my_dense_1/mm:0", "my_dense_2/mm:0")
        assert [v.name for v in tmpl.trainable_variables] == ["my_dense/w:0"]

        bad = tf.make_template("bad", lambda x: x * tf.Variable(1.0, name="v"))
        bad(tf.ones([1]))
        with pytest.raises(ValueError):
            bad(tf.ones([1]))


def test_graph_mode_switches():
    assert tf.executing_eagerly() is False
    tf.disable_v2_behavior()
    tf.compat.v1.disable_eager_execution()
    with pytest.raises(NotImplementedError):
        tf.enable_eager_execution()


def test_custom_gradient():
    # Values and errors as TF 2.21 compat.v1 gives them for the same program.
    with tf.Graph().as_default():
        @tf.custom_gradient
        def log1pexp(x):
            e = tf.exp(x)
            return tf.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))
        x = tf.constant([0.0, 100.0, -5.0])
        y = log1pexp(x)
        g = tf.gradients(y, x)[0]

        @tf.custom_gradient
        def clip_grad(a, b):
            return a * b, lambda dy: (tf.clip_by_value(dy, -0.1, 0.1), dy * 2)
        a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
        ga, gb = tf.gradients(tf.reduce_sum(clip_grad(a, b) * 5.0), [a, b])
        with tf.Session() as s:
            yv, gv = s.run([y, g])
            assert gv.tolist() == [0.5, 1.0, pytest.approx(0.0066929, rel=1e-4)]
            assert s.run(ga).tolist() == pytest.approx([0.1, 0.1]) and s.run(gb).tolist() == [10.0, 10.0]
        with pytest.raises(ValueError):
            log1pexp(x=x)

        @tf.custom_gradient
        def with_var(u):
            return u * tf.Variable(2.0), lambda dy: dy
        with pytest.raises(TypeError):
            with_var(a)


def test_py_func_result_checks_use_tf_messages():
    # Messages recorded from TF 2.21 (the token is this process's pyfunc_<n>).
    x = tf.placeholder(tf.float32, [3])
    wrong_dtype = tf.py_func(lambda a: a.astype(np.float64), [x], tf.float32)
    python_float = tf.py_func(lambda a: 1.5, [x], tf.float32)
    two_values = tf.py_func(lambda a: [a, a], [x], tf.float32)
    ok = tf.py_func(lambda a: np.float32(a.sum()), [x], tf.float32)
    with tf.Session() as s:
        feed = {x: [1.0, 2.0, 3.0]}
        assert s.run(ok, feed) == 6.0
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"0-th value returned by pyfunc_\d+ is double, "
                                                                 r"but expects float\n"):
            s.run(wrong_dtype, feed)
        with pytest.raises(tf.errors.InvalidArgumentError, match="is double, but expects float"):
            s.run(python_float, feed)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"pyfunc_\d+ returns 2 values, but expects to "
                                                                 r"see 1 values\."):
            s.run(two_values, feed)
