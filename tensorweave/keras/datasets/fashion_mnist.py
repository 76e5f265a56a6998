"""Fashion-MNIST: ((x_train, y_train), (x_test, y_test)), uint8 images [n, 28, 28]."""

import gzip
import os

import numpy as np

from ._fetch import get_file
from .mnist import _ORIGIN


def load_data(cache_dir=None):
    files = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
             "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz"]
    if cache_dir:
        cache_dir = os.path.expanduser(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
    paths = [get_file(f, origin=_ORIGIN + f, cache_dir=cache_dir,
                      cache_subdir=os.path.join("datasets", "fashion-mnist")) for f in files]

    def read(path, offset):
        with gzip.open(path, "rb") as f:
            return np.frombuffer(f.read(), np.uint8, offset=offset)
    y_train, y_test = read(paths[0], 8), read(paths[2], 8)
    x_train = read(paths[1], 16).reshape(len(y_train), 28, 28)
    x_test = read(paths[3], 16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
