"""`tf.ragged.RaggedTensorValue`: what `Session.run` returns for a RaggedTensor in graph mode —
NumPy `values` (or a nested RaggedTensorValue) cut into rows by a 1-D int `row_splits` array."""

import numpy as np

__all__ = ["RaggedTensorValue"]


class RaggedTensorValue:
    """The value of a RaggedTensor: row i is `values[row_splits[i]:row_splits[i + 1]]`."""

    def __init__(self, values, row_splits):
        if not (isinstance(row_splits, (np.ndarray, np.generic)) and
                row_splits.dtype in (np.int64, np.int32) and row_splits.ndim == 1):
            raise TypeError("row_splits must be a 1D int32 or int64 numpy array")
        if not isinstance(values, (np.ndarray, np.generic, RaggedTensorValue)):
            raise TypeError("values must be a numpy array or a RaggedTensorValue")
        if isinstance(values, RaggedTensorValue) and row_splits.dtype != values.row_splits.dtype:
            raise ValueError("row_splits and values.row_splits must have the same dtype")
        self._values = values
        self._row_splits = row_splits

    values = property(lambda self: self._values, doc="The concatenated rows.")
    row_splits = property(lambda self: self._row_splits, doc="Where each row starts in `values`.")
    dtype = property(lambda self: self._values.dtype, doc="The NumPy dtype of the values.")

    @property
    def flat_values(self):
        """The innermost NumPy values array."""
        v = self._values
        while isinstance(v, RaggedTensorValue):
            v = v.values
        return v

    @property
    def nested_row_splits(self):
        """The row_splits of every ragged dimension, outermost first (a tuple)."""
        out, v = [self._row_splits], self._values
        while isinstance(v, RaggedTensorValue):
            out.append(v.row_splits)
            v = v.values
        return tuple(out)

    @property
    def ragged_rank(self):
        return self._values.ragged_rank + 1 if isinstance(self._values, RaggedTensorValue) else 1

    @property
    def shape(self):
        """(nrows, None, inner dims...), as TF's tuple."""
        return (self._row_splits.shape[0] - 1,) + (None,) + self._values.shape[1:]

    def to_list(self):
        """The value as nested Python lists."""
        inner = self._values.to_list() if isinstance(self._values, RaggedTensorValue) else self._values.tolist()
        s = self._row_splits
        return [inner[s[i]:s[i + 1]] for i in range(len(s) - 1)]

    def __str__(self):
        return "<tf.RaggedTensorValue %s>" % self.to_list()

    def __repr__(self):
        return "tf.RaggedTensorValue(values=%r, row_splits=%r)" % (self._values, self._row_splits)
