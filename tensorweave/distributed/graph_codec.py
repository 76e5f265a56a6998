"""Partitions on the wire: NodeDefs built with the framework's serializer (framework/graph_io:
`Graph.as_graph_def`, `tf.import_graph_def`), plus the nodes the partitioner adds (sends,
receives, feed placeholders) and node input lists rewritten to them."""

from ..framework import graph_io
from ..framework.graph import Graph
from ..protos import graph_pb2, node_def_pb2

__all__ = ["encode_op", "node_def", "import_nodes", "graph_to_graph_def", "graph_from_graph_def"]


def node_def(name, op_type, inputs, device, attrs, out_types, out_shapes, out=None):
    """A NodeDef for a node the partitioner makes (not an op of the client's graph)."""
    nd = out if out is not None else node_def_pb2.NodeDef()
    nd.name = name
    nd.op = op_type
    nd.input.extend(inputs)
    nd.device = device or ""
    for k, v in attrs.items():
        nd.attr[k].CopyFrom(graph_io.attr_to_proto(v))
    if graph_io.infer_output_dtypes(op_type, attrs, []) != list(out_types):
        nd.attr[graph_io._OUTPUT_TYPES].CopyFrom(graph_io.attr_to_proto(list(out_types)) if out_types
                                                 else graph_io._empty_list())
    if out_shapes:
        nd.attr["_output_shapes"].CopyFrom(graph_io.attr_to_proto(list(out_shapes)))
    return nd


def encode_op(op, inputs=None, out=None, library=None):
    """The NodeDef of `op`, with `inputs` (names) replacing its own inputs when given. FuncGraphs
    its attrs reference (cond branches, loop bodies) go into `library` (a
    graph_io.FunctionLibrary, whose `functions` the caller ships in GraphDef.library)."""
    nd = graph_io.node_def(op, library=library)
    if inputs is not None:
        del nd.input[:]
        nd.input.extend(inputs)
    if out is not None:
        out.CopyFrom(nd)
        return out
    return nd


def import_nodes(graph, nodes, functions=()):
    """Adds NodeDefs (and the FunctionDefs they use) to `graph` under their own names; returns the
    ops in the order given."""
    gd = graph_pb2.GraphDef()
    gd.node.extend(nodes)
    gd.library.function.extend(functions)
    with graph.as_default(), graph._allowing_internal_names():
        graph_io.import_graph_def(gd, name="")
    return [graph._ops_by_name[nd.name] for nd in gd.node]


def graph_to_graph_def(graph, out=None, start=0):
    """The GraphDef of the ops of `graph` from the `start`-th on (creation order)."""
    gd = graph.as_graph_def(from_version=start or None)
    if out is not None:
        out.CopyFrom(gd)
        return out
    return gd


def graph_from_graph_def(graph_def, graph=None):
    graph = graph if graph is not None else Graph()
    import_nodes(graph, graph_def.node, graph_def.library.function)
    return graph
