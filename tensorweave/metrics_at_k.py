"""tf.metrics' top-k retrieval metrics: precision_at_k / recall_at_k (and their sparse_ names),
precision_at_top_k / recall_at_top_k (given the predicted class ids), average_precision_at_k.

Labels are class ids ([batch, num_labels] dense, or a SparseTensor, or [batch] for one label per
row); a row's true positives are |top-k ∩ labels| (through tf.sets), so the counts are set
sizes. Each metric keeps float64 local counters (true_positive_at_<k>, ...) and returns
(value, update_op) as TF's metrics_impl.py does, whose structure (and so op and variable names)
this follows.
"""

from .framework import dtypes as _dtypes
from .framework.constant_op import convert_to_tensor
from .framework.graph import add_to_collections, control_dependencies, name_scope
from .framework.sparse_tensor import SparseTensor, SparseTensorValue, convert_to_tensor_or_sparse_tensor

__all__ = ["precision_at_k", "recall_at_k", "precision_at_top_k", "recall_at_top_k",
           "sparse_precision_at_k", "average_precision_at_k", "sparse_average_precision_at_k"]


def _m():
    from .ops import array_ops, control_flow_ops, math_ops, set_ops, sparse_ops, state_ops
    from .ops import nn_ops_extra as nn_ops
    return array_ops, control_flow_ops, math_ops, nn_ops, set_ops, sparse_ops, state_ops


def _metric_variable(shape, dtype, name):
    from .metrics import metric_variable
    return metric_variable(shape, dtype, name=name)


def _at_k_name(name, k=None, class_id=None):
    name = f"{name}_at_{k}" if k is not None else f"{name}_at_k"
    return name if class_id is None else f"{name}_class{class_id}"


def _maybe_expand_labels(labels, predictions):
    """labels of rank(predictions) - 1 get a trailing dimension of 1."""
    array_ops, control_flow_ops, math_ops, _, _, sparse_ops, _ = _m()
    with name_scope(None, "expand_labels", (labels, predictions)) as scope:
        labels = convert_to_tensor_or_sparse_tensor(labels)
        if isinstance(labels, SparseTensor):
            def expanded():
                return sparse_ops.sparse_reshape(
                    labels, shape=array_ops.concat((labels.dense_shape, (1,)), 0), name=scope)

            p_rank, l_rank = predictions.shape.ndims, labels.dense_shape.shape.as_list()[0]
            if p_rank is not None and l_rank is not None:
                return expanded() if p_rank == l_rank + 1 else labels
            # Our cond returns tensors, not SparseTensors: choose each component.
            pred = math_ops.equal(array_ops.rank(predictions), array_ops.size(labels.dense_shape) + 1)
            e = expanded()
            return SparseTensor(*[control_flow_ops.cond(pred, lambda a=a: a, lambda b=b: b)
                                  for a, b in zip((e.indices, e.values, e.dense_shape),
                                                  (labels.indices, labels.values, labels.dense_shape))])
        labels_rank = labels.shape.ndims
        if labels_rank is not None:
            predictions_rank = predictions.shape.ndims
            if predictions_rank is not None:
                if predictions_rank == labels_rank:
                    return labels
                if predictions_rank == labels_rank + 1:
                    return array_ops.expand_dims(labels, -1, name=scope)
                raise ValueError(f"Unexpected labels shape {labels.shape} for predictions shape "
                                 f"{predictions.shape}. Predictions rank should be the same rank "
                                 f"as labels rank or labels rank plus one .")
        return control_flow_ops.cond(
            math_ops.equal(array_ops.rank(predictions), array_ops.rank(labels) + 1),
            lambda: array_ops.expand_dims(labels, -1, name=scope), lambda: labels)


def _select_class_id(ids, selected_id):
    array_ops, _, math_ops, _, set_ops, sparse_ops, _ = _m()
    ids = convert_to_tensor_or_sparse_tensor(ids)
    if isinstance(ids, SparseTensor):
        return sparse_ops.sparse_retain(ids, math_ops.equal(ids.values, selected_id))
    ids_shape = array_ops.shape(ids, out_type=_dtypes.int64)
    # math_ops.reduced_shape(ids_shape, [last axis]): the shape with its last dimension 1.
    filled_shape = array_ops.concat([ids_shape[:-1], array_ops.ones([1], _dtypes.int64)], 0)
    filled = array_ops.fill(filled_shape, math_ops.cast(selected_id, _dtypes.int64))
    result = set_ops.set_intersection(filled, ids)
    return SparseTensor(indices=result.indices, values=result.values, dense_shape=ids_shape)


def _maybe_select_class_id(labels, predictions_idx, selected_id=None):
    if selected_id is None:
        return labels, predictions_idx
    return _select_class_id(labels, selected_id), _select_class_id(predictions_idx, selected_id)


def _weighted(count, weights):
    _, _, math_ops, _, _, _, _ = _m()
    count = math_ops.cast(count, _dtypes.float64)
    if weights is not None:
        # TF's: the weights must broadcast to the counts (checked statically, else by an Assert)
        from .ops.weights_broadcast_ops import assert_broadcastable
        with control_dependencies((assert_broadcastable(weights, count),)):
            weights = math_ops.cast(weights, _dtypes.float64)
            count = math_ops.multiply(count, weights)
    return count


def _sparse_true_positive_at_k(labels, predictions_idx, class_id=None, weights=None, name=None):
    set_ops = _m()[4]
    with name_scope(name, "true_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        tp = set_ops.set_size(set_ops.set_intersection(predictions_idx, labels))
        return _weighted(tp, weights)


def _sparse_false_negative_at_k(labels, predictions_idx, class_id=None, weights=None):
    set_ops = _m()[4]
    with name_scope(None, "false_negatives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        fn = set_ops.set_size(set_ops.set_difference(predictions_idx, labels, aminusb=False))
        return _weighted(fn, weights)


def _sparse_false_positive_at_k(labels, predictions_idx, class_id=None, weights=None):
    set_ops = _m()[4]
    with name_scope(None, "false_positives", (predictions_idx, labels, weights)):
        labels, predictions_idx = _maybe_select_class_id(labels, predictions_idx, class_id)
        fp = set_ops.set_size(set_ops.set_difference(predictions_idx, labels, aminusb=True))
        return _weighted(fp, weights)


def _streaming_count(kind, count_fn, labels, predictions_idx, k, class_id, weights):
    _, _, math_ops, _, _, _, state_ops = _m()
    with name_scope(None, _at_k_name(kind, k, class_id=class_id),
                    (predictions_idx, labels, weights)) as scope:
        c = count_fn(predictions_idx=predictions_idx, labels=labels, class_id=class_id,
                     weights=weights)
        batch_total = math_ops.cast(math_ops.reduce_sum(c), _dtypes.float64)
        var = _metric_variable([], _dtypes.float64, name=scope)
        return var, state_ops.assign_add(var, batch_total, name="update")


def _ratio_at_top_k(kind, other_kind, other_fn, labels, predictions_idx, k, class_id, weights,
                    metrics_collections, updates_collections, name):
    _, _, math_ops, _, _, _, _ = _m()
    with name_scope(name, _at_k_name(kind, k, class_id=class_id),
                    (predictions_idx, labels, weights)) as scope:
        labels = _maybe_expand_labels(labels, predictions_idx)
        top_k_idx = math_ops.cast(predictions_idx, _dtypes.int64)
        tp, tp_update = _streaming_count("true_positive", _sparse_true_positive_at_k, labels,
                                         top_k_idx, k, class_id, weights)
        ot, ot_update = _streaming_count(other_kind, other_fn, labels, top_k_idx, k, class_id,
                                         weights)
        metric = math_ops.divide(tp, math_ops.add(tp, ot), name=scope)
        if metrics_collections:
            add_to_collections(metrics_collections, metric)
        update = math_ops.divide(tp_update, math_ops.add(tp_update, ot_update), name="update")
        if updates_collections:
            add_to_collections(updates_collections, update)
        return metric, update


def recall_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                    metrics_collections=None, updates_collections=None, name=None):
    """Recall of the given top-k class ids: tp / (tp + fn), streamed over batches."""
    return _ratio_at_top_k("recall", "false_negative", _sparse_false_negative_at_k, labels,
                           predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


def precision_at_top_k(labels, predictions_idx, k=None, class_id=None, weights=None,
                       metrics_collections=None, updates_collections=None, name=None):
    """Precision of the given top-k class ids: tp / (tp + fp), streamed over batches."""
    return _ratio_at_top_k("precision", "false_positive", _sparse_false_positive_at_k, labels,
                           predictions_idx, k, class_id, weights, metrics_collections,
                           updates_collections, name)


def recall_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                updates_collections=None, name=None):
    """Recall@k: the fraction of labels found among the k highest-scoring classes."""
    nn_ops = _m()[3]
    with name_scope(name, _at_k_name("recall", k, class_id=class_id),
                    (predictions, labels, weights)) as scope:
        _, top_k_idx = nn_ops.top_k(predictions, k)
        return recall_at_top_k(labels=labels, predictions_idx=top_k_idx, k=k, class_id=class_id,
                               weights=weights, metrics_collections=metrics_collections,
                               updates_collections=updates_collections, name=scope)


def precision_at_k(labels, predictions, k, class_id=None, weights=None, metrics_collections=None,
                   updates_collections=None, name=None):
    """Precision@k: the fraction of the k highest-scoring classes that are labels."""
    nn_ops = _m()[3]
    with name_scope(name, _at_k_name("precision", k, class_id=class_id),
                    (predictions, labels, weights)) as scope:
        _, top_k_idx = nn_ops.top_k(predictions, k)
        return precision_at_top_k(labels=labels, predictions_idx=top_k_idx, k=k,
                                  class_id=class_id, weights=weights,
                                  metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=scope)


def sparse_precision_at_k(labels, predictions, k, class_id=None, weights=None,
                          metrics_collections=None, updates_collections=None, name=None):
    """The old name of precision_at_k."""
    return precision_at_k(labels=labels, predictions=predictions, k=k, class_id=class_id,
                          weights=weights, metrics_collections=metrics_collections,
                          updates_collections=updates_collections, name=name)


def _expand_and_tile(tensor, multiple, dim=0, name=None):
    array_ops, _, _, _, _, sparse_ops, _ = _m()
    if multiple < 1:
        raise ValueError(f"Invalid argument multiple={multiple} for expand_and_tile  call. "
                         f"`multiple` must be an integer > 0")
    with name_scope(name, "expand_and_tile", (tensor, multiple, dim)) as scope:
        tensor = convert_to_tensor_or_sparse_tensor(tensor)
        if isinstance(tensor, SparseTensor):
            if dim < 0:
                expand_dims = array_ops.reshape(array_ops.size(tensor.dense_shape) + dim, [1])
            else:
                expand_dims = [dim]
            expanded_shape = array_ops.concat(
                (array_ops.slice(tensor.dense_shape, [0], expand_dims), [1],
                 array_ops.slice(tensor.dense_shape, expand_dims, [-1])), 0, name="expanded_shape")
            expanded = sparse_ops.sparse_reshape(tensor, shape=expanded_shape, name="expand")
            if multiple == 1:
                return expanded
            return sparse_ops.sparse_concat(dim - 1 if dim < 0 else dim, [expanded] * multiple,
                                            name=scope)
        expanded = array_ops.expand_dims(tensor, dim if dim >= 0 else dim - 1, name="expand")
        if multiple == 1:
            return expanded
        ones = array_ops.ones_like(array_ops.shape(tensor))
        tile_multiples = array_ops.concat((ones[:dim], (multiple,), ones[dim:]), 0, name="multiples")
        return array_ops.tile(expanded, tile_multiples, name=scope)


def _num_relevant(labels, k):
    array_ops, _, math_ops, _, set_ops, _, _ = _m()
    with name_scope(None, "num_relevant", (labels,)) as scope:
        labels = convert_to_tensor_or_sparse_tensor(labels)
        if isinstance(labels, SparseTensor):
            return math_ops.minimum(set_ops.set_size(labels), k, name=scope)
        num_labels = math_ops.reduce_sum(array_ops.where_v2(
            math_ops.greater_equal(labels, 0), array_ops.ones_like(labels),
            array_ops.zeros_like(labels)), axis=-1)
        return math_ops.minimum(num_labels, k, name=scope)


def _sparse_average_precision_at_top_k(labels, predictions_idx):
    array_ops, _, math_ops, _, _, _, _ = _m()
    with name_scope(None, "average_precision", (predictions_idx, labels)) as scope:
        predictions_idx = math_ops.cast(predictions_idx, _dtypes.int64, name="predictions_idx")
        if predictions_idx.shape.ndims == 0:
            raise ValueError("The rank of `predictions_idx` must be at least 1.")
        k = predictions_idx.shape.as_list()[-1]
        if k is None:
            raise ValueError("The last dimension of predictions_idx must be set. Currently, it "
                             "is None.")
        labels = _maybe_expand_labels(labels, predictions_idx)
        predictions_idx_per_k = array_ops.expand_dims(predictions_idx, -1,
                                                      name="predictions_idx_per_k")
        labels_per_k = _expand_and_tile(labels, multiple=k, dim=-1, name="labels_per_k")
        relevant_per_k = _sparse_true_positive_at_k(labels_per_k, predictions_idx_per_k,
                                                    name="relevant_per_k")
        tp_per_k = math_ops.cumsum(relevant_per_k, axis=-1, name="tp_per_k")
        retrieved_per_k = math_ops.cumsum(array_ops.ones_like(relevant_per_k), axis=-1,
                                          name="retrieved_per_k")
        precision_per_k = math_ops.divide(math_ops.cast(tp_per_k, _dtypes.float64),
                                          math_ops.cast(retrieved_per_k, _dtypes.float64),
                                          name="precision_per_k")
        relevant_precision_per_k = math_ops.multiply(
            precision_per_k, math_ops.cast(relevant_per_k, _dtypes.float64),
            name="relevant_precision_per_k")
        precision_sum = math_ops.reduce_sum(relevant_precision_per_k, axis=(-1,),
                                            name="precision_sum")
        num_relevant_items = math_ops.cast(_num_relevant(labels, k), _dtypes.float64)
        return math_ops.divide(precision_sum, num_relevant_items, name=scope)


def _streaming_sparse_average_precision_at_top_k(labels, predictions_idx, weights=None,
                                                 metrics_collections=None,
                                                 updates_collections=None, name=None):
    array_ops, _, math_ops, _, _, _, state_ops = _m()
    with name_scope(name, "average_precision_at_top_k", (predictions_idx, labels, weights)) as scope:
        average_precision = _sparse_average_precision_at_top_k(predictions_idx=predictions_idx,
                                                               labels=labels)
        if weights is not None:
            from .ops.weights_broadcast_ops import broadcast_weights
            weights = broadcast_weights(math_ops.cast(weights, _dtypes.float64), average_precision)
            average_precision = math_ops.multiply(average_precision, weights)
        with name_scope(None, "max", (average_precision,)) as max_scope:
            max_var = _metric_variable([], _dtypes.float64, name=max_scope)
            if weights is None:
                batch_max = math_ops.cast(array_ops.size(average_precision, name="batch_max"),
                                          _dtypes.float64)
            else:
                batch_max = math_ops.reduce_sum(weights, name="batch_max")
            max_update = state_ops.assign_add(max_var, batch_max, name="update")
        with name_scope(None, "total", (average_precision,)) as total_scope:
            total_var = _metric_variable([], _dtypes.float64, name=total_scope)
            batch_total = math_ops.reduce_sum(average_precision, name="batch_total")
            total_update = state_ops.assign_add(total_var, batch_total, name="update")
        mean_average_precision = math_ops.div_no_nan(total_var, max_var, name="mean")
        if metrics_collections:
            add_to_collections(metrics_collections, mean_average_precision)
        update = math_ops.div_no_nan(total_update, max_update, name=scope)
        if updates_collections:
            add_to_collections(updates_collections, update)
        return mean_average_precision, update


def _clean_out_of_range_indices(labels, num_classes):
    """Labels >= num_classes become -1 (they can never be retrieved)."""
    array_ops, control_flow_ops, math_ops, _, _, _, _ = _m()
    is_sparse = isinstance(labels, (SparseTensor, SparseTensorValue))

    def _clean(values):
        return array_ops.where_v2(math_ops.greater_equal(values, num_classes),
                                  -1 * array_ops.ones_like(values), values)

    values = convert_to_tensor(labels.values if is_sparse else labels)
    max_labels = math_ops.reduce_max(values)
    values = control_flow_ops.cond(math_ops.greater_equal(max_labels, num_classes),
                                   lambda: _clean(values), lambda: values)
    if is_sparse:  # (our cond returns tensors: clean the values, keep the structure)
        return SparseTensor(indices=labels.indices, values=values, dense_shape=labels.dense_shape)
    return values


def average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                           updates_collections=None, name=None):
    """Mean over rows of average precision@k: sum over the top k of precision@i at each relevant
    position i, divided by min(k, number of labels)."""
    array_ops, _, math_ops, nn_ops, _, _, _ = _m()
    if k < 1:
        raise ValueError(f"Invalid k={k}. `k` should be >= 1.")
    with name_scope(name, _at_k_name("average_precision", k), (predictions, labels, weights)) as scope:
        _, predictions_idx = nn_ops.top_k(predictions, k)
        labels = _clean_out_of_range_indices(
            labels, math_ops.cast(array_ops.shape(predictions)[-1], _dtypes.int64))
        return _streaming_sparse_average_precision_at_top_k(
            labels=labels, predictions_idx=predictions_idx, weights=weights,
            metrics_collections=metrics_collections, updates_collections=updates_collections,
            name=scope)


def sparse_average_precision_at_k(labels, predictions, k, weights=None, metrics_collections=None,
                                  updates_collections=None, name=None):
    """The old name of average_precision_at_k."""
    return average_precision_at_k(labels=labels, predictions=predictions, k=k, weights=weights,
                                  metrics_collections=metrics_collections,
                                  updates_collections=updates_collections, name=name)

