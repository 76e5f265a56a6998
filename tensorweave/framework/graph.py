"""The dataflow graph: `Graph`, `Operation`, `Tensor`, scopes, control dependencies, collections.

A Graph is append-only: an Operation never changes after it is made (so a compiled plan for a set
of fetches stays valid as the graph grows). Building an op runs its shape function at once, so a
shape error surfaces at the user's line that made the op.
"""

import contextlib
import re
import threading

from . import registry
from .tensor_shape import as_shape, _begin_input_reads, _input_reads_summary

_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


from .graph_elements import (  # noqa: F401  (re-exported: the graph's public names live here)
    InaccessibleTensorError, Operation, OperatorNotAllowedInGraphError, Reference, Tensor,
    _attr_summary, _attr_value_from_proto, _shape_summary, _user_stack,
)


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
        self._internal_names = 0    # > 0: the runtime's own ops ("_send/...") may be added
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

    @contextlib.contextmanager
    def _allowing_internal_names(self):
        """Lets the runtime add ops whose names start with "_" (a partition's _send/_recv nodes),
        which TF reserves and refuses in user graphs."""
        self._internal_names += 1
        try:
            yield
        finally:
            self._internal_names -= 1

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
        if isinstance(name, bytes):
            name = name.decode("utf-8")
        elif not isinstance(name, str):        # (TF's name-scope regex match)
            raise TypeError(f"expected string or bytes-like object, got '{type(name).__name__}'")
        with self._lock:
            name = self.unique_name(name, mark_as_used=True) if not name.endswith("/") else name[:-1]
            if not _VALID_OP_NAME.match(name) and not (self._internal_names and name.startswith("_")):
                raise ValueError(f"`{name}` is not a valid node name. Accepted names conform to "
                                 f"Regex /{_VALID_OP_NAME!r}/")
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


# The default-graph stack and the conveniences on it; they need Graph, so they come last.
from .graph_defaults import (  # noqa: E402,F401
    _default_graph_stack, _default_session_stack, _DefaultStack, _DefaultGraphStack, get_default_graph, reset_default_graph,
    get_default_session, _run_using_default_session, name_scope, _NameScope, _graph_from_values,
    _graph_element, control_dependencies, device, colocate_with, add_to_collection,
    add_to_collections, get_collection, get_collection_ref, op_scope,
)

__all__ = ["Tensor", "Operation", "Graph", "GraphKeys", "get_default_graph", "reset_default_graph",
           "get_default_session", "name_scope", "control_dependencies", "device", "colocate_with",
           "add_to_collection", "add_to_collections", "get_collection", "get_collection_ref",
           "OperatorNotAllowedInGraphError"]
