"""Neural-network ops: activations, softmax, cross-entropies, bias_add, l2_loss, dropout.

Primitive ops (each with a fused CPU kernel in kernels/cpu/nn.py): Relu, Relu6, Elu, Selu,
Softplus, Softsign, LeakyRelu and their *Grad ops; Softmax, LogSoftmax; BiasAdd, BiasAddGrad;
L2Loss; SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits, which return
(loss, backprop) like TF so their gradient reuses the backprop computed in the forward pass.
Composites (sigmoid/weighted cross-entropy, dropout, xw_plus_b, moments, l2_normalize, ...) are
built from the math and array ops with TF's op and scope names.
"""

import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework import registry
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import Tensor, control_dependencies, name_scope
from ..framework.op_util import apply_op, check_allowed, unchanged_shape
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["relu", "relu6", "elu", "selu", "softplus", "softsign", "leaky_relu", "crelu", "swish",
           "softmax", "log_softmax", "bias_add", "bias_add_v1", "l2_loss",
           "softmax_cross_entropy_with_logits", "softmax_cross_entropy_with_logits_v2",
           "sparse_softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits",
           "weighted_cross_entropy_with_logits", "dropout", "xw_plus_b", "relu_layer", "moments",
           "l2_normalize", "zero_fraction", "log_poisson_loss"]

_FLOATS = "float16, bfloat16, float32, float64"
_REALS = ("float32, float64, int32, uint8, int16, int8, int64, bfloat16, uint16, float16, uint32, "
          "uint64, qint8")


def _math():
    from . import math_ops
    return math_ops


def _array():
    from . import array_ops
    return array_ops


def _check_float(t, param):
    dt = t.dtype.base_dtype
    if not dt.is_floating:
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dt.name} not in list of "
                        f"allowed values: {_FLOATS}")


def _check_real(t, param):
    dt = t.dtype.base_dtype
    if not (dt.is_floating or dt.is_integer):
        raise TypeError(f"Value passed to parameter '{param}' has DataType {dt.name} not in list of "
                        f"allowed values: {_REALS}")


def _unary(op_type, x, name, param="features", floats_only=True, attrs=None):
    if not isinstance(x, Tensor):
        # TF's op wrapper converts a non-tensor input inside the op's name scope ("Relu/features")
        with name_scope(name, op_type, [x]) as scope:
            x = convert_to_tensor(x, name=param)
            return _unary(op_type, x, scope, param, floats_only, attrs)
    (_check_float if floats_only else _check_real)(x, param)
    dt = x.dtype.base_dtype
    a = {"T": dt}
    if attrs:
        a.update(attrs)
    return apply_op(op_type, [x], [dt], name or op_type, attrs=a)


def _merged_shape(op):
    """Elementwise *Grad ops: the output has the merged shape of both inputs."""
    a, b = op._inputs[0]._shape, op._inputs[1]._shape
    if not a.is_compatible_with(b):
        raise ValueError(f"Shapes {a} and {b} are incompatible")
    return [a.merge_with(b)]


# -- activations -------------------------------------------------------------------------------

for _t in ("Relu", "Relu6", "Elu", "Selu", "Softplus", "Softsign", "LeakyRelu"):
    registry.register_op(_t, shape_fn=unchanged_shape)
for _t in ("ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "SoftplusGrad", "SoftsignGrad",
           "LeakyReluGrad"):
    registry.register_op(_t, shape_fn=_merged_shape)


def _grad_op(op_type, grad, x, attrs=None):
    dt = grad.dtype.base_dtype
    a = {"T": dt}
    if attrs:
        a.update(attrs)
    return apply_op(op_type, [grad, x], [dt], op_type, attrs=a)


@registry.register_gradient("Relu")
def _relu_grad(op, grad):
    return [_grad_op("ReluGrad", grad, op.outputs[0])]


@registry.register_gradient("Relu6")
def _relu6_grad(op, grad):
    return [_grad_op("Relu6Grad", grad, op.outputs[0])]


@registry.register_gradient("Elu")
def _elu_grad(op, grad):
    return [_grad_op("EluGrad", grad, op.outputs[0])]


@registry.register_gradient("Selu")
def _selu_grad(op, grad):
    return [_grad_op("SeluGrad", grad, op.outputs[0])]


@registry.register_gradient("Softplus")
def _softplus_grad(op, grad):
    from .math_ops import sigmoid
    return [grad * sigmoid(op.inputs[0])]  # TF 2.21's _SoftplusGrad (not the SoftplusGrad op)


@registry.register_gradient("Softsign")
def _softsign_grad(op, grad):
    return [_grad_op("SoftsignGrad", grad, op.inputs[0])]


@registry.register_gradient("LeakyRelu")
def _leaky_relu_grad(op, grad):
    return [_grad_op("LeakyReluGrad", grad, op.inputs[0], {"alpha": op._get_attr("alpha")})]


# Second derivatives: the *Grad ops are linear in `gradients` with a piecewise-constant slope.
@registry.register_gradient("ReluGrad")
def _relu_grad_grad(op, grad):
    return [_grad_op("ReluGrad", grad, op.inputs[1]), _array().zeros_like(op.inputs[1])]


@registry.register_gradient("Relu6Grad")
def _relu6_grad_grad(op, grad):
    return [_grad_op("Relu6Grad", grad, op.inputs[1]), _array().zeros_like(op.inputs[1])]


@registry.register_gradient("LeakyReluGrad")
def _leaky_relu_grad_grad(op, grad):
    return [_grad_op("LeakyReluGrad", grad, op.inputs[1], {"alpha": op._get_attr("alpha")}),
            _array().zeros_like(op.inputs[1])]


@registry.register_gradient("EluGrad")
def _elu_grad_grad(op, grad):
    # EluGrad(g, y) = g where y > 0 else g * (y + 1): d/dg = EluGrad(grad, y), d/dy = grad * g (y < 0).
    m, a = _math(), _array()
    y = op.inputs[1]
    zero = a.zeros_like(y)
    return [_grad_op("EluGrad", grad, y),
            a.where(m.less(y, zero), m.multiply(grad, op.inputs[0]), zero)]


def relu(features, name=None):
    """max(features, 0)."""
    return _unary("Relu", features, name, floats_only=False)


def relu6(features, name=None):
    """min(max(features, 0), 6)."""
    return _unary("Relu6", features, name, floats_only=False)


def elu(features, name=None):
    """features if > 0 else exp(features) - 1."""
    return _unary("Elu", features, name)


def selu(features, name=None):
    """scale * (features if > 0 else alpha * (exp(features) - 1)), scale=1.0507..., alpha=1.6732..."""
    return _unary("Selu", features, name)


def softplus(features, name=None):
    """log(exp(features) + 1), computed stably."""
    return _unary("Softplus", features, name)


def softsign(features, name=None):
    """features / (abs(features) + 1)."""
    return _unary("Softsign", features, name)


def leaky_relu(features, alpha=0.2, name=None):
    """features if > 0 else alpha * features."""
    with name_scope(name, "LeakyRelu", [features, alpha]) as name:
        features = convert_to_tensor(features, name="features")
        if features.dtype.is_integer:
            features = _math().cast(features, _dtypes.float32)
        return _unary("LeakyRelu", features, name, attrs={"alpha": float(alpha)})


def crelu(features, name=None, axis=-1):
    """relu(concat([features, -features], axis)): both the positive and negative parts."""
    with name_scope(name, "CRelu", [features]) as name:
        features = convert_to_tensor(features, name="features")
        c = _array().concat([features, _math().negative(features)], axis, name=name)
        return relu(c)


def swish(features, beta=1.0, name=None):
    """features * sigmoid(beta * features).

    As TF builds it (a custom-gradient function): a "beta" constant, "mul" (beta * features),
    "Sigmoid", "mul_1", an unused "Identity" and the result "IdentityN:0" (features and beta
    pass through IdentityN as its other outputs)."""
    m, a = _math(), _array()
    features = convert_to_tensor(features, name="features")
    beta = convert_to_tensor(beta, name="beta")
    beta = m.cast(beta, features.dtype.base_dtype)
    if name is None:
        from .custom_gradient import custom_gradient

        @custom_gradient
        def swish_impl(features, beta):
            def grad(dy):  # TF's swish gradient, op for op (so its names)
                from ..framework.graph import control_dependencies
                with control_dependencies([dy]):
                    sigmoid_features = m.sigmoid(beta * features)
                activation_grad = sigmoid_features * (1.0 + (beta * features) * (1.0 - sigmoid_features))
                beta_grad = m.reduce_sum(dy * m.square(features) * sigmoid_features * (1.0 - sigmoid_features))
                return (dy * activation_grad, beta_grad)
            return features * m.sigmoid(beta * features), grad
        return swish_impl(features, beta)
    out = features * m.sigmoid(beta * features)
    a.identity(out)
    return a.identity_n([out, features, beta], name=name)[0]


# -- softmax -----------------------------------------------------------------------------------

def _softmax_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {s.ndims}")
    return [s]


registry.register_op("Softmax", shape_fn=_softmax_shape)
registry.register_op("LogSoftmax", shape_fn=_softmax_shape)


@registry.register_gradient("Softmax")
def _softmax_grad(op, grad):
    # dx = (grad - sum(grad * y, -1, keepdims)) * y
    m = _math()
    y = op.outputs[0]
    s = m.reduce_sum(grad * y, -1, keepdims=True)  # TF's operators: "mul", "Sum", "sub", "mul_1"
    return [(grad - s) * y]


@registry.register_gradient("LogSoftmax")
def _log_softmax_grad(op, grad):
    # dx = grad - softmax(x) * sum(grad, -1, keepdims)
    m = _math()
    sm = m.exp(op.outputs[0])
    return [grad - m.reduce_sum(grad, -1, keepdims=True) * sm]  # TF: "Exp", "Sum", "mul", "sub"


def _softmax(op_type, logits, axis, name, dim):
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    if axis is None:
        axis = -1
    logits = convert_to_tensor(logits)   # TF's _wrap_2d_function: outside any scope, "Const"
    _check_float(logits, "logits")
    dt = logits.dtype.base_dtype
    rank = logits.shape.ndims
    axis_tensor = isinstance(axis, Tensor)   # (never "the last axis" to TF: it builds the swaps)
    axis_value = constant_value(axis) if axis_tensor else int(axis)
    if not axis_tensor and (axis == -1 or (rank is not None and axis == rank - 1) or rank == 0):
        return apply_op(op_type, [logits], [dt], name or op_type, attrs={"T": dt})
    if axis_value is not None and rank is not None and not -rank <= int(axis_value) < rank:
        raise errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the number of "
                        f"dimensions in the input. Received: dim={axis_value}")
    if rank is None:
        raise NotImplementedError("softmax over a non-last axis of a tensor of unknown rank is not "
                                  "supported")
    # TF's _wrap_2d_function, op for op: swap `axis` with the last dimension by a runtime perm,
    # softmax, swap back (that transpose takes `name`)
    from .array_misc_ops import where
    from .array_range_ops import range as _range
    a, m = _array(), _math()
    ndims = a.rank(logits)
    if axis_tensor:
        dim = where(m.less(axis, 0), axis + ndims, axis)
    else:
        dim = axis + ndims if axis < 0 else axis   # a tensor (TF's "add", then "mod") when negative
    input_rank = a.rank(logits)
    dim_axis = dim % rank

    def swap(t, name=None):
        last = m.subtract(input_rank, 1)
        perm = a.concat([_range(dim_axis), [last], _range(dim_axis + 1, last), [dim_axis]], 0)
        return a.transpose(t, perm, name=name or "transpose")
    out = apply_op(op_type, [swap(logits)], [dt], op_type, attrs={"T": dt})
    out = swap(out, name)
    out.set_shape(logits.shape)
    return out


def softmax(logits, axis=None, name=None, dim=None):
    """exp(logits) / sum(exp(logits), axis), computed stably (the max is subtracted first)."""
    return _softmax("Softmax", logits, axis, name, dim)


def log_softmax(logits, axis=None, name=None, dim=None):
    """logits - log(sum(exp(logits), axis)), computed stably."""
    return _softmax("LogSoftmax", logits, axis, name, dim)


# -- bias_add ----------------------------------------------------------------------------------

def _bias_add_shape(op):
    value, bias = op._inputs[0]._shape, op._inputs[1]._shape
    fmt = op._attrs["data_format"]
    if bias.ndims is not None and bias.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {bias.ndims}")
    if value.ndims is None:
        return [value]
    if value.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {value.ndims}")
    dims = value.as_list()
    c = -1 if fmt == "NHWC" else (1 if value.ndims > 2 else -1)
    b = bias.as_list()[0] if bias.ndims is not None else None
    if dims[c] is not None and b is not None and dims[c] != b:
        raise ValueError(f"Dimensions must be equal, but are {dims[c]} and {b}")
    if dims[c] is None:
        dims[c] = b
    return [TensorShape(dims)]


def _bias_add_grad_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is None:
        return [unknown_shape(rank=1)]
    if s.ndims < 2:
        raise ValueError(f"Shape must be at least rank 2 but is rank {s.ndims}")
    c = -1 if op._attrs["data_format"] == "NHWC" or s.ndims == 2 else 1
    return [TensorShape([s.as_list()[c]])]


registry.register_op("BiasAdd", shape_fn=_bias_add_shape)
registry.register_op("BiasAddGrad", shape_fn=_bias_add_grad_shape)


@registry.register_gradient("BiasAdd")
def _bias_add_grad(op, grad):
    fmt = op._get_attr("data_format")
    dt = grad.dtype.base_dtype
    return [grad, apply_op("BiasAddGrad", [grad], [dt], "BiasAddGrad",
                           attrs={"T": dt, "data_format": fmt})]


@registry.register_gradient("BiasAddGrad")
def _bias_add_grad_grad(op, grad):
    # BiasAddGrad sums over all but the channel axis; its adjoint broadcasts `grad` back.
    x = op.inputs[0]
    return [bias_add(_array().zeros_like(x), grad, data_format=op._get_attr("data_format"))]


_BIAS_ADD_TYPES = ("float32", "float64", "int32", "uint8", "int16", "int8", "complex64", "int64", "qint8",
                   "quint8", "qint32", "bfloat16", "qint16", "quint16", "uint16", "complex128", "float16",
                   "uint32", "uint64")


def bias_add(value, bias, data_format=None, name=None):
    """value + bias, `bias` (1-D) added along the channel axis (last for NHWC, 1 for NCHW)."""
    with name_scope(name, "BiasAdd", [value, bias]) as name:
        if data_format is None:
            data_format = "NHWC"
        if isinstance(data_format, bytes):
            data_format = data_format.decode()
        if data_format.startswith("NC"):
            data_format = "NCHW"
        elif data_format.startswith("N") and data_format.endswith("C"):
            data_format = "NHWC"
        else:
            raise ValueError("data_format must be of the form `N...C` or `NC...`")
        value = convert_to_tensor(value, name="input")
        check_allowed("value", value.dtype, _BIAS_ADD_TYPES)
        bias = convert_to_tensor(bias, dtype=value.dtype.base_dtype, name="bias")
        dt = value.dtype.base_dtype
        return apply_op("BiasAdd", [value, bias], [dt], name, attrs={"T": dt, "data_format": data_format})


def bias_add_v1(value, bias, name=None):
    return bias_add(value, bias, name=name or "BiasAddV1")


def xw_plus_b(x, weights, biases, name=None):
    """matmul(x, weights) + biases."""
    with name_scope(name, "xw_plus_b", [x, weights, biases]) as name:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        mm = _math().matmul(x, weights)
        return bias_add(mm, biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases)."""
    with name_scope(name, "relu_layer", [x, weights, biases]) as name:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        xw_plus_b_ = bias_add(_math().matmul(x, weights), biases)
        return relu(xw_plus_b_, name=name)


# -- l2_loss -----------------------------------------------------------------------------------

registry.register_op("L2Loss", shape_fn=lambda op: [TensorShape([])])


@registry.register_gradient("L2Loss")
def _l2_loss_grad(op, grad):
    return [op.inputs[0] * grad]  # TF: "L2Loss_grad/mul"


def l2_loss(t, name=None):
    """sum(t ** 2) / 2 (a scalar)."""
    return _unary("L2Loss", t, name, param="t")


# -- cross-entropies ---------------------------------------------------------------------------

def _xent_shape(op):
    logits, labels = op._inputs[0]._shape, op._inputs[1]._shape
    logits = logits.with_rank(2) if logits.ndims is not None else unknown_shape(rank=2)
    labels = labels.with_rank(2) if labels.ndims is not None else unknown_shape(rank=2)
    merged = []
    for a, b in zip(logits.as_list(), labels.as_list()):
        if a is not None and b is not None and a != b and b != 1 and a != 1:
            raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        merged.append(a if a is not None else b)
    return [TensorShape(merged[:1]), TensorShape(merged)]


def _sparse_xent_shape(op):
    logits, labels = op._inputs[0]._shape, op._inputs[1]._shape
    if logits.ndims is not None and logits.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {logits.ndims}")
    if labels.ndims is not None and labels.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {labels.ndims}")
    lg = logits.as_list() if logits.ndims is not None else [None, None]
    lb = labels.as_list() if labels.ndims is not None else [None]
    if lg[0] is not None and lb[0] is not None and lg[0] != lb[0]:
        raise ValueError(f"Dimensions must be equal, but are {lg[0]} and {lb[0]}")
    n = lg[0] if lg[0] is not None else lb[0]
    return [TensorShape([n]), TensorShape([n, lg[1]])]


registry.register_op("SoftmaxCrossEntropyWithLogits", shape_fn=_xent_shape)
registry.register_op("SparseSoftmaxCrossEntropyWithLogits", shape_fn=_sparse_xent_shape)


def _is_zero(t):
    if t is None:
        return True
    if t.op.type in ("ZerosLike",):
        return True
    v = constant_value(t)
    return v is not None and not np.any(v)


def _broadcast_mul(vec, mat):
    """vec[:, None] * mat (TF's op names: "ExpandDims", "mul")."""
    return _array().expand_dims(vec, -1) * mat


@registry.register_gradient("SoftmaxCrossEntropyWithLogits")
def _xent_grad(op, grad_loss, grad_grad):
    m = _math()
    softmax_grad = op.outputs[1]
    grad = _broadcast_mul(grad_loss, softmax_grad)
    logits = op.inputs[0]
    if not _is_zero(grad_grad):
        sm = softmax(logits)
        grad = m.add(grad, m.multiply(m.subtract(grad_grad, m.reduce_sum(
            m.multiply(grad_grad, sm), -1, keepdims=True)), sm))
    return [grad, _broadcast_mul(grad_loss, m.negative(log_softmax(logits)))]


@registry.register_gradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op, grad_loss, grad_grad):
    return [_broadcast_mul(grad_loss, op.outputs[1]), None]


def _shape_str(s):
    if s.ndims is None:
        return "<unknown>"
    dims = s.as_list()
    return "(" + ", ".join("?" if d is None else str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def _flatten_outer(t):
    """Reshapes t to 2-D [prod(outer dims), last dim], with TF's ops (_flatten_outer_dims: Rank,
    Shape, Sub, Slice, concat, Reshape), so graphs have TF's op count and names."""
    a, m = _array(), _math()
    rank = a.rank(t)
    last_dim_size = a.slice(a.shape(t), [m.subtract(rank, 1)], [1])
    output = a.reshape(t, a.concat([[-1], last_dim_size], 0))
    s = t.shape
    if s.ndims is not None:
        dims = s.as_list()
        if all(d is not None for d in dims[:-1]):
            output.set_shape([int(np.prod(dims[:-1], dtype=np.int64)), dims[-1]])
    return output


def _xent_v2_helper(labels, logits, axis, name, scope_name):
    # TF's softmax_cross_entropy_with_logits_v2_helper, op for op.
    with name_scope(name, scope_name, [logits, labels]) as name:
        a, m = _array(), _math()
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        _check_float(logits, "features")
        to_f32 = logits.dtype.base_dtype in (_dtypes.float16, _dtypes.bfloat16)
        precise_logits = m.cast(logits, _dtypes.float32) if to_f32 else logits
        labels = m.cast(labels, precise_logits.dtype.base_dtype)
        if axis is None:
            axis = -1
        input_rank = a.rank(precise_logits)
        shape = logits.shape
        if shape.ndims is not None and shape.ndims == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        if axis != -1:
            def _move_dim_to_end(tensor, dim_index, rank):
                from .array_range_ops import range as _range
                return a.transpose(tensor, a.concat([_range(dim_index), _range(dim_index + 1, rank),
                                                     [dim_index]], 0))
            precise_logits = _move_dim_to_end(precise_logits, axis, input_rank)
            labels = _move_dim_to_end(labels, axis, input_rank)
        input_shape = a.shape(precise_logits)
        precise_logits = _flatten_outer(precise_logits)
        labels = _flatten_outer(labels)
        dt = precise_logits.dtype.base_dtype
        cost, _ = apply_op("SoftmaxCrossEntropyWithLogits", [precise_logits, labels], [dt, dt],
                           name, attrs={"T": dt})
        output_shape = a.slice(input_shape, [0], [m.subtract(input_rank, 1)])
        cost = a.reshape(cost, output_shape)
        if shape.ndims is not None:
            dims = shape.as_list()
            del dims[axis]
            cost.set_shape(dims)
        return m.cast(cost, logits.dtype.base_dtype) if to_f32 else cost


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """-sum(labels * log_softmax(logits), axis), with gradients into both logits and labels."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    return _xent_v2_helper(labels, logits, axis, name, "softmax_cross_entropy_with_logits")


def softmax_cross_entropy_with_logits(labels=None, logits=None, dim=-1, name=None, axis=None,
                                      _sentinel=None):
    """TF1's softmax cross-entropy: like the v2 op, but no gradient flows into `labels`."""
    if labels is None or logits is None:
        raise ValueError("Both `labels` and `logits` must be provided for softmax_cross_entropy_with_logits"
                         f"Received: labels={labels} and logits={logits}")
    if axis is not None:
        dim = axis
    with name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as name:
        labels = _array().stop_gradient(labels, name="labels_stop_gradient")
    return _xent_v2_helper(labels, logits, dim, name, "softmax_cross_entropy_with_logits_sg")


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None, _sentinel=None):
    """-log_softmax(logits)[label] for integer `labels` in [0, num_classes)."""
    if labels is None or logits is None:
        raise ValueError("Both `labels` and `logits` must be provided for sparse_softmax_cross_entropy_with_logits"
                         f"Received: labels={labels} and logits={logits}")
    with name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        a = _array()
        labels = convert_to_tensor(labels)
        logits = convert_to_tensor(logits)
        ls, gs = labels.shape, logits.shape
        if ls.ndims is not None and gs.ndims is not None:
            if ls.ndims != gs.ndims - 1:
                raise ValueError("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                                 f"labels.shape={_shape_str(ls)} of rank {ls.ndims} and "
                                 f"logits.shape={_shape_str(gs)} of rank {gs.ndims}")
            if not gs[:-1].is_compatible_with(ls):
                raise ValueError("`labels.shape` must equal `logits.shape` except for the last "
                                 f"dimension. Received: labels.shape={_shape_str(ls)} and "
                                 f"logits.shape={_shape_str(gs)}")
        if gs.ndims is not None and gs.ndims == 0:
            raise ValueError(f"Logits cannot be scalars - received shape {_shape_str(gs)}.")
        # TF's op builder checks the dtypes, after the Python-side shape checks above.
        if labels.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'labels' has DataType {labels.dtype.base_dtype.name} "
                            "not in list of allowed values: int32, int64")
        _check_float(logits, "features")
        to_f32 = logits.dtype.base_dtype == _dtypes.float16
        precise_logits = _math().cast(logits, _dtypes.float32) if to_f32 else logits
        labels_shape = a.shape(labels)  # TF makes it first, used or not (op count)
        dt = precise_logits.dtype.base_dtype
        attrs = {"T": dt, "Tlabels": labels.dtype.base_dtype}
        # TF names the op `name` inside the scope (tf.losses' "xentropy/xentropy").
        op_name = name or "SparseSoftmaxCrossEntropyWithLogits"
        if gs.ndims == 2:
            cost, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits", [precise_logits, labels], [dt, dt],
                               op_name, attrs=attrs)
            return _math().cast(cost, _dtypes.float16) if to_f32 else cost
        shape_checks = []
        if not (ls.is_fully_defined() and gs[:-1].is_fully_defined()):
            from .check_ops import assert_equal
            shape_checks.append(assert_equal(a.shape(labels), a.shape(logits)[:-1]))
        with control_dependencies(shape_checks):
            num_classes = a.shape(logits)[a.rank(logits) - 1]
            precise_logits = a.reshape(precise_logits, [-1, num_classes])
            labels = a.reshape(labels, [-1])
            cost, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits", [precise_logits, labels], [dt, dt],
                               op_name, attrs=attrs)
            cost = a.reshape(cost, labels_shape)
            if ls.ndims is not None:
                cost.set_shape(ls)
            return _math().cast(cost, _dtypes.float16) if to_f32 else cost


def _check_same_shape(labels, logits):
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError("`logits` and `labels` must have the same shape, received "
                         f"({_shape_str(logits.shape)} vs {_shape_str(labels.shape)}).")


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None, _sentinel=None):
    """max(x, 0) - x * z + log(1 + exp(-abs(x))) for logits x and labels z: stable for any x."""
    if labels is None or logits is None:
        raise ValueError("Both `labels` and `logits` must be provided for sigmoid_cross_entropy_with_logits"
                         f"Received: labels={labels} and logits={logits}")
    m, a = _math(), _array()
    with name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")     # (other dtypes fail at logits * labels)
        _check_same_shape(labels, logits)
        zeros = a.zeros_like(logits)
        cond = m.greater_equal(logits, zeros)
        relu_logits = a.where(cond, logits, zeros)
        neg_abs_logits = a.where(cond, m.negative(logits), logits)
        # Python operators, as TF writes it, so the ops are named "mul" and "sub" as TF's.
        return m.add(relu_logits - logits * labels, m.log1p(m.exp(neg_abs_logits)), name=name)


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None,
                                       targets=None):
    """Sigmoid cross-entropy with positive examples weighted by pos_weight:
    (1 - z) * x + (1 + (q - 1) * z) * (log(1 + exp(-abs(x))) + max(-x, 0))."""
    if labels is None:
        labels = targets
    elif targets is not None:
        raise ValueError("Can not specify both `labels` and `targets`.")
    if labels is None or logits is None or pos_weight is None:
        raise ValueError("None values not supported.")
    m = _math()
    with name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels", dtype=logits.dtype.base_dtype)
        _check_same_shape(labels, logits)
        log_weight = 1 + (pos_weight - 1) * labels
        return m.add((1 - labels) * logits,
                     log_weight * (m.log1p(m.exp(-m.abs(logits))) + relu(-logits)), name=name)


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """exp(log_input) - log_input * targets (+ Stirling's term when compute_full_loss)."""
    m, a = _math(), _array()
    with name_scope(name, "log_poisson_loss", [log_input, targets]) as name:
        log_input = convert_to_tensor(log_input, name="log_input")
        targets = convert_to_tensor(targets, name="targets", dtype=log_input.dtype.base_dtype)
        if not targets.shape.is_compatible_with(log_input.shape):
            raise ValueError(f"log_input and targets must have the same shape ({log_input.shape} vs "
                             f"{targets.shape})")
        result = m.exp(log_input) - log_input * targets
        if compute_full_loss:
            dt = targets.dtype.base_dtype
            point_five = constant(0.5, dtype=dt)
            two_pi = constant(2 * np.pi, dtype=dt)
            stirling = targets * m.log(targets) - targets + point_five * m.log(two_pi * targets)
            zeros = a.zeros_like(targets, dtype=dt)
            ones = a.ones_like(targets, dtype=dt)
            cond = m.logical_and(targets >= zeros, targets <= ones)
            result += a.where(cond, zeros, stirling)
        return result


# -- dropout -----------------------------------------------------------------------------------

def _noise_shape(x, noise_shape):
    """TF's _get_noise_shape: None entries of noise_shape take x's dimension."""
    a = _array()
    if noise_shape is None:
        return a.shape(x)
    if isinstance(noise_shape, Tensor):
        return noise_shape
    try:
        ns = TensorShape(noise_shape)
    except (TypeError, ValueError):
        return convert_to_tensor(noise_shape)
    if ns.ndims is None or x.shape.ndims != ns.ndims:
        return convert_to_tensor(noise_shape)
    dims = ns.as_list()
    xdims = x.shape.as_list()
    dims = [xd if d is None else d for d, xd in zip(dims, xdims)]
    if all(d is not None for d in dims):
        return dims
    xs = a.shape(x)
    return a.stack([xs[i] if d is None else d for i, d in enumerate(dims)])


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """Keeps each element with probability 1 - rate, scaled by 1 / (1 - rate); zeros the others.

    TF1 form: exactly one of `keep_prob` or `rate` (rate = 1 - keep_prob). `noise_shape` (broadcast
    against x's shape) shares the keep/drop decision along dimensions of size 1; `seed` follows
    TF's graph/op seed rules (through random_uniform)."""
    if keep_prob is not None and rate is not None:
        raise ValueError("Cannot specify both 'keep_prob' and 'rate'.")
    if keep_prob is not None:
        try:
            rate = 1. - keep_prob  # a Tensor keep_prob makes a `sub` op here, outside the scope (as TF)
        except TypeError:
            raise ValueError("`keep_prob` must be a floating point number or Tensor. "
                             f"Received: keep_prob={keep_prob}") from None
    if rate is None:
        raise ValueError(f"`rate` must be provided. Received: rate={rate}")
    m, a = _math(), _array()
    with name_scope(name, "dropout", [x]) as name:
        is_rate_number = isinstance(rate, numbers.Real) and not isinstance(rate, bool)
        if is_rate_number and (rate < 0 or rate >= 1):
            raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                             f"Received: rate={rate}")
        x = convert_to_tensor(x, name="x")
        dt = x.dtype.base_dtype
        if not dt.is_floating:
            raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                             f"Received: x_dtype={x.dtype}")
        if is_rate_number and rate == 0:
            # TF still draws the op seed here, so later unseeded random ops get the same seeds.
            from . import random_ops
            random_ops.get_seed(seed)
            return x
        if is_rate_number:
            scale = convert_to_tensor(np.asarray(1 / (1 - rate), dt.as_numpy_dtype), name="Const")
            ret = m.multiply(x, scale, name="Mul")
        else:
            if not isinstance(rate, Tensor):
                if not hasattr(rate, "_as_graph_element"):      # (a tensor or a variable)
                    raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
                rate = convert_to_tensor(rate)
            if rate.shape.ndims is not None and rate.shape.ndims != 0:
                raise ValueError(f"Shape {rate.shape} must have rank 0")
            if rate.dtype.base_dtype != dt:        # (TF casts only a ref of x's dtype)
                raise ValueError("`x.dtype` must be compatible with `rate.dtype`. "
                                 f"Received: x.dtype={dt} and rate.dtype={rate.dtype.base_dtype}")
            one = convert_to_tensor(np.asarray(1, dt.as_numpy_dtype), name="Const")
            ret = m.realdiv(x, m.subtract(one, rate, name="Sub"), name="RealDiv")
        shape = _noise_shape(x, noise_shape)
        from . import random_ops
        random_tensor = random_ops.random_uniform(shape, seed=seed, dtype=dt)
        keep_mask = random_tensor >= rate
        zero = convert_to_tensor(np.zeros((), dt.as_numpy_dtype), name="Const_1")
        where_v2 = getattr(a, "where_v2", None)
        if where_v2 is not None:
            out = where_v2(keep_mask, ret, zero)
        else:
            out = m.multiply(ret, m.cast(keep_mask, dt))
        if noise_shape is None and x.shape.ndims is not None:
            out.set_shape(x.shape)
        return out


# -- statistics and normalization --------------------------------------------------------------

def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes`."""
    m, a = _math(), _array()
    if keep_dims is not None and keepdims is not None:
        raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
    keep = bool(keepdims if keepdims is not None else keep_dims)
    with name_scope(name, "moments", [x, axes]):
        if not hasattr(x, "dtype"):
            x = convert_to_tensor(x, name="x")
        # (A NumPy x stays NumPy, as in TF: each op converts it, "moments/mean/input" and
        # "moments/SquaredDifference/x".)
        half = _dtypes.as_dtype(x.dtype).base_dtype == _dtypes.float16
        y = m.cast(x, _dtypes.float32) if half else x
        mean = m.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = m.reduce_mean(m.squared_difference(y, a.stop_gradient(mean)), axes, keepdims=True,
                                 name="variance")
        if not keep:
            mean = a.squeeze(mean, axes)
            variance = a.squeeze(variance, axes)
        if half:
            return m.cast(mean, _dtypes.float16), m.cast(variance, _dtypes.float16)
        return mean, variance


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    m = _math()
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    with name_scope(name, "l2_normalize", [x]) as name:
        x = convert_to_tensor(x, name="x")
        square_sum = m.reduce_sum(m.square(x), axis, keepdims=True)
        # (epsilon converted as Maximum's input "y", as TF: op "l2_normalize/Maximum/y")
        x_inv_norm = m.rsqrt(m.maximum(square_sum, np.asarray(epsilon, x.dtype.base_dtype.as_numpy_dtype)))
        return m.multiply(x, x_inv_norm, name=name)


def zero_fraction(value, name=None):
    """The fraction of zeros in `value` (a float32 scalar)."""
    m, a = _math(), _array()
    with name_scope(name, "zero_fraction", [value]):
        value = convert_to_tensor(value, name="value")
        zero = convert_to_tensor(np.zeros((), value.dtype.base_dtype.as_numpy_dtype))
        frac = m.reduce_mean(m.cast(m.equal(value, zero), _dtypes.float32))
        return a.identity(frac, name="fraction")
