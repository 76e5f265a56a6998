"""Parsing `tf.train.SequenceExample` protos: `tf.io.parse_sequence_example` (a batch) and
`tf.io.parse_single_sequence_example` (one proto).

A SequenceExample has `context` features (parsed like an Example's: FixedLenFeature,
VarLenFeature) and `feature_lists`, one list of Features per key: a FixedLenSequenceFeature
stacks them into [time] + shape (padded to the batch's longest list, with its length reported),
a VarLenFeature gives a SparseTensor indexed [batch, time, position]. Both functions build one
ParseSequenceExampleV2 op as TF does: keys and context defaults are input tensors.
"""

from ..framework import dtypes as _dtypes
from ..framework import registry
from ..framework.constant_op import constant, convert_to_tensor
from ..framework.graph import get_default_graph, name_scope
from ..framework.op_util import apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from .parsing_config import FixedLenFeature, FixedLenSequenceFeature, ParseOpParams, VarLenFeature

__all__ = ["parse_sequence_example", "parse_single_sequence_example"]


def _shapes(op):
    s = op._inputs[0]._shape
    if s.ndims is not None and s.ndims > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {s.ndims}")
    batch = [] if s.ndims == 0 else [s[0].value if s.ndims == 1 else None]
    nb = len(batch)
    ncs, nfs = op._get_attr("Ncontext_sparse"), op._get_attr("Nfeature_list_sparse")
    ctx_dense = [TensorShape(batch + shape.as_list()) for shape in op._get_attr("context_dense_shapes")]
    fl_dense = [TensorShape(batch + [None] + shape.as_list()) for shape in op._get_attr("feature_list_dense_shapes")]
    return ([TensorShape([None, nb + 1])] * ncs + [TensorShape([None])] * ncs + [TensorShape([nb + 1])] * ncs
            + ctx_dense
            + [TensorShape([None, nb + 2])] * nfs + [TensorShape([None])] * nfs + [TensorShape([nb + 2])] * nfs
            + fl_dense + [TensorShape(batch)] * len(fl_dense))


registry.register_op("ParseSequenceExampleV2", shape_fn=_shapes)
registry.no_gradient("ParseSequenceExampleV2")

_CONTEXT = (VarLenFeature, FixedLenFeature)
_SEQUENCE = (VarLenFeature, FixedLenSequenceFeature)


def _parse_sequence_example_raw(serialized, debug_name, context, feature_list, name=None):
    """One ParseSequenceExampleV2 op; (context dict, feature list dict, lengths dict)."""
    for key in feature_list.dense_keys:
        if feature_list.dense_defaults.get(key) is not None:
            raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
    if context.num_features + feature_list.num_features == 0:
        raise ValueError("Must provide at least one feature key.")
    missing_empty = [feature_list.dense_defaults.get(k, 1) is None for k in feature_list.dense_keys]
    with name_scope(name, "ParseSequenceExample", [serialized]):
        serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
        defaults = context.dense_defaults_vec()
        context.check_types("context_dense_defaults", "context_sparse_types")
        feature_list.check_types("feature_list_dense_types", "feature_list_sparse_types")
        ncs, nfs, nfd = len(context.sparse_keys), len(feature_list.sparse_keys), len(feature_list.dense_keys)
        out_types = ([_dtypes.int64] * ncs + list(context.sparse_types) + [_dtypes.int64] * ncs
                     + list(context.dense_types)
                     + [_dtypes.int64] * nfs + list(feature_list.sparse_types) + [_dtypes.int64] * nfs
                     + list(feature_list.dense_types) + [_dtypes.int64] * nfd)
        with get_default_graph().name_scope(name or "ParseSequenceExampleV2") as scope:
            inputs = [serialized,
                      constant([] if debug_name is None else debug_name, dtype=_dtypes.string,
                               name="debug_name"),
                      constant(context.sparse_keys, dtype=_dtypes.string, name="context_sparse_keys"),
                      constant(context.dense_keys, dtype=_dtypes.string, name="context_dense_keys"),
                      constant([], dtype=_dtypes.string, name="context_ragged_keys"),
                      constant(feature_list.sparse_keys, dtype=_dtypes.string, name="feature_list_sparse_keys"),
                      constant(feature_list.dense_keys, dtype=_dtypes.string, name="feature_list_dense_keys"),
                      constant([], dtype=_dtypes.string, name="feature_list_ragged_keys"),
                      constant(missing_empty, dtype=_dtypes.bool,
                               name="feature_list_dense_missing_assumed_empty")] + defaults
            outs = apply_op("ParseSequenceExampleV2", inputs, out_types, scope, attrs={
                "Ncontext_sparse": ncs, "Tcontext_dense": list(context.dense_types),
                "context_sparse_types": list(context.sparse_types), "context_ragged_value_types": [],
                "context_ragged_split_types": [], "context_dense_shapes": list(context.dense_shapes),
                "Nfeature_list_sparse": nfs, "Nfeature_list_dense": nfd,
                "feature_list_dense_types": list(feature_list.dense_types),
                "feature_list_sparse_types": list(feature_list.sparse_types),
                "feature_list_ragged_value_types": [], "feature_list_ragged_split_types": [],
                "feature_list_dense_shapes": list(feature_list.dense_shapes)})
        outs = outs if isinstance(outs, list) else [outs]
        ctx_out, pos = {}, 0
        for i, key in enumerate(context.sparse_keys):
            ctx_out[key] = SparseTensor(outs[i], outs[ncs + i], outs[2 * ncs + i])
        pos = 3 * ncs
        for key in context.dense_keys:
            ctx_out[key] = outs[pos]
            pos += 1
        fl_out = {}
        for i, key in enumerate(feature_list.sparse_keys):
            fl_out[key] = SparseTensor(outs[pos + i], outs[pos + nfs + i], outs[pos + 2 * nfs + i])
        pos += 3 * nfs
        for j, key in enumerate(feature_list.dense_keys):
            fl_out[key] = outs[pos + j]
        lengths = {key: outs[pos + nfd + j] for j, key in enumerate(feature_list.dense_keys)}
        return ctx_out, fl_out, lengths


def _params(context_features, sequence_features):
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, but at least one "
                         "should have values.")
    return (ParseOpParams.from_features(context_features, _CONTEXT),
            ParseOpParams.from_features(sequence_features, _SEQUENCE))


def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    """Parses a batch (1-D string tensor) of SequenceExamples.

    Returns (context dict, feature list dict, lengths dict): context values batched as in
    `parse_example`; a FixedLenSequenceFeature as [batch, longest] + shape padded with zeros
    (its per-example lengths in the third dict); a VarLenFeature as a SparseTensor of dense
    shape [batch, longest list, longest item].
    """
    context, feature_list = _params(context_features, sequence_features)
    with name_scope(name, "ParseSequenceExample", [serialized]):
        return _parse_sequence_example_raw(serialized, example_names, context, feature_list, name)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    """Parses one SequenceExample (a scalar string tensor) into (context dict, feature list
    dict): a FixedLenSequenceFeature as [time] + shape, a VarLenFeature as a SparseTensor of dense
    shape [time, longest item]."""
    if not (context_features or sequence_features):
        raise ValueError("Both context_features and sequence_features are None, but at least one should have "
                         "values.")
    context, feature_list = _params(context_features, sequence_features)
    with name_scope(name, "ParseSingleSequenceExample", [serialized]):
        with name_scope(name, "ParseSingleExample", [serialized]):
            serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
            if serialized.shape.ndims not in (None, 0):
                raise ValueError("Input serialized must be a scalar")
        ctx, fl, _ = _parse_sequence_example_raw(serialized, example_name, context, feature_list, name)
        return ctx, fl
