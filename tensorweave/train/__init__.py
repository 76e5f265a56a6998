"""The tf.train namespace: optimizers, learning-rate schedules and the global step."""

from .optimizer import Optimizer
from .gradient_descent import GradientDescentOptimizer
from .momentum import MomentumOptimizer
from .adagrad import AdagradOptimizer
from .rmsprop import RMSPropOptimizer
from .adam import AdamOptimizer
from .adadelta import AdadeltaOptimizer
from .ftrl import FtrlOptimizer
from .proximal_adagrad import ProximalAdagradOptimizer
from .proximal_gradient_descent import ProximalGradientDescentOptimizer
from .adagrad_da import AdagradDAOptimizer
from .learning_rate_decay import (cosine_decay, cosine_decay_restarts, exponential_decay, inverse_time_decay,
                                  linear_cosine_decay, natural_exp_decay, noisy_linear_cosine_decay, piecewise_constant,
                                  polynomial_decay)
from .training_util import (assert_global_step, create_global_step, get_global_step, get_or_create_global_step,
                            global_step)
from .checkpoint_api import *  # noqa: F401,F403  (Saver, checkpoints, MonitoredTrainingSession, hooks)
from .device_setter import GreedyLoadBalancingStrategy, replica_device_setter  # noqa: F401
from .coordinator import Coordinator  # noqa: F401
from .queue_runner import QueueRunner, add_queue_runner, start_queue_runners  # noqa: F401
from .sync_replicas_optimizer import SyncReplicasOptimizer  # noqa: F401
from .supervisor import Supervisor  # noqa: F401
from .moving_averages import ExponentialMovingAverage, assign_moving_average  # noqa: F401
from .coordinator import LooperThread  # noqa: F401
from .input import (batch, batch_join, input_producer, limit_epochs, maybe_batch, maybe_shuffle_batch,  # noqa: F401
                    range_input_producer, shuffle_batch, shuffle_batch_join, slice_input_producer,
                    string_input_producer)
from ..lib.io.example_protos import (BytesList, Example, Feature, FeatureList, FeatureLists, Features,  # noqa: F401
                                     FloatList, Int64List, SequenceExample)
from ..framework.meta_graph import export_meta_graph, import_meta_graph  # noqa: F401
from ..framework.graph_io import write_graph  # noqa: F401
from ..summary.writer import summary_iterator  # noqa: F401


_DISTRIBUTED = ("ClusterSpec", "ClusterDef", "JobDef", "Server", "ServerDef")


def __getattr__(name):
    """tf.train.ClusterSpec / Server / ServerDef load the gRPC runtime (tensorweave.distributed)
    on first use, so `import tensorweave` does not pay for importing grpc."""
    if name in _DISTRIBUTED:
        from .. import distributed
        return getattr(distributed, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdagradOptimizer",
           "RMSPropOptimizer", "AdamOptimizer", "AdadeltaOptimizer", "FtrlOptimizer",
           "ProximalAdagradOptimizer", "ProximalGradientDescentOptimizer", "AdagradDAOptimizer",
           "exponential_decay", "piecewise_constant", "polynomial_decay", "natural_exp_decay",
           "inverse_time_decay", "cosine_decay", "cosine_decay_restarts", "linear_cosine_decay", "noisy_linear_cosine_decay",
           "global_step", "get_global_step", "create_global_step", "get_or_create_global_step",
           "assert_global_step", "replica_device_setter", "GreedyLoadBalancingStrategy", "Coordinator", "QueueRunner",
           "add_queue_runner", "start_queue_runners", "SyncReplicasOptimizer", "batch", "batch_join",
           "shuffle_batch", "shuffle_batch_join", "maybe_batch", "maybe_shuffle_batch", "input_producer",
           "string_input_producer", "range_input_producer", "slice_input_producer", "limit_epochs"] + list(_DISTRIBUTED)

from .train_extras import (Checkpoint, CheckpointManager, VocabInfo, basic_train_loop, checkpoints_iterator, match_filenames_once,  # noqa: E402,F401
                           maybe_batch_join, maybe_shuffle_batch_join, piecewise_constant_decay, warm_start)
__all__ += ["Checkpoint", "CheckpointManager", "VocabInfo", "basic_train_loop", "checkpoints_iterator", "match_filenames_once", "maybe_batch_join",
            "maybe_shuffle_batch_join", "piecewise_constant_decay", "warm_start"]
