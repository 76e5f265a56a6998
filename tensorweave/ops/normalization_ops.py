"""Normalization ops: local_response_normalization (lrn), batch_normalization (composite, with
TF's "batchnorm/..." op names) and fused_batch_norm (the FusedBatchNormV3 op).

FusedBatchNormV3(x, scale, offset, mean, variance) -> (y, batch_mean, batch_variance,
reserve_space_1, reserve_space_2, reserve_space_3). With is_training=True it normalizes with the
batch statistics and returns the batch mean and the *unbiased* batch variance (as TF does; y
itself uses the biased one); with is_training=False it uses the given mean and variance. Here
reserve_space_1 is the mean used and reserve_space_2 the inverse standard deviation used, which
FusedBatchNormGradV3 consumes. (The second derivative of fused batch norm is not implemented.)
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import name_scope
from ..framework.op_util import apply_op, check_allowed
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["local_response_normalization", "lrn", "batch_normalization", "fused_batch_norm"]


def _math():
    from . import math_ops
    return math_ops


# -- LRN ---------------------------------------------------------------------------------------

def _lrn_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {s.ndims}")
    return [s]


registry.register_op("LRN", shape_fn=_lrn_shape)
registry.register_op("LRNGrad", shape_fn=lambda op: [op._inputs[1]._shape])


def _lrn_attrs(op):
    return {k: op._get_attr(k) for k in ("depth_radius", "bias", "alpha", "beta")}


@registry.register_gradient("LRN")
def _lrn_grad(op, grad):
    dt = grad.dtype.base_dtype
    a = {"T": dt}
    a.update(_lrn_attrs(op))
    return [apply_op("LRNGrad", [grad, op.inputs[0], op.outputs[0]], [dt], "LRNGrad", attrs=a)]


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5,  # noqa: A002
                                 name=None):
    """out[..., c] = input[..., c] / (bias + alpha * sum_{|k - c| <= depth_radius}
    input[..., k] ** 2) ** beta (the last axis is the channel axis)."""
    # TF's generated op: a Python input becomes "LRN/input" (converted inside the op's scope)
    with name_scope(name, "LRN", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        dt = x.dtype.base_dtype
        check_allowed("input", dt, ("float16", "bfloat16", "float32"))   # (TF has no float64 LRN)
        attrs = {"T": dt, "depth_radius": int(depth_radius), "bias": float(bias),
                 "alpha": float(alpha), "beta": float(beta)}
        return apply_op("LRN", [x], [dt], scope, attrs=attrs)


lrn = local_response_normalization


# -- batch_normalization (composite) -----------------------------------------------------------

def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) * scale / sqrt(variance + variance_epsilon) + offset, computed as
    x * inv + (offset - mean * inv) with inv = scale * rsqrt(variance + variance_epsilon)."""
    m = _math()
    with name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        if not hasattr(x, "dtype"):
            x = convert_to_tensor(x, name="x")
        # (A NumPy x stays NumPy, as in TF: the multiply converts it, "batchnorm/mul_1/x".)
        inv = m.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        dt = _dtypes.as_dtype(x.dtype).base_dtype
        xi = x * (m.cast(inv, dt) if inv.dtype.base_dtype != dt else inv)
        shift = offset - mean * inv if offset is not None else -mean * inv
        if shift.dtype.base_dtype != dt:
            shift = m.cast(shift, dt)
        return xi + shift


# -- fused batch norm --------------------------------------------------------------------------

def _fbn_shape(op):
    x, scale = op._inputs[0]._shape, op._inputs[1]._shape
    if x.ndims is not None and x.ndims != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {x.ndims}")
    c = None
    if x.ndims is not None:
        c = x.as_list()[3 if op._attrs["data_format"] == "NHWC" else 1]
    if scale.ndims is not None:
        sc = scale.with_rank(1).as_list()[0]
        if c is not None and sc is not None and c != sc:
            raise ValueError(f"Dimensions must be equal, but are {c} and {sc}")
        c = c if c is not None else sc
    vec = TensorShape([c])
    return [x, vec, vec, vec, vec, unknown_shape(rank=1)]


def _fbn_grad_shape(op):
    dy, x, scale = (t._shape for t in op._inputs[:3])
    c = scale.as_list()[0] if scale.ndims == 1 else None
    vec = TensorShape([c])
    return [dy.merge_with(x) if dy.is_compatible_with(x) else dy, vec, vec, TensorShape([0]),
            TensorShape([0])]


registry.register_op("FusedBatchNormV3", shape_fn=_fbn_shape)
registry.register_op("FusedBatchNormGradV3", shape_fn=_fbn_grad_shape)


@registry.register_gradient("FusedBatchNormV3")
def _fused_batch_norm_grad(op, grad_y, *unused):
    x, scale = op.inputs[0], op.inputs[1]
    attrs = {"T": x.dtype.base_dtype, "U": scale.dtype.base_dtype, "epsilon": op._get_attr("epsilon"),
             "data_format": op._get_attr("data_format"), "is_training": op._get_attr("is_training")}
    dx, dscale, doffset, _, _ = apply_op(
        "FusedBatchNormGradV3", [grad_y, x, scale, op.outputs[3], op.outputs[4], op.outputs[5]],
        [x.dtype.base_dtype, scale.dtype.base_dtype, scale.dtype.base_dtype, scale.dtype.base_dtype,
         scale.dtype.base_dtype], "FusedBatchNormGradV3", attrs=attrs)
    return [dx, dscale, doffset, None, None]


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None, exponential_avg_factor=1.0):
    """Batch normalization of a 4-D tensor over all but the channel axis, in one op.

    Returns (y, mean, variance): with is_training, the batch mean and the unbiased batch variance
    (blended into the given mean/variance when exponential_avg_factor != 1); otherwise the given
    population statistics, which are then required."""
    x = convert_to_tensor(x, name="input")
    scale = convert_to_tensor(scale, name="scale")
    offset = convert_to_tensor(offset, name="offset")
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is False or "
                         f"`exponential_avg_factor` != 1.0. Received: `mean` {mean!r} and `variance` {variance!r}")
    if mean is None:
        mean = convert_to_tensor(np.zeros(0, scale.dtype.base_dtype.as_numpy_dtype), name="Const")
    if variance is None:
        variance = convert_to_tensor(np.zeros(0, scale.dtype.base_dtype.as_numpy_dtype), name="Const")
    mean = convert_to_tensor(mean, dtype=scale.dtype.base_dtype, name="mean")
    variance = convert_to_tensor(variance, dtype=scale.dtype.base_dtype, name="variance")
    if data_format not in ("NHWC", "NCHW"):
        raise ValueError(f"data_format must be NHWC or NCHW, got {data_format!r}")
    epsilon = max(float(epsilon), 1.001e-5)
    u = scale.dtype.base_dtype
    attrs = {"T": x.dtype.base_dtype, "U": u, "epsilon": epsilon,
             "exponential_avg_factor": float(exponential_avg_factor), "data_format": data_format,
             "is_training": bool(is_training)}
    outs = apply_op("FusedBatchNormV3", [x, scale, offset, mean, variance],
                    [x.dtype.base_dtype, u, u, u, u, u], name or "FusedBatchNormV3", attrs=attrs)
    return outs[0], outs[1], outs[2]

