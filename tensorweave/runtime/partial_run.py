"""`Session.partial_run_setup` / `Session.partial_run`: one step run in several calls.

Setup names every tensor the step will be fed and every element it will fetch; each later call
feeds some of those feeds and fetches some of those fetches, and each op of the step runs at most
once, as in TF: a call also fetches the tensors it computed that a later call's fetches will need
(the boundary between what has run and what has not), and later calls are fed those values, so
a random op or a stateful op upstream of two fetches runs once and both see its one result.
(A reference or resource tensor is never cached that way: it names state, it is not a value.)

The checks and their messages follow TF's DirectSession (InvalidArgumentError "The feed a:0 has
already been fed.", "Fetch c:0 can't be computed from the feeds that have been fed so far.", ...).
"""

import itertools

from ..framework import errors
from ..framework.graph import Operation, Tensor
from .plan import _prune, _toposort

__all__ = ["PartialRuns"]


def _invalid(message):
    return errors.InvalidArgumentError(None, None, errors.graph_execution_message(message))


class _State:
    """What one partial run has been told: its feeds and fetches, what is still pending, and the
    values (fed, or computed and needed later) it has so far."""

    def __init__(self, feeds, fetches):
        self.feeds = set(feeds)
        self.fetches = set(fetches)
        self.pending_feeds = set(feeds)
        self.pending_fetches = set(fetches)
        self.values = {}

    def done(self):
        return not self.pending_feeds and not self.pending_fetches


class PartialRuns:
    """A session's open partial runs, by handle."""

    def __init__(self):
        self._states = {}
        self._counter = itertools.count()

    def setup(self, session, feeds, fetch_elements):
        """Registers a partial run; returns its handle (TF's form: "feeds->fetches/targets/1/;n").

        As TF's executor starts at setup, the part of the step that needs no feed runs now: its
        values that the rest of the step needs (or that are fetched) are kept for later calls."""
        feeds = list(dict.fromkeys(feeds))
        fetch_elements = list(dict.fromkeys(fetch_elements))
        for e in fetch_elements:
            if isinstance(e, Tensor) and e in feeds:
                raise _invalid(f"{e.name} is both fed and fetched.")
        tensors = sorted(e.name for e in fetch_elements if isinstance(e, Tensor))
        targets = sorted(e.name for e in fetch_elements if isinstance(e, Operation))
        handle = (",".join(sorted(t.name for t in feeds)) + "->" + ",".join(tensors) + "/" + ",".join(targets)
                  + f"/1/;{next(self._counter)}")
        state = _State(feeds, fetch_elements)
        early = _independent_values(fetch_elements, set(feeds))
        if early:
            state.values.update(zip(early, session.run(early)))
        self._states[handle] = state
        return handle

    def run(self, session, handle, elements, feeds):
        """Feeds `feeds` ({Tensor: array}) and returns the values of `elements` (a list)."""
        state = self._states.get(handle) if isinstance(handle, str) else None
        if state is None:
            raise _invalid("Must run 'setup' before performing partial runs!")
        for t in feeds:
            if t not in state.feeds:
                raise _invalid(f"The feed {t.name} was not specified in partial_run_setup.")
            if t not in state.pending_feeds:
                raise _invalid(f"The feed {t.name} has already been fed.")
        for e in elements:
            if e not in state.fetches:
                raise _invalid(f"The fetch {e.name} was not specified in partial_run_setup.")
            if e not in state.pending_fetches:
                raise _invalid(f"The fetch {e.name} has already been fetched.")
        unfed = state.pending_feeds - set(feeds)
        for e in elements:
            _check_computable(e, unfed, set(state.values) | set(feeds))
        state.values.update(feeds)
        state.pending_feeds.difference_update(feeds)
        state.pending_fetches.difference_update(elements)
        known = set(state.values)
        wanted = [e for e in elements if not (isinstance(e, Tensor) and e in known)]
        boundary = _boundary(wanted, state.pending_fetches, known, state.feeds)
        run_list = list(dict.fromkeys(wanted + boundary))
        results = session.run(run_list, dict(state.values)) if run_list else []
        computed = dict(zip(run_list, results))
        for t in boundary:
            state.values[t] = computed[t]
        if state.done():
            del self._states[handle]
        return [state.values[e] if isinstance(e, Tensor) and e in state.values else computed[e]
                for e in elements]

    def clear(self):
        self._states.clear()


def _roots(elements):
    return [e if isinstance(e, Operation) else e._op for e in elements]


def _independent_values(elements, feeds):
    """The tensors computable without any feed that the feed-dependent ops (or the fetches) use."""
    step = _prune(_roots(elements), feeds)
    dependent = set()
    for op in _toposort(step):
        if any(t in feeds or t._op in dependent for t in op._inputs) or \
                any(c in dependent for c in op._control_inputs):
            dependent.add(op)
    out = []
    for t in [e for e in elements if isinstance(e, Tensor)] + [t for op in dependent for t in op._inputs]:
        if t._op in step and t._op not in dependent and t not in feeds and _cacheable(t) and t not in out:
            out.append(t)
    return out


def _cacheable(t):
    return not t._dtype._is_ref_dtype and t._dtype.base_dtype.name not in ("resource", "variant")


def _check_computable(element, unfed, known):
    """TF's CheckFetch: walking back from the fetch over data edges, no unfed feed is reached."""
    start = element._op if isinstance(element, Tensor) else element
    seen = {start}
    queue = [start]
    while queue:
        op = queue.pop(0)
        for t in op._inputs:
            if t in known:
                continue
            if t in unfed:
                raise _invalid(f"Fetch {t.name} can't be computed from the feeds that have been fed so far.")
            if t._op not in seen:
                seen.add(t._op)
                queue.append(t._op)


def _boundary(wanted, remaining, known, all_feeds):
    """The tensors this call computes that the remaining fetches need (or are)."""
    if not wanted or not remaining:
        return []
    done = _prune(_roots(wanted), known)
    later = _prune(_roots(remaining), known | all_feeds)
    out = []
    for t in [e for e in remaining if isinstance(e, Tensor)] + \
            [t for op in later if op not in done for t in op._inputs]:
        if t._op in done and t not in known and _cacheable(t) and t not in out:
            out.append(t)
    return out
