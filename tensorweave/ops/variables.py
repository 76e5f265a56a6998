"""tf.Variable (TF1 reference variables) and variable collections/initializers.

A `Variable` is a Python object over four ops, named as TensorFlow names them:

    v/initial_value  (Const; or v/Initializer/... when the initial value is a callable)
    v                (VariableV2: its output `v:0` is the reference tensor, dtype float32_ref)
    v/Assign         (Assign(v, v/initial_value): the variable's initializer)
    v/read           (Identity(v): the snapshot that ops reading the variable consume)

`convert_to_tensor(v)` gives the snapshot `v/read:0`; `convert_to_tensor(v, as_ref=True)` (what
tf.gradients and the update ops use) gives the reference `v:0`. `sess.run(v)` fetches `v:0`.
"""

import enum

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor, register_tensor_conversion_function
from ..framework.graph import GraphKeys, Tensor, get_default_graph, get_default_session, name_scope
from ..framework.op_util import apply_op
from ..framework.tensor_shape import as_shape, unknown_shape
from . import state_ops

__all__ = ["Variable", "VariableSynchronization", "VariableAggregation",
           "global_variables", "all_variables", "local_variables", "trainable_variables",
           "model_variables", "moving_average_variables", "variables_initializer",
           "initialize_variables", "global_variables_initializer", "initialize_all_variables",
           "local_variables_initializer", "initialize_local_variables", "is_variable_initialized",
           "report_uninitialized_variables", "assert_variables_initialized"]


class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3


def _identity(x, name):
    from . import array_ops
    return array_ops.identity(x, name=name)


_V1_ARGS = ("initial_value", "trainable", "collections", "validate_shape", "caching_device", "name",
            "variable_def", "dtype", "expected_shape", "import_scope", "constraint", "use_resource",
            "synchronization", "aggregation", "shape")


class _VariableMeta(type):
    """Routes `tf.Variable(...)` through the graph's variable creator stack
    (tf.variable_creator_scope), innermost creator first, as TF1's VariableV1 does; the last
    `next_creator` builds the variable as usual."""

    def __call__(cls, *args, **kwargs):
        stack = getattr(get_default_graph(), "_variable_creator_stack", None)
        if cls is not Variable or not stack:
            return super().__call__(*args, **kwargs)
        defaults = dict(zip(_V1_ARGS, (None, None, None, True, None, None, None, None, None, None, None,
                                       None, VariableSynchronization.AUTO, VariableAggregation.NONE, None)))
        defaults.update(zip(_V1_ARGS, args))
        defaults.update(kwargs)
        defaults.setdefault("experimental_enable_variable_lifting", True)

        def default_creator(**kw):
            kw.pop("experimental_enable_variable_lifting", None)
            return super(_VariableMeta, cls).__call__(**kw)

        def chain(creator, next_creator):
            return lambda **kw: creator(next_creator, **kw)

        getter = default_creator
        for creator in stack:  # outermost first, so the innermost runs first
            getter = chain(creator, getter)
        return getter(**defaults)


class Variable(metaclass=_VariableMeta):
    """A TF1 reference variable: state that lives in the session and survives across steps."""

    # NumPy defers to our operators: np.float32(2) * v gives a Tensor.
    __array_priority__ = 100

    def __new__(cls, *args, **kwargs):
        # tf.Variable(..., use_resource=True) (or inside variable_scope(use_resource=True), or after
        # tf.enable_resource_variables()) makes a ResourceVariable, as TF1's VariableV1 does.
        if cls is Variable and _use_resource(args, kwargs):
            from .resource_variable_ops import ResourceVariable
            return object.__new__(ResourceVariable)
        return object.__new__(cls)

    def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, shape=None):
        if variable_def is not None:
            raise NotImplementedError("tf.Variable(variable_def=...) (restoring from a VariableDef) is "
                                      "not supported yet")
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if trainable is None:
            trainable = synchronization != VariableSynchronization.ON_READ
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        if not isinstance(collections, (list, tuple, set)):
            raise ValueError(f"collections argument to Variable constructor must be a list, tuple, or "
                             f"set. Got {collections} of type {type(collections)}")
        if constraint is not None and not callable(constraint):
            raise ValueError("The `constraint` argument must be a callable.")
        collections = list(collections)
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        if dtype is not None:
            dtype = _dtypes.as_dtype(dtype).base_dtype
        self._trainable = bool(trainable)
        self._constraint = constraint
        self._caching_device = caching_device
        self._synchronization = synchronization
        self._aggregation = aggregation
        init_from_fn = callable(initial_value)
        g = get_default_graph()
        # Like TF's init_scope: the variable's ops ignore enclosing control dependencies.
        with g.as_default(), g.control_dependencies(None):
            with name_scope(name, "Variable", [] if init_from_fn else [initial_value]) as scope:
                true_name = scope[:-1]
                saved = g._attr_scope
                if init_from_fn:
                    # TF's stand-in for colocate_with before the variable exists: the initializer
                    # ops and the VariableV2 op itself carry `_class: loc:@<name>`.
                    g._attr_scope = dict(saved, _class=[f"loc:@{true_name}"])
                    try:
                        with g.name_scope("Initializer"), g.device(None):
                            self._initial_value = convert_to_tensor(initial_value(), name="initial_value",
                                                                    dtype=dtype)
                    except BaseException:
                        g._attr_scope = saved
                        raise
                else:
                    self._initial_value = convert_to_tensor(initial_value, name="initial_value", dtype=dtype)
                iv_shape = self._initial_value.shape
                if shape is not None:
                    var_shape = as_shape(shape)
                elif validate_shape:
                    var_shape = iv_shape
                else:
                    var_shape = unknown_shape()
                try:
                    if validate_shape and not iv_shape.is_fully_defined():
                        raise ValueError(f"initial_value must have a shape specified: {self._initial_value}")
                    if expected_shape is not None and validate_shape and \
                            not as_shape(expected_shape).is_compatible_with(iv_shape):
                        raise ValueError(f"initial_value shape {iv_shape} is not compatible with "
                                         f"expected_shape {as_shape(expected_shape)}")
                    # (name="": the root scope; the op takes its type's name, "VariableV2", as in TF)
                    self._variable = state_ops.variable_op_v2(var_shape, self._initial_value.dtype.base_dtype,
                                                              name=scope or "VariableV2")
                finally:
                    g._attr_scope = saved
                with g.colocate_with(self._variable.op):
                    self._initializer_op = state_ops.assign(
                        self._variable, self._initial_value, validate_shape=validate_shape).op
                    if caching_device is None:
                        self._snapshot = _identity(self._variable, name="read")
                if caching_device is not None:
                    # TF reads the variable on the caching device (no colocation with it)
                    with g.device(caching_device):
                        self._snapshot = _identity(self._variable, name="read")
        g.add_to_collections(collections, self)
        self._graph_element = self._variable
        self._save_slice_info = None

    # -- properties ----------------------------------------------------------------------------
    name = property(lambda self: self._variable.name)
    op = property(lambda self: self._variable.op)
    dtype = property(lambda self: self._variable.dtype)
    graph = property(lambda self: self._variable.graph)
    device = property(lambda self: self._variable.device)
    shape = property(lambda self: self._variable.shape)
    initializer = property(lambda self: self._initializer_op)
    initial_value = property(lambda self: self._initial_value)
    trainable = property(lambda self: self._trainable)
    constraint = property(lambda self: self._constraint)
    synchronization = property(lambda self: self._synchronization)
    aggregation = property(lambda self: self._aggregation)
    _shared_name = property(lambda self: self._variable.op.name)

    def get_shape(self):
        return self._variable.shape

    def set_shape(self, shape):
        self._variable.set_shape(shape)
        self._snapshot.set_shape(shape)

    def _ref(self):
        """The reference tensor `v:0` (what update ops write through)."""
        return self._variable

    def _as_graph_element(self):
        return self._variable

    def to_proto(self, export_scope=None):
        """This variable as a `VariableDef` protocol buffer (None if outside `export_scope`)."""
        from ..framework.meta_graph import variable_to_proto
        return variable_to_proto(self, export_scope)

    @staticmethod
    def from_proto(variable_def, import_scope=None):
        """The variable a `VariableDef` describes, over the default graph's ops."""
        from ..framework.meta_graph import variable_from_proto
        return variable_from_proto(variable_def, import_scope)

    def value(self):
        """The snapshot `v/read:0`: the variable's value for ops that read it."""
        return self._snapshot

    def read_value(self):
        """A new read of the variable's value (an Identity op named "read")."""
        return _identity(self._variable, name="read")

    def initialized_value(self):
        """The variable's value if it is initialized, else its initial value (use this to
        initialize one variable from another)."""
        g = self.graph
        # TF builds tf.cond(is_variable_initialized(v), v.read_value, lambda: v.initial_value):
        # its result is named "cond/Merge"; one fused op gives the same value and name. (The
        # predicate op is still made, so later ops take TF's names: IsVariableInitialized_1.)
        with g.as_default(), g.control_dependencies(None):
            state_ops.is_variable_initialized(self._variable)
        with g.as_default(), g.control_dependencies(None), name_scope(None, "cond"):
            return apply_op("InitializedValue", [self._variable, self._initial_value],
                            [self.dtype.base_dtype], "Merge")

    def eval(self, session=None):
        """The variable's current value, in `session` (default: the default session)."""
        return self._variable.eval(session=session)

    def load(self, value, session=None):
        """Sets the variable to `value` by running its initializer with the initial value fed."""
        if session is None:
            session = get_default_session()
            if session is None:
                raise ValueError("Either session argument should be provided or default session "
                                 "should be established")
        session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

    # -- updates -------------------------------------------------------------------------------
    def assign(self, value, use_locking=False, name=None, read_value=True):
        a = state_ops.assign(self._variable, value, use_locking=use_locking, name=name)
        return a if read_value else a.op

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        a = state_ops.assign_add(self._variable, delta, use_locking=use_locking, name=name)
        return a if read_value else a.op

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        a = state_ops.assign_sub(self._variable, delta, use_locking=use_locking, name=name)
        return a if read_value else a.op

    def _scatter(self, fn, sparse_delta, use_locking, name):
        if not hasattr(sparse_delta, "indices") or not hasattr(sparse_delta, "values"):
            raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta}")
        return fn(self._variable, sparse_delta.indices, sparse_delta.values, use_locking=use_locking,
                  name=name)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_update, sparse_delta, use_locking, name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_add, sparse_delta, use_locking, name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_sub, sparse_delta, use_locking, name)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_mul, sparse_delta, use_locking, name)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_div, sparse_delta, use_locking, name)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_max, sparse_delta, use_locking, name)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter(state_ops.scatter_min, sparse_delta, use_locking, name)

    def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
        if not hasattr(sparse_delta, "indices") or not hasattr(sparse_delta, "values"):
            raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta}")
        return state_ops.batch_scatter_update(self, sparse_delta.indices, sparse_delta.values,
                                              use_locking=use_locking, name=name)

    def scatter_nd_update(self, indices, updates, name=None):
        return state_ops.scatter_nd_update(self._variable, indices, updates, use_locking=True, name=name)

    def scatter_nd_add(self, indices, updates, name=None):
        return state_ops.scatter_nd_add(self._variable, indices, updates, use_locking=True, name=name)

    def scatter_nd_sub(self, indices, updates, name=None):
        return state_ops.scatter_nd_sub(self._variable, indices, updates, use_locking=True, name=name)

    def count_up_to(self, limit):
        return state_ops.count_up_to(self._variable, limit)

    def is_initialized(self, name=None):
        return state_ops.is_variable_initialized(self._variable, name=name)

    # -- Python protocol -----------------------------------------------------------------------
    def __repr__(self):
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"

    __str__ = __repr__

    def __iter__(self):
        return iter(self.value())  # as TF: the tensor's "Iterating over a symbolic `tf.Tensor`" error

    # No __len__: as in TF, len(v) is Python's "object of type ... has no len()".

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(f"Cannot convert a symbolic tf.Variable ({self.name}) to a numpy array.")

    # `==` and hashing stay by identity (TF1 semantics).
    __hash__ = object.__hash__


VariableV1 = Variable
RefVariable = Variable

# Operators delegate to whatever Tensor's operator is at call time (math_ops and array_ops install
# them on Tensor), applied to the variable's snapshot.
_OPERATORS = ["__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__", "__div__", "__rdiv__", "__floordiv__", "__rfloordiv__", "__mod__",
              "__rmod__", "__pow__", "__rpow__", "__matmul__", "__rmatmul__", "__neg__", "__abs__",
              "__invert__", "__pos__", "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__",
              "__lt__", "__le__", "__gt__", "__ge__", "__getitem__", "__bool__", "__nonzero__"]


def _delegate(opname):
    def operator(self, *args):
        fn = getattr(Tensor, opname, None)
        if opname in ("__bool__", "__nonzero__") and not getattr(self, "_is_resource_variable", False):
            return True  # TF's RefVariable has no __bool__ (always truthy); a resource one reads
        if fn is None:
            return NotImplemented
        return fn(self._snapshot, *args)
    operator.__name__ = opname
    return operator


for _name in _OPERATORS:
    setattr(Variable, _name, _delegate(_name))


def _getitem(self, slice_spec):
    # TF's _SliceHelperVar: a slice of the value that also knows the variable (`v[0].assign(x)`).
    from .array_slice_ops import _slice_helper
    return _slice_helper(self._snapshot, slice_spec, var=self)


Variable.__getitem__ = _getitem


def _use_resource(args, kwargs):
    use_resource = kwargs.get("use_resource", args[11] if len(args) > 11 else None)
    if use_resource is None:
        from . import resource_variable_ops, variable_scope
        use_resource = variable_scope.get_variable_scope().use_resource
        if use_resource is None:
            use_resource = resource_variable_ops.default_use_resource()
    return bool(use_resource)


def _variable_to_tensor(v, dtype=None, name=None, as_ref=False):
    convert = getattr(v, "_dense_var_to_tensor", None)
    if convert is not None:
        return convert(dtype=dtype, name=name, as_ref=as_ref)
    if dtype is not None and not dtype.is_compatible_with(v.dtype):
        raise ValueError(f"Incompatible type conversion requested to type '{dtype.base_dtype.name}' "
                         f"for variable of type '{v.dtype.name}'")
    return v._ref() if as_ref else v.value()


register_tensor_conversion_function(Variable, _variable_to_tensor)


# -- initialized_value: the variable's value if initialized, else its initial value ------------

def _first_input_shape(op):
    return [op._inputs[1]._shape]


registry.register_op("InitializedValue", shape_fn=_first_input_shape, stateful=True, ref_inputs=(0,))
registry.no_gradient("InitializedValue")


# -- collections -------------------------------------------------------------------------------

def global_variables(scope=None):
    """Variables in the GLOBAL_VARIABLES collection (optionally filtered by a name regex)."""
    return get_default_graph().get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def all_variables():
    """Deprecated alias of `global_variables()`."""
    return global_variables()


def local_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.MODEL_VARIABLES, scope)


def trainable_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def moving_average_variables(scope=None):
    return get_default_graph().get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """An op running the initializers of `var_list` (a no-op when it is empty)."""
    from . import control_flow_ops
    if var_list:
        return control_flow_ops.group(*[v.initializer for v in var_list], name=name)
    return control_flow_ops.no_op(name=name)


def initialize_variables(var_list, name="init"):
    """Deprecated alias of `variables_initializer`."""
    return variables_initializer(var_list, name=name)


def global_variables_initializer():
    """An op (named "init") that initializes all global variables."""
    return variables_initializer(global_variables())


def initialize_all_variables():
    """Deprecated alias of `global_variables_initializer()`."""
    return global_variables_initializer()


def local_variables_initializer():
    """An op (named "init") that initializes all local variables."""
    return variables_initializer(local_variables())


def initialize_local_variables():
    return local_variables_initializer()


def is_variable_initialized(variable):
    """A scalar bool tensor: whether `variable` is initialized."""
    return state_ops.is_variable_initialized(variable)



def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor with the names of the variables in `var_list` (default: all global and
    local variables) that are not initialized yet."""
    g = get_default_graph()
    if var_list is None:
        var_list = global_variables() + local_variables()
        if not var_list:
            var_list = [op._outputs[0] for op in g.get_operations() if op.type == "VariableV2"]
    from ..framework.constant_op import constant
    from . import array_ops, math_ops
    # TF's graph: IsVariableInitialized per variable, stack, LogicalNot, the names as a Const,
    # boolean_mask (the check ops and the mask on the CPU).
    with g.as_default(), name_scope(name):
        flags = [state_ops.is_variable_initialized(v) for v in var_list]
        with g.device("/cpu:0"):
            if not var_list:
                return constant([], dtype=_dtypes.string)
            mask = math_ops.logical_not(array_ops.stack(flags))
            names = constant([v.op.name for v in var_list])
            return array_ops.boolean_mask(names, mask)


def assert_variables_initialized(var_list=None):
    """TF's assert_variables_initialized: the ranks of the variables in `var_list` (default: all
    global and local variables), read without constant folding, so running it fails with
    FailedPreconditionError if one is not initialized. None when there are no variables."""
    if var_list is None:
        var_list = global_variables() + local_variables()
        if not var_list:
            var_list = []
            for op in get_default_graph().get_operations():
                if op.type in ("Variable", "VariableV2", "AutoReloadVariable"):
                    var_list.append(op.outputs[0])
    if not var_list:
        return None
    from . import array_ops
    # The ranks are known statically (and folded by the plan compiler), so the check that TF's
    # Rank kernels make on their variable inputs is an explicit op they depend on.
    refs = [var._ref() if isinstance(var, Variable) else var for var in var_list]
    g = refs[0].graph
    # A resource variable's handle is not its value: its flag is VarIsInitializedOp and its
    # Rank reads the value (as TF's rank of the variable converts it).
    resource = [r.dtype.base_dtype == _dtypes.resource for r in refs]
    flags = [var.is_initialized() if res else state_ops.is_variable_initialized(r)
             for var, r, res in zip(var_list, refs, resource)]
    check = apply_op("AssertVariablesInitialized", flags, [], "assert_initialized",
                     attrs={"names": [r.op.name for r in refs]})
    ranks = []
    for var, ref, res in zip(var_list, refs, resource):
        with g.colocate_with(ref.op), g.control_dependencies([check]):
            x = var.value() if res else ref
            ranks.append(apply_op("Rank", [x], [_dtypes.int32], "Rank", attrs={"T": x.dtype.base_dtype}))
    if len(ranks) == 1:
        return ranks[0]
    return array_ops.stack(ranks)


registry.register_op("AssertVariablesInitialized", stateful=True)
registry.no_gradient("AssertVariablesInitialized")
