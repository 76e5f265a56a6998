"""MetaGraphDef export/import: a graph, its collections and its saver, so a program can resume
from files alone (`tf.train.export_meta_graph`, `tf.train.import_meta_graph`).

Collections are written the way TensorFlow writes them: Tensors and Operations as `node_list`
names, variables as serialized `VariableDef`s in a `bytes_list` (so `tf.global_variables()` and
`tf.trainable_variables()` work again after import), strings/ints/floats as bytes/int64/float
lists. Other collection items can be handled by registering proto functions
(`register_proto_function`, as TF's `ops.register_proto_function`); items nothing knows how to
serialize are skipped with a warning, as TF does.
"""

import os

from . import graph as _graph
from . import graph_io

__all__ = ["export_meta_graph", "import_meta_graph", "create_meta_graph_def", "read_meta_graph_file",
           "import_scoped_meta_graph", "register_proto_function", "variable_to_proto",
           "variable_from_proto"]

_PROTO_FUNCTIONS = {}  # collection name -> (proto_type, to_proto, from_proto)


def register_proto_function(collection_name, proto_type=None, to_proto=None, from_proto=None):
    """Declares how items of `collection_name` are (de)serialized in a MetaGraphDef:
    `to_proto(item, export_scope=None) -> proto`, `from_proto(proto, import_scope=None) -> item`."""
    _PROTO_FUNCTIONS[collection_name] = (proto_type, to_proto, from_proto)


def _strip(name, scope):
    if not scope:
        return name
    ctl = name.startswith("^")
    n = name[1:] if ctl else name
    if n.startswith(scope + "/"):
        n = n[len(scope) + 1:]
    return ("^" if ctl else "") + n


def _prepend(name, scope):
    if not scope:
        return name
    if name.startswith("^"):
        return "^" + scope + "/" + name[1:]
    return scope + "/" + name


# -- variables --------------------------------------------------------------------------------

def _snapshot(v):
    # (a resource variable's snapshot is its v/Read/ReadVariableOp, as TF's; value() would add a read)
    if getattr(v, "_is_resource_variable", False) and getattr(v, "_graph_element", None) is not None:
        return v._graph_element
    return v.value()


def variable_to_proto(v, export_scope=None):
    """A VariableDef for Variable `v` (None if it is outside `export_scope`)."""
    from ..protos.variable_pb2 import VariableDef
    if export_scope and not v.name.startswith(export_scope + "/"):
        return None
    vd = VariableDef(variable_name=_strip(v.name, export_scope),
                     initializer_name=_strip(v.initializer.name, export_scope),
                     snapshot_name=_strip(_snapshot(v).name, export_scope),
                     trainable=bool(v.trainable), is_resource=bool(getattr(v, "_is_resource_variable", False)))
    if v.initial_value is not None:
        vd.initial_value_name = _strip(v.initial_value.name, export_scope)
    sync = getattr(v, "synchronization", None)
    agg = getattr(v, "aggregation", None)
    vd.synchronization = getattr(sync, "value", 0) or 0
    vd.aggregation = getattr(agg, "value", 0) or 0
    return vd


def variable_from_proto(variable_def, import_scope=None, graph=None):
    """A Variable over the existing ops a VariableDef names (`tf.Variable.from_proto`)."""
    from ..ops.variables import Variable, VariableAggregation, VariableSynchronization
    g = graph or _graph.get_default_graph()
    cache = g.__dict__.setdefault("_imported_variables", {}) if hasattr(g, "__dict__") else {}
    key = _prepend(variable_def.variable_name, import_scope)
    if key in cache:
        return cache[key]
    v = Variable.__new__(Variable)
    v._variable = g.as_graph_element(key)
    v._initializer_op = g.as_graph_element(_prepend(variable_def.initializer_name, import_scope))
    v._snapshot = g.as_graph_element(_prepend(variable_def.snapshot_name, import_scope))
    v._initial_value = (g.as_graph_element(_prepend(variable_def.initial_value_name, import_scope))
                        if variable_def.initial_value_name else None)
    v._trainable = variable_def.trainable
    v._constraint = None
    v._caching_device = None
    try:
        v._synchronization = VariableSynchronization(variable_def.synchronization)
        v._aggregation = VariableAggregation(variable_def.aggregation)
    except ValueError:
        v._synchronization, v._aggregation = VariableSynchronization.AUTO, VariableAggregation.NONE
    v._graph_element = v._variable
    v._save_slice_info = None
    cache[key] = v
    return v


def _variable_from_proto_bytes(proto, import_scope=None):
    return variable_from_proto(proto, import_scope)


for _key in ("variables", "trainable_variables", "local_variables", "model_variables",
             "moving_average_variables", "metric_variables"):
    register_proto_function(_key, "VariableDef", variable_to_proto, _variable_from_proto_bytes)


def _saver_to_proto(saver, export_scope=None):
    return saver.to_proto(export_scope=export_scope) if hasattr(saver, "to_proto") else None


def _saver_from_proto(saver_def, import_scope=None):
    from ..train.saver import Saver
    return Saver(saver_def=saver_def, name=import_scope)


register_proto_function("savers", "SaverDef", _saver_to_proto, _saver_from_proto)


def _proto_class(proto_type):
    if proto_type == "VariableDef":
        from ..protos.variable_pb2 import VariableDef
        return VariableDef
    if proto_type == "SaverDef":
        from ..protos.saver_pb2 import SaverDef
        return SaverDef
    return proto_type


# -- export -----------------------------------------------------------------------------------

def _warn(msg):
    try:
        from ..platform import tf_logging
        tf_logging.warning(msg)
    except Exception:  # noqa: BLE001
        pass


def _collection_to_proto(graph, key, meta_graph_def, export_scope):
    from ..protos.meta_graph_pb2 import CollectionDef
    items = graph.get_collection(key)
    if not items:
        return
    col = CollectionDef()
    if key in _PROTO_FUNCTIONS:
        _, to_proto, _ = _PROTO_FUNCTIONS[key]
        values = []
        for item in items:
            try:
                p = to_proto(item, export_scope=export_scope)
            except Exception as e:  # noqa: BLE001  (TF logs and skips)
                _warn(f"Issue encountered when serializing: {key}. {type(e).__name__}: {e}")
                return
            if p is not None:
                values.append(p.SerializeToString())
        if not values:
            return
        col.bytes_list.value.extend(values)
    else:
        first = items[0]
        try:
            if all(isinstance(i, (_graph.Tensor, _graph.Operation)) or hasattr(i, "_as_graph_element")
                   for i in items):
                names = []
                for i in items:
                    name = i.name if isinstance(i, (_graph.Tensor, _graph.Operation)) else i._as_graph_element().name
                    if export_scope and not name.startswith(export_scope + "/"):
                        continue
                    names.append(_strip(name, export_scope))
                if not names:
                    return
                col.node_list.value.extend(names)
            elif all(isinstance(i, (str, bytes)) for i in items):
                col.bytes_list.value.extend(i.encode() if isinstance(i, str) else i for i in items)
            elif all(isinstance(i, int) and not isinstance(i, bool) for i in items):
                col.int64_list.value.extend(items)
            elif all(isinstance(i, (int, float)) for i in items):
                col.float_list.value.extend(float(i) for i in items)
            else:
                _warn(f"Issue encountered when serializing: {key}. Type is unsupported, or the types of "
                      f"the items don't match field type in CollectionDef. ({type(first).__name__})")
                return
        except Exception as e:  # noqa: BLE001
            _warn(f"Issue encountered when serializing: {key}. {e}")
            return
    meta_graph_def.collection_def[key].CopyFrom(col)


def _scoped_graph_def(graph_def, export_scope, clear_devices):
    from ..protos.graph_pb2 import GraphDef
    out = GraphDef()
    out.versions.CopyFrom(graph_def.versions)
    for nd in graph_def.node:
        if export_scope and not nd.name.startswith(export_scope + "/"):
            continue
        new = out.node.add()
        new.CopyFrom(nd)
        if export_scope:
            new.name = _strip(nd.name, export_scope)
            del new.input[:]
            new.input.extend(_strip(i, export_scope) for i in nd.input)
            if "_class" in nd.attr:
                vals = [b"loc:@" + _strip(s[5:].decode(), export_scope).encode() if s.startswith(b"loc:@") else s
                        for s in nd.attr["_class"].list.s]
                del new.attr["_class"].list.s[:]
                new.attr["_class"].list.s.extend(vals)
        if clear_devices:
            new.device = ""
    # Functions (If/While branches and bodies) are not scoped: their node names are their own.
    out.library.CopyFrom(graph_def.library)
    if clear_devices:
        for fd in out.library.function:
            for nd in fd.node_def:
                nd.device = ""
    return out


def create_meta_graph_def(meta_info_def=None, graph_def=None, saver_def=None, collection_list=None,
                          graph=None, export_scope=None, clear_devices=False, clear_extraneous_savers=False,
                          strip_default_attrs=False):
    """Builds a MetaGraphDef of `graph` (the default graph)."""
    from .. import __version__
    from ..protos.meta_graph_pb2 import MetaGraphDef
    from ..protos.op_def_pb2 import OpDef
    graph = graph or _graph.get_default_graph()
    mgd = MetaGraphDef()
    if meta_info_def is not None:
        mgd.meta_info_def.CopyFrom(meta_info_def)
    if not mgd.meta_info_def.tensorflow_version:
        mgd.meta_info_def.tensorflow_version = f"tensorweave {__version__}"
    if graph_def is None:
        graph_def = graph.as_graph_def(add_shapes=True)
    elif not hasattr(graph_def, "node") or type(graph_def).__module__.split(".")[0] != "tensorweave":
        graph_def = graph_io._coerce_graph_def(graph_def)
    graph_def = _scoped_graph_def(graph_def, export_scope, clear_devices)
    mgd.graph_def.CopyFrom(graph_def)
    if not mgd.meta_info_def.HasField("stripped_op_list"):
        op_types = {nd.op for nd in graph_def.node}
        op_types.update(nd.op for fd in graph_def.library.function for nd in fd.node_def)
        for op_type in sorted(op_types):
            mgd.meta_info_def.stripped_op_list.op.append(OpDef(name=op_type))
    mgd.meta_info_def.stripped_default_attrs = bool(strip_default_attrs)
    if saver_def is not None:
        mgd.saver_def.CopyFrom(saver_def if type(saver_def).__module__.startswith("tensorweave.protos")
                               else _proto_class("SaverDef").FromString(saver_def.SerializeToString()))
    keys = collection_list if collection_list is not None else graph.get_all_collection_keys()
    for key in keys:
        if not isinstance(key, str):
            continue
        if clear_extraneous_savers and key == "savers":
            continue
        _collection_to_proto(graph, key, mgd, export_scope)
    return mgd


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                      save_debug_info=False, **kwargs):
    """Returns the MetaGraphDef of `graph` (default graph), and writes it to `filename` when
    given (binary, or text format with `as_text`)."""
    mgd = create_meta_graph_def(meta_info_def, graph_def, saver_def, collection_list, graph, export_scope,
                                clear_devices, clear_extraneous_savers, strip_default_attrs)
    if filename:
        d, name = os.path.split(filename)
        graph_io.write_graph(mgd, d or ".", name, as_text=as_text)
    return mgd


# -- import -----------------------------------------------------------------------------------

def read_meta_graph_file(filename):
    """Reads a MetaGraphDef from a binary or text file (IOError if it is missing)."""
    from google.protobuf import text_format
    from ..protos.meta_graph_pb2 import MetaGraphDef
    if not os.path.exists(filename):
        raise IOError(f"File does not exist. Received: {filename}.")   # (TF 2.21's wording)
    with open(filename, "rb") as f:
        data = f.read()
    mgd = MetaGraphDef()
    try:
        mgd.ParseFromString(data)
        return mgd
    except Exception:  # noqa: BLE001  (not binary: try text)
        pass
    try:
        text_format.Merge(data.decode("utf-8"), mgd)
    except Exception as e:  # noqa: BLE001
        raise IOError(f"Cannot parse file {filename}: {e}.") from None
    return mgd


def _coerce_meta_graph(meta_graph_or_file):
    from ..protos.meta_graph_pb2 import MetaGraphDef
    if isinstance(meta_graph_or_file, MetaGraphDef):
        return meta_graph_or_file
    if isinstance(meta_graph_or_file, (str, os.PathLike)):
        return read_meta_graph_file(os.fspath(meta_graph_or_file))
    if hasattr(meta_graph_or_file, "SerializeToString"):
        return MetaGraphDef.FromString(meta_graph_or_file.SerializeToString())
    raise TypeError("meta_graph_or_file must be a MetaGraphDef or a file name")


def import_scoped_meta_graph(meta_graph_or_file, clear_devices=False, graph=None, import_scope=None,
                             input_map=None, return_elements=None):
    """Imports the graph and collections of a MetaGraphDef; returns (mgd, var_list dict, returns)."""
    mgd = _coerce_meta_graph(meta_graph_or_file)
    graph = graph or _graph.get_default_graph()
    gd = mgd.graph_def
    if clear_devices:
        gd = _scoped_graph_def(gd, None, True)
    with graph.as_default():
        returns = graph_io.import_graph_def(gd, input_map=input_map, return_elements=return_elements,
                                            name=import_scope or "")
        for key in sorted(mgd.collection_def):
            col = mgd.collection_def[key]
            kind = col.WhichOneof("kind")
            if key in _PROTO_FUNCTIONS and kind == "bytes_list":
                proto_type, _, from_proto = _PROTO_FUNCTIONS[key]
                cls = _proto_class(proto_type)
                for b in col.bytes_list.value:
                    try:
                        item = from_proto(cls.FromString(b) if isinstance(cls, type) else b,
                                          import_scope=import_scope)
                    except Exception as e:  # noqa: BLE001
                        _warn(f"Cannot restore collection item of {key}: {type(e).__name__}: {e}")
                        continue
                    if item is not None:
                        graph.add_to_collection(key, item)
            elif kind == "node_list":
                for name in col.node_list.value:
                    graph.add_to_collection(key, graph.as_graph_element(_prepend(name, import_scope)))
            elif kind == "bytes_list":
                for b in col.bytes_list.value:
                    graph.add_to_collection(key, b)
            elif kind == "int64_list":
                for v in col.int64_list.value:
                    graph.add_to_collection(key, int(v))
            elif kind == "float_list":
                for v in col.float_list.value:
                    graph.add_to_collection(key, float(v))
    var_list = {}
    for v in graph.get_collection("variables"):
        name = v.op.name
        if import_scope and name.startswith(import_scope + "/"):
            var_list[name[len(import_scope) + 1:]] = v
    return mgd, var_list, returns


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """Recreates a graph saved in a MetaGraphDef (or a `.meta` file) in the default graph, with its
    collections; returns the Saver it was saved with (a new Saver if it had variables but no
    SaverDef, None if it has no variables) (`tf.train.import_meta_graph`)."""
    input_map = kwargs.pop("input_map", None)
    return_elements = kwargs.pop("return_elements", None)
    mgd, _, returns = import_scoped_meta_graph(meta_graph_or_file, clear_devices=clear_devices,
                                               import_scope=import_scope, input_map=input_map,
                                               return_elements=return_elements)
    saver = _saver_for(mgd, import_scope)
    if return_elements is not None:
        return saver, returns
    return saver


def _saver_for(mgd, import_scope):
    g = _graph.get_default_graph()
    from ..train.saver import Saver
    if mgd.HasField("saver_def"):
        sd = mgd.saver_def
        if import_scope:
            from ..protos.saver_pb2 import SaverDef
            sd = SaverDef.FromString(sd.SerializeToString())
            sd.filename_tensor_name = _prepend(sd.filename_tensor_name, import_scope)
            sd.save_tensor_name = _prepend(sd.save_tensor_name, import_scope)
            sd.restore_op_name = _prepend(sd.restore_op_name, import_scope)
        return Saver(saver_def=sd, name=import_scope)
    if g.get_collection("variables") or g.get_collection("saveable_objects"):
        return Saver()
    from ..platform import tf_logging
    tf_logging.info("Saver not created because there are no variables in the graph to restore")
    return None
