"""The tf.math namespace."""

from .ops.math_ops import (abs, accumulate_n, acos, add, add_n, argmax, argmin, asin, atan, atan2,  # noqa: F401,A004
                           ceil, conj, cos, cosh, count_nonzero, cumprod, cumsum, divide, div_no_nan,
                           equal, erf, exp, expm1, floor, floordiv, floormod, greater, greater_equal,
                           imag, is_finite, is_inf, is_nan, less, less_equal, log, log1p, log_sigmoid,
                           logical_and, logical_not, logical_or, logical_xor, maximum, minimum, multiply,
                           negative, not_equal, pow, real, realdiv, reciprocal, reduce_all, reduce_any,
                           reduce_euclidean_norm, reduce_logsumexp, reduce_max, reduce_mean, reduce_min,
                           reduce_prod, reduce_sum, rint, round, rsqrt, saturate_cast, scalar_mul,
                           segment_mean, segment_sum, sigmoid, sign, sin, sinh, sqrt, square,
                           squared_difference, subtract, tan, tanh, truediv, truncatediv, truncatemod,
                           unsorted_segment_sum)
from .ops.math_ops import floormod as mod  # noqa: F401

__all__ = ["abs", "accumulate_n", "acos", "add", "add_n", "argmax", "argmin", "asin", "atan", "atan2",
           "ceil", "conj", "cos", "cosh", "count_nonzero", "cumprod", "cumsum", "divide", "div_no_nan",
           "equal", "erf", "exp", "expm1", "floor", "floordiv", "floormod", "greater", "greater_equal",
           "imag", "is_finite", "is_inf", "is_nan", "less", "less_equal", "log", "log1p", "log_sigmoid",
           "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod",
           "multiply", "negative", "not_equal", "pow", "real", "realdiv", "reciprocal", "reduce_all",
           "reduce_any", "reduce_euclidean_norm", "reduce_logsumexp", "reduce_max", "reduce_mean",
           "reduce_min", "reduce_prod", "reduce_sum", "rint", "round", "rsqrt", "saturate_cast",
           "scalar_mul", "segment_mean", "segment_sum", "sigmoid", "sign", "sin", "sinh", "sqrt",
           "square", "squared_difference", "subtract", "tan", "tanh", "truediv", "truncatediv",
           "truncatemod", "unsorted_segment_sum"]

from .ops.math_extra_ops import *  # noqa: E402,F401,F403
from .ops.math_extra_ops import __all__ as _extra_all  # noqa: E402
from .ops.math_elementwise_ops import div_no_nan as divide_no_nan  # noqa: E402,F401
from .ops.nn_ops_extra import in_top_k, top_k  # noqa: E402,F401
from .ops.nn_ops import l2_normalize, log_softmax, softmax, softplus, softsign  # noqa: E402,F401

from .ops.math_special_ops import *  # noqa: E402,F401,F403
from .ops.math_special_ops import __all__ as _special_all  # noqa: E402

__all__ = __all__ + _special_all + [n for n in _extra_all if n not in ("sort", "argsort", "arg_max", "arg_min")] + [
    "divide_no_nan", "in_top_k", "top_k", "l2_normalize", "log_softmax", "softmax", "softplus", "softsign"]

from .ops.array_misc_ops import invert_permutation  # noqa: E402,F401
from .ops.misc_ops import angle, erfcinv  # noqa: E402,F401
__all__ += ["invert_permutation", "angle", "erfcinv"]

from . import math_special as special  # noqa: E402  (tf.math.special)
__all__ += ["special"]
