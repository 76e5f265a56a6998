"""TF1-style programs over tf.gradients edge cases. Expected names, values and messages were
recorded from real TensorFlow 2.21 (tensorflow.compat.v1 with disable_v2_behavior, CPU wheel)
running the same programs."""

import warnings

import numpy as np
import pytest

import tensorweave as tf


def _new_ops(g, n0):
    return [(o.name, o.type) for o in g.get_operations()[n0:]]


def test_grad_ys_length_mismatch_message_and_scope_use():
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0, 3.0], name="x")
        z = x * 2.0
        with pytest.raises(ValueError, match=r"^Length mismatch\. Passed 2 grad_ys for 1 ys$"):
            tf.gradients([z], x, grad_ys=[None, None])
        # TF raises inside the "gradients" scope, so that name is used up
        assert tf.gradients(z, x)[0].name == "gradients_1/mul_grad/Mul:0"


def test_unconnected_gradients_enum_and_bad_value():
    assert tf.UnconnectedGradients.ZERO.value == "zero"
    assert tf.UnconnectedGradients.NONE.value == "none"
    assert repr(tf.UnconnectedGradients.ZERO) == "<UnconnectedGradients.ZERO: 'zero'>"
    with tf.Graph().as_default():
        x = tf.constant([1.0, 2.0, 3.0], name="x")
        y = tf.constant([4.0, 5.0, 6.0], name="y")
        z = x * 2.0
        gs = tf.gradients(z, [x, y], unconnected_gradients=tf.UnconnectedGradients.ZERO)
        assert [t.name for t in gs] == ["gradients/mul_grad/Mul:0", "zeros_like:0"]
        gs = tf.gradients(z, [x, y], unconnected_gradients="zero")
        assert gs[1].name == "zeros_like_1:0"
        with pytest.raises(ValueError, match=r"^Unknown value for unconnected_gradients: 'foo'$"):
            tf.gradients(z, [x, y], unconnected_gradients="foo")


def test_gradients_of_an_operation_and_complex_without_grad_ys():
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0], name="v")
        with pytest.raises(TypeError, match=r"^can't convert Operation 'v' to Tensor$"):
            tf.gradients(tf.reduce_sum(v * 2.0), v.op)
        x = tf.constant([1.0, 2.0, 3.0])
        c = tf.complex(x, x)
        with pytest.raises(TypeError) as e:
            tf.gradients(c, x)
        assert str(e.value) == ('Gradients of complex tensors (Tensor("Complex:0", shape=(3,), '
                                'dtype=complex64)) must set grad_ys (y.dtype = complex64)')


def test_indexed_slices_densify_names_errors_and_large_warning():
    with tf.Graph().as_default() as g:
        p = tf.Variable(tf.ones([5, 3]), name="p")
        gg = tf.gradients(tf.reduce_sum(tf.gather(p, [0, 2])), p)[0]
        n0 = len(g.get_operations())
        d = tf.convert_to_tensor(gg)
        assert d.name == "UnsortedSegmentSum:0"
        # TF slices dense_shape[0]: a "strided_slice" op, not a gather
        assert _new_ops(g, n0) == [("strided_slice/stack", "Const"), ("strided_slice/stack_1", "Const"),
                                   ("strided_slice/stack_2", "Const"), ("strided_slice", "StridedSlice"),
                                   ("UnsortedSegmentSum", "UnsortedSegmentSum")]
        with pytest.raises(ValueError) as e:
            tf.convert_to_tensor(gg, dtype=tf.int32)
        assert str(e.value).startswith("Incompatible tensor conversion requested to `dtype` int32 for "
                                       "IndexedSlices (IndexedSlices(indices=Tensor(")
        assert str(e.value).endswith(") with dtype float32")
        with pytest.raises(ValueError) as e:
            tf.convert_to_tensor(tf.IndexedSlices(gg.values, gg.indices))
        assert str(e.value) == (
            "Tensor conversion requested for IndexedSlices for argument `value` without dense_shape: "
            'IndexedSlices(indices=Tensor("gradients/GatherV2_grad/Reshape_1:0", shape=(2,), dtype=int32), '
            'values=Tensor("gradients/GatherV2_grad/Reshape:0", shape=(2, 3), dtype=float32))')
        big = tf.Variable(tf.ones([200000, 1000]), name="big")  # never initialized: shape only
        gb = tf.gradients(tf.gather(big, [0]), big)[0]
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            tf.convert_to_tensor(gg)  # small: no warning
            tf.convert_to_tensor(gb)
        msgs = [(x.category, str(x.message)) for x in w]
        assert msgs == [(UserWarning, "Converting sparse IndexedSlices to a dense Tensor with 200000000 "
                                      "elements. This may consume a large amount of memory.")]


def test_gradient_op_names_match_tf():
    with tf.Graph().as_default():
        x = tf.constant([-1.0, 0.0, 0.0, 2.0, 2.0], name="x")
        y = tf.constant([0.0, 0.0, 1.0, 2.0, 3.0], name="y")
        sm = tf.gradients(tf.nn.softmax(x)[1], x)[0]
        assert sm.name == "gradients/Softmax_grad/mul_1:0"
        assert tf.gradients(tf.nn.log_softmax(x)[0], x)[0].name == "gradients_1/LogSoftmax_grad/sub:0"
        ein = tf.gradients(tf.einsum("i,i->", x, y), [x, y])
        assert [t.name for t in ein] == ["gradients_2/einsum/Einsum_grad/Einsum:0",
                                         "gradients_2/einsum/Einsum_grad/Einsum_1:0"]
        en = tf.gradients(tf.math.reduce_euclidean_norm(x), x)[0]
        assert en.name == "gradients_3/EuclideanNorm_grad/truediv_1:0"
        assert tf.gradients(tf.nn.l2_loss(x), x)[0].name == "gradients_4/L2Loss_grad/mul:0"
        with tf.Session() as s:
            sm_v, ein_v, en_v = s.run([sm, ein, en])
        np.testing.assert_allclose(sm_v, [-0.00125, 0.05492, -0.0034, -0.02513, -0.02513], atol=1e-5)
        np.testing.assert_allclose(ein_v[0], [0, 0, 1, 2, 3])
        np.testing.assert_allclose(ein_v[1], [-1, 0, 0, 2, 2])
        np.testing.assert_allclose(en_v, [-1 / 3, 0, 0, 2 / 3, 2 / 3], rtol=1e-5)


def test_gradient_op_lists_match_tf():
    with tf.Graph().as_default() as g:
        x = tf.constant([-1.0, 0.0, 0.0, 2.0, 2.0], name="x")
        n0 = len(g.get_operations())
        tf.gradients(tf.fill([3], tf.reduce_sum(x)), x)
        assert [n for n, _ in _new_ops(g, n0) if "Fill_grad" in n] == ["gradients/Fill_grad/Const",
                                                                        "gradients/Fill_grad/Sum"]
        n0 = len(g.get_operations())
        tf.gradients(tf.reduce_min(x), x)
        assert [n for n, _ in _new_ops(g, n0) if "Min_grad" in n] == [
            "gradients_1/Min_grad/Shape", "gradients_1/Min_grad/Reshape/shape", "gradients_1/Min_grad/Reshape",
            "gradients_1/Min_grad/Reshape_1/shape", "gradients_1/Min_grad/Reshape_1",
            "gradients_1/Min_grad/Equal", "gradients_1/Min_grad/Cast", "gradients_1/Min_grad/Sum",
            "gradients_1/Min_grad/Reshape_2/shape", "gradients_1/Min_grad/Reshape_2",
            "gradients_1/Min_grad/truediv", "gradients_1/Min_grad/mul"]
        n0 = len(g.get_operations())
        tf.gradients(tf.math.reduce_euclidean_norm(x), x)
        assert [n for n, _ in _new_ops(g, n0) if "Norm_grad" in n] == [
            "gradients_2/EuclideanNorm_grad/Shape", "gradients_2/EuclideanNorm_grad/Reshape/shape",
            "gradients_2/EuclideanNorm_grad/Reshape", "gradients_2/EuclideanNorm_grad/Reshape_1/shape",
            "gradients_2/EuclideanNorm_grad/Reshape_1", "gradients_2/EuclideanNorm_grad/truediv",
            "gradients_2/EuclideanNorm_grad/truediv_1"]
        n0 = len(g.get_operations())
        tf.gradients(tf.math.unsorted_segment_max(x, [0, 0, 1, 1, 1], 2), x)
        names = [n for n, _ in _new_ops(g, n0)]
        assert "gradients_3/UnsortedSegmentMax_grad/and" in names
        assert "gradients_3/UnsortedSegmentMax_grad/LogicalAnd" in names
        assert "gradients_3/UnsortedSegmentMax_grad/LogicalAnd_1" not in names


def test_max_ties_and_euclidean_norm_at_zero():
    with tf.Graph().as_default():
        y = tf.constant([0.0, 0.0, 0.0, 0.0, 0.0])
        m = tf.reduce_max(y + tf.constant([1.0, 3.0, 3.0, 0.0, 3.0]))
        gm = tf.gradients(m, y)[0]
        gk = tf.gradients(tf.reduce_max(tf.reshape(y, [1, 5]) + [[1.0, 3.0, 3.0, 0.0, 3.0]], 1,
                                        keepdims=True), y)[0]
        gz = tf.gradients(tf.math.reduce_euclidean_norm(y), y)[0]
        with tf.Session() as s:
            gm, gk, gz = s.run([gm, gk, gz])
        np.testing.assert_allclose(gm, [0, 1 / 3, 1 / 3, 0, 1 / 3], rtol=1e-6)
        np.testing.assert_allclose(gk, [0, 1 / 3, 1 / 3, 0, 1 / 3], rtol=1e-6)
        assert np.isnan(gz).all()  # TF: x / (norm / grad) = 0 / 0


@pytest.mark.parametrize("make", [
    lambda x: tf.unique(x)[0],
    lambda x: tf.unique_with_counts(x)[0],
])
def test_ops_without_tf_gradient_raise_lookup_error(make):
    with tf.Graph().as_default():
        x = tf.constant([-1.0, 0.0, 0.0, 2.0, 2.0], name="x")
        y = make(x)
        with pytest.raises(LookupError) as e:
            tf.gradients(y, x)
        assert str(e.value).startswith(f"No gradient defined for operation'{y.op.name}' (op type: "
                                       f"{y.op.type}). In general every operation must have an "
                                       "associated `@tf.RegisterGradient` for correct autodiff")
        # a stop_gradient in front silences it, as TF's message says
        assert tf.gradients(tf.stop_gradient(y), x) == [None]
