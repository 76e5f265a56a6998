"""Norm clipping: clip_by_norm, global_norm, clip_by_global_norm, clip_by_average_norm.

(`clip_by_value` is an elementwise math op and lives with the math ops.) Sparse gradients
(`IndexedSlices`) are clipped through their values and stay sparse; None entries pass through.
"""

import collections.abc

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import colocate_with, name_scope
from ..framework.indexed_slices import IndexedSlices

__all__ = ["clip_by_norm", "global_norm", "clip_by_global_norm", "clip_by_average_norm"]


def _math():
    from . import math_ops
    return math_ops


def _array():
    from . import array_ops
    return array_ops


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(l2norm(t, axes), clip_norm): rescales t so its L2 norm (over `axes`,
    all axes by default) is at most clip_norm. An IndexedSlices is clipped by its values."""
    m, a = _math(), _array()
    with name_scope(name, "clip_by_norm", [t, clip_norm]) as name:
        values = convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name="t")
        # As TF 2.21: a negative clip_norm clips to 0; a tensor one is cast to the values' dtype.
        if np.isscalar(clip_norm):
            if clip_norm < 0:
                clip_norm = 0
        else:
            clip_norm = m.cast(m.maximum(clip_norm, 0), dtype=values.dtype)
        l2sum = m.reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        # Two-tap where: the gradient of sqrt at 0 never reaches the result (no NaN gradients).
        l2sum_safe = a.where(pred, l2sum, a.ones_like(l2sum))
        l2norm = a.where(pred, m.sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        values.shape.assert_is_compatible_with(intermediate.shape)
        values_clip = a.identity(intermediate / m.maximum(l2norm, clip_norm), name=name)
    if isinstance(t, IndexedSlices):
        return IndexedSlices(values_clip, t.indices, t.dense_shape)
    return values_clip


def _check_list(t_list):
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return list(t_list)


def _values(t_list):
    return [convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t, name=f"t_{i}")
            if t is not None else None for i, t in enumerate(t_list)]


def global_norm(t_list, name=None):
    """sqrt(sum(l2norm(t) ** 2 for t in t_list)), ignoring None entries."""
    from . import nn_ops
    m, a = _math(), _array()
    t_list = _check_list(t_list)
    with name_scope(name, "global_norm", [t for t in t_list if t is not None]) as name:
        values = _values(t_list)
        half_squared_norms = []
        for v in values:
            if v is not None:
                with colocate_with(v):
                    half_squared_norms.append(nn_ops.l2_loss(v))
        half_squared_norm = m.reduce_sum(a.stack(half_squared_norms))
        return m.sqrt(half_squared_norm * constant(2.0, dtype=half_squared_norm.dtype), name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scales every tensor in t_list by clip_norm / max(global_norm, clip_norm).

    Returns (list_clipped, global_norm). None entries stay None; IndexedSlices stay sparse. If the
    global norm is inf or NaN, every clipped value is NaN (as TF)."""
    m = _math()
    t_list = _check_list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    with name_scope(name, "clip_by_global_norm",
                    [t for t in t_list if t is not None] + [clip_norm]) as name:
        scale_for_finite = clip_norm * m.minimum(1.0 / use_norm,
                                                 constant(1.0, dtype=use_norm.dtype) / clip_norm)
        # A no-op for finite norms; NaN for inf/NaN norms.
        scale = scale_for_finite + (use_norm - use_norm)
        values = _values(t_list)
        values_clipped = []
        a = _array()
        for i, v in enumerate(values):
            if v is None:
                values_clipped.append(None)
            else:
                with colocate_with(v):
                    s = scale if scale.dtype.base_dtype == v.dtype.base_dtype else m.cast(scale, v.dtype.base_dtype)
                    values_clipped.append(a.identity(v * s, name=f"{name}_{i}"))
        list_clipped = [IndexedSlices(c, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) else c
                        for c, t in zip(values_clipped, t_list)]
    return list_clipped, use_norm


def clip_by_average_norm(t, clip_norm, name=None):
    """t * clip_norm / max(l2norm(t) / size(t), clip_norm)."""
    m, a = _math(), _array()
    with name_scope(name, "clip_by_average_norm", [t, clip_norm]) as name:
        t = convert_to_tensor(t, name="t")
        n_element = m.cast(a.size(t), _dtypes.float32)
        l2norm_inv = m.rsqrt(m.reduce_sum(t * t, a.range(a.rank(t))))
        return a.identity(t * clip_norm * m.minimum(l2norm_inv * n_element, constant(1.0) / clip_norm),
                          name=name)
