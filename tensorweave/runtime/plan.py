"""The plan compiler: prune a graph to what the fetches need, order it, bind each op's kernel, and
emit the whole step as one generated Python function of straight-line kernel calls.

Each tensor becomes a local variable of that function (the "value slot"), so running a step is
one call with no interpretation loop: per-op overhead is the kernel call itself. A value is
deleted right after its last use, so peak memory is what the dataflow needs. When a kernel
raises, the line number of the generated frame names the op that failed.
"""

import bisect
import heapq
import itertools
import re
import time

import numpy as np

from ..framework import errors, registry
from ..framework.constant_op import constant_value
from ..framework.graph import Operation, Tensor
from ..kernels.registry import Fixed, get_kernel
from ..kernels.cpu.parallel import SPLITTING_OP_TYPES, kernel_threads
from ..kernels.cpu import float_env, fused_order
from .cost_model import estimate_flops
from . import fusion, grappler
from .resources import VariableCell

__all__ = ["KernelContext", "compile_plan", "Plan", "StepContext"]

_plan_ids = itertools.count()


class KernelContext:
    """What a kernel factory may use: the array namespace, the session's resources, the device."""

    def __init__(self, session, resources, device="/job:localhost/replica:0/task:0/device:CPU:0",
                 device_type="CPU"):
        self.xp = np
        self.session = session
        self.resources = resources
        self.device = device
        self.device_type = device_type


class StepContext:
    """Per-step information for kernels registered with `needs_step` (step id, run options).
    `cancelled` becomes the error to raise when the step is aborted (e.g. its session closed);
    blocking kernels check it whenever they wake."""

    __slots__ = ("step_id", "options", "run_metadata", "cancelled")

    def __init__(self, step_id, options=None, run_metadata=None):
        self.step_id = step_id
        self.options = options
        self.run_metadata = run_metadata
        self.cancelled = None


def _prune(fetch_ops, fed):
    """The ops needed to compute `fetch_ops`, not looking past fed tensors."""
    needed = set()
    stack = list(fetch_ops)
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        needed.add(op)
        for t in op._inputs:
            if t not in fed and t._op not in needed:
                stack.append(t._op)
        for c in op._control_inputs:
            # An op whose outputs are all fed has run, as far as its dependents can tell (TF
            # moves control edges onto the feed).
            if c not in needed and not (c._outputs and all(t in fed for t in c._outputs)):
                stack.append(c)
    return needed


# Tensors of at least this many elements (static shape) steer the order towards memory: see
# _toposort.
_BIG_ELEMENTS = 1 << 22


def _big(t):
    n = t._shape.num_elements() if t._shape.is_fully_defined() else None
    return n is not None and n >= _BIG_ELEMENTS


def _toposort(ops):
    """Topological order of `ops` by depth (the longest path from an op with no inputs among
    `ops`), ties broken by creation order: deterministic, and ops that could run together stand
    together (an unrolled RNN's layer l + 1 at step t beside layer l at step t + 1), so sibling
    calls can share one kernel call (_group_siblings) and pooled ops overlap.

    Big tensors (_BIG_ELEMENTS) bend the depth order to keep few of them alive at once: an op
    that reads one goes first, an op that makes one (reading none) goes last. So initializing a
    VGG's variables makes, scales and assigns one 400 MB fc6 kernel before it draws the next
    layer's, instead of drawing every layer's random values, then scaling them all (peak RSS of
    the VGG-A benchmark's initialization 1.76 GB -> 0.91 GB)."""
    indeg = {}
    users = {op: [] for op in ops}
    for op in ops:
        deps = {t._op for t in op._inputs if t._op in users} | {c for c in op._control_inputs if c in users}
        indeg[op] = len(deps)
        for d in deps:
            users[d].append(op)

    def rank(op):
        if any(_big(t) for t in op._inputs if t._op in users):
            return -1
        return 1 if any(_big(t) for t in op._outputs) else 0
    depth = dict.fromkeys(ops, 0)
    heap = [(rank(op), 0, op._id, op) for op, n in indeg.items() if n == 0]
    heapq.heapify(heap)
    order = []
    while heap:
        _, d, _, op = heapq.heappop(heap)
        order.append(op)
        for u in users[op]:
            if depth[u] <= d:
                depth[u] = d + 1
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(heap, (rank(u), depth[u], u._id, u))
    if len(order) != len(ops):
        raise errors.InvalidArgumentError(None, None, "Graph has a cycle among the ops to run")
    return order


def _deref(cell):
    value = cell.value
    if value is None:
        raise errors.FailedPreconditionError(None, None, f"Attempting to use uninitialized value {cell.name}")
    return value


def _fetch_copy(value):
    if isinstance(value, VariableCell):
        value = _deref(value)
    if isinstance(value, np.ndarray):
        return value[()] if value.ndim == 0 else value.copy()
    return value


def _fetch_scalar(value):
    """Scalars are fetched as NumPy scalars (np.float32(1.0)), arrays as arrays, like TF."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        return value[()]
    return value


class Plan:
    """A compiled step: `run(step, feed_values)` returns the fetched values (a list)."""

    def __init__(self, fn, line_ops, filename, source, needs_step, splits=False, retvals=None):
        self._fn = fn
        self._line_ops = line_ops
        self._retvals = retvals or {}
        self._filename = filename
        self.source = source
        self.needs_step = needs_step
        self.splits = splits    # runs its kernels split (parallel.kernel_threads)

    def run(self, step, feed_values):
        saved = float_env.enter()     # subnormals flushed to zero while kernels run, as in TF
        try:
            if self.splits:
                with kernel_threads():
                    return self._fn(step, *feed_values)
            return self._fn(step, *feed_values)
        except Exception as e:  # noqa: BLE001 - translated into TF's error classes below
            raise self._translate(e) from (None if isinstance(e, (errors.OpError, ValueError, IndexError,
                                                                    ArithmeticError)) else e)
        finally:
            float_env.leave(saved)

    def _failed_op(self, exc):
        """The op whose line of this plan raised `exc` (None if it did not come from here)."""
        return self._line_ops.get(self._failed_line(exc))

    def _failed_line(self, exc):
        tb = exc.__traceback__
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                line = tb.tb_lineno
            tb = tb.tb_next
        return line

    def _translate(self, exc):
        if isinstance(exc, errors.OpError) and errors.is_graph_execution_message(exc.message):
            return exc      # already translated (by a nested plan: a branch, a loop body)
        line = self._failed_line(exc)
        if isinstance(exc, errors.OpError) and exc.op is None and line in self._retvals:
            # Reading an uninitialized variable to fetch it: TF names its fetch node, no op.
            return type(exc)(None, None, errors.graph_execution_message(
                f"{exc.message}\n\t [[{{{{node {self._retvals[line]}}}}}]]"))
        op = (exc.op if isinstance(exc, errors.OpError) else None) or self._line_ops.get(line)
        if isinstance(exc, errors.DeadlineExceededError) and exc.op is None:
            op = None       # a run's timeout (RunOptions.timeout_in_ms) names no node in TF
        if isinstance(exc, errors.FailedPreconditionError) and op is not None:
            op = _uninitialized_reader(op, exc.message)
        if isinstance(exc, errors.OpError):
            cls, msg = type(exc), exc.message
        elif isinstance(exc, (ValueError, IndexError, ArithmeticError)):
            cls, msg = errors.InvalidArgumentError, _numpy_message(str(exc))
        elif isinstance(exc, MemoryError):
            cls, msg = errors.ResourceExhaustedError, f"OOM when allocating tensor: {exc}"
        else:
            cls, msg = errors.InternalError, f"{type(exc).__name__}: {exc}"
        if op is None:
            return cls(None, None, errors.graph_execution_message(msg))
        return cls(op.node_def, op, errors.graph_execution_message(msg, op.name, getattr(op, "_stack", ())))


def _uninitialized_reader(op, message):
    """The op that read the uninitialized variable `message` names: a reference variable's
    `<var>/read` Identity is forwarded into its consumers' calls, but TF names the Identity."""
    for t in op._inputs:
        src = t._op
        if src._type == "Identity" and src._inputs and src._inputs[0]._dtype._is_ref_dtype and \
                message == f"Attempting to use uninitialized value {src._inputs[0]._op._name}":
            return src
    return op


_BROADCAST = re.compile(r"operands could not be broadcast together with shapes \(([^)]*)\) \(([^)]*)\)")


def _numpy_message(msg):
    m = _BROADCAST.search(msg)
    if m:
        def dims(s):
            return "[" + ",".join(d.strip() for d in s.split(",") if d.strip()) + "]"
        return f"Incompatible shapes: {dims(m.group(1))} vs. {dims(m.group(2))}"
    return msg


_FOLD_LIMIT = 1 << 20  # elements; larger results are computed per step rather than kept


def _reorder_for(order, rewrites):
    """(order, rewrites) with `order` re-sorted so each op follows what it reads once rewritten:
    a rotation may make an op read a tensor its original inputs did not depend on (Grappler
    re-sorts its graph too).
    Stable: ops keep their original relative order where the dependencies allow it."""
    index = {op: i for i, op in enumerate(order)}
    deps = {}
    users = {}
    for op in order:
        ins = {t._op for t in rewrites.inputs_of(op)} | set(op._control_inputs)
        ins = {d for d in ins if d in index and d is not op}
        deps[op] = len(ins)
        for d in ins:
            users.setdefault(d, []).append(op)
    ready = [index[op] for op in order if deps[op] == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        op = order[heapq.heappop(ready)]
        out.append(op)
        for u in users.get(op, ()):
            deps[u] -= 1
            if deps[u] == 0:
                heapq.heappush(ready, index[u])
    if len(out) < len(order):   # a cycle the rewrites' guards missed: run the graph as written
        return order, grappler.Rewrites()
    return out, rewrites


def _fold(kernel, values):
    """The kernel's result on constant inputs, or None if it fails (the step will report it).
    A kernel may carry `when_folded`: the variant TF's constant folding runs (e.g. Eigen's
    Softmax where a step would run oneDNN's)."""
    kernel = getattr(kernel, "when_folded", kernel)
    try:
        with np.errstate(all="ignore"), float_env.flushed():    # (TF folds with flush-to-zero too)
            out = kernel(*values)
    except Exception:  # noqa: BLE001 - leave the error to the step, which names the op
        return None
    if not isinstance(out, np.ndarray) and not np.isscalar(out):
        return None
    out = _as_array(out)
    if out.size > _FOLD_LIMIT:
        return None
    return _readonly(out)


def _as_array(value):
    # (a bytes scalar as an object array: NumPy's fixed-width bytes drop trailing NULs)
    if isinstance(value, bytes):
        return np.array(value, dtype=object)
    return np.asarray(value)


def _readonly(value):
    value = _as_array(value)
    if value.flags.writeable:
        value = value.copy()
        value.flags.writeable = False
    return value


class _Line:
    """One statement of the generated step: a kernel call (or a fetch copy) for `op`."""

    __slots__ = ("op", "lhs", "call", "reads", "parallel", "retval")

    def __init__(self, op, lhs, call, reads, parallel=False, retval=None):
        self.op = op
        self.lhs = lhs          # assignment target ("v3_0", "v3_0, _,") or "" for none
        self.call = call        # "k3(v1_0, _deref(v2_0))"
        self.reads = reads      # the locals the call reads
        self.parallel = parallel
        self.retval = retval    # a fetch copy: TF's name for the fetch node ("_retval_v_0_1")


_LOCAL = re.compile(r"\b([vr]\d+_\d+|r\d+|f\d+)\b")


def _check_fed_refs(order, fed):
    """A fed variable is a plain value: an op that updates it in place (a ref input) cannot take
    it. TF refuses the step before running anything, naming the feed's _Arg node (indexed by the
    feeds sorted by name)."""
    for op in order:
        refs = op._op_def.ref_inputs
        if not isinstance(refs, (tuple, list, set, frozenset)):
            continue  # If/While take every input by reference to pass cells to their branches
        for idx in refs:
            t = op._inputs[idx] if idx < len(op._inputs) else None
            if t in fed and t._dtype._is_ref_dtype and "_ref_arg" not in t._op._attrs:
                arg = sorted(f.name for f in fed).index(t.name)
                base = t._dtype.base_dtype.name
                raise errors.InvalidArgumentError(None, None, errors.graph_execution_message(
                    f"Input {idx} of node {op.name} was passed {base} from "
                    f"_arg_{t.name.replace(':', '_')}_{arg}:0 incompatible with expected {base}_ref."))


def compile_plan(fetches, feeds, ctx, order=None, trace=False):
    """Compiles a step computing `fetches` (Tensors and Operations) given `feeds` (Tensors).

    `order` (optional) gives the ops to run, in order, instead of pruning and sorting the graph
    (a device's partition of a step, with its Send/Recv ops). `trace=True` compiles a separate
    plan that records (op, start, end) into `step.trace` around every kernel call (no pool).

    The returned plan's run(step, feed_values) takes the feed values in the order of `feeds` and
    returns one value per fetch (None for an Operation).

    With `ctx.pool` set, an op whose estimated cost is at least `ctx.parallel_flops` is started on
    that thread pool where it stands in the order and joined just before its first consumer, so
    the ops in between (and other expensive ops) run meanwhile; cheap ops always run inline."""
    fed = {t: i for i, t in enumerate(feeds)}
    # A fetched tensor that is fed needs nothing computed; a fed tensor's op still runs when
    # another of its outputs, or the op itself (a target or control input), is needed.
    roots = [f if isinstance(f, Operation) else f._op for f in fetches
             if isinstance(f, Operation) or f not in fed]
    if order is None:
        order = _toposort(_prune(roots, fed))
    # A static value is computed from the graph, so it is wrong downstream of a fed non-placeholder
    # (feeding a Const, as tf.test.compute_gradient does): such a plan skips the static shortcut.
    static_ok = all(t._op._type == "Placeholder" for t in fed)
    # TF's Grappler rewrites that change values (grappler.py): run in the plan, not the graph.
    rewrites = grappler.optimize(order, fetches, fed, static_ok)
    # Fusions that only save passes over memory (fusion.py).
    rewrites = fusion.fuse(order, fetches, fed, rewrites, ctx.xp is np)
    if rewrites.exprs:
        order, rewrites = _reorder_for(order, rewrites)
    needed_tensors = set()
    for op in order:
        if op not in rewrites.dead:
            needed_tensors.update(rewrites.inputs_of(op))
    needed_tensors.update(f for f in fetches if isinstance(f, Tensor))

    pool = None if trace else getattr(ctx, "pool", None)
    threshold = getattr(ctx, "parallel_flops", float("inf"))
    globs = {"_deref": _deref, "_fetch_copy": _fetch_copy, "_fetch_scalar": _fetch_scalar, "_pool": pool, "_now": time.perf_counter}
    expr = {}      # tensor -> expression naming its value inside the function
    shared = {}    # tensor -> value may alias state, a constant, or a feed (copy before returning)
    lines = []
    for t, i in fed.items():
        expr[t] = f"f{i}"
        shared[t] = True
    needs_step = False
    counter = itertools.count()
    call_types = set()  # kernel types run for rewritten ops

    def input_expr(op, idx, t):
        e = expr[t]
        # A fed reference tensor (feed_dict={v: value}) carries the fed array, not a cell.
        # (A function graph's captured variable is fed its cell: attr `_ref_arg`, func_graph.py.)
        if t._dtype._is_ref_dtype and idx not in op._op_def.ref_inputs and \
                (t not in fed or "_ref_arg" in t._op._attrs):
            return f"_deref({e})"
        return e

    def emit_call(call, op):
        """Emits a rewritten op's expression (grappler.Call); returns the name of its value."""
        args = []
        for a in call.args:
            if isinstance(a, grappler.Call):
                args.append(emit_call(a, op))
            elif isinstance(a, np.ndarray):
                name = f"c{next(counter)}"
                globs[name] = _readonly(a)
                args.append(name)
            else:
                args.append(input_expr(op, -1, a))
        k = get_kernel(call.type, ctx.device_type).factory(grappler.kernel_op(call), ctx)
        call_types.add(call.type)
        j = next(counter)
        if all(a in globs for a in args):
            folded = _fold(k, [globs[a] for a in args])
            if folded is not None:
                globs[f"c{j}"] = folded
                return f"c{j}"
        globs[f"k{j}"] = k
        lines.append(_Line(op, f"v{j}_0", f"k{j}({', '.join(args)})", set(_LOCAL.findall(" ".join(args)))))
        return f"v{j}_0"

    _check_fed_refs(order, fed)
    # Grappler's remapper runs MatMul + bias + activation as one oneDNN op (fused_order)
    fused = fused_order.fused_activations(order, fetches) if ctx.xp is np else {}
    for op in order:
        if op in rewrites.dead:
            continue
        if op in rewrites.exprs:
            out = op._outputs[0]
            name = emit_call(rewrites.exprs[op], op)
            if out not in fed:
                expr[out] = name
                shared[out] = name in globs
            continue
        outs_needed = [t for t in op._outputs if t in needed_tensors and t not in fed]
        if static_ok and len(op._outputs) == 1 and outs_needed and not op._op_def.stateful \
                and registry.static_value_fn(op._type) is not None:
            with float_env.flushed():   # (as TF's constant folding, with flush-to-zero)
                value = constant_value(op._outputs[0])  # e.g. the Shape of a fully-defined tensor
            if value is not None:
                name = f"c{next(counter)}"
                globs[name] = _readonly(value)
                expr[op._outputs[0]] = name
                shared[op._outputs[0]] = True
                continue
        kd = get_kernel(op._type, ctx.device_type)
        args = [input_expr(op, i, t) for i, t in enumerate(op._inputs)]
        in_shared = any(shared.get(t, False) or t._dtype._is_ref_dtype for t in op._inputs)
        if kd.forward:
            out = op._outputs[0]
            if out not in fed:
                expr[out] = args[0]
                shared[out] = True
            continue
        k = kd.factory(op, ctx)
        j = next(counter)
        if isinstance(k, Fixed):
            name = f"c{j}"
            globs[name] = k.value
            out = op._outputs[0]
            if out not in fed:
                expr[out] = name
                shared[out] = True
            continue
        needs = getattr(k, "needs_step", False)
        if not op._op_def.stateful and not needs and len(op._outputs) == 1 and outs_needed and args \
                and all(a in globs for a in args):
            # Constant folding: every input is a compile-time constant, so compute it once now.
            folded = _fold(k, [globs[a] for a in args])
            if folded is not None:
                name = f"c{j}"
                globs[name] = folded
                expr[op._outputs[0]] = name
                shared[op._outputs[0]] = True
                continue
        if op in fused and args[0] not in globs:
            k = fused_order.fused_kernel(k, fused[op])
        kname = f"k{j}"
        globs[kname] = k
        needs_step |= needs
        call_args = (["step"] if needs else []) + args
        reads = set(_LOCAL.findall(" ".join(args)))
        parallel = (pool is not None and outs_needed and not op._op_def.stateful
                    and estimate_flops(op) >= threshold)
        call = (f"_pool.submit({', '.join([kname] + call_args)})" if parallel
                else f"{kname}({', '.join(call_args)})")
        n_out = len(op._outputs)
        if n_out == 0 or not outs_needed:
            lines.append(_Line(op, "", call, reads))
            continue
        targets = []
        for t in op._outputs:
            if t in needed_tensors and t not in fed:
                name = f"v{j}_{t._value_index}"
                expr[t] = name
                shared[t] = kd.aliases and in_shared
                targets.append(name)
            else:
                targets.append("_")
        lhs = targets[0] if n_out == 1 else ", ".join(targets) + ","
        lines.append(_Line(op, lhs, call, reads, parallel))

    # Fetches: values that may alias state or constants are copied so the user owns them.
    ret = []
    fed = set(feeds)
    for f in fetches:
        if isinstance(f, Operation):
            ret.append("None")
        elif f in fed:
            ret.append(expr[f])  # a fed tensor is fetched as the fed array, 0-d included (as TF)
        elif f._dtype._is_ref_dtype or shared.get(f, False):
            name = f"r{len(ret)}"
            retval = f"_retval_{f._op._name}_{f._value_index}_{len(ret)}"
            lines.append(_Line(f._op, name, f"_fetch_copy({expr[f]})", set(_LOCAL.findall(expr[f])),
                               retval=retval))
            ret.append(name)
        elif f._shape.ndims != 0 and f._shape.ndims is not None:
            ret.append(expr[f])
        else:
            ret.append(f"_fetch_scalar({expr[f]})")
    ret_reads = set(_LOCAL.findall(" ".join(ret)))
    splits = bool(call_types & SPLITTING_OP_TYPES) or any(
        line.op.type in SPLITTING_OP_TYPES for line in lines)
    if not trace:      # (a traced step times every op on its own)
        lines = _group_siblings(lines, globs, counter)
    return _emit(lines, ret, ret_reads, len(feeds), globs, needs_step or trace, splits, trace)


_CALL = re.compile(r"(k\d+)\(([vf]\d+(?:_\d+)?)\)$")
_MAX_GROUP = 8


def _group_siblings(lines, globs, counter):
    """Horizontal fusion: one-input kernel calls that offer a `siblings` form (the exact float32
    Sigmoid and Tanh, kernels/cpu/math.py) become one call, `va, vb, vc, = k(xa, xb, xc)`, where
    all their inputs are made and none of their outputs is read yet: an LSTM cell's three gate
    sigmoids cost one pass of ~20 NumPy operations instead of three. Each call may move anywhere
    between the line that makes its input and the first line that reads its output, but not
    across a stateful line (so what it reads, and what reads it, are unchanged). One kind of
    call is grouped at a time, on the lines as the kinds before left them."""
    kinds = []
    for line in lines:
        m = _CALL.match(line.call)
        fn = getattr(globs.get(m.group(1)), "siblings", None) if m else None
        if fn is not None and fn not in kinds:
            kinds.append(fn)
    for fn in kinds:
        lines = _group_calls_of(fn, lines, globs, counter)
    return lines


def _group_calls_of(fn, lines, globs, counter):
    """_group_siblings for the calls whose kernel's siblings form is `fn`."""
    made_at, first_read = {}, {}
    stateful = []
    for i, line in enumerate(lines):
        for name in line.reads:
            first_read.setdefault(name, i)
        for name in _LOCAL.findall(line.lhs):
            made_at[name] = i
        if line.op._op_def.stateful:
            stateful.append(i)
    calls = []
    for i, line in enumerate(lines):
        m = _CALL.match(line.call)
        if m is None or line.parallel or not _LOCAL.fullmatch(line.lhs) or line.op._control_inputs \
                or getattr(globs.get(m.group(1)), "siblings", None) is not fn:
            continue
        s = bisect.bisect_left(stateful, i)          # the stateful lines around line i
        lo = stateful[s - 1] + 1 if s else 0
        hi = stateful[s] if s < len(stateful) else len(lines)
        ready = max(made_at.get(m.group(2), -1) + 1, lo)
        need = min(first_read.get(line.lhs, len(lines)), hi)
        calls.append((ready, need, i, m.group(2)))
    at = {}         # line index q -> groups that run just before line q
    taken = set()
    calls.sort()
    group, limit, outs = [], -1, set()
    for ready, need, i, src in calls + [(len(lines) + 1, 0, -1, None)]:
        # (a call reading another member's output, tanh(tanh(x)), cannot join it)
        if group and (ready > limit or len(group) == _MAX_GROUP or src in outs):
            if len(group) > 1:
                at[group[-1][0]] = at.get(group[-1][0], []) + [group]
                taken.update(g[2] for g in group)
            group, limit, outs = [], -1, set()
        group.append((ready, need, i, src))
        if i >= 0:
            outs.add(lines[i].lhs)
        limit = need if len(group) == 1 else min(limit, need)
    if not taken:
        return lines
    out = []
    for q in range(len(lines) + 1):
        for group in at.get(q, ()):
            kname = f"k{next(counter)}"
            globs[kname] = fn
            srcs = [g[3] for g in group]
            lhs = ", ".join(lines[g[2]].lhs for g in group) + ","
            out.append(_Line(lines[group[0][2]].op, lhs, f"{kname}({', '.join(srcs)})", set(srcs)))
        if q < len(lines) and q not in taken:
            out.append(lines[q])
    return out


def _emit(lines, ret, ret_reads, n_feeds, globs, needs_step, splits, trace=False):
    """Writes the step function: joins for pooled ops before their first use, and a `del` of
    each local right after its last use."""
    # A pooled op is worth it only when something runs before its first consumer.
    for i, line in enumerate(lines):
        if line.parallel:
            names = set(_LOCAL.findall(line.lhs))
            nxt = lines[i + 1] if i + 1 < len(lines) else None
            if nxt is None or names & nxt.reads or line.op in nxt.op._control_inputs:
                line.parallel = False
                line.call = _unsubmit(line.call)
    last_use = {}
    for i, line in enumerate(lines):
        for name in line.reads:
            last_use[name] = i
    frees = {}
    for name, i in last_use.items():
        if name not in ret_reads:
            frees.setdefault(i, []).append(name)

    filename = f"<tensorweave plan {next(_plan_ids)}>"
    src = [f"def _plan(step{''.join(f', f{i}' for i in range(n_feeds))}):"]
    line_ops = {}
    retvals = {}
    pending = {}  # future name -> (line, names it yields)

    def join(fut):
        line, _ = pending.pop(fut)
        src.append(f"    {line.lhs} = {fut}.result()")
        line_ops[len(src)] = line.op

    for i, line in enumerate(lines):
        for fut, (pline, names) in list(pending.items()):
            if names & line.reads or pline.op in line.op._control_inputs:
                join(fut)
        if line.parallel:
            fut = f"p{i}"
            src.append(f"    {fut} = {line.call}")
            pending[fut] = (line, set(_LOCAL.findall(line.lhs)))
        elif trace and not line.call.startswith("_fetch_copy("):
            globs[f"_o{i}"] = line.op
            src.append("    _t = _now()")
            src.append(f"    {line.lhs} = {line.call}" if line.lhs else f"    {line.call}")
            line_ops[len(src)] = line.op
            src.append(f"    step.trace.append((_o{i}, _t, _now()))")
        else:
            src.append(f"    {line.lhs} = {line.call}" if line.lhs else f"    {line.call}")
        line_ops[len(src)] = line.op
        if line.retval is not None:
            retvals[len(src)] = line.retval
        if i in frees:
            src.append("    del " + ", ".join(frees[i]))
    for fut in list(pending):
        join(fut)
    src.append(f"    return [{', '.join(ret)}]")
    source = "\n".join(src) + "\n"
    code = compile(source, filename, "exec")
    namespace = dict(globs)
    exec(code, namespace)  # noqa: S102 - our own generated code, built from kernel names only
    return Plan(namespace["_plan"], line_ops, filename, source, needs_step, splits, retvals)


def _unsubmit(call):
    """`_pool.submit(k3, a, b)` -> `k3(a, b)`."""
    inner = call[len("_pool.submit("):-1]
    kname, _, rest = inner.partition(", ")
    return f"{kname}({rest})"
