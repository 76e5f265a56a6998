"""Intra-op parallelism: the thread count of the BLAS library NumPy's kernels run on.

`ConfigProto.intra_op_parallelism_threads = n` (n > 0) sets it. BLAS threads are process-wide,
so the most recent session that asks wins (TensorFlow's intra-op pool is per session; NumPy's
BLAS has only one). Supported: OpenBLAS (NumPy's wheels, with or without the scipy_ prefix).
"""

import ctypes
import re

__all__ = ["set_intra_op_threads", "get_intra_op_threads"]

_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
            "openblas_get_num_threads64_", "openblas_get_num_threads")
_libs = None


def _blas_functions():
    global _libs
    if _libs is None:
        _libs = []
        try:
            maps = open("/proc/self/maps").read()
        except OSError:
            return _libs
        for path in sorted(set(re.findall(r"(/\S+\.so[.\d]*)", maps))):
            if "blas" not in path.lower():
                continue
            try:
                lib = ctypes.CDLL(path)
            except OSError:
                continue
            setter = next((getattr(lib, n) for n in _SETTERS if hasattr(lib, n)), None)
            getter = next((getattr(lib, n) for n in _GETTERS if hasattr(lib, n)), None)
            if setter is not None:
                _libs.append((setter, getter))
    return _libs


def set_intra_op_threads(n):
    """Sets the BLAS thread count; returns True if a BLAS library took it."""
    fns = _blas_functions()
    for setter, _ in fns:
        setter(int(n))
    return bool(fns)


def get_intra_op_threads():
    for _, getter in _blas_functions():
        if getter is not None:
            return int(getter())
    return None
