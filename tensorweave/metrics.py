"""tf.metrics: streaming evaluation metrics, `accuracy` and `mean`.

Each metric keeps its running state in two local variables, "<name>/total" and "<name>/count"
(collections LOCAL_VARIABLES and METRIC_VARIABLES, so `tf.local_variables_initializer()` resets
them), and returns (value, update_op): `update_op` folds a batch in and returns the updated
value; `value` reads the current one (0 before any update, like TF's div_no_nan).

    acc, acc_update = tf.metrics.accuracy(labels, predictions)
    sess.run(tf.local_variables_initializer())
    for batch in batches:
        sess.run(acc_update, feed_dict=...)
    print(sess.run(acc))
"""

import numpy as np

from .framework import dtypes as _dtypes
from .framework.constant_op import convert_to_tensor
from .framework.graph import GraphKeys, add_to_collections, control_dependencies

__all__ = ["accuracy", "mean"]


def _metric_variable(name, dtype=_dtypes.float32):
    # A tf.Variable (named by the name scope, so a reused metric name gets "accuracy_1/total").
    from .ops import variables
    return variables.Variable(np.zeros((), dtype.as_numpy_dtype), name=name, trainable=False,
                              collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES])


def _check_same_shape(a, b):
    if not a.shape.is_compatible_with(b.shape):
        raise ValueError(f"Shapes {a.shape} and {b.shape} are incompatible")


def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of all `values` seen: total / count, updated by `update_op`."""
    from .ops import array_ops, math_ops, state_ops, variable_scope
    with variable_scope.variable_scope(name, "mean", (values, weights)):
        values = convert_to_tensor(values, name="values")
        if values.dtype.base_dtype != _dtypes.float32:
            values = math_ops.cast(values, _dtypes.float32)
        total = _metric_variable("total")
        count = _metric_variable("count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), _dtypes.float32)
        else:
            weights = convert_to_tensor(weights, name="weights")
            weights = math_ops.cast(weights, _dtypes.float32)
            if weights.shape.ndims == values.shape.ndims:
                _check_same_shape(values, weights)
            weights = math_ops.multiply(weights, array_ops.ones_like(values))
            values = math_ops.multiply(values, weights)
            num_values = math_ops.reduce_sum(weights)
        update_total = state_ops.assign_add(total, math_ops.reduce_sum(values))
        with control_dependencies([values]):
            update_count = state_ops.assign_add(count, num_values)
        value = math_ops.div_no_nan(total, math_ops.maximum(count, 0.0), name="value")
        update_op = math_ops.div_no_nan(update_total, math_ops.maximum(update_count, 0.0),
                                        name="update_op")
        if metrics_collections:
            add_to_collections(metrics_collections, value)
        if updates_collections:
            add_to_collections(updates_collections, update_op)
        return value, update_op


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
             name=None):
    """The fraction of `predictions` equal to `labels` over all batches seen (weighted by
    `weights` when given): (accuracy, update_op), variables "accuracy/total", "accuracy/count"."""
    from .ops import array_ops, math_ops
    labels = convert_to_tensor(labels, name="labels")
    predictions = convert_to_tensor(predictions, name="predictions")
    # TF's _remove_squeezable_dimensions: a trailing size-1 dimension on one side is squeezed.
    lr, pr = labels.shape.ndims, predictions.shape.ndims
    if lr is not None and pr is not None:
        if pr == lr + 1 and predictions.shape.as_list()[-1] == 1:
            predictions = array_ops.squeeze(predictions, [-1])
        elif lr == pr + 1 and labels.shape.as_list()[-1] == 1:
            labels = array_ops.squeeze(labels, [-1])
    _check_same_shape(predictions, labels)
    if labels.dtype.base_dtype != predictions.dtype.base_dtype:
        predictions = math_ops.cast(predictions, labels.dtype.base_dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), _dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")
