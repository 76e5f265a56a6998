"""Neural-network ops: activations, softmax, cross-entropies, bias_add, dropout."""

__all__ = []
