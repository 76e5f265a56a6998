"""TF's resource bookkeeping (tensorflow/python/ops/resources.py) that Scaffold builds its default
ops from: resources registered in the RESOURCES / LOCAL_RESOURCES collections, each with `handle`,
`create` and `is_initialized`. Scaffold's default init, ready and local-init ops include these
even when the collections are empty (a NoOp, an empty string Const), so the graph is TF's."""

from ..framework import dtypes as _dtypes
from ..framework.graph import GraphKeys, get_collection, get_default_graph

__all__ = ["shared_resources", "local_resources", "report_uninitialized_resources", "initialize_resources"]


def shared_resources():
    """The resources shared across sessions (the RESOURCES collection)."""
    return get_collection(GraphKeys.RESOURCES)


def local_resources():
    """The resources local to a session (the LOCAL_RESOURCES collection)."""
    return get_collection(GraphKeys.LOCAL_RESOURCES)


def report_uninitialized_resources(resource_list=None, name="report_uninitialized_resources"):
    """A 1-D string tensor naming the resources in `resource_list` (default: shared and local)
    that are not initialized yet; an empty Const when there are none."""
    from ..framework.constant_op import constant
    from ..ops import array_ops, math_ops
    if resource_list is None:
        resource_list = shared_resources() + local_resources()
    g = get_default_graph()
    with g.name_scope(name), g.device("/cpu:0"):
        if not resource_list:
            return constant([], dtype=_dtypes.string)
        mask = math_ops.logical_not(array_ops.stack([r.is_initialized for r in resource_list]))
        names = constant([r.handle.name for r in resource_list])
        return array_ops.boolean_mask(names, mask)


def initialize_resources(resource_list, name="init"):
    """An op running every resource's `create` op; a NoOp when there are none."""
    from ..ops import control_flow_ops
    if resource_list:
        return control_flow_ops.group(*[r.create for r in resource_list], name=name)
    return control_flow_ops.no_op(name=name)
