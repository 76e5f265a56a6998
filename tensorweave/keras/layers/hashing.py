"""keras `Hashing`: strings (or integers, hashed as their decimal text) into `num_bins` bins
with TF's FarmHash Fingerprint64 (`salt=None`) or keyed SipHash (`salt` given), optionally
reserving bin 0 for `mask_value` and encoding the bins one_hot / multi_hot / count."""

from ...framework.tensor_shape import TensorShape
from ...framework import dtypes
from ..engine import Layer
from ..layer_configs import ListWrapper
from .preprocessing import _MODES, _encode

__all__ = ["Hashing"]


class Hashing(Layer):
    """Hashes each input value into one of `num_bins` bins (int64 ids, or encoded rows)."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        # int64 ids by default, floats for the encoded modes (as TF's).
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        elif output_mode == "int" and not dtypes.as_dtype(kwargs["dtype"]).is_integer:
            kwargs["dtype"] = "int64"
        super().__init__(**kwargs)
        if output_mode not in ("int",) + _MODES:
            raise ValueError(f"Unknown value for `output_mode`. Allowed values are: "
                             f"('int', 'one_hot', 'multi_hot', 'count'). Received: {output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, "
                             "`'multi_hot'`, or `'count'`. Received: sparse=True and "
                             "output_mode=int")
        if sparse:
            raise NotImplementedError("Hashing(sparse=True) is not supported by tensorweave yet")
        self.num_bins, self.mask_value = num_bins, mask_value
        self.output_mode, self.sparse = output_mode, sparse
        self.strong_hash = salt is not None
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = ListWrapper(salt)
            elif isinstance(salt, int):
                self.salt = ListWrapper([salt, salt])
            else:
                raise ValueError("The `salt` argument for `Hashing` can only be a tuple of size 2 "
                                 f"integers, or a single integer. Received: salt={salt}.")

    def _hash_values_to_bins(self, values):
        from ...ops import array_misc_ops, array_ops, math_ops, string_ops
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            # Bin 0 is kept for the mask value; the others shift up by one.
            bins -= 1
            mask = math_ops.equal(values, self.mask_value)
        if values.dtype.base_dtype.is_integer:
            values = string_ops.as_string(values)
        if self.strong_hash:
            values = string_ops.string_to_hash_bucket_strong(values, bins, key=self.salt,
                                                             name="hash")
        else:
            values = string_ops.string_to_hash_bucket_fast(values, bins, name="hash")
        if mask is not None:
            values = math_ops.add(values, array_ops.ones_like(values))
            values = array_misc_ops.where_v2(mask, array_ops.zeros_like(values), values)
        return values

    def call(self, inputs):
        from ...framework.constant_op import convert_to_tensor
        from ...ops import array_ops
        inputs = convert_to_tensor(inputs)
        ids = self._hash_values_to_bins(inputs)
        if self.output_mode == "int":
            return array_ops.identity(ids)
        return _encode(ids, self.num_bins, self.output_mode, self.dtype)

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).as_list()
        if self.output_mode == "int":
            return TensorShape(dims)
        if not dims:
            return TensorShape([self.num_bins])
        if self.output_mode == "one_hot" and dims[-1] != 1:
            return TensorShape(dims + [self.num_bins])
        return TensorShape(dims[:-1] + [self.num_bins])

    def get_config(self):
        return {**Layer.get_config(self), "num_bins": self.num_bins,
                "salt": self.salt,
                "mask_value": self.mask_value, "output_mode": self.output_mode,
                "sparse": self.sparse}
