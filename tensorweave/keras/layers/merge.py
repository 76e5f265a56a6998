"""keras merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot
(and their functional forms add, concatenate, ...): one output from a list of tensors."""

from ..engine import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot",
           "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "dot"]


class _Merge(Layer):
    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. "
                             f"Received: inputs={inputs} (not a list of tensors)")
        if len(inputs) < 2:
            raise ValueError("A merge layer should be called on a list of at least 2 inputs. "
                             f"Got {len(inputs)} inputs.")

    def call(self, inputs):
        self._check(inputs)
        return self._merge_function(list(inputs))

    def compute_mask(self, inputs, mask=None):
        """As TF's: the AND of the input masks (None when no input has one)."""
        if mask is None or all(m is None for m in mask):
            return None
        from ...ops import array_ops, math_ops
        masks = [array_ops.expand_dims(m, 0) for m in mask if m is not None]
        return math_ops.reduce_all(array_ops.concat(masks, 0), axis=0, keepdims=False)


class Add(_Merge):
    def _merge_function(self, inputs):
        out = inputs[0]
        for x in inputs[1:]:
            out = out + x
        return out


class Subtract(_Merge):
    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return inputs[0] - inputs[1]


class Multiply(_Merge):
    def _merge_function(self, inputs):
        out = inputs[0]
        for x in inputs[1:]:
            out = out * x
        return out


class Average(_Merge):
    def _merge_function(self, inputs):
        out = inputs[0]
        for x in inputs[1:]:
            out = out + x
        return out / len(inputs)


class Maximum(_Merge):
    def _merge_function(self, inputs):
        from ...ops import math_ops
        out = inputs[0]
        for x in inputs[1:]:
            out = math_ops.maximum(out, x)
        return out


class Minimum(_Merge):
    def _merge_function(self, inputs):
        from ...ops import math_ops
        out = inputs[0]
        for x in inputs[1:]:
            out = math_ops.minimum(out, x)
        return out


class Concatenate(_Merge):
    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _merge_function(self, inputs):
        from .. import backend as K
        return K.concatenate(inputs, axis=self.axis)


    def compute_mask(self, inputs, mask=None):
        """As TF's: inputs without a mask count as all-True; masks are concatenated along the
        axis and reduced with AND over the last axis."""
        if mask is None or all(m is None for m in mask):
            return None
        from ...ops import array_ops, math_ops
        masks = []
        for x, m in zip(inputs, mask):
            if m is None:
                m = array_ops.ones_like(x, dtype="bool")
            elif m.shape.ndims < x.shape.ndims:
                m = array_ops.expand_dims(m, -1)
            masks.append(m)
        return math_ops.reduce_all(array_ops.concat(masks, self.axis), axis=-1, keepdims=False)


class Dot(_Merge):
    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.axes = axes
        self.normalize = normalize

    def _merge_function(self, inputs):
        from ...ops import nn_ops
        from ..backend_extra import batch_dot
        if len(inputs) != 2:
            raise ValueError("A `Dot` layer should be called on exactly 2 inputs")
        x1, x2 = inputs
        axes = [self.axes] * 2 if isinstance(self.axes, int) else list(self.axes)
        # Negative axes count from each input's own rank (TF's rule).
        axes = [ax % t.shape.ndims if ax < 0 else ax for ax, t in zip(axes, (x1, x2))]
        if self.normalize:
            x1 = nn_ops.l2_normalize(x1, axis=axes[0])
            x2 = nn_ops.l2_normalize(x2, axis=axes[1])
        return batch_dot(x1, x2, axes)


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes, normalize=False, **kwargs):
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
