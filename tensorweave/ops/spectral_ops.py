"""The FFT ops of tf.signal (TF1: tf.spectral, and tf.fft/tf.ifft/... at the top level):
FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D over the innermost 1-3 dimensions of a complex64 or
complex128 tensor; RFFT/IRFFT (and 2D, 3D) between real signals and their non-redundant half
spectra, with `fft_length`; fftshift/ifftshift.

    X[k] = sum_n x[n] exp(-2 pi i k n / N)      (FFT)
    x[n] = 1/N sum_k X[k] exp(+2 pi i k n / N)  (IFFT)

RFFT keeps X[0 .. N//2]; IRFFT reads its input as such a half spectrum (the imaginary parts of
X[0] and, for even N, X[N/2] are ignored). The kernels crop or zero-pad the inner dimensions to
`fft_length`; the Python wrappers first pad short inputs with a Pad op, as TF does, so graphs carry
TF's op names ("rfft/Pad", "rfft/fft_length").

Gradients (TF's convention: for a real loss L and complex z, dL/dz = dL/dRe z + i dL/dIm z, so the
gradient of a linear map is its adjoint): FFT's is N * IFFT, IFFT's is FFT / N; RFFT's is
Re(N * IFFT(grad padded to N)) fitted back to the input's inner shape; IRFFT's is
RFFT(grad) * [1, 2, ..., 2, 1 (even N)] / N, fitted back the same way. Unlike TF, RFFT3D and
IRFFT3D have gradients too (the same formulas).
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape, unknown_shape
from .math_ops import _check_allowed, _use_name

__all__ = ["fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d", "irfft2d",
           "rfft3d", "irfft3d", "fftshift", "ifftshift"]

_COMPLEX = ("complex64", "complex128")


def _a():
    from . import array_ops
    return array_ops


def _m():
    from . import math_ops
    return math_ops


def _rank_of(op_type):
    return 3 if op_type.endswith("3D") else 2 if op_type.endswith("2D") else 1


# -- shape functions ---------------------------------------------------------------------------

def _at_least(shape, r):
    if shape.ndims is not None and shape.ndims < r:
        raise ValueError(f"Shape must be at least rank {r} but is rank {shape.ndims}")


def _fft_shape(op):
    s = op._inputs[0]._shape
    _at_least(s, _rank_of(op._type))
    return [s]


def _rfft_shape(op):
    """TF's RFFT/IRFFT shape function: the inner `rank` dimensions become fft_length (the last one
    fft_length // 2 + 1 for RFFT) when fft_length is a constant, else unknown."""
    r = _rank_of(op._type)
    s, ln = op._inputs[0]._shape, op._inputs[1]._shape
    _at_least(s, r)
    if ln.ndims is not None and ln.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {ln.ndims}")
    if ln.ndims == 1 and ln.dims[0].value is not None and ln.dims[0].value != r:
        raise ValueError(f"Dimension must be {r} but is {ln.dims[0].value}")
    if s.ndims is None:
        return [unknown_shape()]
    v = constant_value(op._inputs[1])
    inner = [None] * r
    if v is not None:
        inner = [int(d) for d in np.asarray(v).ravel()]
        if op._type.startswith("RFFT"):
            inner[-1] = int(inner[-1] / 2) + 1   # C++'s division (toward zero), as TF's shape function
    return [TensorShape(s.as_list()[:-r] + inner)]


for _t in ("FFT", "IFFT", "FFT2D", "IFFT2D", "FFT3D", "IFFT3D"):
    registry.register_op(_t, shape_fn=_fft_shape)
for _t in ("RFFT", "IRFFT", "RFFT2D", "IRFFT2D", "RFFT3D", "IRFFT3D"):
    registry.register_op(_t, shape_fn=_rfft_shape)


# -- the complex FFTs ----------------------------------------------------------------------------

def _complex_fft(op_type, input, name):  # noqa: A002
    if not isinstance(input, Tensor):
        with _name_scope(name, op_type, [input]) as scope:
            x = convert_to_tensor(input, name="input")
            _check_allowed("input", x.dtype, _COMPLEX)
            return apply_op(op_type, [x], [x.dtype.base_dtype], scope, attrs={"Tcomplex": x.dtype.base_dtype})
    try:
        _check_allowed("input", input.dtype, _COMPLEX)
    except TypeError:
        _use_name(input, name or op_type)
        raise
    dt = input.dtype.base_dtype
    return apply_op(op_type, [input], [dt], name or op_type, attrs={"Tcomplex": dt})


def fft(input, name=None):  # noqa: A002
    """The 1-D discrete Fourier transform over the innermost dimension."""
    return _complex_fft("FFT", input, name)


def ifft(input, name=None):  # noqa: A002
    """The inverse 1-D discrete Fourier transform over the innermost dimension."""
    return _complex_fft("IFFT", input, name)


def fft2d(input, name=None):  # noqa: A002
    """The 2-D discrete Fourier transform over the 2 innermost dimensions."""
    return _complex_fft("FFT2D", input, name)


def ifft2d(input, name=None):  # noqa: A002
    """The inverse 2-D discrete Fourier transform over the 2 innermost dimensions."""
    return _complex_fft("IFFT2D", input, name)


def fft3d(input, name=None):  # noqa: A002
    """The 3-D discrete Fourier transform over the 3 innermost dimensions."""
    return _complex_fft("FFT3D", input, name)


def ifft3d(input, name=None):  # noqa: A002
    """The inverse 3-D discrete Fourier transform over the 3 innermost dimensions."""
    return _complex_fft("IFFT3D", input, name)


_COMPLEX_FN = {"FFT": fft, "IFFT": ifft, "FFT2D": fft2d, "IFFT2D": ifft2d, "FFT3D": fft3d, "IFFT3D": ifft3d}


def _inner_size(t, rank, dtype):
    """prod(shape(t)[-rank:]) as a scalar of `dtype`: a constant when the shape is known."""
    dims = t.shape.as_list()[-rank:] if t.shape.ndims is not None else [None]
    if None not in dims:
        return _m().cast(int(np.prod(dims)), dtype)
    return _m().cast(_m().reduce_prod(_a().shape(t)[-rank:]), dtype)


def _complex_fft_grad(inverse_type, scale_up):
    def grad_fn(op, grad):
        r = _rank_of(op.type)
        g = _COMPLEX_FN[inverse_type](grad)
        dt = grad.dtype.base_dtype
        if scale_up:
            return g * _inner_size(grad, r, dt)
        return g * _m().cast(1.0 / _inner_size(grad, r, dt.real_dtype), dt)
    return grad_fn


for _t, _inv in (("FFT", "IFFT"), ("FFT2D", "IFFT2D"), ("FFT3D", "IFFT3D")):
    registry.register_gradient(_t)(_complex_fft_grad(_inv, True))
    registry.register_gradient(_inv)(_complex_fft_grad(_t, False))


# -- the real FFTs -------------------------------------------------------------------------------

def _fft_length_for_rfft(x, r):
    s = x.shape[-r:]
    if not s.is_fully_defined():
        return _a().shape(x)[-r:]
    return convert_to_tensor(s.as_list(), _dtypes.int32)


def _fft_length_for_irfft(x, r):
    s = x.shape[-r:]
    if not s.is_fully_defined():
        a = _a()
        n = a.unstack(a.shape(x)[-r:])
        n[-1] = _m().maximum(0, 2 * (n[-1] - 1))
        return a.stack(n)
    n = s.as_list()
    if n:
        n[-1] = max(0, 2 * (n[-1] - 1))
    return convert_to_tensor(n, _dtypes.int32)


def _maybe_pad(x, r, fft_length, reverse=False):
    """Zero-pads x's inner `r` dimensions up to fft_length (to fft_length[-1] // 2 + 1 on the last
    one when `reverse`), statically when the shapes are known, else with shape arithmetic (TF's
    _maybe_pad_for_rfft)."""
    a, m = _a(), _m()
    v = constant_value(fft_length)
    if x.shape.ndims is not None and any(d == 0 for d in x.shape.as_list()):
        return x
    if v is not None and x.shape.ndims is not None:
        want = [int(d) for d in np.asarray(v).ravel()]
        have = x.shape.as_list()[-len(want):] if want else []
        if None not in have:
            if reverse:
                want = want[:-1] + [want[-1] // 2 + 1]
            pads = [[0, max(w - h, 0)] for w, h in zip(want, have)]
            if any(p for _, p in pads):
                return a.pad(x, [[0, 0]] * max(x.shape.ndims - len(want), 0) + pads)
            return x
    rank = a.rank(x)
    inner = a.shape(x)[-r:]
    outer = m.maximum(0, rank - r)
    outer_pads = a.zeros([outer], fft_length.dtype)
    if reverse:
        fft_length = a.concat([fft_length[:-1], fft_length[-1:] // 2 + 1], 0)
    pads = a.concat([outer_pads, m.maximum(0, fft_length - inner)], 0)
    return a.pad(x, a.stack([a.zeros_like(pads), pads], axis=1))


def _static_fft_length(fft_length):
    """A constant fft_length named "fft_length" in the op's scope when its value is known (as TF's
    wrappers hand the generated op a NumPy value), else the tensor itself."""
    v = constant_value(fft_length)
    if v is None:
        return fft_length
    return convert_to_tensor(np.asarray(v), _dtypes.int32, name="fft_length")


def _real_fft(op_type, r, default_name, input_tensor, fft_length, name):
    with _name_scope(name, default_name, [input_tensor, fft_length]) as scope:
        x = convert_to_tensor(input_tensor, preferred_dtype=_dtypes.float32)
        if x.dtype.base_dtype not in (_dtypes.float32, _dtypes.float64):
            raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x}")
        real = x.dtype.base_dtype
        cplx = _dtypes.complex64 if real is _dtypes.float32 else _dtypes.complex128
        x.shape.with_rank_at_least(r)
        if fft_length is None:
            fft_length = _fft_length_for_rfft(x, r)
        else:
            fft_length = convert_to_tensor(fft_length, _dtypes.int32)
        x = _maybe_pad(x, r, fft_length)
        fft_length = _static_fft_length(fft_length)
        return apply_op(op_type, [x, fft_length], [cplx], scope, attrs={"Treal": real, "Tcomplex": cplx})


def _inverse_real_fft(op_type, r, default_name, input_tensor, fft_length, name):
    with _name_scope(name, default_name, [input_tensor, fft_length]) as scope:
        z = convert_to_tensor(input_tensor, preferred_dtype=_dtypes.complex64)
        z.shape.with_rank_at_least(r)
        if z.dtype.base_dtype not in (_dtypes.complex64, _dtypes.complex128):
            raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {z}")
        cplx = z.dtype.base_dtype
        real = cplx.real_dtype
        if fft_length is None:
            fft_length = _fft_length_for_irfft(z, r)
        else:
            fft_length = convert_to_tensor(fft_length, _dtypes.int32)
        z = _maybe_pad(z, r, fft_length, reverse=True)
        fft_length = _static_fft_length(fft_length)
        return apply_op(op_type, [z, fft_length], [real], scope, attrs={"Treal": real, "Tcomplex": cplx})


def rfft(input_tensor, fft_length=None, name=None):
    """The 1-D FFT of a real signal's innermost dimension: its fft_length // 2 + 1 non-negative
    frequencies (fft_length defaults to the dimension; shorter inputs are zero-padded, longer
    ones cropped). float32 gives complex64, float64 complex128."""
    return _real_fft("RFFT", 1, "rfft", input_tensor, fft_length, name)


def irfft(input_tensor, fft_length=None, name=None):
    """The inverse of rfft: a real signal of length fft_length (default 2 * (n - 1)) from the
    half spectrum of its innermost dimension."""
    return _inverse_real_fft("IRFFT", 1, "irfft", input_tensor, fft_length, name)


def rfft2d(input_tensor, fft_length=None, name=None):
    """The 2-D FFT of a real signal over its 2 innermost dimensions (the last one halved)."""
    return _real_fft("RFFT2D", 2, "rfft2d", input_tensor, fft_length, name)


def irfft2d(input_tensor, fft_length=None, name=None):
    """The inverse of rfft2d."""
    return _inverse_real_fft("IRFFT2D", 2, "irfft2d", input_tensor, fft_length, name)


def rfft3d(input_tensor, fft_length=None, name=None):
    """The 3-D FFT of a real signal over its 3 innermost dimensions (the last one halved)."""
    return _real_fft("RFFT3D", 3, "rfft3d", input_tensor, fft_length, name)


def irfft3d(input_tensor, fft_length=None, name=None):
    """The inverse of rfft3d."""
    return _inverse_real_fft("IRFFT3D", 3, "irfft3d", input_tensor, fft_length, name)


def _fit_inner(t, like, r):
    """t with its inner `r` dimensions cropped or zero-padded to those of `like` (the other
    dimensions are equal): undoes the kernels' crop/pad of their input in a gradient."""
    a, m = _a(), _m()
    ts, ls = t.shape, like.shape
    if ts.ndims is not None and ls.ndims is not None and ts[-r:].is_fully_defined() \
            and ls[-r:].is_fully_defined():
        have, want = ts.as_list()[-r:], ls.as_list()[-r:]
        if have == want:
            return t
        lead = ts.ndims - r
        if any(h > w for h, w in zip(have, want)):
            t = t[(Ellipsis,) + tuple(slice(0, min(h, w)) for h, w in zip(have, want))]
        pads = [[0, max(w - h, 0)] for h, w in zip(have, want)]
        if any(p for _, p in pads):
            t = a.pad(t, [[0, 0]] * lead + pads)
        return t
    have, want = a.shape(t), a.shape(like)
    keep = m.minimum(have, want)
    t = a.slice(t, a.zeros_like(keep), keep)
    pads = want - keep
    return a.pad(t, a.stack([a.zeros_like(pads), pads], axis=1))


def _fft_length_of(op):
    v = constant_value(op.inputs[1])
    return op.inputs[1] if v is None else [int(d) for d in np.asarray(v).ravel()]


def _rfft_grad(op, grad):
    """Re(A^H g) for A = the first N//2+1 rows of the DFT: pad g to N, N * IFFT, real part."""
    r = _rank_of(op.type)
    a, m = _a(), _m()
    n = _fft_length_of(op)
    if isinstance(n, list):
        pad_last = n[-1] - (n[-1] // 2 + 1)
        g = a.pad(grad, [[0, 0]] * (grad.shape.ndims - 1) + [[0, pad_last]]) if grad.shape.ndims is not None \
            else a.pad(grad, a.concat([a.zeros([a.rank(grad) - 1, 2], _dtypes.int32), [[0, pad_last]]], 0))
        size = float(np.prod(n))
    else:
        pad_last = n[-1] - (n[-1] // 2 + 1)
        g = a.pad(grad, a.concat([a.zeros([a.rank(grad) - 1, 2], _dtypes.int32),
                                   a.reshape(a.stack([0, pad_last]), [1, 2])], 0))
        size = m.cast(m.reduce_prod(n), op.inputs[0].dtype.base_dtype)
    full = _COMPLEX_FN[("IFFT", "IFFT2D", "IFFT3D")[r - 1]](g)
    x = m.real(full) * size
    return [_fit_inner(x, op.inputs[0], r), None]


_RFFT_FN = {1: rfft, 2: rfft2d, 3: rfft3d}


def _irfft_grad(op, grad):
    """RFFT(g) * [1, 2, ..., 2, 1 if N even] / N: the adjoint of reading a half spectrum."""
    r = _rank_of(op.type)
    a, m = _a(), _m()
    n = _fft_length_of(op)
    real = grad.dtype.base_dtype
    cplx = op.inputs[0].dtype.base_dtype
    spec = _RFFT_FN[r](grad, n)
    if isinstance(n, list):
        k = n[-1] // 2 + 1
        mask = np.full(k, 2.0)
        mask[0] = 1.0
        if n[-1] % 2 == 0:
            mask[-1] = 1.0
        scale = m.cast(mask / max(float(np.prod(n)), 1.0), cplx)
    else:
        odd = m.mod(n[-1], 2, name="mod")
        k = n[-1] // 2 + 1
        mask = a.concat([[1.0], 2.0 * a.ones([k - 2 + odd], real), a.ones([1 - odd], real)], 0)
        scale = m.cast(mask / m.cast(m.reduce_prod(n), real), cplx)
    return [_fit_inner(spec * scale, op.inputs[0], r), None]


for _t in ("RFFT", "RFFT2D", "RFFT3D"):
    registry.register_gradient(_t)(_rfft_grad)
for _t in ("IRFFT", "IRFFT2D", "IRFFT3D"):
    registry.register_gradient(_t)(_irfft_grad)


# -- fftshift / ifftshift ------------------------------------------------------------------------

def _shift(x, axes, sign, name, default):
    a = _a()
    with _name_scope(name, default) as scope:
        x = convert_to_tensor(x)
        if axes is None:
            axes = tuple(range(x.shape.ndims))
            shift = a.shape(x) // 2
        elif isinstance(axes, int):
            shift = a.shape(x)[axes] // 2
        else:
            rank = a.rank(x)
            axes = a.where(_m().less(axes, 0), axes + rank, axes)
            shift = a.gather(a.shape(x), axes) // 2
        if sign < 0:
            shift = -shift
        return a.roll(x, shift, axes, scope)


def fftshift(x, axes=None, name=None):
    """Moves the zero frequency to the center (numpy.fft.fftshift) over `axes` (default all)."""
    return _shift(x, axes, 1, name, "fftshift")


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift (they differ by one sample on odd lengths)."""
    return _shift(x, axes, -1, name, "ifftshift")
