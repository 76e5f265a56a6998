"""The tf.debugging namespace."""

from .ops.check_ops import (assert_equal, assert_greater, assert_greater_equal, assert_integer,  # noqa: F401
                            assert_less, assert_less_equal, assert_negative, assert_non_negative,
                            assert_non_positive, assert_none_equal, assert_positive, assert_rank,
                            assert_rank_at_least, assert_scalar, assert_type, is_numeric_tensor)
from .ops.logging_ops import Assert, check_numerics  # noqa: F401
