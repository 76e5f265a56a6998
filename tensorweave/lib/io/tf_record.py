"""The TFRecord file format: `TFRecordWriter`, `tf_record_iterator`, `TFRecordOptions`.

A TFRecord file is a sequence of records, each framed exactly as TensorFlow frames it:

    uint64 length            (little-endian)
    uint32 masked_crc32c(length bytes)
    byte   data[length]
    uint32 masked_crc32c(data)

optionally compressed as a whole with GZIP or ZLIB. TensorBoard event files are TFRecord files of
serialized `Event` protos. A corrupted CRC or a truncated record raises `DataLossError`.
"""

import gzip
import struct
import zlib

from ...framework import errors
from .. import crc32c

__all__ = ["TFRecordWriter", "tf_record_iterator", "TFRecordOptions", "TFRecordCompressionType",
           "read_records", "encode_record"]

_HEADER = struct.Struct("<Q")
_CRC = struct.Struct("<I")


class TFRecordCompressionType:
    """The compression of a TFRecord file (`tf.python_io.TFRecordCompressionType`)."""
    NONE = 0
    ZLIB = 1
    GZIP = 2


_NAMES = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
          TFRecordCompressionType.GZIP: "GZIP"}


class TFRecordOptions:
    """Options for TFRecord files: the compression type ("", "ZLIB", "GZIP", or the enum)."""

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB", TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        if compression_type is None:
            compression_type = ""
        if isinstance(compression_type, TFRecordOptions):
            compression_type = compression_type.compression_type
        self.compression_type = compression_type
        self.compression_level = compression_level
        self.window_bits = window_bits
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy
        if isinstance(compression_type, str) and compression_type.upper() not in ("", "ZLIB", "GZIP"):
            raise ValueError(f'Not a valid compression_type: "{compression_type}"')
        _compression_name(self)  # validate

    @classmethod
    def get_compression_type_string(cls, options):
        """"", "ZLIB" or "GZIP" for `options` (a TFRecordOptions, a string, an enum or None)."""
        return _compression_name(options)


def _compression_name(options):
    if options is None:
        return ""
    if isinstance(options, TFRecordOptions):
        options = options.compression_type
    if isinstance(options, int) and not isinstance(options, bool):
        if options in _NAMES:
            return _NAMES[options]
    elif isinstance(options, str):
        if options.upper() in ("", "ZLIB", "GZIP"):
            return options.upper()
    raise ValueError(f'Unsupported compression type: {options!r} (expected "", "ZLIB" or "GZIP")')


def encode_record(data):
    """One record's bytes: header, data, footer."""
    data = bytes(data)
    header = _HEADER.pack(len(data))
    return b"".join((header, _CRC.pack(crc32c.masked(header)), data, _CRC.pack(crc32c.masked(data))))


def _level(options):
    level = getattr(options, "compression_level", None)
    return 6 if level is None or level < 0 else level


class _ZlibWriter:
    def __init__(self, f, level, wbits):
        self._f = f
        self._z = zlib.compressobj(level, zlib.DEFLATED, wbits or zlib.MAX_WBITS)

    def write(self, b):
        self._f.write(self._z.compress(b))

    def flush(self):
        self._f.write(self._z.flush(zlib.Z_SYNC_FLUSH))
        self._f.flush()

    def close(self):
        self._f.write(self._z.flush(zlib.Z_FINISH))
        self._f.close()


class TFRecordWriter:
    """Writes records to a TFRecord file (`tf.python_io.TFRecordWriter`, `tf.io.TFRecordWriter`).

        with tf.python_io.TFRecordWriter("data.tfrecord") as w:
            w.write(example.SerializeToString())
    """

    def __init__(self, path, options=None):
        self._path = path
        name = _compression_name(options)
        try:
            raw = open(path, "wb")
        except FileNotFoundError as e:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from e
        except OSError as e:
            raise errors.UnknownError(None, None, f"{path}; {e.strerror}") from e
        if name == "GZIP":
            self._f = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=_level(options), mtime=0)
            self._raw = raw
        elif name == "ZLIB":
            self._f = _ZlibWriter(raw, _level(options), getattr(options, "window_bits", None))
            self._raw = None
        else:
            self._f = raw
            self._raw = None
        self._closed = False

    def write(self, record):
        """Appends one record (bytes; a str is UTF-8 encoded)."""
        if self._closed:
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")
        if isinstance(record, str):
            record = record.encode()
        self._f.write(encode_record(record))

    def flush(self):
        if self._closed:
            raise errors.FailedPreconditionError(None, None, "Writer is closed.")
        self._f.flush()
        if self._raw is not None:
            self._raw.flush()

    def close(self):
        if not self._closed:
            self._closed = True
            self._f.close()
            if self._raw is not None:
                self._raw.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001  (interpreter shutdown)
            pass


class _ZlibReader:
    def __init__(self, f):
        self._f = f
        self._z = zlib.decompressobj(zlib.MAX_WBITS)
        self._buf = b""

    def read(self, n):
        while len(self._buf) < n:
            chunk = self._f.read(65536)
            if not chunk:
                self._buf += self._z.flush()
                break
            self._buf += self._z.decompress(chunk)
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def close(self):
        self._f.close()


def _read_exact(f, n, offset, path):
    try:
        b = f.read(n)
    except (OSError, EOFError, zlib.error) as e:  # gzip/zlib stream errors
        raise errors.DataLossError(None, None, f"corrupted record at {offset} ({path}: {e})") from e
    return b


def read_records(path, options=None, offset=0):
    """Yields the records of TFRecord file `path` (bytes) with their start offsets:
    (offset, record). `offset` skips to a byte offset of the uncompressed stream."""
    name = _compression_name(options)
    try:
        raw = open(path, "rb")
    except FileNotFoundError as e:
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from e
    except IsADirectoryError as e:
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from e
    if name == "GZIP":
        f = gzip.GzipFile(fileobj=raw, mode="rb")
    elif name == "ZLIB":
        f = _ZlibReader(raw)
    else:
        f = raw
    try:
        if offset:
            _read_exact(f, offset, 0, path)
        pos = offset
        while True:
            head = _read_exact(f, 12, pos, path)
            if len(head) < 12:
                return      # TF's reader takes a partial header for the end of the file
            (length,) = _HEADER.unpack_from(head)
            if _CRC.unpack_from(head, 8)[0] != crc32c.masked(head[:8]):
                hint = " (Is this even a TFRecord file?)" if pos == 0 else ""
                raise errors.DataLossError(None, None, f"corrupted record at {pos}{hint}")
            body = _read_exact(f, length + 4, pos, path)
            if len(body) < length + 4:
                # (TF's message, its stray quote included)
                raise errors.DataLossError(
                    None, None, f"truncated record at {pos}' failed with Read less bytes than requested")
            data = body[:length]
            if _CRC.unpack_from(body, length)[0] != crc32c.masked(data):
                raise errors.DataLossError(None, None, f"corrupted record at {pos + 12}")
            yield pos, data
            pos += 16 + length
    finally:
        f.close()
        if f is not raw:
            raw.close()


def tf_record_iterator(path, options=None):
    """An iterator over the records (bytes) of a TFRecord file (`tf.python_io.tf_record_iterator`).

    Raises `DataLossError` on a corrupted or truncated record, `NotFoundError` if the file is
    missing."""
    for _, record in read_records(path, options):
        yield record
