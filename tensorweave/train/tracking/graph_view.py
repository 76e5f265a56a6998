"""The object graph behind object-based checkpoints: which objects an object depends on (its
named children), the breadth-first walk from the root, the checkpoint key of each variable and
the serialized object graph stored under `_CHECKPOINTABLE_OBJECT_GRAPH`.

Keys are TF's: the escaped local names on the shortest path from the root joined by "/", then
"/.ATTRIBUTES/VARIABLE_VALUE" ("model/layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE");
an optimizer slot is keyed "<variable path>/.OPTIMIZER_SLOT/<optimizer path>/<slot name>/...".

Trackable here means: a variable, a tf.Module, a tf.train.Checkpoint, a tf.train.Optimizer, a
keras / tf.layers layer or model, or a list/tuple/dict holding one of those. The object graph is
stored as JSON (TF stores a TrackableObjectGraph proto); it records the same nodes, children,
attributes and slot variables.
"""

import json

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
VARIABLE_VALUE = "VARIABLE_VALUE"
_ATTRIBUTES = ".ATTRIBUTES"
_OPTIMIZER_SLOT = ".OPTIMIZER_SLOT"


def escape(name):
    """A local name as TF escapes it in keys: "." -> "..", "/" -> ".S"."""
    return name.replace(".", "..").replace("/", ".S")


def prefix_from_path(path):
    return "/".join(escape(name) for name, _ in path)


def variable_key(path):
    return f"{prefix_from_path(path)}/{_ATTRIBUTES}/{VARIABLE_VALUE}"


def slot_key(variable_path, optimizer_path, slot_name):
    return (f"{prefix_from_path(variable_path)}/{_OPTIMIZER_SLOT}/{prefix_from_path(optimizer_path)}/"
            f"{escape(slot_name)}/{_ATTRIBUTES}/{VARIABLE_VALUE}")


# -- what is trackable ------------------------------------------------------------------------------

def is_variable(obj):
    from ...ops.variables import Variable
    return isinstance(obj, Variable)


def is_optimizer(obj):
    """A tf.train optimizer or a keras optimizer (both keep slots per variable)."""
    from ..optimizer import Optimizer
    return isinstance(obj, Optimizer) or _is_keras_optimizer(obj)


def get_slot(opt, var, slot_name):
    try:
        return opt.get_slot(var, slot_name)
    except KeyError:
        return None


def _is_layer(obj):
    from ...layers.base import Layer
    return isinstance(obj, Layer)


def _is_keras_optimizer(obj):
    from ...keras.optimizers import Optimizer
    return isinstance(obj, Optimizer)


def is_trackable_object(obj):
    """A trackable object other than a container (list/tuple/dict)."""
    from ...module import Module
    return (is_variable(obj) or isinstance(obj, Module) or is_optimizer(obj) or _is_layer(obj)
            or hasattr(obj, "_checkpoint_children"))


def is_trackable(obj):
    """Whether `obj` (or, for a list/tuple/dict, something in it) would be checkpointed."""
    if isinstance(obj, (list, tuple)):
        return any(is_trackable(x) for x in obj)
    if isinstance(obj, dict):
        return any(is_trackable(x) for x in obj.values())
    return is_trackable_object(obj)


def check_supported(obj, name):
    """Raises NotImplementedError for state tensorweave cannot checkpoint by object yet."""
    from ...ops.partitioned_variables import PartitionedVariable
    if isinstance(obj, PartitionedVariable):
        raise NotImplementedError(f"Checkpointing a partitioned variable ({name}) by object is not supported "
                                  "by tensorweave yet; use tf.train.Saver")


# -- children ---------------------------------------------------------------------------------------

def _attribute_children(obj, skip_private):
    out = []
    for name, value in vars(obj).items():
        if name.startswith("_self_") or (skip_private and name.startswith("_")):
            continue
        if is_trackable(value):
            out.append((name, value))
    return out


def _local_weight_name(v):
    return v.op.name.rsplit("/", 1)[-1]


def _layer_children(layer):
    from ...keras.models import Model, Sequential
    out, seen = [], set()
    for v in list(layer.__dict__.get("_trainable_weights", [])) + list(layer.__dict__.get("_non_trainable_weights", [])):
        if id(v) not in seen:
            seen.add(id(v))
            out.append((_local_weight_name(v), v))
    if isinstance(layer, Model) and (isinstance(layer, Sequential) or getattr(layer, "_is_graph_network", False)):
        # Functional models and Sequential name their layers by position, as TF's keras does.
        k = 0
        for i, sub in enumerate(layer.layers):
            if sub.weights:
                out.append((f"layer_with_weights-{k}", sub))
                k += 1
            out.append((f"layer-{i}", sub))
        opt = layer.__dict__.get("optimizer")
        if opt is not None and is_trackable(opt):
            out.append(("optimizer", opt))  # a compiled model depends on its optimizer
        return out
    out.extend((n, c) for n, c in _attribute_children(layer, skip_private=True)
               if id(c) not in seen and not _is_metric(c))
    return out


def _is_metric(obj):
    from ...keras.metrics import Metric
    return isinstance(obj, Metric)


def _optimizer_children(opt):
    from ...framework.graph import get_default_graph
    if _is_keras_optimizer(opt):
        # OptimizerV2: its step counter "iter" and one variable per numeric hyperparameter.
        out = [("iter", opt._iterations)] if opt._iterations is not None else []
        return out + sorted(opt._hyper_vars.items())
    graph = get_default_graph()
    return sorted(((name, v) for (name, g), v in opt._non_slot_dict.items() if g is graph), key=lambda x: x[0])


def children(obj):
    """[(local name, child)] of a trackable object, in TF's order."""
    if hasattr(obj, "_checkpoint_children"):
        return obj._checkpoint_children()
    if is_variable(obj):
        return []
    if is_optimizer(obj):
        return _optimizer_children(obj)
    if _is_layer(obj):
        return _layer_children(obj)
    if isinstance(obj, (list, tuple)):
        return [(str(i), c) for i, c in enumerate(obj) if is_trackable(c)]
    if isinstance(obj, dict):
        return [(str(k), c) for k, c in obj.items() if is_trackable(c)]
    return _attribute_children(obj, skip_private=False)


def _ident(obj):
    # Lists and dicts are compared by identity, like every other object.
    return id(obj)


# -- the walk ---------------------------------------------------------------------------------------

class ObjectGraph:
    """The breadth-first walk from `root`: `objects` (in node order), `paths` (node -> tuple of
    (name, object) from the root), `children` per node, and the optimizers' slot variables."""

    def __init__(self, root):
        self.root = root
        self.objects = [root]
        self.paths = {_ident(root): ()}
        self.children = []
        i = 0
        while i < len(self.objects):
            obj = self.objects[i]
            path = self.paths[_ident(obj)]
            kids = children(obj)
            self.children.append(kids)
            for name, child in kids:
                check_supported(child, name)
                if _ident(child) not in self.paths:
                    self.paths[_ident(child)] = path + ((name, child),)
                    self.objects.append(child)
            i += 1
        self.node_ids = {_ident(o): n for n, o in enumerate(self.objects)}
        self.slots = []  # (optimizer node, slot name, original variable node, slot variable node)
        for opt_id, opt in enumerate(list(self.objects)):
            if not is_optimizer(opt):
                continue
            for slot_name in opt.get_slot_names():
                for var_id, var in enumerate(list(self.objects)):
                    if not is_variable(var):
                        continue
                    slot = get_slot(opt, var, slot_name)
                    if slot is None:
                        continue
                    self.objects.append(slot)
                    self.children.append([])
                    slot_id = len(self.objects) - 1
                    self.node_ids.setdefault(_ident(slot), slot_id)
                    self.slots.append((opt_id, slot_name, var_id, slot_id))

    def keys(self):
        """{node id: checkpoint key} for every variable node."""
        out = {}
        for n, obj in enumerate(self.objects):
            if is_variable(obj) and n < len(self.objects) - len(self.slots):
                out[n] = variable_key(self.paths[_ident(obj)])
        for opt_id, slot_name, var_id, slot_id in self.slots:
            out[slot_id] = slot_key(self.paths[_ident(self.objects[var_id])],
                                    self.paths[_ident(self.objects[opt_id])], slot_name)
        return out

    def serialize(self):
        """The object graph as bytes (JSON: nodes with children, attributes, slot variables)."""
        keys = self.keys()
        nodes = []
        for n, obj in enumerate(self.objects):
            node = {"children": [[name, self.node_ids[_ident(c)]] for name, c in self.children[n]],
                    "attributes": [], "slot_variables": []}
            if n in keys:
                node["attributes"].append({"name": VARIABLE_VALUE, "full_name": obj.op.name,
                                           "checkpoint_key": keys[n]})
            nodes.append(node)
        for opt_id, slot_name, var_id, slot_id in self.slots:
            nodes[opt_id]["slot_variables"].append([var_id, slot_name, slot_id])
        return json.dumps({"nodes": nodes}, sort_keys=True).encode()


def parse(data):
    """The node list of a serialized object graph."""
    if isinstance(data, str):
        data = data.encode()
    return json.loads(bytes(data).decode())["nodes"]


def node_names(nodes):
    """{node id: "(root).a.b"} along the first path to each node (for error messages)."""
    names = {0: "(root)"}
    queue = [0]
    while queue:
        n = queue.pop(0)
        for name, c in nodes[n]["children"]:
            if c not in names:
                names[c] = f"{names[n]}.{name}"
                queue.append(c)
        for orig, slot_name, slot in nodes[n]["slot_variables"]:
            names.setdefault(slot, f"{names[n]}'s state '{slot_name}' for {names.get(orig, orig)}")
    return names
