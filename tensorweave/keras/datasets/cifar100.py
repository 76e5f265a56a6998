"""CIFAR-100: refused (TF's batches are Python pickles, see _fetch.refuse_pickled)."""

from ._fetch import refuse_pickled


def load_data(label_mode="fine", cache_dir=None):
    if label_mode not in ["fine", "coarse"]:
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`. '
                         f"Received: label_mode={label_mode}.")
    refuse_pickled("cifar100")
