"""`tf.keras.regularizers`: L1, L2 and L1L2 penalties (l1 * sum(|w|) + l2 * sum(w^2)), as
TF's keras builds them."""

import numpy as np

from .utils import _unknown_object_error


def _l1_term(l1, x):
    from ..ops import math_ops
    return l1 * math_ops.reduce_sum(math_ops.abs(x))


def _l2_term(l2, x):
    from ..nn import l2_loss
    return 2.0 * l2 * l2_loss(x)


class Regularizer:
    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        # TF casts the factors to floatx: get_config shows float32 values (0.01 -> 0.0099999997).
        self.l1 = float(np.float32(l1))
        self.l2 = float(np.float32(l2))

    def __call__(self, x):
        # As TF's keras: a Const 0 plus each term; the L2 term is 2 * l2 * l2_loss(x).
        from ..framework.constant_op import constant
        regularization = constant(0.0, dtype=x.dtype.base_dtype)
        if self.l1:
            regularization += _l1_term(self.l1, x)
        if self.l2:
            regularization += _l2_term(self.l2, x)
        return regularization

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    def __init__(self, l1=0.01, **kwargs):
        super().__init__(l1=kwargs.pop("l", l1))

    def __call__(self, x):
        return _l1_term(self.l1, x)

    def get_config(self):
        return {"l1": self.l1}


class L2(L1L2):
    def __init__(self, l2=0.01, **kwargs):
        super().__init__(l2=kwargs.pop("l", l2))

    def __call__(self, x):
        return _l2_term(self.l2, x)

    def get_config(self):
        return {"l2": self.l2}


def l1(l1=0.01):  # noqa: E741
    return L1(l1)


def l2(l2=0.01):
    return L2(l2)


def l1_l2(l1=0.01, l2=0.01):  # noqa: E741
    return L1L2(l1=l1, l2=l2)


_CLASSES = {"L1": L1, "L2": L2, "L1L2": L1L2, "l1": L1, "l2": L2, "l1_l2": L1L2}


def serialize(regularizer):
    """{"class_name", "config"} as TF's keras."""
    if regularizer is None:
        return None
    return {"class_name": type(regularizer).__name__, "config": regularizer.get_config()}


def deserialize(config, custom_objects=None):
    """A regularizer from `serialize`'s dict."""
    cls = (custom_objects or {}).get(config["class_name"]) or _CLASSES.get(config["class_name"])
    if cls is None:
        raise _unknown_object_error("regularizer", config["class_name"])
    return cls(**config.get("config", {}))


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        table = {"l1": L1, "l2": L2, "l1_l2": L1L2}
        if identifier not in table:
            raise _unknown_object_error("regularizer", identifier)
        return table[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")
