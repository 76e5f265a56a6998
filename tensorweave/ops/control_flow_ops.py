"""Grouping and ordering ops: `no_op`, `group`, `tuple`, `with_dependencies`."""

import builtins

from ..framework import registry
from ..framework.graph import Operation, Tensor, get_default_graph, name_scope
from ..framework.op_util import apply_op
from . import array_ops

__all__ = ["no_op", "group", "tuple", "with_dependencies"]

registry.register_op("NoOp")
registry.no_gradient("NoOp")


def no_op(name=None):
    """An op that does nothing; useful as a target carrying control dependencies."""
    return apply_op("NoOp", [], [], name or "NoOp")


def _as_op(x):
    if isinstance(x, Operation):
        return x
    if isinstance(x, Tensor):
        return x.op
    op = getattr(x, "op", None)
    if isinstance(op, Operation):
        return op
    raise TypeError(f"Expected a Tensor or Operation, got {x!r}")


def group(*inputs, **kwargs):
    """An op that runs after all of `inputs` (Tensors, Operations, or lists of them)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Unknown keyword arguments: {', '.join(kwargs)}")
    flat = []
    for x in inputs:
        if isinstance(x, (list, builtins.tuple, set)):
            flat.extend(x)
        elif x is not None:
            flat.append(x)
    ops = []
    for x in flat:
        if x is None:
            continue
        op = _as_op(x)
        if op not in ops:
            ops.append(op)
    g = ops[0].graph if ops else get_default_graph()
    with g.as_default(), name_scope(name, "group_deps", ops) as scope:
        with g.control_dependencies(ops):
            return no_op(name=scope)


def with_dependencies(dependencies, output_tensor, name=None):
    """`output_tensor`'s value, computed only after `dependencies` have run."""
    with name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as scope:
        g = output_tensor.graph
        with g.control_dependencies(dependencies):
            if isinstance(output_tensor, Operation):
                return group(output_tensor, name=scope)
            return array_ops.identity(output_tensor, name=scope)


def tuple(tensors, name=None, control_inputs=None):
    """Returns `tensors`, each available only after all of them (and `control_inputs`) are computed."""
    return _tuple(tensors, [t for t in tensors if t is not None], name, control_inputs)


def _tuple(tensors, gate_on, name=None, control_inputs=None):
    """`tuple(tensors)` whose gate waits only for `gate_on` (the autodiff gates an op's input
    gradients on the ones the walk needs, so an unused one is pruned, not computed)."""
    with name_scope(name, "tuple", tensors) as scope:
        gating = list(gate_on)
        if control_inputs:
            gating = gating + list(control_inputs)
        gate = group(*gating)
        out = []
        for t in tensors:
            if t is None:
                out.append(None)
            elif isinstance(t, Operation):
                with t.graph.control_dependencies([gate]):
                    out.append(group(t))
            else:
                out.append(with_dependencies([gate], t))
        return out
