"""`tf.Module`: a named container of variables and sub-modules (TF 2.x's tf.Module, as it
behaves in compat.v1 graph mode).

The module opens its name scope once, at construction, so `Module(name="m")` twice gives the
scopes "m/" and "m_1/"; `with module.name_scope:` re-enters that exact scope later.
`variables`, `trainable_variables`, `non_trainable_variables` and `submodules` walk the module's
attributes (sorted by name, nested lists/tuples/dicts flattened, sub-modules after the module's
own attributes), each object reported once.
"""

import functools
import re

from .framework.graph import get_default_graph

__all__ = ["Module"]

_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")
_VALID_IDENTIFIER = re.compile(r"^[a-zA-Z_]([a-zA-Z0-9_])*$")


def camel_to_snake(value):
    """'MyDense' -> 'my_dense' (the default module name, from the class name)."""
    return _CAMEL_TO_SNAKE.sub(r"_\1", value).lower()


def valid_identifier(name):
    return bool(_VALID_IDENTIFIER.match(name))


class _ModuleNameScope:
    """A context manager re-entering a module's scope; `.name` is the full scope ("m/")."""

    def __init__(self, scope_name):
        self.name = scope_name
        self._cms = []

    def __enter__(self):
        graph = get_default_graph()
        cm = graph.name_scope(self.name)
        self._cms.append(cm)
        return cm.__enter__()

    def __exit__(self, *exc):
        return self._cms.pop().__exit__(*exc)


def _is_variable(obj):
    from .ops.variables import Variable
    return isinstance(obj, Variable)


class Module:
    """Base class for stateful building blocks: subclasses assign variables and other modules
    as attributes; `variables`, `trainable_variables` and `submodules` find them."""

    _TF_MODULE_IGNORED_PROPERTIES = frozenset()

    def __init__(self, name=None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not valid_identifier(name):
            raise ValueError("%r is not a valid module name. Module names must be valid Python "
                             "identifiers (e.g. a valid class name)." % name)
        self._name = name
        with get_default_graph().name_scope(name) as scope_name:
            self._scope_name = scope_name

    @property
    def name(self):
        """The module's name (not uniquified: two modules may share it)."""
        return self._name

    @property
    def name_scope(self):
        """A context manager entering this module's name scope."""
        return _ModuleNameScope(self._scope_name)

    @property
    def variables(self):
        """Every `tf.Variable` of this module and its sub-modules (a tuple)."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and getattr(v, "trainable", False)))

    @property
    def non_trainable_variables(self):
        return tuple(self._flatten(predicate=lambda v: _is_variable(v) and not getattr(v, "trainable", False)))

    @property
    def submodules(self):
        """Every module reachable from this one's attributes (not itself), a tuple."""
        return tuple(self._flatten(predicate=lambda v: isinstance(v, Module)))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None, with_path=False,
                 expand_composites=False):
        """The leaves of this module's attributes that satisfy `predicate`, then those of its
        sub-modules (recursively); with `with_path`, (path tuple, leaf) pairs."""
        if predicate is None:
            predicate = lambda _: True  # noqa: E731
        return _flatten_module(self, recursive, predicate, attribute_traversal_key, with_path,
                               (), {id(self)}, [])

    @classmethod
    def with_name_scope(cls, method):
        """Decorates a method so that it runs inside the module's name scope."""
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope


def _paths_and_leaves(structure):
    """(tuple path, leaf) for each leaf, as nest.flatten_with_tuple_paths orders them."""
    from .nest import _is_namedtuple
    if isinstance(structure, dict):
        for k in sorted(structure, key=lambda x: (str(type(x)), x) if not isinstance(x, str) else ("", x)):
            for p, leaf in _paths_and_leaves(structure[k]):
                yield (k,) + p, leaf
    elif _is_namedtuple(structure):
        for k in structure._fields:
            for p, leaf in _paths_and_leaves(getattr(structure, k)):
                yield (k,) + p, leaf
    elif isinstance(structure, (list, tuple)):
        for i, item in enumerate(structure):
            for p, leaf in _paths_and_leaves(item):
                yield (i,) + p, leaf
    else:
        yield (), structure


def _flatten_module(module, recursive, predicate, key, with_path, module_path, seen, stack):
    if id(module) in stack:
        recursive = False
    submodules = []
    module_dict = vars(module)
    for name in sorted(module_dict, key=key):
        if name in module._TF_MODULE_IGNORED_PROPERTIES:
            continue
        for leaf_path, leaf in _paths_and_leaves(module_dict[name]):
            leaf_path = (name,) + leaf_path
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (module_path + leaf_path, leaf) if with_path else leaf
            if recursive and isinstance(leaf, Module):
                submodules.append((module_path + leaf_path, leaf))
    stack.append(id(module))
    for path, sub in submodules:
        yield from _flatten_module(sub, recursive, predicate, key, with_path, path, seen, stack)
    stack.pop()
