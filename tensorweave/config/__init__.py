"""`tf.config`: the process's physical and logical devices and its runtime settings.

A CPU-only machine lists one physical CPU (`PhysicalDevice(name='/physical_device:CPU:0',
device_type='CPU')`), plus one GPU per CUDA device CuPy sees. As in TF, listing the logical devices
initializes the runtime; after that, visible devices, virtual devices and thread counts can no
longer change (RuntimeError). Graph sessions take their devices and threads from `tf.ConfigProto`,
so these settings describe the process and do not reconfigure sessions already built.
"""

import collections

from ..framework import errors

__all__ = ["PhysicalDevice", "LogicalDevice", "LogicalDeviceConfiguration", "list_physical_devices",
           "list_logical_devices", "get_visible_devices", "set_visible_devices",
           "get_logical_device_configuration", "set_logical_device_configuration", "get_soft_device_placement",
           "set_soft_device_placement", "functions_run_eagerly", "run_functions_eagerly",
           "experimental_functions_run_eagerly", "experimental_run_functions_eagerly", "experimental", "threading"]


class PhysicalDevice(collections.namedtuple("PhysicalDevice", ["name", "device_type"])):
    """A physical device of this machine: `name` ('/physical_device:CPU:0') and `device_type`."""
    __slots__ = ()


class LogicalDevice(collections.namedtuple("LogicalDevice", ["name", "device_type"])):
    """A device the runtime runs ops on: `name` ('/device:CPU:0') and `device_type`."""
    __slots__ = ()


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration", ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """One logical device to carve out of a physical device (`memory_limit` in MB for GPUs)."""
    __slots__ = ()

    def __new__(cls, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority, experimental_device_ordinal)


class _State:
    def __init__(self):
        self.initialized = False
        self.visible = None          # None: all physical devices
        self.virtual = {}            # PhysicalDevice -> [LogicalDeviceConfiguration]
        self.memory_growth = {}
        self.inter_op = 0
        self.intra_op = 0
        self.soft_placement = False
        self.run_eagerly = False
        self.device_policy = "silent"
        self.synchronous = True
        self.tf32 = True


_state = _State()


def _physical():
    from ..runtime.devices import gpu_count
    devs = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    devs += [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(gpu_count())]
    return devs


def list_physical_devices(device_type=None):
    """The physical devices of `device_type` ('CPU', 'GPU'; all when None) this process can see."""
    return [d for d in _physical() if device_type is None or d.device_type == device_type]


def _check_device(device):
    if device not in _physical():
        raise ValueError(f"Unrecognized device: {device!r}")


def get_visible_devices(device_type=None):
    """The physical devices the runtime will use (all of them unless `set_visible_devices` said)."""
    devs = _physical() if _state.visible is None else _state.visible
    return [d for d in devs if device_type is None or d.device_type == device_type]


def set_visible_devices(devices, device_type=None):
    """Restricts the runtime to `devices` (of `device_type`, or of every type when None); only
    before the runtime is initialized, unless nothing changes."""
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    devices = list(devices)
    for d in devices:
        _check_device(d)
    if device_type is not None:
        new = [d for d in get_visible_devices() if d.device_type != device_type] + \
              [d for d in devices if d.device_type == device_type]
    else:
        new = devices
    new = [d for d in _physical() if d in new]
    if new == get_visible_devices():
        return
    if _state.initialized:
        raise RuntimeError("Visible devices cannot be modified after being initialized")
    _state.visible = new


def list_logical_devices(device_type=None):
    """The logical devices of `device_type` the runtime offers (initializes the runtime)."""
    out, counts = [], {}
    for d in get_visible_devices():
        for _ in _state.virtual.get(d, [None]):
            i = counts.get(d.device_type, 0)
            counts[d.device_type] = i + 1
            out.append(LogicalDevice(f"/device:{d.device_type}:{i}", d.device_type))
    if not any(d.device_type == "CPU" for d in out):
        raise errors.NotFoundError(None, None, "No CPU devices are available in this process")
    _state.initialized = True
    return [d for d in out if device_type is None or d.device_type == device_type]


def get_logical_device_configuration(device):
    """The LogicalDeviceConfigurations set for physical `device`, or None."""
    _check_device(device)
    return _state.virtual.get(device)


def set_logical_device_configuration(device, logical_devices):
    """Splits physical `device` into one logical device per LogicalDeviceConfiguration."""
    _check_device(device)
    logical_devices = list(logical_devices)
    if _state.virtual.get(device) == logical_devices:
        return
    if _state.initialized:
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    if device.device_type == "CPU" and any(c.memory_limit is not None for c in logical_devices):
        raise ValueError("Setting memory limit on CPU virtual devices is currently not supported")
    _state.virtual[device] = logical_devices


def get_soft_device_placement():
    """Whether ops may fall back to another device when their requested one cannot run them."""
    return _state.soft_placement


def set_soft_device_placement(enabled):
    """Records the soft-placement default (graph sessions follow `ConfigProto.allow_soft_placement`)."""
    _state.soft_placement = bool(enabled)


def functions_run_eagerly():
    """False unless `run_functions_eagerly(True)` was called."""
    return _state.run_eagerly


def run_functions_eagerly(run_eagerly):
    """Records the setting; tensorweave's graph functions always run as graphs."""
    _state.run_eagerly = bool(run_eagerly)


experimental_functions_run_eagerly = functions_run_eagerly
experimental_run_functions_eagerly = run_functions_eagerly

from . import experimental, threading  # noqa: E402,A004
