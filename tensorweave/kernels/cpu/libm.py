"""The C library's float64 functions over arrays, for kernels where TF calls them on scalars.

TF's scalar code (random samplers, candidate samplers) calls glibc's `log`, `exp`, `sin`, ...
on doubles, and its float64 Tan/Sinh/Cosh/Asinh/Acosh kernels are glibc's too (Eigen has no
double packet for them; measured against TF 2.21). NumPy calls those very functions only on CPUs where it has no SIMD loop of its own:
with AVX-512 it has its own float64 `exp`/`log` and SVML's `log1p`/`expm1`/`tanh`, which differ
from glibc in the last bit on up to a quarter of inputs. So each function here is NumPy's ufunc
where a probe shows it gives glibc's bits on this machine, and otherwise Python's `math`
function (which is glibc's) element by element over the finite results, NumPy's own for the
special values (where the two agree).
"""
import ctypes
import math

import numpy as np

from . import float_env

__all__ = ["log", "exp", "log1p", "expm1", "sin", "cos", "tanh", "tan", "sinh", "cosh", "asinh", "acosh", "atanh",
           "tanf", "sinhf", "coshf", "asinhf", "acoshf",
           "c_library", "c_function"]

_agrees = {}


def _probe_values():
    rng = np.random.RandomState(0)
    return np.concatenate([rng.rand(4096), rng.uniform(-40.0, 40.0, 4096),
                           10.0 ** rng.uniform(-12, 6, 4096)])


def _numpy_agrees(name, ufunc, exact):
    """Whether NumPy's `ufunc` gives glibc's bits here (decided once per function)."""
    ok = _agrees.get(name)
    if ok is None:
        x = _probe_values()
        with np.errstate(all="ignore"):
            got = ufunc(x)
        finite = np.isfinite(got)
        want = np.fromiter(map(exact, x[finite].tolist()), np.float64, count=int(finite.sum()))
        ok = _agrees[name] = bool(np.array_equal(got[finite], want))
    return ok


def _libm(name, ufunc, exact):
    def call(x):
        x = np.asarray(x, np.float64)
        with np.errstate(all="ignore"):
            out = ufunc(x)
        if _numpy_agrees(name, ufunc, exact):
            return out
        out = np.asarray(out, np.float64)       # (a fresh array: a 0-d input gave a scalar)
        flat, xs = out.reshape(-1), x.reshape(-1)
        finite = np.flatnonzero(np.isfinite(flat))
        flat[finite] = np.fromiter(map(exact, xs[finite].tolist()), np.float64, count=finite.size)
        return out if out.ndim else out[()]
    call.__name__ = name
    call.__doc__ = f"glibc's float64 `{name}` of each element of x."
    return call


log = _libm("log", np.log, math.log)
exp = _libm("exp", np.exp, math.exp)
log1p = _libm("log1p", np.log1p, math.log1p)
expm1 = _libm("expm1", np.expm1, math.expm1)
sin = _libm("sin", np.sin, math.sin)
cos = _libm("cos", np.cos, math.cos)
tanh = _libm("tanh", np.tanh, math.tanh)
tan = _libm("tan", np.tan, math.tan)
sinh = _libm("sinh", np.sinh, math.sinh)
cosh = _libm("cosh", np.cosh, math.cosh)
asinh = _libm("asinh", np.arcsinh, math.asinh)
acosh = _libm("acosh", np.arccosh, math.acosh)
atanh = _libm("atanh", np.arctanh, math.atanh)


# -- float32 ----------------------------------------------------------------------------------
# TF's float32 Tan/Sinh/Cosh/Asinh/Acosh kernels are glibc's float functions too (no Eigen
# packet; measured: bit-equal to tanf, sinhf, ... on every value tried), where NumPy's float32
# loops differ in the last bit on 5-30% of inputs. Python has no float32 math, so these call the
# C library through ctypes, element by element over the finite results (about 0.3 us a value).
_library = None


def c_library():
    """The C math library through ctypes (loaded once), or None where it cannot be loaded.
    Modules that call its float functions element by element share it; each declares the
    types of what it calls (`c_function`)."""
    global _library
    if _library is None:
        import ctypes.util
        try:
            _library = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        except OSError:
            _library = False
    return _library or None


def c_function(name, restype, *argtypes):
    """The C library's `name` as a ctypes function of these types (a function object of its
    own: lib[name], unlike lib.name, is not shared between callers)."""
    fn = c_library()[name]
    fn.restype, fn.argtypes = restype, list(argtypes)
    return fn


def _c_float_function(name):
    return c_function(name, ctypes.c_float, ctypes.c_float)


def _libm_float32(name, ufunc):
    state = {}

    def exact(v):
        fn = state.get("fn")
        if fn is None:
            fn = state["fn"] = _c_float_function(name)
        return fn(v)

    def call(x):
        x = np.asarray(x, np.float32)
        with np.errstate(all="ignore"):
            out = np.asarray(ufunc(x), np.float32)
        if _numpy_agrees(name, lambda v: ufunc(v.astype(np.float32)).astype(np.float64),
                         lambda v: exact(float(np.float32(v)))):
            return out if out.ndim else out[()]
        out = out.copy() if out.base is not None or not out.flags.writeable else out
        flat, xs = out.reshape(-1), x.reshape(-1)
        finite = np.flatnonzero(np.isfinite(flat))
        # (IEEE mode for the calls: a subnormal x must reach glibc, which returns a tiny x
        # itself, with its bits; TF's kernels pass it by register, untouched)
        with float_env.unflushed():
            flat[finite] = np.fromiter(map(exact, xs[finite].tolist()), np.float32, count=finite.size)
        return out if out.ndim else out[()]
    call.__name__ = name
    call.__doc__ = f"glibc's float `{name}` of each element of float32 x."
    return call


tanf = _libm_float32("tanf", np.tan)
sinhf = _libm_float32("sinhf", np.sinh)
coshf = _libm_float32("coshf", np.cosh)
asinhf = _libm_float32("asinhf", np.arcsinh)
acoshf = _libm_float32("acoshf", np.arccosh)
