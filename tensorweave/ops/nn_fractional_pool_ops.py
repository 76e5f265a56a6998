"""`tf.nn.fractional_max_pool` and `tf.nn.fractional_avg_pool` (TF1 signatures): pooling over
regions of random sizes k or k + 1 (k = floor(input / output)), with output = floor(input /
pooling_ratio) per dimension.

Each op returns (output, row_pooling_sequence, col_pooling_sequence): the region boundaries
drawn from the op's Philox stream (kernels/cpu/pooling.py), TF's numbers for given seeds. The
gradients (FractionalMaxPoolGrad / FractionalAvgPoolGrad) reuse those sequences.
"""

import collections
import math

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape

__all__ = ["fractional_max_pool", "fractional_avg_pool"]

_FIELDS = ["output", "row_pooling_sequence", "col_pooling_sequence"]
FractionalMaxPool = collections.namedtuple("FractionalMaxPool", _FIELDS)
FractionalAvgPool = collections.namedtuple("FractionalAvgPool", _FIELDS)

_MAX_TYPES = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64)


def _fractional_shape(op):
    shape = op.inputs[0].shape.with_rank(4)
    ratio = op._get_attr("pooling_ratio")
    dims = []
    for d, r in zip(shape.as_list(), ratio):
        if d is None:
            dims.append(None)
            continue
        out = int(math.floor(d / r))
        if out <= 0:
            raise ValueError(f"pooling_ratio cannot be smaller than input; got input {d} and ratio {r}")
        dims.append(out)
    # TF's shape function gives the sequences the output's length (they hold one more at run time)
    return [TensorShape(dims), TensorShape([dims[1]]), TensorShape([dims[2]])]


def _avg_grad_shape(op):
    from ..framework.constant_op import constant_value
    v = constant_value(op.inputs[0])
    if v is None:
        return [TensorShape([None] * 4)]
    return [TensorShape([int(d) for d in v.reshape(-1)])]


for _t in ("FractionalMaxPool", "FractionalAvgPool"):
    registry.register_op(_t, shape_fn=_fractional_shape, stateful=True)
registry.register_op("FractionalMaxPoolGrad", shape_fn=lambda op: [op.inputs[0].shape.with_rank(4)])
registry.register_op("FractionalAvgPoolGrad", shape_fn=_avg_grad_shape)
registry.no_gradient("FractionalMaxPoolGrad")
registry.no_gradient("FractionalAvgPoolGrad")


@registry.register_gradient("FractionalMaxPool")
def _fractional_max_pool_grad(op, grad, unused_row_grad=None, unused_col_grad=None):
    dt = op.inputs[0].dtype.base_dtype
    return [apply_op("FractionalMaxPoolGrad", [op.inputs[0], op.outputs[0], grad, op.outputs[1], op.outputs[2]],
                     [dt], "FractionalMaxPoolGrad", attrs={"T": dt, "overlapping": op._get_attr("overlapping")})]


@registry.register_gradient("FractionalAvgPool")
def _fractional_avg_pool_grad(op, grad, unused_row_grad=None, unused_col_grad=None):
    from .array_ops import constant
    dt = op.inputs[0].dtype.base_dtype
    # TF passes the input's static shape (as a constant): it must be fully known.
    shape = constant(op.inputs[0].shape.as_list(), dtype=_dtypes.int64)
    return [apply_op("FractionalAvgPoolGrad", [shape, grad, op.outputs[1], op.outputs[2]], [dt],
                     "FractionalAvgPoolGrad", attrs={"T": dt, "overlapping": op._get_attr("overlapping")})]


def _fractional(op_type, value, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2, name):
    value = convert_to_tensor(value, name="value")
    dt = value.dtype.base_dtype
    if dt not in _MAX_TYPES:
        allowed = ", ".join(t.name for t in _MAX_TYPES)
        raise TypeError(f"Value passed to parameter 'value' has DataType {dt.name} not in list of allowed "
                        f"values: {allowed}")
    ratio = [float(r) for r in pooling_ratio]
    if len(ratio) < 4:
        raise ValueError(f"Attr 'pooling_ratio' of '{op_type}' Op passed list of length {len(ratio)} less than "
                         f"minimum 4.")
    if len(ratio) != 4:
        raise ValueError("pooling_ratio field must specify 4 dimensions")
    if ratio[0] != 1.0 or ratio[3] != 1.0:
        raise ValueError("Fractional pooling is not yet supported on the batch nor channel dimension.")
    attrs = {"T": dt, "pooling_ratio": ratio, "pseudo_random": bool(pseudo_random),
             "overlapping": bool(overlapping), "deterministic": bool(deterministic), "seed": int(seed),
             "seed2": int(seed2)}
    outs = apply_op(op_type, [value], [dt, _dtypes.int64, _dtypes.int64], name or op_type, attrs=attrs)
    return (FractionalMaxPool if op_type == "FractionalMaxPool" else FractionalAvgPool)(*outs)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False,
                        seed=0, seed2=0, name=None):
    """Fractional max pooling of an NHWC `value`; pooling_ratio = [1.0, rows ratio, cols ratio, 1.0]
    (each >= 1). `pseudo_random` draws the boundaries as ceil(alpha * (i + u)) instead of a
    random permutation of region sizes; `overlapping` lets neighbouring regions share their
    boundary row/column; `deterministic` keeps the first regions for every later run. Returns
    (output, row_pooling_sequence, col_pooling_sequence)."""
    return _fractional("FractionalMaxPool", value, pooling_ratio, pseudo_random, overlapping, deterministic,
                       seed, seed2, name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False,
                        seed=0, seed2=0, name=None):
    """Fractional average pooling; arguments and results as fractional_max_pool's."""
    return _fractional("FractionalAvgPool", value, pooling_ratio, pseudo_random, overlapping, deterministic,
                       seed, seed2, name)
