"""CPU kernels for PyFunc / PyFuncStateless / EagerPyFunc: call the registered Python function.

Inputs reach the function as TF passes them: arrays as ndarrays, 0-d values as NumPy scalars,
strings as bytes. Results go through np.asarray (a list or tuple is several results) and must then
have exactly the declared dtypes (str/bytes for string outputs). Exceptions map to TF's classes: ValueError and TypeError ->
InvalidArgumentError, StopIteration -> OutOfRangeError, MemoryError -> ResourceExhaustedError,
NotImplementedError -> UnimplementedError, anything else -> UnknownError.
"""

import numpy as np

from ...framework import errors
from ...framework.constant_op import _as_bytes_array
from ...framework.dtypes import type_string
from ..registry import register_kernel

_ERRORS = ((StopIteration, errors.OutOfRangeError), ((ValueError, TypeError), errors.InvalidArgumentError),
           (MemoryError, errors.ResourceExhaustedError), (NotImplementedError, errors.UnimplementedError))


def _argument(value, eager):
    if eager:
        from ...ops.script_ops import as_eager_value
        return as_eager_value(value)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


def _result(value, dtype, i, token):
    """A returned value as TF's py_func takes it: np.asarray of it, of exactly the declared dtype."""
    np_dtype = dtype.as_numpy_dtype
    if dtype.name == "string":
        if isinstance(value, (str, bytes)):
            return _as_bytes_array(np.array(value, dtype=object))
        if isinstance(value, np.ndarray) and value.dtype.kind in "OSU":
            return _as_bytes_array(value)
    a = np.asarray(value)
    if a.dtype == np.dtype(np_dtype):
        return a
    actual = "string" if a.dtype.kind in "OSU" else type_string(a.dtype)
    raise errors.InvalidArgumentError(
        None, None, f"{i}-th value returned by {token} is {actual}, but expects {type_string(dtype)}")


def _py_func_kernel(op, ctx):
    from ...ops.script_ops import FUNCS
    token = op._get_attr("token")
    touts = list(op._get_attr("Tout"))
    eager = bool(op._attrs.get("_eager"))

    def py_func(*args):
        func = FUNCS.lookup(token)
        if func is None:
            raise errors.UnknownError(None, None, f"{token} is not registered in this process (a py_func "
                                                  "only runs where its Python function was defined)")
        try:
            out = func(*[_argument(a, eager) for a in args])
        except errors.OpError:
            raise
        except Exception as e:  # noqa: BLE001  (the user's exception, under TF's class)
            cls = next((c for kinds, c in _ERRORS if isinstance(e, kinds)), errors.UnknownError)
            raise cls(None, None, f"{type(e).__name__}: {e}") from e
        if not touts:
            return None
        results = list(out) if isinstance(out, (list, tuple)) else [out]   # (a list: several values)
        if len(results) != len(touts):
            raise errors.InvalidArgumentError(
                None, None, f"{token} returns {len(results)} values, but expects to see {len(touts)} values.")
        vals = [_result(v, d, i, token) for i, (v, d) in enumerate(zip(results, touts))]
        return vals[0] if len(vals) == 1 else tuple(vals)
    return py_func


for _t in ("PyFunc", "PyFuncStateless", "EagerPyFunc"):
    register_kernel(_t)(_py_func_kernel)
