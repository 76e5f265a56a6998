"""Small data sets that ship with tensorweave, for examples, demos and end-to-end tests.

Not part of TensorFlow's API (TF1 users got MNIST from ``tensorflow.examples.tutorials``); these
load from files inside the package and never touch the network.
"""

from .digits import load_digits, train_test_split

__all__ = ["load_digits", "train_test_split"]
