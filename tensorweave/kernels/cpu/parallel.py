"""Intra-op parallelism for CPU kernels: the BLAS library's thread count, and a worker pool on
which a kernel runs independent slices of its work.

`ConfigProto.intra_op_parallelism_threads = n` (n > 0) sets how many threads one kernel may use.
BLAS threads are process-wide, so the most recent session that asks wins (TensorFlow's intra-op
pool is per session; NumPy's BLAS has only one). Supported: OpenBLAS (NumPy's wheels, with or
without the scipy_ prefix); with another BLAS, kernels run their slices one after another.

Why kernels split work themselves: a convolution's GEMMs are tall and narrow (64 output channels,
thousands of rows), where OpenBLAS's own threads scale poorly, and its im2col copies run on one
thread. Giving each worker a slice of the batch, with single-threaded BLAS, keeps each core on its
own data in its own cache and parallelizes the copies too (measured: LeNet's conv2 and its
gradients 25-30% faster on 2 cores). While any kernel runs split, BLAS is single-threaded for the
whole process (refcounted), so concurrent splits never oversubscribe the cores.
"""

import concurrent.futures
import contextlib
import ctypes
import os
import re
import threading

import numpy as np

from . import float_env

__all__ = ["set_intra_op_threads", "get_intra_op_threads", "parallel_map", "intra_op_workers",
           "kernel_threads", "matmul", "batch_matmul", "batch_slices", "SPLIT_MACS",
           "SPLITTING_OP_TYPES"]

_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")
_GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
            "openblas_get_num_threads64_", "openblas_get_num_threads")
_libs = None
_lock = threading.Lock()
_configured = None      # the intra-op thread count outside single-threaded regions
_single_depth = 0       # kernels now running split (BLAS is single-threaded while > 0)
_pool = None
_local = threading.local()
# Work below this many multiply-adds runs on one thread: a split costs a few thread hand-offs.
SPLIT_MACS = 1 << 22
# A step that runs one of these ops runs all its kernels split (see kernel_threads). Other steps
# keep BLAS's own threads: for an LSTM's many medium-sized GEMMs they are faster (measured: the
# PTB model's step 20-30% slower with single-threaded BLAS and split matmuls).
SPLITTING_OP_TYPES = frozenset({"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", "Conv3D",
                                "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2",
                                "_FusedConv2DBias", "_FusedConv2DBiasRelu"})


def _blas_functions():
    global _libs
    if _libs is None:
        _libs = []
        try:
            with open("/proc/self/maps") as f:
                maps = f.read()
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


def _apply(n):
    for setter, _ in _blas_functions():
        setter(int(n))


def set_intra_op_threads(n):
    """Sets the threads one kernel may use (BLAS's, and the kernel worker pool's); returns True
    if a BLAS library took it."""
    global _configured
    fns = _blas_functions()
    with _lock:
        _configured = int(n)
        if _single_depth == 0:
            _apply(n)
    return bool(fns)


def get_intra_op_threads():
    """The intra-op thread count (BLAS's, outside split kernels), or None without OpenBLAS."""
    global _configured
    with _lock:
        if _configured is None:
            for _, getter in _blas_functions():
                if getter is not None:
                    _configured = int(getter())
                    break
        return _configured


def _workers():
    n = get_intra_op_threads()
    return max(1, min(n or 1, os.cpu_count() or 1))


def intra_op_workers():
    """How many slices a kernel should split its work into: more than 1 only inside a splitting
    step (kernel_threads), and 1 inside a slice that already runs split."""
    if _single_depth == 0 or getattr(_local, "inside", False):
        return 1
    return _workers()


@contextlib.contextmanager
def kernel_threads():
    """The scope of a splitting step: BLAS is single-threaded inside it and kernels split their
    own work across the intra-op workers (parallel_map), as TF's kernels share its intra-op pool.
    Being step-wide rather than per kernel keeps OpenBLAS's idle threads from spinning on the
    cores the workers need (measured: a split convolution right after a threaded GEMM ran 40%
    slower). Refcounted; about 3 us."""
    if _workers() <= 1:
        yield
        return
    with _single_threaded_blas():
        yield


@contextlib.contextmanager
def _single_threaded_blas():
    global _single_depth
    with _lock:
        if _single_depth == 0:
            _apply(1)
        _single_depth += 1
    try:
        yield
    finally:
        with _lock:
            _single_depth -= 1
            if _single_depth == 0:
                _apply(_configured)


def _run_inside(fn, item):
    _local.inside = True
    try:
        return fn(item)
    finally:
        _local.inside = False


def parallel_map(fn, items, always=False):
    """[fn(item) for item in items], the items run concurrently on the intra-op workers (the
    calling thread takes the first) when inside a splitting step, or with `always` (kernels
    that call no BLAS); in order otherwise. Kernels call it with one item per worker (see
    intra_op_workers); nested calls run inline."""
    global _pool
    items = list(items)
    if len(items) <= 1 or (intra_op_workers() <= 1 and not (
            always and _workers() > 1 and not getattr(_local, "inside", False))):
        return [fn(item) for item in items]
    with _lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(
                max(1, (os.cpu_count() or 2) - 1), thread_name_prefix="tensorweave-intra-op",
                initializer=float_env.flush_in_this_thread)   # (its threads run only kernels)
        pool = _pool
    futures = [pool.submit(_run_inside, fn, item) for item in items[1:]]
    try:
        first = _run_inside(fn, items[0])
    finally:
        concurrent.futures.wait(futures)    # the slices may share the caller's buffers
    return [first] + [f.result() for f in futures]


def batch_slices(n, cost):
    """Contiguous [start, stop) ranges of a leading axis of length n, one per intra-op worker;
    one range when the work (`cost`: multiply-adds or element passes) is too small to split."""
    k = min(n, intra_op_workers()) if cost >= SPLIT_MACS else 1
    return _row_slices(n, k) or [(0, n)]


def _row_slices(n, k):
    bounds = [n * i // k for i in range(k + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(k) if bounds[i] < bounds[i + 1]]


# A product of at most _FEW_ROWS rows by at least _MANY_COLUMNS columns and _SWAP_MACS
# multiply-adds runs transposed when BLAS has threads of its own (see matmul).
_FEW_ROWS = 32
_MANY_COLUMNS = 256
_SWAP_MACS = 1 << 20
_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def matmul(a, b):
    """a @ b for 2-D arrays, split across the intra-op workers when it is big enough: by rows of
    `a` when it is the taller operand, else by columns of `b` (each worker then packs only its
    share of the bigger operand)."""
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        return np.matmul(a, b)
    (m, k), n = a.shape, b.shape[1]
    workers = intra_op_workers()
    if (workers <= 1 or m * k * n < SPLIT_MACS
            or a.dtype != b.dtype or a.dtype.kind not in "fc"):
        if (m <= _FEW_ROWS and n >= _MANY_COLUMNS and m * k * n >= _SWAP_MACS
                and a.dtype == b.dtype and a.dtype in _BLAS_FLOATS
                and _single_depth == 0 and (_configured is None or _configured > 1)):
            # A few rows times a wide matrix (an RNN step's batch times its weights): as
            # (b^T a^T)^T OpenBLAS's threads share the wide side, ~25% faster with 2 threads.
            # (Single-threaded BLAS, as in a split step, gains nothing and would pay the copy.)
            out = np.empty((n, m), a.dtype)
            np.matmul(b.T, a.T, out=out)
            return np.ascontiguousarray(out.T)
        return np.matmul(a, b)
    out = np.empty((m, n), a.dtype)
    if m >= n:
        parts = _row_slices(m, workers)
        parallel_map(lambda s: np.matmul(a[s[0]:s[1]], b, out=out[s[0]:s[1]]), parts)
    else:
        parts = _row_slices(n, workers)
        parallel_map(lambda s: np.matmul(a, b[:, s[0]:s[1]], out=out[:, s[0]:s[1]]), parts)
    return out


def batch_matmul(x, y):
    """np.matmul for stacks of matrices, the stack split across the intra-op workers when both
    operands have the same leading dimensions and the work is big enough."""
    workers = intra_op_workers()
    if (workers <= 1 or x.ndim < 3 or x.shape[:-2] != y.shape[:-2] or x.dtype != y.dtype
            or x.dtype.kind not in "fc" or x.shape[-1] != y.shape[-2]):
        return np.matmul(x, y)
    batch = x.shape[:-2]
    count = int(np.prod(batch))
    if count < 2 or count * x.shape[-2] * x.shape[-1] * y.shape[-1] < SPLIT_MACS:
        return np.matmul(x, y)
    x3 = x.reshape((count,) + x.shape[-2:])
    y3 = y.reshape((count,) + y.shape[-2:])
    out = np.empty((count, x.shape[-2], y.shape[-1]), x.dtype)
    parallel_map(lambda s: np.matmul(x3[s[0]:s[1]], y3[s[0]:s[1]], out=out[s[0]:s[1]]),
                 _row_slices(count, min(workers, count)))
    return out.reshape(batch + out.shape[1:])
