"""The tf.layers namespace: the Layer base and the core layers (later: conv, pooling, norm)."""

from .base import InputSpec, Layer  # noqa: F401
from .core import Dense, Dropout, Flatten, dense, dropout, flatten  # noqa: F401

__all__ = ["Layer", "InputSpec", "Dense", "dense", "Dropout", "dropout", "Flatten", "flatten"]
