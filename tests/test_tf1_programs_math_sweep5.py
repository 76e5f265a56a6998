"""TF1 programs against TF: segment ops' run-time checks, unsorted segment ops' num_segments,
nest's structure messages, TensorArray writes of another dtype, scan axes, reduce_all/any
conversion, reduce_variance, add_n/accumulate_n checks, bincount weights and empty reductions'
constant folding; expected values recorded from TF 2.21 (tensorflow.compat.v1, v2 behaviour
disabled)."""

import collections

import numpy as np
import pytest

import tensorweave as tf

_D = np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32)


def _run_error(t):
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(t)
    return str(e.value)


# -- segments ----------------------------------------------------------------------------------

def test_sorted_segment_ids_of_another_length_fail_at_run_time():
    for fn, op in [(tf.math.segment_sum, "SegmentSum"), (tf.math.segment_mean, "SegmentMean"),
                   (tf.math.segment_max, "SegmentMax"), (tf.math.segment_prod, "SegmentProd")]:
        with tf.Graph().as_default():
            short = fn(_D, [0, 0])
            assert (short.name, short.shape.as_list()) == (f"{op}:0", [None, 2])
            assert "segment_ids should be the same size as dimension 0 of input." in _run_error(short)
            assert "segment_ids should be the same size as dimension 0 of input." in _run_error(fn(_D, [0, 0, 1, 1]))


def test_sorted_segment_id_errors_are_tfs():
    with tf.Graph().as_default():
        assert ("Segment id -1 out of range [0, 2), possibly because 'segment_ids' input is not sorted."
                in _run_error(tf.math.segment_sum(_D, [-1, 0, 1])))
        assert "segment ids are not increasing" in _run_error(tf.math.segment_min(_D, [1, 0, 1]))
        assert "segment ids must be >= 0" in _run_error(tf.math.segment_sum(_D, [0, 0, -2]))
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(tf.math.segment_sum(_D, [0, 2, 2])), [[1, 2], [0, 0], [8, 10]])


def test_unsorted_segment_num_segments_checks():
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.math.unsorted_segment_sum(_D, [0, 0, 1], -1)
        assert str(e.value) == (
            "Dimension size, given by scalar input 2, must be non-negative but is -1 for '{{node UnsortedSegmentSum}} "
            "= UnsortedSegmentSum[T=DT_FLOAT, Tindices=DT_INT32, Tnumsegments=DT_INT32](UnsortedSegmentSum/data, "
            "UnsortedSegmentSum/segment_ids, UnsortedSegmentSum/num_segments)' with input shapes: [3,2], [3], [] "
            "and with computed input tensors: input[2] = <-1>.")
        with pytest.raises(ValueError) as e:
            tf.math.unsorted_segment_max(_D, [0, 0, 1], [2])
        assert str(e.value).startswith("Shape must be rank 0 but is rank 1 for '{{node UnsortedSegmentMax}}")
        with pytest.raises(ValueError) as e:
            tf.math.unsorted_segment_mean(_D, [0, 0, 1], -1)
        assert str(e.value).startswith(
            "Dimension size, given by scalar input 2, must be non-negative but is -1 for "
            "'{{node UnsortedSegmentMean/UnsortedSegmentSum}}")
        t = tf.math.unsorted_segment_sum(_D, [0, 0, 1], tf.placeholder_with_default(-1, []))
        assert t.shape.as_list() == [None, 2]
        assert "Input num_segments == -1 must not be negative." in _run_error(t)
        assert "Input num_segments == -1 must not be negative." in _run_error(
            tf.math.unsorted_segment_prod(_D, [0, 0, 1], tf.placeholder_with_default(-1, [])))


# -- nest --------------------------------------------------------------------------------------

P = collections.namedtuple("P", "x y")


def _nest_detail(a, b):
    with pytest.raises(ValueError) as e:
        tf.nest.assert_same_structure(a, b)
    return str(e.value).split("More specifically: ")[1].split("\n")[0]


def test_nest_messages_name_symbolic_tensors_and_walk_before_counting():
    with tf.Graph().as_default():
        a = tf.constant(1.0, name="a")
        b = tf.constant(2.0, name="b")
        v = tf.Variable(1.0, name="v")
        assert _nest_detail([P(a, b)], [a, b]) == (
            "Substructure \"type=P str=P(x=<tf.Tensor 'a:0' shape=() dtype=float32>, y=<tf.Tensor 'b:0' shape=() "
            "dtype=float32>)\" is a sequence, while substructure \"type=SymbolicTensor str=Tensor(\"a:0\", shape=(), "
            "dtype=float32)\" is not")
        assert _nest_detail([v], [[1]]) == (
            "Substructure \"type=list str=[1]\" is a sequence, while substructure \"type=RefVariable "
            "str=<tf.Variable 'v:0' shape=() dtype=float32_ref>\" is not")
        with pytest.raises(ValueError) as e:
            tf.cond(tf.constant(True), lambda: a, lambda: [a, b])
        assert "First structure: type=SymbolicTensor str=Tensor(\"a:0\", shape=(), dtype=float32)" in str(e.value)
    assert _nest_detail([[1, 2]], [1, 2]) == (
        'Substructure "type=list str=[1, 2]" is a sequence, while substructure "type=int str=1" is not')
    assert _nest_detail([1, 2, 3], [1, [2, 3]]) == (
        'Substructure "type=list str=[2, 3]" is a sequence, while substructure "type=int str=2" is not')
    assert _nest_detail([1], [1, 2]) == (
        "The two structures don't have the same number of elements. First structure: type=list str=[1]. "
        "Second structure: type=list str=[1, 2]")
    with pytest.raises(TypeError) as e:
        tf.nest.pack_sequence_as([1], 5)
    assert str(e.value) == "Attempted to pack value:\n  5\ninto a structure, but found incompatible type `<class 'int'>` instead."


# -- TensorArray -------------------------------------------------------------------------------

def test_tensor_array_writes_of_another_dtype_fail_in_the_kernel():
    with tf.Graph().as_default() as g:
        ta = tf.TensorArray(tf.float32, size=2)
        w = ta.write(0, tf.constant(1), name="wr")
        assert [(o.name, o.type) for o in g.get_operations()] == [
            ("TensorArray/size", "Const"), ("TensorArray", "TensorArrayV3"), ("Const", "Const"),
            ("wr/wr/index", "Const"), ("wr/wr", "TensorArrayWriteV3")]
        assert "TensorArray dtype is float but Op is trying to write dtype int32." in _run_error(w.flow)
        s = ta.write(0, tf.constant(1.0, tf.float64)).stack()
        assert (s.name, s.dtype, s.shape.as_list()) == ("TensorArrayStack/TensorArrayGatherV3:0", tf.float32, [2])
        assert "TensorArray dtype is float but Op is trying to write dtype double." in _run_error(s)
        assert "TensorArray dtype is float but Op is trying to write dtype string." in _run_error(
            ta.write(0, "a").stack())
        assert "TensorArray dtype is float but Op is trying to write dtype int32." in _run_error(
            ta.scatter([0, 1], tf.constant([1, 2])).stack())
        u = ta.unstack(tf.constant([1, 2]))
        assert "TensorArray dtype is float but Op is trying to write dtype int32." in _run_error(u.stack())
        with pytest.raises(ValueError) as e:
            ta.split(tf.constant([1, 2], name="ints"), [1, 1])
        assert str(e.value) == ("value: Tensor conversion requested dtype float32 for Tensor with dtype int32: "
                                "<tf.Tensor 'ints:0' shape=(2,) dtype=int32>")
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(ta.write(0, 1).stack()), [1, 0])
            np.testing.assert_array_equal(sess.run(ta.scatter([0, 1], [1, 2]).stack()), [1, 2])
        i = tf.constant(0)
        _, t = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, t.write(i, i)), [i, tf.TensorArray(tf.float32, 2)])
        err = _run_error(t.stack())
        assert "TensorArray dtype is float but Op is trying to write dtype int32." in err
        assert "Node: 'while/TensorArrayWrite/TensorArrayWriteV3'" in err


# -- scans and reductions ----------------------------------------------------------------------

def test_scan_axis_errors_report_the_adjusted_axis():
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    with tf.Graph().as_default():
        assert ("ScanOp: Expected scan axis in the range [-2, 2), but got -1" in _run_error(tf.cumsum(x, axis=-3)))
        assert ("ScanOp: Expected scan axis in the range [-2, 2), but got 2" in _run_error(tf.cumsum(x, axis=2)))
        assert ("ScanOp: Expected scan axis in the range [-2, 2), but got -3" in
                _run_error(tf.math.cumprod(x, axis=tf.placeholder_with_default(-5, []))))
        assert "ScanOp: axis must be a scalar, not [1]" in _run_error(tf.cumsum(x, axis=[1]))


def test_reduce_all_any_convert_python_values_to_bool():
    with tf.Graph().as_default():
        with pytest.raises(TypeError) as e:
            tf.reduce_all([1, 2, 4])
        assert str(e.value) == ("Expected bool passed to parameter 'input' of op 'All', got [1, 2, 4] of type 'list' "
                                "instead. Error: Expected bool, but got 1 of type 'int'.")
        with pytest.raises(TypeError) as e:
            tf.reduce_any(["a", "b"])
        assert str(e.value) == ("Expected bool passed to parameter 'input' of op 'Any', got ['a', 'b'] of type "
                                "'list' instead. Error: Expected bool, but got a of type 'str'.")
        with pytest.raises(TypeError) as e:
            tf.reduce_any(tf.constant([1]))
        assert str(e.value) == "Input 'input' of 'Any' Op has type int32 that does not match expected type of bool."


def test_reduce_variance_and_std_names_and_integer_message():
    x = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    with tf.Graph().as_default():
        with pytest.raises(ValueError) as e:
            tf.math.reduce_variance(x, axis=2)
        assert "(reduce_variance/Const, reduce_variance/Mean/reduction_indices)" in str(e.value)
        with pytest.raises(ValueError) as e:
            tf.math.reduce_std(x, axis=2)
        assert "(reduce_std/Const, reduce_std/reduce_variance/Mean/reduction_indices)" in str(e.value)
        for fn in (tf.math.reduce_variance, tf.math.reduce_std):
            with pytest.raises(TypeError) as e:
                fn([1, 2, 4])
            assert str(e.value) == "Input must be either real or complex. Received integer type <dtype: 'int32'>."


def test_empty_max_and_min_fold_to_the_identity():
    with tf.Graph().as_default():
        assert tf.math.bincount(tf.constant([], tf.int32)).shape.as_list() == [0]
        assert tf.math.bincount(tf.constant([], tf.int32), minlength=3).shape.as_list() == [3]
        assert tf.zeros(tf.reduce_max(tf.constant([], tf.int32)) * 0 + 2).shape.as_list() == [2]
        with tf.Session() as sess:
            assert sess.run(tf.reduce_max(tf.constant([], tf.float32))) == -np.inf
            assert sess.run(tf.reduce_min(tf.constant([], tf.uint8))) == 255


def test_bincount_weights_of_another_shape():
    with tf.Graph().as_default():
        assert ("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it acts as all "
                "weights equal to 1. Received [2]" in _run_error(tf.math.bincount([1, 1, 3], weights=[0.5, 1.0])))


# -- add_n, accumulate_n -----------------------------------------------------------------------

def test_add_n_checks():
    x = np.ones((2, 2), np.float32)
    with tf.Graph().as_default():
        err = _run_error(tf.add_n([tf.placeholder_with_default(x, None),
                                   tf.placeholder_with_default(np.ones(3, np.float32), None)], name="foo"))
        assert ("Inputs to operation foo of type AddN must have the same size and shape.  Input 0: [2,2] != "
                "input 1: [3]") in err
        err = _run_error(tf.add_n([tf.placeholder_with_default(x, None)] * 2 +
                                  [tf.placeholder_with_default(np.ones(2, np.float32), None)]))
        assert "Input 0: [2,2] != input 2: [2]" in err
        for v, name in [("a", "string"), (True, "bool")]:
            with pytest.raises(TypeError) as e:
                tf.add_n([tf.constant(v), tf.constant(v)])
            assert str(e.value) == (
                f"Value passed to parameter 'inputs' has DataType {name} not in list of allowed values: float32, "
                "float64, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, qint16, "
                "quint16, uint16, complex128, float16, uint32, uint64, variant")
        # the failed calls used up their names, as in TF
        assert tf.add_n([tf.constant(1.), tf.constant(2.)]).name == "AddN_3:0"


def test_accumulate_n_checks():
    x = np.ones((2, 2), np.float32)
    msg = "inputs must be a list of at least one Tensor with the same dtype and shape"
    with tf.Graph().as_default():
        for inputs in ([], [tf.constant(x), tf.constant([[1, 1], [1, 1]])]):
            with pytest.raises(ValueError) as e:
                tf.math.accumulate_n(inputs)
            assert str(e.value) == msg
        with pytest.raises(ValueError) as e:
            tf.math.accumulate_n([tf.constant(x), tf.ones([3])])
        assert str(e.value) == "Shapes (2, 2) and (3,) are not compatible"
        with pytest.raises(ValueError) as e:
            tf.math.accumulate_n([x, x], shape=[3])
        assert str(e.value) == "Shapes (3,) and (2, 2) are not compatible"
        with pytest.raises(TypeError) as e:
            tf.math.accumulate_n([x, x], tensor_dtype=tf.int32)
        assert str(e.value) == ("The `tensor_dtype` argument is <dtype: 'int32'>, but `input` is of type "
                                "<dtype: 'float32'>. These must be equal. Try casting the input to the desired type.")
        with tf.Session() as sess:
            assert sess.run(tf.math.accumulate_n([1, 2])) == 3
