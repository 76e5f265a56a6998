"""The monitored training loop: Scaffold, MonitoredSession, SingularMonitoredSession and
MonitoredTrainingSession, with TF's semantics:

    with tf.train.MonitoredTrainingSession(checkpoint_dir=d, hooks=[StopAtStepHook(1000)]) as sess:
        while not sess.should_stop():
            sess.run(train_op)

Creating the session calls every hook's begin(), finalizes the graph, restores the latest
checkpoint in checkpoint_dir (variables including the global step) or runs the init op, then
calls after_create_session(). Each run() asks every hook's before_run() for extra fetches and
feeds, runs once, and hands each hook its results in after_run(). Leaving the `with` block
calls end() on the hooks (not after an exception, except OutOfRangeError/StopIteration, which
end the loop cleanly and are swallowed) and closes the session.

MonitoredSession recovers from AbortedError/UnavailableError (a parameter server restarting) by
creating a new session, which restores from the latest checkpoint.
"""

from ..framework import errors
from ..framework.graph import GraphKeys, get_default_graph
from ..platform import tf_logging as logging
from . import basic_session_run_hooks as _hooks
from .session_manager import SessionManager
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues

__all__ = ["Scaffold", "SessionCreator", "ChiefSessionCreator", "WorkerSessionCreator", "MonitoredSession",
           "SingularMonitoredSession", "MonitoredTrainingSession", "USE_DEFAULT"]

USE_DEFAULT = object()

_PREEMPTION_ERRORS = (errors.AbortedError, errors.UnavailableError)


class Scaffold:
    """The pieces that create or restore a model: init_op, ready_op, ready_for_local_init_op,
    local_init_op, summary_op and saver; finalize() fills the missing ones with defaults (from the
    graph's collections when there) and finalizes the graph."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None,
                 copy_from_scaffold=None, local_init_feed_dict=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")
            coalesce = lambda a, b: a if a is not None else b  # noqa: E731
            init_op = coalesce(init_op, copy_from_scaffold.init_op)
            init_feed_dict = coalesce(init_feed_dict, copy_from_scaffold.init_feed_dict)
            init_fn = coalesce(init_fn, copy_from_scaffold._user_init_fn)
            ready_op = coalesce(ready_op, copy_from_scaffold.ready_op)
            ready_for_local_init_op = coalesce(ready_for_local_init_op, copy_from_scaffold.ready_for_local_init_op)
            local_init_op = coalesce(local_init_op, copy_from_scaffold.local_init_op)
            local_init_feed_dict = coalesce(local_init_feed_dict, copy_from_scaffold.local_init_feed_dict)
            summary_op = coalesce(summary_op, copy_from_scaffold.summary_op)
            saver = coalesce(saver, copy_from_scaffold.saver)
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._local_init_feed_dict = local_init_feed_dict
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self):
        """Creates the missing ops (adding them to their collections) and finalizes the graph."""
        # (no shortcut for a finalized graph, as in TF: ops already in their collections are
        # picked up, and only a missing one would try to modify the graph)
        graph = get_default_graph()
        from ..ops import array_ops, control_flow_ops, variables
        from . import resources
        # TF's defaults op for op: the resource checks (a NoOp / an empty Const without any)
        # are concatenated onto the variable checks.
        if self._init_op is None:
            self._init_op = Scaffold.get_or_default(
                "init_op", GraphKeys.INIT_OP,
                lambda: control_flow_ops.group(variables.global_variables_initializer(),
                                               resources.initialize_resources(resources.shared_resources()),
                                               *graph.get_collection("saved_model_initializers")))
        if self._ready_op is None:
            self._ready_op = Scaffold.get_or_default(
                "ready_op", GraphKeys.READY_OP,
                lambda: array_ops.concat([variables.report_uninitialized_variables(),
                                          resources.report_uninitialized_resources()], 0))
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = Scaffold.get_or_default(
                "ready_for_local_init_op", GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: array_ops.concat([
                    variables.report_uninitialized_variables(variables.global_variables()),
                    resources.report_uninitialized_resources(resources.shared_resources())], 0))
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default("local_init_op", GraphKeys.LOCAL_INIT_OP,
                                                          Scaffold.default_local_init_op)
        if self._summary_op is None:
            self._summary_op = Scaffold.get_or_default("summary_op", GraphKeys.SUMMARY_OP, _merge_all_summaries)
        if self._saver is None:
            self._saver = _get_saver_or_default()
        if hasattr(self._saver, "build"):
            self._saver.build()
        graph.finalize()
        logging.info("Graph was finalized.")
        return self

    init_fn = property(lambda self: self._init_fn)
    init_op = property(lambda self: self._init_op)
    ready_op = property(lambda self: self._ready_op)
    ready_for_local_init_op = property(lambda self: self._ready_for_local_init_op)
    local_init_op = property(lambda self: self._local_init_op)
    local_init_feed_dict = property(lambda self: self._local_init_feed_dict)
    summary_op = property(lambda self: self._summary_op)
    saver = property(lambda self: self._saver)
    init_feed_dict = property(lambda self: self._init_feed_dict)

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        """The single op in `collection_key`, or a new one from `default_constructor` (added to it)."""
        graph = get_default_graph()
        elements = graph.get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError("More than one item in the collection {}. Please indicate which one to use by "
                                   "passing it to the tf.Scaffold constructor as:  tf.Scaffold({}=item to use)"
                                   .format(collection_key, arg_name))
            op = elements[0]
        else:
            op = default_constructor()
            if op is not None:
                graph.add_to_collection(collection_key, op)
        return op

    @staticmethod
    def default_local_init_op():
        """TF's default: local variables, lookup tables and local resources initialized."""
        from ..ops import control_flow_ops, lookup_ops, variables
        from . import resources
        return control_flow_ops.group(variables.local_variables_initializer(), lookup_ops.tables_initializer(),
                                      resources.initialize_resources(resources.local_resources()))


def _merge_all_summaries():
    try:
        from ..summary import merge_all
    except ImportError:
        return None
    return merge_all()


def _get_saver_or_default():
    """The saver in the SAVERS collection, or a new (sharded) one added to it."""
    from .saver import Saver
    graph = get_default_graph()
    savers = graph.get_collection(GraphKeys.SAVERS)
    if savers:
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection {}. Please indicate which one to use by passing "
                               "it to the constructor.".format(GraphKeys.SAVERS))
        return savers[0]
    saver = Saver(sharded=True, allow_empty=True)
    graph.add_to_collection(GraphKeys.SAVERS, saver)
    return saver


# -- session creators --------------------------------------------------------------------------------

class SessionCreator:
    """A factory for tf.Session."""

    def create_session(self):
        raise NotImplementedError("create_session is not implemented for {}.".format(self))


class ChiefSessionCreator(SessionCreator):
    """Creates a session that restores from checkpoint_dir or initializes the model."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._session_manager = None
        self._master = master
        self._config = config

    def _get_session_manager(self):
        if self._session_manager is None:
            self._session_manager = SessionManager(
                local_init_op=self._scaffold.local_init_op, local_init_feed_dict=self._scaffold.local_init_feed_dict,
                ready_op=self._scaffold.ready_op, ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
                graph=get_default_graph())
        return self._session_manager

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path, config=self._config,
            init_op=self._scaffold.init_op, init_feed_dict=self._scaffold.init_feed_dict,
            init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(SessionCreator):
    """Creates a session once the chief has initialized the model."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60):
        self._scaffold = scaffold or Scaffold()
        self._session_manager = None
        self._master = master
        self._config = config
        self._max_wait_secs = max_wait_secs

    def _get_session_manager(self):
        if self._session_manager is None:
            self._session_manager = SessionManager(
                local_init_op=self._scaffold.local_init_op, local_init_feed_dict=self._scaffold.local_init_feed_dict,
                ready_op=self._scaffold.ready_op, ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
                graph=get_default_graph())
        return self._session_manager

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().wait_for_session(self._master, config=self._config,
                                                            max_wait_secs=self._max_wait_secs)


# -- wrapped sessions ------------------------------------------------------------------------------

class _WrappedSession:
    """Forwards to an inner session; should_stop() once it is closed or asks to stop."""

    def __init__(self, sess):
        self._sess = sess
        self._wrapped_is_stoppable = isinstance(self._sess, _WrappedSession)

    @property
    def graph(self):
        return self._sess.graph

    @property
    def sess_str(self):
        return self._sess.sess_str

    def should_stop(self):
        if self._check_stop():
            return True
        if self._sess:
            return self._wrapped_is_stoppable and self._sess.should_stop()
        return True

    def _check_stop(self):
        return False

    def close(self):
        if self._sess:
            try:
                self._sess.close()
            except _PREEMPTION_ERRORS as e:
                logging.error("An error occurred when attempting to close the session. This may be due to a "
                              "preemption in a connected worker or parameter server. Error: %s", e)
            finally:
                self._sess = None

    def run(self, *args, **kwargs):
        return self._sess.run(*args, **kwargs)

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        run_with_hooks = run_with_hooks or self.run
        return step_fn(_MonitoredSession.StepContext(raw_session, run_with_hooks))


class _RecoverableSession(_WrappedSession):
    """Recreates the session (restoring from the latest checkpoint) after a preemption error."""

    def __init__(self, sess_creator):
        self._sess_creator = sess_creator
        super().__init__(self._create_session())

    def _create_session(self):
        while True:
            try:
                return self._sess_creator.create_session()
            except _PREEMPTION_ERRORS as e:
                logging.info("An error was raised while a session was being created. This may be due to a "
                             "preemption of a connected worker or parameter server. A new session will be "
                             "created. This error may also occur due to a gRPC failure caused by high memory or "
                             "network bandwidth usage in the parameter servers. If this error occurs "
                             "repeatedly, try increasing the number of parameter servers assigned to the job. "
                             "Error: %s", e)

    def _check_stop(self):
        try:
            if self._sess:
                return self._sess._check_stop()
            return False
        except _PREEMPTION_ERRORS as e:
            logging.info("An error was raised while considering whether the session is complete. This may be due "
                         "to a preemption in a connected worker or parameter server. The current session will be "
                         "closed and a new session will be created. Error: %s", e)
            self.close()
            self._sess = self._create_session()
            return False

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)
            except _PREEMPTION_ERRORS as e:
                logging.info("An error was raised. This may be due to a preemption in a connected worker or "
                             "parameter server. The current session will be closed and a new session will be "
                             "created. This error may also occur due to a gRPC failure caused by high memory or "
                             "network bandwidth usage in the parameter servers. If this error occurs repeatedly, "
                             "try increasing the number of parameter servers assigned to the job. Error: %s", e)
                self.close()
                self._sess = None

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                run_with_hooks = self._sess.run
                return self._sess.run_step_fn(step_fn, self._sess._tf_sess(), run_with_hooks)
            except _PREEMPTION_ERRORS as e:
                logging.info("An error was raised. The current session will be closed and a new session will "
                             "be created. Error: %s", e)
                self.close()
                self._sess = None


def _fn_args(fn):
    """The positional argument names of `fn` as TF's function_utils.fn_args gives them: a
    partial's remaining ones, a callable object's __call__, a bound method's without self."""
    import functools
    import inspect
    if isinstance(fn, functools.partial):
        args = _fn_args(fn.func)
        return tuple(a for a in args[len(fn.args):] if a not in (fn.keywords or {}))
    if not inspect.isfunction(fn) and not inspect.ismethod(fn) and hasattr(fn, "__call__"):
        fn = fn.__call__
    args = list(inspect.getfullargspec(fn).args)
    if inspect.ismethod(fn) and args:
        args.pop(0)
    return tuple(args)


class _CoordinatedSession(_WrappedSession):
    """The session plus a Coordinator (queue-runner threads, hooks' threads): stops when the
    coordinator stops, re-raises an error a thread reported; closing it asks the threads to
    stop, joins them (at most stop_grace_period_secs), then closes the session."""

    def __init__(self, sess, coord=None, stop_grace_period_secs=120):
        super().__init__(sess)
        self._coord = coord
        self._stop_grace_period_secs = stop_grace_period_secs

    def _check_stop(self):
        if self._coord is None:
            return False
        self._coord.raise_requested_exception()
        return self._coord.should_stop()

    def close(self):
        if self._coord is None:
            return super().close()
        self._coord.request_stop()
        try:
            self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs, ignore_live_threads=True)
        finally:
            try:
                _WrappedSession.close(self)
            except Exception:  # noqa: BLE001 - TF ignores errors closing here too
                pass

    def run(self, *args, **kwargs):
        try:
            return self._sess.run(*args, **kwargs)
        except _PREEMPTION_ERRORS:
            raise
        except Exception:
            # A thread's error (e.g. the chief's queue runner losing a ps) is the root cause.
            if self._coord is not None:
                try:
                    self._coord.raise_requested_exception()
                except _PREEMPTION_ERRORS:
                    raise
                except Exception:  # noqa: BLE001
                    pass
            raise

    def _tf_sess(self):
        return self._sess._tf_sess()


class _HookedSession(_WrappedSession):
    """Calls the hooks' before_run/after_run around each run."""

    def __init__(self, sess, hooks):
        super().__init__(sess)
        self._hooks = hooks
        self._should_stop = False

    def _check_stop(self):
        return self._should_stop

    def _tf_sess(self):
        return self._sess

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        actual_fetches = {"caller": fetches}
        run_context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict), session=self._sess)
        # TF always hands the hooks a RunOptions (hooks' options merged in) and a RunMetadata.
        from ..runtime.config import RunMetadata, RunOptions
        options = options or RunOptions()
        feed_dict = self._call_hook_before_run(run_context, actual_fetches, feed_dict, options)
        run_metadata = run_metadata or RunMetadata()
        outputs = self._sess.run(actual_fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)
        for hook in self._hooks:
            hook.after_run(run_context, SessionRunValues(results=outputs[hook] if hook in outputs else None,
                                                         options=options, run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]

    def _call_hook_before_run(self, run_context, fetch_dict, user_feed_dict, options=None):
        hook_feeds = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is not None:
                if request.fetches is not None:
                    fetch_dict[hook] = request.fetches
                if request.feed_dict:
                    _raise_if_feeds_intersect(hook_feeds, request.feed_dict, "Same tensor is fed by two hooks.")
                    hook_feeds.update(request.feed_dict)
                if request.options and options is not None:
                    _merge_run_options(options, request.options)
        if not hook_feeds:
            return user_feed_dict
        if not user_feed_dict:
            return hook_feeds
        _raise_if_feeds_intersect(user_feed_dict, hook_feeds, "Same tensor is fed by a SessionRunHook and user.")
        hook_feeds.update(user_feed_dict)
        return hook_feeds


def _merge_run_options(options, incoming):
    """TF's _HookedSession._merge_run_options: the larger trace level and timeout win."""
    options.trace_level = max(options.trace_level, incoming.trace_level)
    options.timeout_in_ms = max(options.timeout_in_ms, incoming.timeout_in_ms)
    options.inter_op_thread_pool = max(options.inter_op_thread_pool, incoming.inter_op_thread_pool)
    if getattr(incoming, "report_tensor_allocations_upon_oom", False):
        options.report_tensor_allocations_upon_oom = True
    if getattr(incoming, "output_partition_graphs", False):
        options.output_partition_graphs = True


def _raise_if_feeds_intersect(feeds1, feeds2, message):
    intersection = set(feeds1.keys()) & set(feeds2.keys())
    if intersection:
        raise RuntimeError(message + " Conflict(s): " + str(list(intersection)))


class _HookedSessionCreator(SessionCreator):
    """Creates the session, then calls after_create_session on every hook."""

    def __init__(self, session_creator, hooks, stop_grace_period_secs):
        self._session_creator = session_creator
        self._hooks = hooks
        self._stop_grace_period_secs = stop_grace_period_secs
        self.tf_sess = None

    def create_session(self):
        self.tf_sess = self._session_creator.create_session()
        # Like TF: threads of the QUEUE_RUNNERS collection start with a Coordinator that the hooks
        # get too (no exception type counts as a clean stop).
        from .coordinator import Coordinator
        from .queue_runner import start_queue_runners
        self.coord = Coordinator(clean_stop_exception_types=[])
        if self.tf_sess.graph.get_collection(GraphKeys.QUEUE_RUNNERS):
            start_queue_runners(sess=self.tf_sess, coord=self.coord)
        for hook in self._hooks:
            hook.after_create_session(self.tf_sess, self.coord)
        return _CoordinatedSession(_HookedSession(self.tf_sess, self._hooks), self.coord,
                                   self._stop_grace_period_secs)


# -- monitored sessions ------------------------------------------------------------------------------

class _MonitoredSession:

    def __init__(self, session_creator, hooks, should_recover, stop_grace_period_secs=120):
        self._graph_was_finalized = get_default_graph().finalized
        self._hooks = list(hooks or [])
        for h in self._hooks:
            h.begin()
        self._session_creator = session_creator or ChiefSessionCreator()
        self._hooked_creator = _HookedSessionCreator(self._session_creator, self._hooks, stop_grace_period_secs)
        if should_recover:
            self._sess = _RecoverableSession(self._hooked_creator)
        else:
            self._sess = self._hooked_creator.create_session()

    @property
    def graph(self):
        return get_default_graph() if self._tf_sess() is None else self._tf_sess().graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs `fetches` with the hooks' extra fetches and feeds; returns the caller's results."""
        return self._sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)

    def run_step_fn(self, step_fn):
        """Calls step_fn(step_context) where step_context.run_with_hooks runs with the hooks,
        step_context.session is the raw session and step_context.request_stop() ends the loop."""
        step_fn_arguments = _fn_args(step_fn)
        if step_fn_arguments not in (("step_context",), ("self", "step_context")):
            raise ValueError("`step_fn` may either have one `step_context` argument, or `self` and "
                             "`step_context` arguments if it's an instance method. Got {} instead."
                             .format(step_fn_arguments))
        # step_context.request_stop() raises StopIteration out of here, as TF's does; a
        # `with MonitoredSession()` block swallows it and closes the session.
        return self._sess.run_step_fn(step_fn, self._tf_sess(), run_with_hooks=None)

    class StepContext:
        """What run_step_fn hands to step_fn: the raw session, run_with_hooks and request_stop."""

        def __init__(self, session, run_with_hooks_fn):
            self._session = session
            self._run_with_hooks_fn = run_with_hooks_fn

        @property
        def session(self):
            return self._session

        def run_with_hooks(self, *args, **kwargs):
            return self._run_with_hooks_fn(*args, **kwargs)

        def request_stop(self):
            raise StopIteration("step_fn has requested the iterations to stop.")

    def should_stop(self):
        return self._sess is None or self._sess.should_stop()

    def close(self):
        self._close_internal()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        # OutOfRangeError / StopIteration end the loop cleanly: swallow them.
        return exception_type is None

    def _close_internal(self, exception_type=None):
        try:
            if not exception_type:
                for h in self._hooks:
                    h.end(self._hooked_creator.tf_sess)
        finally:
            try:
                if self._sess is None:
                    raise RuntimeError("Session is already closed.")
                self._sess.close()
            finally:
                self._sess = None
                self._hooked_creator.tf_sess = None
                if not self._graph_was_finalized:
                    get_default_graph()._unsafe_unfinalize()

    def _is_closed(self):
        return self._sess is None

    def _tf_sess(self):
        return self._hooked_creator.tf_sess


class MonitoredSession(_MonitoredSession):
    """A session that runs hooks, initializes or restores the model, and recovers from
    AbortedError/UnavailableError by creating a new session."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator, hooks, should_recover=True, stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A MonitoredSession without recovery, for a single process; raw_session() is the tf.Session."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        session_creator = ChiefSessionCreator(scaffold=scaffold, master=master, config=config,
                                              checkpoint_dir=checkpoint_dir,
                                              checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(session_creator, hooks, should_recover=False, stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        return self._tf_sess()


def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None, scaffold=None, hooks=None,  # noqa: N802
                             chief_only_hooks=None, save_checkpoint_secs=USE_DEFAULT,
                             save_summaries_steps=USE_DEFAULT, save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100, max_wait_secs=7200,
                             save_checkpoint_steps=USE_DEFAULT, summary_dir=None, save_graph_def=True):
    """A MonitoredSession set up for training: the chief restores from / saves checkpoints to
    `checkpoint_dir` (every 600 s by default, or every `save_checkpoint_steps`), writes summaries
    every 100 steps and logs global steps/sec; non-chief workers wait for the chief's model."""
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None
    scaffold = scaffold or Scaffold()
    all_hooks = []
    if is_chief and chief_only_hooks:
        all_hooks.extend(chief_only_hooks)
    if not is_chief:
        session_creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config,
                                               max_wait_secs=max_wait_secs)
        return MonitoredSession(session_creator=session_creator, hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)
    session_creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir, master=master,
                                          config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(_hooks.StepCounterHook(output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(_hooks.SummarySaverHook(scaffold=scaffold, save_steps=save_summaries_steps,
                                                     save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(_hooks.CheckpointSaverHook(checkpoint_dir, save_steps=save_checkpoint_steps,
                                                        save_secs=save_checkpoint_secs, scaffold=scaffold,
                                                        save_graph_def=save_graph_def))
    if hooks:
        all_hooks.extend(hooks)
    return MonitoredSession(session_creator=session_creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs)

