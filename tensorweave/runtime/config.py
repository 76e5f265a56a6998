"""Session and run configuration: `tf.ConfigProto`, `tf.GPUOptions`, `tf.GraphOptions`,
`tf.OptimizerOptions`, `tf.RunOptions`, `tf.RunMetadata` — plain objects with TF's field names."""

__all__ = ["ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunOptions", "RunMetadata"]


def _scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


class _Message:
    """A protobuf-like message: known fields with defaults, keyword construction, equality."""

    _fields = {}      # name -> default (a class for nested messages), in field-number order
    _enums = {}       # name -> {value: enum name} for enum fields

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

    def __str__(self):
        """Protobuf text format, as str() of TF's messages prints: set fields in field-number
        order (the order of `_fields`), nested messages in braces, maps entry by entry."""
        return "".join(self._text_lines(""))

    __repr__ = __str__

    def _text_lines(self, indent):
        for name, default in self._fields.items():
            value = getattr(self, name)
            if value is None or value == (default() if callable(default) else default):
                continue
            if isinstance(value, _Message):
                yield f"{indent}{name} {{\n"
                yield from value._text_lines(indent + "  ")
                yield f"{indent}}}\n"
            elif isinstance(value, dict):
                # TF's (upb) maps print in reverse key order for the string keys seen here.
                for key in sorted(value, reverse=True):
                    yield f"{indent}{name} {{\n{indent}  key: {_scalar(key)}\n"
                    yield f"{indent}  value: {_scalar(value[key])}\n{indent}}}\n"
            elif isinstance(value, (list, tuple)):
                for item in value:
                    yield f"{indent}{name}: {_scalar(item)}\n"
            else:
                enum = self._enums.get(name)
                text = enum.get(value, value) if enum else _scalar(value)
                yield f"{indent}{name}: {text}\n"

    def CopyFrom(self, other):
        for f in self._fields:
            object.__setattr__(self, f, getattr(other, f))

    def HasField(self, name):
        d = self._fields[name]
        return getattr(self, name) != (d() if callable(d) else d)


class GPUOptions(_Message):
    _fields = {"per_process_gpu_memory_fraction": 0.0, "allocator_type": "", "deferred_deletion_bytes": 0,
               "allow_growth": False, "visible_device_list": "", "polling_active_delay_usecs": 0,
               "polling_inactive_delay_msecs": 0, "force_gpu_compatible": False}


class OptimizerOptions(_Message):
    L1 = 0
    L0 = -1
    DEFAULT = 0
    OFF = -1
    ON_1 = 1
    ON_2 = 2
    _fields = {"do_common_subexpression_elimination": False, "do_constant_folding": False,
               "opt_level": 0, "do_function_inlining": False, "global_jit_level": 0,
               "max_folded_constant_in_bytes": 0, "cpu_global_jit": False}
    _enums = {"opt_level": {0: "L1", -1: "L0"},
              "global_jit_level": {0: "DEFAULT", -1: "OFF", 1: "ON_1", 2: "ON_2"}}


class GraphOptions(_Message):
    _fields = {"enable_recv_scheduling": False, "optimizer_options": OptimizerOptions,
               "build_cost_model": 0, "infer_shapes": False, "place_pruned_graph": False,
               "enable_bfloat16_sendrecv": False, "timeline_step": 0, "build_cost_model_after": 0}


class ConfigProto(_Message):
    """Session configuration. `inter_op_parallelism_threads` sizes the pool that runs
    independent expensive ops; `device_count={'CPU': n}` asks for n logical CPU devices."""
    _fields = {"device_count": dict, "intra_op_parallelism_threads": 0, "placement_period": 0,
               "device_filters": list, "inter_op_parallelism_threads": 0, "gpu_options": GPUOptions,
               "allow_soft_placement": False, "log_device_placement": False,
               "use_per_session_threads": False, "graph_options": GraphOptions,
               "operation_timeout_in_ms": 0, "session_inter_op_thread_pool": list, "rpc_options": None,
               "cluster_def": None, "isolate_session_state": False, "experimental": dict,
               "share_cluster_devices_in_session": False}


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
    _enums = {"trace_level": {0: "NO_TRACE", 1: "SOFTWARE_TRACE", 2: "HARDWARE_TRACE", 3: "FULL_TRACE"}}


class _StepStats(_Message):
    _fields = {"dev_stats": list}


class RunMetadata(_Message):
    """Filled by a run that asks for tracing: `step_stats`, `partition_graphs`, `cost_graph`."""
    _fields = {"step_stats": _StepStats, "cost_graph": None, "partition_graphs": list,
               "function_graphs": list}
