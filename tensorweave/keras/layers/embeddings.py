"""keras Embedding: a [input_dim, output_dim] table "<name>/embeddings" (uniform in
[-0.05, 0.05)), looked up with `tf.nn.embedding_lookup`; `mask_zero=True` gives the output a
mask (ids != 0) that RNN layers honour."""

from ...framework.tensor_shape import TensorShape
from .. import constraints, initializers, regularizers
from ..engine import Layer

__all__ = ["Embedding"]


class Embedding(Layer):
    """Maps integer ids [batch, ...] to vectors [batch, ..., output_dim]."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None, embeddings_constraint=None,
                 mask_zero=False, input_length=None, **kwargs):
        if "input_shape" not in kwargs and input_length is not None:
            kwargs["input_shape"] = (input_length,)
        elif "input_shape" not in kwargs and "batch_input_shape" not in kwargs:
            kwargs["input_shape"] = (None,)
        if input_dim <= 0 or output_dim <= 0:  # checked before a name is taken, as TF
            raise ValueError("Both `input_dim` and `output_dim` should be positive, Received "
                             f"input_dim = {input_dim} and output_dim = {output_dim}")
        kwargs.setdefault("dtype", "float32")
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer), **kwargs)
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.input_length = input_length
        self.mask_zero = mask_zero

    def build(self, input_shape):
        self.embeddings = self.add_weight(
            name="embeddings", shape=(self.input_dim, self.output_dim),
            initializer=self.embeddings_initializer, regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs):
        from ...ops import embedding_ops, math_ops
        if inputs.dtype.base_dtype.name not in ("int32", "int64"):
            inputs = math_ops.cast(inputs, "int32")
        return embedding_ops.embedding_lookup(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        """With mask_zero: True where the id is not 0 (id 0 is padding)."""
        if not self.mask_zero:
            return None
        from ...ops import math_ops
        return math_ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape).concatenate([self.output_dim])
