"""`tf.keras.Model` (functional: `Model(inputs, outputs)`, or subclassed with a `call`) and
`tf.keras.Sequential`, in TF1 graph mode.

A functional model keeps the nodes between its inputs and outputs (found through the call
history of its outputs) and, called on a new tensor, re-runs them in order under its own name
scope ("model/dense/Relu"). A Sequential model whose first layer knows its input shape builds its
graph at once on an `Input` named "<first layer>_input"; otherwise it is built by its first call
(under its name scope: "sequential/dense/kernel:0") or by `fit`/`predict` on the data's shape.

Training (`compile`, `fit`, `evaluate`, `predict`, `*_on_batch`) lives in training.py.
"""

from ..framework.graph import Tensor
from ..framework.tensor_shape import TensorShape
from . import backend as K
from .engine import Input, InputLayer, Layer, _flatten, _keras_history, _map
from .training import TrainingMixin

__all__ = ["Model", "Sequential"]


class Model(TrainingMixin, Layer):
    """A model: a functional graph of layers (`Model(inputs, outputs)`) or a subclass with
    layers as attributes and a `call(inputs, training=None)`."""

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", None)
        outputs = kwargs.pop("outputs", None)
        if args:
            inputs = args[0]
            if len(args) > 1:
                outputs = args[1]
        Layer.__init__(self, name=kwargs.pop("name", None), trainable=kwargs.pop("trainable", True),
                       dtype=kwargs.pop("dtype", None), **kwargs)
        self._init_training()
        self._is_graph_network = False
        self.inputs = None
        self.outputs = None
        if inputs is not None and outputs is not None:
            self._init_graph_network(inputs, outputs)
        elif (inputs is None) != (outputs is None):
            raise ValueError("If your model is a functional model, both `inputs` and `outputs` must "
                             "be provided.")

    # -- functional graph ----------------------------------------------------------------------
    def _init_graph_network(self, inputs, outputs):
        self._nested_inputs = inputs
        self._nested_outputs = outputs
        self.inputs = [t for t in _flatten(inputs)]
        self.outputs = [t for t in _flatten(outputs)]
        for t in self.inputs:
            hist = _keras_history(t)
            if hist is None or not isinstance(hist[0], InputLayer):
                raise ValueError("Input tensors to a Model must come from `tf.keras.Input`. Received: "
                                 f"{t} (missing previous layer metadata).")
        input_ids = {id(t) for t in self.inputs}
        nodes, seen, layers = [], set(), []

        def visit(t):
            hist = _keras_history(t)
            if hist is None:
                raise ValueError(f"Output tensors of a Model must be the output of a TensorFlow "
                                 f"`Layer` (thus holding past layer metadata). Found: {t}")
            layer, node_index, _ = hist
            node = layer._inbound_nodes[node_index]
            if id(node) in seen:
                return
            seen.add(id(node))
            if isinstance(layer, InputLayer) and id(t) not in input_ids:
                raise ValueError(f"Graph disconnected: cannot obtain value for tensor {t} at layer "
                                 f'"{layer.name}". The following previous layers were accessed '
                                 f"without issue: {[l.name for l in layers]}")
            if id(t) not in input_ids:
                for x in node.input_tensors:
                    visit(x)
            nodes.append(node)
            if layer not in layers:
                layers.append(layer)

        for t in self.inputs:
            visit(t)
        for t in self.outputs:
            visit(t)
        self._network_nodes = nodes
        self._network_layers = _layers_by_depth(self.outputs, layers)
        self._is_graph_network = True
        self.built = True
        self._batch_input_shape = None
        if self.inputs and self.inputs[0].shape.ndims is not None:
            self._batch_input_shape = tuple(self.inputs[0].shape.as_list())
        for i, t in enumerate(self.outputs):
            pass
        self.output_names = [_keras_history(t)[0].name for t in self.outputs]
        self.input_names = [_keras_history(t)[0].name for t in self.inputs]

    def _sublayers(self):
        if self._is_graph_network:
            return list(self._network_layers)
        return Layer._sublayers(self)

    @property
    def layers(self):
        return self._sublayers()

    def get_layer(self, name=None, index=None):
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[l.name for l in self.layers]}.")

    def _run_graph(self, inputs, training=None):
        flat_in = _flatten(inputs)
        if len(flat_in) != len(self.inputs):
            raise ValueError(f'Layer "{self.name}" expects {len(self.inputs)} input(s), but it '
                             f"received {len(flat_in)} input tensors. Inputs received: {inputs}")
        tensor_map = {id(a): b for a, b in zip(self.inputs, flat_in)}
        for node in self._network_nodes:
            if isinstance(node.layer, InputLayer):
                continue
            if not all(id(t) in tensor_map for t in node.input_tensors):
                continue
            new_inputs = _map(lambda t: tensor_map[id(t)] if isinstance(t, Tensor) else t, node.inputs)
            kwargs = {k: _map(lambda t: tensor_map.get(id(t), t) if isinstance(t, Tensor) else t, v)
                      if k not in ("mask", "training") else v for k, v in node.kwargs.items()}
            if training is not None and "training" in node.layer._call_fn_args:
                kwargs["training"] = training
            out = node.layer(new_inputs, *node.args, **kwargs)
            for a, b in zip(node.output_tensors, [t for t in _flatten(out) if isinstance(t, Tensor)]):
                tensor_map[id(a)] = b
        return _map(lambda t: tensor_map[id(t)], self._nested_outputs)

    def call(self, inputs, training=None, mask=None):
        if self._is_graph_network:
            return self._run_graph(inputs, training=training)
        raise NotImplementedError("When subclassing the `Model` class, you should implement a "
                                  "`call()` method.")

    def _build_on_call(self, input_shapes):
        # A subclassed or deferred model is built by running its call: its layers build themselves.
        self.built = True

    def build(self, input_shape):
        if self._is_graph_network:
            self.built = True
            return
        if input_shape is None:
            raise ValueError("Input shape must be defined when calling `build()` on a `Model` "
                             "subclass.")
        self._build_by_call(input_shape)

    def _build_by_call(self, input_shape):
        """As TF's v1 Model.build: runs `call` (not `__call__`: no model name scope, no keras
        history) on a float placeholder ("Placeholder"); the model gets no inputs/outputs."""
        from ..ops import array_ops
        shape = TensorShape(input_shape)
        x = array_ops.placeholder(K.floatx(), shape=shape.as_list())
        self.call(x)
        self.built = True

    def _ensure_graph(self, x_arrays):
        """Builds inputs/outputs of a model that has none yet from the data's shapes."""
        if self.outputs is not None:
            return
        import numpy as np
        arrays = [np.asarray(a) for a in x_arrays]
        shapes = [(None,) + a.shape[1:] for a in arrays]
        dts = [K.floatx() if a.dtype.kind == "f" else ("int32" if a.dtype.kind in "iu" else a.dtype.name)
               for a in arrays]
        # As TF's v1 ModelInputs: plain placeholders input_1, input_2, ... (no keras history,
        # so summary() shows the inner layers' shapes as "multiple").
        ins = [K.placeholder(shape=s, dtype=d, name=f"input_{i + 1}")
               for i, (s, d) in enumerate(zip(shapes, dts))]
        inputs = ins[0] if len(ins) == 1 else ins
        outputs = self(inputs)
        self.inputs = ins
        self.outputs = _flatten(outputs)
        self._nested_outputs = outputs
        self.output_names = [f"output_{i + 1}" for i in range(len(self.outputs))]
        if len(self.outputs) == 1:
            hist = _keras_history(self.outputs[0])
            self.output_names = [hist[0].name if hist is not None else "output_1"]

    def _first_layer_name(self):
        layers = self.layers
        return layers[0].name if layers else self.name

    @property
    def input_shape(self):
        if self.inputs is None:
            if isinstance(self, Sequential):   # (TF's Functional property on a bare Sequential)
                raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                     "'_nested_inputs'")
            raise AttributeError(f"The layer {self.name} has never been called and thus has no "
                                 "defined input shape.")
        shapes = [tuple(t.shape.as_list()) for t in self.inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        if self.outputs is None:
            if isinstance(self, Sequential):
                raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                     "'_nested_outputs'")
            raise AttributeError("The layer has never been called and thus has no defined output "
                                 "shape.")
        shapes = [tuple(t.shape.as_list()) for t in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def input(self):
        if self.inputs is None:
            return Layer.input.fget(self)
        return self.inputs[0] if len(self.inputs) == 1 else list(self.inputs)

    @property
    def output(self):
        if self.outputs is None:
            return Layer.output.fget(self)
        return self.outputs[0] if len(self.outputs) == 1 else list(self.outputs)

    def count_params(self):
        if not self.built:
            raise ValueError("You tried to call `count_params` on layer " + self.name + ", but the "
                             "layer isn't built. You can build it manually via: "
                             f"`{self.name}.build(batch_input_shape)`.")
        return int(sum(v.shape.num_elements() for v in self.weights))

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Prints TF's summary table: each layer's name, class, output shape and parameters."""
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by calling "
                             "`build()` or by calling the model on a batch of data.")
        from .summary import print_summary
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn)

    def get_config(self):
        """TF's config of a functional model: its layers with their inbound nodes, and the
        input/output layers (a subclassed model raises NotImplementedError, as TF's)."""
        from .saving import model_config
        return model_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new functional model (new layers and weights) from `get_config()`'s dict."""
        from .saving import functional_from_config
        return functional_from_config(cls, config, custom_objects)

    def to_json(self, **kwargs):
        """The model's architecture as a JSON string (`json.dumps` keyword arguments pass)."""
        from .saving import to_json
        return to_json(self, **kwargs)

    def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None,
             signatures=None, options=None, save_traces=True):
        """Saves architecture, compile arguments and weights; in TF1 programs the default format
        is HDF5 (through h5py, as TF). SavedModel directories are not supported."""
        from .weights_io import is_h5
        import os
        if save_format is None and not str(filepath).endswith((".h5", ".keras", ".hdf5")):
            save_format = "h5"  # TF's default when v2 behaviour is disabled
        if not is_h5(filepath, save_format):
            raise NotImplementedError("Model.save(save_format='tf') (SavedModel) is not "
                                      "supported by tensorweave yet; save to an .h5 file")
        from .h5_format import save_model
        save_model(self, os.fspath(filepath))

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        """Saves the weights as TF's keras does: an object-based TF checkpoint (keys such as
        layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE), or HDF5 for .h5 names."""
        from .weights_io import save_weights
        return save_weights(self, filepath, overwrite, save_format)

    def load_weights(self, filepath, by_name=False, skip_mismatch=False, options=None):
        """Restores weights saved by `save_weights`."""
        from .weights_io import is_h5, load_weights
        if skip_mismatch and not by_name:
            raise ValueError("When calling model.load_weights, skip_mismatch can only be set to "
                             "True when by_name is True.")
        if by_name and not is_h5(str(filepath)):
            import os
            if not os.path.exists(str(filepath) + ".index"):
                from ..framework import errors
                raise errors.NotFoundError(None, None, "Unsuccessful TensorSliceReader "
                                           "constructor: Failed to find any matching files for "
                                           f"{filepath}")
            # As TF for TensorFlow-format weights.
            raise NotImplementedError("Weights may only be loaded based on topology into Models "
                                      "when loading TensorFlow-formatted weights (got by_name=True "
                                      "to load_weights).")
        return load_weights(self, filepath, by_name=by_name, skip_mismatch=skip_mismatch)


def _layers_by_depth(outputs, layers):
    """The model's layers in TF's order: by decreasing depth (distance to an output), layers
    of equal depth in the order a depth-first walk from the outputs first meets them."""
    order, _, _, layer_depth = _graph_depths(outputs)
    rest = [l for l in layers if l not in layer_depth]   # inputs not connected to outputs
    ranked = sorted((l for l in layers if l in layer_depth),
                    key=lambda l: (-layer_depth[l], order[l]))
    return ranked + rest


def _graph_depths(outputs):
    """TF's _map_graph_network depths: (first-meeting order of layers, nodes in walk order,
    {id(node): depth}, {layer: depth}); an output's node is at depth 0."""
    order, node_order, finished = {}, [], set()

    def walk(t):
        layer, node_index, _ = _keras_history(t)
        node = layer._inbound_nodes[node_index]
        if id(node) in finished:
            return
        order.setdefault(layer, len(order))
        if not isinstance(layer, InputLayer):
            for x in node.input_tensors:
                walk(x)
        finished.add(id(node))
        node_order.append(node)

    for t in outputs:
        walk(t)
    node_depth, layer_depth = {}, {}
    for node in reversed(node_order):
        depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(node.layer, 0))
        layer_depth[node.layer] = depth
        node_depth[id(node)] = depth
        if isinstance(node.layer, InputLayer):
            continue
        for x in node.input_tensors:
            dep_layer, dep_index, _ = _keras_history(x)
            dep = dep_layer._inbound_nodes[dep_index]
            node_depth[id(dep)] = max(depth + 1, node_depth.get(id(dep), 0))
    return order, node_order, node_depth, layer_depth


class Sequential(Model):
    """A linear stack of layers."""

    def __init__(self, layers=None, name=None):
        Model.__init__(self, name=name)
        self._seq_layers = []
        self._input_layer = None
        for layer in layers or []:
            self.add(layer)

    def _sublayers(self):
        return list(self._seq_layers)

    def add(self, layer):
        """Appends a layer (or a keras Input tensor / InputLayer, which sets the input)."""
        if isinstance(layer, Tensor):
            hist = _keras_history(layer)
            if hist is None or not isinstance(hist[0], InputLayer):
                raise TypeError("The added layer must be an instance of class Layer. Received: "
                                f"layer={layer} of type {type(layer)}.")
            layer = hist[0]
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Received: "
                            f"layer={layer} of type {type(layer)}.")
        if isinstance(layer, InputLayer):
            if self._seq_layers or self._input_layer is not None:
                raise ValueError("An InputLayer can only be the first layer of a Sequential model")
            self._input_layer = layer
            t = layer._inbound_nodes[0].outputs
            self.inputs, self.outputs = [t], [t]
            return
        if any(l.name == layer.name for l in self._seq_layers):
            raise ValueError(f'All layers added to a Sequential model should have unique names. '
                             f'Name "{layer.name}" is already the name of a layer in this model. '
                             "Update the `name` argument to pass a unique name.")
        self._seq_layers.append(layer)
        if self.outputs is None and len(self._seq_layers) == 1 and \
                getattr(layer, "_batch_input_shape", None) is not None:
            x = Input(batch_shape=layer._batch_input_shape, dtype=layer.dtype,
                      name=f"{layer.name}_input")
            self.inputs = [x]
            self.outputs = [x]
        if self.outputs is not None:
            out = layer(self.outputs[0])
            if len(_flatten(out)) != 1:
                raise ValueError("All layers in a Sequential model should have a single output "
                                 "tensor. For multi-output layers, use the functional API.")
            self.outputs = [out]
            self._nested_outputs = out
            self.output_names = [layer.name]
            self.input_names = [_keras_history(self.inputs[0])[0].name]
            self.built = True

    def pop(self):
        """Removes the last layer; a built model's output becomes the previous layer's."""
        if not self._seq_layers:
            raise TypeError("There are no layers in the model.")
        layer = self._seq_layers.pop()
        if not self._seq_layers:
            if self._input_layer is None:
                self.inputs = self.outputs = None
                self.built = False
            else:
                self.outputs = list(self.inputs)
        elif self.outputs is not None:
            hist = _keras_history(self.outputs[0])
            if hist is not None and hist[0] is layer:
                # The popped layer's input is the new output (TF: layers[-1].output).
                out = layer._inbound_nodes[hist[1]].inputs
                self.outputs = [out]
                self._nested_outputs = out
                self.output_names = [self._seq_layers[-1].name]
        self._graph_compiled = False
        self._train_fn = self._test_fn = self._predict_fn = None

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self._seq_layers:
            kwargs = {}
            if training is not None and "training" in layer._call_fn_args:
                kwargs["training"] = training
            x = layer(x, **kwargs)
        return x

    def build(self, input_shape=None):
        if self.outputs is not None and self.inputs is not None and self.inputs[0] is not \
                self.outputs[0]:
            self.built = True
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        # TF1 graph mode: no graph network is inferred from the shape (TF returns early from
        # _build_graph_network_for_inferred_shape outside TF2), the layers are built by `call`.
        self._build_by_call(input_shape)

    def _assert_weights_created(self):
        if not self.built:
            raise ValueError(f"Weights for model '{self.name}' have not yet been created. Weights "
                             "are created when the model is first called on inputs or `build()` "
                             "is called with an `input_shape`.")

    @property
    def weights(self):
        self._assert_weights_created()
        return Model.weights.fget(self)

    @property
    def trainable_weights(self):
        self._assert_weights_created()
        return Model.trainable_weights.fget(self)

    @property
    def non_trainable_weights(self):
        self._assert_weights_created()
        return Model.non_trainable_weights.fget(self)

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    def __call__(self, inputs, *args, **kwargs):
        out = Model.__call__(self, inputs, *args, **kwargs)
        if self.outputs is None and isinstance(inputs, Tensor):
            self.built = True
        return out

    def _first_layer_name(self):
        return self._seq_layers[0].name if self._seq_layers else self.name

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new Sequential (new layers and weights) from `get_config()`'s dict."""
        from .saving import sequential_from_config
        return sequential_from_config(cls, config, custom_objects)


def load_model(filepath, custom_objects=None, compile=True, options=None):  # noqa: A002
    """A model saved by `Model.save` to HDF5 (needs h5py, as TF)."""
    import os
    filepath = os.fspath(filepath)
    if os.path.isdir(filepath):
        raise NotImplementedError("tf.keras.models.load_model of a SavedModel directory is not "
                                  "supported by tensorweave yet")
    if not os.path.exists(filepath):
        raise OSError(f"No file or directory found at {filepath}")
    from .h5_format import load_model as _load
    return _load(filepath, custom_objects=custom_objects, compile=compile)


def clone_model(model, input_tensors=None, clone_function=None):
    """A model of the same architecture with new layers and newly initialized weights."""
    from .saving import clone_model as _clone
    return _clone(model, input_tensors=input_tensors, clone_function=clone_function)


def model_from_json(json_string, custom_objects=None):
    """A new model from `Model.to_json()`'s string."""
    from .saving import model_from_json as _load
    return _load(json_string, custom_objects)


def model_from_config(config, custom_objects=None):
    """A new model from {"class_name", "config"}."""
    from .saving import model_from_config as _load
    return _load(config, custom_objects)
