"""`tf.Session` and `tf.InteractiveSession`: run fetches given feeds, with one compiled plan per
(fetches, feed keys) signature, cached so a repeated `run` does no graph walking."""

import collections
import concurrent.futures
import itertools
import os
import threading

import numpy as np

from ..framework.graph import (Graph, InaccessibleTensorError, Operation, Tensor, _default_session_stack,
                               get_default_graph)
from .config import ConfigProto
from .devices import DeviceAttributes, local_devices
from .executor import DeviceRunners, TracedPlan, compile_step
from .partial_run import PartialRuns
from .plan import KernelContext, StepContext, compile_plan
from .resources import ResourceManager
from .memory import tune_allocator
from ..kernels.cpu import float_env
from ..kernels.cpu.parallel import get_intra_op_threads, set_intra_op_threads

# Ops estimated above this many flops run on the inter-op pool (a hand-off costs ~20-50 us).
PARALLEL_FLOPS = 20e6

__all__ = ["Session", "InteractiveSession", "register_session_run_conversion_functions"]

_fetch_handlers = []  # (type, fetch_fn(obj) -> list of tensors, rebuild_fn(obj, values) -> value)


def register_session_run_conversion_functions(tensor_type, fetch_function, feed_function=None,
                                              feed_function_for_partial_run=None):
    """Teaches `Session.run` to fetch (and feed) a composite type, like TF's function of that name.

    fetch_function(obj) -> (list of tensors, fn(list of values) -> fetched value)
    feed_function(obj, value) -> list of (tensor, value) pairs
    """
    _fetch_handlers.append((tensor_type, fetch_function, feed_function))
    if feed_function is not None:
        global _composite_feed_types
        _composite_feed_types += (tensor_type,)


_composite_feed_types = ()  # types whose feed_dict keys expand into several tensors


def _expand_composite_feeds(feed_dict):
    """feed_dict with composite keys (e.g. SparseTensor) replaced by their component tensors."""
    out = {}
    for k, v in feed_dict.items():
        if isinstance(k, _composite_feed_types):
            for tensor_type, _, feed_fn in _fetch_handlers:
                if feed_fn is not None and isinstance(k, tensor_type):
                    out.update(feed_fn(k, v))
                    break
        else:
            out[k] = v
    return out


def _flatten_nested_feeds(feed_dict):
    """TF's nest.flatten_dict_items: a key that is a (named) tuple of tensors, e.g. an RNN's
    LSTMStateTuple, feeds its tensors from the matching structure of values."""
    from .. import nest
    flat = {}
    for k, v in feed_dict.items():
        if not nest.is_nested(k):
            if k in flat:
                raise ValueError(f"Cannot flatten dict because this key is not unique: {k}")
            flat[k] = v
            continue
        flat_k, flat_v = nest.flatten(k), nest.flatten(v)
        if len(flat_k) != len(flat_v):
            raise ValueError(f"Could not flatten dictionary. Key had {len(flat_k)} elements, but value "
                             f"had {len(flat_v)} elements. Key: {flat_k}, value: {flat_v}.")
        for fk, fv in zip(flat_k, flat_v):
            if fk in flat:
                raise ValueError(f"Cannot flatten dict because this key is not unique: {fk}")
            flat[fk] = fv
    return flat


def _feed_array(value, np_dtype):
    """A feed value as an array of the fed tensor's dtype, converted as TF 2.x converts it: numbers
    through np.asarray(v).astype(dtype) (so NumPy's conversion errors read the same, and overflow
    wraps), a Python int that the dtype cannot hold being a TypeError."""
    if type(value) is np.ndarray and value.dtype == np_dtype:
        return value
    if hasattr(value, "get_raw_handle"):   # a TensorHandle: its handle string, or its stored value
        value = value.handle if np_dtype is object else value.eval()
    if isinstance(value, int) and np_dtype is not object:
        converted = np_dtype(np.array(value).astype(np_dtype))
        if converted != value:
            raise TypeError(f"Type of feed value {value} with type {type(value)} is not compatible with "
                            f"Tensor type {np_dtype}. Try explicitly setting the type of the feed tensor "
                            "to a larger type (e.g. int64).")
    if np_dtype is not object and np.issubdtype(np_dtype, np.number):
        value = np.asarray(value)
        if value.dtype.kind in "fc" and np.issubdtype(np_dtype, np.integer):
            with np.errstate(invalid="ignore", over="ignore"):  # (TF casts NaN/inf feeds silently)
                return value.astype(np_dtype)
        return value.astype(np_dtype, copy=False)
    return np.asarray(value, dtype=np_dtype)


def _utf8_strings(a):
    """An object array's Python str elements encoded as UTF-8 bytes (a new array), or `a` itself
    when it holds none."""
    if not any(isinstance(x, str) for x in a.flat):
        return a
    out = np.empty(a.shape, object)
    out.flat[:] = [x.encode("utf-8") if isinstance(x, str) else x for x in a.flat]
    return out


class _TensorStore:
    """The values stored by fetching tf.get_session_handle (kernels/cpu/session_ops.py)."""

    def __init__(self):
        self.tensors = {}
        self._ids = itertools.count()

    def new_id(self):
        return next(self._ids)


class _Fetches:
    """Flattens a nested fetch structure into unique graph elements and rebuilds the results."""

    def __init__(self, graph, fetches, session=None):
        self.elements = []
        self._index = {}
        self._session = session
        self.wraps = False        # some fetched value is wrapped (a TensorHandle)
        self.rebuild = self._build(graph, fetches)

    def _add(self, element):
        i = self._index.get(element)
        if i is None:
            i = self._index[element] = len(self.elements)
            self.elements.append(element)
        return i

    def _build(self, graph, f):
        if f is None:
            raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
        if isinstance(f, (list, tuple)):
            subs = [self._build(graph, x) for x in f]
            if isinstance(f, list):
                return lambda vals: [s(vals) for s in subs]
            if hasattr(f, "_fields"):  # namedtuple
                cls = type(f)
                return lambda vals: cls(*[s(vals) for s in subs])
            return lambda vals: tuple(s(vals) for s in subs)
        if isinstance(f, collections.abc.Mapping):
            keys = list(f.keys())
            subs = [self._build(graph, f[k]) for k in keys]
            cls = type(f)

            def rebuild_dict(vals):
                d = {k: s(vals) for k, s in zip(keys, subs)}
                try:
                    return cls(d)
                except TypeError:
                    return d
            return rebuild_dict
        for tensor_type, fetch_fn, _ in _fetch_handlers:
            if isinstance(f, tensor_type):
                tensors, combine = fetch_fn(f)
                idx = [self._add(self._element(graph, t)) for t in tensors]
                return lambda vals: combine([vals[i] for i in idx])
        element = self._element(graph, f)
        i = self._add(element)
        if isinstance(element, Tensor) and element._op._type == "GetSessionHandle":
            # (as TF's fetch mapper does: the stored value's handle comes back as a TensorHandle)
            from ..ops.session_ops import TensorHandle
            self.wraps = True
            dtype, session = element._op._inputs[0].dtype, self._session
            return lambda vals: TensorHandle(vals[i], dtype, session)
        return lambda vals: vals[i]

    @staticmethod
    def _element(graph, f):
        try:
            return graph.as_graph_element(f, allow_tensor=True, allow_operation=True)
        except TypeError as e:
            raise TypeError(f'Argument `fetch` = {f} has invalid type "{type(f).__name__}" must be a string '
                            f'or Tensor. ({e})') from None
        except ValueError as e:
            raise ValueError(f"Argument `fetch` = {f} cannot be interpreted as a Tensor. ({e})") from None
        except KeyError as e:
            raise ValueError(f'Argument `fetch` = {f} cannot be interpreted as a Tensor. ("{e.args[0]}")') from None


def _structure_key(f):
    """A hashable key equal for equal fetch structures (None if some leaf is unhashable)."""
    if isinstance(f, list):
        return ("L",) + tuple(_structure_key(x) for x in f)
    if isinstance(f, tuple):
        return ("T", type(f)) + tuple(_structure_key(x) for x in f)
    if isinstance(f, collections.abc.Mapping):
        return ("D", type(f)) + tuple((k, _structure_key(v)) for k, v in f.items())
    hash(f)
    return f


class _Entry:
    """A cached run signature: the plan, how to read feeds, how to shape the results."""

    __slots__ = ("plan", "feeds", "rebuild", "single", "elements", "feed_tensors", "traced")

    def __init__(self, plan, feeds, rebuild, single, elements=(), feed_tensors=()):
        self.plan = plan
        self.feeds = feeds
        self.rebuild = rebuild
        self.single = single
        self.elements = elements          # what the traced plan is compiled from, on demand
        self.feed_tensors = feed_tensors
        self.traced = None


class BaseSession:
    """Runs (parts of) a graph. State (variables, queues) lives in the session until `close`."""

    def __init__(self, target="", graph=None, config=None):
        if graph is None:
            graph = get_default_graph()
        elif not isinstance(graph, Graph):
            raise TypeError(f'Argument `graph` must be a tf.Graph, but got "{type(graph).__name__}"')
        if target is not None and not isinstance(target, (str, bytes)):
            raise TypeError(f"Argument `target` must be a string, but got {type(target).__name__}")
        # A "grpc://host:port" target: steps are compiled and run by that server's master
        # (tensorweave/distributed), the rest of Session (fetches, feeds, caching) is shared.
        self._remote = None
        if target not in ("", None) and not str(target).startswith("local"):
            from ..distributed.client import connect
            self._remote = connect(target, graph, config)
        if config is not None and not isinstance(config, ConfigProto):
            raise TypeError(f'Argument `config` must be a tf.ConfigProto, but got "{type(config).__name__}"')
        self._graph = graph
        self._target = target or ""
        self._config = config or ConfigProto()
        self._closed = False
        self._resources = ResourceManager()
        self._ctx = KernelContext(self, self._resources)
        self._configure_threads()
        # Devices (runtime/devices.py): CPU:0 (the default, self._ctx), more logical CPUs with
        # device_count={'CPU': n}, GPUs with CuPy. Steps on several devices are placed and
        # partitioned (runtime/executor.py); a step all on CPU:0 keeps the single-plan path.
        self._devices = local_devices(self._config)
        self._placement = {}   # stateful op -> Device, kept across steps (placer's sticky)
        self._measured = {}    # (op name, device type) -> seconds, from traced runs
        self._device_ctxs = {}
        self._runners = DeviceRunners()
        self._cache = {}
        self._partial_runs = PartialRuns()
        self._session_tensors = _TensorStore()
        self._step_ids = itertools.count(1)
        self._default_graph_cm = None
        self._default_session_cm = None

    def _configure_threads(self):
        """inter_op_parallelism_threads sizes the pool for expensive independent ops (1:
        everything inline; 0: as many as the cores leave room for beside BLAS's own threads, so
        two concurrent matmuls do not oversubscribe the cores); intra_op_parallelism_threads sets
        BLAS's threads."""
        config = self._config
        tune_allocator()
        if config.intra_op_parallelism_threads > 0:
            set_intra_op_threads(config.intra_op_parallelism_threads)
        n = config.inter_op_parallelism_threads
        if n == 0:
            blas = get_intra_op_threads() or 1
            n = max(1, (os.cpu_count() or 1) // blas)
        self._ctx.pool = None
        self._ctx.parallel_flops = PARALLEL_FLOPS
        if n > 1:
            self._ctx.pool = concurrent.futures.ThreadPoolExecutor(
                n - 1, thread_name_prefix="tensorweave-inter-op",
                initializer=float_env.flush_in_this_thread)   # (its threads run only kernels)

    graph = property(lambda self: self._graph)
    sess_str = property(lambda self: self._target.encode() if isinstance(self._target, str) else self._target)

    @property
    def graph_def(self):
        return self._graph.as_graph_def()

    def list_devices(self):
        """The session's devices (name, device_type, memory_limit_bytes, incarnation)."""
        return [DeviceAttributes(d) for d in self._devices]

    # -- run -----------------------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the ops and evaluates the tensors in `fetches` (a graph element or a nested
        list/tuple/dict/namedtuple of them), substituting `feed_dict` values for tensors."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if self._graph.version == 0:
            raise RuntimeError("The Session graph is empty. Add operations to the graph before calling run().")
        if options and not hasattr(options, "trace_level"):  # (TF serializes it first: no RunOptions)
            raise AttributeError(f"'{type(options).__name__}' object has no attribute 'SerializeToString'")
        if feed_dict and any(type(k) is not Tensor and isinstance(k, tuple) for k in feed_dict):
            feed_dict = _flatten_nested_feeds(feed_dict)
        if feed_dict and _composite_feed_types and any(isinstance(k, _composite_feed_types) for k in feed_dict):
            feed_dict = _expand_composite_feeds(feed_dict)
        feed_keys = tuple(feed_dict) if feed_dict else ()
        try:
            if isinstance(fetches, tuple):
                # (a tuple equals a namedtuple of the same items: key on the structure's types)
                raise TypeError
            entry = self._cache[(fetches, feed_keys)]
        except KeyError:
            entry = self._entry((fetches, feed_keys), fetches, feed_dict)
        except TypeError:
            try:
                key = (_structure_key(fetches), feed_keys)
            except TypeError:
                key = None
            entry = self._cache.get(key) if key is not None else None
            if entry is None:
                entry = self._entry(key, fetches, feed_dict)
        values = []
        fed_strings = None
        for key, tensor, np_dtype, shape in entry.feeds:
            v = feed_dict[key]
            if isinstance(v, Tensor):
                raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                                "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. "
                                "For reference, the tensor object was " + str(v) + " which was passed to "
                                "the argument `feed_dict` with key " + str(key) + ".")
            a = _feed_array(v, np_dtype)
            if shape is not None:
                s = a.shape
                if len(s) != len(shape) or any(d is not None and d != x for d, x in zip(shape, s)):
                    raise ValueError(f"Cannot feed value of shape {s} for Tensor {tensor.name}, which has "
                                     f"shape {tensor.shape}")
            if np_dtype is object:
                encoded = _utf8_strings(a)
                if encoded is not a:
                    # The graph sees bytes, as TF converts the feed to a string tensor; fetching
                    # the fed tensor itself returns the value as fed (TF's feed short-cut).
                    fed_strings = fed_strings or {}
                    fed_strings[tensor] = a
                    a = encoded
            values.append(a)
        plan = entry.plan
        if options is not None and run_metadata is not None and getattr(options, "trace_level", 0):
            plan = entry.traced or self._traced_plan(entry)
        step = StepContext(next(self._step_ids), options, run_metadata) if plan.needs_step else None
        with np.errstate(all="ignore"):
            results = plan.run(step, values)
        if fed_strings:
            results = [fed_strings.get(e, r) if isinstance(e, Tensor) else r
                       for e, r in zip(entry.elements, results)]
        if entry.single:
            return results[0]
        return entry.rebuild(results)

    def _entry(self, key, fetches, feed_dict):
        graph = self._graph
        mapper = _Fetches(graph, fetches, self)
        feeds = []
        feed_tensors = []
        for k in (feed_dict or ()):
            try:
                t = graph.as_graph_element(k, allow_tensor=True, allow_operation=False)
            except Exception as e:
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: {_first_arg(e)}") from None
            if not isinstance(t, Tensor):
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: {k!r}")
            if not graph.is_feedable(t):
                raise ValueError(f"Tensor {t.name} may not be fed.")
            shape = None if t.shape.ndims is None else tuple(d.value for d in t.shape)
            dt = t.dtype.base_dtype
            np_dtype = object if dt.name == "string" else dt.as_numpy_dtype
            if t in feed_tensors:  # (fed twice, e.g. as x and 'x:0': the later key wins, as in TF)
                feeds[feed_tensors.index(t)] = (k, t, np_dtype, shape)
                continue
            feeds.append((k, t, np_dtype, shape))
            feed_tensors.append(t)
        if graph._unfetchable_ops:
            for e in mapper.elements:
                if not graph.is_fetchable(e):
                    raise InaccessibleTensorError(
                        f"Operation {(e.op if isinstance(e, Tensor) else e).name} has been marked as not "
                        "fetchable. Typically this happens when it is defined in another function or code "
                        "block. Use return values, explicit Python locals or TensorFlow collections to "
                        "access it.")
        plan = self._compile(mapper.elements, feed_tensors)
        single = isinstance(fetches, (Tensor, Operation, str)) and len(mapper.elements) == 1 and not mapper.wraps
        entry = _Entry(plan, feeds, mapper.rebuild, single, mapper.elements, feed_tensors)
        if key is not None:
            self._cache[key] = entry
        return entry

    def _compile(self, fetches, feeds, trace=False):
        """Places the step; the ordinary single plan when it all runs on the default device."""
        if self._remote is not None:
            return self._remote.compile(fetches, feeds, trace=trace)
        order, plan = compile_step(fetches, feeds, self, self._devices, self._ctx, self._config,
                                   self._placement, self._measured, self._runners, self._device_ctxs,
                                   trace)
        if plan is None:
            plan = compile_plan(fetches, feeds, self._ctx, order=order, trace=trace)
            if trace:
                plan = TracedPlan(plan, self._devices[0], self._measured)
        return plan

    def _traced_plan(self, entry):
        """The entry's instrumented plan (compiled once, used only by traced runs)."""
        entry.traced = self._compile(entry.elements, entry.feed_tensors, trace=True)
        return entry.traced

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """A function taking the `feed_list` values positionally and returning `run`'s result."""
        feed_list = list(feed_list or [])

        def call(*args, **kwargs):
            # (TF's callable feeds what it is given: a missing feed fails as an unfed placeholder,
            # extra values are ignored)
            return self.run(fetches, dict(zip(feed_list, args)), kwargs.get("options"),
                            kwargs.get("run_metadata"))
        return call

    def partial_run_setup(self, fetches, feeds=None):
        """Sets up a step run over several `partial_run` calls: `fetches` (a nested structure of
        graph elements) are what those calls may fetch, `feeds` (tensors) what they may feed.
        Returns the handle to pass to `partial_run`."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        feeds = [] if feeds is None else (list(feeds) if isinstance(feeds, (list, tuple)) else [feeds])
        feed_tensors = []
        for f in feeds:
            for k in (_expand_composite_feeds({f: None}) if isinstance(f, _composite_feed_types) else (f,)):
                try:
                    feed_tensors.append(self._graph.as_graph_element(k, allow_tensor=True, allow_operation=False))
                except Exception as e:  # noqa: BLE001 - re-raised as TF words it
                    raise type(e)(f"Cannot interpret argument `feed` key as Tensor: {e}") from None
        return self._partial_runs.setup(self, feed_tensors, _Fetches(self._graph, fetches).elements)

    def partial_run(self, handle, fetches, feed_dict=None):
        """Continues the partial run `handle`: feeds `feed_dict` and returns `fetches` (each op of
        the step runs at most once over all the calls; runtime/partial_run.py)."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if feed_dict and _composite_feed_types and any(isinstance(k, _composite_feed_types) for k in feed_dict):
            feed_dict = _expand_composite_feeds(feed_dict)
        feeds = {}
        for k, v in (feed_dict or {}).items():
            try:
                t = self._graph.as_graph_element(k, allow_tensor=True, allow_operation=False)
            except Exception as e:  # noqa: BLE001 - re-raised as TF words it
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: {_first_arg(e)}") from None
            a = _feed_array(v, object if t.dtype.base_dtype.name == "string" else t.dtype.base_dtype.as_numpy_dtype)
            if not t.shape.is_compatible_with(a.shape):
                raise ValueError(f"Cannot feed value of shape {a.shape} for Tensor {t.name}, which has "
                                 f"shape {t.shape}")
            feeds[t] = a
        mapper = _Fetches(self._graph, fetches, self)
        return mapper.rebuild(self._partial_runs.run(self, handle, mapper.elements, feeds))

    # -- lifetime ------------------------------------------------------------------------------
    def close(self):
        """Frees the session's state (variable values, queues)."""
        if not self._closed:
            self._closed = True
            self._cache.clear()
            self._partial_runs.clear()
            self._session_tensors.tensors.clear()
            if getattr(self, "_remote", None) is not None:
                self._remote.close()
            self._resources.clear()
            if self._ctx.pool is not None:
                self._ctx.pool.shutdown(wait=False)
            self._runners.shutdown()

    def as_default(self):
        """Context making this the default session (for `Tensor.eval`, `Operation.run`)."""
        return _default_session_stack.get_controller(self)

    def __enter__(self):
        if self._default_graph_cm is None:
            self._default_graph_cm = self._graph.as_default()
        if self._default_session_cm is None:
            self._default_session_cm = self.as_default()
        self._default_graph_cm.__enter__()
        return self._default_session_cm.__enter__()

    def __exit__(self, exc_type, exc, tb):
        try:
            self._default_session_cm.__exit__(exc_type, exc, tb)
            self._default_graph_cm.__exit__(exc_type, exc, tb)
        finally:
            self._default_session_cm = None
            self._default_graph_cm = None
            self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class Session(BaseSession):
    """`tf.Session(target='', graph=None, config=None)`."""

    @staticmethod
    def reset(target, containers=None, config=None):
        """Clears `containers` (all state when None) on every task of the cluster at `target`."""
        from ..distributed.client import reset
        reset(target, containers, config)


class InteractiveSession(BaseSession):
    """A session that installs itself as the default on construction (for shells/notebooks)."""

    _count_lock = threading.Lock()

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._explicit_graph = graph
        self._session_cm = self.as_default()
        self._session_cm.__enter__()
        self._graph_cm = None
        if graph is not None:
            self._graph_cm = graph.as_default()
            self._graph_cm.__enter__()

    def close(self):
        if getattr(self, "_session_cm", None) is not None:
            cm, self._session_cm = self._session_cm, None
            try:
                cm.__exit__(None, None, None)
            except Exception:  # noqa: BLE001
                pass
            if self._graph_cm is not None:
                try:
                    self._graph_cm.__exit__(None, None, None)
                except Exception:  # noqa: BLE001
                    pass
        super().close()


def _first_arg(e):
    """TF words the feed-key error with `e.args[0]` (str(KeyError) would add quotes)."""
    return e.args[0] if e.args else str(e)
