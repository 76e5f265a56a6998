"""Tensors kept in the session between runs: `tf.get_session_handle`, `tf.get_session_tensor`,
`tf.delete_session_tensor` and `TensorHandle`.

Fetching `get_session_handle(t)` stores t's value in the session and returns a `TensorHandle`
naming it ("<op name>;<id>;<device>", as TF words it); feeding that handle string to the
placeholder of `get_session_tensor` gives the stored value back inside a later run, without it
going through Python; `delete_session_tensor` (or `TensorHandle.delete()`) frees it. The store is
the session's (the kernels are in kernels/cpu/session_ops.py) and is emptied when it closes.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import colocate_with, device
from ..framework.op_util import apply_op, scalar_shape, unknown_shape_fn

__all__ = ["get_session_handle", "get_session_tensor", "delete_session_tensor", "TensorHandle"]

registry.register_op("GetSessionHandle", shape_fn=scalar_shape, stateful=True)
registry.register_op("GetSessionTensor", shape_fn=unknown_shape_fn, stateful=True)
registry.register_op("DeleteSessionTensor", stateful=True)
for _t in ("GetSessionHandle", "GetSessionTensor", "DeleteSessionTensor"):
    registry.no_gradient(_t)


def get_session_handle(data, name=None):
    """A string scalar that, when fetched, stores `data`'s value in the session and comes back as
    a `TensorHandle` for it (colocated with `data`)."""
    data = convert_to_tensor(data)
    with colocate_with(data):
        return apply_op("GetSessionHandle", [data], [_dtypes.string], name or "GetSessionHandle",
                        attrs={"T": data.dtype.base_dtype})


def _handle_device(handle):
    return handle.split(";")[-1]


def get_session_tensor(handle, dtype, name=None):
    """`(holder, tensor)`: feed a handle string (from a fetched `get_session_handle`) to the string
    placeholder `holder` and `tensor` is the stored value (of `dtype`), on the handle's device."""
    from .array_ops import placeholder
    dtype = _dtypes.as_dtype(dtype).base_dtype
    with device(_handle_device(str(handle))):
        holder = placeholder(_dtypes.string)
        tensor = apply_op("GetSessionTensor", [holder], [dtype], name or "GetSessionTensor",
                          attrs={"dtype": dtype})
    return holder, tensor


def delete_session_tensor(handle, name=None):
    """`(holder, deleter)`: running `deleter` with a handle string fed to `holder` frees that
    stored value."""
    from .array_ops import placeholder
    with device(_handle_device(str(handle))):
        holder = placeholder(_dtypes.string)
        deleter = apply_op("DeleteSessionTensor", [holder], [], name or "DeleteSessionTensor")
    return holder, deleter


def _cached(graph, table, key, make):
    """The reader/deleter ops TF keeps per graph (`_handle_readers`, `_handle_deleters`)."""
    store = graph.__dict__.setdefault(table, {})
    if key not in store:
        with graph.as_default():
            store[key] = make()
    return store[key]


class TensorHandle:
    """A value stored in a session by fetching `get_session_handle`; `str()` is its handle."""

    def __init__(self, handle, dtype, session):
        self._handle = handle.decode() if isinstance(handle, bytes) else str(handle)
        self._dtype = _dtypes.as_dtype(dtype)
        self._session = session

    def __str__(self):
        return self._handle

    @property
    def handle(self):
        """The handle string ("<op name>;<id>;<device>")."""
        return self._handle

    def get_raw_handle(self):
        return self._handle

    def eval(self):
        """The stored value (runs the graph's reader op for this handle's kind)."""
        parts = self._handle.split(";")
        holder, reader = _cached(self._session.graph, "_handle_readers", parts[0] + ";" + parts[-1] + str(self._dtype),
                                 lambda: get_session_tensor(self._handle, self._dtype))
        return self._session.run(reader, feed_dict={holder: self._handle})

    def delete(self):
        """Frees the stored value."""
        holder, deleter = _cached(self._session.graph, "_handle_deleters", _handle_device(self._handle),
                                  lambda: delete_session_tensor(self._handle))
        self._session.run(deleter, feed_dict={holder: self._handle})

