"""tf.custom_gradient: a function that supplies its own gradient (graph mode, as in TF1).

`f(*inputs)` returns `(outputs, grad_fn)`. The outputs and inputs pass through one IdentityN op
whose gradient is overridden to call `grad_fn(*output_grads)`, which returns the inputs'
gradients. As in TF's graph mode, keyword arguments are not supported and `f` may not create
variables (TF demands resource variables there, which tensorweave does not have yet).
"""

import functools
import itertools

from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, pack_sequence_as
from ..framework.graph import get_default_graph
from . import array_ops

__all__ = ["custom_gradient"]

_uids = itertools.count()


def _all_variables(graph):
    return {id(v) for key in ("variables", "local_variables") for v in graph.get_collection(key)}


def custom_gradient(f=None):
    """Decorator: `f(*x)` returns `(y, grad_fn)`; the gradient of y with respect to x is
    `grad_fn(*dy)` (one gradient, or a list of them, per input of `f`)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        if kwargs:
            raise ValueError("The custom_gradient decorator currently supports keywords arguments only "
                             "when eager execution is enabled.")
        graph = get_default_graph()
        name = f"CustomGradient-{next(_uids)}"
        args = [convert_to_tensor(x) for x in args]
        before = _all_variables(graph)
        result, grad_fn = f(*args)
        if _all_variables(graph) - before:
            raise TypeError("All variables used by a function wrapped with @custom_gradient must be "
                            "`ResourceVariable`s; tensorweave's variables are not. Create them outside "
                            "the function and pass them in as inputs.")
        flat = [convert_to_tensor(t) for t in flatten(result)]
        n = len(flat)
        # TF's _get_dependent_variables walks back from an Identity of each result (left
        # unused): made here too, so later ops get TF's names ("Identity_1", ...)
        for t in flat:
            array_ops.identity(t)

        @registry.RegisterGradient(name)
        def _grad(op, *grads):
            input_grads = grad_fn(*grads[:n])
            input_grads = flatten(input_grads) if isinstance(input_grads, (list, tuple)) else [input_grads]
            if len(input_grads) != len(args):
                raise ValueError(f"custom_gradient function expected to return {len(args)} gradients, "
                                 f"but returned {len(input_grads)} instead.")
            return [None] * n + list(input_grads)

        with graph.gradient_override_map({"IdentityN": name}):
            passed = array_ops.identity_n(flat + args)
        return pack_sequence_as(result, passed[:n])
    return decorated
