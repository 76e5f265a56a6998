"""Parsing `tf.train.Example` protos and raw bytes: `tf.io.parse_example`,
`tf.io.parse_single_example`, `tf.io.FixedLenFeature`, `tf.io.VarLenFeature`,
`tf.io.FixedLenSequenceFeature`, `tf.io.decode_raw`.

The features dict is turned into one ParseExampleV2 op as TF builds it: the keys and the dense
defaults are input tensors, the types and dense shapes attributes (parsing_config.py); the kernel
(kernels/cpu/parsing.py) decodes each serialized Example with the generated protobuf classes. A
VarLenFeature gives a `tf.SparseTensor`; a SparseFeature is merged from its index and value keys.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import get_default_graph, name_scope
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from .parsing_config import (FixedLenFeature, FixedLenSequenceFeature, ParseOpParams, SparseFeature, VarLenFeature,
                             construct_composites, prepend_none_dimension)
from .parsing_sequence_ops import parse_single_sequence_example

__all__ = ["FixedLenFeature", "VarLenFeature", "FixedLenSequenceFeature", "SparseFeature", "parse_example",
           "parse_single_example", "parse_single_sequence_example", "decode_raw", "decode_csv"]


def _parse_example_shapes(op):
    """ParseExampleV2's shapes: the batch dims of `serialized` (none for a scalar) in front of the
    dense shapes; sparse indices [?, batch rank + 1]."""
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {s.ndims}")
    batch = [] if s.ndims == 0 else [s[0].value if s.ndims == 1 else None]
    rank = len(batch) + 1
    ns = op._get_attr("num_sparse")
    dense = [TensorShape(batch + list(shape.as_list())) for shape in op._get_attr("dense_shapes")]
    return [TensorShape([None, rank])] * ns + [TensorShape([None])] * ns + [TensorShape([rank])] * ns + dense


registry.register_op("ParseExampleV2", shape_fn=_parse_example_shapes)
registry.no_gradient("ParseExampleV2")


def _parse_example_raw(serialized, names, params, name):
    """One ParseExampleV2 op for `params`; a dict key -> Tensor / SparseTensor."""
    if params.num_features == 0:
        raise ValueError("Must provide at least one feature key.")
    from ..framework.graph import get_default_graph
    with name_scope(name, "ParseExample", [serialized]):
        serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
        defaults = params.dense_defaults_vec()
        params.check_types()
        ns = len(params.sparse_keys)
        out_types = ([_dtypes.int64] * ns + list(params.sparse_types) + [_dtypes.int64] * ns
                     + list(params.dense_types))
        with get_default_graph().name_scope(name or "ParseExampleV2") as scope:
            inputs = [serialized,
                      constant([], dtype=_dtypes.string, name="names") if names is None else
                      convert_to_tensor(names, dtype=_dtypes.string, name="names"),
                      constant(params.sparse_keys, dtype=_dtypes.string, name="sparse_keys"),
                      constant(params.dense_keys, dtype=_dtypes.string, name="dense_keys"),
                      constant([], dtype=_dtypes.string, name="ragged_keys")] + defaults
            outs = apply_op("ParseExampleV2", inputs, out_types, scope, attrs={
                "Tdense": list(params.dense_types), "num_sparse": ns, "sparse_types": list(params.sparse_types),
                "ragged_value_types": [], "ragged_split_types": [], "dense_shapes": list(params.dense_shapes)})
        outs = outs if isinstance(outs, list) else [outs]
        result = {}
        for i, key in enumerate(params.sparse_keys):
            result[key] = SparseTensor(outs[i], outs[ns + i], outs[2 * ns + i])
        for j, key in enumerate(params.dense_keys):
            result[key] = outs[3 * ns + j]
        return result


_EXAMPLE_FEATURES = (VarLenFeature, SparseFeature, FixedLenFeature, FixedLenSequenceFeature)


def parse_example(serialized, features, name=None, example_names=None):
    """Parses a batch (1-D string tensor) of serialized Examples into a dict of tensors: dense
    features batched to [batch] + shape, VarLenFeatures and SparseFeatures as SparseTensors."""
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    features = prepend_none_dimension(features)
    params = ParseOpParams.from_features(features, _EXAMPLE_FEATURES)
    outputs = _parse_example_raw(serialized, example_names, params, name)
    return construct_composites(features, outputs)


def _assert_scalar(value, name):
    if value.shape.ndims not in (None, 0):
        raise ValueError(f"Input {name} must be a scalar")
    return value


def parse_single_example(serialized, features, name=None, example_names=None):
    """Parses one serialized Example (a scalar string tensor) into a dict of tensors."""
    if features is None:
        raise ValueError("Invalid argument: features cannot be None.")
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    with name_scope(name, "ParseSingleExample", [serialized]):
        serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
        serialized = _assert_scalar(serialized, "serialized")
        return parse_example(serialized, features, name, example_names)


# -- decode_raw -------------------------------------------------------------------------------------

def _decode_raw_shape(op):
    s = op._inputs[0]._shape
    if s.ndims is None:
        return [TensorShape(None)]
    return [s.concatenate(TensorShape([None]))]


registry.register_op("DecodeRaw", shape_fn=_decode_raw_shape)
registry.no_gradient("DecodeRaw")

_RAW_TYPES = (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.uint16, _dtypes.uint8,
              _dtypes.int16, _dtypes.int8, _dtypes.int64, _dtypes.bool, _dtypes.complex64, _dtypes.complex128)


def decode_raw(input_bytes=None, out_type=None, little_endian=True, name=None, bytes=None):
    """Reinterprets the bytes of each string as a vector of `out_type` numbers (all strings must
    have the same length). TF1's decode_raw has no `fixed_length` (that is TF2's)."""
    if input_bytes is None:
        input_bytes = bytes
    if out_type is None:
        raise ValueError("decode_raw_v1() missing 1 positional argument: 'out_type'")
    out_type = _dtypes.as_dtype(out_type).base_dtype
    if out_type not in _RAW_TYPES:
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {out_type.name} not in list of "
                        f"allowed values: half, float32, float64, int32, uint16, uint8, int16, int8, int64, "
                        f"complex64, complex128, bool")
    input_bytes = convert_to_tensor(input_bytes, dtype=_dtypes.string, name="bytes")
    return apply_op("DecodeRaw", [input_bytes], [out_type], name or "DecodeRaw",
                    attrs={"out_type": out_type, "little_endian": bool(little_endian)})


# -- decode_csv -------------------------------------------------------------------------------------

def _same_shape_as_records(op):
    for t in op._inputs[1:]:
        if t._shape.ndims is not None and t._shape.ndims > 1:
            raise ValueError(f"Shape must be at most rank 1 but is rank {t._shape.ndims}")
    return [op._inputs[0]._shape] * len(op._get_attr("OUT_TYPE"))


registry.register_op("DecodeCSV", shape_fn=_same_shape_as_records)
registry.no_gradient("DecodeCSV")

_CSV_TYPES = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64, _dtypes.string)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """Splits each CSV record (string tensor) into columns, one tensor per entry of
    `record_defaults` (a default value, or an empty tensor for a required column), each with the
    records' shape and the default's dtype."""
    if select_cols is not None:
        select_cols = list(select_cols)
        if any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
            raise ValueError("select_cols is not strictly increasing.")
        if select_cols and select_cols[0] < 0:
            raise ValueError("select_cols contains negative values.")
        if len(select_cols) != len(record_defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    with get_default_graph().name_scope(name or "DecodeCSV") as scope:
        records = convert_to_tensor(records, dtype=_dtypes.string, name="records")
        defaults = []
        for i, d in enumerate(record_defaults):
            t = convert_to_tensor(d, name=f"record_defaults_{i}")
            if t.dtype.base_dtype not in _CSV_TYPES:
                raise TypeError(f"Value passed to parameter 'record_defaults' has DataType {t.dtype.base_dtype.name} "
                                f"not in list of allowed values: float32, float64, int32, int64, string")
            defaults.append(t)
        types = [t.dtype.base_dtype for t in defaults]
        outs = apply_op("DecodeCSV", [records] + defaults, types, scope, attrs={
            "OUT_TYPE": types, "field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
            "na_value": na_value, "select_cols": list(select_cols or [])})
    return outs if isinstance(outs, list) else [outs]
