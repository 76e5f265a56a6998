"""The graph's elements: `Tensor` (an op's output: dtype, static shape, operators) and
`Operation` (a node: type, inputs, attributes, the user's source line), with the errors they raise.
Graph (graph.py) makes them; they never change after they are made."""

import os
import sys
import traceback

from . import dtypes as _dtypes
from . import registry
from .tensor_shape import TensorShape, as_shape, inference_merge_error, unknown_shape

# TF 2.21's advice appended to the graph-mode bool/iteration errors.
_AUTOGRAPH_HINT = (
    " You can attempt the following resolutions to the problem: If you are running in Graph mode, use "
    "Eager execution mode or decorate this function with @tf.function. If you are using AutoGraph, you "
    "can try decorating this function with @tf.function. If that does not work, then you may be using an "
    "unsupported feature or your source code may not be visible to AutoGraph. See https://github.com/"
    "tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
    "#access-to-source-code for more information.")

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))



def _user_stack():
    """The creating call stack without tensorweave's own frames, outermost first, as
    (filename, lineno, function) triples: what TF's run-time errors print as "Detected at node
    'x' defined at (most recent call last)" (TF filters its own frames the same way)."""
    f = sys._getframe(2)
    frames = []
    while f is not None:
        code = f.f_code
        if not code.co_filename.startswith(_PACKAGE_DIR):
            frames.append((code.co_filename, f.f_lineno, code.co_name))
        f = f.f_back
    frames.reverse()
    return tuple(frames)


class OperatorNotAllowedInGraphError(TypeError):
    """Raised when a Tensor is used as a Python bool or iterated over."""


class Reference:
    """An object-identity wrapper, as `Tensor.ref()` returns (TF's object_identity.Reference)."""

    __slots__ = ("_wrapped", "__weakref__")

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def deref(self):
        """The referenced object."""
        return self._wrapped

    def _check(self, other):
        if not isinstance(other, Reference):
            raise TypeError("Cannot compare wrapped object with unwrapped object")

    def __eq__(self, other):
        if other is None:
            return False
        self._check(other)
        return self._wrapped is other._wrapped

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        self._check(other)
        return id(self._wrapped) < id(other._wrapped)

    def __gt__(self, other):
        self._check(other)
        return id(self._wrapped) > id(other._wrapped)

    def __hash__(self):
        return id(self._wrapped)

    def __repr__(self):
        return f"<Reference wrapping {self._wrapped!r}>"


class InaccessibleTensorError(ValueError):
    """Raised when fetching an op marked by `Graph.prevent_fetching` (TF's class of that name)."""


def _shape_summary(shape):
    """A shape as TF's shape-inference messages print it: [2,?,3], or ? for unknown rank."""
    if shape.ndims is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


_TF_TYPE_ENUM_NAMES = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}


def _attr_summary(attrs):
    """Scalar attributes as a NodeDef summary prints them: T=DT_FLOAT, transpose_a=false."""
    parts = []
    for k in sorted(attrs):
        v = attrs[k]
        if k.startswith("_"):
            continue
        if isinstance(v, _dtypes.DType):
            parts.append(f"{k}=DT_{_TF_TYPE_ENUM_NAMES.get(v.name, v.name.upper())}")
        elif isinstance(v, bool):
            parts.append(f"{k}={'true' if v else 'false'}")
        elif isinstance(v, str):  # TF quotes (and C-escapes) string attrs: align="RIGHT_LEFT"
            parts.append(f'{k}="{v}"')
        elif isinstance(v, float):  # TF's FloatToBuffer: %.6g, or %.9g when that loses the float32
            short = format(v, ".6g")
            import numpy as np
            parts.append(f"{k}={short if np.float32(short) == np.float32(v) else format(v, '.9g')}")
        elif isinstance(v, int):
            parts.append(f"{k}={v}")
        elif isinstance(v, TensorShape):
            parts.append(f"{k}={_shape_summary(v) if v.ndims is not None else '<unknown>'}")
        elif isinstance(v, (list, tuple)) and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            parts.append(f"{k}=[{', '.join(str(x) for x in v)}]")
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, TensorShape) for x in v):
            parts.append(f"{k}=[{', '.join(_shape_summary(x) if x.ndims is not None else '<unknown>' for x in v)}]")
        elif isinstance(v, (list, tuple)) and all(isinstance(x, _dtypes.DType) for x in v):
            parts.append(f"{k}=[{', '.join('DT_' + _TF_TYPE_ENUM_NAMES.get(x.name, x.name.upper()) for x in v)}]")
    return ", ".join(parts)


class Tensor:
    """A symbolic handle to one output of an Operation; its value exists only inside a step."""

    __slots__ = ("_op", "_value_index", "_dtype", "_shape", "_consumers", "__weakref__")
    # Lets NumPy defer to our operators: np.float32(2) * t gives a Tensor, not an object array.
    __array_priority__ = 100

    def __init__(self, op, value_index, dtype):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape = unknown_shape()
        self._consumers = []

    @property
    def _keras_mask(self):
        """The keras mask a layer attached (tf.keras keeps it here); AttributeError if none."""
        import sys
        engine = sys.modules.get("tensorweave.keras.engine")
        mask = engine.get_mask(self) if engine is not None else None
        if mask is None and (engine is None or engine._keras_history(self) is None):
            # (a keras layer's output has the attribute, None without a mask, as in TF)
            raise AttributeError("'Tensor' object has no attribute '_keras_mask'")
        return mask

    @_keras_mask.setter
    def _keras_mask(self, mask):
        from ..keras import engine
        if mask is None:
            engine._MASKS.pop(self, None)
        else:
            engine._MASKS[self] = mask

    op = property(lambda self: self._op)
    value_index = property(lambda self: self._value_index)
    dtype = property(lambda self: self._dtype)
    graph = property(lambda self: self._op._graph)
    device = property(lambda self: self._op.device)
    shape = property(lambda self: self._shape)

    @property
    def name(self):
        return f"{self._op._name}:{self._value_index}"

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Merges `shape` into the static shape (ValueError if incompatible)."""
        shape = as_shape(shape)
        if not self._shape.is_compatible_with(shape):
            raise ValueError(inference_merge_error(self._shape, shape))  # TF's C API merge message
        self._shape = self._shape.merge_with(shape)

    def ref(self):
        """A hashable reference to this tensor, equal only to references to the same tensor
        (`.deref()` gives it back): for sets and dict keys."""
        return Reference(self)

    experimental_ref = ref

    def consumers(self):
        return list(self._consumers)

    def eval(self, feed_dict=None, session=None):
        """Runs the default (or given) session to compute this tensor."""
        from .graph_defaults import _run_using_default_session
        return _run_using_default_session(self, feed_dict, self.graph, session)

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self):
        shape = f", shape={self._shape}" if self._shape.ndims is not None else ""  # TF omits an unknown shape
        device = f", device={self._op._device}" if self._op._device else ""
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name}{device})'

    # `==` and hashing are by identity (TF1 semantics), inherited from object: fast dict keys.

    def __bool__(self):
        raise OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed." + _AUTOGRAPH_HINT)

    def __iter__(self):
        raise OperatorNotAllowedInGraphError(
            "Iterating over a symbolic `tf.Tensor` is not allowed." + _AUTOGRAPH_HINT)

    def __len__(self):
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please call "
                        "`x.shape` rather than `len(x)` for shape information.")

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error may "
            "indicate that you're trying to pass a Tensor to a NumPy call, which is not supported.")

    @staticmethod
    def _override_operator(operator, func):
        """Installs `func` as Tensor's `operator` (done by the math and array op modules)."""
        setattr(Tensor, operator, func)

    def _as_node_def_input(self):
        return self._op._name if self._value_index == 0 else self.name


_ATTR_FIELDS = ("s", "i", "f", "b", "type", "shape", "tensor", "func")


def _attr_value_from_proto(x):
    """An AttrValue as TF's Operation.get_attr returns it."""
    if x.HasField("list"):
        for f in _ATTR_FIELDS:
            items = getattr(x.list, f)
            if items:
                return [_dtypes.as_dtype(t) for t in items] if f == "type" else list(items)
        return []
    if x.HasField("type"):
        return _dtypes.as_dtype(x.type)
    for f in _ATTR_FIELDS:
        if x.HasField(f):
            return getattr(x, f)
    return None


class Operation:
    """A node in the graph: an op type, input tensors, attributes, and output tensors."""

    __slots__ = ("_graph", "_name", "_type", "_inputs", "_outputs", "_control_inputs", "_attrs",
                 "_device", "_id", "_traceback", "_stack", "_op_def", "_control_outputs", "__weakref__")

    def __init__(self, graph, op_type, name, inputs, out_dtypes, attrs, control_inputs, device):
        self._graph = graph
        self._type = op_type
        self._name = name
        self._inputs = tuple(inputs)
        self._attrs = attrs
        self._control_inputs = list(control_inputs)
        self._control_outputs = []
        self._device = device
        self._op_def = registry.get_op_def(op_type)
        self._outputs = [Tensor(self, i, dt) for i, dt in enumerate(out_dtypes)]
        self._stack = _user_stack()
        self._traceback = next(((fn, ln) for fn, ln, _ in reversed(self._stack) if not fn.startswith("<")),
                               ("<unknown>", 0))
        self._id = None

    name = property(lambda self: self._name)
    type = property(lambda self: self._type)
    graph = property(lambda self: self._graph)
    outputs = property(lambda self: list(self._outputs))
    device = property(lambda self: self._device)
    control_inputs = property(lambda self: list(self._control_inputs))
    op_def = property(lambda self: self._op_def)

    @property
    def traceback(self):
        """The stack that created this op (tensorweave's frames left out), outermost first."""
        return traceback.StackSummary.from_list([(fn, ln, name, None) for fn, ln, name in self._stack])

    @property
    def inputs(self):
        return tuple(self._inputs)  # (a tuple in TF 2.21)

    def values(self):
        return tuple(self._outputs)

    def get_attr(self, name):
        """The attr's value as TF returns it, read from the NodeDef: bytes for strings, a DType,
        a TensorShapeProto for shapes, a TensorProto for tensors, lists of those."""
        value = self._get_attr(name)
        proto = self.node_def.attr
        if name not in proto:
            return value        # (an attr that is never serialized)
        return _attr_value_from_proto(proto[name])

    def _get_attr(self, name):
        """The attr as our own code keeps it (str for strings, TensorShape, ndarray, ...)."""
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError(f"Operation '{self._name}' has no attr named '{name}'.") from None

    def _set_attr(self, name, value):
        self._attrs[name] = value

    @property
    def node_def(self):
        """This op's NodeDef protobuf (framework/graph_io.py)."""
        from .graph_io import node_def
        return node_def(self)

    def colocation_groups(self):
        cls = self._attrs.get("_class")
        groups = [c if isinstance(c, bytes) else c.encode() for c in (cls or ())]
        groups = [c for c in groups if c.startswith(b"loc:@")]
        return groups or [f"loc:@{self._name}".encode()]

    def _add_control_input(self, op):
        if op not in self._control_inputs:
            self._control_inputs.append(op)
            op._control_outputs.append(self)

    def run(self, feed_dict=None, session=None):
        """Runs this op in the default (or given) session."""
        from .graph_defaults import _run_using_default_session
        _run_using_default_session(self, feed_dict, self.graph, session)

    def _source(self):
        fn, line = self._traceback
        return f"{fn}:{line}"

    def __repr__(self):
        return f"<tf.Operation '{self._name}' type={self._type}>"

    def __str__(self):
        return str(self.node_def)
