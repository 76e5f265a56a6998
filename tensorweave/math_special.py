"""The tf.math.special namespace (re-exports only)."""

from .ops.math_special_fn_ops import *  # noqa: F401,F403
from .ops.math_special_fn_ops import __all__  # noqa: F401
