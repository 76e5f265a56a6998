"""`tf.keras.losses`: per-sample loss functions (mean over the last axis) and the Loss classes
that reduce them (default: sum over the batch / number of entries), with TF's keras formulas.

The cross-entropies on probabilities clip them to [epsilon, 1 - epsilon] (K.epsilon() = 1e-7).
As in TF, when the prediction is a plain graph tensor made by Sigmoid/Softmax (not the output of
a keras layer), the logits before it are used instead."""

import numpy as np

from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, name_scope
from . import backend as K
from .utils import _unknown_object_error


def _m():
    from ..ops import array_ops, math_ops, nn_ops
    clip_ops = math_ops
    return array_ops, math_ops, nn_ops, clip_ops


def _prep(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    if y_true.dtype.base_dtype != y_pred.dtype.base_dtype:
        y_true = _m()[1].cast(y_true, y_pred.dtype.base_dtype)
    return y_true, y_pred


def _no_history(t):
    from .engine import _keras_history
    return isinstance(t, Tensor) and _keras_history(t) is None


def _eps(dtype):
    return convert_to_tensor(np.asarray(K.epsilon(), dtype.as_numpy_dtype))


def _binary_crossentropy_backend(target, output, from_logits=False):
    a, m, nn, clip = _m()
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    if not from_logits and output.op.type == "Sigmoid" and _no_history(output):
        from_logits, output = True, output.op.inputs[0]
    if from_logits:
        return nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    dt = output.dtype.base_dtype
    eps = _eps(dt)
    output = clip.clip_by_value(output, eps, np.asarray(1.0, dt.as_numpy_dtype) - eps)
    bce = target * m.log(output + K.epsilon())
    bce += (1 - target) * m.log(1 - output + K.epsilon())
    return -bce


def _categorical_crossentropy_backend(target, output, from_logits=False, axis=-1):
    a, m, nn, clip = _m()
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    if not from_logits and output.op.type == "Softmax" and _no_history(output):
        from_logits, output = True, output.op.inputs[0]
    if from_logits:
        return nn.softmax_cross_entropy_with_logits_v2(labels=target, logits=output, axis=axis)
    output = output / m.reduce_sum(output, axis, True)
    dt = output.dtype.base_dtype
    eps = _eps(dt)
    output = clip.clip_by_value(output, eps, np.asarray(1.0, dt.as_numpy_dtype) - eps)
    return -m.reduce_sum(target * m.log(output), axis)


def _sparse_categorical_crossentropy_backend(target, output, from_logits=False, axis=-1):
    a, m, nn, clip = _m()
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    if not from_logits:
        if output.op.type == "Softmax" and _no_history(output):
            output = output.op.inputs[0]
        else:
            dt = output.dtype.base_dtype
            eps = _eps(dt)
            output = clip.clip_by_value(output, eps, np.asarray(1.0, dt.as_numpy_dtype) - eps)
            output = m.log(output)
    rank = output.shape.ndims
    if axis not in (-1, rank - 1):
        raise NotImplementedError("sparse_categorical_crossentropy over an axis other than the last")
    target = m.cast(target, "int64")
    out_shape = output.shape.as_list()
    if rank is not None and rank > 2 or target.shape.ndims != (rank - 1 if rank else None):
        flat_target = a.reshape(target, [-1])
        logits = a.reshape(output, [-1, out_shape[-1]])
        res = nn.sparse_softmax_cross_entropy_with_logits(labels=flat_target, logits=logits)
        if rank is not None and rank >= 3:
            return a.reshape(res, a.shape(output)[:-1])
        return res
    return nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)


# -- per-sample functions ------------------------------------------------------------------------
def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    return K.mean(_m()[1].squared_difference(y_pred, y_true), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    return K.mean(_m()[1].abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    m = _m()[1]
    diff = m.abs((y_true - y_pred) / m.maximum(m.abs(y_true), K.epsilon()))
    return 100.0 * K.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    m = _m()[1]
    first = m.log(m.maximum(y_pred, K.epsilon()) + 1.0)
    second = m.log(m.maximum(y_true, K.epsilon()) + 1.0)
    return K.mean(m.squared_difference(first, second), axis=-1)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _prep(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return K.mean(_binary_crossentropy_backend(y_true, y_pred, from_logits), axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _prep(y_true, y_pred)
    if label_smoothing:
        n = _m()[1].cast(_m()[0].shape(y_true)[-1], y_pred.dtype.base_dtype)
        y_true = y_true * (1.0 - label_smoothing) + (label_smoothing / n)
    return _categorical_crossentropy_backend(y_true, y_pred, from_logits, axis)


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1, ignore_class=None):
    if ignore_class is not None:
        raise NotImplementedError("sparse_categorical_crossentropy(ignore_class=...)")
    return _sparse_categorical_crossentropy_backend(y_true, y_pred, from_logits, axis)


def hinge(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    m = _m()[1]
    is_binary = m.reduce_all(m.logical_or(m.equal(y_true, 0.0), m.equal(y_true, 1.0)))
    from ..ops import control_flow_ops
    y_true = control_flow_ops.cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)
    return K.mean(m.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    m = _m()[1]
    is_binary = m.reduce_all(m.logical_or(m.equal(y_true, 0.0), m.equal(y_true, 1.0)))
    from ..ops import control_flow_ops
    y_true = control_flow_ops.cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)
    return K.mean(m.square(m.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


def kl_divergence(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    m, clip = _m()[1], _m()[3]
    y_true = clip.clip_by_value(y_true, K.epsilon(), 1)
    y_pred = clip.clip_by_value(y_pred, K.epsilon(), 1)
    return m.reduce_sum(y_true * m.log(y_true / y_pred), axis=-1)


def poisson(y_true, y_pred):
    y_true, y_pred = _prep(y_true, y_pred)
    m = _m()[1]
    return K.mean(y_pred - y_true * m.log(y_pred + K.epsilon()), axis=-1)


def cosine_similarity(y_true, y_pred, axis=-1):
    y_true, y_pred = _prep(y_true, y_pred)
    nn = _m()[2]
    y_true = nn.l2_normalize(y_true, axis=axis)
    y_pred = nn.l2_normalize(y_pred, axis=axis)
    return -_m()[1].reduce_sum(y_true * y_pred, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence


# -- Loss classes --------------------------------------------------------------------------------
class Reduction:
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls):
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)


def squeeze_or_expand_dimensions(y_pred, y_true=None, sample_weight=None):
    """Makes `sample_weight`'s rank match `y_pred`'s when they differ by one (static ranks), as
    TF's losses_utils (y_true is passed through)."""
    a = _m()[0]
    if sample_weight is None:
        return y_pred, y_true, None
    sample_weight = convert_to_tensor(sample_weight)
    wr, pr = sample_weight.shape.ndims, y_pred.shape.ndims
    if wr == 0 or wr is None or pr is None:
        return y_pred, y_true, sample_weight
    if wr - pr == 1:
        sample_weight = a.squeeze(sample_weight, [-1])
    elif pr - wr == 1:
        sample_weight = a.expand_dims(sample_weight, -1)
    return y_pred, y_true, sample_weight


def _num_elements(losses):
    m = _m()[1]
    with name_scope("num_elements") as scope:
        return m.cast(_m()[0].size(losses, name=scope), losses.dtype.base_dtype)


def reduce_weighted_loss(weighted_losses, reduction=Reduction.SUM_OVER_BATCH_SIZE):
    """Sum (SUM) or sum / number of entries (SUM_OVER_BATCH_SIZE) of weighted losses."""
    m = _m()[1]
    if reduction == Reduction.NONE:
        return weighted_losses
    loss = m.reduce_sum(weighted_losses)
    if reduction == Reduction.SUM_OVER_BATCH_SIZE:
        n = _num_elements(weighted_losses)   # made before the mean's Sum, as TF's _safe_mean
        loss = m.div_no_nan(m.reduce_sum(loss), n, name="value")
    return loss


def compute_weighted_loss(losses, sample_weight=None, reduction=Reduction.SUM_OVER_BATCH_SIZE,
                          name=None):
    """losses * sample_weight (1.0 when not given), reduced; under "weighted_loss" as TF's
    losses_utils."""
    m = _m()[1]
    if reduction == Reduction.AUTO:
        reduction = Reduction.SUM_OVER_BATCH_SIZE
    if sample_weight is None:
        sample_weight = 1.0
    with name_scope(name or "weighted_loss"):
        losses = convert_to_tensor(losses)
        sample_weight = convert_to_tensor(sample_weight)
        input_dtype = None
        if not losses.dtype.is_floating:
            input_dtype = losses.dtype
            losses = m.cast(losses, "float32")
        sample_weight = m.cast(sample_weight, losses.dtype.base_dtype)
        losses, _, sample_weight = squeeze_or_expand_dimensions(losses, None, sample_weight)
        loss = reduce_weighted_loss(m.multiply(losses, sample_weight), reduction)
        if input_dtype is not None:
            loss = m.cast(loss, input_dtype)
        return loss


def apply_valid_mask(losses, sw, mask, reduction):
    """Folds a keras mask into the sample weights; under SUM_OVER_BATCH_SIZE the valid entries
    are scaled by total / valid, so the mean runs over the valid entries only."""
    m = _m()[1]
    if mask is None:
        return sw
    mask = m.cast(mask, losses.dtype.base_dtype)
    if reduction in (Reduction.AUTO, Reduction.SUM_OVER_BATCH_SIZE):
        total = m.cast(_m()[0].size(mask), losses.dtype.base_dtype)
        valid = m.reduce_sum(mask)
        mask = mask * (total / valid)
    if sw is not None:
        sw = m.cast(sw, mask.dtype.base_dtype)
        mask, _, sw = squeeze_or_expand_dimensions(mask, sample_weight=sw)
        return sw * mask
    return mask


class Loss:
    """A loss object: `loss(y_true, y_pred, sample_weight=None)` is the reduced loss."""

    def __init__(self, reduction=Reduction.AUTO, name=None):
        if reduction not in Reduction.all():
            raise ValueError(f"Invalid Reduction Key: {reduction}. Expected keys are "
                             f"\"{Reduction.all()}\"")
        self.reduction = reduction
        self.name = name

    def __call__(self, y_true, y_pred, sample_weight=None):
        with name_scope(self.name or type(self).__name__.lower()):
            losses = self.call(y_true, y_pred)
            return compute_weighted_loss(losses, sample_weight, self.reduction)

    def call(self, y_true, y_pred):
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self):
        return {"reduction": self.reduction, "name": self.name}


class LossFunctionWrapper(Loss):
    def __init__(self, fn, reduction=Reduction.AUTO, name=None, **kwargs):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        # As TF's: the base keys, the function's arguments, then the function's name.
        config = super().get_config()
        config.update(self._fn_kwargs)
        config["fn"] = getattr(self.fn, "__name__", str(self.fn))
        return config


def _loss_class(cls_name, fn, default_name, extra=()):
    def __init__(self, *args, reduction=Reduction.AUTO, name=default_name, **kwargs):
        for k, v in zip([e[0] for e in extra], args):
            kwargs[k] = v
        for k, default in extra:
            kwargs.setdefault(k, default)
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **kwargs)
    return type(cls_name, (LossFunctionWrapper,), {"__init__": __init__,
                                                    "__doc__": f"Loss class of `{fn.__name__}`."})


MeanSquaredError = _loss_class("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _loss_class("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _loss_class("MeanAbsolutePercentageError",
                                          mean_absolute_percentage_error,
                                          "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _loss_class("MeanSquaredLogarithmicError",
                                          mean_squared_logarithmic_error,
                                          "mean_squared_logarithmic_error")
BinaryCrossentropy = _loss_class("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                                 (("from_logits", False), ("label_smoothing", 0.0),
                                  ("axis", -1)))
CategoricalCrossentropy = _loss_class("CategoricalCrossentropy", categorical_crossentropy,
                                      "categorical_crossentropy",
                                      (("from_logits", False), ("label_smoothing", 0.0),
                                       ("axis", -1)))
SparseCategoricalCrossentropy = _loss_class("SparseCategoricalCrossentropy",
                                            sparse_categorical_crossentropy,
                                            "sparse_categorical_crossentropy",
                                            (("from_logits", False),))
Hinge = _loss_class("Hinge", hinge, "hinge")
SquaredHinge = _loss_class("SquaredHinge", squared_hinge, "squared_hinge")
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence")
Poisson = _loss_class("Poisson", poisson, "poisson")
CosineSimilarity = _loss_class("CosineSimilarity", cosine_similarity, "cosine_similarity",
                               (("axis", -1),))

_BY_NAME = {
    "mean_squared_error": mean_squared_error, "mse": mean_squared_error, "MSE": mean_squared_error,
    "mean_absolute_error": mean_absolute_error, "mae": mean_absolute_error,
    "MAE": mean_absolute_error,
    "mean_absolute_percentage_error": mean_absolute_percentage_error,
    "mape": mean_absolute_percentage_error,
    "mean_squared_logarithmic_error": mean_squared_logarithmic_error,
    "msle": mean_squared_logarithmic_error,
    "binary_crossentropy": binary_crossentropy, "categorical_crossentropy": categorical_crossentropy,
    "sparse_categorical_crossentropy": sparse_categorical_crossentropy, "hinge": hinge,
    "squared_hinge": squared_hinge, "kl_divergence": kl_divergence, "kld": kl_divergence,
    "kullback_leibler_divergence": kl_divergence, "poisson": poisson,
    "cosine_similarity": cosine_similarity,
}


from .losses_extra import *  # noqa: E402,F401,F403  (Huber, LogCosh, focal losses, ...)
from .losses_extra import BY_NAME as _EXTRA_BY_NAME  # noqa: E402

_BY_NAME.update(_EXTRA_BY_NAME)


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise _unknown_object_error("loss function", identifier)
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")


def serialize(loss):
    return getattr(loss, "__name__", None) or getattr(loss, "name", None)


deserialize = get
