"""TF's float32 Reciprocal and Rsqrt: the CPU's approximation instructions plus a Newton step.

TF's x86 wheel builds Eigen for AVX without FMA, with fast math. Its float32 `Reciprocal` and
`Rsqrt` packets (8 lanes) therefore start from the `vrcpps`/`vrsqrtps` instructions (about 12
correct bits) and refine them with one Newton-Raphson step in unfused multiplies and adds:

    reciprocal:  x0 = rcpps(a);    t = 1 - a*x0;   r = x0*t + x0     (x0 where t is NaN)
    rsqrt:       y0 = rsqrtps(a);  h = (a*y0)*y0 - 1;   r = (-0.5*y0)*h + y0   (y0 where r is NaN)

The result is within 2 ulps of the exact value and differs from it in the last bit for about a
third of inputs (measured: bit-equal to TF 2.21 on every value tried once the formula is applied
to the CPU's own approximations). Those approximations are not specified bit for bit: Intel's and
AMD's tables differ, and TF gives each CPU's own. So this module runs the two instructions: a
ten-instruction loop of x86-64 machine code, mapped executable and called through ctypes.
The elements after the last whole packet take Eigen's scalar path, the exact 1/a and 1/sqrt(a).

Only on x86-64 Linux with AVX; elsewhere `available()` is False and callers keep exact division.
"""

import ctypes

import numpy as np

from . import machine_code

__all__ = ["available", "reciprocal", "rsqrt", "reciprocal_packets", "LANES"]

LANES = 8       # Eigen's Packet8f
_f = np.float32

# for (; n >= 8; n -= 8, x += 8, y += 8) _mm256_storeu_ps(y, OP(_mm256_loadu_ps(x)));
# with rdi = x, rsi = y, rdx = n (System V); OP's opcode byte is at _OPCODE.
_LOOP = bytes.fromhex(
    "4883fa08"      # cmp rdx, 8
    "7216"          # jb done
    "c5fc5307"      # vrcpps ymm0, [rdi]   (vrsqrtps: c5 fc 52 07)
    "c5fc1106"      # vmovups [rsi], ymm0
    "4883c720"      # add rdi, 32
    "4883c620"      # add rsi, 32
    "4883ea08"      # sub rdx, 8
    "ebe4"          # jmp loop
    "c5f877"        # done: vzeroupper
    "c3")           # ret
_OPCODE = 8
_RCPPS, _RSQRTPS = 0x53, 0x52

def _map_code():
    code = bytearray(_LOOP)
    body = len(code)
    code[_OPCODE] = _RCPPS
    rsq = bytearray(_LOOP)
    rsq[_OPCODE] = _RSQRTPS
    page, addr = machine_code.map_executable(bytes(code) + bytes(rsq))
    proto = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
    fns = {"rcp": proto(addr), "rsqrt": proto(addr + body), "_page": page}
    # A sanity check of the mapping: the approximations are within 2^-11 of the truth.
    probe = np.array([1, 2, 3, 4, 0.5, 7, 10, 1e6], _f)
    for name, exact in (("rcp", 1 / probe), ("rsqrt", 1 / np.sqrt(probe))):
        got = _apply(fns[name], probe)
        if not np.all(np.abs(got / exact - 1) < 2.0 ** -11):
            return {}
    return fns


_load = machine_code.Loader(_map_code, {"avx"})     # {"rcp": fn, "rsqrt": fn}, or {}


def _apply(fn, x):
    """The instruction applied to the whole packets of float32 x (flat, contiguous)."""
    x = np.ascontiguousarray(x, _f).reshape(-1)
    n = x.size // LANES * LANES
    out = np.empty(n, _f)
    if n:
        fn(x.ctypes.data, out.ctypes.data, n)
    return out


def available():
    """Whether the CPU's approximation instructions can be run here."""
    return bool(_load())


def _packets_and_tail(x, packet, scalar):
    x = np.asarray(x, _f)       # (not ascontiguousarray: it makes a 0-d input 1-d)
    flat = np.ascontiguousarray(x).reshape(-1)
    cut = flat.size // LANES * LANES
    out = np.empty(flat.size, _f)
    with np.errstate(all="ignore"):
        if cut:
            out[:cut] = packet(flat[:cut])
        if cut < flat.size:
            out[cut:] = scalar(flat[cut:])
    return out.reshape(x.shape)


def reciprocal_packets(a):
    """The packet path of reciprocal() on all of float32 `a` (its size a multiple of LANES), for
    Eigen functions that call preciprocal inside (erfc)."""
    x0 = _apply(_load()["rcp"], a)
    t = _f(1) - a * x0
    r = x0 * t
    r += x0
    return np.where(np.isnan(t), x0, r)


def _rsqrt_packets(a):
    y0 = _apply(_load()["rsqrt"], a)
    h = (a * y0) * y0
    h -= _f(1)
    r = (y0 * _f(-0.5)) * h
    r += y0
    return np.where(np.isnan(r), y0, r)


def reciprocal(x):
    """TF's float32 Reciprocal of x (see the module docstring); requires available()."""
    return _packets_and_tail(x, reciprocal_packets, lambda t: _f(1) / t)


def rsqrt(x):
    """TF's float32 Rsqrt of x (see the module docstring); requires available()."""
    return _packets_and_tail(x, _rsqrt_packets, lambda t: _f(1) / np.sqrt(t))
