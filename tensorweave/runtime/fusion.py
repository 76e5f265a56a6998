"""Plan-level fusions that save passes over memory and change no value (applied to a step's
plan, never to the user's graph), like the speed half of TF's Grappler remapper:

- Conv2D + BiasAdd (+ Relu), NHWC, floating: one kernel (`_FusedConv2DBias[Relu]`,
  kernels/cpu/conv.py) adds the bias and applies the ReLU to each block of output rows right
  after its GEMM, while the block is in cache, instead of two more passes over the whole output.
  The additions and maxima are the same elementwise operations, so the values are the same.
- ReluGrad(MaxPoolGrad(r, p, g), r) with r = Relu(...), p = MaxPool(r) and windows that do not
  overlap runs as one kernel (`_MaxPoolGradReluGrad`, kernels/cpu/pooling.py): max pooling
  routes g[o] to a window position holding r == p[o], so r's ReLU mask there is p[o] > 0, and
  the mask is applied to the pooled gradient (a quarter of the size for 2x2 pools) instead of
  the full one. Bit for bit the same, signed zeros, NaN and infinities included.

(Horizontal fusion, sibling Sigmoid/Tanh calls run as one, works on the emitted plan lines: see
plan._group_siblings.)

Fused ops are not fetched, not fed and not control inputs, and each intermediate has the fused
op as its only consumer in the step; the fused expression stands in the plan where the last op
of the chain stands (TF too names a fused node after the last op it absorbs).
"""

from .grappler import Call, Rewrites

__all__ = ["fuse"]

_FLOATS = frozenset({"float16", "float32", "float64"})
_BIAS_ADDS = frozenset({"BiasAdd", "BiasAddV1"})


def _nhwc(op):
    fmt = op._attrs.get("data_format", b"NHWC")
    return fmt in (b"NHWC", "NHWC")


def _disjoint_windows(pool_grad):
    """Whether the pooling windows do not overlap (each input element in at most one window)."""
    ks, ss = list(pool_grad._attrs["ksize"]), list(pool_grad._attrs["strides"])
    return all(k <= s for k, s in zip(ks, ss))


def fuse(order, fetches, fed, rewrites, cpu):
    """`rewrites` (grappler's) with this module's fusions added for a step running `order`."""
    if not cpu or not any(op._type == "Conv2D" or op._type == "ReluGrad" for op in order):
        return rewrites
    consumers = {}
    controls = set()
    for op in order:
        if op in rewrites.dead:
            continue
        for t in rewrites.inputs_of(op):
            consumers.setdefault(t, []).append(op)
        controls.update(op._control_inputs)
    kept = {f if not hasattr(f, "_op") else f._op for f in fetches}
    kept.update(controls)
    fed = set(fed)
    touched = set(rewrites.dead) | set(rewrites.exprs)

    def sole_consumer(op, type_):
        """The one consumer of op's only output when it is of `type_` and op can be absorbed."""
        if op in kept or op in touched or len(op._outputs) != 1 or op._outputs[0] in fed:
            return None
        users = consumers.get(op._outputs[0], ())
        if len(users) != 1 or users[0]._type not in type_ or users[0] in touched:
            return None
        return users[0]

    dead, exprs = set(), {}
    for op in order:
        if op._type == "Conv2D" and _nhwc(op) and op._outputs[0]._dtype.base_dtype.name in _FLOATS:
            add = sole_consumer(op, _BIAS_ADDS)
            if add is None or add._inputs[0] is not op._outputs[0] or not _nhwc(add):
                continue
            relu = sole_consumer(add, ("Relu",))
            args = [op._inputs[0], op._inputs[1], add._inputs[1]]
            if relu is not None and relu._outputs[0] not in fed and relu not in touched:
                dead.update((op, add))
                exprs[relu] = Call("_FusedConv2DBiasRelu", args, op)
            elif add._outputs[0] not in fed:
                dead.add(op)
                exprs[add] = Call("_FusedConv2DBias", args, op)
        elif op._type == "ReluGrad" and op not in touched:
            grad, r = op._inputs
            mpg = grad._op
            if mpg._type != "MaxPoolGrad" or r._op._type != "Relu" or mpg._inputs[0] is not r:
                continue
            p = mpg._inputs[1]
            if p._op._type != "MaxPool" or p._op._inputs[0] is not r or p in fed or r in fed:
                continue
            if sole_consumer(mpg, ("ReluGrad",)) is not op or not _disjoint_windows(mpg):
                continue
            dead.add(mpg)
            exprs[op] = Call("_MaxPoolGradReluGrad", [r, p, mpg._inputs[2]], mpg)
    if not exprs:
        return rewrites
    return Rewrites(rewrites.dead | dead, {**rewrites.exprs, **exprs})
