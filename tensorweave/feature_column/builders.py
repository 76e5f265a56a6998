"""TF1's input_layer and linear_model: the feature columns of feature_column.py applied to a
features dict (columns sorted by name, variables under "input_layer/<column>/" and
"linear_model/<column>/")."""

from ..framework.sparse_tensor import SparseTensor
from .feature_column import (BucketizedColumn, CrossedColumn, EmbeddingColumn, _DenseColumn, _FeatureColumn,
                             _Inputs, _combine, _lookup, _ops)

__all__ = ["input_layer", "linear_model"]


# -- input_layer / linear_model ----------------------------------------------------------------------

def _check_columns(feature_columns, want_dense):
    if isinstance(feature_columns, _FeatureColumn):
        feature_columns = [feature_columns]
    feature_columns = list(feature_columns)
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    for c in feature_columns:
        if not isinstance(c, _FeatureColumn):
            raise ValueError(f"Items of feature_columns must be a _FeatureColumn. Given (type {type(c)}): {c}.")
        if want_dense and not isinstance(c, _DenseColumn):
            raise ValueError(f"Items of feature_columns must be a _DenseColumn. You can wrap a categorical "
                             f"column with an embedding_column or indicator_column. Given: {c}")
        inner = getattr(c, "categorical_column", None)
        if want_dense and getattr(inner, "_is_sequence", False):
            kind = "embedding_column" if isinstance(c, EmbeddingColumn) else "indicator_column"
            raise ValueError(f"In {kind}: {c.name}. categorical_column must not be of type "
                             f"_SequenceCategoricalColumn. Suggested fix A: If you wish to use DenseFeatures, use a "
                             f"non-sequence categorical_column_with_*. Suggested fix B: If you wish to create sequence "
                             f"input, use SequenceFeatures instead of DenseFeatures. Given (type {type(inner)}): "
                             f"{inner}")
    seen = {}
    for c in sorted(feature_columns, key=lambda c: c.name):
        if c.name in seen:
            raise ValueError(f"Duplicate feature column name found for columns: {seen[c.name]} and {c}. This "
                             f"usually means that these columns refer to same base feature. Either one must be "
                             f"discarded or a duplicated but renamed item must be inserted in features dict.")
        seen[c.name] = c
    return sorted(feature_columns, key=lambda c: c.name)


def _static_batch(features, column):
    """The batch size TF's shape inference finds for a column's output: the first known leading
    dimension among the column's dense features (or a SparseTensor's constant dense_shape)."""
    from ..framework.constant_op import constant_value
    for key in _feature_keys(column):
        x = features.get(key)
        if isinstance(x, SparseTensor):
            shape = constant_value(x.dense_shape)
            if shape is not None and len(shape):
                return int(shape[0])
        elif x is not None and hasattr(x, "shape") and len(x.shape) and x.shape[0] is not None:
            return int(x.shape[0]) if not hasattr(x.shape[0], "value") else x.shape[0].value
    return None


def _feature_keys(column):
    """The feature keys a column reads (through wrapped, crossed and weighted columns)."""
    if isinstance(column, str):
        return [column]
    keys = []
    for attr in ("key", "weight_feature_key"):
        if isinstance(getattr(column, attr, None), str):
            keys.append(getattr(column, attr))
    for attr in ("source_column", "categorical_column"):
        if getattr(column, attr, None) is not None:
            keys += _feature_keys(getattr(column, attr))
    for k in getattr(column, "keys", ()) if isinstance(column, CrossedColumn) else ():
        keys += _feature_keys(k)
    return keys


def _weight_collections(weight_collections):
    """The collections of the columns' variables: the given ones plus GLOBAL_VARIABLES and
    MODEL_VARIABLES, as TF1's input_layer / linear_model add them."""
    from ..framework.graph import GraphKeys
    collections = list(weight_collections or [])
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES):
        if key not in collections:
            collections.append(key)
    return collections


def input_layer(features, feature_columns, weight_collections=None, trainable=True, cols_to_vars=None,
                cols_to_output_tensors=None):
    """The dense columns' tensors, each reshaped to [batch, num_elements], concatenated along axis
    1 in the order of the columns' names; variables under "input_layer/<column name>/"."""
    array_ops, _, variable_scope = _ops()
    columns = _check_columns(feature_columns, want_dense=True)
    weight_collections = _weight_collections(weight_collections)
    inputs = _Inputs(features)
    with variable_scope.variable_scope(None, default_name="input_layer", values=list(features.values())):
        outputs = []
        for column in columns:
            with variable_scope.variable_scope(None, default_name=column._var_scope_name) as scope:
                tensor = column._get_dense_tensor(inputs, weight_collections=weight_collections, trainable=trainable)
                out = array_ops.reshape(tensor, [-1, column._num_elements()])
                out.set_shape([_static_batch(features, column), column._num_elements()])
                outputs.append(out)
                if cols_to_vars is not None:
                    from ..framework.graph import GraphKeys, get_collection
                    cols_to_vars[column] = get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope.name + "/")
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = out
        return array_ops.concat(outputs, 1)


def linear_model(features, feature_columns, units=1, sparse_combiner="sum", weight_collections=None,
                 trainable=True, cols_to_vars=None):
    """sum over columns of (column input x "linear_model/<column>/weights") + "linear_model/bias_weights";
    all weights start at zero. Dense columns are matmuls; categorical ones look up one row per
    id and combine them by `sparse_combiner`."""
    array_ops, math_ops, variable_scope = _ops()
    from ..framework.graph import GraphKeys, get_collection
    from ..ops import nn_ops
    from ..ops.init_ops import zeros_initializer
    columns = _check_columns(feature_columns, want_dense=False)
    weight_collections = _weight_collections(weight_collections)
    inputs = _Inputs(features)
    from ..framework.graph import name_scope
    with variable_scope.variable_scope(None, default_name="linear_model", values=list(features.values())) as outer:
        pass
    # TF 2.x's linear_model is a Keras layer named after the scope: its ops land under
    # "<scope>_1/<scope>/" (the layer's call scope, uniquified), its variables under "<scope>/".
    layer_name = outer.name.rsplit("/", 1)[-1]
    with name_scope(layer_name), name_scope(layer_name), variable_scope.variable_scope(outer, auxiliary_name_scope=False):
        sums = []
        for column in columns:
            with variable_scope.variable_scope(None, default_name=column._var_scope_name) as scope:
                if isinstance(column, _DenseColumn) and not isinstance(column, BucketizedColumn):
                    tensor = array_ops.reshape(column._get_dense_tensor(inputs, weight_collections, trainable),
                                               [-1, column._num_elements()])
                    w = variable_scope.get_variable("weights", shape=[column._num_elements(), units],
                                                    initializer=zeros_initializer(), trainable=trainable,
                                                    collections=weight_collections)
                    sums.append(math_ops.matmul(tensor, w, name="weighted_sum"))
                else:
                    ids, mask = column._ids(inputs)
                    w = variable_scope.get_variable("weights", shape=[column.num_buckets, units],
                                                    initializer=zeros_initializer(), trainable=trainable,
                                                    collections=weight_collections)
                    sums.append(_combine(_lookup(w, ids), mask, sparse_combiner,
                                         weighted=hasattr(column, "weight_feature_key")))
                if cols_to_vars is not None:
                    cols_to_vars[column] = get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope.name + "/")
        no_bias = math_ops.add_n(sums, name="weighted_sum_no_bias")
        bias = variable_scope.get_variable("bias_weights", shape=[units], initializer=zeros_initializer(),
                                           trainable=trainable, collections=weight_collections)
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        return nn_ops.bias_add(no_bias, bias, name="weighted_sum")
