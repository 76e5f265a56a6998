"""The dataflow graph: `Graph`, `Operation`, `Tensor`, scopes, control dependencies, collections.

A Graph is append-only: an Operation never changes after it is made (so a compiled plan for a set
of fetches stays valid as the graph grows). Building an op runs its shape function at once, so a
shape error surfaces at the user's line that made the op.
"""

import contextlib
import os
import re
import sys
import threading
import traceback

from . import dtypes as _dtypes
from . import registry
from .tensor_shape import (
    TensorShape, as_shape, inference_merge_error, unknown_shape, _begin_input_reads, _input_reads_summary,
)

# TF 2.21's advice appended to the graph-mode bool/iteration errors.
_AUTOGRAPH_HINT = (
    " You can attempt the following resolutions to the problem: If you are running in Graph mode, use "
    "Eager execution mode or decorate this function with @tf.function. If you are using AutoGraph, you "
    "can try decorating this function with @tf.function. If that does not work, then you may be using an "
    "unsupported feature or your source code may not be visible to AutoGraph. See https://github.com/"
    "tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
    "#access-to-source-code for more information.")

_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")
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
        _run_using_default_session(self, feed_dict, self.graph, session)

    def _source(self):
        fn, line = self._traceback
        return f"{fn}:{line}"

    def __repr__(self):
        return f"<tf.Operation '{self._name}' type={self._type}>"

    def __str__(self):
        return str(self.node_def)


def _graph_mismatch(t, inputs, graph, name, op_type):
    """TF's _get_graph_from_inputs error: the stray input against the first one in `graph`."""
    first = next((x for x in inputs if isinstance(x, Tensor) and x._op._graph is graph), None)
    if first is None:
        return ValueError(f"Tensor {t!r} must be from the same graph as the op {name!r} "
                          f"({op_type}) being created.")
    return _different_graphs(t, t._op._graph, first, graph)


def _different_graphs(stray, stray_graph, first, first_graph):
    """TF's _get_graph_from_inputs message for `stray` against the `first` value's graph."""
    return ValueError(f"{stray} must be from the same graph as {first} "
                      f"(graphs are {stray_graph!r} and {first_graph!r}).")


class GraphKeys:
    """Standard collection names (`tf.GraphKeys`)."""
    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    VARIABLES = GLOBAL_VARIABLES


class _ControlDependencies:
    """One `control_dependencies` context: its ops, and the ops created inside it."""

    def __init__(self, control_inputs):
        self.control_inputs = control_inputs
        self.created = set()


class Graph:
    """A TensorFlow computation: Operations (nodes) and Tensors (edges), built append-only."""

    def __init__(self):
        self._lock = threading.RLock()
        self._ops_by_name = {}
        self._ops = []
        self._names_in_use = {}
        self._name_stack = ""
        self._collections = {}
        self._finalized = False
        self._seed = None
        self._control_stack = []
        self._device_stack = []
        self._colocation_stack = []
        self._gradient_override_map = {}
        self._variable_scope_store = None  # owned by ops/variable_scope
        self._building_function = False
        self._attr_scope = {}
        self._container = ""
        self._unfeedable_tensors = set()
        self._unfetchable_ops = set()

    # -- building ------------------------------------------------------------------------------
    @property
    def version(self):
        return len(self._ops)

    @property
    def building_function(self):
        """True for a function's graph (a tf.function / Dataset.map body)."""
        return self._building_function

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, value):
        self._seed = value

    @property
    def finalized(self):
        return self._finalized

    @property
    def _last_id(self):
        return len(self._ops)

    def finalize(self):
        """Makes the graph read-only: adding an op raises RuntimeError."""
        self._finalized = True

    def _unsafe_unfinalize(self):
        self._finalized = False

    def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None, attrs=None,
                  op_def=None, compute_shapes=True, compute_device=True):
        """Adds an op of type `op_type` with the given input tensors and output dtypes."""
        return self._create_op(op_type, inputs, dtypes or [], name=name or op_type,
                               attrs=dict(attrs or {}))

    def _create_op(self, op_type, inputs, out_dtypes, name, attrs=None, shapes=None):
        """Makes, names, places and shape-checks a new op. `name` is the un-uniquified base name.

        `shapes` (optional) gives static output shapes when the op has no shape function."""
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        for t in inputs:
            if not isinstance(t, Tensor):
                raise TypeError(f"Input to op {op_type} must be a Tensor, got {type(t).__name__}")
            if t._op._graph is not self:
                raise _graph_mismatch(t, inputs, self, name, op_type)
        with self._lock:
            name = self.unique_name(name, mark_as_used=True) if not name.endswith("/") else name[:-1]
            if name in self._ops_by_name:
                raise ValueError(f"Duplicate node name in graph: '{name}'")
            control = self._current_control_inputs(inputs)
            attrs = attrs if attrs is not None else {}
            explicit_class = "_class" in attrs
            if self._attr_scope:
                for key, value in self._attr_scope.items():   # (never overwrites, as in TF)
                    attrs.setdefault(key, value)
            if self._container and not attrs.get("container", True) and registry.get_op_def(op_type).stateful:
                attrs["container"] = self._container  # (TF fills only an empty container attr)
            if self._gradient_override_map and op_type in self._gradient_override_map:
                attrs["_gradient_op_type"] = self._gradient_override_map[op_type]
            if self._colocation_stack and not explicit_class:
                # TF: the union of the colocation groups of every op in the colocate_with stack,
                # over any `_class` an attr scope gave.
                groups = set()
                for c in self._colocation_stack:
                    groups.update(g.decode() for g in c.colocation_groups())
                attrs["_class"] = sorted(groups)
            op = Operation(self, op_type, name, inputs, out_dtypes, attrs, control, "")
            op._device = self._current_device(op)
            for c in self._colocation_stack:  # a colocated op takes its target's device (TF)
                if c._device:
                    op._device = c._device
            self._infer_shapes(op, shapes)
            op._id = len(self._ops)
            self._ops.append(op)
            self._ops_by_name[name] = op
            for t in inputs:
                t._consumers.append(op)
            for c in control:
                c._control_outputs.append(op)
            for ctl in self._control_stack:
                if ctl is not None:
                    ctl.created.add(op)
        return op

    def _infer_shapes(self, op, shapes):
        shape_fn = op._op_def.shape_fn
        if shape_fn is None:
            if shapes is not None:
                for t, s in zip(op._outputs, shapes):
                    t._shape = as_shape(s)
            return
        _begin_input_reads()
        try:
            out_shapes = shape_fn(op)
        except (ValueError, TypeError) as e:
            if getattr(e, "_no_node_context", False):  # raised outside TF's shape function proper
                raise
            inputs = ", ".join(t._as_node_def_input() for t in op._inputs)
            raise type(e)(f"{e} for '{{{{node {op._name}}}}} = {op._type}[{_attr_summary(op._attrs)}]({inputs})' "
                          f"with input shapes: {', '.join(_shape_summary(t._shape) for t in op._inputs)}"
                          f"{_input_reads_summary()}.") from None
        for t, s in zip(op._outputs, out_shapes):
            t._shape = as_shape(s)

    # -- names ---------------------------------------------------------------------------------
    def unique_name(self, name, mark_as_used=True):
        """`name` prefixed by the current name scope and made unique (`Add`, `Add_1`, ...)."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        key = name.lower()
        i = self._names_in_use.get(key, 0)
        if mark_as_used:
            self._names_in_use[key] = i + 1
        if i > 0:
            base = key
            while key in self._names_in_use:
                key = f"{base}_{i}"
                i += 1
            if mark_as_used:
                self._names_in_use[key] = 1
            name = f"{name}_{i - 1}"
        return name

    def get_name_scope(self):
        return self._name_stack

    @contextlib.contextmanager
    def name_scope(self, name):
        """Pushes a name scope; `name` ending in '/' re-enters an existing scope exactly."""
        if name:
            if isinstance(name, bytes):
                name = name.decode()
            if self._name_stack:
                if not _VALID_SCOPE_NAME.match(name):
                    raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match the "
                                     f"following pattern: {_VALID_SCOPE_NAME.pattern}")
            elif not _VALID_OP_NAME.match(name):
                raise ValueError(f"'{name}' is not a valid root scope name. A root scope name has to match "
                                 f"the following pattern: {_VALID_OP_NAME.pattern}")
        old = self._name_stack
        if not name:
            new, returned = "", ""
        elif name[-1] == "/":
            new, returned = name[:-1], name
        else:
            new = self.unique_name(name)
            returned = new + "/"
        self._name_stack = new
        try:
            yield returned
        finally:
            self._name_stack = old

    # -- lookup --------------------------------------------------------------------------------
    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Operation names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def get_tensor_by_name(self, name):
        if not isinstance(name, str):
            raise TypeError(f"Tensor names are strings (or similar), not {type(name).__name__}.")
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """Resolves a Tensor, Operation, or name ("x:0" tensor, "x" op) in this graph."""
        if allow_tensor and hasattr(obj, "_as_graph_element") and not isinstance(obj, (Tensor, Operation)):
            obj = obj._as_graph_element()
        types = ("Tensor" if allow_tensor else "") + (" or Operation" if allow_operation else "")
        if isinstance(obj, str):
            if ":" in obj and allow_tensor:
                try:
                    op_name, idx = obj.split(":")  # as TF: "a:0:0" is malformed, not missing
                    idx = int(idx)
                except ValueError:
                    raise ValueError(f"The name {obj!r} looks a like a Tensor name, but is not a valid one. "
                                     "Tensor names must be of the form \"<op_name>:<output_index>\".") from None
                op = self._ops_by_name.get(op_name)
                if op is None:
                    raise KeyError(f"The name {obj!r} refers to a Tensor which does not exist. The operation, "
                                   f"{op_name!r}, does not exist in the graph.")
                if idx >= len(op._outputs):
                    raise KeyError(f"The name {obj!r} refers to a Tensor which does not exist. The operation, "
                                   f"{op_name!r}, exists but only has {len(op._outputs)} outputs.")
                return op._outputs[idx]
            if ":" in obj:
                raise ValueError(f"Name {obj!r} appears to refer to a Tensor, not a {types.strip(' or')}.")
            if not allow_operation:
                if obj in self._ops_by_name:
                    raise ValueError(f"The name {obj!r} refers to an Operation, not a {types}. "
                                     f"Tensor names must be of the form \"<op_name>:<output_index>\".")
                raise ValueError(f"The name {obj!r} looks like an (invalid) Operation name, not a {types}. "
                                 "Tensor names must be of the form \"<op_name>:<output_index>\".")
            op = self._ops_by_name.get(obj)
            if op is None:
                raise KeyError(f"The name {obj!r} refers to an Operation not in the graph.")
            return op
        if isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError(f"Tensor {obj} is not an element of this graph.")
            return obj
        if isinstance(obj, Operation) and allow_operation:
            if obj._graph is not self:
                raise ValueError(f"Operation {obj} is not an element of this graph.")
            return obj
        raise TypeError(f"Can not convert a {type(obj).__name__} into a {types}.")

    # -- collections ---------------------------------------------------------------------------
    @property
    def collections(self):
        return list(self._collections)

    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        names = (names,) if isinstance(names, str) else set(names)
        for n in names:
            self.add_to_collection(n, value)

    def get_collection_ref(self, name):
        return self._collections.setdefault(name, [])

    def get_collection(self, name, scope=None):
        items = self._collections.get(name, [])
        if scope is None:
            return list(items)
        regex = re.compile(scope)
        out = []
        for item in items:
            try:
                if regex.match(item.name):
                    out.append(item)
            except AttributeError:
                pass
        return out

    def get_all_collection_keys(self):
        return [k for k in self._collections if isinstance(k, str)]

    def clear_collection(self, name):
        self._collections.pop(name, None)

    # -- control dependencies ------------------------------------------------------------------
    def control_dependencies(self, control_inputs):
        """Context in which new ops run only after `control_inputs` (None clears them)."""
        if control_inputs is None:
            return self._control_scope(None)
        ops = []
        current = {c for ctl in self._control_stack for c in ctl.control_inputs}
        for c in control_inputs:
            if getattr(c, "_is_resource_variable", False):
                c = c.op  # a resource variable: its handle op (an unread one: its update), never a read
            if hasattr(c, "_as_graph_element") and not isinstance(c, (Tensor, Operation)):
                c = c._as_graph_element()
            if isinstance(c, Tensor):
                c = c.op
            elif hasattr(c, "op") and isinstance(getattr(c, "op"), Operation) and not isinstance(c, Operation):
                c = c.op
            if not isinstance(c, Operation):
                raise TypeError(f"Can not convert a {type(c).__name__} into a Tensor or Operation.")
            if c not in ops and c not in current:
                ops.append(c)
                # TF 2.x marks each op used as a manual control input (a NodeDef attr users see).
                c._attrs["_has_manual_control_dependencies"] = True
        return self._control_scope(_ControlDependencies(ops))

    @contextlib.contextmanager
    def _control_scope(self, ctl):
        saved = None
        if ctl is None:
            saved, self._control_stack = self._control_stack, []
        else:
            self._control_stack.append(ctl)
        try:
            yield
        finally:
            if ctl is None:
                self._control_stack = saved
            else:
                self._control_stack.pop()

    def _current_control_inputs(self, inputs):
        input_ops = {t._op for t in inputs}
        result = []
        for ctl in self._control_stack:
            if any(op in ctl.created for op in input_ops):
                continue  # already ordered through an input made inside this context
            for c in ctl.control_inputs:
                if c not in input_ops and c not in result:
                    result.append(c)
        return result

    # -- devices and colocation ----------------------------------------------------------------
    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """Records a device request on the ops created inside (placement uses it)."""
        from .device import merge_device_function
        self._device_stack.append(merge_device_function(device_name_or_function))
        try:
            yield
        finally:
            self._device_stack.pop()

    def _current_device(self, op):
        # Innermost scope first (TF's order); outer string scopes fill in unset fields, a
        # tf.device(None) scope stops the outer ones.
        op._device = ""
        for fn in reversed(self._device_stack):
            if fn is None:
                break
            op._device = fn(op)
        return op._device

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Ops created inside get `_class = loc:@...` (the union of the colocation groups of the
        ops in the colocation stack) and that op's device; device scopes entered outside it do
        not apply inside (TF). `op=None` with ignore_existing=True clears the stack."""
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        if isinstance(op, Tensor):
            op = op.op
        elif op is not None and not isinstance(op, Operation):
            op = getattr(op, "op", op)
        saved_devices, self._device_stack = self._device_stack, []
        saved = self._colocation_stack
        self._colocation_stack = ([] if ignore_existing else list(saved)) + ([op] if op is not None else [])
        try:
            yield
        finally:
            self._colocation_stack = saved
            self._device_stack = saved_devices

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        for op_type, mapped in op_type_map.items():
            if not (isinstance(op_type, str) and isinstance(mapped, str)):
                raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        saved = dict(self._gradient_override_map)
        self._gradient_override_map.update(op_type_map)
        try:
            yield
        finally:
            self._gradient_override_map = saved

    @contextlib.contextmanager
    def container(self, container_name):
        """Context in which stateful ops (variables, queues, ...) with an empty `container` attr
        get `container_name`: their resources live in that container."""
        saved = self._container
        self._container = container_name
        try:
            yield self._container
        finally:
            self._container = saved

    # -- default graph -------------------------------------------------------------------------
    def as_default(self):
        """Context that makes this graph the default graph."""
        return _default_graph_stack.get_controller(self)

    def as_graph_def(self, from_version=None, add_shapes=False):
        """This graph as a GraphDef protobuf (serialization lives in framework/graph_io.py)."""
        from .graph_io import as_graph_def
        return as_graph_def(self, from_version, add_shapes)

    def prevent_feeding(self, tensor):
        """Marks `tensor` as not feedable: `Session.run` refuses it as a feed_dict key."""
        self._unfeedable_tensors.add(tensor)

    def prevent_fetching(self, op):
        """Marks `op` (and so its outputs) as not fetchable."""
        self._unfetchable_ops.add(op)

    def is_feedable(self, tensor):
        """False if `prevent_feeding(tensor)` was called."""
        return tensor not in self._unfeedable_tensors

    def is_fetchable(self, tensor_or_op):
        """False if the op (a tensor's op) was passed to `prevent_fetching`."""
        op = tensor_or_op.op if isinstance(tensor_or_op, Tensor) else tensor_or_op
        return op not in self._unfetchable_ops

    @property
    def graph_def_versions(self):
        """The `VersionDef` (producer, min_consumer) of this graph's GraphDef."""
        from .graph_io import GRAPH_DEF_VERSION, GRAPH_DEF_VERSION_MIN_CONSUMER
        from ..protos.versions_pb2 import VersionDef
        return VersionDef(producer=GRAPH_DEF_VERSION, min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER)

    def __repr__(self):
        return f"<tensorweave.Graph object at {id(self):#x}>"


class _DefaultStack(threading.local):
    def __init__(self):
        self.stack = []

    @contextlib.contextmanager
    def get_controller(self, obj):
        self.stack.append(obj)
        try:
            yield obj
        finally:
            if self.stack and self.stack[-1] is obj:
                self.stack.pop()
            elif obj in self.stack:
                self.stack.remove(obj)


class _DefaultGraphStack(_DefaultStack):
    _global_default = None

    def get_default(self):
        if self.stack:
            return self.stack[-1]
        if _DefaultGraphStack._global_default is None:
            _DefaultGraphStack._global_default = Graph()
        return _DefaultGraphStack._global_default

    def reset(self):
        if self.stack:
            raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you "
                                 "need a cleared graph, exit the nesting and create a new graph.")
        _DefaultGraphStack._global_default = None


_default_graph_stack = _DefaultGraphStack()
_default_session_stack = _DefaultStack()


def get_default_graph():
    """The graph new ops go into (the innermost `as_default`, else a global one)."""
    return _default_graph_stack.get_default()


def reset_default_graph():
    """Clears the global default graph (error inside a `with g.as_default()` block)."""
    _default_graph_stack.reset()


def get_default_session():
    stack = _default_session_stack.stack
    return stack[-1] if stack else None


def _run_using_default_session(fetch, feed_dict, graph, session):
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
        if session.graph is not graph:
            raise ValueError("Cannot use the default session to evaluate tensor: the tensor's graph is "
                             "different from the session's graph. Pass an explicit session to "
                             "`eval(session=sess)`.")
    elif session.graph is not graph:
        raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph is different "
                         "from the session's graph.")
    return session.run(fetch, feed_dict)


# -- module-level conveniences ----------------------------------------------------------------

def name_scope(name, default_name=None, values=None):
    """`tf.name_scope(name, default_name=None, values=None)` (TF1 signature)."""
    n = name if name is not None else default_name
    g = _graph_from_values(values)
    if n is None and default_name is None and name is None and values is not None:
        raise ValueError(f"At least one of name ({name}) and default_name ({default_name}) must be provided.")
    return _NameScope(g, n)


class _NameScope:
    def __init__(self, graph, name):
        self._graph = graph
        self._name = name
        self._cm = None

    def __enter__(self):
        self._cm = self._graph.as_default()
        self._cm.__enter__()
        self._scope = self._graph.name_scope(self._name)
        return self._scope.__enter__()

    def __exit__(self, *exc):
        self._scope.__exit__(*exc)
        self._cm.__exit__(*exc)
        return False


def _graph_from_values(values):
    default = get_default_graph()
    if default._building_function:
        return default  # a traced function (func_graph.py) captures values of enclosing graphs
    first = None  # TF's _get_graph_from_inputs: every value must be from one graph
    for v in values or ():
        g = getattr(v, "graph", None)
        if not isinstance(g, Graph):
            continue
        if first is None:
            first = v
        elif g is not first.graph:
            raise _different_graphs(_graph_element(v), g, _graph_element(first), first.graph)
    return first.graph if first is not None else default


def _graph_element(v):
    if not isinstance(v, (Tensor, Operation)) and hasattr(v, "_as_graph_element"):
        return v._as_graph_element()
    return v


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function):
    return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


def op_scope(values, name, default_name=None):
    return name_scope(name, default_name, values)


__all__ = ["Tensor", "Operation", "Graph", "GraphKeys", "get_default_graph", "reset_default_graph",
           "get_default_session", "name_scope", "control_dependencies", "device", "colocate_with",
           "add_to_collection", "add_to_collections", "get_collection", "get_collection_ref",
           "OperatorNotAllowedInGraphError"]
