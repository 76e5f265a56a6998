"""CPU kernels of the ragged ops: RaggedTensorToTensor, RaggedTensorToSparse, RaggedRange, and
UnicodeDecode / UnicodeDecodeWithOffsets (TF's ragged_*_op.cc and unicode_ops.cc semantics)."""

import codecs

import numpy as np

from ...framework import errors
from ..registry import register_kernel
from .string_extra import _b, _codec


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _check_splits(s, nvals):
    if s.size < 1 or s[0] != 0 or np.any(np.diff(s) < 0) or s[-1] != nvals:
        raise _invalid(f"Invalid row_splits: {s.tolist()} for {nvals} values")


# -- RaggedTensorToTensor ----------------------------------------------------------------------------

def _positions(splits_list, nvals):
    """For each flat value, its index along each ragged dim: (row ids per level, column per level)."""
    coords = [np.arange(nvals)]      # index into the innermost values
    for s in reversed(splits_list):
        inner = coords[0]
        rowids = np.searchsorted(s, inner, side="right") - 1
        cols = inner - s[rowids]
        coords = [rowids, cols] + coords[1:]
    return coords   # [row at level 0, col at level 1, ..., col at level k]


@register_kernel("RaggedTensorToTensor")
def _ragged_to_tensor(op, ctx):
    def ragged_to_tensor(shape, values, default, *splits):
        splits = [np.asarray(s).astype(np.int64) for s in splits]
        values = np.asarray(values)
        k = len(splits)
        for i, s in enumerate(splits):
            n = values.shape[0] if i == k - 1 else splits[i + 1].size - 1
            _check_splits(s, n)
        nrows = splits[0].size - 1
        coords = _positions(splits, values.shape[0])
        bound = [nrows] + [int(np.max(np.diff(s), initial=0)) for s in splits] + list(values.shape[1:])
        shape = np.asarray(shape)
        if shape.ndim == 1:   # (a scalar shape means "the bounding shape")
            if shape.size != len(bound):
                raise _invalid(f"rt_input.shape and shape={shape.tolist()} are not compatible")
            bound = [b if int(d) < 0 else int(d) for b, d in zip(bound, shape)]
        default = np.asarray(default, values.dtype)
        out = np.empty(bound, values.dtype)
        try:
            out[...] = default if default.ndim == 0 else np.broadcast_to(default, bound[k + 1:])
        except ValueError:
            raise _invalid(f"default_value.shape={list(default.shape)} and rt_input.flat_values.shape="
                           f"{list(values.shape)} are incompatible") from None
        keep = np.ones(values.shape[0], bool)
        for c, b in zip(coords, bound):
            keep &= c < b
        inner = tuple(slice(0, b) for b in bound[k + 1:])
        idx = tuple(c[keep] for c in coords)
        out[idx] = values[keep][(slice(None),) + inner]
        return out
    return ragged_to_tensor


@register_kernel("RaggedTensorToSparse")
def _ragged_to_sparse(op, ctx):
    def ragged_to_sparse(*args):
        splits = [np.asarray(s).astype(np.int64) for s in args[:-1]]
        values = np.asarray(args[-1])
        k = len(splits)
        for i, s in enumerate(splits):
            _check_splits(s, values.shape[0] if i == k - 1 else splits[i + 1].size - 1)
        coords = _positions(splits, values.shape[0])
        inner = values.shape[1:]
        n = values.shape[0]
        outer = np.stack(coords, 1) if n else np.zeros((0, k + 1), np.int64)
        if inner:
            grid = np.indices(inner).reshape(len(inner), -1).T
            m = grid.shape[0]
            outer = np.concatenate([np.repeat(outer, m, 0), np.tile(grid, (n, 1))], 1)
        dense_shape = [splits[0].size - 1] + [int(np.max(np.diff(s), initial=0)) for s in splits] + list(inner)
        return (outer.astype(np.int64), values.reshape(-1), np.array(dense_shape, np.int64))
    return ragged_to_sparse


# -- RaggedRange -------------------------------------------------------------------------------------

@register_kernel("RaggedRange")
def _ragged_range(op, ctx):
    splits_type = op.outputs[0].dtype.as_numpy_dtype

    def ragged_range(starts, limits, deltas):
        starts, limits, deltas = np.broadcast_arrays(np.asarray(starts), np.asarray(limits), np.asarray(deltas))
        if starts.ndim > 1:
            raise _invalid("starts must be a scalar or vector")
        starts, limits, deltas = starts.reshape(-1), limits.reshape(-1), deltas.reshape(-1)
        rows, splits = [], [0]
        for a, b, d in zip(starts, limits, deltas):
            if d == 0:
                raise _invalid("Requires delta != 0")
            r = np.arange(a, b, d, dtype=starts.dtype) if (d > 0 and b > a) or (d < 0 and b < a) else \
                np.zeros(0, starts.dtype)
            rows.append(r)
            splits.append(splits[-1] + r.size)
        values = np.concatenate(rows) if rows else np.zeros(0, starts.dtype)
        return np.array(splits, splits_type), values.astype(starts.dtype)
    return ragged_range


# -- UnicodeDecode ------------------------------------------------------------------------------------

_MARK = "\udfff"   # never produced by a successful decode: stands for one replaced subsequence


def _decoder(op):
    codec = _codec(op._get_attr("input_encoding"))
    policy, repl = op._get_attr("errors"), int(op._get_attr("replacement_char"))
    replace_control = op._get_attr("replace_control_characters")
    unit = {"utf-8": 1, "utf-16-be": 2, "utf-32-be": 4}.get(codec, 1)

    def decode(s):
        spans = []

        def handler(e):
            spans.append(e.end - e.start)
            return (_MARK, e.end)
        name = "tensorweave_ragged_decode"
        codecs.register_error(name, handler)
        text = s.decode(codec, name)
        cps, starts, pos = [], [], 0
        for ch in text:
            if ch == _MARK:
                width = spans.pop(0)
                if policy == "strict":
                    raise _invalid("Invalid formatting on input string")
                if policy != "ignore":
                    cps.append(repl)
                    starts.append(pos)
                pos += width
                continue
            c = ord(ch)
            if replace_control and c < 0x20:
                c = repl
            cps.append(c)
            starts.append(pos)
            pos += len(ch.encode(codec, "surrogatepass")) if unit != 4 else 4
        return cps, starts

    def run(x):
        x = np.asarray(x, object).reshape(-1)
        splits, values, offsets = [0], [], []
        for v in x:
            cps, starts = decode(_b(v))
            values += cps
            offsets += starts
            splits.append(len(values))
        return np.array(splits, np.int64), np.array(values, np.int32), np.array(offsets, np.int64)
    return run


@register_kernel("UnicodeDecode")
def _unicode_decode(op, ctx):
    run = _decoder(op)
    splits_type = op.outputs[0].dtype.as_numpy_dtype

    def unicode_decode(x):
        s, v, _ = run(x)
        return s.astype(splits_type), v
    return unicode_decode


@register_kernel("UnicodeDecodeWithOffsets")
def _unicode_decode_with_offsets(op, ctx):
    run = _decoder(op)
    splits_type = op.outputs[0].dtype.as_numpy_dtype

    def unicode_decode_with_offsets(x):
        s, v, o = run(x)
        return s.astype(splits_type), v, o
    return unicode_decode_with_offsets
