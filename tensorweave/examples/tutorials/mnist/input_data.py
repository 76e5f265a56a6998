"""`input_data.read_data_sets`, the loader TF1's MNIST tutorials import:

    from tensorweave.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets("MNIST_data/", one_hot=True)
    batch_xs, batch_ys = mnist.train.next_batch(100)

It reads the four IDX files (gzip or plain) from `train_dir` through `tensorweave.datasets.mnist`.
Nothing is downloaded: when a file is missing the error says which files to put where.
"""

import os

import numpy as np

from ....datasets import mnist as _mnist
from ....datasets.mnist import DataSet, Datasets, dense_to_one_hot  # noqa: F401

__all__ = ["read_data_sets", "DataSet", "Datasets", "dense_to_one_hot", "maybe_download"]

def _numpy_dtype(dtype):
    """tf.float32 / tf.uint8 (or their NumPy forms) as a NumPy dtype; TypeError otherwise."""
    np_dtype = getattr(dtype, "as_numpy_dtype", dtype)
    try:
        np_dtype = np.dtype(np_dtype)
    except TypeError:
        raise TypeError("Invalid image dtype %r, expected uint8 or float32" % (dtype,)) from None
    if np_dtype not in (np.dtype(np.uint8), np.dtype(np.float32)):
        raise TypeError("Invalid image dtype %r, expected uint8 or float32" % (dtype,))
    return np_dtype


class _FakeDataSet:
    """The tutorial's fake_data=True set: every image is 784 ones, every label class 0."""

    def __init__(self, one_hot):
        self._one_hot = one_hot
        self._epochs_completed = 0
        self.images = np.zeros((0, 784), np.float32)
        self.labels = np.zeros((0, 10) if one_hot else (0,), np.float32 if one_hot else np.uint8)
        self.num_examples = 10000

    epochs_completed = property(lambda self: self._epochs_completed)

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        images = np.ones((batch_size, 784), np.float32)
        if self._one_hot:
            labels = np.zeros((batch_size, 10), np.float32)
            labels[:, 0] = 1
        else:
            labels = np.zeros((batch_size,), np.uint8)
        return images, labels


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=np.float32, reshape=True,
                   validation_size=5000, seed=None, source_url=None):
    """train / validation / test DataSets from the MNIST IDX files in `train_dir` (local only).

    Images are [n, 784] float32 in [0, 1] (dtype=tf.float32, reshape=True) or uint8 0..255;
    labels are class ids (uint8) or, with one_hot, float32 [n, 10]. The first `validation_size`
    training images form the validation set.
    """
    if fake_data:
        return Datasets(_FakeDataSet(one_hot), _FakeDataSet(one_hot), _FakeDataSet(one_hot))
    # A missing file raises FileNotFoundError naming the directory and the four files to put there.
    return _mnist.read_data_sets(train_dir, one_hot=one_hot, dtype=_numpy_dtype(dtype), reshape=reshape,
                                 validation_size=validation_size, seed=seed)


def maybe_download(filename, work_directory, source_url=None):
    """The path of `filename` in `work_directory`; it must already be there (no download)."""
    path = os.path.join(work_directory, filename)
    if not os.path.exists(path):
        raise FileNotFoundError("%s not found: tensorweave does not download data; put the file at that path."
                                % path)
    return path
