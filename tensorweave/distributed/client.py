"""The client side of `tf.Session("grpc://host:port")`.

`connect(target, graph, config)` returns the object the session compiles its steps with: the
in-process master's session when `target` is a server of this process (no RPC between client and
master), else a `RemoteSession` that sends the graph to the master at `target` and runs steps by
name (RunStep). Either way `compile(fetches, feeds, ctx)` returns a plan whose `run(step,
feed_values)` runs one distributed step, so `Session.run`'s fetch/feed handling is shared.
"""

from ..framework import errors
from ..framework.graph import Operation
from ..protos import graph_pb2
from . import graph_codec, rpc, wire
from .master import _timeout_s, _user_value
from .protos import master_pb2
from .server import local_server_for_target

__all__ = ["connect", "reset", "RemoteSession"]


def _address(target):
    t = str(target)
    if not t.startswith("grpc://"):
        raise errors.UnimplementedError(None, None, f"Session target {target!r}: only 'grpc://host:port' "
                                                    "targets are supported for distributed sessions")
    return t[len("grpc://"):].rstrip("/")


def connect(target, graph, config=None):
    server = local_server_for_target(str(target))
    if server is not None:
        return server.master.session(graph, config)
    return RemoteSession(_address(target), graph, config)


def reset(target, containers=None, config=None):
    """`tf.Session.reset`: clears the containers (all when None) on every task of the cluster."""
    containers = list(containers or [])
    server = local_server_for_target(str(target))
    if server is not None:
        server.master.reset(containers)
        return
    stub = rpc.Stub(_address(target), rpc.MASTER_SERVICE)
    stub.call("Reset", master_pb2.MasterResetRequest(container=containers), master_pb2.MasterResetResponse,
              rpc.CONTROL_TIMEOUT_S)


class _RemotePlan:
    needs_step = True

    def __init__(self, session, fetches, feeds):
        self._session = session
        self._fetch_names = []
        self._fetch_pos = []
        self._targets = []
        for i, f in enumerate(fetches):
            if isinstance(f, Operation):
                self._targets.append(f.name)
            else:
                self._fetch_pos.append(i)
                self._fetch_names.append(f.name)
        self._feed_names = [t.name for t in feeds]
        self._n = len(fetches)

    def run(self, step, feed_values):
        s = self._session
        s._sync()
        timeout = _timeout_s(step.options if step is not None else None, s.config)
        budget = timeout if timeout is not None else rpc.DEFAULT_TIMEOUT_S
        req = master_pb2.RunStepRequest(session_handle=s.handle, fetch=self._fetch_names, target=self._targets,
                                        timeout_ms=int(budget * 1000))
        for name, v in zip(self._feed_names, feed_values):
            wire.to_named(req.feed.add(), name, v)
        resp = s.stub.call("RunStep", req, master_pb2.RunStepResponse, budget + 5.0)
        out = [None] * self._n
        for i, nt in zip(self._fetch_pos, resp.tensor):
            out[i] = _user_value(wire.from_named(nt))
        return out


class RemoteSession:
    """A session on a master in another process: the graph is sent on first use and again (the
    new ops) whenever it has grown."""

    def __init__(self, address, graph, config=None):
        self.stub = rpc.Stub(address, rpc.MASTER_SERVICE)
        self.graph = graph
        self.config = config
        self.handle = None
        self._sent = 0

    def _graph_def(self, start=0):
        return graph_codec.graph_to_graph_def(self.graph, graph_pb2.GraphDef(), start)

    def _sync(self):
        n = len(self.graph._ops)
        if self.handle is None:
            op_ms = getattr(self.config, "operation_timeout_in_ms", 0) or 0
            req = master_pb2.CreateSessionRequest(operation_timeout_ms=op_ms)
            req.graph_def.CopyFrom(self._graph_def())
            self.handle = self.stub.call("CreateSession", req, master_pb2.CreateSessionResponse,
                                         rpc.CONTROL_TIMEOUT_S).session_handle
            self._sent = n
        elif n > self._sent:
            req = master_pb2.ExtendSessionRequest(session_handle=self.handle)
            req.graph_def.CopyFrom(self._graph_def())
            self.stub.call("ExtendSession", req, master_pb2.ExtendSessionResponse, rpc.CONTROL_TIMEOUT_S)
            self._sent = n

    def compile(self, fetches, feeds, trace=False):
        return _RemotePlan(self, list(fetches), list(feeds))

    def close(self):
        if self.handle is not None:
            try:
                self.stub.call("CloseSession", master_pb2.CloseSessionRequest(session_handle=self.handle),
                               master_pb2.CloseSessionResponse, 5.0)
            except errors.OpError:
                pass
            self.handle = None

