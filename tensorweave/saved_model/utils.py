"""TensorInfo helpers (`tf.saved_model.utils`)."""

from ..framework import dtypes as _dtypes
from ..framework.graph import Tensor, get_default_graph
from ..framework.graph_io import shape_to_proto

__all__ = ["build_tensor_info", "get_tensor_from_tensor_info"]


def build_tensor_info(tensor):
    """The TensorInfo (name, dtype, shape) of a Tensor (or SparseTensor)."""
    from ..protos.meta_graph_pb2 import TensorInfo
    if hasattr(tensor, "indices") and hasattr(tensor, "dense_shape") and not isinstance(tensor, Tensor):
        info = TensorInfo(dtype=tensor.dtype.base_dtype.as_datatype_enum,
                          tensor_shape=shape_to_proto(tensor.get_shape()))
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
        return info
    if hasattr(tensor, "_as_graph_element") and not isinstance(tensor, Tensor):
        tensor = tensor.value() if hasattr(tensor, "value") else tensor._as_graph_element()
    if not isinstance(tensor, Tensor):
        raise RuntimeError("build_tensor_info is not supported in Eager mode.") if tensor is None else \
            TypeError(f"Expected a Tensor, got {type(tensor).__name__}")
    return TensorInfo(name=tensor.name, dtype=tensor.dtype.base_dtype.as_datatype_enum,
                      tensor_shape=shape_to_proto(tensor.shape))


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """The Tensor a TensorInfo names, in `graph` (default graph)."""
    graph = graph or get_default_graph()
    kind = tensor_info.WhichOneof("encoding")
    if kind != "name":
        raise ValueError(f"Invalid TensorInfo.encoding: {kind} (only dense tensors are supported)")
    name = tensor_info.name
    if import_scope:
        name = f"{import_scope}/{name}"
    t = graph.get_tensor_by_name(name)
    _ = _dtypes  # dtype checked by callers that need it
    return t
