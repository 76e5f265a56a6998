"""Datasets reading outside data: `Dataset.from_generator`, `tf.data.TFRecordDataset`,
`tf.data.TextLineDataset`, `tf.data.FixedLengthRecordDataset`."""

import gzip
import os
import zlib

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import convert_to_tensor
from ..framework.func_graph import flatten, pack_sequence_as
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from ..lib.io import tf_record
from .dataset_ops import DatasetV1

__all__ = ["GeneratorDataset", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset", "SqlDataset"]


def _np_dtype(dt):
    return object if dt == _dtypes.string else dt.as_numpy_dtype


class GeneratorDataset(DatasetV1):
    """Elements come from calling `generator(*args)` (args: NumPy values of the `args` tensors)
    each time an iterator over the dataset starts."""
    _tf_name = "DatasetV1Adapter"

    def __init__(self, generator, output_types, output_shapes=None, args=None):
        if not callable(generator):
            raise TypeError("`generator` must be callable.")
        types = flatten(output_types)
        types = [_dtypes.as_dtype(t) for t in types]
        if output_shapes is None:
            shapes = [unknown_shape() for _ in types]
        else:
            shapes = flatten_shapes(output_types, output_shapes)
        structure = pack_sequence_as(output_types, list(range(len(types)))) if flatten(output_types) != [
            output_types] else 0
        self._generator = generator
        self._args = [convert_to_tensor(a) for a in (args or [])]
        self._captures = list(self._args)
        self._set_element(structure, types, shapes)

    def _bind(self, valmap, rt):
        args = [valmap[t] for t in self._args]
        args = [a.item() if isinstance(a, np.ndarray) and a.ndim == 0 and a.dtype == object else a for a in args]
        structure, types, shapes = self._structure, self._types, self._shapes
        generator = self._generator
        # TF converts with a NumPy py_func when `output_types and output_shapes` is true (several
        # components, or one of known rank), else with an eager py_func against the TensorSpec.
        convert = _numpy_converter(structure, types, shapes) if structure != 0 or shapes[0].ndims is not None \
            else _eager_converter(self.element_spec, types[0])
        node = "PyFunc" if convert.numpy else "EagerPyFunc"

        def make():
            try:
                for value in generator(*args):
                    yield convert(value)
            except errors.OpError as e:
                raise _in_function(e, node) from None
            except Exception as e:  # noqa: BLE001  (the generator's own exception, under TF's class)
                cls = next((c for kinds, c in _PY_ERRORS if isinstance(e, kinds)), errors.UnknownError)
                raise _in_function(cls(None, None, f"{type(e).__name__}: {e}"), node) from e
        return make


# How a Python exception in a py_func reaches the caller (TF's py_func kernel).
_PY_ERRORS = (((ValueError, TypeError), errors.InvalidArgumentError), (MemoryError, errors.ResourceExhaustedError),
              (NotImplementedError, errors.UnimplementedError))


def _in_function(error, node):
    """`error` marked as raised by `node` inside a dataset function: IteratorGetNext words its
    message as TF does ("... [[{{node PyFunc}}]] [[IteratorGetNext]]")."""
    error._dataset_function_node = node
    return error


def _type_error(message):
    return errors.InvalidArgumentError(None, None, f"TypeError: `generator` yielded an element {message}")


def _numpy_converter(structure, types, shapes):
    """TF's NumPy path: np.asarray(value, dtype) per component (1.5 becomes int 1), then the
    shape check; a non-string in a string component fails when the result leaves the py_func."""
    np_types = [_np_dtype(t) for t in types]
    expected = pack_sequence_as(structure, types)

    def convert(value):
        flat = _flatten_strict(structure, value)
        if flat is None:
            raise _type_error(f"that did not match the expected structure. The expected structure was {expected}, "
                              f"but the yielded element was {value}.")
        out = []
        for v, t, nt, s in zip(flat, types, np_types, shapes):
            try:
                a = np.asarray(v, dtype=nt)
            except (TypeError, ValueError):
                raise _type_error(f"that could not be converted to the expected type. The expected type was "
                                  f"{t.name}, but the yielded element was {v}.") from None
            if not s.is_compatible_with(TensorShape(a.shape)):
                raise _type_error(f"of shape {a.shape} where an element of shape {s} was expected.")
            if nt is object:
                a = _string_array(a)
            out.append(a)
        return tuple(out)
    convert.numpy = True
    return convert


def _string_array(a):
    def encode(x):
        if isinstance(x, str):
            return x.encode()
        if isinstance(x, bytes):
            return x
        raise errors.InternalError(None, None, f"Unsupported object type {type(x).__name__}")
    if a.ndim == 0:
        return np.array(encode(a.item()), dtype=object)
    return np.vectorize(encode, otypes=[object])(a) if a.size else a


def _eager_converter(spec, t):
    """TF's eager path (one component of unknown shape): convert_to_tensor(value, dtype), which
    refuses a float for an integer type, a non-bool for bool, and strings for numbers or back."""
    nt = _np_dtype(t)

    def convert(value):
        try:
            a = np.asarray(value)
            if t.is_integer and a.dtype.kind == "f" or t.is_bool and a.dtype.kind not in "b" or \
                    (t == _dtypes.string) != (a.dtype.kind in "OSU"):
                raise TypeError
            a = _string_array(a) if nt is object else np.asarray(value, dtype=nt)
        except (TypeError, ValueError, errors.InternalError):
            raise _type_error(f"that did not match the expected structure. The expected structure was {spec}, "
                              f"but the yielded element was {value}.") from None
        return (a,)
    convert.numpy = False
    return convert


def _flatten_strict(structure, value):
    """`value`'s leaves following `structure` (None if it does not match)."""
    if isinstance(structure, int):
        return [value]
    if isinstance(structure, dict):
        if not isinstance(value, dict) or set(value) != set(structure):
            return None
        parts = [_flatten_strict(structure[k], value[k]) for k in sorted(structure)]
    else:
        if not isinstance(value, (tuple, list)) or len(value) != len(structure):
            return None
        parts = [_flatten_strict(s, v) for s, v in zip(structure, value)]
    if any(p is None for p in parts):
        return None
    return [x for p in parts for x in p]


def flatten_shapes(output_types, output_shapes):
    if isinstance(output_types, _dtypes.DType) or not isinstance(output_types, (tuple, list, dict)):
        return [as_shape(output_shapes)]
    if isinstance(output_types, dict):
        return [s for k in sorted(output_types) for s in flatten_shapes(output_types[k], output_shapes[k])]
    return [s for t, sh in zip(output_types, output_shapes) for s in flatten_shapes(t, sh)]


def _filenames(valmap, t):
    v = np.asarray(valmap[t], dtype=object).reshape(-1)
    return [f.decode() if isinstance(f, bytes) else str(f) for f in v]


def _compression(valmap, t):
    v = valmap[t]
    v = v.item() if isinstance(v, np.ndarray) else v
    v = v.decode() if isinstance(v, bytes) else (v or "")
    if v not in ("", "ZLIB", "GZIP"):
        raise errors.InvalidArgumentError(None, None, f"Unsupported compression_type: {v}.")
    return v


def _interleaved(files, records_of, cycle):
    """The records of `files`: one file after another, or with `cycle` files open at once taking
    one record from each in turn (TF's num_parallel_reads: a deterministic interleave, a file that
    ends giving its slot to the next file)."""
    if cycle is None or cycle <= 1:
        for path in files:
            yield from records_of(path)
        return
    pending = list(files)
    slots = [None] * cycle
    i = 0
    while True:
        if slots[i] is not None:
            try:
                yield next(slots[i])
            except StopIteration:
                slots[i] = None     # refilled when the cycle comes back to this slot
            i = (i + 1) % cycle
        elif pending:
            slots[i] = records_of(pending.pop(0))
        elif all(x is None for x in slots):
            return
        else:
            i = (i + 1) % cycle


def _cycle_length(num_parallel_reads):
    if num_parallel_reads is None:
        return None
    n = int(num_parallel_reads)
    return (os.cpu_count() or 1) if n == -1 else n


class _FileDataset(DatasetV1):
    _cycle = None

    def _records(self, files, records_of):
        return _interleaved(files, records_of, self._cycle)

    def __init__(self, filenames, compression_type=None, num_parallel_reads=None):
        self._cycle = _cycle_length(num_parallel_reads)
        self._filenames = convert_to_tensor(filenames, dtype=_dtypes.string, name="filenames")
        if self._filenames.shape.ndims not in (None, 0, 1):
            raise ValueError("`filenames` must be a `tf.Tensor` of `tf.string` of rank 0 or 1.")
        self._compression_type = convert_to_tensor(compression_type or "", dtype=_dtypes.string,
                                                   name="compression_type")
        self._captures = [self._filenames, self._compression_type]
        self._set_element(0, [_dtypes.string], [TensorShape([])])


class TFRecordDataset(_FileDataset):
    """The records of TFRecord files (masked-CRC32C framing; optional GZIP/ZLIB), file by file."""
    _tf_name = "TFRecordDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):
        super().__init__(filenames, compression_type, num_parallel_reads)

    def _bind(self, valmap, rt):
        files = _filenames(valmap, self._filenames)
        options = tf_record.TFRecordOptions(_compression(valmap, self._compression_type))

        def records_of(path):
            for _, record in tf_record.read_records(path, options):
                yield (np.array(record, dtype=object),)

        def make():
            return self._records(files, records_of)
        return make


def _open(path, compression):
    try:
        raw = open(path, "rb")
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
    except IsADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from None
    if compression == "GZIP":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if compression == "ZLIB":
        data = zlib.decompress(raw.read())
        raw.close()
        import io
        return io.BytesIO(data)
    return raw


class TextLineDataset(_FileDataset):
    """The lines of text files, without their line endings ('\\n' or '\\r\\n')."""
    _tf_name = "TextLineDatasetV2"

    def __init__(self, filenames, compression_type=None, buffer_size=None, num_parallel_reads=None):
        super().__init__(filenames, compression_type, num_parallel_reads)

    def _bind(self, valmap, rt):
        files = _filenames(valmap, self._filenames)
        compression = _compression(valmap, self._compression_type)

        def records_of(path):
            with _open(path, compression) as f:
                for line in f:
                    if line.endswith(b"\n"):
                        line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
                    yield (np.array(line, dtype=object),)

        def make():
            return self._records(files, records_of)
        return make


class FixedLengthRecordDataset(_FileDataset):
    """Fixed-size records of files, after `header_bytes` and before `footer_bytes`."""
    _tf_name = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None, buffer_size=None,
                 compression_type=None, num_parallel_reads=None):
        super().__init__(filenames, compression_type, num_parallel_reads)
        self._record = convert_to_tensor(record_bytes, dtype=_dtypes.int64, name="record_bytes")
        self._header = convert_to_tensor(header_bytes or 0, dtype=_dtypes.int64, name="header_bytes")
        self._footer = convert_to_tensor(footer_bytes or 0, dtype=_dtypes.int64, name="footer_bytes")
        self._captures = self._captures + [self._record, self._header, self._footer]

    def _bind(self, valmap, rt):
        files = _filenames(valmap, self._filenames)
        compression = _compression(valmap, self._compression_type)
        record, header, footer = (int(valmap[t]) for t in (self._record, self._header, self._footer))
        if record <= 0:
            raise errors.InvalidArgumentError(None, None, "record_bytes must be > 0")

        def records_of(path):
            with _open(path, compression) as f:
                data = f.read()
            body = data[header:len(data) - footer if footer else len(data)]
            size = len(data) - header - footer
            if not compression and size > 0 and size % record:
                raise errors.InvalidArgumentError(
                    None, None, f"Excluding the header ({header} bytes) and footer ({footer} bytes), input file "
                                f"\"{_path_str(path)}\" has body length {size} bytes, which is not an exact "
                                f"multiple of the record length ({record} bytes).")
            for i in range(0, len(body) - record + 1, record):
                yield (np.array(body[i:i + record], dtype=object),)

        def make():
            return self._records(files, records_of)
        return make


def _path_str(path):
    return path.decode() if isinstance(path, bytes) else str(path)


class SqlDataset(DatasetV1):
    """`tf.data.experimental.SqlDataset`: the rows of an SQL query (driver "sqlite" only, as TF),
    each a tuple of scalars converted to `output_types`."""
    _tf_name = "SqlDatasetV2"

    def __init__(self, driver_name, data_source_name, query, output_types):
        self._driver = convert_to_tensor(driver_name, dtype=_dtypes.string, name="driver_name")
        self._source = convert_to_tensor(data_source_name, dtype=_dtypes.string, name="data_source_name")
        self._query = convert_to_tensor(query, dtype=_dtypes.string, name="query")
        self._captures = [self._driver, self._source, self._query]
        types = [_dtypes.as_dtype(t) for t in flatten(output_types)]
        self._set_element(pack_sequence_as(output_types, list(range(len(types)))), types,
                          [TensorShape([])] * len(types))

    def _bind(self, valmap, rt):
        import sqlite3
        driver, source, query = (_str_value(valmap[t]) for t in self._captures)
        types = self._types

        def make():
            if driver != "sqlite":
                raise errors.InvalidArgumentError(None, None, f"The database type, {driver}, is not supported by "
                                                              f"SqlDataset. The set of supported databases is: "
                                                              f"{{'sqlite'}}.")
            try:
                conn = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
            except sqlite3.Error as e:
                raise errors.UnknownError(None, None, f"Sqlite error: {e}") from None
            try:
                try:
                    cursor = conn.execute(query)
                except sqlite3.Error as e:
                    raise errors.UnknownError(None, None, f"Prepare() failed: [1] {e}: {query}") from None
                ncols = len(cursor.description or ())
                if ncols != len(types):
                    raise errors.InvalidArgumentError(
                        None, None, f"The number of columns in query ({ncols}) must match the number of elements "
                                    f"in output_types ({len(types)}).")
                for row in cursor:
                    yield tuple(_sql_value(v, t) for v, t in zip(row, types))
            finally:
                conn.close()
        return make


def _str_value(v):
    v = v.item() if isinstance(v, np.ndarray) else v
    return v.decode() if isinstance(v, bytes) else v


def _sql_value(v, dtype):
    if dtype == _dtypes.string:
        return v if isinstance(v, bytes) else str(v if v is not None else "").encode()
    if dtype == _dtypes.bool:
        return np.asarray(bool(v))
    return np.asarray(0 if v is None else v, dtype.as_numpy_dtype)
