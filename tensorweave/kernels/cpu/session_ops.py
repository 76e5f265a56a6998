"""CPU kernels for the session tensor store (ops/session_ops.py): GetSessionHandle stores its
input under a new handle, GetSessionTensor reads one back, DeleteSessionTensor frees one. The
store is the session's (`Session._session_tensors`), with TF's messages for a missing handle."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _store(ctx):
    return ctx.session._session_tensors


def _handle(value):
    h = np.asarray(value).reshape(-1)[0]
    return h.decode() if isinstance(h, bytes) else str(h)


@register_kernel("GetSessionHandle")
def _get_session_handle(op, ctx):
    name, device = op.name, ctx.device

    def get_session_handle(value):
        store = _store(ctx)
        handle = f"{name};{store.new_id()};{device}"
        store.tensors[handle] = np.array(value, copy=True)
        return np.array(handle.encode(), dtype=object)
    return get_session_handle


@register_kernel("GetSessionTensor")
def _get_session_tensor(op, ctx):
    def get_session_tensor(handle):
        h = _handle(handle)
        try:
            return _store(ctx).tensors[h]
        except KeyError:
            raise errors.InvalidArgumentError(
                None, op, f"The tensor with handle '{h}' is not in the session store.") from None
    return get_session_tensor


@register_kernel("DeleteSessionTensor")
def _delete_session_tensor(op, ctx):
    def delete_session_tensor(handle):
        h = _handle(handle)
        if _store(ctx).tensors.pop(h, None) is None:
            raise errors.InvalidArgumentError(
                None, op, f"Failed to delete a tensor with handle '{h}' in the session store.")
    return delete_session_tensor
