"""keras spatial reshaping layers: Cropping1D/2D/3D (a strided slice), ZeroPadding1D/3D (a pad)
and UpSampling1D/3D (each spatial axis repeated `size` times), for channels_last and
channels_first inputs."""

from ...framework.tensor_shape import TensorShape
from .. import backend as K
from ..engine import InputSpec, Layer

__all__ = ["Cropping1D", "Cropping2D", "Cropping3D", "ZeroPadding1D", "ZeroPadding3D",
           "UpSampling1D", "UpSampling3D"]


def _pairs(value, rank, name):
    """An int, `rank` ints or `rank` pairs -> `rank` (before, after) pairs."""
    if isinstance(value, int):
        return tuple((value, value) for _ in range(rank))
    value = tuple(value)
    if rank == 1 and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (tuple(value),)
    if len(value) != rank:
        raise ValueError(f"`{name}` should have {rank} elements. Received: {value}.")
    out = []
    for v in value:
        if isinstance(v, int):
            out.append((v, v))
        else:
            v = tuple(v)
            if len(v) != 2:
                raise ValueError(f"`{name}` should be a tuple of {rank} tuples of 2 ints. "
                                 f"Received: {value}")
            out.append(v)
    return tuple(out)


def _spatial_axes(rank, data_format):
    return list(range(1, rank + 1)) if data_format == "channels_last" \
        else list(range(2, rank + 2))


def _data_format(data_format):
    data_format = data_format or K.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError('The `data_format` argument must be one of "channels_first", '
                         f'"channels_last". Received: {data_format}')
    return data_format


class _Cropping(Layer):
    _rank = 1

    def __init__(self, cropping, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format) if self._rank > 1 else "channels_last"
        self.cropping = _pairs(cropping, self._rank, "cropping")
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def call(self, inputs):
        slices = [slice(None)] * (self._rank + 2)
        for axis, (a, b) in zip(_spatial_axes(self._rank, self.data_format), self.cropping):
            slices[axis] = slice(a, -b if b else None)
        return inputs[tuple(slices)]

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        for axis, (a, b) in zip(_spatial_axes(self._rank, self.data_format), self.cropping):
            if dims[axis] is not None:
                dims[axis] = dims[axis] - a - b
        return TensorShape(dims)

    def get_config(self):
        cropping = self.cropping[0] if self._rank == 1 else self.cropping
        config = {**Layer.get_config(self), "cropping": cropping}
        if self._rank > 1:
            config["data_format"] = self.data_format
        return config


class Cropping1D(_Cropping):
    """Crops (start, end) steps of a [batch, steps, features] input (default (1, 1))."""
    _rank = 1

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(cropping, **kwargs)


class Cropping2D(_Cropping):
    """Crops ((top, bottom), (left, right)) rows and columns."""
    _rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format=data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops each of the three spatial axes."""
    _rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format=data_format, **kwargs)


class ZeroPadding1D(Layer):
    """Pads the steps axis with zeros (an int or a (left, right) pair)."""

    def __init__(self, padding=1, **kwargs):
        super().__init__(**kwargs)
        self.padding = _pairs(padding, 1, "padding")[0]
        self.input_spec = InputSpec(ndim=3)

    def call(self, inputs):
        from ...ops import array_ops
        return array_ops.pad(inputs, [[0, 0], list(self.padding), [0, 0]])

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        if dims[1] is not None:
            dims[1] += sum(self.padding)
        return TensorShape(dims)

    def get_config(self):
        return {**Layer.get_config(self), "padding": self.padding}


class ZeroPadding3D(Layer):
    """Pads the three spatial axes with zeros."""

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.padding = _pairs(padding, 3, "padding")
        self.input_spec = InputSpec(ndim=5)

    def call(self, inputs):
        from ...ops import array_ops
        pads = [[0, 0]] * 5
        for axis, p in zip(_spatial_axes(3, self.data_format), self.padding):
            pads[axis] = list(p)
        return array_ops.pad(inputs, pads)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        for axis, p in zip(_spatial_axes(3, self.data_format), self.padding):
            if dims[axis] is not None:
                dims[axis] += sum(p)
        return TensorShape(dims)

    def get_config(self):
        return {**Layer.get_config(self), "padding": self.padding, "data_format": self.data_format}


class _UpSampling(Layer):
    _rank = 1

    def call(self, inputs):
        # K.repeat_elements: a split and a concat per axis when the axis size is known.
        x = inputs
        for axis, n in zip(_spatial_axes(self._rank, self.data_format), self.size):
            x = K.repeat_elements(x, n, axis)
        return x

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        for axis, n in zip(_spatial_axes(self._rank, self.data_format), self.size):
            if dims[axis] is not None:
                dims[axis] *= n
        return TensorShape(dims)


class UpSampling1D(_UpSampling):
    """Repeats each step `size` times."""
    _rank = 1

    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = (int(size),)
        self.data_format = "channels_last"
        self.input_spec = InputSpec(ndim=3)

    def get_config(self):
        return {**Layer.get_config(self), "size": self.size[0]}


class UpSampling3D(_UpSampling):
    """Repeats each of the three spatial axes `size` times (nearest neighbour)."""
    _rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)
        self.size = (size,) * 3 if isinstance(size, int) else tuple(size)
        self.input_spec = InputSpec(ndim=5)

    def get_config(self):
        return {**Layer.get_config(self), "size": self.size, "data_format": self.data_format}
