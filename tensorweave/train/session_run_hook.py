"""`tf.train.SessionRunHook` and the values passed to hooks around each `MonitoredSession.run`.

A hook's methods are called in this order:

    begin()                                  before the session is created (the graph may change)
    after_create_session(session, coord)     once the session exists (the graph is finalized)
    before_run(run_context) -> SessionRunArgs or None      around every run() call
    after_run(run_context, run_values)
    end(session)                             at close, unless the loop ended by an exception
                                             (OutOfRangeError / StopIteration count as clean ends)
"""

import collections

__all__ = ["SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues"]


class SessionRunHook:
    """Hook to extend calls to MonitoredSession.run()."""

    def begin(self):
        """Called once before using the session; may add ops to the graph."""

    def after_create_session(self, session, coord):  # pylint: disable=unused-argument
        """Called when a new session is created (also after a recovery); the graph is final."""

    def before_run(self, run_context):  # pylint: disable=unused-argument
        """Called before each run(); return SessionRunArgs to add fetches/feeds, or None."""
        return None

    def after_run(self, run_context, run_values):  # pylint: disable=unused-argument
        """Called after each run() with the results of what before_run requested."""

    def end(self, session):  # pylint: disable=unused-argument
        """Called at the end of the session (not when it ends by an exception)."""


class SessionRunArgs(collections.namedtuple("SessionRunArgs", ["fetches", "feed_dict", "options"])):
    """What a hook adds to a run() call: fetches, feeds and RunOptions."""

    def __new__(cls, fetches, feed_dict=None, options=None):
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The run() call being made: its original arguments, the session, and a stop request."""

    def __init__(self, original_args, session):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self):
        return self._original_args

    @property
    def session(self):
        return self._session

    @property
    def stop_requested(self):
        return self._stop_requested

    def request_stop(self):
        """Asks the loop to stop: MonitoredSession.should_stop() becomes True after this run."""
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues", ["results", "options", "run_metadata"])):
    """The results of a hook's SessionRunArgs.fetches (same structure), and the run's
    options/metadata."""
