"""Checkpoint I/O ops: SaveV2, RestoreV2, ShardedFilename, MergeV2Checkpoints (StringJoin: string_ops).

They run where the variables live: the Saver puts one SaveV2/RestoreV2 per device when
`sharded=True` (each parameter-server task writes its own data shard), and a MergeV2Checkpoints
that writes the merged index. The kernels (kernels/cpu/io.py) write and read the format in
train/checkpoint_format.py.

    save_v2(prefix, tensor_names, shape_and_slices, tensors)   -> Operation
    restore_v2(prefix, tensor_names, shape_and_slices, dtypes) -> list of Tensors

RestoreV2 reads and verifies every tensor (checksum, dtype and, when the `_output_shapes` attr
gives them, the shapes) before it returns any, so the Assigns that follow it either all run or
none does.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import get_default_graph
from ..framework.op_util import apply_op, scalar_shape
from ..framework.tensor_shape import as_shape, unknown_shape

__all__ = []


def _restore_shapes(op):
    # TF's shape function: unknown for whole-tensor ("" slice) restores; the `_output_shapes`
    # attr is only the kernel's check of the stored shapes.
    return [unknown_shape()] * len(op._outputs)


registry.register_op("SaveV2", stateful=True)
registry.register_op("RestoreV2", shape_fn=_restore_shapes, stateful=True)
registry.register_op("ShardedFilename", shape_fn=scalar_shape)
registry.register_op("MergeV2Checkpoints", stateful=True)
for _t in ("SaveV2", "RestoreV2", "ShardedFilename", "MergeV2Checkpoints"):
    registry.no_gradient(_t)


def _strings(value, name):
    if hasattr(value, "dtype") and hasattr(value, "op"):
        return value
    return constant(value, dtype=_dtypes.string, name=name)


def save_v2(prefix, tensor_names, shape_and_slices, tensors, name=None):
    """Saves `tensors` under `tensor_names` in a checkpoint at `prefix` (a one-shard bundle)."""
    g = get_default_graph()
    with g.name_scope(name or "SaveV2") as scope:
        prefix = convert_to_tensor(prefix, dtype=_dtypes.string, name="prefix")  # TF's arg name
        names = _strings(tensor_names, "tensor_names")
        slices = _strings(shape_and_slices, "shape_and_slices")
        tensors = [convert_to_tensor(t) for t in tensors]
        return apply_op("SaveV2", [prefix, names, slices] + tensors, [], scope[:-1] + "/",
                        attrs={"dtypes": [t.dtype.base_dtype for t in tensors]})


def restore_v2(prefix, tensor_names, shape_and_slices, dtypes, name=None, shapes=None):
    """Restores tensors `tensor_names` of the given `dtypes` from the checkpoint at `prefix`.

    `shapes` (optional, one TensorShape or None per tensor) are checked against the stored
    shapes before anything is returned (InvalidArgumentError)."""
    g = get_default_graph()
    with g.name_scope(name or "RestoreV2") as scope:
        prefix = convert_to_tensor(prefix, dtype=_dtypes.string, name="prefix")  # TF's arg name
        names = _strings(tensor_names, "tensor_names")
        slices = _strings(shape_and_slices, "shape_and_slices")
        dtypes = [_dtypes.as_dtype(d).base_dtype for d in dtypes]
        attrs = {"dtypes": dtypes}
        if shapes is not None:
            attrs["_output_shapes"] = [as_shape(s) if s is not None else unknown_shape() for s in shapes]
        out = apply_op("RestoreV2", [prefix, names, slices], dtypes, scope[:-1] + "/", attrs=attrs)
    return out if isinstance(out, list) else [out]


def sharded_filename(basename, shard, num_shards, name=None):
    """"basename-00000-of-00002" for shard 0 of 2."""
    # inputs converted in the op's scope, as TF's generated wrapper: "ShardedFilename/shard"
    with get_default_graph().name_scope(name or "ShardedFilename") as scope:
        basename = convert_to_tensor(basename, dtype=_dtypes.string, name="basename")
        shard = convert_to_tensor(shard, dtype=_dtypes.int32, name="shard")
        num_shards = convert_to_tensor(num_shards, dtype=_dtypes.int32, name="num_shards")
        return apply_op("ShardedFilename", [basename, shard, num_shards], [_dtypes.string], scope)


def merge_v2_checkpoints(checkpoint_prefixes, destination_prefix, delete_old_dirs=True, name=None):
    """Merges the one-shard bundles `checkpoint_prefixes` into one checkpoint (index last)."""
    checkpoint_prefixes = convert_to_tensor(checkpoint_prefixes, dtype=_dtypes.string)
    destination_prefix = convert_to_tensor(destination_prefix, dtype=_dtypes.string)
    return apply_op("MergeV2Checkpoints", [checkpoint_prefixes, destination_prefix], [],
                    name or "MergeV2Checkpoints", attrs={"delete_old_dirs": bool(delete_old_dirs)})


def string_join(inputs, separator="", name=None):
    """StringJoin (declared with the string ops)."""
    from .string_ops import string_join as _string_join
    return _string_join(inputs, separator=separator, name=name)


# -- readers (TF1 queue-based input: reader.read(filename_queue)) -------------------------------------

for _t in ("TFRecordReaderV2", "TextLineReaderV2", "WholeFileReaderV2", "FixedLengthRecordReaderV2",
           "IdentityReaderV2"):
    registry.register_op(_t, shape_fn=scalar_shape, stateful=True)
    registry.no_gradient(_t)
registry.register_op("ReaderReadV2", shape_fn=lambda op: [as_shape([]), as_shape([])], stateful=True)
registry.register_op("ReaderReadUpToV2", shape_fn=lambda op: [as_shape([None]), as_shape([None])], stateful=True)
for _t in ("ReaderNumRecordsProducedV2", "ReaderNumWorkUnitsCompletedV2"):
    registry.register_op(_t, shape_fn=scalar_shape, stateful=True)
registry.register_op("ReaderResetV2", stateful=True)
for _t in ("ReaderReadV2", "ReaderReadUpToV2", "ReaderNumRecordsProducedV2", "ReaderNumWorkUnitsCompletedV2",
           "ReaderResetV2"):
    registry.no_gradient(_t)


import collections as _collections

_ReaderReadV2 = _collections.namedtuple("ReaderReadV2", ["key", "value"])
_ReaderReadUpToV2 = _collections.namedtuple("ReaderReadUpToV2", ["keys", "values"])


def _queue_ref(queue):
    return queue.queue_ref if hasattr(queue, "queue_ref") else queue


class ReaderBase:
    """A reader produces (key, value) records from the files (work units) it dequeues from a
    queue of filenames: `key, value = reader.read(filename_queue)`."""

    def __init__(self, reader_ref, supports_serialize=False):
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    reader_ref = property(lambda self: self._reader_ref)
    supports_serialize = property(lambda self: self._supports_serialize)

    def read(self, queue, name=None):
        """The next (key, value) record; dequeues the next file when the current one is done."""
        return _ReaderReadV2(*apply_op("ReaderReadV2", [self._reader_ref, _queue_ref(queue)],
                                       [_dtypes.string, _dtypes.string], name or "ReaderReadV2"))

    def read_up_to(self, queue, num_records, name=None):
        """Up to `num_records` records (fewer only at the end of the input)."""
        n = convert_to_tensor(num_records, dtype=_dtypes.int64, name="num_records")
        return _ReaderReadUpToV2(*apply_op("ReaderReadUpToV2", [self._reader_ref, _queue_ref(queue), n],
                                           [_dtypes.string, _dtypes.string], name or "ReaderReadUpToV2"))

    def num_records_produced(self, name=None):
        return apply_op("ReaderNumRecordsProducedV2", [self._reader_ref], [_dtypes.int64],
                        name or "ReaderNumRecordsProducedV2")

    def num_work_units_completed(self, name=None):
        return apply_op("ReaderNumWorkUnitsCompletedV2", [self._reader_ref], [_dtypes.int64],
                        name or "ReaderNumWorkUnitsCompletedV2")

    def reset(self, name=None):
        return apply_op("ReaderResetV2", [self._reader_ref], [], name or "ReaderResetV2")

    def serialize_state(self, name=None):
        raise NotImplementedError("Reader state serialization is not supported by tensorweave.")

    def restore_state(self, state, name=None):
        raise NotImplementedError("Reader state serialization is not supported by tensorweave.")


def _reader_op(op_type, name, attrs):
    attrs = dict(attrs)
    attrs.setdefault("container", "")
    attrs.setdefault("shared_name", "")
    return apply_op(op_type, [], [_dtypes.resource], name or op_type, attrs=attrs)


class TFRecordReader(ReaderBase):
    """Reads the records of TFRecord files; keys are 'filename:offset'."""

    def __init__(self, name=None, options=None):
        compression = ""
        if options is not None:
            from ..lib.io.tf_record import TFRecordOptions
            compression = TFRecordOptions.get_compression_type_string(options)
        super().__init__(_reader_op("TFRecordReaderV2", name, {"compression_type": compression}))


class TextLineReader(ReaderBase):
    """Reads the lines of text files (without the newline); keys are 'filename:line_number'."""

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__(_reader_op("TextLineReaderV2", name, {"skip_header_lines": int(skip_header_lines or 0)}))


class WholeFileReader(ReaderBase):
    """Reads each file whole; the key is the filename."""

    def __init__(self, name=None):
        super().__init__(_reader_op("WholeFileReaderV2", name, {}))


class FixedLengthRecordReader(ReaderBase):
    """Reads fixed-size records (after `header_bytes`, before `footer_bytes`); keys are
    'filename:record_index'."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None, name=None,
                 encoding=None):
        super().__init__(_reader_op("FixedLengthRecordReaderV2", name, {
            "record_bytes": int(record_bytes), "header_bytes": int(header_bytes or 0),
            "footer_bytes": int(footer_bytes or 0), "hop_bytes": int(hop_bytes or 0),
            "encoding": encoding or ""}))


class IdentityReader(ReaderBase):
    """Produces each work unit as both key and value."""

    def __init__(self, name=None):
        super().__init__(_reader_op("IdentityReaderV2", name, {}))


__all__ += ["ReaderBase", "TFRecordReader", "TextLineReader", "WholeFileReader", "FixedLengthRecordReader",
            "IdentityReader"]
