"""`tf.keras.utils`: to_categorical, normalize, get_custom_objects / custom_object_scope."""

import numpy as np

_CUSTOM_OBJECTS = {}


def _unknown_object_error(kind, name):
    """TF's error for a name no registry knows ("Unknown activation function: 'foo'. ...")."""
    return ValueError(f"Unknown {kind}: '{name}'. Please ensure you are using a "
                      "`keras.utils.custom_object_scope` and that this object is included in the "
                      "scope. See https://www.tensorflow.org/guide/keras/save_and_serialize"
                      "#registering_the_custom_object for details.")


def to_categorical(y, num_classes=None, dtype="float32"):
    """One-hot rows for integer class vector y (the last axis of size 1 is dropped, as TF)."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    output_shape = input_shape + (num_classes,)
    return np.reshape(categorical, output_shape)


def normalize(x, axis=-1, order=2):
    l2 = np.atleast_1d(np.linalg.norm(x, order, axis))
    l2[l2 == 0] = 1
    return x / np.expand_dims(l2, axis)


def get_custom_objects():
    return _CUSTOM_OBJECTS


class custom_object_scope:  # noqa: N801  (TF's name)
    def __init__(self, *args):
        self.custom_objects = args
        self.backup = None

    def __enter__(self):
        self.backup = dict(_CUSTOM_OBJECTS)
        for objects in self.custom_objects:
            _CUSTOM_OBJECTS.update(objects)
        return self

    def __exit__(self, *args):
        _CUSTOM_OBJECTS.clear()
        _CUSTOM_OBJECTS.update(self.backup)


CustomObjectScope = custom_object_scope


def plot_model(*args, **kwargs):
    raise NotImplementedError("tf.keras.utils.plot_model is not supported by tensorweave")


from .utils_extra import *  # noqa: E402,F401,F403  (pad_sequences, Sequence, ...)
