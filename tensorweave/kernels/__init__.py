"""Kernels: the code computing each op on a device type. Importing this package registers them."""

from . import cpu  # noqa: F401  (registers the CPU kernels)
