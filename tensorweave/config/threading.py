"""`tf.config.threading`: the process's inter- and intra-op thread counts (0: the system picks)."""

from . import _state

__all__ = ["get_inter_op_parallelism_threads", "set_inter_op_parallelism_threads",
           "get_intra_op_parallelism_threads", "set_intra_op_parallelism_threads"]


def get_inter_op_parallelism_threads():
    """Threads for running independent ops in parallel (0: chosen by the system)."""
    return _state.inter_op


def set_inter_op_parallelism_threads(num_threads):
    """Sets it; only before the runtime is initialized (RuntimeError after)."""
    if _state.initialized:
        raise RuntimeError("Inter op parallelism cannot be modified after initialization.")
    _state.inter_op = num_threads


def get_intra_op_parallelism_threads():
    """Threads one op may use (0: chosen by the system)."""
    return _state.intra_op


def set_intra_op_parallelism_threads(num_threads):
    """Sets it; only before the runtime is initialized (RuntimeError after)."""
    if _state.initialized:
        raise RuntimeError("Intra op parallelism cannot be modified after initialization.")
    _state.intra_op = num_threads
