"""CPU kernels for StringNGrams, UnsortedSegmentJoin, UnicodeEncode, UnicodeTranscode and
UnicodeScript (TF's string_ngrams_op.cc, unicode_ops.cc semantics)."""

import codecs

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _b(v):
    return v if isinstance(v, bytes) else str(v).encode()


def _obj(values, shape=None):
    out = np.empty(len(values), object)
    out[:] = values
    return out if shape is None else out.reshape(shape)


# -- StringNGrams ---------------------------------------------------------------------------------

@register_kernel("StringNGrams")
def _string_ngrams(op, ctx):
    sep = op._get_attr("separator").encode()
    widths = list(op._get_attr("ngram_widths"))
    lpad, rpad = op._get_attr("left_pad").encode(), op._get_attr("right_pad").encode()
    pad_width_attr = op._get_attr("pad_width")
    preserve = op._get_attr("preserve_short_sequences")

    def pad_of(w):
        return min(w - 1 if pad_width_attr < 0 else pad_width_attr, w - 1)

    def count(length, w):
        return max(0, length + 2 * pad_of(w) - w + 1)

    def make(data, num, w, out):
        p = pad_of(w)
        for i in range(num):
            left = max(0, p - i)
            right = max(0, p - (num - (i + 1)))
            ntok = w - (left + right)
            start = 0 if left > 0 else i - p
            parts = [lpad] * left + data[start:start + ntok] + [rpad] * right
            out.append(sep.join(parts))

    def string_ngrams(data, splits):
        data = [_b(v) for v in np.asarray(data, object).reshape(-1)]
        splits = [int(s) for s in np.asarray(splits).reshape(-1)]
        if len(splits) < 1 or splits[0] != 0 or splits[-1] != len(data) or any(
                a > b for a, b in zip(splits, splits[1:])):
            raise _invalid(f"Invalid split value(s) in data_splits: {splits}")
        out, out_splits = [], [0]
        for r in range(len(splits) - 1):
            row = data[splits[r]:splits[r + 1]]
            n0 = len(out)
            for w in widths:
                make(row, count(len(row), w), w, out)
            if preserve and len(out) == n0 and row:
                make(row, 1, len(row) + 2 * max(pad_width_attr, 0), out)
            out_splits.append(len(out))
        return _obj(out), np.array(out_splits, np.int64)
    return string_ngrams


# -- UnsortedSegmentJoin ----------------------------------------------------------------------------

@register_kernel("UnsortedSegmentJoin")
def _unsorted_segment_join(op, ctx):
    sep = op._get_attr("separator").encode()

    def unsorted_segment_join(inputs, ids, num_segments):
        inputs = np.asarray(inputs, object)
        ids = np.asarray(ids)
        n = int(np.asarray(num_segments))
        if inputs.shape[:ids.ndim] != ids.shape:
            raise _invalid(f"segment_ids.shape = {list(ids.shape)} does not match inputs.shape = "
                           f"{list(inputs.shape)}")
        if n < 0:
            raise _invalid("Number of segments cannot be negative.")
        inner = inputs.shape[ids.ndim:]
        flat = inputs.reshape((ids.size, -1))
        width = flat.shape[1]
        parts = [[[] for _ in range(width)] for _ in range(n)]
        for k, sid in enumerate(ids.reshape(-1).tolist()):
            if sid < 0 or sid >= n:
                raise _invalid("segment_ids are not allowed to exceed num_segments or to have negative values.")
            for j in range(width):
                parts[sid][j].append(_b(flat[k, j]))
        return _obj([sep.join(p) for row in parts for p in row], (n,) + tuple(inner))
    return unsorted_segment_join


# -- Unicode --------------------------------------------------------------------------------------

_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be", "UTF-16-LE": "utf-16-le",
           "UTF-32-LE": "utf-32-le", "US-ASCII": "ascii", "ISO-8859-1": "latin-1"}


def _codec(name):
    c = _CODECS.get(name.upper())
    if c is None:
        raise _invalid(f"Could not create converter for input encoding: {name}")
    return c


def _valid_cp(c):
    return 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF


def _encode_codepoints(cps, codec, policy, repl):
    out = []
    for c in cps:
        if not _valid_cp(c):
            if policy == "strict":
                raise _invalid("Code point is out of range for Unicode, or is a surrogate.")  # TF's message
            if policy == "ignore":
                continue
            c = repl
        out.append(chr(c))
    return "".join(out).encode(codec, "surrogatepass")


@register_kernel("UnicodeEncode")
def _unicode_encode(op, ctx):
    codec = _codec(op._get_attr("output_encoding"))
    policy, repl = op._get_attr("errors"), op._get_attr("replacement_char")

    def unicode_encode(values, splits):
        values = np.asarray(values).reshape(-1).tolist()
        splits = [int(s) for s in np.asarray(splits).reshape(-1)]
        return _obj([_encode_codepoints(values[a:b], codec, policy, repl) for a, b in zip(splits, splits[1:])])
    return unicode_encode


@register_kernel("UnicodeTranscode")
def _unicode_transcode(op, ctx):
    in_codec, out_codec = _codec(op._get_attr("input_encoding")), _codec(op._get_attr("output_encoding"))
    policy, repl = op._get_attr("errors"), op._get_attr("replacement_char")
    replace_control = op._get_attr("replace_control_characters")
    handler = f"tensorweave_transcode_{policy}_{repl}"
    if policy == "replace":
        codecs.register_error(handler, lambda e: (chr(repl), e.end))
    elif policy == "ignore":
        handler = "ignore"
    else:
        handler = "strict"

    def one(s):
        try:
            text = s.decode(in_codec, handler)
        except UnicodeDecodeError:
            raise _invalid(f"Invalid formatting on input string") from None
        if replace_control:
            text = "".join(chr(repl) if ord(ch) <= 0x1F else ch for ch in text)
        return text.encode(out_codec, "surrogatepass")

    def unicode_transcode(x):
        x = np.asarray(x, object)
        return _obj([one(_b(v)) for v in x.reshape(-1)], x.shape)
    return unicode_transcode


@register_kernel("UnicodeScript")
def _unicode_script(op, ctx):
    from .unicode_script_table import CODES, STARTS

    def unicode_script(x):
        x = np.asarray(x, np.int64)
        idx = np.searchsorted(np.asarray(STARTS, np.int64), x, side="right") - 1
        out = np.asarray(CODES, np.int32)[np.clip(idx, 0, None)]
        return np.where((x < 0) | (x > 0x10FFFF), np.int32(-1), out).astype(np.int32)
    return unicode_script
