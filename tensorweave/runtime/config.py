"""Session and run configuration: `tf.ConfigProto`, `tf.GPUOptions`, `tf.GraphOptions`,
`tf.OptimizerOptions`, `tf.RunOptions`, `tf.RunMetadata` — plain objects with TF's field names."""

__all__ = ["ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunOptions", "RunMetadata"]


class _Message:
    """A protobuf-like message: known fields with defaults, keyword construction, equality."""

    _fields = {}

    def __init__(self, **kwargs):
        for name, default in self._fields.items():
            object.__setattr__(self, name, default() if callable(default) else default)
        for k, v in kwargs.items():
            if k not in self._fields:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{k}" field.')
            setattr(self, k, v)

    def __setattr__(self, name, value):
        if name not in self._fields:
            raise AttributeError(f"Assignment not allowed (no field \"{name}\" in protocol message object).")
        object.__setattr__(self, name, value)

    def __eq__(self, other):
        return type(self) is type(other) and all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __repr__(self):
        parts = [f"{k}: {getattr(self, k)!r}" for k, d in self._fields.items()
                 if getattr(self, k) != (d() if callable(d) else d)]
        return "\n".join(parts)

    def CopyFrom(self, other):
        for f in self._fields:
            object.__setattr__(self, f, getattr(other, f))

    def HasField(self, name):
        d = self._fields[name]
        return getattr(self, name) != (d() if callable(d) else d)


class GPUOptions(_Message):
    _fields = {"per_process_gpu_memory_fraction": 0.0, "allow_growth": False, "allocator_type": "",
               "visible_device_list": "", "force_gpu_compatible": False}


class OptimizerOptions(_Message):
    L1 = 0
    L0 = -1
    DEFAULT = 0
    ON_1 = 1
    OFF = 2
    _fields = {"do_common_subexpression_elimination": False, "do_constant_folding": False,
               "opt_level": 0, "global_jit_level": 0, "do_function_inlining": False}


class GraphOptions(_Message):
    _fields = {"optimizer_options": OptimizerOptions, "enable_bfloat16_sendrecv": False,
               "build_cost_model": 0, "infer_shapes": False, "place_pruned_graph": False,
               "enable_recv_scheduling": False, "timeline_step": 0}


class ConfigProto(_Message):
    """Session configuration. `inter_op_parallelism_threads` sizes the pool that runs
    independent expensive ops; `device_count={'CPU': n}` asks for n logical CPU devices."""
    _fields = {"device_count": dict, "intra_op_parallelism_threads": 0, "inter_op_parallelism_threads": 0,
               "use_per_session_threads": False, "allow_soft_placement": False,
               "log_device_placement": False, "gpu_options": GPUOptions, "graph_options": GraphOptions,
               "operation_timeout_in_ms": 0, "device_filters": list, "isolate_session_state": False,
               "share_cluster_devices_in_session": False, "experimental": dict, "cluster_def": None,
               "placement_period": 0, "rpc_options": None, "session_inter_op_thread_pool": list}


class RunOptions(_Message):
    """Per-run options: `trace_level` (NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE) and
    `timeout_in_ms`."""
    NO_TRACE = 0
    SOFTWARE_TRACE = 1
    HARDWARE_TRACE = 2
    FULL_TRACE = 3
    _fields = {"trace_level": 0, "timeout_in_ms": 0, "inter_op_thread_pool": 0,
               "output_partition_graphs": False, "debug_options": None,
               "report_tensor_allocations_upon_oom": False, "experimental": dict}


class _StepStats(_Message):
    _fields = {"dev_stats": list}


class RunMetadata(_Message):
    """Filled by a run that asks for tracing: `step_stats`, `partition_graphs`, `cost_graph`."""
    _fields = {"step_stats": _StepStats, "partition_graphs": list, "cost_graph": None,
               "function_graphs": list}
