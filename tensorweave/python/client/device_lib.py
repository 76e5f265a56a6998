"""`device_lib.list_local_devices()`: the local devices (name "/device:CPU:0", device_type,
memory_limit, incarnation, physical_device_desc)."""

from ...runtime.devices import list_local_devices

__all__ = ["list_local_devices"]
