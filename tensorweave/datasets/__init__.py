"""Small data sets that ship with tensorweave, for examples, demos and end-to-end tests.

Not part of TensorFlow's API (TF1 users got MNIST from ``tensorflow.examples.tutorials``); these
load from files inside the package and never touch the network.
"""

from .digits import load_digits, train_test_split
from . import mnist  # noqa: F401  (MNIST from local IDX files)
from .text import kjv_raw_data, load_kjv, ptb_iterator

__all__ = ["load_digits", "train_test_split", "kjv_raw_data", "load_kjv", "ptb_iterator"]
