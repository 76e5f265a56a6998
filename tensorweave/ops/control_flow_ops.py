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


def _graph_of(x):
    """The graph to build next to `x` in: the function being traced when there is one (it
    captures `x` from its enclosing graph, as TF's cond and while bodies do)."""
    default = get_default_graph()
    return default if default._building_function else x.graph


def group(*inputs, **kwargs):
    """An op that runs after all of `inputs` (Tensors, Operations, or lists of them)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError(f"Unknown keyword arguments: {', '.join(kwargs)}")
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
    g = _graph_of(ops[0]) if ops else get_default_graph()
    with g.as_default(), name_scope(name, "group_deps", ops) as scope:
        with g.control_dependencies(ops):
            return no_op(name=scope)


def with_dependencies(dependencies, output_tensor, name=None):
    """`output_tensor`'s value, computed only after `dependencies` have run."""
    with name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as scope:
        g = _graph_of(output_tensor)
        # TF colocates the identity with the tensor it forwards (its NodeDef gets `_class`).
        with g.colocate_with(output_tensor), g.control_dependencies(dependencies):
            if isinstance(output_tensor, Operation):
                return group(output_tensor, name=scope)
            return array_ops.identity(output_tensor, name=scope)


def tuple(tensors, name=None, control_inputs=None):
    """Returns `tensors`, each available only after all of them (and `control_inputs`) are computed."""
    return _tuple(tensors, [t for t in tensors if t is not None], name, control_inputs)


def _tuple(tensors, gate_on, name=None, control_inputs=None):
    """`tuple(tensors)` whose gate waits only for `gate_on` (the autodiff gates an op's input
    gradients on the ones the walk needs, so an unused one is pruned, not computed)."""
    with name_scope(name, "tuple", tensors):
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


# =============================================================================================
# Functional control flow: If and While ops that own traced sub-graphs (framework/func_graph.py).
#
# `If(pred, *captured)` runs one of two FuncGraphs; `While(*loop_vars, *captured)` runs its cond
# and body FuncGraphs until cond is false. Their kernels (kernels/cpu/control_flow.py) compile the
# sub-graphs once, with the session's KernelContext, when the enclosing plan is compiled. A While
# has one extra output, its history: when a gradient consumes it, the loop keeps each iteration's
# input loop values, and the gradient While replays them in reverse (recomputing one body
# iteration at a time from its saved inputs: memory linear in iterations).
# =============================================================================================

import collections as _collections
import functools as _functools

from .. import nest as _nest

from ..framework import dtypes as _dtypes
from ..framework import func_graph as _fg
from ..framework.constant_op import convert_to_tensor
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape

__all__ += ["cond", "case", "while_loop"]


class _AllInputs:
    """`ref_inputs` of If/While: every input, so variable references reach the sub-graphs as cells."""

    def __contains__(self, idx):
        return True


def _stateful_graph(fg, seen=None):
    for op in fg._ops:
        if op._op_def.stateful and op._type != "Placeholder":
            return True
    return False


for _t, _stateful in (("If", True), ("StatelessIf", False), ("While", True), ("StatelessWhile", False)):
    registry.register_op(_t, stateful=_stateful).ref_inputs = _AllInputs()
registry.register_op("LoopHistoryLen", shape_fn=lambda op: [TensorShape([])])
registry.register_op("LoopHistoryGet")
registry.register_op("BranchSavedGet")
# A gradient on a loop history: cotangents of some iterations' saved inputs (see _while_grad).
registry.register_op("LoopHistoryGradZeros", shape_fn=lambda op: [TensorShape([])])
registry.register_op("LoopHistoryGradAdd", shape_fn=lambda op: [TensorShape([])])
registry.register_op("LoopHistoryGradGet")
for _t in ("LoopHistoryLen", "LoopHistoryGet", "BranchSavedGet", "LoopHistoryGradZeros", "LoopHistoryGradAdd",
           "LoopHistoryGradGet"):
    registry.no_gradient(_t)

# Ops whose values a gradient must see again rather than redraw. A gradient of If/While recomputes
# its function from the saved inputs; these ops' outputs are instead kept by the forward op (If:
# a trailing variant output; While: the loop history) and replayed, so dropout inside a cond or a
# while_loop gets the gradient of the mask it actually used.
_RANDOM_OPS = frozenset((
    "RandomUniform", "RandomUniformInt", "RandomStandardNormal", "TruncatedNormal", "RandomShuffle",
    "Multinomial", "RandomGamma", "RandomPoisson", "RandomPoissonV2", "ParameterizedTruncatedNormal",
    "UniformCandidateSampler", "LogUniformCandidateSampler", "LearnedUnigramCandidateSampler",
    "FixedUnigramCandidateSampler", "AllCandidateSampler", "ThreadUnsafeUnigramCandidateSampler"))


def _replayed_tensors(fg):
    """Names of the outputs of FuncGraph `fg`'s random ops, to replay in its gradient. (Random
    ops in an If/While nested inside `fg` are still redrawn when the outer gradient recomputes.)"""
    return [t.name for op in fg._ops if op._type in _RANDOM_OPS for t in op._outputs]


def _most_specific_compatible_shape(a, b):
    if a.ndims is None or b.ndims is None or a.ndims != b.ndims:
        return unknown_shape()
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def _flat_outputs(structure, op_value=True):
    """A branch's result, flattened; an Operation becomes a bool tensor gated on it (as TF1: the
    branch's pivot, so it reads True from the true branch and False from the false one)."""
    out = []
    for x in _fg.flatten(structure):
        if x is None and structure is None:
            raise ValueError(f"'{'true_fn' if op_value else 'false_fn'}' must have a return value.")
        if isinstance(x, Operation):
            with get_default_graph().control_dependencies([x]):
                from ..framework.constant_op import constant
                out.append(array_ops.identity(constant(op_value)))
        elif isinstance(x, SparseTensor):
            out.extend([x.indices, x.values, x.dense_shape])  # (rebuilt by _restore_tensor_arrays)
        else:
            from ..ops import tensor_array_ops
            if isinstance(x, tensor_array_ops.TensorArray):
                x = x.flow
            out.append(convert_to_tensor(x))
    return out


def _union_inputs(graphs, first_inputs):
    """The owning op's inputs after `first_inputs`: each graph's captures, merged; and for each
    graph, the index (into all inputs) feeding each of its capture placeholders."""
    caps = []
    index = {}
    for g in graphs:
        for t in g.external_captures:
            if t not in index:
                index[t] = first_inputs + len(caps)
                caps.append(t)
    return caps, [[index[t] for t in g.external_captures] for g in graphs]


def _control_captures(graphs):
    ops = []
    for g in graphs:
        for c in g.control_captures:
            if c not in ops:
                ops.append(c)
    return ops


def _make_if(pred, then_g, else_g, name):
    """The If op over two traced graphs with equal flat output dtypes; returns its outputs."""
    caps, (ti, ei) = _union_inputs([then_g, else_g], 1)
    g = pred.graph if not get_default_graph()._building_function else get_default_graph()
    shapes = [_most_specific_compatible_shape(a.shape, b.shape) for a, b in zip(then_g.outputs, else_g.outputs)]
    op_type = "If" if (_stateful_graph(then_g) or _stateful_graph(else_g)) else "StatelessIf"
    attrs = {"then_branch": then_g, "else_branch": else_g, "then_inputs": [i - 1 for i in ti],
             "else_inputs": [i - 1 for i in ei], "Tout": [t.dtype.base_dtype for t in then_g.outputs]}
    out_dtypes = [t.dtype.base_dtype for t in then_g.outputs]
    saved = _replayed_tensors(then_g), _replayed_tensors(else_g)
    if saved[0] or saved[1]:
        # The taken branch's random values, as a trailing variant output for the gradient.
        attrs["then_saved"], attrs["else_saved"] = saved
        out_dtypes.append(_dtypes.variant)
        shapes = shapes + [TensorShape([])]
    with g.control_dependencies(_control_captures([then_g, else_g]) or []):
        op = g._create_op(op_type, [pred] + caps, out_dtypes, name=name, attrs=attrs, shapes=shapes)
    return op



def _not_scalar_error(node, op_text, inputs):
    """TF's shape-function error for a predicate that is not a scalar, as the node it would be."""
    from ..framework.graph_elements import _shape_summary
    return ValueError(f"Shape must be rank 0 but is rank {inputs[0].shape.ndims} for '{{{{node {node}}}}} = "
                      f"{op_text}({', '.join(t._as_node_def_input() for t in inputs)})' with input shapes: "
                      f"{', '.join(_shape_summary(t.shape) for t in inputs)}.")

def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """Returns `true_fn()` if `pred` is true else `false_fn()`; only the taken branch runs."""
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): true_fn and fn1 may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): false_fn and fn2 may not be set simultaneously.")
        false_fn = fn2
    if true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    if isinstance(pred, builtins.bool):
        raise TypeError("'pred' must not be a Python bool.")
    with name_scope(name, "cond", [pred]) as scope:
        pred = convert_to_tensor(pred)
        # (TF's errors come from the first Switch, of pred on pred, named scope + "Switch")
        if pred.dtype.base_dtype != _dtypes.bool:
            raise TypeError(f"Input 'pred' of 'Switch' Op has type {pred.dtype.base_dtype.name} that "
                            "does not match expected type of bool.")
        if pred.shape.ndims not in (None, 0):
            raise _not_scalar_error(scope + "Switch", "Switch[T=DT_BOOL]", [pred, pred])
        outer = get_default_graph()
        then_g = _fg.func_graph_from_py_func(scope + "true", true_fn, [], outer, _flat_outputs,
                                             inline_seeds=True)
        else_g = _fg.func_graph_from_py_func(scope + "false", false_fn, [], outer,
                                             lambda st: _flat_outputs(st, op_value=False),
                                             inline_seeds=True)
        ts, es = then_g.structured_outputs, else_g.structured_outputs
        if not strict:
            ts, es = _unpack_singleton(ts), _unpack_singleton(es)
        # As TF: the branches' results (a singleton unpacked unless strict) must have the same
        # structure, sequence types included.
        _nest.assert_same_structure(ts, es)
        for a, b in zip(then_g.outputs, else_g.outputs):
            if a.dtype.base_dtype != b.dtype.base_dtype:
                raise ValueError(f"Outputs of 'true_fn' and 'false_fn' must have the same type(s). Received "
                                 f"{a.dtype.base_dtype.name} from 'true_fn' and {b.dtype.base_dtype.name} "
                                 f"from 'false_fn'.")
        if not then_g.outputs:
            return None
        op = _make_if(pred, then_g, else_g, "If")
        # TF1's user-visible names: the outputs are cond/Merge:0, cond/Merge_1:0, ...
        outs = _named_outputs(op._outputs[:len(then_g.outputs)], "Merge")
        structure = ts
        result = _fg.pack_sequence_as(structure, _restore_tensor_arrays(structure, outs))
        return result


def _named_outputs(tensors, name):
    """Forwarding Identity ops named like TF1's control-flow outputs (Merge, Exit)."""
    return [array_ops.identity(t, name=name) for t in tensors]


def _unpack_singleton(x):
    if isinstance(x, (list, builtins.tuple)) and len(x) == 1 and not hasattr(x, "_fields"):
        return x[0]
    return x


def _restore_tensor_arrays(structure, flat):
    """The structure's leaves from the op's flat outputs: TensorArrays from their flows,
    SparseTensors from their three component tensors."""
    from ..ops import tensor_array_ops
    out = []
    flat = iter(flat)
    for proto in _fg.flatten(structure):
        if isinstance(proto, tensor_array_ops.TensorArray):
            out.append(tensor_array_ops.TensorArray._from_flow(proto, next(flat)))
        elif isinstance(proto, SparseTensor):
            out.append(SparseTensor(next(flat), next(flat), next(flat)))
        else:
            out.append(next(flat))
    return out


def _case_verify(pred_fn_pairs, exclusive, name):
    """TF's `_case_verify_and_canonicalize_args`: the (predicates, fns) of `pred_fn_pairs`."""
    if not isinstance(pred_fn_pairs, (list, builtins.tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. "
                        f"Received: {type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, _collections.OrderedDict):
        pred_fn_pairs = pred_fn_pairs.items()
    elif isinstance(pred_fn_pairs, dict):
        # As TF in graph mode: a plain dict's pairs are tried in the order of their predicates' names.
        pred_fn_pairs = sorted(pred_fn_pairs.items(), key=lambda item: item[0].name)
    for pair in pred_fn_pairs:
        if not isinstance(pair, builtins.tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if isinstance(pred, Tensor):
            if pred.dtype != _dtypes.bool:
                raise TypeError("pred must be Tensor of type bool: %s" % pred.name)
        else:
            raise TypeError("pred must be a Tensor, got: %s" % pred)
        if not callable(fn):
            raise TypeError("fn for pred %s must be callable." % pred.name)
    predicates, actions = zip(*pred_fn_pairs)
    return predicates, actions


def _assert_at_most_n_true(predicates, n, msg):
    from . import logging_ops, math_ops
    from ..framework.constant_op import constant
    preds_c = array_ops.stack(predicates, name="preds_c")
    num_true = math_ops.reduce_sum(math_ops.cast(preds_c, _dtypes.int32), name="num_true_conds")
    condition = math_ops.less_equal(num_true, constant(n, name="n_true_conds"))
    names = ", ".join(getattr(p, "name", "?") for p in predicates)
    return logging_ops.Assert(condition, [f"{msg}: more than {n} conditions ({names}) evaluated as True:", preds_c],
                              summarize=len(predicates))


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The first `fn` whose `pred` is true (a chain of conds); `default` if none is."""
    predicates, actions = _case_verify(pred_fn_pairs, exclusive, name)
    with name_scope(name, "case", [predicates]):
        if default is None:
            # As TF: the last pair is the default, asserting its predicate (so no true predicate
            # is an InvalidArgumentError at run time).
            k = len(predicates) - 1
            all_preds, last_pred, last_fn = predicates, predicates[k], actions[k]
            others = predicates[:k]
            predicates, actions = predicates[:k], actions[:k]

            def default():
                from . import logging_ops
                checks = [_assert_at_most_n_true(
                    others, 0, "Implementation error: selected default action #%d was called, but some of "
                               "other predicates are True: " % k),
                    logging_ops.Assert(last_pred, ["Input error: None of conditions evaluated as True:",
                                                   array_ops.stack(all_preds, name="preds_c")])]
                with get_default_graph().control_dependencies(checks):
                    out = last_fn()
                    # (a tensor made before the checks is forwarded, so they gate it; one made
                    # under them is returned as it is, as TF)
                    return _fg.map_structure(
                        lambda t: array_ops.identity(t) if isinstance(t, Tensor)
                        and not all(c in t.op.control_inputs for c in checks) else t, out)
        fn = default
        for predicate, action in reversed(list(zip(predicates, actions))):
            fn = _functools.partial(cond, predicate, true_fn=action, false_fn=fn, strict=strict)
        if exclusive:
            with get_default_graph().control_dependencies(
                    [_assert_at_most_n_true(predicates, 1, "Input error: exclusive=True")]):
                return fn()
        return fn()


# -- while_loop -------------------------------------------------------------------------------

def _to_flows(flat):
    from ..ops import tensor_array_ops
    return [x.flow if isinstance(x, tensor_array_ops.TensorArray) else x for x in flat]


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, name=None, maximum_iterations=None, return_same_structure=False):
    """Repeats `body` while `cond` is true (TF1 `tf.while_loop`); returns the final loop vars."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    from ..ops import tensor_array_ops
    from .. import nest as _nest
    # (As TF: a bare Tensor is not a valid loop_vars, its truth value is refused before the
    # loop takes its name.)
    no_vars = not loop_vars
    with name_scope(name, "while", _fg.flatten(loop_vars)) as scope:
        if no_vars:
            raise ValueError("'loop_vars' must be provided.")
        try_to_pack = len(loop_vars) == 1 and not return_same_structure
        mi = None
        if maximum_iterations is not None:
            mi = convert_to_tensor(maximum_iterations, name="maximum_iterations")
            if mi.shape.ndims != 0:
                raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: {mi.shape}")
            # As TF: an iteration counter becomes the first loop variable, the user's loop vars
            # (or the only one of them) the second.
            counter = convert_to_tensor(0, dtype=mi.dtype, name="iteration_counter")
            orig_cond, orig_body = cond, body
            if try_to_pack:
                loop_vars = (counter, loop_vars[0])
                cond = lambda i, lv: _max_iter_cond(i, mi, orig_cond(lv))  # noqa: E731
                body = lambda i, lv: (i + 1, orig_body(lv))  # noqa: E731
            else:
                loop_vars = (counter, loop_vars)
                cond = lambda i, lv: _max_iter_cond(i, mi, orig_cond(*_call_args(lv)))  # noqa: E731
                body = lambda i, lv: (i + 1, _same_sequence_type(lv, orig_body(*_call_args(lv))))  # noqa: E731
            try_to_pack = False
            if shape_invariants is not None:
                shape_invariants = (TensorShape([]), shape_invariants)
        if not isinstance(parallel_iterations, int):
            # (TF's WhileContext: an int is required past the `< 1` check above)
            raise ValueError(f"'parallel_iterations' must be a positive integer: {parallel_iterations}")
        structure = loop_vars
        flat = _fg.flatten(loop_vars)
        protos = list(flat)
        items = [x if isinstance(x, SparseTensor) else convert_to_tensor(x) for x in _to_flows(flat)]
        if shape_invariants is not None:
            if _fg.is_sequence(loop_vars):
                _nest.assert_same_structure(loop_vars, shape_invariants)
                invariants = _fg.flatten(shape_invariants)
            else:
                invariants = [shape_invariants]
            # (As TF: a None invariant keeps the variable's own shape.)
            invariants = [t.shape if s is None else as_shape(s) for t, s in zip(items, invariants)]
            for t, s in zip(items, invariants):
                if isinstance(t, SparseTensor):
                    continue
                if not s.is_compatible_with(t.shape) or (t.shape.ndims is not None and s.ndims is not None
                                                         and not t.shape.is_compatible_with(s)):
                    raise ValueError(f"The shape invariant specified for {t.name} is not compatible with the "
                                     f"initial shape of the loop variable. It enters the loop with shape "
                                     f"{t.shape}, but the specified shape invariant is {s}.")
        else:
            invariants = [t.shape for t in items]
        flat_t, invariants = _sparse_components(items, invariants)

        def restore(vals, struct=None, struct_protos=None):
            return _fg.pack_sequence_as(structure if struct is None else struct,
                                        _restore_tensor_arrays(protos if struct_protos is None else struct_protos,
                                                               vals))

        specs = [(t.dtype.base_dtype, s) for t, s in zip(flat_t, invariants)]
        outer = get_default_graph()

        def cond_fn(*args):
            # TF's cond sees the loop's Merge outputs, its body their Identity (the names a
            # program printing them inside the loop sees).
            args = [array_ops.identity(a, name="Merge") for a in args]
            return convert_to_tensor(cond(*_call_args(restore(args))))

        def body_fn(*args):
            args = [array_ops.identity(a, name="Identity") for a in args]
            packed = restore(args)
            res = body(*_call_args(packed))
            if not _nest.is_nested(res):
                res = [res]
            # As TF: the first layer is compared as a list (inputs are typically lists and the
            # body's results tuples); below it, the sequence types must match too.
            _nest.assert_same_structure(_call_args(packed), list(res))
            # TF packs the loop's results like the body's result (a tuple stays a tuple).
            body_structure[0] = res
            outs = [convert_to_tensor(x) for x in _sparse_components(_to_flows(_fg.flatten(res)))[0]]
            return outs

        body_structure = [None]
        cond_g = _fg.func_graph_from_py_func(scope + "cond", cond_fn, specs, outer,
                                             lambda r: [convert_to_tensor(r)], inline_seeds=True)
        body_g = _fg.func_graph_from_py_func(scope + "body", body_fn, specs, outer, lambda r: list(r),
                                             inline_seeds=True)
        # (TF's errors come from the loop's LoopCond op, whose input is cond's result)
        if cond_g.outputs[0].dtype.base_dtype != _dtypes.bool:
            raise TypeError(f"Input 'input' of 'LoopCond' Op has type "
                            f"{cond_g.outputs[0].dtype.base_dtype.name} that does not match expected type of bool.")
        if cond_g.outputs[0].shape.ndims not in (None, 0):
            raise _not_scalar_error(scope + "LoopCond", "LoopCond[]", [cond_g.outputs[0]])
        for t, o, s in zip(flat_t, body_g.outputs, invariants):
            if o.dtype.base_dtype != t.dtype.base_dtype:
                raise TypeError(f"Loop variable {t.name} enters the loop with type {t.dtype.base_dtype.name}, "
                                f"but has type {o.dtype.base_dtype.name} after one iteration.")
            if not _shape_less_specific(s, o.shape):
                raise ValueError(f"Input tensor '{t.name}' enters the loop with shape {s}, but has shape "
                                 f"{o.shape} after one iteration. To allow the shape to vary across "
                                 "iterations, use the `shape_invariants` argument of tf.while_loop to "
                                 "specify a less-specific shape.")
        op = _make_while(flat_t, cond_g, body_g, invariants, back_prop, parallel_iterations)
        # TF1's user-visible names: while/Exit:0, while/Exit_1:0, ... (the iteration counter of
        # maximum_iterations comes first, as in TF).
        outs = _named_outputs(list(op._outputs[:-1]), "Exit")
        res_structure = body_structure[0]
        res_protos = [p if isinstance(p, tensor_array_ops.TensorArray) else q
                      for p, q in zip(_fg.flatten(res_structure), protos)]
        result = restore(outs, res_structure, res_protos)
        if mi is not None:
            return result[1]
        if return_same_structure:
            return result
        return result[0] if len(outs) == 1 else result


def _sparse_components(items, shapes=None):
    """`items` with each SparseTensor as its indices, values and dense_shape, and their shape
    invariants: a SparseTensor's number of values may change from one iteration to the next."""
    flat, out_shapes = [], []
    for k, x in enumerate(items):
        if isinstance(x, SparseTensor):
            rank = shapes[k].ndims if shapes is not None and shapes[k].ndims is not None else \
                x.dense_shape.shape[0].value
            flat += [x.indices, x.values, x.dense_shape]
            out_shapes += [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]
        else:
            flat.append(x)
            out_shapes.append(shapes[k] if shapes is not None else None)
    return flat, out_shapes


def _same_sequence_type(lv, res):
    """The body's result with a plain list/tuple made the loop vars' type. (TF compares it with
    the loop vars type for type under maximum_iterations, so a list of loop vars and a body
    returning a tuple is a TypeError there; tensorweave accepts it, as TF does without
    maximum_iterations.)"""
    if type(lv) in (list, builtins.tuple) and type(res) in (list, builtins.tuple) and len(lv) == len(res):
        return type(lv)(res)
    return res


def _max_iter_cond(i, mi, c):
    from . import math_ops
    return math_ops.logical_and(i < mi, c)


def _call_args(packed):
    """The arguments cond and body get: `*packed` (as TF: a namedtuple's fields, a dict's keys);
    a lone loop variable given bare is passed as it is."""
    if _nest.is_nested(packed):
        return list(packed)
    return [packed]


def _shape_less_specific(inv, shape):
    """True if `shape` is compatible with the invariant `inv` (inv may be less specific)."""
    if inv.ndims is None:
        return True
    if shape.ndims is None or shape.ndims != inv.ndims:
        return False
    return all(a is None or a == b for a, b in zip(inv.as_list(), shape.as_list()))


def _make_while(flat_t, cond_g, body_g, shapes, back_prop=True, parallel_iterations=10):
    n = len(flat_t)
    caps, (ci, bi) = _union_inputs([cond_g, body_g], n)
    g = get_default_graph()
    op_type = "While" if (_stateful_graph(cond_g) or _stateful_graph(body_g)) else "StatelessWhile"
    attrs = {"cond": cond_g, "body": body_g, "cond_inputs": ci, "body_inputs": bi, "n_vars": n,
             "back_prop": back_prop, "parallel_iterations": parallel_iterations,
             "T": [t.dtype.base_dtype for t in flat_t]}
    saved = _replayed_tensors(body_g) if back_prop else []
    if saved:
        attrs["body_saved"] = saved  # kept in the loop history next to each iteration's inputs
    with g.control_dependencies(_control_captures([cond_g, body_g]) or []):
        op = g._create_op(op_type, list(flat_t) + caps, [t.dtype.base_dtype for t in flat_t] + [_dtypes.variant],
                          name="While", attrs=attrs, shapes=list(shapes) + [TensorShape([])])
    return op


# -- gradients --------------------------------------------------------------------------------

_TENSOR_ARRAY_READS = frozenset(("TensorArrayReadV3", "TensorArrayGatherV3", "TensorArrayConcatV3"))


def _copy_graph(src, mapping):
    """Copies FuncGraph `src`'s ops (except its inputs) into the default graph, with `mapping`
    giving the tensor for each of `src.inputs` (and for any other tensor whose op is not to be
    copied); returns the tensor map (control inputs between copied ops are kept; the copy
    recomputes the function from the given inputs)."""
    g = get_default_graph()
    tmap = dict(mapping)
    omap = {}
    inputs = set(src.inputs)
    for op in src._ops:
        if op._type == "Placeholder" and op._outputs[0] in inputs:
            continue
        if op._outputs and all(t in tmap for t in op._outputs):
            continue  # replayed values (see _replayed_tensors)
        ins = [tmap[t] for t in op._inputs]
        ctl = [omap[c] for c in op._control_inputs if c in omap]
        attrs = dict(op._attrs)
        if op._type in _TENSOR_ARRAY_READS:
            attrs["_reread"] = True   # the recomputation reads an element the forward read cleared
        with g.control_dependencies(ctl):
            new = g._create_op(op._type, ins, [t.dtype for t in op._outputs], name=op._name.split("/")[-1],
                               attrs=attrs, shapes=[t.shape for t in op._outputs])
        for a, b in zip(op._outputs, new._outputs):
            if b._shape.ndims is None and a._shape.ndims is not None:
                b._shape = a._shape
            tmap[a] = b
        omap[op] = new
    return tmap


def _float(t):
    return t is not None and (t.dtype.base_dtype.is_floating or t.dtype.base_dtype.is_complex)


def _float_resource(t):
    """A captured handle of a float resource variable of known shape: the body's reads of it
    are differentiable, so the loop's gradient accumulates one for the variable."""
    from .resource_variable_ops import handle_dtype, handle_shape
    if t is None or t.dtype.base_dtype != _dtypes.resource:
        return False
    dt = handle_dtype(t)
    return dt is not None and _dtypes.as_dtype(dt).is_floating and \
        TensorShape(handle_shape(t)).is_fully_defined()


def _zeros_for(t):
    """zeros_like(t), or for a resource handle zeros of its variable's shape and dtype."""
    if t.dtype.base_dtype == _dtypes.resource:
        from .resource_variable_ops import handle_dtype, handle_shape
        return array_ops.zeros(TensorShape(handle_shape(t)).as_list(),
                               dtype=_dtypes.as_dtype(handle_dtype(t)))
    return array_ops.zeros_like(t)


def _dense(g):
    from ..framework.indexed_slices import IndexedSlices
    if isinstance(g, IndexedSlices):
        return convert_to_tensor(g)
    return g


@registry.register_gradient("If")
@registry.register_gradient("StatelessIf")
def _if_grad(op, *grads):
    from ..autodiff.gradients import gradients
    inputs = list(op.inputs[1:])
    want = [j for j, t in enumerate(inputs) if _float(t)]
    ys_idx = [k for k, t in enumerate(op._outputs) if _float(t) and grads[k] is not None]
    if not want or not ys_idx:
        return [None] * len(op.inputs)

    def branch(fg, idxs, saved):
        def fn():
            cur = get_default_graph()
            # (Captured here, so a branch that returns an input unchanged maps to the very
            # tensor the gradient is taken with respect to.)
            mapping = {p: cur.capture(inputs[i]) for p, i in zip(fg.inputs, idxs)}
            if saved:
                held = cur.capture(op._outputs[-1])
                for i, name in enumerate(saved):
                    t = fg.get_tensor_by_name(name)
                    mapping[t] = apply_op("BranchSavedGet", [held], [t.dtype.base_dtype], "BranchSavedGet",
                                          attrs={"index": i}, shapes=[t.shape])
            tmap = _copy_graph(fg, mapping)
            ys = [tmap.get(fg.outputs[k], fg.outputs[k]) for k in ys_idx]
            xs = [cur.capture(inputs[j]) for j in want]
            gys = [cur.capture(grads[k]) for k in ys_idx]
            gs = gradients(ys, xs, grad_ys=gys)
            return [_dense(g) if g is not None else array_ops.zeros_like(x) for g, x in zip(gs, xs)]
        return fn

    with name_scope(None, "cond_grad", [op.inputs[0]]) as scope:
        outer = get_default_graph()
        tg = _fg.func_graph_from_py_func(scope + "true", branch(op._get_attr("then_branch"), op._get_attr("then_inputs"),
                                                                op._attrs.get("then_saved")), [], outer, list)
        eg = _fg.func_graph_from_py_func(scope + "false", branch(op._get_attr("else_branch"), op._get_attr("else_inputs"),
                                                                 op._attrs.get("else_saved")), [], outer, list)
        for a, b in zip(tg.outputs, eg.outputs):
            if a.dtype.base_dtype != b.dtype.base_dtype:
                raise TypeError("cond gradient branches disagree on dtypes")
        new = _make_if(op.inputs[0], tg, eg, "If")
    out = [None] * len(op.inputs)
    for j, t in zip(want, new._outputs):
        out[1 + j] = t
    return out


def _is_history(t):
    """`t` is a While's loop history (its last output)."""
    return t.dtype.base_dtype == _dtypes.variant and t.op._type in ("While", "StatelessWhile") \
        and t is t.op._outputs[-1]


@registry.register_gradient("While")
@registry.register_gradient("StatelessWhile")
def _while_grad(op, *grads):
    """The gradient loop: from the last iteration back to the first, the body's vector-Jacobian
    product at the iteration's saved inputs (its loop history). A gradient on the history itself
    (the cotangents of the saved inputs, from differentiating a gradient loop that read them) is
    added at each iteration, so gradients of gradient loops are exact."""
    from ..autodiff.gradients import gradients
    from . import math_ops
    if not op._get_attr("back_prop"):
        return [None] * len(op.inputs)
    n = op._get_attr("n_vars")
    body = op._get_attr("body")
    bi = op._get_attr("body_inputs")
    saved = op._attrs.get("body_saved") or []
    inputs = list(op.inputs)
    var_f = [k for k in range(n) if _float(inputs[k])]
    cap_f = [j for j in range(n, len(inputs)) if (_float(inputs[j]) or _float_resource(inputs[j]))
             and j in bi]
    # Histories of other loops this body reads (a gradient loop's), and its reads of each.
    cap_h = [j for j in range(n, len(inputs)) if j in bi and _is_history(inputs[j])]
    if not var_f:
        return [None] * len(inputs)
    hist = op._outputs[-1]
    hist_grad = grads[-1] if len(grads) == len(op._outputs) else None
    var_dtypes = [t.dtype.base_dtype for t in op._outputs[:n]]
    var_shapes = [t.shape for t in body.inputs[:n]]
    body_caps = dict(zip(bi, body.inputs[n:]))
    reads = {j: [r for r in body._ops if r._type == "LoopHistoryGet" and r._inputs[0] is body_caps[j]
                 and not r._attrs.get("start")] for j in cap_h}
    cap_h = [j for j in cap_h if reads[j]]
    with name_scope(None, "while_grad", [hist]):
        n_iter = apply_op("LoopHistoryLen", [hist], [_dtypes.int32], "LoopHistoryLen")
        g0 = [grads[k] if grads[k] is not None else array_ops.zeros_like(op._outputs[k]) for k in var_f]
        c0 = [_zeros_for(inputs[j]) for j in cap_f]
        h0 = [apply_op("LoopHistoryGradZeros", [], [_dtypes.variant], "LoopHistoryGradZeros") for _ in cap_h]
        from ..framework.constant_op import constant
        loop0 = [constant(0, _dtypes.int32)] + g0 + c0 + h0
        shapes = [TensorShape([])] + [var_shapes[k] for k in var_f] + [c.shape for c in c0] + \
            [TensorShape([])] * len(h0)

        def gcond(*args):
            return math_ops.less(args[0], n_iter)

        def gbody(*args):
            cur = get_default_graph()
            k = args[0]
            gv = list(args[1:1 + len(var_f)])
            gc = list(args[1 + len(var_f):1 + len(var_f) + len(cap_f)])
            gh = list(args[1 + len(var_f) + len(cap_f):])
            idx = math_ops.subtract(math_ops.subtract(n_iter, k), 1)
            xs = apply_op("LoopHistoryGet", [hist, idx], var_dtypes, "LoopHistoryGet", shapes=var_shapes)
            xs = xs if isinstance(xs, list) else [xs]
            mapping = {p: xs[i] for i, p in enumerate(body.inputs[:n])}
            for p, j in zip(body.inputs[n:], bi):
                mapping[p] = cur.capture(inputs[j])
            if saved:
                kept = [body.get_tensor_by_name(name) for name in saved]
                got = apply_op("LoopHistoryGet", [hist, idx], [t.dtype.base_dtype for t in kept], "LoopHistoryGet",
                               attrs={"start": n}, shapes=[t.shape for t in kept])
                mapping.update(zip(kept, got if isinstance(got, list) else [got]))
            tmap = _copy_graph(body, mapping)
            ys = [tmap[body.outputs[m]] if body.outputs[m] in tmap else mapping.get(body.outputs[m], body.outputs[m])
                  for m in var_f]
            wrt = [xs[m] for m in var_f] + [cur.capture(inputs[j]) for j in cap_f]
            read_outs = [[tmap[t] for t in r._outputs] for j in cap_h for r in reads[j]]
            gs = gradients(ys, wrt + [t for outs in read_outs for t in outs], grad_ys=gv)
            gs = [_dense(g) if g is not None else _zeros_for(w) for g, w in zip(gs, wrt + sum(read_outs, []))]
            new_gv = gs[:len(var_f)]
            if hist_grad is not None:
                # The cotangents of this iteration's saved inputs (see the docstring).
                extra = apply_op("LoopHistoryGradGet", [cur.capture(hist_grad), idx] + [xs[m] for m in var_f],
                                 [var_dtypes[m] for m in var_f], "LoopHistoryGradGet", attrs={"positions": var_f},
                                 shapes=[var_shapes[m] for m in var_f])
                extra = extra if isinstance(extra, list) else [extra]
                new_gv = [math_ops.add(a, b) for a, b in zip(new_gv, extra)]
            new_gc = [math_ops.add(a, b) for a, b in zip(gc, gs[len(var_f):len(var_f) + len(cap_f)])]
            rest = iter(gs[len(var_f) + len(cap_f):])
            new_gh = []
            for acc, j in zip(gh, cap_h):
                for r in reads[j]:
                    # (the read's index, as this recomputation computed it)
                    at = tmap.get(r._inputs[1], mapping.get(r._inputs[1], r._inputs[1]))
                    acc = apply_op("LoopHistoryGradAdd", [acc, at] + [next(rest) for _ in r._outputs],
                                   [_dtypes.variant], "LoopHistoryGradAdd", shapes=[TensorShape([])])
                new_gh.append(acc)
            return [k + 1] + new_gv + new_gc + new_gh

        specs = [(t.dtype.base_dtype, s) for t, s in zip(loop0, shapes)]
        outer = get_default_graph()
        cg = _fg.func_graph_from_py_func("while_grad_cond", gcond, specs, outer, lambda r: [r])
        bg = _fg.func_graph_from_py_func("while_grad_body", gbody, specs, outer, list)
        new = _make_while(loop0, cg, bg, shapes, back_prop=True)
    out = [None] * len(inputs)
    res = new._outputs[1:-1]
    for pos, k in enumerate(var_f):
        out[k] = res[pos]
    for pos, j in enumerate(cap_f):
        out[j] = res[len(var_f) + pos]
    for pos, j in enumerate(cap_h):
        out[j] = res[len(var_f) + len(cap_f) + pos]
    return out
