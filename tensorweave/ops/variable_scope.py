"""tf.variable_scope and tf.get_variable."""

__all__ = []
