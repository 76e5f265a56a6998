"""tf.ragged.row_splits_to_segment_ids and segment_ids_to_row_splits: between a row partition's
splits (row i is values[splits[i]:splits[i+1]]) and the row id of each value."""

from ..framework import dtypes as _dtypes
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, name_scope
from ..ops import array_ops, math_ops

__all__ = ["row_splits_to_segment_ids", "segment_ids_to_row_splits"]


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row id of every value: `[0, 0, 2]` for splits `[0, 2, 2, 3]`."""
    with name_scope(name, "RaggedSplitsToSegmentIds", [splits]):
        splits = convert_to_tensor(splits, name="splits", dtype=None if isinstance(splits, Tensor)
                                   else _dtypes.int64)
        if splits.dtype not in (_dtypes.int32, _dtypes.int64):
            raise ValueError("splits must have dtype int32 or int64")
        splits.shape.with_rank(1)
        out_type = splits.dtype if out_type is None else _dtypes.as_dtype(out_type)
        nrows = array_ops.shape(splits, out_type=out_type)[0] - 1
        lengths = math_ops.cast(splits[1:] - splits[:-1], out_type)
        return array_ops.repeat(array_ops.range(nrows), lengths, axis=0)


def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits for sorted segment ids: `[0, 2, 2, 3]` for `[0, 0, 2]`; `num_segments`
    defaults to the last id + 1."""
    out_type = _dtypes.int64 if out_type is None else _dtypes.as_dtype(out_type)
    with name_scope(name, "SegmentIdsToRaggedSplits", [segment_ids]):
        segment_ids = convert_to_tensor(segment_ids, name="segment_ids")
        if segment_ids.dtype not in (_dtypes.int32, _dtypes.int64):
            raise ValueError("segment_ids must have dtype int32 or int64")
        segment_ids.shape.with_rank(1)
        if num_segments is None:
            n = array_ops.shape(segment_ids)[0]
            num_segments = array_ops.where(math_ops.equal(n, 0), 0,
                                           math_ops.cast(segment_ids[math_ops.maximum(n - 1, 0)], _dtypes.int32) + 1)
        counts = math_ops.unsorted_segment_sum(array_ops.ones_like(segment_ids, dtype=out_type),
                                               segment_ids, num_segments)
        return array_ops.concat([array_ops.zeros([1], out_type), math_ops.cumsum(counts)], 0)
