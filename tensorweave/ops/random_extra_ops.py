"""tf.random's seed helpers (`split`, `fold_in`) and the `Algorithm` enum.

`split` and `fold_in` are TF's compositions over the full-range StatelessRandomUniformFullIntV2,
so the new seeds are TF's.
"""

import enum

from ..framework.constant_op import convert_to_tensor
from .stateless_random_ops import stateless_random_uniform

__all__ = ["Algorithm", "split", "fold_in"]


class Algorithm(enum.Enum):
    """The counter-based RNG algorithms (tensorweave implements PHILOX; AUTO_SELECT picks it)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _check_alg(alg):
    if isinstance(alg, str):
        alg = alg.lower()
        if alg == "auto_select":
            return
        if alg == "philox":
            return
        if alg == "threefry":
            raise NotImplementedError("The ThreeFry algorithm is not supported by tensorweave yet")
        raise ValueError(f"Unknown algorithm name: {alg}")
    if alg in (Algorithm.THREEFRY, Algorithm.THREEFRY.value):
        raise NotImplementedError("The ThreeFry algorithm is not supported by tensorweave yet")


def split(seed, num=2, alg="auto_select"):
    """`num` new [2] seeds (a [num, 2] tensor of seed's dtype) derived from `seed`."""
    _check_alg(alg)
    seed = convert_to_tensor(seed)
    return stateless_random_uniform(shape=[num, 2], seed=seed, dtype=seed.dtype, minval=None, maxval=None)


def fold_in(seed, data, alg="auto_select"):
    """A new [2] seed from `seed` and the integer `data` (e.g. a step or replica id)."""
    _check_alg(alg)
    from .array_ops import stack
    data = convert_to_tensor(data)
    seed1 = stateless_random_uniform(shape=[], seed=seed, dtype=data.dtype, minval=None, maxval=None)
    return stack([seed1, data])
