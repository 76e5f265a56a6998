"""State that outlives a step: variable cells and other per-session resources (RNG streams,
queues, accumulators), kept in one resource manager per session (per task when distributed)."""

import threading

__all__ = ["VariableCell", "ResourceManager"]


class VariableCell:
    """The storage of one variable. `value` is its NumPy array (None until initialized); updates
    write into that array in place so a training step allocates no parameter-sized memory.

    A reference tensor (dtype `float32_ref`) carries the cell itself through a step; ops that read
    the variable dereference it, ops that update it (Assign, ApplyGradientDescent...) write into it.
    """

    __slots__ = ("name", "value", "lock")

    def __init__(self, name):
        self.name = name
        self.value = None
        self.lock = threading.Lock()

    def __repr__(self):
        state = "uninitialized" if self.value is None else f"shape={self.value.shape} dtype={self.value.dtype}"
        return f"<VariableCell {self.name!r} {state}>"


class ResourceManager:
    """Resources by (kind, container, name). Thread-safe creation; lookups are dict reads."""

    def __init__(self):
        self._lock = threading.Lock()
        self._resources = {}

    def variable(self, name, container=""):
        return self.lookup_or_create("variable", name, lambda: VariableCell(name), container)

    def lookup_or_create(self, kind, name, factory, container=""):
        key = (kind, container, name)
        r = self._resources.get(key)
        if r is None:
            with self._lock:
                r = self._resources.get(key)
                if r is None:
                    r = factory()
                    self._resources[key] = r
        return r

    def lookup(self, kind, name, container=""):
        return self._resources.get((kind, container, name))

    def items(self, kind=None):
        return [(k, v) for k, v in list(self._resources.items()) if kind is None or k[0] == kind]

    def clear(self, containers=None):
        """Drops resources (all, or those in `containers`); a resource with a `cancel()` method
        (queues, accumulators, iterators) is cancelled first, so ops blocked on it end."""
        with self._lock:
            if containers is None:
                dropped = list(self._resources.values())
                self._resources.clear()
            else:
                dropped = []
                for key in [k for k in self._resources if k[1] in containers]:
                    dropped.append(self._resources.pop(key))
        for r in dropped:
            cancel = getattr(r, "cancel", None)
            if callable(cancel):
                try:
                    cancel()
                except Exception:  # noqa: BLE001 - closing must not fail on one resource
                    pass
