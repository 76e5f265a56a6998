"""`tf.config.experimental`: memory growth, device details and the older device-listing names."""

from . import (LogicalDeviceConfiguration, _check_device, _physical, _state, get_logical_device_configuration,
               get_visible_devices, list_logical_devices, list_physical_devices,
               set_logical_device_configuration, set_visible_devices)

__all__ = ["VirtualDeviceConfiguration", "list_physical_devices", "list_logical_devices", "get_visible_devices",
           "set_visible_devices", "get_virtual_device_configuration", "set_virtual_device_configuration",
           "get_memory_growth", "set_memory_growth", "get_device_details", "get_memory_info", "get_memory_usage",
           "reset_memory_stats", "get_device_policy", "set_device_policy", "get_synchronous_execution",
           "set_synchronous_execution", "tensor_float_32_execution_enabled", "enable_tensor_float_32_execution"]

VirtualDeviceConfiguration = LogicalDeviceConfiguration
get_virtual_device_configuration = get_logical_device_configuration
set_virtual_device_configuration = set_logical_device_configuration


def get_memory_growth(device):
    """Whether GPU `device` allocates memory as needed (KeyError when never set, as TF)."""
    _check_device(device)
    return _state.memory_growth[device]


def set_memory_growth(device, enable):
    """Lets GPU `device` allocate memory as needed instead of all at once."""
    _check_device(device)
    if _state.virtual.get(device):
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    if device.device_type != "GPU":
        raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")
    if _state.memory_growth.get(device) == enable:
        return
    if _state.initialized:
        raise RuntimeError("Physical devices cannot be modified after being initialized")
    _state.memory_growth[device] = enable


def get_device_details(device):
    """A dict of details ({} for a CPU; 'device_name' and 'compute_capability' for a GPU)."""
    _check_device(device)
    if device.device_type != "GPU":
        return {}
    import cupy
    idx = int(device.name.rsplit(":", 1)[1])
    props = cupy.cuda.runtime.getDeviceProperties(idx)
    return {"compute_capability": (props["major"], props["minor"]), "device_name": props["name"].decode()}


def _logical_name(device):
    name = device if isinstance(device, str) else device.name
    short = name.replace("/device:", "").replace("/physical_device:", "")
    known = [d.name.replace("/physical_device:", "") for d in _physical()]
    if short.upper() not in known:
        raise ValueError(f"Failed parsing device name: '{name}'. Note a valid device string for this "
                         f"function has the form: 'GPU:<N>' or 'CPU:0'")
    return short.upper()


def get_memory_info(device):
    """{'current': bytes in use, 'peak': the most in use}; tensorweave does not track host memory
    per device, so a CPU reports zeros, as TF's CPU allocator does without stats."""
    name = _logical_name(device)
    if name.startswith("GPU"):
        import cupy
        pool = cupy.get_default_memory_pool()
        return {"current": int(pool.used_bytes()), "peak": int(pool.total_bytes())}
    return {"current": 0, "peak": 0}


def get_memory_usage(device):
    """The current bytes in use on `device` (TF's deprecated form of get_memory_info)."""
    return get_memory_info(device)["current"]


def reset_memory_stats(device):
    """Resets the peak; a CPU keeps no statistics (ValueError, as TF)."""
    if _logical_name(device).startswith("CPU"):
        raise ValueError("Failed parsing device name: 'CPU:0'. Note a valid device string for this function "
                         "has the form: 'GPU:<N>'")


def get_device_policy():
    """How inputs on the wrong device are handled: 'silent' (copied) by default."""
    return _state.device_policy


def set_device_policy(device_policy):
    """One of None, 'silent', 'silent_for_int32', 'warn', 'explicit' (recorded)."""
    if device_policy not in (None, "silent", "silent_for_int32", "warn", "explicit"):
        raise ValueError(f"Not a valid device policy: {device_policy!r}")
    _state.device_policy = "silent" if device_policy is None else device_policy


def get_synchronous_execution():
    """True: tensorweave runs each op to completion before the next in program order."""
    return _state.synchronous


def set_synchronous_execution(enable):
    """Recorded; execution stays synchronous."""
    _state.synchronous = bool(enable)


def tensor_float_32_execution_enabled():
    """Whether TensorFloat-32 math may be used on GPUs that have it (True by default, as TF)."""
    return _state.tf32


def enable_tensor_float_32_execution(enabled):
    """Records whether TensorFloat-32 math may be used."""
    _state.tf32 = bool(enabled)
