"""CPU kernels for the N-D FFTs of ops/signal_more_ops.py (FFTND, IFFTND, RFFTND, IRFFTND):
NumPy's fftn family over `axes`, each cropped or zero-padded to `fft_length`. (TF itself has
only GPU kernels for these ops.)"""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _args(x, fft_length, axes):
    n = [int(d) for d in np.asarray(fft_length).ravel()]
    ax = [int(d) for d in np.asarray(axes).ravel()]
    if len(n) != len(ax):
        raise errors.InvalidArgumentError(None, None, f"fft_length ({len(n)}) and axes ({len(ax)}) must have "
                                                      "the same length")
    if any(a < -x.ndim or a >= x.ndim for a in ax):
        raise errors.InvalidArgumentError(None, None, f"axes {ax} out of range for an input of rank {x.ndim}")
    if any(d < 0 for d in n):
        raise errors.InvalidArgumentError(None, None, f"fft_length must be non-negative, got {n}")
    return n, [a % x.ndim for a in ax]


def _factory(fn_name, real_out_half=False):
    def factory(op, ctx):
        dt = op.outputs[0].dtype.as_numpy_dtype

        def run(x, fft_length, axes):
            x = np.asarray(x)
            n, ax = _args(x, fft_length, axes)
            shape = list(x.shape)
            for a, d in zip(ax, n):
                shape[a] = d
            if real_out_half and ax:
                shape[ax[-1]] = n[-1] // 2 + 1
            if 0 in shape or 0 in n or x.size == 0:
                return np.zeros(shape, dt)
            return np.asarray(getattr(np.fft, fn_name)(x, s=n, axes=ax), dtype=dt)
        return run
    return factory


register_kernel("FFTND")(_factory("fftn"))
register_kernel("IFFTND")(_factory("ifftn"))
register_kernel("RFFTND")(_factory("rfftn", real_out_half=True))
register_kernel("IRFFTND")(_factory("irfftn"))
