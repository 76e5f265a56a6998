"""The tf.nn namespace."""

__all__ = []
