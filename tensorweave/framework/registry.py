"""The op registry: one `OpDef` per op type with its shape function, gradient and flags.

An op type is declared once, next to its Python constructor in `tensorweave/ops/<family>.py`:

    register_op("Square", shape_fn=unchanged_shape)

    @register_gradient("Square")
    def _square_grad(op, grad):
        return [grad * 2.0 * op.inputs[0]]

Kernels live apart, in `tensorweave/kernels/`, and are looked up by op type and device type.
"""

__all__ = ["OpDef", "register_op", "get_op_def", "register_gradient", "no_gradient",
           "get_gradient_function", "register_static_value", "RegisterGradient", "NotDifferentiable"]


class OpDef:
    """What the graph and autodiff know about an op type.

    shape_fn(op) -> list of TensorShape, one per output (None: outputs keep the shapes given).
    stateful: the op has side effects or hidden state (never merged, never constant-folded).
    ref_inputs: indices of inputs that take a variable reference (e.g. Assign's first input).
    """

    __slots__ = ("type", "shape_fn", "stateful", "ref_inputs", "grad_fn")

    def __init__(self, type, shape_fn=None, stateful=False, ref_inputs=()):
        self.type = type
        self.shape_fn = shape_fn
        self.stateful = stateful
        self.ref_inputs = frozenset(ref_inputs)
        self.grad_fn = _MISSING

    name = property(lambda self: self.type, doc="The op type's name, as TF's `OpDef.name`.")

    def __repr__(self):
        return f"OpDef({self.type!r})"


_MISSING = object()
_OPS = {}
_STATIC = {}


def register_op(type, shape_fn=None, stateful=False, ref_inputs=()):
    """Declares op type `type`. Returns its OpDef."""
    if type in _OPS:
        raise KeyError(f"Op type {type!r} is already registered")
    op_def = OpDef(type, shape_fn, stateful, ref_inputs)
    _OPS[type] = op_def
    return op_def


def get_op_def(type):
    try:
        return _OPS[type]
    except KeyError:
        raise KeyError(f"Op type not registered '{type}'") from None


def register_gradient(op_type):
    """Decorator registering `fn(op, *output_grads) -> input grads` as op_type's gradient."""
    def deco(fn):
        _grad_table[op_type] = fn
        return fn
    return deco


_grad_table = {}


def no_gradient(op_type):
    """Declares op_type not differentiable: its inputs get no gradient (None)."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _grad_table[op_type] = None


class RegisterGradient:
    """`tf.RegisterGradient("OpType")` decorator."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, fn):
        if self._op_type in _grad_table and _grad_table[self._op_type] is not None \
                and getattr(_grad_table[self._op_type], "_user_registered", False):
            raise KeyError(f"Registering two gradient with name '{self._op_type}'!")
        fn._user_registered = True
        _grad_table[self._op_type] = fn
        return fn


NotDifferentiable = no_gradient


def get_gradient_function(op_type):
    """The gradient function for op_type, None if not differentiable; raises LookupError if
    no gradient was declared at all."""
    try:
        return _grad_table[op_type]
    except KeyError:
        raise LookupError(f"No gradient defined for operation of type '{op_type}'") from None


def register_static_value(op_type):
    """Decorator: `fn(op, value_of) -> numpy value or None` computes op's output 0 at graph-build
    time when its inputs are known (`value_of(tensor)` gives an input's static value or None).
    Used by `constant_value`, so shape functions see through e.g. `tf.shape(x)` or `tf.stack`."""
    def deco(fn):
        _STATIC[op_type] = fn
        return fn
    return deco


def static_value_fn(op_type):
    return _STATIC.get(op_type)
