"""keras layer wrappers: TimeDistributed (applies a layer to every time step by folding the
time axis into the batch: "time_distributed/Reshape", the layer, "Reshape_1") and Bidirectional
(a forward and a go_backwards copy of an RNN layer, "forward_lstm" / "backward_lstm", merged by
concat, sum, ave, mul or returned as a list).

As TF's `Wrapper.build`, the wrapped layer is built inside the wrapper's name scope, so its
weights are "time_distributed/kernel:0" rather than "time_distributed/dense/kernel:0"."""

from ...framework.tensor_shape import TensorShape
from .. import backend as K
from ..engine import InputSpec, Layer, _fn_args

__all__ = ["Wrapper", "TimeDistributed", "Bidirectional"]


def _tf():
    import tensorweave
    return tensorweave


class Wrapper(Layer):
    """Base of layers that wrap another layer (`self.layer`), whose weights they own."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Wrapper` layer with a `tf.keras.layers.Layer` "
                             f"instance. Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            # Built under the wrapper's scope (the wrapper is in its call).
            self.layer._in_call = True
            try:
                self.layer.build(input_shape)
            finally:
                self.layer._in_call = False
            self.layer.built = True
        self.built = True

    def get_config(self):
        return {**Layer.get_config(self),
                "layer": {"class_name": type(self.layer).__name__,
                          "config": self.layer.get_config()}}


class TimeDistributed(Wrapper):
    """Applies `layer` to each slice along axis 1 of a [batch, time, ...] input."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `TimeDistributed` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    @staticmethod
    def _remove_timesteps(shape):
        dims = TensorShape(shape).as_list()
        return TensorShape([dims[0]] + dims[2:])

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape.ndims is None or input_shape.ndims < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape ` with at "
                             f"least 3 dimensions, received: {input_shape}")
        self.input_spec = InputSpec(shape=[None, None] + input_shape.as_list()[2:])
        super().build(self._remove_timesteps(input_shape))

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        child = TensorShape(self.layer.compute_output_shape(self._remove_timesteps(input_shape)))
        dims = child.as_list()
        return TensorShape([dims[0], input_shape.as_list()[1]] + dims[1:])

    @staticmethod
    def _shape_tuple(init, tensor, start):
        """init + tensor's static dims from `start`, each None read from tf.shape(tensor)."""
        dims = K.int_shape(tensor)[start:]
        if not builtin_any(d is None for d in dims):
            return init + tuple(dims)
        shape = K.shape(tensor)
        return init + tuple(shape[start + i] if d is None else d for i, d in enumerate(dims))

    def call(self, inputs, training=None, mask=None):
        tf = _tf()
        kwargs = {}
        if "training" in _fn_args(self.layer.call):
            kwargs["training"] = training
        input_length = K.int_shape(inputs)[1]
        if not input_length:
            input_length = tf.shape(inputs)[1]
        x = tf.reshape(inputs, self._shape_tuple((-1,), inputs, 2))
        if "mask" in _fn_args(self.layer.call) and mask is not None:
            kwargs["mask"] = K.reshape(mask, self._shape_tuple((-1,), mask, 2))
        y = self.layer(x, **kwargs)
        batch = K.int_shape(inputs)[0]
        return tf.reshape(y, self._shape_tuple((batch if batch else -1, input_length), y, 1))

    def compute_mask(self, inputs, mask=None):
        """The inner layer's mask of the folded inputs, unfolded ("Reshape_2"); else the input
        mask reduced to [batch, time]."""
        tf = _tf()
        inner_mask = mask
        if inner_mask is not None:
            inner_mask = K.reshape(inner_mask, self._shape_tuple((-1,), mask, 2))
        inner_inputs = tf.reshape(inputs, self._shape_tuple((-1,), inputs, 2))
        output_mask = self.layer.compute_mask(inner_inputs, inner_mask)
        if output_mask is None:
            if mask is None:
                return None
            output_mask = mask
            for _ in range(2, len(K.int_shape(mask))):
                output_mask = K.any(output_mask, axis=-1)
            return output_mask
        input_length = K.int_shape(inputs)[1] or K.shape(inputs)[1]
        batch = K.int_shape(inputs)[0]
        return K.reshape(output_mask, self._shape_tuple((batch if batch else -1, input_length),
                                                        output_mask, 1))


def builtin_any(iterable):
    for v in iterable:
        if v:
            return True
    return False


class Bidirectional(Wrapper):
    """Runs an RNN layer forwards and a copy of it backwards over the inputs and merges their
    outputs (`merge_mode` "concat" (default), "sum", "ave", "mul" or None for a list)."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Bidirectional` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError("`backward_layer` need to be a `tf.keras.layers.Layer` instance. "
                             f"Received: {backward_layer}")
        if merge_mode not in ["sum", "mul", "ave", "concat", None]:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be "
                             "one of {\"sum\", \"mul\", \"ave\", \"concat\", None}")
        if weights is not None:
            raise NotImplementedError("Bidirectional(weights=...) is not supported by tensorweave "
                                      "yet; call set_weights after building")
        super().__init__(layer, **kwargs)
        self.forward_layer = layer
        if backward_layer is None:
            config = layer.get_config()
            config["go_backwards"] = not config["go_backwards"]
            self.backward_layer = type(layer).from_config(config)
        else:
            self.backward_layer = backward_layer
        self.forward_layer._name = "forward_" + self.forward_layer.name
        self.backward_layer._name = "backward_" + self.backward_layer.name
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self.input_spec = layer.input_spec
        self._layers_tracked = [self.forward_layer, self.backward_layer]

    def build(self, input_shape):
        self.built = True

    def call(self, inputs, training=None, mask=None, initial_state=None):
        kwargs = {}
        if "training" in _fn_args(self.layer.call):
            kwargs["training"] = training
        if "mask" in _fn_args(self.layer.call) and mask is not None:
            kwargs["mask"] = mask
        fw_kwargs, bw_kwargs = dict(kwargs), dict(kwargs)
        if initial_state is not None:
            half = len(initial_state) // 2
            fw_kwargs["initial_state"] = initial_state[:half]
            bw_kwargs["initial_state"] = initial_state[half:]
        y = self.forward_layer(inputs, **fw_kwargs)
        y_rev = self.backward_layer(inputs, **bw_kwargs)
        states = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = K.reverse(y_rev, 1)
        if self.merge_mode == "concat":
            output = K.concatenate([y, y_rev])
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if self.return_state:
            return (output if self.merge_mode is None else [output]) + states
        return output

    def compute_mask(self, inputs, mask=None):
        if not self.return_sequences:
            mask = None
        if self.merge_mode is None:
            out = [mask, mask]
        else:
            out = mask
        if self.return_state:
            n = len(self.forward_layer.states) if hasattr(self.forward_layer, "states") else 0
            out = (out if isinstance(out, list) else [out]) + [None] * (2 * n)
        return out

    def compute_output_shape(self, input_shape):
        out = TensorShape(self.forward_layer.compute_output_shape(input_shape))
        dims = out.as_list()
        if self.merge_mode == "concat":
            dims[-1] = None if dims[-1] is None else dims[-1] * 2
            return TensorShape(dims)
        if self.merge_mode is None:
            return [out, out]
        return out

    def get_config(self):
        config = {**Layer.get_config(self), "merge_mode": self.merge_mode}
        config["layer"] = {"class_name": type(self.forward_layer).__name__,
                           "config": self.forward_layer.get_config()}
        return config

