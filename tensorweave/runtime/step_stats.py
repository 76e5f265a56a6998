"""`RunMetadata.step_stats`: per-device, per-op execution records of a traced step
(`tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)`), with TF's message and field names."""

import threading
import time

__all__ = ["StepStats", "DeviceStepStats", "NodeExecStats", "build_step_stats"]

# perf_counter -> wall-clock microseconds since the epoch
_WALL0 = time.time()
_PERF0 = time.perf_counter()


def perf_to_micros(t):
    return int((_WALL0 + (t - _PERF0)) * 1e6)


class NodeExecStats:
    """One op's execution: `node_name`, `all_start_micros` (epoch µs), `op_start_rel_micros`,
    `op_end_rel_micros`, `all_end_rel_micros` (relative to the start), `timeline_label`,
    `thread_id`; `op_type` and `inputs` (tensor names) are ours, for the timeline."""

    __slots__ = ("node_name", "all_start_micros", "op_start_rel_micros", "op_end_rel_micros",
                 "all_end_rel_micros", "timeline_label", "thread_id", "scheduled_micros",
                 "all_start_nanos", "op_start_rel_nanos", "op_end_rel_nanos", "all_end_rel_nanos",
                 "op_type", "inputs", "output", "memory", "referenced_tensor")

    def __init__(self, node_name="", all_start_micros=0, op_end_rel_micros=0, timeline_label="",
                 thread_id=0, op_type="", inputs=(), all_start_nanos=0, op_end_rel_nanos=0):
        self.node_name = node_name
        self.all_start_micros = all_start_micros
        self.op_start_rel_micros = 0
        self.op_end_rel_micros = op_end_rel_micros
        self.all_end_rel_micros = op_end_rel_micros
        self.all_start_nanos = all_start_nanos
        self.op_start_rel_nanos = 0
        self.op_end_rel_nanos = op_end_rel_nanos
        self.all_end_rel_nanos = op_end_rel_nanos
        self.scheduled_micros = all_start_micros
        self.timeline_label = timeline_label
        self.thread_id = thread_id
        self.op_type = op_type
        self.inputs = list(inputs)
        self.output = []
        self.memory = []
        self.referenced_tensor = []

    def __repr__(self):
        return (f'node_stats {{ node_name: "{self.node_name}" all_start_micros: {self.all_start_micros} '
                f'op_end_rel_micros: {self.op_end_rel_micros} timeline_label: "{self.timeline_label}" }}')


class DeviceStepStats:
    """`device` (full name) and its `node_stats` (in execution order)."""

    __slots__ = ("device", "node_stats", "thread_names")

    def __init__(self, device="", node_stats=None):
        self.device = device
        self.node_stats = list(node_stats or [])
        self.thread_names = {}

    def __repr__(self):
        return f'dev_stats {{ device: "{self.device}" ({len(self.node_stats)} node_stats) }}'


class StepStats:
    """`dev_stats`: one DeviceStepStats per device that ran part of the step."""

    __slots__ = ("dev_stats",)

    def __init__(self, dev_stats=None):
        self.dev_stats = list(dev_stats or [])

    def __eq__(self, other):
        return isinstance(other, StepStats) and self.dev_stats == other.dev_stats

    def CopyFrom(self, other):  # noqa: N802 - protobuf name
        self.dev_stats = list(other.dev_stats)

    def __repr__(self):
        return "\n".join(repr(d) for d in self.dev_stats)


def _label(op):
    ins = ", ".join(t.name if hasattr(t, "name") else str(t) for t in op._inputs)
    return f"{op._name} = {op._type}({ins})"


def build_step_stats(records):
    """records: [(device name, thread id, [(op, t_start, t_end)])] -> StepStats."""
    dev_stats = []
    for device, thread_id, trace in records:
        ds = DeviceStepStats(device)
        for op, t0, t1 in trace:
            start_ns = int((_WALL0 + (t0 - _PERF0)) * 1e9)
            dur_ns = int((t1 - t0) * 1e9)
            ns = NodeExecStats(op._name, start_ns // 1000, max(0, dur_ns // 1000), _label(op), thread_id,
                               op._type, [getattr(t, "name", str(t)) for t in op._inputs],
                               start_ns, dur_ns)
            ds.node_stats.append(ns)
        dev_stats.append(ds)
    return StepStats(dev_stats)


def current_thread_id():
    return threading.get_ident() & 0xFFFFFFFF
