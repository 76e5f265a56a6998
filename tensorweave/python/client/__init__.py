"""`tensorflow.python.client` shims: device_lib and timeline."""
