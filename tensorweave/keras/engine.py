"""The keras layer base for TF1 graph mode, `InputLayer` / `Input`, and the call history that
lets a functional `Model` re-run its layers on new inputs.

Keras layers differ from `tf.layers` layers (whose machinery they reuse: weights lists, input
specs, `count_params`) in how they name things: a layer's name is uniquified per graph when it is
made ("dense", "dense_1", ... shared with `tf.layers`), each call opens `tf.name_scope(name)`
(uniquified by the graph: a second call makes "dense_1/MatMul"), and weights are plain
`tf.Variable`s made under the name scope of the first call ("dense/kernel:0", or
"outer/dense/kernel:0" under `tf.name_scope("outer")`). No variable scope, no reuse: a layer
object owns its variables.

Every call records a `Node` (the layer, its inputs and outputs); the outputs remember it, so
`Model(inputs, outputs)` finds the layers between them.
"""

import functools
import inspect
import weakref

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, get_default_graph, name_scope
from ..framework.tensor_shape import TensorShape
from ..layers import base as _base
from . import backend as K

__all__ = ["Layer", "InputLayer", "Input", "InputSpec", "Node"]

InputSpec = _base.InputSpec

_HISTORY = weakref.WeakKeyDictionary()   # output tensor -> (layer, node_index, tensor_index)
# TF keeps a tensor's keras mask in `t._keras_mask`; our Tensor has __slots__, so a side table.
_MASKS = weakref.WeakKeyDictionary()     # output tensor -> its mask tensor
_CALL_CONTEXT = {"training": None, "depth": 0}


def _keras_history(t):
    if not isinstance(t, Tensor):
        return None
    return _HISTORY.get(t)


def get_mask(t):
    """The keras mask of tensor `t` (what TF keeps in `t._keras_mask`), or None."""
    return _MASKS.get(t) if isinstance(t, Tensor) else None


def _int_shape(t):
    """K.int_shape: a tuple of dims (None where unknown), None for an unknown rank."""
    shape = t.shape
    return None if shape.ndims is None else tuple(shape.as_list())


def _reaches(item, tensors):
    """Whether the op or tensor `item` depends on any of `tensors`."""
    targets = {id(t.op) for t in tensors if hasattr(t, "op")}
    if not targets:
        return False
    start = item if not hasattr(item, "op") else item.op
    seen, stack = set(), [start]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if id(op) in targets:
            return True
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return False


def _flatten(x):
    if isinstance(x, (list, tuple)):
        return [y for item in x for y in _flatten(item)]
    if isinstance(x, dict):
        return [y for k in sorted(x) for y in _flatten(x[k])]
    return [x]


def _map(fn, x):
    if isinstance(x, (list, tuple)):
        items = [_map(fn, i) for i in x]
        return type(x)(items) if not hasattr(x, "_fields") else type(x)(*items)
    if isinstance(x, dict):
        return {k: _map(fn, v) for k, v in x.items()}
    return fn(x)


class Node:
    """One call of a layer: its inputs (as passed), extra arguments, and outputs."""

    def __init__(self, layer, inputs, args, kwargs, outputs):
        self.layer = layer
        self.inputs = inputs
        self.args = args
        self.kwargs = kwargs
        self.outputs = outputs
        # As TF's keras: tensors passed as keyword arguments (MultiHeadAttention's `value`) are
        # inbound too; masks and the training flag are not.
        extra = [kwargs[k] for k in sorted(kwargs) if k not in ("mask", "training")]
        self.input_tensors = [t for t in _flatten(inputs) + _flatten(extra)
                              if isinstance(t, Tensor)]
        self.output_tensors = [t for t in _flatten(outputs) if isinstance(t, Tensor)]


_KERAS_KWARGS = ("input_shape", "batch_input_shape", "batch_size", "input_dim")


_V2_DTYPE = [False]   # TF1 default: a layer without a dtype takes its first input's


def enable_v2_dtype_behavior():
    """Layers without a dtype compute in floatx and cast floating inputs to it (TF2's rule)."""
    _V2_DTYPE[0] = True


def disable_v2_dtype_behavior():
    """Layers without a dtype take their first floating input's dtype (TF1's rule)."""
    _V2_DTYPE[0] = False


def _pop_keras_kwargs(kwargs):
    return {k: kwargs.pop(k) for k in _KERAS_KWARGS if k in kwargs}


class Layer(_base.Layer):
    """Base class of keras layers: subclasses implement `build(input_shape)` (weights via
    `add_weight`) and `call(inputs, ...)`; `layer(x)` builds once, then calls."""

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
        keras_kwargs = _pop_keras_kwargs(kwargs)
        for k in ("autocast", "input_length"):
            kwargs.pop(k, None)
        _base.Layer.__init__(self, trainable=trainable, name=name, dtype=dtype, **kwargs)
        self._keras_init(**keras_kwargs)

    def _keras_init(self, input_shape=None, batch_input_shape=None, batch_size=None,
                    input_dim=None):
        self._inbound_nodes = []
        self._outbound_nodes = []
        self._layers_tracked = getattr(self, "_layers_tracked", [])
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if batch_input_shape is None and input_shape is not None:
            batch_input_shape = (batch_size,) + tuple(input_shape)
        self._batch_input_shape = tuple(batch_input_shape) if batch_input_shape is not None else None
        self._name_scope_str = None
        self._call_fn_args = _fn_args(self.call)
        # Layers that pass a mask through (Dense, Dropout, ...) say so with `_masking = True`.
        self.supports_masking = getattr(type(self), "_masking", False)

    def __setattr__(self, name, value):
        # Layers set as attributes (of a subclassed layer or model) are tracked for weights.
        if not name.startswith("_") and name not in ("trainable", "built", "input_spec"):
            tracked = self.__dict__.get("_layers_tracked")
            if tracked is None:
                tracked = []
                object.__setattr__(self, "_layers_tracked", tracked)
            for v in (value if isinstance(value, (list, tuple)) else [value]):
                if isinstance(v, Layer) and v is not self and v not in tracked:
                    tracked.append(v)
        object.__setattr__(self, name, value)

    # -- weights -------------------------------------------------------------------------------
    def _sublayers(self):
        return list(self.__dict__.get("_layers_tracked", []))

    def _gather(self, attr):
        out = list(getattr(_base.Layer, attr).fget(self))
        for layer in self._sublayers():
            for w in getattr(layer, attr):
                if w not in out:
                    out.append(w)
        return out

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return self._gather("trainable_weights")

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return self._gather("non_trainable_weights")
        return self._gather("trainable_weights") + [
            w for w in self._gather("non_trainable_weights")]

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def weights(self):
        # As TF's keras: the layer's own weights, then each sublayer's weights in order.
        out = list(self._trainable_weights) + list(self._non_trainable_weights)
        for layer in self._sublayers():
            out.extend(w for w in layer.weights if w not in out)
        return out

    variables = weights

    @property
    def losses(self):
        # each layer's added losses, then its weights' regularization losses, as TF's
        out = list(self._losses) + list(self.__dict__.get("_callable_losses", ()))
        for layer in self._sublayers():
            out.extend(l for l in layer.losses if l not in out)
        return out

    @property
    def updates(self):
        out = list(self._updates)
        for layer in self._sublayers():
            out.extend(u for u in layer.updates if u not in out)
        return out

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=None, constraint=None, partitioner=None, use_resource=None,
                   synchronization=None, aggregation=None, **kwargs):
        """A new `tf.Variable` `name` under the layer's name scope (the scope of its first call)."""
        from ..ops.variables import Variable
        from . import initializers, regularizers
        if partitioner is not None:
            raise NotImplementedError("keras add_weight(partitioner=...) is not supported")
        if trainable is None:
            trainable = True
        dtype = _dtypes.as_dtype(dtype or self._dtype or K.floatx()).base_dtype
        init = initializers.get(initializer)
        if init is None:
            if dtype.is_floating:
                init = initializers.glorot_uniform()
            elif dtype.is_integer or dtype.is_bool:
                init = initializers.zeros()
            else:
                raise ValueError(f"An initializer for variable {name} of type {dtype.name} is "
                                 f"required for layer {self.name}")
        shape = list(TensorShape(shape).as_list()) if shape is not None else []
        g = get_default_graph()
        ctx = _null() if self.__dict__.get("_in_call") else name_scope(self.name)
        with ctx, g.control_dependencies(None):
            v = Variable(initial_value=functools.partial(init, shape, dtype=dtype), name=name,
                         trainable=trainable, constraint=constraint, dtype=dtype,
                         use_resource=True if use_resource is None else use_resource)
            if regularizer is not None:
                with name_scope(name + "/Regularizer"):
                    loss = regularizers.get(regularizer)(v)
                if loss is not None:
                    self.__dict__.setdefault("_callable_losses", []).append(loss)
        if trainable:
            self._trainable_weights.append(v)
        else:
            self._non_trainable_weights.append(v)
        return v

    add_variable = add_weight

    def add_loss(self, losses, inputs=None):
        losses = losses if isinstance(losses, (list, tuple)) else [losses]
        for loss in losses:
            if loss is None:
                continue
            if callable(loss):
                loss = loss()
            loss = convert_to_tensor(loss)
            if inputs is not None:  # conditional on the inputs (TF's _unconditional_loss False)
                self.__dict__.setdefault("_conditional_losses", set()).add(id(loss))
            self._losses.append(loss)

    def add_update(self, updates, inputs=None):
        if not self.trainable and not getattr(self, "stateful", False):
            return
        updates = updates if isinstance(updates, (list, tuple)) else [updates]
        self._updates.extend(u for u in updates if u is not None)

    def get_updates_for(self, inputs):
        """The updates that depend on `inputs` (None: those that depend on none of the tensors
        this layer was called on, as TF's unconditional updates)."""
        return self._conditional(self.updates, inputs)

    def get_losses_for(self, inputs):
        """The losses added with `inputs` (activity regularization) that depend on `inputs`;
        None: the unconditional ones (weight regularization, add_loss without inputs)."""
        conditional = set()
        for layer in [self] + list(self._sublayers()):
            conditional |= layer.__dict__.get("_conditional_losses", set())
        if inputs is None:
            return [l for l in self.losses if id(l) not in conditional]
        return [l for l in self.losses if id(l) in conditional and _reaches(l, _flatten(inputs))]

    def _conditional(self, items, inputs):
        if inputs is None:
            called = [t for node in self._inbound_nodes for t in node.input_tensors]
            return [u for u in items if not _reaches(u, called)]
        return [u for u in items if _reaches(u, _flatten(inputs))]

    def get_weights(self):
        return K.batch_get_value(self.weights)

    def set_weights(self, weights):
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer \"{self.name}\" with a weight "
                             f"list of length {len(weights)}, but the layer was expecting "
                             f"{len(params)} weights. Provided weights: {weights!s:.50}...")
        pairs = []
        for p, w in zip(params, weights):
            ps = tuple(p.shape.as_list())
            ws = tuple(getattr(w, "shape", ()))
            if ps != ws:
                raise ValueError(f"Layer {self.name} weight shape {ps} is not compatible with provided "
                                 f"weight shape {ws}.")
            pairs.append((p, w))
        K.batch_set_value(pairs)

    # -- calling -------------------------------------------------------------------------------
    def _check_input_spec(self, inputs):
        # TF's keras input_spec check; TF1 shapes print as tuples of Dimensions.
        spec = self.input_spec
        if not isinstance(spec, InputSpec) or not isinstance(inputs, Tensor) or \
                inputs.shape.ndims is None:
            return
        nd = inputs.shape.ndims
        head = f'Input 0 of layer "{self.name}" is incompatible with the layer: '
        full = f" Full shape received: {tuple(inputs.shape)}"
        if spec.ndim is not None and nd != spec.ndim:
            raise ValueError(f"{head}expected ndim={spec.ndim}, found ndim={nd}.{full}")
        if spec.max_ndim is not None and nd > spec.max_ndim:
            raise ValueError(f"{head}expected max_ndim={spec.max_ndim}, found ndim={nd}.{full}")
        if spec.min_ndim is not None and nd < spec.min_ndim:
            raise ValueError(f"{head}expected min_ndim={spec.min_ndim}, found ndim={nd}.{full}")
        dims = inputs.shape.as_list()
        for axis, size in spec.axes.items():
            if size is not None and dims[int(axis)] not in (size, None):
                raise ValueError(f"{head}expected axis {axis} of input shape to have value {size}, "
                                 f"but received input with shape {tuple(dims)}")

    def _pre_build(self, inputs):
        flat = [t for t in _flatten(inputs) if isinstance(t, Tensor)]
        if self._dtype is None and _V2_DTYPE[0]:
            self._dtype = _dtypes.as_dtype(K.floatx())
        elif self._dtype is None and flat:
            # TF1: whatever the first input's dtype (int32 too: Dense then refuses it).
            self._dtype = flat[0].dtype.base_dtype
        if isinstance(inputs, Tensor):
            return inputs.shape
        return _map(lambda t: t.shape if isinstance(t, Tensor) else None, inputs)

    def __call__(self, inputs, *args, **kwargs):
        if isinstance(inputs, (list, tuple)):
            inputs = type(inputs)(convert_to_tensor(t) if not isinstance(t, (Tensor, list, tuple, dict))
                                  and t is not None else t for t in inputs) \
                if not hasattr(inputs, "_fields") else inputs
        elif not isinstance(inputs, dict):
            inputs = convert_to_tensor(inputs)
        flat = [t for t in _flatten(inputs) if isinstance(t, Tensor)]
        g = flat[0].graph if flat else get_default_graph()
        if "training" in self._call_fn_args and kwargs.get("training") is None and \
                _CALL_CONTEXT["training"] is not None:
            kwargs["training"] = _CALL_CONTEXT["training"]
        elif "training" not in self._call_fn_args:
            kwargs.pop("training", None)
        input_masks = _map(get_mask, inputs) if isinstance(inputs, (list, tuple)) \
            else get_mask(inputs) if isinstance(inputs, Tensor) else None
        if all(m is None for m in _flatten(input_masks)):
            input_masks = None
        if "mask" not in self._call_fn_args:
            kwargs.pop("mask", None)
        elif kwargs.get("mask") is None and input_masks is not None:
            kwargs["mask"] = input_masks
        saved_training = _CALL_CONTEXT["training"]
        if kwargs.get("training") is not None:
            _CALL_CONTEXT["training"] = kwargs["training"]
        try:
            with g.as_default(), name_scope(self.name) as scope:
                self._graph = g
                if self._name_scope_str is None:
                    self._name_scope_str = scope
                if isinstance(inputs, Tensor):
                    self._check_input_spec(inputs)
                self._in_call = True
                if not self.built:
                    shapes = self._pre_build(inputs)
                    self._build_on_call(shapes)
                    self.built = True
                if isinstance(inputs, Tensor) and self._dtype is not None and \
                        inputs.dtype.base_dtype != self._dtype and inputs.dtype.is_floating:
                    from ..ops import math_ops
                    inputs = math_ops.cast(inputs, self._dtype)
                outputs = self.call(inputs, *args, **kwargs)
                outputs = self._copy_passed_through(outputs, (inputs, args, kwargs))
                if self._activity_regularizer is not None:
                    for o in _flatten(outputs):
                        if isinstance(o, Tensor):
                            self._apply_activity_regularizer(o)
                self._set_mask_metadata(inputs, outputs, input_masks)
        finally:
            _CALL_CONTEXT["training"] = saved_training
            self._in_call = False
        node = Node(self, inputs, args, kwargs, outputs)
        self._inbound_nodes.append(node)
        for i, t in enumerate(node.output_tensors):
            _HISTORY[t] = (self, len(self._inbound_nodes) - 1, i)
        return outputs

    def _copy_passed_through(self, outputs, call_args):
        # TF copies an input returned unchanged ("activation/activation/Identity:0"), so the
        # output has its own keras history and the input keeps its own.
        passed = {id(t) for t in _flatten(call_args) if isinstance(t, Tensor)}
        if not any(id(t) in passed for t in _flatten(outputs)):
            return outputs
        from ..ops import array_ops
        with name_scope(self.name):
            return _map(lambda t: array_ops.identity(t) if id(t) in passed else t, outputs)

    def _set_mask_metadata(self, inputs, outputs, input_masks):
        # As TF's v1 layers: only a layer that supports masking (or overrides compute_mask)
        # computes its output mask; others drop it.
        flat = _flatten(outputs)
        if type(self).compute_mask is Layer.compute_mask and not self.supports_masking:
            return
        masks = self.compute_mask(inputs, input_masks)
        masks = [None] * len(flat) if masks is None else _flatten(masks)
        for o, m in zip(flat, masks):
            if isinstance(o, Tensor) and m is not None:
                _MASKS[o] = m

    def compute_mask(self, inputs, mask=None):
        """The output mask: the input mask when the layer supports masking, else None."""
        if not self.supports_masking:
            return None
        return mask

    def _build_on_call(self, input_shapes):
        self.build(input_shapes)

    def _apply_activity_regularizer(self, outputs):
        from ..ops import array_ops, math_ops
        with name_scope("ActivityRegularizer"):
            loss = self._activity_regularizer(outputs)
            batch = math_ops.cast(array_ops.shape(outputs)[0], loss.dtype.base_dtype)
            self.add_loss(loss / batch, inputs=outputs)

    def compute_output_shape(self, input_shape):
        # Keras layers that borrow a tf.layers implementation (Dense, Conv3DTranspose, ...) put
        # this class first in their MRO: use the borrowed class's shape function.
        for cls in type(self).__mro__:
            if "compute_output_shape" in cls.__dict__ and issubclass(cls, _base.Layer) \
                    and not issubclass(cls, Layer) and cls is not _base.Layer:
                return cls.compute_output_shape(self, input_shape)
        raise NotImplementedError(f"Layer {type(self).__name__} does not implement "
                                  "compute_output_shape")

    # -- the node API --------------------------------------------------------------------------
    def _node_attr_at(self, node_index, plural, attr_name):
        """TF's _get_node_attribute_at_index: node `node_index`'s inputs/outputs."""
        if not self._inbound_nodes:
            raise RuntimeError(f"The layer has never been called and thus has no defined "
                               f"{attr_name}.")
        if not len(self._inbound_nodes) > node_index:
            raise ValueError(f"Asked to get {attr_name} at node {node_index}, but the layer has "
                             f"only {len(self._inbound_nodes)} inbound nodes.")
        return getattr(self._inbound_nodes[node_index], plural)

    @property
    def input(self):
        """The input of the layer's first call (TF's v1 layers: also when called again)."""
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        return self._node_attr_at(0, "inputs", "input")

    @property
    def output(self):
        """The output of the layer's first call."""
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        return self._node_attr_at(0, "outputs", "output")

    @property
    def input_shape(self):
        """The input shape, when every call of the layer saw the same one."""
        if not self._inbound_nodes:
            raise AttributeError(f"The layer \"{self.name}\" has never been called and thus has "
                                 "no defined input shape. Note that the `input_shape` property "
                                 "is only available for Functional and Sequential models.")
        shapes = [_map(_int_shape, node.inputs) for node in self._inbound_nodes]
        if len(set(str(x) for x in shapes)) == 1:
            return shapes[0]
        raise AttributeError(f"The layer \"{self.name} has multiple inbound nodes, with "
                             "different input shapes. Hence the notion of \"input shape\" is "
                             "ill-defined for the layer. Use `get_input_shape_at(node_index)` "
                             "instead.")

    @property
    def output_shape(self):
        """The output shape, when every call of the layer gave the same one."""
        if not self._inbound_nodes:
            raise AttributeError("The layer has never been called and thus has no defined output "
                                 "shape.")
        shapes = [_map(_int_shape, node.outputs) for node in self._inbound_nodes]
        if len(set(str(x) for x in shapes)) == 1:
            return shapes[0]
        raise AttributeError(f"The layer \"{self.name}\" has multiple inbound nodes, with "
                             "different output shapes. Hence the notion of \"output shape\" is "
                             "ill-defined for the layer. Use `get_output_shape_at(node_index)` "
                             "instead.")

    @property
    def input_mask(self):
        """The keras mask of the layer's input (None where it has none)."""
        return _map(get_mask, self.input)

    @property
    def output_mask(self):
        """The keras mask of the layer's output (None where it has none)."""
        return _map(get_mask, self.output)

    def get_input_at(self, node_index):
        return self._node_attr_at(node_index, "inputs", "input")

    def get_output_at(self, node_index):
        return self._node_attr_at(node_index, "outputs", "output")

    def get_input_shape_at(self, node_index):
        return _map(_int_shape, self._node_attr_at(node_index, "inputs", "input shape"))

    def get_output_shape_at(self, node_index):
        return _map(_int_shape, self._node_attr_at(node_index, "outputs", "output shape"))

    def get_input_mask_at(self, node_index):
        return _map(get_mask, self.get_input_at(node_index))

    def get_output_mask_at(self, node_index):
        return _map(get_mask, self.get_output_at(node_index))

    def get_config(self):
        """The layer's constructor arguments as TF's keras writes them (see layer_configs)."""
        from .layer_configs import layer_config
        return layer_config(self)

    @classmethod
    def from_config(cls, config):
        """A new layer from `get_config()`'s dict (nested objects deserialized)."""
        from .saving import deserialize_arguments
        return cls(**deserialize_arguments(config))


class _null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def _fn_args(fn):
    try:
        return set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return set()


class InputLayer(Layer):
    """The layer behind `tf.keras.Input`: a placeholder of shape (batch_size,) + input_shape."""

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None,
                 sparse=False, name=None, ragged=False, batch_input_shape=None, optional=False,
                 **kwargs):
        if sparse or ragged:
            raise NotImplementedError("sparse and ragged keras inputs are not supported")
        if name is None:
            name = f"input_{K.get_uid('input')}"
        if batch_input_shape is None:
            if input_shape is None and input_tensor is None:
                raise ValueError("You should provide one of `input_shape` or `input_tensor`")
            if input_shape is not None:
                batch_input_shape = (batch_size,) + tuple(input_shape)
        Layer.__init__(self, name=name, dtype=dtype, **kwargs)
        self.built = True
        if input_tensor is None:
            dtype = dtype or K.floatx()
            input_tensor = K.placeholder(shape=batch_input_shape, dtype=dtype, name=self.name)
        else:
            batch_input_shape = tuple(input_tensor.shape.as_list()) \
                if input_tensor.shape.ndims is not None else None
        self._batch_input_shape = tuple(batch_input_shape) if batch_input_shape is not None else None
        self._dtype = input_tensor.dtype.base_dtype
        node = Node(self, input_tensor, (), {}, input_tensor)
        self._inbound_nodes.append(node)
        _HISTORY[input_tensor] = (self, 0, 0)

    def get_config(self):
        return {"batch_input_shape": self._batch_input_shape, "dtype": self.dtype,
                "sparse": False, "ragged": False, "name": self.name, "optional": False}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=False, tensor=None,
          ragged=False, batch_shape=None, **kwargs):
    """A keras tensor: a placeholder "input_1:0" of shape (batch_size,) + shape that a
    functional `Model` takes as an input."""
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {list(kwargs)}")
    if shape is not None and batch_shape is not None:
        raise ValueError("Only provide the `shape` OR `batch_shape` argument to Input, not both at "
                         "the same time.")
    if shape is None and batch_shape is None and tensor is None:
        raise ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. "
                         "Note that `shape` does not include the batch dimension.")
    if isinstance(shape, int):
        shape = (shape,)
    layer = InputLayer(input_shape=shape, batch_size=batch_size, name=name, dtype=dtype,
                       sparse=sparse, input_tensor=tensor, ragged=ragged,
                       batch_input_shape=batch_shape)
    return layer._inbound_nodes[0].outputs
