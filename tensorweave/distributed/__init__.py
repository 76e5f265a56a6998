"""Distributed runtime over gRPC: `ClusterSpec`, `Server` (a master and a worker service per task),
`cluster_from_env()` for TF_CONFIG, and the `tensorweave cluster` launcher.

A client's `tf.Session(server.target)` talks to that server's master, which prunes the step,
places each op on a task, cuts the edges between tasks into send/receive pairs, registers one
partition per task with its worker, and then runs each step by sending every worker the same
step id. State placed on a task (variables, queues) lives in that task's worker and outlives
client sessions, so several worker processes can train one model (between-graph replication).

The protocol has no authentication unless configured (see `rpc.py`): run it on a trusted network
or set a cluster token / TLS.
"""

from .cluster import ClusterDef, ClusterSpec, JobDef, ServerDef, cluster_from_env
from .rpc import configure_security
from .server import Server

__all__ = ["ClusterSpec", "ClusterDef", "JobDef", "ServerDef", "Server", "cluster_from_env",
           "configure_security"]
