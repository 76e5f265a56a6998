"""More of the classic `tf.keras.backend` (K.*) API: batch_dot, element-wise math, reductions,
repeats and paddings, convolutions and poolings (channels_first inputs are transposed to
channels_last, as TF's keras does on a CPU), random tensors and variables, `switch`, the focal
crossentropies and small utilities. Each function builds the ops TF's keras backend builds;
`backend` re-exports them all."""

import contextlib
import sys

import numpy as np


__all__ = ["batch_dot", "all", "any", "arange", "backend", "batch_normalization", "bias_add",
           "binary_focal_crossentropy", "categorical_focal_crossentropy", "conv1d", "conv2d",
           "conv2d_transpose", "conv3d", "cos", "sin", "cumprod", "cumsum", "depthwise_conv2d",
           "separable_conv2d", "eye", "foldl", "foldr", "map_fn", "greater_equal", "less_equal",
           "in_top_k", "is_sparse", "to_dense", "learning_phase_scope",
           "manual_variable_initialization", "moving_average_update",
           "normalize_batch_in_training", "one_hot", "permute_dimensions", "pool2d", "pool3d",
           "print_tensor", "random_bernoulli", "random_binomial", "random_normal_variable",
           "random_uniform_variable", "truncated_normal", "repeat", "repeat_elements",
           "resize_images", "resize_volumes", "reverse", "round", "sign", "spatial_2d_padding",
           "spatial_3d_padding", "temporal_padding", "switch", "log_softmax"]


def _tf():
    import tensorweave
    return tensorweave


def _K():
    from . import backend
    return backend


def _data_format(data_format):
    data_format = data_format or _K().image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


# -- batch_dot -----------------------------------------------------------------------------------
def batch_dot(x, y, axes=None):
    """Per-sample dot product of two batched tensors over `axes` (TF's K.batch_dot, op for op:
    transposes to bring the axes into place, a rank-3 matmul, reshapes back)."""
    tf = _tf()
    K = _K()
    x_shape, y_shape = K.int_shape(x), K.int_shape(y)
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError("Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"shapes {x_shape} and {y_shape}.")
    if x_shape[0] is not None and y_shape[0] is not None and x_shape[0] != y_shape[0]:
        raise ValueError("Cannot do batch_dot on inputs with different batch sizes. Received "
                         f"inputs with shapes {x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    if builtins_any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError("Multiple target dimensions are not supported. Expected: None, int, "
                         f"(int, int), Provided: {axes}")
    axes = list(axes)
    if axes[0] < 0:
        axes[0] += x_ndim
    if axes[1] < 0:
        axes[1] += y_ndim
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, "
                         "add a dummy batch dimension to your inputs using K.expand_dims(x, 0)")
    a0, a1 = axes
    d1, d2 = x_shape[a0], y_shape[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} "
                         f"with axes={axes}. x.shape[{axes[0]}] != y.shape[{axes[1]}] ({d1} != "
                         f"{d2}).")
    orig_x_ndim, orig_y_ndim = x_ndim, y_ndim
    if x_ndim == 2:
        x = tf.expand_dims(x, 1)
        a0 += 1
        x_ndim += 1
    if y_ndim == 2:
        y = tf.expand_dims(y, 2)
        y_ndim += 1
    if a0 != x_ndim - 1:
        pattern = list(range(x_ndim))
        for i in range(a0, x_ndim - 1):
            pattern[i] = pattern[i + 1]
        pattern[-1] = a0
        x = tf.transpose(x, pattern)
    if a1 != 1:
        pattern = list(range(y_ndim))
        for i in range(a1, 1, -1):
            pattern[i] = pattern[i - 1]
        pattern[1] = a1
        y = tf.transpose(y, pattern)
    x_squashed = y_squashed = False
    if x_ndim > 3:
        xs = tf.shape(x)
        x_mid_dims = xs[1:-1]
        x = tf.reshape(x, tf.stack([xs[0], -1, xs[-1]]))
        x_squashed = True
    if y_ndim > 3:
        ys = tf.shape(y)
        y_trail_dims = ys[2:]
        y = tf.reshape(y, tf.stack([ys[0], ys[1], -1]))
        y_squashed = True
    result = tf.matmul(x, y)
    output_shape = tf.shape(result)
    if x_squashed:
        output_shape = tf.concat([output_shape[:1], x_mid_dims, output_shape[-1:]], 0)
    if y_squashed:
        output_shape = tf.concat([output_shape[:-1], y_trail_dims], 0)
    if x_squashed or y_squashed:
        result = tf.reshape(result, output_shape)
    if orig_x_ndim == 2:
        result = tf.squeeze(result, 1)
    elif orig_y_ndim == 2:
        result = tf.squeeze(result, -1)
    return result


import builtins as _builtins  # noqa: E402  (K.all / K.any shadow the builtins below)

builtins_any = _builtins.any


# -- element-wise and reductions -----------------------------------------------------------------
def all(x, axis=None, keepdims=False):  # noqa: A001  (TF's name)
    """Logical AND over `axis` (x is cast to bool)."""
    tf = _tf()
    return tf.reduce_all(tf.cast(x, tf.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    """Logical OR over `axis` (x is cast to bool)."""
    tf = _tf()
    return tf.reduce_any(tf.cast(x, tf.bool), axis, keepdims)


def arange(start, stop=None, step=1, dtype="int32"):
    """A 1-D tensor of evenly spaced values ("arange"), cast to `dtype` when not int32."""
    tf = _tf()
    if stop is None and start < 0:
        start = 0
    result = tf.range(start, limit=stop, delta=step, name="arange")
    if dtype != "int32":
        result = tf.cast(result, dtype)
    return result


def backend():
    """The name of the backend: "tensorflow"."""
    return "tensorflow"


def cos(x):
    return _tf().cos(x)


def sin(x):
    return _tf().sin(x)


def round(x):  # noqa: A001
    """Rounds half to even."""
    return _tf().round(x)


def sign(x):
    return _tf().sign(x)


def cumsum(x, axis=0):
    return _tf().cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return _tf().cumprod(x, axis=axis)


def greater_equal(x, y):
    return _tf().greater_equal(x, y)


def less_equal(x, y):
    return _tf().less_equal(x, y)


def log_softmax(x, axis=-1):
    return _tf().nn.log_softmax(x, axis=axis)


def in_top_k(predictions, targets, k):
    """Whether each target is among the top `k` predictions (a bool vector)."""
    return _tf().nn.in_top_k(predictions, targets, k)


def one_hot(indices, num_classes):
    """One-hot encoding along a new last axis."""
    return _tf().one_hot(indices, depth=num_classes, axis=-1)


def permute_dimensions(x, pattern):
    return _tf().transpose(x, perm=pattern)


def reverse(x, axes):
    if isinstance(axes, int):
        axes = [axes]
    return _tf().reverse(x, axes)


def eye(size, dtype=None, name=None):
    """An identity-matrix variable."""
    K = _K()
    dtype = dtype or K.floatx()
    if isinstance(size, (list, tuple)):
        value = np.eye(*size)
    else:
        value = np.eye(size)
    return K.variable(value, dtype=dtype, name=name)


def map_fn(fn, elems, name=None, dtype=None):
    return _tf().map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    return _tf().foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    return _tf().foldr(fn, elems, initializer=initializer, name=name)


def is_sparse(tensor):
    from ..framework.sparse_tensor import SparseTensor
    return isinstance(tensor, SparseTensor)


def to_dense(tensor):
    if is_sparse(tensor):
        return _tf().sparse.to_dense(tensor)
    return tensor


def print_tensor(x, message="", summarize=3):
    """`x`, printing `message` and its value to stdout whenever it is evaluated."""
    tf = _tf()
    op = tf.print(message, x, output_stream=sys.stdout, summarize=summarize)
    with tf.control_dependencies([op]):
        return tf.identity(x)


# -- repeats and paddings ------------------------------------------------------------------------
def repeat(x, n):
    """[batch, dim] -> [batch, n, dim]."""
    tf = _tf()
    if _K().ndim(x) != 2:
        raise ValueError(f"Expected a 2-D tensor, got shape {_K().int_shape(x)}")
    x = tf.expand_dims(x, 1)
    return tf.tile(x, tf.stack([1, n, 1]))


def repeat_elements(x, rep, axis):
    """np.repeat along `axis`: split + concat when the axis is static, else expand + tile."""
    tf = _tf()
    K = _K()
    x_shape = x.shape.as_list()
    if x_shape[axis] is not None:
        splits = tf.split(value=x, num_or_size_splits=x_shape[axis], axis=axis)
        x_rep = [s for s in splits for _ in range(rep)]
        return K.concatenate(x_rep, axis)
    ndim = len(x_shape)
    axis = axis % ndim
    aux = axis + 1
    dyn_shape = tf.shape(x)
    x_rep = tf.expand_dims(x, axis=aux)
    reps = np.ones(ndim + 1, dtype=np.int32)
    reps[aux] = rep
    x_rep = tf.tile(x_rep, reps)
    reps = np.delete(reps, aux)
    reps[axis] = rep
    reps = tf.constant(reps, dtype="int32")
    x_rep = tf.reshape(x_rep, dyn_shape * reps)
    x_rep.set_shape(x_shape)
    return x_rep


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """Upsamples the two spatial axes by integer factors (`tf.image.resize`, v2 semantics)."""
    tf = _tf()
    from ..ops import image_ops
    if data_format == "channels_first":
        rows, cols = 2, 3
    elif data_format == "channels_last":
        rows, cols = 1, 2
    else:
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    static = x.shape[rows:cols + 1]
    if static.is_fully_defined():
        new_shape = tf.constant(static.as_list(), dtype="int32")
    else:
        new_shape = tf.shape(x)[rows:cols + 1]
    new_shape *= tf.constant(np.array([height_factor, width_factor], dtype="int32"))
    if data_format == "channels_first":
        x = permute_dimensions(x, [0, 2, 3, 1])
    fns = {"nearest": image_ops.resize_nearest_neighbor, "bilinear": image_ops.resize_bilinear,
           "bicubic": image_ops.resize_bicubic}
    if interpolation not in fns:
        raise ValueError("`interpolation` argument should be one of: \"area\", \"bicubic\", "
                         "\"bilinear\", \"gaussian\", \"lanczos3\", \"lanczos5\", "
                         f"\"mitchellcubic\", \"nearest\". Received: \"{interpolation}\".")
    with tf.name_scope(None, "resize", [x, new_shape]):
        out = fns[interpolation](x, new_shape, half_pixel_centers=True)
    if data_format == "channels_first":
        out = permute_dimensions(out, [0, 3, 1, 2])
    return out


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """Repeats the three spatial axes by integer factors."""
    first = {"channels_first": 2, "channels_last": 1}.get(data_format)
    if first is None:
        raise ValueError(f"Invalid data_format: {data_format}")
    out = repeat_elements(x, depth_factor, axis=first)
    out = repeat_elements(out, height_factor, axis=first + 1)
    return repeat_elements(out, width_factor, axis=first + 2)


def temporal_padding(x, padding=(1, 1)):
    """Pads the middle axis of a 3-D tensor."""
    if len(padding) != 2:
        raise ValueError(f"`padding` should have 2 elements. Received: {padding}")
    return _tf().pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Pads the two spatial axes of a 4-D tensor."""
    data_format = _data_format(data_format)
    p = [list(padding[0]), list(padding[1])]
    pattern = [[0, 0], [0, 0]] + p if data_format == "channels_first" else [[0, 0]] + p + [[0, 0]]
    return _tf().pad(x, pattern)


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Pads the three spatial axes of a 5-D tensor."""
    data_format = _data_format(data_format)
    p = [list(padding[0]), list(padding[1]), list(padding[2])]
    pattern = [[0, 0], [0, 0]] + p if data_format == "channels_first" else [[0, 0]] + p + [[0, 0]]
    return _tf().pad(x, pattern)


# -- convolutions and pooling --------------------------------------------------------------------
def _padding(padding):
    if padding == "same":
        return "SAME"
    if padding == "valid":
        return "VALID"
    raise ValueError(f"Invalid padding: {padding}")


def _to_last(x, data_format, rank):
    if data_format == "channels_first":
        return _tf().transpose(x, [0] + list(range(2, rank + 2)) + [1])
    return x


def _to_first(x, data_format, rank):
    if data_format == "channels_first":
        return _tf().transpose(x, [0, rank + 1] + list(range(1, rank + 1)))
    return x


def _fmt(rank):
    return {1: "NWC", 2: "NHWC", 3: "NDHWC"}[rank]


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution ("causal" pads the left side)."""
    data_format = _data_format(data_format)
    if padding == "causal":
        left = dilation_rate * (int(kernel.shape[0]) - 1)
        x = temporal_padding(x, (left, 0))
        padding = "valid"
    x = _to_last(x, data_format, 1)
    x = _tf().nn.convolution(input=x, filter=kernel, dilation_rate=dilation_rate,
                             strides=strides, padding=_padding(padding), data_format="NWC")
    return _to_first(x, data_format, 1)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    """2-D convolution."""
    data_format = _data_format(data_format)
    x = _to_last(x, data_format, 2)
    x = _tf().nn.convolution(input=x, filter=kernel, dilation_rate=dilation_rate,
                             strides=strides, padding=_padding(padding), data_format="NHWC")
    return _to_first(x, data_format, 2)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1, 1)):
    """3-D convolution."""
    data_format = _data_format(data_format)
    x = _to_last(x, data_format, 3)
    x = _tf().nn.convolution(input=x, filter=kernel, dilation_rate=dilation_rate,
                             strides=strides, padding=_padding(padding), data_format="NDHWC")
    return _to_first(x, data_format, 3)


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """Transposed 2-D convolution to `output_shape` (a None batch is read from the input)."""
    tf = _tf()
    data_format = _data_format(data_format)
    if tuple(dilation_rate) != (1, 1):
        raise NotImplementedError("K.conv2d_transpose with dilation_rate != 1 is not supported by "
                                  "tensorweave yet")
    x = _to_last(x, data_format, 2)
    if data_format == "channels_first":
        output_shape = (output_shape[0], output_shape[2], output_shape[3], output_shape[1])
    if isinstance(output_shape, tuple) and output_shape[0] is None:
        output_shape = (tf.shape(x)[0],) + tuple(output_shape[1:])
    if isinstance(output_shape, (tuple, list)):
        output_shape = tf.stack(list(output_shape))
    x = tf.nn.conv2d_transpose(x, kernel, output_shape, (1,) + tuple(strides) + (1,),
                               padding=_padding(padding), data_format="NHWC")
    return _to_first(x, data_format, 2)


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """Depthwise 2-D convolution."""
    data_format = _data_format(data_format)
    x = _to_last(x, data_format, 2)
    x = _tf().nn.depthwise_conv2d(x, depthwise_kernel, strides=(1,) + tuple(strides) + (1,),
                                  padding=_padding(padding), dilations=dilation_rate,
                                  data_format="NHWC")
    return _to_first(x, data_format, 2)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    """Depthwise then pointwise 2-D convolution."""
    data_format = _data_format(data_format)
    if _K().ndim(x) != 4:
        raise ValueError(f"Input should be a 4-D tensor. Received: {x}")
    x = _to_last(x, data_format, 2)
    x = _tf().nn.separable_conv2d(x, depthwise_kernel, pointwise_kernel,
                                  strides=(1,) + tuple(strides) + (1,),
                                  padding=_padding(padding), rate=dilation_rate,
                                  data_format="NHWC")
    return _to_first(x, data_format, 2)


def _pool(x, pool_size, strides, padding, data_format, pool_mode, rank):
    tf = _tf()
    data_format = _data_format(data_format)
    if len(pool_size) != rank:
        raise ValueError(f"`pool_size` must be a tuple of {rank} integers. Received: {pool_size}")
    if len(strides) != rank:
        raise ValueError(f"`strides` must be a tuple of {rank} integers. Received: {strides}")
    x = _to_last(x, data_format, rank)
    ksize = (1,) + tuple(pool_size) + (1,)
    st = (1,) + tuple(strides) + (1,)
    if pool_mode == "max":
        fn = tf.nn.max_pool if rank == 2 else tf.nn.max_pool3d
    elif pool_mode == "avg":
        fn = tf.nn.avg_pool if rank == 2 else tf.nn.avg_pool3d
    else:
        raise ValueError(f"Invalid pooling mode: {pool_mode}")
    x = fn(x, ksize, st, padding=_padding(padding), data_format=_fmt(rank))
    return _to_first(x, data_format, rank)


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """2-D max or average pooling."""
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 2)


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None, pool_mode="max"):
    """3-D max or average pooling."""
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 3)


def bias_add(x, bias, data_format=None):
    """Adds a bias vector (or a bias of rank ndim(x) - 1) along the channel axis."""
    tf = _tf()
    K = _K()
    data_format = _data_format(data_format)
    bias_shape = K.int_shape(bias)
    if len(bias_shape) != 1 and len(bias_shape) != K.ndim(x) - 1:
        raise ValueError(f"Unexpected bias dimensions {len(bias_shape)}. Expected it to be 1 or "
                         f"{K.ndim(x) - 1} dimensions")
    if len(bias_shape) == 1:
        return tf.nn.bias_add(x, bias, data_format="NCHW" if data_format == "channels_first"
                              else "NHWC")
    if K.ndim(x) in (3, 4, 5):
        if data_format == "channels_first":
            b_channels_first = (1, bias_shape[-1]) + bias_shape[:-1]
            return x + K.reshape(bias, b_channels_first)
        return x + K.reshape(bias, (1,) + bias_shape)
    return tf.nn.bias_add(x, bias)


# -- normalization -------------------------------------------------------------------------------
def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta."""
    return _tf().nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


def normalize_batch_in_training(x, gamma, beta, reduction_axes, epsilon=1e-3):
    """(normalized x, batch mean, batch variance) over `reduction_axes`."""
    tf = _tf()
    K = _K()
    mean, var = tf.nn.moments(x, reduction_axes, None, None, False)
    if sorted(reduction_axes) == list(range(K.ndim(x)))[:-1]:
        normed = tf.nn.batch_normalization(x, mean, var, beta, gamma, epsilon)
        return normed, mean, var
    target_shape = []
    for axis in range(K.ndim(x)):
        target_shape.append(1 if axis in reduction_axes else tf.shape(x)[axis])
    target_shape = tf.stack(target_shape)
    bm = tf.reshape(mean, target_shape)
    bv = tf.reshape(var, target_shape)
    bb = None if beta is None else tf.reshape(beta, target_shape)
    bg = None if gamma is None else tf.reshape(gamma, target_shape)
    normed = tf.nn.batch_normalization(x, bm, bv, bb, bg, epsilon)
    return normed, mean, var


def moving_average_update(x, value, momentum):
    """x = momentum * x + (1 - momentum) * value, zero-debiased as TF1's keras."""
    return _tf().train.assign_moving_average(x, value, momentum, zero_debias=True)


# -- random --------------------------------------------------------------------------------------
def _seed(seed):
    return np.random.randint(10e6) if seed is None else seed


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf().truncated_normal(shape, mean, stddev, dtype=dtype or _K().floatx(),
                                  seed=_seed(seed))


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """1 with probability p, else 0."""
    tf = _tf()
    dtype = dtype or _K().floatx()
    return tf.where_v2(tf.random_uniform(shape, dtype=dtype, seed=_seed(seed)) <= p,
                       tf.ones(shape, dtype=dtype), tf.zeros(shape, dtype=dtype))


def random_binomial(shape, p=0.0, dtype=None, seed=None):
    """Deprecated alias of `random_bernoulli`."""
    return random_bernoulli(shape, p=p, dtype=dtype, seed=seed)


def _random_variable(init, shape, dtype, name):
    from ..ops.variables import Variable
    K = _K()
    dtype = dtype or K.floatx()
    return Variable(init(shape, dtype=_tf().as_dtype(dtype)), dtype=dtype, name=name,
                    use_resource=True)


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    """A variable initialized from N(mean, scale^2)."""
    init = _tf().random_normal_initializer(mean, scale, seed=int(np.random.randint(10e8))
                                           if seed is None else seed)
    return _random_variable(init, shape, dtype, name)


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    """A variable initialized from U(low, high)."""
    init = _tf().random_uniform_initializer(low, high, seed=int(np.random.randint(10e8))
                                            if seed is None else seed)
    return _random_variable(init, shape, dtype, name)


# -- control -------------------------------------------------------------------------------------
def switch(condition, then_expression, else_expression):
    """then_expression where `condition`, else else_expression: a `tf.cond` for a scalar
    condition, an element-wise select (the condition tiled to the expression's shape) else."""
    tf = _tf()
    K = _K()
    if condition.dtype != tf.bool:
        condition = tf.cast(condition, "bool")
    cond_ndim = K.ndim(condition)
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return tf.cond(condition, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    expr_ndim = K.ndim(then_expression)
    if cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of "
                         f"`then_expression` and `else_expression`. ndim(condition)={cond_ndim}, "
                         f"ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:
        ndim_diff = expr_ndim - cond_ndim
        cond_shape = tf.concat([tf.shape(condition), [1] * ndim_diff], axis=0)
        condition = tf.reshape(condition, cond_shape)
        expr_shape = tf.shape(then_expression)
        shape_diff = expr_shape - cond_shape
        tile_shape = tf.where_v2(shape_diff > 0, expr_shape, tf.ones_like(expr_shape))
        condition = tf.tile(condition, tile_shape)
    return tf.where_v2(condition, then_expression, else_expression)


_MANUAL = {"value": False}


def manual_variable_initialization(value):
    """True: keras no longer initializes variables when it hands out its session."""
    _MANUAL["value"] = bool(value)


@contextlib.contextmanager
def learning_phase_scope(value):
    """Within the block the learning phase is `value` (0 = test, 1 = train)."""
    K = _K()
    if value not in (0, 1):
        raise ValueError("Expected learning phase to be 0 or 1.")
    graph = K.get_graph()
    previous = K._FIXED_LEARNING_PHASE.get(graph)
    K.set_learning_phase(value)
    try:
        yield
    finally:
        if previous is None:
            K._FIXED_LEARNING_PHASE.pop(graph, None)
        else:
            K._FIXED_LEARNING_PHASE[graph] = previous


# -- focal crossentropies ------------------------------------------------------------------------
def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25, gamma=2.0,
                              from_logits=False):
    """Binary crossentropy weighted by (1 - p_t) ** gamma (and alpha when balancing)."""
    tf = _tf()
    K = _K()
    sigmoidal = tf.sigmoid(output) if from_logits else output
    p_t = (target * sigmoidal) + ((1 - target) * (1 - sigmoidal))
    focal_factor = tf.pow(1.0 - p_t, gamma)
    bce = K.binary_crossentropy(target, output, from_logits=from_logits)
    focal_bce = focal_factor * bce
    if apply_class_balancing:
        weight = target * alpha + (1 - target) * (1 - alpha)
        focal_bce = weight * focal_bce
    return focal_bce


def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False,
                                   axis=-1):
    """Categorical crossentropy weighted by alpha * (1 - p) ** gamma, summed over `axis`."""
    tf = _tf()
    K = _K()
    target = tf.convert_to_tensor(target)
    output = tf.convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    if from_logits:
        output = tf.nn.softmax(output, axis=axis)
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    eps = tf.convert_to_tensor(K.epsilon(), dtype=output.dtype.base_dtype)
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    cce = -target * tf.log(output)
    modulating_factor = tf.pow(1.0 - output, gamma)
    weighting_factor = tf.multiply(modulating_factor, alpha)
    focal_cce = tf.multiply(weighting_factor, cce)
    return tf.reduce_sum(focal_cce, axis=axis)
