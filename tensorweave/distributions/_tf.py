"""The handful of TF-internal module names (ops, array_ops, math_ops, ...) the distributions code
is written against, each resolved to tensorweave's public functions on first use.

tf.distributions is a port of TensorFlow's tensorflow/python/ops/distributions (Apache-2.0): its
graphs must match TF's op by op (names, seeds, shapes), so the code keeps TF's structure and calls
these aliases; only this module knows where each name lives here.
"""

import importlib

from ..framework import dtypes, tensor_shape  # noqa: F401  (re-exported for the ported modules)
from ..framework.constant_op import constant_value


class _Forward:
    """A stand-in for one TF-internal module: attribute look-ups go to tensorweave's namespaces."""

    _SPACES = ("tensorweave", "tensorweave.math", "tensorweave.nn", "tensorweave.debugging",
               "tensorweave.random", "tensorweave.linalg")

    def __init__(self, **overrides):
        self._overrides = overrides

    def __getattr__(self, name):
        if name in self._overrides:
            return self._overrides[name]
        for space in self._SPACES:
            mod = importlib.import_module(space)
            value = getattr(mod, name, None)
            if value is not None:
                setattr(self, name, value)
                return value
        raise AttributeError(f"tensorweave has no {name!r} (needed by tf.distributions)")


def _assert_same_float_dtype(tensors=None, dtype=None):
    """TF's check_ops.assert_same_float_dtype (with TF's message naming the first tensor)."""
    from ..ops.check_extra_ops import assert_same_float_dtype
    return assert_same_float_dtype(tensors, dtype)


def _with_dependencies(dependencies, output_tensor, name=None):
    from ..ops.control_flow_ops import with_dependencies
    return with_dependencies(dependencies, output_tensor, name=name)


ops = _Forward()
array_ops = _Forward(newaxis=None)
math_ops = _Forward(int32=dtypes.int32)
nn = nn_ops = _Forward()
random_ops = _Forward()
check_ops = _Forward(assert_same_float_dtype=_assert_same_float_dtype)
constant_op = _Forward()
control_flow_ops = _Forward(with_dependencies=_with_dependencies)
control_flow_assert = _Forward()
special_math_ops = _Forward()


class tensor_util:  # noqa: N801  (TF's module name)
    constant_value = staticmethod(constant_value)

    @staticmethod
    def is_tf_type(x):
        from ..framework.graph import Tensor
        return isinstance(x, Tensor)
