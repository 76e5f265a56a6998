"""Scalar math, x*log(y)-style ops and trivial reductions as TF computes them.

Expected values recorded from TensorFlow 2.21 (tensorflow.compat.v1, CPU, AVX2) by running
these programs there: scalar results of scalar ops (a NumPy scalar inside the runtime) round as
TF's Eigen kernels; softsign / relu6 / elu gradients run on scalars; Xlogy / Xlog1py / Xdivy keep
x's -0.0 in Eigen's packets and give +0.0 in the scalar tail; Sum / Mean / Prod over no axis of
size > 1 copy their input (-0.0 stays -0.0).
"""

import numpy as np

import tensorweave as tf

_VALS = [-2.9176, -0.8341, 0.4127, 1.7733, 3.0519]
# cos, sin, exp, log1p, tanh, sigmoid, expm1 of float32 v * 1.37; exp, tanh, sigmoid in float64
_WANT32 = [
    [0xbf27e442, 0x3f4141e1, 0x3c9679c7, 0xffc00000, 0xbf7fd3cc, 0x3c93c2f3, 0xbf7b4c32],
    [0x3ed48b29, 0xbf68e658, 0x3ea34d94, 0xffc00000, 0xbf50b945, 0x3e77a027, 0xbf2e5936],
    [0x3f5828f4, 0x3f092718, 0x3fe14c98, 0x3ee572b4, 0x3f03109e, 0x3f23405d, 0x3f429930],
    [0xbf41c720, 0x3f274a66, 0x4135a30f, 0x3f9dbf01, 0x3f7c0ec9, 0x3f6b466f, 0x4125a30f],
    [0xbf01b356, 0xbf5cb644, 0x4282e03e, 0x3fd28ff2, 0x3f7fe165, 0x3f7c2593, 0x4280e03e]]
_WANT64 = [
    [0x3f92cf389c807fba, 0xbfeffa794b67dc66, 0x3f92785e1a9b17d1],
    [0x3fd469b284171563, 0xbfea172893de5244, 0x3fcef404d69d1269],
    [0x3ffc2992fc6ea91a, 0x3fe06213adc4c8e8, 0x3fe4680b98a5ff61],
    [0x4026b4619bae0bfd, 0x3fef81d90a4177d2, 0x3fed68cdd6c34633],
    [0x40505c080d9d2c79, 0x3feffc2cbd1e1219, 0x3fef84b272362162]]


def _bits(v, dt):
    return int(np.asarray(v, dt).view(np.uint32 if dt is np.float32 else np.uint64))


def test_unary_ops_of_a_scalar_op_round_as_tf():
    with tf.Graph().as_default():
        p, q = tf.placeholder(tf.float32, []), tf.placeholder(tf.float32, [])
        x = p * q                                   # a NumPy scalar at run time
        outs = [f(x) for f in (tf.cos, tf.sin, tf.exp, tf.log1p, tf.tanh, tf.sigmoid, tf.math.expm1)]
        pd, qd = tf.placeholder(tf.float64, []), tf.placeholder(tf.float64, [])
        outs64 = [f(pd * qd) for f in (tf.exp, tf.tanh, tf.sigmoid)]
        with tf.Session() as sess:
            for v, want32, want64 in zip(_VALS, _WANT32, _WANT64):
                got = sess.run(outs, {p: v, q: 1.37})
                got64 = sess.run(outs64, {pd: v, qd: 1.37})
                assert [_bits(g, np.float32) for g in got] == want32
                assert [_bits(g, np.float64) for g in got64] == want64


def test_softsign_relu6_elu_and_their_gradients_on_scalars():
    with tf.Graph().as_default():
        a, b = tf.placeholder(tf.float32, []), tf.placeholder(tf.float32, [])
        c = a * b
        outs = [tf.nn.softsign(c), tf.nn.relu6(c), tf.gradients(tf.nn.elu(c), [a])[0],
                tf.gradients(tf.nn.softsign(c), [a])[0], tf.gradients(tf.nn.relu6(c), [a])[0]]
        with tf.Session() as sess:
            got = sess.run(outs, {a: -0.7, b: 1.3})
    assert [float(g) for g in got] == [-0.47643977403640747, 0.0, 0.523281455039978,
                                       0.3563498556613922, 0.0]


def test_xlogy_xlog1py_xdivy_as_eigen_computes_them():
    x = np.array([0.3, -1.7, 0., 2.2, -0., 0.9, 1.1, -2.5, 0.7, -0., 1.3, 0.], np.float32)
    y = np.array([0.11, 2.9, 1.5, 0.37, 2.2, 1.9, 0.05, 2.61, 0.83, 1.2, 1.7, 0.4], np.float32)
    want = [
        [0xbf2984cb, 0xbfe7ae5c, 0x0, 0xc00bfda0, 0x80000000, 0x3f13e215, 0xc052e649, 0xc0197efc,
         0xbe058fa1, 0x0, 0x3f3097d4, 0x0],
        [0x3d003cd3, 0xc0141302, 0x0, 0x3f314d2a, 0x80000000, 0x3f754f31, 0x3d5bd438, 0xc04d64ab,
         0x3ed8963a, 0x0, 0x3fa546f0, 0x0],
        [0x402e8ba3, 0xbf1611a8, 0x0, 0x40be4531, 0x80000000, 0x3ef286bc, 0x41b00000, 0xbf7535f3,
         0x3f57e753, 0x0, 0x3f43c3c3, 0x0]]
    with tf.Graph().as_default():
        px, py = tf.placeholder(tf.float32, [12]), tf.placeholder(tf.float32, [12])
        outs = [tf.math.xlogy(px, py), tf.math.xlog1py(px, py), tf.math.xdivy(px, py)]
        with tf.Session() as sess:
            got = sess.run(outs, {px: x, py: y})
    assert [np.asarray(g).view(np.uint32).tolist() for g in got] == want


def test_trivial_reductions_copy_their_input():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [1, 16])
        q = tf.placeholder(tf.float32, [2, 16])
        pi = tf.placeholder(tf.int32, [1, 3])
        copies = [tf.reduce_sum(p, 0), tf.reduce_sum(p, []), tf.reduce_mean(p, []),
                  tf.reduce_prod(p, 0), tf.reduce_max(p, []), tf.reduce_sum(q, []),
                  tf.reduce_sum(p, 0, keepdims=True)]
        real = [tf.reduce_sum(q, 1), tf.reduce_sum(p, [0, 1]), tf.math.reduce_euclidean_norm(p - 3, [])]
        with tf.Session() as sess:
            feed = {p: -np.zeros((1, 16), np.float32), q: -np.zeros((2, 16), np.float32)}
            got_copies, got_real = sess.run([copies, real], feed)
            ints = sess.run([tf.reduce_mean(pi, []), tf.reduce_mean(pi, 0),
                             tf.math.reduce_euclidean_norm(pi, 0)], {pi: [[-3, 5, 7]]})
    assert [g.shape for g in got_copies] == [(16,), (1, 16), (1, 16), (16,), (1, 16), (2, 16), (1, 16)]
    assert all(np.signbit(g).all() for g in got_copies)
    assert not any(np.signbit(g).any() for g in got_real)
    np.testing.assert_array_equal(got_real[2], np.full((1, 16), 3, np.float32))
    assert [i.tolist() for i in ints] == [[[-3, 5, 7]], [-3, 5, 7], [3, 5, 7]]


def test_scalar_shape_operands_fail_in_the_shape_functions():
    # Recorded from TF 2.21: a rank-0 multiples / perm / shape is rejected when the op is built.
    import pytest
    with tf.Graph().as_default():
        a = tf.placeholder(tf.int32, []) * 2
        b = tf.placeholder(tf.int32, []) + 1
        for fn, node in [(tf.broadcast_dynamic_shape, "BroadcastArgs"), (tf.broadcast_to, "BroadcastTo"),
                         (tf.tile, "Tile"), (tf.transpose, "transpose")]:
            with pytest.raises(ValueError) as e:
                fn(a, b)
            assert str(e.value).startswith(
                "Shape must be rank 1 but is rank 0 for '{{node %s}}" % node), str(e.value)


def test_wrong_dtype_and_rank_operands_as_tensorflow():
    # Recorded from TF 2.21.
    import pytest
    with tf.Graph().as_default():
        pv = tf.placeholder(tf.float32, [3])
        pm = tf.placeholder(tf.float32, [2, 3])
        ps = tf.placeholder(tf.float32, [])
        pi = tf.placeholder(tf.int32, [None])
        dims_msg = "Value passed to parameter 'dims' has DataType float32 not in list of allowed values: int32, int64"
        for fn, arg in [(tf.ones, pv), (tf.ones, ps), (tf.zeros, pv)]:
            with pytest.raises(TypeError) as e:
                fn(arg)
            assert str(e.value) == dims_msg
        with pytest.raises(TypeError) as e:
            tf.multinomial(pm, pv)
        assert str(e.value) == ("Input 'num_samples' of 'Multinomial' Op has type float32 that does not "
                                "match expected type of int32.")
        with pytest.raises(ValueError) as e:
            tf.histogram_fixed_width(pm, pm)
        assert str(e.value).startswith("Shape must be rank 1 but is rank 2 for '{{node histogram_fixed_width}}")
        top = tf.nn.top_k(pv, pi)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"k must be scalar, got shape \[2\]"):
                sess.run(top, {pv: [1, 2, 3], pi: [1, 2]})


def test_one_hot_run_time_depth_vector_and_float_op_seeds():
    # Recorded from TF 2.21: a fed non-scalar depth is the kernel's InvalidArgumentError; a float
    # op seed becomes an int attr (1.5 -> 1) and draws as that seed.
    import pytest
    with tf.Graph().as_default():
        pi = tf.placeholder(tf.int32, [None])
        hot = tf.one_hot(pi, pi, 3)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"depth must be a scalar, but got: \[3\]"):
                sess.run(hot, {pi: [1, 0, 2]})
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        a = tf.random_uniform([4], seed=1.5)
        b = tf.random_shuffle(tf.range(6), seed=2.7)
        assert (a.op.get_attr("seed2"), b.op.get_attr("seed2")) == (1, 2)
        with tf.Session() as sess:
            va, vb = sess.run([a, b])
        np.testing.assert_array_equal(va, np.array([0.77806914, 0.5052885, 0.6250366, 0.15178597], np.float32))
        assert vb.tolist() == [1, 5, 3, 0, 2, 4]


def test_op_names_clip_by_norm_and_argmax_axis_as_tensorflow():
    # Recorded from TF 2.21.
    import pytest
    with tf.Graph().as_default():
        v = tf.constant([3.0, 4.0])
        with pytest.raises(TypeError, match="expected string or bytes-like object, got 'int'"):
            tf.abs(v, 2)
        assert tf.abs(v, name=b"ab").name == "ab:0"
        clipped = [tf.clip_by_norm(v, tf.constant(2)), tf.clip_by_norm(v, -1.0),
                   tf.clip_by_norm(tf.constant([3.0, 4.0], tf.float16), tf.constant(2.0))]
        ops = [op.name for op in tf.get_default_graph().get_operations()]
        assert ops[ops.index("clip_by_norm/Maximum/y"):][:4] == ["clip_by_norm/Maximum/y", "clip_by_norm/Maximum", "clip_by_norm/Cast",
                            "clip_by_norm/mul"]
        m, vec = tf.placeholder(tf.float32, [2, 3]), tf.placeholder(tf.float32, [3])
        assert tf.argmax(vec, 5).shape.as_list() == []        # a vector's arg max is a scalar
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.argmax(m, tf.placeholder(tf.int32, [1]))
        with pytest.raises(TypeError, match="axis must be int or Tensor with integer datatype"):
            tf.argmax(m, [1])
        with pytest.raises(TypeError, match=r"axis tensor dtypes <dtype: 'float32'> is not supported"):
            tf.argmax(m, tf.constant(1.0))
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.argmin(m, [1])
        with tf.Session() as sess:
            got = sess.run(clipped)
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(tf.argmax(vec, 5), {vec: [1, 2, 3]})
    np.testing.assert_allclose(got[0], [1.2, 1.6], rtol=1e-6)
    assert got[1].tolist() == [0.0, 0.0]
    assert got[2].dtype == np.float16


def test_dtype_checks_of_mixed_and_bool_operands_as_tensorflow():
    # Recorded from TF 2.21.
    import pytest
    with tf.Graph().as_default():
        pv, pi = tf.placeholder(tf.float32, [3]), tf.placeholder(tf.int32, [3])
        pb, mb = tf.placeholder(tf.bool, [3]), tf.placeholder(tf.bool, [3, 3])
        ph = tf.placeholder(tf.float16, [3])
        cases = [
            (lambda: tf.setdiff1d(pi, pv), "Input 'y' of 'ListDiff' Op has type float32 that does not match type "
                                           "int32 of argument 'x'."),
            (lambda: tf.searchsorted(pv, [1, 2]), "Input 'values' of 'LowerBound' Op has type int32 that does not "
                                                  "match type float32 of argument 'sorted_inputs'."),
            (lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=[1, 0, 1], logits=pv),
             "Input 'y' of 'Mul' Op has type int32 that does not match type float32 of argument 'x'."),
            (lambda: tf.histogram_fixed_width(pi, pv), "Input 'value_range' of 'HistogramFixedWidth' Op has type "
                                                       "float32 that does not match type int32 of argument 'values'."),
            (lambda: tf.diag(pb), "Value passed to parameter 'diagonal' has DataType bool not in list of allowed "
                                  "values: bfloat16, float16, float32, float64, int32, int64, complex64, complex128"),
            (lambda: tf.real(pb), "input must be a numeric tensor, but got tensor with dtype <dtype: 'bool'>"),
            (lambda: tf.math.bincount(tf.constant([1, 2, 1]), tf.constant([True, False, True])),
             "Value passed to parameter 'weights' has DataType bool not in list of allowed values: int32, int64, "
             "float32, float64"),
        ]
        for fn, msg in cases:
            with pytest.raises(TypeError) as e:
                fn()
            assert str(e.value) == msg
        for fn in (lambda: tf.cross(pb, pb), lambda: tf.nn.bias_add(mb, pb)):
            with pytest.raises(TypeError, match="has DataType bool not in list of allowed values"):
                fn()
        with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
            tf.range(ph)
        mask = tf.sequence_mask(ph, 4)                       # float16 lengths: a float16 Range
        diag = tf.linalg.diag(pb)                            # bool: False padding
        part = tf.linalg.diag_part(mb)
        grow = tf.expand_dims(pv, tf.placeholder(tf.int32, [2]))   # value unknown: checked at run time
        assert grow.shape.ndims is None
        with tf.Session() as sess:
            got = sess.run([mask, diag, part], {ph: [1, 2.5, 0], pb: [True, False, True], mb: np.eye(3, dtype=bool)})
    assert got[0].tolist() == [[True, False, False, False], [True, True, False, False], [False] * 4]
    assert got[1].tolist() == [[True, False, False], [False, False, False], [False, False, True]]
    assert got[2].tolist() == [True, True, True]


def test_list_attr_arguments_checked_as_tfs_generated_wrappers():
    # Recorded from TF 2.21.
    import pytest
    with tf.Graph().as_default():
        pv = tf.placeholder(tf.float32, [1, 3])
        pi = tf.placeholder(tf.int32, [3], name="pi")
        for fn, msg in [(lambda: tf.squeeze(pv, pi), "Expected list for 'axis' argument to 'squeeze' Op, not "
                                                     "<tf.Tensor 'pi:0' shape=(3,) dtype=int32>."),
                        (lambda: tf.squeeze(pv, np.array([0])), "Expected list for 'axis' argument to 'squeeze' Op, "
                                                                "not array([0])."),
                        (lambda: tf.squeeze(pv, "0"), "Expected int for argument 'axis' not '0'."),
                        (lambda: tf.dynamic_stitch(pi, [pv]), "Expected list for 'indices' argument to "
                                                              "'dynamic_stitch' Op, not <tf.Tensor 'pi:0' shape=(3,) "
                                                              "dtype=int32>."),
                        (lambda: tf.nn.moments(pv, pi), "Expected list for 'axis' argument to 'squeeze' Op, not "
                                                        "<tf.Tensor 'pi:0' shape=(3,) dtype=int32>.")]:
            with pytest.raises(TypeError) as e:
                fn()
            assert str(e.value) == msg
        with pytest.raises(ValueError, match=r"squeeze_dims\[0\] not in \[-2,2\)"):
            tf.squeeze(pv, 2.5)                     # int(2.5) = 2, as TF's make_int
        assert tf.squeeze(pv, np.int64(0)).shape.as_list() == [3]


def test_folded_string_scalars_keep_trailing_nul_bytes_and_avg_pool_dtypes():
    # Recorded from TF 2.21.
    import pytest
    with tf.Graph().as_default():
        c = tf.constant([b"a\x00", b"bc\x00\x00"])
        outs = [c[0], tf.gather(c, 1), tf.identity(c[0]), tf.strings.join([c[0], "z"]), tf.strings.length(c[1])]
        with tf.Session() as sess:
            got = sess.run(outs)
        assert [bytes(g) if not isinstance(g, (int, np.integer)) else int(g) for g in got] == [
            b"a\x00", b"bc\x00\x00", b"a\x00", b"a\x00z", 4]
        x = tf.ones([1, 4, 4, 1], tf.int32)
        for fn in (lambda: tf.nn.avg_pool(x, 2, 2, "VALID"), lambda: tf.layers.average_pooling2d(x, 2, 2)):
            with pytest.raises(TypeError) as e:
                fn()
            assert str(e.value) == ("Value passed to parameter 'value' has DataType int32 not in list of "
                                    "allowed values: float16, bfloat16, float32, float64")


def test_dropout_rate_checks_and_split_of_a_scalar_as_tensorflow():
    # Recorded from TF 2.21.
    import pytest
    with tf.Graph().as_default():
        pv = tf.placeholder(tf.float32, [3])
        kp = tf.placeholder(tf.int32, [], name="kp")
        pi = tf.placeholder(tf.int32, [3], name="pi")
        with pytest.raises(ValueError) as e:
            tf.nn.dropout(pv, kp)
        assert str(e.value) == ('`keep_prob` must be a floating point number or Tensor. Received: '
                                'keep_prob=Tensor("kp:0", shape=(), dtype=int32)')
        with pytest.raises(ValueError) as e:
            tf.nn.dropout(pv, rate=tf.constant(0.5, tf.float64))
        assert str(e.value) == ("`x.dtype` must be compatible with `rate.dtype`. Received: "
                                "x.dtype=<dtype: 'float32'> and rate.dtype=<dtype: 'float64'>")
        assert tf.nn.dropout(pv, rate=tf.Variable(0.5)).shape.as_list() == [3]
        for n in (2.5, 3.0, np.float32(3)):
            with pytest.raises(ValueError, match="Rank-0 tensors are not supported as the num_or_size_splits"):
                tf.split(pi, n)
        assert len(tf.split(tf.ones([4, 2]), tf.ones([4, 2]).shape[0])) == 4


def test_reverse_scalar_axis_and_stack_of_a_tensor_as_tensorflow():
    # Recorded from TF 2.21 (op names included).
    import pytest
    with tf.Graph().as_default() as g:
        pm = tf.placeholder(tf.float32, [2, 3], name="pm")
        with pytest.raises(ValueError, match=r"Shape must be rank 1 but is rank 0 for '\{\{node ReverseV2\}\}"):
            tf.reverse(pm, 1)
        assert tf.reverse(pm, [1]).name == "ReverseV2_1:0"
        with pytest.raises(ValueError, match=r"Argument `axis` = 2 not in range \[-2, 2\)"):
            tf.stack(pm, 2)
        with pytest.raises(TypeError) as e:
            tf.stack(pm, 1)
        assert str(e.value) == ("Expected list for 'values' argument to 'pack' Op, not "
                                "<tf.Tensor 'pm:0' shape=(2, 3) dtype=float32>.")
        assert tf.stack(pm) is pm
        names = [o.name for o in g.get_operations()]
        assert "strided_slice" in names and "stack" not in names     # (values[0] sliced, no Pack)


def test_bool_attrs_are_checked_as_tfs_generated_wrappers():
    # Recorded from TF 2.21: a non-bool flag is a TypeError before any shape check.
    import pytest
    with tf.Graph().as_default():
        img = tf.placeholder(tf.float32, [4, 4, 3])
        m = tf.placeholder(tf.float32, [3, 3])
        for fn, msg in [(lambda: tf.image.resize_bilinear(img, 2, 2), "Expected bool for argument 'align_corners' not 2."),
                        (lambda: tf.linalg.inv(img, 2), "Expected bool for argument 'adjoint' not 2."),
                        (lambda: tf.linalg.qr(img, 0.5), "Expected bool for argument 'full_matrices' not 0.5."),
                        (lambda: tf.linalg.svd(m, False, 2), "Expected bool for argument 'compute_uv' not 2."),
                        (lambda: tf.linalg.triangular_solve(m, m, 2), "Expected bool for argument 'lower' not 2.")]:
            with pytest.raises(TypeError) as e:
                fn()
            assert str(e.value) == msg


def test_rot90_with_a_non_scalar_k_as_tensorflow():
    # Recorded from TF 2.21.
    import pytest
    with tf.Graph().as_default():
        img = tf.placeholder(tf.float32, [4, 4, 3])
        for k, shape in [([2, 2], "(2,)"), (tf.constant([1]), "(1,)")]:
            with pytest.raises(ValueError) as e:
                tf.image.rot90(img, k)
            assert str(e.value) == f"Shape {shape} must have rank 0"
        assert tf.image.rot90(img, np.int32(3)).shape.as_list() == [4, 4, 3]
