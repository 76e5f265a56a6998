"""CPU kernels for grouping ops and functional control flow (If, While).

An If/While kernel factory compiles its op's sub-graphs (FuncGraphs) into plans with the same
KernelContext as the enclosing plan (same session resources), once, when that plan is compiled.
The While loop calls the cond and body plans' generated functions directly with the loop values
as positional arguments: per iteration, one call of each plan and no other Python work.
"""

from ...framework import errors
from ..registry import register_kernel


@register_kernel("NoOp")
def _no_op(op, ctx):
    def no_op():
        return None
    return no_op


def compile_function(fg, ctx, saved=()):
    """A plan computing FuncGraph `fg`'s outputs from its inputs (arguments, then captures):
    `plan.run(step, values)` returns the list of output values, followed by the values of the
    tensors named in `saved` (kept for the gradient; see control_flow_ops._replayed_tensors)."""
    from ...runtime.plan import compile_plan
    extra = [fg.get_tensor_by_name(name) for name in saved or ()]
    return compile_plan([t for t in fg.outputs if t is not None] + extra, fg.inputs, ctx)


def _translate(exc, plans):
    for p in plans:
        if p._failed_op(exc) is not None:
            return p._translate(exc)
    return plans[0]._translate(exc)


def _with_step(fn, needs_step):
    """The kernel takes the step context first when a sub-plan needs it."""
    if needs_step:
        fn.needs_step = True
        return fn

    def no_step(*args):
        return fn(None, *args)
    return no_step


def _if_kernel(op, ctx):
    ts, es = op._attrs.get("then_saved") or [], op._attrs.get("else_saved") or []
    tp = compile_function(op._get_attr("then_branch"), ctx, ts)
    ep = compile_function(op._get_attr("else_branch"), ctx, es)
    ti, ei = op._get_attr("then_inputs"), op._get_attr("else_inputs")
    single = len(op._outputs) == 1
    if ts or es:  # the last output holds the taken branch's saved values
        n = len(op._outputs) - 1

        def if_saving(step, pred, *args):
            if pred:
                out = tp.run(step, [args[i] for i in ti])
            else:
                out = ep.run(step, [args[i] for i in ei])
            return (*out[:n], tuple(out[n:]))
        return _with_step(if_saving, tp.needs_step or ep.needs_step)

    def if_(step, pred, *args):
        if pred:
            out = tp.run(step, [args[i] for i in ti])
        else:
            out = ep.run(step, [args[i] for i in ei])
        return out[0] if single else tuple(out)
    return _with_step(if_, tp.needs_step or ep.needs_step)


register_kernel("If")(_if_kernel)
register_kernel("StatelessIf")(_if_kernel)


def _while_kernel(op, ctx):
    cp = compile_function(op._get_attr("cond"), ctx)
    saved = op._attrs.get("body_saved") or []
    bp = compile_function(op._get_attr("body"), ctx, saved)
    n = op._get_attr("n_vars")
    ci, bi = op._get_attr("cond_inputs"), op._get_attr("body_inputs")
    # Keep each iteration's inputs only when a gradient (a consumer of the history) exists.
    keep = bool(op._outputs[-1]._consumers) and op._get_attr("back_prop")
    cfn, bfn = cp._fn, bp._fn
    cond_caps = [i - n for i in ci]
    body_caps = [i - n for i in bi]

    def while_(step, *args):
        vals = list(args[:n])
        caps = args[n:]
        ccaps = [caps[i] for i in cond_caps]
        bcaps = [caps[i] for i in body_caps]
        hist = [] if keep else None
        try:
            if saved:
                # History entries: the iteration's inputs, then its replayed random values.
                while cfn(step, *vals, *ccaps)[0]:
                    out = bfn(step, *vals, *bcaps)
                    if keep:
                        hist.append([*vals, *out[n:]])
                    vals = out[:n]
            elif keep:
                while cfn(step, *vals, *ccaps)[0]:
                    hist.append(vals)
                    vals = bfn(step, *vals, *bcaps)
            else:
                while cfn(step, *vals, *ccaps)[0]:
                    vals = bfn(step, *vals, *bcaps)
        except Exception as e:  # noqa: BLE001 - named after the sub-graph op that failed
            raise _translate(e, [bp, cp]) from None
        return (*vals, hist)
    return _with_step(while_, cp.needs_step or bp.needs_step)


register_kernel("While")(_while_kernel)
register_kernel("StatelessWhile")(_while_kernel)


@register_kernel("LoopHistoryLen")
def _hist_len(op, ctx):
    import numpy as np

    def hist_len(h):
        if h is None:
            raise errors.InvalidArgumentError(None, None, "the loop kept no history for its gradient "
                                                          "(back_prop=False?)")
        return np.int32(len(h))
    return hist_len


@register_kernel("LoopHistoryGet")
def _hist_get(op, ctx):
    start = op._attrs.get("start") or 0
    stop = start + len(op._outputs)
    single = len(op._outputs) == 1

    def hist_get(h, i):
        vals = h[int(i)]
        return vals[start] if single else tuple(vals[start:stop])
    return hist_get


@register_kernel("BranchSavedGet")
def _branch_saved_get(op, ctx):
    index = op._get_attr("index")

    def branch_saved_get(saved):
        return saved[index]
    return branch_saved_get


# -- gradients on a loop history (control_flow_ops._while_grad) -------------------------------

class HistoryGrad(dict):
    """Cotangents of a loop's saved iteration inputs: {(iteration, position): array}."""

    def __add__(self, other):
        out = HistoryGrad(self)
        for key, g in (other or {}).items():
            out[key] = out[key] + g if key in out else g
        return out

    __radd__ = __add__


@register_kernel("LoopHistoryGradZeros")
def _hist_grad_zeros(op, ctx):
    def hist_grad_zeros():
        return HistoryGrad()
    return hist_grad_zeros


@register_kernel("LoopHistoryGradAdd")
def _hist_grad_add(op, ctx):
    def hist_grad_add(acc, i, *gs):
        # (the accumulator is a loop variable of one gradient loop: updated in place)
        i = int(i)
        for pos, g in enumerate(gs):
            key = (i, pos)
            acc[key] = acc[key] + g if key in acc else g
        return acc
    return hist_grad_add


@register_kernel("LoopHistoryGradGet")
def _hist_grad_get(op, ctx):
    import numpy as np
    positions = list(op._get_attr("positions"))
    single = len(positions) == 1

    def hist_grad_get(hg, i, *like):
        i = int(i)
        out = [np.asarray(hg[(i, p)]) if (i, p) in hg else np.zeros_like(x) for p, x in zip(positions, like)]
        return out[0] if single else tuple(out)
    return hist_grad_get
