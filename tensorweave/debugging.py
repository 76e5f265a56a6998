"""The tf.debugging namespace."""

from .ops.check_ops import (assert_equal, assert_greater, assert_greater_equal, assert_integer,  # noqa: F401
                            assert_less, assert_less_equal, assert_negative, assert_non_negative,
                            assert_non_positive, assert_none_equal, assert_positive, assert_rank,
                            assert_rank_at_least, assert_scalar, assert_type, is_numeric_tensor)
from .ops.logging_ops import Assert, check_numerics  # noqa: F401
from .ops.check_extra_ops import (assert_all_finite, assert_near, assert_proper_iterable,  # noqa: F401,E402
                                  assert_rank_in, assert_same_float_dtype, assert_shapes)
from .ops.math_elementwise_ops import is_finite, is_inf, is_nan  # noqa: F401,E402
from .ops.math_special_ops import is_non_decreasing, is_strictly_increasing  # noqa: F401,E402
from .framework.behavior import (disable_check_numerics, enable_check_numerics,  # noqa: F401,E402
                                       get_log_device_placement, set_log_device_placement)
from .platform.compat_api import (disable_traceback_filtering, enable_traceback_filtering,  # noqa: F401,E402
                                  is_traceback_filtering_enabled)
