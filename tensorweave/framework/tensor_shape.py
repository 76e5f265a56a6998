"""Static shapes: `tf.Dimension` and `tf.TensorShape` with TF1 semantics (unknown dims are `None`,
indexing a shape gives a `Dimension`, `str` prints `(?, 784)`)."""

import threading

__all__ = ["Dimension", "TensorShape", "as_shape", "as_dimension", "unknown_shape", "dimension_value"]


class Dimension:
    """One dimension of a static shape; its `value` is an int or None (unknown)."""

    __slots__ = ("_value",)

    def __init__(self, value):
        if value is None or isinstance(value, Dimension) and value.value is None:
            self._value = None
            return
        if isinstance(value, Dimension):
            value = value.value
        try:
            v = int(value.__index__())
        except AttributeError:
            raise TypeError(f"Dimension value must be integer or None or have an __index__ method, "
                            f"got value '{value!r}' with type '{type(value)}'") from None
        if v < 0:
            raise ValueError(f"Dimension {v} must be >= 0")
        self._value = v

    value = property(lambda self: self._value)

    def __repr__(self):
        return f"Dimension({self._value!r})"

    def __str__(self):
        return "?" if self._value is None else str(self._value)

    def __int__(self):
        return self._value  # (None: Python's "__int__ returned non-int" TypeError, as in TF)

    __index__ = __int__

    __hash__ = None  # (TF's Dimension defines __eq__ only: unhashable)

    def __eq__(self, other):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return None
        return self._value == other._value

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq in (None, NotImplemented) else not eq

    def __bool__(self):
        return bool(self._value)

    def is_compatible_with(self, other):
        other = as_dimension(other)
        return self._value is None or other._value is None or self._value == other._value

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Dimensions {self} and {other} are not compatible")

    def merge_with(self, other):
        other = as_dimension(other)
        self.assert_is_compatible_with(other)
        return Dimension(self._value if self._value is not None else other._value)

    def _arith(self, other, fn):
        try:
            other = as_dimension(other)
        except (TypeError, ValueError):
            return NotImplemented
        if self._value is None or other._value is None:
            return Dimension(None)
        return Dimension(fn(self._value, other._value))

    def __add__(self, o):
        return self._arith(o, lambda a, b: a + b)

    __radd__ = __add__

    def __sub__(self, o):
        return self._arith(o, lambda a, b: a - b)

    def __rsub__(self, o):
        return as_dimension(o) - self

    def __mul__(self, o):
        return self._arith(o, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, o):
        return self._arith(o, lambda a, b: a // b)

    def __rfloordiv__(self, o):
        return as_dimension(o) // self

    def __mod__(self, o):
        return self._arith(o, lambda a, b: a % b)

    def __rmod__(self, o):
        return as_dimension(o) % self

    def __truediv__(self, other):
        raise TypeError(f"unsupported operand type(s) for /: 'Dimension' and '{type(other).__name__}', "
                        "please use // instead")

    def __rtruediv__(self, other):
        raise TypeError(f"unsupported operand type(s) for /: '{type(other).__name__}' and 'Dimension', "
                        "please use // instead")

    def _cmp(self, other, fn):
        other = as_dimension(other)
        if self._value is None or other._value is None:
            return None
        return fn(self._value, other._value)

    def __lt__(self, o):
        return self._cmp(o, lambda a, b: a < b)

    def __le__(self, o):
        return self._cmp(o, lambda a, b: a <= b)

    def __gt__(self, o):
        return self._cmp(o, lambda a, b: a > b)

    def __ge__(self, o):
        return self._cmp(o, lambda a, b: a >= b)


def as_dimension(value):
    return value if isinstance(value, Dimension) else Dimension(value)


def dimension_value(dimension):
    """The int (or None) in a `Dimension`, or the value itself."""
    return dimension.value if isinstance(dimension, Dimension) else dimension


class TensorShape:
    """A possibly partial static shape. `dims` is None when even the rank is unknown."""

    __slots__ = ("_dims",)

    def __init__(self, dims):
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        elif isinstance(dims, (list, tuple)):
            self._dims = tuple(as_dimension(d) for d in dims)
        elif isinstance(dims, (str, bytes)):
            raise TypeError(f"Failed to convert '{dims!r}' to a shape: '{dims!r}'could not be converted to a "
                            "dimension. A shape should either be single dimension (e.g. 10), or an iterable of "
                            "dimensions (e.g. [1, 10, None]).")
        elif hasattr(dims, "dim") and hasattr(dims, "unknown_rank"):  # a TensorShapeProto-like
            self._dims = None if dims.unknown_rank else tuple(
                Dimension(None if d.size == -1 else d.size) for d in dims.dim)
        else:
            try:
                self._dims = tuple(as_dimension(d) for d in dims)
            except TypeError:
                self._dims = (as_dimension(dims),)

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def ndims(self):
        return None if self._dims is None else len(self._dims)

    rank = ndims

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)!r})"

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __bool__(self):
        return self._dims is not None

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is not None:
            if isinstance(key, slice):
                return TensorShape(self._dims[key])
            if not -len(self._dims) <= key < len(self._dims):
                raise IndexError("list index out of range")  # TF keeps its dimensions in a list
            return self._dims[key]
        if isinstance(key, slice):
            # (TF: a slice of an unknown shape with known non-negative bounds has their rank)
            start = 0 if key.start is None else key.start
            if key.step is not None:
                raise ValueError("Steps are not yet handled")
            if key.stop is None or start < 0 or key.stop < 0:
                return unknown_shape()
            return unknown_shape(rank=key.stop - start)
        return Dimension(None)

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except TypeError:
            return NotImplemented
        if self._dims is None or other._dims is None:
            return self._dims is None and other._dims is None
        return [d.value for d in self._dims] == [d.value for d in other._dims]

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self):
        return hash(None if self._dims is None else tuple(d.value for d in self._dims))

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def __reduce__(self):
        return TensorShape, (self.as_list() if self._dims is not None else None,)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d.value
        return n

    def is_fully_defined(self):
        return self._dims is not None and all(d.value is not None for d in self._dims)

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return [d.value for d in self._dims]

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a.is_compatible_with(b) for a, b in zip(self._dims, other._dims))

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def merge_with(self, other):
        other = as_shape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a.merge_with(b) for a, b in zip(self._dims, other._dims)])

    def most_specific_compatible_shape(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return unknown_shape()
        return TensorShape([a.value if a.value == b.value else None for a, b in zip(self._dims, other._dims)])

    def concatenate(self, other):
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return unknown_shape()
        return TensorShape(self._dims + other._dims)

    def with_rank(self, rank):
        if self._dims is None:
            return unknown_shape(rank=rank)
        if len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def require_rank(self, rank):
        """This shape when its rank is unknown or `rank`; TF's shape-function error otherwise."""
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {len(self._dims)}")
        return self

    def with_rank_at_least(self, rank):
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank):
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self._dims is not None and other._dims is not None and len(self._dims) != len(other._dims):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def as_proto(self):
        """This shape as a TensorShapeProto (unknown dimensions are size -1)."""
        from .graph_io import shape_to_proto
        return shape_to_proto(self)

    def is_subtype_of(self, other):
        """True if every dimension of `other` is unknown or equal to this shape's (TF 2's
        TraceType relation; an unknown-rank `other` accepts every shape)."""
        other = as_shape(other)
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(o.value is None or s.value == o.value for s, o in zip(self._dims, other._dims))


def as_shape(shape):
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def unknown_shape(rank=None, **kwargs):
    if rank is None and "ndims" in kwargs:
        rank = kwargs.pop("ndims")
    if rank is None:
        return TensorShape(None)
    return TensorShape([None] * rank)


def scalar():
    return TensorShape([])


# -- what a shape function read from its inputs' values -----------------------------------------
# TF's InferenceContext remembers which input tensors a shape function asked for (as values or as
# partial shapes) and appends them to its error messages ("... and with computed input tensors:
# input[1] = <0 2>."). Shape functions note those reads here; the graph resets the log before it
# runs one and reads it when the function fails.

_input_reads = threading.local()


def _begin_input_reads():
    _input_reads.log = {}


def note_input_value(index, value):
    """Records that the running shape function read input `index` as the constant `value`."""
    log = getattr(_input_reads, "log", None)
    if log is not None and value is not None:
        log[index] = ("value", value)


def note_input_partial_shape(index, dims):
    """Records that the running shape function read input `index` as a partial shape (a list of
    ints and None; -1 prints as ?, as TF's does), when its length is known."""
    log = getattr(_input_reads, "log", None)
    if log is not None and dims is not None:
        log[index] = ("shape", [None if d is None or d < 0 else d for d in dims])


def _dims_summary(shape):
    return "?" if shape.ndims is None else "[" + ",".join(
        "?" if d is None else str(d) for d in shape.as_list()) + "]"


def inference_merge_error(a, b):
    """TF's InferenceContext::Merge message for shapes `a` and `b` that do not merge, or None
    when they do: "Shapes must be equal rank, but are 2 and 1" / "Dimension 0 in both shapes
    must be equal, but are 2 and 3. Shapes are [2,3] and [3,3]."."""
    a, b = as_shape(a), as_shape(b)
    if a.ndims is None or b.ndims is None:
        return None
    if a.ndims != b.ndims:
        return f"Shapes must be equal rank, but are {a.ndims} and {b.ndims}"
    for i, (x, y) in enumerate(zip(a.as_list(), b.as_list())):
        if x is not None and y is not None and x != y:
            return (f"Dimension {i} in both shapes must be equal, but are {x} and {y}. "
                    f"Shapes are {_dims_summary(a)} and {_dims_summary(b)}.")
    return None


def shape_tensor_value_error(value):
    """TF's error for a shape tensor holding a value below -1. TF's shape refiner raises it while
    evaluating the tensor, outside the shape function, so it carries no node context."""
    e = ValueError(f"Invalid value in tensor used for shape: {value}")
    e._no_node_context = True
    return e


def _summarize_value(value, max_values=256):
    """A tensor value as TF's Tensor::SummarizeValue prints it: `3`, `1 2`, `[1 2][3 4]`."""
    import numpy as np
    v = np.asarray(value)
    flat = v.ravel()

    def fmt(x):
        if v.dtype == np.bool_:
            return "1" if x else "0"
        if v.dtype.kind == "f":
            return f"{float(x):g}"
        if v.dtype.kind in "SO":
            return x.decode() if isinstance(x, bytes) else str(x)
        return str(x)

    if v.ndim <= 1:
        s = " ".join(fmt(x) for x in flat[:max_values])
        return s + ("..." if flat.size > max_values else "")
    out, count = [], [0]

    def rec(a):
        if a.ndim == 1:
            items = []
            for x in a:
                if count[0] >= max_values:
                    break
                items.append(fmt(x))
                count[0] += 1
            out.append("[" + " ".join(items) + "]")
        else:
            out.append("[")
            for sub in a:
                rec(sub)
            out.append("]")
    for sub in v:
        rec(sub)
    return "".join(out) + ("..." if flat.size > max_values else "")


def _input_reads_summary():
    """TF's error-context suffix for the reads of the shape function that just failed."""
    log = getattr(_input_reads, "log", None) or {}
    values, shapes = [], []
    for i in sorted(log):
        kind, v = log[i]
        if kind == "shape":
            shapes.append(f"input[{i}] = [" + ",".join("?" if d is None else str(d) for d in v) + "]")
        else:
            values.append(f"input[{i}] = <{_summarize_value(v)}>")
    s = ""
    if values:
        s += " and with computed input tensors: " + ", ".join(values)
    if shapes:
        s += " and with input tensors computed as partial shapes: " + ",".join(shapes)
    return s
