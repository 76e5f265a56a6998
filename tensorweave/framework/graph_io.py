"""Graph serialization: Graph <-> GraphDef protos (TensorFlow's wire format).

`as_graph_def(graph)` writes each Operation as a NodeDef with TensorFlow's op type and attr names;
attribute values become AttrValues (DType -> DataType enum, TensorShape -> TensorShapeProto,
NumPy arrays -> TensorProto, Python scalars/strings/lists as TF stores them). TensorBoard and
other GraphDef readers can open the result.

`import_graph_def(graph_def, ...)` rebuilds ops from NodeDefs. A NodeDef does not record its
outputs' dtypes, so they are inferred from the attrs the way TF's OpDefs declare them (`T`,
`dtype`, `DstT`, `out_type`, `Tout`, ...; a table for multi-output ops). When that inference would
be wrong for one of our ops, `as_graph_def` records the true dtypes in a private attr
`_output_types` (attrs starting with "_" are ignored by TF's importer), so our own graphs always
round-trip exactly.
"""

import os

import numpy as np

from . import dtypes as _dtypes
from . import registry
from .tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["as_graph_def", "import_graph_def", "write_graph", "node_def", "make_tensor_proto",
           "make_ndarray", "attr_to_proto", "attr_from_proto", "shape_to_proto", "shape_from_proto",
           "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER"]

# TensorFlow 1.15's graph version numbers (what TF1 programs' GraphDefs carry).
GRAPH_DEF_VERSION = 134
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
_OUTPUT_TYPES = "_output_types"
_UNSERIALIZABLE = "<unserializable "


def _pb():
    from ..protos import attr_value_pb2, graph_pb2, node_def_pb2, tensor_pb2, tensor_shape_pb2
    return attr_value_pb2, graph_pb2, node_def_pb2, tensor_pb2, tensor_shape_pb2


# -- shapes and tensors -----------------------------------------------------------------------

def shape_to_proto(shape):
    from ..protos.tensor_shape_pb2 import TensorShapeProto
    shape = as_shape(shape)
    if shape.ndims is None:
        return TensorShapeProto(unknown_rank=True)
    return TensorShapeProto(dim=[TensorShapeProto.Dim(size=-1 if d is None else d) for d in shape.as_list()])


def shape_from_proto(proto):
    if proto.unknown_rank:
        return unknown_shape()
    return TensorShape([None if d.size < 0 else d.size for d in proto.dim])


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A TensorProto holding `values` (`tf.make_tensor_proto`): numeric data as little-endian
    `tensor_content` bytes, strings as `string_val`."""
    from ..protos.tensor_pb2 import TensorProto
    if isinstance(values, TensorProto):
        return values
    dt = _dtypes.as_dtype(dtype).base_dtype if dtype is not None else None
    if dt is _dtypes.string or (dt is None and _is_string_like(values)):
        arr = np.asarray(values, dtype=object)
        dt = _dtypes.string
    else:
        arr = np.asarray(values, dtype=dt.as_numpy_dtype if dt is not None else None)
        if dt is None:
            if arr.dtype == np.float64 and not isinstance(values, np.ndarray):
                arr = arr.astype(np.float32)
            elif arr.dtype == np.int64 and not isinstance(values, np.ndarray) \
                    and (arr.size == 0 or (arr.min() >= -2**31 and arr.max() < 2**31)):
                arr = arr.astype(np.int32)
            dt = _dtypes.as_dtype(arr.dtype)
    if shape is not None:
        shape = [int(d) for d in shape]
        if verify_shape and list(arr.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, got {arr.shape}.")
        if arr.size == 1 and int(np.prod(shape)) != 1:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif allow_broadcast:
            arr = np.broadcast_to(arr, shape)
        arr = arr.reshape(shape)
    proto = TensorProto(dtype=dt.as_datatype_enum, tensor_shape=shape_to_proto(TensorShape(arr.shape)))
    if dt is _dtypes.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode() for v in arr.ravel())
    else:
        proto.tensor_content = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()
    return proto


def _is_string_like(values):
    if isinstance(values, (str, bytes)):
        return True
    if isinstance(values, np.ndarray):
        return values.dtype.kind in "OSU"
    if isinstance(values, (list, tuple)) and values:
        return _is_string_like(values[0])
    return False


_VAL_FIELDS = {
    "float32": "float_val", "float64": "double_val", "int32": "int_val", "int16": "int_val",
    "int8": "int_val", "uint8": "int_val", "uint16": "int_val", "int64": "int64_val",
    "bool": "bool_val", "uint32": "uint32_val", "uint64": "uint64_val", "float16": "half_val",
    "complex64": "scomplex_val", "complex128": "dcomplex_val",
}


def make_ndarray(tensor):
    """The NumPy array a TensorProto holds (`tf.make_ndarray`)."""
    dt = _dtypes.as_dtype(tensor.dtype).base_dtype
    shape = [d.size for d in tensor.tensor_shape.dim]
    n = int(np.prod(shape)) if shape else 1
    if dt is _dtypes.string:
        vals = list(tensor.string_val)
        arr = np.empty(len(vals), dtype=object)
        arr[:] = vals
    elif tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content, dtype=np.dtype(dt.as_numpy_dtype).newbyteorder("<")) \
            .astype(dt.as_numpy_dtype).reshape(shape)
    else:
        field = _VAL_FIELDS.get(dt.name)
        if field is None:
            raise TypeError(f"Unsupported tensor type: {dt.name}")
        vals = list(getattr(tensor, field))
        if dt is _dtypes.float16:
            arr = np.array(vals, dtype=np.uint16).view(np.float16)
        elif dt.is_complex:
            v = np.array(vals, dtype=np.float64)
            arr = (v[0::2] + 1j * v[1::2]).astype(dt.as_numpy_dtype)
        else:
            arr = np.array(vals, dtype=dt.as_numpy_dtype)
    if arr.size == n:
        return arr.reshape(shape)
    if arr.size == 0:
        return np.zeros(shape, dtype=dt.as_numpy_dtype if dt is not _dtypes.string else object) \
            if dt is not _dtypes.string else np.full(shape, b"", dtype=object)
    # TF's compact form: the last value repeats to fill the shape.
    out = np.empty(n, dtype=arr.dtype)
    out[:arr.size] = arr
    out[arr.size:] = arr[-1]
    return out.reshape(shape)


# -- attributes -------------------------------------------------------------------------------

def attr_to_proto(value):
    """An AttrValue for a Python attribute value of one of our ops."""
    from ..protos.attr_value_pb2 import AttrValue
    if value is None:
        return AttrValue()
    if isinstance(value, _dtypes.DType):
        return AttrValue(type=value.as_datatype_enum)
    if isinstance(value, TensorShape):
        return AttrValue(shape=shape_to_proto(value))
    if isinstance(value, (bool, np.bool_)):
        return AttrValue(b=bool(value))
    if isinstance(value, (int, np.integer)):
        return AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return AttrValue(f=float(value))
    if isinstance(value, str):
        return AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, np.ndarray):
        return AttrValue(tensor=make_tensor_proto(value, dtype=_dtypes.as_dtype(value.dtype)))
    if isinstance(value, (list, tuple)):
        lv = AttrValue.ListValue()
        items = list(value)
        if all(isinstance(x, _dtypes.DType) for x in items):
            lv.type.extend(x.as_datatype_enum for x in items)
        elif all(isinstance(x, (bool, np.bool_)) for x in items):
            lv.b.extend(bool(x) for x in items)
        elif all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in items):
            lv.i.extend(int(x) for x in items)
        elif all(isinstance(x, (int, float, np.integer, np.floating)) for x in items):
            lv.f.extend(float(x) for x in items)
        elif all(isinstance(x, (str, bytes)) for x in items):
            lv.s.extend(x.encode() if isinstance(x, str) else x for x in items)
        elif all(isinstance(x, TensorShape) or x is None for x in items):
            lv.shape.extend(shape_to_proto(unknown_shape() if x is None else x) for x in items)
        elif all(isinstance(x, np.ndarray) for x in items):
            lv.tensor.extend(make_tensor_proto(x, dtype=_dtypes.as_dtype(x.dtype)) for x in items)
        else:
            return AttrValue(placeholder=f"{_UNSERIALIZABLE}{type(value).__name__}>")
        return AttrValue(list=lv)
    return AttrValue(placeholder=f"{_UNSERIALIZABLE}{type(value).__name__}>")


def _decode(b):
    try:
        return b.decode()
    except UnicodeDecodeError:
        return b


def attr_from_proto(attr):
    """The Python value of an AttrValue (strings decoded to str when they are UTF-8)."""
    kind = attr.WhichOneof("value")
    if kind is None:
        return None
    if kind == "type":
        return _dtypes.as_dtype(attr.type)
    if kind == "shape":
        return shape_from_proto(attr.shape)
    if kind == "s":
        return _decode(attr.s)
    if kind in ("i", "b"):
        return getattr(attr, kind)
    if kind == "f":
        return float(np.float32(attr.f))
    if kind == "tensor":
        return make_ndarray(attr.tensor)
    if kind == "placeholder":
        return attr.placeholder
    if kind == "func":
        return {"name": attr.func.name, "attr": {k: attr_from_proto(v) for k, v in attr.func.attr.items()}}
    lv = attr.list
    if lv.type:
        return [_dtypes.as_dtype(t) for t in lv.type]
    if lv.i:
        return list(lv.i)
    if lv.f:
        return [float(np.float32(x)) for x in lv.f]
    if lv.s:
        return [_decode(x) for x in lv.s]
    if lv.b:
        return list(lv.b)
    if lv.shape:
        return [shape_from_proto(s) for s in lv.shape]
    if lv.tensor:
        return [make_ndarray(t) for t in lv.tensor]
    return []


# -- export -----------------------------------------------------------------------------------

def node_def(op, add_shapes=False):
    """The NodeDef proto of Operation `op`."""
    from ..protos.node_def_pb2 import NodeDef
    nd = NodeDef(name=op._name, op=op._type, device=op._device or "")
    nd.input.extend(t._as_node_def_input() for t in op._inputs)
    nd.input.extend(f"^{c._name}" for c in op._control_inputs)
    for k, v in op._attrs.items():
        nd.attr[k].CopyFrom(attr_to_proto(v))
    actual = [t._dtype for t in op._outputs]
    if _OUTPUT_TYPES not in op._attrs:
        try:
            inferred = infer_output_dtypes(op._type, op._attrs, [t._dtype for t in op._inputs])
        except Exception:  # noqa: BLE001  (an unexpected attr layout: record the truth)
            inferred = None
        if inferred != actual:
            nd.attr[_OUTPUT_TYPES].CopyFrom(attr_to_proto(actual) if actual else _empty_list())
    if add_shapes or (op._op_def.shape_fn is None and op._outputs):
        if "_output_shapes" not in op._attrs:
            nd.attr["_output_shapes"].CopyFrom(attr_to_proto([t._shape for t in op._outputs])
                                               if op._outputs else _empty_list())
    return nd


def _empty_list():
    from ..protos.attr_value_pb2 import AttrValue
    return AttrValue(list=AttrValue.ListValue())


def as_graph_def(graph, from_version=None, add_shapes=False):
    """The GraphDef of `graph` (`Graph.as_graph_def`): ops added after op number `from_version`
    only, when given; `add_shapes` adds each node's `_output_shapes` attr."""
    from ..protos.graph_pb2 import GraphDef
    from ..protos.versions_pb2 import VersionDef
    gd = GraphDef(versions=VersionDef(producer=GRAPH_DEF_VERSION, min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER))
    with graph._lock:
        ops = list(graph._ops)
    start = from_version or 0
    gd.node.extend(node_def(op, add_shapes) for op in ops[start:])
    return gd


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Writes a graph (or GraphDef) to logdir/name, as text (`as_text`) or binary; returns the
    path (`tf.train.write_graph` / `tf.io.write_graph`)."""
    from google.protobuf import text_format
    gd = graph_or_graph_def
    if hasattr(gd, "as_graph_def") and not hasattr(gd, "node"):
        gd = gd.as_graph_def()
    if logdir and not os.path.isdir(logdir):
        os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    data = text_format.MessageToString(gd).encode() if as_text else gd.SerializeToString()
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return path


# -- output dtypes from attrs -----------------------------------------------------------------

def _ref(dt):
    return dt._as_ref


def _base(dtypes):
    return [d.base_dtype for d in dtypes]


# op type -> fn(attrs, input dtypes) -> output dtypes, where the generic rules below would be wrong.
_OUTPUTS = {
    "NoOp": lambda a, i: [],
    "Assert": lambda a, i: [],
    "SaveV2": lambda a, i: [],
    "Save": lambda a, i: [],
    "SaveSlices": lambda a, i: [],
    "MergeV2Checkpoints": lambda a, i: [],
    "AssertVariablesInitialized": lambda a, i: [],
    "RestoreV2": lambda a, i: list(a["dtypes"]),
    "VariableV2": lambda a, i: [_ref(a["dtype"])],
    "Variable": lambda a, i: [_ref(a["dtype"])],
    "Assign": lambda a, i: [i[0]],
    "AssignAdd": lambda a, i: [i[0]],
    "AssignSub": lambda a, i: [i[0]],
    "IsVariableInitialized": lambda a, i: [_dtypes.bool_],
    "Unpack": lambda a, i: [a["T"]] * a["num"],
    "Split": lambda a, i: [a["T"]] * a["num_split"],
    "SplitV": lambda a, i: [a["T"]] * a["num_split"],
    "IdentityN": lambda a, i: list(a["T"]),
    "ShapeN": lambda a, i: [a["out_type"]] * a["N"],
    "Unique": lambda a, i: [a["T"], a["out_idx"]],
    "ListDiff": lambda a, i: [a["T"], a["out_idx"]],
    "TopKV2": lambda a, i: [a["T"], _dtypes.int32],
    "MaxPoolWithArgmax": lambda a, i: [a["T"], a["Targmax"]],
    "BroadcastGradientArgs": lambda a, i: [a["T"], a["T"]],
    "SoftmaxCrossEntropyWithLogits": lambda a, i: [a["T"], a["T"]],
    "SparseSoftmaxCrossEntropyWithLogits": lambda a, i: [a["T"], a["T"]],
    "ConcatOffset": lambda a, i: [_dtypes.int32] * a["N"],
    "Where": lambda a, i: [_dtypes.int64],
    "CountUpTo": lambda a, i: [a["T"]],
    "ReportUninitialized": lambda a, i: [_dtypes.string],
    "ShardedFilename": lambda a, i: [_dtypes.string],
    "StringJoin": lambda a, i: [_dtypes.string],
    "Shape": lambda a, i: [a.get("out_type", _dtypes.int32)],
    "Size": lambda a, i: [a.get("out_type", _dtypes.int32)],
    "Rank": lambda a, i: [_dtypes.int32],
    "BiasAddGrad": lambda a, i: [a["T"]],
}

_BOOL_OUT = {"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd",
             "LogicalOr", "LogicalNot", "IsNan", "IsInf", "IsFinite", "ApproximateEqual", "InTopK",
             "InTopKV2"}

_ATTR_ORDER = ("Tout", "out_type", "DstT", "dtype", "output_type", "T")


def infer_output_dtypes(op_type, attrs, input_dtypes):
    """The output dtypes of an op of `op_type` with `attrs`, as TF's OpDef declares them."""
    if _OUTPUT_TYPES in attrs:
        return list(attrs[_OUTPUT_TYPES])
    fn = _OUTPUTS.get(op_type)
    if fn is not None:
        return list(fn(attrs, list(input_dtypes)))
    if op_type in _BOOL_OUT:
        return [_dtypes.bool_]
    if op_type.startswith(("Apply", "SparseApply", "Scatter")) and input_dtypes:
        return [input_dtypes[0]]  # the updated variable's reference
    for key in _ATTR_ORDER:
        v = attrs.get(key)
        if isinstance(v, _dtypes.DType):
            return [v.base_dtype]
        if key == "Tout" and isinstance(v, list):
            return list(v)
    if input_dtypes:
        return [input_dtypes[0].base_dtype]
    return []


# -- import -----------------------------------------------------------------------------------

def _coerce_graph_def(graph_def):
    from ..protos.graph_pb2 import GraphDef
    if isinstance(graph_def, GraphDef):
        return graph_def
    if isinstance(graph_def, (bytes, bytearray)):
        return GraphDef.FromString(bytes(graph_def))
    if hasattr(graph_def, "SerializeToString"):  # a GraphDef of another protobuf package (e.g. TF's)
        return GraphDef.FromString(graph_def.SerializeToString())
    raise TypeError("graph_def must be a GraphDef proto.")


def _parse_input(name):
    """'x' -> ('x', 0, False); 'x:1' -> ('x', 1, False); '^x' -> ('x', -1, True)."""
    if name.startswith("^"):
        return name[1:], -1, True
    op, sep, idx = name.rpartition(":")
    if sep and idx.isdigit():
        return op, int(idx), False
    return name, 0, False


def _canonical(name):
    if name.startswith("^"):
        return name
    op, idx, _ = _parse_input(name)
    return f"{op}:{idx}"


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Imports a GraphDef into the default graph (`tf.import_graph_def`).

    Node names get the prefix `name` ("import" by default; "" for none). `input_map` maps tensor
    names of `graph_def` ("x:0", or "^x" for a control input) to existing Tensors/Operations;
    `return_elements` names ops ("x") or tensors ("x:0") of `graph_def` to return."""
    from . import graph as _graph
    from .errors import InvalidArgumentError
    gd = _coerce_graph_def(graph_def)
    g = _graph.get_default_graph()
    input_map = dict(input_map or {})
    if not all(isinstance(k, str) for k in input_map):
        raise TypeError("input_map must be a dictionary mapping strings to Tensor objects.")
    mapped = {}
    for k, v in input_map.items():
        if k.startswith("^"):
            if isinstance(v, _graph.Tensor):
                v = v.op
            if not isinstance(v, _graph.Operation):
                raise ValueError(f"input_map entry {k!r} must map to an Operation (a control input).")
        else:
            if not isinstance(v, _graph.Tensor):
                try:
                    from .constant_op import convert_to_tensor
                    v = convert_to_tensor(v)
                except Exception:
                    raise TypeError(f"input_map values must be Tensors, got {type(v).__name__} for {k!r}.") from None
        mapped[_canonical(k)] = v
    if return_elements is not None and isinstance(return_elements, str):
        raise TypeError("return_elements must be a list of strings.")

    if any(nd.op not in registry._OPS for nd in gd.node):
        _load_all_op_modules()
    nodes = {}
    for nd in gd.node:
        if nd.name in nodes:
            raise ValueError(f"Node '{nd.name}' is not unique")
        nodes[nd.name] = nd
        if nd.op not in registry._OPS:
            raise ValueError(f"Op type not registered '{nd.op}' in binary running on tensorweave. "
                             f"Node '{nd.name}' cannot be imported.")
    used = set()
    for nd in gd.node:
        for inp in nd.input:
            src, _, _ = _parse_input(inp)
            used.add(_canonical(inp))
            if src not in nodes and _canonical(inp) not in mapped:
                raise ValueError(f"Node '{nd.name}': Unknown input node '{inp}'")
    for k in mapped:
        if k not in used:
            src, _, ctl = _parse_input(k)
            if src not in nodes:
                raise ValueError(f"Attempted to map inputs that were not found in graph_def: [{k}]")

    order = _topological_order(gd, nodes)
    created = {}
    with g.as_default(), _graph.name_scope(name, "import", list(v for v in mapped.values()
                                                                   if isinstance(v, _graph.Tensor))) as scope:
        prefix = scope  # "import/" or "" (TF's scope naming: a second import is "import_1/")
        for nd in order:
            attrs = {k: attr_from_proto(v) for k, v in nd.attr.items()}
            for k, v in attrs.items():
                if isinstance(v, str) and v.startswith(_UNSERIALIZABLE):
                    raise ValueError(f"Node '{nd.name}' ({nd.op}) has attr '{k}' that could not be "
                                     f"serialized ({v}); such ops cannot be imported.")
            inputs, controls = [], []
            for inp in nd.input:
                key = _canonical(inp)
                src, idx, ctl = _parse_input(inp)
                if key in mapped:
                    (controls if ctl else inputs).append(mapped[key])
                    continue
                op = created[src]
                if ctl:
                    controls.append(op)
                else:
                    if idx >= len(op._outputs):
                        raise ValueError(f"Node '{nd.name}': Connecting to invalid output {idx} of source "
                                         f"node {src} which has {len(op._outputs)} outputs.")
                    inputs.append(op._outputs[idx])
            out_dtypes = infer_output_dtypes(nd.op, attrs, [t.dtype for t in inputs])
            attrs.pop(_OUTPUT_TYPES, None)
            if "_class" in attrs and isinstance(attrs["_class"], list) and prefix:
                attrs["_class"] = [f"loc:@{prefix}{c[5:]}" if c.startswith("loc:@") else c
                                   for c in attrs["_class"]]
            shapes = attrs.get("_output_shapes")
            full = prefix + nd.name
            if full in g._ops_by_name:
                raise ValueError(f"Duplicate node name in graph: '{full}'")
            try:
                op = g._create_op(nd.op, inputs, out_dtypes, name=full + "/", attrs=attrs,
                                  shapes=shapes if isinstance(shapes, list) else None)
            except (KeyError, IndexError, TypeError, AttributeError) as e:
                if isinstance(e, TypeError) and "Input to op" in str(e):
                    raise
                raise InvalidArgumentError(None, None, f"Node '{nd.name}' ({nd.op}) cannot be imported: "
                                                       f"{type(e).__name__}: {e}") from e
            g._names_in_use[full.lower()] = max(g._names_in_use.get(full.lower(), 0), 1)
            if nd.device:
                op._device = nd.device
            if isinstance(shapes, list) and op._op_def.shape_fn is not None:
                for t, s in zip(op._outputs, shapes):
                    if isinstance(s, TensorShape) and t._shape.is_compatible_with(s):
                        t._shape = t._shape.merge_with(s)
            for c in controls:
                op._add_control_input(c)
            created[nd.name] = op

    if return_elements is None:
        return None
    out = []
    for r in return_elements:
        src, idx, _ = _parse_input(r)
        if ":" in r and not r.startswith("^"):
            key = f"{src}:{idx}"
            if key in mapped:
                out.append(mapped[key])
                continue
            if src not in created or idx >= len(created[src]._outputs):
                raise ValueError(f"Requested return tensor '{r}' not found in graph def")
            out.append(created[src]._outputs[idx])
        else:
            if r not in created:
                raise ValueError(f"Requested return node '{r}' not found in graph def")
            out.append(created[r])
    return out


def _load_all_op_modules():
    """Imports every module that declares op types (ops/*, summaries), so a GraphDef can name op
    types the program itself never built (e.g. SaveV2 before any Saver exists)."""
    import importlib
    import pkgutil
    from .. import ops as _ops_pkg
    for m in pkgutil.iter_modules(_ops_pkg.__path__):
        try:
            importlib.import_module(f"{_ops_pkg.__name__}.{m.name}")
        except ImportError:
            pass
    for mod in ("..summary.summary_ops",):
        try:
            importlib.import_module(mod, __package__)
        except ImportError:
            pass


def _topological_order(gd, nodes):
    pending = {}
    consumers = {}
    for nd in gd.node:
        deps = {_parse_input(i)[0] for i in nd.input} & nodes.keys()
        pending[nd.name] = len(deps)
        for d in deps:
            consumers.setdefault(d, []).append(nd.name)
    ready = [nd.name for nd in gd.node if pending[nd.name] == 0]
    order = []
    i = 0
    while i < len(ready):
        n = ready[i]
        i += 1
        order.append(nodes[n])
        for c in consumers.get(n, ()):
            pending[c] -= 1
            if pending[c] == 0:
                ready.append(c)
    if len(order) != len(nodes):
        cyc = sorted(n for n, k in pending.items() if k > 0)
        raise ValueError(f"GraphDef has a cycle (or a loop this runtime does not import) through nodes "
                         f"{cyc[:5]}")
    return order
