"""tf.signal's framing and windowing composites: frame, overlap_and_add, hann_window,
hamming_window (and the gcd they share). They build TF's own op sequences, so their graphs and
names are TF's ("frame/Reshape_2", "overlap_and_add/strided_slice_1"), and their gradients come
from the ops they are made of.

    frame(x, L, S)[..., i, j, ...] = x[..., i * S + j, ...]        (along `axis`)
    overlap_and_add(f, S)[..., t] = sum_i f[..., i, t - i * S]    (the adjoint of frame)
    hann_window(N)[n]    = 0.5  - 0.5  cos(2 pi n / M)
    hamming_window(N)[n] = 0.54 - 0.46 cos(2 pi n / M)
        (M = N for a periodic window of even length, else N - 1)
"""

import math

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant, constant_value, convert_to_tensor
from ..framework.graph import name_scope as _name_scope

__all__ = ["frame", "overlap_and_add", "hann_window", "hamming_window"]


def _a():
    from . import array_ops
    return array_ops


def _m():
    from . import math_ops
    return math_ops


def _gcd(a, b, name=None):
    """gcd of two scalar integer tensors: a constant when both are known, else a while loop."""
    with _name_scope(name, "gcd", [a, b]):
        a, b = convert_to_tensor(a), convert_to_tensor(b)
        a.shape.assert_has_rank(0)
        b.shape.assert_has_rank(0)
        if not a.dtype.is_integer:
            raise ValueError(f"a must be an integer type. Got: {a.dtype}")
        if not b.dtype.is_integer:
            raise ValueError(f"b must be an integer type. Got: {b.dtype}")
        ca, cb = constant_value(a), constant_value(b)
        if ca is not None and cb is not None:
            return convert_to_tensor(math.gcd(int(ca), int(cb)))
        from .control_flow_ops import while_loop
        m = _m()
        a, b = while_loop(lambda _, y: m.greater(y, _a().zeros_like(y)), lambda x, y: [y, m.mod(x, y, name="mod")], [a, b],
                          back_prop=False)
        return a


def _infer_frame_shape(signal, frame_length, frame_step, pad_end, axis):
    frame_length, frame_step, axis = (constant_value(t) for t in (frame_length, frame_step, axis))
    if signal.shape.ndims is None:
        return None
    if axis is None:
        return [None] * (signal.shape.ndims + 1)
    dims = signal.shape.as_list()
    axis = int(axis)
    frame_length = None if frame_length is None else int(frame_length)
    num_frames = None
    n = dims[axis]
    outer, inner = dims[:axis], dims[axis:][1:]
    if dims and n is not None:
        if frame_step is not None and pad_end:
            num_frames = max(0, -(-n // int(frame_step)))
        elif frame_step is not None and frame_length is not None:
            num_frames = max(0, (n - frame_length + int(frame_step)) // int(frame_step))
    return outer + [num_frames, frame_length] + inner


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Splits `axis` of `signal` into frames of `frame_length` samples, `frame_step` apart: the
    axis becomes [num_frames, frame_length]. Without pad_end only whole frames are kept
    (num_frames = 1 + (n - frame_length) // frame_step); with it the end is padded with pad_value
    so that a frame starts at every frame_step (num_frames = ceil(n / frame_step))."""
    a, m = _a(), _m()
    with _name_scope(name, "frame", [signal, frame_length, frame_step, pad_value]):
        signal = convert_to_tensor(signal, name="signal")
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        axis = convert_to_tensor(axis, name="axis")
        signal.shape.with_rank_at_least(1)
        frame_length.shape.assert_has_rank(0)
        frame_step.shape.assert_has_rank(0)
        axis.shape.assert_has_rank(0)
        result_shape = _infer_frame_shape(signal, frame_length, frame_step, pad_end, axis)

        def maybe_constant(val):
            v = constant_value(val)
            return (v, True) if v is not None else (val, False)

        signal_shape, shape_static = maybe_constant(a.shape(signal))
        axis, axis_static = maybe_constant(axis)
        if axis_static:
            axis = int(axis)
        if shape_static and axis_static:
            axis = range(len(signal_shape))[axis]
            outer, length, inner = np.split(signal_shape, indices_or_sections=[axis, axis + 1])
            length = length.item()
        else:
            rank = a.rank(signal)
            axis = a.range(rank)[axis]
            outer, length, inner = a.split(signal_shape, [axis, 1, rank - 1 - axis])
            length = a.reshape(length, [])
        n_outer = a.size(outer)
        n_inner = a.size(inner)
        if pad_end:
            pad_value = convert_to_tensor(pad_value, signal.dtype)
            pad_value.shape.assert_has_rank(0)
            num_frames = -(-length // frame_step)
            pad_samples = m.maximum(0, frame_length + frame_step * (num_frames - 1) - length)
            paddings = a.concat([a.zeros([n_outer, 2], dtype=pad_samples.dtype),
                                 convert_to_tensor([[0, pad_samples]]),
                                 a.zeros([n_inner, 2], dtype=pad_samples.dtype)], 0)
            signal = a.pad(signal, paddings, constant_values=pad_value)
            signal_shape = a.shape(signal)
            length = signal_shape[axis]
        else:
            num_frames = m.maximum(constant(0, dtype=frame_length.dtype), 1 + (length - frame_length) // frame_step)
        subframe_length, _ = maybe_constant(_gcd(frame_length, frame_step))
        subframes_per_frame = frame_length // subframe_length
        subframes_per_hop = frame_step // subframe_length
        num_subframes = length // subframe_length
        slice_shape = a.concat([outer, [num_subframes * subframe_length], inner], 0)
        subframe_shape = a.concat([outer, [num_subframes, subframe_length], inner], 0)
        subframes = a.reshape(a.strided_slice(signal, a.zeros_like(signal_shape), slice_shape), subframe_shape)
        frame_selector = a.reshape(a.range(num_frames, dtype=frame_length.dtype) * subframes_per_hop,
                                   [num_frames, 1])
        subframe_selector = a.reshape(a.range(subframes_per_frame, dtype=frame_length.dtype),
                                      [1, subframes_per_frame])
        selector = frame_selector + subframe_selector
        outer = convert_to_tensor(outer)
        inner = convert_to_tensor(inner, dtype=outer.dtype)
        mid = convert_to_tensor([num_frames, frame_length], dtype=outer.dtype)
        frames = a.reshape(a.gather(subframes, selector, axis=axis), a.concat([outer, mid, inner], 0))
        if result_shape:
            frames.set_shape(result_shape)
        return frames


def overlap_and_add(signal, frame_step, name=None):
    """Adds the frames of `signal` ([..., frames, frame_length]) back together, each `frame_step`
    samples after the previous one: [..., (frames - 1) * frame_step + frame_length]."""
    a, m = _a(), _m()
    with _name_scope(name, "overlap_and_add", [signal, frame_step]):
        signal = convert_to_tensor(signal, name="signal")
        signal.shape.with_rank_at_least(2)
        in_shape = signal.shape
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        frame_step.shape.assert_has_rank(0)
        if not frame_step.dtype.is_integer:
            raise ValueError(f"frame_step must be an integer. Got {frame_step.dtype}")
        step_static = constant_value(frame_step)
        step_is_static = step_static is not None
        frame_step = int(step_static) if step_is_static else frame_step
        signal_shape = a.shape(signal)
        shape_static = constant_value(signal_shape)
        if shape_static is not None:
            signal_shape = np.asarray(shape_static)
        outer = signal_shape[:-2]
        outer_rank = a.size(outer)
        rank_static = constant_value(outer_rank)
        if rank_static is not None:
            outer_rank = int(rank_static)

        def full_shape(inner_shape):
            return a.concat([outer, inner_shape], 0)

        frame_length = signal_shape[-1]
        frames = signal_shape[-2]
        output_length = frame_length + frame_step * (frames - 1)
        if step_is_static and signal.shape.ndims is not None and frame_step == signal.shape.dims[-1].value:
            return a.reshape(signal, full_shape([output_length]), name="fast_path")
        segments = -(-frame_length // frame_step)
        paddings = [[0, segments], [0, segments * frame_step - frame_length]]
        outer_paddings = a.zeros([outer_rank, 2], _dtypes.int32)
        paddings = a.concat([outer_paddings, paddings], 0)
        signal = a.pad(signal, paddings)
        signal = a.reshape(signal, full_shape([frames + segments, segments, frame_step]))
        # TF adds a static rank to the list in NumPy (one Const in the concat), a dynamic one in the graph
        tail = outer_rank + np.array([1, 0, 2], np.int32) if isinstance(outer_rank, int) else outer_rank + [1, 0, 2]
        perm = a.concat([a.range(outer_rank), tail], 0)
        perm_static = constant_value(perm)
        perm = perm_static if perm_static is not None else perm
        signal = a.transpose(signal, perm)
        signal = a.reshape(signal, full_shape([(frames + segments) * segments, frame_step]))
        signal = signal[..., :(frames + segments - 1) * segments, :]
        signal = a.reshape(signal, full_shape([segments, frames + segments - 1, frame_step]))
        signal = m.reduce_sum(signal, -3)
        signal = a.reshape(signal, full_shape([(frames + segments - 1) * frame_step]))
        out = signal[..., :output_length]
        # TF's C++ shape inference evaluates the partially known shape tensors: the static
        # output length when the frames, frame length and step are known.
        dims = out.shape.as_list() if out.shape.ndims is not None else None
        known = in_shape.as_list() if in_shape.ndims is not None else None
        if dims is not None and known is not None and step_is_static and None not in known[-2:]:
            dims[-1] = known[-1] + frame_step * (known[-2] - 1)
            dims[:-1] = [d if d is not None else k for d, k in zip(dims[:-1], known[:-2])]
            out.set_shape(dims)
        return out


def _raised_cosine_window(name, default_name, window_length, periodic, dtype, c0, c1):
    a, m = _a(), _m()
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    with _name_scope(name, default_name, [window_length, periodic]):
        window_length = convert_to_tensor(window_length, dtype=_dtypes.int32, name="window_length")
        window_length.shape.assert_has_rank(0)
        length_static = constant_value(window_length)
        if length_static is not None and int(length_static) == 1:
            return a.ones([1], dtype=dtype)
        periodic = m.cast(convert_to_tensor(periodic, dtype=_dtypes.bool, name="periodic"), _dtypes.int32)
        periodic.shape.assert_has_rank(0)
        even = 1 - m.mod(window_length, 2, name="mod")
        n = m.cast(window_length + periodic * even - 1, dtype=dtype)
        count = m.cast(a.range(window_length), dtype)
        cos_arg = constant(2 * np.pi, dtype=dtype) * count / n
        if length_static is not None:
            return m.cast(c0 - c1 * m.cos(cos_arg), dtype=dtype)
        from .control_flow_ops import cond
        return cond(m.equal(window_length, 1), lambda: a.ones([window_length], dtype=dtype),
                    lambda: m.cast(c0 - c1 * m.cos(cos_arg), dtype=dtype))


def hann_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """0.5 - 0.5 cos(2 pi n / M), n < window_length (M: window_length if periodic and even,
    else window_length - 1)."""
    return _raised_cosine_window(name, "hann_window", window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=_dtypes.float32, name=None):
    """0.54 - 0.46 cos(2 pi n / M), as hann_window."""
    return _raised_cosine_window(name, "hamming_window", window_length, periodic, dtype, 0.54, 0.46)
