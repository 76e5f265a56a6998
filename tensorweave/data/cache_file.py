"""The files behind `Dataset.cache(filename)`.

A complete first pass is written to `<filename>.data-00000-of-00001` (one TFRecord per
component, a SparseTensor as its indices, values and dense shape, each a serialized TensorProto)
and then `<filename>.index` (the element count), the names TF gives its cache files. Any later
pass, in this session, another session or another process, reads the elements back from those
files instead of running the input pipeline. While a pass writes, its data goes to a temp file
next to `<filename>_0.lockfile`; a pass that stops early is discarded (as TF does), unless the
input had no element left, which TF's injected prefetch would have seen. Only tensorweave reads these files: the content
is not TF's tensor-bundle format.
"""

import os
import random

import numpy as np

from ..framework import errors
from ..framework.graph_io import make_ndarray, make_tensor_proto
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..lib.io.tf_record import TFRecordWriter, tf_record_iterator

__all__ = ["exists", "read", "Writer"]

_DATA = ".data-00000-of-00001"
_INDEX = ".index"
_LOCK = "_0.lockfile"            # while a pass writes: <filename>_0.lockfile and a temp data file
_TEMP = "_0.data-00000-of-00001.tempstate"


def exists(filename):
    """True if a complete cache was written under `filename`."""
    return os.path.exists(filename + _INDEX)


def _proto_bytes(value):
    return make_tensor_proto(np.asarray(value)).SerializeToString()


def _array(record):
    from ..protos.public import TensorProto
    proto = TensorProto()
    proto.ParseFromString(record)
    return make_ndarray(proto)


def read(filename, classes):
    """The cached elements (tuples of component values) in their order."""
    records = tf_record_iterator(filename + _DATA)
    per_element = sum(3 if c is SparseTensor else 1 for c in classes)
    with open(filename + _INDEX) as f:
        count = int(f.read().strip() or 0)
    for _ in range(count):
        parts = [_array(next(records)) for _ in range(per_element)]
        element, i = [], 0
        for c in classes:
            if c is SparseTensor:
                element.append(SparseTensorValue(parts[i], parts[i + 1], parts[i + 2]))
                i += 3
            else:
                element.append(parts[i])
                i += 1
        yield tuple(element)


class Writer:
    """Writes one pass; `finish()` after the last element makes it readable."""

    def __init__(self, filename):
        self._filename = filename
        lock = filename + _LOCK
        if os.path.exists(lock):
            raise errors.AlreadyExistsError(
                None, None, f"There appears to be a concurrent caching iterator running - cache lockfile already "
                            f"exists ('{lock}'). If you are sure no other running TF computations are using this "
                            f"cache prefix, delete the lockfile and re-initialize the iterator.")
        directory = os.path.dirname(filename)
        if directory and not os.path.isdir(directory):
            raise errors.NotFoundError(None, None, f"Failed to create a directory: {directory}")
        with open(lock, "w"):
            pass
        self._count = 0
        self._temp = f"{filename}{_TEMP}{random.getrandbits(63)}"
        self._writer = TFRecordWriter(self._temp)

    def add(self, element):
        for value in element:
            if isinstance(value, SparseTensorValue):
                for part in (value.indices, value.values, value.dense_shape):
                    self._writer.write(_proto_bytes(part))
            else:
                self._writer.write(_proto_bytes(value))
        self._count += 1

    def finish(self):
        self._writer.close()
        os.replace(self._temp, self._filename + _DATA)
        with open(self._filename + _INDEX, "w") as f:
            f.write(str(self._count))
        self._release()

    def abandon(self):
        """An early stop: remove what was written (TF discards a partial cache)."""
        self._writer.close()
        try:
            os.remove(self._temp)
        except OSError:
            pass
        self._release()

    def _release(self):
        try:
            os.remove(self._filename + _LOCK)
        except OSError:
            pass
