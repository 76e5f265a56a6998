"""Runtime checks and printing: `tf.Assert`, `tf.Print`, `tf.print`, `tf.check_numerics`.

These ops have side effects (raising, printing), so they are stateful: never folded or merged,
and run only when fetched or reached through control dependencies, as in TF1's graph mode."""

import sys

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, get_default_graph, name_scope
from ..framework.op_util import apply_op, unchanged_shape

__all__ = ["Assert", "Print", "print_v2", "check_numerics"]

registry.register_op("Assert", stateful=True)
registry.no_gradient("Assert")


def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TF's name
    """An op that raises InvalidArgumentError "assertion failed: [d0] [d1] ..." when `condition`
    (a scalar bool) is False at run time; `data` (strings and tensors) describes the failure,
    each tensor showing its first `summarize` (default 3) elements. Use it as a control
    dependency or fetch it.

    As in TF, when some `data` tensor is neither string nor int32 the Assert runs only when the
    condition is False, inside `tf.cond(condition, no_op, assert, name="AssertGuard")`: the
    returned op is then `<name>/AssertGuard/Merge` and the failing node `<name>/AssertGuard/Assert`.
    """
    from . import control_flow_ops
    with name_scope(name, "Assert", [condition] + list(data)):
        xs = [d if isinstance(d, Tensor) else convert_to_tensor(d) for d in data]
        if all(x.dtype.base_dtype in (_dtypes.string, _dtypes.int32) for x in xs):
            return _assert_op(condition, data, summarize)
        condition = convert_to_tensor(condition, name="Condition")
        guarded = control_flow_ops.cond(condition, control_flow_ops.no_op,
                                        lambda: _assert_op(condition, data, summarize), name="AssertGuard")
        return guarded.op


def _assert_op(condition, data, summarize):
    """The Assert op itself, named "Assert" in the current scope; Python values among its inputs
    become Consts inside the op's scope (`Assert/condition`, `Assert/data_0`), as TF's op
    wrappers name them."""
    g = get_default_graph()
    op_name = g.unique_name("Assert", mark_as_used=False)
    with g.name_scope(op_name + "/"):
        condition = condition if isinstance(condition, Tensor) else \
            convert_to_tensor(condition, dtype=_dtypes.bool, name="condition")
        data = [d if isinstance(d, Tensor) else convert_to_tensor(d, name=f"data_{i}")
                for i, d in enumerate(data)]
    if condition.dtype.base_dtype != _dtypes.bool:
        raise TypeError(f"Input 'condition' of 'Assert' Op has type {condition.dtype.base_dtype.name} that "
                        "does not match expected type of bool.")
    return apply_op("Assert", [condition] + data, [], "Assert",
                    attrs={"summarize": 3 if summarize is None else int(summarize),
                           "T": [d.dtype.base_dtype for d in data]})


registry.register_op("Print", shape_fn=lambda op: [op._inputs[0]._shape], stateful=True)


@registry.register_gradient("Print")
def _print_grad(op, grad):
    return [grad] + [None] * (len(op._inputs) - 1)


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802
    """Returns `input_`, printing `message` and the `data` tensors to stderr each time it runs
    (only the first `first_n` times when given; `summarize` elements of each, default 3)."""
    input_ = convert_to_tensor(input_)
    data = [convert_to_tensor(d) for d in data]
    return apply_op("Print", [input_] + data, [input_.dtype.base_dtype], name or "Print",
                    attrs={"message": message or "", "first_n": -1 if first_n is None else int(first_n),
                           "summarize": 3 if summarize is None else int(summarize),
                           "T": input_.dtype.base_dtype, "U": [d.dtype.base_dtype for d in data]})


registry.register_op("PrintV2", stateful=True)
registry.no_gradient("PrintV2")


def print_v2(*inputs, **kwargs):
    """`tf.print(*inputs, output_stream=sys.stderr, sep=' ', end='\\n', summarize=3, name=None)`:
    an op that prints its inputs (tensors formatted like NumPy, first and last `summarize`
    elements per dimension; other values as Python prints them) each time it runs."""
    output_stream = kwargs.pop("output_stream", sys.stderr)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", "\n")
    summarize = kwargs.pop("summarize", 3)
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {sorted(kwargs)}")
    if output_stream is sys.stderr or output_stream == "stderr":
        stream = "stderr"
    elif output_stream is sys.stdout or output_stream == "stdout":
        stream = "stdout"
    elif isinstance(output_stream, str) and output_stream.startswith("file://"):
        stream = output_stream
    else:
        raise ValueError(f"Unsupported output stream {output_stream!r}: use sys.stderr, sys.stdout or "
                         "'file://<path>'")
    # literals[i] is printed for input i, unless is_tensor[i]: then the next tensor's value is.
    tensors, literals, is_tensor = [], [], []
    for x in inputs:
        if isinstance(x, Tensor) or hasattr(x, "_as_graph_element"):
            tensors.append(convert_to_tensor(x))
            literals.append("")
            is_tensor.append(1)
        else:
            literals.append(str(x))
            is_tensor.append(0)
    g = tensors[0].graph if tensors else get_default_graph()
    with g.as_default():
        return apply_op("PrintV2", tensors, [], name or "PrintV2",
                        attrs={"literals": literals, "is_tensor": is_tensor, "sep": sep, "end": end, "summarize": int(summarize),
                               "output_stream": stream})


registry.register_op("CheckNumerics", shape_fn=unchanged_shape, stateful=True)


@registry.register_gradient("CheckNumerics")
def _check_numerics_grad(op, grad):
    return [check_numerics(grad, "Not a number (NaN) or infinity (Inf) values detected in gradient. "
                           + op._get_attr("message"))]


def check_numerics(tensor, message, name=None):
    """Returns `tensor`; raises InvalidArgumentError "<message> : Tensor had NaN values" (or Inf)
    at run time when it holds NaN or infinity."""
    tensor = convert_to_tensor(tensor)
    if not tensor.dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'tensor' has DataType {tensor.dtype.base_dtype.name} "
                        "not in list of allowed values: bfloat16, float16, float32, float64")
    return apply_op("CheckNumerics", [tensor], [tensor.dtype.base_dtype], name or "CheckNumerics",
                    attrs={"message": message, "T": tensor.dtype.base_dtype})
