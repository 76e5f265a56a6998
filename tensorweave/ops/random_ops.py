"""Random ops with TF's graph- and op-level seeds.

Seeds follow TensorFlow (`get_seed`): with a graph seed set (`tf.set_random_seed`), an op without
its own seed gets the next value of a per-graph counter; with only an op seed, the graph seed is
DEFAULT_GRAPH_SEED; with neither, each session draws fresh numbers. A random op keeps a stream
per (session, op): every run of the op draws new numbers, and a new session starts the stream
over, so a seeded program gives the same numbers every time it runs.

The uniform, normal and truncated-normal kernels use TF's Philox4x32-10 generator and its
conversions, so they produce TensorFlow's numbers for the same seeds.
"""

import weakref

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, get_default_graph, name_scope
from ..framework.op_util import apply_op, typed_input, unchanged_shape
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["random_normal", "random_uniform", "truncated_normal", "random_shuffle", "multinomial",
           "random_gamma", "random_poisson", "set_random_seed", "get_seed", "random_crop"]

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2 ** 31 - 1
_graph_to_seed_dict = weakref.WeakKeyDictionary()


def _truncate_seed(seed):
    return seed % _MAXINT32


def get_seed(op_seed):
    """The (graph seed, op seed) pair an op should use, given its own `op_seed` (TF's rules)."""
    g = get_default_graph()
    global_seed = g.seed
    if global_seed is not None:
        if op_seed is None:
            # One counter per graph; a cond/while branch counts with the graph around it.
            key = getattr(g, "_seed_counter_graph", None) or g
            op_seed = _graph_to_seed_dict.setdefault(key, 0)
            _graph_to_seed_dict[key] += 1
        seeds = _truncate_seed(global_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
        seeds = None, None
    if seeds == (0, 0):
        return 0, _MAXINT32
    return seeds


def set_random_seed(seed):
    """Sets the graph-level random seed of the default graph."""
    get_default_graph().seed = seed


def _seed_attrs(seed):
    s1, s2 = get_seed(seed)
    return {"seed": int(s1 or 0), "seed2": int(s2 or 0)}   # (int attrs: a float seed truncates, as TF's op builder)


# -- shapes ------------------------------------------------------------------------------------

def _shape_tensor(shape):
    """A 1-D integer tensor for `shape` (a list, TensorShape, or tensor)."""
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    if isinstance(shape, (list, tuple)) and not any(isinstance(d, Tensor) for d in shape):
        shape = [d.value if hasattr(d, "value") and not isinstance(d, int) else d for d in shape]
        if not shape:
            return convert_to_tensor(np.zeros([0], np.int32), name="shape")
    if isinstance(shape, (list, tuple)) and any(isinstance(d, Tensor) for d in shape):
        from . import array_ops
        return array_ops.stack(shape)
    t = convert_to_tensor(shape, name="shape")
    if t.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter 'shape' has DataType {t.dtype.base_dtype.name} not "
                        f"in list of allowed values: int32, int64")
    return t


def _static_shape(t):
    try:
        from .array_ops import _shape_from_tensor
        return _shape_from_tensor(t)
    except ImportError:  # pragma: no cover - array ops always provide it
        v = constant_value(t)
        if v is not None:
            return TensorShape([int(d) for d in np.ravel(v)])
        return unknown_shape(rank=t.shape[0].value) if t.shape.ndims == 1 else unknown_shape()


def _random_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {s.ndims}")
    return [_static_shape(op._inputs[0])]


_FLOATS = (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64)

for _t in ("RandomStandardNormal", "RandomUniform", "TruncatedNormal"):
    registry.register_op(_t, shape_fn=_random_shape, stateful=True)
    registry.no_gradient(_t)


def _scalar_input_shape(op):
    for t in op._inputs[1:3]:
        if t._shape.ndims is not None and t._shape.ndims != 0:
            raise ValueError(f"Shape must be rank 0 but is rank {t._shape.ndims}")
    return _random_shape(op)


registry.register_op("RandomUniformInt", shape_fn=_scalar_input_shape, stateful=True)
registry.no_gradient("RandomUniformInt")


def _float_dtype(dtype):
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if dtype not in _FLOATS:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in list of "
                        f"allowed values: half, bfloat16, float32, float64")
    return dtype


def _scale_shift(rnd, stddev, mean, name):
    from . import math_ops
    return math_ops.add(rnd * stddev, mean, name=name)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from a normal distribution N(mean, stddev**2)."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    with name_scope(name, "random_normal", [shape, mean, stddev]) as name:
        shape_t = _shape_tensor(shape)
        mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        dtype = _float_dtype(dtype)
        rnd = apply_op("RandomStandardNormal", [shape_t], [dtype], "RandomStandardNormal",
                       attrs=dict(_seed_attrs(seed), dtype=dtype, T=shape_t.dtype.base_dtype))
        return _scale_shift(rnd, stddev_t, mean_t, name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from a normal distribution truncated to within 2 standard deviations of the mean
    (values beyond are redrawn)."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    with name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
        shape_t = _shape_tensor(shape)
        mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        dtype = _float_dtype(dtype)
        rnd = apply_op("TruncatedNormal", [shape_t], [dtype], "TruncatedNormal",
                       attrs=dict(_seed_attrs(seed), dtype=dtype, T=shape_t.dtype.base_dtype))
        return _scale_shift(rnd, stddev_t, mean_t, name)


def random_uniform(shape, minval=0, maxval=None, dtype=_dtypes.float32, seed=None, name=None):
    """Samples uniformly from [minval, maxval) (floats: maxval defaults to 1; integers need maxval)."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if dtype not in _FLOATS + (_dtypes.int32, _dtypes.int64):
        raise ValueError(f"Invalid dtype {dtype!r}")
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    with name_scope(name, "random_uniform", [shape, minval, maxval]) as name:
        shape_t = _shape_tensor(shape)
        minval_is_zero = isinstance(minval, int) and not isinstance(minval, bool) and minval == 0
        maxval_is_one = isinstance(maxval, int) and not isinstance(maxval, bool) and maxval == 1
        if not minval_is_zero or not maxval_is_one or dtype.is_integer:
            minval = convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
        attrs = _seed_attrs(seed)
        if dtype.is_integer:
            return apply_op("RandomUniformInt", [shape_t, minval, maxval], [dtype], name,
                            attrs=dict(attrs, Tout=dtype, T=shape_t.dtype.base_dtype))
        result = apply_op("RandomUniform", [shape_t], [dtype], "RandomUniform",
                          attrs=dict(attrs, dtype=dtype, T=shape_t.dtype.base_dtype))
        from . import math_ops
        if minval_is_zero:
            if not maxval_is_one:
                result = math_ops.multiply(result, maxval)
            return result
        return math_ops.add(result * (maxval - minval), minval, name=name)


registry.register_op("RandomShuffle", shape_fn=unchanged_shape, stateful=True)
registry.no_gradient("RandomShuffle")


def random_shuffle(value, seed=None, name=None):
    """Randomly shuffles `value` along its first dimension."""
    value = convert_to_tensor(value, name="value")
    return apply_op("RandomShuffle", [value], [value.dtype.base_dtype], name or "RandomShuffle",
                    attrs=dict(_seed_attrs(seed), T=value.dtype.base_dtype))


def _multinomial_shape(op):
    logits = op._inputs[0]._shape
    if logits.ndims is not None and logits.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {logits.ndims}")
    n = constant_value(op._inputs[1])
    batch = logits[0].value if logits.ndims is not None else None
    return [TensorShape([batch, None if n is None else int(n)])]


registry.register_op("Multinomial", shape_fn=_multinomial_shape, stateful=True)
registry.no_gradient("Multinomial")


def _multinomial(logits, num_samples, seed, output_dtype):
    logits = convert_to_tensor(logits, name="logits")
    output_dtype = _dtypes.as_dtype(output_dtype or _dtypes.int64).base_dtype
    if output_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter 'output_dtype' has DataType {output_dtype.name} not in "
                        f"list of allowed values: int32, int64")
    attrs = dict(_seed_attrs(seed), T=logits.dtype.base_dtype, output_dtype=output_dtype)
    with name_scope("Multinomial") as scope:
        n = typed_input(num_samples, _dtypes.int32, "num_samples", "Multinomial")
        return apply_op("Multinomial", [logits, n], [output_dtype], scope, attrs=attrs)


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """Draws `num_samples` class indices per row of the 2-D `logits` (unnormalized log-probs)."""
    with name_scope(name, "multinomial", [logits]):
        return _multinomial(logits, num_samples, seed, output_dtype)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Draws `num_samples` class indices per row of the 2-D `logits` (tf.random.categorical)."""
    with name_scope(name, "categorical", [logits]):
        return _multinomial(logits, num_samples, seed, dtype)


def _gamma_shape(op):
    return [_static_shape(op._inputs[0]).concatenate(op._inputs[1]._shape)]


registry.register_op("RandomGamma", shape_fn=_gamma_shape, stateful=True)
registry.no_gradient("RandomGamma")
registry.register_op("RandomPoissonV2", shape_fn=_gamma_shape, stateful=True)
# No gradient registered for "RandomPoissonV2" (TF has none): tf.gradients through it raises LookupError.


def random_gamma(shape, alpha, beta=None, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from Gamma(alpha, beta) distributions; the result has shape `shape + alpha.shape`
    (alpha and beta broadcast)."""
    dtype = _float_dtype(dtype)
    with name_scope(name, "random_gamma", [shape, alpha, beta]):
        from . import array_ops, math_ops
        shape_t = _shape_tensor(shape)
        alpha = convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        # As TF: broadcast alpha to the common shape of alpha and beta (ops BroadcastArgs,
        # BroadcastTo), so graphs and seeds line up with TF's.
        broadcast = array_ops.broadcast_to(alpha, array_ops.broadcast_dynamic_shape(
            array_ops.shape(alpha), array_ops.shape(beta)))
        g = apply_op("RandomGamma", [shape_t, broadcast], [dtype], "RandomGamma",
                     attrs=dict(_seed_attrs(seed), T=dtype, S=shape_t.dtype.base_dtype))
        return math_ops.maximum(np.finfo(dtype.as_numpy_dtype).tiny, g / beta)


def random_poisson(lam, shape, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from Poisson(lam) distributions; the result has shape `shape + lam.shape`."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    with name_scope(name, "random_poisson", [lam, shape]):
        shape_t = _shape_tensor(shape)
        lam = convert_to_tensor(lam, name="lam")
        return apply_op("RandomPoissonV2", [shape_t, lam], [dtype], "RandomPoissonV2",
                        attrs=dict(_seed_attrs(seed), S=shape_t.dtype.base_dtype, R=lam.dtype.base_dtype,
                                   dtype=dtype))


def random_crop(value, size, seed=None, name=None):
    """Randomly crops `value` to `size` (same rank)."""
    from . import array_ops, math_ops
    with name_scope(name, "random_crop", [value, size]) as name:
        value = convert_to_tensor(value, name="value")
        size = convert_to_tensor(size, dtype=_dtypes.int32, name="size")
        shape = array_ops.shape(value)
        limit = shape - size + 1
        offset = random_uniform(array_ops.shape(shape), dtype=size.dtype, maxval=size.dtype.max,
                                seed=seed) % limit
        return array_ops.slice(value, offset, size, name=name)
