"""The tf.random namespace."""

__all__ = []
