"""The default graph and session stacks (`tf.get_default_graph`, `as_default`) and the
module-level conveniences that act on the default graph (`tf.name_scope`, `tf.device`,
`tf.control_dependencies`, `tf.add_to_collection`, ...)."""

import contextlib
import threading

from .graph import Graph, _different_graphs
from .graph_elements import Operation, Tensor


class _DefaultStack(threading.local):
    def __init__(self):
        self.stack = []

    @contextlib.contextmanager
    def get_controller(self, obj):
        self.stack.append(obj)
        try:
            yield obj
        finally:
            if self.stack and self.stack[-1] is obj:
                self.stack.pop()
            elif obj in self.stack:
                self.stack.remove(obj)


class _DefaultGraphStack(_DefaultStack):
    _global_default = None

    def get_default(self):
        if self.stack:
            return self.stack[-1]
        if _DefaultGraphStack._global_default is None:
            _DefaultGraphStack._global_default = Graph()
        return _DefaultGraphStack._global_default

    def reset(self):
        if self.stack:
            raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you "
                                 "need a cleared graph, exit the nesting and create a new graph.")
        _DefaultGraphStack._global_default = None


_default_graph_stack = _DefaultGraphStack()
_default_session_stack = _DefaultStack()


def get_default_graph():
    """The graph new ops go into (the innermost `as_default`, else a global one)."""
    return _default_graph_stack.get_default()


def reset_default_graph():
    """Clears the global default graph (error inside a `with g.as_default()` block)."""
    _default_graph_stack.reset()


def get_default_session():
    stack = _default_session_stack.stack
    return stack[-1] if stack else None


def _run_using_default_session(fetch, feed_dict, graph, session):
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. "
                             "Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
        if session.graph is not graph:
            raise ValueError("Cannot use the default session to evaluate tensor: the tensor's graph is "
                             "different from the session's graph. Pass an explicit session to "
                             "`eval(session=sess)`.")
    elif session.graph is not graph:
        raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph is different "
                         "from the session's graph.")
    return session.run(fetch, feed_dict)


# -- module-level conveniences ----------------------------------------------------------------

def name_scope(name, default_name=None, values=None):
    """`tf.name_scope(name, default_name=None, values=None)` (TF1 signature)."""
    n = name if name is not None else default_name
    g = _graph_from_values(values)
    if n is None and default_name is None and name is None and values is not None:
        raise ValueError(f"At least one of name ({name}) and default_name ({default_name}) must be provided.")
    return _NameScope(g, n)


class _NameScope:
    def __init__(self, graph, name):
        self._graph = graph
        self._name = name
        self._cm = None

    def __enter__(self):
        self._cm = self._graph.as_default()
        self._cm.__enter__()
        self._scope = self._graph.name_scope(self._name)
        return self._scope.__enter__()

    def __exit__(self, *exc):
        self._scope.__exit__(*exc)
        self._cm.__exit__(*exc)
        return False


def _graph_from_values(values):
    default = get_default_graph()
    if default._building_function:
        return default  # a traced function (func_graph.py) captures values of enclosing graphs
    first = None  # TF's _get_graph_from_inputs: every value must be from one graph
    for v in values or ():
        g = getattr(v, "graph", None)
        if not isinstance(g, Graph):
            continue
        if first is None:
            first = v
        elif g is not first.graph:
            raise _different_graphs(_graph_element(v), g, _graph_element(first), first.graph)
    return first.graph if first is not None else default


def _graph_element(v):
    if not isinstance(v, (Tensor, Operation)) and hasattr(v, "_as_graph_element"):
        return v._as_graph_element()
    return v


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function):
    return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
    return get_default_graph().colocate_with(op, ignore_existing)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


def op_scope(values, name, default_name=None):
    return name_scope(name, default_name, values)
