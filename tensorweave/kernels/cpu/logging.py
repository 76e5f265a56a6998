"""CPU kernels for Assert, Print, PrintV2 and CheckNumerics."""

import sys
import threading

import numpy as np

from ...framework import errors
from ..registry import register_kernel


# -- TF's Tensor::SummarizeValue: how Assert, Print (v1) and StringFormat / tf.print (v2) show a
# value. Floats as C++ StrCat prints them (%.6g, or %.9g when that does not round-trip; doubles
# %.15g / %.17g), bools as 1/0, strings C-escaped (bytes >= 0x80 kept), quoted in v2.

_ESCAPES = {0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t", 0x22: b'\\"', 0x27: b"\\'", 0x5C: b"\\\\"}


def _escape(b):
    """absl::Utf8SafeCEscape."""
    out = bytearray()
    for c in b:
        e = _ESCAPES.get(c)
        if e is not None:
            out += e
        elif c < 0x20 or c == 0x7F:
            out += b"\\%03o" % c
        else:
            out.append(c)
    return out.decode("utf-8", "surrogateescape")   # (bytes >= 0x80 come back out unchanged)


def _float_str(v, double):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    if double:
        text = "%.15g" % v
        return text if float(text) == v else "%.17g" % v
    v = float(np.float32(v))
    text = "%.6g" % v
    return text if float(np.float32(text)) == v else "%.9g" % v


def _element_formatter(dtype, quote):
    """A function printing one element of an array of `dtype`, or None for types TF shows as '?'."""
    kind = dtype.kind
    if kind == "O" or kind == "S" or kind == "U":
        def string(v):
            text = _escape(v if isinstance(v, bytes) else str(v).encode())
            return f'"{text}"' if quote else text
        return string
    if kind == "f":
        double = dtype.itemsize == 8
        return lambda v: _float_str(v, double)
    if kind == "b":
        return lambda v: "1" if v else "0"
    if kind in "iu":
        return lambda v: str(int(v))
    return None


def _irregular(flat, limit, ndim, v2):
    """SummarizeValue's fallback (complex, quantized, ...): '?' per element."""
    text = " ".join("?" for _ in range(limit)) + ("..." if limit < flat.size else "")
    return f"[{text}]" if v2 and ndim > 0 else text


def summarize_tf1(value, summarize):
    """SummarizeValue(summarize) as Assert and tf.Print show a value (without the [] they add):
    the first `summarize` elements in row-major order, nested rows bracketed, '...' where cut."""
    a = np.asarray(value)
    flat = a.reshape(-1)
    limit = flat.size if summarize < 0 else min(summarize, flat.size)
    fmt = _element_formatter(a.dtype, quote=False)
    if fmt is None:
        return _irregular(flat, limit, a.ndim, False)
    if a.ndim == 0:
        return " ".join(fmt(x) for x in flat[:limit]) + ("..." if flat.size > limit else "")
    out = []
    index = [0]

    def one_dim(dim):
        if index[0] >= limit:
            return
        count = a.shape[dim]
        if dim == a.ndim - 1:
            for i in range(count):
                if index[0] >= limit:
                    if dim != 0:
                        out.append("...")
                    return
                if i > 0:
                    out.append(" ")
                out.append(fmt(flat[index[0]]))
                index[0] += 1
            return
        for _ in range(count):
            opened = index[0] < limit
            if opened:
                out.append("[")
            one_dim(dim + 1)
            if index[0] < limit or opened:
                out.append("]")
    one_dim(0)
    return "".join(out) + ("..." if flat.size > limit else "")


def format_v2(value, summarize):
    """SummarizeValue(summarize, print_v2=True), what tf.print and tf.strings.format show: nested
    brackets, the first and last `summarize` entries of each dimension with '...' between."""
    a = np.asarray(value)
    flat = a.reshape(-1)
    limit = flat.size if summarize < 0 else min(summarize, flat.size)
    fmt = _element_formatter(a.dtype, quote=True)
    if fmt is None:
        return _irregular(flat, limit, a.ndim, True)
    if a.ndim == 0:
        return " ".join(fmt(x) for x in flat[:limit]) + ("..." if flat.size > limit else "")
    nd = a.ndim

    def spacing(dim):
        return " " if dim == nd - 1 else "\n" * (nd - dim - 1) + " " * (dim + 1)

    def one_dim(x, dim):
        if dim == nd:
            return fmt(x)
        count = len(x)
        sep = spacing(dim)
        head = sep.join(one_dim(x[i], dim + 1) for i in range(min(limit, count)))
        # As TF's PrintOneDimV2, '...' and each trailing entry come after a separator, even with
        # no head (an empty [2, 0] prints "[\n ...]").
        tail = [one_dim(x[i], dim + 1) for i in range(max(limit, count - limit), count)]
        if count > 2 * limit:
            tail.insert(0, "...")
        return "[" + head + "".join(sep + t for t in tail) + "]"
    return one_dim(a, 0)


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


@register_kernel("PrintV2")
def _print_v2(op, ctx):
    stream, end = op._get_attr("output_stream"), op._get_attr("end")

    def print_v2(text):
        text = np.asarray(text).reshape(-1)[0]
        data = (text if isinstance(text, bytes) else str(text).encode()) + end.encode()
        if stream.startswith("file://"):
            with open(stream[len("file://"):], "ab") as f:
                f.write(data)
            return
        out = sys.stdout if stream == "stdout" else sys.stderr   # (the log(...) levels: stderr)
        out.flush()
        if hasattr(out, "buffer"):     # the bytes as they are, as TF writes them
            out.buffer.write(data)
            out.buffer.flush()
        else:
            out.write(data.decode("utf-8", "replace"))
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
