"""Object-based checkpoints: tf.train.Checkpoint and tf.train.CheckpointManager (graph mode)."""

from .checkpoint import (Checkpoint, CheckpointLoadStatus, InitializationOnlyStatus,  # noqa: F401
                         NameBasedSaverStatus)
from .manager import CheckpointManager  # noqa: F401

__all__ = ["Checkpoint", "CheckpointManager", "CheckpointLoadStatus", "InitializationOnlyStatus",
           "NameBasedSaverStatus"]
