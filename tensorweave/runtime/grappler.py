"""The value-changing part of TF's Grappler, applied to a step's plan (never to the user's graph).

Real TF runs every Session step through Grappler, whose rewrites change float rounding. Only the
rewrites that change values matter here; each was confirmed on TF 2.21 (default ConfigProto) by
comparing float32 bit patterns (tests/runtime/test_grappler_rewrites.py):

- constant folding's ReduceDivToReciprocalMul: x / c runs as x * (1 / c);
- constant folding's ConstantPushDown: an Add/Sub (Mul/Div) of a constant and an Add/Sub
  (Mul/Div) is rotated so that the constants meet and fold: c1 * (c2 * x) -> x * (c1 * c2),
  c1 - (x - c2) -> (c1 + c2) - x, c1 + (x + y) -> x + (c1 + y). Only when the inner node has a
  single consumer in the pruned graph, is not fetched and does not drive the constant's control
  input; shapes need not be known (fed placeholders too);
- the arithmetic optimizer's ConvertLog1p: log(1 + x) -> log1p(x) when x's shape is known to
  Grappler (fed tensors have unknown shapes: Grappler does not trust feeds), ConvertLogSoftmax
  (log(softmax(x)) -> log_softmax(x) when the softmax has no other consumer and is not fetched),
  ConvertPow (pow(x, c) with one repeated constant exponent 2, 3, 0.5, -0.5 or -1 -> Square,
  x * Square(x), Sqrt, Rsqrt, Reciprocal) and AddOpsRewrite (a tree of Adds of tensors of one
  known shape, none fetched, no control edges -> one AddN, whose inputs TF sums in name order),
  and SqrtDivToRsqrtMul (x / sqrt(y) -> x * rsqrt(y) when the Sqrt has no other consumer).

Rewrites TF 2.21 does not apply in a plain Session (measured): HoistCommonFactorOutOfAggregation
(x*y + x*z), and trees of Muls. `optimize` returns a `Rewrites` that the plan compiler uses:
ops to skip, and for rewritten ops an expression tree to compute instead.
"""

import numpy as np

from ..framework.constant_op import constant_value

__all__ = ["optimize", "Rewrites", "Call", "kernel_op"]

_ADD = frozenset({"Add", "AddV2"})
_ARITH = frozenset({"Add", "AddV2", "Sub", "Mul", "Div"})
_DIVS = frozenset({"RealDiv", "Div", "Xdivy"})   # strength-reduced when the divisor is constant
_TYPES = _ARITH | _DIVS | frozenset({"AddN", "Log", "Pow", "Softmax", "Sqrt"})
_COMMUTATIVE = frozenset({"Add", "AddV2", "Mul"})
_MAX_PASSES = 8
# TF's Grappler skips graphs of fewer nodes (RewriterConfig.min_graph_nodes; measured on TF 2.21:
# x / 3.0 alone in a graph is a true division, with one more node anywhere x * (1 / 3))
MIN_GRAPH_NODES = 4
_SHAPE_OPS = frozenset({"Shape", "Size", "Rank"})
_ABSORBED = "(absorbed)"    # an Add taken into an AddN: nothing reads it any more
# Never constants to Grappler, whatever their inputs: a PlaceholderWithDefault can be fed
_NOT_FOLDED = frozenset({"PlaceholderWithDefault"})


class Call:
    """An expression node of a rewritten op: kernel `type` applied to `args` (Calls, Tensors or
    NumPy constants); `like` is the graph op it stands for (dtype, name, error attribution)."""

    __slots__ = ("type", "args", "like")

    def __init__(self, type_, args, like):
        self.type = type_
        self.args = args
        self.like = like


class Rewrites:
    """What the plan compiler runs instead of the graph: `dead` ops are not run, `exprs[op]`
    computes `op`'s single output."""

    __slots__ = ("dead", "exprs")

    def __init__(self, dead=(), exprs=None):
        self.dead = frozenset(dead)
        self.exprs = exprs or {}

    def inputs_of(self, op):
        """The graph tensors `op` reads once rewritten."""
        expr = self.exprs.get(op)
        if expr is None:
            return op._inputs
        out = []
        stack = [expr]
        while stack:
            e = stack.pop()
            if isinstance(e, Call):
                stack.extend(e.args)
            elif not isinstance(e, np.ndarray):
                out.append(e)
        return out


_NONE = Rewrites()


class _Node:
    """A node of Grappler's working copy: a leaf tensor (type None) or an op of interest."""

    __slots__ = ("type", "inputs", "op", "tensor", "const", "value", "modified", "id")

    def __init__(self, type_=None, inputs=(), op=None, tensor=None, const=False, value=None, id_=0):
        self.type = type_
        self.inputs = list(inputs)
        self.op = op
        self.tensor = tensor
        self.const = const
        self.value = value
        self.modified = False
        self.id = id_


def _floating(op):
    dt = op._outputs[0]._dtype.base_dtype if op._outputs else None
    return dt is not None and (dt.is_floating or dt.is_complex)


def _name(n):
    """The input name Grappler sorts by: `op` for output 0, `op:k` otherwise."""
    t = n.tensor if n.tensor is not None else n.op._outputs[0] if n.op is not None else None
    if t is None:
        return None
    return t._op._name if t._value_index == 0 else f"{t._op._name}:{t._value_index}"


def _broadcast(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None


def _known_shape(t, tainted):
    """The static shape as Grappler sees it: fed tensors' shapes are unknown (it does not trust
    feeds), and so is everything computed from them except a Reshape to a constant shape."""
    return None if t in tainted or not t._shape.is_fully_defined() else tuple(t._shape.as_list())


def optimize(order, fetches, fed, static_ok):
    """Grappler's value-changing rewrites for a step running `order` (see the module doc)."""
    if not any(op._type in _TYPES for op in order):
        return _NONE   # the common case stays cheap
    if order[0]._graph.version < MIN_GRAPH_NODES:
        return _NONE   # (Grappler leaves graphs this small alone: its min_graph_nodes)
    fed = set(fed)
    tainted = set(fed)
    for op in order:
        if op._type == "Reshape" and op._inputs[1] not in tainted:
            continue
        if any(t in tainted for t in op._inputs):
            tainted.update(op._outputs)
    consumers = {}    # op -> data edges out of it within the step
    ctrl_out = set()  # ops that drive a control edge
    in_step = set(order)
    for op in order:
        for t in op._inputs:
            consumers[t._op] = consumers.get(t._op, 0) + 1
        ctrl_out.update(c for c in op._control_inputs if c in in_step)
    fetched = {f if not hasattr(f, "_op") else f._op for f in fetches}
    g = _Graph(order, fed, tainted, static_ok, consumers, ctrl_out, fetched)
    g.constant_folding()
    g.arithmetic()
    g.constant_folding()
    return g.rewrites()


class _Graph:
    def __init__(self, order, fed, tainted, static_ok, consumers, ctrl_out, fetched):
        self.fed, self.tainted, self.static_ok = fed, tainted, static_ok
        self.consumers, self.ctrl_out, self.fetched = consumers, ctrl_out, fetched
        self.nodes = []       # op nodes, in graph order
        self.by_op = {}
        self.leaves = {}
        self.consts = set()   # tensors Grappler folds into constants (outside the working copy)
        for op in order:
            if op._type in _TYPES and len(op._outputs) == 1 and _floating(op):
                n = _Node(op._type, [self.node_for(t) for t in op._inputs], op=op, id_=op._id)
                self.nodes.append(n)
                self.by_op[op] = n
                if all(t in self.consts for t in op._inputs):
                    self.consts.add(op._outputs[0])
            elif op._type in _SHAPE_OPS and static_ok and op._outputs[0] not in tainted:
                if op._outputs[0] not in fed and constant_value(op._outputs[0]) is not None:
                    self.consts.add(op._outputs[0])    # Grappler materializes known shapes
            elif op._type == "Const" or (op._inputs and not op._op_def.stateful and
                                         op._type not in _NOT_FOLDED and
                                         all(t in self.consts for t in op._inputs)):
                self.consts.update(t for t in op._outputs if t not in fed)
        self.in_copy = {}     # op -> data edges into the working copy's ops (as in the graph)
        for op in self.by_op:
            for t in op._inputs:
                self.in_copy[t._op] = self.in_copy.get(t._op, 0) + 1

    def node_for(self, t):
        n = self.by_op.get(t._op)
        if n is not None and t not in self.fed:
            return n
        n = self.leaves.get(t)
        if n is None:
            const, value = False, None
            if t in self.consts:
                const = True
                value = constant_value(t) if self.static_ok or t._op._type == "Const" else None
            n = self.leaves[t] = _Node(tensor=t, const=const, value=value)
        return n

    def preserved(self, n):
        return n.op is not None and n.op in self.fetched

    def outputs(self, n):
        """Data consumers of `n` in the working copy (TF's NumNonControlOutputs)."""
        inside = sum(1 for m in self.nodes if m.type != _ABSORBED for i in m.inputs if i is n)
        if n.op is None:
            return inside
        return inside + self.consumers.get(n.op, 0) - self.in_copy.get(n.op, 0)

    # -- constant folding ------------------------------------------------------------------------

    def constant_folding(self):
        for _ in range(_MAX_PASSES):
            changed = False
            for n in self.nodes:        # FoldGraph: nodes of constants become constants
                if not n.const and n.inputs and all(i.const for i in n.inputs):
                    n.const = changed = True
            for n in list(self.nodes):  # SimplifyGraph: at most one rewrite per node and pass
                if not n.const and (self.reduce_div(n) or self.push_down(n)):
                    changed = True
            if not changed:
                return

    def reduce_div(self, n):
        if n.type not in _DIVS or len(n.inputs) != 2 or not n.inputs[1].const or n.inputs[0].const:
            return False
        c = n.inputs[1]
        if c.value is not None:
            v = np.asarray(c.value)
            with np.errstate(all="ignore"):
                r = _Node(const=True, value=np.asarray(v.dtype.type(1) / v, dtype=v.dtype))
        else:
            r = _Node("Reciprocal", [c], const=True)
            r.modified = True
            self.nodes.append(r)
        n.type, n.inputs, n.modified = "Mul", [n.inputs[0], r], True
        return True

    def push_down(self, n):
        """ConstantPushDown: C op (X op Y) rotated to X op (C op Y) (signs kept for Sub/Div)."""
        if n.type not in _ARITH or len(n.inputs) != 2:
            return False
        left, right = n.inputs
        if left.const == right.const:
            return False
        child, const = (right, left) if left.const else (left, right)
        is_add = n.type in _ADD or n.type == "Sub"
        if child.type is None or child.type not in _ARITH or len(child.inputs) != 2 or \
                (child.type in _ADD or child.type == "Sub") != is_add:
            return False
        if const.tensor is not None and child.op is not None and child.op in const.tensor._op._control_inputs:
            return False    # would make a cycle
        if self.preserved(child) or self.outputs(child) > 1:
            return False
        ll, rl = child.inputs
        if ll.const and rl.const:
            return False    # the child folds by itself
        if not ll.const and not rl.const and child.type in _COMMUTATIVE and \
                _name(rl) is not None and _name(ll) is not None and _name(rl) < _name(ll):
            ll, rl = rl, ll     # Grappler sorts a commutative op's inputs by name first
        x, y = (rl, ll) if ll.const else (ll, rl)
        sym = n.type in ("Add", "AddV2", "Mul")
        child_sym = child.type in ("Add", "AddV2", "Mul")
        if sym and child_sym:
            # X, the leaf that moves up, is the one of the result's shape (measured: s * x * C
            # runs as x * (C * s) for a scalar s), else the left one.
            out = self.shape(n)
            if not ll.const and out is not None and self.shape(ll) != out and self.shape(rl) == out:
                x, y = rl, ll
        else:
            # A Sub/Div is rotated unless known shapes show that C (op) Y would not keep Y's
            # shape (measured on TF 2.21: (x + s) - C with a scalar s and a vector C is left
            # alone when x's name sorts first, and run as (x - C) + s when s's does).
            ys, cs = self.shape(y), self.shape(const)
            if ys is not None and cs is not None and _broadcast(cs, ys) != ys:
                return False
        y_op = y.op if y.op is not None else y.tensor._op if y.tensor is not None else None
        if y_op is not None and child.op is not None and child.op in y_op._control_inputs:
            return False    # y waits for the child (a gradient's control_dependencies): a cycle
        plus, minus = ("Add", "Sub") if is_add else ("Mul", "Div")
        if sym and child_sym:
            n.inputs, child.inputs, child.type = [x, child], [const, y], child.type
        else:
            child_neg = not sym and child is right

            def negated(is_right_leaf):
                return (not child_sym and is_right_leaf) != child_neg
            neg_c = not sym and const is right
            x_right = ll.const      # by position: x and y may be one node (x - x)
            neg_x = negated(x_right)
            neg_y = negated(not x_right)
            n.type = minus if (neg_x or (neg_c and neg_y)) else plus
            n.inputs = [child, x] if neg_x else [x, child]
            child.type = minus if neg_c != neg_y else plus
            child.inputs = [y, const] if neg_c else [const, y]
        n.modified = child.modified = True
        return True

    # -- arithmetic optimizer --------------------------------------------------------------------

    def arithmetic(self):
        for n in list(self.nodes):
            if n.const or n.modified:
                continue
            if n.type == "Log":
                self.log1p(n) or self.log_softmax(n)
            elif n.type == "Pow":
                self.convert_pow(n)
            elif n.type in ("RealDiv", "Div"):
                self.sqrt_div(n)
            elif n.type in _ADD or n.type == "AddN":
                self.add_ops(n)

    def shape(self, n):
        """`n`'s shape as Grappler knows it (its properties are those of the graph it was given,
        so a rewritten node keeps its op's shape), or None."""
        t = n.tensor if n.tensor is not None else n.op._outputs[0] if n.op is not None else None
        return None if t is None else _known_shape(t, self.tainted)

    def log1p(self, n):
        add = n.inputs[0]
        if add.type not in _ADD or len(add.inputs) != 2:
            return False
        for t, c in (add.inputs, add.inputs[::-1]):
            ts, cs = self.shape(t), self.shape(c)
            if ts is None or cs is None or c.value is None:
                continue
            if _broadcast(ts, cs) != ts:
                continue
            if np.all(np.asarray(c.value) == 1):
                n.type, n.inputs, n.modified = "Log1p", [t], True
                return True
        return False

    def log_softmax(self, n):
        sm = n.inputs[0]
        if sm.type != "Softmax" or sm.modified or self.preserved(sm) or self.outputs(sm) != 1:
            return False
        n.type, n.inputs, n.modified = "LogSoftmax", list(sm.inputs), True
        return True

    def sqrt_div(self, n):
        """SqrtDivToRsqrtMul: x / sqrt(y) -> x * rsqrt(y) when the Sqrt has no other consumer
        (after TF's common-subexpression elimination: an identical Sqrt elsewhere in the step
        is the same node to Grappler) and is not fetched."""
        y = n.inputs[1]
        if y.type != "Sqrt" or y.modified or y.op is None or self.preserved(y) or self.outputs(y) != 1:
            return False
        if any(m is not y and m.type == "Sqrt" and m.op is not None and m.op._inputs == y.op._inputs
               for m in self.nodes):
            return False
        r = _Node("Rsqrt", list(y.inputs))
        r.modified = True
        n.type, n.inputs, n.modified = "Mul", [n.inputs[0], r], True
        return True

    def convert_pow(self, n):
        x, e = n.inputs
        if e.value is None:
            return False
        ev = np.asarray(e.value).ravel()
        xs = n.op._inputs[0]._shape
        es = np.shape(e.value)
        # x's shape must be the output's (TF: ShapesSymbolicallyEqual), which holds for unknown
        # dimensions too when the exponent has only 1s in its shape, and for any x (unknown
        # rank included) when the exponent is a scalar
        if ev.size == 0 or np.any(ev != ev[0]) or (es and (xs.ndims is None or len(es) > xs.ndims or any(
                d != 1 and d != xd for d, xd in zip(es[::-1], xs.as_list()[::-1])))):
            return False    # (a broadcasting exponent would change the result's shape)
        p = complex(ev[0])
        unary = {2: "Square", 0.5: "Sqrt", -0.5: "Rsqrt", -1: "Reciprocal"}
        if p in unary:
            n.type, n.inputs = unary[p.real], [x]
        elif p == 3:
            sq = _Node("Square", [x])
            sq.modified = True
            n.type, n.inputs = "Mul", [x, sq]
        else:
            return False
        n.modified = True
        return True

    def add_ops(self, root):
        """AddOpsRewrite, for trees whose leaves all have the root's known shape."""
        shape = self.shape(root)
        if shape is None or not self._addable(root):
            return False
        leaves, absorbed, stack = [], [], list(root.inputs)[::-1]
        while stack:
            m = stack.pop()
            if (m.type in _ADD or m.type == "AddN") and not m.modified and m.op is not None and \
                    self._addable(m) and self.outputs(m) == 1 and self.shape(m) == shape:
                absorbed.append(m)
                stack.extend(m.inputs[::-1])
            else:
                leaves.append(m)
        if not absorbed or any(self.shape(m) != shape for m in leaves):
            return False
        root.type, root.inputs, root.modified = "AddN", leaves, True
        for m in absorbed:
            m.type = _ABSORBED
        return True

    def _addable(self, n):
        op = n.op
        return not self.preserved(n) and not op._control_inputs and op not in self.ctrl_out

    # -- the plan's view ---------------------------------------------------------------------------

    def external(self, n):
        """Whether something outside the working copy reads `n` (a fetch, a control edge, an op
        of another type)."""
        op = n.op
        if op in self.fetched or op in self.ctrl_out:
            return True
        return self.consumers.get(op, 0) > self.in_copy.get(op, 0)

    def rewrites(self):
        if not any(n.modified for n in self.nodes):
            return _NONE
        parents = {}
        for n in self.nodes:
            if n.type != _ABSORBED:
                for i in n.inputs:
                    parents.setdefault(id(i), []).append(n)

        def own_step(n):
            """An op computed in its own step (its tensor read by the others), not inlined into
            the one rewritten op that reads it."""
            ps = parents.get(id(n), ())
            return n.op is not None and (not n.modified or self.external(n) or len(ps) != 1 or
                                         not ps[0].modified)

        def expr(n, top=False):
            if n.type is None:
                return n.tensor if n.tensor is not None else n.value
            if not top and own_step(n):
                return n.op._outputs[0]
            return Call(n.type, [expr(i) for i in n.inputs], n.op if n.op is not None else _like(n))

        exprs = {n.op: expr(n, top=True) for n in self.nodes if n.modified and own_step(n)}
        # Every op of the working copy that nothing reads any more is not run (absorbed).
        needed = set()
        stack = [n.op for n in self.nodes if n.op is not None and self.external(n)]
        while stack:
            op = stack.pop()
            if op in needed:
                continue
            needed.add(op)
            e = exprs.get(op)
            ins = Rewrites((), {op: e}).inputs_of(op) if e is not None else op._inputs
            stack.extend(t._op for t in ins if t._op in self.by_op)
        dead = set(self.by_op) - needed
        for op in list(exprs):
            if op in dead:
                del exprs[op]
        return Rewrites(dead, exprs)


def _like(n):
    """A graph op to stand for a new node (its dtype and name): the first op below it."""
    for i in n.inputs:
        if i.op is not None:
            return i.op
        if i.tensor is not None:
            return i.tensor._op
        if i.type is not None:
            return _like(i)
    return None


class _KernelOp:
    """What a kernel factory reads of an op, for a rewritten node: its type, inputs (for
    dtypes, and AddN's name order), attributes and name (those of the op it stands for)."""

    __slots__ = ("_type", "_inputs", "_outputs", "_attrs", "_name", "_like")

    def __init__(self, type_, inputs, like):
        self._type = type_
        self._inputs = inputs
        self._outputs = like._outputs
        self._attrs = like._attrs
        self._name = like._name
        self._like = like

    @property
    def type(self):
        return self._type

    @property
    def name(self):
        return self._name

    @property
    def node_def(self):
        return self._like.node_def

    def get_attr(self, name):
        return self._like.get_attr(name)

    def _get_attr(self, name):
        return self._like._get_attr(name)


def kernel_op(call):
    """An op-like object for `call` that the kernel factory of `call.type` accepts."""
    ins = []
    for a in call.args:
        if isinstance(a, Call):
            ins.append(a.like._outputs[0])
        elif isinstance(a, np.ndarray):
            ins.append(call.like._outputs[0])    # only its dtype is read
        else:
            ins.append(a)
    return _KernelOp(call.type, ins, call.like)
