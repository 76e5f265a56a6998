"""`tf.experimental.Optional` (`tf.data.experimental.Optional`) and
`tf.data.experimental.get_next_as_optional`: an iterator's next element or nothing, without
OutOfRangeError.

An optional is a variant scalar whose value is an `_OptionalValue` (a tuple of arrays, or None);
`has_value()` and `get_value()` are ops on it (get_value of an empty optional raises
InvalidArgumentError when run).
"""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors, registry
from ..framework.func_graph import flatten, pack_sequence_as
from ..framework.op_util import apply_op
from ..framework.tensor_shape import TensorShape
from ..kernels.registry import register_kernel
from .dataset_ops import _normalize, _structure_of

__all__ = ["Optional", "get_next_as_optional"]


class _OptionalValue:
    __slots__ = ("values",)

    def __init__(self, values):
        self.values = values


def _scalar(op):
    return [TensorShape([])]


for _name, _fn in (("IteratorGetNextAsOptional", _scalar), ("OptionalFromValue", _scalar), ("OptionalNone", _scalar),
                   ("OptionalHasValue", _scalar),
                   ("OptionalGetValue", lambda op: list(op._get_attr("output_shapes")))):
    registry.register_op(_name, shape_fn=_fn, stateful=_name == "IteratorGetNextAsOptional")
    registry.no_gradient(_name)


def _unwrap(v):
    return v if isinstance(v, _OptionalValue) else np.asarray(v).item()


@register_kernel("IteratorGetNextAsOptional")
def _get_next_as_optional_kernel(op, ctx):
    def run(resource):
        try:
            element = resource.get_next()
        except errors.OutOfRangeError:
            return np.array(_OptionalValue(None), dtype=object)
        return np.array(_OptionalValue(tuple(np.asarray(v) for v in element)), dtype=object)
    return run


@register_kernel("OptionalFromValue")
def _from_value_kernel(op, ctx):
    return lambda *values: np.array(_OptionalValue(tuple(np.asarray(v) for v in values)), dtype=object)


@register_kernel("OptionalNone")
def _none_kernel(op, ctx):
    return lambda: np.array(_OptionalValue(None), dtype=object)


@register_kernel("OptionalHasValue")
def _has_value_kernel(op, ctx):
    return lambda opt: np.array(_unwrap(opt).values is not None)


@register_kernel("OptionalGetValue")
def _get_value_kernel(op, ctx):
    n = len(op._outputs)

    def run(opt):
        values = _unwrap(opt).values
        if values is None:
            raise errors.InvalidArgumentError(None, None, "The given optional does not have a value.")
        return values[0] if n == 1 else tuple(values)
    return run


class Optional:
    """A value that may be absent: `has_value()`, `get_value()` (graph tensors)."""

    def __init__(self, variant, structure, types, shapes):
        self._variant = variant
        self._structure, self._types, self._shapes = structure, list(types), list(shapes)

    @staticmethod
    def from_value(value):
        element = _normalize(value, name="value")
        flat = flatten(element)
        v = apply_op("OptionalFromValue", flat, [_dtypes.variant], "OptionalFromValue")
        return Optional(v, _structure_of(element), [t.dtype.base_dtype for t in flat], [t.shape for t in flat])

    @staticmethod
    def empty(element_spec):
        flat = flatten(element_spec)
        v = apply_op("OptionalNone", [], [_dtypes.variant], "OptionalNone")
        return Optional(v, pack_sequence_as(element_spec, list(range(len(flat)))),
                        [s.dtype for s in flat], [s.shape for s in flat])

    @property
    def element_spec(self):
        from .specs import element_spec_of
        return element_spec_of(self._structure, self._types, self._shapes)

    def has_value(self, name=None):
        return apply_op("OptionalHasValue", [self._variant], [_dtypes.bool], name or "OptionalHasValue")

    def get_value(self, name=None):
        out = apply_op("OptionalGetValue", [self._variant], list(self._types), name or "OptionalGetValue",
                       attrs={"output_types": list(self._types), "output_shapes": list(self._shapes)})
        outs = out if isinstance(out, list) else [out]
        for t, s in zip(outs, self._shapes):
            t.set_shape(s)
        return pack_sequence_as(self._structure, outs)

    def _to_components(self):
        return [self._variant]


def get_next_as_optional(iterator):
    """An `Optional` holding the iterator's next element (empty at the end of the dataset)."""
    v = apply_op("IteratorGetNextAsOptional", [iterator._iterator_resource], [_dtypes.variant],
                 "IteratorGetNextAsOptional", attrs={"output_types": list(iterator._types),
                                                     "output_shapes": list(iterator._shapes)})
    return Optional(v, iterator._structure, iterator._types, iterator._shapes)


def _iterator_get_next_as_optional(self):
    return get_next_as_optional(self)


def _install():
    from .iterator_ops import Iterator
    Iterator.get_next_as_optional = _iterator_get_next_as_optional


_install()
