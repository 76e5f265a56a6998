"""CPU kernels for string ops. String tensors are object arrays of bytes; every kernel works
element by element in Python (strings have no vectorized NumPy form) and returns a new array."""

import re
import struct

import numpy as np

from ...framework import errors
from ...lib.farmhash import fingerprint64
from ..registry import register_kernel
from . import re2
from .logging import format_v2


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _b(v):
    return v if isinstance(v, bytes) else str(v).encode()


def _map(fn, x, dtype=object):
    x = np.asarray(x, dtype=object)
    out = np.empty(x.shape, dtype=dtype)
    flat_in, flat_out = x.reshape(-1), out.reshape(-1)
    for i, v in enumerate(flat_in):
        flat_out[i] = fn(_b(v))
    return out


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _bstr(s):
    return "b'" + s.decode("utf-8", "backslashreplace") + "'"


# -- AsString --------------------------------------------------------------------------------

@register_kernel("AsString")
def _as_string(op, ctx):
    t = op._get_attr("T")
    precision, scientific, shortest = op._get_attr("precision"), op._get_attr("scientific"), op._get_attr("shortest")
    width, fill = op._get_attr("width"), op._get_attr("fill")
    is_float = t.is_floating
    error = None
    if scientific and shortest:
        error = "Cannot select both scientific and shortest notation"
    elif len(fill) > 1:
        error = "Fill string must be one or fewer characters"
    elif fill and fill not in " +-0#":
        error = f'Fill argument not supported: "{fill}"'
    elif not (is_float or t.is_complex):
        for flag, what in ((scientific, "scientific"), (shortest, "shortest"), (precision > -1, "precision")):
            if flag:
                error = f"{what} not supported for datatype {t.name}"
                break
    fmt = "%" + fill + (str(width) if width > -1 else "") + (f".{precision}" if precision > -1 else "")
    if is_float or t.is_complex:
        fmt += "g" if shortest else "e" if scientific else "f"
    else:
        fmt += "d"

    def as_string(x):
        if error:
            raise _invalid(error)
        x = np.asarray(x)
        out = np.empty(x.shape, dtype=object)
        flat, fo = x.reshape(-1), out.reshape(-1)
        if t.is_bool:
            for i, v in enumerate(flat):
                fo[i] = (fmt[:-1] + "s") % ("true" if v else "false")
        elif t.is_complex:
            for i, v in enumerate(flat):
                fo[i] = ("(" + fmt + "," + fmt + ")") % (float(v.real), float(v.imag))
        elif x.dtype == object:  # strings pass through, padded like %s
            for i, v in enumerate(flat):
                fo[i] = ((fmt[:-1] + "s") % _b(v).decode("utf-8", "surrogateescape")).encode(
                    "utf-8", "surrogateescape")
        elif is_float:
            for i, v in enumerate(flat):
                fo[i] = fmt % float(v)
        else:
            for i, v in enumerate(flat):
                fo[i] = fmt % int(v)
        for i, v in enumerate(fo):
            if isinstance(v, str):
                fo[i] = v.encode()
        return out
    return as_string


# -- joining ---------------------------------------------------------------------------------

@register_kernel("StringJoin")
def _string_join(op, ctx):
    sep = op._get_attr("separator").encode()

    def string_join(*inputs):
        arrays = [np.asarray(x, dtype=object) for x in inputs]
        shape = None
        for a in arrays:
            if a.ndim:
                if shape is not None and a.shape != shape:
                    raise _invalid(f"Input shapes do not match: {_dims(shape)} vs. {_dims(a.shape)}")
                shape = a.shape
        shape = shape if shape is not None else ()
        arrays = [np.broadcast_to(a, shape) for a in arrays]
        out = np.empty(shape, dtype=object)
        for idx in np.ndindex(shape):
            out[idx] = sep.join(_b(a[idx]) for a in arrays)
        return out
    return string_join


@register_kernel("ReduceJoin")
def _reduce_join(op, ctx):
    keep = op._get_attr("keep_dims")
    sep = op._get_attr("separator").encode()

    def reduce_join(x, axes):
        x = np.asarray(x, dtype=object)
        rank = x.ndim
        axes = [int(a) for a in np.asarray(axes).reshape(-1)]
        norm = []
        for a in axes:
            if not -rank <= a < rank:
                raise _invalid(f"Invalid reduction dimension {a} for input with {rank} dimensions.")
            if a % rank in norm:
                raise _invalid(f"Duplicate reduction dimension {a}")  # TF names the index as given
            norm.append(a % rank)
        kept = [i for i in range(rank) if i not in norm]
        # TF's order: the first listed axis varies fastest.
        y = np.transpose(x, kept + norm[::-1])
        kshape = [x.shape[i] for i in kept]
        y = y.reshape(kshape + [-1] if y.size else kshape + [int(np.prod([x.shape[i] for i in norm]))])
        out = np.empty(kshape, dtype=object)
        for idx in np.ndindex(*kshape):
            out[idx] = sep.join(_b(v) for v in y[idx])
        if keep:
            out = out.reshape([1 if i in norm else d for i, d in enumerate(x.shape)])
        return out
    return reduce_join


@register_kernel("StringFormat")
def _string_format(op, ctx):
    template, placeholder = op._get_attr("template"), op._get_attr("placeholder")
    summarize = op._get_attr("summarize")
    parts = template.split(placeholder)

    def fmt(v):
        return format_v2(v, summarize)   # TF's SummarizeValue(summarize, print_v2=True)

    def string_format(*inputs):
        out = parts[0]
        for p, v in zip(parts[1:], inputs):
            out += fmt(v) + p
        return np.array(out.encode("utf-8", "surrogateescape"), dtype=object)
    return string_format


# -- lengths, substrings, case, whitespace ---------------------------------------------------

def _utf8_chars(s):
    """The UTF-8 characters of bytes `s` (a character starts at each non-continuation byte)."""
    starts = [i for i, c in enumerate(s) if (c & 0xC0) != 0x80]
    if not starts or starts[0] != 0:
        starts = [0] + starts
    return [s[a:b] for a, b in zip(starts, starts[1:] + [len(s)])] if s else []


@register_kernel("StringLength")
def _string_length(op, ctx):
    chars = op._get_attr("unit") == "UTF8_CHAR"

    def string_length(x):
        if chars:
            return _map(lambda s: sum(1 for c in s if (c & 0xC0) != 0x80), x, np.int32)
        return _map(len, x, np.int32)
    return string_length


@register_kernel("Substr")
def _substr(op, ctx):
    chars = op._get_attr("unit") == "UTF8_CHAR"

    def substr(x, pos, length):
        pos, length = np.asarray(pos), np.asarray(length)
        if pos.shape != length.shape:  # TF's first check, before any broadcasting
            raise _invalid(f"pos and len should have the same shape, got: [{','.join(map(str, pos.shape))}] vs. "
                           f"[{','.join(map(str, length.shape))}]")
        x, pos, length = np.broadcast_arrays(np.asarray(x, dtype=object), np.asarray(pos), np.asarray(length))
        out = np.empty(x.shape, dtype=object)
        for i, idx in enumerate(np.ndindex(x.shape)):
            s = _b(x[idx])
            units = _utf8_chars(s) if chars else s
            n, p, ln = len(units), int(pos[idx]), int(length[idx])
            # TF's UTF8_CHAR path names no string and, from a negative pos, refuses a negative len.
            if not -n <= p <= n or (chars and p < 0 and ln < 0):
                where = "" if chars else f" {_bstr(s)}"
                raise _invalid(f"pos {p} out of range for string{where} at index {i}")
            p = p + n if p < 0 else p
            # A negative len reads to the end in bytes (TF's size_t len), and nothing in chars.
            piece = units[p:] if ln < 0 and not chars else units[p:p + max(ln, 0)]
            out[idx] = b"".join(piece) if chars else piece
        return out
    return substr


@register_kernel("StringStrip")
def _strip(op, ctx):
    return lambda x: _map(lambda s: s.strip(b" \t\n\v\f\r"), x)


def _case(op, lower):
    enc = op._get_attr("encoding")

    def change(x):
        if enc:
            return _map(lambda s: (s.decode(enc).lower() if lower else s.decode(enc).upper()).encode(enc), x)
        return _map(lambda s: s.lower() if lower else s.upper(), x)
    return change


register_kernel("StringLower")(lambda op, ctx: _case(op, True))
register_kernel("StringUpper")(lambda op, ctx: _case(op, False))


# -- splitting -------------------------------------------------------------------------------

def _sparse(tokens):
    n = len(tokens)
    width = max((len(t) for t in tokens), default=0)
    indices = np.array([(i, j) for i, ts in enumerate(tokens) for j in range(len(ts))],
                       dtype=np.int64).reshape(-1, 2)
    values = np.empty(len(indices), dtype=object)
    values[:] = [t for ts in tokens for t in ts]
    return indices, values, np.array([n, width], dtype=np.int64)


def _check_source(x):
    x = np.asarray(x, dtype=object)
    if x.ndim != 1:
        raise _invalid(f"input must be a vector, got shape: {_dims(x.shape)}")
    return x


@register_kernel("StringSplit")
def _string_split(op, ctx):
    skip_empty = op._get_attr("skip_empty")

    def string_split(source, delimiter):
        source = _check_source(source)
        delim = _b(np.asarray(delimiter, dtype=object).item())
        tokens = []
        for s in source:
            s = _b(s)
            if not delim:
                toks = [s[i:i + 1] for i in range(len(s))]
            elif not s:
                toks = []  # TF's SplitOnCharSet yields no token for "" even with skip_empty=False
            else:
                toks = re.split(b"[" + re.escape(delim) + b"]", s)
                if skip_empty:
                    toks = [t for t in toks if t]
            tokens.append(toks)
        return _sparse(tokens)
    return string_split


@register_kernel("StringSplitV2")
def _string_split_v2(op, ctx):
    maxsplit = op._get_attr("maxsplit")

    def string_split_v2(source, sep):
        source = _check_source(source)
        sep = _b(np.asarray(sep, dtype=object).item()) or None
        tokens = [_b(s).split(sep, maxsplit) for s in source]
        return _sparse(tokens)
    return string_split_v2


# -- numbers and hashing ---------------------------------------------------------------------

_INT_RE = re.compile(rb"^\s*[+-]?[0-9]+\s*$")
_HEX_RE = re.compile(rb"^\s*[+-]?0[xX][0-9a-fA-F]*\.?[0-9a-fA-F]*([pP][+-]?[0-9]+)?\s*$")
_FLOAT_RE = re.compile(rb"^\s*[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|inf|infinity|nan)\s*$",
                       re.IGNORECASE)


@register_kernel("StringToNumber")
def _string_to_number(op, ctx):
    t = op._get_attr("out_type")
    np_type = t.as_numpy_dtype
    info = np.iinfo(np_type) if t.is_integer else None

    def parse(s):
        def bad():
            return _invalid(f"StringToNumberOp could not correctly convert string: "
                            f"{s.decode('utf-8', 'backslashreplace')}")
        if info is not None:
            if not _INT_RE.match(s):
                raise bad()
            v = int(s)
            if not info.min <= v <= info.max:
                raise bad()
            return v
        if _FLOAT_RE.match(s):
            return float(s)
        if _HEX_RE.match(s) and any(c in b"0123456789abcdefABCDEF" for c in s.strip()[2:]):
            return float.fromhex(s.strip().decode())
        raise bad()

    def string_to_number(x):
        vals = _map(parse, x)
        with np.errstate(over="ignore"):
            return vals.astype(np_type)
    return string_to_number


@register_kernel("StringToHashBucketFast")
def _to_hash_bucket_fast(op, ctx):
    n = op._get_attr("num_buckets")
    return lambda x: _map(lambda s: fingerprint64(s) % n, x, np.int64)


_M64 = (1 << 64) - 1


def hash64(data, seed=0xDECAFCAFFE):
    """TF's legacy Hash64 (tsl/platform/hash.cc: MurmurHash2-64 with TF's default seed)."""
    m, r, n = 0xc6a4a7935bd1e995, 47, len(data)
    h = (seed ^ (n * m)) & _M64
    end = n - n % 8
    for k in struct.unpack_from(f"<{end // 8}Q", data):
        k = (k * m) & _M64
        k ^= k >> r
        h ^= (k * m) & _M64
        h = (h * m) & _M64
    if n % 8:
        h ^= int.from_bytes(data[end:], "little")
        h = (h * m) & _M64
    h ^= h >> r
    h = (h * m) & _M64
    return h ^ (h >> r)


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & _M64


def siphash24(k0, k1, data):
    """SipHash-2-4 (64-bit output) with key (k0, k1): TF's StrongKeyedHash."""
    v0, v1 = k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d
    v2, v3 = k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573

    def rounds(v0, v1, v2, v3, n):
        for _ in range(n):
            v0 = (v0 + v1) & _M64
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _M64
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _M64
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _M64
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3
    n = len(data)
    end = n - n % 8
    for m in struct.unpack_from(f"<{end // 8}Q", data):
        v3 ^= m
        v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
        v0 ^= m
    b = ((n & 0xff) << 56) | int.from_bytes(data[end:], "little")
    v3 ^= b
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 2)
    v0 ^= b
    v2 ^= 0xff
    v0, v1, v2, v3 = rounds(v0, v1, v2, v3, 4)
    return v0 ^ v1 ^ v2 ^ v3


@register_kernel("StringToHashBucket")
def _to_hash_bucket(op, ctx):
    n = op._get_attr("num_buckets")
    return lambda x: _map(lambda s: hash64(s) % n, x, np.int64)


@register_kernel("StringToHashBucketStrong")
def _to_hash_bucket_strong(op, ctx):
    n = op._get_attr("num_buckets")
    key = [int(k) & _M64 for k in op._get_attr("key")]

    def to_hash_bucket_strong(x):
        if len(key) != 2:
            raise _invalid("Key must have 2 elements")
        return _map(lambda s: siphash24(key[0], key[1], s) % n, x, np.int64)
    return to_hash_bucket_strong


# -- regular expressions ---------------------------------------------------------------------

def _compile(pattern):
    """The pattern as RE2 (TF's regex engine) reads it, as a Python regex."""
    pattern = _b(pattern).decode("utf-8", "surrogateescape")
    try:
        return re2.compile(pattern)
    except re2.RE2Error as e:
        raise _invalid(f"Invalid pattern: {pattern}, error: {e}") from None


def _rewriter(rewrite):
    """RE2's rewrite string (\\0..\\9 groups, \\\\ a backslash) as (pieces, max group, ok): a
    bad escape ends the pieces there, as RE2's Rewrite stops (and fails) at it."""
    rewrite = _b(rewrite).decode("utf-8", "surrogateescape")
    pieces, lit, i, ok = [], [], 0, True
    while i < len(rewrite):
        c = rewrite[i]
        nxt = rewrite[i + 1] if i + 1 < len(rewrite) else ""
        if c != "\\":
            lit.append(c)
        elif nxt.isdigit() and nxt.isascii():
            pieces += ["".join(lit), int(nxt)]
            lit = []
        elif nxt == "\\":
            lit.append("\\")
        else:
            ok = False
            break
        i += 1 if c != "\\" else 2
    pieces.append("".join(lit))
    return pieces, max([p for p in pieces if isinstance(p, int)], default=0), ok


def _replace(rx, rewriter, replace_global, s):
    """RE2's GlobalReplace / Replace: no change when the rewrite names a group the pattern lacks;
    no empty match right where the previous match ended."""
    pieces, max_group, ok = rewriter
    if max_group > rx.groups or (not ok and not replace_global):
        return s
    text = s.decode("utf-8", "surrogateescape")
    out, pos, last_end = [], 0, -1
    while pos <= len(text):
        m = rx.search(text, pos)
        if m is None:
            break
        out.append(text[pos:m.start()])
        if m.start() == m.end() == last_end:   # RE2 steps one character past it
            out.append(text[m.start():m.start() + 1])
            pos = m.start() + 1
            continue
        out.extend(p if isinstance(p, str) else (m.group(p) or "") for p in pieces)
        pos = last_end = m.end()
        if not replace_global:
            break
    out.append(text[pos:])
    return "".join(out).encode("utf-8", "surrogateescape")


def _full_match(rx, s):
    return rx.fullmatch(s.decode("utf-8", "surrogateescape")) is not None


@register_kernel("StaticRegexReplace")
def _static_regex_replace(op, ctx):
    pattern, rewrite = op._get_attr("pattern"), op._get_attr("rewrite")
    glob = op._get_attr("replace_global")

    def static_regex_replace(x):
        rx, rep = _compile(pattern), _rewriter(rewrite)
        return _map(lambda s: _replace(rx, rep, glob, s), x)
    return static_regex_replace


@register_kernel("RegexReplace")
def _regex_replace(op, ctx):
    glob = op._get_attr("replace_global")

    def regex_replace(x, pattern, rewrite):
        pattern, rewrite = np.asarray(pattern, dtype=object), np.asarray(rewrite, dtype=object)
        if pattern.ndim:
            raise _invalid(f"Pattern must be scalar, but received {_dims(pattern.shape)}")
        if rewrite.ndim:
            raise _invalid(f"Replacement string must be scalar, but received {_dims(rewrite.shape)}")
        rx, rep = _compile(pattern.item()), _rewriter(rewrite.item())
        return _map(lambda s: _replace(rx, rep, glob, s), x)
    return regex_replace


@register_kernel("StaticRegexFullMatch")
def _static_regex_full_match(op, ctx):
    pattern = op._get_attr("pattern")

    def static_regex_full_match(x):
        rx = _compile(pattern)
        return _map(lambda s: _full_match(rx, s), x, np.bool_)
    return static_regex_full_match


@register_kernel("RegexFullMatch")
def _regex_full_match(op, ctx):
    def regex_full_match(x, pattern):
        pattern = np.asarray(pattern, dtype=object)
        if pattern.ndim:
            raise _invalid(f"Pattern must be scalar, but received {_dims(pattern.shape)}")
        rx = _compile(pattern.item())
        return _map(lambda s: _full_match(rx, s), x, np.bool_)
    return regex_full_match
