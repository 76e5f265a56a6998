"""`tf.keras.preprocessing.sequence`: pad_sequences (shared with `tf.keras.utils`)."""

from ..utils_extra import pad_sequences  # noqa: F401


def __getattr__(name):
    raise AttributeError(f"tf.keras.preprocessing.sequence.{name} is not supported by "
                         "tensorweave yet")
