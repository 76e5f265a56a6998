"""Optimizer update ops (ApplyGradientDescent, ApplyAdam, ...): in-place, on variable references."""

__all__ = []
