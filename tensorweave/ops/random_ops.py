"""Random ops with TF's graph- and op-level seeds."""

__all__ = []
