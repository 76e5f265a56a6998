"""What runs under an iterator: per-element functions compiled from FuncGraphs, and the
background stages (prefetch, parallel map) with bounded buffers and stop events.

An iterator's pipeline is a chain of Python generators yielding flat tuples of NumPy arrays.
Stages that use threads start daemon threads that check the pipeline's stop event at least every
0.1 s, so closing the session (or re-initializing the iterator) ends them and none blocks process
exit.
"""

import threading
import weakref

from ..framework import errors
from ..runtime.plan import StepContext, compile_plan

_POLL = 0.1


class PipelineContext:
    """Shared by the stages of one iterator pipeline: the kernel context (array namespace,
    resources) and the stop event."""

    def __init__(self, ctx, stop):
        self.ctx = ctx
        self.stop = stop
        self.resumable = frozenset()  # ids of the datasets that may emit `Failed` (iterator_ops)

    def check(self):
        if self.stop.is_set():
            raise errors.CancelledError(None, None, "Iterator was cancelled")


class CompiledFunction:
    """A traced dataset function (map/filter/flat_map...): a FuncGraph compiled once per session
    into a plan that takes the element's components, then the captured outer values."""

    def __init__(self, func_graph, fetches=None):
        self.graph = func_graph
        outputs = [t for t in (fetches if fetches is not None else func_graph.outputs)]
        self.captures = list(func_graph.external_captures)
        # Outputs that are arguments pass straight through (no plan call, no copy); the element's
        # arrays belong to the pipeline, so they need no defensive copy.
        n_args = len(func_graph.inputs) - len(self.captures)
        arg_index = {t: i for i, t in enumerate(func_graph.inputs[:n_args])}
        self._route = [("arg", arg_index[t]) if t in arg_index else ("plan", None) for t in outputs]
        self.fetches = [t for t, (kind, _) in zip(outputs, self._route) if kind == "plan"]
        j = 0
        for k, (kind, _) in enumerate(self._route):
            if kind == "plan":
                self._route[k] = ("plan", j)
                j += 1
        self._plans = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def bind(self, valmap, ctx):
        """A function of the flat element components returning the flat outputs (a list)."""
        plan = self._plans.get(ctx)
        if plan is None:
            with self._lock:
                plan = self._plans.get(ctx)
                if plan is None:
                    plan = compile_plan(self.fetches, list(self.graph.inputs), ctx)
                    self._plans[ctx] = plan
        captured = [valmap[t] for t in self.captures]
        step = StepContext(0) if plan.needs_step else None
        run = plan.run
        call = (lambda args: run(step, args)) if not captured else (lambda args: run(step, list(args) + captured))
        if all(kind == "plan" for kind, _ in self._route) and \
                [i for _, i in self._route] == list(range(len(self._route))):
            return lambda *args: call(args)
        route = self._route
        if not self.fetches:
            return lambda *args: [args[i] for _, i in route]

        def routed(*args):
            out = call(args)
            return [out[i] if kind == "plan" else args[i] for kind, i in route]
        return routed


class Failed:
    """In place of an element whose map/filter function failed: the pipeline goes on, and
    get_next raises `error` for this element only, as TF does (a generator that raised could
    not resume). Stages that pass these through are in `RESUMABLE`; they keep them in order."""

    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


# Names of the dataset classes that pass `Failed` elements through (see resumable_ids).
RESUMABLE = frozenset(["MapDataset", "FilterDataset", "BatchDataset", "PrefetchDataset", "RepeatDataset",
                       "TakeDataset", "SkipDataset", "ZipDataset", "ConcatenateDataset", "ShuffleDataset",
                       "FlatMapDataset", "InterleaveDataset", "CacheDataset", "PaddedBatchDataset",
                       "UnbatchDataset", "WindowDataset", "DenseToSparseBatchDataset", "DenseToRaggedDataset",
                       "ScanDataset", "ShardDataset", "UniqueDataset", "TakeWhileDataset", "IgnoreErrorsDataset",
                       "GroupByWindowDataset", "GroupByReducerDataset", "AssertCardinalityDataset",
                       "_DirectedInterleaveDataset", "_DeviceDataset", "_OptionsDataset"])


def resumable_ids(dataset):
    """The ids of the datasets under an iterator whose every consumer, up to the iterator, passes
    `Failed` elements through: only these emit them (any other keeps raising, ending the pipeline,
    so a stage that does not know markers never sees one)."""
    ok, bad = set(), set()
    stack = [(dataset, True)]
    while stack:
        ds, aware = stack.pop()
        (ok if aware else bad).add(id(ds))
        aware = aware and type(ds).__name__ in RESUMABLE
        inner = getattr(getattr(ds, "_f", None), "inner", None)  # flat_map/interleave's function
        for child in list(ds._inputs) + ([inner] if inner is not None else []):
            if (id(child) in (ok if aware else bad)):
                continue
            stack.append((child, aware))
    return ok - bad


def whole_pipeline(dataset, valmap, ctx):
    """The elements for a consumer that runs all of `dataset` in one op (reduce, save, a table
    or TFRecord writer): failed elements flow through the stages (so ignore_errors inside skips
    them), and the first one to reach the end raises its error, failing the op as in TF."""
    rt = PipelineContext(ctx, threading.Event())
    rt.resumable = resumable_ids(dataset)
    it = dataset._bind(valmap, rt)()

    def elements():
        try:
            for element in it:
                if isinstance(element, Failed):
                    raise element.error
                yield element
        finally:
            rt.stop.set()
            it.close()
    return elements()


class _End:
    """Marks the end of a stage's input (optionally carrying the error that ended it)."""

    def __init__(self, error=None):
        self.error = error


def _put(q, item, rt):
    import queue as _queue
    while not rt.stop.is_set():
        try:
            q.put(item, timeout=_POLL)
            return True
        except _queue.Full:
            continue
    return False


def prefetch(make_input, buffer_size, rt):
    """Yields the input's elements, computed ahead by a daemon thread (at most `buffer_size`)."""
    import queue as _queue
    q = _queue.Queue(max(1, buffer_size))
    local_stop = threading.Event()

    class _Stop:  # the worker stops on either the pipeline's or this stage's stop event
        @staticmethod
        def is_set():
            return rt.stop.is_set() or local_stop.is_set()

    wrt = PipelineContext(rt.ctx, _Stop)

    def work():
        it = make_input()
        try:
            for item in it:
                if not _put(q, item, wrt):
                    return
            _put(q, _End(), wrt)
        except BaseException as e:  # noqa: BLE001 - handed to the consumer
            _put(q, _End(e), wrt)
        finally:
            close = getattr(it, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001
                    pass

    t = threading.Thread(target=work, name="tensorweave-prefetch", daemon=True)
    t.start()
    try:
        while True:
            try:
                item = q.get(timeout=_POLL)
            except _queue.Empty:
                rt.check()
                if not t.is_alive() and q.empty():
                    return
                continue
            if isinstance(item, _End):
                if item.error is not None:
                    raise item.error
                return
            yield item
    finally:
        local_stop.set()
        t.join(1.0)


def parallel_map(make_input, fn, num_parallel_calls, rt, resumable=False):
    """Yields fn(*element) for each input element, in order, computed by `num_parallel_calls`
    daemon threads with at most 2 * num_parallel_calls results outstanding; with `resumable`, a
    failing element yields a `Failed` (input `Failed`s pass through)."""
    n = max(1, int(num_parallel_calls))
    window = 2 * n
    cv = threading.Condition()
    state = {"next_in": 0, "next_out": 0, "end": None, "error": None, "stopped": False}
    results = {}
    it = make_input()
    in_lock = threading.Lock()

    def stopped():
        return state["stopped"] or rt.stop.is_set()

    def work():
        while True:
            with cv:
                while state["next_in"] - state["next_out"] >= window and not stopped():
                    cv.wait(_POLL)
                if stopped() or state["end"] is not None:
                    return
            with in_lock:
                if state["end"] is not None:
                    return
                seq = state["next_in"]
                try:
                    element = next(it)
                except StopIteration:
                    with cv:
                        state["end"] = seq
                        cv.notify_all()
                    return
                except BaseException as e:  # noqa: BLE001
                    with cv:
                        state["end"] = seq
                        results[seq] = _End(e)
                        cv.notify_all()
                    return
                state["next_in"] = seq + 1
            if isinstance(element, Failed):
                out = element
            else:
                try:
                    out = fn(*element)
                except errors.OpError as e:
                    out = Failed(e) if resumable else _End(e)
                except BaseException as e:  # noqa: BLE001
                    out = _End(e)
            with cv:
                results[seq] = out
                cv.notify_all()

    threads = [threading.Thread(target=work, name="tensorweave-map", daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    try:
        while True:
            with cv:
                seq = state["next_out"]
                while seq not in results:
                    if state["end"] is not None and seq >= state["end"]:
                        return
                    rt.check()
                    cv.wait(_POLL)
                out = results.pop(seq)
                state["next_out"] = seq + 1
                cv.notify_all()
            if isinstance(out, _End):
                raise out.error
            yield out
    finally:
        with cv:
            state["stopped"] = True
            cv.notify_all()
        for t in threads:
            t.join(1.0)
        close = getattr(it, "close", None)
        if close is not None and not any(t.is_alive() for t in threads):
            try:
                close()
            except Exception:  # noqa: BLE001
                pass
