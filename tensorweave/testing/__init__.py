"""Test helpers shared by the test suite: op checks against NumPy and finite-difference gradients."""

from .op_test import check_gradients, check_op, gradient_error, run_op

__all__ = ["check_op", "check_gradients", "gradient_error", "run_op"]
