"""Initializers (tf.zeros_initializer, tf.glorot_uniform_initializer, ...).

An initializer is a callable `init(shape, dtype=None, partition_info=None)` that builds the ops
computing a tensor of that shape (inside `tf.get_variable` they land in `<var>/Initializer/`).
The classes, their arguments, defaults, op structure and errors follow TF1's `init_ops`.
"""

import math

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant
from ..framework.tensor_shape import TensorShape
from . import random_ops

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
           "TruncatedNormal", "UniformUnitScaling", "VarianceScaling", "Orthogonal", "Identity",
           "GlorotUniform", "GlorotNormal", "zeros_initializer", "ones_initializer",
           "constant_initializer", "random_uniform_initializer", "random_normal_initializer",
           "truncated_normal_initializer", "uniform_unit_scaling_initializer",
           "variance_scaling_initializer", "orthogonal_initializer", "identity_initializer",
           "glorot_uniform_initializer", "glorot_normal_initializer", "lecun_normal", "lecun_uniform",
           "he_normal", "he_uniform"]


def _assert_float_dtype(dtype):
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: {dtype}.")
    return dtype


def _as_list(shape):
    if isinstance(shape, TensorShape):
        return shape.as_list()
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return [int(d) if d is not None and not hasattr(d, "value") else (d.value if hasattr(d, "value") else d)
            for d in shape]


def _compute_fans(shape):
    shape = _as_list(shape)
    if len(shape) < 1:
        fan_in = fan_out = 1
    elif len(shape) == 1:
        fan_in = fan_out = shape[0]
    elif len(shape) == 2:
        fan_in, fan_out = shape
    else:
        receptive_field_size = 1
        for dim in shape[:-2]:
            receptive_field_size *= dim
        fan_in = shape[-2] * receptive_field_size
        fan_out = shape[-1] * receptive_field_size
    return int(fan_in), int(fan_out)


class Initializer:
    """Base class: `__call__(shape, dtype=None, partition_info=None)` returns a Tensor."""

    def __call__(self, shape, dtype=None, partition_info=None):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("dtype", None)
        return cls(**config)


class _Fill(Initializer):
    """Initializes to a constant produced by array_ops.<_fill> (zeros or ones)."""

    _fill = None

    def __init__(self, dtype=_dtypes.float32):
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        from . import array_ops
        return getattr(array_ops, self._fill)(shape, dtype if dtype is not None else self.dtype)

    def get_config(self):
        return {"dtype": self.dtype.name}


class Zeros(_Fill):
    """Initializes to 0."""

    _fill = "zeros"


class Ones(_Fill):
    """Initializes to 1."""

    _fill = "ones"


class Constant(Initializer):
    """Initializes to `value` (a scalar is broadcast; a short list is padded with its last
    element)."""

    def __init__(self, value=0, dtype=_dtypes.float32, verify_shape=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value={value} of type: {type(value).__name__}. "
                            "Expected Python scalar, list or tuple of values, or numpy.ndarray.")
        self.value = value
        self.dtype = _dtypes.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape, dtype=None, partition_info=None, verify_shape=None):
        dtype = dtype if dtype is not None else self.dtype
        verify_shape = self._verify_shape if verify_shape is None else verify_shape
        return constant(self.value, dtype=dtype, shape=shape, verify_shape=verify_shape)

    def get_config(self):
        return {"value": self.value, "dtype": self.dtype.name}


class RandomUniform(Initializer):
    """Uniform on [minval, maxval) (maxval defaults to 1 for floats)."""

    def __init__(self, minval=.0, maxval=None, seed=None, dtype=_dtypes.float32):
        self.minval = minval
        self.maxval = maxval
        self.seed = seed
        self.dtype = _dtypes.as_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype if dtype is not None else self.dtype
        return random_ops.random_uniform(shape, self.minval, self.maxval, dtype, seed=self.seed)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed, "dtype": self.dtype.name}


class RandomNormal(Initializer):
    """Normal with the given mean and standard deviation."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_dtypes.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype if dtype is not None else self.dtype
        return random_ops.random_normal(shape, self.mean, self.stddev, dtype, seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class TruncatedNormal(Initializer):
    """Normal with the given mean and standard deviation, values beyond 2 standard deviations
    redrawn."""

    def __init__(self, mean=0.0, stddev=1.0, seed=None, dtype=_dtypes.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype if dtype is not None else self.dtype
        return random_ops.truncated_normal(shape, self.mean, self.stddev, dtype, seed=self.seed)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class UniformUnitScaling(Initializer):
    """Uniform on [-sqrt(3 / input_size) * factor, +...], input_size = prod(shape[:-1])."""

    def __init__(self, factor=1.0, seed=None, dtype=_dtypes.float32):
        self.factor = factor
        self.seed = seed
        self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype if dtype is not None else self.dtype
        scale_shape = _as_list(shape if partition_info is None else partition_info.full_shape)
        input_size = 1.0
        for dim in scale_shape[:-1]:
            input_size *= float(dim)
        input_size = max(input_size, 1.0)
        max_val = math.sqrt(3 / input_size) * self.factor
        return random_ops.random_uniform(shape, -max_val, max_val, dtype, seed=self.seed)

    def get_config(self):
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


class VarianceScaling(Initializer):
    """Scales to the layer's fan: stddev (or limit) from scale / fan_in, fan_out or their mean.

    distribution: "truncated_normal" (= "normal"; stddev sqrt(scale/n) / 0.8796...),
    "untruncated_normal" (stddev sqrt(scale/n)), "uniform" (limit sqrt(3 scale/n))."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 dtype=_dtypes.float32):
        if scale <= 0.:
            raise ValueError(f"Argument `scale` must be a positive float. Received: {scale}")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError(f"Argument `mode` should be one of ('fan_in', 'fan_out', 'fan_avg'). "
                             f"Received: {mode}")
        distribution = distribution.lower()
        if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError("Argument `distribution` should be one of ('normal', uniform', "
                             f"'truncated_normal', 'untruncated_normal'). Received: {distribution}")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.seed = seed
        self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = dtype if dtype is not None else self.dtype
        scale = self.scale
        fan_in, fan_out = _compute_fans(shape if partition_info is None else partition_info.full_shape)
        if self.mode == "fan_in":
            scale /= max(1., fan_in)
        elif self.mode == "fan_out":
            scale /= max(1., fan_out)
        else:
            scale /= max(1., (fan_in + fan_out) / 2.)
        if self.distribution in ("normal", "truncated_normal"):
            # the standard deviation of a unit normal truncated to [-2, 2]
            stddev = math.sqrt(scale) / .87962566103423978
            return random_ops.truncated_normal(shape, 0.0, stddev, dtype, seed=self.seed)
        if self.distribution == "untruncated_normal":
            return random_ops.random_normal(shape, 0.0, math.sqrt(scale), dtype, seed=self.seed)
        limit = math.sqrt(3.0 * scale)
        return random_ops.random_uniform(shape, -limit, limit, dtype, seed=self.seed)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    """Glorot/Xavier uniform: limit sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, seed=None, dtype=_dtypes.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="uniform", seed=seed, dtype=dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    """Glorot/Xavier normal: truncated normal, stddev sqrt(2 / (fan_in + fan_out))."""

    def __init__(self, seed=None, dtype=_dtypes.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="truncated_normal", seed=seed, dtype=dtype)

    def get_config(self):
        return {"seed": self.seed, "dtype": self.dtype.name}


class Orthogonal(Initializer):
    """A (semi-)orthogonal matrix times `gain`: Q of the QR decomposition of a normal matrix,
    signs fixed so the result is uniform over orthogonal matrices; shapes of rank > 2 are
    flattened to (prod(shape[:-1]), shape[-1]).

    Built as TF builds it: random_normal, Qr, DiagPart, Sign, Mul (and matrix_transpose for a
    wide matrix), Reshape and the gain's Mul."""

    def __init__(self, gain=1.0, seed=None, dtype=_dtypes.float32):
        self.gain = gain
        self.seed = seed
        self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = _assert_float_dtype(_dtypes.as_dtype(dtype if dtype is not None else self.dtype))
        shape = _as_list(shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be at least "
                             f"two-dimensional. Received shape={shape}")
        from . import array_misc_ops, array_reshape_ops, linalg_ops, math_elementwise_ops
        num_rows = int(np.prod(shape[:-1]))
        num_cols = int(shape[-1])
        flat_shape = (num_cols, num_rows) if num_rows < num_cols else (num_rows, num_cols)
        a = random_ops.random_normal(flat_shape, dtype=dtype, seed=self.seed)
        q, r = linalg_ops.qr(a, full_matrices=False)
        q *= math_elementwise_ops.sign(array_misc_ops.diag_part(r))   # makes Q uniform
        if num_rows < num_cols:
            q = linalg_ops.matrix_transpose(q)
        return self.gain * array_reshape_ops.reshape(q, shape)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class Identity(Initializer):
    """`gain` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0, dtype=_dtypes.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(_dtypes.as_dtype(dtype))

    def __call__(self, shape, dtype=None, partition_info=None):
        full_shape = _as_list(shape if partition_info is None else partition_info.full_shape)
        if len(full_shape) != 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be at least "
                             f"two-dimensional. Received shape={shape}")
        from . import array_slice_ops, linalg_ops
        dtype = _dtypes.as_dtype(dtype if dtype is not None else self.dtype)
        initializer = linalg_ops.eye(*full_shape, dtype=dtype)
        if partition_info is not None:
            initializer = array_slice_ops.slice(initializer, partition_info.var_offset, shape)
        return self.gain * initializer

    def get_config(self):
        return {"gain": self.gain, "dtype": self.dtype.name}


def lecun_normal(seed=None):
    """LeCun normal: truncated normal, stddev sqrt(1 / fan_in)."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed=None):
    """LeCun uniform: limit sqrt(3 / fan_in)."""
    return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def he_normal(seed=None):
    """He normal: truncated normal, stddev sqrt(2 / fan_in)."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed=None):
    """He uniform: limit sqrt(6 / fan_in)."""
    return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
uniform_unit_scaling_initializer = UniformUnitScaling
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal
orthogonal_initializer = Orthogonal
identity_initializer = Identity
