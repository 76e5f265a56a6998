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

Functional control flow: the FuncGraphs If/While ops hold in attrs (branches, cond and body,
nested ones, the gradient loops autodiff builds) are written once each into `GraphDef.library` as
FunctionDefs, the attrs becoming `func` AttrValues naming them (see "functions" below), and are
rebuilt into FuncGraphs on import. Import keeps the GraphDef's node order wherever inputs allow,
so importing an exported graph and exporting it again gives the same GraphDef.
"""

import os
import re

import numpy as np

from . import dtypes as _dtypes
from . import registry
from .tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["as_graph_def", "import_graph_def", "write_graph", "node_def", "make_tensor_proto",
           "make_ndarray", "attr_to_proto", "attr_from_proto", "shape_to_proto", "shape_from_proto",
           "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER", "FunctionLibrary", "function_def"]

# The graph version numbers TensorFlow 2.21's compat.v1 writes (tf.version.GRAPH_DEF_VERSION): the
# reference tensorweave's printed GraphDefs and MetaGraphDefs are compared against.
GRAPH_DEF_VERSION = 2474
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
    splat = False
    if shape is not None:
        shape = [int(d) for d in shape]
        if verify_shape and list(arr.shape) != shape:
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, got {arr.shape}.")
        if arr.size == 1 and int(np.prod(shape)) != 1:
            splat = True  # TF's compact form: one value, repeated to fill the shape
        elif allow_broadcast:
            arr = np.broadcast_to(arr, shape).reshape(shape)
        else:
            arr = arr.reshape(shape)
    dims = shape if splat else arr.shape
    proto = TensorProto(dtype=dt.as_datatype_enum, tensor_shape=shape_to_proto(TensorShape(dims)))
    values = arr.reshape(-1)[:1] if splat else arr.reshape(-1)
    field = _VAL_FIELDS.get(dt.name)
    if dt is _dtypes.string:
        proto.string_val.extend(v if isinstance(v, bytes) else str(v).encode() for v in values)
    elif values.size > 1 and dt.name in _TENSOR_CONTENT_TYPES or field is None:
        # As TF: several values of a fixed-width numeric type travel as little-endian bytes; one
        # value, or bools, complexes and uint16s, in the typed field.
        proto.tensor_content = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()
    elif dt is _dtypes.float16:
        getattr(proto, field).extend(int(v) for v in values.view(np.uint16))
    elif dt.is_complex:
        getattr(proto, field).extend(float(x) for v in values for x in (v.real, v.imag))
    else:
        getattr(proto, field).extend(values.tolist())
    return proto


# A Const made from one value broadcast to a shape: its TensorProto keeps just that value, as
# TF's make_tensor_proto does. A Python-side attr, never written to a NodeDef itself.
SPLAT_ATTR = "_tensorweave_splat"


def _is_compact(tensor):
    """Whether a TensorProto holds one value for a shape of several elements."""
    n = int(np.prod([d.size for d in tensor.tensor_shape.dim])) if tensor.tensor_shape.dim else 1
    if n <= 1 or tensor.tensor_content:
        return False
    field = "string_val" if tensor.dtype == _dtypes.string.as_datatype_enum else \
        _VAL_FIELDS.get(_dtypes.as_dtype(tensor.dtype).name)
    return field is not None and len(getattr(tensor, field)) == (2 if field in ("scomplex_val", "dcomplex_val") else 1)


def const_value_proto(op):
    """The TensorProto of a Const op's value, in TF's compact form when the op was made from one
    value broadcast to a shape (tf.constant(0., shape=[2]), tf.zeros([2]))."""
    arr = op._attrs["value"]
    if op._attrs.get(SPLAT_ATTR) and arr.size > 1:
        return make_tensor_proto(arr.reshape(-1)[:1].reshape(()), dtype=op._attrs["dtype"], shape=arr.shape)
    return make_tensor_proto(arr, dtype=_dtypes.as_dtype(arr.dtype) if arr.dtype != object else _dtypes.string)


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


# TF's _TENSOR_CONTENT_TYPES: the dtypes whose several values are written as tensor_content.
_TENSOR_CONTENT_TYPES = frozenset(["float32", "float64", "int32", "uint8", "int16", "int8", "int64", "qint8",
                                   "quint8", "qint32", "bfloat16", "qint16", "quint16", "float16", "uint32",
                                   "uint64"])


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

def _is_dims_tuple(x):
    return isinstance(x, tuple) and all(d is None or isinstance(d, (int, np.integer)) and not isinstance(d, bool)
                                        for d in x)


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
        elif all(isinstance(x, TensorShape) or x is None or _is_dims_tuple(x) for x in items):
            # (queues keep their component shapes as tuples of ints)
            lv.shape.extend(shape_to_proto(unknown_shape() if x is None else TensorShape(x)) for x in items)
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


# -- functions (FuncGraphs as FunctionDefs) ---------------------------------------------------
#
# A FuncGraph owned by an op attr (If's then_branch/else_branch, While's cond/body, and the If/While
# ops autodiff builds) is written once into GraphDef.library as a FunctionDef in TF's schema:
# `signature` (an OpDef: input_arg per FuncGraph input, arguments then captures, with dtype and
# `is_ref`; output_arg "output_<i>" per output), `node_def` (every op but the input placeholders),
# `ret` (output_<i> -> tensor). The attr becomes AttrValue.func naming it. Functions used inside
# functions are written first (callees before callers).
#
# Node inputs inside a FunctionDef are "arg_name" for a function input and "node:index" for output
# `index` of a node (our ops have no named output args, so TF's "node:output_name:index" form is
# not used; on import "node:name:index" is read as "node:index"). So these FunctionDefs round-trip
# within tensorweave; TF readers such as TensorBoard display the GraphDef's own nodes.
# Private FunctionDef attrs keep what the schema has no place for: the FuncGraph's name, its input
# shapes and which outputs are None (an Operation's result in a traced function).

_FUNC_NAME = "_func_graph_name"
_INPUT_SHAPES = "_input_shapes"
_NONE_OUTPUTS = "_none_outputs"
_IF_TYPES = ("If", "StatelessIf")
_WHILE_TYPES = ("While", "StatelessWhile")


def _is_func_graph(value):
    from .func_graph import FuncGraph
    return isinstance(value, FuncGraph)


def _attr_to_proto_with_functions(value, library):
    from ..protos.attr_value_pb2 import AttrValue, NameAttrList
    if _is_func_graph(value):
        return AttrValue(func=NameAttrList(name=library.function_name(value)))
    if isinstance(value, (list, tuple)) and value and all(_is_func_graph(v) for v in value):
        return AttrValue(list=AttrValue.ListValue(func=[NameAttrList(name=library.function_name(v))
                                                         for v in value]))
    return attr_to_proto(value)


class FunctionLibrary:
    """The FunctionDefs of the FuncGraphs that serialized ops reference, each written once, under
    a name unique in this library; `functions` lists them callees first."""

    def __init__(self):
        self.functions = []
        self._names = {}    # id(FuncGraph) -> function name
        self._graphs = []   # keeps the FuncGraphs alive while their ids are keys
        self._used = set()

    def function_name(self, fg):
        """The name of `fg`'s FunctionDef (written, with the functions it uses, on first call)."""
        name = self._names.get(id(fg))
        if name is not None:
            return name
        base = re.sub(r"[^A-Za-z0-9_]+", "_", fg.name or "").strip("_") or "function"
        name, k = base, 0
        while name in self._used:
            k += 1
            name = f"{base}_{k}"
        self._used.add(name)
        self._names[id(fg)] = name
        self._graphs.append(fg)
        self.functions.append(function_def(fg, name, self))  # after the functions it uses
        return name


def function_def(fg, name, library=None):
    """The FunctionDef (TF's schema) of FuncGraph `fg`; FuncGraphs its ops use go into `library`."""
    from ..protos.function_pb2 import FunctionDef
    library = library if library is not None else FunctionLibrary()
    fd = FunctionDef()
    fd.signature.name = name
    arg_names = {}
    for p in fg.inputs:
        fd.signature.input_arg.add(name=p._op._name, type=p._dtype.base_dtype.as_datatype_enum,
                                   is_ref=p._dtype._is_ref_dtype)
        arg_names[p] = p._op._name
    arg_ops = {p._op for p in fg.inputs}

    def ref(t):
        a = arg_names.get(t)
        return a if a is not None else f"{t._op._name}:{t._value_index}"

    for op in fg._ops:
        if op in arg_ops:
            continue
        fd.node_def.append(_node_def(op, True, library, [ref(t) for t in op._inputs], "^{}"))
    none_outputs = []
    for i, t in enumerate(fg.outputs):
        if t is None:
            none_outputs.append(i)
            continue
        fd.signature.output_arg.add(name=f"output_{i}", type=t._dtype.base_dtype.as_datatype_enum,
                                    is_ref=t._dtype._is_ref_dtype)
        fd.ret[f"output_{i}"] = ref(t)
    fd.attr[_FUNC_NAME].CopyFrom(attr_to_proto(fg.name or name))
    fd.attr[_INPUT_SHAPES].CopyFrom(attr_to_proto([p._shape for p in fg.inputs]) if fg.inputs
                                    else _empty_list())
    if none_outputs:
        fd.attr[_NONE_OUTPUTS].CopyFrom(attr_to_proto(none_outputs))
    return fd


# -- export -----------------------------------------------------------------------------------

def node_def(op, add_shapes=False, library=None):
    """The NodeDef proto of Operation `op`. A FuncGraph attr (an If's branch, a While's body)
    becomes a `func` AttrValue naming a FunctionDef that is added to `library` (a
    `FunctionLibrary`; a throwaway one when not given: collect them with one library and put
    `library.functions` into the GraphDef's `library.function` to make the node importable)."""
    return _node_def(op, add_shapes, library if library is not None else FunctionLibrary(),
                     [t._as_node_def_input() for t in op._inputs], "^{}")


def _node_def(op, add_shapes, library, inputs, control_format):
    from ..protos.node_def_pb2 import NodeDef
    nd = NodeDef(name=op._name, op=op._type, device=op._device or "")
    nd.input.extend(inputs)
    nd.input.extend(control_format.format(c._name) for c in op._control_inputs)
    for k in sorted(op._attrs):  # (sorted: functions enter the library in a stable order)
        if k == SPLAT_ATTR:
            continue
        if k == "value" and op._type == "Const" and isinstance(op._attrs[k], np.ndarray):
            nd.attr[k].tensor.CopyFrom(const_value_proto(op))
            continue
        nd.attr[k].CopyFrom(_attr_to_proto_with_functions(op._attrs[k], library))
    if op._type in _IF_TYPES and "Tin" not in op._attrs and "then_inputs" in op._attrs:
        # TF's If attrs (Tcond, Tin) for GraphDef readers; import drops them again (_node_attrs).
        nd.attr["Tcond"].CopyFrom(attr_to_proto(op._inputs[0]._dtype.base_dtype))
        nd.attr["Tin"].CopyFrom(attr_to_proto([t._dtype.base_dtype for t in op._inputs[1:]])
                                if len(op._inputs) > 1 else _empty_list())
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
    only, when given; `add_shapes` adds each node's `_output_shapes` attr. The FuncGraphs that
    control-flow ops own (recursively) go into `library.function` as FunctionDefs."""
    from ..protos.graph_pb2 import GraphDef
    from ..protos.versions_pb2 import VersionDef
    gd = GraphDef(versions=VersionDef(producer=GRAPH_DEF_VERSION, min_consumer=GRAPH_DEF_VERSION_MIN_CONSUMER))
    with graph._lock:
        ops = list(graph._ops)
    start = from_version or 0
    library = FunctionLibrary()
    gd.node.extend(node_def(op, add_shapes, library) for op in ops[start:])
    if library.functions:
        gd.library.function.extend(library.functions)
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
    "TopKV2": lambda a, i: [a["T"], a.get("index_type", _dtypes.int32)],
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
    "AsString": lambda a, i: [_dtypes.string],
    "Substr": lambda a, i: [_dtypes.string],
    "StringFormat": lambda a, i: [_dtypes.string],
    "StringLength": lambda a, i: [_dtypes.int32],
    "StringToHashBucketFast": lambda a, i: [_dtypes.int64],
    "StringSplit": lambda a, i: [_dtypes.int64, _dtypes.string, _dtypes.int64],
    "StringSplitV2": lambda a, i: [_dtypes.int64, _dtypes.string, _dtypes.int64],
    "StaticRegexFullMatch": lambda a, i: [_dtypes.bool_],
    "RegexFullMatch": lambda a, i: [_dtypes.bool_],
    "ResizeBilinear": lambda a, i: [_dtypes.float32],
    "ResizeArea": lambda a, i: [_dtypes.float32],
    "Shape": lambda a, i: [a.get("out_type", _dtypes.int32)],
    "Size": lambda a, i: [a.get("out_type", _dtypes.int32)],
    "Rank": lambda a, i: [_dtypes.int32],
    "BiasAddGrad": lambda a, i: [a["T"]],
    # multi-output ops, as TF's OpDefs declare their outputs
    "FusedBatchNorm": lambda a, i: [a["T"]] * 5,
    "FusedBatchNormV2": lambda a, i: [a["T"]] + [a["U"]] * 4,
    "FusedBatchNormV3": lambda a, i: [a["T"]] + [a["U"]] * 5,
    "FusedBatchNormGrad": lambda a, i: [a["T"]] * 5,
    "FusedBatchNormGradV2": lambda a, i: [a["T"]] + [a["U"]] * 4,
    "FusedBatchNormGradV3": lambda a, i: [a["T"]] + [a["U"]] * 4,
    "UniqueV2": lambda a, i: [a["T"], a["out_idx"]],
    "UniqueWithCounts": lambda a, i: [a["T"], a["out_idx"], a["out_idx"]],
    "UniqueWithCountsV2": lambda a, i: [a["T"], a["out_idx"], a["out_idx"]],
    "Svd": lambda a, i: [a["T"]] * 3,
    "Qr": lambda a, i: [a["T"]] * 2,
    "SelfAdjointEigV2": lambda a, i: [a["T"]] * 2,
    "Eig": lambda a, i: [a["Tout"]] * 2,
    "LogMatrixDeterminant": lambda a, i: [a["T"]] * 2,
    "Lu": lambda a, i: [a["T"], a.get("output_idx_type", _dtypes.int32)],
    "DynamicPartition": lambda a, i: [a["T"]] * a["num_partitions"],
    "ComputeAccidentalHits": lambda a, i: [_dtypes.int32, _dtypes.int64, _dtypes.float32],
    "SparseReshape": lambda a, i: [_dtypes.int64, _dtypes.int64],
    "SparseAdd": lambda a, i: [_dtypes.int64, a.get("T", i[1] if len(i) > 1 else None), _dtypes.int64],
    "SparseConcat": lambda a, i: [_dtypes.int64, a.get("T", i[a["N"]] if len(i) > a["N"] else None),
                                  _dtypes.int64],
    "SparseSlice": lambda a, i: [_dtypes.int64, a["T"], _dtypes.int64],
    "SparseFillEmptyRows": lambda a, i: [_dtypes.int64, a["T"], _dtypes.bool_, _dtypes.int64],
    "SparseSplit": lambda a, i: [_dtypes.int64] * a["num_split"] + [a["T"]] * a["num_split"]
    + [_dtypes.int64] * a["num_split"],
    "SparseReorder": lambda a, i: [_dtypes.int64, a.get("T", i[1] if len(i) > 1 else None)],
    "DecodeCSV": lambda a, i: list(a["OUT_TYPE"]),
    "CTCGreedyDecoder": lambda a, i: [_dtypes.int64] * 3 + [a["T"]],
    "CTCBeamSearchDecoder": lambda a, i: [_dtypes.int64] * (3 * a["top_paths"]) + [a["T"]],
    "CTCLoss": lambda a, i: [a.get("T", _dtypes.float32)] * 2,
    "FIFOQueueV2": lambda a, i: [_dtypes.resource],
    "RandomShuffleQueueV2": lambda a, i: [_dtypes.resource],
    "PaddingFIFOQueueV2": lambda a, i: [_dtypes.resource],
    "PriorityQueueV2": lambda a, i: [_dtypes.resource],
    "QueueDequeueV2": lambda a, i: list(a["component_types"]),
    "QueueDequeueManyV2": lambda a, i: list(a["component_types"]),
    "QueueDequeueUpToV2": lambda a, i: list(a["component_types"]),
    "OneShotIterator": lambda a, i: [_dtypes.resource],
    "Iterator": lambda a, i: [_dtypes.resource],
    "IteratorV2": lambda a, i: [_dtypes.resource],
    "AnonymousIteratorV2": lambda a, i: [_dtypes.resource, _dtypes.variant],
    "IteratorGetNext": lambda a, i: list(a["output_types"]),
    "IteratorGetNextSync": lambda a, i: list(a["output_types"]),
}
# summaries, queues and readers, as TF's OpDefs declare their outputs (no private attr needed)
for _op in ("ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummary", "AudioSummaryV2",
            "TensorSummary", "TensorSummaryV2", "MergeSummary", "EncodePng", "EncodeJpeg"):
    _OUTPUTS[_op] = lambda a, i: [_dtypes.string]
for _op in ("QueueEnqueueV2", "QueueEnqueueManyV2", "QueueCloseV2"):
    _OUTPUTS[_op] = lambda a, i: []
for _op in ("WholeFileReaderV2", "TextLineReaderV2", "TFRecordReaderV2", "FixedLengthRecordReaderV2",
            "IdentityReaderV2"):
    _OUTPUTS[_op] = lambda a, i: [_dtypes.resource]
_OUTPUTS["QueueIsClosedV2"] = lambda a, i: [_dtypes.bool_]
_OUTPUTS["QueueSizeV2"] = lambda a, i: [_dtypes.int32]
_OUTPUTS["ReaderReadV2"] = lambda a, i: [_dtypes.string, _dtypes.string]
_OUTPUTS["ReaderReadUpToV2"] = lambda a, i: [_dtypes.string, _dtypes.string]
_OUTPUTS["Multinomial"] = lambda a, i: [a.get("output_dtype", _dtypes.int64)]
_OUTPUTS["Bitcast"] = lambda a, i: [a["type"]]
_OUTPUTS["ScatterNd"] = lambda a, i: [a["T"]]
for _sampler in ("UniformCandidateSampler", "LogUniformCandidateSampler", "LearnedUnigramCandidateSampler",
                 "FixedUnigramCandidateSampler", "AllCandidateSampler", "ThreadUnsafeUnigramCandidateSampler"):
    _OUTPUTS[_sampler] = lambda a, i: [_dtypes.int64, _dtypes.float32, _dtypes.float32]

_BOOL_OUT = {"Less", "LessEqual", "Greater", "GreaterEqual", "Equal", "NotEqual", "LogicalAnd",
             "LogicalOr", "LogicalNot", "IsNan", "IsInf", "IsFinite", "ApproximateEqual", "InTopK",
             "InTopKV2"}

_NO_OUT = {"AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp", "PrintV2"}
_OUTPUTS["VarHandleOp"] = lambda a, i: [_dtypes.resource]
_BOOL_OUT.add("VarIsInitializedOp")

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
    if op_type in _NO_OUT or op_type.startswith(("ResourceApply", "ResourceSparseApply", "ResourceScatter")):
        return []  # resource variable updates have no outputs
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
    raise TypeError("Argument `graph_def` must be a GraphDef proto.")


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


class _DryDtypes:
    """The output dtypes the nodes of a GraphDef would have if imported as they are (no input
    map): what an input-mapped tensor must match (TF checks it against the consumer's OpDef).
    None where it cannot be told (function attrs, unknown inputs)."""

    def __init__(self, nodes):
        self.nodes = nodes
        self.memo = {}

    def __call__(self, name):
        if name in self.memo:
            return self.memo[name]
        self.memo[name] = None  # (a cycle: unknown)
        nd = self.nodes.get(name)
        out = None
        if nd is not None:
            try:
                attrs = {}
                for k, v in nd.attr.items():
                    kind = v.WhichOneof("value")
                    if kind == "func" or (kind == "list" and v.list.func):
                        raise LookupError(k)
                    attrs[k] = attr_from_proto(v)
                ins = []
                for inp in nd.input:
                    src, idx, ctl = _parse_input(inp)
                    if ctl:
                        continue
                    dts = self(src)
                    if dts is None or idx >= len(dts):
                        raise LookupError(inp)
                    ins.append(dts[idx])
                out = infer_output_dtypes(nd.op, attrs, ins)
            except (LookupError, KeyError, IndexError, TypeError, ValueError, AttributeError,
                    RecursionError):
                out = None
        self.memo[name] = out
        return out


def _rollback(g, ops, names_in_use):
    """Takes the ops a failed import made back out of `g` (TF's import is all or nothing)."""
    dead = set(ops)
    if not dead:
        return
    g._ops[:] = [o for o in g._ops if o not in dead]
    for op in ops:
        if g._ops_by_name.get(op._name) is op:
            del g._ops_by_name[op._name]
        for t in op._inputs:
            t._consumers[:] = [c for c in t._consumers if c is not op]
        for c in op._control_inputs:
            c._control_outputs[:] = [o for o in c._control_outputs if o is not op]
    for ctl in g._control_stack:
        if ctl is not None:
            ctl.created.difference_update(dead)
    g._names_in_use.clear()
    g._names_in_use.update(names_in_use)


def import_graph_def(graph_def, input_map=None, return_elements=None, name=None, op_dict=None,
                     producer_op_list=None):
    """Imports a GraphDef into the default graph (`tf.import_graph_def`).

    Node names get the prefix `name` ("import" by default; "" for none). `input_map` maps tensor
    names of `graph_def` ("x:0", or "^x" for a control input) to existing Tensors/Operations;
    `return_elements` names ops ("x") or tensors ("x:0") of `graph_def` to return. As in TF, the
    import is all or nothing: a graph_def that fails to import leaves the graph as it was (but its
    name scope is taken)."""
    from . import graph as _graph
    gd = _coerce_graph_def(graph_def)
    g = _graph.get_default_graph()
    if input_map is None:
        input_map = {}
    else:
        if not isinstance(input_map, dict):
            raise TypeError(f"Argument `input_map` must be a dictionary. Obtained {type(input_map).__name__}")
        if not all(isinstance(k, (str, bytes)) for k in input_map):
            raise TypeError(f"All keys for argument `input_map` must be strings. Obtained keys: "
                            f"{list(input_map.keys())}")
        input_map = {(k.decode() if isinstance(k, bytes) else k): v for k, v in input_map.items()}
    if return_elements is not None:
        if not all(isinstance(x, (str, bytes)) for x in return_elements):
            raise TypeError(f"Argument `return_elements` must be a list of strings. Obtained {return_elements}.")
        return_elements = tuple(x.decode() if isinstance(x, bytes) else x for x in return_elements)

    with g.as_default(), _graph.name_scope(name, "import", list(v for v in input_map.values()
                                                                   if isinstance(v, _graph.Tensor))) as scope:
        prefix = scope  # "import/" or "" (TF's scope naming: a second import is "import_1/")
        if not all(isinstance(v, (_graph.Tensor, _graph.Operation)) for v in input_map.values()):
            if name == "":
                raise ValueError(
                    "tf.import_graph_def() requires a non-empty `name` if `input_map` contains non-Tensor "
                    "values. Try calling tf.convert_to_tensor() on `input_map` values before calling "
                    "tf.import_graph_def().")
            from .constant_op import convert_to_tensor
            with _graph.name_scope("_inputs"):
                input_map = {k: v if isinstance(v, (_graph.Tensor, _graph.Operation)) else convert_to_tensor(v)
                             for k, v in input_map.items()}
        mapped = {}
        for k, v in input_map.items():
            if k.startswith("^"):
                if isinstance(v, _graph.Tensor):
                    v = v.op
            elif isinstance(v, _graph.Operation):
                raise TypeError(f"input_map values must be Tensors, got Operation for {k!r}.")
            mapped[_canonical(k)] = v

        if any(nd.op not in registry._OPS for nd in gd.node) or \
                any(nd.op not in registry._OPS for fd in gd.library.function for nd in fd.node_def):
            _load_all_op_modules()
        functions = _FunctionImporter(gd.library)
        nodes = {}
        for nd in gd.node:
            if not _graph._VALID_OP_NAME.match(nd.name) and not (g._internal_names and nd.name.startswith("_")):
                raise ValueError(f"Node '{nd.name}': Node name contains invalid characters")
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
        dry = _DryDtypes(nodes)
        if return_elements is not None:
            for r in return_elements:
                src, idx, _ = _parse_input(r)
                if ":" in r and not r.startswith("^"):
                    if f"{src}:{idx}" in mapped:
                        continue
                    if src not in nodes:
                        raise ValueError(f"Requested return tensor '{r}' not found in graph def")
                elif r not in nodes:
                    raise ValueError(f"Requested return node '{r}' not found in graph def")

        order = _topological_order(gd.node, nodes)
        created = {}
        names_before = dict(g._names_in_use)
        try:
            functions.prefix = prefix
            for nd in order:
                attrs = _node_attrs(nd, g, functions)
                inputs, controls = [], []
                for inp in nd.input:
                    key = _canonical(inp)
                    src, idx, ctl = _parse_input(inp)
                    if key in mapped:
                        v = mapped[key]
                        if not ctl:
                            dts = dry(src)
                            want = dts[idx] if dts is not None and idx < len(dts) else None
                            if want is not None and want.base_dtype != v.dtype.base_dtype:
                                raise ValueError(
                                    f"Input {len(inputs)} of node {prefix}{nd.name} was passed "
                                    f"{_dtypes.type_string(v.dtype)} from {v.name} incompatible with "
                                    f"expected {_dtypes.type_string(want)}.")
                        (controls if ctl else inputs).append(v)
                        continue
                    _connect(nd.name, created[src], src, idx, ctl, inputs, controls)
                _prefix_colocation(attrs, prefix)
                created[nd.name] = _create_node(g, nd, prefix + nd.name, inputs, controls, attrs)
            out = None
            if return_elements is not None:
                out = []
                for r in return_elements:
                    src, idx, _ = _parse_input(r)
                    if ":" in r and not r.startswith("^"):
                        key = f"{src}:{idx}"
                        if key in mapped:
                            out.append(mapped[key])
                            continue
                        op = created[src]
                        if idx >= len(op._outputs):
                            raise ValueError(f"Invalid return output {idx} of node '{src}', which has "
                                             f"{len(op._outputs)} output(s)")
                        out.append(op._outputs[idx])
                    else:
                        out.append(created[r])
        except BaseException:
            _rollback(g, list(created.values()), names_before)
            raise

    missing = []
    for k in mapped:
        if k in used:
            continue
        src, idx, ctl = _parse_input(k)
        if src not in nodes:
            missing.append(k)
        elif not ctl:
            dts = dry(src)
            op = created.get(src)
            n_out = len(op._outputs) if op is not None else (len(dts) if dts is not None else None)
            if n_out is not None and idx >= n_out:
                missing.append(k)
    if missing:
        raise ValueError(f"Attempted to map inputs that were not found in graph_def: [{', '.join(missing)}]")
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


def _topological_order(node_list, nodes, parse=_parse_input):
    """The nodes in an order where inputs come first: the given order wherever it allows (so an
    exported graph imports with its ops in their original order, and exports identically)."""
    import heapq
    pending = {}
    consumers = {}
    position = {}
    for k, nd in enumerate(node_list):
        position[nd.name] = k
        deps = {parse(i)[0] for i in nd.input} & nodes.keys()
        pending[nd.name] = len(deps)
        for d in deps:
            consumers.setdefault(d, []).append(nd.name)
    ready = [k for k, nd in enumerate(node_list) if pending[nd.name] == 0]
    order = []
    while ready:
        nd = node_list[heapq.heappop(ready)]
        order.append(nd)
        for c in consumers.get(nd.name, ()):
            pending[c] -= 1
            if pending[c] == 0:
                heapq.heappush(ready, position[c])
    if len(order) != len(nodes):
        cyc = sorted(n for n, k in pending.items() if k > 0)
        raise ValueError(f"GraphDef has a cycle (or a loop this runtime does not import) through nodes "
                         f"{cyc[:5]}")
    return order


# -- import: nodes and functions --------------------------------------------------------------

def _node_attrs(nd, graph, functions):
    """The Python attrs of NodeDef `nd`: `func` attrs become FuncGraphs (built on first use, with
    `graph` as their outer graph)."""
    attrs = {}
    for k, v in nd.attr.items():
        kind = v.WhichOneof("value")
        if kind == "func":
            attrs[k] = functions.get(v.func.name, graph, nd.name)
            continue
        if kind == "list" and v.list.func:
            attrs[k] = [functions.get(f.name, graph, nd.name) for f in v.list.func]
            continue
        value = attr_from_proto(v)
        if k == "value" and nd.op == "Const" and kind == "tensor" and _is_compact(v.tensor):
            attrs[SPLAT_ATTR] = True  # written back the way it came
        if isinstance(value, str) and value.startswith(_UNSERIALIZABLE):
            raise ValueError(f"Node '{nd.name}' ({nd.op}) has attr '{k}' that could not be "
                             f"serialized ({value}); such ops cannot be imported.")
        attrs[k] = value
    if nd.op in _IF_TYPES:
        if "then_inputs" not in attrs:
            raise ValueError(f"Node '{nd.name}' ({nd.op}) is not a tensorweave If (no 'then_inputs' "
                             "attr); TensorFlow's functional If/While cannot be imported.")
        attrs.pop("Tcond", None)  # TF's attrs, written for readers by as_graph_def (not ours)
        attrs.pop("Tin", None)
    elif nd.op in _WHILE_TYPES and "n_vars" not in attrs:
        raise ValueError(f"Node '{nd.name}' ({nd.op}) is not a tensorweave While (no 'n_vars' attr); "
                         "TensorFlow's functional If/While cannot be imported.")
    return attrs


def _prefix_colocation(attrs, prefix, local=()):
    """Colocation groups ("loc:@op") name ops of the imported graph, which get `prefix` (except
    ops named in `local`: a function's own ops keep their names)."""
    if "_class" in attrs and isinstance(attrs["_class"], list) and prefix:
        attrs["_class"] = [f"loc:@{prefix}{c[5:]}" if c.startswith("loc:@") and c[5:] not in local else c
                           for c in attrs["_class"]]


def _connect(node_name, op, src, idx, ctl, inputs, controls):
    if ctl:
        controls.append(op)
        return
    if idx >= len(op._outputs):
        raise ValueError(f"Node '{node_name}': Connecting to invalid output {idx} of source "
                         f"node {src} which has {len(op._outputs)} outputs.")
    inputs.append(op._outputs[idx])


def _create_node(g, nd, full, inputs, controls, attrs, keep_shapes_attr=True):
    """The op NodeDef `nd` describes, made in `g` under the exact name `full`."""
    from .errors import InvalidArgumentError
    out_dtypes = infer_output_dtypes(nd.op, attrs, [t.dtype for t in inputs])
    attrs.pop(_OUTPUT_TYPES, None)
    shapes = attrs.get("_output_shapes")
    if not keep_shapes_attr:
        attrs.pop("_output_shapes", None)
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
    _restore_captures(op)
    return op


def _restore_captures(op):
    """Records which of an imported If/While's inputs feed its functions' capture placeholders
    (FuncGraph.captures), as tracing had."""
    def fill(fg, first, indices):
        if not _is_func_graph(fg) or fg._captures or not isinstance(indices, list):
            return
        caps = fg.inputs[first:]
        if len(caps) == len(indices) and all(0 <= i < len(op._inputs) for i in indices):
            for p, i in zip(caps, indices):
                fg._captures[op._inputs[i]] = p
    a = op._attrs
    if op._type in _IF_TYPES:
        for fg_key, idx_key in (("then_branch", "then_inputs"), ("else_branch", "else_inputs")):
            idx = a.get(idx_key)
            fill(a.get(fg_key), 0, [i + 1 for i in idx] if isinstance(idx, list) else idx)
    elif op._type in _WHILE_TYPES and isinstance(a.get("n_vars"), int):
        fill(a.get("cond"), a["n_vars"], a.get("cond_inputs"))
        fill(a.get("body"), a["n_vars"], a.get("body_inputs"))


def _parse_function_input(name):
    """A FunctionDef node input: 'arg' -> ('arg', 0, False); 'node:1' and TF's 'node:out:1' ->
    ('node', 1, False); '^node' -> ('node', -1, True)."""
    if name.startswith("^"):
        return name[1:], -1, True
    parts = name.split(":")
    if len(parts) >= 2 and parts[-1].isdigit():
        return parts[0], int(parts[-1]), False
    return parts[0], 0, False


class _FunctionImporter:
    """Builds the FuncGraphs of a GraphDef's FunctionDefLibrary on demand, each once."""

    def __init__(self, library):
        self._defs = {fd.signature.name: fd for fd in library.function}
        self._built = {}
        self._building = set()
        self.prefix = ""  # the import's name prefix (for colocation groups naming outer ops)

    def get(self, name, outer, node_name):
        fg = self._built.get(name)
        if fg is not None:
            return fg
        fd = self._defs.get(name)
        if fd is None:
            raise ValueError(f"Node '{node_name}' refers to function '{name}', which is not in the "
                             "GraphDef's library (serialize with Graph.as_graph_def, or collect the "
                             "functions of node_def(op, library=...) into GraphDef.library).")
        if name in self._building:
            raise ValueError(f"Function '{name}' calls itself; recursive functions cannot be imported.")
        self._building.add(name)
        try:
            fg = self._build(fd, outer)
        finally:
            self._building.discard(name)
        self._built[name] = fg
        return fg

    def _build(self, fd, outer):
        from .func_graph import FuncGraph
        fname = fd.signature.name
        title = attr_from_proto(fd.attr[_FUNC_NAME]) if _FUNC_NAME in fd.attr else fname
        fg = FuncGraph(title, outer)
        shapes = attr_from_proto(fd.attr[_INPUT_SHAPES]) if _INPUT_SHAPES in fd.attr else []
        args = {}
        for i, arg in enumerate(fd.signature.input_arg):
            dt = _dtypes.as_dtype(arg.type)
            if arg.is_ref:
                dt = dt._as_ref
            t = fg._make_arg(dt, shapes[i] if i < len(shapes) else None, arg.name + "/")
            fg._names_in_use[arg.name.lower()] = max(fg._names_in_use.get(arg.name.lower(), 0), 1)
            args[arg.name] = t
        nodes = {}
        for nd in fd.node_def:
            if nd.name in nodes or nd.name in args:
                raise ValueError(f"Function '{fname}': node '{nd.name}' is not unique")
            if nd.op not in registry._OPS:
                raise ValueError(f"Op type not registered '{nd.op}' in binary running on tensorweave. "
                                 f"Node '{nd.name}' of function '{fname}' cannot be imported.")
            nodes[nd.name] = nd
        refs = [i for nd in fd.node_def for i in nd.input] + list(fd.ret.values())
        for r in refs:
            src = _parse_function_input(r)[0]
            if src not in nodes and src not in args:
                raise ValueError(f"Function '{fname}': unknown input '{r}'")
        created = {}
        local = nodes.keys() | args.keys()

        def resolve(node_name, inp, inputs, controls):
            src, idx, ctl = _parse_function_input(inp)
            if src in args:
                (controls if ctl else inputs).append(args[src].op if ctl else args[src])
            else:
                _connect(node_name, created[src], src, idx, ctl, inputs, controls)

        with fg.as_default():
            for nd in _topological_order(fd.node_def, nodes, _parse_function_input):
                attrs = _node_attrs(nd, fg, self)
                _prefix_colocation(attrs, self.prefix, local)
                inputs, controls = [], []
                for inp in nd.input:
                    resolve(nd.name, inp, inputs, controls)
                created[nd.name] = _create_node(fg, nd, nd.name, inputs, controls, attrs,
                                                keep_shapes_attr=False)
        none = set(attr_from_proto(fd.attr[_NONE_OUTPUTS])) if _NONE_OUTPUTS in fd.attr else set()
        out_args = iter(fd.signature.output_arg)
        outputs = []
        for i in range(len(fd.signature.output_arg) + len(none)):
            if i in none:
                outputs.append(None)
                continue
            arg = next(out_args)
            if arg.name not in fd.ret:
                raise ValueError(f"Function '{fname}': no ret entry for output '{arg.name}'")
            got = []
            resolve(f"{fname}/{arg.name}", fd.ret[arg.name], got, [])
            outputs.append(got[0])
        fg.outputs = outputs
        fg.structured_outputs = list(outputs)
        return fg
