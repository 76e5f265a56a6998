"""Core TF1 usage (array and math ops, control flow, tf.train, gradients, printing) and the fixes
it found; expected values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour disabled)
unless computed from NumPy in the test."""

import sys

import numpy as np
import pytest

import tensorweave as tf


def _hex(a):
    return np.asarray(a, np.float32).tobytes().hex()


def test_cond_branch_returning_nothing_names_the_branch():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.bool, [])
        x = tf.constant(3.0)
        with pytest.raises(ValueError, match=r"^'true_fn' must have a return value\.$"):
            tf.cond(p, lambda: None, lambda: x)
        with pytest.raises(ValueError, match=r"^'false_fn' must have a return value\.$"):
            tf.cond(p, lambda: x, lambda: None)


def test_while_loop_body_must_match_a_list_of_one_dict():
    # TF wraps only a non-nested body result in a list: a dict for [dict] loop vars is a mismatch.
    with tf.Graph().as_default():
        i0 = tf.constant(0)
        with pytest.raises(ValueError, match="The two structures don't have the same nested structure"):
            tf.while_loop(lambda d: d["i"] < 4, lambda d: {"i": d["i"] + 1}, [{"i": i0}])
        # A plain tensor for a one-element list is still fine (as TF).
        with tf.Session() as sess:
            assert sess.run(tf.while_loop(lambda i: i < 4, lambda i: i + 1, [i0])) == 4


def test_proximal_and_dual_averaging_optimizers_update_a_scalar_variable():
    # A 0-d variable crashed these kernels (NumPy scalars as `out`); values recorded from TF 2.21.
    with tf.Graph().as_default():
        b = tf.Variable(0.75)
        gs = tf.train.get_or_create_global_step()
        loss = b * b * 3.0 - b
        steps = [
            tf.train.ProximalAdagradOptimizer(0.1, l1_regularization_strength=0.01,
                                              l2_regularization_strength=0.02).minimize(loss),
            tf.train.AdagradDAOptimizer(0.1, gs, l1_regularization_strength=0.01,
                                        l2_regularization_strength=0.02).minimize(loss, global_step=gs),
            tf.train.ProximalGradientDescentOptimizer(0.05, l1_regularization_strength=0.01).minimize(loss)]
        got = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                for step in steps:
                    sess.run(step)
                got.append(_hex(sess.run(b)))
        assert got == ["55019abc", "a283a63b", "d5d4cb3c"]


def test_rmsprop_divides_grad_times_lr_by_the_root_as_tf():
    # TF's functor: mom = mom * momentum + (grad * lr) / sqrt(ms + eps); the other order is an
    # ulp off. Values recorded from TF 2.21.
    want = {"rms": "eb43a03fa629d23f81c107400a135b3f05c4283f62dc25407ce81c3fbe2730408f64b93f",
            "rmsc": "d142a03f4b27d23f13c0074019045b3f7ec1283ff6d725408de71c3f93273040555eb93f"}
    make = {"rms": lambda: tf.train.RMSPropOptimizer(0.013, decay=0.8, momentum=0.3),
            "rmsc": lambda: tf.train.RMSPropOptimizer(0.013, decay=0.8, momentum=0.3, centered=True)}
    for key, opt_fn in make.items():
        res = []
        for n in [1, 3, 5]:
            with tf.Graph().as_default():
                rs = np.random.RandomState(n)
                w = tf.Variable(rs.rand(n).astype(np.float32) * 3)
                grads = [tf.constant(rs.rand(n).astype(np.float32) - 0.3) for _ in range(4)]
                opt = opt_fn()
                updates = [opt.apply_gradients([(g, w)]) for g in grads]
                with tf.Session() as sess:
                    sess.run(tf.global_variables_initializer())
                    for u in updates:
                        sess.run(u)
                    res.append(sess.run(w))
        assert _hex(np.concatenate(res)) == want[key], key


def test_optimizer_rejects_an_int_loss_listing_dtypes_as_tf():
    with tf.Graph().as_default():
        v = tf.Variable([1, 2])
        loss = tf.reduce_sum(v)
        with pytest.raises(ValueError) as info:
            tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        assert str(info.value) == ("Invalid type tf.int32 for Sum:0, expected: "
                                   "[tf.float32, tf.float64, tf.float16, tf.bfloat16].")


def test_matmul_and_tensordot_dtype_mismatch_errors():
    with tf.Graph().as_default():
        # matmul converts b with a's dtype as a hint: float values then mismatch int32 `a`.
        with pytest.raises(TypeError) as info:
            tf.matmul([[1, 2]], [[1.], [2.]])
        assert str(info.value) == ("Input 'b' of 'MatMul' Op has type float32 that does not match "
                                   "type int32 of argument 'a'.")
        # tensordot converts b on its own: int values do not become float32.
        with pytest.raises(TypeError) as info:
            tf.tensordot(tf.ones([1, 2]), [[1], [2]], 1)
        assert str(info.value) == ("Input 'b' of 'MatMul' Op has type int32 that does not match "
                                   "type float32 of argument 'a'.")
        with pytest.raises(TypeError) as info:
            tf.complex(tf.constant([1]), tf.constant([2]))
        assert str(info.value) == ("The `real` and `imag` components have incorrect types: int32 int32. "
                                   "They must be consistent, and one of [tf.float32, tf.float64]")


def test_tf_print_with_summarize_none_and_empty_tensors(capsys):
    # Output recorded from TF 2.21: summarize=None means 3; an empty inner dimension prints a
    # separator before the '...'.
    with tf.Graph().as_default():
        ops = [tf.print(tf.range(10), output_stream=sys.stdout, summarize=None)]
        for shape in ([0], [2, 0], [0, 2], [2, 0, 3], [2, 3, 0]):
            ops.append(tf.print(tf.zeros(shape), output_stream=sys.stdout))
        fmt = tf.strings.format("{}", tf.zeros([1, 0]), summarize=None)
        with tf.Session() as sess:
            for op in ops:
                sess.run(op)
            assert sess.run(fmt) == b"[\n ...]"
        assert capsys.readouterr().out == "[0 1 2 ... 7 8 9]\n[]\n[\n ...]\n[]\n[\n\n ...]\n[\n\n ...]\n"


def test_where_condition_shape_error_names_the_data_shape_first():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"^Dimension 1 in both shapes must be equal, but are 3 and 1\. "
                                             r"Shapes are \[2,3\] and \[2,1\]\."):
            tf.where([[True], [False]], tf.ones([2, 3]), tf.zeros([2, 3]))
        with pytest.raises(ValueError, match="^Shapes must be equal rank, but are 2 and 3"):
            tf.where(tf.ones([2, 3, 1], tf.bool), tf.ones([2, 3]), tf.zeros([2, 3]))


def test_stop_gradients_holding_the_variable_itself_still_differentiates_it():
    # TF stops at the variable's own op, which is an x: its gradient still accumulates.
    with tf.Graph().as_default():
        x = tf.Variable([1., 2.], name="x")
        g = tf.gradients(x * x, x, stop_gradients=[x])[0]
        s = tf.stop_gradient(x)
        g2 = tf.gradients(s * x, x)[0]
        assert g.name == "gradients/AddN:0"      # as TF: both partials summed
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_array_equal(sess.run(g), [2., 4.])
            np.testing.assert_array_equal(sess.run(g2), [1., 2.])


def test_gather_nd_of_whole_rows_has_a_sparse_gradient():
    with tf.Graph().as_default():
        emb = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
        rows = tf.gather_nd(emb, [[1], [3], [1]])
        g = tf.gradients(tf.reduce_sum(rows * rows), emb)[0]
        assert isinstance(g, tf.IndexedSlices)
        dense = tf.gradients(tf.reduce_sum(tf.gather_nd(emb, [[1, 2], [3, 0]])), emb)[0]
        assert isinstance(dense, tf.Tensor)
        train = tf.train.AdamOptimizer(0.1).minimize(tf.reduce_sum(rows * rows))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            vals, idx, shape = sess.run([g.values, g.indices, g.dense_shape])
            np.testing.assert_array_equal(idx, [1, 3, 1])
            np.testing.assert_array_equal(vals, 2 * np.arange(12, dtype=np.float32).reshape(4, 3)[[1, 3, 1]])
            np.testing.assert_array_equal(shape, [4, 3])
            sess.run(train)
            got = sess.run(emb)
        # Adam's first step moves each touched entry by lr (sign of its gradient); rows 0, 2 stay.
        want = np.arange(12, dtype=np.float32).reshape(4, 3)
        np.testing.assert_array_equal(got[[0, 2]], want[[0, 2]])
        np.testing.assert_allclose(got[[1, 3]], want[[1, 3]] - 0.1, rtol=1e-6)


def test_full_reductions_of_python_values_convert_them_as_tf():
    # TF's _ReductionDims takes rank(x) of the list ("Rank/Const") and the op converts it again
    # ("Sum/input"), so a later tf.constant is still "Const". Op names recorded from TF 2.21.
    with tf.Graph().as_default() as g:
        t = tf.reduce_sum([1., 2., 3.])
        m = tf.reduce_max(np.ones((2, 2)))
        c = tf.constant(5)
        lse = tf.reduce_logsumexp([1., 2.])
        nz = tf.count_nonzero([1, 0])
        srt = tf.sort([3., 1.])
        assert c.name == "Const:0"
        assert [o.name for o in g.get_operations()] == [
            "Rank/Const", "Rank", "range/start", "range/delta", "range", "Sum/input", "Sum",
            "Rank_1/Const", "Rank_1", "range_1/start", "range_1/delta", "range_1", "Max/input", "Max",
            "Const", "ReduceLogSumExp/Rank/Const", "ReduceLogSumExp/Rank", "ReduceLogSumExp/range/start",
            "ReduceLogSumExp/range/delta", "ReduceLogSumExp/range", "ReduceLogSumExp/Max/input",
            "ReduceLogSumExp/Max", "ReduceLogSumExp/IsFinite", "ReduceLogSumExp/SelectV2/e",
            "ReduceLogSumExp/SelectV2", "ReduceLogSumExp/StopGradient", "ReduceLogSumExp/Sub/x",
            "ReduceLogSumExp/Sub", "ReduceLogSumExp/Exp", "ReduceLogSumExp/Const", "ReduceLogSumExp/Sum",
            "ReduceLogSumExp/Log", "ReduceLogSumExp/Shape", "ReduceLogSumExp/Reshape", "ReduceLogSumExp",
            "count_nonzero/input", "count_nonzero/zeros", "count_nonzero/NotEqual", "count_nonzero/Cast",
            "count_nonzero/Const", "count_nonzero/Sum", "sort/axis", "sort/values", "sort/Neg",
            "sort/Shape", "sort/strided_slice/stack", "sort/strided_slice/stack_1",
            "sort/strided_slice/stack_2", "sort/strided_slice", "sort/Rank", "sort/TopKV2", "sort/Neg_1"]
        assert lse.shape == tf.TensorShape([])
        with tf.Session() as sess:
            got = sess.run([t, m, lse, nz, srt])
        assert got[0] == 6.0 and got[1] == 1.0 and got[3] == 1
        np.testing.assert_allclose(got[2], np.log(np.exp(1.) + np.exp(2.)), rtol=1e-6)
        np.testing.assert_array_equal(got[4], [1., 3.])
        with pytest.raises(ValueError, match="Argument `axis` must be a constant scalar"):
            tf.sort([3., 1.], axis=tf.placeholder(tf.int32, []))


def test_reshape_of_empty_tensors_and_its_errors():
    # Recorded from TF 2.21: with an empty input and a zero in the target shape, TF leaves the
    # zero-sized dims out of both counts, so the -1 is still inferred; and its error texts.
    cases = {((0, 3), (-1, 0)): (3, 0), ((0, 3), (2, -1)): (2, 0), ((0, 3), (0, -1, 2)): (0, 1, 2),
             ((0, 0), (-1, 0)): (1, 0), ((2, 0), (-1, 3)): (0, 3),
             ((2, 3), (-1, 0)): "Input to reshape is a tensor with 6 values, but the requested shape has 0",
             ((2, 3), (0, 6)): "Input to reshape is a tensor with 6 values, but the requested shape has 0",
             ((2, 3), (-1, 4)): "Input to reshape is a tensor with 6 values, but the requested shape requires "
                                "a multiple of 4",
             ((2, 3), (-1, -1)): "Only one input size may be -1, not both 0 and 1"}
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, None)
        with tf.Session() as sess:
            for (shape, target), want in cases.items():
                op = tf.reshape(p, list(target))
                if isinstance(want, tuple):
                    assert sess.run(op, {p: np.zeros(shape)}).shape == want
                else:
                    with pytest.raises(tf.errors.InvalidArgumentError) as e:
                        sess.run(op, {p: np.zeros(shape)})
                    assert e.value.message.split("\n")[-2].strip() == want


def test_constant_float_reductions_and_integer_realdiv_run_their_kernels():
    # Recorded from TF 2.21: a float sum of constants is the kernel's (TF's order: 99.99998, not a
    # pairwise 100.000015), and RealDiv has no integer CPU kernel even when its inputs are constant.
    with tf.Graph().as_default():
        s = tf.reduce_sum(tf.fill([1000], 0.1))
        d = tf.realdiv(tf.constant([7, -7]), tf.constant([2, 2]))
        f = tf.realdiv(tf.constant([7.0, -7.0]), tf.constant([2.0, 2.0]))
        with tf.Session() as sess:
            assert sess.run(s) == np.float32(99.99998)
            np.testing.assert_array_equal(sess.run(f), [3.5, -3.5])
            with pytest.raises(tf.errors.InvalidArgumentError, match="No OpKernel was registered to support "
                               "Op 'RealDiv' used by {{node RealDiv}} with these attrs: \\[T=DT_INT32\\]"):
                sess.run(d)
