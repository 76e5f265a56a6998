"""Math ops: values against NumPy, TF's op names/dtypes/static shapes, integer semantics, errors.

Expected names, dtypes, shapes and error messages were recorded from TensorFlow 2.x running
`tensorflow.compat.v1` with v2 behavior disabled (the oracle for this project)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.testing import check_op

rng = np.random.RandomState(0)
X = rng.standard_normal((2, 3)).astype(np.float32)
Y = rng.standard_normal((2, 3)).astype(np.float32)
POS = (rng.uniform(0.5, 2.0, (2, 3))).astype(np.float32)
UNIT = rng.uniform(-0.9, 0.9, (2, 3)).astype(np.float32)


def _ph(dtype=tf.float32, shape=(2, 3)):
    return tf.placeholder(dtype, shape)


def _ops():
    return [(o.name, o.type) for o in tf.get_default_graph().get_operations()
            if o.type != "Placeholder"]


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


# -- names (recorded from TF) --------------------------------------------------------------------

NAMES = [
    (lambda a, b: a + b, "add:0", [("add", "AddV2")]),
    (lambda a, b: tf.add(a, b), "Add:0", [("Add", "AddV2")]),
    (lambda a, b: a - b, "sub:0", [("sub", "Sub")]),
    (lambda a, b: tf.subtract(a, b), "Sub:0", [("Sub", "Sub")]),
    (lambda a, b: a * 2, "mul:0", [("mul/y", "Const"), ("mul", "Mul")]),
    (lambda a, b: 2 * a, "mul:0", [("mul/x", "Const"), ("mul", "Mul")]),
    (lambda a, b: tf.multiply(a, b), "Mul:0", [("Mul", "Mul")]),
    (lambda a, b: a / b, "truediv:0", [("truediv", "RealDiv")]),
    (lambda a, b: tf.divide(a, b), "truediv:0", [("truediv", "RealDiv")]),
    (lambda a, b: 2 / a, "truediv:0", [("truediv/x", "Const"), ("truediv", "RealDiv")]),
    (lambda a, b: a // b, "floordiv:0", [("floordiv", "FloorDiv")]),
    (lambda a, b: tf.floor_div(a, b), "FloorDiv:0", [("FloorDiv", "FloorDiv")]),
    (lambda a, b: tf.div(a, b), "div:0", [("div", "RealDiv")]),
    (lambda a, b: tf.div_no_nan(a, b), "div_no_nan:0", [("div_no_nan", "DivNoNan")]),
    (lambda a, b: tf.realdiv(a, b), "RealDiv:0", [("RealDiv", "RealDiv")]),
    (lambda a, b: a % b, "mod:0", [("mod", "FloorMod")]),
    (lambda a, b: tf.mod(a, 2.0), "FloorMod:0", [("FloorMod/y", "Const"), ("FloorMod", "FloorMod")]),
    (lambda a, b: a ** b, "pow:0", [("pow", "Pow")]),
    (lambda a, b: tf.pow(a, 2.0), "Pow:0", [("Pow/y", "Const"), ("Pow", "Pow")]),
    (lambda a, b: -a, "Neg:0", [("Neg", "Neg")]),
    (lambda a, b: abs(a), "Abs:0", [("Abs", "Abs")]),
    (lambda a, b: tf.maximum(a, 0), "Maximum:0", [("Maximum/y", "Const"), ("Maximum", "Maximum")]),
    (lambda a, b: tf.squared_difference(a, b), "SquaredDifference:0",
     [("SquaredDifference", "SquaredDifference")]),
    (lambda a, b: tf.add_n([a, b, a]), "AddN:0", [("AddN", "AddN")]),
    (lambda a, b: tf.scalar_mul(2.0, a), "Mul:0", [("scalar", "Const"), ("Mul", "Mul")]),
    (lambda a, b: a < b, "Less:0", [("Less", "Less")]),
    (lambda a, b: a <= 1.0, "LessEqual:0", [("LessEqual/y", "Const"), ("LessEqual", "LessEqual")]),
    (lambda a, b: tf.equal(a, b), "Equal:0", [("Equal", "Equal")]),
    (lambda a, b: tf.reduce_sum(a), "Sum:0", [("Const", "Const"), ("Sum", "Sum")]),
    (lambda a, b: tf.reduce_mean(a, axis=1, keepdims=True), "Mean:0",
     [("Mean/reduction_indices", "Const"), ("Mean", "Mean")]),
    (lambda a, b: tf.reduce_max(a, reduction_indices=[0]), "Max:0",
     [("Max/reduction_indices", "Const"), ("Max", "Max")]),
    (lambda a, b: tf.argmax(a, 1), "ArgMax:0", [("ArgMax/dimension", "Const"), ("ArgMax", "ArgMax")]),
    (lambda a, b: tf.cumsum(a, 1, exclusive=True), "Cumsum:0", [("Cumsum/axis", "Const"), ("Cumsum", "Cumsum")]),
    (lambda a, b: tf.cast(a, tf.int32), "Cast:0", [("Cast", "Cast")]),
    (lambda a, b: tf.to_float(a), "Placeholder:0", []),
    (lambda a, b: tf.to_int32(a), "ToInt32:0", [("ToInt32", "Cast")]),
    (lambda a, b: tf.clip_by_value(a, 0.0, 1.0), "clip_by_value:0",
     [("clip_by_value/Minimum/y", "Const"), ("clip_by_value/Minimum", "Minimum"),
      ("clip_by_value/y", "Const"), ("clip_by_value", "Maximum")]),
    (lambda a, b: tf.matmul(a, tf.transpose(b)), "MatMul:0", None),
    (lambda a, b: tf.sigmoid(a), "Sigmoid:0", [("Sigmoid", "Sigmoid")]),
    (lambda a, b: tf.round(a), "Round:0", [("Round", "Round")]),
    (lambda a, b: tf.is_nan(a), "IsNan:0", [("IsNan", "IsNan")]),
    (lambda a, b: tf.unsorted_segment_sum(a, [0, 1], 3), "UnsortedSegmentSum:0",
     [("UnsortedSegmentSum/segment_ids", "Const"), ("UnsortedSegmentSum/num_segments", "Const"),
      ("UnsortedSegmentSum", "UnsortedSegmentSum")]),
    (lambda a, b: tf.segment_sum(a, [0, 0]), "SegmentSum:0",
     [("SegmentSum/segment_ids", "Const"), ("SegmentSum", "SegmentSum")]),
    (lambda a, b: tf.einsum("ij,kj->ik", a, b), "einsum/Einsum:0", [("einsum/Einsum", "Einsum")]),
    (lambda a, b: tf.logical_xor(a > 0, b > 0), "LogicalXor:0", None),
]


@pytest.mark.parametrize("build,name,ops", NAMES)
def test_names_match_tf(build, name, ops):
    a, b = _ph(), _ph()
    before = set(tf.get_default_graph().get_operations())
    out = build(a, b)
    assert out.name == name
    if ops is not None:
        new = [(o.name, o.type) for o in tf.get_default_graph().get_operations() if o not in before]
        assert new == ops


def test_names_integer_truediv_casts():
    a, b = _ph(tf.int32), _ph(tf.int32)
    out = a / b
    assert (out.name, out.dtype) == ("truediv:0", tf.float64)
    assert _ops() == [("truediv/Cast", "Cast"), ("truediv/Cast_1", "Cast"), ("truediv", "RealDiv")]
    assert (tf.placeholder(tf.int8, [2]) / tf.placeholder(tf.int8, [2])).dtype == tf.float32


def test_uniquified_names_and_scopes():
    a = _ph()
    assert (a + a).name == "add:0"
    assert (a + a).name == "add_1:0"
    with tf.name_scope("layer"):
        assert tf.add(a, 1.0).name == "layer/Add:0"
        assert (a * 3).op.inputs[1].name == "layer/mul/y:0"


def test_xor_operator_ops():
    a, b = _ph(tf.bool), _ph(tf.bool)
    out = a ^ b
    assert out.name == "xor:0"
    assert _ops() == [("xor/LogicalOr", "LogicalOr"), ("xor/LogicalAnd", "LogicalAnd"),
                      ("xor/LogicalNot", "LogicalNot"), ("xor", "LogicalAnd")]
    assert (a & b).name == "and:0" and (a | b).name == "or:0" and (~a).name == "LogicalNot:0"


def test_batch_matmul_op_types_and_shapes():
    f = tf.float32
    assert tf.matmul(tf.placeholder(f, [5, 2, 3]), tf.placeholder(f, [5, 3, 4])).op.type == "BatchMatMulV2"
    out = tf.matmul(tf.placeholder(f, [5, 1, 2, 3]), tf.placeholder(f, [7, 3, 4]))
    assert out.shape.as_list() == [5, 7, 2, 4]
    out = tf.matmul(tf.placeholder(f), tf.placeholder(f, [4, 3]))
    assert out.op.type == "BatchMatMulV2" and out.shape.ndims is None
    out = tf.matmul(tf.placeholder(f, [None, 2, 3]), tf.placeholder(f, [None, 3, 4]))
    assert out.shape.as_list() == [None, 2, 4]
    out = tf.matmul(_ph(), tf.placeholder(f, [4, 3]), adjoint_b=True)
    assert out.op.type == "MatMul" and out.op.get_attr("transpose_b") and out.shape.as_list() == [2, 4]


def test_reduce_logsumexp_and_count_nonzero_names():
    a = _ph()
    assert tf.reduce_logsumexp(a).name == "ReduceLogSumExp:0"
    out = tf.count_nonzero(a)
    assert (out.name, out.dtype) == ("count_nonzero/Sum:0", tf.int64)
    out = tf.count_nonzero(a, dtype=tf.int32)
    assert (out.name, out.dtype) == ("count_nonzero_1/Cast_1:0", tf.int32)


# -- dtype rules and build-time errors (messages recorded from TF) --------------------------------

def test_python_scalars_take_the_tensor_dtype():
    a = _ph()
    assert (a * 2).dtype == tf.float32
    assert (a * np.float64(2.0)).dtype == tf.float32
    assert (a + np.array([1.0, 2.0, 3.0])).dtype == tf.float32
    i = _ph(tf.int32)
    assert (i + np.array(1.5)).dtype == tf.int32
    assert (tf.placeholder(tf.int64) + 2).dtype == tf.int64


MISMATCH = [
    (lambda i, a: i + 1.5, "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."),
    (lambda i, a: i + a, "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."),
    (lambda i, a: a + i, "Input 'y' of 'AddV2' Op has type int32 that does not match type float32 of argument 'x'."),
    (lambda i, a: tf.add(2, a), "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of argument 'x'."),
    (lambda i, a: a * i, "Input 'y' of 'Mul' Op has type int32 that does not match type float32 of argument 'x'."),
    (lambda i, a: i * 1.5, "Expected int32 passed to parameter 'y' of op 'Mul', got 1.5 of type 'float' instead. "
                           "Error: Expected int32, but got 1.5 of type 'float'."),
    (lambda i, a: i < 1.5, "Expected int32 passed to parameter 'y' of op 'Less', got 1.5 of type 'float' instead. "
                           "Error: Expected int32, but got 1.5 of type 'float'."),
    (lambda i, a: 1.5 + i, "Expected int32, but got 1.5 of type 'float'."),
    (lambda i, a: i / 1.5, "`x` and `y` must have the same dtype, got tf.int32 != tf.float32."),
    (lambda i, a: tf.matmul(a, tf.placeholder(tf.int32, [3, 2])),
     "Input 'b' of 'MatMul' Op has type int32 that does not match type float32 of argument 'a'."),
    (lambda i, a: tf.add_n([a, i]), "Tensors in list passed to 'inputs' of 'AddN' Op have types [float32, int32] "
                                    "that don't all match."),
    (lambda i, a: tf.sqrt(i), "Value passed to parameter 'x' has DataType int32 not in list of allowed values: "
                              "bfloat16, float16, float32, float64, complex64, complex128"),
    (lambda i, a: tf.placeholder(tf.bool) + tf.placeholder(tf.bool),
     "Value passed to parameter 'x' has DataType bool not in list of allowed values: bfloat16, float16, float32, "
     "float64, uint8, uint16, uint32, uint64, int8, int16, int32, int64, complex64, complex128"),
    (lambda i, a: tf.logical_and(i, i), "Input 'x' of 'LogicalAnd' Op has type int32 that does not match expected "
                                        "type of bool."),
    (lambda i, a: tf.reduce_any(a), "Input 'input' of 'Any' Op has type float32 that does not match expected type "
                                    "of bool."),
    (lambda i, a: tf.reduce_sum(a, axis=1.0), "Value passed to parameter 'reduction_indices' has DataType float32 "
                                              "not in list of allowed values: int32, int64"),
]


@pytest.mark.parametrize("build,msg", MISMATCH)
def test_dtype_errors(build, msg):
    with pytest.raises(TypeError) as e:
        build(_ph(tf.int32), _ph())
    assert str(e.value) == msg


SHAPE_ERRORS = [
    (lambda: tf.matmul(_ph(), tf.placeholder(tf.float32, [4, 5])), "Dimensions must be equal, but are 3 and 4"),
    (lambda: tf.matmul(tf.placeholder(tf.float32, [3]), tf.placeholder(tf.float32, [3, 4])),
     "Shape must be rank 2 but is rank 1"),
    (lambda: _ph() + tf.placeholder(tf.float32, [4]), "Dimensions must be equal, but are 3 and 4"),
    (lambda: tf.reduce_sum(_ph(), 2), "Invalid reduction dimension 2 for input with 2 dimensions."),
    (lambda: tf.reduce_sum(_ph(), -3), "Invalid reduction dimension -3 for input with 2 dimensions."),
    (lambda: tf.argmax(_ph(), 2), "Dimension (2) must be in the range [-2, 2), where 2 is the number of "
                                  "dimensions in the input."),
    (lambda: tf.add_n([_ph(), tf.placeholder(tf.float32, [3])]), "Shapes must be equal rank, but are 2 and 1"),
    (lambda: tf.unsorted_segment_sum(_ph(), [0, 1, 2], 3), "Dimensions must be equal, but are 2 and 3"),
    (lambda: tf.reduce_sum(_ph(), axis=1, reduction_indices=1), "Cannot specify both 'reduction_indices' and 'axis'."),
    (lambda: tf.argmax(_ph(), axis=1, dimension=1), "Cannot specify both 'dimension' and 'axis'."),
    (lambda: tf.add_n([]), "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype "
                           "and shape."),
    (lambda: tf.scalar_mul(tf.constant([2.0, 1.0]), _ph()), "The input scalar must be a 0-D value. Received shape (2,)."),
    (lambda: tf.clip_by_value(_ph(), [0.0, 1.0, 2.0, 3.0], 1.0), "Dimensions must be equal, but are 3 and 4"),
]


@pytest.mark.parametrize("build,msg", SHAPE_ERRORS)
def test_build_time_value_errors(build, msg):
    with pytest.raises(ValueError) as e:
        build()
    assert str(e.value).startswith(msg)


# -- static shapes -------------------------------------------------------------------------------

def test_reduction_static_shapes():
    a = _ph()
    assert tf.reduce_sum(a, 1, keepdims=True).shape.as_list() == [2, 1]
    assert tf.reduce_sum(a, -1, keep_dims=True).shape.as_list() == [2, 1]
    assert tf.reduce_sum(a, reduction_indices=[0]).shape.as_list() == [3]
    assert tf.reduce_sum(a, axis=[0, 0]).shape.as_list() == [3]
    assert tf.reduce_sum(a, axis=[]).shape.as_list() == [2, 3]
    assert tf.reduce_sum(tf.placeholder(tf.float32), 1).shape.ndims is None
    assert tf.reduce_sum(a, tf.placeholder(tf.int32, [])).shape.ndims is None
    assert tf.reduce_sum(a, tf.placeholder(tf.int32, []), keepdims=True).shape.as_list() == [None, None]
    assert tf.reduce_sum(tf.placeholder(tf.float32, [None, 3])).shape.as_list() == []
    assert tf.argmax(tf.placeholder(tf.float32), 1).shape.ndims is None
    assert tf.argmax(a, tf.placeholder(tf.int32, [])).shape.as_list() == [None]
    assert tf.argmax(a, dimension=1, output_type=tf.int32).dtype == tf.int32
    assert tf.segment_sum(a, [0, 0]).shape.as_list() == [None, 3]
    assert tf.unsorted_segment_sum(a, [[0, 1, 0], [1, 1, 1]], 3).shape.as_list() == [3]
    assert tf.unsorted_segment_sum(a, [0, 1], tf.placeholder(tf.int32, [])).shape.as_list() == [None, 3]
    assert tf.add_n([tf.placeholder(tf.float32, [None, 3]), tf.placeholder(tf.float32, [2, None])]).shape.as_list() \
        == [2, 3]
    assert tf.tensordot(tf.placeholder(tf.float32, [None, 3]), tf.placeholder(tf.float32, [3, 4]), 1) \
        .shape.as_list() == [None, 4]


def test_cast_is_identity_for_same_dtype_and_round_for_ints():
    a = _ph()
    assert tf.cast(a, tf.float32) is a
    i = _ph(tf.int32)
    assert tf.round(i) is i
    assert tf.cast(1.5, tf.int32).name == "Cast:0"
    assert tf.to_float(1).op.inputs[0].name == "ToFloat/x:0"


def test_static_values_through_shape_arithmetic():
    from tensorweave.framework.constant_op import constant_value
    c = tf.constant([2, 3])
    assert constant_value(c * 2 + 1).tolist() == [5, 7]
    assert constant_value(tf.reduce_prod(c)) == 6
    assert constant_value(tf.maximum(c, 3)).tolist() == [3, 3]
    assert constant_value(c // 2).tolist() == [1, 1]
    assert constant_value(tf.cast(c, tf.float32)).dtype == np.float32
    s = tf.shape(tf.placeholder(tf.float32, [4, 5]))
    assert constant_value(tf.reduce_prod(s)) == 20


# -- values --------------------------------------------------------------------------------------

UNARY = [
    (tf.negative, X, np.negative), (tf.abs, X, np.abs), (tf.sign, X, np.sign), (tf.square, X, np.square),
    (tf.sqrt, POS, np.sqrt), (tf.rsqrt, POS, lambda x: 1 / np.sqrt(x)), (tf.exp, X, np.exp),
    (tf.log, POS, np.log), (tf.log1p, POS, np.log1p), (tf.expm1, X, np.expm1), (tf.sin, X, np.sin),
    (tf.cos, X, np.cos), (tf.tan, UNIT, np.tan), (tf.asin, UNIT, np.arcsin), (tf.acos, UNIT, np.arccos),
    (tf.atan, X, np.arctan), (tf.sinh, X, np.sinh), (tf.cosh, X, np.cosh), (tf.tanh, X, np.tanh),
    (tf.sigmoid, X, lambda x: 1 / (1 + np.exp(-x))), (tf.log_sigmoid, X, lambda x: -np.logaddexp(0, -x)),
    (tf.math.erf, X, lambda x: np.vectorize(__import__("math").erf)(x).astype(x.dtype)),
    (tf.reciprocal, POS, np.reciprocal), (tf.floor, X, np.floor), (tf.ceil, X, np.ceil),
    (tf.math.rint, X, np.rint), (tf.is_finite, X, np.isfinite), (tf.math.is_inf, X, np.isinf),
]


@pytest.mark.parametrize("fn,x,ref", UNARY, ids=lambda v: getattr(v, "__name__", ""))
def test_unary_values(fn, x, ref):
    check_op(fn, [x], ref, rtol=2e-6, atol=2e-6)
    check_op(fn, [x.astype(np.float64)], ref, rtol=1e-12, atol=1e-12)


BINARY = [
    (lambda a, b: a + b, np.add), (lambda a, b: a - b, np.subtract), (lambda a, b: a * b, np.multiply),
    (lambda a, b: a / b, np.true_divide), (lambda a, b: a // b, np.floor_divide),
    (lambda a, b: a % b, np.mod), (tf.truncatemod, np.fmod), (tf.truncatediv, lambda a, b: np.trunc(a / b)),
    (tf.maximum, np.maximum), (tf.minimum, np.minimum), (tf.squared_difference, lambda a, b: (a - b) ** 2),
    (tf.atan2, np.arctan2), (lambda a, b: abs(a) ** b, lambda a, b: np.abs(a) ** b),
    (tf.less, np.less), (tf.less_equal, np.less_equal), (tf.greater, np.greater),
    (tf.greater_equal, np.greater_equal), (tf.equal, np.equal), (tf.not_equal, np.not_equal),
]


@pytest.mark.parametrize("fn,ref", BINARY)
def test_binary_values_with_broadcasting(fn, ref):
    check_op(fn, [X, Y], ref, rtol=1e-5, atol=1e-6)
    check_op(fn, [X, Y[0]], ref, rtol=1e-5, atol=1e-6)
    check_op(fn, [X[:, :1].astype(np.float64), Y[0].astype(np.float64)], ref, rtol=1e-12)


def test_float32_stays_float32_with_python_scalars():
    out = _run(tf.constant(X) * 2.5 + 1 - tf.constant(X) / 3.0)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, X * 2.5 + 1 - X / 3.0, rtol=1e-6)
    assert _run(tf.sigmoid(tf.constant(X))).dtype == np.float32
    assert _run(tf.reduce_mean(tf.constant(X))).dtype == np.float32


def test_integer_division_and_mod_semantics():
    # values recorded from TF
    x, y = tf.constant([7, -7, 7, -7]), tf.constant([2, 2, -2, -2])
    got = _run([x // y, x % y, tf.truncatediv(x, y), tf.truncatemod(x, y), x / y, tf.div(x, y)])
    assert got[0].tolist() == [3, -4, -4, 3] and got[0].dtype == np.int32
    assert got[1].tolist() == [1, 1, -1, -1]
    assert got[2].tolist() == [3, -3, -3, 3]
    assert got[3].tolist() == [1, -1, 1, -1]
    assert got[4].tolist() == [3.5, -3.5, -3.5, 3.5] and got[4].dtype == np.float64
    assert got[5].tolist() == [3, -4, -4, 3]
    fx, fy = tf.constant([7.5, -7.5, 7.5, -7.5]), tf.constant([2.0, 2, -2, -2])
    got = _run([fx % fy, tf.truncatemod(fx, fy), fx // fy])
    assert got[0].tolist() == [1.5, 0.5, -0.5, -1.5]
    assert got[1].tolist() == [1.5, -1.5, 1.5, -1.5]
    assert got[2].tolist() == [3.0, -4.0, -4.0, 3.0]
    i64 = tf.constant([7, -7], tf.int64)
    assert _run(i64 // 2).dtype == np.int64
    assert _run(tf.constant([7], tf.uint8) // tf.constant([2], tf.uint8)).tolist() == [3]


@pytest.mark.parametrize("build", [lambda x, y: x // y, lambda x, y: x % y,
                                   lambda x, y: tf.floor_div(tf.cast(x, tf.int64), tf.cast(y, tf.int64))])
def test_integer_division_by_zero(build):
    out = build(tf.constant([7, 1]), tf.constant([1, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integer division by zero"):
        _run(out)


@pytest.mark.parametrize("build", [tf.truncatediv, tf.truncatemod])
def test_truncated_integer_division_by_zero(build):
    # TF 2.21: the truncating functors have no error path, so the binary-op kernel's generic
    # InternalError is what a zero divisor gives (recorded with /tmp/pp_math/m2.py).
    out = build(tf.constant([7, 1]), tf.constant([1, 0]))
    with pytest.raises(tf.errors.InternalError, match="only integer div and mod should have errors"):
        _run(out)


def test_float_floormod_keeps_fmod_signed_zero():
    # TF 2.21: floormod(-0.0, 2.0) is -0.0 (np.mod gives +0.0); the sign fix-up as TF's
    got = _run(tf.floormod(tf.constant([-7.5, -3.0, -0.0, 7.5, 0.0]), tf.constant([2.0, -2.0, 2.0, -0.0, 0.0])))
    np.testing.assert_array_equal(got[:2], [0.5, -1.0])
    assert got[2] == 0 and np.signbit(got[2])
    assert np.isnan(got[3:]).all()


def test_complex_pow_cast_and_euclidean_norm():
    c = tf.constant([3 + 4j, -1 - 1j, 0j, 1j], tf.complex64)
    got = _run(tf.pow(c, tf.constant(2 + 0j, tf.complex64)))
    # TF 2.21 (exp(y log x) in complex64): 1j ** 2 = -1 - 8.7422777e-08j, 0 ** 2 = 0 - 0j
    assert got[3] == np.complex64(-1 - 8.7422777e-08j) and got[2] == 0 and np.signbit(got[2].imag)
    np.testing.assert_allclose(got, [-7 + 24j, 2j, 0, -1], atol=1e-6)
    p = tf.placeholder(tf.complex64)
    with tf.Session() as s:
        np.testing.assert_array_equal(s.run(tf.cast(p, tf.float32), {p: [1 + 2j, -3j]}), [1.0, 0.0])
    assert _run(tf.math.reduce_euclidean_norm(tf.constant([[3, 3], [5, 12]]), 1)).tolist() == [4, 13]
    assert _run(tf.math.reduce_euclidean_norm(tf.constant([3 + 4j, 1j], tf.complex64))) == np.complex64(
        np.sqrt(26))
    assert np.isnan(_run(tf.digamma(tf.constant([0.0, -2.0])))).all()   # TF: poles give NaN


def test_float_division_edge_cases():
    num, den = tf.constant([7.0, 0.0, -1.0]), tf.constant([0.0, 0.0, 0.0])
    got = _run([num / den, num // den, tf.div_no_nan(num, tf.constant([0.0, 0.0, 2.0]))])
    np.testing.assert_array_equal(got[0], [np.inf, np.nan, -np.inf])
    np.testing.assert_array_equal(got[1], [np.inf, np.nan, -np.inf])
    np.testing.assert_array_equal(got[2], [0.0, 0.0, -0.5])
    got = _run(tf.div_no_nan(tf.constant([3, 4]), tf.constant([0, 2])))
    assert got.dtype == np.float64 and got.tolist() == [0.0, 2.0]


def test_round_is_bankers_and_sign_keeps_nan():
    v = tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, -2.6, 2.4])
    assert _run(tf.round(v)).tolist() == [0.0, 2.0, 2.0, -0.0, -2.0, -3.0, 2.0]
    assert _run(tf.rint(v)).tolist() == [0.0, 2.0, 2.0, -0.0, -2.0, -3.0, 2.0]
    np.testing.assert_array_equal(_run(tf.sign(tf.constant([-2.0, 0.0, 3.0, np.nan]))), [-1, 0, 1, np.nan])


def test_integer_pow():
    assert _run(tf.pow(tf.constant([2, 3]), tf.constant([3, 2]))).tolist() == [8, 9]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Integers to negative integer powers are not allowed"):
        _run(tf.pow(tf.constant([2, 3]), tf.constant([-1, 2])))


def test_runtime_incompatible_shapes():
    a = tf.placeholder(tf.float32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2\]|Incompatible"):
        _run(a + tf.constant([1.0, 2.0, 3.0]), {a: [1.0, 2.0]})
    m = tf.placeholder(tf.float32, [None, None])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[4,5\]"):
        _run(tf.matmul(m, tf.zeros([4, 5])), {m: np.zeros((2, 3))})


def test_add_n_accumulate_n_scalar_mul():
    check_op(lambda a, b: tf.add_n([a, b, a, b]), [X, Y], lambda a, b: 2 * (a + b))
    check_op(lambda a, b: tf.add_n([a, b]), [X, Y], np.add)
    check_op(lambda a, b: tf.accumulate_n([a, b, b]), [X, Y], lambda a, b: a + 2 * b)
    check_op(lambda a: tf.scalar_mul(3.0, a), [X], lambda a: 3 * a)
    a = _ph()
    assert tf.add_n([a]) is a
    assert _run(tf.add_n([[1.0, 2.0], [3.0, 4.0]])).tolist() == [4.0, 6.0]


A = rng.standard_normal((4, 3)).astype(np.float32)
B = rng.standard_normal((3, 5)).astype(np.float32)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_transposes(ta, tb):
    a = A.T.copy() if ta else A
    b = B.T.copy() if tb else B
    check_op(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), [a, b], A @ B, rtol=1e-5)
    check_op(lambda x, y: tf.matmul(x, y, adjoint_a=ta, adjoint_b=tb), [a, b], A @ B, rtol=1e-5)


def test_matmul_batched_broadcast_and_int():
    x = rng.standard_normal((2, 1, 4, 3))
    y = rng.standard_normal((5, 3, 2))
    check_op(lambda a, b: tf.matmul(a, b), [x, y], np.matmul, rtol=1e-12)
    check_op(lambda a, b: a @ b, [x, y], np.matmul, rtol=1e-12)
    check_op(lambda a, b: tf.matmul(a, b, transpose_a=True, adjoint_b=True),
             [np.swapaxes(x, -1, -2), np.swapaxes(y, -1, -2)], np.matmul(x, y), rtol=1e-12)
    ia, ib = np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(12, dtype=np.int32).reshape(3, 4)
    check_op(tf.matmul, [ia, ib], ia @ ib)
    out = _run(tf.matmul(tf.constant(X), [[1.0], [2.0], [3.0]]))
    np.testing.assert_allclose(out, X @ np.array([[1.0], [2.0], [3.0]], np.float32), rtol=1e-6)


def test_tensordot_einsum_trace():
    a = rng.standard_normal((2, 3, 4))
    b = rng.standard_normal((4, 3, 5))
    check_op(lambda x, y: tf.tensordot(x, y, [[1, 2], [1, 0]]), [a, b], np.tensordot(a, b, [[1, 2], [1, 0]]),
             rtol=1e-12)
    check_op(lambda x, y: tf.tensordot(x, y, 1), [a, b], np.tensordot(a, b, 1), rtol=1e-12)
    check_op(lambda x, y: tf.tensordot(x, y, 0), [a[0, 0], b[0, 0]], np.tensordot(a[0, 0], b[0, 0], 0))
    check_op(lambda x, y: tf.einsum("bij,jkl->bikl", x, y), [a, b], np.einsum("bij,jkl->bikl", a, b), rtol=1e-12)
    check_op(lambda x: tf.einsum("ii", x), [a[0, :, :3]], np.trace(a[0, :, :3]))
    check_op(lambda x: tf.einsum("...ij->...ji", x), [a], np.swapaxes(a, -1, -2))
    check_op(lambda x: tf.trace(x), [a[:, :, :3]], np.trace(a[:, :, :3], axis1=1, axis2=2), rtol=1e-12)
    tf.reset_default_graph()
    t = tf.tensordot(tf.placeholder(tf.float32, [2, 3]), tf.placeholder(tf.float32, [3, 4]), 1)
    assert t.name == "Tensordot/MatMul:0"


AX = rng.standard_normal((3, 4, 5)).astype(np.float32)
INTS = rng.randint(-9, 9, (3, 4)).astype(np.int32)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, [0, 2], [-1, 0], []])
@pytest.mark.parametrize("keep", [False, True])
def test_reductions(axis, keep):
    ax = tuple(axis) if isinstance(axis, list) else axis
    for fn, ref in [(tf.reduce_sum, np.sum), (tf.reduce_mean, np.mean), (tf.reduce_max, np.max),
                    (tf.reduce_min, np.min), (tf.reduce_prod, np.prod),
                    (tf.reduce_logsumexp, lambda x, axis, keepdims: np.log(np.sum(np.exp(x), axis=axis,
                                                                                  keepdims=keepdims)))]:
        check_op(lambda x: fn(x, axis=axis, keepdims=keep), [AX],
                 lambda x: np.asarray(ref(x, axis=ax, keepdims=keep), dtype=np.float32), rtol=1e-5, atol=1e-5)
    b = AX > 0
    check_op(lambda x: tf.reduce_any(x, axis, keepdims=keep), [b], lambda x: np.any(x, ax, keepdims=keep))
    check_op(lambda x: tf.reduce_all(x, axis, keepdims=keep), [b], lambda x: np.all(x, ax, keepdims=keep))


def test_integer_reductions_keep_dtype():
    check_op(tf.reduce_sum, [INTS], lambda x: np.sum(x, dtype=np.int32))
    check_op(lambda x: tf.reduce_prod(x, 0), [INTS], lambda x: np.prod(x, 0, dtype=np.int32))
    # TF truncates integer means toward zero (recorded: mean([1,2,2]) = 1, mean([-1,-2,-2]) = -1)
    assert _run(tf.reduce_mean(tf.constant([1, 2, 2]))) == 1
    assert _run(tf.reduce_mean(tf.constant([-1, -2, -2]))) == -1
    check_op(lambda x: tf.reduce_mean(x, 1), [INTS], lambda x: np.trunc(np.sum(x, 1) / 4).astype(np.int32))
    check_op(lambda x: tf.reduce_max(x, 1), [INTS], lambda x: np.max(x, 1))


def test_empty_reductions_and_dynamic_axes():
    got = _run([tf.reduce_mean(tf.zeros([0])), tf.reduce_max(tf.zeros([0])),
                tf.reduce_min(tf.zeros([0], tf.int32)), tf.reduce_sum(tf.zeros([0]))])
    assert np.isnan(got[0]) and got[1] == -np.inf and got[2] == 2 ** 31 - 1 and got[3] == 0
    ax = tf.placeholder(tf.int32, [None])
    x = tf.placeholder(tf.float32)
    out = tf.reduce_sum(x, ax, keepdims=True)
    np.testing.assert_allclose(_run(out, {x: AX, ax: [0, -1]}), AX.sum((0, 2), keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(_run(tf.reduce_mean(x), {x: AX}), AX.mean(), rtol=1e-5)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension"):
        _run(out, {x: AX, ax: [3]})


def test_logsumexp_is_stable():
    got = _run(tf.reduce_logsumexp(tf.constant([[1.0, 2.0], [3.0, 1000.0]]), 1))
    np.testing.assert_allclose(got, [2.3132617, 1000.0], rtol=1e-6)
    assert _run(tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf]))) == -np.inf


def test_count_nonzero():
    got = _run([tf.count_nonzero(tf.constant([[1.0, 0.0], [0.0, 0.0]]), 1),
                tf.count_nonzero(tf.constant([True, False, True])),
                tf.count_nonzero(tf.constant([[1, 2], [0, 3]]), keepdims=True, dtype=tf.int32)])
    assert got[0].tolist() == [1, 0] and got[0].dtype == np.int64
    assert got[1] == 2
    assert got[2].tolist() == [[3]] and got[2].dtype == np.int32


def test_argmax_argmin():
    check_op(lambda x: tf.argmax(x), [AX], lambda x: np.argmax(x, 0))
    check_op(lambda x: tf.argmax(x, 2), [AX], lambda x: np.argmax(x, 2))
    check_op(lambda x: tf.argmin(x, -1, output_type=tf.int32), [AX], lambda x: np.argmin(x, -1).astype(np.int32))
    check_op(lambda x: tf.argmax(x, dimension=1), [AX], lambda x: np.argmax(x, 1))
    assert _run(tf.argmax(tf.constant([3.0, 3.0, 1.0]))) == 0
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Reduction axis 0 is empty in shape \[0\]"):
        _run(tf.argmax(tf.zeros([0])))


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_cumprod(exclusive, reverse):
    def ref(fn, ident):
        def r(x, axis=1):
            y = np.flip(x, axis) if reverse else x
            out = fn(y, axis=axis)
            if exclusive:
                out = np.concatenate([np.full_like(out[:, :1], ident), out[:, :-1]], axis=1)
            return np.flip(out, axis) if reverse else out
        return r
    check_op(lambda x: tf.cumsum(x, 1, exclusive=exclusive, reverse=reverse), [X], ref(np.cumsum, 0), rtol=1e-5)
    check_op(lambda x: tf.cumprod(x, 1, exclusive=exclusive, reverse=reverse), [X], ref(np.cumprod, 1), rtol=1e-5)
    check_op(lambda x: tf.cumsum(x, 1, exclusive=exclusive, reverse=reverse), [INTS[:2, :3]], ref(np.cumsum, 0))


def test_cumsum_recorded_values_and_bad_axis():
    got = _run([tf.cumsum(tf.constant([1, 2, 3, 4]), exclusive=True, reverse=True),
                tf.cumprod(tf.constant([1, 2, 3, 4]), exclusive=True)])
    assert got[0].tolist() == [9, 7, 4, 0] and got[1].tolist() == [1, 1, 2, 6]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"ScanOp: Expected scan axis in the range \[-1, 1\), but got 1"):
        _run(tf.cumsum(tf.constant([1, 2, 3, 4]), 1))


def test_logical_ops():
    p = np.array([True, True, False, False])
    q = np.array([True, False, True, False])
    check_op(tf.logical_and, [p, q], np.logical_and)
    check_op(tf.logical_or, [p, q], np.logical_or)
    check_op(tf.logical_xor, [p, q], np.logical_xor)
    check_op(tf.logical_not, [p], np.logical_not)
    check_op(lambda a, b: (a & b) | ~(a ^ b), [p, q], lambda a, b: (a & b) | ~(a ^ b))


def test_casts():
    # values recorded from TF
    got = _run([tf.cast(tf.constant([1.7, -1.7]), tf.int32), tf.cast(tf.constant([0.0, 0.5]), tf.bool),
                tf.saturate_cast(tf.constant([300.0, -1.0, 4.6]), tf.uint8),
                tf.to_double(tf.constant([1, 2])), tf.to_int64(tf.constant([1.9])),
                tf.cast(tf.constant([True, False]), tf.float32)])
    assert got[0].tolist() == [1, -1] and got[0].dtype == np.int32
    assert got[1].tolist() == [False, True]
    assert got[2].tolist() == [255, 0, 4] and got[2].dtype == np.uint8
    assert got[3].dtype == np.float64 and got[4].tolist() == [1] and got[4].dtype == np.int64
    assert got[5].tolist() == [1.0, 0.0]
    tf.reset_default_graph()
    assert tf.saturate_cast(_ph(), tf.uint8).name == "saturate_cast:0"


def test_clip_by_value():
    assert _run(tf.clip_by_value(tf.constant([1.0, 5.0, -3.0]), 0.0, 2.0)).tolist() == [1.0, 2.0, 0.0]
    assert _run(tf.clip_by_value(tf.constant([1, 5, -3]), 0, 2)).tolist() == [1, 2, 0]
    check_op(lambda x, lo: tf.clip_by_value(x, lo, 0.5), [X, Y[0]], lambda x, lo: np.minimum(np.maximum(
        np.minimum(x, 0.5), lo), np.maximum(np.minimum(x, 0.5), lo)))


def test_segments():
    # values recorded from TF
    got = _run([tf.unsorted_segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 2, -1]), 3),
                tf.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 2])),
                tf.segment_mean(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 2])),
                tf.segment_mean(tf.constant([1, 2, 3]), tf.constant([0, 0, 2]))])
    assert got[0].tolist() == [1.0, 0.0, 2.0]
    assert got[1].tolist() == [3.0, 0.0, 3.0]
    assert got[2].tolist() == [1.5, 0.0, 3.0]
    assert got[3].tolist() == [1, 0, 3]
    data = rng.standard_normal((5, 3))
    ids = np.array([3, 0, 3, 1, 0], np.int64)
    ref = np.zeros((4, 3))
    np.add.at(ref, ids, data)
    check_op(lambda d, i: tf.unsorted_segment_sum(d, i, 4), [data, ids], ref, rtol=1e-12)
    check_op(lambda d, i: tf.unsorted_segment_sum(d, i, 4), [data[:, 0], ids], ref[:, 0], rtol=1e-12)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"segment_ids\[2\] = 3 is out of range \[0, 3\)"):
        _run(tf.unsorted_segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 2, 3]), 3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
        _run(tf.segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 0, 2])))


def test_indexed_slices_densify_through_unsorted_segment_sum():
    v = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    s = tf.IndexedSlices(v, tf.constant([2, 2]), tf.constant([3, 2]))
    assert _run(tf.convert_to_tensor(s)).tolist() == [[0.0, 0.0], [0.0, 0.0], [4.0, 6.0]]
    assert _run(tf.add_n([s, tf.ones([3, 2])])).tolist() == [[1.0, 1.0], [1.0, 1.0], [5.0, 7.0]]


def test_string_add_and_equal():
    out = tf.constant("a") + tf.constant("b")
    assert out.op.type == "Add"
    assert _run(out) == b"ab"
    assert _run(tf.equal(tf.constant(["a", "b"]), "b")).tolist() == [False, True]


def test_operators_on_variables():
    v = tf.Variable([1.0, 2.0])
    y = v * 2 + 1
    z = -v
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        assert s.run(y).tolist() == [3.0, 5.0]
        assert s.run(z).tolist() == [-1.0, -2.0]
        assert s.run(tf.reduce_sum(v)) == 3.0
        assert s.run(2.0 - v).tolist() == [1.0, 0.0]
