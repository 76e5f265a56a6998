"""Layer configs as TF's keras writes them (`layer.get_config()`): the base keys ("name",
"trainable", "batch_input_shape" when the layer was given an input shape, "dtype" -- None until
the layer is built, as TF's v1 layers), then each class's arguments in TF's order, initializers,
regularizers and constraints as {"class_name", "config"} dicts and activations by name.

One table (class name -> keys) rather than a `get_config` per class, because most layers here
borrow their attributes from tf.layers' implementations and only the key order differs."""

import numpy as np

from . import activations, initializers

__all__ = ["layer_config", "serialize_object", "CELL_KEYS"]


def serialize_object(obj):
    """{"class_name", "config"} for an initializer, regularizer or constraint (None stays None)."""
    if obj is None:
        return None
    if hasattr(obj, "get_config"):
        return {"class_name": type(obj).__name__, "config": obj.get_config()}
    return getattr(obj, "__name__", str(obj))


def _act(layer, key):
    return activations.serialize(getattr(layer, key))


def _init(layer, key):
    return initializers.serialize(getattr(layer, key))


def _obj(layer, key):
    return serialize_object(getattr(layer, key, None))


def _tuple(layer, key):
    v = getattr(layer, key)
    return tuple(v) if isinstance(v, list) else v


_CONV = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
         "groups", "activation", "use_bias", "kernel_initializer", "bias_initializer",
         "kernel_regularizer", "bias_regularizer", "activity_regularizer", "kernel_constraint",
         "bias_constraint")
_RNN = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "time_major")
# Cell arguments as TF orders them; "activity_regularizer" only for the layers (not cells).
CELL_KEYS = {
    "SimpleRNNCell": ("units", "activation", "use_bias", "kernel_initializer",
                      "recurrent_initializer", "bias_initializer", "kernel_regularizer",
                      "recurrent_regularizer", "bias_regularizer", "activity_regularizer",
                      "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
                      "recurrent_dropout"),
    "LSTMCell": ("units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
                 "recurrent_initializer", "bias_initializer", "unit_forget_bias",
                 "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
                 "activity_regularizer", "kernel_constraint", "recurrent_constraint",
                 "bias_constraint", "dropout", "recurrent_dropout", "implementation"),
    "GRUCell": ("units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
                "recurrent_initializer", "bias_initializer", "kernel_regularizer",
                "recurrent_regularizer", "bias_regularizer", "activity_regularizer",
                "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
                "recurrent_dropout", "implementation", "reset_after"),
}
_POOL1D = ("strides", "pool_size", "padding", "data_format")
_POOL2D = ("pool_size", "padding", "strides", "data_format")
_GLOBAL = ("data_format", "keepdims")

_KEYS = {
    "Dense": ("units", "activation", "use_bias", "kernel_initializer", "bias_initializer",
              "kernel_regularizer", "bias_regularizer", "activity_regularizer",
              "kernel_constraint", "bias_constraint"),
    "Activation": ("activation",),
    "Dropout": ("rate", "noise_shape", "seed"),
    "Flatten": ("data_format",),
    "Reshape": ("target_shape",),
    "Permute": ("dims",),
    "RepeatVector": ("n",),
    "Masking": ("mask_value",),
    "Conv1D": _CONV, "Conv2D": _CONV,
    "Conv2DTranspose": _CONV + ("output_padding",),
    "SeparableConv2D": _CONV + ("depth_multiplier", "depthwise_initializer",
                                "pointwise_initializer", "depthwise_regularizer",
                                "pointwise_regularizer", "depthwise_constraint",
                                "pointwise_constraint"),
    "MaxPooling1D": _POOL1D, "AveragePooling1D": _POOL1D,
    "MaxPooling2D": _POOL2D, "AveragePooling2D": _POOL2D,
    "GlobalMaxPooling1D": _GLOBAL, "GlobalMaxPooling2D": _GLOBAL,
    "GlobalAveragePooling1D": _GLOBAL, "GlobalAveragePooling2D": _GLOBAL,
    "UpSampling2D": ("size", "data_format", "interpolation"),
    "ZeroPadding2D": ("padding", "data_format"),
    "BatchNormalization": ("axis", "momentum", "epsilon", "center", "scale", "beta_initializer",
                           "gamma_initializer", "moving_mean_initializer",
                           "moving_variance_initializer", "beta_regularizer", "gamma_regularizer",
                           "beta_constraint", "gamma_constraint"),
    "Embedding": ("input_dim", "output_dim", "embeddings_initializer", "embeddings_regularizer",
                  "activity_regularizer", "embeddings_constraint", "mask_zero", "input_length"),
    "Concatenate": ("axis",),
    "Dot": ("axes", "normalize"),
    "RNN": _RNN + ("cell",),
    "StackedRNNCells": ("cells",),
    "SimpleRNN": _RNN + CELL_KEYS["SimpleRNNCell"],
    "LSTM": _RNN + CELL_KEYS["LSTMCell"],
    "GRU": _RNN + CELL_KEYS["GRUCell"],
    "SimpleRNNCell": tuple(k for k in CELL_KEYS["SimpleRNNCell"] if k != "activity_regularizer"),
    "LSTMCell": tuple(k for k in CELL_KEYS["LSTMCell"] if k != "activity_regularizer"),
    "GRUCell": tuple(k for k in CELL_KEYS["GRUCell"] if k != "activity_regularizer"),
    "Lambda": ("function", "function_type", "module", "output_shape", "output_shape_type",
               "output_shape_module", "arguments"),
}
_DEFAULTS = {"groups": 1, "implementation": 1, "interpolation": "nearest", "output_padding": None,
             "input_length": None}


class ListWrapper(list):
    """A list printed as TF's tracked lists ("ListWrapper([1])")."""

    def __repr__(self):
        return f"ListWrapper({list(self)!r})"


def _value(layer, key):
    # SeparableConv2D keeps no kernel_* arguments of its own: TF's defaults.
    if not hasattr(layer, key) and key.endswith("_initializer"):
        return initializers.serialize(initializers.glorot_uniform())
    if not hasattr(layer, key) and key.endswith(("_regularizer", "_constraint")):
        return None
    if key in ("activation", "recurrent_activation"):
        return _act(layer, key)
    if key.endswith("_initializer"):
        return _init(layer, key)
    if key == "activity_regularizer":
        return serialize_object(getattr(layer, "_activity_regularizer", None))
    if key.endswith(("_regularizer", "_constraint")):
        return _obj(layer, key)
    if key == "cell":
        return {"class_name": type(layer.cell).__name__, "config": layer.cell.get_config()}
    if key == "cells":
        return [{"class_name": type(c).__name__, "config": c.get_config()} for c in layer.cells]
    if key in ("kernel_size", "strides", "dilation_rate", "pool_size", "size", "dims",
               "target_shape"):
        return _tuple(layer, key)
    if key == "axis" and type(layer).__name__ == "BatchNormalization":
        # TF's build turns the axis into a tracked list of non-negative axes.
        axis = getattr(layer, "_axes", None) if layer.built else None
        if axis is None:
            axis = layer.axis
        return axis if isinstance(axis, int) else ListWrapper(axis)
    if key in _DEFAULTS and not hasattr(layer, key):
        return _DEFAULTS[key]
    v = getattr(layer, key)
    if isinstance(v, np.generic):
        v = v.item()
    return v


def _lambda_values(layer):
    import codecs
    import marshal
    import types
    fn = layer.function
    if isinstance(fn, types.FunctionType):   # TF dumps any Python function's code
        code = codecs.encode(marshal.dumps(fn.__code__), "base64").decode("ascii")
        closure = tuple(c.cell_contents for c in fn.__closure__) if fn.__closure__ else None
        function, ftype = (code, fn.__defaults__, closure), "lambda"
    else:
        function, ftype = fn.__name__, "function"
    out = {"function": function, "function_type": ftype, "module": fn.__module__,
           "output_shape": layer._output_shape, "output_shape_type": "raw",
           "output_shape_module": None, "arguments": dict(layer.arguments)}
    return out


def layer_config(layer):
    """TF's `get_config()` of a keras layer (the base keys for a class not in the table)."""
    config = {"name": layer.name, "trainable": layer.trainable}
    if getattr(layer, "_batch_input_shape", None) is not None:
        config["batch_input_shape"] = tuple(layer._batch_input_shape)
    config["dtype"] = layer.dtype
    keys = ()
    for cls in type(layer).__mro__:
        if cls.__name__ in _KEYS:
            keys = _KEYS[cls.__name__]
            break
    if keys and keys[0] == "function":
        config.update(_lambda_values(layer))
        return config
    for key in keys:
        config[key] = _value(layer, key)
    return config
