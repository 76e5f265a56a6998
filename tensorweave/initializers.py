"""The tf.initializers namespace."""

from .ops.init_ops import Constant as constant
from .ops.init_ops import GlorotNormal as glorot_normal
from .ops.init_ops import GlorotUniform as glorot_uniform
from .ops.init_ops import Identity as identity
from .ops.init_ops import Ones as ones
from .ops.init_ops import Orthogonal as orthogonal
from .ops.init_ops import RandomNormal as random_normal
from .ops.init_ops import RandomUniform as random_uniform
from .ops.init_ops import TruncatedNormal as truncated_normal
from .ops.init_ops import UniformUnitScaling as uniform_unit_scaling
from .ops.init_ops import VarianceScaling as variance_scaling
from .ops.init_ops import Zeros as zeros
from .ops.init_ops import he_normal, he_uniform, lecun_normal, lecun_uniform
from .ops.variables import global_variables_initializer as global_variables
from .ops.variables import local_variables_initializer as local_variables
from .ops.variables import variables_initializer as variables

__all__ = ["constant", "glorot_normal", "glorot_uniform", "identity", "ones", "orthogonal",
           "random_normal", "random_uniform", "truncated_normal", "uniform_unit_scaling",
           "variance_scaling", "zeros", "he_normal", "he_uniform", "lecun_normal", "lecun_uniform",
           "global_variables", "local_variables", "variables"]
