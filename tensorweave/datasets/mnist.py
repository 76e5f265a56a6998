"""MNIST from local IDX files (the format of yann.lecun.com's `train-images-idx3-ubyte.gz` & co.).

    images = load_images("train-images-idx3-ubyte.gz")   # uint8 [n, 28, 28]
    labels = load_labels("train-labels-idx1-ubyte.gz")   # uint8 [n]
    mnist = read_data_sets("MNIST_data/", one_hot=True)  # like the TF1 tutorial's input_data
    xs, ys = mnist.train.next_batch(100)

Files may be gzip-compressed or plain. Nothing is downloaded: put the four files in `train_dir`.
An IDX file is a big-endian header (magic 2051 for images with n, rows, cols; 2049 for labels
with n) followed by unsigned bytes.
"""

import gzip
import os

import numpy as np

__all__ = ["load", "load_images", "load_labels", "read_data_sets", "DataSet", "Datasets", "dense_to_one_hot"]

IMAGES_MAGIC = 2051
LABELS_MAGIC = 2049

TRAIN_IMAGES = "train-images-idx3-ubyte"
TRAIN_LABELS = "train-labels-idx1-ubyte"
TEST_IMAGES = "t10k-images-idx3-ubyte"
TEST_LABELS = "t10k-labels-idx1-ubyte"


def _read(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise FileNotFoundError(f"MNIST file not found: {path}") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as e:
            raise ValueError(f"{path}: corrupt gzip data ({e})") from None
    return data


def _header(data, path, magic, ndims):
    need = 4 * (1 + ndims)
    got = int.from_bytes(data[:4], "big") if len(data) >= 4 else None
    if got is not None and got != magic:
        raise ValueError(f"Invalid magic number {got} in MNIST file {path} (expected {magic}: "
                         f"{'images' if magic == IMAGES_MAGIC else 'labels'})")
    if len(data) < need:
        raise ValueError(f"{path}: too short for an IDX header ({len(data)} bytes)")
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndims)]
    size = int(np.prod(dims))
    if len(data) - need != size:
        raise ValueError(f"{path}: header says {dims} ({size} bytes of data) but the file holds "
                         f"{len(data) - need} bytes after the header")
    return dims, need


def load_images(path):
    """uint8 array [n, rows, cols] from an IDX3 images file (gzip or plain)."""
    data = _read(path)
    dims, off = _header(data, path, IMAGES_MAGIC, 3)
    return np.frombuffer(data, dtype=np.uint8, offset=off).reshape(dims).copy()


def load_labels(path):
    """uint8 array [n] from an IDX1 labels file (gzip or plain)."""
    data = _read(path)
    dims, off = _header(data, path, LABELS_MAGIC, 1)
    return np.frombuffer(data, dtype=np.uint8, offset=off).reshape(dims).copy()


def load(path):
    """Images or labels from an IDX file, chosen by its magic number."""
    data = _read(path)
    if len(data) >= 4 and int.from_bytes(data[:4], "big") == LABELS_MAGIC:
        return load_labels(path)
    return load_images(path)


def dense_to_one_hot(labels_dense, num_classes=10):
    labels_dense = np.asarray(labels_dense).reshape(-1)
    out = np.zeros((labels_dense.shape[0], num_classes), np.float32 if num_classes else np.float32)
    out[np.arange(labels_dense.shape[0]), labels_dense.astype(np.int64)] = 1
    return out


class DataSet:
    """Images and labels with `next_batch` (the TF1 tutorial's mnist.train / .validation / .test)."""

    def __init__(self, images, labels, dtype=np.float32, reshape=True, seed=None):
        images = np.asarray(images)
        labels = np.asarray(labels)
        if images.shape[0] != labels.shape[0]:
            raise ValueError(f"images.shape: {images.shape} labels.shape: {labels.shape}")
        self._num_examples = images.shape[0]
        if reshape and images.ndim == 3:
            images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
        elif reshape and images.ndim == 4:
            images = images.reshape(images.shape[0], -1)
        if np.dtype(dtype) == np.float32:
            images = images.astype(np.float32) * (1.0 / 255.0)
        elif np.dtype(dtype) != np.uint8:
            raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
        self._images = images
        self._labels = labels
        self._epochs_completed = 0
        self._index_in_epoch = 0
        self._rng = np.random.RandomState(seed)

    images = property(lambda self: self._images)
    labels = property(lambda self: self._labels)
    num_examples = property(lambda self: self._num_examples)
    epochs_completed = property(lambda self: self._epochs_completed)

    def next_batch(self, batch_size, shuffle=True):
        """The next `batch_size` examples; reshuffles at each epoch start (when `shuffle`)."""
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            perm = self._rng.permutation(self._num_examples)
            self._images, self._labels = self._images[perm], self._labels[perm]
        if start + batch_size > self._num_examples:
            self._epochs_completed += 1
            rest = self._num_examples - start
            images_rest, labels_rest = self._images[start:], self._labels[start:]
            if shuffle:
                perm = self._rng.permutation(self._num_examples)
                self._images, self._labels = self._images[perm], self._labels[perm]
            start = 0
            self._index_in_epoch = batch_size - rest
            end = self._index_in_epoch
            return (np.concatenate((images_rest, self._images[start:end]), axis=0),
                    np.concatenate((labels_rest, self._labels[start:end]), axis=0))
        self._index_in_epoch += batch_size
        end = self._index_in_epoch
        return self._images[start:end], self._labels[start:end]


class Datasets:
    def __init__(self, train, validation, test):
        self.train, self.validation, self.test = train, validation, test

    def __iter__(self):
        return iter((self.train, self.validation, self.test))


def _find(train_dir, base):
    for name in (base + ".gz", base, base.replace("-idx", ".idx")):
        p = os.path.join(train_dir, name)
        if os.path.exists(p):
            return p
    raise FileNotFoundError(
        f"MNIST file {base}.gz (or {base}) not found in {os.path.abspath(train_dir)!r}. tensorweave does not "
        f"download data: put train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
        f"t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz there.")


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=np.float32, reshape=True,
                   validation_size=5000, seed=None, source_url=None):
    """train / validation / test DataSets from the four IDX files in `train_dir` (local only)."""
    if fake_data:
        raise ValueError("fake_data is not supported")
    train_images = load_images(_find(train_dir, TRAIN_IMAGES))
    train_labels = load_labels(_find(train_dir, TRAIN_LABELS))
    test_images = load_images(_find(train_dir, TEST_IMAGES))
    test_labels = load_labels(_find(train_dir, TEST_LABELS))
    if one_hot:
        train_labels, test_labels = dense_to_one_hot(train_labels), dense_to_one_hot(test_labels)
    if not 0 <= validation_size <= len(train_images):
        raise ValueError(f"Validation size should be between 0 and {len(train_images)}. Received: "
                         f"{validation_size}.")
    validation = DataSet(train_images[:validation_size], train_labels[:validation_size], dtype, reshape, seed)
    train = DataSet(train_images[validation_size:], train_labels[validation_size:], dtype, reshape, seed)
    test = DataSet(test_images, test_labels, dtype, reshape, seed)
    return Datasets(train, validation, test)
