"""`tf.keras.preprocessing`: `sequence.pad_sequences` (the text and image helpers are not
supported yet)."""

from . import sequence  # noqa: F401


def __getattr__(name):
    raise AttributeError(f"tf.keras.preprocessing.{name} is not supported by tensorweave yet")
