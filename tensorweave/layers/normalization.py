"""`BatchNormalization` / `batch_normalization`: TF's legacy tf.layers batch norm.

Variables "<name>/gamma" and "<name>/beta" (trainable) and "<name>/moving_mean",
"<name>/moving_variance" (not trainable, GLOBAL_VARIABLES only), as TF makes them.

Training with the batch statistics adds two update ops "<name>/AssignMovingAvg" and
"<name>/AssignMovingAvg_1" to tf.GraphKeys.UPDATE_OPS (and the layer's `updates`); each computes
moving -= (moving - batch_stat) * (1 - momentum). Run them with the train op, as in TF:

    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = optimizer.minimize(loss)

4-D inputs normalized over the channel axis use the fused op (FusedBatchNormV3; the moving
variance then follows the unbiased batch variance, as TF's fused path); other inputs use
tf.nn.moments and tf.nn.batch_normalization (biased variance, as TF's unfused path).

`training` may be a Python bool or a scalar bool tensor. For a tensor, as TF does: the fused
path selects the normalization with `tf.cond` (output "<name>/cond/Merge:0") and its update ops
use a training-dependent decay ((1 - momentum) when training, 0 when not, so running them in
inference leaves the moving statistics unchanged); the unfused path selects the statistics with
"cond"/"cond_1" and runs each update inside a cond ("cond_2/Merge", "cond_3/Merge" in
UPDATE_OPS). A layer built with trainable=False adds no update ops to UPDATE_OPS (TF's rule).

`renorm=True` (batch renormalization, see batch_renorm.py) adds "<name>/moving_stddev",
"renorm_mean" and "renorm_stddev" and always runs unfused; `virtual_batch_size` normalizes ghost
batches (TF's V1 reshape to [vbs, -1, ...], parameters [1, 1, ..., C]); `adjustment(shape)`
returns (scale, bias) applied in training. Where the fused op cannot serve (renorm, ghost
batches, adjustment, rank != 4, another axis) TF's V1 layer, and so this one, runs unfused.
"""

import numpy as np

from ..framework import dtypes as _dtypes_mod
from ..framework.constant_op import convert_to_tensor
from ..framework.graph import Tensor, get_default_graph, name_scope
from ..framework.tensor_shape import TensorShape
from .base import InputSpec, Layer, _shape_str
from .batch_renorm import (compose_transforms, constant_training_value,
                           renorm_correction_and_moments, smart_cond, validate_renorm_clipping)

__all__ = ["BatchNormalization", "batch_normalization", "BatchNorm"]


def _sqrt(x):
    from ..ops import math_ops
    return math_ops.sqrt(x)


def _init(kind):
    from ..ops import init_ops
    return init_ops.zeros_initializer() if kind == 0 else init_ops.ones_initializer()


class _DimRepr:
    """repr of one V1 Dimension: Dimension(None), Dimension(3)."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Dimension({self.value})"


class BatchNormalization(Layer):
    """Normalizes `inputs` over all axes but `axis` with batch statistics (training) or the
    moving averages (inference), then scales by gamma and shifts by beta."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=None, gamma_initializer=None, moving_mean_initializer=None,
                 moving_variance_initializer=None, beta_regularizer=None, gamma_regularizer=None,
                 beta_constraint=None, gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
                 adjustment=None, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self.renorm = renorm
        self.virtual_batch_size = virtual_batch_size
        self.adjustment = adjustment
        if renorm:
            self.renorm_clipping = validate_renorm_clipping(renorm_clipping)
            self.renorm_momentum = renorm_momentum
        self.axis = axis if isinstance(axis, int) else list(axis)
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.beta_initializer = beta_initializer if beta_initializer is not None else _init(0)
        self.gamma_initializer = gamma_initializer if gamma_initializer is not None else _init(1)
        self.moving_mean_initializer = moving_mean_initializer if moving_mean_initializer is not None \
            else _init(0)
        self.moving_variance_initializer = moving_variance_initializer \
            if moving_variance_initializer is not None else _init(1)
        self.beta_regularizer = beta_regularizer
        self.gamma_regularizer = gamma_regularizer
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint
        # TF's legacy layer starts fused (None means True) and falls back in build.
        self.fused = True if fused is None else fused
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape.ndims is None:
            raise ValueError(f"Input has undefined rank. Received: input_shape={_shape_str(input_shape)}")
        nd = input_shape.ndims
        # TF's tf_utils.validate_axis: negatives get rank added once, then all are checked.
        axes = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        axes = [a + nd if a < 0 else a for a in axes]
        for a in axes:
            if not 0 <= a < nd:
                raise ValueError("Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank "
                                 f"(with inputs.rank={nd}). Received: axis={tuple(axes)}")
        vbs = self.virtual_batch_size
        if vbs is not None:
            if vbs <= 0:
                raise ValueError("`virtual_batch_size` must be a positive integer that divides the "
                                 "true batch size of the input tensor. Received: "
                                 f"virtual_batch_size={vbs}")
            if 0 in axes:
                raise ValueError("When using `virtual_batch_size`, the batch dimension must be 0 "
                                 f"and thus axis cannot include 0. Received axis={axes}")
            if self.adjustment is not None:
                raise ValueError("When using `virtual_batch_size`, adjustment cannot be specified")
        if len(set(axes)) != len(axes):
            raise ValueError(f"Duplicate axis: {tuple(axes)}")
        dims = input_shape.as_list()
        for a in axes:
            if dims[a] is None:
                # TF formats tuple(input_shape) (V1 Dimension objects) and the normalized axes
                dims_repr = tuple(_DimRepr(d) for d in dims)
                raise ValueError(f"Input has undefined `axis` dimension. Received input with "
                                 f"shape {dims_repr} and axis={tuple(axes)}")
        c = dims[axes[0]]
        self.input_spec = InputSpec(ndim=nd, axes={a: dims[a] for a in axes})
        dt = self._dtype
        if dt is not None and dt.base_dtype.name in ("float16", "bfloat16"):
            dt = _dtypes_mod.float32   # TF raises half-precision parameters to float32
        # TF's V1 layer silently uses the unfused path where the fused op cannot serve.
        fusable = (nd == 4 and len(axes) == 1 and axes[0] in (1, 3) and not self.renorm
                   and vbs is None
                   and self.adjustment is None
                   and (dt is None or dt.base_dtype.name in ("float16", "bfloat16", "float32")))
        self.fused = bool(self.fused) and fusable
        if vbs is None:
            # Several axes: parameters keep the input's rank, 1 off those axes (TF's shape).
            param_shape = [c] if len(axes) == 1 else \
                [dims[i] if i in axes else 1 for i in range(nd)]
        else:
            # Ghost batches: inputs become [vbs, -1, ...], parameters [1, 1, ..., c].
            param_shape = [1] * (nd + 1)
            for a in axes:
                param_shape[a + 1] = dims[a]
            axes = [a + 1 for a in axes]
        self._axes = axes
        self._param_shape = param_shape
        if self.scale:
            self.gamma = self.add_weight("gamma", shape=param_shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint, dtype=dt, trainable=True)
        if self.center:
            self.beta = self.add_weight("beta", shape=param_shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint, dtype=dt, trainable=True)
        self.moving_mean = self.add_weight("moving_mean", shape=param_shape,
                                           initializer=self.moving_mean_initializer, dtype=dt,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", shape=param_shape,
                                               initializer=self.moving_variance_initializer, dtype=dt,
                                               trainable=False)
        if self.renorm:
            # Renorm tracks the inference stddev (moving_stddev, sqrt of the variance initializer)
            # and its own training averages renorm_mean / renorm_stddev.
            def moving_stddev_initializer(shape, dtype=None, partition_info=None):
                from ..ops import math_ops
                return math_ops.sqrt(self.moving_variance_initializer(
                    shape, dtype, partition_info=partition_info))
            self.moving_stddev = self.add_weight("moving_stddev", shape=param_shape,
                                                 initializer=moving_stddev_initializer, dtype=dt,
                                                 trainable=False)
            self.renorm_mean = self.add_weight("renorm_mean", shape=param_shape,
                                               initializer=self.moving_mean_initializer, dtype=dt,
                                               trainable=False)
            self.renorm_stddev = self.add_weight("renorm_stddev", shape=param_shape,
                                                 initializer=moving_stddev_initializer, dtype=dt,
                                                 trainable=False)
        self.built = True

    # -- helpers -------------------------------------------------------------------------------
    def _assign_moving_average(self, variable, value, momentum):
        """The update op of variable -= (variable - value) * (1 - momentum)."""
        return self._moving_average_update(variable, value, momentum).op

    def _moving_average_update(self, variable, value, momentum):
        """variable -= (variable - value) * (1 - momentum); `momentum` a tensor or a float.
        Returns what tf.assign_sub returns: the updated ref tensor (reference variables) or the
        variable as of after the update (resource variables)."""
        from ..ops import math_ops, state_ops
        from ..framework.graph import colocate_with
        # Keras colocates the whole update with the variable (each op gets its `_class` attr).
        with name_scope(None, "AssignMovingAvg", [variable, value, momentum]) as scope, colocate_with(variable):
            if isinstance(momentum, Tensor):
                decay = math_ops.subtract(np.asarray(1.0, momentum.dtype.base_dtype.as_numpy_dtype),
                                          momentum, name="sub")
            else:
                decay = convert_to_tensor(np.asarray(1.0 - momentum, np.float32), name="decay")
            value = math_ops.cast(value, variable.dtype.base_dtype) \
                if value.dtype.base_dtype != variable.dtype.base_dtype else value
            delta = (variable - value) * decay
            return state_ops.assign_sub(variable, delta, name=scope)

    def _momentum_for(self, training):
        """The momentum as TF's layer uses it: `momentum` when training, 1 (no change) when not."""
        from ..ops import array_ops
        mom = convert_to_tensor(np.asarray(self.momentum, np.float32), name="Const")
        if isinstance(training, Tensor):
            one = convert_to_tensor(np.asarray(1.0, np.float32), name="Const_1")
            mom = array_ops.where_v2(training, mom, one, name="momentum")
        return mom

    def _gamma_beta(self, dtype, c):
        from ..ops import array_ops
        gamma = self.gamma if self.gamma is not None else array_ops.ones([c], dtype=dtype)
        beta = self.beta if self.beta is not None else array_ops.zeros([c], dtype=dtype)
        return gamma, beta

    # -- calling -------------------------------------------------------------------------------
    def call(self, inputs, training=False):
        if training is None:
            training = False
        if not isinstance(training, Tensor):
            training = bool(training)
        elif training.dtype.base_dtype.name != "bool":
            raise TypeError("`training` must be a Python bool or a bool tensor")
        training = constant_training_value(training)
        if self.fused:
            return self._fused_call(inputs, training)
        half = inputs.dtype.base_dtype.name in ("float16", "bfloat16")
        if half and self.virtual_batch_size is None:
            # As TF: 16-bit inputs are normalized in float32 ("Cast"), then cast back.
            from ..ops import math_ops
            in_dtype = inputs.dtype.base_dtype
            outputs = self._unfused_call(math_ops.cast(inputs, _dtypes_mod.float32), training)
            # TF casts mean, variance, beta and gamma to the (float32) input dtype; a no-op cast of
            # a reference variable still takes a "Cast_N" name (a tensor's returns early).
            nd = inputs.shape.ndims
            reduction = [i for i in range(nd) if i not in self._axes]
            unshaped = [w for w in (self.beta, self.gamma) if w is not None and not (
                w.shape.ndims != nd and reduction != list(range(nd - 1)))]
            if training is False:
                unshaped += [self.moving_mean, self.moving_variance]
            for w in unshaped:
                if not getattr(w, "_is_resource_variable", False) and not isinstance(w, Tensor):
                    get_default_graph().unique_name("Cast")
            return math_ops.cast(outputs, in_dtype)
        if self.virtual_batch_size is None:
            return self._unfused_call(inputs, training)
        from ..ops import array_ops
        # Ghost batches as TF's V1 layer: [vbs, -1, ...] (a legacy quirk: rows i, i+k, ... form
        # one virtual batch), normalized without reducing axis 1, then reshaped back.
        original_shape = array_ops.shape(inputs)
        original_shape = array_ops.concat([convert_to_tensor(np.array([-1], np.int32)),
                                           original_shape[1:]], axis=0)
        expanded_shape = array_ops.concat(
            [convert_to_tensor(np.array([self.virtual_batch_size, -1], np.int32)),
             original_shape[1:]], axis=0)
        outputs = self._unfused_call(array_ops.reshape(inputs, expanded_shape), training)
        return array_ops.reshape(outputs, original_shape)

    def _fused_call(self, inputs, training):
        from ..ops import array_ops, normalization_ops
        nd = inputs.shape.ndims
        fmt = "NHWC" if self._axes[0] == nd - 1 else "NCHW"
        c = inputs.shape.as_list()[self._axes[0]]
        gamma, beta = self._gamma_beta(self.moving_mean.dtype.base_dtype, c)
        if isinstance(training, Tensor):
            # Resource variables are read before the cond, so their gradients reach the handles
            # (the cond's gradient differentiates its float inputs).
            gamma, beta = [convert_to_tensor(w) if getattr(w, "_is_resource_variable", False) else w
                           for w in (gamma, beta)]
        if training is False:
            out, _, _ = normalization_ops.fused_batch_norm(
                inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                epsilon=self.epsilon, is_training=False, data_format=fmt)
            return out
        def fbn_training():
            return normalization_ops.fused_batch_norm(
                inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                epsilon=self.epsilon, is_training=True, data_format=fmt)

        def fbn_inference():
            out, _, _ = normalization_ops.fused_batch_norm(
                inputs, gamma, beta, mean=self.moving_mean, variance=self.moving_variance,
                epsilon=self.epsilon, is_training=False, data_format=fmt)
            return out, array_ops.identity(self.moving_mean), array_ops.identity(self.moving_variance)

        if isinstance(training, Tensor):
            # TF's smart_cond: "<name>/cond/Merge:0" is the output; the inference branch passes
            # the moving statistics through, so the updates then leave them unchanged.
            from ..ops import control_flow_ops
            out, mean, variance = control_flow_ops.cond(training, fbn_training, fbn_inference)
        else:
            out, mean, variance = fbn_training()
        momentum = self._momentum_for(training)
        self.add_update(self._assign_moving_average(self.moving_mean, mean, momentum))
        self.add_update(self._assign_moving_average(self.moving_variance, variance, momentum))
        return out

    def _unfused_call(self, inputs, training):
        from ..ops import array_ops, math_ops, nn_ops, normalization_ops
        input_shape = inputs.shape
        nd = input_shape.ndims
        reduction = [i for i in range(nd) if i not in self._axes]
        vbs = self.virtual_batch_size
        if vbs is not None:
            del reduction[1]  # each virtual batch keeps its own statistics
        bshape = [1] * nd
        for axis in self._axes:
            bshape[axis] = input_shape.as_list()[axis]

        def bcast(t):
            # Only single-axis parameters for an inner axis need a reshape (TF's _broadcast).
            if t is not None and t.shape.ndims != nd and reduction != list(range(nd - 1)):
                return array_ops.reshape(t, bshape)
            return t

        scale, offset = bcast(self.gamma), bcast(self.beta)
        if training is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            if self.adjustment:
                adj_scale, adj_bias = self.adjustment(array_ops.shape(inputs))
                # Adjust only during training.
                adj_scale = smart_cond(training, lambda: adj_scale,
                                       lambda: array_ops.ones_like(adj_scale))
                adj_bias = smart_cond(training, lambda: adj_bias,
                                      lambda: array_ops.zeros_like(adj_bias))
                scale, offset = compose_transforms(adj_scale, adj_bias, scale, offset)
            batch_mean, batch_variance = nn_ops.moments(
                inputs, reduction, keep_dims=vbs is not None or len(self._axes) > 1)
            # As TF's smart_cond: with a tensor, "cond"/"cond_1" pick the statistics.
            mean = smart_cond(training, lambda: batch_mean,
                              lambda: array_ops.identity(self.moving_mean))
            variance = smart_cond(training, lambda: batch_variance,
                                  lambda: array_ops.identity(self.moving_variance))
            if vbs is not None:
                new_mean = math_ops.reduce_mean(mean, axis=1, keepdims=True)
                new_variance = math_ops.reduce_mean(variance, axis=1, keepdims=True)
            else:
                new_mean, new_variance = mean, variance
            if self.renorm:
                r, d, new_mean, new_variance = renorm_correction_and_moments(
                    new_mean, new_variance, training, self.renorm_mean, self.renorm_stddev,
                    self.epsilon, self.renorm_clipping, self.renorm_momentum,
                    self._moving_average_update)
                # (x * r + d) * gamma + beta = x * (r * gamma) + (d * gamma + beta)
                r = bcast(array_ops.stop_gradient(r, name="renorm_r"))
                d = bcast(array_ops.stop_gradient(d, name="renorm_d"))
                scale, offset = compose_transforms(r, d, scale, offset)
            self._add_moving_updates(training, new_mean, new_variance)
        outputs = normalization_ops.batch_normalization(inputs, bcast(mean), bcast(variance),
                                                        offset, scale, self.epsilon)
        outputs.set_shape(input_shape)
        return outputs

    def _add_moving_updates(self, training, new_mean, new_variance):
        """moving_mean / moving_variance updates (in cond_N when `training` is a tensor); with
        renorm the variance follows moving_stddev: relu(moving_stddev^2 - eps)."""
        from ..ops import array_ops, nn_ops, state_ops
        from ..framework.graph import colocate_with

        def update(var, value):
            upd = self._moving_average_update(var, value, self.momentum)
            # A Python `training`: TF's smart_cond hands back assign_sub's result itself, whose
            # `.op` for a resource variable is the AssignSubVariableOp (not its read).
            return upd if not isinstance(training, Tensor) else convert_to_tensor(upd)

        def variance_renorm():
            stddev = update(self.moving_stddev, _sqrt(new_variance + self.epsilon))
            # relu: rounding must not make the variance negative.
            value = nn_ops.relu(stddev * stddev - self.epsilon)
            with name_scope(None, "AssignNewValue") as scope, colocate_with(self.moving_variance):
                return state_ops.assign(self.moving_variance, value, name=scope)

        mean_upd = smart_cond(training, lambda: update(self.moving_mean, new_mean),
                              lambda: array_ops.identity(self.moving_mean))
        var_upd = smart_cond(training,
                             variance_renorm if self.renorm
                             else (lambda: update(self.moving_variance, new_variance)),
                             lambda: array_ops.identity(self.moving_variance))
        self.add_update(mean_upd.op)
        self.add_update(var_upd.op)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=None, gamma_initializer=None, moving_mean_initializer=None,
                        moving_variance_initializer=None, beta_regularizer=None, gamma_regularizer=None,
                        beta_constraint=None, gamma_constraint=None, training=False, trainable=True,
                        name=None, reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
    """Functional form of `BatchNormalization` (variables "batch_normalization/gamma", ...)."""
    layer = BatchNormalization(axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                               beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
                               moving_mean_initializer=moving_mean_initializer,
                               moving_variance_initializer=moving_variance_initializer,
                               beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                               beta_constraint=beta_constraint, gamma_constraint=gamma_constraint,
                               renorm=renorm, renorm_clipping=renorm_clipping,
                               renorm_momentum=renorm_momentum, fused=fused, trainable=trainable,
                               virtual_batch_size=virtual_batch_size, adjustment=adjustment, name=name,
                               _scope=name, _reuse=reuse)
    return layer(inputs, training=training)


BatchNorm = BatchNormalization
