"""Data types: `tf.DType` and the named dtypes (`tf.float32`, ...), with TF1's reference types.

A `DType` wraps a NumPy dtype. Variables in TF1's graph API output *reference* tensors whose dtype
is the `_ref` twin of the value dtype (`float32_ref`); `base_dtype` strips it.
"""

import builtins

import numpy as np

__all__ = ["DType", "as_dtype"]


class DType:
    """A tensor element type, like `tf.DType`."""

    __slots__ = ("_name", "_np", "_is_ref", "_base")

    def __init__(self, name, np_dtype, is_ref=False, base=None):
        self._name = name
        self._np = np.dtype(np_dtype) if np_dtype is not None else None
        self._is_ref = is_ref
        self._base = base if base is not None else self

    name = property(lambda self: self._name)
    @property
    def as_numpy_dtype(self):
        """The NumPy type of this dtype (TF's table: `object` for string, `np.object_` for
        string_ref, a structured dtype for the quantized types, ml_dtypes' bfloat16)."""
        name = self._base._name
        if name in ("resource", "variant"):
            raise KeyError(_ENUM[self._base] + (100 if self._is_ref else 0))
        if name == "string" and not self._is_ref:
            return object
        if name == "bfloat16":
            return _bfloat16_np() or object
        return self._np.type if self._np is not None else _QNP.get(name, object)

    @property
    def _storage_type(self):
        """The NumPy type our kernels hold values of this dtype in: as_numpy_dtype, but `object`
        for string, resource and variant (TF's as_numpy_dtype raises KeyError for the last two)."""
        if self._base._name in ("string", "resource", "variant"):
            return object
        return self.as_numpy_dtype

    base_dtype = property(lambda self: self._base)
    real_dtype = property(lambda self: _REAL.get(self._base, self))  # complex64 -> float32, as TF
    is_bool = property(lambda self: self._base is bool_)
    is_floating = property(lambda self: self._np is not None and self._np.kind == "f" or self._base._name == "bfloat16")
    is_complex = property(lambda self: self._np is not None and self._np.kind == "c")
    is_integer = property(lambda self: self._np is not None and self._np.kind in "iu")
    is_unsigned = property(lambda self: self._np is not None and self._np.kind == "u")
    is_quantized = property(lambda self: self._name.startswith(("qint", "quint")))
    is_numpy_compatible = property(lambda self: self._base._name not in ("resource", "variant"))

    @property
    def size(self):
        """Bytes per element (0 for string, resource and variant, as TF)."""
        name = self._base._name
        if name in ("string", "resource", "variant"):
            return 0
        if name == "bfloat16":
            return 2
        return self._np.itemsize if self._np is not None else _QNP[name].itemsize

    @property
    def _is_ref_dtype(self):
        return self._is_ref

    @property
    def _as_ref(self):
        return self if self._is_ref else _REF[self]

    @property
    def as_datatype_enum(self):
        return _ENUM[self._base] + (100 if self._is_ref else 0)

    def _unordered(self, which):
        # TF: quantized, bool, string and complex types have no order (TypeError, TF's words).
        if self.is_quantized or self._base in (bool_, string, complex64, complex128):
            kind = "quantized type" if self.is_quantized else "type"
            return TypeError(f"Cannot find {which} value of {self} with {kind} {self._base}.")
        return None

    @property
    def min(self):
        """The smallest value of this type: a NumPy scalar of it for floats (as TF's finfo), a
        Python int for integers."""
        err = self._unordered("minimum")
        if err is not None:
            raise err
        if self._base._name == "bfloat16" and _bfloat16_np() is not None:
            return _bfloat16_finfo().min
        if self.is_floating:
            return np.finfo(self._np).min
        if self.is_integer:
            return int(np.iinfo(self._np).min)
        raise TypeError(f"Cannot find minimum value of {self}.")

    @property
    def max(self):
        """The largest value of this type (see `min`)."""
        err = self._unordered("maximum")
        if err is not None:
            raise err
        if self._base._name == "bfloat16" and _bfloat16_np() is not None:
            return _bfloat16_finfo().max
        if self.is_floating:
            return np.finfo(self._np).max
        if self.is_integer:
            return int(np.iinfo(self._np).max)
        raise TypeError(f"Cannot find maximum value of {self}.")

    @property
    def limits(self):
        """TF's image intensity limits: (0, max of its range table); floats are (0, 1)."""
        self.as_numpy_dtype  # (resource, variant: TF's KeyError)
        if self._np is None or self._np.type not in _DTYPE_RANGE:
            raise ValueError(str(self) + " does not have defined limits.")
        return 0, _DTYPE_RANGE[self._np.type][1]

    def is_compatible_with(self, other):
        """TF's rule: a value dtype is compatible with its `_ref` twin, not the other way."""
        other = as_dtype(other)
        return self is other or self is other._base

    def __eq__(self, other):
        if other is None:
            return False
        if not isinstance(other, DType):
            try:
                other = as_dtype(other)
            except TypeError:
                return False
        return self is other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._name)

    def __repr__(self):
        return f"tf.{self._name}"

    def __str__(self):
        return f"<dtype: '{self._name}'>"

    def __reduce__(self):
        return as_dtype, (self._name,)


_SPECS = [
    # name, numpy dtype, TF DataType enum
    ("float16", np.float16, 19),
    ("float32", np.float32, 1),
    ("float64", np.float64, 2),
    ("bfloat16", None, 14),
    ("int8", np.int8, 6),
    ("int16", np.int16, 5),
    ("int32", np.int32, 3),
    ("int64", np.int64, 9),
    ("uint8", np.uint8, 4),
    ("uint16", np.uint16, 17),
    ("uint32", np.uint32, 22),
    ("uint64", np.uint64, 23),
    ("bool", np.bool_, 10),
    ("complex64", np.complex64, 8),
    ("complex128", np.complex128, 18),
    ("string", np.object_, 7),
    ("resource", None, 20),
    ("variant", None, 21),
    # Quantized types: dtype objects only (no quantized kernels).
    ("qint8", None, 11),
    ("quint8", None, 12),
    ("qint32", None, 13),
    ("qint16", None, 15),
    ("quint16", None, 16),
]

# TF's NumPy stand-ins for the quantized types: structured dtypes over the storage integer.
_QNP = {n: np.dtype([(n, t)]) for n, t in [("qint8", np.int8), ("quint8", np.uint8), ("qint16", np.int16),
                                          ("quint16", np.uint16), ("qint32", np.int32)]}
_BY_NAME = {}
_REF = {}
_ENUM = {}
_BY_NP = {}
for _name, _npd, _enum in _SPECS:
    _dt = DType(_name, _npd)
    _ref = DType(_name + "_ref", _npd, is_ref=True, base=_dt)
    _BY_NAME[_name] = _dt
    _BY_NAME[_name + "_ref"] = _ref
    _REF[_dt] = _ref
    _ENUM[_dt] = _enum
    if _npd is not None and _name != "string":
        _BY_NP[np.dtype(_npd)] = _dt
    globals()[_name if _name != "bool" else "bool_"] = _dt
    globals()[_name + "_ref"] = _ref
    __all__ += [_name, _name + "_ref"]
_REAL = {_BY_NAME["complex64"]: _BY_NAME["float32"], _BY_NAME["complex128"]: _BY_NAME["float64"]}
_BY_ENUM = {v: k for k, v in _ENUM.items()}

half = float16
double = float64
__all__ += ["half", "double", "QUANTIZED_DTYPES"]
QUANTIZED_DTYPES = frozenset(d for n, d in _BY_NAME.items() if n.startswith(("qint", "quint")))

# TF's _PYTHON_TO_TF: only these Python types name a dtype (`int`, `str` do not).
_PY = {float: float32, bool: bool_, object: string}
# TF's non-canonical aliases.
_BY_NAME.update({"half": float16, "half_ref": _REF[float16], "float": float32,
                 "float_ref": _REF[float32], "double": float64, "double_ref": _REF[float64]})


def as_dtype(type_value):
    """Converts `type_value` (a DType, a name, a NumPy dtype or type, or an enum) to a `DType`."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        dt = _BY_NAME.get(type_value)
        if dt is not None:
            return dt
    elif isinstance(type_value, int) and not isinstance(type_value, builtins.bool):
        base = _BY_ENUM.get(type_value % 100)
        if base is not None:
            return _REF[base] if type_value > 100 else base
    elif isinstance(type_value, type) and type_value in _PY:
        return _PY[type_value]
    else:
        # NumPy dtypes and scalar types, then anything with a `.dtype` (as TF does).
        npd = None
        if isinstance(type_value, np.dtype) or (
                isinstance(type_value, type) and issubclass(type_value, np.generic)):
            npd = np.dtype(type_value)
        elif hasattr(type_value, "dtype"):
            try:
                npd = np.dtype(type_value.dtype)
            except TypeError:
                npd = None
        if npd is not None:
            if npd.kind in "OSU":
                return string
            dt = _BY_NP.get(npd)
            if dt is not None:
                return dt
    raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} "
                    "to a TensorFlow DType.")


def _bfloat16_np():
    """ml_dtypes' bfloat16 NumPy type where that package is installed (TF's own), else None."""
    try:
        import ml_dtypes
    except ImportError:
        return None
    return ml_dtypes.bfloat16


def _bfloat16_finfo():
    import ml_dtypes
    return ml_dtypes.finfo(ml_dtypes.bfloat16)


# `tf.bool` shadows the builtin inside this module only from here on.
globals()["bool"] = bool_


_TYPE_STRINGS = {"float32": "float", "float64": "double", "float16": "half"}


def type_string(dtype):
    """TF's DataTypeString: the name its kernel messages use ("float", "double", "half", "int32")."""
    name = as_dtype(dtype).base_dtype.name
    return _TYPE_STRINGS.get(name, name)


# TF's dtypes.dtype_range (the table DType.limits reads).
_DTYPE_RANGE = {np.bool_: (False, True), np.uint8: (0, 255), np.uint16: (0, 65535),
                np.int8: (-128, 127), np.int16: (-32768, 32767), np.int64: (-(2**63), 2**63 - 1),
                np.uint64: (0, 2**64 - 1), np.int32: (-(2**31), 2**31 - 1),
                np.uint32: (0, 2**32 - 1), np.float32: (-1, 1), np.float64: (-1, 1)}
