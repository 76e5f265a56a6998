"""`tf.train.QueueRunner`, `add_queue_runner`, `start_queue_runners` (TF1's API).

A QueueRunner holds a queue and a list of ops (usually enqueues); `create_threads` starts one
thread per op that runs it in a loop until the coordinator asks to stop or the queue is closed
(OutOfRangeError; the last such thread closes the queue). With a coordinator one more thread
closes the queue (cancelling pending enqueues) once stop is requested; an error in a thread is
reported to the coordinator.
"""

import threading
import weakref

from ..framework import errors
from ..framework.graph import GraphKeys, add_to_collection, get_default_graph
from ..platform import tf_logging as logging

__all__ = ["QueueRunner", "add_queue_runner", "start_queue_runners"]


def _callable_run(sess, op):
    try:
        return sess.run(op)
    except errors.OpError as e:
        raise _as_callable_error(e) from None


def _as_callable_error(e):
    """`e` as TF's runner sees it: it runs its enqueue op through a Session callable, whose
    errors carry the kernel's message and node tag only (no "Graph execution error:" header,
    no op, so no creation stack in str(e))."""
    if not errors.is_graph_execution_message(e.message):
        return e
    lines = e.message.split("\n")[2:]
    if lines and lines[0].startswith("Detected at node '"):
        lines = lines[next(i for i, line in enumerate(lines) if line.startswith("Node: '")) + 1:]
    return type(e)(None, None, "\n".join(lines))


class QueueRunner:
    """Runs `enqueue_ops` in threads (one each) to keep `queue` filled."""

    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
                 queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
        if queue_runner_def is not None:
            if queue or enqueue_ops:
                raise ValueError("queue_runner_def and queue are mutually exclusive.")
            self._init_from_proto(queue_runner_def, import_scope)
            return
        if not queue or not enqueue_ops:
            raise ValueError("Must provide queue and enqueue_ops.")
        self._queue = queue
        self._enqueue_ops = list(enqueue_ops)
        self._close_op = close_op if close_op is not None else queue.close()
        self._cancel_op = cancel_op if cancel_op is not None else queue.close(cancel_pending_enqueues=True)
        self._queue_closed_exception_types = tuple(queue_closed_exception_types or (errors.OutOfRangeError,))
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    def _init_from_proto(self, queue_runner_def, import_scope):
        """From a QueueRunnerDef: the queue and ops are the graph's elements of those names (the
        queue as its Operation, as in TF)."""
        g = get_default_graph()

        def element(name):
            return g.as_graph_element(f"{import_scope}/{name}" if import_scope else name)
        self._queue = element(queue_runner_def.queue_name)
        self._enqueue_ops = [element(n) for n in queue_runner_def.enqueue_op_name]
        self._close_op = element(queue_runner_def.close_op_name)
        self._cancel_op = element(queue_runner_def.cancel_op_name)
        codes = list(queue_runner_def.queue_closed_exception_types) or [errors.OUT_OF_RANGE]
        self._queue_closed_exception_types = tuple(errors.exception_type_from_error_code(c) for c in codes)
        self._lock = threading.Lock()
        self._runs_per_session = weakref.WeakKeyDictionary()
        self._exceptions_raised = []

    def to_proto(self, export_scope=None):
        """This runner as a QueueRunnerDef (None when it lies outside `export_scope`)."""
        from ..protos.queue_runner_pb2 import QueueRunnerDef

        def name(element):
            n = element.name
            if not export_scope:
                return n
            return n[len(export_scope) + 1:] if n.startswith(export_scope + "/") else None
        names = [name(self._queue), name(self._close_op), name(self._cancel_op)]
        enqueues = [name(op) for op in self._enqueue_ops]
        if None in names or None in enqueues:
            return None
        return QueueRunnerDef(queue_name=names[0], enqueue_op_name=enqueues, close_op_name=names[1],
                              cancel_op_name=names[2],
                              queue_closed_exception_types=[errors.error_code_from_exception_type(c)
                                                            for c in self._queue_closed_exception_types])

    @staticmethod
    def from_proto(queue_runner_def, import_scope=None):
        """A QueueRunner from a QueueRunnerDef (tf.train.QueueRunner.from_proto)."""
        return QueueRunner(queue_runner_def=queue_runner_def, import_scope=import_scope)

    queue = property(lambda self: self._queue)
    enqueue_ops = property(lambda self: self._enqueue_ops)
    close_op = property(lambda self: self._close_op)
    cancel_op = property(lambda self: self._cancel_op)
    queue_closed_exception_types = property(lambda self: self._queue_closed_exception_types)
    exceptions_raised = property(lambda self: self._exceptions_raised)

    @property
    def name(self):
        return self._queue.name

    def _run(self, sess, enqueue_op, coord=None):
        decremented = False
        try:
            while True:
                if coord and coord.should_stop():
                    break
                try:
                    _callable_run(sess, enqueue_op)
                except self._queue_closed_exception_types:
                    with self._lock:
                        self._runs_per_session[sess] -= 1
                        decremented = True
                        if self._runs_per_session[sess] == 0:
                            try:
                                sess.run(self._close_op)
                            except Exception as e:  # noqa: BLE001 - TF ignores it too
                                logging.debug("Ignored exception: %s", e)
                        return
        except Exception as e:  # noqa: BLE001 - reported to the coordinator
            if coord and coord.should_stop() and isinstance(e, errors.CancelledError):
                # The session was closed after the stop request (its blocked op cancelled):
                # the expected way a runner blocked in a run ends, not an error to report.
                logging.debug("QueueRunner %s cancelled after stop: %s", self.name, e)
            elif coord:
                coord.request_stop(e)
            else:
                logging.error("Exception in QueueRunner: %s", e)
                with self._lock:
                    self._exceptions_raised.append(e)
                raise
        finally:
            if not decremented:
                with self._lock:
                    self._runs_per_session[sess] -= 1

    def _close_on_stop(self, sess, cancel_op, coord):
        coord.wait_for_stop()
        try:
            sess.run(cancel_op)
        except Exception as e:  # noqa: BLE001
            logging.debug("Ignored exception: %s", e)

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        """The threads (started when `start`) running the enqueue ops in `sess`; [] when this
        runner's threads are already running for `sess`."""
        with self._lock:
            if self._runs_per_session.get(sess, 0) > 0:
                return []
            self._runs_per_session[sess] = len(self._enqueue_ops)
            self._exceptions_raised = []
        threads = [threading.Thread(target=self._run, args=(sess, op, coord), name=f"QueueRunner-{self.name}")
                   for op in self._enqueue_ops]
        if coord:
            threads.append(threading.Thread(target=self._close_on_stop, args=(sess, self._cancel_op, coord),
                                            name=f"QueueRunnerThread-{self.name}"))
        for t in threads:
            if coord:
                coord.register_thread(t)
            if daemon:
                t.daemon = True
            if start:
                t.start()
        return threads


def add_queue_runner(qr, collection=GraphKeys.QUEUE_RUNNERS):
    """Adds `qr` to the graph collection (default QUEUE_RUNNERS) start_queue_runners reads."""
    add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection=GraphKeys.QUEUE_RUNNERS):
    """Starts the threads of every QueueRunner in `collection`; returns them."""
    if sess is None:
        from ..framework.graph import get_default_session
        sess = get_default_session()
        if not sess:
            raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                             "sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    with sess.graph.as_default():
        threads = []
        for qr in get_default_graph().get_collection(collection):
            threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads


def _register_collection_proto():
    from ..framework.meta_graph import register_proto_function
    from ..protos.queue_runner_pb2 import QueueRunnerDef
    register_proto_function(GraphKeys.QUEUE_RUNNERS, QueueRunnerDef, lambda qr, export_scope=None:
                            qr.to_proto(export_scope=export_scope), QueueRunner.from_proto)


_register_collection_proto()
