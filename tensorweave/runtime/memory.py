"""Allocator tuning: keep large step buffers mapped between steps.

glibc serves allocations above its mmap threshold (at most 32 MiB by default) with fresh mmap
calls and returns them on free, so a 150 MB gradient allocated every step page-faults its way in
every step (measured: a 128x9216 by 128x4096 weight-gradient matmul 62-71 ms with the default,
44-56 ms tuned). TensorFlow avoids this with its own caching allocator; a NumPy runtime gets the
same effect by raising glibc's mmap and trim thresholds, so freed blocks go back to the heap and
the next step reuses them already mapped. The cost is that the process keeps its peak memory
(as TensorFlow's allocator does). Set TENSORWEAVE_MALLOC_TUNING=0 to leave the allocator alone.
"""

import ctypes
import os
import sys
import threading

__all__ = ["tune_allocator"]

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 1 << 30
_TRIM_THRESHOLD = (1 << 31) - 1
_lock = threading.Lock()
_done = None


def tune_allocator():
    """Applies the tuning once per process; returns True if glibc took it."""
    global _done
    if _done is not None:
        return _done
    with _lock:
        if _done is None:
            _done = _apply()
    return _done


def _apply():
    if os.environ.get("TENSORWEAVE_MALLOC_TUNING", "1") == "0" or not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False  # not glibc (e.g. musl): nothing to tune
    ok = mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD) == 1
    ok &= mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD) == 1
    return bool(ok)
