"""tf.metrics: streaming evaluation metrics.

Each metric keeps its running state in local variables (collections LOCAL_VARIABLES and
METRIC_VARIABLES, so `tf.local_variables_initializer()` resets them) under a variable scope named
after the metric ("accuracy/total", "accuracy/count", "auc/true_positives", ...), and returns
(value, update_op): `update_op` folds a batch in and returns the updated value; `value` reads the
current one (0 where a ratio has nothing to divide yet, like TF).

    acc, acc_update = tf.metrics.accuracy(labels, predictions)
    sess.run(tf.local_variables_initializer())
    for batch in batches:
        sess.run(acc_update, feed_dict=...)
    print(sess.run(acc))

Names, variables, dtypes and the order of floating-point operations follow TensorFlow's
metrics_impl, so values agree with TF's to the last bit where the kernels do.
"""

from .framework import dtypes as _dtypes
from .framework.constant_op import convert_to_tensor
from .framework.graph import GraphKeys, add_to_collections, control_dependencies

__all__ = ["accuracy", "mean", "mean_tensor", "auc", "precision", "recall", "true_positives",
           "false_positives", "true_negatives", "false_negatives", "true_positives_at_thresholds",
           "false_positives_at_thresholds", "true_negatives_at_thresholds",
           "false_negatives_at_thresholds", "precision_at_thresholds", "recall_at_thresholds",
           "mean_absolute_error", "mean_squared_error", "root_mean_squared_error",
           "mean_relative_error", "mean_cosine_distance", "percentage_below", "mean_iou",
           "mean_per_class_accuracy", "sensitivity_at_specificity", "specificity_at_sensitivity"]


def _ops():
    from .ops import array_ops, math_ops, state_ops, variable_scope
    return array_ops, math_ops, state_ops, variable_scope


def metric_variable(shape, dtype, validate_shape=True, name=None):
    """A zero-initialized local variable in LOCAL_VARIABLES and METRIC_VARIABLES."""
    from .ops import array_ops, variables
    return variables.Variable(lambda: array_ops.zeros(shape, dtype), trainable=False,
                              collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES],
                              validate_shape=validate_shape, name=name)


def _shape_str(s):
    if s.ndims is None:
        return "<unknown>"
    d = s.as_list()
    return "(" + ", ".join("?" if x is None else str(x) for x in d) + ("," if len(d) == 1 else "") + ")"


def _assert_compatible(a, b):
    if not a.shape.is_compatible_with(b.shape):
        raise ValueError(f"Shapes {_shape_str(a.shape)} and {_shape_str(b.shape)} are incompatible")


def _squeeze_pair(labels, predictions):
    """confusion_matrix.remove_squeezable_dimensions: drops a trailing size-1 dimension of the
    one with one more dimension than the other."""
    from .ops.math_special_ops import remove_squeezable_dimensions
    return remove_squeezable_dimensions(labels, predictions)


def _remove_squeezable_dimensions(predictions, labels, weights):
    array_ops = _ops()[0]
    predictions = convert_to_tensor(predictions)
    if labels is not None:
        labels, predictions = _squeeze_pair(labels, predictions)
        _assert_compatible(predictions, labels)
    if weights is None:
        return predictions, labels, None
    weights = convert_to_tensor(weights)
    wr, pr = weights.shape.ndims, predictions.shape.ndims
    if wr == 0:
        return predictions, labels, weights
    if pr is not None and wr is not None:
        if wr - pr == 1:
            weights = array_ops.squeeze(weights, [-1])
        elif pr - wr == 1:
            weights = array_ops.expand_dims(weights, [-1])
        return predictions, labels, weights
    # TF's dynamic-rank path: a cond squeezes or expands the weights' last dimension at run time
    from .ops import control_flow_ops
    math_ops = _ops()[1]
    w = weights
    weights_rank = array_ops.rank(w)
    rank_diff = weights_rank - array_ops.rank(predictions)

    def maybe_expand():
        return control_flow_ops.cond(math_ops.equal(rank_diff, -1), lambda: array_ops.expand_dims(w, [-1]),
                                     lambda: w)

    if wr is not None and not w.shape.dims[-1].is_compatible_with(1):
        maybe_squeeze = lambda: w  # noqa: E731  (a squeeze that would fail statically)
    else:
        maybe_squeeze = lambda: array_ops.squeeze(w, [-1])  # noqa: E731
    weights = control_flow_ops.cond(
        math_ops.equal(weights_rank, 0), lambda: w,
        lambda: control_flow_ops.cond(math_ops.equal(rank_diff, 1), maybe_squeeze, maybe_expand))
    return predictions, labels, weights


def _broadcast_weights(weights, values):
    """weights_broadcast_ops.broadcast_weights: `weights` broadcast to the shape of `values`,
    statically checked at build, by an Assert at run time otherwise."""
    from .ops.weights_broadcast_ops import broadcast_weights
    return broadcast_weights(weights, values)


def _deps_on(values):
    # TF orders the count update after `values` (a fed placeholder counts as run).
    return [values]


def _collect(metrics_collections, updates_collections, value, update_op):
    if metrics_collections:
        add_to_collections(metrics_collections, value)
    if updates_collections:
        add_to_collections(updates_collections, update_op)
    return value, update_op


# -- means ------------------------------------------------------------------------------------

def mean(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The (weighted) mean of all `values` seen: total / count, updated by `update_op`."""
    array_ops, math_ops, state_ops, variable_scope = _ops()
    with variable_scope.variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, _dtypes.float32)
        total = metric_variable([], _dtypes.float32, name="total")
        count = metric_variable([], _dtypes.float32, name="count")
        if weights is None:
            num_values = math_ops.cast(array_ops.size(values), _dtypes.float32)
        else:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(math_ops.cast(weights, _dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.reduce_sum(weights)
        update_total = state_ops.assign_add(total, math_ops.reduce_sum(values))
        with control_dependencies(_deps_on(values)):
            update_count = state_ops.assign_add(count, num_values)
        value = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        update_op = math_ops.div_no_nan(update_total, math_ops.maximum(update_count, 0),
                                        name="update_op")
        return _collect(metrics_collections, updates_collections, value, update_op)


def mean_tensor(values, weights=None, metrics_collections=None, updates_collections=None, name=None):
    """The element-wise (weighted) mean of `values` over all batches seen."""
    array_ops, math_ops, state_ops, variable_scope = _ops()
    with variable_scope.variable_scope(name, "mean", (values, weights)):
        values = math_ops.cast(values, _dtypes.float32)
        total = metric_variable(values.shape, _dtypes.float32, name="total_tensor")
        count = metric_variable(values.shape, _dtypes.float32, name="count_tensor")
        num_values = array_ops.ones_like(values)
        if weights is not None:
            values, _, weights = _remove_squeezable_dimensions(values, None, weights)
            weights = _broadcast_weights(math_ops.cast(weights, _dtypes.float32), values)
            values = math_ops.multiply(values, weights)
            num_values = math_ops.multiply(num_values, weights)
        update_total = state_ops.assign_add(total, values)
        with control_dependencies(_deps_on(values)):
            update_count = state_ops.assign_add(count, num_values)
        value = math_ops.div_no_nan(total, math_ops.maximum(count, 0), name="value")
        update_op = math_ops.div_no_nan(update_total, math_ops.maximum(update_count, 0),
                                        name="update_op")
        return _collect(metrics_collections, updates_collections, value, update_op)


def accuracy(labels, predictions, weights=None, metrics_collections=None, updates_collections=None,
             name=None):
    """The fraction of `predictions` equal to `labels` over all batches seen (weighted by
    `weights` when given): (accuracy, update_op), variables "accuracy/total", "accuracy/count"."""
    math_ops = _ops()[1]
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    if labels.dtype != predictions.dtype:
        predictions = math_ops.cast(predictions, labels.dtype)
    is_correct = math_ops.cast(math_ops.equal(predictions, labels), _dtypes.float32)
    return mean(is_correct, weights, metrics_collections, updates_collections, name or "accuracy")


def mean_absolute_error(labels, predictions, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The mean of |predictions - labels|."""
    math_ops = _ops()[1]
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    errors = math_ops.abs(predictions - labels)
    return mean(errors, weights, metrics_collections, updates_collections,
                name or "mean_absolute_error")


def mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                       updates_collections=None, name=None):
    """The mean of (labels - predictions)^2."""
    math_ops = _ops()[1]
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    errors = math_ops.squared_difference(labels, predictions)
    return mean(errors, weights, metrics_collections, updates_collections,
                name or "mean_squared_error")


def root_mean_squared_error(labels, predictions, weights=None, metrics_collections=None,
                            updates_collections=None, name=None):
    """sqrt of mean_squared_error (variables under "root_mean_squared_error/")."""
    math_ops = _ops()[1]
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    mse, update_mse = mean_squared_error(labels, predictions, weights, None, None,
                                         name or "root_mean_squared_error")
    return _collect(metrics_collections, updates_collections, math_ops.sqrt(mse),
                    math_ops.sqrt(update_mse))


def mean_relative_error(labels, predictions, normalizer, weights=None, metrics_collections=None,
                        updates_collections=None, name=None):
    """The mean of |labels - predictions| / normalizer (0 where normalizer is 0)."""
    array_ops, math_ops = _ops()[:2]
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    normalizer, predictions = _squeeze_pair(normalizer, predictions)
    _assert_compatible(predictions, normalizer)
    errors = array_ops.where(math_ops.equal(normalizer, 0.0), array_ops.zeros_like(labels),
                             math_ops.divide(math_ops.abs(labels - predictions), normalizer))
    return mean(errors, weights, metrics_collections, updates_collections,
                name or "mean_relative_error")


def mean_cosine_distance(labels, predictions, dim, weights=None, metrics_collections=None,
                         updates_collections=None, name=None):
    """1 - mean of the dot products of (unit-normalized) `labels` and `predictions` along `dim`."""
    math_ops = _ops()[1]
    predictions, labels, weights = _remove_squeezable_dimensions(predictions, labels, weights)
    radial = math_ops.reduce_sum(math_ops.multiply(predictions, labels), axis=[dim], keepdims=True)
    mean_distance, update_op = mean(radial, weights, None, None, name or "mean_cosine_distance")
    return _collect(metrics_collections, updates_collections,
                    math_ops.subtract(1.0, mean_distance), math_ops.subtract(1.0, update_op))


def percentage_below(values, threshold, weights=None, metrics_collections=None,
                     updates_collections=None, name=None):
    """The fraction of `values` below `threshold`."""
    math_ops = _ops()[1]
    below = math_ops.cast(math_ops.less(values, threshold), _dtypes.float32)
    return mean(below, weights, metrics_collections, updates_collections,
                name or "percentage_below_threshold")


# -- counts -----------------------------------------------------------------------------------

def _count_condition(values, weights=None, metrics_collections=None, updates_collections=None):
    array_ops, math_ops, state_ops, _ = _ops()
    from .ops import check_ops
    check_ops.assert_type(values, _dtypes.bool)   # (TF's: a "assert_type/..." NoOp)
    count = metric_variable([], _dtypes.float32, name="count")
    values = math_ops.cast(values, _dtypes.float32)
    if weights is not None:
        # TF's: the product depends on an assert_rank_in(weights, (0, rank(values))); ours takes
        # the values' static rank (check_extra_ops.assert_rank_in takes no rank tensor)
        from .ops.check_extra_ops import assert_rank_in
        deps = () if values.shape.ndims is None else (assert_rank_in(weights, (0, values.shape.ndims)),)
        with control_dependencies(deps):
            weights = math_ops.cast(weights, _dtypes.float32)
            values = math_ops.multiply(values, weights)
    value = array_ops.identity(count)
    update_op = state_ops.assign_add(count, math_ops.reduce_sum(values))
    return _collect(metrics_collections, updates_collections, value, update_op)


def _counter(kind, label_value, pred_value):
    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        math_ops, variable_scope = _ops()[1], _ops()[3]
        with variable_scope.variable_scope(name, kind, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable_dimensions(
                math_ops.cast(predictions, _dtypes.bool), math_ops.cast(labels, _dtypes.bool),
                weights)
            cond = math_ops.logical_and(math_ops.equal(labels, label_value),
                                        math_ops.equal(predictions, pred_value))
            return _count_condition(cond, weights, metrics_collections, updates_collections)
    metric.__name__ = kind
    metric.__doc__ = (f"The (weighted) number of {kind.replace('_', ' ')}: labels == {label_value} "
                      f"and predictions == {pred_value}, both cast to bool.")
    return metric


true_positives = _counter("true_positives", True, True)
false_positives = _counter("false_positives", False, True)
true_negatives = _counter("true_negatives", False, False)
false_negatives = _counter("false_negatives", True, False)


def _ratio(kind, other):
    other_fn = false_positives if other == "fp" else false_negatives

    def metric(labels, predictions, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        array_ops, math_ops, _, variable_scope = _ops()
        with variable_scope.variable_scope(name, kind, (predictions, labels, weights)):
            predictions, labels, weights = _remove_squeezable_dimensions(
                math_ops.cast(predictions, _dtypes.bool), math_ops.cast(labels, _dtypes.bool),
                weights)
            tp, tp_update = true_positives(labels, predictions, weights)
            o, o_update = other_fn(labels, predictions, weights)

            def compute(tp, o, name):
                return array_ops.where(math_ops.greater(tp + o, 0), math_ops.divide(tp, tp + o),
                                       0, name)
            return _collect(metrics_collections, updates_collections, compute(tp, o, "value"),
                            compute(tp_update, o_update, "update_op"))
    metric.__name__ = kind
    metric.__doc__ = (f"Streaming {kind}: true_positives / (true_positives + "
                      f"{'false_positives' if other == 'fp' else 'false_negatives'}), 0 before any.")
    return metric


precision = _ratio("precision", "fp")
recall = _ratio("recall", "fn")


# -- thresholded counts and curves -----------------------------------------------------------

def _confusion_matrix_at_thresholds(labels, predictions, thresholds, weights=None, includes=None):
    """Per-threshold counts (prediction > threshold counts as positive) in variables
    "true_positives", "false_negatives", "true_negatives", "false_positives" (float32,
    [len(thresholds)]): returns ({key: variable}, {key: update op})."""
    array_ops, math_ops, state_ops, _ = _ops()
    from .ops import check_ops
    all_includes = ("tp", "fn", "tn", "fp")
    if includes is None:
        includes = all_includes
    for include in includes:
        if include not in all_includes:
            raise ValueError(f"Invalid key: {include}")
    if not hasattr(predictions, "dtype"):
        predictions = convert_to_tensor(predictions)
    # (A NumPy array is converted by each op that takes it, as TF does: "auc/assert_greater_equal/x",
    # "auc/assert_less_equal/x", "auc/Cast_2/x".)
    with control_dependencies([
            check_ops.assert_greater_equal(predictions, math_ops.cast(0.0, dtype=predictions.dtype),
                                           message="predictions must be in [0, 1]"),
            check_ops.assert_less_equal(predictions, math_ops.cast(1.0, dtype=predictions.dtype),
                                        message="predictions must be in [0, 1]")]):
        predictions, labels, weights = _remove_squeezable_dimensions(
            math_ops.cast(predictions, _dtypes.float32), math_ops.cast(labels, _dtypes.bool),
            weights)
    num_thresholds = len(thresholds)
    predictions_2d = array_ops.reshape(predictions, [-1, 1])
    labels_2d = array_ops.reshape(math_ops.cast(labels, _dtypes.bool), [1, -1])
    num_predictions = predictions_2d.shape.as_list()[0]
    if num_predictions is None:
        num_predictions = array_ops.shape(predictions_2d)[0]
    thresh_tiled = array_ops.tile(
        array_ops.expand_dims(array_ops.constant([float(t) for t in thresholds],
                                                 dtype=_dtypes.float32), [1]),
        array_ops.stack([1, num_predictions]))
    pred_is_pos = math_ops.greater(
        array_ops.tile(array_ops.transpose(predictions_2d), [num_thresholds, 1]), thresh_tiled)
    pred_is_neg = math_ops.logical_not(pred_is_pos) if ("fn" in includes or "tn" in includes) \
        else None
    label_is_pos = array_ops.tile(labels_2d, [num_thresholds, 1])
    label_is_neg = math_ops.logical_not(label_is_pos) if ("fp" in includes or "tn" in includes) \
        else None
    weights_tiled = None
    if weights is not None:
        weights = _broadcast_weights(math_ops.cast(weights, _dtypes.float32), predictions)
        weights_tiled = array_ops.tile(array_ops.reshape(weights, [1, -1]), [num_thresholds, 1])
        _assert_compatible(thresh_tiled, weights_tiled)
    values, update_ops = {}, {}
    spec = {"tp": ("true_positives", lambda: (label_is_pos, pred_is_pos)),
            "fn": ("false_negatives", lambda: (label_is_pos, pred_is_neg)),
            "tn": ("true_negatives", lambda: (label_is_neg, pred_is_neg)),
            "fp": ("false_positives", lambda: (label_is_neg, pred_is_pos))}
    for key in all_includes:
        if key not in includes:
            continue
        var_name, parts = spec[key]
        var = metric_variable([num_thresholds], _dtypes.float32, name=var_name)
        is_cond = math_ops.cast(math_ops.logical_and(*parts()), _dtypes.float32)
        if weights_tiled is not None:
            is_cond *= weights_tiled
        update_ops[key] = state_ops.assign_add(var, math_ops.reduce_sum(is_cond, 1))
        values[key] = var
    return values, update_ops


def _at_thresholds(kind, key):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        array_ops, variable_scope = _ops()[0], _ops()[3]
        with variable_scope.variable_scope(name, kind, (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                                 weights=weights, includes=(key,))
            return _collect(metrics_collections, updates_collections,
                            array_ops.identity(values[key]), update_ops[key])
    metric.__name__ = kind + "_at_thresholds"
    metric.__doc__ = f"The (weighted) number of {kind.replace('_', ' ')} at each threshold."
    return metric


true_positives_at_thresholds = _at_thresholds("true_positives", "tp")
false_positives_at_thresholds = _at_thresholds("false_positives", "fp")
true_negatives_at_thresholds = _at_thresholds("true_negatives", "tn")
false_negatives_at_thresholds = _at_thresholds("false_negatives", "fn")


def _ratio_at_thresholds(kind, other):
    def metric(labels, predictions, thresholds, weights=None, metrics_collections=None,
               updates_collections=None, name=None):
        math_ops, variable_scope = _ops()[1], _ops()[3]
        with variable_scope.variable_scope(name, kind + "_at_thresholds",
                                           (predictions, labels, weights)):
            values, update_ops = _confusion_matrix_at_thresholds(
                labels, predictions, thresholds, weights, includes=("tp", other))

            def compute(tp, o, name):
                return math_ops.divide(tp, 1e-7 + tp + o, name=f"{kind}_{name}")
            return _collect(metrics_collections, updates_collections,
                            compute(values["tp"], values[other], "value"),
                            compute(update_ops["tp"], update_ops[other], "update_op"))
    metric.__name__ = kind + "_at_thresholds"
    metric.__doc__ = f"Streaming {kind} at each threshold (prediction > threshold is positive)."
    return metric


precision_at_thresholds = _ratio_at_thresholds("precision", "fp")
recall_at_thresholds = _ratio_at_thresholds("recall", "fn")


def _even_thresholds(num_thresholds):
    return [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]


def auc(labels, predictions, weights=None, num_thresholds=200, metrics_collections=None,
        updates_collections=None, curve="ROC", name=None, summation_method="trapezoidal",
        thresholds=None):
    """Approximate area under the ROC or PR curve from counts at `num_thresholds` thresholds
    (Riemann sum: 'trapezoidal', 'careful_interpolation' (PR), 'minoring', 'majoring')."""
    array_ops, math_ops, _, variable_scope = _ops()
    with variable_scope.variable_scope(name, "auc", (labels, predictions, weights)):
        if curve != "ROC" and curve != "PR":
            raise ValueError(f"Curve must be either ROC or PR. Curve {curve} is unknown.")
        kepsilon = 1e-7
        if thresholds is not None:
            thresholds = sorted(thresholds)
            num_thresholds = len(thresholds) + 2
        else:
            thresholds = _even_thresholds(num_thresholds)
        thresholds = [0.0 - kepsilon] + list(thresholds) + [1.0 + kepsilon]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)
        epsilon = 1.0e-6
        n = num_thresholds

        def interpolate_pr_auc(tp, fp, fn):
            dtp = tp[:n - 1] - tp[1:]
            p = tp + fp
            prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(p[:n - 1] - p[1:], 0),
                                             name="prec_slope")
            intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
            safe_p_ratio = array_ops.where(
                math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
                math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0),
                                    name="recall_relative_ratio"),
                array_ops.ones_like(p[1:]))
            return math_ops.reduce_sum(
                math_ops.div_no_nan(prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
                                    math_ops.maximum(tp[1:] + fn[1:], 0), name="pr_auc_increment"),
                name="interpolate_pr_auc")

        def compute_auc(tp, fn, tn, fp, name):
            if curve == "PR" and summation_method == "careful_interpolation":
                return interpolate_pr_auc(tp, fp, fn)
            rec = math_ops.divide(tp + epsilon, tp + fn + epsilon)
            if curve == "ROC":
                x, y = math_ops.divide(fp, fp + tn + epsilon), rec
            else:
                x, y = rec, math_ops.divide(tp + epsilon, tp + fp + epsilon)
            if summation_method in ("trapezoidal", "careful_interpolation"):
                h = (y[:n - 1] + y[1:]) / 2.
            elif summation_method == "minoring":
                h = math_ops.minimum(y[:n - 1], y[1:])
            elif summation_method == "majoring":
                h = math_ops.maximum(y[:n - 1], y[1:])
            else:
                raise ValueError(f"Invalid summation_method: {summation_method} summation_method "
                                 "should be 'trapezoidal', 'careful_interpolation', 'minoring', "
                                 "or 'majoring'.")
            return math_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], h), name=name)

        value = compute_auc(values["tp"], values["fn"], values["tn"], values["fp"], "value")
        update_op = compute_auc(update_ops["tp"], update_ops["fn"], update_ops["tn"],
                                update_ops["fp"], "update_op")
        return _collect(metrics_collections, updates_collections, value, update_op)


def sensitivity_at_specificity(labels, predictions, specificity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The recall at the threshold whose specificity is closest to `specificity`."""
    if specificity < 0 or specificity > 1:
        raise ValueError("`specificity` must be in the range [0, 1]. Currently, "
                         f"`specificity` got {specificity}.")
    math_ops, variable_scope = _ops()[1], _ops()[3]
    with variable_scope.variable_scope(name, "sensitivity_at_specificity",
                                       (predictions, labels, weights)):
        kepsilon = 1e-7
        thresholds = [0.0 - kepsilon] + _even_thresholds(num_thresholds) + [1.0 + kepsilon]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)

        def compute(tp, tn, fp, fn, name):
            specificities = math_ops.divide(tn, tn + fp + kepsilon)
            idx = math_ops.argmin(math_ops.abs(specificities - specificity), 0)
            idx = math_ops.cast(idx, _dtypes.int32)
            return math_ops.divide(tp[idx], tp[idx] + fn[idx] + kepsilon, name)
        return _collect(metrics_collections, updates_collections,
                        compute(values["tp"], values["tn"], values["fp"], values["fn"], "value"),
                        compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                                update_ops["fn"], "update_op"))


def specificity_at_sensitivity(labels, predictions, sensitivity, weights=None, num_thresholds=200,
                               metrics_collections=None, updates_collections=None, name=None):
    """The specificity at the (last) threshold whose sensitivity is closest to `sensitivity`."""
    if sensitivity < 0 or sensitivity > 1:
        raise ValueError("`sensitivity` must be in the range [0, 1]. Currently, "
                         f"`sensitivity` is {sensitivity}.")
    math_ops, variable_scope = _ops()[1], _ops()[3]
    with variable_scope.variable_scope(name, "specificity_at_sensitivity",
                                       (predictions, labels, weights)):
        kepsilon = 1e-7
        thresholds = [0.0 - kepsilon] + _even_thresholds(num_thresholds) + [1.0 - kepsilon]
        values, update_ops = _confusion_matrix_at_thresholds(labels, predictions, thresholds,
                                                             weights)

        def compute(tp, tn, fp, fn, name):
            sensitivities = math_ops.divide(tp, tp + fn + kepsilon)
            min_val = math_ops.reduce_min(math_ops.abs(sensitivities - sensitivity))
            at_min = math_ops.equal(math_ops.abs(sensitivities - sensitivity), min_val)
            at_min = math_ops.cumsum(math_ops.cast(at_min, _dtypes.int64))
            idx = math_ops.cast(math_ops.argmax(at_min, 0), _dtypes.int32)
            return math_ops.divide(tn[idx], tn[idx] + fp[idx] + kepsilon, name)
        return _collect(metrics_collections, updates_collections,
                        compute(values["tp"], values["tn"], values["fp"], values["fn"], "value"),
                        compute(update_ops["tp"], update_ops["tn"], update_ops["fp"],
                                update_ops["fn"], "update_op"))


# -- per-class --------------------------------------------------------------------------------

def _tensor_weights(weights):
    """TF's mean_iou and mean_per_class_accuracy call weights.get_shape() unconverted, so a
    list or array fails there (AttributeError); ours says the same."""
    if not hasattr(weights, "get_shape"):
        t = type(weights)
        tp_name = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__name__}"
        raise AttributeError(f"'{tp_name}' object has no attribute 'get_shape'")
    return weights


def _streaming_confusion_matrix(labels, predictions, num_classes, weights=None):
    """A float64 [num_classes, num_classes] variable "total_confusion_matrix" (rows: labels,
    columns: predictions) and the op adding this batch's counts to it."""
    array_ops, math_ops, state_ops, _ = _ops()
    total_cm = metric_variable([num_classes, num_classes], _dtypes.float64,
                               name="total_confusion_matrix")
    predictions = math_ops.cast(predictions, _dtypes.int64)
    labels = math_ops.cast(labels, _dtypes.int64)
    num_classes = math_ops.cast(num_classes, _dtypes.int64)
    if predictions.shape.ndims is None or predictions.shape.ndims > 1:
        predictions = array_ops.reshape(predictions, [-1])
    if labels.shape.ndims is None or labels.shape.ndims > 1:
        labels = array_ops.reshape(labels, [-1])
    if weights is not None:
        weights = convert_to_tensor(_tensor_weights(weights))
        if weights.shape.ndims is None or weights.shape.ndims > 1:
            weights = array_ops.reshape(weights, [-1])
    # TF's: tf.confusion_matrix, so out-of-range labels/predictions fail its bound Asserts
    from .ops.math_special_ops import confusion_matrix
    current_cm = confusion_matrix(labels, predictions, num_classes, weights=weights, dtype=_dtypes.float64)
    return total_cm, state_ops.assign_add(total_cm, current_cm)


def mean_iou(labels, predictions, num_classes, weights=None, metrics_collections=None,
             updates_collections=None, name=None):
    """Mean intersection-over-union over the classes present, from a streaming confusion
    matrix; update_op returns the updated (float64) confusion matrix."""
    array_ops, math_ops, _, variable_scope = _ops()
    with variable_scope.variable_scope(name, "mean_iou", (predictions, labels, weights)):
        labels = convert_to_tensor(labels)
        predictions = convert_to_tensor(predictions)
        _assert_compatible(predictions, labels)
        total_cm, update_op = _streaming_confusion_matrix(labels, predictions, num_classes,
                                                          weights)
        sum_over_row = math_ops.cast(math_ops.reduce_sum(total_cm, 0), _dtypes.float32)
        sum_over_col = math_ops.cast(math_ops.reduce_sum(total_cm, 1), _dtypes.float32)
        cm_diag = math_ops.cast(array_ops.diag_part(total_cm), _dtypes.float32)
        denominator = sum_over_row + sum_over_col - cm_diag
        num_valid = math_ops.reduce_sum(math_ops.cast(math_ops.not_equal(denominator, 0),
                                                      dtype=_dtypes.float32))
        denominator = array_ops.where(math_ops.greater(denominator, 0), denominator,
                                      array_ops.ones_like(denominator))
        iou = math_ops.divide(cm_diag, denominator)
        value = array_ops.where(math_ops.greater(num_valid, 0),
                                math_ops.reduce_sum(iou, name="mean_iou") / num_valid, 0)
        return _collect(metrics_collections, updates_collections, value, update_op)


def mean_per_class_accuracy(labels, predictions, num_classes, weights=None,
                            metrics_collections=None, updates_collections=None, name=None):
    """The mean over classes of each class's accuracy (classes never seen count as 0)."""
    array_ops, math_ops, state_ops, variable_scope = _ops()
    with variable_scope.variable_scope(name, "mean_accuracy", (predictions, labels, weights)):
        labels = math_ops.cast(labels, _dtypes.int64)
        predictions = convert_to_tensor(predictions)
        if labels.shape.ndims > 1:
            labels = array_ops.reshape(labels, [-1])
        if predictions.shape.ndims > 1:
            predictions = array_ops.reshape(predictions, [-1])
        _assert_compatible(predictions, labels)
        total = metric_variable([num_classes], _dtypes.float32, name="total")
        count = metric_variable([num_classes], _dtypes.float32, name="count")
        ones = array_ops.ones([array_ops.size(labels)], _dtypes.float32)
        if labels.dtype != predictions.dtype:
            predictions = math_ops.cast(predictions, labels.dtype)
        is_correct = math_ops.cast(math_ops.equal(predictions, labels), _dtypes.float32)
        if weights is not None:
            weights = convert_to_tensor(_tensor_weights(weights))
            if weights.shape.ndims > 1:
                weights = array_ops.reshape(weights, [-1])
            weights = math_ops.cast(weights, _dtypes.float32)
            is_correct *= weights
            ones *= weights
        update_total = state_ops.scatter_add(total, labels, ones)
        update_count = state_ops.scatter_add(count, labels, is_correct)
        per_class = math_ops.div_no_nan(count, math_ops.maximum(total, 0))
        value = math_ops.reduce_mean(per_class, name="mean_accuracy")
        update_op = math_ops.div_no_nan(update_count, math_ops.maximum(update_total, 0),
                                        name="update_op")
        return _collect(metrics_collections, updates_collections, value, update_op)


# Top-k retrieval metrics (precision_at_k, recall_at_k, average_precision_at_k, ...).
from .metrics_at_k import *  # noqa: E402,F401,F403
from . import metrics_at_k as _metrics_at_k  # noqa: E402
__all__ += _metrics_at_k.__all__
