"""The global step: an int64 scalar variable "global_step" counting training steps, in the
GLOBAL_STEP and GLOBAL_VARIABLES collections, not trainable, initialized to 0."""

from ..framework import dtypes as _dtypes
from ..framework.graph import GraphKeys, Tensor, get_default_graph
from ..platform import tf_logging as logging

__all__ = ["global_step", "get_global_step", "create_global_step", "get_or_create_global_step",
           "assert_global_step"]

GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


def _is_variable(x):
    from ..ops.variables import Variable
    return isinstance(x, Variable)


def global_step(sess, global_step_tensor):
    """The global step's current value, as a Python int."""
    return int(sess.run(global_step_tensor))


def get_global_step(graph=None):
    """The global step variable of `graph` (the default graph), or None if there is none."""
    graph = graph or get_default_graph()
    global_step_tensor = None
    global_step_tensors = graph.get_collection(GraphKeys.GLOBAL_STEP)
    if len(global_step_tensors) == 1:
        global_step_tensor = global_step_tensors[0]
    elif not global_step_tensors:
        try:
            global_step_tensor = graph.get_tensor_by_name("global_step:0")
        except KeyError:
            return None
    else:
        logging.error("Multiple tensors in global_step collection.")
        return None
    assert_global_step(global_step_tensor)
    return global_step_tensor


def create_global_step(graph=None):
    """Creates the global step variable in `graph`; ValueError if it already exists."""
    graph = graph or get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    with graph.as_default(), graph.control_dependencies(None), graph.name_scope(""):
        collections = [GraphKeys.GLOBAL_VARIABLES, GraphKeys.GLOBAL_STEP]
        try:
            from ..ops import variable_scope as vs
            get_variable = getattr(vs, "get_variable", None)
        except ImportError:
            get_variable = None
        if get_variable is not None:
            from ..ops import init_ops
            return get_variable(GraphKeys.GLOBAL_STEP, shape=[], dtype=_dtypes.int64,
                                initializer=init_ops.zeros_initializer(), trainable=False,
                                collections=collections)
        from ..ops import array_ops, variables
        return variables.Variable(lambda: array_ops.zeros([], dtype=_dtypes.int64), name="global_step",
                                  trainable=False, dtype=_dtypes.int64, collections=collections)


def get_or_create_global_step(graph=None):
    """The global step variable of `graph`, created if needed."""
    graph = graph or get_default_graph()
    global_step_tensor = get_global_step(graph)
    if global_step_tensor is None:
        global_step_tensor = create_global_step(graph)
    return global_step_tensor


def assert_global_step(global_step_tensor):
    """TypeError unless `global_step_tensor` is an integer scalar Variable or Tensor."""
    if not (_is_variable(global_step_tensor) or isinstance(global_step_tensor, Tensor)):
        raise TypeError('Existing "global_step" must be a Variable or Tensor: %s.' % global_step_tensor)
    if not global_step_tensor.dtype.base_dtype.is_integer:
        raise TypeError('Existing "global_step" does not have integer type: %s' % global_step_tensor.dtype)
    shape = global_step_tensor.get_shape()
    if shape.ndims != 0 and shape.is_fully_defined():
        raise TypeError('Existing "global_step" is not scalar: %s' % shape)


def _get_global_step_read(graph=None):
    graph = graph or get_default_graph()
    reads = graph.get_collection(GLOBAL_STEP_READ_KEY)
    if len(reads) > 1:
        raise RuntimeError("There are multiple items in collection {}. There should be only one.".format(
            GLOBAL_STEP_READ_KEY))
    return reads[0] if reads else None


def _get_or_create_global_step_read(graph=None):
    """A tensor reading the global step's value once per step ("global_step/add:0")."""
    graph = graph or get_default_graph()
    read = _get_global_step_read(graph)
    if read is not None:
        return read
    gs = get_global_step(graph)
    if gs is None:
        return None
    with graph.as_default(), graph.name_scope(""), graph.name_scope(gs.op.name + "/"):
        value = gs.initialized_value() if _is_variable(gs) else gs
        graph.add_to_collection(GLOBAL_STEP_READ_KEY, value + 0)
    return _get_global_step_read(graph)


def _increment_global_step(increment, graph=None):
    graph = graph or get_default_graph()
    gs = get_global_step(graph)
    if gs is None:
        raise ValueError("Global step tensor should be created by tf.train.get_or_create_global_step "
                         "before calling increment.")
    read = _get_or_create_global_step_read(graph)
    from ..ops import state_ops
    with graph.as_default(), graph.name_scope(""), graph.name_scope(gs.op.name + "/"):
        with graph.control_dependencies([read]):
            return state_ops.assign_add(gs, increment)
