"""keras merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot
(and their functional forms add, concatenate, ...): one output from a list of tensors."""

from ...framework.tensor_shape import TensorShape
from ..engine import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot",
           "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "dot"]


def _shape_tuples(input_shape):
    """TF's `shape_type_conversion`: a TensorShape (or a list of them) as tuples, None for an
    unknown rank, so messages print "(None, 3)"."""
    def conv(s):
        s = TensorShape(s)
        return tuple(s.as_list()) if s.ndims is not None else None
    if isinstance(input_shape, (list, tuple)) and not all(
            d is None or isinstance(d, int) for d in input_shape):
        return [conv(s) for s in input_shape]
    return conv(input_shape)


class _Merge(Layer):
    def _elemwise_shape(self, shape1, shape2):
        # TF's rule: trailing axes broadcast (1 or None), anything else must agree.
        if None in (shape1, shape2):
            return None
        if len(shape1) < len(shape2):
            return self._elemwise_shape(shape2, shape1)
        if not shape2:
            return shape1
        out = list(shape1[:-len(shape2)])
        for i, j in zip(shape1[-len(shape2):], shape2):
            if i is None or j is None:
                out.append(None)
            elif i == 1 or j == 1:
                out.append(j if i == 1 else i)
            elif i != j:
                raise ValueError("Inputs have incompatible shapes. "
                                 f"Received shapes {shape1} and {shape2}")
            else:
                out.append(i)
        return tuple(out)

    def build(self, input_shape):
        # Used purely for shape validation (TF's messages).
        input_shape = _shape_tuples(input_shape)
        if not isinstance(input_shape, list) or not isinstance(input_shape[0], tuple):
            raise ValueError("A merge layer should be called on a list of inputs. "
                             f"Received: input_shape={input_shape} (not a list of shapes)")
        batch_sizes = {s[0] for s in input_shape if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError("Cannot merge tensors with different batch sizes. Got tensors with "
                             f"shapes {input_shape}")
        out = input_shape[0][1:]
        for shape in input_shape[1:]:
            out = self._elemwise_shape(out, None if shape is None else shape[1:])
        self.built = True

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs. "
                             f"Received: inputs={inputs} (not a list of tensors)")
        inputs = list(inputs)
        ndims = [x.shape.ndims for x in inputs]
        if None not in ndims and len(set(ndims)) > 1:
            # Different ranks: as TF, expand the lower-rank inputs at axis 1 until they match.
            from ...ops import array_ops
            for k, n in enumerate(ndims):
                for _ in range(max(ndims) - n):
                    inputs[k] = array_ops.expand_dims(inputs[k], axis=1)
        return self._merge_function(inputs)

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
    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: input_shape={_shape_tuples(input_shape)}")

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

    def build(self, input_shape):
        # Used purely for shape validation (TF's messages).
        input_shape = _shape_tuples(input_shape)
        if not isinstance(input_shape, list) or not isinstance(input_shape[0], tuple):
            raise ValueError("A `Concatenate` layer should be called on a list of at least 1 "
                             f"input. Received: input_shape={input_shape}")
        self.built = True
        if all(shape is None for shape in input_shape):
            return
        reduced = set()
        for shape in input_shape:
            shape = list(shape)
            del shape[self.axis]
            reduced.add(tuple(shape))
        if len(reduced) != 1:
            ranks = {len(shape) for shape in reduced}
            if len(ranks) != 1 or any(
                    len({shape[a] for shape in reduced if shape[a] is not None}) > 1
                    for a in range(ranks.pop())):
                raise ValueError("A `Concatenate` layer requires inputs with matching shapes "
                                 "except for the concatenation axis. "
                                 f"Received: input_shape={input_shape}")

    def call(self, inputs):
        return self._merge_function(inputs)

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

    def build(self, input_shape):
        # Used purely for shape validation (TF's messages).
        input_shape = _shape_tuples(input_shape)
        if not isinstance(input_shape, list) or not isinstance(input_shape[0], tuple) or \
                len(input_shape) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={input_shape}")
        self.built = True
        shape1, shape2 = input_shape
        if shape1 is None or shape2 is None:
            return
        if isinstance(self.axes, int):
            axes = [self.axes % len(shape1), self.axes % len(shape2)] if self.axes < 0 \
                else [self.axes] * 2
        else:
            axes = self.axes
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError(f"Incompatible input shapes: axis values {shape1[axes[0]]} (at axis "
                             f"{axes[0]}) != {shape2[axes[1]]} (at axis {axes[1]}). Full input "
                             f"shapes: {shape1}, {shape2}")

    def call(self, inputs):
        return self._merge_function(list(inputs))

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
