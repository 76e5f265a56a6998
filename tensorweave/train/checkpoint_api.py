"""The tf.train names for checkpoints and the monitored training loop (re-exports only)."""

from .saver import Saver, SaverDef  # noqa: F401
from .checkpoint_management import (checkpoint_exists, generate_checkpoint_state_proto,  # noqa: F401
                                    get_checkpoint_mtimes, get_checkpoint_state, latest_checkpoint,
                                    meta_graph_filename, remove_checkpoint, update_checkpoint_state,
                                    CheckpointState)
from .checkpoint_utils import (NewCheckpointReader, init_from_checkpoint, list_variables,  # noqa: F401
                               load_checkpoint, load_variable)

__all__ = ["Saver", "SaverDef", "checkpoint_exists", "generate_checkpoint_state_proto", "get_checkpoint_mtimes",
           "get_checkpoint_state", "latest_checkpoint", "remove_checkpoint", "update_checkpoint_state",
           "CheckpointState", "NewCheckpointReader", "init_from_checkpoint", "list_variables", "load_checkpoint",
           "load_variable"]

from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues  # noqa: F401,E402
from .basic_session_run_hooks import (CheckpointSaverHook, CheckpointSaverListener, FeedFnHook,  # noqa: F401,E402
                                      FinalOpsHook, GlobalStepWaiterHook, LoggingTensorHook,
                                      NanLossDuringTrainingError, NanTensorHook, ProfilerHook, ProgressBarHook,
                                      SecondOrStepTimer, StepCounterHook, StopAtStepHook, SummarySaverHook)
from .session_manager import SessionManager  # noqa: F401,E402
from .monitored_session import (ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession,  # noqa: F401,E402
                                Scaffold, SessionCreator, SingularMonitoredSession, WorkerSessionCreator)

__all__ += ["SessionRunArgs", "SessionRunContext", "SessionRunHook", "SessionRunValues", "CheckpointSaverHook",
            "CheckpointSaverListener", "FeedFnHook", "FinalOpsHook", "GlobalStepWaiterHook", "LoggingTensorHook",
            "NanLossDuringTrainingError", "NanTensorHook", "ProfilerHook", "ProgressBarHook", "SecondOrStepTimer",
            "StepCounterHook",
            "StopAtStepHook", "SummarySaverHook", "SessionManager", "ChiefSessionCreator", "MonitoredSession",
            "MonitoredTrainingSession", "Scaffold", "SessionCreator", "SingularMonitoredSession",
            "WorkerSessionCreator"]
