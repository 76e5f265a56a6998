"""Datasets built from a user's Python function, traced once into a FuncGraph: map, filter,
flat_map and interleave (DatasetV1's methods in dataset_ops.py return these)."""

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, func_graph_from_py_func, pack_sequence_as
from ..framework.graph import Tensor
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..ragged.ragged_tensor import RaggedTensor
from . import _runtime
from . import structure as _st
from .dataset_ops import AUTOTUNE, DatasetV1, _same_mapping

__all__ = ["MapDataset", "FilterDataset", "FlatMapDataset", "InterleaveDataset"]


def _call_with_element(fn, structure, flat_args):
    element = pack_sequence_as(structure, list(flat_args))
    if isinstance(element, tuple) and not hasattr(element, "_fields"):
        return fn(*element)
    return fn(element)


def _trace(name, fn, dataset, convert_outputs=None):
    arg_specs = _st.arg_specs(dataset._types, dataset._shapes, dataset._classes)
    return func_graph_from_py_func(name, lambda *args: _call_with_element(
        fn, dataset._structure, dataset._wrap_args(_st.pack_args(args, dataset._shapes, dataset._classes))),
                                   arg_specs, convert_outputs=convert_outputs)


def _listless(x, top=True):
    """Map outputs: a top-level list is a tuple of components (TF converts it, with a warning);
    a list inside the structure is one tensor (tf.data's nest treats lists as atoms)."""
    if isinstance(x, list):
        if not top:
            return convert_to_tensor(x)
        return tuple(_listless(v, False) for v in x)
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return tuple(_listless(v, False) for v in x)
    if isinstance(x, dict):
        return _same_mapping(x, {k: _listless(v, False) for k, v in x.items()})
    return x


class MapDataset(DatasetV1):
    def __init__(self, input_dataset, map_func, num_parallel_calls=None):
        self._inputs = (input_dataset,)
        holder = {}

        def convert(result):
            result = _listless(result)
            if isinstance(result, DatasetV1):
                raise TypeError("map_func returned a Dataset; use flat_map or interleave for that.")
            if result is None or not flatten(result):
                # (TF's message: the op gets an empty list of output types)
                op = "MapDataset" if num_parallel_calls is None else "ParallelMapDatasetV2"
                raise ValueError(f"Attr 'output_types' of '{op}' Op passed list of length 0 less than minimum 1.")
            leaves = [x if isinstance(x, (SparseTensor, RaggedTensor)) else convert_to_tensor(x)
                      for x in flatten(result)]
            holder["structure"] = pack_sequence_as(result, list(range(len(leaves))))
            parts = [_st.leaf_tensors(x) for x in leaves]
            holder["classes"] = [c for _, c in parts]
            holder["specs"] = [_st.component_spec(ts, c) for ts, c in parts]
            return [t for ts, _ in parts for t in ts]

        fg = _trace("map_func", map_func, input_dataset, convert)
        if any(t is None for t in fg.outputs):
            raise TypeError("map_func must return tensors, not Operations")
        self._fn = _runtime.CompiledFunction(fg)
        self._captures = self._fn.captures
        self._num_parallel_calls = num_parallel_calls
        self._set_element(holder["structure"], [t for t, _ in holder["specs"]], [s for _, s in holder["specs"]],
                          holder["classes"])
        # map followed by batch: an elementwise function is applied once to the whole batch.
        self._batched_fn = None
        if not self._captures and not _st.any_sparse(self._classes + input_dataset._classes) and \
                _elementwise(fg, input_dataset):
            try:
                bfg = func_graph_from_py_func(
                    "map_func_batched", lambda *args: _call_with_element(map_func, input_dataset._structure, args),
                    [(t, TensorShape([None]).concatenate(s)) for t, s in zip(input_dataset._types,
                                                                            input_dataset._shapes)],
                    convert_outputs=lambda r: [convert_to_tensor(x) for x in flatten(_listless(r))])
                if not bfg.external_captures and len(bfg.outputs) == len(fg.outputs) and \
                        all(a.dtype == b.dtype for a, b in zip(bfg.outputs, fg.outputs)):
                    self._batched_fn = _runtime.CompiledFunction(bfg)
            except Exception:  # noqa: BLE001 - not vectorizable after all: map element by element
                self._batched_fn = None

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)
        fn = _st.adapt(self._fn.bind(valmap, rt.ctx), self._inputs[0]._classes, self._classes)
        n = self._num_parallel_calls
        resumable = id(self) in rt.resumable
        Failed = _runtime.Failed
        if n is not None and (n == AUTOTUNE or n > 1):
            parallel = 2 if n == AUTOTUNE else n

            def make():
                for out in _runtime.parallel_map(make_input, fn, parallel, rt, resumable):
                    yield out if isinstance(out, Failed) else tuple(out)
            return make

        def make():
            it = make_input()
            try:
                for element in it:
                    if isinstance(element, Failed):
                        yield element
                        continue
                    try:
                        out = tuple(fn(*element))
                    except errors.OpError as e:
                        if not resumable:
                            raise
                        # TF fails this element only: stand in for it and go on.
                        out = Failed(e)
                    yield out
            finally:
                it.close()
        return make


_ELEMENTWISE = frozenset([
    "Cast", "Identity", "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum", "Neg", "Abs",
    "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Tanh", "Sigmoid", "Relu", "Relu6", "Floor", "Ceil",
    "Round", "Sign", "Reciprocal", "Pow", "Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual",
    "LogicalAnd", "LogicalOr", "LogicalNot", "Select", "FloorDiv", "FloorMod", "Mod", "SquaredDifference"])


def _elementwise(fg, dataset):
    """True when every op of `fg` acts elementwise on whole per-element tensors (scalar constants
    aside), so applying it to a batch equals batching its results."""
    args = set(fg.inputs)
    for op in fg.get_operations():
        if op.type == "Placeholder" and all(t in args for t in op.outputs):
            continue
        if op.type == "Const":
            if any(t.shape.ndims != 0 for t in op.outputs):
                return False
            continue
        if op.type not in _ELEMENTWISE or op.control_inputs:
            return False
        out = op.outputs[0].shape
        if not out.is_fully_defined():
            return False
        for t in op.inputs:
            if t.shape.ndims == 0 and t.op.type == "Const":
                continue
            if t.shape != out:
                return False
    return True


class _PredicateDataset(DatasetV1):
    """The input's elements, passed through a traced scalar-bool `predicate` (filter, take_while)."""

    _error = ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return type is "
              "{}.")

    def __init__(self, input_dataset, predicate):
        self._inputs = (input_dataset,)
        fg = _trace("predicate", predicate, input_dataset)
        out = fg.outputs
        if isinstance(fg.structured_outputs, (tuple, dict)):
            # TF compares the structure's spec with a TensorSpec and fails on the structure itself.
            raise AttributeError(f"'{type(fg.structured_outputs).__name__}' object has no attribute "
                                 f"'is_compatible_with'")
        if len(out) != 1 or out[0] is None or out[0].dtype.base_dtype != _dtypes.bool or \
                (out[0].shape.ndims not in (None, 0)):
            spec = TensorSpec(out[0].shape, out[0].dtype.base_dtype) if out and out[0] is not None else None
            raise ValueError(self._error.format(spec))
        self._fn = _runtime.CompiledFunction(fg)
        self._captures = self._fn.captures
        self._set_element(input_dataset._structure, input_dataset._types, input_dataset._shapes,
                          input_dataset._classes)

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)
        fn = _st.adapt(self._fn.bind(valmap, rt.ctx), self._inputs[0]._classes, [Tensor])
        select = self._select
        resumable = id(self) in rt.resumable

        def keep(element):
            return fn(*element)[0]

        if resumable:
            def keep(element):
                # A Failed input, or a predicate that fails, is kept as a Failed (TF raises it).
                if isinstance(element, _runtime.Failed):
                    return True
                try:
                    return fn(*element)[0]
                except errors.OpError as e:
                    return _runtime.Failed(e)

        def make():
            it = make_input()
            try:
                yield from select(it, keep)
            finally:
                it.close()
        return make


class FilterDataset(_PredicateDataset):
    @staticmethod
    def _select(elements, keep):
        for element in elements:
            k = keep(element)
            if isinstance(k, _runtime.Failed):
                yield k
            elif k:
                yield element


class _DatasetFunction:
    """A function element -> Dataset (flat_map, interleave): traced once; per element, a plan
    computes the inner dataset's captured tensors, and the inner dataset is bound to them."""

    def __init__(self, name, fn, dataset):
        holder = {}

        def convert(result):
            if not isinstance(result, DatasetV1):
                raise TypeError(f"`map_func` must return a `Dataset` object. Got {type(result)}.")
            holder["ds"] = result
            return result.all_captures()

        fg = _trace(name, fn, dataset, convert)
        self.in_classes = list(dataset._classes)
        self.inner = holder["ds"]
        self.inner_captures = self.inner.all_captures()
        self.fn = _runtime.CompiledFunction(fg)
        self.captures = self.fn.captures

    def bind(self, valmap, rt):
        inner, caps = self.inner, self.inner_captures
        fn = _st.adapt(self.fn.bind(valmap, rt.ctx), self.in_classes, [Tensor] * len(caps))

        def make_inner(element):
            values = fn(*element)
            return inner._bind(dict(zip(caps, values)), rt)()
        return make_inner


class FlatMapDataset(DatasetV1):
    def __init__(self, input_dataset, map_func):
        self._inputs = (input_dataset,)
        self._f = _DatasetFunction("flat_map_func", map_func, input_dataset)
        self._captures = self._f.captures
        inner = self._f.inner
        self._set_element(inner._structure, inner._types, inner._shapes, inner._classes)

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)
        make_inner = self._f.bind(valmap, rt)

        def make():
            it = make_input()
            try:
                for element in it:
                    if isinstance(element, _runtime.Failed):
                        yield element
                        continue
                    yield from make_inner(element)
            finally:
                it.close()
        return make


class InterleaveDataset(FlatMapDataset):
    # TF's parallel interleaves (num_parallel_calls, experimental.parallel_interleave) count a
    # failed element in its block; the sequential one stays on the input that failed.
    _count_failed = False

    def __init__(self, input_dataset, map_func, cycle_length=None, block_length=1):
        DatasetV1.__init__(self)
        self._inputs = (input_dataset,)
        self._f = _DatasetFunction("interleave_func", map_func, input_dataset)
        self._captures = self._f.captures
        self._cycle = cycle_length if cycle_length not in (None, AUTOTUNE) else 2
        self._block = int(block_length)
        inner = self._f.inner
        self._set_element(inner._structure, inner._types, inner._shapes, inner._classes)

    def _bind(self, valmap, rt):
        make_input = self._inputs[0]._bind(valmap, rt)
        make_inner = self._f.bind(valmap, rt)
        cycle, block = int(self._cycle), self._block
        Failed = _runtime.Failed
        count_failed = self._count_failed

        def make():
            it = make_input()

            def opened():
                # (yield from) the next input element's dataset, None at the end; a failed input
                # element is passed on as met, and the input goes on.
                for element in it:
                    if isinstance(element, Failed):
                        yield element
                        continue
                    return make_inner(element)
                return None
            active = []
            exhausted = False
            try:
                while True:
                    while len(active) < cycle and not exhausted:
                        inner = yield from opened()
                        if inner is None:
                            exhausted = True
                        else:
                            active.append(inner)
                    if not active:
                        return
                    i = 0
                    while i < len(active):
                        done = False
                        taken = 0
                        while taken < block:
                            try:
                                element = next(active[i])
                            except StopIteration:
                                done = True
                                break
                            yield element
                            taken += count_failed or not isinstance(element, Failed)
                        if done:
                            active.pop(i)
                            if not exhausted:
                                inner = yield from opened()
                                if inner is None:
                                    exhausted = True
                                else:
                                    active.insert(i, inner)
                                    i += 1
                        else:
                            i += 1
            finally:
                it.close()
        return make


