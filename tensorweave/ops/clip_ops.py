"""Norm clipping: clip_by_norm, clip_by_global_norm, global_norm."""

__all__ = []
