"""LinearOperatorCirculant (and its nested-block 2-D and 3-D forms): the operator given by its
spectrum H, A u = IDFT[H * DFT[u]] column by column, so matmul and solve are FFTs."""

import numpy as np

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ._util import adjoint as _adjoint
from ._util import broadcast_batch, convert, tf
from .base import LinearOperator

__all__ = ["LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D"]


def to_complex(x):
    """x cast to complex64 (complex128 for float64/complex128 x)."""
    dtype = dtypes.complex128 if x.dtype in (dtypes.float64, dtypes.complex128) else dtypes.complex64
    return tf.cast(x, dtype)


def _fft(x, depth):
    return {1: tf.signal.fft, 2: tf.signal.fft2d, 3: tf.signal.fft3d}[depth](to_complex(x))


def _ifft(x, depth):
    return {1: tf.signal.ifft, 2: tf.signal.ifft2d, 3: tf.signal.ifft3d}[depth](to_complex(x))


def _cast_out(x, dtype):
    """Cast the complex result to the operator's dtype (the real part for a real dtype)."""
    if not dtype.is_complex and x.dtype.is_complex:
        x = tf.real(x)
    return tf.cast(x, dtype)


def _commuting_hints(left, right):
    """Hints of the product of two commuting operators (circulants share eigenvectors)."""
    from . import _hints
    sa = True if (left.is_self_adjoint and right.is_self_adjoint) else None
    pd = True if (sa and left.is_positive_definite and right.is_positive_definite) else None
    return dict(is_non_singular=_hints.non_singular(left, right), is_self_adjoint=sa, is_positive_definite=pd,
                is_square=True)


class _CirculantBase(LinearOperator):
    _block_depth = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True, name="LinearOperatorCirculant"):
        parameters = dict(spectrum=spectrum, input_output_dtype=input_output_dtype,
                          is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                          is_positive_definite=is_positive_definite, is_square=is_square, name=name)
        with tf.name_scope(name, values=[spectrum]):
            self._spectrum = convert(spectrum, name="spectrum")
            nd = self._spectrum.shape.ndims
            if nd is not None and nd < self._block_depth:
                raise ValueError(f"Argument `spectrum` must have at least {self._block_depth} dimensions. "
                                 f"Received: {self._spectrum}.")
            if not self._spectrum.dtype.is_complex:
                if is_self_adjoint is False:
                    raise ValueError(f"A real spectrum always corresponds to a self-adjoint operator. Expected "
                                     f"argument `is_self_adjoint` to be True when `spectrum.dtype.is_complex` "
                                     f"= True. Received: {is_self_adjoint}.")
                is_self_adjoint = True
            if is_square is False:
                raise ValueError(f"A [[nested] block] circulant operator is always square. Expected argument "
                                 f"`is_square` to be True. Received: {is_square}.")
            super().__init__(dtype=dtypes.as_dtype(input_output_dtype), is_non_singular=is_non_singular,
                             is_self_adjoint=is_self_adjoint, is_positive_definite=is_positive_definite,
                             is_square=True, parameters=parameters, name=name)

    @property
    def spectrum(self):
        """The [batch] spectrum H."""
        return self._spectrum

    @property
    def block_depth(self):
        """1, 2 or 3: how many trailing spectrum dimensions are block dimensions."""
        return self._block_depth

    @property
    def block_shape(self):
        """The static shape of the trailing block dimensions of the spectrum."""
        return self.spectrum.shape[-self._block_depth:]

    def block_shape_tensor(self):
        """The block shape as an int32 tensor."""
        if self.block_shape.is_fully_defined():
            return tf.constant(self.block_shape.as_list(), dtype=tf.int32)
        return tf.shape(self.spectrum)[-self._block_depth:]

    def _same(self, spectrum, **hints):
        return type(self)(spectrum=spectrum, input_output_dtype=self.dtype, **hints)

    def _linop_adjoint(self):
        s = tf.conj(self.spectrum) if self.spectrum.dtype.is_complex else self.spectrum
        return type(self)(spectrum=s, is_non_singular=self.is_non_singular, is_self_adjoint=self.is_self_adjoint,
                          is_positive_definite=self.is_positive_definite, is_square=True)

    def _linop_inverse(self):
        return self._same(1. / self.spectrum, is_non_singular=self.is_non_singular,
                          is_self_adjoint=self.is_self_adjoint, is_positive_definite=self.is_positive_definite,
                          is_square=True)

    def _linop_matmul(self, left, right):
        if type(right) is not type(left):
            return super()._linop_matmul(left, right)
        return type(self)(spectrum=left.spectrum * right.spectrum, **_commuting_hints(left, right))

    def _linop_solve(self, left, right):
        if type(right) is not type(left):
            return super()._linop_solve(left, right)
        return type(self)(spectrum=right.spectrum / left.spectrum, **_commuting_hints(left, right))

    def convolution_kernel(self, name="convolution_kernel"):
        """The kernel whose DFT is the spectrum, cast to the operator's dtype."""
        with self._name_scope(name):
            return _cast_out(_ifft(self.spectrum, self._block_depth), self.dtype)

    def assert_hermitian_spectrum(self, name="assert_hermitian_spectrum"):
        """An op that fails at run time unless the spectrum is Hermitian (the matrix is real)."""
        eps = np.finfo(self.dtype.real_dtype.as_numpy_dtype).eps
        with self._name_scope(name):
            max_err = eps * tf.cast(self.domain_dimension_tensor(), self.dtype.real_dtype)
            imag = tf.imag(to_complex(_ifft(self.spectrum, self._block_depth)))
            return tf.debugging.assert_less(tf.abs(imag), max_err, message="Spectrum was not Hermitian")

    def _shape(self):
        s = self.spectrum.shape
        if s.ndims is None:
            return TensorShape(None)
        trailing = s[-self._block_depth:]
        n = int(np.prod(trailing.as_list())) if trailing.is_fully_defined() else None
        return s[:-self._block_depth].concatenate([n, n])

    def _shape_tensor(self):
        s = tf.shape(self.spectrum)
        n = tf.reduce_prod(s[-self._block_depth:])
        return tf.concat((s[:-self._block_depth], [n, n]), 0)

    def _flat_spectrum(self):
        s = self.spectrum
        if self._block_depth == 1:
            return s
        if s.shape.is_fully_defined():
            shape = s.shape.as_list()
            return tf.reshape(s, shape[:-self._block_depth] + [int(np.prod(shape[-self._block_depth:]))])
        return tf.reshape(s, tf.concat([tf.shape(s)[:-self._block_depth], [-1]], 0))

    def _apply(self, x, fn):
        """fn(spectrum, DFT[x]) mapped back: x [..., N, R] -> [..., R, *block] -> DFT -> ... -> [..., N, R]."""
        spectrum = to_complex(self.spectrum)
        x = tf.cast(x, spectrum.dtype)
        flat = self._flat_spectrum()
        flat = tf.cast(flat, spectrum.dtype)[..., :, None]       # [..., N, 1] for batch broadcasting
        x, flat = broadcast_batch(x, flat)
        vec = tf.linalg.matrix_transpose(x)                      # [..., R, N]
        lead = tf.shape(vec)[:-1]
        block = self.block_shape_tensor()
        blocks = tf.reshape(vec, tf.concat([lead, block], 0))
        spec = tf.reshape(flat, tf.concat([tf.shape(flat)[:-2], [1], block], 0))
        out = _ifft(fn(spec, _fft(blocks, self._block_depth)), self._block_depth)
        out = tf.reshape(out, tf.concat([lead, [-1]], 0))
        return tf.linalg.matrix_transpose(out)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = _adjoint(x) if adjoint_arg else x
        conj = adjoint
        y = self._apply(x, lambda s, fx: (tf.conj(s) if conj else s) * fx)
        return _cast_out(y, self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = _adjoint(rhs) if adjoint_arg else rhs
        conj = adjoint
        y = self._apply(rhs, lambda s, fx: fx / (tf.conj(s) if conj else s))
        return _cast_out(y, self.dtype)

    def _axes(self):
        return [-(i + 1) for i in range(self._block_depth)]

    def _determinant(self):
        return _cast_out(tf.reduce_prod(self.spectrum, axis=self._axes()), self.dtype)

    def _log_abs_determinant(self):
        lad = tf.reduce_sum(tf.log(tf.abs(self.spectrum)), axis=self._axes())
        return tf.cast(lad, self.dtype)

    def _trace(self):
        axes = self._axes()
        re = tf.reduce_sum(tf.real(self.spectrum) if self.spectrum.dtype.is_complex else self.spectrum, axis=axes)
        if not self.dtype.is_complex:
            return tf.cast(re, self.dtype)
        if self.is_self_adjoint or not self.spectrum.dtype.is_complex:
            im = tf.zeros_like(re)
        else:
            im = tf.reduce_sum(tf.imag(self.spectrum), axis=axes)
        return tf.cast(tf.complex(re, im), self.dtype)

    def _diag_part(self):
        if self.shape.is_fully_defined():
            shape, size = self.shape[:-1].as_list(), self.domain_dimension.value
        else:
            shape, size = self.shape_tensor()[:-1], self.domain_dimension_tensor()
        value = self.trace() / tf.cast(size, self.dtype)
        return value[..., None] * tf.ones(shape, dtype=self.dtype)

    def _eigvals(self):
        return self._flat_spectrum()

    def _cond(self):
        a = tf.abs(self._flat_spectrum())
        return tf.reduce_max(a, axis=-1) / tf.reduce_min(a, axis=-1)

    def _assert_non_singular(self):
        return tf.debugging.assert_none_equal(
            tf.abs(self.spectrum), tf.zeros([], dtype=self.spectrum.dtype.real_dtype),
            message="Singular operator:  Spectrum contained zero values.")

    def _assert_positive_definite(self):
        re = tf.real(self.spectrum) if self.spectrum.dtype.is_complex else self.spectrum
        return tf.debugging.assert_positive(
            re, message="Not positive definite:  Real part of spectrum was not all positive.")


class LinearOperatorCirculant(_CirculantBase):
    """A [batch] N x N circulant matrix given by its spectrum [..., N] (the DFT of its first column)."""

    _block_depth = 1

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True, name="LinearOperatorCirculant"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant2D(_CirculantBase):
    """A [batch] block circulant matrix with circulant blocks; spectrum [..., N0, N1], N = N0 N1."""

    _block_depth = 2

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant2D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)


class LinearOperatorCirculant3D(_CirculantBase):
    """A [batch] nested block circulant matrix; spectrum [..., N0, N1, N2], N = N0 N1 N2."""

    _block_depth = 3

    def __init__(self, spectrum, input_output_dtype=dtypes.complex64, is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True,
                 name="LinearOperatorCirculant3D"):
        super().__init__(spectrum, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, name)
