"""Boston housing prices: 13 features, split (seeded shuffle) into train and test."""

import os

import numpy as np

from ._fetch import get_file
from .mnist import _ORIGIN


def load_data(path="boston_housing.npz", test_split=0.2, seed=113, cache_dir=None):
    assert 0 <= test_split < 1
    if cache_dir:
        cache_dir = os.path.expanduser(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
    path = get_file(path, origin=_ORIGIN + "boston_housing.npz", cache_dir=cache_dir,
                    file_hash="f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5")
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    n = int(len(x) * (1 - test_split))
    return (np.array(x[:n]), np.array(y[:n])), (np.array(x[n:]), np.array(y[n:]))
