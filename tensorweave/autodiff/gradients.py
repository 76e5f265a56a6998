"""`tf.gradients`: reverse-mode differentiation over the graph.

The walk knows no op: it finds the ops between `xs` and `ys`, visits them from the outputs back,
sums the gradients arriving at each output, and calls the op type's registered gradient function
(`registry.register_gradient`). Gradients are ordinary graph ops, so gradients of gradients work.
Sparse gradients (`IndexedSlices`, e.g. from a gather) stay sparse while they are only summed.
"""

import collections
import enum

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Operation, Tensor, get_default_graph, name_scope
from ..framework.indexed_slices import IndexedSlices

__all__ = ["gradients", "hessians", "AggregationMethod", "UnconnectedGradients"]


class AggregationMethod:
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(enum.Enum):
    """TF's enum: what tf.gradients returns for an x that does not affect ys."""
    NONE = "none"
    ZERO = "zero"


def _is_backpropagatable(t):
    dt = t.dtype.base_dtype
    # (a resource handle: gradients reach a resource variable through its reads)
    return dt.is_floating or dt.is_complex or dt == _dtypes.resource


def _is_loop_history(t):
    # A While's saved iteration inputs, which its gradient loop reads: gradients of the
    # gradient loop reach the forward loop through it (control_flow_ops._while_grad).
    return t.dtype.base_dtype == _dtypes.variant and t.op._type in ("While", "StatelessWhile") \
        and t is t.op._outputs[-1]


def _captured(graph, t):
    """`t` as the function being traced in `graph` sees it: the placeholder standing for it when
    the function (or each function it is nested in) captured it, else `t` itself."""
    if not isinstance(t, Tensor) or t.graph is graph or not hasattr(graph, "_captures"):
        return t
    outer = _captured(graph.outer_graph, t)
    if outer not in graph._captures:
        # A ref variable's value is captured as its read (an Identity of it): the same gradient.
        reads = [c for c in outer._consumers if c._type == "Identity" and c._outputs[0] in graph._captures]
        if reads:
            outer = reads[0]._outputs[0]
    return graph._captures.get(outer, t)


def _as_list(x):
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _to_tensor(x, as_ref):
    if isinstance(x, (Tensor, IndexedSlices)):
        return x
    if isinstance(x, Operation):  # TF's words for an op passed as ys/xs
        raise TypeError(f"can't convert Operation '{x.name}' to Tensor")
    if as_ref and getattr(x, "_is_resource_variable", False):
        return x.handle
    return convert_to_tensor(x, as_ref=as_ref)


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """Symbolic derivatives of sum(ys) with respect to each x in xs.

    Returns a list with one entry per x: a Tensor, an IndexedSlices (for gathered variables), or
    None when x does not affect ys (or zeros, with `unconnected_gradients='zero'`).
    `grad_ys` weights each y (default: ones); `stop_gradients` are held constant."""
    ys = [_to_tensor(y, False) for y in _as_list(ys)]
    xs = [_to_tensor(x, True) for x in _as_list(xs)]
    grad_ys = _as_list(grad_ys) if grad_ys is not None else [None] * len(ys)
    try:  # TF: UnconnectedGradients(value) takes the enum or its string value
        unconnected_gradients = UnconnectedGradients(unconnected_gradients)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: '{unconnected_gradients}'") from None
    # TF stops at each `t.op`: a variable's own op (not its read), so a variable that is also an
    # x still gets its gradient.
    stop_tensors = [_to_tensor(s, True) for s in _as_list(stop_gradients)]
    graph = ys[0].graph if ys else get_default_graph()
    # Inside a cond/while body, an outer x (or stop) is the body's capture of it.
    xs = [_captured(graph, x) for x in xs]
    stop_tensors = [_captured(graph, t) for t in stop_tensors]

    with graph.as_default(), name_scope(name, "gradients", ys + xs + stop_tensors):
        from ..ops import array_ops, math_ops  # op constructors for seeds and sums
        graph.unique_name("uid")  # TF reserves "<scope>/uid" for its gradient uid
        if len(grad_ys) != len(ys):  # TF checks inside the scope, so the scope name is used up
            raise ValueError(f"Length mismatch. Passed {len(grad_ys)} grad_ys for {len(ys)} ys")

        grads = {}  # op -> one list of gradient contributions per output
        seeds = []
        for i, (y, gy) in enumerate(zip(ys, grad_ys)):
            if gy is None:
                if y.dtype.is_complex:
                    raise TypeError(f"Gradients of complex tensors ({y}) must set grad_ys "
                                    f"(y.dtype = {y.dtype.name})")
                # TF: ones(shape(y)): ops "gradients/Shape", "gradients/grad_ys_0/Const", Fill.
                gy = array_ops.ones(array_ops.shape(y), dtype=y.dtype.base_dtype, name=f"grad_ys_{i}")
                gy.set_shape(y.shape)
            else:
                if not isinstance(gy, (Tensor, IndexedSlices)):
                    gy = convert_to_tensor(gy, name=f"grad_y_{i}")
                if isinstance(gy, IndexedSlices):
                    gy = IndexedSlices(array_ops.identity(gy.values, name=f"grad_ys_{i}_values"),
                                       array_ops.identity(gy.indices, name=f"grad_ys_{i}_indices"),
                                       gy.dense_shape)
                else:
                    gy = array_ops.identity(gy, name=f"grad_ys_{i}")
            seeds.append(gy)

        # The walk is TF's (gradients_util._GradientsHelper), so the gradient ops are made in the
        # same order, with the same names: ops reachable forward from xs (through differentiable
        # edges) ...
        reached = set()
        queue = collections.deque(x.op for x in xs)
        while queue:
            op = queue.popleft()
            if op not in reached:
                reached.add(op)
                for out in op._outputs:
                    if _is_backpropagatable(out) or _is_loop_history(out):
                        queue.extend(out._consumers)
        to_ops = [y.op for y in ys]
        reachable_to_ops = {op for op in to_ops if op in reached}
        # ... that also lead to some y (breadth first from the ys, as TF) ...
        between, between_list = set(), []
        queue = collections.deque(to_ops)
        while queue:
            op = queue.popleft()
            if op in reached:
                between.add(op)
                between_list.append(op)
                reached.discard(op)
                queue.extend(t.op for t in op._inputs)
        # ... with pending counts: how many consumers in `between` must report before an op is ready.
        pending = collections.defaultdict(int)
        for op in between_list:
            for t in op._inputs:
                if t.op in between:
                    pending[t.op] += 1

        for y, gy in zip(ys, seeds):
            _set_grad(grads, y, gy)

        queue = collections.deque()
        queued = set()
        for op in to_ops:
            if pending[op] == 0 and op not in queued and op in reachable_to_ops:
                queued.add(op)
                queue.append(op)

        # Ops not differentiated: an x's op with no other x upstream of it, and stop_gradients.
        stop_ops = {op for op in (x.op for x in xs)
                    if not any(pending[t.op] > 0 for t in op._inputs)}
        stop_ops.update(t.op for t in stop_tensors)
        while queue:
            op = queue.popleft()
            out_grads = _aggregated_grads(grads, op, math_ops, aggregation_method)
            has_out_grads = any(g is not None for g in out_grads)
            in_grads = None
            if has_out_grads and op not in stop_ops:
                # (The gate skips only gradients for a fed batch: see _gate.)
                in_grads = _call_grad_fn(op, out_grads, array_ops, gate_gradients,
                                         [t.op in between or t.op._type != "Placeholder"
                                          for t in op._inputs])
            if in_grads is None:
                in_grads = [None] * len(op._inputs)
            for i, (t, g) in enumerate(zip(op._inputs, in_grads)):
                if g is None:
                    continue
                if isinstance(g, Tensor) and t.dtype.base_dtype != _dtypes.resource:
                    try:
                        g.set_shape(t._shape)
                    except ValueError:
                        raise ValueError(
                            "Incompatible shapes between op input and calculated input gradient. "
                            f"Forward operation: {op.name}. Input index: {i}. "
                            f"Original input shape: {t.shape}. "
                            f"Calculated input gradient shape: {g.shape}") from None
                _set_grad(grads, t, g)
            for t in op._inputs:
                pending[t.op] -= 1
                if pending[t.op] == 0:
                    queue.append(t.op)

        result = [_get_grad(grads, x) for x in xs]
    if unconnected_gradients == UnconnectedGradients.ZERO:
        # (Outside the gradients scope, where TF makes them: "zeros_like:0".)
        with graph.as_default():
            result = [array_ops.zeros_like(x) if g is None else g for g, x in zip(result, xs)]
    return result


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """tf.hessians: for each x in xs, the second derivatives of sum(ys), shaped x.shape + x.shape.

    TF loops over the first derivative's elements with a while_loop; here each row is the
    gradient of one element, built element by element (in a "while" scope), so x must have a
    statically known size. As in TF, `name` is unused and the outer ops are TF's: "Reshape" (the
    flattened gradient), "Size", "Const", "Shape", "concat" and the result "Reshape_1"."""
    from ..framework.constant_op import constant
    from ..ops import array_ops
    xs = [_to_tensor(x, True) for x in _as_list(xs)]
    kwargs = {"colocate_gradients_with_ops": colocate_gradients_with_ops,
              "gate_gradients": gate_gradients, "aggregation_method": aggregation_method}
    graph = xs[0].graph if xs else get_default_graph()
    out = []
    with graph.as_default():
        for g, x in zip(gradients(ys, xs, **kwargs), xs):
            n = x.shape.num_elements()
            if n is None:
                raise NotImplementedError(f"tf.hessians of {x.name} (shape {x.shape}): a size known "
                                          "only at run time is not supported by tensorweave yet")
            if g is None:  # (TF fails on reshaping None; a clearer error here)
                raise ValueError(f"tf.hessians: {x.name} does not affect ys (its gradient is None)")
            flat = array_ops.reshape(convert_to_tensor(g), [-1])
            array_ops.size(x)
            constant(0, _dtypes.int32)
            with name_scope("while"):
                rows = []
                for j in range(n):
                    h = gradients(flat[j], x, **kwargs)[0]
                    rows.append(array_ops.zeros_like(x) if h is None else convert_to_tensor(h))
                stacked = array_ops.stack(rows)
            shape = array_ops.shape(x)
            out.append(array_ops.reshape(stacked, array_ops.concat((shape, shape), 0)))
            out[-1].set_shape(x.shape.concatenate(x.shape))
    return out


def _set_grad(grads, t, g):
    op_grads = grads.get(t.op)
    if op_grads is None:
        op_grads = grads[t.op] = [[] for _ in t.op._outputs]
    op_grads[t.value_index].append(g)


def _get_grad(grads, t):
    op_grads = grads.get(t.op)
    if not op_grads:
        return None
    g = op_grads[t.value_index]
    # (An x that is also another op's x upstream was aggregated when its op was visited.)
    return _aggregate(g, None) if isinstance(g, list) else g


def _aggregated_grads(grads, op, math_ops, aggregation_method=None):
    """The summed gradient of each of op's outputs (None where none arrived), as TF's
    _AggregatedGrads: one AddN per output (named in the gradients scope), IndexedSlices
    concatenated while all are sparse; EXPERIMENTAL_TREE / ACCUMULATE_N sum dense gradients
    pairwise under "<op>_gradient_sum". The sums replace the lists in `grads`."""
    if aggregation_method is None:
        aggregation_method = AggregationMethod.DEFAULT
    valid = [AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
             AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]
    if aggregation_method not in valid:
        raise ValueError(f"Invalid `aggregation_method` specified {aggregation_method}. "
                         f"Accepted values are {valid}.")
    op_grads = grads.get(op)
    if op_grads is None:
        return [None] * len(op._outputs)
    for i, gs in enumerate(op_grads):
        if not isinstance(gs, list):
            continue
        if len(gs) >= 2 and aggregation_method != AggregationMethod.ADD_N \
                and all(isinstance(g, Tensor) for g in gs):
            # (pairwise sums let each summand be freed early)
            with op.graph.name_scope(op.name + "_gradient_sum"):
                total = gs[0]
                for g in gs[1:]:
                    total = math_ops.add_n([total, g])
            op_grads[i] = total
        else:
            op_grads[i] = _aggregate(gs, math_ops)
    return list(op_grads)


def _gate(grads, needed):
    """TF's gating (control_flow_ops.tuple: all of an op's input gradients become available
    together), made in TF's op order with TF's names, with one difference: the gradient for a
    placeholder no x depends on (a first layer's MatMul gradient for the fed batch, often the
    step's biggest matmul) stays off group_deps' control inputs, so it is pruned, not computed
    each step. (It still carries TF's `_has_manual_control_dependencies` mark.)"""
    from ..ops import control_flow_ops
    gate_on = []
    for g, n in zip(grads, needed):
        if g is None:
            continue
        if n:
            gate_on.append(g)
        else:
            (g.values if isinstance(g, IndexedSlices) else g).op._attrs["_has_manual_control_dependencies"] = True
    return control_flow_ops._tuple(grads, [g.values if isinstance(g, IndexedSlices) else g for g in gate_on])


def _call_grad_fn(op, out_grads, array_ops, gate=False, needed=None):
    grad_type = op._attrs.get("_gradient_op_type", op._type)
    try:
        fn = registry.get_gradient_function(grad_type)
    except LookupError:
        raise LookupError(  # TF's words, its missing space included
            f"No gradient defined for operation'{op.name}' (op type: {op.type}). In general every "
            "operation must have an associated `@tf.RegisterGradient` for correct autodiff, which "
            "this op is lacking. If you want to pretend this operation is a constant in your "
            "program, you may insert `tf.stop_gradient`. This can be useful to silence the error in "
            "cases where you know gradients are not needed, e.g. the forward pass of "
            "tf.custom_gradient. Please see more details in "
            "https://www.tensorflow.org/api_docs/python/tf/custom_gradient.") from None
    if fn is None:
        return None
    # Outputs without a gradient get zeros when another output has one (multi-output ops);
    # TF's control_flow_state.ZerosLike: a ZerosLike op in the gradients scope.
    for i, g in enumerate(out_grads):
        if g is None and _is_backpropagatable(op._outputs[i]) \
                and op._outputs[i].dtype.base_dtype != _dtypes.resource:
            out_grads[i] = array_ops.zeros_like(op._outputs[i], optimize=False)
    with op.graph.name_scope(op.name + "_grad"):
        in_grads = fn(op, *out_grads)
        in_grads = list(in_grads) if isinstance(in_grads, (list, tuple)) else [in_grads]
        if len(in_grads) != len(op._inputs):
            raise ValueError(f"Num gradients {len(in_grads)} generated for op {op.node_def} do not "
                             f"match num inputs {len(op._inputs)}")
        if gate and sum(g is not None for g in in_grads) > 1:
            in_grads = _gate(in_grads, needed)
    return in_grads


def _aggregate(gs, math_ops):
    """Sums gradient contributions: IndexedSlices stay sparse if all are sparse."""
    if not gs:
        return None
    if len(gs) == 1:
        return gs[0]
    if math_ops is None:
        from ..ops import math_ops
    from ..ops import array_ops
    if all(isinstance(g, IndexedSlices) for g in gs):
        return IndexedSlices(array_ops.concat([g.values for g in gs], 0),
                             array_ops.concat([g.indices for g in gs], 0), gs[0].dense_shape)
    if any(isinstance(g, IndexedSlices) for g in gs):
        gs = [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in gs]
        return math_ops.add_n(gs)
    # TF's _MultiDeviceAddN: one AddN colocated with the first summand.
    with gs[0].graph.colocate_with(gs[0].op, ignore_existing=True):
        return math_ops.add_n(gs)
