"""The master service: turns a client's step (fetches, feeds, targets) into one partition per task,
registers each partition with its task's worker once, and runs steps by sending every worker the
same step id.

A client in the server's process (tf.Session(server.target)) uses `Master.session(graph)` directly;
a client elsewhere sends its graph with CreateSession/ExtendSession and runs RunStep by names.

Failures: any partition's error aborts the step on every task (AbortStep), and the step raises
the original error (not the receives that only mirror it); an unreachable task raises
UnavailableError; RunOptions.timeout_in_ms (or ConfigProto.operation_timeout_in_ms) bounds the
step and raises DeadlineExceededError. Every wait here is bounded.
"""

import itertools
import random
import threading
import time

import numpy as np

from ..framework import errors
from ..framework.graph import Graph, Operation
from . import graph_codec, rpc, wire
from .partition import partition_step
from .protos import master_pb2, worker_pb2

__all__ = ["Master", "MasterSession"]

_ABORT_GRACE_S = 5.0   # after a failure, how long to wait for the other partitions to stop


def _timeout_s(options, config):
    ms = 0
    if options is not None and getattr(options, "timeout_in_ms", 0):
        ms = options.timeout_in_ms
    elif config is not None and getattr(config, "operation_timeout_in_ms", 0):
        ms = config.operation_timeout_in_ms
    return ms / 1000.0 if ms and ms > 0 else None


def _user_value(v):
    """Fetched values as TF returns them: writable arrays, 0-d as NumPy scalars."""
    if isinstance(v, np.ndarray):
        if v.ndim == 0:
            return v[()]
        if not v.flags.writeable:
            return v.copy()
    return v


class _TaskCall:
    """One partition of a registered step: where it runs and what it exchanges with the client."""

    __slots__ = ("task", "handle", "feeds", "fetches", "local", "stub")

    def __init__(self, task, handle, feeds, fetches, local, stub):
        self.task = task
        self.handle = handle
        self.feeds = feeds        # indices into the step's feed values
        self.fetches = fetches    # indices into the step's fetch list
        self.local = local        # the in-process Worker, or None
        self.stub = stub


class StepPlan:
    """A registered step. `run(step, feed_values)` -> one value per fetch (None for ops); the
    session's plan cache holds it, so a repeated run only sends RunGraph calls."""

    needs_step = True

    def __init__(self, session, fetches, feeds):
        self._session = session
        self._n_fetch = len(fetches)
        self._fed_fetch = []   # (fetch index, feed index) for fetched tensors that are fed
        feed_index = {t: i for i, t in enumerate(feeds)}
        for i, f in enumerate(fetches):
            if not isinstance(f, Operation) and f in feed_index:
                self._fed_fetch.append((i, feed_index[f]))
        master = session.master
        parts = partition_step(fetches, feeds, master.cluster, master.job_name, master.task_index)
        self.partitions = parts
        self._calls = []
        for task, p in sorted(parts.items()):
            feed_names = [n for n, _ in p.feeds]
            fetch_names = [n for n, _ in p.fetches]
            local = master.worker if task == master.worker.task else None
            stub = None
            if local is not None:
                handle = local.register_graph(p.graph_def, feed_names, fetch_names, p.targets, session.handle)
            else:
                stub = master.worker_stub(task)
                req = worker_pb2.RegisterGraphRequest(session_handle=session.handle, feed=feed_names,
                                                      fetch=fetch_names, target=p.targets)
                req.graph_def.CopyFrom(p.graph_def)
                handle = stub.call("RegisterGraph", req, worker_pb2.RegisterGraphResponse,
                                   rpc.CONNECT_TIMEOUT_S, wait_for_ready=True).graph_handle
            session._registered.append((task, handle))
            self._calls.append(_TaskCall(task, handle, [i for _, i in p.feeds], [i for _, i in p.fetches],
                                         local, stub))
        # The in-process partition runs on the caller's thread, after the remote calls are sent.
        self._calls.sort(key=lambda c: c.local is not None)

    def run(self, step, feed_values):
        session = self._session
        options = step.options if step is not None else None
        timeout = _timeout_s(options, session.config)
        budget = timeout if timeout is not None else rpc.DEFAULT_TIMEOUT_S
        deadline = time.monotonic() + budget
        step_id = random.getrandbits(62) + 1
        session._running[step_id] = self
        try:
            return self._run(step_id, feed_values, budget, deadline)
        finally:
            session._running.pop(step_id, None)

    def _run(self, step_id, feed_values, budget, deadline):
        results = [None] * self._n_fetch
        for i, j in self._fed_fetch:
            results[i] = feed_values[j]
        pending = []   # (call, future)
        first_error = None
        for call in self._calls:
            if call.local is not None:
                continue
            req = worker_pb2.RunGraphRequest(graph_handle=call.handle, step_id=step_id,
                                             timeout_ms=int(budget * 1000))
            for i in call.feeds:
                wire.to_named(req.send.add(), "", feed_values[i])
            pending.append((call, call.stub.future("RunGraph", req, worker_pb2.RunGraphResponse,
                                                   budget + 2.0)))
        errors_seen = []
        for call in self._calls:
            if call.local is None:
                continue
            try:
                values = call.local.run_graph(call.handle, step_id, [feed_values[i] for i in call.feeds],
                                              budget)
                for i, v in zip(call.fetches, values):
                    results[i] = v
            except Exception as e:  # noqa: BLE001 - reported below with the others
                errors_seen.append(e)
                self._abort(step_id, e)
        for call, fut in pending:
            if any(not rpc.is_derived(e) for e in errors_seen):
                fut.cancel()   # the step is aborted everywhere and its original error is known
                continue
            wait = rpc.remaining(deadline) + 2.0
            if errors_seen:    # only mirrored errors so far: wait a little for the original one
                wait = min(wait, _ABORT_GRACE_S)
            try:
                resp = fut.result(timeout=wait)
                for i, nt in zip(call.fetches, resp.recv):
                    results[i] = _user_value(wire.from_named(nt))
            except rpc.grpc.FutureTimeoutError:
                fut.cancel()
                e = errors.DeadlineExceededError(None, None, f"Timed out waiting for {call.task} to run "
                                                             f"step {step_id}")
                errors_seen.append(e)
                self._abort(step_id, e)
            except rpc.grpc.RpcError as exc:
                e = rpc.to_op_error(exc, f"RunGraph on {call.task} ({call.stub.address})")
                errors_seen.append(e)
                self._abort(step_id, e)
        if errors_seen:
            first_error = next((e for e in errors_seen if not rpc.is_derived(e)), errors_seen[0])
            if isinstance(first_error, errors.OpError):
                raise type(first_error)(first_error.node_def, first_error.op, first_error.message) from None
            raise first_error
        return [_user_value(v) if isinstance(v, np.ndarray) else v for v in results]

    def _abort(self, step_id, error):
        """Aborts the step on every task of this step (bounded, best effort)."""
        if getattr(self, "_aborted_step", None) == step_id:
            return
        self._aborted_step = step_id
        code = error.error_code if isinstance(error, errors.OpError) else errors.INTERNAL
        msg = error.message if isinstance(error, errors.OpError) else str(error)
        sent = []  # (grpc cancels a call whose future is garbage-collected: keep them, then wait)
        for call in self._calls:
            if call.local is not None:
                call.local.abort_step(step_id, error)
            else:
                try:
                    sent.append(call.stub.future("AbortStep", worker_pb2.AbortStepRequest(
                        step_id=step_id, code=code, message=msg), worker_pb2.AbortStepResponse, 2.0))
                except Exception:  # noqa: BLE001 - the task may be gone
                    pass
        for fut in sent:
            try:
                fut.result(timeout=2.0)
            except Exception:  # noqa: BLE001 - best effort: the task may be gone
                pass


class MasterSession:
    """A client session's state on the master: its graph and registered steps."""

    _ids = itertools.count(1)

    def __init__(self, master, graph, config=None):
        self.master = master
        self.graph = graph
        self.config = config
        self.handle = f"{master.worker.task}/session/{next(self._ids)}/{random.getrandbits(32):08x}"
        self._registered = []
        self._plans = {}
        self._running = {}  # step id -> StepPlan, for the steps in flight (aborted on close)
        self._lock = threading.Lock()

    def compile(self, fetches, feeds, trace=False):
        """The StepPlan for `fetches` (Tensors/Operations) given `feeds` (Tensors); the signature
        `compile_plan` has, so a session can use it as its plan compiler."""
        return StepPlan(self, list(fetches), list(feeds))

    def run_by_names(self, fetch_names, feed_names, feed_values, target_names, timeout_s):
        key = (tuple(fetch_names), tuple(feed_names), tuple(target_names))
        with self._lock:
            plan = self._plans.get(key)
        if plan is None:
            g = self.graph
            try:
                fetches = [g.as_graph_element(n, allow_tensor=True, allow_operation=True) for n in fetch_names]
                fetches += [g.get_operation_by_name(n) for n in target_names]
                feeds = [g.get_tensor_by_name(n) for n in feed_names]
            except (KeyError, ValueError, TypeError) as e:
                raise errors.InvalidArgumentError(None, None, f"RunStep: {e}") from None
            plan = self.compile(fetches, feeds)
            with self._lock:
                self._plans[key] = plan

        class _Opts:
            timeout_in_ms = int(timeout_s * 1000) if timeout_s else 0

        from ..runtime.plan import StepContext
        return plan.run(StepContext(0, _Opts), feed_values)[:len(fetch_names)]

    def replace_graph(self, graph):
        """A grown graph from a remote client (ExtendSession): steps are registered again."""
        with self._lock:
            self.graph = graph
            self._plans = {}
        self.close()

    def close(self):
        # Steps still running (e.g. a queue runner blocked on the ps) end with CancelledError.
        for step_id, plan in list(self._running.items()):
            plan._abort(step_id, errors.CancelledError(None, None, "Session was closed"))
        by_task = {}
        for task, handle in self._registered:
            by_task.setdefault(task, []).append(handle)
        self._registered = []
        for task, handles in by_task.items():
            if task == self.master.worker.task:
                self.master.worker.deregister_graph(handles)
                continue
            try:
                self.master.worker_stub(task).call("DeregisterGraph",
                                                   worker_pb2.DeregisterGraphRequest(graph_handle=handles),
                                                   worker_pb2.DeregisterGraphResponse, 2.0)
            except errors.OpError:
                pass  # the task is gone: nothing to free


class Master:
    """One task's master service."""

    def __init__(self, worker):
        self.worker = worker
        self.cluster = worker.cluster
        self.job_name = worker.job_name
        self.task_index = worker.task_index
        self._sessions = {}
        self._lock = threading.Lock()

    def worker_stub(self, task):
        return self.worker._stub(self.worker._address_of(task))

    def session(self, graph, config=None):
        return MasterSession(self, graph, config)

    def reset(self, containers=None):
        """Clears the named containers (all state when empty) on every task of the cluster
        (tasks that are not running hold no state and are skipped)."""
        failures = []
        for job in self.cluster.jobs:
            for t in self.cluster.task_indices(job):
                address = self.cluster.task_address(job, t)
                if address == self.worker.address:
                    self.worker.reset(containers)
                    continue
                try:
                    self.worker._stub(address).call("Reset", worker_pb2.ResetRequest(container=containers or []),
                                                    worker_pb2.ResetResponse, rpc.CONTROL_TIMEOUT_S)
                except errors.UnavailableError:
                    pass
                except errors.OpError as e:
                    failures.append(e)
        if failures:
            raise failures[0]

    # -- gRPC binding (clients in other processes) ---------------------------------------------
    def handlers(self):
        def create(req, context):
            try:
                graph = graph_codec.graph_from_graph_def(req.graph_def, Graph())

                class _Cfg:
                    operation_timeout_in_ms = req.operation_timeout_ms
                s = self.session(graph, _Cfg)
                with self._lock:
                    self._sessions[s.handle] = s
                return master_pb2.CreateSessionResponse(session_handle=s.handle)
            except Exception as e:  # noqa: BLE001
                rpc.abort_with(context, e)

        def extend(req, context):
            s = self._sessions.get(req.session_handle)
            if s is None:
                rpc.abort_with(context, errors.AbortedError(None, None, f"Session {req.session_handle} "
                                                                        "is not found (the master restarted?)"))
            try:
                graph = graph_codec.graph_from_graph_def(req.graph_def, Graph())
            except Exception as e:  # noqa: BLE001
                rpc.abort_with(context, e)
            s.replace_graph(graph)
            return master_pb2.ExtendSessionResponse()

        def run_step(req, context):
            s = self._sessions.get(req.session_handle)
            if s is None:
                rpc.abort_with(context, errors.AbortedError(None, None, f"Session {req.session_handle} "
                                                                        "is not found (the master restarted?)"))
            try:
                feeds = [wire.from_named(nt) for nt in req.feed]
                values = s.run_by_names(list(req.fetch), [nt.name for nt in req.feed], feeds,
                                        list(req.target), req.timeout_ms / 1000.0)
                resp = master_pb2.RunStepResponse()
                for name, v in zip(req.fetch, values):
                    wire.to_named(resp.tensor.add(), name, v)
                return resp
            except Exception as e:  # noqa: BLE001
                rpc.abort_with(context, e)

        def close(req, context):
            with self._lock:
                s = self._sessions.pop(req.session_handle, None)
            if s is not None:
                s.close()
            return master_pb2.CloseSessionResponse()

        def reset(req, context):
            try:
                self.reset(list(req.container))
            except Exception as e:  # noqa: BLE001
                rpc.abort_with(context, e)
            return master_pb2.MasterResetResponse()

        return rpc.method_handlers(rpc.MASTER_SERVICE, {
            "CreateSession": (create, master_pb2.CreateSessionRequest),
            "ExtendSession": (extend, master_pb2.ExtendSessionRequest),
            "RunStep": (run_step, master_pb2.RunStepRequest),
            "CloseSession": (close, master_pb2.CloseSessionRequest),
            "Reset": (reset, master_pb2.MasterResetRequest),
        })
