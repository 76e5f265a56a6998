"""Writes small synthetic MNIST IDX files (the four files input_data.read_data_sets reads): each
class is a Gaussian blob at its own place on the 28 x 28 grid (two rows of five), jittered by up
to two pixels, with uniform noise, so a model can learn it in a few hundred steps.

    python synthetic_mnist.py DIR [n_train] [n_test]
"""

import os
import sys

import numpy as np

ROWS = COLS = 28


def blobs(n, rng):
    labels = rng.randint(0, 10, size=n).astype(np.uint8)
    cy = 8.0 + 12.0 * (labels // 5) + rng.uniform(-2, 2, size=n)
    cx = 4.0 + 5.0 * (labels % 5) + rng.uniform(-2, 2, size=n)
    yy, xx = np.mgrid[0:ROWS, 0:COLS].astype(np.float32)
    d2 = (yy[None] - cy[:, None, None]) ** 2 + (xx[None] - cx[:, None, None]) ** 2
    img = np.exp(-d2 / (2 * 2.0 ** 2)) * 220.0 + rng.uniform(0, 35, size=(n, ROWS, COLS))
    return np.clip(img, 0, 255).astype(np.uint8), labels


def idx_bytes(magic, arr):
    header = magic.to_bytes(4, "big") + b"".join(int(d).to_bytes(4, "big") for d in arr.shape)
    return header + arr.tobytes()


def write(directory, n_train=5600, n_test=100, seed=0):
    """n_train training images (the loader keeps the first 5000 for validation by default)."""
    os.makedirs(directory, exist_ok=True)
    rng = np.random.RandomState(seed)
    for prefix, n in (("train", n_train), ("t10k", n_test)):
        images, labels = blobs(n, rng)
        with open(os.path.join(directory, "%s-images-idx3-ubyte" % prefix), "wb") as f:
            f.write(idx_bytes(2051, images))
        with open(os.path.join(directory, "%s-labels-idx1-ubyte" % prefix), "wb") as f:
            f.write(idx_bytes(2049, labels))
    return directory


if __name__ == "__main__":
    write(sys.argv[1], *(int(a) for a in sys.argv[2:]))
