"""Runtime checks and printing: `tf.Assert`, `tf.Print`, `tf.print`, `tf.check_numerics`.

These ops have side effects (raising, printing), so they are stateful: never folded or merged,
and run only when fetched or reached through control dependencies, as in TF1's graph mode."""

import os
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

_LOG_LEVELS = {"INFO": "log(info)", "WARN": "log(warning)", "WARNING": "log(warning)", "ERROR": "log(error)"}


def _stream_name(output_stream):
    """tf.print's output_stream as the PrintV2 attr names it."""
    import logging
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        return output_stream
    if output_stream is sys.stdout:
        return "stdout"
    if output_stream is sys.stderr:
        return "stderr"
    for level, value in ((logging.INFO, "log(info)"), (logging.WARNING, "log(warning)"),
                         (logging.ERROR, "log(error)")):
        if output_stream == level:
            return value
    name = getattr(output_stream, "__name__", None)
    if callable(output_stream) and name in ("info", "warning", "warn", "error"):
        return _LOG_LEVELS[name.upper()]
    raise ValueError("Unsupported output stream, logging level, or file." + str(output_stream) +
                     ". Supported streams are sys.stdout, sys.stderr, tf.logging.info, tf.logging.warning, "
                     "tf.logging.error. File needs to be in the form of 'file://<filepath>'.")


def _placeholder_for(template):
    """A placeholder that does not occur in `template`: '{}', else '{}' plus digits drawn as TF
    draws them (random.Random(5))."""
    import random
    placeholder = "{}"
    rng = random.Random(5)
    while placeholder in template:
        placeholder += str(rng.randint(0, 9))
    return placeholder


def print_v2(*inputs, **kwargs):
    """`tf.print(*inputs, output_stream=sys.stderr, sep=' ', end='\\n', summarize=3, name=None)`.

    As in TF, the inputs become one template string (Python values and structures printed by
    pprint, each tensor a placeholder) formatted by a StringFormat op (`<name>_format`) and
    printed by a PrintV2 op, every time that op runs. Tensors show as nested brackets with the
    first and last `summarize` entries of each dimension (-1: all)."""
    import collections
    import pprint

    from .. import nest
    from ..framework.sparse_tensor import SparseTensor
    from .string_ops import string_format
    output_stream = kwargs.pop("output_stream", sys.stderr)
    name = kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
    stream = _stream_name(output_stream)

    def is_tensor(x):
        return isinstance(x, Tensor) or hasattr(x, "_as_graph_element")

    if len(inputs) == 1 and isinstance(inputs[0], Tensor) and inputs[0].shape.ndims == 0 and \
            inputs[0].dtype.base_dtype == _dtypes.string:
        formatted = inputs[0]      # a single string scalar is printed as is
    else:
        ordered = [collections.OrderedDict(sorted(x.items())) if isinstance(x, collections.OrderedDict) else x
                   for x in inputs]
        free = nest.map_structure(lambda x: "" if is_tensor(x) or isinstance(x, SparseTensor) else x, ordered)
        placeholder = _placeholder_for(" ".join(pprint.pformat(x) for x in free))
        templates, tensors = [], []
        for x in inputs:
            slots = []
            for item in nest.flatten(x):
                if isinstance(item, SparseTensor):
                    tensors.extend([item.indices, item.values, item.dense_shape])
                    slots.append(f"SparseTensor(indices={placeholder}, values={placeholder}, "
                                 f"shape={placeholder})")
                elif is_tensor(item):
                    tensors.append(convert_to_tensor(item))
                    slots.append(placeholder)
                else:
                    slots.append(item)
            templates.append(x if isinstance(x, str) else pprint.pformat(nest.pack_sequence_as(x, slots)))
        template = sep.join(templates).replace("'" + placeholder + "'", placeholder)
        g = tensors[0].graph if tensors else get_default_graph()
        with g.as_default():
            formatted = string_format(template, tensors, placeholder=placeholder, summarize=summarize,
                                      name=name + "_format" if name else None)
    return apply_op("PrintV2", [formatted], [], name or "PrintV2",
                    attrs={"output_stream": stream, "end": end})


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
