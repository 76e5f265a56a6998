"""The tf.math namespace."""

__all__ = []
