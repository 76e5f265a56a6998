"""CPU kernels for array ops."""

import itertools

import numpy as np

from ...framework import errors
from ..registry import Fixed, register_kernel


@register_kernel("Const")
def _const(op, ctx):
    return Fixed(op._get_attr("value"))


def _dims_str(shape):
    if shape.ndims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


_TF_TYPE_NAMES = {"float32": "float", "float64": "double"}


@register_kernel("Placeholder")
def _placeholder(op, ctx):
    dtype = op._get_attr("dtype")
    msg = (f"You must feed a value for placeholder tensor '{op.name}' with dtype "
           f"{_TF_TYPE_NAMES.get(dtype.name, dtype.name)}"
           + (f" and shape {_dims_str(op._get_attr('shape'))}" if op._get_attr("shape").ndims is not None else ""))

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
    dt = op._get_attr("out_type").as_numpy_dtype
    xp = ctx.xp

    def shape(x):
        return xp.asarray(xp.shape(x), dtype=dt)
    return shape


def _outputs(values):
    """A list-output op's values as the plan takes them: a tuple, or the value itself when the op
    has one output (a 1-tuple would be taken as the value)."""
    return values[0] if len(values) == 1 else tuple(values)


@register_kernel("ShapeN")
def _shape_n(op, ctx):
    dt = op._get_attr("out_type").as_numpy_dtype
    xp = ctx.xp

    def shape_n(*xs):
        return _outputs([xp.asarray(xp.shape(x), dtype=dt) for x in xs])
    return shape_n


@register_kernel("Size")
def _size(op, ctx):
    dt = op._get_attr("out_type").as_numpy_dtype
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
        if x.size == 0 and -1 in s and 0 in s:
            s = _infer_with_zeros(x.shape, s)
        try:
            return xp.reshape(x, s)
        except ValueError:
            neg = s.count(-1)
            if neg > 1:
                first, second = [i for i, d in enumerate(s) if d == -1][:2]
                raise _bad(f"Only one input size may be -1, not both {first} and {second}") from None
            # TF's checks: zero-sized target dims are left out of the product (and then out of
            # the input's count) so the -1 can still be inferred; then the element counts
            n = 1
            for d in s:
                if d > 0:
                    n *= d
            size = xp.size(x)
            if neg:
                known = 1
                for d in x.shape:
                    if d > 0 or 0 not in s:
                        known *= d
                if 0 not in x.shape or 0 not in s:
                    if known % n:
                        raise _bad(f"Input to reshape is a tensor with {size} values, but the requested "
                                   f"shape requires a multiple of {n}") from None
                n *= known // n
            if 0 in s:
                n = 0
            raise _bad(f"Input to reshape is a tensor with {size} values, but the requested shape has "
                       f"{n}") from None
    return reshape


def _infer_with_zeros(in_shape, s):
    """TF's -1 for an empty input and a target shape with a zero: the zero-sized dimensions are
    left out of both element counts, so [0, 3] -> [-1, 0] is [3, 0] (NumPy refuses to infer)."""
    product = 1
    for d in s:
        if d > 0:
            product *= d
    known = 1
    for d in in_shape:
        if d > 0:
            known *= d
    return tuple(known // product if d == -1 else d for d in s) if s.count(-1) == 1 else s


def _check_perm(perm, n):
    p = [int(i) for i in perm]
    if len(p) != n:
        raise _bad(f"transpose expects a vector of size {n}. But input(1) is a vector of size {len(p)}")
    # TF's kernel: negative entries count from the end; then range, then completeness
    w = [i + n if i < 0 else i for i in p]
    for d in w:
        if not 0 <= d < n:
            raise _bad(f"{d} is out of range [0 .. {n})")
    for i in range(n):
        if i not in w:
            raise _bad(f"{i} is missing from {{{','.join(str(d) for d in w)}}}.")
    return tuple(w)


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
    axes = tuple(op._get_attr("squeeze_dims"))

    def squeeze(x):
        if not axes:
            return xp.squeeze(x)
        n = x.ndim
        for a in axes:
            if not -n <= a < n:
                raise _bad(f"Tried to squeeze dim index {a} for tensor with {n} dimensions.")
            if x.shape[a] != 1:
                raise _bad(f"Can not squeeze dim[{a % n}], expected a dimension of 1, got {x.shape[a]}")
        return xp.squeeze(x, axis=tuple(sorted({a % n for a in axes})))  # TF allows repeats
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
    axis = op._get_attr("axis")

    def pack(*xs):
        if not hasattr(xs[0], "shape"):
            # Resource handles (queues: QueueBase.from_list) stack into an object vector.
            out = np.empty(len(xs), dtype=object)
            for i, x in enumerate(xs):
                out[i] = x
            return out
        s = xs[0].shape
        for i, x in enumerate(xs[1:], 1):
            if x.shape != s:
                raise _bad(f"Shapes of all inputs must match: values[0].shape = {_shape_str(s)} != "
                           f"values[{i}].shape = {_shape_str(x.shape)}")
        return xp.stack(xs, axis=axis)
    return pack


@register_kernel("Unpack", aliases=True)
def _unpack(op, ctx):
    axis = op._get_attr("axis")
    num = op._get_attr("num")

    def unpack(x):
        a = axis % x.ndim
        if x.shape[a] != num:
            raise _bad(f"Input shape axis {a} must equal {num}, got shape {_shape_str(x.shape)}")
        idx = (slice(None),) * a
        if num == 1:  # a single output is returned bare (a 1-tuple would be taken as the value)
            return x[idx + (0,)]
        return tuple(x[idx + (i,)] for i in range(num))
    return unpack


@register_kernel("Split", aliases=True)
def _split(op, ctx):
    num = op._get_attr("num_split")

    def split(axis, x):
        n = x.ndim
        a = int(axis)
        if not -n <= a < n:
            raise _bad(f"-input rank(-{n}) <= split_dim < input rank ({n}), but got {a}")
        a %= n
        if x.shape[a] % num:
            raise _bad(f"Number of ways to split should evenly divide the split dimension, but got "
                       f"split_dim {a} (size = {x.shape[a]}) and num_split {num}")
        w = x.shape[a] // num               # basic slices (views), without np.split's overhead
        pre = (slice(None),) * a
        return _outputs([x[pre + (slice(i * w, i * w + w),)] for i in range(num)])
    return split


@register_kernel("SplitV", aliases=True)
def _split_v(op, ctx):
    xp = ctx.xp
    num = op._get_attr("num_split")

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
        return _outputs(xp.split(x, cuts, axis=a))
    return split_v


# -- gather / scatter ------------------------------------------------------------------------

def _bad_index(indices, limit):
    flat = indices.reshape(-1)
    bad = int(((flat < 0) | (flat >= limit)).argmax())
    pos = ",".join(str(int(i)) for i in _unravel(bad, indices.shape))
    where = f"indices[{pos}]" if indices.ndim else "indices"   # TF's wording for a scalar index
    return _bad(f"{where} = {int(flat[bad])} is not in [0, {limit})")


def _unravel(i, shape):
    return np.unravel_index(i, shape) if shape else ()


@register_kernel("GatherV2")
def _gather(op, ctx):
    xp = ctx.xp
    bd = op._get_attr("batch_dims")

    def gather(params, indices, axis):
        n = params.ndim
        a = int(axis)
        if not -n <= a < n:
            raise _bad(f"Expected axis in the range [{-n}, {n}), but got {a}")
        a %= n
        b = bd % indices.ndim if bd < 0 else bd
        for i in range(b):  # TF checks the batch dims before the indices
            if params.shape[i] != indices.shape[i]:
                raise _bad(f"params.shape[{i}]: {params.shape[i]} should be equal to indices.shape[{i}]: "
                           f"{indices.shape[i]}")
        limit = params.shape[a]
        if indices.size and (indices.min() < 0 or indices.max() >= limit):
            raise _bad_index(indices, limit)
        if not bd:
            return xp.take(params, indices, axis=a)
        # batch_dims: gather independently for each index of the leading b dims.
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
        if k == 0:  # each (empty) index picks the whole of params
            return xp.broadcast_to(params, indices.shape[:-1] + params.shape).copy()
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
        for i, k in enumerate(m):
            if k < 0:
                raise _bad(f"Expected multiples[{i}] >= 0, but got {k}")
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
        for d in s:
            if d < 0:
                raise _bad(f"Dimension {d} must be >= 0")
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


# -- slicing ---------------------------------------------------------------------------------

@register_kernel("Slice", aliases=True)
def _slice(op, ctx):
    def slice_(x, begin, size):
        if len(begin) != x.ndim or len(size) != x.ndim:
            raise _bad(f"Expected begin and size arguments to be 1-D tensors of size {x.ndim}, but got "
                       f"shapes {_shape_str(begin.shape)} and {_shape_str(size.shape)} instead.")
        idx = []
        for i, (b, s, d) in enumerate(zip(begin.tolist(), size.tolist(), x.shape)):
            if s == -1:
                s = d - b
            if not (0 <= b <= d and 0 <= s and b + s <= d):
                raise _bad(f"Expected size[{i}] in [0, {d - b}], but got {s}" if 0 <= b <= d else
                           f"Expected begin[{i}] in [0, {d}], but got {b}")
            idx.append(slice(b, b + s))
        return x[tuple(idx)]
    return slice_


_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _ss_index_fn(op):
    bm, em, elm, nm, sm = (op._get_attr(m) for m in _MASKS)

    def index(x_ndim, x_shape, begin, end, strides):
        n = len(begin)
        if len(end) != n or len(strides) != n:
            raise _bad(f"Expected begin, end, and strides to be 1D equal size tensors, but got shapes "
                       f"{_shape_str(begin.shape)}, {_shape_str(end.shape)}, and {_shape_str(strides.shape)} instead.")
        if bin(elm & ((1 << n) - 1)).count("1") > 1:
            raise _bad("Multiple ellipses in slice spec not allowed")
        b, e, s = begin.tolist(), end.tolist(), strides.tolist()
        idx = []
        consumed = sum(1 for i in range(n) if not (elm | nm) & (1 << i))
        # TF's BuildDenseSpec maps the spec onto the input's dims before any bounds check
        if consumed > x_ndim:
            if x_ndim == 0:
                raise _bad("Attempting to slice scalar input.")
            raise _bad(f"Index out of range using input dim {x_ndim}; input has only {x_ndim} dims")
        d = 0  # the dense (input) dimension; TF's messages name it
        for i in range(n):
            bit = 1 << i
            if elm & bit:
                idx.append(Ellipsis)
                d += x_ndim - consumed
            elif nm & bit:
                idx.append(None)
            elif sm & bit:
                if s[i] == 0:
                    raise _bad(f"strides[{d}] must be non-zero")
                if s[i] < 0:
                    raise _bad("only stride 1 allowed on non-range indexing.")
                dim = x_shape[d]
                fwd = b[i] + dim if b[i] < 0 else b[i]
                if not 0 <= fwd < dim:
                    raise _bad(f"slice index {fwd} of dimension {d} out of bounds.")
                idx.append(fwd)
                d += 1
            else:
                if s[i] == 0:
                    raise _bad(f"strides[{d}] must be non-zero")
                idx.append(slice(None if bm & bit else b[i], None if em & bit else e[i], s[i]))
                d += 1
        return tuple(idx)
    return index


@register_kernel("StridedSlice", aliases=True)
def _strided_slice(op, ctx):
    index = _ss_index_fn(op)

    def strided_slice(x, begin, end, strides):
        return x[index(x.ndim, x.shape, begin, end, strides)]
    return strided_slice


@register_kernel("StridedSliceGrad")
def _strided_slice_grad(op, ctx):
    index = _ss_index_fn(op)
    xp = ctx.xp

    def strided_slice_grad(shape, begin, end, strides, dy):
        s = tuple(int(d) for d in shape)
        out = xp.zeros(s, dtype=dy.dtype)
        out[index(len(s), s, begin, end, strides)] = dy
        return out
    return strided_slice_grad


# -- sequences -------------------------------------------------------------------------------

@register_kernel("Range")
def _range(op, ctx):
    xp = ctx.xp
    dt = op._get_attr("Tidx").as_numpy_dtype
    integer = op._get_attr("Tidx").is_integer

    def range_(start, limit, delta):
        s, l, d = start.item(), limit.item(), delta.item()
        if d == 0:
            raise _bad("Requires delta != 0: 0")
        if d > 0 and s > l:
            raise _bad(f"Requires start <= limit when delta > 0: {s}/{l}")
        if d < 0 and s < l:
            raise _bad(f"Requires start >= limit when delta < 0: {s}/{l}")
        n = (abs(l - s) + abs(d) - 1) // abs(d) if integer else int(np.ceil(abs((l - s) / d)))
        if integer:
            return xp.arange(s, s + n * d, d, dtype=dt)[:n]
        return (start + xp.arange(n, dtype=dt) * delta).astype(dt, copy=False)
    return range_


@register_kernel("LinSpace")
def _linspace(op, ctx):
    xp = ctx.xp

    def linspace(start, stop, num):
        n = int(num)
        if n <= 0:
            raise _bad(f"Requires num > 0: {n}")
        return xp.linspace(start, stop, n).astype(start.dtype, copy=False)
    return linspace


@register_kernel("OneHot")
def _one_hot(op, ctx):
    xp = ctx.xp
    axis = op._get_attr("axis")

    def one_hot(indices, depth, on, off):
        if axis != -1 and not 0 <= axis <= indices.ndim:
            raise _bad(f"Expected axis to be -1 or between [0, {indices.ndim + 1}).  But received: {axis}")
        if np.ndim(depth) != 0:
            dims = ",".join(map(str, np.shape(depth)))
            raise _bad(f"depth must be a scalar, but got: [{dims}]")
        d = int(depth)
        if d < 0:
            raise _bad(f"depth must be non-negative, got: {d}")
        hot = indices[..., None] == xp.arange(d, dtype=indices.dtype)
        out = xp.where(hot, on, off).astype(on.dtype, copy=False)
        if axis != -1 and axis != indices.ndim:
            out = xp.moveaxis(out, -1, axis)
        return out
    return one_hot


def _check_paddings(x, p):
    if p.shape != (x.ndim, 2):
        raise _bad(f"The first dimension of paddings must be the rank of inputs{_shape_str(p.shape)} "
                   f"{_shape_str(x.shape)}")
    if (p < 0).any():
        raise _bad(f"Paddings must be non-negative: {p.tolist()}")
    return [(int(a), int(b)) for a, b in p.tolist()]


@register_kernel("Pad")
def _pad(op, ctx):
    xp = ctx.xp

    def pad(x, paddings):
        if x.dtype == object:  # strings pad with b""
            p = _check_paddings(x, paddings)
            out = np.empty(tuple(d + a + b for d, (a, b) in zip(x.shape, p)), dtype=object)
            out.fill(b"")
            out[tuple(slice(a, a + d) for d, (a, _) in zip(x.shape, p))] = x
            return out
        return xp.pad(x, _check_paddings(x, paddings))
    return pad


@register_kernel("PadV2")
def _pad_v2(op, ctx):
    xp = ctx.xp

    def pad_v2(x, paddings, c):
        return xp.pad(x, _check_paddings(x, paddings), constant_values=c)
    return pad_v2


@register_kernel("MirrorPad")
def _mirror_pad(op, ctx):
    xp = ctx.xp
    mode = op._get_attr("mode")
    off = 0 if mode == "REFLECT" else 1

    def mirror_pad(x, paddings):
        p = _check_paddings(x, paddings)
        for d, (a, b) in zip(x.shape, p):
            if a > d - 1 + off or b > d - 1 + off:
                raise _bad(f"paddings must be no greater than the dimension size: {a}, {b} greater than {d}"
                           if off else
                           f"paddings must be less than the dimension size: {a}, {b} not less than {d}")
        return xp.pad(x, p, mode="reflect" if mode == "REFLECT" else "symmetric")
    return mirror_pad


@register_kernel("MirrorPadGrad")
def _mirror_pad_grad(op, ctx):
    off = 0 if op._get_attr("mode") == "REFLECT" else 1

    def mirror_pad_grad(g, paddings):
        out = g
        for ax, (a, b) in enumerate(paddings.tolist()):
            a, b = int(a), int(b)
            n = out.shape[ax] - a - b
            idx = [slice(None)] * out.ndim
            idx[ax] = slice(a, a + n)
            core = out[tuple(idx)].copy()
            if a:
                idx[ax] = slice(0, a)
                left = np.flip(out[tuple(idx)], axis=ax)
                idx[ax] = slice(1 - off, 1 - off + a)
                core[tuple(idx)] += left
            if b:
                idx[ax] = slice(a + n, a + n + b)
                right = np.flip(out[tuple(idx)], axis=ax)
                idx[ax] = slice(n - 1 + off - b, n - 1 + off)
                core[tuple(idx)] += right
            out = core
        return out
    return mirror_pad_grad


@register_kernel("ReverseV2", aliases=True)
def _reverse(op, ctx):
    xp = ctx.xp

    def reverse_v2(x, axis):
        n = x.ndim
        axes = []
        for i, a in enumerate(axis.reshape(-1).tolist()):
            if not -n <= a < n:
                raise _bad(f"'axis'[{i}] = {a} is out of valid range [0, {n - 1}")
            if a % n in axes:
                raise _bad(f"axis {a % n} specified more than once.")
            axes.append(a % n)
        return xp.flip(x, axis=tuple(axes)) if axes else x
    return reverse_v2


# -- where / select --------------------------------------------------------------------------

@register_kernel("Where")
def _where(op, ctx):
    xp = ctx.xp

    def where(c):
        if not 1 <= c.ndim <= 8:  # TF's WhereOp handles ranks 1 to 8
            raise _bad(f"WhereOp : Unhandled input dimensions: {c.ndim}")
        return xp.argwhere(c).astype(xp.int64, copy=False)
    return where


@register_kernel("Select")
def _select(op, ctx):
    xp = ctx.xp

    def select(c, x, y):
        if x.shape != y.shape:
            raise _bad(f"'then' and 'else' must have the same size.  but received: {_shape_str(x.shape)} vs. "
                       f"{_shape_str(y.shape)}")
        if c.ndim == 0:
            return (x if c else y).copy()
        if c.shape == x.shape:
            return xp.where(c, x, y)
        if c.ndim == 1 and x.ndim >= 1 and c.shape[0] == x.shape[0]:
            return xp.where(c.reshape((-1,) + (1,) * (x.ndim - 1)), x, y)
        raise _bad(f"'condition' must be a vector or have the same shape as 'then': condition "
                   f"{_shape_str(c.shape)} vs. then {_shape_str(x.shape)}")
    return select


@register_kernel("SelectV2")
def _select_v2(op, ctx):
    return ctx.xp.where


# -- permutations and sets -------------------------------------------------------------------

@register_kernel("InvertPermutation")
def _invert_permutation(op, ctx):
    xp = ctx.xp

    def invert_permutation(x):
        if x.ndim != 1:
            raise _bad(f"invert_permutation expects a 1D vector.")
        n = x.size
        out = xp.full(n, -1, dtype=x.dtype)
        for i, v in enumerate(x.tolist()):
            if not 0 <= v < n:
                raise _bad(f"{v} is not between 0 and {n}")
            if out[v] != -1:
                raise _bad(f"{v} is duplicated in the input.")
            out[v] = i
        return out
    return invert_permutation


@register_kernel("Unique")
def _unique(op, ctx):
    if op._attrs["T"].is_complex:
        from .math import no_kernel
        return no_kernel(op, "T", "out_idx")
    xp = ctx.xp
    idx_dt = op._get_attr("out_idx").as_numpy_dtype

    def unique(x):
        if x.ndim != 1:
            raise _bad(f"unique expects a 1D vector.")
        # TF hashes values: every NaN is its own element (NumPy would merge them)
        kw = {"equal_nan": False} if xp is np and x.dtype.kind in "fc" else {}
        u, first, inv = xp.unique(x, return_index=True, return_inverse=True, **kw)
        order = xp.argsort(first, kind="stable")
        rank = xp.empty_like(order)
        rank[order] = xp.arange(order.size)
        return u[order], rank[inv.reshape(-1)].astype(idx_dt)
    return unique


@register_kernel("ListDiff")
def _list_diff(op, ctx):
    xp = ctx.xp
    idx_dt = op._get_attr("out_idx").as_numpy_dtype

    def list_diff(x, y):
        keep = ~xp.isin(x, y)
        return x[keep], xp.nonzero(keep)[0].astype(idx_dt)
    return list_diff


# -- matrices --------------------------------------------------------------------------------

@register_kernel("MatrixBandPart")
def _band_part(op, ctx):
    xp = ctx.xp

    def matrix_band_part(x, lower, upper):
        if x.ndim < 2:
            raise _bad(f"input must be at least 2-dim, received shape: {_shape_str(x.shape)}")
        m, n = x.shape[-2:]
        lo, hi = int(lower), int(upper)
        if lo > m:
            raise _bad(f"num_lower must be negative or less or equal to number of rows ({m}) got: {lo}")
        if hi > n:
            raise _bad(f"num_upper must be negative or less or equal to number of columns ({n}) got: {hi}")
        i = xp.arange(m)[:, None]
        j = xp.arange(n)[None, :]
        keep = ((lo < 0) | (i - j <= lo)) & ((hi < 0) | (j - i <= hi))
        return xp.where(keep, x, xp.zeros((), dtype=x.dtype))
    return matrix_band_part


@register_kernel("Diag")
def _diag(op, ctx):
    xp = ctx.xp

    def diag(d):
        n = d.size
        out = xp.zeros((n, n), dtype=d.dtype)
        out[xp.arange(n), xp.arange(n)] = d.reshape(-1)
        return out.reshape(d.shape + d.shape)
    return diag


@register_kernel("DiagPart")
def _diag_part(op, ctx):
    xp = ctx.xp

    def diag_part(x):
        k = x.ndim // 2
        if x.shape[:k] != x.shape[k:]:
            raise _bad(f"Invalid shape {_shape_str(x.shape)}: dimensions must be equal")
        n = int(np.prod(x.shape[:k]))
        return x.reshape(n, n)[xp.arange(n), xp.arange(n)].reshape(x.shape[:k])
    return diag_part


@register_kernel("BroadcastArgs")
def _broadcast_args(op, ctx):
    xp = ctx.xp

    def broadcast_args(a, b):
        try:
            s = np.broadcast_shapes(tuple(a.tolist()), tuple(b.tolist()))
        except ValueError:
            raise _bad(f"Incompatible shapes: {_shape_str(a.tolist())} vs. {_shape_str(b.tolist())}") from None
        return xp.asarray(s, dtype=a.dtype)
    return broadcast_args


@register_kernel("IdentityN", aliases=True)
def _identity_n(op, ctx):
    def identity_n(*xs):
        return _outputs(xs)
    return identity_n
