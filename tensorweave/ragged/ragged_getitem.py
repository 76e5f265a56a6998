"""RaggedTensor.__getitem__: ints, scalar tensors, slices and `...` over the outer (row)
dimension, the ragged dimensions (per-row index/slice) and the uniform inner dimensions."""

from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..ops import array_ops, check_ops, math_ops
from ..ops.control_flow_ops import with_dependencies

__all__ = ["ragged_tensor_getitem", "gather_rows"]


def _is_index(k):
    return isinstance(k, int) or (isinstance(k, Tensor) and k.shape.ndims == 0)


def gather_rows(x, indices):
    """Rows `indices` (a 1-D int tensor) of a Tensor or RaggedTensor."""
    from .ragged_tensor import RaggedTensor
    from .ragged_factory import range as ragged_range
    if not isinstance(x, RaggedTensor):
        return array_ops.gather(x, indices)
    indices = math_ops.cast(indices, x.row_splits.dtype)
    starts = array_ops.gather(x.row_splits[:-1], indices)
    limits = array_ops.gather(x.row_splits[1:], indices)
    lengths = limits - starts
    value_idx = ragged_range(starts, limits, row_splits_dtype=x.row_splits.dtype).values
    splits = array_ops.concat([array_ops.zeros([1], x.row_splits.dtype), math_ops.cumsum(lengths)], 0)
    return RaggedTensor(gather_rows(x.values, value_idx), splits, internal=True)


def _expand_ellipsis(key, rank):
    if Ellipsis not in key:
        return key
    i = key.index(Ellipsis)
    if rank is None:
        raise ValueError("Ellipsis is not supported for tensors of unknown rank")
    fill = rank - (len(key) - 1)
    return key[:i] + (slice(None),) * max(fill, 0) + key[i + 1:]


def ragged_tensor_getitem(rt, key):
    """rt[key] as TF's RaggedTensor.__getitem__ (no tf.newaxis)."""
    if not isinstance(key, tuple):
        key = (key,)
    if any(k is None for k in key):
        raise ValueError("tf.newaxis is not supported in RaggedTensor.__getitem__ by tensorweave yet")
    key = _expand_ellipsis(key, rt.shape.ndims)
    if rt.shape.ndims is not None and len(key) > rt.shape.ndims:
        raise ValueError(f"Too many indices for RaggedTensor: {len(key)} for rank {rt.shape.ndims}")
    with name_scope(None, "RaggedGetItem"):
        return _getitem(rt, key)


def _getitem(x, key):
    from .ragged_tensor import RaggedTensor
    if not key:
        return x
    if not isinstance(x, RaggedTensor):
        return x[key]
    first, rest = key[0], key[1:]
    if _is_index(first):
        row = _row(x, first)
        return _getitem(row, rest)
    if not isinstance(first, slice):
        raise TypeError(f"Cannot index a RaggedTensor with {first!r}: only ints, scalar tensors, slices "
                        "and Ellipsis are supported")
    sliced = _slice_rows(x, first)
    if not rest:
        return sliced
    return _inner(sliced, rest)


def _row(rt, i):
    """Row i (negative counts from the end) of a RaggedTensor: a Tensor or RaggedTensor."""
    from .ragged_tensor import RaggedTensor
    splits = rt.row_splits
    i = convert_to_tensor(i, dtype=splits.dtype) if isinstance(i, int) else math_ops.cast(i, splits.dtype)
    nrows = rt.nrows()
    if isinstance(i, Tensor):
        i = array_ops.where(math_ops.less(i, 0), i + nrows, i)
    start, limit = splits[i], splits[i + 1]
    if isinstance(rt.values, RaggedTensor):
        return _sub_ragged(rt.values, start, limit)
    return rt.values[start:limit]


def _sub_ragged(rt, start, limit):
    """Rows start..limit of a RaggedTensor, rebased so its splits start at 0."""
    from .ragged_tensor import RaggedTensor
    splits = rt.row_splits[start:limit + 1]
    vstart, vlimit = splits[0], splits[-1]
    values = _sub_ragged(rt.values, vstart, vlimit) if isinstance(rt.values, RaggedTensor) \
        else rt.values[vstart:vlimit]
    return RaggedTensor(values, splits - vstart, internal=True)


def _slice_rows(rt, s):
    if s.step not in (None, 1):
        n = rt.nrows()
        idx = array_ops.range(n)[s]
        return gather_rows(rt, idx)
    if s.start is None and s.stop is None:
        return rt
    n = rt.nrows()
    rows = array_ops.range(n)[s.start:s.stop]
    # the first selected row (any valid row when none is: then no rows are taken)
    first = array_ops.concat([rows, array_ops.zeros([1], rows.dtype)], 0)[0]
    count = math_ops.cast(array_ops.size(rows), rt.row_splits.dtype)
    first = math_ops.cast(first, rt.row_splits.dtype)
    return _sub_ragged(rt, first, first + count)


def _inner(rt, key):
    """Applies key (for dims 1..) to every row of rt."""
    from .ragged_factory import range as ragged_range
    from .ragged_tensor import RaggedTensor
    first, rest = key[0], key[1:]
    starts, limits = rt.row_splits[:-1], rt.row_splits[1:]
    dt = rt.row_splits.dtype
    if _is_index(first):
        j = math_ops.cast(convert_to_tensor(first), dt)
        pos = array_ops.where(math_ops.less(j, 0), limits + j, starts + j) if isinstance(first, Tensor) or \
            first < 0 else starts + j
        # every row needs element j: j < min length (or -j <= min length for negative j)
        j_abs = array_ops.where(math_ops.less(j, 0), -j - 1, j)
        shortest = math_ops.reduce_min(array_ops.concat([limits - starts, [math_ops.cast(2 ** 30, dt)]], 0))
        check = check_ops.assert_less(j_abs, shortest, message="slice index out of bounds")
        pos = with_dependencies([check], pos)
        out = gather_rows(rt.values, pos)
        if not rest:
            return out
        return _getitem(out, (slice(None),) + rest)
    if not isinstance(first, slice):
        raise TypeError(f"Cannot index a RaggedTensor with {first!r}")
    if first.step not in (None, 1):
        raise ValueError("tensorweave supports only step 1 when slicing a ragged dimension")
    lengths = limits - starts
    a = 0 if first.start is None else first.start
    b = None if first.stop is None else first.stop
    a = math_ops.cast(convert_to_tensor(a), dt)
    new_starts = starts + math_ops.minimum(array_ops.where(math_ops.less(a, 0), math_ops.maximum(lengths + a, 0),
                                                           a + lengths * 0), lengths)
    if b is None:
        new_limits = limits
    else:
        b = math_ops.cast(convert_to_tensor(b), dt)
        new_limits = starts + math_ops.minimum(array_ops.where(math_ops.less(b, 0),
                                                               math_ops.maximum(lengths + b, 0), b + lengths * 0),
                                               lengths)
    new_limits = math_ops.maximum(new_limits, new_starts)
    idx = ragged_range(new_starts, new_limits, row_splits_dtype=dt)
    values = gather_rows(rt.values, idx.values)
    if rest:
        values = _getitem(values, (slice(None),) + rest) if isinstance(values, RaggedTensor) \
            else values[(slice(None),) + rest]
    return RaggedTensor(values, idx.row_splits, internal=True)
