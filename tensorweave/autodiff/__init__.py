"""Automatic differentiation: `gradients()` over registered gradient functions."""
