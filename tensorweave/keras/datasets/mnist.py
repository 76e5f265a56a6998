"""MNIST digits: ((x_train, y_train), (x_test, y_test)), uint8 images [n, 28, 28]."""

import os

import numpy as np

from ._fetch import get_file

_ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def load_data(path="mnist.npz", cache_dir=None):
    if cache_dir:
        cache_dir = os.path.expanduser(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
    path = get_file(path, origin=_ORIGIN + "mnist.npz", cache_dir=cache_dir,
                    file_hash="731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1")
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
