"""`tf.keras.metrics`: stateful metrics (variables "total" and "count", updated by
`update_state`, read by `result()`, zeroed by `reset_states()`) and the per-sample metric
functions (`binary_accuracy`, `categorical_accuracy`, ...), with TF's keras formulas.

In graph mode `metric(y_true, y_pred)` returns the result after this batch's update, as TF's."""

import functools

import numpy as np

from ..framework.constant_op import convert_to_tensor
from ..framework.graph import GraphKeys, Tensor, get_default_graph, name_scope
from . import backend as K
from .engine import Layer
from .losses import (binary_crossentropy, categorical_crossentropy, hinge,  # noqa: F401
                     kl_divergence, mean_absolute_error, mean_absolute_percentage_error,
                     mean_squared_error, mean_squared_logarithmic_error, poisson,
                     sparse_categorical_crossentropy, squared_hinge, mse, mae, mape, msle)
from .utils import _unknown_object_error


def _m():
    from ..ops import array_ops, math_ops
    return array_ops, math_ops


# -- per-sample metric functions -----------------------------------------------------------------
def binary_accuracy(y_true, y_pred, threshold=0.5):
    a, m = _m()
    y_pred = convert_to_tensor(y_pred)
    threshold = m.cast(threshold, y_pred.dtype.base_dtype)
    y_pred = m.cast(y_pred > threshold, y_pred.dtype.base_dtype)
    y_true = m.cast(convert_to_tensor(y_true), y_pred.dtype.base_dtype)
    return K.mean(m.cast(m.equal(y_true, y_pred), K.floatx()), axis=-1)


def categorical_accuracy(y_true, y_pred):
    a, m = _m()
    return m.cast(m.equal(m.argmax(y_true, -1), m.argmax(y_pred, -1)), K.floatx())


def sparse_categorical_accuracy(y_true, y_pred):
    a, m = _m()
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.shape.ndims is not None and y_pred.shape.ndims is not None and \
            y_true.shape.ndims == y_pred.shape.ndims:
        y_true = a.squeeze(y_true, [-1])
    y_pred = m.argmax(y_pred, -1)
    if y_pred.dtype.base_dtype != y_true.dtype.base_dtype:
        y_pred = m.cast(y_pred, y_true.dtype.base_dtype)
    return m.cast(m.equal(y_true, y_pred), K.floatx())


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    from ..ops.nn_ops_extra import in_top_k
    a, m = _m()
    return m.cast(in_top_k(y_pred, m.argmax(y_true, -1), k), K.floatx())


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    from ..ops.nn_ops_extra import in_top_k
    a, m = _m()
    y_true = convert_to_tensor(y_true)
    if y_true.shape.ndims == convert_to_tensor(y_pred).shape.ndims:
        y_true = a.squeeze(y_true, [-1])
    return m.cast(in_top_k(y_pred, m.cast(y_true, "int32"), k), K.floatx())


def accuracy(y_true, y_pred):
    a, m = _m()
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.dtype.base_dtype != y_pred.dtype.base_dtype:
        y_pred = m.cast(y_pred, y_true.dtype.base_dtype)
    return m.cast(m.equal(y_true, y_pred), K.floatx())


def _update_wrapper(update_fn):
    @functools.wraps(update_fn)
    def update_state(*args, **kwargs):
        g = get_default_graph()
        update_fn(*args, **kwargs)
        ops = g.get_operations()
        return ops[-1] if ops else None
    return update_state


def _result_wrapper(result_fn):
    @functools.wraps(result_fn)
    def result(*args):
        from ..ops import array_ops
        return array_ops.identity(result_fn(*args))
    return result


# -- stateful metrics ----------------------------------------------------------------------------
class Metric(Layer):
    """Base of stateful metrics: `update_state(...)` returns the update op, `result()` the value."""

    def __init__(self, name=None, dtype=None, **kwargs):
        # As TF: a metric without a name is named after its class, uniquified ("auc_1").
        super().__init__(name=name, dtype=dtype or K.floatx(), **kwargs)
        self._metric_vars = []
        self.built = True
        self._result_cache = {}
        # As TF's Metric.__new__: the outermost update_state returns the graph's last op (so
        # `metric(...)` waits for it), and result() is wrapped in an Identity ("Identity:0").
        self.update_state = _update_wrapper(self.update_state)
        self.result = _result_wrapper(self.result)

    def add_weight(self, name, shape=(), dtype=None, initializer="zeros", **kwargs):
        from ..ops.variables import Variable
        dtype = dtype or self._dtype or K.floatx()
        from ..framework import dtypes
        dt = dtypes.as_dtype(dtype).base_dtype
        with get_default_graph().control_dependencies(None):
            v = Variable(np.zeros(shape, dt.as_numpy_dtype), name=name, trainable=False,
                         collections=[GraphKeys.LOCAL_VARIABLES, GraphKeys.METRIC_VARIABLES]
                         if hasattr(GraphKeys, "METRIC_VARIABLES") else [GraphKeys.LOCAL_VARIABLES],
                         dtype=dt, use_resource=True)
        self._metric_vars.append(v)
        self._non_trainable_weights.append(v)
        return v

    @property
    def variables(self):
        return list(self._metric_vars)

    weights = variables

    def __call__(self, *args, **kwargs):
        update = self.update_state(*args, **kwargs)
        from ..framework.graph import control_dependencies
        with control_dependencies([update]):
            return self.result()

    def reset_states(self):
        K.batch_set_value([(v, np.zeros(v.shape.as_list(), v.dtype.base_dtype.as_numpy_dtype))
                           for v in self._metric_vars])

    reset_state = reset_states

    def _reset_ops(self):
        from ..ops import state_ops, array_ops
        if "reset" not in self._result_cache:
            with get_default_graph().control_dependencies(None):
                self._result_cache["reset"] = [state_ops.assign(v, array_ops.zeros_like(v)).op
                                               for v in self._metric_vars]
        return self._result_cache["reset"]

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class Reduce(Metric):
    _reduction = "sum"

    def __init__(self, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        with name_scope(None):
            self.total = self.add_weight("total")
            if self._reduction != "sum":
                self.count = self.add_weight("count")

    def _update_values(self, values, sample_weight=None):
        from ..ops import state_ops
        a, m = _m()
        values = m.cast(convert_to_tensor(values), self.total.dtype.base_dtype)
        if sample_weight is not None:
            sample_weight = m.cast(convert_to_tensor(sample_weight), values.dtype.base_dtype)
            if sample_weight.shape.ndims is not None and values.shape.ndims is not None and \
                    sample_weight.shape.ndims > values.shape.ndims:
                sample_weight = a.squeeze(sample_weight, [-1])
            values = values * sample_weight
        value_sum = m.reduce_sum(values)
        update_total = state_ops.assign_add(self.total, value_sum)
        if self._reduction == "sum":
            return update_total.op
        if sample_weight is None:
            num = m.cast(a.size(values), self.total.dtype.base_dtype)
        else:
            num = m.reduce_sum(sample_weight * a.ones_like(values))
        from ..framework.graph import control_dependencies
        with control_dependencies([update_total]):
            return state_ops.assign_add(self.count, num).op

    def update_state(self, values, sample_weight=None):
        return self._update_values(values, sample_weight)

    def result(self):
        from ..ops import array_ops
        if self._reduction == "sum":
            return array_ops.identity(self.total)
        return _m()[1].div_no_nan(self.total, self.count)


class Sum(Reduce):
    _reduction = "sum"


class Mean(Reduce):
    _reduction = "mean"


class MeanMetricWrapper(Mean):
    """Mean over samples of fn(y_true, y_pred, **kwargs)."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = convert_to_tensor(y_true)
        y_pred = convert_to_tensor(y_pred)
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        return self._update_values(values, sample_weight)


def _wrapper(cls_name, fn, default_name, extra=()):
    def __init__(self, *args, name=default_name, dtype=None, **kwargs):
        for (k, _), v in zip(extra, args):
            kwargs[k] = v
        for k, d in extra:
            kwargs.setdefault(k, d)
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **kwargs)
    return type(cls_name, (MeanMetricWrapper,), {"__init__": __init__,
                                                  "__doc__": f"Mean of `{fn.__name__}`."})


Accuracy = _wrapper("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _wrapper("BinaryAccuracy", binary_accuracy, "binary_accuracy",
                          (("threshold", 0.5),))
CategoricalAccuracy = _wrapper("CategoricalAccuracy", categorical_accuracy, "categorical_accuracy")
SparseCategoricalAccuracy = _wrapper("SparseCategoricalAccuracy", sparse_categorical_accuracy,
                                     "sparse_categorical_accuracy")
TopKCategoricalAccuracy = _wrapper("TopKCategoricalAccuracy", top_k_categorical_accuracy,
                                   "top_k_categorical_accuracy", (("k", 5),))
SparseTopKCategoricalAccuracy = _wrapper("SparseTopKCategoricalAccuracy",
                                         sparse_top_k_categorical_accuracy,
                                         "sparse_top_k_categorical_accuracy", (("k", 5),))
MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError",
                                       mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              (("from_logits", False), ("label_smoothing", 0.0)))
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "categorical_crossentropy",
                                   (("from_logits", False), ("label_smoothing", 0.0)))
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy",
                                         sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy",
                                         (("from_logits", False),))


class RootMeanSquaredError(Mean):
    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = convert_to_tensor(y_pred)
        y_true = _m()[1].cast(convert_to_tensor(y_true), y_pred.dtype.base_dtype)
        return self._update_values(_m()[1].squared_difference(y_pred, y_true), sample_weight)

    def result(self):
        return _m()[1].sqrt(_m()[1].div_no_nan(self.total, self.count))


def __getattr__(name):
    raise AttributeError(f"tf.keras.metrics.{name} is not supported by tensorweave yet")


from .metrics_confusion import (AUC, CategoricalHinge, CosineSimilarity,  # noqa: E402,F401
                                FalseNegatives, FalsePositives, Hinge, KLDivergence,
                                LogCoshError, MeanSquaredLogarithmicError, Poisson,
                                Precision, Recall, SquaredHinge, TrueNegatives, TruePositives,
                                categorical_hinge, cosine_similarity, log_cosh, logcosh)

MSE = mse
MAE = mae
MAPE = mape
MSLE = msle
KLD = kld = kullback_leibler_divergence = kl_divergence
cosine_proximity = cosine_similarity
from .metrics_extra import (BinaryIoU, F1Score, FBetaScore, IoU, MeanIoU,  # noqa: E402,F401
                            OneHotIoU, OneHotMeanIoU, R2Score)
from .losses_extra import (binary_focal_crossentropy,  # noqa: E402,F401
                           categorical_focal_crossentropy)


_BY_NAME = {
    "binary_accuracy": binary_accuracy, "categorical_accuracy": categorical_accuracy,
    "sparse_categorical_accuracy": sparse_categorical_accuracy,
    "top_k_categorical_accuracy": top_k_categorical_accuracy,
    "sparse_top_k_categorical_accuracy": sparse_top_k_categorical_accuracy,
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error,
    "mean_absolute_percentage_error": mean_absolute_percentage_error,
    "mape": mean_absolute_percentage_error,
    "mean_squared_logarithmic_error": mean_squared_logarithmic_error,
    "msle": mean_squared_logarithmic_error,
    "binary_crossentropy": binary_crossentropy, "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy,
    "hinge": hinge, "squared_hinge": squared_hinge, "kld": kl_divergence, "poisson": poisson,
    "kl_divergence": kl_divergence, "kullback_leibler_divergence": kl_divergence,
    "logcosh": logcosh, "log_cosh": logcosh, "categorical_hinge": categorical_hinge,
    "cosine_similarity": cosine_similarity, "cosine_proximity": cosine_similarity,
    "accuracy": accuracy, "binary_focal_crossentropy": binary_focal_crossentropy,
    "categorical_focal_crossentropy": categorical_focal_crossentropy,
}


def get(identifier):
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise _unknown_object_error("metric function", identifier)
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


_ = Tensor
