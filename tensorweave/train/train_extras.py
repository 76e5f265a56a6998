"""Smaller tf.train helpers: `checkpoints_iterator` (wait for new checkpoints), `basic_train_loop`,
the `maybe_*_join` batchers, `VocabInfo`, and TF's other names for existing functions
(`piecewise_constant_decay`, `match_filenames_once`); `warm_start` lives in warm_starting_util."""

import collections
import time

from ..platform import tf_logging as logging
from .checkpoint_management import latest_checkpoint
from .input import maybe_batch_join, maybe_shuffle_batch_join  # noqa: F401  (tf.train's names, kept here)
from .learning_rate_decay import piecewise_constant as piecewise_constant_decay  # noqa: F401
from ..ops.serialization_ops import match_filenames_once  # noqa: F401
from .warm_starting_util import warm_start  # noqa: F401

__all__ = ["Checkpoint", "CheckpointManager", "checkpoints_iterator", "basic_train_loop", "maybe_batch_join", "maybe_shuffle_batch_join", "VocabInfo",
           "warm_start", "piecewise_constant_decay", "match_filenames_once"]


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new checkpoint path in `checkpoint_dir` as it appears, waiting at least
    `min_interval_secs` between yields; stops after `timeout` seconds without one (unless
    `timeout_fn()` says to go on)."""
    last = None
    while True:
        deadline = None if timeout is None else time.time() + timeout
        path = None
        while True:
            path = latest_checkpoint(checkpoint_dir)
            if path is not None and path != last:
                break
            if deadline is not None and time.time() + 1 > deadline:
                path = None
                break
            time.sleep(1)
        if path is None:
            logging.info("Timed-out waiting for a checkpoint.")
            if timeout_fn is not None and not timeout_fn():
                continue
            return
        start = time.time()
        last = path
        yield path
        wait = start + min_interval_secs - time.time()
        if wait > 0:
            time.sleep(wait)


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Runs `train_step_fn(sess, *args, **kwargs)` in `supervisor.managed_session(master)` until
    the supervisor says to stop."""
    if args is None:
        args = []
    if kwargs is None:
        kwargs = {}
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except Exception as e:  # TF retries only on AbortedError
            from ..framework import errors
            if isinstance(e, errors.AbortedError):
                should_retry = True
            else:
                raise


class VocabInfo(collections.namedtuple("VocabInfo", ["new_vocab", "new_vocab_size", "num_oov_buckets",
                                                     "old_vocab", "old_vocab_size", "backup_initializer",
                                                     "axis"])):
    """How to remap a vocabulary-keyed variable when warm-starting (TF's tf.train.VocabInfo)."""

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
                backup_initializer=None, axis=0):
        if axis not in (0, 1):
            raise ValueError(f"The only supported values for the axis argument are 0 and 1.  Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size,
                               backup_initializer, axis)


from .tracking import Checkpoint, CheckpointManager  # noqa: E402,F401  (object-based checkpoints)
