"""`tf.data`: input pipelines as datasets, read through iterators (TF1 graph-mode API).

    dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1000, seed=1).batch(32)
    it = dataset.make_initializable_iterator()      # or tf.data.make_one_shot_iterator(dataset)
    next_x, next_y = it.get_next()                  # OutOfRangeError after the last batch
    sess.run(it.initializer, feed_dict=...)

map/filter functions are traced once into graph functions (FuncGraph); prefetch and
map(num_parallel_calls) run in daemon threads with bounded buffers.
"""

from .dataset_ops import AUTOTUNE, Dataset, DatasetV1
from .iterator_ops import (Iterator, get_output_classes, get_output_shapes, get_output_types,
                           make_initializable_iterator, make_one_shot_iterator)
from .readers import FixedLengthRecordDataset, TextLineDataset, TFRecordDataset
from .cardinality import INFINITE as INFINITE_CARDINALITY, UNKNOWN as UNKNOWN_CARDINALITY
from .misc_ops import DatasetSpec
from .options import Options, ThreadingOptions
from . import experimental as _experimental

DatasetV2 = Dataset
experimental = _experimental.namespace()

__all__ = ["Dataset", "DatasetV1", "DatasetV2", "Iterator", "TFRecordDataset", "TextLineDataset",
           "FixedLengthRecordDataset", "make_one_shot_iterator", "make_initializable_iterator",
           "get_output_types", "get_output_shapes", "get_output_classes", "experimental",
           "AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "DatasetSpec", "Options",
           "ThreadingOptions"]
