"""Initializers (tf.zeros_initializer, tf.glorot_uniform_initializer, ...)."""

__all__ = []
