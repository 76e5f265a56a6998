"""CSV input: `tf.data.experimental.CsvDataset` and `make_csv_dataset`.

CsvDataset reads RFC 4180 records (quoted fields may hold delimiters, doubled quotes and line
breaks), one scalar per selected column, typed by `record_defaults`; an empty field (or
`na_value`) takes its column's default and is an error where the default is empty.
make_csv_dataset is TF's composite (column inference, file shuffle, interleave, shuffle, repeat,
batch, a map to a features dict), so its batches come out in TF's order for a seed.
"""

import collections
import csv
import glob as _glob
import gzip

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.tensor_shape import TensorShape
from .dataset_ops import AUTOTUNE, DatasetV1, TensorSliceDataset
from .readers import _compression, _filenames, _open

__all__ = ["CsvDataset", "make_csv_dataset"]

_ACCEPTABLE = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64, _dtypes.string)


def _records(data, delim, use_quote):
    """Splits file bytes into records of raw fields; yields lists of (bytes, quoted)."""
    i, n = 0, len(data)
    q, d = ord('"'), ord(delim)
    while i < n:
        fields = []
        while True:
            if use_quote and i < n and data[i] == q:
                buf = bytearray()
                i += 1
                while True:
                    if i >= n:
                        raise errors.InvalidArgumentError(None, None, "Quoted field has to end with quote followed "
                                                                      "by delim or end")
                    c = data[i]
                    if c == q:
                        if i + 1 < n and data[i + 1] == q:
                            buf.append(q)
                            i += 2
                            continue
                        i += 1
                        break
                    buf.append(c)
                    i += 1
                if i < n and data[i] not in (d, 10, 13):
                    raise errors.InvalidArgumentError(None, None, "Quote inside a string has to be escaped by "
                                                                  "another quote")
                fields.append((bytes(buf), True))
            else:
                j = i
                while j < n and data[j] not in (d, 10, 13):
                    j += 1
                fields.append((data[i:j], False))
                i = j
            if i < n and data[i] == d:
                i += 1
                continue
            if i < n and data[i] == 13:
                i += 1
            if i < n and data[i] == 10:
                i += 1
            break
        yield fields


def _convert(field, dtype, index):
    text = field.decode("utf-8", "replace")
    try:
        if dtype == _dtypes.string:
            return np.array(field, dtype=object)
        if dtype in (_dtypes.int32, _dtypes.int64):
            v = int(text.strip())
            info = np.iinfo(dtype.as_numpy_dtype)
            if not info.min <= v <= info.max:
                raise ValueError
            return np.array(v, dtype.as_numpy_dtype)
        return np.array(float(text), dtype.as_numpy_dtype)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, f"Field {index} in record is not a valid "
                                                      f"{dtype.name}: {text}") from None


class CsvDataset(DatasetV1):
    """The records of CSV files as tuples of scalars (one per selected column)."""
    _tf_name = "CsvDatasetV2"

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None):
        if select_cols is not None and exclude_cols is not None:
            raise ValueError("Either select_cols or exclude_cols should be specified, but not both.")
        self._filenames = convert_to_tensor(filenames, dtype=_dtypes.string, name="filenames")
        self._compression_type = convert_to_tensor(compression_type or "", dtype=_dtypes.string,
                                                   name="compression_type")
        defaults = []
        for x in record_defaults:
            if not isinstance(x, Tensor) and not isinstance(x, (list, tuple, np.ndarray, str, bytes, int, float)):
                x = constant([], dtype=_dtypes.as_dtype(x))
            else:
                x = convert_to_tensor(x)
            if x.dtype.base_dtype not in _ACCEPTABLE:
                raise TypeError(f"`record_defaults` must be a list of tensors of type float32, float64, int32, "
                                f"int64 or string, got {x.dtype}.")
            defaults.append(x)
        self._defaults = defaults
        self._header = bool(header)
        self._delim = field_delim
        self._use_quote = bool(use_quote_delim)
        self._na_value = na_value.encode() if isinstance(na_value, str) else na_value
        self._select = None if select_cols is None else [int(c) for c in select_cols]
        self._exclude = None if exclude_cols is None else [int(c) for c in exclude_cols]
        if self._select is not None and any(b <= a for a, b in zip(self._select, self._select[1:])):
            raise errors.InvalidArgumentError(None, None, "select_cols is not strictly increasing.")
        self._captures = [self._filenames, self._compression_type] + defaults
        self._set_element(tuple(range(len(defaults))), [t.dtype.base_dtype for t in defaults],
                          [TensorShape([])] * len(defaults))

    def _bind(self, valmap, rt):
        files = _filenames(valmap, self._filenames)
        compression = _compression(valmap, self._compression_type)
        defaults = [np.asarray(valmap[t]).reshape(-1) for t in self._defaults]
        types = self._types
        n_out = len(types)
        select, exclude = self._select, self._exclude
        header, delim, use_quote, na = self._header, self._delim, self._use_quote, self._na_value

        def make():
            for path in files:
                with _open(path, compression) as f:
                    data = f.read()
                records = _records(data, delim, use_quote)
                if header:
                    next(records, None)
                for fields in records:
                    if select is not None:
                        if select and select[-1] >= len(fields):
                            raise errors.InvalidArgumentError(None, None, "Expect " + str(n_out) +
                                                              " fields but have " + str(len(fields)) + " in record")
                        chosen = [fields[c] for c in select]
                    elif exclude is not None:
                        chosen = [f for c, f in enumerate(fields) if c not in exclude]
                    else:
                        chosen = fields
                    out = []
                    for i, ((field, quoted), dt, dflt) in enumerate(zip(chosen, types, defaults)):
                        if (field == b"" and not (quoted and dt == _dtypes.string)) or (na and field == na):
                            if dflt.size == 0:
                                raise errors.InvalidArgumentError(
                                    None, None, f"Field {i} is required but missing in record!")
                            v = dflt[0]
                            out.append(np.array(v, dtype=object) if dt == _dtypes.string else np.asarray(v))
                        else:
                            out.append(_convert(field, dt, i))
                    if len(chosen) != n_out:
                        more = "more" if len(chosen) > n_out else "less"
                        raise errors.InvalidArgumentError(None, None, f"Expect {n_out} fields but have {more} "
                                                                      f"in record")
                    yield tuple(out)
        return make


# -- make_csv_dataset ----------------------------------------------------------------------------

def _is_valid_int32(s):
    try:
        return np.int32(s) == np.int64(s)
    except (ValueError, OverflowError):
        return False


def _is_valid_int64(s):
    try:
        np.int64(s)
        return True
    except (ValueError, OverflowError):
        return False


def _is_valid_float(s, np_type):
    try:
        return np_type(s) < np.inf
    except ValueError:
        return False


def _infer_type(s, na_value, prev_type):
    if s in ("", na_value):
        return prev_type
    type_list = [_dtypes.int32, _dtypes.int64, _dtypes.float32, _dtypes.float64, _dtypes.string]
    checks = [_is_valid_int32, _is_valid_int64, lambda v: _is_valid_float(v, np.float32),
              lambda v: _is_valid_float(v, np.float64), lambda v: True]
    for i, check in enumerate(checks):
        if check(s) and (prev_type is None or prev_type in type_list[:i + 1]):
            return type_list[i]


def _csv_reader(f, delim, use_quote):
    return csv.reader(f, delimiter=delim, quoting=csv.QUOTE_MINIMAL if use_quote else csv.QUOTE_NONE)


def _rows(filenames, num_cols, delim, use_quote, header, open_fn):
    for fn in filenames:
        with open_fn(fn) as f:
            rdr = _csv_reader(f, delim, use_quote)
            row_num = 1
            if header:
                next(rdr)
                row_num += 1
            for row in rdr:
                if len(row) != num_cols:
                    raise ValueError(f"Problem inferring types: CSV row {row_num} has {len(row)} number of "
                                     f"fields. Expected: {num_cols}.")
                row_num += 1
                yield row


def _infer_defaults(filenames, num_cols, delim, use_quote, na_value, header, num_rows, select, open_fn):
    if select is None:
        select = range(num_cols)
    inferred = [None] * len(select)
    for i, row in enumerate(_rows(filenames, num_cols, delim, use_quote, header, open_fn)):
        if num_rows is not None and i >= num_rows:
            break
        for j, c in enumerate(select):
            inferred[j] = _infer_type(row[c], na_value, inferred[j])
    inferred = [t or _dtypes.string for t in inferred]
    return [constant([0 if t is not _dtypes.string else ""], dtype=t) for t in inferred]


def _infer_names(filenames, delim, use_quote, open_fn):
    with open_fn(filenames[0]) as f:
        try:
            names = next(_csv_reader(f, delim, use_quote))
        except StopIteration:
            raise ValueError(f"Failed when reading the header line of {filenames[0]}. Is it an empty file?") \
                from None
    for name in filenames[1:]:
        with open_fn(name) as f:
            try:
                if next(_csv_reader(f, delim, use_quote)) != names:
                    raise ValueError("All input CSV files should have the same column names in the header row. "
                                     f"File {name} has different column names.")
            except StopIteration:
                raise ValueError(f"Failed when reading the header line of {name}. Is it an empty file?") from None
    return names


def _sorted_col_indices(select_columns, column_names):
    index = {n: i for i, n in enumerate(column_names)}
    out = []
    for v in select_columns:
        if isinstance(v, int):
            if v < 0 or v >= len(column_names):
                raise ValueError(f"Column index {v} specified in `select_columns` should be > 0  and <= "
                                 f"{len(column_names)}, which is the number of columns.")
            out.append(v)
        elif v not in index:
            raise ValueError(f"Column {v} specified in `select_columns` must be of one of the columns: "
                             f"{index.keys()}.")
        else:
            out.append(index[v])
    result = sorted(set(out))
    if len(result) != len(select_columns):
        raise ValueError("The `select_columns` argument contains duplicate columns.")
    return result


def _file_names(file_pattern):
    if isinstance(file_pattern, list):
        if not file_pattern:
            raise ValueError("Argument `file_pattern` should not be empty.")
        names = [f for p in file_pattern for f in _glob.glob(p)]
    else:
        names = list(_glob.glob(file_pattern))
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return sorted(names)


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False, encoding="utf-8"):
    """Batches of (features dict[, label]) read from CSV files (TF's composite, TF's order)."""
    if num_parallel_reads is None:
        num_parallel_reads = 1
    if prefetch_buffer_size is None:
        prefetch_buffer_size = AUTOTUNE
    filenames = _file_names(file_pattern)
    dataset = TensorSliceDataset(convert_to_tensor(filenames, dtype=_dtypes.string))
    if shuffle:
        dataset = dataset.shuffle(len(filenames), shuffle_seed)

    def open_fn(name):
        if compression_type == "GZIP":
            return gzip.open(name, "rt", encoding=encoding, newline="")
        return open(name, "r", encoding=encoding, newline="")
    if compression_type == "ZLIB" and (column_names is None or column_defaults is None):
        raise ValueError(f"`compression_type` {compression_type} is not supported for probing columns.")
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        column_names = _infer_names(filenames, field_delim, use_quote_delim, open_fn)
    if len(column_names) != len(set(column_names)):
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate column names.")
    if select_columns is not None:
        select_columns = _sorted_col_indices(select_columns, column_names)
    if column_defaults is not None:
        column_defaults = [constant([], dtype=x) if not isinstance(x, Tensor) and isinstance(x, _dtypes.DType) and
                           x in _ACCEPTABLE else x for x in column_defaults]
    else:
        column_defaults = _infer_defaults(filenames, len(column_names), field_delim, use_quote_delim, na_value,
                                          header, num_rows_for_inference, select_columns, open_fn)
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError(f"If specified, `column_defaults` and `select_columns` must have the same length: "
                         f"`column_defaults` has length {len(column_defaults)}, `select_columns` has length "
                         f"{len(select_columns)}.")
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. Received: "
                         f"{label_name}.")

    def filename_to_dataset(filename):
        ds = CsvDataset(filename, record_defaults=column_defaults, field_delim=field_delim,
                        use_quote_delim=use_quote_delim, na_value=na_value, select_cols=select_columns,
                        header=header, compression_type=compression_type)
        if ignore_errors:
            from .experimental_ops import IgnoreErrorsDataset
            ds = IgnoreErrorsDataset(ds)
        return ds

    def map_fn(*columns):
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features

    dataset = dataset.interleave(filename_to_dataset, cycle_length=num_parallel_reads if num_parallel_reads !=
                                 AUTOTUNE else None, block_length=1)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size=batch_size, drop_remainder=num_epochs is None)
    dataset = dataset.map(map_fn)
    return dataset.prefetch(prefetch_buffer_size)
