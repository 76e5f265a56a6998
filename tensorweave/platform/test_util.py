"""The rest of `tf.test`: `get_temp_dir`, `Benchmark`, `assert_equal_graph_def` and the build queries.

`Benchmark.report_benchmark` prints TF's `BenchmarkEntries` text (or, when the environment
variable TEST_REPORT_FILE_PREFIX is set, writes one file per entry as TF does, as text rather
than TF's serialized test_log proto, which tensorweave does not ship).
"""

import atexit
import inspect
import math
import numbers
import os
import shutil
import tempfile
import time

__all__ = ["get_temp_dir", "Benchmark", "assert_equal_graph_def", "is_built_with_rocm", "is_built_with_xla",
           "is_cpu_target_available", "test_src_dir_path", "create_local_cluster"]

_temp_dir = None


def get_temp_dir():
    """A temporary directory for this process's tests, made once and removed at exit (TF's:
    `$TEST_TMPDIR<random>` when that variable is set, else `/tmp/<program name><random>`)."""
    global _temp_dir
    if _temp_dir is None:
        if os.environ.get("TEST_TMPDIR"):
            d = tempfile.mkdtemp(prefix=os.environ["TEST_TMPDIR"])
        else:
            first = inspect.stack()[-1][0]
            prefix = os.path.join(tempfile.gettempdir(), os.path.basename(inspect.getfile(first)))
            d = tempfile.mkdtemp(prefix=prefix.rstrip(".py"))  # (TF strips the characters, not the suffix)
        atexit.register(shutil.rmtree, d, True)
        _temp_dir = d
    return _temp_dir


def is_built_with_rocm():
    """False: tensorweave has no ROCm backend."""
    return False


def is_built_with_xla():
    """True, as TF's pip builds answer (tensorweave's plans play XLA's part of compiling graphs)."""
    return True


def is_cpu_target_available(target):
    """True for any CPU target name, as TF's LLVM-enabled builds answer for x86 and aarch64."""
    return True


def test_src_dir_path(relative_path):
    """`$TEST_SRCDIR/org_tensorflow/tensorflow/<relative_path>`; KeyError without TEST_SRCDIR, as TF."""
    return os.path.join(os.environ["TEST_SRCDIR"], "org_tensorflow", "tensorflow", relative_path)


def create_local_cluster(num_workers, num_ps, protocol="grpc", worker_config=None, ps_config=None):
    """Starts `num_workers` worker and `num_ps` ps in-process servers on free local ports; returns
    (workers, ps_servers) as TF does."""
    from ..distributed.cluster import ClusterSpec
    from ..distributed.server import Server
    import socket

    def port():
        with socket.socket() as s:
            s.bind(("localhost", 0))
            return s.getsockname()[1]
    spec = {"worker": [f"localhost:{port()}" for _ in range(num_workers)],
            "ps": [f"localhost:{port()}" for _ in range(num_ps)]}
    cs = ClusterSpec(spec)
    workers = [Server(cs, job_name="worker", protocol=protocol, task_index=i, config=worker_config, start=True)
               for i in range(num_workers)]
    ps = [Server(cs, job_name="ps", protocol=protocol, task_index=i, config=ps_config, start=True)
          for i in range(num_ps)]
    return workers, ps


# -- GraphDef comparison (TF's EqualGraphDef, its messages) --------------------------------------

def _attr_summary(v):
    from ..framework import dtypes
    from ..protos.types_pb2 import DataType
    kind = v.WhichOneof("value")
    if kind == "type":
        return DataType.Name(v.type)
    if kind == "s":
        return '"' + v.s.decode("utf-8", "replace") + '"'
    if kind == "b":
        return "true" if v.b else "false"
    if kind == "i":
        return str(v.i)
    if kind == "f":
        return "%g" % v.f
    if kind == "shape":
        if v.shape.unknown_rank:
            return "<unknown>"
        return "[" + ",".join("?" if d.size < 0 else str(d.size) for d in v.shape.dim) + "]"
    if kind == "tensor":
        from ..framework.graph_io import make_ndarray
        arr = make_ndarray(v.tensor)
        vals = " ".join(str(x) for x in arr.ravel()[:10])
        return f"Tensor<type: {dtypes.as_dtype(v.tensor.dtype).name} shape: {list(arr.shape)} values: {vals}>"
    if kind == "list":
        parts = []
        for field in ("s", "i", "f", "b", "type", "shape", "tensor"):
            for item in getattr(v.list, field):
                sub = type(v)()
                if field in ("shape", "tensor"):
                    getattr(sub, field).CopyFrom(item)
                else:
                    setattr(sub, field, item)
                parts.append(_attr_summary(sub))
        return "[" + ", ".join(parts) + "]"
    if kind == "func":
        return v.func.name
    return "<Unknown AttrValue type>"


def _node_summary(n):
    attrs = ", ".join(f"{k}={_attr_summary(n.attr[k])}" for k in sorted(n.attr))
    dev = f", _device=\"{n.device}\"" if n.device else ""
    return f"{{{{node {n.name}}}}} = {n.op}[{attrs}{dev}]({', '.join(n.input)})"


def _node_diff(a, e):
    if a.op != e.op:
        return f"Node named '{a.name}' has op '{a.op}' that is not expected '{e.op}'"
    if a.device != e.device:
        return f"Node named '{a.name}' has device '{a.device}' that is not expected '{e.device}'"
    if len(a.input) != len(e.input):
        return (f"Node named '{a.name}' has inputs '{', '.join(a.input)}' that don't match expected "
                f"'{', '.join(e.input)}'")
    data_a = [i for i in a.input if not i.startswith("^")]
    for i, (x, y) in enumerate(zip(data_a, e.input)):
        if x != y:
            return f"Node named '{a.name}' has input {i} '{x}' that doesn't match expected '{y}'"
    ca = {i for i in a.input if i.startswith("^")}
    ce = {i for i in e.input if i.startswith("^")}
    for c in sorted(ce - ca):
        return f"Node named '{a.name}' missing expected control input '{c}'"
    for c in sorted(ca - ce):
        return f"Node named '{a.name}' has unexpected control input '{c}'"
    for k in a.attr:
        if k.startswith("_") and k not in e.attr:
            continue
        if k not in e.attr:
            return f"Node named '{a.name}' has unexpected attr '{k}' with value: {_attr_summary(a.attr[k])}"
        if a.attr[k] != e.attr[k]:
            return (f"Node named '{a.name}' has attr '{k}' with value: {_attr_summary(a.attr[k])} that does not "
                    f"match expected: {_attr_summary(e.attr[k])}")
    for k in e.attr:
        if k not in a.attr and not k.startswith("_"):
            return f"Node named '{a.name}' missing expected attr '{k}' with value: {_attr_summary(e.attr[k])}"
    return None


def _strip_checkpoint_v2_randomized(gd):
    import re
    for node in gd.node:
        for k in list(node.attr):
            v = node.attr[k]
            if v.WhichOneof("value") == "tensor" and len(v.tensor.string_val) == 1:
                if re.match(rb"_temp_[0-9a-z]{32}/part", v.tensor.string_val[0]):
                    del node.attr[k]


def _strip_hash_table_shared_name(gd):
    for node in gd.node:
        if node.op.startswith("HashTable") or node.op.startswith("MutableHashTable"):
            if "shared_name" in node.attr and node.attr["shared_name"].s.startswith(b"hash_table_"):
                del node.attr["shared_name"]


def assert_equal_graph_def(actual, expected, checkpoint_v2=False, hash_table_shared_name=False):
    """Asserts two GraphDefs hold the same nodes (matched by name, in any order; versions ignored).

    Raises TypeError when an argument is not a GraphDef and AssertionError naming the first
    difference, worded as TF's EqualGraphDef words it.
    """
    from ..protos.graph_pb2 import GraphDef
    for what, g in (("actual", actual), ("expected", expected)):
        if not isinstance(g, GraphDef):
            raise TypeError(f"Expected tf.GraphDef for {what}, got {type(g).__name__}")
    if checkpoint_v2:
        _strip_checkpoint_v2_randomized(actual)
        _strip_checkpoint_v2_randomized(expected)
    if hash_table_shared_name:
        _strip_hash_table_shared_name(actual)
        _strip_hash_table_shared_name(expected)
    index = {n.name: n for n in actual.node}
    for e in expected.node:
        a = index.pop(e.name, None)
        if a is None:
            raise AssertionError(f"Did not find expected node '{_node_summary(e)}'")
        diff = _node_diff(a, e)
        if diff:
            raise AssertionError(diff)
    if index:
        raise AssertionError(f"Found unexpected node '{_node_summary(next(iter(index.values())))}'")


# -- Benchmarks ------------------------------------------------------------------------------------

def _num(x):
    x = float(x)
    return str(int(x)) if x.is_integer() and abs(x) < 1e16 else repr(x)


def _entry_text(name, iters, cpu_time, wall_time, throughput, extras, metrics):
    lines = ["entry {", f'  name: "{name}"']
    if iters is not None:
        lines.append(f"  iters: {int(iters)}")
    for field, v in (("cpu_time", cpu_time), ("wall_time", wall_time), ("throughput", throughput)):
        if v is not None:
            lines.append(f"  {field}: {_num(v)}")
    if extras is not None:
        if not isinstance(extras, dict):
            raise TypeError("extras must be a dict")
        for k in sorted(extras):
            v = extras[k]
            val = f"double_value: {_num(v)}" if isinstance(v, numbers.Number) else f'string_value: "{v}"'
            lines += ["  extras {", f'    key: "{k}"', "    value {", f"      {val}", "    }", "  }"]
    if metrics is not None:
        if not isinstance(metrics, list):
            raise TypeError("metrics must be a list")
        for m in metrics:
            for key in ("name", "value"):
                if key not in m:
                    raise TypeError(f"metric must has a '{key}' field")
            lines += ["  metrics {", f'    name: "{m["name"]}"', f"    value: {_num(m['value'])}"]
            for key in ("min_value", "max_value"):
                if key in m:
                    lines += [f"    {key} {{", f"      value: {_num(m[key])}", "    }"]
            lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


class _Registrar(type):
    registry = set()

    def __new__(mcs, clsname, bases, attrs):
        cls = type.__new__(mcs, clsname, bases, attrs)
        if not cls.is_abstract():
            _Registrar.registry.add(cls)
        return cls


class _BaseBenchmark(metaclass=_Registrar):
    @classmethod
    def is_abstract(cls):
        return len(cls.mro()) <= 2

    def _get_name(self, overwrite_name=None):
        calling, name = None, None
        for frame in inspect.stack()[::-1]:
            f_self = frame[0].f_locals.get("self", None)
            if isinstance(f_self, _BaseBenchmark):
                calling, name = f_self, frame[3]
                break
        if calling is None:
            raise ValueError("Unable to determine calling Benchmark class.")
        return f"{type(calling).__name__}.{overwrite_name or name}"

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None,
                         name=None, metrics=None):
        """Reports one benchmark entry (named `<Class>.<benchmark method>` unless `name` is given)."""
        name = self._get_name(overwrite_name=name)
        text = _entry_text(name, iters, cpu_time, wall_time, throughput, extras, metrics)
        prefix = os.environ.get("TEST_REPORT_FILE_PREFIX")
        if prefix is None:
            print(text)
            return
        path = prefix + name.replace("/", "__")
        if os.path.exists(path):
            raise IOError(f"File already exists: {path}")
        with open(path, "w") as f:
            f.write(text)


class Benchmark(_BaseBenchmark):
    """`tf.test.Benchmark`: subclass it and write `benchmark*` methods that call
    `report_benchmark` or `run_op_benchmark`."""

    @classmethod
    def is_abstract(cls):
        return len(cls.mro()) <= 3

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10, store_trace=False,
                         store_memory_usage=True, name=None, extras=None, mbs=0):
        """Runs `op_or_tensor` `burn_iters` untimed then `min_iters` timed times; reports the median
        wall time and returns the reported values (plus the mean and stdev in `extras`)."""
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.time() - start)
        extras = extras if extras is not None else {}
        unreported = {}
        if store_trace:
            from ..runtime.config import RunMetadata, RunOptions
            from ..timeline import Timeline
            meta = RunMetadata()
            sess.run(op_or_tensor, feed_dict=feed_dict, options=RunOptions(trace_level=RunOptions.FULL_TRACE),
                     run_metadata=meta)
            unreported["full_trace_chrome_format"] = Timeline(meta.step_stats).generate_chrome_trace_format()
        s = sorted(deltas)
        median = (s[len(s) // 2] + s[(len(s) - 1) // 2]) / 2.0 if s else -1
        values = {"iters": min_iters, "wall_time": median, "extras": extras, "name": name,
                  "throughput": mbs / median}
        self.report_benchmark(**values)
        mean = sum(deltas) / len(deltas) if deltas else -1
        std = math.sqrt(sum((d - mean) ** 2 for d in deltas) / (len(deltas) - 1)) if len(deltas) > 1 else -1
        unreported["wall_time_mean"], unreported["wall_time_stdev"] = mean, std
        values["extras"].update(unreported)
        return values

    def evaluate(self, tensors):
        """Runs `tensors` in the default session (or a new one) and returns their values."""
        from ..framework.graph import get_default_session
        sess = get_default_session()
        if sess is None:
            from ..runtime.session import Session
            with Session() as s:
                return s.run(tensors)
        return sess.run(tensors)
