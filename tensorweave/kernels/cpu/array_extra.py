"""CPU kernels for the less common array ops (ops/array_extra_ops.py): Roll, UniqueWithCounts,
UnravelIndex, Bitcast, HistogramFixedWidth, LowerBound/UpperBound, the TensorScatter* family,
SpaceToDepth/DepthToSpace, SpaceToBatchND/BatchToSpaceND, Cross, Complex, EnsureShape,
ParallelConcat."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel


def _bad(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _shape_str(shape):
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


@register_kernel("Roll")
def _roll(op, ctx):
    def roll(x, shift, axis):
        shift = np.asarray(shift).reshape(-1)
        axis = np.asarray(axis).reshape(-1)
        if shift.shape != axis.shape:
            raise _bad(f"shift and axis must have the same size")
        if x.ndim == 0:
            raise _bad("input must be 1-D or higher")
        for a in axis:
            if not -x.ndim <= a < x.ndim:
                raise _bad(f"axis {int(a)} is out of range")
        return np.roll(x, tuple(int(s) for s in shift), tuple(int(a) for a in axis))
    return roll


@register_kernel("UniqueWithCounts")
def _unique_with_counts(op, ctx):
    if op._attrs["T"].is_complex:
        from .math import no_kernel
        return no_kernel(op, "T", "out_idx")
    idx_dt = op._get_attr("out_idx").as_numpy_dtype

    def unique_with_counts(x):
        if x.ndim != 1:
            raise _bad("unique expects a 1D vector.")
        kw = {"equal_nan": False} if x.dtype.kind in "fc" else {}   # every NaN distinct, as TF
        u, first, inv, cnt = np.unique(x, return_index=True, return_inverse=True, return_counts=True, **kw)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        return u[order], rank[inv.reshape(-1)].astype(idx_dt), cnt[order].astype(idx_dt)
    return unique_with_counts


@register_kernel("UnravelIndex")
def _unravel_index(op, ctx):
    def unravel_index(indices, dims):
        dims = np.asarray(dims)
        if np.any(dims <= 0):
            raise _bad("All dimensions must be greater than 0.")  # TF's message for dims
        total = int(np.prod(dims))
        flat = np.asarray(indices).reshape(-1)
        if np.any((flat < 0) | (flat >= total)):
            raise _bad("index is out of bound as with dims")  # TF's message
        out = np.stack(np.unravel_index(flat, tuple(int(d) for d in dims))).astype(indices.dtype)
        if np.ndim(indices) == 0:
            return out.reshape(-1)
        return out
    return unravel_index


@register_kernel("Bitcast")
def _bitcast(op, ctx):
    out = op._get_attr("type").as_numpy_dtype

    def bitcast(x):
        x = np.asarray(x)
        if not x.flags.c_contiguous:
            x = x.copy()
        isz, osz = x.dtype.itemsize, np.dtype(out).itemsize
        if isz == osz:
            return x.view(out)
        if isz > osz:
            return x.reshape(x.shape + (1,)).view(out)
        if x.ndim == 0 or x.shape[-1] * isz != osz:
            raise _bad(f"Cannot bitcast from {x.dtype} to {np.dtype(out)}: shape {_shape_str(x.shape)}")
        return x.view(out).reshape(x.shape[:-1])
    return bitcast


def _num_str(v):
    """A number as C++'s stream prints it (floats with %g's 6 significant digits)."""
    v = v.item() if hasattr(v, "item") else v
    return f"{v:g}" if isinstance(v, float) else str(v)


@register_kernel("HistogramFixedWidth")
def _histogram_fixed_width(op, ctx):
    out = op._get_attr("dtype").as_numpy_dtype

    def histogram(values, value_range, nbins):
        nbins = int(nbins)
        if nbins <= 0:
            raise _bad(f"nbins should be a positive number, but got '{nbins}'")
        lo, hi = float(value_range[0]), float(value_range[1])
        if not lo < hi:
            raise _bad(f"value_range should satisfy value_range[0] < value_range[1], but got "
                       f"'[{_num_str(value_range[0])}, {_num_str(value_range[1])}]'")
        v = np.asarray(values, dtype=np.float64).reshape(-1)
        idx = np.floor((v - lo) / (hi - lo) * nbins)
        idx = np.clip(idx, 0, nbins - 1).astype(np.int64)
        return np.bincount(idx, minlength=nbins).astype(out)
    return histogram


def _bound(side):
    def factory(op, ctx):
        out = op._get_attr("out_type").as_numpy_dtype

        def bound(sorted_inputs, values):
            if sorted_inputs.shape[0] != values.shape[0]:
                raise _bad("Leading dim_size of both tensors must match.")
            res = np.empty(values.shape, dtype=out)
            for i in range(values.shape[0]):
                res[i] = np.searchsorted(sorted_inputs[i], values[i], side=side)
            return res
        return bound
    return factory


register_kernel("LowerBound")(_bound("left"))
register_kernel("UpperBound")(_bound("right"))


def _scatter_kernel(mode):
    def factory(op, ctx):
        def tensor_scatter(tensor, indices, updates):
            out = np.array(tensor, copy=True)
            if indices.ndim == 0:
                raise _bad("Indices shape must have rank at least one.")
            k = indices.shape[-1]
            if k > out.ndim:
                raise _bad(f"Inner dimension of indices ({k}) must be <= rank of tensor ({out.ndim})")
            flat = indices.reshape(-1, k)
            lim = np.asarray(out.shape[:k], dtype=np.int64)
            bad = ((flat < 0) | (flat >= lim)).any(axis=1)
            if bad.any():
                i = int(bad.argmax())
                raise _bad(f"indices[{i}] = [{', '.join(str(int(v)) for v in flat[i])}] does not index into "
                           f"shape {_shape_str(out.shape)}")
            want = indices.shape[:-1] + out.shape[k:]
            if tuple(updates.shape) != tuple(want):
                raise _bad(f"Dimensions [0,{indices.ndim - 1}) of indices[shape={_shape_str(indices.shape)}] = "
                           f"{_shape_str(indices.shape[:-1])} must match dimensions [0,{indices.ndim - 1}) of "
                           f"updates[shape={_shape_str(updates.shape)}]")
            upd = updates.reshape((flat.shape[0],) + out.shape[k:])
            idx = tuple(flat[:, j] for j in range(k))
            if mode == "update":
                out[idx] = upd
            elif mode == "add":
                np.add.at(out, idx, upd)
            elif mode == "sub":
                np.subtract.at(out, idx, upd)
            elif mode == "max":
                np.maximum.at(out, idx, upd)
            else:
                np.minimum.at(out, idx, upd)
            return out
        return tensor_scatter
    return factory


for _t, _m in [("TensorScatterUpdate", "update"), ("TensorScatterAdd", "add"), ("TensorScatterSub", "sub"),
               ("TensorScatterMax", "max"), ("TensorScatterMin", "min")]:
    register_kernel(_t)(_scatter_kernel(_m))


# -- space/depth/batch rearrangements (NHWC) ---------------------------------------------------

def _space_to_depth_np(x, b):
    n, h, w, c = x.shape
    if h % b or w % b:
        raise _bad(f"Image width {w} and height {h} should be divisible by block_size: {b}")
    y = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return y.reshape(n, h // b, w // b, b * b * c)


def _depth_to_space_np(x, b):
    n, h, w, c = x.shape
    if c % (b * b):
        raise _bad(f"Input depth dimension {c} should be divisible by: {b * b}")
    y = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return y.reshape(n, h * b, w * b, c // (b * b))


def _nchw(fn, fmt):
    if fmt == "NCHW":
        return lambda x, b: fn(x.transpose(0, 2, 3, 1), b).transpose(0, 3, 1, 2)
    return fn


@register_kernel("SpaceToDepth")
def _space_to_depth(op, ctx):
    b, fn = op._get_attr("block_size"), _nchw(_space_to_depth_np, op._get_attr("data_format"))

    def space_to_depth(x):
        if x.ndim != 4:
            raise _bad(f"Input rank should be: 4 instead of: {x.ndim}")
        return fn(x, b)
    return space_to_depth


@register_kernel("DepthToSpace")
def _depth_to_space(op, ctx):
    b, fn = op._get_attr("block_size"), _nchw(_depth_to_space_np, op._get_attr("data_format"))

    def depth_to_space(x):
        if x.ndim != 4:
            raise _bad(f"Input rank should be: 4 instead of: {x.ndim}")
        return fn(x, b)
    return depth_to_space


def space_to_batch_nd_np(x, block, pads):
    block = [int(v) for v in np.asarray(block).reshape(-1)]
    pads = np.asarray(pads).reshape(-1, 2)
    m = len(block)
    if any(v < 1 for v in block):
        raise _bad(f"Block shape must be positive")
    if np.any(pads < 0):
        raise _bad("Paddings must be non-negative")
    if x.ndim < 1 + m:
        raise _bad(f"input rank should be >= {1 + m} instead of {x.ndim}")
    x = np.pad(x, [(0, 0)] + [(int(a), int(b)) for a, b in pads] + [(0, 0)] * (x.ndim - 1 - m))
    n, sp, rest = x.shape[0], x.shape[1:1 + m], x.shape[1 + m:]
    for i, (s, b) in enumerate(zip(sp, block)):
        if s % b:
            raise _bad(f"padded_shape[{i}]={s} is not divisible by block_shape[{i}]={b}")
    shp = [n]
    for s, b in zip(sp, block):
        shp += [s // b, b]
    y = x.reshape(shp + list(rest))
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    y = y.transpose(perm)
    return y.reshape([n * int(np.prod(block))] + [s // b for s, b in zip(sp, block)] + list(rest))


def batch_to_space_nd_np(x, block, crops):
    block = [int(v) for v in np.asarray(block).reshape(-1)]
    crops = np.asarray(crops).reshape(-1, 2)
    m = len(block)
    if any(v < 1 for v in block):
        raise _bad("Block shape must be positive")
    if np.any(crops < 0):
        raise _bad("Crops must be non-negative")
    prod = int(np.prod(block))
    if x.shape[0] % prod:
        raise _bad(f"Input batch dimension ({x.shape[0]}) is not divisible by product of block sizes ({prod})")
    n = x.shape[0] // prod
    sp, rest = x.shape[1:1 + m], x.shape[1 + m:]
    y = x.reshape(block + [n] + list(sp) + list(rest))
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, 2 * m + 1 + len(rest)))
    y = y.transpose(perm).reshape([n] + [s * b for s, b in zip(sp, block)] + list(rest))
    sl = [slice(None)]
    for i, (s, b) in enumerate(zip(sp, block)):
        lo, hi = int(crops[i, 0]), int(crops[i, 1])
        if lo + hi > s * b:
            raise _bad(f"Crops must not exceed the block-expanded size")
        sl.append(slice(lo, s * b - hi))
    return y[tuple(sl)]


@register_kernel("SpaceToBatchND")
def _space_to_batch_nd(op, ctx):
    return space_to_batch_nd_np


@register_kernel("BatchToSpaceND")
def _batch_to_space_nd(op, ctx):
    return batch_to_space_nd_np


@register_kernel("Cross")
def _cross(op, ctx):
    def cross(a, b):
        if a.shape != b.shape:
            raise _bad(f"Both inputs must be of same shape: {_shape_str(a.shape)} vs. {_shape_str(b.shape)}")
        if a.ndim == 0 or a.shape[-1] != 3:
            raise _bad(f"Trailing dimension must be of size 3")
        return np.cross(a, b).astype(a.dtype, copy=False)
    return cross


@register_kernel("Complex")
def _complex(op, ctx):
    out = op._get_attr("Tout").as_numpy_dtype

    def complex_(re, im):
        res = np.empty(np.broadcast_shapes(np.shape(re), np.shape(im)), dtype=out)
        res.real = re
        res.imag = im
        return res
    return complex_


@register_kernel("EnsureShape")
def _ensure_shape(op, ctx):
    want = op._get_attr("shape")

    def ensure_shape(x):
        if want.ndims is not None:
            dims = want.as_list()
            if x.ndim != len(dims) or any(d is not None and d != s for d, s in zip(dims, x.shape)):
                exp = "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"
                raise _bad(f"Shape of tensor {op.inputs[0].op.name} {_shape_str(x.shape)} is not compatible "
                           f"with expected shape {exp}.")
        return x
    return ensure_shape


@register_kernel("ParallelConcat")
def _parallel_concat(op, ctx):
    def parallel_concat(*xs):
        return np.concatenate(xs, axis=0)
    return parallel_concat
