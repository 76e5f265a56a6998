"""The checkpoint file format: data shards in safetensors format plus a JSON index.

A checkpoint with prefix P is

    P.index                          JSON: names, dtypes, shapes, shard, offsets and a crc32
                                     per tensor, and a crc32 of the index itself
    P.data-00000-of-0000N ...        one safetensors file per shard (8-byte little-endian header
                                     length, a JSON header {name: {dtype, shape, data_offsets}},
                                     then the raw little-endian bytes)

The data files are plain safetensors files: `safetensors.numpy.load_file` reads them. TF dtypes
that safetensors has no code for are stored in a type it has: complex numbers as a float array
with a trailing dimension of 2, strings as a U8 blob of (uint32 length, bytes) records; the index
keeps the TF dtype and shape.

Every file is written atomically (a temporary name in the same directory, flush, fsync,
os.replace, then fsync of the directory), the data before the index: a crash leaves either the
old files or the new ones. Reading verifies the index checksum, each tensor's length and crc32,
and raises DataLossError for corrupt or truncated files; nothing is ever unpickled.

This module imports only NumPy and tensorweave.framework (kernels use it at run time).
"""

import json
import os
import struct
import tempfile
import zlib

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors

__all__ = ["data_filename", "index_filename", "write_bundle", "merge_bundles", "BundleReader",
           "bundle_exists", "delete_bundle", "save_file", "load_file", "atomic_write"]

FORMAT = "tensorweave.checkpoint"
VERSION = 1
_MAX_HEADER = 100 << 20

# TF dtype name -> (safetensors code, NumPy little-endian dtype of the stored elements)
_ST = {
    "float16": ("F16", "<f2"), "float32": ("F32", "<f4"), "float64": ("F64", "<f8"),
    "int8": ("I8", "i1"), "int16": ("I16", "<i2"), "int32": ("I32", "<i4"), "int64": ("I64", "<i8"),
    "uint8": ("U8", "u1"), "uint16": ("U16", "<u2"), "uint32": ("U32", "<u4"), "uint64": ("U64", "<u8"),
    "bool": ("BOOL", "?"),
    "complex64": ("F32", "<f4"), "complex128": ("F64", "<f8"),   # trailing dim of 2
    "string": ("U8", "u1"),                                      # (uint32 len, bytes) records
}
_FROM_ST = {"F16": "float16", "F32": "float32", "F64": "float64", "I8": "int8", "I16": "int16",
            "I32": "int32", "I64": "int64", "U8": "uint8", "U16": "uint16", "U32": "uint32",
            "U64": "uint64", "BOOL": "bool"}


def data_filename(prefix, shard=0, num_shards=1):
    return "%s.data-%05d-of-%05d" % (prefix, shard, num_shards)


def index_filename(prefix):
    return prefix + ".index"


# -- atomic files ------------------------------------------------------------------------------

def _fsync_dir(dirname):
    try:
        fd = os.open(dirname or ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _file_mode():
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# The mode open() would give a new file (TF's files: 0644 under the usual umask); mkstemp's 0600
# is replaced before the rename. Read once, at import, as reading the umask briefly changes it.
_FILE_MODE = _file_mode()


class atomic_write:  # noqa: N801 - used as a context manager, like open()
    """`with atomic_write(path) as f:` writes a temporary file in path's directory; on success it
    is flushed, fsynced and renamed over `path`; on an exception it is removed."""

    def __init__(self, path):
        self.path = path

    def __enter__(self):
        d = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(d, exist_ok=True)
        fd, self.tmp = tempfile.mkstemp(prefix=os.path.basename(self.path) + ".tmp", dir=d)
        try:
            os.fchmod(fd, _FILE_MODE)
        except OSError:
            pass
        self.f = os.fdopen(fd, "wb")
        return self.f

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                self.f.flush()
                os.fsync(self.f.fileno())
            self.f.close()
            if exc_type is None:
                os.replace(self.tmp, self.path)
                _fsync_dir(os.path.dirname(os.path.abspath(self.path)))
        finally:
            if os.path.exists(self.tmp):
                os.remove(self.tmp)
        return False


# -- encoding ------------------------------------------------------------------------------------

def _tf_dtype_name(array):
    return _dtypes.as_dtype(array.dtype).name


def _encode(array, dtype_name):
    """(safetensors code, stored shape, little-endian contiguous bytes as a memoryview)."""
    code, le = _ST[dtype_name]
    if dtype_name == "string":
        parts = []
        for x in np.asarray(array, dtype=object).ravel():
            b = x.encode() if isinstance(x, str) else bytes(x)
            parts.append(struct.pack("<I", len(b)))
            parts.append(b)
        blob = b"".join(parts)
        return code, [len(blob)], memoryview(blob)
    a = np.asarray(array)
    if dtype_name.startswith("complex"):
        a = np.stack([a.real, a.imag], axis=-1)
    a = np.ascontiguousarray(a, dtype=le)
    return code, list(a.shape), memoryview(a).cast("B") if a.size else memoryview(b"")


def _decode(buf, dtype_name, shape):
    shape = tuple(shape)
    if dtype_name == "string":
        out, pos, n = [], 0, int(np.prod(shape, dtype=np.int64))
        for _ in range(n):
            (ln,) = struct.unpack_from("<I", buf, pos)
            out.append(bytes(buf[pos + 4:pos + 4 + ln]))
            pos += 4 + ln
        if pos != len(buf):
            raise ValueError("string records do not fill the tensor's bytes")
        a = np.empty(n, dtype=object)
        a[:] = out
        return a.reshape(shape)
    _, le = _ST[dtype_name]
    np_dtype = _dtypes.as_dtype(dtype_name).as_numpy_dtype
    if dtype_name.startswith("complex"):
        a = np.frombuffer(buf, dtype=le).reshape(shape + (2,))
        return (a[..., 0] + 1j * a[..., 1]).astype(np_dtype)
    a = np.frombuffer(buf, dtype=le).reshape(shape)
    return a.astype(np_dtype)  # native byte order, writable, owned


def _header_bytes(entries, metadata=None):
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    header.update(entries)
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)   # safetensors pads the header with spaces to 8 bytes
    return struct.pack("<Q", len(raw)) + raw


def _write_safetensors(f, names, encoded, metadata=None):
    """Writes one safetensors file; returns {name: (begin, end, crc32)} of the data section."""
    entries, spans, pos = {}, {}, 0
    for name, (code, shape, mv) in zip(names, encoded):
        entries[name] = {"dtype": code, "shape": shape, "data_offsets": [pos, pos + mv.nbytes]}
        pos += mv.nbytes
    f.write(_header_bytes(entries, metadata))
    for name, (_, _, mv) in zip(names, encoded):
        begin, end = entries[name]["data_offsets"]
        f.write(mv)
        spans[name] = (begin, end, zlib.crc32(mv) & 0xFFFFFFFF)
    return spans


def _index_checksum(body):
    return zlib.crc32(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()) & 0xFFFFFFFF


def _write_index(prefix, tensors, num_shards):
    body = {"format": FORMAT, "version": VERSION, "num_shards": num_shards, "tensors": tensors}
    doc = dict(body, checksum=_index_checksum(body))
    with atomic_write(index_filename(prefix)) as f:
        f.write(json.dumps(doc, sort_keys=True, indent=1).encode())


def write_bundle(prefix, names, arrays):
    """Writes a one-shard checkpoint at `prefix`: the data file, then the index."""
    names = [n.decode() if isinstance(n, bytes) else str(n) for n in names]
    if len(set(names)) != len(names):
        raise errors.InvalidArgumentError(None, None, "Duplicate tensor names in a checkpoint")
    dnames = [_tf_dtype_name(np.asarray(a)) for a in arrays]
    encoded = [_encode(a, d) for a, d in zip(arrays, dnames)]
    # TF's BundleWriter creates the prefix's directory, one level only (Env::CreateDir).
    d = os.path.dirname(os.path.abspath(prefix))
    try:
        os.mkdir(d)
    except FileExistsError:
        pass
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"Failed to create a directory: {os.path.dirname(prefix)}; "
                                               f"No such file or directory") from None
    try:
        with atomic_write(data_filename(prefix)) as f:
            spans = _write_safetensors(f, names, encoded)
        tensors = {n: {"dtype": d, "shape": list(np.shape(a)), "shard": 0,
                       "offsets": [spans[n][0], spans[n][1]], "crc32": spans[n][2]}
                   for n, a, d in zip(names, arrays, dnames)}
        _write_index(prefix, tensors, 1)
    except OSError as e:
        raise errors.UnknownError(None, None, f"Failed to write checkpoint {prefix}: {e}") from None


def merge_bundles(prefixes, destination, delete_old_dirs=True):
    """Merges one-shard bundles (one per device, in order) into a sharded checkpoint at
    `destination`: renames each data file to `destination.data-i-of-N`, writes the merged index
    last and removes the partial indices (and their directories when empty)."""
    n = len(prefixes)
    merged = {}
    readers = [BundleReader(p) for p in prefixes]
    for i, r in enumerate(readers):
        if r.num_shards != 1:
            raise errors.InvalidArgumentError(None, None, f"Can only merge one-shard bundles: {r.prefix}")
        for name, e in r.entries.items():
            if name in merged:
                raise errors.InvalidArgumentError(None, None, f"Duplicate tensor key {name} when merging "
                                                              f"checkpoints")
            merged[name] = dict(e, shard=i)
    for i, p in enumerate(prefixes):
        os.replace(data_filename(p), data_filename(destination, i, n))
    _fsync_dir(os.path.dirname(os.path.abspath(destination)))
    _write_index(destination, merged, n)
    for p in prefixes:
        try:
            os.remove(index_filename(p))
        except FileNotFoundError:
            pass
        if delete_old_dirs:
            try:
                os.rmdir(os.path.dirname(os.path.abspath(p)))
            except OSError:
                pass


def bundle_exists(prefix):
    return os.path.isfile(index_filename(prefix))


def delete_bundle(prefix):
    """Removes the index first (the checkpoint stops existing), then the data files."""
    idx = index_filename(prefix)
    num = 1
    try:
        num = int(json.loads(open(idx, "rb").read()).get("num_shards", 1))
    except (OSError, ValueError, AttributeError):
        pass
    for path in [idx] + [data_filename(prefix, i, num) for i in range(num)]:
        try:
            os.remove(path)
        except OSError:
            pass


# -- reading ---------------------------------------------------------------------------------------

def _data_loss(msg):
    return errors.DataLossError(None, None, msg)


_SSTABLE_MAGIC = 0xdb4775248b80fb57
_SSTABLE_FOOTER = 48


def matching_files(pattern):
    """The paths matching `pattern` (TF's GetMatchingFiles: `*`, `?` and `[...]` wildcards)."""
    import glob
    try:
        return sorted(glob.glob(pattern))
    except (OSError, ValueError):
        return []


def _raise_v1_fallback_error(prefix):
    """With no `prefix.index`, TF reads `prefix` as a file pattern of V1 (SSTable) checkpoint
    files: a directory or another kind of file it matches fails to open as a table. Raises that
    DataLossError; returns when nothing matches (or a matched file looks like an SSTable)."""
    for path in matching_files(prefix):
        if os.path.isdir(path):
            why = f"FAILED_PRECONDITION: {path}; Is a directory"
        else:
            try:
                size = os.path.getsize(path)
                if size < _SSTABLE_FOOTER:
                    why = "DATA_LOSS: file is too short to be an sstable"
                else:
                    with open(path, "rb") as f:
                        f.seek(size - 8)
                        if struct.unpack("<Q", f.read(8))[0] == _SSTABLE_MAGIC:
                            continue
                    why = "DATA_LOSS: not an sstable (bad magic number)"
            except OSError:
                continue
        raise _data_loss(f"Unable to open table file {path}: {why}: perhaps your file is in a different "
                         f"file format and you need to use a different restore operator?")


class BundleReader:
    """Reads a checkpoint (prefix) and verifies what it reads. NotFoundError if there is none."""

    def __init__(self, prefix):
        self.prefix = prefix
        path = index_filename(prefix)
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            _raise_v1_fallback_error(prefix)
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to "
                                                   f"find any matching files for {prefix}") from None
        try:
            doc = json.loads(raw.decode())
            checksum = doc.pop("checksum")
            if doc.get("format") != FORMAT:
                raise ValueError("not a tensorweave checkpoint index")
        except (ValueError, UnicodeDecodeError, KeyError, AttributeError, TypeError) as e:
            raise _data_loss(f"Checkpoint index {path} is corrupted or truncated: {e}") from None
        if _index_checksum(doc) != checksum:
            raise _data_loss(f"Checkpoint index {path}: checksum does not match: stored {checksum} vs. "
                             f"calculated {_index_checksum(doc)}")
        self.num_shards = int(doc["num_shards"])
        self.entries = doc["tensors"]
        self._headers = {}

    def dtype(self, name):
        return _dtypes.as_dtype(self.entries[name]["dtype"])

    def shape(self, name):
        return list(self.entries[name]["shape"])

    def has(self, name):
        return name in self.entries

    def _shard(self, shard):
        """(path, data start, safetensors header) of a shard, verified once."""
        h = self._headers.get(shard)
        if h is None:
            path = data_filename(self.prefix, shard, self.num_shards)
            try:
                with open(path, "rb") as f:
                    head = f.read(8)
                    if len(head) != 8:
                        raise _data_loss(f"Checkpoint data file {path} is truncated (no header)")
                    (n,) = struct.unpack("<Q", head)
                    size = os.fstat(f.fileno()).st_size
                    if n > _MAX_HEADER or 8 + n > size:
                        raise _data_loss(f"Checkpoint data file {path} is corrupted or truncated (header "
                                         f"length {n}, file size {size})")
                    header = json.loads(f.read(n).decode())
            except FileNotFoundError:
                raise errors.NotFoundError(None, None, f"Checkpoint data file {path} not found") from None
            except (ValueError, UnicodeDecodeError) as e:
                raise _data_loss(f"Checkpoint data file {path}: corrupted header: {e}") from None
            h = self._headers[shard] = (path, 8 + n, header, size)
        return h

    def read(self, name):
        """The tensor's value as a NumPy array, verified (DataLossError if corrupt/truncated)."""
        e = self.entries.get(name)
        if e is None:
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
        path, start, header, size = self._shard(int(e["shard"]))
        begin, end = e["offsets"]
        h = header.get(name)
        if not isinstance(h, dict) or list(h.get("data_offsets", ())) != [begin, end]:
            raise _data_loss(f"Checkpoint data file {path}: header entry for {name} does not match the index")
        if start + end > size:
            raise _data_loss(f"Checkpoint data file {path} is truncated: tensor {name} needs bytes "
                             f"[{start + begin}, {start + end}) of a {size}-byte file")
        buf = bytearray(end - begin)
        with open(path, "rb") as f:
            f.seek(start + begin)
            got = f.readinto(buf)
        if got != len(buf):
            raise _data_loss(f"Checkpoint data file {path} is truncated while reading {name}")
        crc = zlib.crc32(buf) & 0xFFFFFFFF
        if crc != e["crc32"]:
            raise _data_loss(f"Checkpoint {self.prefix} shard {e['shard']} ({path}): checksum does not match "
                             f"for tensor {name}: stored {e['crc32']} vs. calculated on the restored bytes {crc}")
        try:
            return _decode(buf, e["dtype"], e["shape"])
        except (ValueError, struct.error) as err:
            raise _data_loss(f"Checkpoint tensor {name} in {path} cannot be decoded: {err}") from None


# -- plain safetensors files (interoperability) ------------------------------------------------

def save_file(tensors, filename, metadata=None):
    """Writes {name: array} as a safetensors file (like `safetensors.numpy.save_file`)."""
    names = list(tensors)
    encoded = []
    for n in names:
        a = np.asarray(tensors[n])
        d = _tf_dtype_name(a)
        if d == "string" or d.startswith("complex"):
            raise ValueError(f"safetensors has no dtype for {d} tensor {n!r}")
        encoded.append(_encode(a, d))
    with atomic_write(filename) as f:
        _write_safetensors(f, names, encoded, metadata)


def load_file(filename):
    """Reads a safetensors file (ours or anyone's) into {name: NumPy array}."""
    with open(filename, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise _data_loss(f"{filename} is not a safetensors file (truncated)")
    (n,) = struct.unpack_from("<Q", raw)
    if n > _MAX_HEADER or 8 + n > len(raw):
        raise _data_loss(f"{filename}: safetensors header length {n} exceeds the file")
    try:
        header = json.loads(raw[8:8 + n].decode())
    except (ValueError, UnicodeDecodeError) as e:
        raise _data_loss(f"{filename}: corrupted safetensors header: {e}") from None
    out = {}
    data = memoryview(raw)[8 + n:]
    for name, h in header.items():
        if name == "__metadata__":
            continue
        code = h["dtype"]
        if code not in _FROM_ST:
            raise errors.UnimplementedError(None, None, f"safetensors dtype {code} of {name} is not supported")
        begin, end = h["data_offsets"]
        if end > len(data) or begin > end:
            raise _data_loss(f"{filename}: tensor {name} lies outside the file")
        out[name] = _decode(data[begin:end], _FROM_ST[code], h["shape"])
    return out
