"""The tf.layers namespace."""

__all__ = []
