"""Assorted TF1 top-level ops: `tf.edit_distance` (Levenshtein distance between sparse sequences),
`tf.fingerprint` (FarmHash Fingerprint64 per row), `tf.timestamp`, `tf.guarantee_const`,
`tf.switch_case`, `tf.math.angle` / `erfcinv`, the numeric checks `tf.verify_tensor_all_finite` /
`tf.add_check_numerics_ops`, `tf.vectorized_map` (as a `map_fn`), `tf.recompute_grad` (as the
plain function: same values and gradients, no memory saving), and small helpers
(`tf.container`, `tf.dimension_at_index`, `tf.convert_to_tensor_or_*`,
`tf.create_partitioned_variables`, `tf.initialize_all_tables`).
"""

import contextlib

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import graph_io as _graph_io
from ..framework import registry
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor, get_default_graph, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_util import apply_op, unchanged_shape
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.tensor_shape import Dimension, TensorShape, as_shape, unknown_shape

__all__ = ["edit_distance", "fingerprint", "timestamp", "guarantee_const", "switch_case", "angle", "erfcinv",
           "verify_tensor_all_finite", "add_check_numerics_ops", "vectorized_map", "recompute_grad",
           "container", "dimension_at_index", "convert_to_tensor_or_indexed_slices",
           "convert_to_tensor_or_sparse_tensor", "create_partitioned_variables", "initialize_all_tables"]


# -- EditDistance ----------------------------------------------------------------------------

def _edit_distance_shape(op):
    hs, ts = constant_value(op._inputs[2]), constant_value(op._inputs[5])
    if hs is not None and ts is not None:
        hs, ts = np.asarray(hs).reshape(-1), np.asarray(ts).reshape(-1)
        if hs.size != ts.size:
            raise ValueError(f"Inputs hypothesis_shape and truth_shape must have the same rank, got "
                             f"{hs.size} and {ts.size}")
        return [TensorShape([int(max(a, b)) for a, b in zip(hs[:-1], ts[:-1])])]
    for i in (2, 5):
        n = op._inputs[i]._shape
        if n.ndims == 1 and n.dims[0].value is not None:
            return [unknown_shape(rank=n.dims[0].value - 1)]
    return [unknown_shape()]


registry.register_op("EditDistance", shape_fn=_edit_distance_shape)
# Output dtypes a GraphDef importer cannot read from the attrs.
_graph_io._OUTPUTS.update({"EditDistance": lambda a, i: [_dtypes.float32],
                           "Fingerprint": lambda a, i: [_dtypes.uint8],
                           "Timestamp": lambda a, i: [_dtypes.float64]})
registry.no_gradient("EditDistance")


def _sparse(x, what):
    if isinstance(x, SparseTensorValue):
        return SparseTensor.from_value(x)
    if not isinstance(x, SparseTensor):
        raise TypeError(f"{what} must be a SparseTensor.")
    return x


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """Levenshtein distance between the sequences of two SparseTensors of rank R.

    The sequences are the values along the last dimension; the result, shaped like the first R-1
    dimensions (the larger of the two), holds each pair's distance, divided by the truth's length
    when `normalize` (an empty truth gives inf, or 1.0 where only the truth has a sequence).

        h = tf.SparseTensor([[0, 0]], ["a"], [1, 1]); t = tf.SparseTensor([[0, 0], [0, 1]], ["a", "b"], [1, 2])
        tf.edit_distance(h, t)        # [0.5]
    """
    hypothesis = _sparse(hypothesis, "Hypothesis")
    truth = _sparse(truth, "Truth")
    if hypothesis.dtype.base_dtype != truth.dtype.base_dtype:
        raise TypeError(f"Input 'truth_values' of 'EditDistance' Op has type {truth.dtype.base_dtype.name} that "
                        f"does not match type {hypothesis.dtype.base_dtype.name} of argument 'hypothesis_values'.")
    inputs = [hypothesis.indices, hypothesis.values, hypothesis.dense_shape, truth.indices, truth.values,
              truth.dense_shape]
    return apply_op("EditDistance", inputs, [_dtypes.float32], name or "EditDistance",
                    attrs={"normalize": bool(normalize), "T": hypothesis.dtype.base_dtype})


# -- Fingerprint, Timestamp, GuaranteeConst --------------------------------------------------

def _fingerprint_shape(op):
    s = op._inputs[0]._shape
    if s.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return [TensorShape([s.dims[0] if s.ndims else None, 8])]


registry.register_op("Fingerprint", shape_fn=_fingerprint_shape)
registry.register_op("Timestamp", shape_fn=lambda op: [TensorShape([])], stateful=True)
registry.register_op("GuaranteeConst", shape_fn=unchanged_shape)
registry.no_gradient("Fingerprint")
registry.no_gradient("Timestamp")
# No gradient registered for "GuaranteeConst" (TF has none): tf.gradients through it raises LookupError.


def fingerprint(data, method="farmhash64", name=None):
    """A [batch, 8] uint8 fingerprint of each row of `data` (FarmHash Fingerprint64 of the row's
    bytes, little-endian), bit-identical to TF's."""
    with name_scope(name, "Fingerprint", [data]) as scope:
        data = convert_to_tensor(data, name="data")
        m = convert_to_tensor(method, dtype=_dtypes.string, name="method")
        if constant_value(m) is not None and constant_value(m) not in (b"farmhash64", "farmhash64"):
            raise ValueError(f"Unsupported fingerprint method: {method}")
        return apply_op("Fingerprint", [data, m], [_dtypes.uint8], scope, attrs={"T": data.dtype.base_dtype})


def timestamp(name=None):
    """Seconds since the Unix epoch when the op runs (float64)."""
    return apply_op("Timestamp", [], [_dtypes.float64], name or "Timestamp")


def guarantee_const(input, name=None):  # noqa: A002 - TF's argument name
    """`input`, promising it is constant for the life of the session (an identity here)."""
    with name_scope(name, "GuaranteeConst", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        return apply_op("GuaranteeConst", [x], [x.dtype.base_dtype], scope, attrs={"T": x.dtype.base_dtype})


# -- switch_case -----------------------------------------------------------------------------

def _canonical_branches(branch_fns, default):
    if isinstance(branch_fns, dict):
        branch_fns = list(branch_fns.items())
    elif not isinstance(branch_fns, (list, tuple)):
        raise TypeError("branch_fns must be a list, tuple, or dict")
    if not branch_fns:
        raise ValueError("Must provide at least one item in branch_fns")
    if all(callable(fn) for fn in branch_fns):
        branch_fns = list(enumerate(branch_fns))
    for pair in branch_fns:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [p[0] for p in branch_fns]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to {len(keys)}) but found "
                         f"{{{','.join(map(str, sorted(keys)))}}}")
    actions = [p[1] for p in sorted(branch_fns, key=lambda p: p[0])]
    if default is not None:
        if not callable(default):
            raise TypeError("default must be callable.")
        actions.append(default)
    return actions


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`branch_fns[branch_index]()`; `default()` (or the last branch when there is none) for an
    index out of range. Only the chosen branch runs.

    Built as a chain of `tf.cond`s (TF builds one n-way `Case` op): the same values and
    gradients, different op types in the graph."""
    from . import control_flow_ops, math_ops
    actions = _canonical_branches(branch_fns, default)
    with name_scope(name, "case", [branch_index]):
        idx = convert_to_tensor(branch_index, name="branch_index")
        if idx.dtype.base_dtype != _dtypes.int32:
            raise TypeError(f"branch_index must be an int32 Tensor, got {idx.dtype.base_dtype.name}")
        with name_scope(None, "indexed_case"):
            def chain(i):
                if i == len(actions) - 1:
                    return actions[i]()
                return control_flow_ops.cond(math_ops.equal(idx, i), actions[i], lambda: chain(i + 1))
            out = chain(0)
            from . import array_ops
            from .. import nest
            return nest.map_structure(lambda t: array_ops.identity(t, name="Identity")
                                      if isinstance(t, Tensor) else t, out)


# -- math: angle, erfcinv --------------------------------------------------------------------

registry.register_op("Angle", shape_fn=unchanged_shape)


@registry.register_gradient("Angle")
def _angle_grad(op, grad):
    """TF's: d angle(z) = -grad / (imag(z) + i real(z)), as a complex gradient."""
    from . import array_ops, math_ops
    from .array_extra_ops import complex as make_complex
    x = op.inputs[0]
    with get_default_graph().control_dependencies([grad]):
        re, im = math_ops.real(x), math_ops.imag(x)
        z = math_ops.reciprocal(make_complex(im, re))
        return [-make_complex(grad, array_ops.zeros_like(grad)) * z]


def angle(input, name=None):  # noqa: A002
    """The argument of each complex element (atan2(imag, real)); for real input, pi where
    negative and 0 elsewhere."""
    from . import array_ops, math_ops
    with name_scope(name, "Angle", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        if x.dtype.is_complex:
            real = _dtypes.float64 if x.dtype.base_dtype == _dtypes.complex128 else _dtypes.float32
            return apply_op("Angle", [x], [real], scope, attrs={"T": x.dtype.base_dtype, "Tout": real})
        return array_ops.where(math_ops.less(x, 0), np.pi * array_ops.ones_like(x), array_ops.zeros_like(x))


def erfcinv(x, name=None):
    """The inverse of erfc: -ndtri(x / 2) / sqrt(2)."""
    from . import math_extra_ops, math_ops
    with name_scope(name, "erfcinv", [x]):
        x = convert_to_tensor(x, name="start")
        return math_ops.negative(math_extra_ops.ndtri(0.5 * x)) * np.sqrt(0.5)


# -- numeric checks --------------------------------------------------------------------------

def verify_tensor_all_finite(t=None, msg=None, name=None, x=None, message=None):
    """`t`, after a CheckNumerics op that fails at run time (with `msg`) on NaN or infinity."""
    from . import array_ops, logging_ops
    t = x if t is None else t
    msg = message if msg is None else msg
    with name_scope(name, "VerifyFinite", [t]) as scope:
        t = convert_to_tensor(t, name="t")
        with get_default_graph().colocate_with(t.op):
            verify = logging_ops.check_numerics(t, message=msg)
            with get_default_graph().control_dependencies([verify]):
                return array_ops.identity(t, name="control_dependency")


def add_check_numerics_ops():
    """A NoOp depending on a CheckNumerics op for every floating-point tensor in the default
    graph (TF's `tf.add_check_numerics_ops`); running it fails on the first NaN or infinity."""
    from . import logging_ops
    from .control_flow_ops import group
    g = get_default_graph()
    checks = []
    for op in g.get_operations():
        for out in op.outputs:
            # Exact dtypes, as TF: variable references (float32_ref) are not checked. Functional
            # control flow (If/While) is checked like any op, as TF's control flow v2.
            if out.dtype in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
                message = op.name + ":" + str(out.value_index)
                with g.control_dependencies(checks):
                    checks = [logging_ops.check_numerics(out, message=message)]
    return group(*checks)


# -- vectorized_map, recompute_grad ----------------------------------------------------------

def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`fn` applied to each slice of `elems` along dimension 0, stacked (TF vectorizes this with
    pfor; here it is a `tf.map_fn` with the output structure of one call: same values)."""
    from .. import nest
    from . import functional_ops
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    packed = nest.pack_sequence_as(elems, flat)
    first = [f[0] for f in flat]
    g = get_default_graph()
    # Probe the output structure and dtypes in a throwaway graph.
    from ..framework.graph import Graph
    with Graph().as_default():
        from . import array_ops
        probe = fn(nest.pack_sequence_as(elems, [array_ops.placeholder(t.dtype, t.shape[1:]) for t in flat]))
    del first, g
    dtype = nest.map_structure(lambda t: convert_to_tensor(t).dtype if not isinstance(t, Tensor) else t.dtype, probe)
    return functional_ops.map_fn(fn, packed, dtype=dtype)


def recompute_grad(f):
    """`f` itself: TF recomputes `f`'s activations in the backward pass to save memory; tensorweave
    keeps them, giving the same values and gradients."""
    return f


# -- small helpers ---------------------------------------------------------------------------

@contextlib.contextmanager
def container(container_name):
    """Stateful ops (variables, queues) made inside get this resource `container` attribute."""
    g = get_default_graph()
    old = getattr(g, "_container", "")
    g._container = container_name
    try:
        yield container_name
    finally:
        g._container = old


def dimension_at_index(shape, index):
    """`shape[index]` as a Dimension (unknown when the rank is unknown)."""
    shape = as_shape(shape)
    if shape.ndims is None:
        return Dimension(None)
    return shape.dims[index]


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
    """`value` unchanged if it is an IndexedSlices (dtype checked), else a Tensor."""
    if isinstance(value, IndexedSlices):
        if dtype and not _dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {_dtypes.as_dtype(dtype).name} for Tensor with "
                             f"dtype {value.dtype.name}: {value!r}")
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


def convert_to_tensor_or_sparse_tensor(value, dtype=None, name=None):
    """`value` as a SparseTensor (from a SparseTensor or SparseTensorValue) or else a Tensor."""
    from ..framework.sparse_tensor import convert_to_tensor_or_sparse_tensor as conv
    return conv(value, dtype=dtype, name=name)


def create_partitioned_variables(shape, slicing, initializer, dtype=_dtypes.float32, trainable=True,
                                 collections=None, name=None, reuse=None):
    """The list of variables holding the slices of one variable of `shape`, split along the one
    dimension where `slicing` is above 1 (deprecated in TF: use tf.get_variable with a partitioner)."""
    from . import variable_scope
    from .partitioned_variables import slice_dim_and_num_slices
    if len(shape) != len(slicing):
        raise ValueError(f"The 'shape' and 'slicing' of a partitioned Variable must have the length: "
                         f"shape: {shape}, slicing: {slicing}")
    if len(shape) < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1: shape: {shape}")
    slice_dim_and_num_slices(slicing)
    scope = variable_scope.get_variable_scope()
    with variable_scope.variable_scope(scope, reuse=reuse if reuse is not None else scope.reuse):
        pv = variable_scope.get_variable(name or "PartitionedVariable", shape=shape, dtype=dtype,
                                         initializer=initializer, trainable=trainable, collections=collections,
                                         partitioner=lambda **_: list(slicing))
    return list(pv)


def initialize_all_tables(name="init_all_tables"):
    """`tf.tables_initializer` (deprecated TF name)."""
    from .lookup_ops import tables_initializer
    return tables_initializer(name=name)
