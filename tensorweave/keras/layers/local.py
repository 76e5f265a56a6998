"""keras LocallyConnected1D / LocallyConnected2D: convolutions whose weights are not shared,
one filter bank per output position.

`implementation` picks how the layer computes (all three give the same values, as TF's):
  1  a kernel (output positions, window * channels, filters): the window at each output
     position is sliced, the slices stacked and multiplied in one batched matmul
     ("valid" padding only);
  2  a dense kernel over every (input position, output position) pair (input shape + output
     shape), multiplied by a 0/1 connectivity mask and applied as one matmul;
  3  only the connected pairs' weights (a 1-D kernel in TF's sorted (output, input) index
     order), scattered into that matrix.
The bias has shape output positions + (filters,) and, with channels_first, is reshaped (not
transposed) onto the output as TF's `K.bias_add` does.
"""

import itertools

import numpy as np

from ...framework.tensor_shape import TensorShape
from .. import activations, constraints, initializers, regularizers
from ..engine import InputSpec, Layer

__all__ = ["LocallyConnected1D", "LocallyConnected2D"]


def _tuple(v, n, name):
    if isinstance(v, int):
        return (v,) * n
    v = tuple(int(x) for x in v)
    if len(v) != n:
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. "
                         f"Received: {v}")
    return v


def _window(pos, k, stride, padding):
    """Input range [start, end) a 'valid' or 'same' window at output `pos` reads."""
    start = pos * stride - (k // 2 if padding == "same" else 0)
    return start, start + k


def _out_len(n, k, stride, padding):
    if n is None:
        return None
    n = n - k + 1 if padding == "valid" else n
    return (n + stride - 1) // stride


class _LocallyConnected(Layer):
    _rank = 1

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 implementation=1, **kwargs):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        n = self._rank
        self.filters = int(filters)
        self.kernel_size = _tuple(kernel_size, n, "kernel_size")
        self.strides = _tuple(strides, n, "strides")
        self.padding = str(padding).lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be a string: `valid` or `same`. "
                             f"Received: {padding}")
        if self.padding != "valid" and implementation == 1:
            raise ValueError("Invalid border mode for LocallyConnected" + f"{n}D (only \"valid\" "
                             "is supported if implementation is 1): " + str(padding))
        from .. import backend as K
        self.data_format = data_format or K.image_data_format()
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.implementation = implementation
        self.input_spec = InputSpec(ndim=n + 2)

    # -- geometry -------------------------------------------------------------------------------
    def _split(self, dims):
        """(spatial dims, channels) of an input shape without its batch dim."""
        if self.data_format == "channels_first":
            return list(dims[1:]), dims[0]
        return list(dims[:-1]), dims[-1]

    def _mask(self):
        """0/1 connectivity of input positions x output positions (TF's conv_kernel_mask)."""
        mask = np.zeros(tuple(self._in_sp) + tuple(self._out_sp), bool)
        for out in itertools.product(*[range(o) for o in self._out_sp]):
            win = []
            for d, o in enumerate(out):
                s, e = _window(o, self.kernel_size[d], self.strides[d], self.padding)
                win.append(slice(max(s, 0), min(e, self._in_sp[d])))
            mask[tuple(win) + out] = True
        return mask

    def _full_layout(self, mask):
        """The mask broadcast over channels in the implementation-2 kernel layout."""
        n = self._rank
        if self.data_format == "channels_first":
            m = mask.reshape((1,) + mask.shape[:n] + (1,) + mask.shape[n:])
            return np.broadcast_to(m, (self._in_ch,) + mask.shape[:n] + (self.filters,) +
                                   mask.shape[n:])
        m = mask.reshape(mask.shape[:n] + (1,) + mask.shape[n:] + (1,))
        return np.broadcast_to(m, mask.shape[:n] + (self._in_ch,) + mask.shape[n:] +
                               (self.filters,))

    def build(self, input_shape):
        dims = TensorShape(input_shape).as_list()[1:]
        sp, ch = self._split(dims)
        if any(d is None for d in sp) or ch is None:
            raise ValueError(f"The spatial dimensions and channels of the inputs to "
                             f"LocallyConnected{self._rank}D should be defined. "
                             f"Found input shape: {tuple([None] + dims)}")
        self._in_sp, self._in_ch = sp, ch
        self._out_sp = [_out_len(sp[d], self.kernel_size[d], self.strides[d], self.padding)
                        for d in range(self._rank)]
        if any(o <= 0 for o in self._out_sp):
            raise ValueError(f"One of the dimensions in the output is <= 0 due to downsampling "
                             f"in {self.name}. Consider increasing the input size. Received "
                             f"input shape {tuple([None] + dims)} which would produce output "
                             f"shape with a zero or negative value in a dimension.")
        n_out = int(np.prod(self._out_sp))
        if self.implementation not in (1, 2, 3):
            raise ValueError("Unrecognized implementation mode: %d." % self.implementation)
        if self.implementation == 1:
            shape = (n_out, int(np.prod(self.kernel_size)) * ch, self.filters)
        else:
            mask = self._full_layout(self._mask())
            if self.implementation == 2:
                shape = mask.shape
                self.kernel_mask = mask.astype(np.float32)
            else:
                self._set_sparse_indices(mask)
                shape = (len(self.kernel_idxs),)
        self.kernel = self.add_weight("kernel", shape, initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight(
            "bias", tuple(self._out_sp) + (self.filters,), initializer=self.bias_initializer,
            regularizer=self.bias_regularizer,
            constraint=self.bias_constraint) if self.use_bias else None
        axis = 1 if self.data_format == "channels_first" else -1
        self.input_spec = InputSpec(ndim=self._rank + 2, axes={axis: ch})
        self.built = True

    def _set_sparse_indices(self, full_mask):
        # Pairs (output flat index, input flat index), sorted, as TF's conv_kernel_idxs.
        n_in = int(np.prod(full_mask.shape[:self._rank + 1]))
        flat = full_mask.reshape(n_in, -1)
        ins, outs = np.nonzero(flat)
        self.kernel_idxs = sorted(zip(outs.tolist(), ins.tolist()))
        self.kernel_shape = (flat.shape[1], n_in)

    # -- computing ------------------------------------------------------------------------------
    def _out_dims(self):
        if self.data_format == "channels_first":
            return [self.filters] + self._out_sp
        return self._out_sp + [self.filters]

    def _local_conv(self, inputs):
        from ...ops import array_ops as a, math_ops as m
        n = self._rank
        first = self.data_format == "channels_first"
        feat = int(np.prod(self.kernel_size)) * self._in_ch
        xs = []
        for out in itertools.product(*[range(o) for o in self._out_sp]):
            win = tuple(slice(o * s, o * s + k)
                        for o, s, k in zip(out, self.strides, self.kernel_size))
            idx = (slice(None),) * 2 + win if first else (slice(None),) + win + (slice(None),)
            xs.append(a.reshape(inputs[idx], [1, -1, feat]))
        out = m.matmul(a.concat(xs, 0), self.kernel)
        out = a.reshape(out, self._out_sp + [-1, self.filters])
        perm = [n] + ([n + 1] + list(range(n)) if first else list(range(n)) + [n + 1])
        return a.transpose(out, perm)

    def _matmul(self, inputs, kernel, transpose_b=False):
        from ...ops import array_ops as a, math_ops as m
        flat = a.reshape(inputs, a.stack([a.shape(inputs)[0], -1]))
        if not transpose_b:
            kernel = a.reshape(kernel, [int(np.prod(kernel.shape.as_list()[:self._rank + 1])),
                                        -1])
        out = m.matmul(flat, kernel, transpose_b=transpose_b)
        return a.reshape(out, [-1] + self._out_dims())

    def call(self, inputs):
        from ...ops import array_ops as a
        if self.implementation == 1:
            out = self._local_conv(inputs)
        elif self.implementation == 2:
            out = self._matmul(inputs, self.kernel * self.kernel_mask.astype(
                self.kernel.dtype.base_dtype.as_numpy_dtype))
        else:
            from ...ops.array_gather_ops import scatter_nd
            dense = scatter_nd(np.asarray(self.kernel_idxs, np.int64), self.kernel,
                               np.asarray(self.kernel_shape, np.int64))
            out = self._matmul(inputs, dense, transpose_b=True)
        if self.bias is not None:
            bshape = self.bias.shape.as_list()
            if self.data_format == "channels_first":
                out = out + a.reshape(self.bias, [1, bshape[-1]] + bshape[:-1])
            else:
                out = out + a.reshape(self.bias, [1] + bshape)
        return self.activation(out) if self.activation is not None else out

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        sp, _ = self._split(dims[1:])
        out = [_out_len(sp[d], self.kernel_size[d], self.strides[d], self.padding)
               for d in range(self._rank)]
        if self.data_format == "channels_first":
            return TensorShape([dims[0], self.filters] + out)
        return TensorShape([dims[0]] + out + [self.filters])

    def get_config(self):
        return {**Layer.get_config(self), "filters": self.filters,
                "kernel_size": self.kernel_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self._activity_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
                "implementation": self.implementation}


class LocallyConnected1D(_LocallyConnected):
    """Locally-connected layer over (batch, steps, channels) inputs: like Conv1D, but each
    output step has its own weights."""

    _rank = 1


class LocallyConnected2D(_LocallyConnected):
    """Locally-connected layer over (batch, rows, cols, channels) inputs: like Conv2D, but
    each output position has its own weights."""

    _rank = 2
