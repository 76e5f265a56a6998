"""`tf.keras.constraints`: projections applied to a weight after each optimizer update."""

from .utils import _unknown_object_error


class Constraint:
    def __call__(self, w):
        return w

    def get_config(self):
        return {}


class MaxNorm(Constraint):
    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}

    def __call__(self, w):
        from . import backend as K
        norms = K.sqrt(K.sum(K.square(w), axis=self.axis, keepdims=True))
        desired = K.clip(norms, 0, self.max_value)
        return w * (desired / (K.epsilon() + norms))


class NonNeg(Constraint):
    def __call__(self, w):
        from ..ops import math_ops
        return w * math_ops.cast(math_ops.greater_equal(w, 0.0), w.dtype.base_dtype)


class UnitNorm(Constraint):
    def __init__(self, axis=0):
        self.axis = axis

    def get_config(self):
        return {"axis": self.axis}

    def __call__(self, w):
        from . import backend as K
        return w / (K.epsilon() + K.sqrt(K.sum(K.square(w), axis=self.axis, keepdims=True)))


class MinMaxNorm(Constraint):
    """Rescales each slice along `axis` to a norm in [min_value, max_value]; `rate` < 1 moves
    only part of the way (rate * clipped + (1 - rate) * norm)."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        from . import backend as K
        from ..ops import math_ops
        norms = K.sqrt(math_ops.reduce_sum(K.square(w), axis=self.axis, keepdims=True))
        desired = self.rate * K.clip(norms, self.min_value, self.max_value) + \
            (1 - self.rate) * norms
        return w * (desired / (K.epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm


_CLASSES = {"MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm}


def serialize(constraint):
    """{"class_name", "config"} as TF's keras."""
    if constraint is None:
        return None
    return {"class_name": type(constraint).__name__, "config": constraint.get_config()}


def deserialize(config, custom_objects=None):
    """A constraint from `serialize`'s dict."""
    cls = (custom_objects or {}).get(config["class_name"]) or _CLASSES.get(config["class_name"])
    if cls is None:
        raise _unknown_object_error("constraint", config["class_name"])
    return cls(**config.get("config", {}))


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        table = {"max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
                 "min_max_norm": MinMaxNorm}
        if identifier not in table:
            raise _unknown_object_error("constraint", identifier)
        return table[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint identifier: {identifier}")
