"""State ops: the variable op and in-place updates (assign, scatter, count_up_to)."""

__all__ = []
