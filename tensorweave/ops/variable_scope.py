"""tf.variable_scope and tf.get_variable (TF1 semantics).

Each graph has a variable store (variables made by get_variable, by full name) and the current
`VariableScope`. `variable_scope("foo")` opens the name scope "foo/" (then "foo_1/" for ops on
re-entry) and the variable scope "foo", under which `get_variable("v")` makes or, with reuse,
returns the variable "foo/v". Reuse is inherited by sub-scopes; `AUTO_REUSE` creates when absent
and reuses when present.
"""

import enum
import functools
import inspect

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import GraphKeys, _graph_from_values, get_default_graph
from ..framework.tensor_shape import as_shape
from . import init_ops
from .variables import Variable, VariableAggregation, VariableSynchronization

__all__ = ["VariableScope", "variable_scope", "variable_op_scope", "get_variable_scope", "get_variable",
           "get_local_variable", "AUTO_REUSE"]


class _ReuseMode(enum.Enum):
    AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE


class _Store:
    """Per graph: variables by full name, the current variable scope, open-scope counts."""

    def __init__(self):
        self.vars = {}
        self.partitioned_vars = {}  # name -> PartitionedVariable (its shards are in vars)
        self.current_scope = VariableScope(False)
        self.scope_counts = {}

    def open_variable_scope(self, name):
        self.scope_counts[name] = self.scope_counts.get(name, 0) + 1

    def close_variable_subscopes(self, name):
        prefix = name + "/"
        for k in self.scope_counts:
            if k.startswith(prefix):
                self.scope_counts[k] = 0


def _store(graph=None):
    g = graph or get_default_graph()
    s = g._variable_scope_store
    if s is None:
        s = g._variable_scope_store = _Store()
    return s


class VariableScope:
    """The defaults (initializer, regularizer, dtype, reuse, custom getter...) that
    `get_variable` uses inside a `variable_scope`."""

    def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
                 partitioner=None, custom_getter=None, name_scope="", dtype=_dtypes.float32,
                 use_resource=None, constraint=None):
        self._name = name
        self._initializer = initializer
        self._regularizer = regularizer
        self._reuse = reuse
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._name_scope = name_scope
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint

    name = property(lambda self: self._name)
    original_name_scope = property(lambda self: self._name_scope)
    reuse = property(lambda self: self._reuse)
    initializer = property(lambda self: self._initializer)
    dtype = property(lambda self: self._dtype)
    use_resource = property(lambda self: self._use_resource)
    regularizer = property(lambda self: self._regularizer)
    caching_device = property(lambda self: self._caching_device)
    partitioner = property(lambda self: self._partitioner)
    custom_getter = property(lambda self: self._custom_getter)
    constraint = property(lambda self: self._constraint)

    def reuse_variables(self):
        """From now on, get_variable in this scope reuses variables."""
        self._reuse = True

    def set_initializer(self, initializer):
        self._initializer = initializer

    def set_dtype(self, dtype):
        self._dtype = dtype

    def set_use_resource(self, use_resource):
        self._use_resource = use_resource

    def set_regularizer(self, regularizer):
        self._regularizer = regularizer

    def set_caching_device(self, caching_device):
        self._caching_device = caching_device

    def set_partitioner(self, partitioner):
        self._partitioner = partitioner

    def set_custom_getter(self, custom_getter):
        self._custom_getter = custom_getter

    def get_collection(self, name):
        scope = self._name + "/" if self._name else ""
        return get_default_graph().get_collection(name, scope)

    def trainable_variables(self):
        return self.get_collection(GraphKeys.TRAINABLE_VARIABLES)

    def global_variables(self):
        return self.get_collection(GraphKeys.GLOBAL_VARIABLES)

    def local_variables(self):
        return self.get_collection(GraphKeys.LOCAL_VARIABLES)

    def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None, regularizer=None,
                     reuse=None, trainable=None, collections=None, caching_device=None,
                     partitioner=None, validate_shape=True, use_resource=None, custom_getter=None,
                     constraint=None, synchronization=VariableSynchronization.AUTO,
                     aggregation=VariableAggregation.NONE):
        if regularizer is None:
            regularizer = self._regularizer
        if caching_device is None:
            caching_device = self._caching_device
        if partitioner is None:
            partitioner = self._partitioner
        if custom_getter is None:
            custom_getter = self._custom_getter
        if reuse is None:
            reuse = self._reuse
        if use_resource is None:
            use_resource = self._use_resource
        full_name = self._name + "/" + name if self._name else name
        g = get_default_graph()
        g = getattr(g, "_variable_creation_graph", g)  # traced functions make variables outside (func_graph)
        with g.as_default(), g.name_scope(""):
            if dtype is not None and initializer is not None and not callable(initializer):
                init_dtype = convert_to_tensor(initializer).dtype.base_dtype
                if init_dtype != _dtypes.as_dtype(dtype):
                    raise ValueError(f"Initializer type '{init_dtype}' and explicit dtype "
                                     f"'{_dtypes.as_dtype(dtype)}' don't match.")
            if initializer is None:
                initializer = self._initializer
            if constraint is None:
                constraint = self._constraint
            if dtype is None:
                dtype = self._dtype
            return var_store.get_variable(
                full_name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                reuse=reuse, trainable=trainable, collections=collections, caching_device=caching_device,
                partitioner=partitioner, validate_shape=validate_shape, use_resource=use_resource,
                custom_getter=custom_getter, constraint=constraint, synchronization=synchronization,
                aggregation=aggregation)

    def __repr__(self):
        return f"<tensorweave VariableScope {self._name!r} reuse={self._reuse!r}>"


class _VarStore:
    """get_variable's logic over a `_Store`'s variables."""

    def __init__(self, store):
        self._store = store

    def get_variable(self, name, shape=None, dtype=_dtypes.float32, initializer=None, regularizer=None,
                     reuse=None, trainable=None, collections=None, caching_device=None,
                     partitioner=None, validate_shape=True, use_resource=None, custom_getter=None,
                     constraint=None, synchronization=VariableSynchronization.AUTO,
                     aggregation=VariableAggregation.NONE):
        def true_getter(name, shape=None, dtype=_dtypes.float32, initializer=None, regularizer=None,
                        reuse=None, trainable=None, collections=None, caching_device=None,
                        partitioner=None, validate_shape=True, use_resource=None, constraint=None,
                        synchronization=VariableSynchronization.AUTO,
                        aggregation=VariableAggregation.NONE):
            is_scalar = shape is not None and isinstance(shape, (list, tuple)) and not shape
            if partitioner is not None and not is_scalar:
                if not callable(partitioner):
                    raise ValueError(f"Partitioner must be callable, but received: {partitioner}")
                with get_default_graph().name_scope(""):
                    return self._get_partitioned_variable(name, partitioner, shape, dtype, initializer,
                                                          regularizer, reuse, trainable, collections,
                                                          caching_device, validate_shape, constraint,
                                                          synchronization, aggregation, use_resource)
            if reuse is True and partitioner is None and name in self._store.partitioned_vars:
                return self._get_partitioned_variable(name, None, shape, dtype, initializer, regularizer,
                                                      reuse, trainable, collections, caching_device,
                                                      validate_shape, constraint, synchronization,
                                                      aggregation, use_resource)
            if f"{name}/part_0" in self._store.vars:
                raise ValueError(f"No partitioner was provided, but a partitioned version of the variable "
                                 f"was found: {name}/part_0. Perhaps a variable of the same name was "
                                 f"already created with partitioning?")
            return self._get_single_variable(name, shape, dtype, initializer, regularizer, reuse,
                                             trainable, collections, caching_device, validate_shape,
                                             constraint, synchronization, aggregation,
                                             use_resource=use_resource)

        # TF's validate_synchronization_aggregation_trainable, before any custom getter: an
        # unset `trainable` is False for ON_READ variables (an explicit True is kept).
        if trainable is None:
            trainable = synchronization != VariableSynchronization.ON_READ
        if custom_getter is not None:
            if not callable(custom_getter):
                raise ValueError(f"Passed a custom_getter which is not callable: {custom_getter}")
            kwargs = dict(
                getter=true_getter, name=name, shape=shape, dtype=dtype, initializer=initializer,
                regularizer=regularizer, reuse=reuse, trainable=trainable, collections=collections,
                caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
                use_resource=use_resource, synchronization=synchronization, aggregation=aggregation)
            # (TF passes `constraint` only to getters that take it or **kwargs: it came later)
            if _takes_arg(custom_getter, "constraint"):
                kwargs["constraint"] = constraint
            return custom_getter(**kwargs)
        return true_getter(name, shape=shape, dtype=dtype, initializer=initializer,
                           regularizer=regularizer, reuse=reuse, trainable=trainable,
                           collections=collections, caching_device=caching_device,
                           partitioner=partitioner, validate_shape=validate_shape, constraint=constraint,
                           synchronization=synchronization, aggregation=aggregation,
                           use_resource=use_resource)

    def _get_partitioned_variable(self, name, partitioner, shape, dtype, initializer, regularizer, reuse,
                                  trainable, collections, caching_device, validate_shape, constraint,
                                  synchronization, aggregation, use_resource=None):
        """TF's _get_partitioned_variable: shards "<name>/part_<i>" (ops/partitioned_variables.py)."""
        from ..framework.graph import Tensor
        from . import array_ops
        from . import partitioned_variables as pv
        initializing_from_value = initializer is not None and isinstance(initializer, Tensor)
        if name in self._store.vars:
            raise ValueError(f"A partitioner was provided, but an unpartitioned version of the variable was "
                             f"found: {name}.  Perhaps a variable of the same name was already created "
                             f"without partitioning?")
        dtype = _dtypes.as_dtype(dtype)
        shape = as_shape(shape)
        if initializing_from_value:
            shape = shape.merge_with(initializer.get_shape())
        partitions = None
        if not reuse or partitioner:
            partitions = pv.call_partitioner(partitioner, shape, dtype)
        existing = self._store.partitioned_vars.get(name)
        if existing is not None:
            if reuse is False:
                raise ValueError(f"Partitioned variable with name {name} already exists. Did you mean to set "
                                 f"reuse=True or reuse=tf.AUTO_REUSE in VarScope?")
            if not shape.is_compatible_with(existing.get_shape()):
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified shape {shape} "
                                 f"and found shape {existing.get_shape()}.")
            if not dtype.is_compatible_with(existing.dtype):
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified dtype "
                                 f"{dtype.name} and found dtype {existing.dtype.name}.")
            if partitions is not None and existing._get_partitions() != partitions:
                raise ValueError(f"Trying to reuse partitioned variable {name}, but specified partitions "
                                 f"{partitions} and found partitions {existing._get_partitions()}.")
            return existing
        if reuse is True:
            raise ValueError(f"PartitionedVariable {name} does not exist, or was not created with "
                             f"tf.get_variable(). Did you mean to set reuse=False or reuse=tf.AUTO_REUSE in "
                             f"VarScope?")
        slice_dim, num_slices = pv.slice_dim_and_num_slices(partitions)
        if f"{name}/part_0" in self._store.vars:
            if f"{name}/part_{num_slices - 1}" not in self._store.vars:
                raise ValueError(f"Partitioner returned a different partitioning than what was already found.  "
                                 f"Partitioner returned {num_slices} shards, and shard {name}/part_0 was "
                                 f"found, but {name}/part_{num_slices - 1} was not.")
            if f"{name}/part_{num_slices}" in self._store.vars:
                raise ValueError(f"Partitioner returned a different partitioning than what was already found.  "
                                 f"Partitioner returned {num_slices} shards, and shard {name}/part_0 was "
                                 f"found, but so was the extra shard {name}/part_{num_slices}.")
        g = get_default_graph()
        vs = []
        for i, (var_offset, var_shape) in enumerate(pv.iter_slices(shape.as_list(), num_slices, slice_dim)):
            info = pv.partition_info(shape.as_list(), var_offset)
            var_full_name = f"{name}/part_{i}"
            init, init_shape, part_dtype = initializer, var_shape, dtype
            with g.name_scope(var_full_name + "/PartitionedInitializer"):
                if initializer is None or callable(initializer):
                    pass
                elif isinstance(initializer, Tensor):
                    init = array_ops.slice(initializer, var_offset, var_shape)
                    part_dtype = init.dtype.base_dtype
                    init_shape = None
                else:
                    init = array_ops.slice(convert_to_tensor(initializer, dtype=dtype), var_offset, var_shape)
                    init_shape = None
            with g.name_scope(""):
                var = self._get_single_variable(var_full_name, init_shape, part_dtype, init, regularizer, reuse,
                                                trainable, collections, caching_device, validate_shape,
                                                constraint, synchronization, aggregation, partition_info=info,
                                                use_resource=use_resource)
            var._save_slice_info = pv.SaveSliceInfo(name, shape.as_list(), var_offset, var_shape)
            vs.append(var)
        result = pv.PartitionedVariable(name=name, shape=shape, dtype=dtype, variable_list=vs,
                                        partitions=partitions)
        self._store.partitioned_vars[name] = result
        return result

    def _get_single_variable(self, name, shape, dtype, initializer, regularizer, reuse, trainable,
                             collections, caching_device, validate_shape, constraint, synchronization,
                             aggregation, partition_info=None, use_resource=None):
        initializing_from_value = initializer is not None and not callable(initializer)
        if shape is not None and initializing_from_value:
            raise ValueError("If initializer is a constant, do not specify shape.")
        dtype = _dtypes.as_dtype(dtype)
        if shape is not None:
            shape = as_shape(shape)
        found = self._store.vars.get(name)
        if found is not None:
            if reuse is False:
                # TF lists the creating stack innermost first, five user frames at most
                frames = "".join(f'  File "{fn}", line {ln}, in {fname}\n'
                                 for fn, ln, fname in found.op._stack[::-1][:5])
                raise ValueError(f"Variable {name} already exists, disallowed. Did you mean to set "
                                 f"reuse=True or reuse=tf.AUTO_REUSE in VarScope? Originally defined "
                                 f"at:\n\n{frames}")
            if shape is not None and not shape.is_compatible_with(found.get_shape()):
                raise ValueError(f"Trying to share variable {name}, but specified shape {shape} and "
                                 f"found shape {found.get_shape()}.")
            if not dtype.is_compatible_with(found.dtype):
                raise ValueError(f"Trying to share variable {name}, but specified dtype {dtype.name} and "
                                 f"found dtype {found.dtype.name}.")
            return found
        if reuse is True:
            raise ValueError(f"Variable {name} does not exist, or was not created with tf.get_variable(). "
                             f"Did you mean to set reuse=tf.AUTO_REUSE in VarScope?")
        if initializer is None:
            if shape is None:
                raise ValueError(f"Variable {name} did not get an initializer, so its `shape` argument "
                                 f"must be specified.")
            if dtype.is_floating:
                initializer = init_ops.glorot_uniform_initializer()
            elif dtype.is_integer or dtype.is_bool or dtype.base_dtype == _dtypes.string:
                initializer = init_ops.zeros_initializer()
            else:
                raise ValueError(f"An initializer for variable {name} of {dtype.base_dtype} is required")
        g = get_default_graph()
        with g.control_dependencies(None):
            if initializing_from_value:
                init_val = initializer
                variable_dtype = None
            else:
                if inspect.isclass(initializer):
                    initializer = initializer()
                if shape is not None and shape.is_fully_defined():
                    try:
                        params = inspect.signature(initializer).parameters
                    except (TypeError, ValueError):
                        params = {}
                    if "partition_info" in params:
                        init_val = functools.partial(initializer, shape.as_list(), dtype=dtype,
                                                     partition_info=partition_info)
                    else:
                        init_val = functools.partial(initializer, shape.as_list(), dtype=dtype)
                    variable_dtype = dtype.base_dtype
                elif _needs_no_arguments(initializer):
                    init_val = initializer
                    variable_dtype = None
                else:
                    raise ValueError("The initializer passed is not valid. It should be a callable with "
                                     "no arguments and the shape should not be provided or an instance "
                                     "of `tf.keras.initializers.*' and `shape` should be fully defined.")
        if use_resource is None:
            from .resource_variable_ops import default_use_resource
            use_resource = default_use_resource()
        v = Variable(initial_value=init_val, name=name, trainable=trainable, collections=collections,
                     caching_device=caching_device, dtype=variable_dtype, validate_shape=validate_shape,
                     constraint=constraint, synchronization=synchronization, aggregation=aggregation,
                     use_resource=bool(use_resource))
        self._store.vars[name] = v
        if regularizer:
            with g.colocate_with(v.op), g.name_scope(name + "/Regularizer/"):
                loss = regularizer(v)
            if loss is not None:
                g.add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)
        return v


def _takes_arg(fn, name):
    """Whether fn has a parameter `name` or takes **kwargs (TF's fn_args / has_kwargs)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return True
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _needs_no_arguments(fn):
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return all(p.default is not inspect.Parameter.empty or
               p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params.values())


def get_variable_scope():
    """The current VariableScope."""
    return _store().current_scope


def _get_default_variable_store():
    return _VarStore(_store())


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None,
                 collections=None, caching_device=None, partitioner=None, validate_shape=True,
                 use_resource=None, custom_getter=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO, aggregation=VariableAggregation.NONE):
    """Gets an existing variable (with reuse) or creates a new one named
    `<variable scope>/<name>`.

    Without an initializer, floating variables use glorot_uniform and integer/bool/string ones
    zeros. `initializer` may also be a value or tensor (then `shape` must be None)."""
    return get_variable_scope().get_variable(
        _get_default_variable_store(), name, shape=shape, dtype=dtype, initializer=initializer,
        regularizer=regularizer, trainable=trainable, collections=collections,
        caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
        use_resource=use_resource, custom_getter=custom_getter, constraint=constraint,
        synchronization=synchronization, aggregation=aggregation)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=False,
                       collections=None, caching_device=None, partitioner=None, validate_shape=True,
                       use_resource=None, custom_getter=None, constraint=None,
                       synchronization=VariableSynchronization.AUTO,
                       aggregation=VariableAggregation.NONE):
    """get_variable for a local (non-trainable, LOCAL_VARIABLES) variable."""
    collections = list(collections or []) + [GraphKeys.LOCAL_VARIABLES]
    return get_variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                        trainable=False, collections=collections, caching_device=caching_device,
                        partitioner=partitioner, validate_shape=validate_shape, use_resource=use_resource,
                        custom_getter=custom_getter, constraint=constraint,
                        synchronization=synchronization, aggregation=aggregation)


def _maybe_wrap_custom_getter(custom_getter, old_getter):
    if old_getter is None:
        return custom_getter

    def wrapped_custom_getter(getter, *args, **kwargs):
        return custom_getter(functools.partial(old_getter, getter), *args, **kwargs)
    return wrapped_custom_getter


class _PureVariableScope:
    """Enters a VariableScope (no name scope)."""

    def __init__(self, name_or_scope, reuse=None, initializer=None, regularizer=None,
                 caching_device=None, partitioner=None, custom_getter=None, old_name_scope=None,
                 dtype=_dtypes.float32, use_resource=None, constraint=None):
        self._name_or_scope = name_or_scope
        self._reuse = reuse
        self._initializer = initializer
        self._regularizer = regularizer
        self._caching_device = caching_device
        self._partitioner = partitioner
        self._custom_getter = custom_getter
        self._old_name_scope = old_name_scope
        self._dtype = dtype
        self._use_resource = use_resource
        self._constraint = constraint
        self._store = _store()
        self._last = None

    def _apply(self, vs, old_getter):
        if self._initializer is not None:
            vs.set_initializer(self._initializer)
        if self._regularizer is not None:
            vs.set_regularizer(self._regularizer)
        if self._caching_device is not None:
            vs.set_caching_device(self._caching_device)
        if self._partitioner is not None:
            vs.set_partitioner(self._partitioner)
        if self._custom_getter is not None:
            vs.set_custom_getter(_maybe_wrap_custom_getter(self._custom_getter, old_getter))
        if self._dtype is not None:
            vs.set_dtype(self._dtype)
        if self._use_resource is not None:
            vs.set_use_resource(self._use_resource)
        return vs

    def __enter__(self):
        st = self._store
        self._old = st.current_scope
        scope = self._name_or_scope
        if isinstance(scope, VariableScope):
            self._new_name = scope.name
            st.open_variable_scope(self._new_name)
            self._old_counts = dict(st.scope_counts)
            vs = VariableScope(scope.reuse if not self._reuse else self._reuse, name=scope.name,
                               initializer=scope.initializer, regularizer=scope.regularizer,
                               caching_device=scope.caching_device, partitioner=scope.partitioner,
                               dtype=scope.dtype, custom_getter=scope.custom_getter,
                               name_scope=scope.original_name_scope, use_resource=scope.use_resource,
                               constraint=self._constraint)
            vs = self._apply(vs, scope.custom_getter)
        else:
            self._new_name = self._old.name + "/" + scope if self._old.name else scope
            self._reuse = self._reuse or self._old.reuse
            vs = VariableScope(self._reuse, name=self._new_name, initializer=self._old.initializer,
                               regularizer=self._old.regularizer, caching_device=self._old.caching_device,
                               partitioner=self._old.partitioner, dtype=self._old.dtype,
                               use_resource=self._old.use_resource, custom_getter=self._old.custom_getter,
                               name_scope=scope if self._old_name_scope is None else self._old_name_scope,
                               constraint=self._constraint)
            vs = self._apply(vs, self._old.custom_getter)
            st.open_variable_scope(self._new_name)
        st.current_scope = vs
        self._last = vs
        return vs

    def __exit__(self, *exc):
        st = self._store
        if st.current_scope is not self._last:
            raise RuntimeError("Improper nesting of variable_scope.")
        if isinstance(self._name_or_scope, VariableScope):
            st.scope_counts = self._old_counts
        else:
            st.close_variable_subscopes(self._new_name)
        st.current_scope = self._old
        return False


def _get_unique_variable_scope(prefix):
    st = _store()
    current = st.current_scope
    name = current.name + "/" + prefix if current.name else prefix
    if st.scope_counts.get(name, 0) == 0:
        return prefix
    idx = 1
    while st.scope_counts.get(f"{name}_{idx}", 0) > 0:
        idx += 1
    return f"{prefix}_{idx}"


class variable_scope:  # noqa: N801 - TF's name
    """Context manager opening a variable scope (and, by default, a name scope of the same name)."""

    def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
                 regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
                 reuse=None, dtype=None, use_resource=None, constraint=None, auxiliary_name_scope=True):
        if default_name is None and name_or_scope is None:
            raise TypeError("If default_name is None then name_or_scope is required")
        if reuse is False:
            reuse = None
        if not (reuse is True or reuse is None or reuse is AUTO_REUSE):
            raise ValueError("The reuse parameter must be True or False or None.")
        if not isinstance(auxiliary_name_scope, bool):
            raise TypeError(f"The auxiliary_name_scope must be `True` or `False`, while get "
                            f"{auxiliary_name_scope}")
        self._name_or_scope = name_or_scope
        self._default_name = default_name
        self._kwargs = dict(initializer=initializer, regularizer=regularizer,
                            caching_device=caching_device, partitioner=partitioner,
                            custom_getter=custom_getter, dtype=dtype, use_resource=use_resource,
                            constraint=constraint)
        self._reuse = reuse
        self._graph = _graph_from_values(values or [])
        self._auxiliary_name_scope = auxiliary_name_scope
        self._name_scope_cm = None
        self._pure = None

    def __enter__(self):
        self._graph_cm = self._graph.as_default()
        self._graph_cm.__enter__()
        try:
            return self._enter()
        except BaseException:
            if self._name_scope_cm is not None:
                self._name_scope_cm.__exit__(None, None, None)
                self._name_scope_cm = None
            self._graph_cm.__exit__(None, None, None)
            raise

    def _enter(self):
        g = self._graph
        current_name_scope = None
        if not self._auxiliary_name_scope:
            ns = g.get_name_scope()
            current_name_scope = g.name_scope(ns + "/" if ns else "")
        scope = self._name_or_scope
        if scope is not None:
            if not isinstance(scope, (VariableScope, str)):
                raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
            ns_name = scope if isinstance(scope, str) else scope.name.split("/")[-1]
            if ns_name or current_name_scope is not None:
                cm = current_name_scope or g.name_scope(ns_name)
                entered = cm.__enter__()
                self._name_scope_cm = cm
                old_name_scope = entered if isinstance(scope, str) else scope.original_name_scope
                self._pure = _PureVariableScope(scope, reuse=self._reuse, old_name_scope=old_name_scope,
                                                **self._kwargs)
            else:
                self._pure = _PureVariableScope(scope, reuse=self._reuse, **self._kwargs)
            return self._pure.__enter__()
        if self._reuse:
            raise ValueError("reuse=True cannot be used without a name_or_scope")
        cm = current_name_scope or g.name_scope(self._default_name)
        entered = cm.__enter__()
        self._name_scope_cm = cm
        unique = _get_unique_variable_scope(self._default_name)
        self._pure = _PureVariableScope(unique, old_name_scope=entered, **self._kwargs)
        return self._pure.__enter__()

    def __exit__(self, *exc):
        try:
            self._pure.__exit__(*exc)
        finally:
            try:
                if self._name_scope_cm is not None:
                    self._name_scope_cm.__exit__(*exc)
                    self._name_scope_cm = None
            finally:
                self._graph_cm.__exit__(*exc)
        return False


def variable_op_scope(values, name_or_scope, default_name=None, initializer=None, regularizer=None,
                      caching_device=None, partitioner=None, custom_getter=None, reuse=None, dtype=None,
                      use_resource=None, constraint=None):
    """Deprecated: `variable_scope(name_or_scope, default_name, values, ...)`."""
    return variable_scope(name_or_scope, default_name=default_name, values=values, initializer=initializer,
                          regularizer=regularizer, caching_device=caching_device, partitioner=partitioner,
                          custom_getter=custom_getter, reuse=reuse, dtype=dtype, use_resource=use_resource,
                          constraint=constraint)
