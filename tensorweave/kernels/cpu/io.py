"""CPU kernels for checkpoint I/O: SaveV2 writes a one-shard bundle, RestoreV2 reads and verifies
tensors, MergeV2Checkpoints merges per-device bundles, ShardedFilename builds names
(StringJoin is a string kernel).

The file format lives in train/checkpoint_format.py (imported when a plan is compiled)."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

_TF_NAMES = {"float32": "float", "float64": "double"}


def _fmt():
    from ...train import checkpoint_format
    return checkpoint_format


def _str(x):
    x = np.asarray(x, dtype=object)
    if x.ndim != 0:
        if x.size != 1:
            raise errors.InvalidArgumentError(None, None, f"Input prefix should be a scalar, got shape "
                                                          f"{list(x.shape)}")
        x = x.reshape(())
    v = x[()]
    return v.decode() if isinstance(v, bytes) else str(v)


def _strs(x):
    return [v.decode() if isinstance(v, bytes) else str(v) for v in np.asarray(x, dtype=object).ravel()]


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_slices(slices, names):
    for s, n in zip(slices, names):
        if s:
            raise errors.UnimplementedError(None, None, f"Saving or restoring a slice of {n} "
                                                        f"(shape_and_slices {s!r}) is not supported yet")


@register_kernel("SaveV2")
def _save_v2(op, ctx):
    fmt = _fmt()

    def save_v2(prefix, tensor_names, shape_and_slices, *tensors):
        names = _strs(tensor_names)
        if len(names) != len(tensors):
            raise errors.InvalidArgumentError(None, None, f"Got {len(names)} tensor names but {len(tensors)} "
                                                          f"tensors")
        _check_slices(_strs(shape_and_slices), names)
        fmt.write_bundle(_str(prefix), names, [np.asarray(t) for t in tensors])
    return save_v2


@register_kernel("RestoreV2")
def _restore_v2(op, ctx):
    fmt = _fmt()
    dtypes = op._get_attr("dtypes")
    shapes = op._attrs.get("_output_shapes")
    want = [None if s is None or not s.is_fully_defined() else tuple(s.as_list()) for s in shapes] \
        if shapes else [None] * len(dtypes)

    def restore_v2(prefix, tensor_names, shape_and_slices):
        names = _strs(tensor_names)
        _check_slices(_strs(shape_and_slices), names)
        reader = fmt.BundleReader(_str(prefix))
        # Check every key, dtype and shape before reading any data, then read and verify all.
        for name, dt, shape in zip(names, dtypes, want):
            if not reader.has(name):
                raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
            got = reader.dtype(name)
            if got != dt:
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {name}; expected dtype {_TF_NAMES.get(dt.name, dt.name)} does "
                                f"not equal original dtype {_TF_NAMES.get(got.name, got.name)}")
            stored = tuple(reader.shape(name))
            if shape is not None and stored != shape:
                raise errors.InvalidArgumentError(
                    None, None, f"tensor_name = {name}; shape in shape_and_slice spec {_dims(shape)} does not "
                                f"match the shape stored in checkpoint: {_dims(stored)}")
        values = [reader.read(n) for n in names]
        return values[0] if len(values) == 1 else tuple(values)
    return restore_v2


@register_kernel("MergeV2Checkpoints")
def _merge_v2(op, ctx):
    fmt = _fmt()
    delete_old_dirs = op._get_attr("delete_old_dirs")

    def merge(checkpoint_prefixes, destination_prefix):
        fmt.merge_bundles(_strs(checkpoint_prefixes), _str(destination_prefix), delete_old_dirs)
    return merge


@register_kernel("ShardedFilename")
def _sharded_filename(op, ctx):
    def sharded_filename(basename, shard, num_shards):
        return np.array("%s-%05d-of-%05d" % (_str(basename), int(shard), int(num_shards)), dtype=object)
    return sharded_filename


# -- readers ------------------------------------------------------------------------------------------

class _Reader:
    """A reader's state: the work unit (filename) in progress and its record iterator."""

    def __init__(self, name, records):
        import threading
        self.name = name
        self._records = records      # work (str) -> iterator of (key bytes, value bytes)
        self.lock = threading.Lock()
        self.work = None
        self.it = None
        self.produced = 0
        self.completed = 0

    def next_record(self, dequeue_work):
        """(key, value) of the next record, dequeuing work units as needed."""
        while True:
            if self.it is None:
                work = dequeue_work()
                self.work = work
                self.it = iter(self._records(work))
            try:
                key, value = next(self.it)
            except StopIteration:
                self.it, self.work = None, None
                self.completed += 1
                continue
            self.produced += 1
            return key, value

    def reset(self):
        self.work = self.it = None
        self.produced = self.completed = 0


def _tfrecord_records(op):
    from ...lib.io import tf_record
    options = tf_record.TFRecordOptions(op._get_attr("compression_type") or "")

    def records(work):
        for offset, rec in tf_record.read_records(work, options):
            yield f"{work}:{offset}".encode(), rec
    return records


def _open_file(work):
    try:
        return open(work, "rb")
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{work}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{work}; Is a directory") from None


def _text_line_records(op):
    skip = op._get_attr("skip_header_lines")

    def records(work):
        with _open_file(work) as f:
            for n, line in enumerate(f, 1):
                if n <= skip:
                    continue
                if line.endswith(b"\n"):
                    line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
                yield f"{work}:{n}".encode(), line
    return records


def _whole_file_records(op):
    def records(work):
        with _open_file(work) as f:
            data = f.read()
        yield work.encode(), data
    return records


def _fixed_length_records(op):
    record, header = op._get_attr("record_bytes"), op._get_attr("header_bytes")
    footer, hop = op._get_attr("footer_bytes"), op._get_attr("hop_bytes")

    def records(work):
        with _open_file(work) as f:
            data = f.read()
        body = data[header:len(data) - footer]
        step = hop if hop > 0 else record
        for n, i in enumerate(range(0, len(body) - record + 1, step)):
            yield f"{work}:{n}".encode(), body[i:i + record]
    return records


def _identity_records(op):
    def records(work):
        yield work.encode(), work.encode()
    return records


def _reader_factory(make_records):
    def factory(op, ctx):
        from ..registry import Fixed
        from .data_flow import _name_maker
        name = op._get_attr("shared_name") or op.name
        records = make_records(op)
        # (a reader is a ResourceOpKernel like a queue: it takes a process-wide `_<n>_` id, which
        # shows in the names of queues made after it)
        make_name = _name_maker(ctx, op)
        return Fixed(ctx.resources.lookup_or_create("reader", name, lambda: _Reader(make_name(), records),
                                                    op._get_attr("container")))
    return factory


register_kernel("TFRecordReaderV2")(_reader_factory(_tfrecord_records))
register_kernel("TextLineReaderV2")(_reader_factory(_text_line_records))
register_kernel("WholeFileReaderV2")(_reader_factory(_whole_file_records))
register_kernel("FixedLengthRecordReaderV2")(_reader_factory(_fixed_length_records))
register_kernel("IdentityReaderV2")(_reader_factory(_identity_records))


def _work_dequeuer(ctx, step, queue):
    from .data_flow import deadline_of

    def dequeue_work():
        item = queue.dequeue(1, deadline_of(ctx, step))[0]
        v = np.asarray(item[0], dtype=object)
        if v.ndim != 0:
            raise errors.InvalidArgumentError(None, None, f"Expected work to be a scalar string, got shape "
                                                          f"{list(v.shape)}")
        w = v[()]
        return w.decode() if isinstance(w, bytes) else str(w)
    return dequeue_work


def _scalar_bytes(b):
    a = np.empty((), dtype=object)
    a[()] = b
    return a


@register_kernel("ReaderReadV2")
def _reader_read(op, ctx):
    def reader_read(step, reader, queue):
        with reader.lock:
            key, value = reader.next_record(_work_dequeuer(ctx, step, queue))
        return _scalar_bytes(key), _scalar_bytes(value)
    reader_read.needs_step = True
    return reader_read


@register_kernel("ReaderReadUpToV2")
def _reader_read_up_to(op, ctx):
    def reader_read_up_to(step, reader, queue, n):
        n = int(n)
        if n <= 0:
            raise errors.InvalidArgumentError(None, None, f"num_records must be a positive integer, got {n}")
        keys, values = [], []
        dequeue = _work_dequeuer(ctx, step, queue)
        with reader.lock:
            while len(keys) < n:
                try:
                    k, v = reader.next_record(dequeue)
                except errors.OutOfRangeError:
                    if keys:
                        break
                    raise
                keys.append(k)
                values.append(v)
        ka = np.empty(len(keys), dtype=object)
        va = np.empty(len(values), dtype=object)
        ka[:], va[:] = keys, values
        return ka, va
    reader_read_up_to.needs_step = True
    return reader_read_up_to


@register_kernel("ReaderNumRecordsProducedV2")
def _reader_num_records(op, ctx):
    return lambda reader: np.array(reader.produced, np.int64)


@register_kernel("ReaderNumWorkUnitsCompletedV2")
def _reader_num_work(op, ctx):
    return lambda reader: np.array(reader.completed, np.int64)


@register_kernel("ReaderResetV2")
def _reader_reset(op, ctx):
    def reset(reader):
        with reader.lock:
            reader.reset()
    return reset
