"""CPU kernels for array ops."""

import itertools

import numpy as np

from ...framework import errors
from ..registry import Fixed, register_kernel


@register_kernel("Const")
def _const(op, ctx):
    return Fixed(op.get_attr("value"))


def _dims_str(shape):
    if shape.ndims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


_TF_TYPE_NAMES = {"float32": "float", "float64": "double"}


@register_kernel("Placeholder")
def _placeholder(op, ctx):
    dtype = op.get_attr("dtype")
    msg = (f"You must feed a value for placeholder tensor '{op.name}' with dtype "
           f"{_TF_TYPE_NAMES.get(dtype.name, dtype.name)}"
           + (f" and shape {_dims_str(op.get_attr('shape'))}" if op.get_attr("shape").ndims is not None else ""))

    def placeholder():
        raise errors.InvalidArgumentError(None, op, msg)
    return placeholder


@register_kernel("PlaceholderWithDefault", forward=True)
def _placeholder_with_default(op, ctx):
    return None


@register_kernel("Identity", forward=True)
def _identity(op, ctx):
    return None


@register_kernel("StopGradient", forward=True)
def _stop_gradient(op, ctx):
    return None


def _bad(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _shape_str(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


# -- shapes ----------------------------------------------------------------------------------

@register_kernel("Shape")
def _shape(op, ctx):
    dt = op.get_attr("out_type").as_numpy_dtype
    xp = ctx.xp

    def shape(x):
        return xp.asarray(xp.shape(x), dtype=dt)
    return shape


@register_kernel("ShapeN")
def _shape_n(op, ctx):
    dt = op.get_attr("out_type").as_numpy_dtype
    xp = ctx.xp

    def shape_n(*xs):
        return tuple(xp.asarray(xp.shape(x), dtype=dt) for x in xs)
    return shape_n


@register_kernel("Size")
def _size(op, ctx):
    dt = op.get_attr("out_type").as_numpy_dtype
    xp = ctx.xp

    def size(x):
        return xp.asarray(xp.size(x), dtype=dt)
    return size


@register_kernel("Rank")
def _rank(op, ctx):
    xp = ctx.xp

    def rank(x):
        return xp.asarray(xp.ndim(x), dtype=xp.int32)
    return rank


# -- fill and friends ------------------------------------------------------------------------

@register_kernel("Fill")
def _fill(op, ctx):
    xp = ctx.xp

    def fill(dims, value):
        if xp.ndim(value) != 0:
            raise _bad(f"value must be a scalar, got shape {_shape_str(xp.shape(value))}")
        if xp.ndim(dims) != 1:
            raise _bad(f"dims must be a vector, got shape {_shape_str(xp.shape(dims))}")
        if (dims < 0).any():
            raise _bad(f"Fill dimensions must be >= 0")
        return xp.full(tuple(dims.tolist()), value, dtype=value.dtype)
    return fill


@register_kernel("ZerosLike")
def _zeros_like(op, ctx):
    return ctx.xp.zeros_like


@register_kernel("OnesLike")
def _ones_like(op, ctx):
    return ctx.xp.ones_like


# -- reshaping -------------------------------------------------------------------------------

@register_kernel("Reshape", aliases=True)
def _reshape(op, ctx):
    xp = ctx.xp

    def reshape(x, shape):
        s = tuple(shape.tolist())
        try:
            return xp.reshape(x, s)
        except ValueError:
            n = 1
            neg = 0
            for d in s:
                if d == -1:
                    neg += 1
                else:
                    n *= d
            if neg > 1:
                raise _bad(f"Only one input size may be -1, not both") from None
            if neg:
                raise _bad(f"Input to reshape is a tensor with {xp.size(x)} values, but the requested shape "
                           f"requires a multiple of {n}") from None
            raise _bad(f"Input to reshape is a tensor with {xp.size(x)} values, but the requested shape has "
                       f"{n}") from None
    return reshape


def _check_perm(perm, n):
    p = [int(i) for i in perm]
    if len(p) != n:
        raise _bad(f"transpose expects a vector of size {n}. But input(1) is a vector of size {len(p)}")
    if sorted(i % n if -n <= i < n else -1 for i in p) != list(range(n)):
        raise _bad(f"{_shape_str(p)} is not a permutation")
    return tuple(i % n for i in p)


@register_kernel("Transpose", aliases=True)
def _transpose(op, ctx):
    xp = ctx.xp

    def transpose(x, perm):
        return xp.transpose(x, _check_perm(perm, x.ndim))
    return transpose


@register_kernel("ConjugateTranspose")
def _conj_transpose(op, ctx):
    xp = ctx.xp

    def conjugate_transpose(x, perm):
        return xp.conj(xp.transpose(x, _check_perm(perm, x.ndim)))
    return conjugate_transpose


@register_kernel("ExpandDims", aliases=True)
def _expand_dims(op, ctx):
    xp = ctx.xp

    def expand_dims(x, dim):
        if xp.size(dim) != 1:
            raise _bad(f"'dim' must be a tensor with a single value")
        d = int(dim.reshape(-1)[0])
        n = x.ndim
        if not -n - 1 <= d <= n:
            raise _bad(f"Tried to expand dim index {d} for tensor with {n} dimensions.")
        return xp.expand_dims(x, d % (n + 1))
    return expand_dims


@register_kernel("Squeeze", aliases=True)
def _squeeze(op, ctx):
    xp = ctx.xp
    axes = tuple(op.get_attr("squeeze_dims"))

    def squeeze(x):
        if not axes:
            return xp.squeeze(x)
        n = x.ndim
        for a in axes:
            if not -n <= a < n:
                raise _bad(f"Tried to squeeze dim index {a} for tensor with {n} dimensions.")
            if x.shape[a] != 1:
                raise _bad(f"Can not squeeze dim[{a % n}], expected a dimension of 1, got {x.shape[a]}")
        return xp.squeeze(x, axis=tuple(a % n for a in axes))
    return squeeze


# -- joining and splitting -------------------------------------------------------------------

def _concat_check(xs, axis):
    r = xs[0].ndim
    if not -r <= axis < r:
        raise _bad(f"ConcatOp : Expected concatenating dimensions in the range [{-r}, {r}), but got {axis}")
    for i, x in enumerate(xs[1:], 1):
        if x.ndim != r:
            raise _bad(f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                       f"{_shape_str(xs[0].shape)} vs. shape[{i}] = {_shape_str(x.shape)}")
    a = axis % r
    for i, x in enumerate(xs[1:], 1):
        if x.shape[:a] != xs[0].shape[:a] or x.shape[a + 1:] != xs[0].shape[a + 1:]:
            raise _bad(f"ConcatOp : Dimension {[j for j in range(r) if j != a and x.shape[j] != xs[0].shape[j]][0]} "
                       f"in both shapes must be equal: shape[0] = {_shape_str(xs[0].shape)} vs. shape[{i}] = "
                       f"{_shape_str(x.shape)}")
    return a


@register_kernel("ConcatV2")
def _concat(op, ctx):
    xp = ctx.xp

    def concat(*args):
        xs, axis = args[:-1], int(args[-1])
        try:
            return xp.concatenate(xs, axis=axis)
        except (ValueError, IndexError):
            _concat_check(xs, axis)
            raise
    return concat


@register_kernel("ConcatOffset")
def _concat_offset(op, ctx):
    xp = ctx.xp

    def concat_offset(axis, *shapes):
        r = len(shapes[0])
        a = int(axis)
        if not -r <= a < r:
            raise _bad(f"Concat dim is out of range: {a} vs. {r}")
        a %= r
        out = []
        off = 0
        for s in shapes:
            o = xp.zeros(r, dtype=s.dtype)
            o[a] = off
            off += int(s[a])
            out.append(o)
        return tuple(out)
    return concat_offset


@register_kernel("Pack")
def _pack(op, ctx):
    xp = ctx.xp
    axis = op.get_attr("axis")

    def pack(*xs):
        s = xs[0].shape
        for i, x in enumerate(xs[1:], 1):
            if x.shape != s:
                raise _bad(f"Shapes of all inputs must match: values[0].shape = {_shape_str(s)} != "
                           f"values[{i}].shape = {_shape_str(x.shape)}")
        return xp.stack(xs, axis=axis)
    return pack


@register_kernel("Unpack", aliases=True)
def _unpack(op, ctx):
    axis = op.get_attr("axis")
    num = op.get_attr("num")

    def unpack(x):
        a = axis % x.ndim
        if x.shape[a] != num:
            raise _bad(f"Input shape axis {a} must equal {num}, got shape {_shape_str(x.shape)}")
        idx = (slice(None),) * a
        return tuple(x[idx + (i,)] for i in range(num))
    return unpack


@register_kernel("Split", aliases=True)
def _split(op, ctx):
    xp = ctx.xp
    num = op.get_attr("num_split")

    def split(axis, x):
        n = x.ndim
        a = int(axis)
        if not -n <= a < n:
            raise _bad(f"-input rank(-{n}) <= split_dim < input rank ({n}), but got {a}")
        a %= n
        if x.shape[a] % num:
            raise _bad(f"Number of ways to split should evenly divide the split dimension, but got "
                       f"split_dim {a} (size = {x.shape[a]}) and num_split {num}")
        return tuple(xp.split(x, num, axis=a))
    return split


@register_kernel("SplitV", aliases=True)
def _split_v(op, ctx):
    xp = ctx.xp
    num = op.get_attr("num_split")

    def split_v(x, sizes, axis):
        n = x.ndim
        a = int(axis)
        if not -n <= a < n:
            raise _bad(f"-input rank(-{n}) <= split_dim < input rank ({n}), but got {a}")
        a %= n
        s = [int(v) for v in sizes]
        if len(s) != num:
            raise _bad(f"Number of split sizes ({len(s)}) must equal num_split ({num})")
        neg = [i for i, v in enumerate(s) if v == -1]
        known = sum(v for v in s if v != -1)
        if len(neg) > 1:
            raise _bad("Only one dimensions can have a value of -1. Second one found at dimension "
                       f"{neg[1]}")
        if neg:
            s[neg[0]] = x.shape[a] - known
        if any(v < 0 for v in s) or sum(s) != x.shape[a]:
            raise _bad("Determined shape must either match input shape along split_dim exactly if fully "
                       "specified, or be less than the size of the input along split_dim if not fully "
                       f"specified.  Got: {known}")
        cuts = list(itertools.accumulate(s))[:-1]
        return tuple(xp.split(x, cuts, axis=a))
    return split_v


# -- gather / scatter ------------------------------------------------------------------------

def _bad_index(indices, limit):
    flat = indices.reshape(-1)
    bad = int(((flat < 0) | (flat >= limit)).argmax())
    pos = ",".join(str(int(i)) for i in _unravel(bad, indices.shape))
    return _bad(f"indices[{pos}] = {int(flat[bad])} is not in [0, {limit})")


def _unravel(i, shape):
    return np.unravel_index(i, shape) if shape else ()


@register_kernel("GatherV2")
def _gather(op, ctx):
    xp = ctx.xp
    bd = op.get_attr("batch_dims")

    def gather(params, indices, axis):
        n = params.ndim
        a = int(axis)
        if not -n <= a < n:
            raise _bad(f"Expected axis in the range [{-n}, {n}), but got {a}")
        a %= n
        limit = params.shape[a]
        if indices.size and (indices.min() < 0 or indices.max() >= limit):
            raise _bad_index(indices, limit)
        if not bd:
            return xp.take(params, indices, axis=a)
        b = bd % indices.ndim if bd < 0 else bd
        # batch_dims: gather independently for each index of the leading b dims.
        if params.shape[:b] != indices.shape[:b]:
            raise _bad(f"params.shape[:{b}] should match indices.shape[:{b}]")
        batch = int(xp.prod(params.shape[:b])) if b else 1
        p = params.reshape((batch,) + params.shape[b:])
        ind = indices.reshape((batch,) + indices.shape[b:])
        out = xp.stack([xp.take(p[i], ind[i], axis=a - b) for i in range(batch)])
        return out.reshape(params.shape[:a] + indices.shape[b:] + params.shape[a + 1:])
    return gather


@register_kernel("GatherNd")
def _gather_nd(op, ctx):
    xp = ctx.xp

    def gather_nd(params, indices):
        k = indices.shape[-1]
        if k > params.ndim:
            raise _bad(f"index innermost dimension length must be <= params rank; saw: {k} vs. {params.ndim}")
        lim = xp.asarray(params.shape[:k], dtype=indices.dtype)
        flat = indices.reshape(-1, k)
        bad = ((flat < 0) | (flat >= lim)).any(axis=1)
        if bad.any():
            i = int(bad.argmax())
            pos = ",".join(str(int(j)) for j in _unravel(i, indices.shape[:-1]))
            raise _bad(f"indices[{pos}] = [{', '.join(str(int(v)) for v in flat[i])}] does not index into "
                       f"param shape {_shape_str(params.shape)}, node name: {op.name}")
        return params[tuple(indices[..., j] for j in range(k))]
    return gather_nd


@register_kernel("ScatterNd")
def _scatter_nd(op, ctx):
    xp = ctx.xp

    def scatter_nd(indices, updates, shape):
        s = tuple(int(d) for d in shape)
        k = indices.shape[-1]
        out = xp.zeros(s, dtype=updates.dtype)
        flat = indices.reshape(-1, k)
        lim = xp.asarray(s[:k], dtype=indices.dtype)
        bad = ((flat < 0) | (flat >= lim)).any(axis=1)
        if bad.any():
            i = int(bad.argmax())
            raise _bad(f"indices[{i}] = [{', '.join(str(int(v)) for v in flat[i])}] does not index into "
                       f"shape {_shape_str(s)}")
        upd = updates.reshape((flat.shape[0],) + s[k:])
        if k == 1:
            xp.add.at(out, flat[:, 0], upd)
        else:
            xp.add.at(out, tuple(flat[:, j] for j in range(k)), upd)
        return out
    return scatter_nd


# -- tile and broadcasting -------------------------------------------------------------------

@register_kernel("Tile")
def _tile(op, ctx):
    xp = ctx.xp

    def tile(x, multiples):
        m = tuple(int(k) for k in multiples)
        if len(m) != x.ndim:
            raise _bad(f"Expected multiples argument to be a vector of length {x.ndim} but got length {len(m)}")
        if any(k < 0 for k in m):
            raise _bad(f"Expected multiples[i] >= 0, but got {_shape_str(m)}")
        return xp.tile(x, m)
    return tile


@register_kernel("TileGrad")
def _tile_grad(op, ctx):
    xp = ctx.xp

    def tile_grad(g, multiples):
        m = [int(k) for k in multiples]
        split = []
        for k, d in zip(m, g.shape):
            split += [k, d // k if k else 0]
        return g.reshape(split).sum(axis=tuple(range(0, 2 * len(m), 2)))
    return tile_grad


@register_kernel("BroadcastTo")
def _broadcast_to(op, ctx):
    xp = ctx.xp

    def broadcast_to(x, shape):
        s = tuple(int(d) for d in shape)
        try:
            return xp.array(xp.broadcast_to(x, s))
        except ValueError:
            raise _bad(f"Incompatible shapes: {_shape_str(x.shape)} vs. {_shape_str(s)}") from None
    return broadcast_to


def _sum_to(xp, x, s):
    """Sums `x` over the axes that broadcasting `s` to x.shape expanded."""
    s = tuple(s)
    if x.shape == s:
        return x
    lead = x.ndim - len(s)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(s) if d == 1 and x.shape[lead + i] != 1)
    out = x.sum(axis=axes, keepdims=True) if axes else x
    return out.reshape(s)


@register_kernel("SumToShape")
def _sum_to_shape(op, ctx):
    xp = ctx.xp

    def sum_to_shape(x, shape):
        return _sum_to(xp, x, [int(d) for d in shape])
    return sum_to_shape
