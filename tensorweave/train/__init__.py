"""The tf.train namespace."""

__all__ = []
