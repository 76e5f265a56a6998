"""`tf.keras.backend` for TF1 graph mode: the session keras trains in, the learning phase, and
the small tensor functions keras layers and user code call (`K.mean`, `K.dot`, ...).

The session: `get_session()` returns the default session when one is active (`with
tf.Session() as sess:`), else the one given to `set_session`, else one keras makes for the
default graph. Like TF, it initializes variables nobody has initialized yet before handing the
session back, so `model.fit` runs without `tf.global_variables_initializer()`.

The learning phase is a `placeholder_with_default(False, [])` named "keras_learning_phase", one
per graph; training functions feed it True. `set_learning_phase(0|1)` fixes it to a Python int.
"""

import weakref

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import GraphKeys, Tensor, get_default_graph, get_default_session, name_scope
from ..framework.graph import reset_default_graph
from ..framework.tensor_shape import TensorShape

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"

_SESSION = {"session": None}
_GRAPH_LEARNING_PHASES = weakref.WeakKeyDictionary()   # graph -> placeholder
_FIXED_LEARNING_PHASE = weakref.WeakKeyDictionary()    # graph -> 0 / 1 (set_learning_phase)
_INITIALIZED = weakref.WeakKeyDictionary()             # session -> set of variable names done


def _ops():
    from ..ops import array_ops, math_ops, nn_ops
    return array_ops, math_ops, nn_ops


# -- configuration -------------------------------------------------------------------------------
def floatx():
    return _FLOATX


def set_floatx(value):
    global _FLOATX
    if value not in ("float16", "float32", "float64"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'float16', 'float32', "
                         "'float64'}")
    _FLOATX = str(value)


def epsilon():
    return _EPSILON


def set_epsilon(value):
    global _EPSILON
    _EPSILON = value


def image_data_format():
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format):
    global _IMAGE_DATA_FORMAT
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown `data_format`: {data_format}")
    _IMAGE_DATA_FORMAT = str(data_format)


def cast_to_floatx(x):
    return np.asarray(x, dtype=_FLOATX)


def get_uid(prefix=""):
    """Per-graph counter for `prefix`, starting at 1 (TF's `K.get_uid`)."""
    from ..layers.base import _layer_name_uids
    # TF keys layer names by (namespace, name): its own counters, cleared with them.
    uids = _layer_name_uids.setdefault(get_default_graph(), {})
    key = ("get_uid", prefix)
    uids[key] = uids.get(key, 0) + 1
    return uids[key]


def reset_uids():
    from ..layers.base import _layer_name_uids
    _layer_name_uids.pop(get_default_graph(), None)


# -- sessions and the learning phase -------------------------------------------------------------
def get_graph():
    return get_default_graph()


def get_session(op_input_list=()):
    """The session keras runs in, with every variable of its graph initialized (only the ones no
    one initialized yet: keras never re-initializes a variable)."""
    from ..runtime.session import Session
    sess = get_default_session()
    if sess is None:
        sess = _SESSION["session"]
        if sess is None or sess.graph is not get_default_graph() or getattr(sess, "_closed", False):
            sess = Session(graph=get_default_graph())
            _SESSION["session"] = sess
    _initialize_variables(sess)
    return sess


def set_session(session):
    _SESSION["session"] = session


def clear_session():
    """Forgets the keras session and starts a fresh default graph (layer names start over)."""
    sess = _SESSION["session"]
    _SESSION["session"] = None
    if sess is not None:
        try:
            sess.close()
        except Exception:  # noqa: BLE001  (closing an already-broken session must not fail)
            pass
    reset_default_graph()


def _initialize_variables(session):
    from ..ops import variables as _variables
    from .backend_extra import _MANUAL
    if _MANUAL["value"]:   # K.manual_variable_initialization(True)
        return
    g = session.graph
    candidates = list(g.get_collection(GraphKeys.GLOBAL_VARIABLES)) + \
        list(g.get_collection(GraphKeys.LOCAL_VARIABLES)) + list(g.get_collection("_keras_variables"))
    done = _INITIALIZED.setdefault(session, set())
    todo, seen = [], set()
    for v in candidates:
        if v.name in done or v.name in seen:
            continue
        seen.add(v.name)
        todo.append(v)
    if not todo:
        return
    with g.as_default():
        flags = session.run([_variables.is_variable_initialized(v) for v in todo])
        uninit = [v for v, f in zip(todo, flags) if not f]
        if uninit:
            session.run(_variables.variables_initializer(uninit))  # TF's "init" NoOp
    done.update(v.name for v in todo)


def learning_phase():
    """The learning phase of the default graph: a bool placeholder (default False), or the int
    fixed by `set_learning_phase`."""
    g = get_default_graph()
    if g in _FIXED_LEARNING_PHASE:
        return _FIXED_LEARNING_PHASE[g]
    return symbolic_learning_phase()


def symbolic_learning_phase():
    g = get_default_graph()
    ph = _GRAPH_LEARNING_PHASES.get(g)
    if ph is None:
        from ..ops import array_ops
        with g.as_default(), name_scope(""), g.control_dependencies(None):
            ph = array_ops.placeholder_with_default(False, shape=(),
                                                    name="keras_learning_phase")
        _GRAPH_LEARNING_PHASES[g] = ph
    return ph


def set_learning_phase(value):
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    _FIXED_LEARNING_PHASE[get_default_graph()] = value


def _learning_phase_feed(value):
    """{placeholder: value} for a function run, empty when the phase is fixed."""
    g = get_default_graph()
    if g in _FIXED_LEARNING_PHASE:
        return {}
    return {symbolic_learning_phase(): bool(value)}


# -- tensors and variables -----------------------------------------------------------------------
def is_tensor(x):
    from ..ops.variables import Variable
    return isinstance(x, (Tensor, Variable))


def is_keras_tensor(x):
    from ..framework.sparse_tensor import SparseTensor
    from ..ops.variables import Variable
    from .engine import _keras_history
    if not isinstance(x, (Tensor, Variable, SparseTensor)):
        raise ValueError(f"Unexpectedly found an instance of type `{type(x)}`. Expected a "
                         "symbolic tensor instance.")
    return _keras_history(x) is not None


def placeholder(shape=None, ndim=None, dtype=None, sparse=False, name=None):
    from ..ops import array_ops
    if sparse:
        raise NotImplementedError("tf.keras.backend.placeholder(sparse=True) is not supported")
    dtype = dtype or floatx()
    if shape is None and ndim is not None:
        shape = (None,) * ndim
    return array_ops.placeholder(dtype, shape=shape, name=name)


def variable(value, dtype=None, name=None, constraint=None):
    from ..ops.variables import Variable
    dtype = dtype or floatx()
    value = np.asarray(value, dtype=_dtypes.as_dtype(dtype).as_numpy_dtype)
    return Variable(value, dtype=dtype, name=name, constraint=constraint, use_resource=True)


def constant(value, dtype=None, shape=None, name=None):
    from ..framework.constant_op import constant as _constant
    return _constant(value, dtype=dtype or floatx(), shape=shape, name=name or "Const")


def zeros(shape, dtype=None, name=None):
    return variable(np.zeros(shape), dtype=dtype, name=name)


def ones(shape, dtype=None, name=None):
    return variable(np.ones(shape), dtype=dtype, name=name)


def int_shape(x):
    shape = x.shape if not isinstance(x, np.ndarray) else TensorShape(x.shape)
    shape = TensorShape(shape)
    if shape.ndims is None:
        return None
    return tuple(shape.as_list())


def ndim(x):
    return TensorShape(x.shape).ndims


def dtype(x):
    return x.dtype.base_dtype.name


def shape(x):
    from ..ops import array_ops
    return array_ops.shape(x)


def count_params(x):
    return int(np.prod(int_shape(x)))


def get_value(x):
    return get_session().run(x)


def batch_get_value(tensors):
    if not tensors:
        return []
    return get_session().run(list(tensors))


def set_value(x, value):
    batch_set_value([(x, value)])


def batch_set_value(tuples):
    """Assigns each (variable, value) through one cached assign op per variable."""
    if not tuples:
        return
    from ..ops import array_ops, state_ops
    sess = get_session()
    fetches, feeds = [], {}
    for var, value in tuples:
        value = np.asarray(value, dtype=var.dtype.base_dtype.as_numpy_dtype)
        cached = getattr(var, "_keras_assign", None)
        if cached is None:
            with var.graph.as_default(), name_scope(None):
                ph = array_ops.placeholder(var.dtype.base_dtype, shape=None)
                op = state_ops.assign(var, ph, validate_shape=False)
            cached = (ph, op)
            try:
                var._keras_assign = cached
            except AttributeError:
                pass
        ph, op = cached
        fetches.append(op.op if hasattr(op, "op") else op)
        feeds[ph] = value
    sess.run(fetches, feed_dict=feeds)


def eval(x):  # noqa: A001  (TF's name)
    return get_value(x)


class Function:
    """A compiled call: feeds `inputs` (placeholders) with a list of arrays, runs `updates` and
    returns the values of `outputs`."""

    def __init__(self, inputs, outputs, updates=None, name=None, feed_learning_phase=None):
        from ..ops import control_flow_ops
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.name = name
        updates = list(updates or [])
        ops_ = []
        for u in updates:
            if isinstance(u, tuple):
                from ..ops import state_ops
                u = state_ops.assign(u[0], u[1])
            ops_.append(u.op if isinstance(u, Tensor) else u)
        # As TF's GraphExecutionFunction: the updates are grouped ("group_deps") after the first
        # output is computed.
        from ..framework.graph import control_dependencies
        with control_dependencies(self.outputs[:1]):
            self._update_op = control_flow_ops.group(*ops_) if ops_ else None
        self._phase = feed_learning_phase

    def __call__(self, values):
        values = list(values)   # zipped with the inputs: extra values are ignored, as TF's
        feed = {}
        for ph, v in zip(self.inputs, values):
            feed[ph] = v
        g = self.outputs[0].graph if self.outputs else get_default_graph()
        with g.as_default():
            if self._phase is not None:
                feed.update(_learning_phase_feed(self._phase))
            sess = get_session()
            fetches = list(self.outputs) + ([self._update_op] if self._update_op is not None else [])
            out = sess.run(fetches, feed_dict=feed)
        return out[:len(self.outputs)]


def function(inputs, outputs, updates=None, name=None, **kwargs):
    return Function(inputs, outputs, updates=updates, name=name)


# -- math: thin wrappers over the graph ops (TF's backend functions) -----------------------------
def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def sum(x, axis=None, keepdims=False):  # noqa: A001
    return _ops()[1].reduce_sum(x, _axis(axis), keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    x = _cast_bool(x)
    return _ops()[1].reduce_mean(x, _axis(axis), keepdims=keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return _ops()[1].reduce_max(x, _axis(axis), keepdims=keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return _ops()[1].reduce_min(x, _axis(axis), keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    return _ops()[1].reduce_prod(x, _axis(axis), keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return sqrt(var(x, axis=axis, keepdims=keepdims))


def var(x, axis=None, keepdims=False):
    m = mean(x, axis=axis, keepdims=True)
    return mean(square(x - m), axis=axis, keepdims=keepdims)


def _cast_bool(x):
    if isinstance(x, Tensor) and x.dtype.base_dtype == _dtypes.bool:
        return _ops()[1].cast(x, floatx())
    return x


def square(x):
    return _ops()[1].square(x)


def sqrt(x):
    m = _ops()[1]
    zero = np.asarray(0.0, x.dtype.base_dtype.as_numpy_dtype) if isinstance(x, Tensor) else 0.0
    inf = np.asarray(np.inf, x.dtype.base_dtype.as_numpy_dtype) if isinstance(x, Tensor) else np.inf
    return m.sqrt(m.clip_by_value(x, zero, inf) if hasattr(m, "clip_by_value") else x)


def abs(x):  # noqa: A001
    return _ops()[1].abs(x)


def exp(x):
    return _ops()[1].exp(x)


def log(x):
    return _ops()[1].log(x)


def pow(x, a):  # noqa: A001
    return _ops()[1].pow(x, a)


def clip(x, min_value, max_value):
    from ..ops import math_ops as clip_ops
    if max_value is not None and max_value < min_value:
        max_value = min_value
    if max_value is None:
        max_value = np.inf
    return clip_ops.clip_by_value(x, min_value, max_value)


def maximum(x, y):
    return _ops()[1].maximum(x, y)


def minimum(x, y):
    return _ops()[1].minimum(x, y)


def equal(x, y):
    return _ops()[1].equal(x, y)


def not_equal(x, y):
    return _ops()[1].not_equal(x, y)


def greater(x, y):
    return _ops()[1].greater(x, y)


def less(x, y):
    return _ops()[1].less(x, y)


def argmax(x, axis=-1):
    return _ops()[1].argmax(x, axis)


def argmin(x, axis=-1):
    return _ops()[1].argmin(x, axis)


def cast(x, dtype):
    return _ops()[1].cast(x, dtype)


def dot(x, y):
    m = _ops()[1]
    if ndim(x) is not None and ndim(x) > 2 or ndim(y) is not None and ndim(y) > 2:
        return m.tensordot(x, y, [[ndim(x) - 1], [ndim(y) - 2 if ndim(y) > 1 else 0]])
    return m.matmul(x, y)


def transpose(x):
    return _ops()[0].transpose(x)


def reshape(x, shape):
    return _ops()[0].reshape(x, shape)


def flatten(x):
    return _ops()[0].reshape(x, [-1])


def batch_flatten(x):
    a = _ops()[0]
    return a.reshape(x, a.stack([-1, _ops()[1].reduce_prod(a.shape(x)[1:])]))


def expand_dims(x, axis=-1):
    return _ops()[0].expand_dims(x, axis)


def squeeze(x, axis):
    return _ops()[0].squeeze(x, [axis])


def concatenate(tensors, axis=-1):
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    return _ops()[0].concat(list(tensors), axis)


def stack(x, axis=0):
    return _ops()[0].stack(x, axis=axis)


def tile(x, n):
    return _ops()[0].tile(x, n)


def gather(reference, indices):
    return _ops()[0].gather(reference, indices)


def zeros_like(x, dtype=None, name=None):
    return _ops()[0].zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    return _ops()[0].ones_like(x, dtype=dtype, name=name)


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    from . import activations
    return activations.relu(x, alpha=alpha, max_value=max_value, threshold=threshold)


def sigmoid(x):
    return _ops()[1].sigmoid(x)


def hard_sigmoid(x):
    from . import activations
    return activations.hard_sigmoid(x)


def tanh(x):
    return _ops()[1].tanh(x)


def softmax(x, axis=-1):
    return _ops()[2].softmax(x, axis=axis)


def softplus(x):
    return _ops()[2].softplus(x)


def softsign(x):
    return _ops()[2].softsign(x)


def elu(x, alpha=1.0):
    from . import activations
    return activations.elu(x, alpha)


def dropout(x, level, noise_shape=None, seed=None):
    return _ops()[2].dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def l2_normalize(x, axis=None):
    return _ops()[2].l2_normalize(x, axis=axis)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    from ..ops import random_ops
    return random_ops.random_uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(),
                                     seed=seed)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    from ..ops import random_ops
    return random_ops.random_normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(),
                                    seed=seed)


def stop_gradient(variables):
    a = _ops()[0]
    if isinstance(variables, (list, tuple)):
        return [a.stop_gradient(v) for v in variables]
    return a.stop_gradient(variables)


def gradients(loss, variables):
    from ..autodiff.gradients import gradients as _gradients
    return _gradients(loss, variables)


def update(x, new_x):
    from ..ops import state_ops
    return state_ops.assign(x, new_x)


def update_add(x, increment):
    from ..ops import state_ops
    return state_ops.assign_add(x, increment)


def update_sub(x, decrement):
    from ..ops import state_ops
    return state_ops.assign_sub(x, decrement)


def in_train_phase(x, alt, training=None):
    """`x` when training, `alt` otherwise; a tensor `training` builds a `tf.cond`."""
    if training is None:
        training = learning_phase()
    if isinstance(training, (bool, int)):
        out = x if training else alt
        return out() if callable(out) else out
    from ..ops import control_flow_ops
    return control_flow_ops.cond(training, x if callable(x) else (lambda: x),
                                 alt if callable(alt) else (lambda: alt))


def in_test_phase(x, alt, training=None):
    return in_train_phase(alt, x, training=training)


def binary_crossentropy(target, output, from_logits=False):
    from .losses import _binary_crossentropy_backend
    return _binary_crossentropy_backend(target, output, from_logits)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .losses import _categorical_crossentropy_backend
    return _categorical_crossentropy_backend(target, output, from_logits, axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .losses import _sparse_categorical_crossentropy_backend
    return _sparse_categorical_crossentropy_backend(target, output, from_logits, axis)


from .backend_extra import *  # noqa: E402,F401,F403  (the rest of the K.* API)


def __getattr__(name):
    raise AttributeError(f"tf.keras.backend.{name} is not supported by tensorweave yet")
