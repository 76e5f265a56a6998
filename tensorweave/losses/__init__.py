"""The tf.losses namespace."""

__all__ = []
