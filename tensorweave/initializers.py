"""The tf.initializers namespace."""

__all__ = []
