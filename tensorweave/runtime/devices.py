"""Local devices: what a session can place ops on.

CPU:0 always; `ConfigProto(device_count={'CPU': n})` gives n logical CPU devices (each runs its
partition of a step on its own thread, so placement and partitioning work on one machine), and
GPU:k for each CUDA GPU when CuPy and a GPU are present (`device_count={'GPU': 0}` hides them).
"""

import random

import numpy as np

from ..framework.device import DeviceSpec

__all__ = ["Device", "DeviceAttributes", "local_devices", "list_local_devices", "list_devices", "JOB_PREFIX",
           "gpu_count"]

JOB_PREFIX = "/job:localhost/replica:0/task:0"
CPU_MEMORY_LIMIT = 268435456  # what TF reports for a CPU device


class Device:
    """One local device: its full name, type, index, array namespace and host<->device copies."""

    __slots__ = ("name", "device_type", "index", "xp", "memory_limit", "incarnation",
                 "physical_device_desc", "spec")

    def __init__(self, device_type, index, xp=np, memory_limit=CPU_MEMORY_LIMIT, desc=""):
        self.device_type = device_type
        self.index = index
        self.name = f"{JOB_PREFIX}/device:{device_type}:{index}"
        self.xp = xp
        self.memory_limit = memory_limit
        self.incarnation = random.getrandbits(63)
        self.physical_device_desc = desc
        self.spec = DeviceSpec.from_string(self.name)

    @property
    def is_host(self):
        return self.xp is np

    def to_device(self, value):
        """A host (NumPy) value as this device's array."""
        if self.xp is np or value is None:
            return value
        with self.xp.cuda.Device(self.index):
            return self.xp.asarray(value)

    def to_host(self, value):
        """This device's array as a NumPy value (identity on CPU)."""
        if self.xp is np or not hasattr(value, "get"):
            return value
        return value.get()

    def __repr__(self):
        return f"<Device {self.name}>"


class DeviceAttributes:
    """What `Session.list_devices()` and `device_lib.list_local_devices()` return."""

    def __init__(self, device, short_name=False):
        self.name = device.name[len(JOB_PREFIX):] if short_name else device.name
        self.device_type = device.device_type
        self.memory_limit = device.memory_limit
        self.memory_limit_bytes = device.memory_limit
        self.incarnation = device.incarnation
        self.physical_device_desc = device.physical_device_desc
        self.locality = {}

    def __repr__(self):
        return (f'name: "{self.name}"\ndevice_type: "{self.device_type}"\nmemory_limit: {self.memory_limit}\n'
                f"incarnation: {self.incarnation}\n"
                + (f'physical_device_desc: "{self.physical_device_desc}"\n' if self.physical_device_desc else ""))

    __str__ = __repr__


_GPU_INFO = None


def _gpus():
    """[(index, total memory, description)] of the CUDA GPUs CuPy sees (empty without CuPy)."""
    global _GPU_INFO
    if _GPU_INFO is None:
        _GPU_INFO = []
        try:
            import cupy  # noqa: F401 - optional dependency (extra "gpu")
            n = cupy.cuda.runtime.getDeviceCount()
            for i in range(n):
                props = cupy.cuda.runtime.getDeviceProperties(i)
                name = props.get("name", b"GPU")
                name = name.decode() if isinstance(name, bytes) else str(name)
                _GPU_INFO.append((i, int(props.get("totalGlobalMem", 0)),
                                  f"device: {i}, name: {name}, pci bus id: {props.get('pciBusID', 0)}"))
        except Exception:  # noqa: BLE001 - no CuPy, no driver or no GPU: CPU only
            _GPU_INFO = []
    return _GPU_INFO


def gpu_count():
    return len(_gpus())


_CACHE = {}


def local_devices(config=None):
    """The devices a session with `config` (a ConfigProto or None) has, CPU:0 first."""
    counts = dict(getattr(config, "device_count", None) or {})
    n_cpu = max(1, int(counts.get("CPU", 1)))
    gpus = _gpus()
    n_gpu = min(len(gpus), int(counts.get("GPU", len(gpus))))
    key = (n_cpu, n_gpu)
    devs = _CACHE.get(key)
    if devs is None:
        devs = [Device("CPU", i) for i in range(n_cpu)]
        if n_gpu:
            from ..kernels import gpu as gpu_kernels
            xp = gpu_kernels.activate()
            for i, mem, desc in gpus[:n_gpu]:
                devs.append(Device("GPU", i, xp, memory_limit=mem, desc=desc))
        _CACHE[key] = devs
    return list(devs)


def list_local_devices(session_config=None):
    """`device_lib.list_local_devices()`: DeviceAttributes named "/device:CPU:0", ..."""
    return [DeviceAttributes(d, short_name=True) for d in local_devices(session_config)]


def list_devices(config=None):
    """`tensorweave.list_devices()`: the devices a session with `config` would have, with full
    names ("/job:localhost/replica:0/task:0/device:CPU:0"), like `Session.list_devices()`."""
    return [DeviceAttributes(d) for d in local_devices(config)]
