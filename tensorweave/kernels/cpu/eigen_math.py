"""Eigen's float32 transcendental functions, rounded as TF's CPU kernels round them.

TF's Eigen kernels evaluate `exp` with packet math (Cephes range reduction and a degree-5
polynomial, each multiply and add rounded to float32), while NumPy calls the C library's `expf`;
the two differ in the last bit now and then. SparseSoftmax uses `expf` here to print TF's digits.
(Dense Softmax does not: with oneDNN on, TF's dense softmax rounds differently again, and this
is about 8x slower than NumPy's `exp` even in L2-sized chunks.)
"""

import numpy as np

__all__ = ["expf"]

_f = np.float32
_HI = _f(88.3762626647949)
_LO = _f(-88.3762626647950)
_LOG2E = _f(1.44269504088896341)
_C1 = _f(-0.693359375)
_C2 = _f(2.12194440e-4)
_P0, _P1, _P2 = _f(1.9875691500e-4), _f(1.3981999507e-3), _f(8.3334519073e-3)
_P3, _P4, _P5 = _f(4.1665795894e-2), _f(1.6666665459e-1), _f(5.0000001201e-1)
_CHUNK = 1 << 14


def expf(x):
    """Eigen's float32 `exp` of `x` (any shape), as a new float32 array."""
    x = np.asarray(x, _f)
    out = np.empty(x.shape, _f)
    flat_x, flat_out = x.reshape(-1), out.reshape(-1)
    n = flat_x.size
    bufs = [np.empty(min(n, _CHUNK), _f) for _ in range(5)]
    ibuf = np.empty(min(n, _CHUNK), np.int32)
    for start in range(0, n, _CHUNK):
        stop = min(start + _CHUNK, n)
        _expf_chunk(flat_x[start:stop], flat_out[start:stop], [b[: stop - start] for b in bufs],
                    ibuf[: stop - start])
    return out


def _expf_chunk(x, out, bufs, m_int):
    xc, m, r, r2, r3 = bufs
    np.clip(x, _LO, _HI, out=xc)
    # m = floor(x * log2(e) + 1/2); r = x - m * ln 2 in two steps (Cephes' C1 + C2)
    np.multiply(xc, _LOG2E, out=m)
    m += _f(0.5)
    np.floor(m, out=m)
    np.multiply(m, _C1, out=r)
    r += xc
    np.multiply(m, _C2, out=r2)
    r += r2
    np.multiply(r, r, out=r2)
    np.multiply(r2, r, out=r3)
    # y = ((p0 r + p1) r + p2) r^3 + ((p3 r + p4) r + p5); y = y r^2 + (r + 1), in Eigen's order
    y, y1 = out, xc
    np.multiply(r, _P0, out=y)
    y += _P1
    np.multiply(r, _P3, out=y1)
    y1 += _P4
    y *= r
    y += _P2
    y1 *= r
    y1 += _P5
    y *= r3
    y += y1
    y *= r2
    r += _f(1)
    y += r
    # times 2^m, split in two normal powers of two so m = 128 and m = -127 stay exact
    with np.errstate(invalid="ignore"):  # NaN inputs: y is NaN whatever m casts to
        np.copyto(m_int, m, casting="unsafe")
    half = np.right_shift(m_int, 1)
    m_int -= half
    for e in (half, m_int):
        e += 127
        e <<= 23
        y *= e.view(_f)
