"""Math ops: elementwise arithmetic, matmul, reductions, comparisons, casts, and Tensor operators."""

__all__ = []
