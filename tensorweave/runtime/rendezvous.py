"""The in-process rendezvous: a keyed mailbox through which a step's partitions exchange tensors.

A Send puts a value under its key; a Recv blocks until the value under its key is there. One
rendezvous serves one step (keys also carry the step id, as TF's do). `abort(error)` wakes every
waiting Recv (and fails every later one) with that error, so an error in any partition ends the
step everywhere and nothing waits forever; a deadline bounds every wait.
"""

import threading
import time

from ..framework import errors

__all__ = ["Rendezvous", "create_key", "StepAborted"]


def create_key(src_device, dst_device, tensor_name, step_id=0):
    """TF's rendezvous key shape: "src;incarnation;dst;tensor;frame_iter" (ours: step id last)."""
    return f"{src_device};{dst_device};{tensor_name};{step_id}"


class StepAborted(Exception):
    """Raised in a partition whose Recv was woken by an abort caused by another partition."""

    def __init__(self, error):
        super().__init__(str(error))
        self.error = error


class _Slot:
    __slots__ = ("event", "value", "full")

    def __init__(self):
        self.event = threading.Event()
        self.value = None
        self.full = False


class Rendezvous:
    """Keyed mailbox for one step. Thread-safe; send never blocks; recv blocks (bounded)."""

    __slots__ = ("_slots", "_error", "deadline", "transfers", "step_id")

    def __init__(self, step_id=0, timeout=None):
        self._slots = {}
        self._error = None
        self.step_id = step_id
        self.deadline = None if not timeout else time.monotonic() + timeout
        self.transfers = 0

    def _slot(self, key):
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots.setdefault(key, _Slot())  # atomic under the GIL
        return slot

    def send(self, key, value):
        slot = self._slot(key)
        if slot.full:
            raise errors.InternalError(None, None, f"Send of an already sent tensor: {key}")
        slot.value = value
        slot.full = True
        self.transfers += 1
        slot.event.set()

    def recv(self, key):
        slot = self._slot(key)
        if not slot.full:
            while True:
                if self._error is not None:
                    raise StepAborted(self._error)
                wait = 1.0 if self.deadline is None else self.deadline - time.monotonic()
                if wait <= 0:
                    err = errors.DeadlineExceededError(None, None, "Timed out waiting for notification")
                    self.abort(err)
                    raise err
                if slot.event.wait(min(wait, 1.0)):
                    break
            if not slot.full:  # woken by abort
                raise StepAborted(self._error)
        value = slot.value
        slot.value = None  # each key has one receiver: do not keep the tensor alive
        return value

    def abort(self, error):
        """Fails every pending and future recv of this step with `error` (the first one wins)."""
        if self._error is None:
            self._error = error
        for slot in list(self._slots.values()):
            slot.event.set()

    @property
    def error(self):
        return self._error
