"""More `tf.keras.losses`: Huber, LogCosh, CategoricalHinge and the focal crossentropies (a
crossentropy down-weighted by (1 - p) ** gamma on well-classified examples), as functions and as
Loss classes, with TF's keras formulas; `cosine` / `cosine_proximity` are cosine_similarity."""

from ..framework.constant_op import convert_to_tensor
from . import backend as K
from .losses import LossFunctionWrapper, Reduction, cosine_similarity

__all__ = ["huber", "log_cosh", "logcosh", "categorical_hinge", "binary_focal_crossentropy",
           "categorical_focal_crossentropy", "cosine", "cosine_proximity", "Huber", "LogCosh",
           "CategoricalHinge", "BinaryFocalCrossentropy", "CategoricalFocalCrossentropy"]


def _tf():
    import tensorweave
    return tensorweave


def _prep(y_true, y_pred):
    tf = _tf()
    y_pred = convert_to_tensor(y_pred)
    return tf.cast(y_true, y_pred.dtype), y_pred


def huber(y_true, y_pred, delta=1.0):
    """0.5 * err^2 where |err| <= delta, else delta * |err| - 0.5 * delta^2; mean over the last
    axis."""
    tf = _tf()
    y_pred = tf.cast(y_pred, dtype=K.floatx())
    y_true = tf.cast(y_true, dtype=K.floatx())
    delta = tf.cast(delta, dtype=K.floatx())
    error = tf.subtract(y_pred, y_true)
    abs_error = tf.abs(error)
    half = tf.convert_to_tensor(0.5, dtype=abs_error.dtype)
    return K.mean(tf.where_v2(abs_error <= delta, half * tf.square(error),
                              delta * abs_error - half * tf.square(delta)), axis=-1)


def log_cosh(y_true, y_pred):
    """mean(log(cosh(y_pred - y_true))) over the last axis (computed stably with softplus)."""
    tf = _tf()
    y_true, y_pred = _prep(y_true, y_pred)

    def _logcosh(x):
        return x + tf.nn.softplus(-2.0 * x) - tf.cast(tf.log(2.0), x.dtype)
    return K.mean(_logcosh(y_pred - y_true), axis=-1)


logcosh = log_cosh


def categorical_hinge(y_true, y_pred):
    """max(neg - pos + 1, 0): pos = sum(y_true * y_pred), neg = max((1 - y_true) * y_pred)."""
    tf = _tf()
    y_true, y_pred = _prep(y_true, y_pred)
    pos = tf.reduce_sum(y_true * y_pred, axis=-1)
    neg = tf.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    zero = tf.cast(0.0, y_pred.dtype)
    return tf.maximum(neg - pos + 1.0, zero)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False, label_smoothing=0.0, axis=-1):
    """Mean over `axis` of K.binary_focal_crossentropy (labels smoothed towards 0.5)."""
    tf = _tf()
    y_true, y_pred = _prep(y_true, y_pred)
    if label_smoothing:
        ls = tf.convert_to_tensor(label_smoothing, dtype=y_pred.dtype)
        y_true = y_true * (1.0 - ls) + 0.5 * ls
    return K.mean(K.binary_focal_crossentropy(
        target=y_true, output=y_pred, apply_class_balancing=apply_class_balancing, alpha=alpha,
        gamma=gamma, from_logits=from_logits), axis=axis)


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """K.categorical_focal_crossentropy (labels smoothed over the classes)."""
    tf = _tf()
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")
    y_true, y_pred = _prep(y_true, y_pred)
    if y_pred.shape.ndims == 0:
        raise ValueError("Invalid shape for `y_pred`: a scalar")
    if label_smoothing:
        ls = tf.convert_to_tensor(label_smoothing, dtype=y_pred.dtype)
        n = tf.cast(tf.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - ls) + (ls / n)
    return K.categorical_focal_crossentropy(target=y_true, output=y_pred, alpha=alpha,
                                            gamma=gamma, from_logits=from_logits, axis=axis)


cosine = cosine_proximity = cosine_similarity


class Huber(LossFunctionWrapper):
    """Loss class of `huber` (name "huber_loss")."""

    def __init__(self, delta=1.0, reduction=Reduction.AUTO, name="huber_loss"):
        super().__init__(huber, reduction=reduction, name=name, delta=delta)


class LogCosh(LossFunctionWrapper):
    """Loss class of `log_cosh`."""

    def __init__(self, reduction=Reduction.AUTO, name="log_cosh"):
        super().__init__(log_cosh, reduction=reduction, name=name)


class CategoricalHinge(LossFunctionWrapper):
    """Loss class of `categorical_hinge`."""

    def __init__(self, reduction=Reduction.AUTO, name="categorical_hinge"):
        super().__init__(categorical_hinge, reduction=reduction, name=name)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """Loss class of `binary_focal_crossentropy`."""

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1, reduction=Reduction.AUTO,
                 name="binary_focal_crossentropy"):
        super().__init__(binary_focal_crossentropy, reduction=reduction, name=name,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """Loss class of `categorical_focal_crossentropy`."""

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction=Reduction.AUTO, name="categorical_focal_crossentropy"):
        super().__init__(categorical_focal_crossentropy, reduction=reduction, name=name,
                         alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)


BY_NAME = {"huber": huber, "huber_loss": huber, "log_cosh": log_cosh, "logcosh": log_cosh,
           "categorical_hinge": categorical_hinge,
           "binary_focal_crossentropy": binary_focal_crossentropy,
           "categorical_focal_crossentropy": categorical_focal_crossentropy,
           "cosine": cosine_similarity, "cosine_proximity": cosine_similarity}
