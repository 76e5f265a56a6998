"""CPU kernels for parsing serialized tf.train.Example protos and raw bytes."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

_KIND = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_TYPE_NAME = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}


def _example_class():
    from ...protos.example_pb2 import Example
    return Example


def _values(feature, key, dtype_name, index):
    """The values of one Feature as a NumPy array of the wanted dtype (None if the list is empty)."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return None
    want = _KIND[dtype_name]
    if kind != want:
        raise errors.InvalidArgumentError(
            None, None, f"Name: <unknown>, Key: {key}, Index: {index}.  Data types don't match. Data type: "
                        f"{_TYPE_NAME[kind]} but expected type: {_TYPE_NAME[want]}")
    lst = getattr(feature, kind).value
    if dtype_name == "string":
        return np.array(list(lst), dtype=object)
    return np.array(lst, dtype=np.float32 if dtype_name == "float32" else np.int64)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


@register_kernel("ParseExample")
def _parse_example(op, ctx):
    single = op.get_attr("single")
    dense_keys = op.get_attr("dense_keys")
    dense_types = [t.name for t in op.get_attr("dense_types")]
    dense_shapes = op.get_attr("dense_shapes")
    dense_defaults = op.get_attr("dense_defaults")
    dense_seq = op.get_attr("dense_sequence")
    sparse_keys = op.get_attr("sparse_keys")
    sparse_types = [t.name for t in op.get_attr("sparse_types")]
    example_cls = _example_class()

    def np_dtype(name):
        return object if name == "string" else (np.float32 if name == "float32" else np.int64)

    def parse(serialized):
        records = [serialized.item() if isinstance(serialized, np.ndarray) else serialized] if single \
            else list(np.asarray(serialized, dtype=object).reshape(-1))
        examples = []
        for i, r in enumerate(records):
            ex = example_cls()
            try:
                ex.ParseFromString(r if isinstance(r, bytes) else str(r).encode())
            except Exception:  # noqa: BLE001 - protobuf's DecodeError
                raise errors.InvalidArgumentError(
                    None, None, f"Could not parse example input, value: '{r!r}'") from None
            examples.append(ex.features.feature)
        outputs_dense = []
        for key, dt, shape, default, seq in zip(dense_keys, dense_types, dense_shapes, dense_defaults, dense_seq):
            size = int(np.prod(shape)) if shape else 1
            rows = []
            for i, feats in enumerate(examples):
                vals = _values(feats[key], key, dt, i) if key in feats else None
                if seq:
                    if vals is None:
                        vals = np.zeros((0,), np_dtype(dt))
                    if size and vals.size % size:
                        raise errors.InvalidArgumentError(
                            None, None, f"Name: <unknown>, Key: {key}, Index: {i}.  Number of values is not a "
                                        f"multiple of stride length. Saw {vals.size} values but output shape "
                                        f"is: {_dims(shape)}")
                    rows.append(vals.reshape((-1,) + tuple(shape)))
                    continue
                if vals is None:
                    if default is None:
                        raise errors.InvalidArgumentError(
                            None, None, f"Feature: {key} (data type: {_TYPE_NAME[_KIND[dt]]}) is required but "
                                        f"could not be found.")
                    rows.append(np.asarray(default, np_dtype(dt)))
                    continue
                if vals.size != size:
                    raise errors.InvalidArgumentError(
                        None, None, f"Name: <unknown>, Key: {key}, Index: {i}.  Number of {_TYPE_NAME[_KIND[dt]]} "
                                    f"values != expected.  Values size: {vals.size} but output shape: "
                                    f"{_dims(shape)}")
                rows.append(vals.reshape(shape))
            if seq:
                n = max((r.shape[0] for r in rows), default=0)
                pad = default if default is not None else (b"" if dt == "string" else 0)
                out = np.empty((len(rows), n) + tuple(shape), np_dtype(dt))
                out[...] = pad
                for j, r in enumerate(rows):
                    out[j, :r.shape[0]] = r
            else:
                out = np.stack(rows) if rows else np.zeros((0,) + tuple(shape), np_dtype(dt))
            outputs_dense.append(out[0] if single else out)
        ind, val, shp = [], [], []
        for key, dt in zip(sparse_keys, sparse_types):
            idx, vals = [], []
            max_len = 0
            for i, feats in enumerate(examples):
                v = _values(feats[key], key, dt, i) if key in feats else None
                if v is None or not v.size:
                    continue
                vals.append(v)
                idx.append(np.stack([np.full(v.size, i, np.int64), np.arange(v.size, dtype=np.int64)], 1))
                max_len = max(max_len, v.size)
            values = np.concatenate(vals) if vals else np.zeros((0,), np_dtype(dt))
            indices = np.concatenate(idx) if idx else np.zeros((0, 2), np.int64)
            if single:
                ind.append(indices[:, 1:].copy())
                shp.append(np.array([max_len], np.int64))
            else:
                ind.append(indices)
                shp.append(np.array([len(examples), max_len], np.int64))
            val.append(values)
        out = ind + val + shp + outputs_dense
        return out[0] if len(out) == 1 else tuple(out)
    return parse


@register_kernel("DecodeRaw")
def _decode_raw(op, ctx):
    dtype = np.dtype(op.get_attr("out_type").as_numpy_dtype)
    if not op.get_attr("little_endian"):
        dtype = dtype.newbyteorder(">")
    elif dtype.byteorder == ">":
        dtype = dtype.newbyteorder("<")
    native = dtype.newbyteorder("=")
    name = op.get_attr("out_type").name

    def decode_raw(data):
        arr = np.asarray(data, dtype=object)
        flat = arr.reshape(-1)
        if flat.size == 0:
            return np.zeros(arr.shape + (0,), native)
        first = len(flat[0])
        if first % dtype.itemsize:
            raise errors.InvalidArgumentError(
                None, None, f"Input to DecodeRaw has length {first} that is not a multiple of {dtype.itemsize}, "
                            f"the size of {name}")
        for i, s in enumerate(flat[1:], 1):
            if len(s) != first:
                raise errors.InvalidArgumentError(
                    None, None, f"DecodeRaw requires input strings to all be the same size, but element {i} has "
                                f"size {len(s)} != {first}")
        out = np.frombuffer(b"".join(flat), dtype=dtype).astype(native)
        return out.reshape(arr.shape + (first // dtype.itemsize,))
    return decode_raw
