"""`tf.train.SessionManager`: creates a session whose model is ready — restored from the latest
checkpoint when there is one, else initialized by init_op / init_fn — and runs the local init op."""

import time

import numpy as np

from ..framework import errors
from ..framework.graph import get_default_graph
from ..platform import tf_logging as logging
from . import checkpoint_management

__all__ = ["SessionManager"]


def _ready(op, sess, msg):
    """(True, None) if `op` (a report_uninitialized_variables tensor) reports nothing."""
    if op is None:
        return True, None
    try:
        names = sess.run(op)
    except errors.FailedPreconditionError as e:
        if "uninitialized" not in str(e):
            raise
        return False, str(e)
    names = np.asarray(names)
    if names.size == 0:
        return True, None
    shown = ", ".join((n.decode() if isinstance(n, bytes) else str(n)) for n in names.ravel()[:10])
    return False, f"Variables not initialized: {shown}"


class SessionManager:
    """Creates sessions for a chief (prepare_session) or a worker (wait_for_session)."""

    def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None, graph=None,
                 recovery_wait_secs=30, local_init_run_options=None, local_init_feed_dict=None):
        if graph is None:
            graph = get_default_graph()
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._graph = graph
        self._recovery_wait_secs = recovery_wait_secs
        self._target = None
        if ready_for_local_init_op is not None and local_init_op is None:
            raise ValueError("If you pass a ready_for_local_init_op you must also pass a local_init_op , "
                             "ready_for_local_init_op [%s]" % ready_for_local_init_op)

    def _new_session(self, master, config):
        from ..runtime.session import Session
        self._target = master
        return Session(master, graph=self._graph, config=config)

    def _restore_checkpoint(self, master, saver=None, checkpoint_dir=None, checkpoint_filename_with_path=None,
                            wait_for_checkpoint=False, max_wait_secs=7200, config=None):
        sess = self._new_session(master, config)
        if checkpoint_dir and checkpoint_filename_with_path:
            raise ValueError("Can not provide both checkpoint_dir and checkpoint_filename_with_path.")
        if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
            return sess, False
        if checkpoint_filename_with_path:
            saver.restore(sess, checkpoint_filename_with_path)
            return sess, True
        wait_time = 0
        ckpt = checkpoint_management.get_checkpoint_state(checkpoint_dir)
        while not ckpt or not ckpt.model_checkpoint_path:
            if wait_for_checkpoint and wait_time < max_wait_secs:
                logging.info("Waiting for checkpoint to be available.")
                time.sleep(self._recovery_wait_secs)
                wait_time += self._recovery_wait_secs
                ckpt = checkpoint_management.get_checkpoint_state(checkpoint_dir)
            else:
                return sess, False
        saver.restore(sess, ckpt.model_checkpoint_path)
        saver.recover_last_checkpoints(ckpt.all_model_checkpoint_paths)
        return sess, True

    def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None,
                        checkpoint_filename_with_path=None):
        """A session with the model restored from a checkpoint, else initialized."""
        sess, is_loaded_from_checkpoint = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir, checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
        if not is_loaded_from_checkpoint:
            if init_op is None and not init_fn and self._local_init_op is None:
                raise RuntimeError("Model is not initialized and no init_op or init_fn or local_init_op was given")
            if init_op is not None:
                sess.run(init_op, feed_dict=init_feed_dict)
            if init_fn:
                init_fn(sess)
        local_init_success, msg = self._try_run_local_init_op(sess)
        if not local_init_success:
            raise RuntimeError("Init operations did not make model ready for local_init.  Init op: %s, init fn: "
                               "%s, error: %s" % (_maybe_name(init_op), init_fn, msg))
        is_ready, msg = _ready(self._ready_op, sess, "Model not ready")
        if not is_ready:
            raise RuntimeError("Init operations did not make model ready.  Init op: %s, init fn: %s, "
                               "local_init_op: %s, error: %s" % (_maybe_name(init_op), init_fn,
                                                                 self._local_init_op, msg))
        return sess

    def recover_session(self, master, saver=None, checkpoint_dir=None, wait_for_checkpoint=False,
                        max_wait_secs=7200, config=None, checkpoint_filename_with_path=None):
        """(session, initialized): a session restored from a checkpoint if there is one."""
        sess, is_loaded_from_checkpoint = self._restore_checkpoint(
            master, saver, checkpoint_dir=checkpoint_dir, checkpoint_filename_with_path=checkpoint_filename_with_path,
            wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
        local_init_success, msg = self._try_run_local_init_op(sess)
        if not is_loaded_from_checkpoint:
            return sess, False
        restoring_file = checkpoint_dir or checkpoint_filename_with_path
        if not local_init_success:
            logging.info("Restoring model from %s did not make model ready for local init: %s", restoring_file, msg)
            return sess, False
        is_ready, msg = _ready(self._ready_op, sess, "Model not ready")
        if not is_ready:
            logging.info("Restoring model from %s did not make model ready: %s", restoring_file, msg)
            return sess, False
        logging.info("Restored model from %s", restoring_file)
        return sess, is_ready

    def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
        """A session once another task (the chief) has made the model ready."""
        self._target = master
        if max_wait_secs is None:
            max_wait_secs = float("Inf")
        start = time.time()
        while True:
            sess = self._new_session(master, config)
            local_init_success, msg = self._try_run_local_init_op(sess)
            if local_init_success:
                is_ready, msg = _ready(self._ready_op, sess, "Model not ready")
                if is_ready:
                    return sess
            sess.close()
            remaining = max_wait_secs - (time.time() - start)
            if remaining < self._recovery_wait_secs:
                raise errors.DeadlineExceededError(None, None, "Session was not ready after waiting %d secs."
                                                   % max_wait_secs)
            logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, ready: %s",
                         self._ready_for_local_init_op, msg)
            time.sleep(self._recovery_wait_secs)

    def _try_run_local_init_op(self, sess):
        if self._local_init_op is not None:
            is_ready_for_local_init, msg = _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")
            if not is_ready_for_local_init:
                return False, msg
            logging.info("Running local_init_op.")
            sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict)
            logging.info("Done running local_init_op.")
        return True, None


def _maybe_name(obj):
    if obj is None:
        return None
    return getattr(obj, "name", str(obj))
