"""Constants and tensor conversion: `tf.constant`, `tf.convert_to_tensor`, conversion registry, and
`constant_value` (a tensor's value when it is known while building the graph)."""

import numbers

import numpy as np

from . import dtypes as _dtypes
from . import registry
from .graph import Tensor, get_default_graph
from .tensor_shape import Dimension, TensorShape

__all__ = ["constant", "convert_to_tensor", "register_tensor_conversion_function", "constant_value",
           "to_numpy", "convert_n_to_tensor"]


def _const_shape(op):
    return [TensorShape(op._attrs["value"].shape)]


registry.register_op("Const", shape_fn=_const_shape)
registry.no_gradient("Const")


@registry.register_static_value("Const")
def _const_value(op, value_of):
    return op._attrs["value"]


def _describe(v):
    return f"{v} of type '{type(v).__name__}'"


def _check_compatible(values, dtype):
    """TF's check that Python values fit `dtype` without silent truncation (e.g. 1.5 -> int32)."""
    if isinstance(values, (list, tuple)):
        for v in values:
            _check_compatible(v, dtype)
        return
    v = values
    if dtype.is_bool:
        ok = isinstance(v, (bool, np.bool_))
    elif dtype.is_integer:
        ok = isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, float)
    elif dtype.is_floating:
        ok = isinstance(v, (numbers.Real, np.number))
    elif dtype.is_complex:
        ok = isinstance(v, (numbers.Number, np.number))
    elif dtype.base_dtype is _dtypes.string:
        ok = isinstance(v, (str, bytes, np.str_, np.bytes_))
    else:
        ok = True
    if not ok:
        raise TypeError(f"Expected {dtype.base_dtype.name}, but got {_describe(v)}.")


def _failed_conversion(values):
    return TypeError(f"Failed to convert elements of {values} to Tensor. Consider casting elements to a "
                     "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                     "TF dtypes.")


def _leaves(values):
    if isinstance(values, (list, tuple)):
        for v in values:
            yield from _leaves(v)
    else:
        yield values


def _infer_python(values):
    """The dtype TF gives to a (nested) Python value: NumPy's inference (TF builds the array
    with np.array), then float64 -> float32 and int64 -> int32 when no value changes -- so
    [True, 1] is int32, [2**31] int64, [2**63] uint64 and [1, 2**63] float32, as in TF."""
    if values is None:
        raise ValueError("None values not supported.")
    try:
        arr = np.array(values)
    except ValueError as e:  # a ragged list: NumPy's message, as TF raises it
        raise ValueError(str(e)) from None
    kind = arr.dtype.kind
    if kind in "US":
        if all(isinstance(v, (str, bytes, np.str_, np.bytes_)) for v in _leaves(values)):
            return _dtypes.string
        raise _failed_conversion(values)
    if kind not in "biufc":
        raise _failed_conversion(values)
    if arr.dtype == np.float64:
        return _dtypes.float32
    if arr.dtype == np.int64:
        fits = not arr.size or (-2 ** 31 <= arr.min() and arr.max() < 2 ** 31)
        return _dtypes.int32 if fits else _dtypes.int64
    return _dtypes.as_dtype(arr.dtype)


def _as_bytes_array(value):
    """A string tensor's value: an object array of bytes (TF strings are bytes)."""
    arr = np.array(value, dtype=object)
    flat = arr.reshape(-1)
    for i, v in enumerate(flat):
        if isinstance(v, str):
            flat[i] = v.encode()
        elif isinstance(v, np.str_):
            flat[i] = str(v).encode()
    return flat.reshape(arr.shape)


def _wrapped_integers(value, dtype):
    """Python ints out of an integer dtype's range wrap around as in a C cast, as TF's do
    (tf.constant(-1, tf.uint8) is 255, tf.constant(2**40, tf.int32) is 0)."""
    bits = 8 * np.dtype(dtype.as_numpy_dtype).itemsize
    arr = np.array(value, dtype=object) % (1 << bits)
    if not dtype.is_unsigned:
        arr = np.where(arr >= 1 << (bits - 1), arr - (1 << bits), arr)
    return np.asarray(arr).astype(dtype.as_numpy_dtype)


def to_numpy(value, dtype=None):
    """Converts a Python/NumPy value to a NumPy array with TF's dtype rules. Returns (array, DType)."""
    if dtype is not None:
        dtype = _dtypes.as_dtype(dtype).base_dtype
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        if arr.dtype.kind in "USO":
            if dtype is None or dtype is _dtypes.string:
                return _as_bytes_array(arr), _dtypes.string
        if dtype is None:
            return arr, _dtypes.as_dtype(arr.dtype)
        return arr.astype(dtype.as_numpy_dtype, copy=False), dtype
    if dtype is None:
        dtype = _infer_python(value)
    else:
        _check_compatible(value, dtype)
    if dtype is _dtypes.string:
        return _as_bytes_array(value), dtype
    try:
        with np.errstate(over="ignore"):  # 1e40 -> float32 is inf, silently, as in TF
            arr = np.array(value, dtype=dtype.as_numpy_dtype)
    except OverflowError:
        if not dtype.is_integer:
            raise TypeError(f"Can not convert {value!r} to {dtype.name}: value out of range") from None
        arr = _wrapped_integers(value, dtype)
    except ValueError as e:
        raise ValueError(str(e)) from None  # NumPy's message for a ragged list, as TF's
    if isinstance(value, (list, tuple)) and list(arr.shape) != _dense_dimensions(value):
        # TF: NumPy arrays inside a Python list are not stacked
        raise ValueError(f"Expected values {value} to be a dense tensor with shape {_dense_dimensions(value)}, "
                         f"but got shape {list(arr.shape)}.")
    return arr, dtype


def constant(value, dtype=None, shape=None, name="Const", verify_shape=False):
    """Creates a constant tensor from a Python or NumPy value (TF's dtype inference rules)."""
    arr, dt = to_numpy(value, dtype)
    if shape is not None:
        shape = [int(d) for d in (shape.as_list() if isinstance(shape, TensorShape) else shape)] \
            if not isinstance(shape, int) else [shape]
        n = int(np.prod(shape))
        if verify_shape and list(arr.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, got {arr.shape}.")
        splat = arr.size == 1 and n != 1
        if arr.size == 1:
            arr = np.broadcast_to(arr.reshape(()), shape).copy()
        elif arr.size == n:
            arr = arr.reshape(shape)
        elif arr.size > n:
            raise ValueError(f"Too many elements provided. Takes at most {n:d}, but got {arr.size:d}.")
        else:
            # TF pads a short list by repeating its last element.
            flat = arr.ravel()
            arr = np.concatenate([flat, np.repeat(flat[-1:], n - flat.size)]).reshape(shape)
    arr.flags.writeable = False
    g = get_default_graph()
    attrs = {"value": arr, "dtype": dt}
    if shape is not None and splat:
        from .graph_io import SPLAT_ATTR
        attrs[SPLAT_ATTR] = True  # serialized as TF does: the one value, repeated
    op = g._create_op("Const", [], [dt], name=name, attrs=attrs)
    return op._outputs[0]


_conversion_registry = []  # (priority, type, fn)


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Registers `conversion_func(value, dtype=None, name=None, as_ref=False) -> Tensor` for
    values of `base_type` (a type or tuple of types)."""
    if isinstance(base_type, tuple) and any(t in (list, tuple, str, np.ndarray) for t in base_type) \
            or base_type in (list, tuple, str, np.ndarray):
        raise TypeError("Cannot register conversions for Python numeric types and NumPy scalars and arrays.")
    _conversion_registry.append((priority, base_type, conversion_func))
    _conversion_registry.sort(key=lambda e: e[0])


_autopack = None  # set by ops/array_ops: packs a (nested) list holding Tensors with a Pack op


def set_autopack(fn):
    """Installs `fn(values, name, dtype) -> Tensor`, used for lists that contain Tensors."""
    global _autopack
    _autopack = fn


def _contains_tensor(value):
    if isinstance(value, Tensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return False


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None, as_ref=False):
    """Converts a Tensor, a Python/NumPy value, a fully-defined TensorShape, a list holding
    Tensors (packed with `tf.stack`, op "packed"), or a registered type (e.g. a Variable)."""
    if dtype is not None:
        dtype = _dtypes.as_dtype(dtype)
    preferred_dtype = preferred_dtype or dtype_hint
    if isinstance(value, (TensorShape, Dimension)):
        return _shape_to_tensor(value, dtype, name)
    if isinstance(value, (list, tuple)):
        if _autopack is not None and _contains_tensor(value):
            return _autopack(value, name or "packed", dtype)
        if any(isinstance(v, Dimension) for v in value):
            value = [v.value if isinstance(v, Dimension) else v for v in value]
    if isinstance(value, Tensor):
        if dtype is not None and not dtype.is_compatible_with(value.dtype):
            # (TF prefixes the conversion's name, when one is given: "initial_value: ...")
            raise ValueError(f"{name + ': ' if name else ''}Tensor conversion requested dtype "
                             f"{dtype.base_dtype.name} for Tensor with dtype {value.dtype.base_dtype.name}: "
                             f"{value!r}")
        return value
    for _, base_type, fn in _conversion_registry:
        if isinstance(value, base_type):
            result = fn(value, dtype=dtype, name=name, as_ref=as_ref)
            if result is NotImplemented:
                continue
            if dtype is not None and not dtype.is_compatible_with(result.dtype):
                raise ValueError(f"Tensor conversion requested dtype {dtype.base_dtype.name} for Tensor "
                                 f"with dtype {result.dtype.base_dtype.name}: {result!r}")
            return result
    if dtype is None and preferred_dtype is not None:
        try:
            return constant(value, dtype=preferred_dtype, name=name or "Const")
        except (TypeError, ValueError):
            pass
    return constant(value, dtype=dtype, name=name or "Const")


def _shape_to_tensor(s, dtype, name):
    """TF's TensorShape/Dimension conversion: int32 unless a dimension needs int64, named
    "shape_as_tensor"."""
    if isinstance(s, TensorShape):
        if not s.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {s} to a Tensor.")
        value = s.as_list()
    else:
        if s.value is None:
            raise ValueError("Cannot convert an unknown Dimension to a Tensor: ?")
        value = s.value
    big = any(d >= 2 ** 31 for d in np.ravel(value))
    if dtype is not None:
        if dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            what = "TensorShape" if isinstance(s, TensorShape) else "Dimension"
            raise TypeError(f"Cannot convert {what} {s} to dtype {dtype}. Allowed dtypes are tf.int32 and "
                            "tf.int64.")
        if dtype.base_dtype is _dtypes.int32 and big:
            raise ValueError(f"Cannot convert TensorShape {s} to dtype int32; a dimension is too large. "
                             "Consider using tf.int64.")
    else:
        dtype = _dtypes.int64 if big else _dtypes.int32
    return constant(value, dtype=dtype, name=name or "shape_as_tensor")


def _dense_dimensions(values):
    """The shape a nested Python list spells (TF's _GetDenseDimensions: arrays inside count as
    scalars)."""
    if not isinstance(values, (list, tuple)):
        return []
    if not values:
        return [0]
    return [len(values)] + _dense_dimensions(values[0])


def convert_n_to_tensor(values, dtype=None, name=None, preferred_dtype=None):
    return [convert_to_tensor(v, dtype=dtype, preferred_dtype=preferred_dtype,
                              name=None if name is None else f"{name}_{i}") for i, v in enumerate(values)]


def constant_value(tensor, partial=False):
    """The NumPy value of `tensor` if it can be computed while building the graph, else None."""
    if not isinstance(tensor, Tensor):
        try:
            return to_numpy(tensor)[0]
        except (TypeError, ValueError):
            return None
    return _static_value(tensor, 0)


def _static_value(tensor, depth):
    if depth > 64:
        return None
    op = tensor._op
    if op._type == "ShapeN":  # each output is the shape of its own input (TF's shape refiner)
        s = op._inputs[tensor._value_index].shape
        return np.array(s.as_list(), op._get_attr("out_type").as_numpy_dtype) if s.is_fully_defined() else None
    fn = registry.static_value_fn(op._type)
    if fn is None or tensor._value_index != 0:
        return None
    try:
        return fn(op, lambda t: _static_value(t, depth + 1))
    except Exception:  # a static evaluation that fails just means "not known statically"
        return None
