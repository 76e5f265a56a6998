"""More `tf.keras.utils`: pad_sequences, Sequence (an indexable source of batches),
to_ordinal, get_source_inputs, the serializable-object registry, and get_file (which needs a
network, so it says clearly that tensorweave cannot download)."""

import numpy as np

__all__ = ["pad_sequences", "Sequence", "to_ordinal", "get_source_inputs", "get_file",
           "register_keras_serializable", "get_registered_name", "get_registered_object",
           "serialize_keras_object", "deserialize_keras_object"]

_REGISTERED = {}        # "package>Name" -> object
_REGISTERED_NAMES = {}  # object -> "package>Name"


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """A [num_samples, maxlen, ...] array of the sequences, padded with `value` and truncated
    to `maxlen` at the start ("pre") or the end ("post"), as TF's."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    num_samples = len(sequences)
    lengths = []
    sample_shape = ()
    flag = True
    for x in sequences:
        try:
            lengths.append(len(x))
            if flag and len(x):
                sample_shape = np.asarray(x).shape[1:]
                flag = False
        except TypeError as e:
            raise ValueError("`sequences` must be a list of iterables. Found non-iterable: "
                             f"{str(x)}") from e
    if maxlen is None:
        maxlen = np.max(lengths)
    is_dtype_str = np.issubdtype(dtype, np.str_)
    if isinstance(value, str) and dtype != object and not is_dtype_str:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: {type(value)}\n"
                         "You should set `dtype=object` for variable length strings.")
    out = np.full((num_samples, maxlen) + sample_shape, value, dtype=dtype)
    for idx, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            trunc = s[-maxlen:]
        elif truncating == "post":
            trunc = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        trunc = np.asarray(trunc, dtype=dtype)
        if trunc.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {trunc.shape[1:]} of sequence at position {idx} is "
                             f"different from expected shape {sample_shape}")
        if padding == "post":
            out[idx, :len(trunc)] = trunc
        elif padding == "pre":
            out[idx, -len(trunc):] = trunc
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out


class Sequence:
    """Base class of a batch source: subclasses implement `__getitem__(index)` (one batch) and
    `__len__()` (batches per epoch); `on_epoch_end` is called after each epoch."""

    def __getitem__(self, index):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def on_epoch_end(self):
        """Called at the end of every epoch."""

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


def to_ordinal(y, num_classes=None, dtype="float32"):
    """Ordinal regression targets: row i has ones in its first y[i] columns (num_classes - 1
    columns)."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    range_values = np.arange(num_classes - 1)
    range_values = np.tile(np.expand_dims(range_values, 0), [n, 1])
    ordinal = np.zeros((n, num_classes - 1), dtype=dtype)
    ordinal[range_values < np.expand_dims(y, -1)] = 1
    return np.reshape(ordinal, input_shape + (num_classes - 1,))


def get_source_inputs(tensor, layer=None, node_index=None):
    """The input tensors (placeholders of InputLayers) that `tensor` was computed from."""
    from .engine import InputLayer, _keras_history
    history = _keras_history(tensor)
    if history is None:
        return [tensor]
    layer, node_index, _ = history
    if isinstance(layer, InputLayer):
        return [tensor]
    node = layer._inbound_nodes[node_index]
    out = []
    for t in node.input_tensors:
        for s in get_source_inputs(t):
            if all(s is not x for x in out):
                out.append(s)
    return out


def get_file(fname=None, origin=None, *args, **kwargs):
    """Downloading is not possible: tensorweave runs without network access."""
    raise NotImplementedError("tf.keras.utils.get_file is not supported by tensorweave: it cannot "
                              f"download {origin!r}; place the file locally and open it directly")


def register_keras_serializable(package="Custom", name=None):
    """A decorator registering a class or function as "package>name" for deserialization."""
    def decorator(arg):
        class_name = name if name is not None else arg.__name__
        registered_name = package + ">" + class_name
        if isinstance(arg, type) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _REGISTERED[registered_name] = arg
        _REGISTERED_NAMES[arg] = registered_name
        return arg
    return decorator


def get_registered_name(obj):
    """The name `obj` was registered under, else its __name__."""
    if obj in _REGISTERED_NAMES:
        return _REGISTERED_NAMES[obj]
    return obj.__name__


def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object registered (or given in custom_objects / module_objects) as `name`."""
    from .utils import get_custom_objects
    if name in get_custom_objects():
        return get_custom_objects()[name]
    if name in _REGISTERED:
        return _REGISTERED[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


def serialize_keras_object(instance):
    """{"class_name", "config"} for an object with get_config; a function's name."""
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        return {"class_name": get_registered_name(type(instance)),
                "config": instance.get_config()}
    if hasattr(instance, "__name__"):
        return get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement `get_config()`.")


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None,
                             printable_module_name="object"):
    """The object `serialize_keras_object` described (a class built from its config)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls = get_registered_object(identifier["class_name"], custom_objects, module_objects)
        if cls is None:
            raise ValueError(f"Unknown {printable_module_name}: '{identifier['class_name']}'. "
                             "Please ensure you are using a `keras.utils.custom_object_scope` and "
                             "that this object is included in the scope. See "
                             "https://www.tensorflow.org/guide/keras/save_and_serialize#"
                             "registering_the_custom_object for details.")
        config = identifier.get("config", {})
        if hasattr(cls, "from_config"):
            return cls.from_config(config)
        return cls(**config)
    if isinstance(identifier, str):
        obj = get_registered_object(identifier, custom_objects, module_objects)
        if obj is None:
            raise ValueError(f"Unknown {printable_module_name}: '{identifier}'. Please ensure you "
                             "are using a `keras.utils.custom_object_scope` and that this object "
                             "is included in the scope. See https://www.tensorflow.org/guide/"
                             "keras/save_and_serialize#registering_the_custom_object for details.")
        return obj
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")
