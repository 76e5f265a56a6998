"""Model configs as TF's keras: `Model.get_config` / `from_config` / `to_json`,
`tf.keras.models.model_from_json` / `model_from_config`, `tf.keras.layers.serialize` /
`deserialize` and `tf.keras.models.clone_model`.

A functional model's config lists its layers, each with its "inbound_nodes" (per call of the
layer inside the model: [[inbound layer name, node index, tensor index, call kwargs], ...]), and
the model's "input_layers" / "output_layers"; `from_config` re-creates the layers and re-calls
them node by node, so the rebuilt graph gets fresh, uniquified name scopes ("dense_1/kernel:0")."""

import json

from ..framework.graph import Tensor
from . import constraints, initializers, regularizers
from .engine import Input, InputLayer, _flatten, _keras_history
from .utils import _unknown_object_error

__all__ = ["serialize", "deserialize", "model_config", "functional_from_config",
           "sequential_from_config", "to_json", "model_from_json", "model_from_config",
           "clone_model", "deserialize_arguments"]

KERAS_VERSION = "2.21.0"


def serialize(layer):
    """{"class_name", "config"} of a layer or model."""
    name = type(layer).__name__
    from .models import Model, Sequential
    if type(layer) is Model:
        name = "Functional"
    elif isinstance(layer, Model) and not isinstance(layer, Sequential) and \
            layer._is_graph_network and type(layer).get_config is Model.get_config:
        name = "Functional"
    return {"class_name": name, "config": layer.get_config()}


def _class(name, custom_objects):
    from . import layers, models
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name in ("Functional", "Model"):
        return models.Model
    if name == "Sequential":
        return models.Sequential
    cls = getattr(layers, name, None) if not name.startswith("_") else None
    if cls is None:
        try:
            cls = getattr(layers, name)
        except (AttributeError, NotImplementedError):
            cls = None
    if not isinstance(cls, type):
        raise ValueError(f"Unknown layer: '{name}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included in "
                         "the scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
                         "#registering_the_custom_object for details.")
    return cls


def deserialize(config, custom_objects=None):
    """A new layer (or model) from `serialize`'s dict."""
    cls = _class(config["class_name"], custom_objects)
    from .models import Model
    if isinstance(cls, type) and issubclass(cls, Model):
        return cls.from_config(config["config"], custom_objects=custom_objects)
    if custom_objects and "custom_objects" in _init_args(cls.from_config):
        return cls.from_config(config["config"], custom_objects=custom_objects)
    return cls.from_config(config["config"])


def _init_args(fn):
    import inspect
    try:
        return set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return set()


def _load_function(value, ftype, module, custom_objects):
    import codecs
    import marshal
    import sys
    import types
    if ftype == "lambda":
        code, defaults, closure = value
        code = marshal.loads(codecs.decode(code.encode("ascii"), "base64"))
        glb = vars(sys.modules[module]) if module in sys.modules else {}
        cells = tuple(types.CellType(c) for c in closure) if closure else None
        return types.FunctionType(code, glb, code.co_name,
                                  tuple(defaults) if defaults else None, cells)
    if custom_objects and value in custom_objects:
        return custom_objects[value]
    mod = sys.modules.get(module)
    if mod is not None and hasattr(mod, value):
        return getattr(mod, value)
    raise _unknown_object_error("function", value)


def deserialize_arguments(config, custom_objects=None):
    """Layer constructor arguments from a config: nested initializer / regularizer /
    constraint / cell dicts made objects again, a Lambda's function loaded."""
    out = {}
    for key, value in config.items():
        if key == "function" and "function_type" in config:
            value = _load_function(value, config["function_type"], config.get("module"),
                                   custom_objects)
        elif key in ("function_type", "module", "output_shape_type", "output_shape_module"):
            continue
        elif key == "cells" and isinstance(value, list):
            value = [deserialize(c, custom_objects) for c in value]
        elif isinstance(value, dict) and "class_name" in value:
            if key.endswith("_initializer"):
                value = initializers.get(value)
            elif key.endswith("_regularizer"):
                value = regularizers.get(value)
            elif key.endswith("_constraint"):
                value = constraints.get(value)
            elif key == "cell":
                value = deserialize(value, custom_objects)
        out[key] = value
    return out


# -- configs -------------------------------------------------------------------------------------
def _node_indices(model):
    """{id(node): index among the layer's nodes that belong to `model`}."""
    in_model = {id(n) for n in model._network_nodes}
    index = {}
    for layer in model.layers:
        k = 0
        for node in layer._inbound_nodes:
            if id(node) in in_model:
                index[id(node)] = k
                k += 1
    return index


def _tensor_ref(t, index):
    layer, node_index, tensor_index = _keras_history(t)
    return layer.name, index[id(layer._inbound_nodes[node_index])], tensor_index


def model_config(model):
    """TF's `get_config()` of a functional model or a Sequential."""
    from .models import Sequential
    if isinstance(model, Sequential):
        layers = []
        if model.inputs and (model._input_layer is not None or
                             getattr(model, "_auto_input", False) or
                             (model._seq_layers and model._seq_layers[0]._batch_input_shape)):
            layers.append(serialize(_keras_history(model.inputs[0])[0]))
        layers.extend(serialize(l) for l in model._seq_layers)
        return {"name": model.name, "layers": layers}
    if not model._is_graph_network:
        raise NotImplementedError("Layer ModuleWrapper has arguments ['self', 'module', 'method_name']\n"
                                  "in `__init__` and therefore must override `get_config()`.")
    index = _node_indices(model)
    in_model = {id(n) for n in model._network_nodes}
    layer_configs = []
    for layer in model.layers:
        entry = serialize(layer)
        entry["name"] = layer.name
        nodes = []
        if not isinstance(layer, InputLayer):
            for node in layer._inbound_nodes:
                if id(node) not in in_model:
                    continue
                kwargs = {k: v for k, v in node.kwargs.items() if k != "mask"}
                nodes.append([[*_tensor_ref(t, index), kwargs] for t in node.input_tensors])
        entry["inbound_nodes"] = nodes
        layer_configs.append(entry)
    return {"name": model.name, "trainable": model.trainable, "layers": layer_configs,
            "input_layers": [list(_tensor_ref(t, index)) for t in model.inputs],
            "output_layers": [list(_tensor_ref(t, index)) for t in model.outputs]}


def _json_default(obj):
    import numpy as np
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if hasattr(obj, "as_list"):
        return obj.as_list()
    raise TypeError(f"Not JSON Serializable: {obj!r}")


def to_json(model, **kwargs):
    """The model's config as JSON, with TF's "keras_version" and "backend" keys."""
    config = serialize(model)
    config["keras_version"] = KERAS_VERSION
    config["backend"] = "tensorflow"
    return json.dumps(config, default=_json_default, **kwargs)


def sequential_from_config(cls, config, custom_objects=None):
    """A new Sequential from its config: each layer re-created and added."""
    if isinstance(config, list):   # old-style: a bare list of layer configs
        config = {"layers": config}
    model = cls(name=config.get("name"))
    for layer_config in config["layers"]:
        model.add(deserialize(layer_config, custom_objects))
    return model


def functional_from_config(cls, config, custom_objects=None):
    """A new functional model from its config: layers re-created, then re-called node by node
    in the config's order (a node waits until its inbound layers' outputs exist)."""
    layers = {}
    outputs = {}   # (layer name, node index) -> flat output tensors
    pending = []
    for entry in config["layers"]:
        layer = deserialize({"class_name": entry["class_name"], "config": entry["config"]},
                            custom_objects)
        layers[entry["name"]] = layer
        if isinstance(layer, InputLayer):
            outputs[(entry["name"], 0)] = [layer._inbound_nodes[0].outputs]
        pending.append([entry["name"], list(entry["inbound_nodes"]), 0])
    while any(p[1] for p in pending):
        progressed = False
        for item in pending:
            name, nodes, done = item
            while nodes:
                refs = nodes[0]
                if not all((r[0], r[1]) in outputs for r in refs):
                    break
                args = [outputs[(r[0], r[1])][r[2]] for r in refs]
                kwargs = dict(refs[0][3]) if refs and len(refs[0]) > 3 else {}
                out = layers[name](args[0] if len(args) == 1 else args, **kwargs)
                outputs[(name, done)] = [t for t in _flatten(out) if isinstance(t, Tensor)]
                nodes.pop(0)
                done += 1
                item[2] = done
                progressed = True
        if not progressed:
            raise ValueError("Graph disconnected: cannot rebuild the model from its config")
    ins = [outputs[(r[0], r[1])][r[2]] for r in config["input_layers"]]
    outs = [outputs[(r[0], r[1])][r[2]] for r in config["output_layers"]]
    return cls(inputs=ins if len(ins) > 1 else ins[0], outputs=outs if len(outs) > 1 else outs[0],
               name=config.get("name"))


def model_from_config(config, custom_objects=None):
    """A model (or layer) from {"class_name", "config"}."""
    if isinstance(config, list):
        raise TypeError("`model_from_config` expects a dictionary, not a list. Received: "
                        f"config={config}. Did you meant to use `Sequential.from_config(config)`?")
    return deserialize(config, custom_objects)


def model_from_json(json_string, custom_objects=None):
    """A model from `to_json`'s string (new layers, new weights)."""
    return model_from_config(json.loads(json_string), custom_objects)


def _clone_layer(layer):
    return layer.__class__.from_config(layer.get_config())


def clone_model(model, input_tensors=None, clone_function=None):
    """A model of the same architecture with new layers (new weights): each layer is made by
    `clone_function(layer)` (by default from its config); input layers become new `Input`s."""
    from .models import Model, Sequential
    clone_function = clone_function or _clone_layer
    if not isinstance(model, Model):
        raise ValueError("Expected `model` argument to be a `Model` instance. "
                         f"Received: model={model}")
    if isinstance(model, Sequential):
        layers = [clone_function(l) for l in model._seq_layers]
        if input_tensors is not None:
            x = _flatten(input_tensors)
            if len(x) != 1:
                raise ValueError("To clone a `Sequential` model, we expect at most one tensor as "
                                 f"part of `input_tensors`. Received: input_tensors={input_tensors}")
            x = x[0]
            if _keras_history(x) is None:
                x = Input(tensor=x)
            return Sequential([_keras_history(x)[0]] + layers, name=model.name)
        if model._input_layer is not None or (model.inputs and model._seq_layers and
                                              model._seq_layers[0]._batch_input_shape):
            src = _keras_history(model.inputs[0])[0]
            inp = InputLayer(batch_input_shape=src._batch_input_shape, dtype=src.dtype,
                             name=src.name)
            return Sequential([inp] + layers, name=model.name)
        return Sequential(layers, name=model.name)
    if not model._is_graph_network:
        raise ValueError("Expected `model` argument to be a functional `Model` instance, but got "
                         f"a subclassed model instead: {model}")
    tensor_map = {}
    if input_tensors is not None:
        new_ins = _flatten(input_tensors)
        if len(new_ins) != len(model.inputs):
            raise ValueError("input_tensors must have the same number of tensors as the model's "
                             "inputs")
        new_ins = [t if _keras_history(t) is not None else Input(tensor=t) for t in new_ins]
    else:
        new_ins = []
        for t in model.inputs:
            src = _keras_history(t)[0]
            new_ins.append(Input(batch_shape=src._batch_input_shape, dtype=src.dtype,
                                 name=src.name))
    for a, b in zip(model.inputs, new_ins):
        tensor_map[id(a)] = b
    new_layers = {}
    for node in model._network_nodes:
        layer = node.layer
        if isinstance(layer, InputLayer):
            continue
        if id(layer) not in new_layers:
            new_layers[id(layer)] = clone_function(layer)
        new_inputs = _map_inputs(node.inputs, tensor_map)
        kwargs = {k: v for k, v in node.kwargs.items() if k != "mask"}
        out = new_layers[id(layer)](new_inputs, *node.args, **kwargs)
        for a, b in zip(node.output_tensors, [t for t in _flatten(out) if isinstance(t, Tensor)]):
            tensor_map[id(a)] = b
    outs = [tensor_map[id(t)] for t in model.outputs]
    return Model(new_ins if len(new_ins) > 1 else new_ins[0],
                 outs if len(outs) > 1 else outs[0], name=model.name)


def _map_inputs(x, tensor_map):
    from .engine import _map
    return _map(lambda t: tensor_map[id(t)] if isinstance(t, Tensor) else t, x)
