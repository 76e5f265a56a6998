"""`tf.layers.Layer`: the TF1 layer base, with variables made by `tf.get_variable` inside the
layer's variable scope (so they are shared, reused and named like TF's: "dense/kernel:0").

A layer's variable scope is captured once: at construction when the functional form passes a
name (`tf.layers.dense(x, 4, name="fc1")` opens scope "fc1", like TF's `_scope=name`), else on
the first call, as a fresh unique scope ("dense", "dense_1", ...). Every call re-enters that
scope, with reuse once built, and makes its ops under the scope's original name scope
("dense/MatMul", then "dense/MatMul_1" on a second call).
"""

import re
import weakref

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import (GraphKeys, Operation, Tensor, add_to_collection, get_default_graph,
                               name_scope)

__all__ = ["Layer", "InputSpec"]

_layer_name_uids = weakref.WeakKeyDictionary()  # graph -> {base name: count}


def _to_snake_case(name):
    s = re.sub(r"(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    s = re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()
    return "private" + s if s.startswith("_") else s


def _unique_layer_name(base, zero_based=True):
    """TF's `backend.unique_object_name`: Keras layers count from zero ("dense", "dense_1"),
    tf.layers / rnn_cell layers from one ("dense_1", "dense_2"); both share one counter per
    graph and base name, so a Keras "dense" makes the next tf.layers one "dense_2"."""
    uids = _layer_name_uids.setdefault(get_default_graph(), {})
    n = uids.get(base, 0)
    uids[base] = n + 1
    if not zero_based:
        return f"{base}_{n + 1}"
    return base if n == 0 else f"{base}_{n}"


def _is_keras_layer(cls):
    return any(c.__module__.startswith("tensorweave.keras") for c in cls.__mro__)


def _vs():
    from ..ops import variable_scope
    return variable_scope


class InputSpec:
    """What a layer accepts: dtype, rank (ndim / min_ndim / max_ndim) and known axis sizes."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None):
        self.dtype = dtype
        self.shape = shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = dict(axes or {})

    def __repr__(self):
        # Keras' repr: only the fields that are set
        spec = [f"dtype={self.dtype}" if self.dtype else "",
                f"shape={self.shape}" if self.shape else "",
                f"ndim={self.ndim}" if self.ndim else "",
                f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                f"min_ndim={self.min_ndim}" if self.min_ndim else "",
                f"axes={self.axes}" if self.axes else ""]
        return "InputSpec(%s)" % ", ".join(x for x in spec if x)


def _activation(identifier):
    """A layer's `activation` argument: a callable or None as given; a name ("relu",
    "softmax", ...) looked up as Keras does (TF's tf.layers are Keras layers)."""
    if isinstance(identifier, str):
        from ..keras import activations
        return activations.get(identifier)
    return identifier


def _shape_str(s):
    if s.ndims is None:
        return "<unknown>"
    d = s.as_list()
    return "(" + ", ".join("?" if x is None else str(x) for x in d) + ("," if len(d) == 1 else "") + ")"


class Layer:
    """Base class of tf.layers: subclasses implement `build(input_shape)` (making variables with
    `add_weight`) and `call(inputs)`; calling the layer builds it once and then calls it."""

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        self._activity_regularizer = kwargs.pop("activity_regularizer", None)
        for k in ("input_shape", "batch_input_shape", "batch_size", "weights", "autocast"):
            kwargs.pop(k, None)
        if kwargs:
            # TF: TypeError("Keyword argument not understood:", kwarg), printed as a tuple.
            raise TypeError("Keyword argument not understood:", next(iter(kwargs)))
        self.trainable = trainable
        self.built = False
        self._dtype = None if dtype is None else _dtypes.as_dtype(dtype).base_dtype
        self._trainable_weights = []
        self._non_trainable_weights = []
        # Shards of partitioned weights: TF 2.21's layers list them in `weights`/`variables`
        # only, after the other weights (not in trainable_weights/non_trainable_weights).
        self._weight_parts = []
        self._losses = []
        self._updates = []
        self.input_spec = None
        if isinstance(name, _vs().VariableScope):
            self._base_name = name.name
            self._name = _unique_layer_name(_to_snake_case(type(self).__name__),
                                            _is_keras_layer(type(self)))
        elif name:
            self._name = self._base_name = name
        else:
            self._base_name = _to_snake_case(type(self).__name__)
            self._name = _unique_layer_name(self._base_name, _is_keras_layer(type(self)))
        self._scope = None
        self._current_scope = None
        self._graph = None
        if scope is not None:
            with _vs().variable_scope(scope) as captured:
                self._scope = captured

    # -- properties ----------------------------------------------------------------------------
    name = property(lambda self: self._name)
    activity_regularizer = property(lambda self: self._activity_regularizer)
    graph = property(lambda self: self._graph)

    @property
    def dtype(self):
        return None if self._dtype is None else self._dtype.name

    @property
    def scope_name(self):
        if not self._scope:
            raise ValueError(f'No name available for layer scope because the layer "{self._name}" has '
                             "not been used yet. The scope name  is determined the first time the layer "
                             "instance is called. You must therefore call the layer before querying "
                             "`scope_name`.")
        return self._scope.name

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights + list(self._weight_parts)

    variables = weights

    @property
    def losses(self):
        # As TF's (Keras v1) layers: the losses added with add_loss (activity regularization)
        # first, then each weight regularizer evaluated anew, in the name scope current at the
        # time of the call ("kernel/Regularizer/L2Loss" at the top level); the loss made when
        # the weight was created ("dense/kernel/Regularizer/L2Loss") is the one collected in
        # REGULARIZATION_LOSSES.
        regs = self.__dict__.get("_weight_regularizers", ())
        made = {id(t) for _, _, _, ts in regs for t in ts}
        out = [t for t in self._losses if id(t) not in made]
        for name, v, regularizer, _ in regs:
            with name_scope(name + "/Regularizer"):
                t = regularizer(v)
            if t is not None:
                out.append(t)
        return out

    @property
    def updates(self):
        return list(self._updates)

    def add_loss(self, losses, inputs=None):
        losses = losses if isinstance(losses, (list, tuple)) else [losses]
        for loss in losses:
            if loss is None:
                continue
            self._losses.append(loss)
            add_to_collection(GraphKeys.REGULARIZATION_LOSSES, loss)

    def add_update(self, updates, inputs=None):
        # As TF's (Keras v1) layers: updates are disabled for a layer that is not trainable (the
        # ops exist but join neither `updates` nor UPDATE_OPS).
        if not self.trainable and not getattr(self, "stateful", False):
            return
        updates = updates if isinstance(updates, (list, tuple)) else [updates]
        for u in updates:
            # TF's process_update: a callable is called, a tensor stands for its op
            if callable(u) and not hasattr(u, "op"):
                u = u()
            if not isinstance(u, Operation) and hasattr(u, "op"):
                u = u.op
            self._updates.append(u)
            add_to_collection(GraphKeys.UPDATE_OPS, u)

    def count_params(self):
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on {self._name}, but the layer isn't "
                             "built. You can build it manually via: `layer.build(batch_input_shape)`.")
        return int(sum(v.shape.num_elements() for v in self.weights))

    # -- scopes and variables ------------------------------------------------------------------
    def _set_scope(self, scope=None):
        if self._scope is None:
            vs = _vs()
            if self._reuse:
                with vs.variable_scope(scope if scope is not None else self._base_name) as captured:
                    self._scope = captured
            else:
                with vs.variable_scope(scope, default_name=self._base_name) as captured:
                    self._scope = captured

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=True,
                   constraint=None, partitioner=None, use_resource=None, **kwargs):
        """Makes (or, when reusing, gets) variable `name` in the layer's variable scope."""
        vs = _vs()
        self._set_scope(None)
        dtype = _dtypes.as_dtype(dtype or self._dtype or _dtypes.float32).base_dtype
        trainable = bool(trainable and self.trainable)
        reuse = self.built or self._reuse
        g = get_default_graph()
        with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with name_scope(self._scope.original_name_scope):
                n_reg = len(g.get_collection(GraphKeys.REGULARIZATION_LOSSES))
                v = vs.get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                    regularizer=regularizer, trainable=trainable, constraint=constraint,
                                    partitioner=partitioner, use_resource=use_resource)
        # get_variable adds a new variable's regularization loss ("<var>/Regularizer/...") to the
        # collection; the layer lists it too. A reused variable adds none.
        new_regs = g.get_collection(GraphKeys.REGULARIZATION_LOSSES)[n_reg:]
        self._losses.extend(new_regs)
        from ..ops.partitioned_variables import PartitionedVariable
        if new_regs and regularizer is not None and not isinstance(v, PartitionedVariable):
            self.__dict__.setdefault("_weight_regularizers", []).append(
                (name, v, regularizer, tuple(new_regs)))
        if isinstance(v, PartitionedVariable):
            self._weight_parts.extend(p for p in v if p not in self._weight_parts)
            return v
        if trainable and v in g.get_collection(GraphKeys.TRAINABLE_VARIABLES):
            if v not in self._trainable_weights:
                self._trainable_weights.append(v)
        elif v not in self._non_trainable_weights:
            self._non_trainable_weights.append(v)
        return v

    add_variable = add_weight

    # -- calling -------------------------------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, **kwargs):
        return inputs

    def _check_input_spec(self, inputs):
        spec = self.input_spec
        if spec is None or not isinstance(inputs, Tensor):
            return
        nd = inputs.shape.ndims
        if nd is None:
            return
        head = f'Input 0 of layer "{self._name}" is incompatible with the layer: '
        # TF prints tuple(shape), a tuple of v1 Dimension objects: "(Dimension(None), Dimension(3))".
        dims_ = [f"Dimension({d})" for d in inputs.shape.as_list()]
        tail = f" Full shape received: ({', '.join(dims_)}{',' if len(dims_) == 1 else ''})"
        if spec.ndim is not None and nd != spec.ndim:
            raise ValueError(f"{head}expected ndim={spec.ndim}, found ndim={nd}.{tail}")
        if spec.min_ndim is not None and nd < spec.min_ndim:
            raise ValueError(f"{head}expected min_ndim={spec.min_ndim}, found ndim={nd}.{tail}")
        if spec.max_ndim is not None and nd > spec.max_ndim:
            raise ValueError(f"{head}expected max_ndim={spec.max_ndim}, found ndim={nd}.{tail}")
        dims = inputs.shape.as_list()
        for axis, size in spec.axes.items():
            d = dims[axis] if -nd <= axis < nd else None
            if size is not None and d is not None and d != size:
                raise ValueError(f'{head}expected axis {axis} of input shape to have value {size}, but '
                                 f"received input with shape {tuple(dims)}")

    def __call__(self, inputs, *args, **kwargs):
        vs = _vs()
        scope = kwargs.pop("scope", None)
        if isinstance(inputs, Tensor) or not isinstance(inputs, (list, tuple, dict)):
            inputs = convert_to_tensor(inputs)
        g = inputs.graph if isinstance(inputs, Tensor) else get_default_graph()
        current = get_default_graph()
        if g is not current and _encloses(g, current):
            g = current     # called in a loop body or branch on an outer tensor: the body captures it
        root = getattr(g, "_variable_creation_graph", g)  # a traced loop body/branch (func_graph.py)
        if self._graph is not None and self._graph is not root and self.built:
            raise ValueError(f"Layer {self._name} was used in graph {self._graph} and can not be "
                             "used in another graph.")
        self._graph = root
        with g.as_default():
            self._set_scope(scope)
            reuse = self.built or self._reuse
            with vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as vscope:
                self._current_scope = vscope
                with name_scope(self._scope.original_name_scope):
                    self._check_input_spec(inputs)
                    if not self.built:
                        if isinstance(inputs, Tensor):
                            # TF's legacy layer takes its first input's dtype, integer
                            # ones included (tf.layers.conv2d on int32 makes int32 variables)
                            # (RNN cells keep refusing integer inputs in their own check)
                            if self._dtype is None and (inputs.dtype.is_floating or
                                                        not hasattr(self, "zero_state")):
                                self._dtype = inputs.dtype.base_dtype
                            self.build(inputs.shape)
                        else:
                            self.build([getattr(t, "shape", None) for t in inputs])
                        self.built = True
                    if isinstance(inputs, Tensor) and self._dtype is not None and \
                            inputs.dtype.base_dtype != self._dtype and \
                            (inputs.dtype.is_floating or inputs.dtype.is_integer):
                        from ..ops import math_ops
                        inputs = math_ops.cast(inputs, self._dtype)
                    outputs = self.call(inputs, *args, **kwargs)
                    if self._activity_regularizer is not None and isinstance(outputs, Tensor):
                        self._apply_activity_regularizer(outputs)
        return outputs

    def _apply_activity_regularizer(self, outputs):
        from ..ops import array_ops, math_ops
        with name_scope(None, "ActivityRegularizer", [outputs]):
            loss = self._activity_regularizer(outputs)
            batch = math_ops.cast(array_ops.shape(outputs)[0], loss.dtype.base_dtype)
            self.add_loss(loss / batch)

    def apply(self, inputs, *args, **kwargs):
        return self(inputs, *args, **kwargs)

    def get_config(self):
        return {"name": self._name, "trainable": self.trainable, "dtype": self.dtype}


def _encloses(outer, graph):
    """Whether `graph` is a function graph (loop body, branch) traced inside `outer`."""
    g = getattr(graph, "outer_graph", None)
    while g is not None:
        if g is outer:
            return True
        g = getattr(g, "outer_graph", None)
    return False
