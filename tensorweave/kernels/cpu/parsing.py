"""CPU kernels for parsing serialized tf.train.Example protos and raw bytes."""

import numpy as np

from ...framework import errors
from ..registry import register_kernel

_KIND = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_TYPE_NAME = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}


def _example_class():
    from ...protos.example_pb2 import Example
    return Example


def _where(key, index, name, single):
    """How TF's messages name a feature: its key alone for a scalar input (the single-example
    parser), else the example's name and index too."""
    return f"Key: {key}." if single else f"Name: {name}, Key: {key}, Index: {index}."


def _values(feature, key, dtype_name, index, name="<unknown>", sparse=False, single=False):
    """The values of one Feature as a NumPy array of the wanted dtype (None if the list is empty)."""
    kind = feature.WhichOneof("kind")
    if kind is None:
        return None
    want = _KIND[dtype_name]
    if kind != want:
        detail = (f"Expected type: {_TYPE_NAME[want]}, Actual type: {_TYPE_NAME[kind]}" if sparse else
                  f"Data type: {_TYPE_NAME[kind]} but expected type: {_TYPE_NAME[want]}")
        raise errors.InvalidArgumentError(
            None, None, f"{_where(key, index, name, single)}  Data types don't match. {detail}")
    lst = getattr(feature, kind).value
    if dtype_name == "string":
        return np.array(list(lst), dtype=object)
    return np.array(lst, dtype=np.float32 if dtype_name == "float32" else np.int64)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def np_dtype(name):
    return object if name == "string" else (np.float32 if name == "float32" else np.int64)


def _keys(value):
    return [k.decode() if isinstance(k, bytes) else str(k) for k in np.asarray(value, dtype=object).reshape(-1)]


def _records(serialized):
    arr = np.asarray(serialized, dtype=object)
    return [r if isinstance(r, bytes) else str(r).encode() for r in arr.reshape(-1)]


def _raw(r):
    """The record as TF's message carries it: its bytes, not a Python repr."""
    return r.decode("utf-8", "backslashreplace") if isinstance(r, bytes) else str(r)


def parse_protos(records, cls, what):
    out = []
    for r in records:
        msg = cls()
        try:
            msg.ParseFromString(r)
        except Exception:  # noqa: BLE001 - protobuf's DecodeError
            raise errors.InvalidArgumentError(None, None, f"Could not parse {what} input, value: '{_raw(r)}'") from None
        out.append(msg)
    return out


def _dims_q(shape):
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def dense_feature(maps, key, dt, shape, default, names=None, single=False):
    """One dense key over a batch of feature maps: [batch] + shape, or for a sequence feature
    (shape[0] is None) [batch, longest] + shape[1:] padded with the scalar `default`."""
    seq = bool(shape) and shape[0] is None
    item = tuple(shape[1:]) if seq else tuple(shape)
    size = int(np.prod(item)) if item else 1
    rows = []
    for i, feats in enumerate(maps):
        name = names[i] if names else "<unknown>"
        vals = _values(feats[key], key, dt, i, name, single=single) if key in feats else None
        if seq:
            if vals is None:
                vals = np.zeros((0,), np_dtype(dt))
            if size and vals.size % size:
                if single:      # TF's single-example parser
                    raise errors.InvalidArgumentError(
                        None, None, f"Error while parsing feature with key {key}: number of elements should be "
                                    f"divisible by {size}, found {vals.size} instead")
                raise errors.InvalidArgumentError(
                    None, None, f"{_where(key, i, name, single)}  Number of {_TYPE_NAME[_KIND[dt]]} values is "
                                f"not a multiple of stride length. Saw {vals.size} values but output shape is: "
                                f"{_dims_q(shape)}")
            rows.append(vals.reshape((-1,) + item))
            continue
        if vals is None:
            if default is None or np.size(default) == 0:
                raise errors.InvalidArgumentError(
                    None, None, f"{'' if single else f'Name: {name}, '}Feature: {key} (data type: "
                                f"{_TYPE_NAME[_KIND[dt]]}) is required but could not be found.")
            rows.append(np.asarray(default, np_dtype(dt)).reshape(item))
            continue
        if vals.size != size:
            if single:      # TF's single-example parser
                raise errors.InvalidArgumentError(
                    None, None, f"Key: {key}.  Can't parse serialized Example: Some {_KIND[dt]} slice was not "
                                f"parsed.")
            raise errors.InvalidArgumentError(
                None, None, f"Name: {name}, Key: {key}, Index: {i}.  Number of {_TYPE_NAME[_KIND[dt]]} values != "
                            f"expected.  Values size: {vals.size} but output shape: {_dims(shape)}")
        rows.append(vals.reshape(item))
    if seq:
        n = max((r.shape[0] for r in rows), default=0)
        out = np.empty((len(rows), n) + item, np_dtype(dt))
        out[...] = np.asarray(default, np_dtype(dt)).reshape(()) if default is not None and np.size(default) \
            else (b"" if dt == "string" else 0)
        for j, r in enumerate(rows):
            out[j, :r.shape[0]] = r
        return out
    return np.stack(rows) if rows else np.zeros((0,) + item, np_dtype(dt))


def sparse_feature(maps, key, dt, names=None, single=False):
    """One VarLen key over a batch: (indices [n, 2], values, dense_shape [batch, longest])."""
    idx, vals, longest = [], [], 0
    for i, feats in enumerate(maps):
        v = _values(feats[key], key, dt, i, names[i] if names else "<unknown>", sparse=True, single=single) \
            if key in feats else None
        if v is None or not v.size:
            continue
        vals.append(v)
        idx.append(np.stack([np.full(v.size, i, np.int64), np.arange(v.size, dtype=np.int64)], 1))
        longest = max(longest, v.size)
    values = np.concatenate(vals) if vals else np.zeros((0,), np_dtype(dt))
    indices = np.concatenate(idx) if idx else np.zeros((0, 2), np.int64)
    return indices, values, np.array([len(maps), longest], np.int64)


def unbatch_sparse(indices, values, shape):
    """The sparse outputs of a scalar input: the batch column and dimension dropped."""
    return indices[:, 1:].copy(), values, shape[1:].copy()


@register_kernel("ParseExampleV2")
def _parse_example(op, ctx):
    dense_types = [t.name for t in op._get_attr("Tdense")]
    dense_shapes = [tuple(s.as_list()) for s in op._get_attr("dense_shapes")]
    sparse_types = [t.name for t in op._get_attr("sparse_types")]
    example_cls = _example_class()

    def parse(serialized, names, sparse_keys, dense_keys, ragged_keys, *defaults):
        single = np.ndim(serialized) == 0
        maps = [ex.features.feature for ex in parse_protos(_records(serialized), example_cls, "example")]
        ex_names = _keys(names) or None
        dense = [dense_feature(maps, k, dt, shape, d, ex_names, single) for k, dt, shape, d in
                 zip(_keys(dense_keys), dense_types, dense_shapes, defaults)]
        sparse = [sparse_feature(maps, k, dt, ex_names, single) for k, dt in zip(_keys(sparse_keys), sparse_types)]
        if single:
            dense = [d[0] for d in dense]
            sparse = [unbatch_sparse(*sp) for sp in sparse]
        out = [sp[0] for sp in sparse] + [sp[1] for sp in sparse] + [sp[2] for sp in sparse] + dense
        return out[0] if len(out) == 1 else tuple(out)
    return parse


def _sequence_example_class():
    from ...protos.example_pb2 import SequenceExample
    return SequenceExample


def _feature_list_dense(lists, key, dt, shape, missing_empty):
    """One dense feature list over a batch: ([batch, longest] + shape zero-padded, lengths)."""
    size = int(np.prod(shape)) if shape else 1
    # TF's fast parser first checks each list's total number of values against the stride (over a
    # batch the last example that fails is the one reported), then each step's number
    bad = None
    for fls in lists:
        if key in fls:
            total = sum(len(getattr(f, f.WhichOneof("kind")).value) if f.WhichOneof("kind") else 0
                        for f in fls[key].feature)
            if size and total % size:
                bad = total
    if bad is not None:
        raise errors.InvalidArgumentError(
            None, None, f"Feature list '{key}' has an unexpected number of values.  Total values size: {bad} is "
                        f"not consistent with output shape: {_dims_q((None,) + tuple(shape))}")
    rows = []
    for i, fls in enumerate(lists):
        if key not in fls:
            if not missing_empty:
                raise errors.InvalidArgumentError(
                    None, None, f"Name: <unknown>, Feature list '{key}' is required but could not be found.  Did "
                                f"you mean to include it in feature_list_dense_missing_assumed_empty or "
                                f"feature_list_dense_defaults?")
            rows.append(np.zeros((0,) + tuple(shape), np_dtype(dt)))
            continue
        steps = []
        for t, feature in enumerate(fls[key].feature):
            vals = _values(feature, key, dt, i)
            vals = np.zeros((0,), np_dtype(dt)) if vals is None else vals
            if vals.size != size:
                raise errors.InvalidArgumentError(
                    None, None, f"Name: <unknown>, Key: {key}, Index: {t}.  Number of values != expected.  "
                                f"values size: {vals.size} but output shape: {_dims(shape)}")
            steps.append(vals.reshape(shape))
        rows.append(np.stack(steps) if steps else np.zeros((0,) + tuple(shape), np_dtype(dt)))
    n = max((r.shape[0] for r in rows), default=0)
    out = np.zeros((len(rows), n) + tuple(shape), np_dtype(dt))
    if dt == "string":
        out[...] = b""
    for j, r in enumerate(rows):
        out[j, :r.shape[0]] = r
    return out, np.array([r.shape[0] for r in rows], np.int64)


def _feature_list_sparse(lists, key, dt):
    """One VarLen feature list over a batch: indices [n, 3] (example, step, position), values,
    dense shape [batch, longest list, longest step]."""
    idx, vals, steps, longest = [], [], 0, 0
    for i, fls in enumerate(lists):
        if key not in fls:
            continue
        features = fls[key].feature
        steps = max(steps, len(features))
        for t, feature in enumerate(features):
            v = _values(feature, key, dt, i)
            if v is None or not v.size:
                continue
            vals.append(v)
            idx.append(np.stack([np.full(v.size, i, np.int64), np.full(v.size, t, np.int64),
                                 np.arange(v.size, dtype=np.int64)], 1))
            longest = max(longest, v.size)
    values = np.concatenate(vals) if vals else np.zeros((0,), np_dtype(dt))
    indices = np.concatenate(idx) if idx else np.zeros((0, 3), np.int64)
    return indices, values, np.array([len(lists), steps, longest], np.int64)


@register_kernel("ParseSequenceExampleV2")
def _parse_sequence_example(op, ctx):
    ctx_dense_types = [t.name for t in op._get_attr("Tcontext_dense")]
    ctx_dense_shapes = [tuple(s.as_list()) for s in op._get_attr("context_dense_shapes")]
    ctx_sparse_types = [t.name for t in op._get_attr("context_sparse_types")]
    fl_dense_types = [t.name for t in op._get_attr("feature_list_dense_types")]
    fl_dense_shapes = [tuple(s.as_list()) for s in op._get_attr("feature_list_dense_shapes")]
    fl_sparse_types = [t.name for t in op._get_attr("feature_list_sparse_types")]
    cls = _sequence_example_class()

    def parse(serialized, debug_name, ctx_sparse_keys, ctx_dense_keys, ctx_ragged_keys, fl_sparse_keys,
              fl_dense_keys, fl_ragged_keys, missing_empty, *defaults):
        single = np.ndim(serialized) == 0
        protos = parse_protos(_records(serialized), cls, "example")
        maps = [p.context.feature for p in protos]
        lists = [p.feature_lists.feature_list for p in protos]
        cd = [dense_feature(maps, k, dt, shape, d) for k, dt, shape, d in
              zip(_keys(ctx_dense_keys), ctx_dense_types, ctx_dense_shapes, defaults)]
        cs = [sparse_feature(maps, k, dt) for k, dt in zip(_keys(ctx_sparse_keys), ctx_sparse_types)]
        fs = [_feature_list_sparse(lists, k, dt) for k, dt in zip(_keys(fl_sparse_keys), fl_sparse_types)]
        fd = [_feature_list_dense(lists, k, dt, shape, bool(m)) for k, dt, shape, m in
              zip(_keys(fl_dense_keys), fl_dense_types, fl_dense_shapes, np.asarray(missing_empty).reshape(-1))]
        fd_values, fd_lengths = [v for v, _ in fd], [n for _, n in fd]
        if single:
            cd = [d[0] for d in cd]
            cs = [unbatch_sparse(*sp) for sp in cs]
            fs = [unbatch_sparse(*sp) for sp in fs]
            fd_values, fd_lengths = [v[0] for v in fd_values], [n[0] for n in fd_lengths]
        out = ([sp[0] for sp in cs] + [sp[1] for sp in cs] + [sp[2] for sp in cs] + cd
               + [sp[0] for sp in fs] + [sp[1] for sp in fs] + [sp[2] for sp in fs] + fd_values + fd_lengths)
        return out[0] if len(out) == 1 else tuple(out)
    return parse


@register_kernel("DecodeRaw")
def _decode_raw(op, ctx):
    dtype = np.dtype(op._get_attr("out_type").as_numpy_dtype)
    if not op._get_attr("little_endian"):
        dtype = dtype.newbyteorder(">")
    elif dtype.byteorder == ">":
        dtype = dtype.newbyteorder("<")
    native = dtype.newbyteorder("=")
    name = op._get_attr("out_type").name

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
                                f"size {first} != {len(s)}")
        out = np.frombuffer(b"".join(flat), dtype=dtype).astype(native)
        return out.reshape(arr.shape + (first // dtype.itemsize,))
    return decode_raw


# -- DecodeCSV --------------------------------------------------------------------------------------

def _csv_fields(record, delim, quote, index):
    """The fields of one CSV record (TF's rules: a quoted field may hold the delimiter and "" for
    a quote; a quote must end its field)."""
    fields = []
    n = len(record)
    i = 0
    while True:
        if quote and i < n and record[i] == '"':
            buf = []
            i += 1
            while True:
                if i >= n:
                    raise errors.InvalidArgumentError(
                        None, None, "Quoted field has to end with quote followed by delim or end")
                c = record[i]
                if c == '"':
                    if i + 1 < n and record[i + 1] == '"':
                        buf.append('"')
                        i += 2
                        continue
                    i += 1
                    if i < n and record[i] != delim:
                        raise errors.InvalidArgumentError(
                            None, None, "Quote inside a string has to be escaped by another quote")
                    break
                buf.append(c)
                i += 1
            fields.append("".join(buf))
        else:
            j = record.find(delim, i)
            end = n if j < 0 else j
            field = record[i:end]
            if quote and '"' in field:
                raise errors.InvalidArgumentError(
                    None, None, "Unquoted fields cannot have quotes/CRLFs inside")
            fields.append(field)
            i = end
        if i >= n:
            return fields
        i += 1  # the delimiter
        if i == n:
            fields.append("")
            return fields


def _csv_int(text, bits, col, index):
    t = text.strip()
    try:
        if not t or not all(c.isdigit() for c in t.lstrip("+-")) or t.lstrip("+-") == "":
            raise ValueError
        v = int(t)
        if not -(1 << (bits - 1)) <= v < (1 << (bits - 1)):
            raise ValueError
        return v
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Field {col} in record {index} is not a valid int{bits}: {text}") from None


def _csv_float(text, name, col, index):
    try:
        return float(text.strip())
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"Field {col} in record {index} is not a valid {name}: {text}") from None


@register_kernel("DecodeCSV")
def _decode_csv(op, ctx):
    types = op._get_attr("OUT_TYPE")
    delim = op._get_attr("field_delim")
    quote = op._get_attr("use_quote_delim")
    na_value = op._get_attr("na_value")
    select = list(op._get_attr("select_cols"))
    ncols = len(types)

    def decode_csv(records, *defaults):
        if len(delim) != 1:
            raise errors.InvalidArgumentError(None, None, "field_delim should be only 1 char")
        for i, d in enumerate(defaults):
            if np.size(d) > 1:
                raise errors.InvalidArgumentError(None, None, "Shape of a default must be a length-0 or "
                                                              "length-1 vector, or a scalar.")
        records = np.asarray(records, dtype=object)
        flat = records.ravel()
        cols = [[] for _ in range(ncols)]
        for r, rec in enumerate(flat):
            text = rec.decode("utf-8", "surrogateescape") if isinstance(rec, bytes) else str(rec)
            fields = _csv_fields(text, delim, quote, r)
            if select:
                if len(fields) <= select[-1]:
                    have = sum(1 for c in select if c < len(fields))   # TF counts selected fields
                    raise errors.InvalidArgumentError(
                        None, None, f"Expect {ncols} fields but have {have} in record {r}")
                fields = [fields[c] for c in select]
            elif len(fields) != ncols:
                raise errors.InvalidArgumentError(
                    None, None, f"Expect {ncols} fields but have {len(fields)} in record {r}")
            for c, (field, dt) in enumerate(zip(fields, types)):
                d = defaults[c]
                if field == "" or field == na_value:
                    if np.size(d) == 0:
                        raise errors.InvalidArgumentError(
                            None, None, f"Field {c} is required but missing in record {r}!")
                    v = np.asarray(d).reshape(-1)[0]
                    cols[c].append(v)
                    continue
                name = dt.name
                if name == "int32":
                    cols[c].append(_csv_int(field, 32, c, r))
                elif name == "int64":
                    cols[c].append(_csv_int(field, 64, c, r))
                elif name == "float32":
                    cols[c].append(_csv_float(field, "float", c, r))
                elif name == "float64":
                    cols[c].append(_csv_float(field, "double", c, r))
                else:
                    cols[c].append(field.encode("utf-8", "surrogateescape"))
        out = []
        for c, dt in enumerate(types):
            if dt.name == "string":
                a = np.empty(len(cols[c]), dtype=object)
                a[:] = [v if isinstance(v, bytes) else (v.encode() if isinstance(v, str) else v) for v in cols[c]]
            else:
                a = np.array(cols[c], dtype=dt.as_numpy_dtype)
            out.append(a.reshape(records.shape))
        return out[0] if ncols == 1 else tuple(out)
    return decode_csv
