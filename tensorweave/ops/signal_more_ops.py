"""More of tf.signal: the N-D FFTs (fftnd, ifftnd, rfftnd, irfftnd, also tf.fftnd & co.), the
Kaiser, Kaiser-Bessel-derived and Vorbis windows, and the MDCT with its inverse.

The windows and the MDCT are composites of TF's own op sequences (so names and gradients are
TF's):

    kaiser_window(N, b)[n] = I0(b sqrt(1 - (2n/(N-1) - 1)^2)) / I0(b)
    kbd_window(N, b)       = sqrt(cumsum(kaiser(N/2 + 1, b))[:-1] / sum), mirrored
    vorbis_window(N)[n]    = sin(pi/2 sin^2(pi (n + 1/2) / N))
    mdct(x, L)             = DCT-IV of the windowed, folded frames of length L (hop L/2)

The N-D FFTs are the ops FFTND, IFFTND, RFFTND and IRFFTND with `fft_length` and `axes` inputs.
TF registers only GPU kernels for them and gives them the input's static shape (even when
fft_length changes it); tensorweave keeps TF's static shapes and graph, and has CPU kernels
(kernels/cpu/spectral_nd.py) and gradients, where TF cannot run them on a CPU at all.
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op
from . import spectral_ops as _spectral
from .array_range_ops import range as _range

__all__ = ["fftnd", "ifftnd", "rfftnd", "irfftnd", "kaiser_window", "kaiser_bessel_derived_window",
           "vorbis_window", "mdct", "inverse_mdct"]


def _a():
    from . import array_ops
    return array_ops


def _m():
    from . import math_ops
    return math_ops


# -- N-D FFTs ------------------------------------------------------------------------------------

def _nd_shape(op):
    # TF's shape function for the N-D FFTs returns the input's shape unchanged.
    return [op._inputs[0]._shape]


for _t in ("FFTND", "IFFTND", "RFFTND", "IRFFTND"):
    registry.register_op(_t, shape_fn=_nd_shape)


def _axes(x, axes):
    if axes is None:
        # TF's _infer_axes_for_fftn: every axis of x.
        return convert_to_tensor(list(range(-len(x.shape), 0)), _dtypes.int32)
    return convert_to_tensor(axes, _dtypes.int32)


def _norm_scale(x, fft_length, norm, inverse):
    if norm is None or norm == "backward":
        return x
    n = 1
    for d in np.asarray(fft_length).ravel():  # TF iterates fft_length (a static value only)
        n *= int(d)
    if norm == "forward":
        return x * n if inverse else x / n
    if norm == "ortho":
        return x * np.sqrt(n) if inverse else x / np.sqrt(n)
    return x


def _nd_wrapper(op_type, default_name, real_in, inverse):
    def fn(input_tensor, fft_length=None, axes=None, norm=None, name=None):
        scope_values = [input_tensor, fft_length] if op_type == "IRFFTND" else [input_tensor, fft_length, axes]
        with _name_scope(name, default_name, scope_values) as scope:
            x0 = convert_to_tensor(input_tensor) if not real_in else None
            axes_t = _axes(x0 if x0 is not None else convert_to_tensor(input_tensor), axes)
            rank = axes_t.shape.as_list()[0]
            if real_in:
                x = convert_to_tensor(input_tensor, preferred_dtype=_dtypes.float32)
                if x.dtype.base_dtype not in (_dtypes.float32, _dtypes.float64):
                    raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x}")
                x.shape.with_rank_at_least(rank)
            else:
                x = convert_to_tensor(input_tensor, preferred_dtype=_dtypes.complex64)
                x.shape.with_rank_at_least(rank)
                if op_type == "IRFFTND" and x.dtype.base_dtype not in (_dtypes.complex64, _dtypes.complex128):
                    raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x}")
            inferred = fft_length is None and op_type != "IRFFTND"
            if fft_length is None:
                if op_type == "IRFFTND":
                    n = x.shape.as_list()
                    n[-1] = max(0, 2 * (n[-1] - 1))
                    fft_length = convert_to_tensor(n, _dtypes.int32)
                else:
                    fft_length = _a().shape(x)[-len(x.shape):]
            else:
                fft_length = convert_to_tensor(fft_length, _dtypes.int32)
            x = _spectral._maybe_pad(x, rank, fft_length, reverse=op_type == "IRFFTND")
            # TF's constant_value does not fold the inferred shape(x)[-rank:] slice.
            static = None if inferred else constant_value(fft_length)
            if static is None and norm not in (None, "backward"):
                from ..framework.graph import OperatorNotAllowedInGraphError
                raise OperatorNotAllowedInGraphError("Iterating over a symbolic `tf.Tensor` is not allowed.")
            x = _norm_scale(x, static, norm, inverse)
            if static is not None:
                fft_length = convert_to_tensor(np.asarray(static), _dtypes.int32, name="fft_length")
            dt = x.dtype.base_dtype
            if op_type == "RFFTND":
                cplx = _dtypes.complex64 if dt is _dtypes.float32 else _dtypes.complex128
                return apply_op(op_type, [x, fft_length, axes_t], [cplx], scope,
                                attrs={"Treal": dt, "Tcomplex": cplx})
            if op_type == "IRFFTND":
                return apply_op(op_type, [x, fft_length, axes_t], [dt.real_dtype], scope,
                                attrs={"Treal": dt.real_dtype, "Tcomplex": dt})
            return apply_op(op_type, [x, fft_length, axes_t], [dt], scope, attrs={"Tcomplex": dt})
    return fn


fftnd = _nd_wrapper("FFTND", "fftnd", False, False)
fftnd.__doc__ = """The N-D FFT of a complex tensor over `axes` (default all), each cropped or
zero-padded to `fft_length`; norm is "backward" (default), "ortho" or "forward"."""
ifftnd = _nd_wrapper("IFFTND", "ifftnd", False, True)
ifftnd.__doc__ = """The inverse N-D FFT over `axes` (default all); see fftnd."""
rfftnd = _nd_wrapper("RFFTND", "rfftnd", True, False)
rfftnd.__doc__ = """The N-D FFT of a real tensor over `axes`; the last axis keeps
fft_length[-1] // 2 + 1 frequencies."""
irfftnd = _nd_wrapper("IRFFTND", "irfftnd", False, True)
irfftnd.__doc__ = """The inverse of rfftnd: a real tensor with fft_length samples on `axes`."""


def _nd_static(op):
    n, ax = constant_value(op.inputs[1]), constant_value(op.inputs[2])
    if n is None or ax is None:
        raise NotImplementedError(f"the gradient of {op.type} with a non-constant fft_length or axes "
                                  "is not supported by tensorweave yet")
    return [int(d) for d in np.asarray(n).ravel()], [int(d) for d in np.asarray(ax).ravel()]


def _fit_axes(t, like, axes):
    """t cropped / zero-padded to like's shape (they differ only on `axes`): undoes the kernel's
    crop/pad of its input. Static when both shapes are known, else with shape arithmetic."""
    a, m = _a(), _m()
    have, want = t.shape.as_list(), like.shape.as_list()
    if None not in have and None not in want:
        if have == want:
            return t
        if any(h > w for h, w in zip(have, want)):
            t = a.slice(t, [0] * len(have), [min(h, w) for h, w in zip(have, want)])
        pads = [[0, max(w - h, 0)] for h, w in zip(have, want)]
        return a.pad(t, pads) if any(p for _, p in pads) else t
    hs, ws = a.shape(t), a.shape(like)
    keep = m.minimum(hs, ws)
    t = a.slice(t, a.zeros_like(keep), keep)
    pads = ws - keep
    return a.pad(t, a.stack([a.zeros_like(pads), pads], axis=1))


def _true_shape(t, x, n, axes, half_last):
    """Gives t (an N-D FFT of x built inside a gradient) its real static shape instead of TF's
    input-shaped one, so the gradient's own shape inference holds."""
    from ..framework.tensor_shape import TensorShape
    dims = x.shape.as_list() if x.shape.ndims is not None else None
    if dims is None:
        return t
    for ax, d in zip(axes, n):
        dims[ax] = d
    if half_last:
        dims[axes[-1]] = n[-1] // 2 + 1
    t._shape = TensorShape(dims)
    return t


def _inv_complex(op_type):
    def grad(op, g):
        n, axes = _nd_static(op)
        like = op.inputs[0]
        size = float(np.prod(n))
        dt = g.dtype.base_dtype
        if op_type == "IFFTND":  # adjoint of FFT = N * IFFT
            r = _true_shape(ifftnd(g, n, axes), g, n, axes, False) * _m().cast(size, dt)
        else:  # adjoint of IFFT = FFT / N
            r = _true_shape(fftnd(g, n, axes), g, n, axes, False) * _m().cast(1.0 / size, dt)
        return [_fit_axes(r, like, axes), None, None]
    return grad


registry.register_gradient("FFTND")(_inv_complex("IFFTND"))
registry.register_gradient("IFFTND")(_inv_complex("FFTND"))


@registry.register_gradient("RFFTND")
def _rfftnd_grad(op, g):
    """Re(N * IFFTND(g zero-padded to the full last axis)): the adjoint of the half spectrum."""
    n, axes = _nd_static(op)
    like = op.inputs[0]
    if g.shape.ndims is None:
        raise NotImplementedError("the gradient of RFFTND for an input of unknown rank is not supported "
                                  "by tensorweave yet")
    a, m = _a(), _m()
    pads = [[0, 0] for _ in range(g.shape.ndims)]
    pads[axes[-1]][1] = n[-1] - (n[-1] // 2 + 1)
    padded = a.pad(g, pads)
    full = _true_shape(ifftnd(padded, n, axes), padded, n, axes, False)
    x = m.real(full) * float(np.prod(n))
    return [_fit_axes(x, like, axes), None, None]


@registry.register_gradient("IRFFTND")
def _irfftnd_grad(op, g):
    """RFFTND(g) * [1, 2, ..., 2, 1 if even] / N along the last axis."""
    n, axes = _nd_static(op)
    like = op.inputs[0]
    if g.shape.ndims is None:
        raise NotImplementedError("the gradient of IRFFTND for an input of unknown rank is not supported "
                                  "by tensorweave yet")
    m = _m()
    spec = _true_shape(rfftnd(g, n, axes), g, n, axes, True)
    k = n[-1] // 2 + 1
    mask = np.full(k, 2.0)
    mask[0] = 1.0
    if n[-1] % 2 == 0:
        mask[-1] = 1.0
    shape = [1] * g.shape.ndims
    shape[axes[-1]] = k
    scale = m.cast((mask / max(float(np.prod(n)), 1.0)).reshape(shape), op.inputs[0].dtype.base_dtype)
    return [_fit_axes(spec * scale, like, axes), None, None]


# -- windows -------------------------------------------------------------------------------------

def _check_params(window_length, dtype):
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    window_length = convert_to_tensor(window_length, dtype=_dtypes.int32)
    window_length.shape.assert_has_rank(0)
    return window_length


def kaiser_window(window_length, beta=12., dtype=_dtypes.float32, name=None):
    """A Kaiser window of `window_length` samples (numpy.kaiser): I0(beta sqrt(1 - t^2)) / I0(beta)
    for t from -1 to 1, computed with bessel_i0e for range."""
    from .math_special_ops import bessel_i0e
    a, m = _a(), _m()
    dtype = _dtypes.as_dtype(dtype)
    with _name_scope(name, "kaiser_window"):
        window_length = _check_params(window_length, dtype)
        if constant_value(window_length) == 1:
            return a.ones([1], dtype=dtype)
        halflen_float = (m.cast(window_length, dtype=_dtypes.float32) - 1.0) / 2.0
        arg = _range(-halflen_float, halflen_float + 0.1, dtype=_dtypes.float32)
        arg = m.cast(arg, dtype=dtype)
        beta = m.cast(beta, dtype=dtype)
        one = m.cast(1.0, dtype=dtype)
        halflen_float = m.cast(halflen_float, dtype=dtype)
        from .nn_ops import relu
        num = beta * m.sqrt(relu(one - m.square(arg / halflen_float)))
        return m.exp(num - beta) * (bessel_i0e(num) / bessel_i0e(beta))


def kaiser_bessel_derived_window(window_length, beta=12., dtype=_dtypes.float32, name=None):
    """A Kaiser-Bessel-derived window (the power-complementary window of AAC's MDCT)."""
    a, m = _a(), _m()
    dtype = _dtypes.as_dtype(dtype)
    with _name_scope(name, "kaiser_bessel_derived_window"):
        window_length = _check_params(window_length, dtype)
        halflen = window_length // 2
        kaiserw = kaiser_window(halflen + 1, beta, dtype=dtype)
        kaiserw_csum = m.cumsum(kaiserw)
        halfw = m.sqrt(kaiserw_csum[:-1] / kaiserw_csum[-1])
        return a.concat((halfw, halfw[::-1]), axis=0)


def vorbis_window(window_length, dtype=_dtypes.float32, name=None):
    """The Vorbis power-complementary window: sin(pi/2 sin^2(pi (n + 0.5) / N))."""
    m = _m()
    dtype = _dtypes.as_dtype(dtype)
    with _name_scope(name, "vorbis_window"):
        window_length = _check_params(window_length, dtype)
        arg = m.cast(_range(window_length), dtype=dtype)
        return m.sin(np.pi / 2.0 * m.pow(m.sin(np.pi / m.cast(window_length, dtype=dtype) * (arg + 0.5)), 2.0))


# -- MDCT ----------------------------------------------------------------------------------------

def mdct(signals, frame_length, window_fn=vorbis_window, pad_end=False, norm=None, name=None):
    """The modified DCT of `signals` ([..., samples]) in frames of `frame_length` (a multiple of 4)
    with hop frame_length // 2: [..., frames, frame_length // 2] bins."""
    from .signal_ops import frame
    from .signal_spectral_ops import dct
    a = _a()
    with _name_scope(name, "mdct", [signals, frame_length]):
        signals = convert_to_tensor(signals, name="signals")
        signals.shape.with_rank_at_least(1)
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_length.shape.assert_has_rank(0)
        static = constant_value(frame_length)
        if static is not None:
            if static % 4 != 0:
                raise ValueError("The frame length must be a multiple of 4.")
            frame_step = convert_to_tensor(static // 2, dtype=frame_length.dtype)
        else:
            frame_step = frame_length // 2
        framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed *= window_fn(frame_length, dtype=framed.dtype)
        else:
            framed *= 1.0 / np.sqrt(2)
        split = a.split(framed, 4, axis=-1)
        first = -a.reverse(split[2], [-1]) - split[3]
        second = split[0] - a.reverse(split[1], [-1])
        return dct(a.concat((first, second), axis=-1), type=4, norm=norm)


def inverse_mdct(mdcts, window_fn=vorbis_window, norm=None, name=None):
    """The inverse of mdct: windowed DCT-IV frames overlap-added into [..., samples], samples =
    (frames - 1) * (frame_length // 2) + frame_length."""
    from .signal_ops import overlap_and_add
    from .signal_spectral_ops import dct
    a, m = _a(), _m()
    with _name_scope(name, "inverse_mdct", [mdcts]):
        mdcts = convert_to_tensor(mdcts, name="mdcts")
        mdcts.shape.with_rank_at_least(2)
        half_len = m.cast(mdcts.shape[-1], dtype=_dtypes.int32)
        if norm is None:
            half_len_float = m.cast(half_len, dtype=mdcts.dtype)
            result = (0.5 / half_len_float) * dct(mdcts, type=4)
        elif norm == "ortho":
            result = dct(mdcts, type=4, norm="ortho")
        else:
            raise ValueError(f"Unknown normalization: {norm}")  # TF fails later with an UnboundLocalError
        split = a.split(result, 2, axis=-1)
        frames = a.concat((split[1], -a.reverse(split[1], [-1]), -a.reverse(split[0], [-1]), -split[0]),
                          axis=-1)
        if window_fn is not None:
            frames *= window_fn(2 * half_len, dtype=mdcts.dtype)
        else:
            frames *= 1.0 / np.sqrt(2)
        return overlap_and_add(frames, half_len)
