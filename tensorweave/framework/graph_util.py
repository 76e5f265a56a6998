"""tf.graph_util: GraphDef surgery for freezing and trimming models.

`convert_variables_to_constants` is the classic TF1 "freeze graph" step: the subgraph that
computes the named outputs, with every variable it reads replaced by a Const holding the
variable's current value in a session. `extract_sub_graph` keeps the nodes the given ones need;
`remove_training_nodes` splices out Identity and CheckNumerics nodes.
"""

import copy

from . import dtypes as _dtypes
from .graph_io import attr_to_proto, make_tensor_proto

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "remove_training_nodes",
           "must_run_on_cpu", "tensor_shape_from_node_def_name"]

_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _node_name(name):
    """'^a' and 'a:1' -> 'a'."""
    name = name[1:] if name.startswith("^") else name
    return name.split(":")[0]


def _check_graph_def(graph_def):
    if not hasattr(graph_def, "node"):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")


def extract_sub_graph(graph_def, dest_nodes):
    """The GraphDef of the nodes `dest_nodes` (a list of node names) depend on, through data and
    control inputs, in their original order."""
    _check_graph_def(graph_def)
    if isinstance(dest_nodes, str):
        raise TypeError(f"dest_nodes must be an iterable of strings, but got type {type(dest_nodes)}.")
    by_name = {n.name: n for n in graph_def.node}
    for d in dest_nodes:
        if d not in by_name:
            raise AssertionError(f"{d} is not in graph")
    keep = set()
    stack = list(dest_nodes)
    while stack:
        name = stack.pop()
        if name in keep:
            continue
        keep.add(name)
        stack.extend(_node_name(i) for i in by_name[name].input if _node_name(i) in by_name)
    out = type(graph_def)()
    out.versions.CopyFrom(graph_def.versions)
    out.library.CopyFrom(graph_def.library)
    out.node.extend(copy.deepcopy(n) for n in graph_def.node if n.name in keep)
    return out


def convert_variables_to_constants(sess, input_graph_def, output_node_names, variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """The subgraph computing `output_node_names`, with the variables it reads replaced by Const
    nodes holding their values in `sess` (the same node names, so readers are unchanged)."""
    sub = extract_sub_graph(input_graph_def, output_node_names)
    wanted = [n.name for n in sub.node if n.op in _VARIABLE_OPS
              and (variable_names_whitelist is None or n.name in variable_names_whitelist)
              and (variable_names_blacklist is None or n.name not in variable_names_blacklist)]
    values = dict(zip(wanted, sess.run([name + ":0" for name in wanted]))) if wanted else {}
    handles = {n.name for n in sub.node if n.op == "VarHandleOp" and n.name in values}
    out = type(sub)()
    out.versions.CopyFrom(sub.versions)
    out.library.CopyFrom(sub.library)
    for node in sub.node:
        new = out.node.add()
        if node.name in values:
            dtype = _dtypes.as_dtype(node.attr["dtype"].type).base_dtype
            new.op, new.name = "Const", node.name
            new.attr["dtype"].CopyFrom(attr_to_proto(dtype))
            new.attr["value"].tensor.CopyFrom(make_tensor_proto(values[node.name], dtype=dtype))
            if node.device:
                new.device = node.device
        elif node.op == "ReadVariableOp" and _node_name(node.input[0]) in handles:
            new.op, new.name = "Identity", node.name
            new.input.extend(node.input)
            new.attr["T"].CopyFrom(node.attr["dtype"])
            if node.device:
                new.device = node.device
        else:
            new.CopyFrom(node)
    return out


def remove_training_nodes(input_graph, protected_nodes=None):
    """`input_graph` without its Identity and CheckNumerics nodes (except `protected_nodes` and
    nodes with control inputs): their consumers read the spliced-out node's input instead."""
    _check_graph_def(input_graph)
    protected = set(protected_nodes or ())
    removable = {}
    for node in input_graph.node:
        if (node.op in ("Identity", "CheckNumerics") and node.name not in protected and node.input
                and not any(i.startswith("^") for i in node.input)):
            removable[node.name] = node.input[0]

    def resolve(name):
        ctl = name.startswith("^")
        base = _node_name(name)
        seen = set()
        while base in removable and base not in seen:
            seen.add(base)
            name = removable[base]
            base = _node_name(name)
        return ("^" + base) if ctl else name

    out = type(input_graph)()
    out.versions.CopyFrom(input_graph.versions)
    out.library.CopyFrom(input_graph.library)
    for node in input_graph.node:
        if node.name in removable:
            continue
        new = out.node.add()
        new.CopyFrom(node)
        del new.input[:]
        new.input.extend(resolve(i) for i in node.input)
    return out


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """Whether `node` (a NodeDef or Operation) must stay on the CPU: string-typed ops, and
    variables when `pin_variables_on_cpu`."""
    op_type = node.type if hasattr(node, "type") else node.op
    if pin_variables_on_cpu and op_type in _VARIABLE_OPS:
        return True
    if op_type == "Const":
        dtype = node._get_attr("dtype") if hasattr(node, "get_attr") else _dtypes.as_dtype(node.attr["dtype"].type)
        return dtype == _dtypes.string
    if op_type in ("DynamicStitch", "ParallelDynamicStitch", "StringToNumber", "AsString"):
        return True
    return False


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of tensor `input_name` ("op" or "op:i") of `graph`."""
    name = input_name if ":" in input_name else input_name + ":0"
    return graph.get_tensor_by_name(name).get_shape()


from .graph_io import import_graph_def  # noqa: E402,F401  (TF1's tf.graph_util.import_graph_def)
__all__ += ["import_graph_def"]
