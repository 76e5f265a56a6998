"""`tf.keras.layers.experimental.preprocessing`: the preprocessing layers of
`tf.keras.layers` under their experimental names."""

from ..preprocessing import (CategoryEncoding, CenterCrop, Discretization,  # noqa: F401
                             Normalization, Rescaling, Resizing)
from ..hashing import Hashing  # noqa: F401
from ..preprocessing import _PreprocessingLayer as PreprocessingLayer  # noqa: F401


def __getattr__(name):
    raise AttributeError(f"tf.keras.layers.experimental.preprocessing.{name} is not supported "
                         "by tensorweave yet")
