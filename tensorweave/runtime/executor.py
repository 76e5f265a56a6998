"""Running a step over several devices: place, partition, compile one plan per partition, and run
the partitions concurrently (one thread per device), connected by a per-step rendezvous.

`compile_step` returns None when every op lands on the session's default device: the session
then compiles its ordinary single plan (today's fast path: no partitioning, no threads, no
per-step cost). Otherwise it returns a plan-like object with the same `run(step, feed_values)`.

An error in any partition aborts the step's rendezvous, which wakes every waiting Recv; the
step raises the first (original) error once every partition has stopped, so nothing hangs.
"""

import concurrent.futures
import threading

from ..framework import errors
from ..framework.graph import Operation
from .partition import partition
from .placer import place
from .plan import KernelContext, StepContext, _prune, _toposort, compile_plan
from .rendezvous import Rendezvous
from .step_stats import build_step_stats, current_thread_id

__all__ = ["DeviceStep", "compile_step", "DeviceRunners", "TracedPlan", "record_measurements"]


class DeviceStep(StepContext):
    """The StepContext one partition sees: + the step's rendezvous, its trace list, its device."""

    __slots__ = ("rendezvous", "trace", "device")

    def __init__(self, step, rendezvous=None, device=None, trace=None):
        if step is None:
            super().__init__(0)
        else:
            super().__init__(step.step_id, step.options, step.run_metadata)
        self.rendezvous = rendezvous
        self.device = device
        self.trace = trace


class DeviceRunners:
    """One executor thread per device (started on first use), shared by a session's steps."""

    def __init__(self):
        self._lock = threading.Lock()
        self._pools = {}

    def get(self, device):
        pool = self._pools.get(device)
        if pool is None:
            with self._lock:
                pool = self._pools.get(device)
                if pool is None:
                    tag = f"{device.device_type}_{device.index}"
                    pool = self._pools[device] = concurrent.futures.ThreadPoolExecutor(
                        1, thread_name_prefix=f"tensorweave-device-{tag}")
        return pool

    def shutdown(self):
        with self._lock:
            pools, self._pools = self._pools, {}
        for p in pools.values():
            p.shutdown(wait=False)


def record_measurements(measured, step_stats, alpha=0.5):
    """Folds a traced step's op times into `measured` {(op name, device type): seconds}."""
    for ds in step_stats.dev_stats:
        dtype = ds.device.rsplit(":", 2)[-2] if ":" in ds.device else "CPU"
        for ns in ds.node_stats:
            t = ns.op_end_rel_nanos * 1e-9
            key = (ns.node_name, dtype)
            old = measured.get(key)
            measured[key] = t if old is None else (1 - alpha) * old + alpha * t


def _timeout_s(step, config):
    ms = 0
    if step is not None and step.options is not None:
        ms = getattr(step.options, "timeout_in_ms", 0) or 0
    if not ms and config is not None:
        ms = getattr(config, "operation_timeout_in_ms", 0) or 0
    return ms / 1000.0 if ms > 0 else None


class TracedPlan:
    """A single-device plan compiled with timing instrumentation; fills run_metadata.step_stats."""

    needs_step = True

    def __init__(self, plan, device, measured=None, to_device=None, to_host=None):
        self._plan = plan
        self._device = device
        self._measured = measured
        self.source = plan.source

    def run(self, step, feed_values):
        dstep = DeviceStep(step, None, self._device, [])
        try:
            return self._plan.run(dstep, feed_values)
        finally:
            _publish(step, [(self._device.name, current_thread_id(), dstep.trace)], self._measured)


def _publish(step, records, measured):
    stats = build_step_stats(records)
    md = step.run_metadata if step is not None else None
    if md is not None:
        md.step_stats = stats
    if measured is not None:
        record_measurements(measured, stats)


class _OnDevicePlan:
    """The whole step on one non-default device (a GPU, or a CPU other than CPU:0): feeds are
    copied to the device and fetches back to the host; run inline, no threads."""

    def __init__(self, plan, device, trace, measured):
        self._plan = plan
        self._device = device
        self._trace = trace
        self._measured = measured
        self.needs_step = plan.needs_step or trace
        self.source = plan.source

    def run(self, step, feed_values):
        dev = self._device
        if not dev.is_host:
            feed_values = [dev.to_device(v) for v in feed_values]
        dstep = DeviceStep(step, None, dev, [] if self._trace else None)
        try:
            out = self._plan.run(dstep, feed_values)
        finally:
            if self._trace:
                _publish(step, [(dev.name, current_thread_id(), dstep.trace)], self._measured)
        if not dev.is_host:
            out = [dev.to_host(v) for v in out]
        return out


class PartitionedPlan:
    """Partitions run concurrently: the first on the calling thread, the rest on their device's
    thread; they exchange tensors through a fresh Rendezvous per step."""

    needs_step = True

    def __init__(self, parts, plans, feed_index, n_fetches, runners, config, trace, measured):
        self.partitions = parts
        self.plans = plans
        self._feed_index = feed_index      # per partition: positions in the step's feed list
        self._n_fetches = n_fetches
        self._runners = runners
        self._config = config
        self._trace = trace
        self._measured = measured
        self.source = "\n".join(f"# {p.device.name}\n{pl.source}" for p, pl in zip(parts, plans))

    def _run_one(self, i, step, rdv, feed_values):
        part = self.partitions[i]
        dev = part.device
        vals = [feed_values[j] for j in self._feed_index[i]]
        if not dev.is_host:
            vals = [dev.to_device(v) for v in vals]
        dstep = DeviceStep(step, rdv, dev, [] if self._trace else None)
        try:
            out = self.plans[i].run(dstep, vals)
        except BaseException as e:  # noqa: BLE001 - reported through the rendezvous
            rdv.abort(e)
            return None, dstep
        if not dev.is_host:
            out = [dev.to_host(v) for v in out]
        return out, dstep

    def run(self, step, feed_values):
        rdv = Rendezvous(step.step_id if step is not None else 0, _timeout_s(step, self._config))
        futures = []
        for i in range(1, len(self.partitions)):
            futures.append(self._runners.get(self.partitions[i].device).submit(
                self._run_one, i, step, rdv, feed_values))
        results = [self._run_one(0, step, rdv, feed_values)]
        for f in futures:
            results.append(f.result())
        if self._trace:
            _publish(step, [(p.device.name, current_thread_id() if i == 0 else i, r[1].trace)
                            for i, (p, r) in enumerate(zip(self.partitions, results))], self._measured)
        if rdv.error is not None:
            raise rdv.error
        values = [None] * self._n_fetches
        for part, (out, _) in zip(self.partitions, results):
            for j, v in zip(part.fetch_index, out):
                values[j] = v
        return values

    @property
    def transfers_per_step(self):
        return sum(p.n_recv for p in self.partitions)


def device_context(session, resources, device, cache):
    ctx = cache.get(device)
    if ctx is None:
        ctx = KernelContext(session, resources, device.name, device.device_type)
        ctx.xp = device.xp
        ctx.pool = None
        ctx.parallel_flops = float("inf")
        cache[device] = ctx
    return ctx


def compile_step(fetches, feeds, session, devices, default_ctx, config, sticky, measured, runners,
                 ctx_cache, trace=False):
    """A plan for the step, placed over `devices` (default first).

    Returns (order, None) when the step is for the default device's ordinary plan (compile it
    with compile_plan(..., order=order)), else (None, plan)."""
    fed = {t: i for i, t in enumerate(feeds)}
    roots = [f if isinstance(f, Operation) else f._op for f in fetches
             if isinstance(f, Operation) or f not in fed]
    order = _toposort(_prune(roots, fed))
    soft = bool(getattr(config, "allow_soft_placement", False))
    log = bool(getattr(config, "log_device_placement", False))
    if len(devices) == 1 and not log and not any(op._device for op in order):
        return order, None
    default = devices[0]
    placement = place(order, devices, fed, soft, log, sticky, measured)
    used = set(placement.values())
    if not used or used == {default}:
        return order, None
    if len(used) == 1:
        dev = next(iter(used))
        ctx = device_context(session, default_ctx.resources, dev, ctx_cache)
        return None, _OnDevicePlan(compile_plan(fetches, feeds, ctx, order=order, trace=trace), dev, trace,
                                   measured)
    parts = partition(order, placement, fetches, feeds, default)
    plans = []
    feed_index = []
    for p in parts:
        ctx = device_context(session, default_ctx.resources, p.device, ctx_cache)
        try:
            plans.append(compile_plan(p.fetches, p.feeds, ctx, order=p.order, trace=trace))
        except errors.NotFoundError as e:
            raise errors.InvalidArgumentError(None, None, f"{e.message} (placed on {p.device.name})") from None
        feed_index.append([fed[t] for t in p.feeds])
    return None, PartitionedPlan(parts, plans, feed_index, len(fetches), runners, config, trace, measured)
