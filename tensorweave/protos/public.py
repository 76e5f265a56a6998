"""The protobuf message classes TF1 exposes at the top level (`tf.GraphDef`, `tf.Summary`, ...)."""

from .attr_value_pb2 import AttrValue, NameAttrList
from .event_pb2 import Event, LogMessage, SessionLog
from .graph_pb2 import GraphDef
from .meta_graph_pb2 import MetaGraphDef, TensorInfo
from .node_def_pb2 import NodeDef
from .op_def_pb2 import OpDef
from .summary_pb2 import HistogramProto, Summary, SummaryMetadata
from .tensor_pb2 import TensorProto
from .tensor_shape_pb2 import TensorShapeProto
from .versions_pb2 import VersionDef

__all__ = ["AttrValue", "NameAttrList", "Event", "LogMessage", "SessionLog", "GraphDef", "MetaGraphDef",
           "TensorInfo", "NodeDef", "OpDef", "HistogramProto", "Summary", "SummaryMetadata", "TensorProto",
           "TensorShapeProto", "VersionDef"]
