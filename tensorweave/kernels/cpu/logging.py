"""CPU kernels for Assert, Print, PrintV2 and CheckNumerics."""

import sys
import threading

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _scalar_str(v):
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, (float, np.floating)):
        s = repr(float(np.float32(v)) if isinstance(v, np.float32) else float(v))
        return s[:-2] if s.endswith(".0") else s
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    return str(v)


def summarize_tf1(value, summarize):
    """TF1's Assert/Print formatting: the first `summarize` elements, space-separated, '...' after."""
    a = np.asarray(value)
    if a.ndim == 0:
        return _scalar_str(a[()])
    flat = a.reshape(-1)
    n = flat.size if summarize < 0 else min(summarize, flat.size)
    body = " ".join(_scalar_str(x) for x in flat[:n])
    return body + ("..." if n < flat.size else "")


@register_kernel("Assert")
def _assert(op, ctx):
    summarize = op._get_attr("summarize")

    def assert_(condition, *data):
        if np.ndim(condition) != 0:
            shape = "[" + ",".join(str(d) for d in np.shape(condition)) + "]"
            raise errors.InvalidArgumentError(None, op, f"In[0] should be a scalar: {shape}")
        if not condition:
            raise errors.InvalidArgumentError(
                None, op, "assertion failed: " + " ".join(f"[{summarize_tf1(d, summarize)}]" for d in data))
    return assert_


@register_kernel("Print")
def _print(op, ctx):
    message, first_n, summarize = op._get_attr("message"), op._get_attr("first_n"), op._get_attr("summarize")
    count = [0]
    lock = threading.Lock()

    def print_(x, *data):
        with lock:
            count[0] += 1
            show = first_n < 0 or count[0] <= first_n
        if show:
            sys.stderr.write(message + "".join(f"[{summarize_tf1(d, summarize)}]" for d in data) + "\n")
            sys.stderr.flush()
        return x
    return print_


def format_v2(value, summarize):
    """tf.print's formatting: NumPy-like nested brackets, the first and last `summarize`
    elements of each dimension with ' ... ' between."""
    a = np.asarray(value)
    if a.ndim == 0:
        return _scalar_str(a[()])

    def fmt(x, depth):
        if x.ndim == 1:
            items = [_scalar_str(v) for v in x]
            if 0 <= summarize < len(items) / 2:
                items = items[:summarize] + ["..."] + items[-summarize:]
            return "[" + " ".join(items) + "]"
        rows = [fmt(r, depth + 1) for r in x]
        if 0 <= summarize < len(rows) / 2:
            rows = rows[:summarize] + ["..."] + rows[-summarize:]
        return "[" + ("\n" + " " * (depth + 1)).join(rows) + "]"
    return fmt(a, 0)


@register_kernel("PrintV2")
def _print_v2(op, ctx):
    literals, is_tensor = op._get_attr("literals"), op._get_attr("is_tensor")
    sep, end = op._get_attr("sep"), op._get_attr("end")
    summarize, stream = op._get_attr("summarize"), op._get_attr("output_stream")

    def print_v2(*tensors):
        values = iter(tensors)
        parts = [format_v2(next(values), summarize) if t else lit for lit, t in zip(literals, is_tensor)]
        text = sep.join(parts) + end
        if stream.startswith("file://"):
            with open(stream[len("file://"):], "a") as f:
                f.write(text)
        else:
            out = sys.stdout if stream == "stdout" else sys.stderr
            out.write(text)
            out.flush()
    return print_v2


@register_kernel("CheckNumerics", aliases=True)
def _check_numerics(op, ctx):
    message = op._get_attr("message")

    def check_numerics(x):
        finite = np.isfinite(x)
        if not finite.all():
            has_nan, has_inf = bool(np.isnan(x).any()), bool(np.isinf(x).any())
            what = "Inf and NaN" if has_nan and has_inf else ("NaN" if has_nan else "Inf")
            raise errors.InvalidArgumentError(None, op, f"{message} : Tensor had {what} values")
        return x
    return check_numerics
