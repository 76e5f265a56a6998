"""TF's floating-point environment for kernels: subnormal numbers flushed to zero.

TF runs every CPU kernel with the FPU's flush-to-zero and denormals-are-zero modes set (its
executor's ScopedFlushDenormal, and the same in its thread pools' threads): a subnormal float32 or
float64 operand of arithmetic reads as zero and a subnormal result is stored as zero. So in TF
`tf.sigmoid(-100.)` is 0.0, not 3.8e-44, a softmax's underflowing terms are 0, and `1e-40 > 0` is
False. NumPy's ufuncs, BLAS and the C library obey the same control register, so setting it while
a plan runs gives TF's values; copies (Identity, Gather, Concat) move bits and keep subnormals, as
in TF.

The register is per thread. `enter()` sets it on the calling thread and returns what `leave()`
restores, so user code outside Session.run keeps IEEE behaviour; threads that only run kernels
(the executor's and the kernels' pools) call `flush_in_this_thread()` once when they start.
Supported on x86-64 (MXCSR bits FTZ and DAZ) and AArch64 (FPCR.FZ) with glibc's fenv; elsewhere
these are no-ops and subnormals survive.
"""

import ctypes
import ctypes.util
import platform
import threading

__all__ = ["enter", "leave", "flush_in_this_thread", "flushed", "unflushed", "SUPPORTED"]

_ENV_BYTES = 64     # glibc's fenv_t is 32 bytes on x86-64 and 8 on AArch64: room for either
_local = threading.local()


def _layout():
    """(byte offset of the 32-bit control word in fenv_t, the bits that flush) for this CPU."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        return 28, 0x8040           # fenv_t.__mxcsr: FTZ (bit 15) | DAZ (bit 6)
    if machine in ("aarch64", "arm64"):
        return 0, 1 << 24           # fenv_t.__fpcr: FZ
    return None


def _libm():
    layout = _layout()
    if layout is None or platform.system() != "Linux":
        return None, None
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        get, put = lib.fegetenv, lib.fesetenv
    except (OSError, AttributeError):
        return None, None
    get.argtypes = put.argtypes = [ctypes.c_void_p]
    get.restype = put.restype = ctypes.c_int
    return (get, put), layout


_fns, _LAYOUT = _libm()
SUPPORTED = _fns is not None


_flushed = {}     # fenv_t bytes -> a buffer of the same environment with the flush bits set


def _flushed_env(env):
    key = env.raw
    out = _flushed.get(key)
    if out is None:
        offset, bits = _LAYOUT
        out = ctypes.create_string_buffer(key, _ENV_BYTES)
        word = ctypes.c_uint32.from_buffer(out, offset)
        word.value |= bits
        _flushed[key] = out
    return out


def enter():
    """Sets flush-to-zero on the calling thread; returns the state to hand to leave() (None when
    the thread already flushes, e.g. inside a nested plan or a pool thread)."""
    local = _local
    if _fns is None or getattr(local, "flushing", False):
        return None
    saved = getattr(local, "saved", None)
    if saved is None:
        saved = local.saved = ctypes.create_string_buffer(_ENV_BYTES)
    get, put = _fns
    if get(saved) != 0:
        return None
    put(_flushed_env(saved))
    local.flushing = True
    return saved


def leave(saved):
    """Restores the environment enter() saved (nothing for None)."""
    if saved is not None:
        _local.flushing = False
        _fns[1](saved)


def flush_in_this_thread():
    """Sets flush-to-zero for the rest of this thread's life (a pool thread's initializer)."""
    enter()


class flushed:
    """A scope with subnormals flushed on the calling thread (enter/leave as a `with`)."""

    def __enter__(self):
        self._saved = enter()
        return self

    def __exit__(self, *exc):
        leave(self._saved)
        return False


class unflushed:
    """A scope with IEEE subnormals on the calling thread, restored to what it was after: for
    code that must see a subnormal's bits through a conversion (a C function called through
    ctypes takes and returns its floats by value, converted under the thread's mode)."""

    def __enter__(self):
        self._saved = None
        if _fns is None:
            return self
        get, put = _fns
        env = ctypes.create_string_buffer(_ENV_BYTES)
        if get(env) != 0:
            return self
        offset, bits = _LAYOUT
        word = ctypes.c_uint32.from_buffer(env, offset)
        if word.value & bits:
            self._saved = ctypes.create_string_buffer(env.raw, _ENV_BYTES)
            word.value &= ~bits & 0xFFFFFFFF
            put(env)
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            _fns[1](self._saved)
        return False
