"""`tf.train.Supervisor`: TF1's legacy training helper (superseded by MonitoredTrainingSession,
kept because many programs use it):

    sv = tf.train.Supervisor(logdir="/tmp/train", is_chief=(task_index == 0))
    with sv.managed_session(server.target) as sess:
        while not sv.should_stop():
            sess.run(train_op)

Construction fills in the pieces that are USE_DEFAULT (init_op = global_variables_initializer,
ready_op = report_uninitialized_variables, local_init_op, saver, summary_op = merge_all, the
global step) from the graph's collections or new ops, then finalizes the graph.

The chief (is_chief=True) restores the latest checkpoint in `logdir` or runs init_op, writes
graph.pbtxt and the graph to the event file, and starts the standard services: a thread saving a
checkpoint every `save_model_secs` (the first one at start), a thread running the summary op every
`save_summaries_secs`, and a thread writing `global_step/sec`. A non-chief waits until the chief
has made the model ready (`ready_op` reports nothing uninitialized). As in TensorFlow, no
checkpoint is written when the supervisor stops: save explicitly with
`sv.saver.save(sess, sv.save_path, global_step=sv.global_step)` if the last steps matter.

The service threads are LooperThreads of the supervisor's Coordinator: they wait on the stop event
(never a blind sleep), so `stop()` ends them at once, and waits at most `stop_grace_secs` for
threads that do not check it.
"""

import contextlib
import os
import time

from ..framework.graph import GraphKeys, get_default_graph
from ..platform import tf_logging as logging
from . import training_util
from .coordinator import Coordinator, LooperThread
from .session_manager import SessionManager

__all__ = ["Supervisor"]

_VARIABLE_OP_TYPES = ("Variable", "VariableV2", "VarHandleOp")


def _session_log(status, checkpoint_path=None):
    from ..protos.event_pb2 import SessionLog
    if checkpoint_path is None:
        return SessionLog(status=status)
    return SessionLog(status=status, checkpoint_path=checkpoint_path)


class Supervisor:
    """Initializes or restores a model, runs the checkpoint and summary services, and stops
    everything together (see the module doc)."""

    # TensorFlow's value: `None` means "none", so the default marker is 0.
    USE_DEFAULT = 0

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT, is_chief=True,
                 init_op=USE_DEFAULT, init_feed_dict=None, local_init_op=USE_DEFAULT, logdir=None,
                 summary_op=USE_DEFAULT, saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120, checkpoint_basename="model.ckpt",
                 session_manager=None, summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        if graph is None:
            graph = get_default_graph()
        with graph.as_default():
            self._init_ready_op(ready_op, ready_for_local_init_op)
            self._init_init_op(init_op, init_feed_dict)
            self._init_local_init_op(local_init_op)
            self._init_saver(saver)
            self._init_summary_op(summary_op)
            self._init_global_step(global_step)
        self._graph = graph
        self._meta_graph_def = self._make_meta_graph_def()
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._recovery_wait_secs = recovery_wait_secs
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        self._local_init_run_options = local_init_run_options
        # Only a chief writes checkpoints and events.
        self._logdir = None
        self._save_summaries_secs = None
        self._save_model_secs = None
        self._save_path = None
        self._summary_writer = None
        self._graph_added_to_summary = False
        if self._is_chief:
            self._logdir = logdir
            self._save_summaries_secs = save_summaries_secs
            self._save_model_secs = save_model_secs
            if self._logdir:
                self._save_path = os.path.join(self._logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if self._logdir:
                    from ..summary.writer import FileWriter
                    self._summary_writer = FileWriter(self._logdir)
            else:
                self._summary_writer = summary_writer
        self._init_session_manager(session_manager)
        self._verify_setup()
        graph.finalize()

    # -- defaults ------------------------------------------------------------------------------------

    def _first_from_collection(self, key):
        items = get_default_graph().get_collection(key)
        return items[0] if items else None

    def _init_ready_op(self, ready_op, ready_for_local_init_op):
        from ..ops import variables
        if ready_op is Supervisor.USE_DEFAULT:
            ready_op = self._first_from_collection(GraphKeys.READY_OP)
            if ready_op is None:
                ready_op = variables.report_uninitialized_variables()
                get_default_graph().add_to_collection(GraphKeys.READY_OP, ready_op)
        self._ready_op = ready_op
        # TF keeps None as the default here (backward compatibility): only the collection's op.
        if ready_for_local_init_op is Supervisor.USE_DEFAULT:
            ready_for_local_init_op = self._first_from_collection(GraphKeys.READY_FOR_LOCAL_INIT_OP)
        self._ready_for_local_init_op = ready_for_local_init_op

    def _init_init_op(self, init_op, init_feed_dict):
        from ..ops import variables
        if init_op is Supervisor.USE_DEFAULT:
            init_op = self._first_from_collection(GraphKeys.INIT_OP)
            if init_op is None:
                init_op = variables.global_variables_initializer()
                get_default_graph().add_to_collection(GraphKeys.INIT_OP, init_op)
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict

    def _init_local_init_op(self, local_init_op):
        from ..ops import control_flow_ops, variables
        if local_init_op is Supervisor.USE_DEFAULT:
            local_init_op = self._first_from_collection(GraphKeys.LOCAL_INIT_OP)
            if local_init_op is None:
                local_init_op = control_flow_ops.group(variables.local_variables_initializer())
                get_default_graph().add_to_collection(GraphKeys.LOCAL_INIT_OP, local_init_op)
        self._local_init_op = local_init_op

    def _init_saver(self, saver):
        from ..ops import variables
        if saver is Supervisor.USE_DEFAULT:
            saver = self._first_from_collection(GraphKeys.SAVERS)
            if saver is None and variables.global_variables():
                from .saver import Saver
                saver = Saver()
                get_default_graph().add_to_collection(GraphKeys.SAVERS, saver)
        self._saver = saver

    def _init_summary_op(self, summary_op):
        if summary_op is Supervisor.USE_DEFAULT:
            summary_op = self._first_from_collection(GraphKeys.SUMMARY_OP)
            if summary_op is None:
                from ..summary import merge_all
                summary_op = merge_all()
                if summary_op is not None:
                    get_default_graph().add_to_collection(GraphKeys.SUMMARY_OP, summary_op)
        self._summary_op = summary_op

    def _init_global_step(self, global_step):
        if global_step is Supervisor.USE_DEFAULT:
            global_step = self._first_from_collection(GraphKeys.GLOBAL_STEP)
            if global_step is None:
                try:
                    global_step = get_default_graph().get_tensor_by_name("global_step:0")
                except (KeyError, ValueError):
                    global_step = None
                if global_step is not None and global_step.dtype.base_dtype not in _int_dtypes():
                    global_step = None
        self._global_step = global_step

    def _make_meta_graph_def(self):
        try:
            from ..framework.meta_graph import create_meta_graph_def
            return create_meta_graph_def(graph=self._graph_or_default(),
                                         saver_def=self._saver.saver_def if self._saver else None)
        except Exception as e:  # noqa: BLE001 - the meta graph only goes to the event file
            logging.debug("Supervisor: no MetaGraphDef for the event file: %s", e)
            return None

    def _graph_or_default(self):
        return getattr(self, "_graph", None) or get_default_graph()

    def _init_session_manager(self, session_manager):
        if session_manager is None:
            self._session_manager = SessionManager(
                local_init_op=self._local_init_op, ready_op=self._ready_op,
                ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
                recovery_wait_secs=self._recovery_wait_secs, local_init_run_options=self._local_init_run_options)
        else:
            self._session_manager = session_manager

    def _verify_setup(self):
        """A non-chief shares its variables with the chief: they must be placed (on a ps)."""
        if not self._is_chief:
            for op in self._graph.get_operations():
                if op.type in _VARIABLE_OP_TYPES and not op.device:
                    raise ValueError("When using replicas, all Variables must have their device set: %s" % op)

    # -- properties ----------------------------------------------------------------------------------

    is_chief = property(lambda self: self._is_chief)
    session_manager = property(lambda self: self._session_manager)
    coord = property(lambda self: self._coord)
    init_op = property(lambda self: self._init_op)
    init_feed_dict = property(lambda self: self._init_feed_dict)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    summary_writer = property(lambda self: self._summary_writer)
    summary_op = property(lambda self: self._summary_op)
    save_summaries_secs = property(lambda self: self._save_summaries_secs)
    global_step = property(lambda self: self._global_step)
    saver = property(lambda self: self._saver)
    save_model_secs = property(lambda self: self._save_model_secs)
    save_path = property(lambda self: self._save_path)

    # -- sessions ------------------------------------------------------------------------------------

    def _write_graph(self):
        """graph.pbtxt in logdir and the graph (+ meta graph) in the event file, once."""
        if not self._is_chief:
            return
        if self._logdir:
            from ..framework.graph_io import write_graph
            write_graph(self._graph.as_graph_def(add_shapes=True), self._logdir, "graph.pbtxt")
        if self._summary_writer and not self._graph_added_to_summary:
            self._summary_writer.add_graph(self._graph)
            if self._meta_graph_def is not None:
                self._summary_writer.add_meta_graph(self._meta_graph_def)
            self._graph_added_to_summary = True

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False,
                                    max_wait_secs=7200, start_standard_services=True):
        """The chief: a session restored from `logdir` or initialized, with the standard services
        started. Others: a session once the chief has made the model ready."""
        self._coord.clear_stop()
        if self._summary_writer:
            self._summary_writer.reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self.init_op, saver=self.saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config,
                init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                logging.info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config, max_wait_secs=max_wait_secs)
        if start_standard_services:
            logging.info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_standard_services(self, sess):
        """Starts the checkpoint, summary and steps/sec threads (chief only); returns them."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because only chief "
                               "supervisors can write events.")
        if not self._logdir:
            logging.warning("Standard services need a 'logdir' passed to the SessionManager")
            return None
        if self._global_step is not None and self._summary_writer:
            current_step = training_util.global_step(sess, self._global_step)
            from ..protos.event_pb2 import SessionLog
            self._summary_writer.add_session_log(_session_log(SessionLog.START), current_step)
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(_SummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(_StepCounterThread(self, sess))
        if self.saver and self._save_model_secs:
            threads.append(_CheckpointThread(self, sess))
        for t in threads:
            t.start()
        return threads

    def start_queue_runners(self, sess, queue_runners=None):
        """Starts the graph's queue runners (daemon threads under this supervisor's coordinator)."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Starts a thread calling `target(*args, **kwargs)` every `timer_interval_secs` until stop."""
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stops the services and queue runners, waits at most stop_grace_secs for them, re-raises
        an exception one of them reported, and closes the summary writer (after a STOP event)."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            if close_summary_writer and self._summary_writer:
                from ..protos.event_pb2 import SessionLog
                self._summary_writer.add_session_log(_session_log(SessionLog.STOP))
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Writes `summary` (a Summary proto or its bytes) at `global_step` (default: the current
        value of the supervisor's global step)."""
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self.global_step is not None:
            global_step = training_util.global_step(sess, self.global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True, close_summary_writer=True):
        """A context manager around prepare_or_wait_for_session: on leaving it stops every thread
        and closes the session. An exception in the block is reported to the coordinator and
        re-raised by stop(), except OutOfRangeError, which ends training cleanly."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(master=master, config=config,
                                                    start_standard_services=start_standard_services)
            yield sess
        except Exception as e:  # noqa: BLE001 - TF hands every exception to the coordinator
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    try:
                        sess.close()
                    except Exception:  # noqa: BLE001 - closing is best effort, as in TF
                        pass

    # TF's CamelCase aliases.
    Loop = loop
    PrepareSession = prepare_or_wait_for_session
    RequestStop = request_stop
    ShouldStop = should_stop
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop


def _int_dtypes():
    from ..framework import dtypes
    return (dtypes.int32, dtypes.int64)


class _CheckpointThread(LooperThread):
    """Saves a checkpoint to sv.save_path every save_model_secs (the first at start)."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_model_secs)
        self.name = "SupervisorCheckpoint"
        self._sv = sv
        self._sess = sess

    def run_loop(self):
        logging.info("Saving checkpoint to path %s", self._sv.save_path)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=self._sv.global_step)
        if self._sv.summary_writer and self._sv.global_step is not None:
            from ..protos.event_pb2 import SessionLog
            step = training_util.global_step(self._sess, self._sv.global_step)
            self._sv.summary_writer.add_session_log(_session_log(SessionLog.CHECKPOINT, self._sv.save_path), step)


class _SummaryThread(LooperThread):
    """Runs the summary op every save_summaries_secs and writes the result."""

    def __init__(self, sv, sess):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self.name = "SupervisorSummaries"
        self._sv = sv
        self._sess = sess

    def run_loop(self):
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        if self._sv.summary_writer:
            logging.info("Recording summary at step %s.", step)
            self._sv.summary_writer.add_summary(summary, step)


class _StepCounterThread(LooperThread):
    """Writes `<global step op name>/sec` every save_summaries_secs."""

    def __init__(self, sv, sess, step_counter=None):
        super().__init__(sv.coord, sv.save_summaries_secs)
        self.name = "SupervisorStepCounter"
        self._sv = sv
        self._sess = sess
        self._step_counter = sv.global_step if step_counter is None else step_counter
        self._summary_tag = "%s/sec" % self._step_counter.op.name
        self._last_time = 0.0
        self._last_step = 0

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = training_util.global_step(self._sess, self._step_counter)

    def run_loop(self):
        from ..protos.summary_pb2 import Summary
        step = training_util.global_step(self._sess, self._step_counter)
        added = step - self._last_step
        self._last_step = step
        now = time.time()
        elapsed = now - self._last_time
        self._last_time = now
        rate = added / elapsed if elapsed > 0 else float("inf")
        if self._sv.summary_writer:
            self._sv.summary_writer.add_summary(
                Summary(value=[Summary.Value(tag=self._summary_tag, simple_value=rate)]), step)
        logging.log_first_n(logging.INFO, "%s: %g", 10, self._summary_tag, rate)

