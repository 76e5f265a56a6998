"""Running x86-64 machine code from Python: the CPU's flags, and bytes mapped executable.

Two kernels run code of their own: x86_approx (the CPU's reciprocal approximations, which NumPy
cannot reach) and direct_conv (convolutions in TF's summation order at BLAS speed). Both map
their bytes into an anonymous page, make it read+execute (never writable and executable at once)
and call it through ctypes, which releases the GIL for the call.
"""

import ctypes
import mmap
import os
import platform
import threading

__all__ = ["x86_64_linux", "cpu_flags", "map_executable", "load", "Loader"]

_flags = None


def x86_64_linux():
    """Whether this is x86-64 Linux, the one platform whose code is shipped."""
    return platform.system() == "Linux" and platform.machine().lower() in ("x86_64", "amd64")


def cpu_flags():
    """The CPU's feature flags as /proc/cpuinfo lists them (the kernel lists a vector extension
    only when it saves that extension's registers), or an empty set off x86-64 Linux."""
    global _flags
    if _flags is None:
        flags = frozenset()
        if x86_64_linux():
            try:
                with open("/proc/cpuinfo") as f:
                    for line in f:
                        if line.startswith("flags"):
                            flags = frozenset(line.split(":", 1)[1].split())
                            break
            except OSError:
                pass
        _flags = flags
    return _flags


def map_executable(code):
    """(mapping, address) of a fresh read+execute copy of `code`; keep the mapping alive while
    the code may run. Raises OSError when the system refuses."""
    size = max(mmap.PAGESIZE, -(-len(code) // mmap.PAGESIZE) * mmap.PAGESIZE)
    page = mmap.mmap(-1, size, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    page.write(bytes(code))
    addr = ctypes.addressof(ctypes.c_char.from_buffer(page))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    if libc.mprotect(addr, size, mmap.PROT_READ | mmap.PROT_EXEC) != 0:
        raise OSError(ctypes.get_errno(), "mprotect")
    return page, addr


def load(generated, prototypes):
    """(mapping, {name: function}) for a module written by scripts/gen_native.py (its CODE
    bytes and ENTRIES offsets), each named function called through its ctypes prototype."""
    page, addr = map_executable(generated.CODE)
    return page, {name: proto(addr + generated.ENTRIES[name]) for name, proto in prototypes.items()}


class Loader:
    """`loader()` is `build()`'s result, computed once on first use (thread-safe), or {} where it
    cannot run: the CPU lacks one of `flags`, the environment variable `switch` is "0", or
    building raises OSError/ValueError/AttributeError (a system that refuses the mapping)."""

    def __init__(self, build, flags, switch=None):
        self._build, self._flags, self._switch = build, frozenset(flags), switch
        self._lock = threading.Lock()
        self._value = None

    def __call__(self):
        value = self._value
        if value is not None:           # (the common case: no lock per kernel call)
            return value
        with self._lock:
            if self._value is None:
                value = {}
                if self._flags <= cpu_flags() and \
                        (self._switch is None or os.environ.get(self._switch, "1") != "0"):
                    try:
                        value = self._build()
                    except (OSError, ValueError, AttributeError):
                        value = {}
                self._value = value
            return self._value
