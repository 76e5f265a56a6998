"""More of tf.nn, as composites of existing ops (so their gradients are those ops'):
conv_transpose (1-3-D by the output_shape's length), atrous_conv2d_transpose
(space_to_batch -> Conv2DBackpropInput -> batch_to_space, TF's construction), with_space_to_batch
(run an op on a dilated input by space_to_batch_nd / batch_to_space_nd) and
safe_embedding_lookup_sparse (embedding_lookup_sparse that drops invalid ids and weights and gives
empty rows zeros or default_id's embedding)."""

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.constant_op import constant_value, convert_to_tensor
from ..framework.graph import Tensor
from ..framework.graph import name_scope as _name_scope
from ..framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["conv_transpose", "atrous_conv2d_transpose", "with_space_to_batch", "safe_embedding_lookup_sparse"]


def _a():
    from . import array_ops
    return array_ops


def _m():
    from . import math_ops
    return math_ops


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,  # noqa: A002
                   dilations=None, name=None):
    """The transpose of convolution (gradient of conv{1,2,3}d with respect to its input); the
    number of spatial dimensions is len(output_shape) - 2."""
    from . import conv3d_ops, conv_ops, nn_extra2
    with _name_scope(name, "conv_transpose", [input, filters, output_shape]) as name:
        if isinstance(output_shape, Tensor):
            n = output_shape.shape[0] - 2
            n = None if n is None else int(n)
        elif hasattr(output_shape, "__len__"):
            n = len(output_shape) - 2
        else:
            raise ValueError("`output_shape` must be a tensor or sized collection. "
                             f"Received: output_shape={output_shape}")
        if n is None or not 1 <= n <= 3:
            raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: output_shape={output_shape} "
                             f"of length {None if n is None else n + 2}.")
        if n == 1:
            return nn_extra2.conv1d_transpose(input, filters, output_shape, strides, padding=padding,
                                              data_format=data_format or "NWC", dilations=dilations, name=name)
        op = conv_ops.conv2d_transpose if n == 2 else conv3d_ops.conv3d_transpose
        fmt = data_format or ("NHWC" if n == 2 else "NDHWC")
        return op(input, filters, output_shape, strides, padding=padding, data_format=fmt, dilations=dilations,
                  name=name)


def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of atrous_conv2d: conv2d_transpose with the filters dilated by `rate`
    (NHWC), built as TF builds it from space_to_batch and Conv2DBackpropInput."""
    from .conv_ops import conv2d_backprop_input, conv2d_transpose
    a = _a()
    with _name_scope(name, "atrous_conv2d_transpose", [value, filters, output_shape]):
        value = convert_to_tensor(value, name="value")
        filters = convert_to_tensor(filters, name="filters")
        if not value.shape.dims[3].is_compatible_with(filters.shape[3]):
            raise ValueError("`value` channel count must be compatible with `filters` input channel count. "
                             f"Received: value.shape={value.shape} with channel count {value.shape[3]} and "
                             f"filters.shape={filters.shape} with input channel count {filters.shape[3]}.")
        if rate < 1:
            raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
        if rate == 1:
            return conv2d_transpose(value, filters, output_shape, strides=[1, 1, 1, 1], padding=padding,
                                    data_format="NHWC")
        output_shape_ = convert_to_tensor(output_shape, name="output_shape")
        if not output_shape_.shape.is_compatible_with(TensorShape([4])):
            raise ValueError(f"`output_shape` must have shape (4,). Received: output_shape={output_shape_.shape}")
        if isinstance(output_shape, tuple):
            output_shape = list(output_shape)
        if isinstance(output_shape, (list, np.ndarray)):
            if not filters.shape.dims[2].is_compatible_with(output_shape[3]):
                raise ValueError("`output_shape` channel count must be compatible with `filters` output channel "
                                 f"count. Received: output_shape={output_shape} with channel count "
                                 f"{output_shape[3]} and filters.shape={filters.shape} with output channel count "
                                 f"{filters.shape[3]}.")
        else:
            output_shape = output_shape_
        if padding == "SAME":
            fs = filters.shape.as_list() if filters.shape.is_fully_defined() else a.shape(filters)
            fh, fw = fs[0], fs[1]
            pad_height = fh + (fh - 1) * (rate - 1) - 1
            pad_width = fw + (fw - 1) * (rate - 1) - 1
            pad_top, pad_left = pad_height // 2, pad_width // 2
            pad_bottom, pad_right = pad_height - pad_top, pad_width - pad_left
        elif padding == "VALID":
            pad_top = pad_bottom = pad_left = pad_right = 0
        else:
            raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
        in_height = output_shape[1] + pad_top + pad_bottom
        in_width = output_shape[2] + pad_left + pad_right
        pad_bottom_extra = (rate - in_height % rate) % rate
        pad_right_extra = (rate - in_width % rate) % rate
        value = a.space_to_batch(value, [[0, pad_bottom_extra], [0, pad_right_extra]], block_size=rate)
        input_sizes = [rate * rate * output_shape[0], (in_height + pad_bottom_extra) // rate,
                       (in_width + pad_right_extra) // rate, output_shape[3]]
        if any(isinstance(s, Tensor) for s in input_sizes):
            input_sizes = a.stack(input_sizes)
        value = conv2d_backprop_input(input_sizes, filters, value, strides=[1, 1, 1, 1], padding="VALID",
                                      data_format="NHWC")
        crops = [[pad_top, pad_bottom + pad_bottom_extra], [pad_left, pad_right + pad_right_extra]]
        if any(isinstance(c, Tensor) for row in crops for c in row):
            crops = a.stack([a.stack(row) for row in crops])
        return a.batch_to_space(value, crops, block_size=rate)


def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None, spatial_dims=None,  # noqa: A002
                        data_format=None):
    """op(converted, num_spatial_dims, "VALID") on `input` turned by space_to_batch_nd into the
    batch of its `dilation_rate`-strided sub-grids, turned back by batch_to_space_nd: runs a
    non-dilated op as a dilated one. padding "SAME" needs filter_shape."""
    input = convert_to_tensor(input, name="input")  # noqa: A001
    call = space_to_batch_op(input.shape, dilation_rate, padding,
                             lambda n, pad: (lambda inp, _: op(inp, n, pad)), filter_shape=filter_shape,
                             spatial_dims=spatial_dims, data_format=data_format)
    return call(input, None)


def space_to_batch_op(input_shape, dilation_rate, padding, build_op, filter_shape=None, spatial_dims=None,
                      data_format=None, num_batch_dims=1):
    """TF's _WithSpaceToBatch: a call(inp, filter) running build_op(num_spatial_dims, padding)
    directly when every rate is 1, else build_op(n, "VALID") between SpaceToBatchND and
    BatchToSpaceND. Builds the same ops, in the same order and with the same names, as TF."""
    from .conv_ops import _padding
    a = _a()
    rate = convert_to_tensor(dilation_rate, _dtypes.int32, name="dilation_rate")
    if rate.shape.ndims not in (None, 1):
        raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: dilation_rate={dilation_rate} of "
                         f"rank {rate.shape.ndims}")
    if not rate.shape.is_fully_defined():
        raise ValueError(f"`dilation_rate.shape` must be fully defined. Received: dilation_rate={dilation_rate} "
                         f"with shape {rate.shape}")
    n = rate.shape.dims[0].value
    nc = data_format is not None and data_format.startswith("NC")
    starting = num_batch_dims + 1 if nc else num_batch_dims
    if spatial_dims is None:
        spatial_dims = range(starting, n + starting)
    orig_spatial_dims = list(spatial_dims)
    spatial_dims = sorted(set(int(x) for x in orig_spatial_dims))
    if spatial_dims != orig_spatial_dims or any(x < 1 for x in spatial_dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of positive integers. "
                         f"Received: spatial_dims={orig_spatial_dims}")
    expected_rank = spatial_dims[-1] if nc else spatial_dims[-1] + 1
    input_shape = TensorShape(input_shape)
    if input_shape.ndims is not None and input_shape.ndims < expected_rank:
        raise ValueError(f"`input.shape.rank` must be at least {expected_rank}. Received: "
                         f"input.shape={input_shape} with rank {input_shape.ndims}")
    const_rate = constant_value(rate)
    rate_or_const = rate
    if const_rate is not None:
        rate_or_const = const_rate
        if np.any(const_rate < 1):
            raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={const_rate}")
        if np.all(const_rate == 1):
            return build_op(n, padding)
    if isinstance(padding, str) and padding not in ("SAME", "VALID"):
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: padding={padding}")
    base_paddings = None
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. "
                             f"Received: filter_shape={filter_shape} and padding={padding}")
        if isinstance(filter_shape, TensorShape):
            filter_shape = filter_shape.as_list()
        filter_shape = convert_to_tensor(filter_shape, name="filter_shape")
        const_filter = constant_value(filter_shape)
        if const_filter is not None:
            base_paddings = _base_paddings(const_filter, n, rate_or_const)
    elif padding == "VALID":
        base_paddings = np.zeros([n, 2], np.int32)
    else:
        _, explicit = _padding(padding, "NCHW" if nc else "NHWC")
        full = np.array(explicit).reshape([n + 2, 2])
        base_paddings = full[2:] if nc else full[1:-1]
    op = build_op(n, "VALID")

    def call(inp, filt):
        spatial = None
        if input_shape.ndims is not None:
            dims = input_shape.as_list()
            spatial = [dims[i] for i in spatial_dims]
        if spatial is None or None in spatial:
            shape = a.shape(inp)
            spatial = a.stack([shape[i] for i in spatial_dims])
        base = base_paddings
        if base is None:
            base = _base_paddings(a.shape(filt), n, rate_or_const)
        paddings, crops = a.required_space_to_batch_paddings(input_shape=spatial, base_paddings=base,
                                                             block_shape=rate)
        block = _adjust(rate, 1, spatial_dims)
        paddings = _adjust(paddings, 0, spatial_dims)
        crops = _adjust(crops, 0, spatial_dims)
        converted = a.space_to_batch_nd(input=inp, block_shape=block, paddings=paddings)
        result = op(converted, filt)
        out = a.batch_to_space_nd(input=result, block_shape=block, crops=crops)
        # channels-first: the channel count BatchToSpaceND cannot know comes from the filter
        if nc and out.shape.ndims is not None and out.shape.dims[1].value is None and filt is not None:
            dims = out.shape.as_list()
            dims[1] = filt.shape[-1]
            out.set_shape(dims)
        return out
    return call


def _base_paddings(filter_shape, n, rate):
    """SAME padding's (start, end) pads per spatial dim: (k - 1) * rate split with start = half."""
    extra = (filter_shape[:n] - 1) * rate
    start = extra // 2
    end = extra - start
    return _a().stack([[start[i], end[i]] for i in range(n)])


def _adjust(orig, fill, spatial_dims):
    """orig's rows moved to rows spatial_dims[i] - 1 of a [max(spatial_dims), ...] tensor, the
    other rows `fill` (TF's _with_space_to_batch_adjust: a NumPy constant when orig is one)."""
    fill_dims = orig.shape.as_list()[1:]
    dtype = orig.dtype.as_numpy_dtype
    const = constant_value(orig)
    src = const if const is not None else orig
    parts, prev, i = [], 0, 0
    while i < len(spatial_dims):
        start_i = i
        start_dim = spatial_dims[i]
        if start_dim > 1:
            parts.append(np.full([start_dim - 1 - prev] + fill_dims, fill, dtype=dtype))
        while i + 1 < len(spatial_dims) and spatial_dims[i + 1] == spatial_dims[i] + 1:
            i += 1
        parts.append(src[start_i:i + 1])
        prev = spatial_dims[i]
        i += 1
    if const is not None:
        return np.concatenate(parts)
    return _a().concat(parts, 0)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None, combiner="mean",
                                 default_id=None, name=None, partition_strategy="div", max_norm=None,
                                 allow_fast_lookup=False):
    """embedding_lookup_sparse made safe: ids < 0 (and, unless combiner is "sum", weights <= 0)
    are dropped; rows left empty give zeros, or default_id's embedding. sparse_ids may have
    rank > 2: the result is [d_0, ..., d_{n-2}, embedding_dim]."""
    from .embedding_ops import embedding_lookup_sparse
    from .sparse_ops import sparse_fill_empty_rows, sparse_reshape, sparse_retain
    from ..framework.sparse_tensor import SparseTensor
    from .partitioned_variables import PartitionedVariable
    a, m = _a(), _m()
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if isinstance(embedding_weights, PartitionedVariable):
        embedding_weights = list(embedding_weights)
    if not isinstance(embedding_weights, list):
        embedding_weights = [embedding_weights]
    if len(embedding_weights) < 1:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    dtype = sparse_weights.dtype if sparse_weights is not None else None
    embedding_weights = [w if hasattr(w, "initializer") and dtype in (None, w.dtype.base_dtype)
                         else convert_to_tensor(w, dtype=dtype) for w in embedding_weights]
    with _name_scope(name, "embedding_lookup", embedding_weights + [sparse_ids, sparse_weights]) as scope:
        original_shape = sparse_ids.dense_shape
        original_rank_dim = original_shape.shape.dims[0].value
        original_rank = a.size(original_shape) if original_rank_dim is None else original_rank_dim
        sparse_ids = sparse_reshape(sparse_ids, [m.reduce_prod(a.slice(original_shape, [0], [original_rank - 1])),
                                                 a.gather(original_shape, original_rank - 1)])
        if sparse_weights is not None:
            sparse_weights = SparseTensor(sparse_ids.indices, sparse_weights.values, sparse_ids.dense_shape)
        is_valid = m.greater_equal(sparse_ids.values, 0)
        if sparse_weights is not None:
            is_valid = m.logical_and(is_valid, a.ones_like(sparse_weights.values, dtype=_dtypes.bool))
        sparse_ids = sparse_retain(sparse_ids, is_valid)
        if sparse_weights is not None:
            sparse_weights = sparse_retain(sparse_weights, is_valid)
        if combiner != "sum" and sparse_weights is not None:
            w_valid = m.greater(sparse_weights.values, 0)
            sparse_ids = sparse_retain(sparse_ids, w_valid)
            sparse_weights = sparse_retain(sparse_weights, w_valid)
        sparse_ids, is_row_empty = sparse_fill_empty_rows(sparse_ids, default_id or 0)
        if sparse_weights is not None:
            sparse_weights, _ = sparse_fill_empty_rows(sparse_weights, 1.0)
        result = embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights, combiner=combiner,
                                         partition_strategy=partition_strategy,
                                         name=None if default_id is None else scope, max_norm=max_norm)
        if default_id is None:
            is_row_empty = a.tile(a.reshape(is_row_empty, [-1, 1]), a.stack([1, a.shape(result)[1]]))
            result = a.where(is_row_empty, a.zeros_like(result), result, name=scope)
        final = a.reshape(result, a.concat([a.slice(m.cast(original_shape, _dtypes.int32), [0],
                                                    [original_rank - 1]),
                                            a.slice(a.shape(result), [1], [-1])], 0))
        lead = unknown_shape(None if original_rank_dim is None else original_rank_dim - 1)
        final.set_shape(lead.concatenate(result.shape[1:]))
        return final
