"""CIFAR-10: refused (TF's batches are Python pickles, see _fetch.refuse_pickled)."""

from ._fetch import refuse_pickled


def load_data(cache_dir=None):
    refuse_pickled("cifar10")
