"""tf.Variable (TF1 reference variables) and variable collections/initializers."""

__all__ = []
