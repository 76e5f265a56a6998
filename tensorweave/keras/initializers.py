"""`tf.keras.initializers`: in TF1 graph mode these are TF's v1 initializers (the classes of
`tf.initializers`), so seeded values follow TF's random streams. Names as strings resolve as
TF's keras does ("glorot_uniform", "zeros", "he_normal", ...)."""

from ..ops.init_ops import (Constant, GlorotNormal, GlorotUniform, Identity, Initializer,  # noqa: F401
                            Ones, Orthogonal, RandomNormal, RandomUniform, TruncatedNormal,
                            VarianceScaling, Zeros)
from .utils import _unknown_object_error



class RandomUniform(RandomUniform):
    """keras's v1 RandomUniform: defaults [-0.05, 0.05)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None, dtype="float32"):
        super().__init__(minval=minval, maxval=maxval, seed=seed, dtype=dtype)


class RandomNormal(RandomNormal):
    """keras's v1 RandomNormal: defaults mean 0, stddev 0.05."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype="float32"):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


class TruncatedNormal(TruncatedNormal):
    """keras's v1 TruncatedNormal: defaults mean 0, stddev 0.05."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype="float32"):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


constant = Constant
glorot_normal = GlorotNormal
glorot_uniform = GlorotUniform
identity = Identity
ones = Ones
orthogonal = Orthogonal
random_normal = normal = RandomNormal
random_uniform = uniform = RandomUniform
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling
zeros = Zeros


def _variance_scaling_class(name, scale, mode, distribution, doc):
    """keras's v1 HeNormal/HeUniform/LecunNormal/LecunUniform: VarianceScaling subclasses whose
    config is the seed alone (so serialize names the class, as TF's)."""
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, scale=scale, mode=mode, distribution=distribution, seed=seed)

    def get_config(self):
        return {"seed": self.seed}
    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                           "__doc__": doc})


HeNormal = he_normal = _variance_scaling_class(
    "HeNormal", 2., "fan_in", "truncated_normal", "He normal: truncated normal, stddev sqrt(2 / fan_in).")
HeUniform = he_uniform = _variance_scaling_class(
    "HeUniform", 2., "fan_in", "uniform", "He uniform: limit sqrt(6 / fan_in).")
LecunNormal = lecun_normal = _variance_scaling_class(
    "LecunNormal", 1., "fan_in", "truncated_normal", "LeCun normal: stddev sqrt(1 / fan_in).")
LecunUniform = lecun_uniform = _variance_scaling_class(
    "LecunUniform", 1., "fan_in", "uniform", "LeCun uniform: limit sqrt(3 / fan_in).")

_BY_NAME = {
    "constant": Constant, "glorot_normal": GlorotNormal, "glorot_uniform": GlorotUniform,
    "identity": Identity, "ones": Ones, "orthogonal": Orthogonal, "random_normal": RandomNormal,
    "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
    "variance_scaling": VarianceScaling, "zeros": Zeros, "he_normal": he_normal,
    "he_uniform": he_uniform, "lecun_normal": lecun_normal, "lecun_uniform": lecun_uniform,
    "uniform": RandomUniform, "normal": RandomNormal,
}
for _k, _v in list(_BY_NAME.items()):
    _BY_NAME["".join(p.capitalize() for p in _k.split("_"))] = _v
_BY_NAME.update(Zeros=Zeros, Ones=Ones, GlorotUniform=GlorotUniform, GlorotNormal=GlorotNormal,
                RandomNormal=RandomNormal, RandomUniform=RandomUniform, HeNormal=he_normal,
                HeUniform=he_uniform, LecunNormal=lecun_normal, LecunUniform=lecun_uniform)


def get(identifier):
    """An initializer for a name, a config dict, an initializer, or None."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls = _BY_NAME.get(identifier["class_name"])
        if cls is None:
            raise _unknown_object_error("initializer", identifier["class_name"])
        return cls(**identifier.get("config", {}))
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise _unknown_object_error("initializer", identifier)
        return _BY_NAME[identifier]()
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def serialize(initializer):
    return {"class_name": type(initializer).__name__,
            "config": initializer.get_config() if hasattr(initializer, "get_config") else {}}


deserialize = get
