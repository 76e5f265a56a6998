"""`tf.train.CheckpointManager`: numbers the checkpoints of a `tf.train.Checkpoint`, keeps the
last `max_to_keep` (plus one every `keep_checkpoint_every_n_hours`) and records them, with
their timestamps, in the directory's `checkpoint` state file."""

import collections
import os
import time

from ...framework.graph import get_default_session
from ...platform import tf_logging as logging
from .. import checkpoint_format as _fmt
from ..checkpoint_management import get_checkpoint_state, update_checkpoint_state_internal

__all__ = ["CheckpointManager"]


class CheckpointManager:
    """Manages the checkpoints of `checkpoint` in `directory` (named `<checkpoint_name>-<n>`)."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None, init_fn=None,
                 last_checkpoint_step=None):
        self._checkpoint = checkpoint
        self._save_counter_assign = None
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError("Expected a positive integer or `None` for `max_to_keep`, got %d." % (max_to_keep,))
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        directory = os.fspath(directory)
        self._directory = directory
        self._checkpoint_prefix = os.path.join(directory, checkpoint_name)
        self._init_fn = init_fn
        if checkpoint_interval is not None:
            if step_counter is None:
                raise ValueError("`step_counter` should be passed if `checkpoint_interval` is not None.")
            self._last_checkpoint_step = last_checkpoint_step
            self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        recovered = get_checkpoint_state(directory)
        now = time.time()
        self._maybe_delete = collections.OrderedDict()
        if recovered is None:
            self._latest_checkpoint = None
            self._last_preserved_timestamp = now - 1.0
        else:
            self._latest_checkpoint = recovered.model_checkpoint_path
            self._last_preserved_timestamp = recovered.last_preserved_timestamp
            if now < self._last_preserved_timestamp:
                logging.warning("time.time() returned a value %f seconds behind the last preserved "
                                "checkpoint timestamp.", self._last_preserved_timestamp - now)
                self._last_preserved_timestamp = now
            stamps = list(recovered.all_model_checkpoint_timestamps)
            paths = list(recovered.all_model_checkpoint_paths)
            if not stamps:
                stamps = [self._last_preserved_timestamp] * len(paths)
            for filename, stamp in zip(paths, stamps):
                stamp = min(stamp, now)
                if stamp > self._last_preserved_timestamp:
                    self._maybe_delete[filename] = stamp

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        """The prefix of the newest checkpoint, or None."""
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The managed checkpoints, oldest first."""
        return list(self._maybe_delete.keys())

    @property
    def checkpoint(self):
        return self._checkpoint

    def _sweep(self):
        if not self._max_to_keep:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            filename, stamp = self._maybe_delete.popitem(last=False)
            if (self._keep_checkpoint_every_n_hours
                    and stamp - self._keep_checkpoint_every_n_hours * 3600.0 >= self._last_preserved_timestamp):
                self._last_preserved_timestamp = stamp
                continue
            _fmt.delete_bundle(filename)

    def _record_state(self):
        filenames, stamps = zip(*self._maybe_delete.items())
        update_checkpoint_state_internal(self._directory, model_checkpoint_path=self._latest_checkpoint,
                                         all_model_checkpoint_paths=filenames, all_model_checkpoint_timestamps=stamps,
                                         last_preserved_timestamp=self._last_preserved_timestamp,
                                         save_relative_paths=True)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Saves a checkpoint numbered `checkpoint_number` (an int or a variable/tensor such as
        the global step; default: the incremented save counter), deletes the ones beyond
        `max_to_keep` and returns its path (None when `checkpoint_interval` skips it)."""
        from ..training_util import global_step
        session = get_default_session()
        if self._checkpoint_interval is not None:
            current = int(global_step(session, self._step_counter))
            if self._last_checkpoint_step is not None:
                if current == self._last_checkpoint_step:
                    return None
                if check_interval and current < self._last_checkpoint_step + self._checkpoint_interval:
                    return None
            self._last_checkpoint_step = current
        if session is None:
            raise ValueError("CheckpointManager.save() in graph mode needs a default session "
                             "(`with tf.Session() as sess:` or `with sess.as_default():`).")
        if self._checkpoint._maybe_create_save_counter():
            session.run(self._checkpoint.save_counter.initializer)
        save_counter = self._checkpoint.save_counter
        if self._save_counter_assign is None:
            self._save_counter_assign = save_counter.assign_add(1, read_value=False)
        session.run(self._save_counter_assign)
        if checkpoint_number is None:
            checkpoint_number = save_counter
        if not isinstance(checkpoint_number, int):
            checkpoint_number = global_step(session, checkpoint_number)
        prefix = "%s-%d" % (self._checkpoint_prefix, checkpoint_number)
        save_path = self._checkpoint.write(prefix, session=session, options=options)
        stamp = time.time()
        self._maybe_delete.pop(save_path, None)
        self._maybe_delete[save_path] = stamp
        self._latest_checkpoint = save_path
        self._record_state()
        self._sweep()
        self._record_state()
        return save_path

    def restore_or_initialize(self):
        """Restores the latest checkpoint if there is one (returns its path), else runs
        `init_fn` (returns None)."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                from ..training_util import global_step
                self._last_checkpoint_step = int(global_step(get_default_session(), self._step_counter))
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
            logging.info("Customized initialization is done through the passed `init_fn`.")
        return None
