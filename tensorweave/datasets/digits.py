"""The UCI "Optical Recognition of Handwritten Digits" data set (8x8 images, 1,797 examples).

The data ships inside the package (``datasets/data/digits.csv.gz``; see ``datasets/data/README``
for its source and licence), so loading it needs no network.

Each row of the file is 64 integer pixel counts in 0..16 (an 8x8 image, row-major) followed by
the digit label 0..9.  ``load_digits`` returns the pixels as float32 scaled to 0..1 (divided by
16) and the labels as int64::

    from tensorweave.datasets import load_digits, train_test_split
    images, labels = load_digits()              # (1797, 64) float32, (1797,) int64
    (x_train, y_train), (x_test, y_test) = train_test_split(images, labels, test_fraction=0.2)
"""

import gzip
import os

import numpy as np

__all__ = ["load_digits", "train_test_split", "DIGITS_PATH", "NUM_EXAMPLES", "NUM_CLASSES",
           "IMAGE_SHAPE"]

DIGITS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "digits.csv.gz")
NUM_EXAMPLES = 1797
NUM_CLASSES = 10
IMAGE_SHAPE = (8, 8)
_NUM_PIXELS = IMAGE_SHAPE[0] * IMAGE_SHAPE[1]
_MAX_PIXEL = 16.0

_cache = None


def _read_raw():
    """Parses the gzipped CSV once; returns (pixels uint8 [N, 64], labels int64 [N])."""
    global _cache
    if _cache is None:
        with gzip.open(DIGITS_PATH, "rt", encoding="ascii") as f:
            table = np.loadtxt(f, delimiter=",", dtype=np.int64, ndmin=2)
        if table.shape != (NUM_EXAMPLES, _NUM_PIXELS + 1):
            raise ValueError("%s: expected a %d x %d table, found %s"
                             % (DIGITS_PATH, NUM_EXAMPLES, _NUM_PIXELS + 1, table.shape))
        pixels, labels = table[:, :_NUM_PIXELS], table[:, _NUM_PIXELS]
        if pixels.min() < 0 or pixels.max() > _MAX_PIXEL or labels.min() < 0 or labels.max() > 9:
            raise ValueError("%s: values out of range (pixels 0..16, labels 0..9)" % DIGITS_PATH)
        pixels = pixels.astype(np.uint8)
        labels = np.ascontiguousarray(labels)
        pixels.flags.writeable = False
        labels.flags.writeable = False
        _cache = (pixels, labels)
    return _cache


def load_digits(flatten=True, scale=True):
    """Loads the 1,797 handwritten digits.

    Args:
      flatten: if True (default) images are ``[1797, 64]`` (row-major 8x8); if False ``[1797, 8, 8]``.
      scale: if True (default) pixels are float32 in ``[0, 1]`` (the raw 0..16 count divided by 16);
        if False they are float32 raw counts 0..16.

    Returns:
      ``(images, labels)``: ``images`` float32 as above, ``labels`` int64 ``[1797]`` in 0..9.
      Both are fresh arrays the caller may modify.
    """
    pixels, labels = _read_raw()
    images = pixels.astype(np.float32)
    if scale:
        images /= np.float32(_MAX_PIXEL)
    if not flatten:
        images = images.reshape((-1,) + IMAGE_SHAPE)
    return images, labels.copy()


def train_test_split(images, labels, test_fraction=0.2, seed=0):
    """Deterministic, stratified split into a training and a held-out set.

    Each class is shuffled with ``np.random.RandomState(seed)`` and its last ``round(n_c *
    test_fraction)`` examples go to the test set, so every class appears in both sets in
    proportion.  The same arguments always give the same split, on every platform.

    Returns:
      ``((train_images, train_labels), (test_images, test_labels))``; the training set is in a
      seeded random order (classes interleaved), the test set in original order.
    """
    images = np.asarray(images)
    labels = np.asarray(labels)
    if images.shape[0] != labels.shape[0]:
        raise ValueError("images and labels differ in length: %d vs %d"
                         % (images.shape[0], labels.shape[0]))
    if not 0.0 < test_fraction < 1.0:
        raise ValueError("test_fraction must be in (0, 1), got %r" % (test_fraction,))
    rng = np.random.RandomState(seed)
    train_idx, test_idx = [], []
    for c in np.unique(labels):
        idx = np.flatnonzero(labels == c)
        idx = idx[rng.permutation(idx.size)]
        n_test = int(round(idx.size * test_fraction))
        train_idx.append(idx[:idx.size - n_test])
        test_idx.append(idx[idx.size - n_test:])
    train_idx = np.concatenate(train_idx)
    train_idx = train_idx[rng.permutation(train_idx.size)]
    test_idx = np.sort(np.concatenate(test_idx))
    return (images[train_idx], labels[train_idx]), (images[test_idx], labels[test_idx])
