"""`tf.keras.activations`: the activation functions keras layers take by name ("relu",
"softmax", ...), as TF's keras builds them."""

from ..framework.graph import Tensor
from .utils import _unknown_object_error


def _m():
    from ..ops import math_ops, nn_ops
    return math_ops, nn_ops


def linear(x):
    return x


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """max(x, 0), or x where x > threshold (else 0); capped at max_value; minus
    alpha * relu(threshold - x) below the threshold (TF's keras backend relu, op for op)."""
    m, nn = _m()
    from ..framework.constant_op import convert_to_tensor
    x = convert_to_tensor(x)
    dtype = x.dtype.base_dtype
    negative_part = None
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn.leaky_relu(x, alpha=alpha)
        negative_part = nn.relu(-x + threshold) if threshold != 0 else nn.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * m.cast(m.greater(x, threshold), dtype)
    elif max_value == 6:
        x = nn.relu6(x)
        clip_max = False
    else:
        x = nn.relu(x)
    if clip_max:
        from ..ops.math_compare_ops import clip_by_value
        x = clip_by_value(x, convert_to_tensor(0, dtype=dtype),
                          convert_to_tensor(max_value, dtype=dtype))
    if negative_part is not None:
        x -= convert_to_tensor(alpha, dtype=dtype) * negative_part
    return x


def sigmoid(x):
    return _m()[0].sigmoid(x)


def tanh(x):
    return _m()[0].tanh(x)


def softmax(x, axis=-1):
    """Softmax over `axis`; a rank-1 input raises as in TF."""
    if isinstance(x, Tensor) and x.shape.ndims == 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    return _m()[1].softmax(x, axis=axis)


def elu(x, alpha=1.0):
    m, nn = _m()
    out = nn.elu(x)
    if alpha == 1:
        return out
    from ..ops.array_misc_ops import where_v2   # TF's keras uses tf.where (SelectV2)
    return where_v2(m.greater(x, 0), out, alpha * out)


def selu(x):
    return _m()[1].selu(x)


def softplus(x):
    return _m()[1].softplus(x)


def softsign(x):
    return _m()[1].softsign(x)


def swish(x):
    return _m()[1].swish(x)


def exponential(x):
    return _m()[0].exp(x)


def hard_sigmoid(x):
    """clip(0.2 * x + 0.5, 0, 1), as TF's keras."""
    from ..ops import math_ops
    return math_ops.clip_by_value(0.2 * x + 0.5, 0.0, 1.0)


def _gelu(x, approximate=False):
    """GELU (reachable by name: TF 2.21's v1 `tf.keras.activations` has no `gelu` attribute, but
    `get("gelu")` / `activation="gelu"` work): x P(X <= x) for X ~ N(0, 1): 0.5 x erfc(-x / sqrt(2)); approximate: 0.5 x (1 +
    tanh(sqrt(2 / pi) (x + 0.044715 x^3))), as tf.nn.gelu."""
    from ..framework.constant_op import convert_to_tensor
    from ..framework.graph import name_scope
    from ..ops import math_extra_ops
    m = _m()[0]
    with name_scope("Gelu"):
        x = convert_to_tensor(x, name="features")
        if not x.dtype.is_floating:
            raise ValueError("`features.dtype` must be a floating point tensor."
                             f"Received:features.dtype={x.dtype}")
        if approximate:
            coeff = m.cast(0.044715, x.dtype)
            return 0.5 * x * (1.0 + m.tanh(0.7978845608028654 * (x + coeff * m.pow(x, 3))))
        return 0.5 * x * math_extra_ops.erfc(-x * m.cast(0.7071067811865476, x.dtype))


_gelu.__name__ = "gelu"


def mish(x):
    """x tanh(softplus(x))."""
    m, nn = _m()
    return x * m.tanh(nn.softplus(x))


_BY_NAME = {f.__name__: f for f in (linear, relu, sigmoid, tanh, softmax, elu, selu, softplus,
                                       softsign, swish, exponential, hard_sigmoid, _gelu, mish)}


def get(identifier):
    """The activation for a name, a callable, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str):
        fn = _BY_NAME.get(identifier)
        if fn is None:
            raise _unknown_object_error("activation function", identifier)
        return fn
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation):
    return getattr(activation, "__name__", str(activation))


deserialize = get
