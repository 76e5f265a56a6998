"""`tensorflow.python.client.timeline` shim."""

from ...timeline import Timeline

__all__ = ["Timeline"]
