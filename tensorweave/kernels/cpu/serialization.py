"""CPU kernels for file and serialization ops: ReadFile / WriteFile / MatchingFiles, TensorProto
(de)serialization (SerializeTensor, ParseTensor, the SparseTensor serializers), web-safe base64,
DecodeCompressed and DecodeJSONExample. Serialized bytes match TF's C++ (`tensor_content` for
every dtype; strings as varint lengths followed by the bytes, except SerializeTensor's, which
are repeated `string_val`)."""

import base64
import gzip
import os
import zlib

import numpy as np

from ...framework import dtypes as _dtypes
from ...framework import errors
from ...framework.varint import decode_varint, encode_varint
from ..registry import register_kernel


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _b(v):
    return v if isinstance(v, bytes) else str(v).encode()


def _path(x):
    return _b(np.asarray(x, dtype=object).reshape(-1)[0]).decode("utf-8", "surrogateescape")


def _scalar_string(x, what):
    x = np.asarray(x, dtype=object)
    if x.ndim != 0:
        raise _invalid(f"{what} must be a scalar, got shape [{','.join(map(str, x.shape))}]")
    return _b(x[()])


def _map(fn, x):
    x = np.asarray(x, dtype=object)
    out = np.empty(x.shape, dtype=object)
    fo = out.reshape(-1)
    for i, v in enumerate(x.reshape(-1)):
        fo[i] = fn(_b(v))
    return out


# -- files -----------------------------------------------------------------------------------

@register_kernel("ReadFile")
def _read_file(op, ctx):
    def read_file(filename):
        path = _scalar_string(filename, "filename").decode("utf-8", "surrogateescape")
        try:
            with open(path, "rb") as f:
                return np.array(f.read(), dtype=object)
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory") from None
        except IsADirectoryError:
            raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory") from None
    return read_file


@register_kernel("WriteFile")
def _write_file(op, ctx):
    def write_file(filename, contents):
        path = _scalar_string(filename, "filename").decode("utf-8", "surrogateescape")
        data = _scalar_string(contents, "contents")
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    return write_file


@register_kernel("MatchingFiles")
def _matching_files(op, ctx):
    def matching_files(pattern):
        p = np.asarray(pattern, dtype=object)
        if p.ndim > 1:
            raise _invalid(f"Input pattern tensor must be a scalar or vector, but had shape: "
                           f"[{','.join(map(str, p.shape))}]")
        from ...platform.io_gfile import glob
        names = []
        for pat in p.reshape(-1):
            names.extend(glob(_b(pat).decode("utf-8", "surrogateescape")))
        names.sort()   # (TF sorts the matches of all the patterns together)
        out = np.empty(len(names), dtype=object)
        out[:] = [n.encode("utf-8", "surrogateescape") for n in names]
        return out
    return matching_files


# -- TensorProto in bytes --------------------------------------------------------------------

def tensor_to_proto_bytes(arr, dtype, string_val=False):
    """TF's `Tensor::AsProtoTensorContent` serialized: dtype, shape, then all data in
    `tensor_content` (strings: every length as a varint, then the bytes); with `string_val`,
    strings as repeated `string_val` instead, as TF 2.21's SerializeTensor writes them."""
    from ...protos.tensor_pb2 import TensorProto
    from ...protos.tensor_shape_pb2 import TensorShapeProto
    arr = np.asarray(arr, dtype=object if dtype == _dtypes.string else dtype.as_numpy_dtype)
    proto = TensorProto(dtype=dtype.as_datatype_enum,
                        tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=int(d)) for d in arr.shape]))
    if dtype == _dtypes.string and string_val:
        proto.string_val.extend(_b(v) for v in arr.reshape(-1))
        return proto.SerializeToString(deterministic=True)
    if dtype == _dtypes.string:
        vals = [_b(v) for v in arr.reshape(-1)]
        content = b"".join(encode_varint(len(v)) for v in vals) + b"".join(vals)
    else:
        content = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes()
    if content:
        proto.tensor_content = content
    return proto.SerializeToString(deterministic=True)


def proto_bytes_to_tensor(data, out_type):
    """The array held by serialized TensorProto bytes, checked against dtype `out_type`."""
    from ...framework.graph_io import make_ndarray
    from ...protos.tensor_pb2 import TensorProto
    proto = TensorProto()
    try:
        proto.ParseFromString(_b(data))
    except Exception:
        raise _invalid("Could not parse `serialized` as TensorProto: '" + repr(data) + "'") from None
    dt = _dtypes.as_dtype(proto.dtype) if proto.dtype else None
    if dt is None or dt.base_dtype != out_type:
        got = dt.name if dt is not None else "invalid"
        raise _invalid(f"Type mismatch between parsed tensor ({got}) and dtype ({out_type.name})")
    shape = [d.size for d in proto.tensor_shape.dim]
    n = int(np.prod(shape)) if shape else 1
    if dt == _dtypes.string and proto.tensor_content:
        buf, pos, lens = proto.tensor_content, 0, []
        for _ in range(n):
            try:
                ln, pos = decode_varint(buf, pos)
            except ValueError:
                raise _invalid("Could not parse `serialized` as TensorProto") from None
            lens.append(ln)
        out = np.empty(n, dtype=object)
        for i, ln in enumerate(lens):
            out[i] = bytes(buf[pos:pos + ln])
            pos += ln
        return out.reshape(shape)
    if n == 0:
        return np.zeros(shape, dtype=object if dt == _dtypes.string else dt.as_numpy_dtype)
    return np.asarray(make_ndarray(proto)).reshape(shape)


@register_kernel("SerializeTensor")
def _serialize_tensor(op, ctx):
    t = op._get_attr("T")

    def serialize_tensor(x):
        return np.array(tensor_to_proto_bytes(x, t, string_val=True), dtype=object)
    return serialize_tensor


@register_kernel("ParseTensor")
def _parse_tensor(op, ctx):
    out_type = op._get_attr("out_type")

    def parse_tensor(serialized):
        return proto_bytes_to_tensor(_scalar_string(serialized, "Serialized"), out_type)
    return parse_tensor


def _serialize_parts(indices, values, shape, t):
    return [tensor_to_proto_bytes(indices, _dtypes.int64), tensor_to_proto_bytes(values, t),
            tensor_to_proto_bytes(shape, _dtypes.int64)]


@register_kernel("SerializeSparse")
def _serialize_sparse(op, ctx):
    t = op._get_attr("T")

    def serialize_sparse(indices, values, shape):
        out = np.empty(3, dtype=object)
        out[:] = _serialize_parts(indices, values, shape, t)
        return out
    return serialize_sparse


@register_kernel("SerializeManySparse")
def _serialize_many_sparse(op, ctx):
    t = op._get_attr("T")

    def serialize_many_sparse(indices, values, shape):
        indices, values, shape = np.asarray(indices), np.asarray(values), np.asarray(shape)
        if shape.size < 2:
            raise _invalid(f"Rank of input SparseTensor should be > 1, but saw rank: {shape.size}")
        n = int(shape[0])
        out = np.empty((n, 3), dtype=object)
        rows = indices[:, 0] if indices.size else np.zeros(0, np.int64)
        for b in range(n):
            sel = np.nonzero(rows == b)[0]
            out[b] = _serialize_parts(indices[sel, 1:].reshape(len(sel), shape.size - 1), values[sel],
                                      shape[1:], t)
        return out
    return serialize_many_sparse


@register_kernel("DeserializeManySparse")
def _deserialize_many_sparse(op, ctx):
    dtype = op._get_attr("dtype")

    def deserialize_many_sparse(serialized):
        s = np.asarray(serialized, dtype=object)
        if s.ndim != 2 or s.shape[1] != 3:
            raise _invalid(f"Serialized sparse should be a matrix with 3 columns but is shape: "
                           f"[{','.join(map(str, s.shape))}]")
        idx, vals, shapes = [], [], []
        for b in range(s.shape[0]):
            i = proto_bytes_to_tensor(s[b, 0], _dtypes.int64)
            v = proto_bytes_to_tensor(s[b, 1], dtype)
            sh = proto_bytes_to_tensor(s[b, 2], _dtypes.int64)
            if shapes and sh.size != shapes[0].size:
                raise _invalid(f"Inconsistent shape across SparseTensors: rank prior to SparseTensor[{b}] was: "
                               f"{shapes[0].size + 1} but rank of SparseTensor[{b}] is: {sh.size + 1}")
            i = i.reshape(-1, sh.size)
            idx.append(np.concatenate([np.full((len(i), 1), b, np.int64), i], axis=1))
            vals.append(v.reshape(-1))
            shapes.append(sh)
        if not shapes:
            raise _invalid("Serialized sparse should have at least one element")
        out_shape = np.concatenate([[s.shape[0]], np.max(np.stack(shapes), axis=0)]).astype(np.int64)
        v = np.concatenate(vals) if vals else np.zeros(0)
        return np.concatenate(idx).astype(np.int64), v.astype(v.dtype if dtype == _dtypes.string
                                                                else dtype.as_numpy_dtype), out_shape
    return deserialize_many_sparse


# -- base64, compression, JSON ---------------------------------------------------------------

@register_kernel("EncodeBase64")
def _encode_base64(op, ctx):
    pad = op._get_attr("pad")

    def encode_base64(x):
        return _map(lambda v: base64.urlsafe_b64encode(v) if pad else base64.urlsafe_b64encode(v).rstrip(b"="), x)
    return encode_base64


_B64_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


@register_kernel("DecodeBase64")
def _decode_base64(op, ctx):
    def dec(v):
        # TF's base64: web-safe alphabet only; '=' only as up to two pads of a whole last quantum.
        if v and len(v) % 4 == 0:
            v = v[:len(v) - min(len(v) - len(v.rstrip(b"=")), 2)]
        if v.translate(None, _B64_CHARS):
            raise _invalid("Invalid character found in base64.")
        if len(v) % 4 == 1:
            raise _invalid("Base64 string length cannot be 1 modulo 4.")
        return base64.urlsafe_b64decode(v + b"=" * (-len(v) % 4))

    def decode_base64(x):
        return _map(dec, x)
    return decode_base64


@register_kernel("DecodeCompressed")
def _decode_compressed(op, ctx):
    kind = op._get_attr("compression_type")

    def dec(v):
        try:
            if kind == "ZLIB":
                return zlib.decompress(v)
            if kind == "GZIP":
                return gzip.decompress(v)
        except (zlib.error, OSError, EOFError) as e:
            raise errors.DataLossError(None, None, f"inflate() failed with error: {e}") from None
        return v

    def decode_compressed(x):
        return _map(dec, x)
    return decode_compressed


@register_kernel("DecodeJSONExample")
def _decode_json_example(op, ctx):
    def dec(v):
        from google.protobuf import json_format
        from ...protos.example_pb2 import Example
        try:
            return json_format.Parse(v.decode(), Example()).SerializeToString()
        except Exception as e:
            raise _invalid(f"Error while parsing JSON: {e}") from None

    def decode_json_example(x):
        return _map(dec, x)
    return decode_json_example
